"""The notation's cases (tests/notation_cases.json) on the server's side: each token and rack
read by scorekeeper/rules/tiles.py gives the tiles, notation, value or error the case says.
The browser runs the same cases on static/tiles.js (tests/browser/test_notation_browser.py),
so the two readings of the notation can never disagree."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import RulesError, parse_tile, parse_tiles, rack_value

CASES = json.loads((Path(__file__).parent.parent / "notation_cases.json").read_text("utf-8"))


def label(case: dict[str, Any]) -> str:
    return ascii(case.get("token", case.get("rack")))[:40]


def error_code(read: Any, case: dict[str, Any]) -> str:
    """The code of the one problem reading the case gives; a token of the other notation
    (`other`) is named as a card in a game of tiles, or as a tile in a game of cards."""
    with pytest.raises(RulesError) as raised:
        read()
    (problem,) = raised.value.problems
    said = problem.message
    if case.get("other"):
        other = "tile" if case.get("played_with") == "cards" else "card"
        assert f"is a {other}: this session is played with" in said, said
    else:
        assert "this session is played with" not in said, said
    return problem.code


def notation(case: dict[str, Any]) -> str:
    return str(case.get("played_with", "tiles"))


@pytest.mark.parametrize("case", CASES["tokens"], ids=label)
def test_every_token_case(case: dict[str, Any]) -> None:
    if "error" in case:
        assert error_code(lambda: parse_tile(case["token"], notation(case)), case) == case["error"]
        return
    tile = parse_tile(case["token"], notation(case))
    assert tile.code() == case["tile"]
    assert tile.notation("tiles") == case["tile"]
    assert tile.notation("cards") == case["card"]


@pytest.mark.parametrize("case", CASES["racks"], ids=label)
def test_every_rack_case(case: dict[str, Any]) -> None:
    if "error" in case:
        assert error_code(lambda: parse_tiles(case["rack"], notation(case)), case) == case["error"]
        return
    tiles = parse_tiles(case["rack"], notation(case))
    assert [t.code() for t in tiles] == case["tiles"]
    assert rack_value(tiles, case["joker_penalty"]) == case["value"]


def test_the_cases_cover_the_notation() -> None:
    """Numbers, colours, jokers, cards, case and spaces, bad and over-long tokens."""
    tokens = {case["token"] for case in CASES["tokens"]}
    assert {"r7", "red 7", "R7", " o 11 ", "j", "joker", "*", "HQ", "♦A", "Hearts Q"} <= tokens
    assert any(len(c["token"]) > 12 and "error" in c for c in CASES["tokens"])
    assert sum("error" in c for c in CASES["tokens"]) >= 20
    assert sum("error" in c for c in CASES["racks"]) >= 10
    # Each notation alone: a card in a game of tiles, a tile in a game of cards, jokers in both.
    for kind in ("tokens", "racks"):
        others = {notation(c) for c in CASES[kind] if c.get("other")}
        assert others == {"tiles", "cards"}, kind
    assert {"j", "joker"} <= {c["token"] for c in CASES["tokens"] if notation(c) == "cards"}
