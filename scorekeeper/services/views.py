"""Read models of a session (its table, its rounds as a write reads them) and their loading."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.extensions import db
from scorekeeper.models import Entry, GameSession, Round, Seat
from scorekeeper.rules import Settings, Standings, standings
from scorekeeper.services.changes import Change
from scorekeeper.services.errors import not_found

# The largest id an integer primary key holds on every database we run on: beyond it a
# lookup would overflow the driver (a 500) instead of finding nothing.
MAX_ID = 2**31 - 1


@dataclass(frozen=True)
class EntryView:
    """One cell of the table: a player's score in a round and what it came from."""

    score: int
    rack_value: int | None
    tiles: tuple[str, ...] | None
    tile_count: int | None
    flagged: bool


@dataclass(frozen=True)
class RoundView:
    """One row of the table."""

    number: int
    ending: str
    winner: str | None
    entries: dict[str, EntryView]
    version: int

    @property
    def scores(self) -> dict[str, int]:
        return {p: e.score for p, e in self.entries.items()}


@dataclass(frozen=True)
class SessionView:
    """Everything a page, the API or the CSV shows of one session, read once."""

    id: int
    name: str
    played_on: date
    players: tuple[str, ...]
    rounds_planned: int
    settings: Settings
    rounds: tuple[RoundView, ...]
    standings: Standings
    version: int
    finished_at: datetime | None
    last_change: Change | None = None
    notes: str = ""
    created_at: datetime | None = None

    @property
    def complete(self) -> bool:
        return self.standings.complete

    @property
    def rounds_played(self) -> int:
        return self.standings.rounds_played


@dataclass(frozen=True)
class StoredEntry:
    """One entry of a round as a write reads it (Entry's columns), without ORM objects."""

    seat_id: int
    score: int
    rack_value: int | None
    tiles: str | None
    tile_count: int | None
    tile_count_entered: bool
    flagged: bool


@dataclass
class StoredRound:
    """A round as a write of rounds reads it (Round's columns and its entries), in one
    statement for the whole session: what the write checks, changes and answers with."""

    id: int
    number: int
    ending: str
    winner_seat_id: int | None
    idempotency_key: str | None
    version: int
    entries: list[StoredEntry]


# The rounds of a session with their entries, in one statement (a round without entries too).
_STORED_ROUNDS = (
    sa.select(
        Round.id,
        Round.number,
        Round.ending,
        Round.winner_seat_id,
        Round.idempotency_key,
        Round.version,
        Entry.seat_id,
        Entry.score,
        Entry.rack_value,
        Entry.tiles,
        Entry.tile_count,
        Entry.tile_count_entered,
        Entry.flagged,
    )
    .select_from(Round)
    .outerjoin(Entry, Entry.round_id == Round.id)
    .where(Round.session_id == sa.bindparam("session_id"))
    .order_by(Round.number, Entry.seat_id)
)


def stored_rounds(session_id: int) -> list[StoredRound]:
    """The session's rounds with their entries, in one statement on the write's connection, as
    plain rows (no ORM objects)."""
    rounds: list[StoredRound] = []
    rows = db.session.connection().execute(_STORED_ROUNDS, {"session_id": session_id}).all()
    for round_id, number, ending, winner, key, version, *entry in rows:
        if not rounds or rounds[-1].id != round_id:
            rounds.append(StoredRound(round_id, number, ending, winner, key, version, []))
        if entry[0] is not None:  # a round without entries has one row of NULLs
            rounds[-1].entries.append(StoredEntry(*entry))
    return rounds


def _session_query() -> sa.Select[GameSession]:
    return sa.select(GameSession).options(
        so.selectinload(GameSession.seats),
        so.selectinload(GameSession.rounds).selectinload(Round.entries),
    )


def load_session(session_id: int, *, lock: bool = False) -> GameSession:
    """The session with its seats, rounds and entries, or NotFound; `lock`: its row locked
    for a write (FOR UPDATE OF sessions on PostgreSQL; SQLite's write is locked as it began)."""
    if not 1 <= session_id <= MAX_ID:
        raise not_found("session", session_id)
    query = _session_query().where(GameSession.id == session_id)
    if lock:
        query = query.with_for_update(of=GameSession)
    found = db.session.scalars(query).first()
    if found is None:
        raise not_found("session", session_id)
    return found


def view_of(
    gs: GameSession, stored: Sequence[StoredRound] | None = None, settings: Settings | None = None
) -> SessionView:
    """Turn the rows of a session into its table, standings included (its rounds as a write
    read them, `stored`, or else its rounds as loaded with it; `settings`: its rules, if read)."""
    if settings is None:
        settings = Settings.from_dict(gs.rules)
    names = {seat.id: seat.name for seat in gs.seats}
    rounds = [round_view(rnd, names) for rnd in (gs.rounds if stored is None else stored)]
    players = tuple(names.values())
    table = standings(
        players, [r.scores for r in rounds], gs.rounds_planned, settings.drop_worst_round
    )
    return SessionView(
        gs.id,
        gs.name,
        gs.played_on,
        players,
        gs.rounds_planned,
        settings,
        tuple(rounds),
        table,
        gs.version,
        gs.finished_at,
        Change.from_stored(gs.change),
        gs.notes or "",
        gs.created_at,
    )


def round_view(rnd: Round | StoredRound, names: Mapping[int, str]) -> RoundView:
    """One row of the table from its stored round (`names`: seat id to name, in seating
    order), its entries in seating order."""
    entries = {
        names[e.seat_id]: EntryView(
            e.score,
            e.rack_value,
            tuple(e.tiles.split()) if e.tiles else None,
            e.tile_count,
            e.flagged,
        )
        for e in rnd.entries
    }
    ordered = {name: entries[name] for name in names.values() if name in entries}
    winner = names.get(rnd.winner_seat_id) if rnd.winner_seat_id else None
    return RoundView(rnd.number, rnd.ending, winner, ordered, rnd.version)


def get_session(session_id: int) -> SessionView:
    """One session's table."""
    return view_of(load_session(session_id))


# The players' names of a session in seating order (made once).
_SEATING = (
    sa.select(Seat.name)
    .where(Seat.session_id == sa.bindparam("session_id"))
    .order_by(Seat.position)
)


def seating(session_id: int) -> tuple[str, ...]:
    """The players' names in seating order, in one small read (what a posted round form needs
    before the save, which reads the whole session itself), or NotFound."""
    if not 1 <= session_id <= MAX_ID:
        raise not_found("session", session_id)
    names = db.session.connection().execute(_SEATING, {"session_id": session_id}).scalars().all()
    if not names:  # every session has its players
        raise not_found("session", session_id)
    return tuple(names)
