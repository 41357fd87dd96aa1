"""Initial revision: an empty schema so `flask db upgrade` works on a fresh database.

Revision ID: 0001
Revises:
Create Date: 2025-11-30 00:00:00
"""

# revision identifiers, used by Alembic.
revision: str = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
