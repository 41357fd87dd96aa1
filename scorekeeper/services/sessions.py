"""Sessions: create one, read its table, extend it, rename a player, keep notes, list them."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import g
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import WRITE_OPTION, db, read_at_once
from scorekeeper.models import HOUSEHOLD_ID, Entry, GameSession, Household, Player, Round, Seat
from scorekeeper.rules import (
    RulesError,
    Settings,
    Standings,
    check_players,
    clean_name,
    standings,
)
from scorekeeper.rules.players import name_key
from scorekeeper.services import changes
from scorekeeper.services.bodies import (
    DEFAULT_ROUNDS,
    MAX_ROUNDS,
    NewSession,
    given,
    read,
)
from scorekeeper.services.changes import Change
from scorekeeper.services.errors import not_found

MAX_SESSION_NAME = 80
# The largest id an integer primary key holds on every database we run on: beyond it a
# lookup would overflow the driver (a 500) instead of finding nothing.
MAX_ID = 2**31 - 1
# Notes on a session: a few lines, not a diary (the column holds 2000 characters).
MAX_NOTES = 2000
# Sessions on one page of the home page.
HOME_PAGE_SIZE = 20


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
class SessionSummary:
    """A session as a list shows it, read from the session's row and seats: no rounds."""

    id: int
    name: str
    played_on: date
    players: tuple[str, ...]
    rounds_planned: int
    rounds_played: int
    complete: bool
    leaders: tuple[str, ...]
    leading_total: int | None
    winners: tuple[str, ...]
    started: datetime | None = None  # when it was made (UTC), to tell a day's sessions apart


@dataclass(frozen=True)
class SessionsPage:
    """One page of the home page: sessions in progress first, then finished, newest first."""

    number: int
    sessions: tuple[SessionSummary, ...]
    has_older: bool

    @property
    def has_newer(self) -> bool:
        return self.number > 1


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


class Locked(NamedTuple):
    """A session as a write of its rounds holds it (writing_rounds): its row and seats, its
    rounds as read under the lock, in order, and the household's generation (for the stamp)."""

    session: GameSession
    rounds: list[StoredRound]
    generation: str


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


def _stored_rounds(session_id: int) -> list[StoredRound]:
    rounds: list[StoredRound] = []
    for row in db.session.execute(_STORED_ROUNDS, {"session_id": session_id}):
        if not rounds or rounds[-1].id != row.id:
            rounds.append(
                StoredRound(
                    row.id,
                    row.number,
                    row.ending,
                    row.winner_seat_id,
                    row.idempotency_key,
                    row.version,
                    [],
                )
            )
        if row.seat_id is not None:
            rounds[-1].entries.append(
                StoredEntry(
                    row.seat_id,
                    row.score,
                    row.rack_value,
                    row.tiles,
                    row.tile_count,
                    row.tile_count_entered,
                    row.flagged,
                )
            )
    return rounds


# The tables touch writes with statements of its own (Core: no ORM flush).
SESSIONS = db.metadata.tables["sessions"]
SEATS = db.metadata.tables["seats"]

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


def view_of(gs: GameSession, stored: Sequence[StoredRound] | None = None) -> SessionView:
    """Turn the rows of a session into its table, standings included (its rounds as a write
    read them, `stored`, or else its rounds as loaded with it)."""
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


def seating(session_id: int) -> tuple[str, ...]:
    """The players' names in seating order, in one small read (what a posted round form needs
    before the save, which reads the whole session itself), or NotFound."""
    if not 1 <= session_id <= MAX_ID:
        raise not_found("session", session_id)
    names = db.session.scalars(
        sa.select(Seat.name).where(Seat.session_id == session_id).order_by(Seat.position)
    ).all()
    if not names:  # every session has its players
        raise not_found("session", session_id)
    return tuple(names)


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
    """What each seat keeps of the table (its line, by seat id; see SEAT_LINE): `names` is
    seat id to name, `table` the session's standings and `entries` its (round number, seat
    id, score, the round's winner seat id) rows; a round won counts once it has entries."""
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


def summary_of(view: SessionView) -> SessionSummary:
    """The summary of a session worked out from its whole table (what the row must hold)."""
    table = view.standings
    return SessionSummary(
        view.id,
        view.name,
        view.played_on,
        view.players,
        view.rounds_planned,
        table.rounds_played,
        view.complete,
        table.leaders,
        standing_of(table)["leading_total"],
        table.winners,
        view.created_at,
    )


def _summary_columns() -> tuple[so.InstrumentedAttribute[Any], ...]:
    return (
        GameSession.id,
        GameSession.name,
        GameSession.played_on,
        GameSession.rounds_planned,
        GameSession.rounds_played,
        GameSession.finished_at,
        GameSession.standing,
        GameSession.created_at,
    )


def _summaries(
    rows: Sequence[sa.Row[Any]], seats: sa.ColumnElement[bool] | None
) -> list[SessionSummary]:
    """Summaries of the session rows, with their players read in one more statement (the
    seats matching `seats`, or those of the rows' ids)."""
    if not rows:
        return []
    if seats is None:
        seats = Seat.session_id.in_([row.id for row in rows])
    players: dict[int, list[str]] = {}
    for session_id, name in db.session.execute(
        sa.select(Seat.session_id, Seat.name).where(seats).order_by(Seat.session_id, Seat.position)
    ):
        players.setdefault(session_id, []).append(name)
    summaries = []
    for row in rows:
        standing = row.standing or {}
        summaries.append(
            SessionSummary(
                row.id,
                row.name,
                row.played_on,
                tuple(players.get(row.id, ())),
                row.rounds_planned,
                row.rounds_played,
                row.finished_at is not None,
                tuple(standing.get("leaders", ())),
                standing.get("leading_total"),
                tuple(standing.get("winners", ())),
                row.created_at,
            )
        )
    return summaries


def list_sessions(limit: int | None = None, offset: int = 0) -> list[SessionSummary]:
    """Sessions newest first (`limit` of them after skipping `offset`, or all): two
    statements, whatever their number, reading the summary kept on each session's row."""
    rows = db.session.execute(
        sa.select(*_summary_columns()).order_by(GameSession.id.desc()).limit(limit).offset(offset)
    ).all()
    # Newest first, so the page's sessions are exactly those with ids from its last to its first.
    seats = Seat.session_id.between(rows[-1].id, rows[0].id) if rows else None
    return _summaries(rows, seats)


def _in_home_order(upto: int) -> sa.Subquery:
    """The first `upto` sessions in progress and the first `upto` finished, newest first,
    with `part` 0 or 1: each part is read along an index (ix_sessions_in_progress for the few
    in progress, the primary key backwards for the finished), never sorting the history."""
    parts = []
    for part, condition in enumerate(
        (GameSession.finished_at.is_(None), GameSession.finished_at.is_not(None))
    ):
        newest = (
            sa.select(GameSession.id, sa.literal_column(str(part)).label("part"))
            .where(condition)
            .order_by(GameSession.id.desc())
            .limit(upto)
            .subquery()
        )
        parts.append(sa.select(newest.c.id, newest.c.part))
    return sa.union_all(*parts).subquery("home_order")


def home_page(number: int = 1, size: int = HOME_PAGE_SIZE) -> SessionsPage:
    """Page `number` (from 1) of the sessions, in progress first, then finished, newest
    first within each: two statements whatever the number of sessions, no rounds read."""
    number = max(1, min(number, MAX_ID // size))
    skip = (number - 1) * size
    order = _in_home_order(skip + size + 1)
    rows = db.session.execute(
        sa.select(*_summary_columns())
        .join(order, order.c.id == GameSession.id)
        .order_by(order.c.part, order.c.id.desc())
        .limit(size + 1)
        .offset(skip)
    ).all()
    summaries = _summaries(rows[:size], None)
    return SessionsPage(number, tuple(summaries), has_older=len(rows) > size)


class Made(NamedTuple):
    """A session as make_session left it: `created` False when its key named one made before."""

    session: SessionView
    created: bool


def create_session(
    players: list[str],
    name: str | None = None,
    rounds: int | None = None,
    rules: Mapping[str, Any] | None = None,
    played_on: date | None = None,
    key: str | None = None,
) -> SessionView:
    """Seat the players in the order given, with the settings and the agreed rounds."""
    body = {"players": players, "name": name, "rounds": rounds, "rules": rules, "key": key}
    return make_session(body, played_on).session


def make_session(body: object, played_on: date | None = None) -> Made:
    """A new session from its body (bodies.NewSession), saying whether it made it: a `key`
    (the idempotency key of the form, or of an API call) that made one already answers that
    session, so a form sent twice makes one; the same key with other players is key_reused."""
    asked = read(NewSession, body)
    key = asked.key
    settings = Settings.from_dict(given(asked.rules))
    names = check_players(asked.players, settings)
    planned = DEFAULT_ROUNDS if asked.rounds is None else asked.rounds
    if not 1 <= planned <= MAX_ROUNDS:
        raise RulesError.one(
            "bad_setting", "Rounds must be from 1 to %(max)d.", "rounds", max=MAX_ROUNDS
        )
    played_on = played_on or date.today()
    title = _session_name(asked.name)
    begin_write()
    try:
        if key is not None and (made := _made_with(key, names)) is not None:
            db.session.rollback()
            return Made(get_session(made), created=False)
        people = [_player_named(n) for n in names]
        gs = GameSession(
            name=title,
            played_on=played_on,
            rounds_planned=planned,
            rules=settings.to_dict(),
            rounds_played=0,
            standing=standing_of(standings(names, [], planned, settings.drop_worst_round)),
            creation_key=key,
        )
        gs.seats = [
            Seat(position=i, name=n, player=p)
            for i, (n, p) in enumerate(zip(names, people, strict=True))
        ]
        db.session.add(gs)
        db.session.commit()
    except IntegrityError:
        # The same form sent at the same instant on PostgreSQL (SQLite serialises the two):
        # the other made the session; this one answers it.
        db.session.rollback()
        made = _made_with(key, names) if key is not None else None
        if made is None:
            raise
        return Made(get_session(made), created=False)
    except BaseException:
        db.session.rollback()
        raise
    return Made(get_session(gs.id), created=True)


def _made_with(key: str, names: Sequence[str]) -> int | None:
    """The id of the session made with this key, if any; key_reused when it seats others."""
    found = db.session.scalar(sa.select(GameSession.id).where(GameSession.creation_key == key))
    if found is None:
        return None
    seated = db.session.scalars(
        sa.select(Seat.name).where(Seat.session_id == found).order_by(Seat.position)
    ).all()
    if [name_key(n) for n in seated] != [name_key(n) for n in names]:
        raise RulesError.one(
            "key_reused",
            "This key made session %(session)d already, with other players: "
            "a new session needs a new key. Nothing was saved.",
            "key",
            session=found,
        )
    return found


def stale_session() -> RulesError:
    """A write made from a view of the session older than the session now (stale_session)."""
    return RulesError.one(
        "stale_session",
        "Another phone changed the session meanwhile (perhaps it agreed to one more round "
        "already): nothing was changed. Check the table and try again.",
        "version",
    )


def _session_name(name: str | None) -> str:
    """The name as typed, tidied; "" for none: the pages then name the session after its
    day, in the reader's language."""
    if name is None or not name.strip():
        return ""
    cleaned = " ".join(name.split())
    if len(cleaned) > MAX_SESSION_NAME:
        raise RulesError.one(
            "bad_name", "A session name has at most %(max)d letters.", "name", max=MAX_SESSION_NAME
        )
    if not cleaned.isprintable():
        raise RulesError.one("bad_name", "A session name cannot hold control characters.", "name")
    return cleaned


def _player_named(name: str) -> Player:
    """The remembered player of that name (any case), or a new one."""
    key = name_key(name)
    query = sa.select(Player).where(Player.name_key == key)
    player = db.session.scalars(query).first()
    if player is None:
        try:
            with db.session.begin_nested():  # another household phone may add them this instant
                player = Player(name=name, name_key=key)
                db.session.add(player)
        except IntegrityError:
            player = db.session.scalars(query).one()
    return player


def extend_session(session_id: int, rounds: int = 1, seen: int | None = None) -> SessionView:
    """The family agrees to play more rounds. With the session's `version` it was asked from,
    only while the session is still at it (else stale_session: two phones tapping "Play one
    more round" add one)."""
    with writing(session_id) as gs:
        if seen is not None and seen != gs.version:
            raise stale_session()
        if rounds < 1:
            raise RulesError.one("bad_setting", "Agree to at least one more round.", "rounds")
        if rounds > MAX_ROUNDS - gs.rounds_planned:
            raise RulesError.one(
                "bad_setting", "A session has at most %(max)d rounds.", "rounds", max=MAX_ROUNDS
            )
        gs.rounds_planned += rounds
        touch(gs, changes.rounds_agreed(rounds))
    return get_session(session_id)


def set_seconds_per_turn(session_id: int, seconds: int) -> SessionView:
    """Set the turn clock of a session (0 turns it off); the other settings stay."""
    with writing(session_id) as gs:
        settings = Settings.from_dict({**gs.rules, "seconds_per_turn": seconds})
        gs.rules = settings.to_dict()
        seconds = settings.seconds_per_turn
        touch(gs, changes.clock_set(seconds))
    return get_session(session_id)


def rename_player(session_id: int, position: int, new_name: object) -> SessionView:
    """Rename the player in one seat; past rounds stay theirs."""
    cleaned = clean_name(new_name, "name")
    with writing(session_id) as gs:
        seat = next((s for s in gs.seats if s.position == position), None)
        if seat is None:
            raise not_found("seat", position)
        if any(name_key(s.name) == name_key(cleaned) for s in gs.seats if s is not seat):
            raise RulesError.one(
                "duplicate_player",
                "%(name)s is already playing: give each player a different name.",
                "name",
                name=cleaned,
            )
        before = seat.name
        seat.name = cleaned
        seat.player = _player_named(cleaned)
        touch(gs, changes.player_renamed(before, cleaned))
    return get_session(session_id)


def touch(
    gs: GameSession,
    change: Change | None = None,
    written: Round | None = None,
    rows: Sequence[TableRow] | None = None,
) -> None:
    """Mark a session changed: its version moves on, the other phones are told what changed
    (`change`, a code and its params: round_added, round 3), and its summary (rounds played,
    standing, each seat's line) and finish are derived again from its rounds as they now stand,
    in the same transaction. The round `written` takes the new version as its own: no other
    round of the session ever had it. A change that adds, removes or renumbers rounds
    (changes.RENUMBERING) moves `numbering_version` to it too.

    `rows`: the session's table as the write leaves it (table_rows), from a write that holds
    it (writing_rounds); the session's row is then written by a statement of its own, else by
    the ORM's flush with the write's other changes, after the table is read here."""
    version = gs.version + 1
    change = change or Change(changes.GENERIC)
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
        db.session.execute(sa.update(SESSIONS).where(SESSIONS.c.id == gs.id).values(values))
        for column, value in values.items():
            so.attributes.set_committed_value(gs, column, value)
    lines = seat_lines(names, table, rows)
    changed = [
        {"seat": seat.id, **lines[seat.id]}
        for seat in gs.seats
        if any(getattr(seat, column) != value for column, value in lines[seat.id].items())
    ]
    if changed:  # the seats whose line changed, in one batch of updates
        db.session.execute(sa.update(SEATS).where(SEATS.c.id == sa.bindparam("seat")), changed)
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
    """A session's standings from its seats (id -> name, in seating order) and the
    (round number, seat id, score) of its entries, in any order; a round without entries
    still counts as played."""
    rounds: dict[int, dict[str, int]] = {}
    for number, seat_id, score in entries:
        scores = rounds.setdefault(number, {})
        if seat_id is not None and score is not None:
            scores[names[seat_id]] = score
    drop = bool((rules or {}).get("drop_worst_round"))
    return standings(
        list(names.values()), [rounds[n] for n in sorted(rounds)], rounds_planned, drop
    )


def session_version(session_id: int) -> int:
    """The session's version alone: one small query, so "has it changed?" stays cheap."""
    if not 1 <= session_id <= MAX_ID:
        raise not_found("session", session_id)
    version = db.session.scalar(sa.select(GameSession.version).where(GameSession.id == session_id))
    if version is None:
        raise not_found("session", session_id)
    return version


@dataclass(frozen=True)
class Stamp:
    """What identifies a session's content: it changes with every write (the version) and with
    every restore or import of the database (the household's generation, services/backup.py),
    so two different tables never share a stamp, even when a restore brings a version back."""

    id: int
    version: int
    generation: str

    @property
    def tag(self) -> str:
        """The opaque text of the session's ETag: `s<id>-v<version>-<generation>`."""
        return f"s{self.id}-v{self.version}-{self.generation or '0'}"


# Where household_and_stamp keeps the stamp it read, for session_stamp in the same request.
_PEEKED = "scorekeeper_peeked_stamp"


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


def household_and_stamp(session_id: int) -> tuple[str | None, int, str | None] | None:
    """A poll's one read: the household's (passphrase hash, cookie epoch, generation), or None
    when it has no row yet, and the session's stamp, kept for session_stamp in this request;
    read at once, outside any transaction (extensions.read_at_once)."""
    row = read_at_once(_HOUSEHOLD_AND_STAMP, {"session_id": session_id})
    stamp = None if row.version is None else Stamp(session_id, row.version, row.generation or "")
    setattr(g, _PEEKED, (session_id, stamp))
    if row.cookie_epoch is None:
        return None
    return row.passphrase_hash, row.cookie_epoch, row.generation


def session_stamp(session_id: int) -> Stamp:
    """The session's stamp in one small statement: answers "has it changed?" for every poll
    (read already with the household's state, for a poll: household_and_stamp)."""
    if not 1 <= session_id <= MAX_ID:
        raise not_found("session", session_id)
    peeked = g.pop(_PEEKED, None)
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


def save_notes(session_id: int, notes: str, seen: str | None = None) -> SessionView:
    """Keep the family's notes on the evening; empty text clears them. With `seen`, the
    notes_tag of the notes they were typed over, only while those are still the notes stored
    (else stale_notes, nothing changed: two pages never lose each other's notes silently)."""
    lines = notes.replace("\t", " ").strip().splitlines()
    cleaned = "\n".join(line.rstrip() for line in lines)
    if len(cleaned) > MAX_NOTES:
        raise RulesError.one(
            "bad_notes",
            "Notes hold at most %(max)d characters; these have %(length)d.",
            "notes",
            max=MAX_NOTES,
            length=len(cleaned),
        )
    if any(not (ch.isprintable() or ch == "\n") for ch in cleaned):
        raise RulesError.one("bad_notes", "Notes cannot hold control characters.", "notes")
    with writing(session_id) as gs:
        if gs.notes == cleaned:
            return view_of(gs)
        if seen is not None and seen != notes_tag(gs.notes or ""):
            raise RulesError.one(
                "stale_notes",
                "Someone changed the notes meanwhile: they now read as shown. What you typed "
                "is kept below; save again to replace them.",
                "notes",
            )
        gs.notes = cleaned
        touch(gs, changes.notes_changed(cleaned))
    return get_session(session_id)


def last_rules() -> Settings:
    """The settings of the family's latest session: the default for the next one."""
    rules = db.session.scalar(sa.select(GameSession.rules).order_by(GameSession.id.desc()))
    try:
        return Settings.from_dict(rules)
    except RulesError:
        return Settings()


def known_player_names(limit: int = 30) -> list[str]:
    """Names played before, by the day each last played (the latest first; on one day, the
    evening begun last), to offer with one tap: the page shows the first few."""
    last_day = sa.func.max(GameSession.played_on).label("last_day")
    latest = sa.func.max(Seat.session_id).label("latest")
    rows = db.session.execute(
        sa.select(Player.name, last_day, latest)
        .join(Seat, Seat.player_id == Player.id)
        .join(GameSession, GameSession.id == Seat.session_id)
        .group_by(Player.id, Player.name)
        .order_by(last_day.desc(), latest.desc(), Player.name)
        .limit(limit)
    ).all()
    return [row.name for row in rows]


def begin_write() -> None:
    """Start a write transaction: on SQLite it takes the write lock at once (IMMEDIATE)."""
    db.session.rollback()
    db.session.connection(execution_options={WRITE_OPTION: True})


@contextmanager
def writing(session_id: int) -> Iterator[GameSession]:
    """One write to a session, serialised with every other write to it, committed whole.

    SQLite: the transaction begins IMMEDIATE (the database's write lock, waited for on the
    busy timeout). PostgreSQL: the session's row is locked FOR UPDATE. So numbering the next
    round, checking an idempotency key and bumping the version never race. Any error rolls
    everything back: a round is stored whole or not at all.
    """
    begin_write()
    try:
        yield load_session(session_id, lock=True)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


@contextmanager
def writing_rounds(session_id: int) -> Iterator[Locked]:
    """writing() for a write of rounds: the session's row (locked as writing() locks it, read
    with the household's generation) and its seats, and its rounds with their entries in one
    statement, not as ORM objects: the write changes them with statements of its own, and
    touch(..., rows=...) and view_of(..., stored) take them as it leaves them."""
    begin_write()
    try:
        if not 1 <= session_id <= MAX_ID:
            raise not_found("session", session_id)
        # The generation moves only with a restore or an import, which close the app first.
        found = db.session.execute(
            sa.select(GameSession, Household.generation)
            .outerjoin(Household, Household.id == HOUSEHOLD_ID)
            .where(GameSession.id == session_id)
            .options(so.selectinload(GameSession.seats))
            .with_for_update(of=GameSession)
        ).first()
        if found is None:
            raise not_found("session", session_id)
        yield Locked(found[0], _stored_rounds(session_id), found[1] or "")
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
