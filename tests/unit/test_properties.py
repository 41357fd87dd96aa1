"""Invariants of the rules engine, checked on generated rounds, tables and sets (hypothesis)."""

from __future__ import annotations

import math
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    JOKER,
    Colour,
    Rack,
    RoundEntry,
    RulesError,
    Settings,
    Tile,
    check_set,
    score_round,
    standings,
)

EXAMPLES = settings(max_examples=200, deadline=None)


def _table(n: int) -> tuple[list[str], Settings]:
    """n players, and the tile sets that n players need."""
    return [f"P{i}" for i in range(n)], Settings(tile_sets=1 if n <= 4 else 2)


@st.composite
def went_out_rounds(draw: st.DrawFn) -> tuple[list[str], Settings, str, dict[str, int]]:
    players, rules = _table(draw(st.integers(2, 6)))
    winner = draw(st.sampled_from(players))
    values = {p: draw(st.integers(1, 150)) for p in players if p != winner}
    return players, rules, winner, values


@EXAMPLES
@given(went_out_rounds())
def test_went_out_sums_to_zero(round_: tuple[list[str], Settings, str, dict[str, int]]) -> None:
    players, rules, winner, values = round_
    entry = RoundEntry("went_out", winner, {p: Rack(v) for p, v in values.items()})
    result = score_round(players, entry, rules)
    assert sum(result.scores.values()) == 0
    assert result.winner == winner
    assert result.scores[winner] == sum(values.values())
    assert result.scores[winner] == -sum(s for p, s in result.scores.items() if p != winner)
    assert all(result.scores[p] == -v for p, v in values.items())
    assert result.flags == ()


@EXAMPLES
@given(went_out_rounds(), st.integers(1, 1000))
def test_went_out_with_bonus(
    round_: tuple[list[str], Settings, str, dict[str, int]], bonus: int
) -> None:
    players, rules, winner, values = round_
    rules = Settings(tile_sets=rules.tile_sets, winner_bonus=bonus)
    entry = RoundEntry("went_out", winner, {p: Rack(v) for p, v in values.items()})
    result = score_round(players, entry, rules)
    assert result.scores[winner] == bonus
    assert all(result.scores[p] == -v for p, v in values.items())


@st.composite
def pool_empty_rounds(
    draw: st.DrawFn,
) -> tuple[list[str], Settings, dict[str, int], dict[str, int]]:
    players, rules = _table(draw(st.integers(2, 6)))
    values = {p: draw(st.integers(1, 150)) for p in players}
    # a count that the rules accept for the value: numbered tiles alone, each worth 1 to 13
    counts = {p: draw(st.integers(math.ceil(v / 13), min(v, 40))) for p, v in values.items()}
    return players, rules, values, counts


def _expected_winners(
    players: list[str], first: dict[str, int], second: dict[str, int]
) -> list[str]:
    low = min(first.values())
    tied = [p for p in players if first[p] == low]
    low2 = min(second[p] for p in tied)
    return [p for p in tied if second[p] == low2]


@EXAMPLES
@given(pool_empty_rounds())
def test_pool_empty_difference_sums_to_zero(
    round_: tuple[list[str], Settings, dict[str, int], dict[str, int]],
) -> None:
    players, rules, values, counts = round_
    candidates = _expected_winners(players, values, counts)
    named = candidates[-1] if len(candidates) > 1 else None
    entry = RoundEntry("pool_empty", named, {p: Rack(v) for p, v in values.items()}, counts)
    result = score_round(players, entry, rules)
    winner = named or candidates[0]
    assert result.winner == winner
    assert sum(result.scores.values()) == 0
    for p in players:
        if p != winner:
            assert result.scores[p] == -(values[p] - values[winner])
            assert result.scores[p] <= 0


@EXAMPLES
@given(pool_empty_rounds())
def test_pool_empty_tie_without_counts_or_name_is_refused(
    round_: tuple[list[str], Settings, dict[str, int], dict[str, int]],
) -> None:
    players, rules, values, _ = round_
    entry = RoundEntry("pool_empty", None, {p: Rack(v) for p, v in values.items()})
    low = min(values.values())
    tied = [p for p in players if values[p] == low]
    try:
        result = score_round(players, entry, rules)
    except RulesError as err:
        assert len(tied) > 1
        assert err.code == "tie"
        assert all(p in err.message for p in tied)
    else:
        assert tied == [result.winner]


@EXAMPLES
@given(pool_empty_rounds())
def test_pool_empty_fewest_tiles_sums_to_zero(
    round_: tuple[list[str], Settings, dict[str, int], dict[str, int]],
) -> None:
    players, rules, values, counts = round_
    rules = Settings(tile_sets=rules.tile_sets, empty_pool="fewest_tiles")
    candidates = _expected_winners(players, counts, values)
    named = candidates[0] if len(candidates) > 1 else None
    entry = RoundEntry("pool_empty", named, {p: Rack(v) for p, v in values.items()}, counts)
    result = score_round(players, entry, rules)
    winner = candidates[0]
    assert result.winner == winner
    assert sum(result.scores.values()) == 0
    assert all(result.scores[p] == -values[p] for p in players if p != winner)
    assert result.scores[winner] == sum(v for p, v in values.items() if p != winner)


@EXAMPLES
@given(pool_empty_rounds(), st.data())
def test_scoring_never_depends_on_dict_order(
    round_: tuple[list[str], Settings, dict[str, int], dict[str, int]], data: st.DataObject
) -> None:
    players, rules, values, counts = round_
    candidates = _expected_winners(players, values, counts)
    named = candidates[0] if len(candidates) > 1 else None
    order_a = data.draw(st.permutations(players))
    order_b = data.draw(st.permutations(players))
    results = []
    for order, count_order in [(order_a, order_b), (order_b, order_a)]:
        entry = RoundEntry(
            "pool_empty",
            named,
            {p: Rack(values[p]) for p in order},
            {p: counts[p] for p in count_order},
        )
        results.append(score_round(players, entry, rules))
    assert results[0] == results[1]
    assert list(results[0].scores) == players
    # a went-out round too: racks entered in any order
    winner = players[0]
    went_out = [
        score_round(
            players,
            RoundEntry("went_out", winner, {p: Rack(values[p]) for p in order if p != winner}),
            rules,
        )
        for order in (order_a, order_b)
    ]
    assert went_out[0] == went_out[1]
    assert list(went_out[0].scores) == players


@EXAMPLES
@given(went_out_rounds(), st.integers(-50, 50).filter(bool))
def test_paper_zero_sum_check(
    round_: tuple[list[str], Settings, str, dict[str, int]], delta: int
) -> None:
    players, rules, winner, values = round_
    scores = {p: -v for p, v in values.items()}
    scores[winner] = sum(values.values())
    result = score_round(players, RoundEntry("scores", scores=scores), rules)
    assert result.scores == {p: scores[p] for p in players}
    assert result.winner == winner
    off = dict(scores)
    off[players[-1]] += delta
    try:
        score_round(players, RoundEntry("scores", scores=off), rules)
    except RulesError as err:
        assert err.code == "zero_sum"
        assert f"{delta:+d}" in err.message
    else:
        raise AssertionError(f"{off} adds up to {delta:+d} and was accepted")


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[str], list[dict[str, int]]]:
    players = [f"P{i}" for i in range(draw(st.integers(2, 6)))]
    rounds = draw(
        st.lists(
            st.fixed_dictionaries({p: st.integers(-200, 200) for p in players}),
            max_size=8,
        )
    )
    return players, rounds


@EXAMPLES
@given(tables(), st.integers(1, 8))
def test_drop_worst_invariants(table: tuple[list[str], list[dict[str, int]]], planned: int) -> None:
    players, rounds = table
    raw = standings(players, rounds, planned)
    dropped = standings(players, rounds, planned, drop_worst_round=True)
    for p in players:
        column = [r[p] for r in rounds]
        assert raw.totals[p] == sum(column)
        assert raw.dropped[p] is None
        if len(rounds) < 2:
            assert dropped.totals[p] == raw.totals[p]
            assert dropped.dropped[p] is None
            assert dropped.dropped_scores[p] is None
            continue
        worst = min(column)
        assert dropped.dropped_scores[p] == worst
        assert dropped.dropped[p] == column.index(worst) + 1  # earliest of equal lows
        assert dropped.totals[p] == raw.totals[p] - worst
        # dropping a negative round raises the total, a positive one lowers it
        if worst < 0:
            assert dropped.totals[p] > raw.totals[p]
        elif worst > 0:
            assert dropped.totals[p] < raw.totals[p]
        else:
            assert dropped.totals[p] == raw.totals[p]
        # the dropped round is the player's lowest: no other round scores less
        assert all(score >= worst for score in column)
    assert dropped.running == raw.running
    # the counted running totals (the chart's lines) end at the totals after the drop
    if rounds:
        assert dropped.counted[-1] == dropped.totals
        assert raw.counted == raw.running


@EXAMPLES
@given(tables(), st.integers(1, 8), st.booleans())
def test_completion_and_winners(
    table: tuple[list[str], list[dict[str, int]]], planned: int, drop: bool
) -> None:
    players, rounds = table
    result = standings(players, rounds, planned, drop)
    assert result.complete == (len(rounds) >= planned)
    if rounds:
        top = max(result.totals.values())
        assert result.leaders == tuple(p for p in players if result.totals[p] == top)
    else:
        assert result.leaders == ()
    assert result.winners == (result.leaders if result.complete else ())
    running_last = result.running[-1] if rounds else dict.fromkeys(players, 0)
    assert running_last == {p: sum(r[p] for r in rounds) for p in players}


# --- sets ------------------------------------------------------------------------------

COLOURS = list(Colour)
NUMBERED = [Tile(n, c) for c in COLOURS for n in range(1, 14)]


@st.composite
def run_like(draw: st.DrawFn) -> list[Tile]:
    colour = draw(st.sampled_from(COLOURS))
    start = draw(st.integers(1, 13))
    length = draw(st.integers(1, 8))
    numbers = [((start - 1 + i) % 13) + 1 for i in range(length)]
    kept = draw(st.lists(st.sampled_from(numbers), max_size=length))
    return [Tile(n, colour) for n in kept] + [JOKER] * draw(st.integers(0, 2))


@st.composite
def group_like(draw: st.DrawFn) -> list[Tile]:
    number = draw(st.integers(1, 13))
    colours = draw(st.lists(st.sampled_from(COLOURS), max_size=5))
    return [Tile(number, c) for c in colours] + [JOKER] * draw(st.integers(0, 2))


ANY_TILES = st.lists(st.sampled_from([*NUMBERED, JOKER]), max_size=6)
SETS = st.one_of(run_like(), group_like(), ANY_TILES).filter(
    lambda tiles: all(k <= 2 for k in Counter(tiles).values())
)


@EXAMPLES
@given(SETS, st.booleans(), st.data())
def test_set_readings_independent_of_order(
    tiles: list[Tile], wrap: bool, data: st.DataObject
) -> None:
    rules = Settings(run_wrap=wrap)
    shuffled = data.draw(st.permutations(tiles))
    first = check_set(tiles, rules)
    again = check_set(shuffled, rules)
    assert again.readings == first.readings
    assert again.reason == first.reason
    assert again.valid == first.valid


@EXAMPLES
@given(SETS, st.booleans())
def test_readings_are_legal_sets(tiles: list[Tile], wrap: bool) -> None:
    check = check_set(tiles, Settings(run_wrap=wrap))
    assert check.valid == (check.reason is None)
    numbered = Counter(t for t in tiles if not t.is_joker)
    for reading in check.readings:
        stood = reading.tiles
        assert len(stood) == len(tiles)
        assert not any(t.is_joker for t in stood)
        assert reading.points == sum(t.number for t in stood)
        # every numbered tile entered is in the reading; jokers stand for the rest
        assert not numbered - Counter(stood)
        if reading.kind == "group":
            assert 3 <= len(stood) <= 4
            assert len({t.number for t in stood}) == 1
            assert len({t.colour for t in stood}) == len(stood)
        else:
            assert reading.kind == "run"
            assert 3 <= len(stood) <= 13
            assert len({t.colour for t in stood}) == 1
            numbers = [t.number for t in stood]
            if wrap and numbers[-1] == 1 and len(numbers) > 1 and numbers[0] != 1:
                numbers[-1] = 14  # a high 1 after 13
            assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
            assert numbers[0] >= 1 and numbers[-1] <= (14 if wrap else 13)
    if check.valid:
        assert check.points == max(r.points for r in check.readings)
