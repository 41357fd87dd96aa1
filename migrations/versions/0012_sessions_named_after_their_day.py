"""sessions named after their day keep no name: the pages say the day in the reader's language

Revision ID: 0012
Create Date: 2026-12-02 10:00:00.000000

A session made without a name was stored under its day in the language of the phone that
made it ("tirsdag 1 december"), and an English phone read it in Danish. Now such a session
stores "" and every page names it after its day in the reader's language. This clears the
names stored in that form: a name that is exactly what Babel's `format_date(day,
"EEEE d MMMM")` gave for the session's day (its `played_on`, or the date it was created) in
one of the app's languages. A real name, or a day name of another day, stays. Downgrade gives
an unnamed session its day in English, as the app named it when no phone said a language.
Nothing of the app is imported: the pattern and the languages are written here.
"""

from datetime import date, datetime

import sqlalchemy as sa
from alembic import op
from babel.dates import format_date

# revision identifiers, used by Alembic.
revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

DAY_NAME = "EEEE d MMMM"
LANGUAGES = ("en", "da", "et", "fi", "fr", "pl")

sessions = sa.table(
    "sessions",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("played_on", sa.Date),
    sa.column("created_at", sa.DateTime),
)


def day_names(played_on: date, created_at: datetime | None) -> set[str]:
    """Every name the app gave a session of that day, in each of its languages."""
    days = {played_on} | ({created_at.date()} if created_at else set())
    return {format_date(day, DAY_NAME, locale=lang) for day in days for lang in LANGUAGES}


def upgrade() -> None:
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(sessions.c.id, sessions.c.name, sessions.c.played_on, sessions.c.created_at)
    ).all()
    cleared = [
        row.id for row in rows if row.name and row.name in day_names(row.played_on, row.created_at)
    ]
    for start in range(0, len(cleared), 500):
        chunk = cleared[start : start + 500]
        bind.execute(sessions.update().where(sessions.c.id.in_(chunk)).values(name=""))


def downgrade() -> None:
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(sessions.c.id, sessions.c.played_on).where(sessions.c.name == "")
    ).all()
    for row in rows:
        name = format_date(row.played_on, DAY_NAME, locale="en")
        bind.execute(sessions.update().where(sessions.c.id == row.id).values(name=name))
