"""signed-out cookies

Revision ID: 0010
Create Date: 2026-12-03 09:00:00.000000

Every "remember this phone" cookie now carries a random id; signing out records it here
until the cookie would expire, so a copy of a signed-out cookie is refused
(services/access.py). Cookies signed before this revision carry no id and are refused: each
phone signs in once more.
"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "signed_out_cookies",
        sa.Column("token_id", sa.String(length=32), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("token_id", name=op.f("pk_signed_out_cookies")),
    )
    with op.batch_alter_table("signed_out_cookies", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_signed_out_cookies_expires_at"), ["expires_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("signed_out_cookies", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_signed_out_cookies_expires_at"))
    op.drop_table("signed_out_cookies")
