"""Rules engine per call (pytest-benchmark): the table checker, the supply check of 6 racks,
scoring a 6-player round, the standings of a 30-round session with drop-worst.

Only collected when pytest is pointed at bench/ (testpaths is tests/): `bench/rules_engine.py`
runs it and turns its JSON into a section of docs/PERFORMANCE.md. Every benchmark also checks
its answer, so a wrong rule fails here rather than timing nonsense.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from scorekeeper.rules import (
    Rack,
    RoundEntry,
    RulesError,
    SetCheck,
    Settings,
    Tile,
    check_meld,
    check_set,
    check_supply,
    parse_tiles,
    score_round,
    standings,
)

# Five or six players play with two tile sets (212 tiles, 4 jokers): a late-evening table.
TWO_SETS = Settings(tile_sets=2)
PLAYERS = ["Ann", "Bo", "Cy", "Di", "Eva", "Finn"]

# The table as typed into the checker, one set a line, with what each line is worth (0: not a
# set). Runs and groups, four jokers, and the one- and two-tile lines of a set half laid down.
TABLE: list[tuple[str, int]] = [
    ("r1 r2 r3", 6),
    ("r4 r5 r6 r7", 22),
    ("r8 r9 r10 r11 r12 r13", 63),
    ("k1 k2 k3 k4 k5", 15),
    ("k6 k7 k8", 21),
    ("k9 k10 k11 k12 k13", 55),
    ("b2 b3 b4", 9),
    ("b5 b6 b7 b8", 26),
    ("b9 b10 b11", 30),
    ("o3 o4 o5 o6", 18),
    ("o7 o8 o9", 24),
    ("o10 o11 o12 o13", 46),
    ("r3 r4 j", 12),  # r3 r4 r5 beats r2 r3 r4
    ("o5 o6 o7", 18),
    ("b11 b12 j", 36),  # b11 b12 b13 beats b10 b11 b12
    ("o1 o2 j o4", 10),
    ("r5 k5 b5", 15),
    ("r9 k9 b9 o9", 36),
    ("r13 k13 b13", 39),
    ("r10 b10 j", 30),
    ("k2 o2 r2", 6),
    ("k4 r4 b4 o4", 16),
    ("r7 b7 o7", 21),
    ("k11 r11 o11", 33),
    ("r12 k12 b12 o12", 48),
    ("b1 r1 k1", 3),
    ("o8 k8 b8", 24),
    ("k3 b3 o3", 9),
    ("r6 k6 o6 b6", 24),
    ("b13 o13 k13", 39),
    ("r5", 0),  # one tile
    ("b7 b8", 0),  # two tiles
    ("o10 k10", 0),
    ("k9", 0),
    ("b12 b13 b1", 0),  # needs the run wrap setting
    ("r10 r11 r13", 0),  # a gap and no joker
    ("k7 r7 r7", 0),  # red 7 twice
    ("o9 o10 o11 o12", 42),
    ("b10 k10 r10 o10", 40),
    ("k8 k9 k10", 27),
]

# Six racks at the end of a round (two sets), typed tile by tile: 4 to 13 tiles each.
RACKS: dict[str, tuple[str, int, int]] = {  # player: (tiles, value, count)
    "Ann": ("r3 k7 b12 o1", 23, 4),
    "Bo": ("k13 k12 r9 b9 o2 o5 j", 80, 7),
    "Cy": ("r1 r2 b6 b7 k10 o11 o13 k4 j", 84, 9),
    "Di": ("b1 b2 b3 r11 r12 k5 k6 o8 o9 o10 r13", 80, 11),
    "Eva": ("k1 k2 o3 o4 b13 r6", 29, 6),
    "Finn": ("r4 r5 r7 r8 k3 k8 k9 b4 b5 b8 b10 o6 o7", 84, 13),
}

# A went-out round as the form sends it: Ann went out, everyone else's rack as a number.
WENT_OUT = {"Bo": "22", "Cy": "55", "Di": "8", "Eva": "41", "Finn": "17"}
WENT_OUT_SCORES = {"Ann": 143, "Bo": -22, "Cy": -55, "Di": -8, "Eva": -41, "Finn": -17}
ROUNDS = 30


def check_table(lines: Sequence[str], settings: Settings) -> list[SetCheck]:
    """What the table checker asks the rules: each line read and checked as a set, then the
    sets together for the supply (the meld check across the table)."""
    sets = [parse_tiles(line) for line in lines]
    checks = [check_set(tiles, settings) for tiles in sets]
    check_meld(sets, settings)  # raises when the table holds more of a tile than exists
    return checks


def check_racks(entries: dict[str, str], settings: Settings) -> dict[str, Rack]:
    """What the round form does with racks typed tile by tile: read each, then the supply."""
    racks = {name: Rack.from_entry(text, settings, name) for name, text in entries.items()}
    check_supply([r.tiles or () for r in racks.values()], settings.tile_sets, settings.played_with)
    return racks


def score_went_out(settings: Settings) -> dict[str, int]:
    """A 6-player went-out round from the form's strings to its scores."""
    racks = {name: Rack.from_entry(text, settings, name) for name, text in WENT_OUT.items()}
    return score_round(PLAYERS, RoundEntry("went_out", "Ann", racks), settings).scores


def evening(rounds: int) -> list[dict[str, int]]:
    """A deterministic evening: the winner goes round the table, the losses vary from 1 to 60."""
    played = []
    for number in range(rounds):
        winner = PLAYERS[number % len(PLAYERS)]
        scores = {
            p: -((number * 7 + seat * 11) % 60 + 1) for seat, p in enumerate(PLAYERS) if p != winner
        }
        scores[winner] = -sum(scores.values())
        played.append(scores)
    return played


def test_table_of_40_sets(benchmark: Any) -> None:
    lines = [line for line, _ in TABLE]
    assert len(lines) == 40
    checks = benchmark(check_table, lines, TWO_SETS)
    assert [c.points if c.valid else 0 for c in checks] == [points for _, points in TABLE]
    invalid = [c.reason.code for c in checks if c.reason is not None]
    assert invalid == ["bad_set"] * 7
    tiles = Counter(t for line in lines for t in parse_tiles(line))
    assert max(tiles.values()) <= 4 and tiles[Tile()] == 4  # the table fits two tile sets


def test_supply_of_6_racks(benchmark: Any) -> None:
    entries = {name: tiles for name, (tiles, _, _) in RACKS.items()}
    racks = benchmark(check_racks, entries, TWO_SETS)
    assert {n: (r.value, r.count) for n, r in racks.items()} == {
        n: (value, count) for n, (_, value, count) in RACKS.items()
    }
    one_set = Settings(tile_sets=1)  # with a seventh rack, red 1 three times: too many for one set
    with pytest.raises(RulesError, match="single set"):
        check_racks({**entries, "Extra": "k13 k12 r1 r1"}, one_set)


def test_score_a_6_player_round(benchmark: Any) -> None:
    scores = benchmark(score_went_out, TWO_SETS)
    assert scores == WENT_OUT_SCORES
    assert sum(scores.values()) == 0


def test_standings_of_30_rounds_with_drop_worst(benchmark: Any) -> None:
    rounds = evening(ROUNDS)
    table = benchmark(standings, PLAYERS, rounds, ROUNDS, True)
    assert table.complete and table.rounds_played == ROUNDS
    for p in PLAYERS:
        column = [r[p] for r in rounds]
        assert table.totals[p] == sum(column) - min(column)
        assert table.dropped[p] == column.index(min(column)) + 1
    assert sum(table.running[-1].values()) == 0
