"""Players: names and how many may sit at one table (docs/RULES.md section 1)."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    RulesError,
    Settings,
    check_player_count,
    check_players,
    clean_name,
    find_player,
)

TWO_SETS = Settings(tile_sets=2)


def test_clean_name_trims_and_folds_spaces() -> None:
    assert clean_name("  Ann  ") == "Ann"
    assert clean_name("Ann    Marie") == "Ann Marie"
    assert clean_name(" Ann \t Marie\n") == "Ann Marie"
    assert clean_name("Å") == "Å"


def test_clean_name_length() -> None:
    assert clean_name("x") == "x"
    assert clean_name("x" * 40) == "x" * 40
    with pytest.raises(RulesError) as err:
        clean_name("x" * 41, "players.0")
    assert (err.value.code, err.value.problems[0].field) == ("bad_name", "players.0")
    # folding happens before the length check
    assert clean_name("  " + "a " * 20) == ("a " * 20).strip()


@pytest.mark.parametrize("name", ["", "   ", None, 7, ["Ann"]])
def test_clean_name_refuses(name: object) -> None:
    with pytest.raises(RulesError) as err:
        clean_name(name)
    assert err.value.code == "bad_name"


def test_clean_name_refuses_unprintable() -> None:
    with pytest.raises(RulesError) as err:
        clean_name("Ann\x00")
    assert err.value.code == "bad_name"


def test_check_players_cleans() -> None:
    assert check_players([" Ann ", "Bo  Bo"]) == ["Ann", "Bo Bo"]


def test_duplicates_case_insensitive() -> None:
    with pytest.raises(RulesError) as err:
        check_players(["Ann", "Bo", " ANN "])
    assert [(p.code, p.field) for p in err.value.problems] == [("duplicate_player", "players.2")]
    assert "ANN" in err.value.message


def test_several_name_problems_at_once() -> None:
    with pytest.raises(RulesError) as err:
        check_players(["Ann", "", "ann", "Bo"])
    assert [(p.code, p.field) for p in err.value.problems] == [
        ("bad_name", "players.1"),
        ("duplicate_player", "players.2"),
    ]


def test_one_player_too_few() -> None:
    with pytest.raises(RulesError) as err:
        check_players(["Ann"])
    assert (err.value.code, err.value.problems[0].field) == ("too_few_players", "players")
    with pytest.raises(RulesError) as err:
        check_players([])
    assert err.value.code == "too_few_players"


def test_two_to_four_with_one_set() -> None:
    assert check_players(["A", "B"]) == ["A", "B"]
    assert check_players(["A", "B", "C", "D"]) == ["A", "B", "C", "D"]


@pytest.mark.parametrize("count", [5, 6])
def test_five_or_six_with_one_set_suggest_two_sets(count: int) -> None:
    names = [f"P{i}" for i in range(count)]
    with pytest.raises(RulesError) as err:
        check_players(names)
    assert (err.value.code, err.value.problems[0].field) == ("too_many_players", "players")
    assert "two tile sets" in err.value.message
    assert "Number of tile sets" in err.value.message
    assert str(count) in err.value.message


@pytest.mark.parametrize("count", [2, 4, 5, 6])
def test_up_to_six_with_two_sets(count: int) -> None:
    names = [f"P{i}" for i in range(count)]
    assert check_players(names, TWO_SETS) == names


@pytest.mark.parametrize("settings", [Settings(), TWO_SETS])
def test_seven_refused(settings: Settings) -> None:
    with pytest.raises(RulesError) as err:
        check_players([f"P{i}" for i in range(7)], settings)
    assert err.value.code == "too_many_players"
    assert "6" in err.value.message


def test_check_player_count_directly() -> None:
    check_player_count(4, 1)
    check_player_count(6, 2)
    for count, sets in [(1, 1), (0, 2), (5, 1), (7, 2)]:
        with pytest.raises(RulesError):
            check_player_count(count, sets)


def test_find_player() -> None:
    players = ["Ann", "Bo Bo"]
    assert find_player("ann", players) == "Ann"
    assert find_player("  BO   bo ", players) == "Bo Bo"
    assert find_player("Cy", players) is None
    assert find_player(None, players) is None
    assert find_player(3, players) is None


# Issue 23, finding 13: a name must show something. Hangul fillers and the default-ignorable
# code points draw nothing; forty combining marks stacked on one letter draw a smear.
INVISIBLE = {
    "hangul-filler": "\u3164",
    "hangul-choseong-filler": "\u115f",
    "hangul-jungseong-filler": "\u1160",
    "halfwidth-hangul-filler": "\uffa0",
    "fillers-and-spaces": "\u3164 \u3164",
    "zero-width-space": "\u200b",
    "left-to-right-mark": "\u200e",
    "word-joiner": "\u2060",
    "invisible-plus": "\u2064",
    "byte-order-mark": "\ufeff",
    "soft-hyphen": "\u00ad",
    "variation-selector": "\ufe0f",
    "variation-selector-256": "\U000e01ef",
    "combining-grapheme-joiner": "\u034f",
    "a-lone-accent": "\u0301",
    "forty-marks-alone": "\u0301" * 40,
}


@pytest.mark.parametrize("name", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_a_name_of_nothing_visible_is_refused(name: str) -> None:
    with pytest.raises(RulesError) as err:
        clean_name(name, "players.0")
    assert (err.value.code, err.value.problems[0].field) == ("bad_name", "players.0")


@pytest.mark.parametrize(
    "name",
    ["Bo\u3164", "\u3164Bo", "B\u00ado", "Bo\u2060", "Bo\u034f"],
    ids=["filler-after", "filler-before", "soft-hyphen-inside", "word-joiner", "cgj"],
)
def test_an_invisible_character_inside_a_name_is_refused(name: str) -> None:
    """Bo with a filler looks like Bo and would be another player."""
    with pytest.raises(RulesError) as err:
        clean_name(name)
    assert err.value.code == "bad_name"


def test_a_run_of_combining_marks_is_refused() -> None:
    for name in ("Z" + "\u0301" * 40, "Ann" + "\u0308\u0301\u0300\u0302\u0303"):
        with pytest.raises(RulesError) as err:
            clean_name(name)
        assert err.value.code == "bad_name"
        assert "accent" in err.value.problems[0].message


@pytest.mark.parametrize(
    "name",
    [
        "Zoë",
        "Ngô Bảo Châu",  # Vietnamese: two marks on one letter
        "Nguyê\u0323\u0302n",  # and typed decomposed, with a mark NFC cannot fold in
        "क्षितिज",  # Devanagari: a virama and vowel signs are marks
        "สมชาย",  # Thai
        "❤️ Gran",  # an emoji with its variation selector
        "Ann\u0308\u0301\u0300\u0302",  # four marks on one letter: still allowed
    ],
)
def test_names_with_a_few_marks_are_kept(name: str) -> None:
    assert clean_name(name)
