"""What identifies a session's content (its stamp, its version) and the notes' fingerprint."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import sqlalchemy as sa

from scorekeeper.extensions import db, read_at_once
from scorekeeper.models import HOUSEHOLD_ID, GameSession, Household
from scorekeeper.services.errors import not_found
from scorekeeper.services.views import MAX_ID


@dataclass(frozen=True)
class Stamp:
    """What identifies a session's content: its id, its version and the household's generation
    (docs/DESIGN.md, "stamp")."""

    id: int
    version: int
    generation: str

    @property
    def tag(self) -> str:
        """The opaque text of the session's ETag: `s<id>-v<version>-<generation>`."""
        return f"s{self.id}-v{self.version}-{self.generation or '0'}"


# Built once (a poll's whole cost is a few hundred microseconds: building the statement each
# time cost more than running it); always one row, the household's and the session's or NULLs.
_HOUSEHOLD_AND_STAMP = (
    sa.select(
        Household.passphrase_hash,
        Household.cookie_epoch,
        Household.generation,
        GameSession.version,
    )
    .select_from(sa.select(sa.literal(1).label("one")).subquery())
    .outerjoin(Household, Household.id == HOUSEHOLD_ID)
    .outerjoin(GameSession, GameSession.id == sa.bindparam("session_id"))
)


def household_and_stamp(
    session_id: int,
) -> tuple[tuple[str | None, int, str | None] | None, Stamp | None]:
    """A poll's one read, outside any transaction (extensions.read_at_once): the household's
    (passphrase hash, cookie epoch, generation), None with no row yet, and the session's stamp."""
    row = read_at_once(_HOUSEHOLD_AND_STAMP, {"session_id": session_id})
    stamp = None if row.version is None else Stamp(session_id, row.version, row.generation or "")
    if row.cookie_epoch is None:
        return None, stamp
    return (row.passphrase_hash, row.cookie_epoch, row.generation), stamp


def session_stamp(session_id: int, peeked: tuple[int, Stamp | None] | None = None) -> Stamp:
    """The session's stamp in one small statement: answers "has it changed?" for every poll
    (`peeked`: as a poll's household_and_stamp read it already, in this request)."""
    if not 1 <= session_id <= MAX_ID:
        raise not_found("session", session_id)
    if peeked is not None and peeked[0] == session_id:
        if peeked[1] is None:
            raise not_found("session", session_id)
        return peeked[1]
    row = db.session.execute(
        sa.select(GameSession.version, Household.generation)
        .outerjoin(Household, Household.id == HOUSEHOLD_ID)
        .where(GameSession.id == session_id)
    ).first()
    if row is None:
        raise not_found("session", session_id)
    return Stamp(session_id, row.version, row.generation or "")


def notes_tag(notes: str) -> str:
    """A short fingerprint of the notes as a page showed them, which that page's Save names
    (save_notes): notes typed over other notes than those stored now are refused."""
    return hashlib.sha256(notes.encode()).hexdigest()[:16]
