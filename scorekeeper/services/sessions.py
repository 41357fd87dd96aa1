"""Sessions: create one, extend it, set its clock, rename a player, keep notes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player, Seat
from scorekeeper.rules import (
    RulesError,
    Settings,
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
from scorekeeper.services.errors import not_found
from scorekeeper.services.stamps import notes_tag
from scorekeeper.services.views import SessionView, get_session, view_of
from scorekeeper.services.writes import begin_write, standing_of, writing

MAX_SESSION_NAME = 80
# Notes on a session: a few lines, not a diary (the column holds 2000 characters).
MAX_NOTES = 2000


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


class Plan(NamedTuple):
    """A new session's body as the rules read it: what make_session stores."""

    name: str
    players: list[str]
    rounds: int
    settings: Settings
    key: str | None


def plan_session(body: object) -> Plan:
    """Read and check a new session's body (bodies.NewSession), storing nothing."""
    asked = read(NewSession, body)
    settings = Settings.from_dict(given(asked.rules))
    names = check_players(asked.players, settings)
    planned = DEFAULT_ROUNDS if asked.rounds is None else asked.rounds
    if not 1 <= planned <= MAX_ROUNDS:
        raise RulesError.one(
            "bad_setting", "Rounds must be from 1 to %(max)d.", "rounds", max=MAX_ROUNDS
        )
    return Plan(_session_name(asked.name), names, planned, settings, asked.key)


def make_session(body: object, played_on: date | None = None) -> Made:
    """A new session from its body (bodies.NewSession), and whether it made it: a `key` that made
    one already answers that session, or key_reused with other players."""
    title, names, planned, settings, key = plan_session(body)
    played_on = played_on or date.today()
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
        raise key_reused(found)
    return found


def key_reused(session_id: int) -> RulesError:
    """The idempotency key that made session `session_id` sent with other players."""
    return RulesError.one(
        "key_reused",
        "This key made session %(session)d already, with other players: "
        "a new session needs a new key. Nothing was saved.",
        "key",
        session=session_id,
    )


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
    """The family agrees to play more rounds; with the session's `version` it was asked from, only
    while the session is still at it (else stale_session)."""
    with writing(session_id, changes.rounds_agreed(rounds)) as write:
        gs = write.session
        gs.rounds_planned = agreed(gs.rounds_planned, gs.version, rounds, seen)
    return get_session(session_id)


def agreed(planned: int, version: int, rounds: int, seen: int | None = None) -> int:
    """The rounds planned once `rounds` more are agreed to a session of `planned` rounds now
    at `version`, asked from its version `seen` (if given); or why not."""
    if seen is not None and seen != version:
        raise stale_session()
    if rounds < 1:
        raise RulesError.one("bad_setting", "Agree to at least one more round.", "rounds")
    if rounds > MAX_ROUNDS - planned:
        raise RulesError.one(
            "bad_setting", "A session has at most %(max)d rounds.", "rounds", max=MAX_ROUNDS
        )
    return planned + rounds


def set_seconds_per_turn(session_id: int, seconds: int) -> SessionView:
    """Set the turn clock of a session (0 turns it off); the other settings stay."""
    with writing(session_id) as write:
        settings = Settings.from_dict({**write.session.rules, "seconds_per_turn": seconds})
        write.session.rules = settings.to_dict()
        write.change = changes.clock_set(settings.seconds_per_turn)
    return get_session(session_id)


def rename_player(session_id: int, position: int, new_name: object) -> SessionView:
    """Rename the player in one seat; past rounds stay theirs."""
    cleaned = clean_name(new_name, "name")
    with writing(session_id) as write:
        gs = write.session
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
        write.change = changes.player_renamed(before, cleaned)
    return get_session(session_id)


def save_notes(session_id: int, notes: str, seen: str | None = None) -> SessionView:
    """Keep the family's notes on the evening (empty text clears them); with `seen`, the notes_tag
    they were typed over, only while those notes are stored (else stale_notes)."""
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
    with writing(session_id, changes.notes_changed(cleaned)) as write:
        gs = write.session
        if gs.notes == cleaned:
            write.change = None  # nothing to record
            return view_of(gs)
        if seen is not None and seen != notes_tag(gs.notes or ""):
            raise RulesError.one(
                "stale_notes",
                "Someone changed the notes meanwhile: they now read as shown. What you typed "
                "is kept below; save again to replace them.",
                "notes",
            )
        gs.notes = cleaned
    return get_session(session_id)
