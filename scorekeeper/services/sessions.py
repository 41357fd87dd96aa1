"""Sessions: create one, read its table, extend it, rename a player, keep notes, list them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import WRITE_OPTION, db
from scorekeeper.models import GameSession, Player, Round, Seat
from scorekeeper.rules import (
    Problem,
    RulesError,
    Settings,
    Standings,
    check_players,
    clean_name,
    standings,
)
from scorekeeper.rules.players import name_key
from scorekeeper.services.errors import BadRequest, bad_request, not_found

MAX_ROUNDS = 100
MAX_SESSION_NAME = 80
# The largest id an integer primary key holds on every database we run on: beyond it a
# lookup would overflow the driver (a 500) instead of finding nothing.
MAX_ID = 2**31 - 1
# Notes on a session: a few lines, not a diary (the column holds 2000 characters).
MAX_NOTES = 2000


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
    last_change: str | None = None
    notes: str = ""

    @property
    def complete(self) -> bool:
        return self.standings.complete


def _session_query() -> sa.Select[tuple[GameSession]]:
    return sa.select(GameSession).options(
        so.selectinload(GameSession.seats),
        so.selectinload(GameSession.rounds).selectinload(Round.entries),
    )


def load_session(session_id: int) -> GameSession:
    """The session with its seats, rounds and entries, or NotFound."""
    if not 1 <= session_id <= MAX_ID:
        raise not_found("session", session_id)
    found = db.session.scalars(_session_query().where(GameSession.id == session_id)).first()
    if found is None:
        raise not_found("session", session_id)
    return found


def view_of(gs: GameSession) -> SessionView:
    """Turn the rows of a session into its table, standings included."""
    settings = Settings.from_dict(gs.rules)
    names = {seat.id: seat.name for seat in gs.seats}
    rounds = []
    for rnd in gs.rounds:
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
        rounds.append(RoundView(rnd.number, rnd.ending, winner, ordered, rnd.version))
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
        gs.last_change,
        gs.notes or "",
    )


def get_session(session_id: int) -> SessionView:
    """One session's table."""
    return view_of(load_session(session_id))


def list_sessions() -> list[SessionView]:
    """Every session, in progress first, newest first within each."""
    found = db.session.scalars(_session_query().order_by(GameSession.id.desc())).all()
    views = [view_of(gs) for gs in found]
    return sorted(views, key=lambda v: v.complete)


def create_session(
    players: Sequence[object],
    name: object = None,
    rounds: object = None,
    rules: Mapping[str, Any] | None = None,
    played_on: date | None = None,
) -> SessionView:
    """Seat the players in the order given, with the settings and the agreed rounds."""
    settings = settings_from_body(rules)
    if not isinstance(players, list | tuple):
        raise bad_request("players must be a list of names.", "players")
    for i, player in enumerate(players):
        if not isinstance(player, str):  # a wrong type is a bad request, as DESIGN.md 3 says
            raise bad_request("players.%(i)d must be a name (text).", f"players.{i}", i=i)
    names = check_players(players, settings)
    planned = 3 if rounds is None else rounds
    if isinstance(planned, bool) or not isinstance(planned, int):
        raise bad_request("rounds must be a whole number.", "rounds")
    if not 1 <= planned <= MAX_ROUNDS:
        raise RulesError.one(
            "bad_setting", "Rounds must be from 1 to %(max)d.", "rounds", max=MAX_ROUNDS
        )
    played_on = played_on or date.today()
    title = _session_name(name, played_on)
    begin_write()
    try:
        people = [_player_named(n) for n in names]
        gs = GameSession(
            name=title, played_on=played_on, rounds_planned=planned, rules=settings.to_dict()
        )
        gs.seats = [
            Seat(position=i, name=n, player=p)
            for i, (n, p) in enumerate(zip(names, people, strict=True))
        ]
        db.session.add(gs)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return get_session(gs.id)


def settings_from_body(rules: object) -> Settings:
    """Settings from a request: unknown keys and wrong types are a bad request (400),
    values out of range a rules violation (422); both carry the code bad_setting."""
    if rules is not None and not isinstance(rules, Mapping):
        raise BadRequest(
            Problem("bad_setting", "rules must be an object of settings.", {}, "rules")
        )
    defaults = Settings().to_dict()
    problems = []
    for key, value in (rules or {}).items():
        if key not in defaults:
            problems.append(Problem("bad_setting", "%(key)s is not a setting.", {"key": key}, key))
            continue
        wanted = type(defaults[key]) if defaults[key] is not None else int
        fits = isinstance(value, wanted) and (wanted is bool or not isinstance(value, bool))
        if not fits and not (key == "winner_bonus" and value is None):
            problems.append(
                Problem("bad_setting", "%(key)s has the wrong type.", {"key": key}, key)
            )
    if problems:
        raise BadRequest(problems)
    return Settings.from_dict(rules)  # type: ignore[arg-type]


def _session_name(name: object, played_on: date) -> str:
    if name is None or (isinstance(name, str) and not name.strip()):
        return played_on.strftime("%A %-d %B")
    if not isinstance(name, str):
        raise bad_request("name must be text.", "name")
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


def extend_session(session_id: int, rounds: object = 1) -> SessionView:
    """The family agrees to play more rounds."""
    if isinstance(rounds, bool) or not isinstance(rounds, int):
        raise bad_request("rounds must be a whole number.", "rounds")
    with writing(session_id) as gs:
        if rounds < 1:
            raise RulesError.one("bad_setting", "Agree to at least one more round.", "rounds")
        if rounds > MAX_ROUNDS - gs.rounds_planned:
            raise RulesError.one(
                "bad_setting", "A session has at most %(max)d rounds.", "rounds", max=MAX_ROUNDS
            )
        gs.rounds_planned += rounds
        touch(gs, "One more round agreed" if rounds == 1 else f"{rounds} more rounds agreed")
    return get_session(session_id)


def set_seconds_per_turn(session_id: int, seconds: object) -> SessionView:
    """Set the turn clock of a session (0 turns it off); the other settings stay."""
    if isinstance(seconds, bool) or not isinstance(seconds, int):
        raise bad_request("seconds_per_turn must be a whole number.", "seconds_per_turn")
    with writing(session_id) as gs:
        settings = Settings.from_dict({**gs.rules, "seconds_per_turn": seconds})
        gs.rules = settings.to_dict()
        seconds = settings.seconds_per_turn
        touch(gs, f"Turn clock set to {seconds} s" if seconds else "Turn clock turned off")
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
        touch(gs, f"{before} renamed to {cleaned}")
    return get_session(session_id)


def touch(gs: GameSession, change: str = "Session changed") -> None:
    """Mark a session changed: its version moves on, the other phones are told what changed
    (`change`, a few words: "Round 3 added") and its finish is re-derived."""
    gs.version += 1
    gs.last_change = change[:120]
    if len(gs.rounds) >= gs.rounds_planned:
        gs.finished_at = gs.finished_at or datetime.now()
    else:
        gs.finished_at = None


def session_version(session_id: int) -> int:
    """The session's version alone: one small query, so "has it changed?" stays cheap."""
    if not 1 <= session_id <= MAX_ID:
        raise not_found("session", session_id)
    version = db.session.scalar(sa.select(GameSession.version).where(GameSession.id == session_id))
    if version is None:
        raise not_found("session", session_id)
    return version


def save_notes(session_id: int, notes: object) -> SessionView:
    """Keep the family's notes on the evening; empty text clears them."""
    if not isinstance(notes, str):
        raise bad_request("notes must be text.", "notes")
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
        gs.notes = cleaned
        touch(gs, "Notes changed" if cleaned else "Notes cleared")
    return get_session(session_id)


def last_rules() -> Settings:
    """The settings of the family's latest session: the default for the next one."""
    rules = db.session.scalar(sa.select(GameSession.rules).order_by(GameSession.id.desc()))
    try:
        return Settings.from_dict(rules)
    except RulesError:
        return Settings()


def known_player_names(limit: int = 30) -> list[str]:
    """Names played before, most recently seated first, to offer with one tap."""
    latest = sa.func.max(Seat.session_id).label("latest")
    rows = db.session.execute(
        sa.select(Player.name, latest)
        .join(Seat, Seat.player_id == Player.id)
        .group_by(Player.id, Player.name)
        .order_by(latest.desc(), Player.name)
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
        if 1 <= session_id <= MAX_ID:
            db.session.execute(
                sa.select(GameSession.id).where(GameSession.id == session_id).with_for_update()
            )
        yield load_session(session_id)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
