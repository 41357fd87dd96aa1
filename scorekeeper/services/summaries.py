"""Every session's summary and every seat's line worked out again from the rounds, with the
rules of the day, a batch of sessions at a time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Entry, GameSession, Round, Seat
from scorekeeper.services.writes import (
    SEAT_LINE,
    begin_write,
    finished_at_of,
    seat_lines,
    standing_of,
    table_of,
)

# Sessions worked out per batch: three reads and at most two batches of updates each, and
# the memory of a few hundred sessions' rounds, however long the history.
BATCH = 500

_sessions = cast(sa.Table, GameSession.__table__)
_seats = cast(sa.Table, Seat.__table__)


@dataclass(frozen=True)
class Resummarised:
    """What a pass over the history did: the sessions it read and those whose summary or
    seat lines it changed."""

    sessions: int
    changed: int


def resummarise(batch: int = BATCH) -> Resummarised:
    """Work every session's summary and its seats' lines out again from its rounds, one
    transaction per batch of sessions."""
    read = changed = 0
    last = 0
    while True:
        begin_write()
        try:
            ids = db.session.scalars(
                sa.select(GameSession.id)
                .where(GameSession.id > last)
                .order_by(GameSession.id)
                .limit(batch)
                .with_for_update()
            ).all()
            if ids:
                changed += _summarise(ids[0], ids[-1])
            db.session.commit()
        except BaseException:
            db.session.rollback()
            raise
        if not ids:
            return Resummarised(read, changed)
        read += len(ids)
        last = ids[-1]


def summarise_every_session(batch: int = BATCH) -> int:
    """Work every session's summary and seat lines out again in the caller's transaction (a
    backup being loaded), a batch at a time; how many of them changed."""
    changed = 0
    last = 0
    while ids := db.session.scalars(
        sa.select(GameSession.id).where(GameSession.id > last).order_by(GameSession.id).limit(batch)
    ).all():
        changed += _summarise(ids[0], ids[-1])
        last = ids[-1]
    return changed


def _summarise(low: int, high: int) -> int:
    """Work out the sessions with ids from low to high, write what differs (their version and
    updated_at stay), and say how many changed."""
    rows = db.session.execute(
        sa.select(
            GameSession.id,
            GameSession.rounds_planned,
            GameSession.rules,
            GameSession.rounds_played,
            GameSession.standing,
            GameSession.finished_at,
        ).where(GameSession.id.between(low, high))
    ).all()
    names: dict[int, dict[int, str]] = {row.id: {} for row in rows}
    stored_lines: dict[int, dict[str, Any]] = {}
    for session_id, seat_id, name, *stored in db.session.execute(
        sa.select(Seat.session_id, Seat.id, Seat.name, *(getattr(Seat, c) for c in SEAT_LINE))
        .where(Seat.session_id.between(low, high))
        .order_by(Seat.session_id, Seat.position)
    ):
        names[session_id][seat_id] = name
        stored_lines[seat_id] = dict(zip(SEAT_LINE, stored, strict=True))
    entries: dict[int, list[tuple[int, int | None, int | None, int | None]]] = {
        row.id: [] for row in rows
    }
    for session_id, number, seat_id, score, winner in db.session.execute(
        sa.select(Round.session_id, Round.number, Entry.seat_id, Entry.score, Round.winner_seat_id)
        .select_from(Round)
        .outerjoin(Entry, Entry.round_id == Round.id)
        .where(Round.session_id.between(low, high))
    ):
        entries[session_id].append((number, seat_id, score, winner))
    summaries: list[dict[str, Any]] = []
    lines: list[dict[str, Any]] = []
    changed = set()
    for row in rows:
        played = entries[row.id]
        table = table_of(names[row.id], [e[:3] for e in played], row.rounds_planned, row.rules)
        summary = {
            "played": table.rounds_played,
            "standing": standing_of(table),
            "finished": finished_at_of(table, row.finished_at),
        }
        if (row.rounds_played, row.standing, row.finished_at) != tuple(summary.values()):
            summaries.append({"sid": row.id, **summary})
            changed.add(row.id)
        for seat, line in seat_lines(names[row.id], table, played).items():
            if line != stored_lines[seat]:
                lines.append({"seat": seat, **{f"line_{k}": v for k, v in line.items()}})
                changed.add(row.id)
    if lines:  # (a bound name may not be a column's: hence line_total and so on)
        db.session.execute(
            sa.update(_seats)
            .where(_seats.c.id == sa.bindparam("seat"))
            .values({column: sa.bindparam(f"line_{column}") for column in SEAT_LINE}),
            lines,
        )
    if summaries:
        db.session.execute(
            sa.update(_sessions)
            .where(_sessions.c.id == sa.bindparam("sid"))
            .values(
                rounds_played=sa.bindparam("played"),
                standing=sa.bindparam("standing"),
                finished_at=sa.bindparam("finished"),
                updated_at=_sessions.c.updated_at,  # the summary is no change the family made
            ),
            summaries,
        )
    return len(changed)
