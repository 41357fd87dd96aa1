"""the key of the form that made a session; the version of the last renumbering of its rounds

Revision ID: 0011
Create Date: 2026-12-10 09:00:00.000000

`sessions.creation_key` holds the idempotency key of the new-session form that made the
session (unique where given), so the same form sent twice makes one session.
`sessions.numbering_version` is the session's version at the last write that added, removed
or renumbered its rounds (0 until the first one after this upgrade): a new round that names an
older version of the table is refused when this moved past it. Plain SQL on both databases;
nothing of the app is imported. No batch mode: on SQLite it would copy `sessions` and
cascade-delete every seat and round (see 0004).
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "sessions",
        sa.Column("numbering_version", sa.Integer(), server_default="0", nullable=False),
    )
    op.add_column("sessions", sa.Column("creation_key", sa.String(length=64), nullable=True))
    op.create_index("ix_sessions_creation_key", "sessions", ["creation_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_sessions_creation_key", table_name="sessions")
    # SQLite drops a column in place since 3.35 (ALTER TABLE ... DROP COLUMN): no table copy.
    op.drop_column("sessions", "creation_key")
    op.drop_column("sessions", "numbering_version")
