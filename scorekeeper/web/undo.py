"""The Undo offer: this phone's last add, edit or delete of a round, kept in its cookie
while the table stays as that change left it."""

from __future__ import annotations

import json
from typing import Any

from flask import session

from scorekeeper.services import stamps
from scorekeeper.web.text import lazy_text as _l

UNDO_KEY = "undo"

# A round body bigger than this is not kept for an undo: the cookie holds about 4 KB in all.
MAX_UNDO_BODY = 1500

#: What the Undo says it did, by kind, and what it says when the table changed since.
UNDONE = {
    "add": _l("Round %(number)s is taken back."),
    "edit": _l("Round %(number)s is as it was before the edit."),
    "delete": _l("Round %(number)s is back."),
}
TOO_LATE = {
    "add": _l("The table changed since that round was added: delete it instead."),
    "edit": _l("The table changed since that edit: change the round again instead."),
    "delete": _l("The table changed since that delete: enter the round again instead."),
}


def remember_undo(
    kind: str, stamp: stamps.Stamp, number: int, body: dict[str, Any] | None = None
) -> None:
    """Offer to take back this phone's last add, edit or delete of a round (`body`: its inputs
    before), while the session stays as this change left it (`stamp`)."""
    if body is not None and len(json.dumps(body)) > MAX_UNDO_BODY:
        forget_undo()
        return
    session[UNDO_KEY] = {
        "kind": kind,
        "session_id": stamp.id,
        "number": number,
        "body": body,
        "version": stamp.version,
        "stamp": stamp.tag,
    }


def pending_undo(stamp: stamps.Stamp) -> dict[str, Any] | None:
    """This phone's last change to the rounds of this session, if nothing changed since (on
    any phone, or by a restore): what the Undo button would take back."""
    undo = session.get(UNDO_KEY)
    if isinstance(undo, dict) and undo.get("stamp") == stamp.tag:
        return undo
    return None


def forget_undo() -> None:
    """Another change was made: an Undo would now put the round back in a changed table."""
    session.pop(UNDO_KEY, None)
