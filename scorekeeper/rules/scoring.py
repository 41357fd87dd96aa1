"""Scoring a round (docs/RULES.md 6): someone went out, the pool ran out, or scores as on paper."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from scorekeeper.rules.errors import NameList, Problem, RulesError, name_list
from scorekeeper.rules.numbers import digits_for, looks_whole, whole_number
from scorekeeper.rules.players import find_player
from scorekeeper.rules.settings import N_, Settings, declared
from scorekeeper.rules.tiles import (
    Tile,
    check_supply,
    most_valuable_rack,
    parse_tiles,
    rack_value,
)

Ending = Literal["went_out", "pool_empty", "scores"]
ENDINGS: tuple[str, ...] = get_args(Ending)
TILES_PER_SET = 106
MAX_JOKER_PENALTY = next(s.high for s in declared(Settings) if s.name == "joker_penalty") or 0
# No rack is worth more than every tile of two sets with the highest joker penalty.
RACK_DIGITS = digits_for(most_valuable_rack(2, MAX_JOKER_PENALTY))


@dataclass(frozen=True)
class Rack:
    """One player's rack as entered: a value, or tiles (which also give the count)."""

    value: int
    tiles: tuple[Tile, ...] | None = None
    count: int | None = None

    @classmethod
    def from_entry(cls, entry: Any, settings: Settings, player: str = "") -> Rack:
        """A rack from what a form or the API sends: a whole number or tiles in notation."""
        if isinstance(entry, Rack):
            return entry
        if isinstance(entry, bool) or entry is None:
            raise _bad_rack(player)
        if isinstance(entry, int):
            return cls(entry)
        if isinstance(entry, str) and looks_whole(entry.strip()) and "+" not in entry:
            value = whole_number(entry.strip(), RACK_DIGITS, signed=True)
            if value is None:  # more digits than any rack is worth (int() fails past 4,300)
                raise RulesError.one(
                    "impossible_rack",
                    "%(player)s: a rack is worth at most %(limit)d points.",
                    player,
                    player=player,
                    limit=most_valuable_rack(2, MAX_JOKER_PENALTY),
                )
            return cls(value)
        if isinstance(entry, str | list | tuple):
            try:
                tiles = tuple(parse_tiles(entry, settings.played_with))
            except RulesError as err:
                raise RulesError([_for_player(p, player) for p in err.problems]) from None
            return cls(rack_value(tiles, settings.joker_penalty), tiles, len(tiles))
        raise _bad_rack(player)


@dataclass(frozen=True)
class RoundEntry:
    """How a round ended, as the family entered it."""

    ending: str
    winner: str | None = None
    racks: Mapping[str, Rack] = field(default_factory=dict)
    tile_counts: Mapping[str, int] = field(default_factory=dict)
    scores: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ScoredRound:
    """A round's derived result: the winner, every player's score, the flagged entries."""

    ending: str
    winner: str | None
    scores: dict[str, int]
    racks: dict[str, Rack]
    tile_counts: dict[str, int]
    flags: tuple[str, ...]


def score_round(
    players: Sequence[str], entry: RoundEntry, settings: Settings, confirm: bool = False
) -> ScoredRound:
    """Check a round against the rules and derive every score; the round sums to zero."""
    if entry.ending == "went_out":
        scored = _went_out(players, entry, settings)
    elif entry.ending == "pool_empty":
        scored = _pool_empty(players, entry, settings)
    elif entry.ending == "scores":
        scored = _paper(players, entry, settings)
    else:
        raise RulesError.one(
            "bad_ending",
            "A round ends with went_out, pool_empty or scores.",
            "ending",
        )
    if scored.flags and not confirm:
        raise RulesError([_typo_question(scored, p, settings) for p in scored.flags])
    return scored


def _typo_question(scored: ScoredRound, player: str, settings: Settings) -> Problem:
    """Asks whether a flagged entry is right, in the numbers the family typed: a rack as its
    value ("190 on the rack, more than 180"), a paper score as it is."""
    low = settings.typo_threshold
    rack = scored.racks.get(player)
    if rack is not None and -rack.value < low:
        return _about(
            player,
            "confirm_required",
            "%(player)s: %(rack)s on the rack, more than %(limit)s. Right?",
            rack=rack.value,
            limit=-low,
            value=-rack.value,
        )
    return _about(
        player,
        "confirm_required",
        "%(player)s: %(value)s on paper, below %(threshold)s. Right?",
        value=scored.scores[player],
        threshold=low,
    )


def _went_out(players: Sequence[str], entry: RoundEntry, settings: Settings) -> ScoredRound:
    winner = _winner_named(entry.winner, players)
    racks = _racks_by_player(players, entry.racks)
    winner_rack = racks.pop(winner, None)
    winner_count = next(
        (c for n, c in entry.tile_counts.items() if find_player(n, players) == winner), None
    )
    has_tiles = winner_rack is not None and (winner_rack.value != 0 or bool(winner_rack.count))
    problems: list[Problem] = []
    if has_tiles or (isinstance(winner_count, int) and winner_count > 0):
        problems.append(
            _about(winner, "winner_has_tiles", "%(player)s went out, so their rack is empty.")
        )
    problems += _missing(players, racks, skip=winner)
    problems += _rack_problems(racks, entry.tile_counts, players, settings)
    if problems:
        raise RulesError(problems)
    losses = {p: racks[p].value for p in players if p != winner}
    scores = {p: -losses[p] if p != winner else 0 for p in players}
    scores[winner] = settings.winner_bonus if settings.winner_bonus else sum(losses.values())
    return ScoredRound(
        "went_out",
        winner,
        scores,
        racks,
        _counts(racks, entry.tile_counts, players),
        _flags(players, scores, racks, settings),
    )


def _pool_empty(players: Sequence[str], entry: RoundEntry, settings: Settings) -> ScoredRound:
    racks = _racks_by_player(players, entry.racks)
    problems = _missing(players, racks)
    problems += _rack_problems(racks, entry.tile_counts, players, settings)
    counts = _counts(racks, entry.tile_counts, players)
    fewest = settings.empty_pool == "fewest_tiles"
    if fewest:
        problems += [
            _about(
                p,
                "missing_player",
                "%(player)s: how many tiles are left? The fewest tiles take the round.",
            )
            for p in players
            if p not in counts and p in racks
        ]
    if problems:
        raise RulesError(problems)
    winner = _pool_winner(players, racks, counts, entry.winner, fewest)
    if fewest:
        losses = {p: racks[p].value for p in players if p != winner}
    else:
        losses = {p: racks[p].value - racks[winner].value for p in players if p != winner}
    scores = {p: -losses[p] if p != winner else 0 for p in players}
    scores[winner] = settings.winner_bonus if settings.winner_bonus else sum(losses.values())
    return ScoredRound(
        "pool_empty", winner, scores, racks, counts, _flags(players, scores, racks, settings)
    )


def _pool_winner(
    players: Sequence[str],
    racks: Mapping[str, Rack],
    counts: Mapping[str, int],
    named: str | None,
    fewest: bool,
) -> str:
    """Lowest rack (then fewer tiles), or fewest tiles (then lower rack); else the family picks."""

    def narrow(candidates: list[str], key: Mapping[str, int]) -> list[str]:
        if not all(p in key for p in candidates):
            return candidates
        low = min(key[p] for p in candidates)
        return [p for p in candidates if key[p] == low]

    values = {p: racks[p].value for p in players}
    first, second = (counts, values) if fewest else (values, counts)
    tied = narrow(list(players), first)
    candidates = narrow(tied, second)
    chosen = None if named is None else _winner_named(named, players)
    if chosen is not None and chosen not in candidates:
        raise _wrong_winner(chosen, candidates, fewest, len(candidates) < len(tied))
    if len(candidates) == 1:
        return candidates[0]
    if chosen is None:
        raise RulesError.one(
            "tie",
            "%(who)s tie for the round: enter tile counts, or say who takes it.",
            "winner",
            who=_and_list(candidates),
            tied=tuple(candidates),
        )
    return chosen


def _wrong_winner(chosen: str, candidates: Sequence[str], fewest: bool, broken: bool) -> RulesError:
    """One full sentence per case, so each can be translated whole; `broken` when the second
    key (the tile counts, or with fewest tiles the racks) settled a tie on the first."""
    one = len(candidates) == 1
    if broken and fewest and one:
        template = N_(
            "%(named)s cannot take the round: %(who)s has the fewest tiles with a lower rack."
        )
    elif broken and fewest:
        template = N_(
            "%(named)s cannot take the round: %(who)s have the fewest tiles with a lower rack."
        )
    elif broken and one:
        template = N_(
            "%(named)s cannot take the round: %(who)s has the lowest rack with fewer tiles."
        )
    elif broken:
        template = N_(
            "%(named)s cannot take the round: %(who)s have the lowest rack with fewer tiles."
        )
    elif fewest and one:
        template = N_("%(named)s cannot take the round: %(who)s has the fewest tiles.")
    elif one:
        template = N_("%(named)s cannot take the round: %(who)s has the lowest rack.")
    elif fewest:
        template = N_("%(named)s cannot take the round: %(who)s have the fewest tiles.")
    else:
        template = N_("%(named)s cannot take the round: %(who)s have the lowest rack.")
    who = _and_list(candidates)
    return RulesError.one("wrong_winner", template, "winner", named=chosen, who=who)


def _paper(players: Sequence[str], entry: RoundEntry, settings: Settings) -> ScoredRound:
    problems: list[Problem] = []
    scores: dict[str, int] = {}
    for name, value in entry.scores.items():
        player = find_player(name, players)
        if player is None:
            problems.append(_unknown(name))
        elif isinstance(value, bool) or not isinstance(value, int):
            problems.append(_about(player, "bad_score", "%(player)s: a score is a whole number."))
        else:
            scores[player] = value
    problems += _missing(players, scores)
    limit = most_valuable_rack(settings.tile_sets, settings.joker_penalty)
    problems += [
        _about(
            p,
            "impossible_rack",
            "%(player)s: %(value)d is more than every tile in the game is worth.",
            value=v,
        )
        for p, v in scores.items()
        if v < -limit
    ]
    if problems:
        raise RulesError(problems)
    total = sum(scores.values())
    if total and not settings.winner_bonus:
        raise RulesError.one(
            "zero_sum",
            "Adds up to %(total)+d: someone counted a rack wrong.",
            "scores",
            total=total,
        )
    positive = [p for p in players if scores[p] > 0]
    if len(positive) > 1:
        raise RulesError.one(
            "zero_sum",
            "%(who)s all score plus: only the winner of a round scores plus.",
            "scores",
            who=_and_list(positive),
        )
    if not positive and settings.winner_bonus:
        raise RulesError.one(
            "zero_sum", "Nobody scored plus: the winner of the round scores plus.", "scores"
        )
    # Every entry 0 adds up to 0 with nobody plus: what an empty pool with equal racks scores
    # (docs/RULES.md 6). The sheet does not say who took such a round, so nobody won it: it counts
    # as a round won for no one. With a winner bonus the winner always scores plus.
    ordered = {p: scores[p] for p in players}
    return ScoredRound(
        "scores",
        positive[0] if positive else None,
        ordered,
        {},
        {},
        _flags(players, ordered, {}, settings),
    )


def _winner_named(name: object, players: Sequence[str]) -> str:
    if name is None or name == "":
        raise RulesError.one("missing_player", "Who went out? Pick the winner.", "winner")
    player = find_player(name, players)
    if player is None:
        raise RulesError(_unknown(name, "winner"))
    return player


def _racks_by_player(players: Sequence[str], racks: Mapping[str, Rack]) -> dict[str, Rack]:
    by_player: dict[str, Rack] = {}
    problems = []
    for name, rack in racks.items():
        player = find_player(name, players)
        if player is None:
            problems.append(_unknown(name))
        else:
            by_player[player] = rack
    if problems:
        raise RulesError(problems)
    return by_player


def _missing(
    players: Sequence[str], given: Mapping[str, object], skip: str | None = None
) -> list[Problem]:
    return [
        _about(p, "missing_player", "%(player)s: enter what is left.")
        for p in players
        if p != skip and p not in given
    ]


def _rack_problems(
    racks: Mapping[str, Rack],
    tile_counts: Mapping[str, int],
    players: Sequence[str],
    settings: Settings,
) -> list[Problem]:
    """Values that cannot exist: negative, empty, above every tile, or beyond the tile count."""
    problems = []
    limit = most_valuable_rack(settings.tile_sets, settings.joker_penalty)
    counts = _counts(racks, tile_counts, players)
    lowest_tile = min(1, settings.joker_penalty)
    for player, rack in racks.items():
        count = counts.get(player)
        if isinstance(rack.value, bool) or not isinstance(rack.value, int):
            problems.append(_bad_rack(player).problems[0])
        elif rack.value < 0:
            problems.append(
                _about(player, "negative_rack", "%(player)s: a rack cannot be worth less than 0.")
            )
        elif rack.value == 0 and lowest_tile > 0 or count == 0:
            problems.append(
                _about(player, "empty_rack", "%(player)s: an empty rack means %(player)s went out.")
            )
        elif rack.value > limit:
            problems.append(
                _about(
                    player,
                    "impossible_rack",
                    "%(player)s: %(value)d is more than every tile in the game is worth "
                    "(%(limit)d).",
                    value=rack.value,
                    limit=limit,
                )
            )
        elif count is not None and count > 0 and not _value_possible(rack.value, count, settings):
            problems.append(
                _about(
                    player,
                    "impossible_rack",
                    "%(player)s: %(count)d tiles cannot be worth %(value)d.",
                    count=count,
                    value=rack.value,
                )
            )
    for name, count in tile_counts.items():
        counted = find_player(name, players)
        counted_rack = racks.get(counted) if counted else None
        if counted is None:
            problems.append(_unknown(name))
        elif isinstance(count, bool) or not isinstance(count, int) or count < 0:
            problems.append(
                _about(
                    counted,
                    "bad_tile_count",
                    "%(player)s: a tile count is a whole number, 0 or more.",
                )
            )
        elif counted_rack is not None and counted_rack.count not in (None, count):
            problems.append(
                _about(
                    counted,
                    "bad_tile_count",
                    "%(player)s: %(entered)d tiles entered, but the tile count says %(count)d.",
                    entered=counted_rack.count,
                    count=count,
                )
            )
    if not problems:
        entered = [rack.tiles for rack in racks.values() if rack.tiles]
        check_supply(entered, settings.tile_sets, settings.played_with)
        if sum(rack.value for rack in racks.values()) > limit:
            problems.append(
                Problem(
                    "impossible_rack",
                    "These racks add up to more than every tile in the game is worth (%(limit)d).",
                    {"limit": limit},
                    "racks",
                )
            )
    return problems


def _value_possible(value: int, count: int, settings: Settings) -> bool:
    """Can `count` tiles be worth `value`: some jokers at the penalty, the rest 1 to 13 each."""
    if count > settings.tile_sets * TILES_PER_SET:
        return False
    for jokers in range(min(count, settings.jokers_in_game) + 1):
        numbered = count - jokers
        if numbered <= value - jokers * settings.joker_penalty <= 13 * numbered:
            return True
    return False


def _counts(
    racks: Mapping[str, Rack], tile_counts: Mapping[str, int], players: Sequence[str]
) -> dict[str, int]:
    """Tile counts per player: from the tiles entered, else from the counts given."""
    counts: dict[str, int] = {}
    for name, count in tile_counts.items():
        player = find_player(name, players)
        valid = isinstance(count, int) and not isinstance(count, bool) and count >= 0
        if player is not None and valid:
            counts[player] = count
    for player, rack in racks.items():
        if rack.count is not None:
            counts[player] = rack.count
    return {p: counts[p] for p in players if p in counts}


def _flags(
    players: Sequence[str],
    scores: Mapping[str, int],
    racks: Mapping[str, Rack],
    settings: Settings,
) -> tuple[str, ...]:
    """Entries below the typo threshold: a rack typed as -value, or a score typed directly."""
    low = settings.typo_threshold
    return tuple(p for p in players if scores[p] < low or (p in racks and -racks[p].value < low))


def _and_list(names: Sequence[str]) -> NameList:
    """`Ann`, `Ann and Bo`, `Ann, Bo and Cy` (the web layer translates the "and")."""
    return name_list(names, "and")


def _about(player: str, code: str, template: str, **params: Any) -> Problem:
    """A problem with one player's entry: the player is its field and its %(player)s (babel.cfg
    extracts the third argument as the msgid)."""
    return Problem(code, template, {"player": player, **params}, player)


def _unknown(name: object, field: str | None = None) -> Problem:
    shown = str(name)[:40]
    return Problem(
        "unknown_player",
        "%(name)s is not playing in this session.",
        {"name": shown},
        field or shown,
    )


def _for_player(problem: Problem, player: str) -> Problem:
    if not player:
        return problem
    return _about(player, problem.code, "%(player)s: %(problem)s", problem=problem)


def _bad_rack(player: str) -> RulesError:
    if not player:
        return RulesError.one("bad_rack", "Rack: a rack is a whole number or tiles like r7 k13 j.")
    return RulesError.one(
        "bad_rack",
        "%(player)s: a rack is a whole number or tiles like r7 k13 j.",
        player,
        player=player,
    )
