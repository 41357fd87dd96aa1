"""The evening's table: docs/RULES.md section 7 (totals, drop worst round, completion, winners)."""

from __future__ import annotations

from scorekeeper.rules import standings
from scorekeeper.rules.standings import Lead

PLAYERS = ["Ann", "Bo", "Cy"]
ROUNDS = [
    {"Ann": 30, "Bo": -10, "Cy": -20},
    {"Ann": -40, "Bo": 55, "Cy": -15},
    {"Ann": -5, "Bo": -8, "Cy": 13},
]


def test_totals_and_running_totals() -> None:
    table = standings(PLAYERS, ROUNDS, 3)
    assert table.totals == {"Ann": -15, "Bo": 37, "Cy": -22}
    assert table.running == (
        {"Ann": 30, "Bo": -10, "Cy": -20},
        {"Ann": -10, "Bo": 45, "Cy": -35},
        {"Ann": -15, "Bo": 37, "Cy": -22},
    )
    assert table.rounds_played == 3
    assert table.rounds_planned == 3
    assert table.players == ("Ann", "Bo", "Cy")


def test_totals_may_go_negative() -> None:
    table = standings(["A", "B"], [{"A": -50, "B": 50}, {"A": -20, "B": 20}], 3)
    assert table.totals == {"A": -70, "B": 70}


def test_no_rounds() -> None:
    table = standings(PLAYERS, [], 3)
    assert table.totals == {"Ann": 0, "Bo": 0, "Cy": 0}
    assert table.running == ()
    assert table.rounds_played == 0
    assert not table.complete
    assert table.leaders == ()
    assert table.winners == ()


def test_missing_score_counts_as_zero() -> None:
    table = standings(["A", "B"], [{"A": 5}], 3)
    assert table.totals == {"A": 5, "B": 0}


def test_no_drop_without_the_setting() -> None:
    table = standings(PLAYERS, ROUNDS, 3)
    assert table.dropped == {"Ann": None, "Bo": None, "Cy": None}
    assert table.dropped_scores == {"Ann": None, "Bo": None, "Cy": None}


def test_drop_worst_needs_two_rounds() -> None:
    table = standings(PLAYERS, ROUNDS[:1], 3, drop_worst_round=True)
    assert table.totals == {"Ann": 30, "Bo": -10, "Cy": -20}
    assert table.dropped == {"Ann": None, "Bo": None, "Cy": None}


def test_drop_worst_from_two_rounds() -> None:
    table = standings(PLAYERS, ROUNDS[:2], 3, drop_worst_round=True)
    assert table.dropped == {"Ann": 2, "Bo": 1, "Cy": 1}
    assert table.dropped_scores == {"Ann": -40, "Bo": -10, "Cy": -20}
    assert table.totals == {"Ann": 30, "Bo": 55, "Cy": -15}


def test_drop_worst_removes_each_players_lowest_round() -> None:
    table = standings(PLAYERS, ROUNDS, 3, drop_worst_round=True)
    assert table.dropped == {"Ann": 2, "Bo": 1, "Cy": 1}
    assert table.dropped_scores == {"Ann": -40, "Bo": -10, "Cy": -20}
    assert table.totals == {"Ann": 25, "Bo": 47, "Cy": -2}
    # running totals stay the raw round-by-round sums
    assert table.running[-1] == {"Ann": -15, "Bo": 37, "Cy": -22}


def test_drop_worst_earliest_on_ties() -> None:
    rounds = [{"A": 5, "B": -5}, {"A": -7, "B": 7}, {"A": -7, "B": 7}, {"A": 9, "B": -9}]
    table = standings(["A", "B"], rounds, 4, drop_worst_round=True)
    assert table.dropped == {"A": 2, "B": 4}
    assert table.dropped_scores == {"A": -7, "B": -9}
    assert table.totals == {"A": 0 - (-7), "B": 0 - (-9)}


def test_drop_worst_example() -> None:
    # docs/RULES.md 7: A +5, -3, -3 and B -5, +3, +3.
    rounds = [{"A": 5, "B": -5}, {"A": -3, "B": 3}, {"A": -3, "B": 3}]
    table = standings(["A", "B"], rounds, 3, drop_worst_round=True)
    assert table.dropped == {"A": 2, "B": 1}
    assert table.totals == {"A": 2, "B": 6}


def test_drop_worst_removes_exactly_one_round() -> None:
    rounds = [{"A": 10, "B": -10}, {"A": 10, "B": -10}, {"A": 10, "B": -10}]
    table = standings(["A", "B"], rounds, 3, drop_worst_round=True)
    assert table.totals == {"A": 20, "B": -20}
    assert table.dropped == {"A": 1, "B": 1}


def test_complete_after_agreed_rounds() -> None:
    assert not standings(PLAYERS, ROUNDS[:2], 3).complete
    assert standings(PLAYERS, ROUNDS, 3).complete
    assert standings(PLAYERS, ROUNDS, 2).complete  # extended past the agreed rounds
    assert not standings(PLAYERS, ROUNDS, 4).complete


def test_winner_after_completion() -> None:
    table = standings(PLAYERS, ROUNDS, 3)
    assert table.leaders == ("Bo",)
    assert table.winners == ("Bo",)


def test_leaders_before_completion_but_no_winners() -> None:
    table = standings(PLAYERS, ROUNDS[:1], 3)
    assert table.leaders == ("Ann",)
    assert table.winners == ()


def test_equal_highest_totals_share_the_win() -> None:
    rounds = [{"A": 10, "B": -20, "C": 10}, {"A": -5, "B": 10, "C": -5}]
    table = standings(["A", "B", "C"], rounds, 2)
    assert table.totals == {"A": 5, "B": -10, "C": 5}
    assert table.winners == ("A", "C")
    assert table.leaders == ("A", "C")


def test_winners_use_drop_worst_totals() -> None:
    rounds = [{"A": 20, "B": -20}, {"A": -30, "B": 30}, {"A": 40, "B": -40}]
    raw = standings(["A", "B"], rounds, 3)
    dropped = standings(["A", "B"], rounds, 3, drop_worst_round=True)
    assert raw.totals == {"A": 30, "B": -30}
    assert dropped.totals == {"A": 60, "B": 10}
    assert raw.winners == ("A",)
    assert dropped.winners == ("A",)
    swing = [{"A": 20, "B": -20}, {"A": -100, "B": 100}, {"A": 10, "B": -10}]
    assert standings(["A", "B"], swing, 3).winners == ("B",)
    assert standings(["A", "B"], swing, 3, drop_worst_round=True).totals == {"A": 30, "B": 90}


def test_places_shared_by_players_level() -> None:
    table = standings(["Ann", "Bo", "Cy", "Di"], [{"Ann": 20, "Bo": 20, "Cy": -5, "Di": -35}], 3)
    assert table.places == {"Ann": 1, "Bo": 1, "Cy": 3, "Di": 4}
    assert table.lead == Lead(ahead=("Ann", "Bo"), behind=(), by=0)


def test_the_lead_over_everyone_in_the_next_place() -> None:
    table = standings(
        PLAYERS, [{"Ann": 30, "Bo": -10, "Cy": -10}, {"Ann": -9, "Bo": 0, "Cy": 0}], 3
    )
    assert table.places == {"Ann": 1, "Bo": 2, "Cy": 2}
    assert table.lead == Lead(ahead=("Ann",), behind=("Bo", "Cy"), by=31)


def test_the_lead_counts_the_totals_after_the_dropped_rounds() -> None:
    table = standings(PLAYERS, ROUNDS, 3, drop_worst_round=True)
    # Totals less each worst round: Ann -15+40, Bo 37+10, Cy -22+20.
    assert table.places == {"Bo": 1, "Ann": 2, "Cy": 3}
    assert table.lead == Lead(ahead=("Bo",), behind=("Ann",), by=22)


def test_no_places_before_a_round() -> None:
    table = standings(PLAYERS, [], 3)
    assert table.places == {}
    assert table.lead is None


def test_counted_running_totals_leave_out_the_dropped_round_and_end_at_the_totals() -> None:
    table = standings(PLAYERS, ROUNDS, 3, drop_worst_round=True)
    # Ann's round 2 (-40), Bo's and Cy's round 1 are dropped: their lines stay level there
    assert table.counted == (
        {"Ann": 30, "Bo": 0, "Cy": 0},
        {"Ann": 30, "Bo": 55, "Cy": -15},
        {"Ann": 25, "Bo": 47, "Cy": -2},
    )
    assert table.counted[-1] == table.totals


def test_counted_is_running_without_drop_worst() -> None:
    table = standings(PLAYERS, ROUNDS, 3)
    assert table.counted == table.running
    assert standings(PLAYERS, ROUNDS[:1], 3, drop_worst_round=True).counted == ({**ROUNDS[0]},)
