"""round versions unique within their session; the household's restore generation

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 09:00:00.000000

A round's version is now the session version that wrote it last, so no two rounds of a session
ever share one (an edit or a delete that names a version can only mean that round). The rounds
already stored all started at 1: each gets a version above every version its session has had
(the session's version plus the round's number), and the session's version moves past them.
`household.generation` is drawn afresh by every restore and import (services/backup.py).
Plain SQL on both databases; nothing of the app is imported.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("household", sa.Column("generation", sa.String(length=32), nullable=True))
    op.execute(
        "UPDATE rounds SET version = number"
        " + (SELECT sessions.version FROM sessions WHERE sessions.id = rounds.session_id)"
    )
    op.execute(
        "UPDATE sessions SET version = version"
        " + COALESCE((SELECT MAX(rounds.number) FROM rounds"
        " WHERE rounds.session_id = sessions.id), 0)"
    )


def downgrade() -> None:
    # Versions only ever grow: the larger ones stay true after the downgrade.
    op.drop_column("household", "generation")
