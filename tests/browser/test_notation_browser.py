"""The notation's cases (tests/notation_cases.json) in the browser: each token and rack read by
static/tiles.js, on the pages that carry it, gives the tiles, notation, value or error the case
says. tests/unit/test_notation_cases.py runs the same cases on scorekeeper/rules/tiles.py, so
the browser and the server can never read a rack differently."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

CASES = json.loads((Path(__file__).parents[1] / "notation_cases.json").read_text("utf-8"))

# Every case read by the page's notation: what tests/unit/test_notation_cases.py asks of Python.
READ_ALL = """(cases) => {
  const tiles = window.ScorekeeperTiles;
  const cards = (c) => c.played_with === "cards";
  const tokens = cases.tokens.map((c) => {
    const id = tiles.tileOf(c.token, cards(c));
    if (id === null) return { error: "bad_tile", other: tiles.otherNotation(c.token, cards(c)) };
    return { tile: tiles.notation(id, false), card: tiles.notation(id, true) };
  });
  const racks = cases.racks.map((c) => {
    const read = tiles.tilesOf(c.rack, cards(c));
    const unread = read.filter((tile) => tile.id === null);
    if (unread.length) {
      return { error: "bad_tile", other: unread.some((t) => tiles.otherNotation(t.raw, cards(c))) };
    }
    const value = read.reduce((sum, tile) => sum + tiles.valueOf(tile.id, c.joker_penalty), 0);
    return { tiles: read.map((tile) => tile.id), value };
  });
  return { tokens, racks };
}"""


def expected(case: dict[str, Any]) -> dict[str, Any]:
    if "error" in case:
        return {"error": case["error"], "other": bool(case.get("other"))}
    if "token" in case:
        return {"tile": case["tile"], "card": case["card"]}
    return {"tiles": case["tiles"], "value": case["value"]}


def disagreements(cases: list[dict[str, Any]], answers: list[dict[str, Any]]) -> list[str]:
    return [
        f"{ascii(case.get('token', case.get('rack')))[:40]}: {answer} in the browser, "
        f"{expected(case)} expected"
        for case, answer in zip(cases, answers, strict=True)
        if answer != expected(case)
    ]


def test_every_case_reads_the_same_in_the_browser(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/tools/check")  # the checker's keypad writes in the notation
    answers = page.evaluate(READ_ALL, CASES)
    assert disagreements(CASES["tokens"], answers["tokens"]) == []
    assert disagreements(CASES["racks"], answers["racks"]) == []


@pytest.mark.parametrize("played_with", ["tiles", "cards"])
def test_the_round_form_reads_racks_with_the_same_notation(
    page: Page, live_server: str, played_with: str
) -> None:
    """The round form's preview (round.js: a rack's value and tile count, or unreadable) reads
    every rack case of its session's notation as the notation does; a whole number there is a
    rack's value, not tiles."""
    created = page.request.post(
        f"{live_server}/api/v1/sessions",
        data={"players": ["Ann", "Bo"], "rules": {"joker_penalty": 30, "played_with": played_with}},
    )
    assert created.status == 201, created.text()
    page.goto(f"{live_server}/sessions/{created.json()['id']}/rounds/new")
    racks = [
        case
        for case in CASES["racks"]
        if case.get("joker_penalty", 30) == 30
        and case["rack"].strip()
        and case["rack"] != "12"
        and case.get("played_with", "tiles") == played_with
    ]
    # The notation comes at the first rack typed as tiles (tiles.js, fetched on demand).
    seven = "h7" if played_with == "cards" else "r7"
    page.evaluate("(seven) => window.ScorekeeperRound.rack(seven)", seven)
    page.wait_for_function("(seven) => window.ScorekeeperRound.rack(seven).value === 7", arg=seven)
    answers = page.evaluate(
        """(racks) => racks.map((text) => {
             const entry = window.ScorekeeperRound.rack(text);
             return Number.isNaN(entry.value) ? { error: "bad_tile" } : entry;
           })""",
        [case["rack"] for case in racks],
    )
    want = [
        {"error": case["error"]}
        if "error" in case
        else {"value": case["value"], "count": len(case["tiles"])}
        for case in racks
    ]
    wrong = [
        f"{ascii(case['rack'])[:40]}: {got} in the round form, {wanted} expected"
        for case, got, wanted in zip(racks, answers, want, strict=True)
        if got != wanted
    ]
    assert wrong == []
    assert page.evaluate("window.ScorekeeperRound.rack('12')") == {"value": 12, "count": None}
