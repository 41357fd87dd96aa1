"""Sets on the table (docs/RULES.md 2-4): every reading of a set, why a set is invalid, the meld."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.errors import NameList, Problem, name_list
from scorekeeper.rules.settings import Settings
from scorekeeper.rules.tiles import COLOURS, JOKER, NUMBERS, Tile, check_supply, sort_tiles

MAX_RUN = 13
MAX_GROUP = 4
MIN_SET = 3


@dataclass(frozen=True)
class Reading:
    """One way to read a set: what each tile stands for (jokers replaced) and the points."""

    kind: str  # "group" or "run"
    tiles: tuple[Tile, ...]
    points: int

    def notation(self, played_with: str = "tiles") -> list[str]:
        return [t.notation(played_with) for t in self.tiles]


@dataclass(frozen=True)
class SetCheck:
    """The verdict on one set: its readings (empty when invalid) and, if invalid, why."""

    tiles: tuple[Tile, ...]
    readings: tuple[Reading, ...]
    reason: Problem | None

    @property
    def valid(self) -> bool:
        return bool(self.readings)

    @property
    def best(self) -> Reading | None:
        """The highest-scoring reading: the one a player declares when points matter."""
        return max(self.readings, key=lambda r: r.points, default=None)

    @property
    def points(self) -> int:
        return self.best.points if self.best else 0


@dataclass(frozen=True)
class MeldCheck:
    """The verdict on an initial meld: every set valid and worth the minimum together."""

    sets: tuple[SetCheck, ...]
    points: int
    minimum: int
    reason: Problem | None

    @property
    def valid(self) -> bool:
        return self.reason is None


def check_set(tiles: Sequence[Tile], settings: Settings | None = None) -> SetCheck:
    """Read a set as a multiset: entry order never matters."""
    settings = settings or Settings()
    check_supply([tiles], settings.tile_sets, settings.played_with)
    tiles = tuple(sort_tiles(tiles))
    readings = (*_group_readings(tiles), *_run_readings(tiles, settings.run_wrap))
    reason = None if readings else _reason(tiles, settings)
    return SetCheck(tiles, readings, reason)


def check_meld(sets: Sequence[Sequence[Tile]], settings: Settings | None = None) -> MeldCheck:
    """The initial meld: valid sets, all from one rack, at least the Minimum initial meld."""
    settings = settings or Settings()
    minimum = settings.min_initial_meld
    check_supply(sets, settings.tile_sets, settings.played_with)
    checks = tuple(check_set(s, settings) for s in sets)
    points = sum(c.points for c in checks)
    reason: Problem | None = None
    if not checks:
        reason = Problem("bad_meld", "An initial meld needs at least one set.")
    elif (bad := next((i for i, c in enumerate(checks) if not c.valid), None)) is not None:
        reason = _invalid_set_in_meld(bad, checks[bad])
    elif points < minimum:
        reason = Problem(
            "bad_meld",
            "These sets make %(points)d points; the initial meld needs %(minimum)d.",
            {"points": points, "minimum": minimum},
        )
    return MeldCheck(checks, points, minimum, reason)


def _invalid_set_in_meld(index: int, check: SetCheck) -> Problem:
    assert check.reason is not None
    return Problem(
        "bad_meld",
        "Set %(number)d is not valid: %(reason)s",
        {"number": index + 1, "reason": check.reason},
    )


def _numbered(tiles: Sequence[Tile]) -> list[Tile]:
    return [t for t in tiles if not t.is_joker]


def _group_readings(tiles: Sequence[Tile]) -> list[Reading]:
    numbered = _numbered(tiles)
    if not numbered or not MIN_SET <= len(tiles) <= MAX_GROUP:
        return []
    number = numbered[0].number
    colours = [t.colour for t in numbered]
    if any(t.number != number for t in numbered) or len(set(colours)) != len(colours):
        return []
    missing = [c for c in COLOURS if c not in colours]
    stand_ins = [Tile(number, c) for c in missing[: len(tiles) - len(numbered)]]
    return [Reading("group", tuple(sort_tiles(numbered + stand_ins)), number * len(tiles))]


def _run_positions(length: int, wrap: bool) -> list[range]:
    """Every window of consecutive numbers a run of this length may cover; 14 is a high 1."""
    top = 14 if wrap else 13
    windows = [range(s, s + length) for s in range(1, top - length + 2)]
    return [w for w in windows if not (1 in w and 14 in w)]


def _fits(numbers: list[int], window: range) -> bool:
    placed = [14 if n == 1 and 14 in window else n for n in numbers]
    return all(p in window for p in placed)


def _run_readings(tiles: Sequence[Tile], wrap: bool) -> list[Reading]:
    numbered = _numbered(tiles)
    if not numbered or not MIN_SET <= len(tiles) <= MAX_RUN:
        return []
    colour = numbered[0].colour
    numbers = [t.number for t in numbered]
    if any(t.colour != colour for t in numbered) or len(set(numbers)) != len(numbers):
        return []
    readings = []
    for window in _run_positions(len(tiles), wrap):
        if _fits(numbers, window):
            stands = tuple(Tile(1 if n == 14 else n, colour) for n in window)
            readings.append(Reading("run", stands, sum(t.number for t in stands)))
    return readings


def _names(tiles: Sequence[Tile], played_with: str) -> NameList:
    return name_list([t.words(played_with) for t in tiles], ",")


def _bad_set(template: str, **params: Any) -> Problem:
    """A problem with code bad_set; babel.cfg extracts the first argument as the msgid."""
    return Problem("bad_set", template, params)


def _reason(tiles: tuple[Tile, ...], settings: Settings) -> Problem:
    """The plain-words reason a set is not valid, the most specific that applies."""
    pw = settings.played_with
    numbered = _numbered(tiles)
    if len(tiles) < MIN_SET:
        return _bad_set("A set needs at least 3 tiles; this has %(n)d.", n=len(tiles))
    if not numbered:
        return _bad_set("A set needs at least one numbered tile besides jokers.")
    same_number = len({t.number for t in numbered}) == 1
    same_colour = len({t.colour for t in numbered}) == 1
    if same_number and not same_colour:
        if len(tiles) > MAX_GROUP:
            return _bad_set(
                "%(n)d tiles cannot be a group: a group has 3 or 4 tiles.", n=len(tiles)
            )
        twice = Counter(t.colour for t in numbered).most_common(1)[0][0]
        return _bad_set(
            "%(colour)s appears twice: a group needs a different colour on every tile.",
            colour=Tile(numbered[0].number, twice).words(pw),
        )
    if same_colour:
        counts = Counter(t.number for t in numbered)
        repeated = [n for n, k in counts.items() if k > 1]
        if repeated and len(counts) > 1:
            return _bad_set(
                "%(tile)s appears twice: a run has every number once.",
                tile=Tile(repeated[0], numbered[0].colour).words(pw),
            )
        if repeated:
            return _bad_set(
                "%(tile)s appears twice: a group needs different colours, a run different numbers.",
                tile=numbered[0].words(pw),
            )
        if len(tiles) > MAX_RUN:
            return _bad_set("A run has at most 13 tiles; this has %(n)d.", n=len(tiles))
        numbers = [t.number for t in numbered]
        wraps = _run_positions(len(tiles), wrap=True)
        if not settings.run_wrap and any(_fits(numbers, w) for w in wraps):
            return _bad_set(
                "%(tiles)s needs the run wrap setting: 1 follows 13 only with it on.",
                tiles=_names(_wrap_order(numbered), pw),
            )
        if 1 in numbers and _fits_around(numbers, len(tiles)):
            return _bad_set(
                "%(tiles)s: a 1 cannot be low and high in the same run.",
                tiles=_names(_wrap_order(numbered), pw),
            )
        return _bad_set(
            "%(tiles)s do not follow on: a run needs consecutive numbers, "
            "and the jokers cannot fill the gaps.",
            tiles=_names(numbered, pw),
        )
    return _bad_set(
        "%(tiles)s mix colours and numbers: a group needs one number, a run one colour.",
        tiles=_names(numbered, pw),
    )


def _fits_around(numbers: list[int], length: int) -> bool:
    """True when the numbers would fit a run only by going round from 13 to 1 and on."""
    for start in range(1, 14):
        window = {(start - 1 + i) % 13 + 1 for i in range(length)}
        if all(n in window for n in numbers):
            return True
    return False


def _wrap_order(numbered: list[Tile]) -> list[Tile]:
    """Tiles in the order a player would lay a run that wraps: the high numbers, then 1, 2..."""
    return sorted(numbered, key=lambda t: t.number + (13 if t.number <= 6 else 0))


# --- Jokers on the table (docs/RULES.md 4) -----------------------------------------------------

FREED_JOKER_REMINDER = "Play the freed joker this turn: it may never end on a rack."


@dataclass(frozen=True)
class SwapCheck:
    """May this rack tile take the place of a joker in this set on the table, and why not;
    `stands_for`: every tile the jokers stand for in some reading."""

    allowed: bool
    reason: Problem | None
    stands_for: tuple[Tile, ...]

    @property
    def reminder(self) -> str | None:
        """What the player must not forget once the joker is in their hand."""
        return FREED_JOKER_REMINDER if self.allowed else None


def joker_stand_ins(tiles: Sequence[Tile], settings: Settings | None = None) -> tuple[Tile, ...]:
    """Every tile that may take a joker's place and leave the set valid: in a 3-tile group
    either missing colour, in a 4-tile group the missing one, in a run the exact tile."""
    settings = settings or Settings()
    rest = list(tiles)
    if JOKER not in rest:
        return ()
    rest.remove(JOKER)
    found = []
    for candidate in (Tile(n, c) for c in COLOURS for n in NUMBERS):
        swapped = tuple(sort_tiles([*rest, candidate]))
        if _group_readings(swapped) or _run_readings(swapped, settings.run_wrap):
            found.append(candidate)
    return tuple(sort_tiles(found))


def check_joker_swap(
    set_tiles: Sequence[Tile], tile: Tile, settings: Settings | None = None
) -> SwapCheck:
    """Take a joker from a valid set on the table by putting in its place the tile it stands
    for (docs/RULES.md 4); refused when the session's rules forbid retrieving jokers."""
    settings = settings or Settings()
    pw = settings.played_with
    check = check_set(set_tiles, settings)
    jokers = sum(t.is_joker for t in check.tiles)
    stands_for = joker_stand_ins(check.tiles, settings) if check.valid else ()

    def refused(template: str, **params: object) -> SwapCheck:
        return SwapCheck(False, Problem("bad_swap", template, dict(params)), stands_for)

    # Every template below is a whole sentence (one for one joker, one for two), so each is a
    # msgid of its own; babel.cfg extracts the first argument of `refused`.
    if not settings.jokers_retrievable:
        return refused("Jokers may not be retrieved from the table in this session.")
    if not jokers:
        return refused("There is no joker in this set to take.")
    if not check.valid:
        assert check.reason is not None
        return refused(
            "This set is not valid, so no joker can be taken from it: %(reason)s",
            reason=check.reason,
        )
    if tile.is_joker and jokers == 1:
        return refused("A joker cannot replace a joker: put in the tile it stands for.")
    if tile.is_joker:
        return refused("A joker cannot replace a joker: put in the tile one of them stands for.")
    check_supply([check.tiles, [tile]], settings.tile_sets, pw)
    if tile not in stands_for and jokers == 1:
        return refused(
            "The joker here stands for %(tiles)s; %(tile)s cannot replace it.",
            tiles=_or_list([t.words(pw) for t in stands_for]),
            tile=tile.words(pw),
        )
    if tile not in stands_for:
        return refused(
            "The jokers here stand for %(tiles)s; %(tile)s cannot replace either.",
            tiles=_or_list([t.words(pw) for t in stands_for]),
            tile=tile.words(pw),
        )
    return SwapCheck(True, None, stands_for)


def _or_list(names: Sequence[object]) -> NameList:
    """`red 11`, `blue 2 or blue 5`, `black 5, red 5 or orange 5` (the web translates "or")."""
    return name_list(names, "or")
