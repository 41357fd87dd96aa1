"""Tile notation (tiles and cards), rack values and the supply check: docs/RULES.md §1 and §6."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    JOKER,
    Colour,
    RulesError,
    Settings,
    Tile,
    check_supply,
    format_tiles,
    parse_tile,
    parse_tiles,
    rack_value,
)
from scorekeeper.rules.tiles import (
    CARD_NAMES,
    JOKER_WORDS,
    TILE_NAMES,
    most_valuable_rack,
    sort_tiles,
)

K, R, B, OR = Colour.BLACK, Colour.RED, Colour.BLUE, Colour.ORANGE
PENALTY = Settings().joker_penalty


# --- parsing: tile notation -------------------------------------------------------------


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("r7", Tile(7, R)),
        ("k13", Tile(13, K)),
        ("o1", Tile(1, OR)),
        ("b10", Tile(10, B)),
        ("R7", Tile(7, R)),
        ("K13", Tile(13, K)),
        ("red 7", Tile(7, R)),
        ("Red 7", Tile(7, R)),
        ("RED7", Tile(7, R)),
        ("black13", Tile(13, K)),
        ("blue 1", Tile(1, B)),
        ("orange12", Tile(12, OR)),
        ("r 7", Tile(7, R)),
        (" o 11 ", Tile(11, OR)),
        ("j", JOKER),
        ("J", JOKER),
        ("joker", JOKER),
        ("Joker", JOKER),
        ("*", JOKER),
    ],
)
def test_parse_tile_notation(token: str, expected: Tile) -> None:
    assert parse_tile(token) == expected


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("hq", Tile(12, R)),
        ("HQ", Tile(12, R)),
        ("s10", Tile(10, K)),
        ("♦A", Tile(1, OR)),
        ("♦a", Tile(1, OR)),
        ("cK", Tile(13, B)),
        ("hearts 7", Tile(7, R)),
        ("Hearts Q", Tile(12, R)),
        ("spades J", Tile(11, K)),
        ("dA", Tile(1, OR)),
        ("d2", Tile(2, OR)),
        ("♠K", Tile(13, K)),
        ("♥7", Tile(7, R)),
        ("♣j", Tile(11, B)),
        ("clubs 13", Tile(13, B)),
    ],
)
def test_parse_card_notation(token: str, expected: Tile) -> None:
    assert parse_tile(token, "cards") == expected


def test_joker_is_a_joker() -> None:
    assert parse_tile("j").is_joker
    assert not parse_tile("r7").is_joker
    assert JOKER.colour is None


def test_parse_tiles_text_with_spaces_and_commas() -> None:
    assert parse_tiles("r7 k13 j") == [Tile(7, R), Tile(13, K), JOKER]
    assert parse_tiles("red 7, black13") == [Tile(7, R), Tile(13, K)]
    assert parse_tiles("r 7, b 10;o1") == [Tile(7, R), Tile(10, B), Tile(1, OR)]
    assert parse_tiles("  r7,,  j  ") == [Tile(7, R), JOKER]
    assert parse_tiles("Red 7 joker *") == [Tile(7, R), JOKER, JOKER]


def test_parse_tiles_cards() -> None:
    cards = [Tile(12, R), Tile(10, K), Tile(1, OR), Tile(13, B)]
    assert parse_tiles("hq s10 ♦A cK", "cards") == cards
    assert parse_tiles("hearts 7, j", "cards") == [Tile(7, R), JOKER]


def test_parse_tiles_list_of_tokens() -> None:
    assert parse_tiles(["r7", "K13", "joker", "o12"]) == [
        Tile(7, R),
        Tile(13, K),
        JOKER,
        Tile(12, OR),
    ]
    assert parse_tiles(["h7", "sK", "joker"], "cards") == [Tile(7, R), Tile(13, K), JOKER]


# Issue 23, finding 14: each session reads only its own notation (docs/RULES.md 1).
@pytest.mark.parametrize("token", ["hq", "h7", "s10", "♦A", "hearts 7", "Clubs K"])
def test_a_card_in_a_game_of_tiles_is_named(token: str) -> None:
    with pytest.raises(RulesError) as err:
        parse_tiles(f"r1 {token} j")
    assert err.value.code == "bad_tile"
    assert err.value.message == f"“{token}” is a card: this session is played with tiles."


@pytest.mark.parametrize("token", ["r7", "b7", "k13", "o1", "red 7", "black13"])
def test_a_tile_in_a_game_of_cards_is_named(token: str) -> None:
    with pytest.raises(RulesError) as err:
        parse_tiles(f"hA {token} j", "cards")
    assert err.value.code == "bad_tile"
    assert err.value.message == f"“{token}” is a tile: this session is played with cards."


def test_jokers_are_written_the_same_in_both() -> None:
    for played_with in ("tiles", "cards"):
        assert parse_tiles("j J joker * jkr", played_with) == [JOKER] * 5


def test_the_notations_share_no_name() -> None:
    assert not set(TILE_NAMES) & set(CARD_NAMES)
    assert not (set(TILE_NAMES) | set(CARD_NAMES)) & set(JOKER_WORDS)


def test_parse_tiles_empty() -> None:
    assert parse_tiles("") == []
    assert parse_tiles("   ") == []
    assert parse_tiles([]) == []


@pytest.mark.parametrize(
    "token", ["x9", "r14", "r0", "r", "k", "7", "red", "rq", "r07", "r-1", "jj", "rr7", "r7.5"]
)
def test_bad_token_is_named(token: str) -> None:
    with pytest.raises(RulesError) as err:
        parse_tile(token)
    assert err.value.code == "bad_tile"
    assert f"“{token}”" in err.value.message


@pytest.mark.parametrize("text", ["r7 x9 k1", "r7, r14", "red", "r7 rq", "7 r7"])
def test_bad_token_in_text_is_refused(text: str) -> None:
    with pytest.raises(RulesError) as err:
        parse_tiles(text)
    assert err.value.code == "bad_tile"
    assert len(err.value.problems) == 1


def test_bad_token_in_text_names_it() -> None:
    with pytest.raises(RulesError) as err:
        parse_tiles("r7 x9 k1")
    assert "“x9”" in err.value.message
    with pytest.raises(RulesError) as err:
        parse_tiles("r7 r14")
    assert "“r14”" in err.value.message


def test_non_string_list_entry_is_bad_tile() -> None:
    with pytest.raises(RulesError) as err:
        parse_tiles(["r7", 7])  # type: ignore[list-item]
    assert err.value.code == "bad_tile"
    assert "“7”" in err.value.message
    with pytest.raises(RulesError) as err:
        parse_tiles(["r7", None])  # type: ignore[list-item]
    assert err.value.code == "bad_tile"


def test_empty_string_list_entry_is_bad_tile() -> None:
    with pytest.raises(RulesError) as err:
        parse_tiles(["r7", ""])
    assert err.value.code == "bad_tile"


def test_long_bad_token_is_cut_short() -> None:
    with pytest.raises(RulesError) as err:
        parse_tile("x" * 100)
    assert "x" * 21 not in err.value.message
    assert "…" in err.value.message


# --- notation out ----------------------------------------------------------------------


def test_tile_codes() -> None:
    assert Tile(7, R).code() == "r7"
    assert Tile(13, K).code() == "k13"
    assert JOKER.code() == "j"
    assert str(Tile(1, OR)) == "o1"
    assert Tile(10, B).notation() == "b10"


def test_card_codes() -> None:
    assert Tile(12, R).card_code() == "hQ"
    assert Tile(10, K).notation("cards") == "s10"
    assert Tile(1, OR).notation("cards") == "dA"
    assert Tile(13, B).notation("cards") == "cK"
    assert Tile(11, K).notation("cards") == "sJ"
    assert JOKER.notation("cards") == "j"


def test_tile_names() -> None:
    assert Tile(7, R).name() == "red 7"
    assert JOKER.name() == "joker"
    assert Tile(12, R).name("cards") == "hearts Q"
    assert Tile(3, OR).name("cards") == "diamonds 3"


def test_format_tiles_sorted_colour_then_number_jokers_last() -> None:
    tiles = parse_tiles("j o1 r7 k13 b2 r3 k1")
    assert format_tiles(tiles) == "k1 k13 r3 r7 b2 o1 j"
    assert format_tiles(tiles, "cards") == "sA sK h3 h7 c2 dA j"


def test_format_round_trips_through_parse() -> None:
    text = "k1 k13 r3 r7 b2 o1 j"
    assert format_tiles(parse_tiles(text)) == text
    cards = "sA sK h3 hQ c2 dA j"
    assert format_tiles(parse_tiles(cards, "cards"), "cards") == cards
    assert parse_tiles(cards, "cards") == parse_tiles("k1 k13 r3 r12 b2 o1 j")


def test_sort_tiles_jokers_last() -> None:
    assert sort_tiles([JOKER, Tile(5, OR), Tile(5, K)]) == [Tile(5, K), Tile(5, OR), JOKER]


# --- rack value ------------------------------------------------------------------------


def test_rack_value_rules_example() -> None:
    # docs/RULES.md 6: "A rack of 3, 5, 9, 13 is -30."
    assert rack_value(parse_tiles("r3 b5 k9 o13"), PENALTY) == 30


def test_rack_value_joker_penalty_default_and_custom() -> None:
    assert PENALTY == 30  # the printed rules' joker penalty, the setting's default
    assert rack_value(parse_tiles("r7 j"), PENALTY) == 37
    assert rack_value(parse_tiles("j j"), PENALTY) == 60
    assert rack_value(parse_tiles("r7 j"), joker_penalty=50) == 57
    assert rack_value(parse_tiles("r7 j"), joker_penalty=0) == 7
    assert rack_value([], PENALTY) == 0


def test_rack_value_cards() -> None:
    assert rack_value(parse_tiles("hq sK dA c10", "cards"), PENALTY) == 12 + 13 + 1 + 10


# --- supply check ----------------------------------------------------------------------


def test_one_set_allows_two_copies() -> None:
    check_supply([parse_tiles("r7 r7")])
    check_supply([parse_tiles("r7"), parse_tiles("r7 j"), parse_tiles("j")])


def test_three_red_sevens_across_two_racks_refused() -> None:
    with pytest.raises(RulesError) as err:
        check_supply([parse_tiles("r7 r7"), parse_tiles("k2 r7")])
    assert err.value.code == "tile_supply"
    assert "red 7 entered 3 times; a single set has 2" in err.value.message
    assert err.value.problems[0].field == "r7"


def test_two_sets_allow_four_copies_and_four_jokers() -> None:
    check_supply([parse_tiles("r7 r7 j j"), parse_tiles("r7 r7 j j")], tile_sets=2)


def test_two_sets_refuse_a_fifth_copy() -> None:
    with pytest.raises(RulesError) as err:
        check_supply([parse_tiles("r7 r7 r7"), parse_tiles("r7 r7")], tile_sets=2)
    assert err.value.code == "tile_supply"
    assert "red 7 entered 5 times; two sets have 4" in err.value.message


def test_two_sets_refuse_a_fifth_joker() -> None:
    with pytest.raises(RulesError) as err:
        check_supply([parse_tiles("j j j"), parse_tiles("j j")], tile_sets=2)
    assert err.value.code == "tile_supply"
    assert "joker entered 5 times; two sets have 4" in err.value.message


def test_three_jokers_in_one_set_refused() -> None:
    with pytest.raises(RulesError) as err:
        check_supply([parse_tiles("j j"), parse_tiles("r1 j")])
    assert err.value.code == "tile_supply"
    assert "joker entered 3 times; a single set has 2" in err.value.message


def test_supply_message_uses_card_names() -> None:
    with pytest.raises(RulesError) as err:
        check_supply([parse_tiles("hq hq hq", "cards")], played_with="cards")
    assert "hearts Q entered 3 times" in err.value.message


def test_most_valuable_rack() -> None:
    # 2 x (4 colours x (1+...+13)) + 2 jokers x 30 = 728 + 60
    assert most_valuable_rack(1, 30) == 788
    assert most_valuable_rack(2, 30) == 1576
    assert most_valuable_rack(1, 0) == 728
