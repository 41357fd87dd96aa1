"""Taking a joker from the table (docs/RULES.md §4): which tile may replace it, and when not."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.rules import RulesError, Settings, check_set, parse_tile, parse_tiles
from scorekeeper.rules.sets import (
    FREED_JOKER_REMINDER,
    SwapCheck,
    check_joker_swap,
    joker_stand_ins,
)


def swap(table_set: str, tile: str, **rules: Any) -> SwapCheck:
    settings = Settings(**rules)
    return check_joker_swap(
        parse_tiles(table_set, settings.played_with),
        parse_tile(tile, settings.played_with),
        settings,
    )


def codes(check: SwapCheck) -> list[str]:
    return [t.code() for t in check.stands_for]


def test_french_sheet_blue_5_replaces_the_joker_of_blue_3_blue_4() -> None:
    check = swap("b3 b4 j", "b5")
    assert check.allowed
    assert check.reason is None
    assert check.reminder == FREED_JOKER_REMINDER
    assert check.reminder == "Play the freed joker this turn: it may never end on a rack."
    # The set is a multiset: the joker may as well be the blue 2 before the 3.
    assert codes(check) == ["b2", "b5"]
    assert swap("j b4 b3", "b2").allowed


@pytest.mark.parametrize("tile", ["k5", "o5"])
def test_three_tile_group_either_missing_colour(tile: str) -> None:
    check = swap("r5 b5 j", tile)
    assert check.allowed
    assert codes(check) == ["k5", "o5"]


@pytest.mark.parametrize("tile", ["r5", "b5", "k6", "o4"])
def test_three_tile_group_refuses_anything_else(tile: str) -> None:
    check = swap("r5 b5 j", tile)
    assert not check.allowed
    assert check.reminder is None
    assert check.reason is not None
    assert check.reason.code == "bad_swap"
    assert check.reason.message == (
        f"The joker here stands for black 5 or orange 5; {parse_tile(tile).name()} "
        "cannot replace it."
    )


def test_four_tile_group_only_the_one_missing_colour() -> None:
    assert swap("r5 b5 k5 j", "o5").allowed
    refused = swap("r5 b5 k5 j", "k5")
    assert not refused.allowed
    assert codes(refused) == ["o5"]
    assert refused.reason is not None
    assert refused.reason.message == (
        "The joker here stands for orange 5; black 5 cannot replace it."
    )


def test_run_the_exact_tile_and_the_wrong_number_refused() -> None:
    refused = swap("j r12 r13", "r10")
    assert not refused.allowed
    assert codes(refused) == ["r11"]
    assert refused.reason is not None
    assert refused.reason.message == "The joker here stands for red 11; red 10 cannot replace it."
    wrong_colour = swap("j r12 r13", "b11")
    assert not wrong_colour.allowed
    assert swap("j r12 r13", "r11").allowed


def test_run_in_the_middle() -> None:
    assert codes(swap("o7 j o9", "o8")) == ["o8"]
    assert swap("o7 j o9", "o8").allowed
    assert not swap("o7 j o9", "o10").allowed


def test_run_wrap_lets_a_1_replace_the_joker_after_13() -> None:
    assert not swap("r12 r13 j", "r1").allowed
    assert codes(swap("r12 r13 j", "r1")) == ["r11"]
    wrapped = swap("r12 r13 j", "r1", run_wrap=True)
    assert wrapped.allowed
    assert codes(wrapped) == ["r1", "r11"]


def test_setting_off_refuses_even_the_right_tile() -> None:
    check = swap("b3 b4 j", "b5", jokers_retrievable=False)
    assert not check.allowed
    assert check.reminder is None
    assert check.reason is not None
    assert check.reason.message == "Jokers may not be retrieved from the table in this session."
    assert codes(check) == ["b2", "b5"]  # still says what the joker stands for


def test_a_set_without_a_joker_is_refused() -> None:
    check = swap("b3 b4 b5", "b5")
    assert not check.allowed
    assert check.stands_for == ()
    assert check.reason is not None
    assert check.reason.message == "There is no joker in this set to take."


def test_an_invalid_set_is_refused_with_its_reason() -> None:
    check = swap("b3 b6 j", "b4")
    assert not check.allowed
    assert check.stands_for == ()
    assert check.reason is not None
    assert check.reason.message.startswith("This set is not valid, so no joker can be taken")
    assert "do not follow on" in check.reason.message


def test_a_joker_cannot_replace_a_joker() -> None:
    check = swap("b3 b4 j", "j")
    assert not check.allowed
    assert check.reason is not None
    assert "A joker cannot replace a joker" in check.reason.message


@pytest.mark.parametrize("tile", ["r2", "r3"])
def test_two_jokers_either_ones_tile(tile: str) -> None:
    check = swap("r1 j j r4", tile)
    assert check.allowed
    assert codes(check) == ["r2", "r3"]


def test_two_jokers_refused_names_both() -> None:
    check = swap("r1 j j r4", "r5")
    assert not check.allowed
    assert check.reason is not None
    assert check.reason.message == (
        "The jokers here stand for red 2 or red 3; red 5 cannot replace either."
    )


def test_two_jokers_with_one_tile_every_reading_counts() -> None:
    # J J b5: the group (any missing colour) and the runs 3-4-5, 4-5-6, 5-6-7.
    assert codes(swap("j j b5", "o5")) == ["k5", "r5", "b3", "b4", "b6", "b7", "o5"]
    assert swap("j j b5", "o5").allowed
    assert swap("j j b5", "b7").allowed
    assert not swap("j j b5", "b8").allowed
    # A 3-tile group of one tile and two jokers: the jokers may be any two missing colours.
    assert swap("j j r9", "o9").allowed


def test_after_the_swap_the_set_stays_valid() -> None:
    for table_set in ("b3 b4 j", "r5 b5 j", "r1 j j r4", "j j b5", "k1 j k3 k4 k5"):
        tiles = parse_tiles(table_set)
        for stand_in in joker_stand_ins(tiles):
            rest = list(tiles)
            rest.remove(parse_tile("j"))
            assert check_set([*rest, stand_in]).valid, (table_set, stand_in)


def test_cards_speak_cards() -> None:
    check = swap("hq hk j", "s3", played_with="cards")
    assert not check.allowed
    assert check.reason is not None
    assert check.reason.message == "The joker here stands for hearts J; spades 3 cannot replace it."
    assert swap("♥Q ♥K joker", "hj", played_with="cards").allowed


def test_more_copies_than_exist_is_a_supply_error() -> None:
    with pytest.raises(RulesError) as raised:
        swap("r7 r7 r7 j", "r7")
    assert raised.value.code == "tile_supply"
