"""One write to a session: its transaction, and the record of what it changed (touch)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.extensions import WRITE_OPTION, db
from scorekeeper.models import HOUSEHOLD_ID, Entry, GameSession, Household, Round
from scorekeeper.rules import Settings, Standings, standings
from scorekeeper.services import changes
from scorekeeper.services.changes import Change
from scorekeeper.services.errors import not_found
from scorekeeper.services.stamps import Stamp
from scorekeeper.services.views import (
    MAX_ID,
    SessionView,
    StoredRound,
    load_session,
    stored_rounds,
    view_of,
)

# What a write records when it says nothing more precise.
GENERIC = Change(changes.GENERIC)


@dataclass
class Write:
    """A write to a session (writing): the session locked for it, the change it makes, recorded
    when the block ends (None: nothing changed), and the round that takes the new version."""

    session: GameSession
    change: Change | None
    written: Round | None = None


@dataclass
class Locked:
    """A write of a session's rounds (writing_rounds): what it read under the lock (its rules
    read once), the version and change it makes, and, when the block ends, the table and stamp
    it left."""

    session: GameSession
    settings: Settings
    rounds: list[StoredRound]
    generation: str
    version: int
    change: Change | None
    view: SessionView = field(init=False)
    stamp: Stamp = field(init=False)


# The tables touch writes with statements of its own (Core: no ORM flush), each statement
# made once: a session's row (the columns its parameters name) and a seat's line.
SESSIONS = db.metadata.tables["sessions"]
SEATS = db.metadata.tables["seats"]
_UPDATE_SESSION = sa.update(SESSIONS).where(SESSIONS.c.id == sa.bindparam("session_id"))
_UPDATE_SEAT = sa.update(SEATS).where(SEATS.c.id == sa.bindparam("seat"))
# The session's row locked for a write of its rounds, with its seats and the household's
# generation (FOR UPDATE OF sessions on PostgreSQL).
_LOCKED_SESSION = (
    sa.select(GameSession, Household.generation)
    .outerjoin(Household, Household.id == HOUSEHOLD_ID)
    .where(GameSession.id == sa.bindparam("session_id"))
    .options(so.selectinload(GameSession.seats))
    .with_for_update(of=GameSession)
)

# A row of a session's table as touch derives its summary from it: (round number, seat id,
# score, the round's winner seat id); seat and score None for a round without entries.
TableRow = tuple[int, int | None, int | None, int | None]


def table_rows(rounds: Iterable[StoredRound]) -> list[TableRow]:
    """The (round number, seat id, score, winner seat id) rows that touch derives the
    session's summary from, as its own statement would read them."""
    rows: list[TableRow] = []
    for rnd in rounds:
        rows += [(rnd.number, e.seat_id, e.score, rnd.winner_seat_id) for e in rnd.entries]
        if not rnd.entries:
            rows.append((rnd.number, None, None, rnd.winner_seat_id))
    return rows


def standing_of(table: Standings) -> dict[str, Any]:
    """What a session's row keeps of its table (the `standing` column): the leaders, their
    total, and the winners once complete."""
    top = table.totals[table.leaders[0]] if table.leaders else None
    return {"leaders": list(table.leaders), "leading_total": top, "winners": list(table.winners)}


# The columns of a seat's line (Seat.total ... Seat.worst_score), as seat_lines gives them.
SEAT_LINE = ("total", "won", "rounds_won", "score_sum", "best_score", "worst_score")


def seat_lines(
    names: Mapping[int, str],
    table: Standings,
    entries: Iterable[tuple[int, int | None, int | None, int | None]],
) -> dict[int, dict[str, Any]]:
    """Each seat's line (SEAT_LINE) by seat id, from `names` (seat id -> name), the `table` and the
    (round number, seat id, score, winner's seat id) rows; a won round needs its entries."""
    scores: dict[int, list[int]] = {seat: [] for seat in names}
    round_winners: dict[int, int | None] = {}
    for number, seat_id, score, winner_seat_id in entries:
        if seat_id is None or score is None:
            continue
        round_winners[number] = winner_seat_id
        if seat_id in scores:
            scores[seat_id].append(score)
    winners = list(round_winners.values())
    return {
        seat: {
            "total": table.totals[name],
            "won": name in table.winners,
            "rounds_won": winners.count(seat),
            "score_sum": sum(scores[seat]),
            "best_score": max(scores[seat], default=None),
            "worst_score": min(scores[seat], default=None),
        }
        for seat, name in names.items()
    }


def touch(
    gs: GameSession,
    change: Change,
    written: Round | None = None,
    rows: Sequence[TableRow] | None = None,
) -> None:
    """Record a write's change: the version moves on (`written` takes it too) and the summary is
    derived again, from `rows` (table_rows) when the write holds them, else read here."""
    version = gs.version + 1
    read = rows is None
    if rows is None:
        rows = db.session.execute(  # flushes this write's changes first (autoflush)
            sa.select(Round.number, Entry.seat_id, Entry.score, Round.winner_seat_id)
            .select_from(Round)
            .outerjoin(Entry, Entry.round_id == Round.id)
            .where(Round.session_id == gs.id)
        ).all()
    names = {seat.id: seat.name for seat in gs.seats}
    table = table_of(names, [row[:3] for row in rows], gs.rounds_planned, gs.rules)
    values: dict[str, Any] = {
        "version": version,
        "change": change.stored(),
        "rounds_played": table.rounds_played,
        "standing": standing_of(table),
        "finished_at": finished_at_of(table, gs.finished_at),
    }
    if change.code in changes.RENUMBERING:
        values["numbering_version"] = version
    if written is not None:
        written.version = version
    if read:
        for column, value in values.items():
            setattr(gs, column, value)
    else:  # updated_at: by its column's onupdate
        db.session.execute(_UPDATE_SESSION, {"session_id": gs.id, **values})
        for column, value in values.items():
            so.attributes.set_committed_value(gs, column, value)
    lines = seat_lines(names, table, rows)
    changed = [
        {"seat": seat.id, **lines[seat.id]}
        for seat in gs.seats
        if any(getattr(seat, column) != value for column, value in lines[seat.id].items())
    ]
    if changed:  # the seats whose line changed, in one batch of updates
        db.session.execute(_UPDATE_SEAT, changed)
        for seat in gs.seats:
            for column, value in lines[seat.id].items():
                so.attributes.set_committed_value(seat, column, value)


def finished_at_of(table: Standings, finished_at: datetime | None) -> datetime | None:
    """When a session finished: as kept since the write that completed it, now when it has
    just been completed, none while rounds remain to be played."""
    if not table.complete:
        return None
    return finished_at or datetime.now()


def table_of(
    names: Mapping[int, str],
    entries: Iterable[tuple[int, int | None, int | None]],
    rounds_planned: int,
    rules: Mapping[str, Any] | None,
) -> Standings:
    """A session's standings from its seats (id -> name, in seating order) and its entries'
    (round number, seat id, score), in any order; a round without entries still counts."""
    rounds: dict[int, dict[str, int]] = {}
    for number, seat_id, score in entries:
        scores = rounds.setdefault(number, {})
        if seat_id is not None and score is not None:
            scores[names[seat_id]] = score
    drop = bool((rules or {}).get("drop_worst_round"))
    return standings(
        list(names.values()), [rounds[n] for n in sorted(rounds)], rounds_planned, drop
    )


def begin_write() -> None:
    """Start a write transaction: on SQLite it takes the write lock at once (IMMEDIATE)."""
    db.session.rollback()
    db.session.connection(execution_options={WRITE_OPTION: True})


@contextmanager
def writing(session_id: int, change: Change | None = GENERIC) -> Iterator[Write]:
    """One write to a session, serialised with every other write to it, committed whole with the
    record of its change (touch), which the block may set on the Write it is given."""
    begin_write()
    try:
        write = Write(load_session(session_id, lock=True), change)
        yield write
        if write.change is not None:
            touch(write.session, write.change, write.written)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


@contextmanager
def writing_rounds(session_id: int, change: Change | None = GENERIC) -> Iterator[Locked]:
    """writing() for a write of rounds: the session's row, seats, and rounds with their entries
    read at once as plain rows, which touch() and view_of() take as the write leaves them."""
    begin_write()
    try:
        if not 1 <= session_id <= MAX_ID:
            raise not_found("session", session_id)
        # The generation moves only with a restore or an import, which close the app first.
        found = db.session.execute(_LOCKED_SESSION, {"session_id": session_id}).first()
        if found is None:
            raise not_found("session", session_id)
        gs = found[0]
        stored = stored_rounds(session_id)
        settings = Settings.from_dict(gs.rules)
        locked = Locked(gs, settings, stored, found[1] or "", gs.version + 1, change)
        yield locked
        if locked.change is not None:
            touch(gs, locked.change, rows=table_rows(locked.rounds))
        locked.view = view_of(gs, locked.rounds, settings)
        locked.stamp = Stamp(gs.id, gs.version, locked.generation)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
