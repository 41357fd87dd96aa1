"""what a session's last write did, as a code and its params

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 09:00:00.000000

`sessions.last_change` held English words ("Round 3 added", "Ann renamed to Bo"), shown as
they were to every phone. `sessions.change` holds a code and its params instead
({"code": "round_added", "round": 3}, services/changes.py), worded in each phone's own
language. The English texts stored are read back into codes where they parse; any other text
becomes the generic "session_changed". The downgrade writes the English words again.
Plain SQL and Python on both databases; nothing of the app is imported. No batch mode: on
SQLite it would copy `sessions` and cascade-delete every seat and round (see 0004).
"""

import json
import re

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

ROUND_WORDS = {
    "added": "round_added",
    "changed": "round_changed",
    "deleted": "round_deleted",
    "put back": "round_put_back",
    "taken back": "round_taken_back",
    "changed back": "round_changed_back",
}
PLAIN = {
    "One more round agreed": {"code": "rounds_agreed", "count": 1},
    "Turn clock turned off": {"code": "clock_off"},
    "Notes changed": {"code": "notes_changed"},
    "Notes cleared": {"code": "notes_cleared"},
    "Session changed": {"code": "session_changed"},
}


def parse(text: str) -> dict:
    """The code and params of an English last change, as services/touch() wrote them."""
    if text in PLAIN:
        return dict(PLAIN[text])
    found = re.fullmatch(r"Round (\d+) (" + "|".join(ROUND_WORDS) + ")", text)
    if found:
        return {"code": ROUND_WORDS[found[2]], "round": int(found[1])}
    found = re.fullmatch(r"(\d+) more rounds agreed", text)
    if found:
        return {"code": "rounds_agreed", "count": int(found[1])}
    found = re.fullmatch(r"Turn clock set to (\d+) s", text)
    if found:
        return {"code": "clock_set", "seconds": int(found[1])}
    before, renamed, after = text.partition(" renamed to ")
    if renamed and before and after:
        return {"code": "player_renamed", "before": before, "after": after}
    return {"code": "session_changed"}


def words(change: dict) -> str:
    """The English words of a stored change, for the downgrade."""
    code = change.get("code")
    for text, plain in PLAIN.items():
        if plain == change:
            return text
    for word, round_code in ROUND_WORDS.items():
        if code == round_code:
            return f"Round {change.get('round')} {word}"
    if code == "rounds_agreed":
        return f"{change.get('count')} more rounds agreed"
    if code == "clock_set":
        return f"Turn clock set to {change.get('seconds')} s"
    if code == "player_renamed":
        return f"{change.get('before')} renamed to {change.get('after')}"[:120]
    return "Session changed"


# The columns this migration reads and writes (a migration declares its own: no app code).
sessions = sa.table(
    "sessions",
    sa.column("id", sa.Integer),
    sa.column("last_change", sa.String),
    sa.column("change", sa.JSON),
)


def upgrade() -> None:
    op.add_column("sessions", sa.Column("change", sa.JSON(), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(sessions.c.id, sessions.c.last_change).where(sessions.c.last_change.is_not(None))
    ).all()
    for ident, text in rows:
        connection.execute(
            sessions.update().where(sessions.c.id == ident).values(change=parse(text))
        )
    op.drop_column("sessions", "last_change")


def downgrade() -> None:
    op.add_column("sessions", sa.Column("last_change", sa.String(length=120), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(sessions.c.id, sessions.c.change).where(sessions.c.change.is_not(None))
    ).all()
    for ident, change in rows:
        if isinstance(change, str):  # a driver that hands JSON back as text
            change = json.loads(change)
        if change is None:
            continue
        connection.execute(
            sessions.update().where(sessions.c.id == ident).values(last_change=words(change))
        )
    op.drop_column("sessions", "change")
