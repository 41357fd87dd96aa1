"""the household's one row, made with the database

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03 09:00:00.000000

The household's row (id 1) used to be made at the first passphrase or restore; a database
without it was read as "no passphrase". From now on a missing row closes the gate (a restore
or a set-up under way), so every database holds the row from the start: this inserts it
where it is missing. The downgrade leaves it (a row with no passphrase is what the older
code made itself). Plain SQL on both databases; nothing of the app is imported.
"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "INSERT INTO household (id, passphrase_hash, changed_at, cookie_epoch)"
        " SELECT 1, NULL, CURRENT_TIMESTAMP, 0"
        " WHERE NOT EXISTS (SELECT 1 FROM household WHERE id = 1)"
    )


def downgrade() -> None:
    pass  # the row stays: the older code reads it as "no passphrase", as it made it
