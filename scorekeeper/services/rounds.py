"""Rounds: add, replace, delete, restore and undo, each checked by the rules, written whole."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Entry, GameSession, Round
from scorekeeper.rules import (
    Rack,
    RoundEntry,
    RulesError,
    ScoredRound,
    Settings,
    format_tiles,
    score_round,
)
from scorekeeper.rules.players import name_key
from scorekeeper.services.bodies import RoundInput, read
from scorekeeper.services.changes import Change, round_change
from scorekeeper.services.errors import bad_request, not_found
from scorekeeper.services.stamps import Stamp
from scorekeeper.services.views import (
    RoundView,
    SessionView,
    StoredEntry,
    StoredRound,
    load_session,
    round_view,
    view_of,
)
from scorekeeper.services.writes import Locked, writing, writing_rounds

R = TypeVar("R", Round, StoredRound)
# The tables a write of rounds changes with statements of its own (Core: no ORM bookkeeping,
# no flush, for rows it holds as StoredRound).
ROUNDS = db.metadata.tables["rounds"]
ENTRIES = db.metadata.tables["entries"]
# Their statements, each made once (the columns a row's parameters name are the ones set).
_INSERT_ROUND = sa.insert(ROUNDS).returning(ROUNDS.c.id)
_INSERT_ENTRIES = sa.insert(ENTRIES)
_UPDATE_ROUND = sa.update(ROUNDS).where(ROUNDS.c.id == sa.bindparam("round_id"))
_DELETE_ROUND = sa.delete(ROUNDS).where(ROUNDS.c.id == sa.bindparam("round_id"))
_DELETE_ENTRIES = sa.delete(ENTRIES).where(ENTRIES.c.round_id == sa.bindparam("round_id"))

# The most tiles one rack's entry can hold: 100 tiles of at most 3 characters, space-separated,
# fit the 400 characters of entries.tiles (PostgreSQL refuses longer text with a 500).
MAX_RACK_TILES = 100


@dataclass(frozen=True)
class RoundRequest:
    """A round body read against the session's rules: the rules decide the rest."""

    entry: RoundEntry
    confirm: bool
    key: str | None
    number: int | None


def parse_body(body: object, settings: Settings) -> RoundRequest:
    """Read a round body (bodies.RoundInput) and its racks in the session's notation."""
    return _parsed(read(RoundInput, body), settings)


def _parsed(body: RoundInput, settings: Settings) -> RoundRequest:
    for name in ("racks", "tile_counts", "scores"):
        given = getattr(body, name) or {}
        if len({name_key(player) for player in given}) != len(given):
            # "Bo" and "bo" are one player: which entry is meant cannot be guessed.
            raise bad_request("%(name)s names the same player twice.", name, name=name)
    racks: dict[str, Rack] = {}
    problems = []
    for player, typed in (body.racks or {}).items():
        try:
            rack = Rack.from_entry(typed, settings, player)
        except RulesError as err:
            problems.extend(err.problems)
            continue
        if rack.tiles is not None and len(rack.tiles) > MAX_RACK_TILES:
            raise bad_request(
                "%(player)s: at most %(max)d tiles fit one entry: enter the rack value instead.",
                player,
                player=player,
                max=MAX_RACK_TILES,
            )
        racks[player] = rack
    if problems:
        raise RulesError(problems)
    counts, scores = body.tile_counts or {}, body.scores or {}
    entry = RoundEntry(body.ending, body.winner, racks, counts, scores)
    return RoundRequest(entry, body.confirm, body.key, body.number)


def _score(gs: GameSession, request: RoundRequest, settings: Settings) -> ScoredRound:
    players = [seat.name for seat in gs.seats]
    return score_round(players, request.entry, settings, request.confirm)


def _write_entries(gs: GameSession, rnd: Round, scored: ScoredRound) -> None:
    """Store what was entered and what was derived for every player."""
    seat_by_name = {seat.name: seat for seat in gs.seats}
    rnd.ending = scored.ending
    rnd.winner_seat = seat_by_name[scored.winner] if scored.winner else None
    lines = _entry_lines(scored, _played_with(gs)).items()
    rnd.entries = [Entry(seat=seat_by_name[player], **line) for player, line in lines]


def _played_with(gs: GameSession) -> str:
    return str(gs.rules.get("played_with", "tiles"))


def _entry_lines(scored: ScoredRound, played_with: str) -> dict[str, dict[str, Any]]:
    """What each player's entry of the round holds (Entry's columns but its seat), by player
    in seating order."""
    return {
        player: {
            "rack_value": scored.racks[player].value if player in scored.racks else None,
            "tiles": _tiles_text(scored, player, played_with),
            "tile_count": scored.tile_counts.get(player),
            "tile_count_entered": player in scored.tile_counts
            and not (player in scored.racks and scored.racks[player].tiles is not None),
            "score": score,
            "flagged": player in scored.flags,
        }
        for player, score in scored.scores.items()
    }


# What makes two rounds the same round: how it ended, who won, and each entry's rack value,
# tiles, tile count and score (Entry's columns; `flagged` follows from these).
SAME_ROUND = ("rack_value", "tiles", "tile_count", "score")


def _same_round(
    gs: GameSession, rnd: Round | StoredRound, request: RoundRequest, settings: Settings
) -> bool:
    """Whether a request describes the stored round `rnd`: it would write what the round holds
    (flags taken as confirmed); one that no longer scores (a player renamed) is not."""
    try:
        scored = _score(gs, RoundRequest(request.entry, True, None, None), settings)
    except RulesError:
        return False
    seat_id = {seat.name: seat.id for seat in gs.seats}
    winner = seat_id[scored.winner] if scored.winner else None
    if (scored.ending, winner) != (rnd.ending, rnd.winner_seat_id):
        return False
    lines = _entry_lines(scored, _played_with(gs)).items()
    wanted = {(seat_id[player], *(line[c] for c in SAME_ROUND)) for player, line in lines}
    stored = {(e.seat_id, *(getattr(e, c) for c in SAME_ROUND)) for e in rnd.entries}
    return wanted == stored


def key_reused(number: int) -> RulesError:
    """The idempotency key of round `number` sent with another round."""
    return RulesError.one(
        "key_reused",
        "This key saved round %(number)d already, and that round reads otherwise: "
        "a new round needs a new key. Nothing was saved.",
        "key",
        number=number,
    )


def _tiles_text(scored: ScoredRound, player: str, played_with: str) -> str | None:
    rack = scored.racks.get(player)
    if rack is None or rack.tiles is None:
        return None
    return format_tiles(rack.tiles, played_with)


class Written(NamedTuple):
    """A round, its session and the session's stamp as one write left them; `created` is False
    for a key used before, `before` an edited round's inputs before the edit (for its Undo)."""

    round: RoundView
    session: SessionView
    stamp: Stamp
    created: bool = True
    before: dict[str, Any] | None = None


def add_round(session_id: int, body: object) -> Written:
    """Record a new round; a repeated idempotency key returns the first round (created False)."""
    asked = read(RoundInput, body)
    with writing_rounds(session_id) as locked:
        gs, stored = locked.session, locked.rounds
        request, seen = _parsed(asked, locked.settings), asked.version
        number = len(stored) + 1
        if request.key and (existing := _round_by_key(stored, request.key)):
            if not _same_round(gs, existing, request, locked.settings):
                raise key_reused(existing.number)
            locked.change = None  # the round was stored before: nothing changes
            number = existing.number
        else:
            _add(locked, request, number, seen)
    return _written(locked, number, created=locked.change is not None)


def _add(locked: Locked, request: RoundRequest, number: int, seen: int | None) -> None:
    """Store the new round `number` in the write of rounds `locked`."""
    gs, stored = locked.session, locked.rounds
    if request.number is not None and request.number != number:
        if 1 <= request.number < number:
            raise _duplicate(request.number)
        if seen is None or request.number < 1 or gs.numbering_version <= seen:
            raise bad_request("The next round is round %(next)d.", "number", next=number)
    if seen is not None and (gs.numbering_version > seen or seen > gs.version):
        raise renumbered(number)
    scored = _score(gs, request, locked.settings)
    if len(stored) >= gs.rounds_planned:
        raise RulesError.one(
            "session_complete",
            "The agreed %(rounds)d rounds are played: agree to play another round first.",
            rounds=gs.rounds_planned,
        )
    new = _stored(gs, scored, number, request.key)
    stored.append(new)
    locked.change = round_change("round_added", number)
    new.version = locked.version
    row = {
        "session_id": gs.id,
        "number": number,
        "ending": new.ending,
        "winner_seat_id": new.winner_seat_id,
        "idempotency_key": request.key,
        "version": new.version,
    }
    new.id = db.session.execute(_INSERT_ROUND, row).scalar_one()
    _insert_entries(new)


def _stored(gs: GameSession, scored: ScoredRound, number: int, key: str | None) -> StoredRound:
    seats = {seat.name: seat.id for seat in gs.seats}
    return stored_round(scored, seats, _played_with(gs), number, key)


def stored_round(
    scored: ScoredRound, seats: Mapping[str, int], played_with: str, number: int, key: str | None
) -> StoredRound:
    """A scored round as it is about to be stored (its id and version still to come), `seats`
    the seat id of each player: pure, so the OpenAPI's examples are what a save stores."""
    lines = _entry_lines(scored, played_with).items()
    entries = [StoredEntry(seat_id=seats[player], **line) for player, line in lines]
    winner = seats[scored.winner] if scored.winner else None
    return StoredRound(0, number, scored.ending, winner, key, 0, entries)


def _insert_entries(rnd: StoredRound) -> None:
    """Store a round's entries, in one statement."""
    db.session.execute(
        _INSERT_ENTRIES, [{"round_id": rnd.id, **vars(entry)} for entry in rnd.entries]
    )


def _duplicate(number: int) -> RulesError:
    return RulesError.one(
        "duplicate_round",
        "Someone just saved round %(number)d: check the table before saving again.",
        "number",
        number=number,
    )


def renumbered(number: int) -> RulesError:
    """A new round typed before rounds were added or deleted: it would now be `number`."""
    return RulesError.one(
        "stale_round",
        "Since this round was typed, rounds were added or deleted (on this phone or another): "
        "it would now be round %(next)d. Check the table before saving again.",
        "version",
        next=number,
    )


def _round_by_key(rounds: Sequence[R], key: str) -> R | None:
    return next((r for r in rounds if r.idempotency_key == key), None)


def _find_round(gs: GameSession, number: int) -> Round:
    rnd = next((r for r in gs.rounds if r.number == number), None)
    if rnd is None:
        raise not_found("round", number)
    return rnd


def _written(
    locked: Locked,
    number: int,
    *,
    created: bool = True,
    before: dict[str, Any] | None = None,
) -> Written:
    """The round `number` and its session as the write `locked` left them (not read again)."""
    found = next(r for r in locked.view.rounds if r.number == number)
    return Written(found, locked.view, locked.stamp, created, before)


def _view(gs: GameSession, number: int) -> RoundView:
    return next(r for r in view_of(gs).rounds if r.number == number)


def get_round(session_id: int, number: int) -> RoundView:
    gs = load_session(session_id)
    _find_round(gs, number)
    return _view(gs, number)


def replace_round(session_id: int, number: int, body: object) -> Written:
    """Edit a round, its scores derived again; with the `version` it was edited from, only that
    round (else stale_round)."""
    asked = read(RoundInput, body)
    with writing_rounds(session_id, round_change("round_changed", number)) as locked:
        gs = locked.session
        old = _round_seen(locked, number, asked.version)
        request = _parsed(asked, locked.settings)
        before = round_body(round_view(old, _names(gs)))
        new = _stored(gs, _score(gs, request, locked.settings), number, old.idempotency_key)
        new.id = old.id
        locked.rounds[locked.rounds.index(old)] = new
        new.version = locked.version
        db.session.execute(_DELETE_ENTRIES, {"round_id": old.id})
        changed = {"ending": new.ending, "winner_seat_id": new.winner_seat_id}
        db.session.execute(_UPDATE_ROUND, {"round_id": old.id, **changed, "version": new.version})
        _insert_entries(new)
    return _written(locked, number, before=before)


def _names(gs: GameSession) -> dict[int, str]:
    """Seat id to name, in seating order."""
    return {seat.id: seat.name for seat in gs.seats}


def _round_seen(locked: Locked, number: int, seen: int | None) -> StoredRound:
    """The round at `number`, when it is still the round of version `seen` (if given): an edit
    or a delete made from a view of one round never lands on another."""
    rnd = next((r for r in locked.rounds if r.number == number), None)
    if seen is None or (rnd is not None and rnd.version == seen):
        if rnd is None:
            raise not_found("round", number)
        return rnd
    moved = next((r for r in locked.rounds if r.version == seen), None)
    if moved is not None:
        raise RulesError.one(
            "stale_round",
            "Round %(number)d is now round %(now)d: a round before it was deleted or put back "
            "meanwhile. Check it before saving again.",
            "version",
            number=number,
            now=moved.number,
        )
    if rnd is None:
        raise RulesError.one(
            "stale_round",
            "Round %(number)d was deleted meanwhile, on this phone or another: "
            "check the table before saving again.",
            "version",
            number=number,
            gone=True,
        )
    raise changed_meanwhile(round_view(rnd, _names(locked.session)))


def changed_meanwhile(current: RoundView) -> RulesError:
    """An edit or a delete made from an older version of the round that now reads `current`."""
    return RulesError.one(
        "stale_round",
        "Someone changed round %(number)d meanwhile; it now reads %(scores)s. "
        "Check it before saving again.",
        "version",
        number=current.number,
        scores=", ".join(f"{p} {s:+d}" for p, s in current.scores.items()),
    )


def _rewrite(gs: GameSession, rnd: Round, scored: ScoredRound) -> None:
    rnd.entries = []
    db.session.flush()
    _write_entries(gs, rnd, scored)


class Deleted(NamedTuple):
    """A round's body as a delete removed it (to restore it), and the session and its stamp as the
    same write left them."""

    body: dict[str, Any]
    stamp: Stamp
    session: SessionView


def delete_round(session_id: int, number: int, version: int | None = None) -> Deleted:
    """Remove a round (later rounds move up one); with the `version` of the round asked for, only
    that round (else stale_round)."""
    with writing_rounds(session_id, round_change("round_deleted", number)) as locked:
        gs = locked.session
        gone = _round_seen(locked, number, version)
        body = _removed_body(round_view(gone, _names(gs)), gone.idempotency_key)
        locked.rounds.remove(gone)
        for later in locked.rounds[number - 1 :]:
            later.number -= 1
        db.session.execute(_DELETE_ROUND, {"round_id": gone.id})  # entries cascade
        if len(locked.rounds) >= number:
            _shift(gs.id, after=number, by=-1, expire=False)
    return Deleted(body, locked.stamp, locked.view)


def _removed_body(view: RoundView, key: str | None) -> dict[str, Any]:
    """A removed round's body for its Undo, with its key: sent again, it is still this round."""
    body = round_body(view)
    if key:
        body["key"] = key
    return body


def _remove(gs: GameSession, number: int) -> dict[str, Any]:
    rnd = _find_round(gs, number)
    body = _removed_body(_view(gs, number), rnd.idempotency_key)
    db.session.delete(rnd)
    db.session.flush()
    _shift(gs.id, after=number, by=-1)
    return body


def _insert(gs: GameSession, number: int, body: object) -> Round:
    """Put a round body in at `number` as it was stored before: its flags stay confirmed."""
    if not 1 <= number <= len(gs.rounds) + 1:
        raise bad_request("There is no place for round %(number)d.", "number", number=number)
    settings = Settings.from_dict(gs.rules)
    request = parse_body(body, settings)
    scored = _score(gs, RoundRequest(request.entry, True, None, None), settings)
    # Its idempotency key comes back with it, unless another round took it meanwhile.
    key = request.key if request.key and not _round_by_key(gs.rounds, request.key) else None
    _shift(gs.id, after=number - 1, by=1)
    rnd = Round(session_id=gs.id, number=number, idempotency_key=key)
    _write_entries(gs, rnd, scored)
    db.session.add(rnd)
    return rnd


UNDO_KINDS = ("add", "edit", "delete")


def undo_change(session_id: int, kind: str, number: int, body: object, version: int) -> Change:
    """Take back a phone's last add, edit or delete of a round (`body`: its inputs before), only
    while the session is still at `version` (else stale_undo); says what was done."""
    with writing(session_id) as write:
        gs = write.session
        if gs.version != version or kind not in UNDO_KINDS:
            raise _stale_undo()
        settings = Settings.from_dict(gs.rules)
        written: Round | None = None
        if kind == "add":
            if number != len(gs.rounds):
                raise _stale_undo()
            _remove(gs, number)
            change = round_change("round_taken_back", number)
        elif kind == "edit":
            request = parse_body(body, settings)
            scored = _score(gs, RoundRequest(request.entry, True, None, None), settings)
            written = _find_round(gs, number)
            _rewrite(gs, written, scored)
            change = round_change("round_changed_back", number)
        else:
            written = _insert(gs, number, body)
            change = round_change("round_put_back", number)
        write.change, write.written = change, written
    return change


def _stale_undo() -> RulesError:
    return RulesError.one(
        "stale_undo",
        "The table changed since (on this phone or another): that can no longer be undone.",
    )


def _shift(session_id: int, after: int, by: int, *, expire: bool = True) -> None:
    """Renumber the rounds after `after` by `by`, in two steps so no number is held twice
    (`expire`: the rounds loaded as objects are read again when next used)."""
    later = sa.and_(Round.session_id == session_id, Round.number > after)
    db.session.execute(sa.update(Round).where(later).values(number=-(Round.number + by)))
    db.session.execute(
        sa.update(Round)
        .where(Round.session_id == session_id, Round.number < 0)
        .values(number=-Round.number)
    )
    if expire:
        db.session.expire_all()


def round_body(view: RoundView) -> dict[str, Any]:
    """The inputs of a stored round as a round body: what an edit form shows again."""
    body: dict[str, Any] = {"ending": view.ending}
    if view.ending == "scores":
        body["scores"] = view.scores
        return body
    if view.winner:
        body["winner"] = view.winner
    racks: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for player, entry in view.entries.items():
        if entry.tiles is not None:
            racks[player] = list(entry.tiles)
        elif entry.rack_value is not None:
            racks[player] = entry.rack_value
            if entry.tile_count is not None:
                counts[player] = entry.tile_count
    body["racks"] = racks
    if counts:
        body["tile_counts"] = counts
    if any(entry.flagged for entry in view.entries.values()):
        body["confirm"] = True
    return body
