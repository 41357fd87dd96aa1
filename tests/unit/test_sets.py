"""Sets on the table and the initial meld: docs/RULES.md sections 2 and 3."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from scorekeeper.rules import MeldCheck, RulesError, Settings, check_meld, check_set, parse_tiles

RUN_1_TO_13 = " ".join(f"r{n}" for n in range(1, 14))

Readings = list[tuple[str, list[str], int]]

# (id, tiles, settings overrides, valid, readings when valid / reason substring when invalid)
SET_CASES: list[tuple[str, str, dict[str, Any], bool, Readings | str]] = [
    # An early rule text gave r5 b5 J 21 points: three 5s make 15 (docs/RULES.md §2).
    ("rules-group-r5-b5-J", "r5 b5 J", {}, True, [("group", ["k5", "r5", "b5"], 15)]),
    ("rules-repeated-colour", "r5 b5 k5 r5", {}, False, "red 5 appears twice"),
    ("rules-5-tile-group", "r5 b5 k5 o5 J", {}, False, "5 tiles cannot be a group"),
    ("5-numbered-group", "r5 b5 k5 o5 r5", {}, False, "5 tiles cannot be a group"),
    ("rules-12-13-1-no-wrap", "r12 r13 r1", {}, False, "run wrap"),
    (
        "rules-12-13-1-wrap",
        "r12 r13 r1",
        {"run_wrap": True},
        True,
        [("run", ["r12", "r13", "r1"], 26)],
    ),
    ("rules-13-1-2-no-wrap", "r13 r1 r2", {}, False, "low and high"),
    ("rules-13-1-2-wrap", "r13 r1 r2", {"run_wrap": True}, False, "low and high"),
    ("rules-J-12-13", "J r12 r13", {}, True, [("run", ["r11", "r12", "r13"], 36)]),
    (
        "J-12-13-wrap",
        "J r12 r13",
        {"run_wrap": True},
        True,
        [("run", ["r11", "r12", "r13"], 36), ("run", ["r12", "r13", "r1"], 26)],
    ),
    (
        "rules-J-5-6",
        "J r5 r6",
        {},
        True,
        [("run", ["r4", "r5", "r6"], 15), ("run", ["r5", "r6", "r7"], 18)],
    ),
    (
        "rules-J-J-b5",
        "J J b5",
        {},
        True,
        [
            ("group", ["k5", "r5", "b5"], 15),
            ("run", ["b3", "b4", "b5"], 12),
            ("run", ["b4", "b5", "b6"], 15),
            ("run", ["b5", "b6", "b7"], 18),
        ],
    ),
    ("rules-1-J-J-4", "r1 J J r4", {}, True, [("run", ["r1", "r2", "r3", "r4"], 10)]),
    (
        "jokers-both-ends",
        "j r5 r6 j",
        {},
        True,
        [
            ("run", ["r3", "r4", "r5", "r6"], 18),
            ("run", ["r4", "r5", "r6", "r7"], 22),
            ("run", ["r5", "r6", "r7", "r8"], 26),
        ],
    ),
    ("two-jokers-gap", "b2 J J b5", {}, True, [("run", ["b2", "b3", "b4", "b5"], 14)]),
    ("joker-fills-gap", "b2 J b4", {}, True, [("run", ["b2", "b3", "b4"], 9)]),
    ("run-1-to-13", RUN_1_TO_13, {}, True, [("run", RUN_1_TO_13.split(), 91)]),
    ("14-tiles-too-long", "J " + RUN_1_TO_13, {}, False, "at most 13 tiles; this has 14"),
    (
        "jokers-cannot-pass-13",
        "r5 r6 r7 r8 r9 r10 r11 r12 r13 J J",
        {},
        True,
        [("run", [f"r{n}" for n in range(3, 14)], 88)],
    ),
    ("jokers-only", "j j j", {"tile_sets": 2}, False, "at least one numbered tile"),
    ("two-jokers-too-short", "j j", {}, False, "at least 3 tiles; this has 2"),
    ("two-tiles-too-short", "r5 b5", {}, False, "at least 3 tiles; this has 2"),
    ("one-tile", "r5", {}, False, "at least 3 tiles; this has 1"),
    ("group-of-four", "o5 r5 b5 k5", {}, True, [("group", ["k5", "r5", "b5", "o5"], 20)]),
    ("group-of-four-joker", "r5 b5 k5 J", {}, True, [("group", ["k5", "r5", "b5", "o5"], 20)]),
    ("group-of-three", "k13 r13 o13", {}, True, [("group", ["k13", "r13", "o13"], 39)]),
    ("mixed", "r5 b6 k7", {}, False, "mix colours and numbers"),
    ("run-gap", "r5 r7 r9", {}, False, "do not follow on"),
    ("run-gap-too-wide-for-joker", "o1 o2 o5 J", {}, False, "do not follow on"),
    ("same-tile-twice", "r5 r5 J", {}, False, "red 5 appears twice"),
    ("run-repeated-number", "r5 r6 r6 r7", {}, False, "red 6 appears twice: a run"),
    (
        "one-and-two-jokers",
        "r1 J J",
        {},
        True,
        [("group", ["k1", "r1", "b1"], 3), ("run", ["r1", "r2", "r3"], 6)],
    ),
    (
        "one-and-two-jokers-wrap",
        "r1 J J",
        {"run_wrap": True},
        True,
        [
            ("group", ["k1", "r1", "b1"], 3),
            ("run", ["r1", "r2", "r3"], 6),
            ("run", ["r12", "r13", "r1"], 26),
        ],
    ),
    (
        "four-wrap",
        "r11 r12 r13 r1",
        {"run_wrap": True},
        True,
        [("run", ["r11", "r12", "r13", "r1"], 37)],
    ),
    ("four-no-wrap", "r11 r12 r13 r1", {}, False, "run wrap"),
    ("joker-13-1-wrap", "J r13 r1", {"run_wrap": True}, True, [("run", ["r12", "r13", "r1"], 26)]),
    ("joker-13-1-no-wrap", "J r13 r1", {}, False, "run wrap"),
    ("low-run-with-wrap", "r1 r2 r3", {"run_wrap": True}, True, [("run", ["r1", "r2", "r3"], 6)]),
    (
        "J-1-2",
        "J r1 r2",
        {},
        True,
        [("run", ["r1", "r2", "r3"], 6)],
    ),
    (
        "J-2-3",
        "J r2 r3",
        {},
        True,
        [("run", ["r1", "r2", "r3"], 6), ("run", ["r2", "r3", "r4"], 9)],
    ),
    ("five-run", "k1 k2 k3 k4 k5", {}, True, [("run", ["k1", "k2", "k3", "k4", "k5"], 15)]),
    (
        "meld-o9-J-J",
        "o9 J J",
        {},
        True,
        [
            ("group", ["k9", "r9", "o9"], 27),
            ("run", ["o7", "o8", "o9"], 24),
            ("run", ["o8", "o9", "o10"], 27),
            ("run", ["o9", "o10", "o11"], 30),
        ],
    ),
    ("meld-r10-b10-J", "r10 b10 J", {}, True, [("group", ["k10", "r10", "b10"], 30)]),
    (
        "meld-J-10-11",
        "J r10 r11",
        {},
        True,
        [("run", ["r9", "r10", "r11"], 30), ("run", ["r10", "r11", "r12"], 33)],
    ),
    (
        "cards-group",
        "h5 s5 J",
        {"played_with": "cards"},
        True,
        [("group", ["s5", "h5", "c5"], 15)],
    ),
    (
        "cards-run-wrap",
        "hQ hK hA",
        {"played_with": "cards", "run_wrap": True},
        True,
        [("run", ["hQ", "hK", "hA"], 26)],
    ),
    ("cards-repeated-suit", "h5 s5 d5 h5", {"played_with": "cards"}, False, "hearts 5 appears"),
]


def _key(readings: Readings) -> list[tuple[str, list[str], int]]:
    return sorted(readings, key=lambda r: (r[0], r[2], r[1]))


@pytest.mark.parametrize(
    ("text", "overrides", "valid", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in SET_CASES],
)
def test_set_table(
    text: str, overrides: dict[str, Any], valid: bool, expected: Readings | str
) -> None:
    settings = Settings(**overrides)
    check = check_set(parse_tiles(text, settings.played_with), settings)
    assert check.valid is valid
    if valid:
        assert check.reason is None
        got = [(r.kind, r.notation(settings.played_with), r.points) for r in check.readings]
        assert _key(got) == _key(expected)  # type: ignore[arg-type]
        assert check.points == max(points for _, _, points in expected)  # type: ignore[misc]
    else:
        assert isinstance(expected, str)
        assert check.readings == ()
        assert check.best is None
        assert check.points == 0
        assert check.reason is not None
        assert check.reason.code == "bad_set"
        assert expected in check.reason.message


def test_table_is_large_enough() -> None:
    assert len(SET_CASES) >= 30


def test_full_run_with_wrap_is_valid_at_91() -> None:
    check = check_set(parse_tiles(RUN_1_TO_13), Settings(run_wrap=True))
    assert check.valid
    assert {r.points for r in check.readings} == {91}


def test_best_reading_is_the_highest() -> None:
    check = check_set(parse_tiles("J J b5"))
    assert check.best is not None
    assert check.best.points == 18
    assert check.best.notation() == ["b5", "b6", "b7"]


def test_reading_stands_in_for_joker_with_real_tile() -> None:
    check = check_set(parse_tiles("r1 J J r4"))
    assert check.tiles == tuple(parse_tiles("r1 r4 j j"))
    assert check.readings[0].tiles == tuple(parse_tiles("r1 r2 r3 r4"))


def test_set_over_supply_raises() -> None:
    with pytest.raises(RulesError) as err:
        check_set(parse_tiles("j j j"))
    assert err.value.code == "tile_supply"
    with pytest.raises(RulesError) as err:
        check_set(parse_tiles("r7 r7 r7"))
    assert err.value.code == "tile_supply"
    assert "red 7 entered 3 times" in err.value.message


@pytest.mark.parametrize(
    ("text", "overrides"),
    [
        ("J J b5", {}),
        ("r1 J J r4", {}),
        ("j r5 r6 j", {}),
        ("r12 r13 r1", {"run_wrap": True}),
        ("r12 r13 r1", {}),
        ("r13 r1 r2", {"run_wrap": True}),
        ("r1 J J", {"run_wrap": True}),
        ("r5 b5 k5 J", {}),
        ("r5 b5 k5 r5", {}),
        ("r5 b6 k7 J", {}),
    ],
)
def test_order_never_matters(text: str, overrides: dict[str, Any]) -> None:
    settings = Settings(**overrides)
    tiles = parse_tiles(text)
    first = check_set(tiles, settings)
    for order in itertools.permutations(tiles):
        again = check_set(list(order), settings)
        assert again.readings == first.readings
        assert again.reason == first.reason
        assert again.tiles == first.tiles


# --- the initial meld ------------------------------------------------------------------


def _meld(*sets: str, **overrides: Any) -> MeldCheck:
    return check_meld([parse_tiles(s) for s in sets], Settings(**overrides))


def test_meld_group_with_joker_is_30() -> None:
    meld = _meld("r10 b10 J")
    assert meld.valid
    assert meld.points == 30
    assert meld.minimum == 30
    assert meld.reason is None


def test_meld_joker_run_uses_highest_reading() -> None:
    # The shared text counts J r10 r11 as 30; the checker uses the highest, 33 (docs/RULES.md §8).
    meld = _meld("J r10 r11")
    assert meld.valid
    assert meld.points == 33
    best = meld.sets[0].best
    assert best is not None
    assert best.notation() == ["r10", "r11", "r12"]


def test_meld_o9_J_J_counts_as_run_9_10_11() -> None:
    meld = _meld("o9 J J")
    assert meld.valid
    assert meld.points == 30
    best = meld.sets[0].best
    assert best is not None
    assert (best.kind, best.notation()) == ("run", ["o9", "o10", "o11"])


def test_meld_two_sets_together() -> None:
    meld = _meld("r10 b10 J", "J r1 r2")
    assert meld.valid
    assert meld.points == 30 + 6
    assert [s.points for s in meld.sets] == [30, 6]


def test_meld_of_29_refused() -> None:
    meld = _meld("r2 r3 r4", "k5 b5 o5 r5")
    assert not meld.valid
    assert meld.points == 29
    assert meld.reason is not None
    assert meld.reason.code == "bad_meld"
    assert "29" in meld.reason.message
    assert "30" in meld.reason.message


def test_meld_custom_minimum() -> None:
    assert _meld("r9 b9 k9", min_initial_meld=25).valid
    assert not _meld("r9 b9 k9").valid
    high = _meld("r10 b10 J", min_initial_meld=31)
    assert not high.valid
    assert high.reason is not None
    assert "31" in high.reason.message
    assert _meld("r1 r2 r3", min_initial_meld=0).valid


def test_meld_with_invalid_set_names_it() -> None:
    meld = _meld("r10 b10 J", "r1 r2", "k13 o13 b13")
    assert not meld.valid
    assert meld.reason is not None
    assert meld.reason.code == "bad_meld"
    assert "Set 2" in meld.reason.message
    assert "at least 3 tiles" in meld.reason.message


def test_meld_needs_a_set() -> None:
    meld = check_meld([])
    assert not meld.valid
    assert meld.reason is not None
    assert meld.reason.code == "bad_meld"


def test_meld_supply_across_sets() -> None:
    with pytest.raises(RulesError) as err:
        _meld("r5 b5 k5", "r5 r6 r7", "r5 o5 b5")
    assert err.value.code == "tile_supply"
    assert "red 5 entered 3 times" in err.value.message
    with pytest.raises(RulesError) as err:
        _meld("r10 b10 J", "J r1 r2", "k7 k8 J")
    assert err.value.code == "tile_supply"
