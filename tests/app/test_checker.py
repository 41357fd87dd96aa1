"""The table checker: the page at /tools/check without JavaScript (plain form POSTs), and the
rules tools of the JSON API it calls with JavaScript (set, meld, joker swap)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from factories import new_session
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

API = "/api/v1"
PAGE = "/tools/check"
REMINDER = "Play the freed joker this turn: it may never end on a rack."
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def text(response: TestResponse) -> str:
    """The page as words: tags dropped, entities read, whitespace squeezed."""
    html = response.get_data(as_text=True)
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def section(response: TestResponse, verdicts_id: str) -> str:
    """The words of one section's verdicts (`set-verdict`, `meld-verdict`, `swap-verdict`)."""
    html = response.get_data(as_text=True)
    start = html.index(f'id="{verdicts_id}"')
    end = html.index("</section>", start)
    part = html[html.index(">", start) + 1 : end]
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", part))).strip()


def post_page(
    client: FlaskClient, check: str, query: str = "", **fields: str
) -> tuple[TestResponse, str]:
    response = client.post(f"{PAGE}{query}", data={"check": check, **fields})
    return response, section(response, f"{check}-verdict")


def api(client: FlaskClient, tool: str, body: Any, status: int = 200) -> Any:
    response = client.post(f"{API}/rules/{tool}", json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def codes(doc: Any) -> list[str]:
    return [p["code"] for p in doc["errors"]]


# --- The page -----------------------------------------------------------------------------


def test_page_has_three_checks_the_standard_rules_and_no_inline_script(
    client: FlaskClient,
) -> None:
    response = client.get(PAGE)
    assert response.status_code == 200
    words = text(response)
    for heading in (
        "Table checker",
        "Is this set valid?",
        "Initial meld check",
        "Joker swap check",
    ):
        assert heading in words
    assert "Rules: Standard" in words
    html = response.get_data(as_text=True)
    for label in (
        "Run wrap (1 after 13)",
        "Jokers may be retrieved from the table",
        "Number of tile sets",
        "Minimum initial meld",
        "Played with",
        "Sets, one per line",
        "Sets from one rack, one per line",
        "Set on the table",
        "Tile from the rack",
    ):
        assert re.search(rf'<label for="[^"]+">{re.escape(label)}</label>', html), label
    # The Standard rules: jokers may be retrieved, no run wrap.
    assert '<input checked id="jokers_retrievable" name="jokers_retrievable"' in html
    assert '<input id="run_wrap" name="run_wrap" type="checkbox"' in html
    assert not re.search(r'<script(?![^>]*\b(?:src=|type="application/json"))', html), (
        "inline script"
    )
    assert " style=" not in html
    assert re.search(r'<script src="/static/checker_page\.[0-9a-f]{10}\.js" defer></script>', html)
    assert html.count('action="/tools/check#check-') == 3
    assert 'href="/"' in html  # back to the sessions


def test_home_session_and_clock_pages_link_to_the_checker(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, name="Sunday")
    home = client.get("/").get_data(as_text=True)
    assert 'href="/tools/check"' in home and "Table checker" in home
    show = client.get(f"/sessions/{session_id}").get_data(as_text=True)
    assert f'href="/tools/check?session={session_id}"' in show
    # One name everywhere: the checker's own.
    assert ">Table checker</a>" in show
    clock = client.get(f"/sessions/{session_id}/clock").get_data(as_text=True)
    assert f'href="/tools/check?session={session_id}"' in clock
    assert ">Table checker</a>" in clock


def test_set_check_answers_valid_with_its_reading_and_points(client: FlaskClient) -> None:
    response, verdict = post_page(client, "set", sets="J r12 r13")
    assert response.status_code == 200
    assert verdict == "J r12 r13 Valid — a run worth 36 points. Run r11 r12 r13 · 36 points"


def test_set_check_answers_invalid_with_the_reason(client: FlaskClient) -> None:
    response, verdict = post_page(client, "set", sets="r12 r13 r1")
    assert response.status_code == 200
    assert verdict == (
        "r12 r13 r1 Not valid — red 12, red 13, red 1 needs the run wrap setting: "
        "1 follows 13 only with it on."
    )


def test_set_check_lists_every_reading(client: FlaskClient) -> None:
    _, verdict = post_page(client, "set", sets="J J b5")
    assert "Valid — 4 readings; the highest is worth 18 points." in verdict
    for reading in (
        "Group k5 r5 b5 · 15 points",
        "Run b3 b4 b5 · 12 points",
        "Run b4 b5 b6 · 15 points",
        "Run b5 b6 b7 · 18 points",
    ):
        assert reading in verdict


def test_several_sets_one_per_line_each_answered(client: FlaskClient) -> None:
    response, verdict = post_page(client, "set", sets="r5 b5 J\r\n\r\nr6 b6 k6 r6\n o7 o8 o9 ")
    assert response.status_code == 200
    assert verdict.count("Valid —") == 2
    assert "r5 b5 J Valid — a group worth 15 points." in verdict
    assert (
        "r6 b6 k6 r6 Not valid — red 6 appears twice: a group needs a different colour" in verdict
    )
    assert "o7 o8 o9 Valid — a run worth 24 points." in verdict


def test_several_sets_share_the_supply(client: FlaskClient) -> None:
    response, verdict = post_page(client, "set", sets="r7 b7 k7\nr7 o7 k7\nr7 r8 r9")
    assert response.status_code == 422
    assert verdict.count("Valid —") == 3
    assert "red 7 entered 3 times; a single set has 2." in verdict
    two_sets = "?rules=chosen&jokers_retrievable=y&tile_sets=2&min_initial_meld=30"
    response, verdict = post_page(client, "set", two_sets, sets="r7 b7 k7\nr7 o7 k7\nr7 r8 r9")
    assert response.status_code == 200
    assert "entered 3 times" not in verdict


def test_bad_tile_on_the_page_names_it_and_keeps_the_other_lines(client: FlaskClient) -> None:
    response, verdict = post_page(client, "set", sets="x9 r1 r2\nr1 r2 r3")
    assert response.status_code == 422
    assert "x9 r1 r2 Cannot check — “x9” is not a tile" in verdict
    assert "r1 r2 r3 Valid — a run worth 6 points." in verdict
    assert "x9 r1 r2\nr1 r2 r3</textarea>" in response.get_data(as_text=True)


def test_empty_set_check_asks_for_a_set(client: FlaskClient) -> None:
    response, verdict = post_page(client, "set", sets="  \n ")
    assert response.status_code == 422
    assert verdict == ""
    assert 'id="sets-error">Type a set, like r5 b5 j.</p>' in response.get_data(as_text=True)


def test_run_wrap_toggle_makes_12_13_1_valid(client: FlaskClient) -> None:
    query = "?rules=chosen&run_wrap=y&jokers_retrievable=y&tile_sets=1&min_initial_meld=30"
    response, verdict = post_page(client, "set", query, sets="r12 r13 r1")
    assert response.status_code == 200
    assert verdict == "r12 r13 r1 Valid — a run worth 26 points. Run r12 r13 r1 · 26 points"
    html = response.get_data(as_text=True)
    assert 'checked id="run_wrap"' in html
    assert "Rules: Standard, as changed here" in text(response)
    # The forms post back to the same rules.
    assert 'action="/tools/check?rules=chosen&amp;run_wrap=y' in html


# The initial-meld check: what is typed (and the rules' query), the answer's status, how its
# verdict begins and what else it says.
STANDARD = ""
MIN_25 = "?rules=chosen&jokers_retrievable=y&tile_sets=1&min_initial_meld=25"
MELDS = {
    "makes-the-minimum": (
        STANDARD,
        "r10 b10 J\nk1 k2 k3",
        200,
        "Makes the initial meld — 36 points; the minimum is 30.",
        ["r10 b10 J : group k10 r10 b10 · 30 points", "k1 k2 k3 : run k1 k2 k3 · 6 points"],
    ),
    "the-highest-reading": (
        STANDARD,
        "o9 J J",
        200,
        "Makes the initial meld — 30 points; the minimum is 30.",
        ["run o9 o10 o11 · 30 points (the highest of 4 readings)"],
    ),
    "not-enough": (
        STANDARD,
        "r1 r2 r3",
        200,
        "Not enough — These sets make 6 points; the initial meld needs 30.",
        [],
    ),
    "an-invalid-set": (
        STANDARD,
        "r10 b10 J\nk1 k2 k4",
        200,
        "Not a valid meld — Set 2 is not valid: black 1, black 2, black 4",
        ["k1 k2 k4 : not valid"],
    ),
    "a-bad-tile": (STANDARD, "r10 b10 q", 422, "“q” is not a tile", []),
    "the-minimum-chosen": (
        MIN_25,
        "r8 b8 o8",
        200,
        "Not enough — These sets make 24 points; the initial meld needs 25.",
        [],
    ),
}


@pytest.mark.parametrize(("query", "meld", "status", "begins", "says"), MELDS.values(), ids=MELDS)
def test_meld_check(
    client: FlaskClient, query: str, meld: str, status: int, begins: str, says: list[str]
) -> None:
    response, verdict = post_page(client, "meld", query, meld=meld)
    assert response.status_code == status
    assert verdict.startswith(begins)
    assert all(part in verdict for part in says), verdict


def test_meld_minimum_out_of_range_is_said_by_its_field(client: FlaskClient) -> None:
    query = "?rules=chosen&jokers_retrievable=y&tile_sets=1&min_initial_meld=500"
    response, verdict = post_page(client, "meld", query, meld="r10 b10 J")
    assert response.status_code == 422
    assert verdict == ""  # nothing is checked against rules that do not exist
    html = response.get_data(as_text=True)
    assert (
        'id="min_initial_meld-error">Minimum initial meld must be a whole number from 0 to 200.'
        in html
    )
    assert '<details class="more" id="rules" open>' in html


def test_swap_check_allowed_with_the_reminder(client: FlaskClient) -> None:
    response, verdict = post_page(client, "swap", swap_set="b3 b4 J", swap_tile="b5")
    assert response.status_code == 200
    assert verdict == (
        f"Allowed — b5 may take the joker's place. {REMINDER} The joker may be replaced by b2 b5"
    )


def test_swap_check_refused_wrong_tile(client: FlaskClient) -> None:
    response, verdict = post_page(client, "swap", swap_set="r5 b5 j", swap_tile="b5")
    assert response.status_code == 200
    assert verdict.startswith(
        "Not allowed — The joker here stands for black 5 or orange 5; blue 5 cannot replace it."
    )
    assert REMINDER not in verdict


def test_swap_check_setting_off_by_toggle(client: FlaskClient) -> None:
    query = "?rules=chosen&tile_sets=1&min_initial_meld=30"  # jokers_retrievable unticked
    response, verdict = post_page(client, "swap", query, swap_set="b3 b4 J", swap_tile="b5")
    assert response.status_code == 200
    assert verdict.startswith(
        "Not allowed — Jokers may not be retrieved from the table in this session."
    )


def test_swap_check_needs_both_fields(client: FlaskClient) -> None:
    response, verdict = post_page(client, "swap", swap_set="", swap_tile=" ")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert 'id="swap_set-error">Type the set on the table, like b3 b4 j.' in html
    assert 'id="swap_tile-error">Type the tile from the rack, like b5.' in html


def test_swap_check_bad_tile(client: FlaskClient) -> None:
    response, verdict = post_page(client, "swap", swap_set="b3 b4 J", swap_tile="b55")
    assert response.status_code == 422
    assert verdict.startswith("“b55” is not a tile")


def test_session_rules_apply_on_the_page(client: FlaskClient) -> None:
    session_id = new_session(
        client, PLAYERS, name="Wrap night", rules={"run_wrap": True, "jokers_retrievable": False}
    )
    query = f"?session={session_id}"
    page = client.get(PAGE + query)
    assert page.status_code == 200
    words = text(page)
    assert "Rules of Wrap night" in words
    assert "Run wrap (1 after 13) on" in words
    assert "Jokers may be retrieved from the table off" in words
    html = page.get_data(as_text=True)
    assert f'href="/sessions/{session_id}">← Wrap night</a>' in html
    assert 'id="rules-form"' not in html  # the session's rules, not the toggles
    assert f'action="/tools/check?session={session_id}#check-set"' in html
    response, verdict = post_page(client, "set", query, sets="r12 r13 r1")
    assert response.status_code == 200
    assert "Valid — a run worth 26 points." in verdict
    _, verdict = post_page(client, "swap", query, swap_set="b3 b4 J", swap_tile="b5")
    assert verdict.startswith("Not allowed — Jokers may not be retrieved")


def test_session_minimum_initial_meld_on_the_page(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, name="Sunday", rules={"min_initial_meld": 50})
    query = f"?session={session_id}"
    assert "at least 50 points" in text(client.get(PAGE + query))
    _, verdict = post_page(client, "meld", query, meld="r10 b10 J\nk1 k2 k3")
    assert verdict.startswith("Not enough — These sets make 36 points; the initial meld needs 50.")


def test_cards_session_speaks_cards(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, name="Sunday", rules={"played_with": "cards"})
    query = f"?session={session_id}"
    page = client.get(PAGE + query).get_data(as_text=True)
    assert '<label for="swap_tile">Card from the hand</label>' in page
    _, verdict = post_page(client, "set", query, sets="j ♥Q hk")
    assert verdict == "j ♥Q hk Valid — a run worth 36 points. Run hJ hQ hK · 36 points"
    _, verdict = post_page(client, "swap", query, swap_set="hq hk j", swap_tile="s3")
    assert "The joker here stands for hearts J; spades 3 cannot replace it." in verdict


@pytest.mark.parametrize("session", ["999", "abc", "0", "-1", ""])
def test_unknown_session_is_404(client: FlaskClient, session: str) -> None:
    assert client.get(f"{PAGE}?session={session}").status_code == 404
    assert client.post(f"{PAGE}?session={session}", data={"check": "set"}).status_code == 404


@pytest.mark.parametrize("check", ["set", "meld", "swap"])
def test_a_post_without_its_fields_asks_for_them(client: FlaskClient, check: str) -> None:
    response = client.post(PAGE, data={"check": check})
    assert response.status_code == 422
    assert 'class="error"' in response.get_data(as_text=True)


def test_hostile_rules_and_lines_are_refused_in_words(client: FlaskClient) -> None:
    for query in (
        "?rules=chosen&tile_sets=3&min_initial_meld=30",
        "?rules=chosen&played_with=dice&min_initial_meld=30",
        "?rules=chosen&min_initial_meld=" + "9" * 5000,
    ):
        assert client.get(PAGE + query).status_code == 422, query
    assert client.get(f"{PAGE}?session={10**30}").status_code == 404
    many = "\n".join(["r1 r2 r3"] * 41)
    response, _ = post_page(client, "set", sets=many)
    assert response.status_code == 422
    assert "Check at most 40 sets at once." in response.get_data(as_text=True)
    response, _ = post_page(client, "set", sets="r1 r2 r3\n" + "r1 " * 1000)
    assert response.status_code == 422
    assert 'id="sets-error">Line 2 is too long to be a set.' in response.get_data(as_text=True)
    response, verdict = post_page(client, "set", sets="r" + "1" * 500)
    assert response.status_code == 422
    assert "is not a tile" in verdict
    response, _ = post_page(client, "swap", swap_set="r1 " * 1000, swap_tile="r2")
    assert 'id="swap_set-error">This is too long to be a set.' in response.get_data(as_text=True)


def test_unknown_check_just_shows_the_page(client: FlaskClient) -> None:
    response = client.post(PAGE, data={"check": "rack", "sets": "r1 r2 r3"})
    assert response.status_code == 200
    assert section(response, "set-verdict") == ""


# --- The API the page calls with JavaScript -------------------------------------------------


def test_api_set_valid_invalid_and_readings(client: FlaskClient) -> None:
    assert api(client, "set", {"tiles": ["j", "r12", "r13"]}) == {
        "valid": True,
        "readings": [{"kind": "run", "as": ["r11", "r12", "r13"], "points": 36}],
        "points": 36,
        "reason": None,
    }
    refused = api(client, "set", {"tiles": "r12 r13 r1"})
    assert refused["valid"] is False and "run wrap" in refused["reason"]
    readings = api(client, "set", {"tiles": "J r5 r6"})["readings"]
    assert [(r["as"], r["points"]) for r in readings] == [
        (["r4", "r5", "r6"], 15),
        (["r5", "r6", "r7"], 18),
    ]


def test_api_meld_ok_not_enough_and_invalid_set(client: FlaskClient) -> None:
    ok = api(client, "meld", {"sets": [["r10", "b10", "j"], ["k1", "k2", "k3"]]})
    assert (ok["valid"], ok["points"], ok["minimum"], ok["reason"]) == (True, 36, 30, None)
    short = api(client, "meld", {"sets": ["r1 r2 r3"]})
    assert short["valid"] is False
    assert short["reason"] == "These sets make 6 points; the initial meld needs 30."
    bad = api(client, "meld", {"sets": ["r10 b10 j", "k1 k2 k4"]})
    assert bad["valid"] is False and bad["reason"].startswith("Set 2 is not valid:")


def test_api_swap_allowed(client: FlaskClient) -> None:
    assert api(client, "swap", {"set": ["b3", "b4", "j"], "tile": "b5"}) == {
        "allowed": True,
        "stands_for": ["b2", "b5"],
        "reason": None,
        "reminder": REMINDER,
    }
    group = api(client, "swap", {"set": "r5 b5 j", "tile": "k5"})
    assert group["allowed"] is True and group["stands_for"] == ["k5", "o5"]


def test_api_swap_refused(client: FlaskClient) -> None:
    assert api(client, "swap", {"set": ["j", "r12", "r13"], "tile": "k5"}) == {
        "allowed": False,
        "stands_for": ["r11"],
        "reason": "The joker here stands for red 11; black 5 cannot replace it.",
        "reminder": None,
    }
    no_joker = api(client, "swap", {"set": "b3 b4 b5", "tile": "b6"})
    assert no_joker["allowed"] is False
    assert no_joker["reason"] == "There is no joker in this set to take."
    two_jokers = api(client, "swap", {"set": "r1 j j r4", "tile": "r3"})
    assert two_jokers["allowed"] is True and two_jokers["stands_for"] == ["r2", "r3"]


def test_api_swap_setting_off(client: FlaskClient) -> None:
    body = {"set": "b3 b4 j", "tile": "b5", "rules": {"jokers_retrievable": False}}
    doc = api(client, "swap", body)
    assert doc["allowed"] is False
    assert doc["reason"] == "Jokers may not be retrieved from the table in this session."
    assert doc["reminder"] is None


def test_api_session_rules_apply(client: FlaskClient) -> None:
    wrap = new_session(
        client, PLAYERS, name="Wrap", rules={"run_wrap": True, "jokers_retrievable": False}
    )
    assert api(client, "set", {"tiles": "r12 r13 r1"})["valid"] is False
    assert api(client, "set", {"tiles": "r12 r13 r1", "session": wrap})["valid"] is True
    swap = api(client, "swap", {"set": "r12 r13 j", "tile": "r1", "session": wrap})
    assert swap["allowed"] is False and swap["stands_for"] == ["r1", "r11"]
    # `rules` on top of the session's.
    body = {
        "set": "r12 r13 j",
        "tile": "r1",
        "session": wrap,
        "rules": {"jokers_retrievable": True},
    }
    assert api(client, "swap", body)["allowed"] is True
    meld = new_session(client, PLAYERS, name="High", rules={"min_initial_meld": 50})
    assert api(client, "meld", {"sets": ["r10 b10 j"], "session": meld})["minimum"] == 50


def test_api_cards_session_answers_in_cards(client: FlaskClient) -> None:
    cards = new_session(client, PLAYERS, name="Sunday", rules={"played_with": "cards"})
    doc = api(client, "swap", {"set": "♥Q ♥K j", "tile": "s3", "session": cards})
    assert doc["stands_for"] == ["hJ"]
    assert doc["reason"] == "The joker here stands for hearts J; spades 3 cannot replace it."


@pytest.mark.parametrize(
    ("tool", "body"),
    [
        ("set", {"tiles": ["r7", "x9"]}),
        ("meld", {"sets": [["r10", "b10", "q"]]}),
        ("swap", {"set": ["b3", "b4", "j"], "tile": "x5"}),
        ("swap", {"set": ["b3", "x4", "j"], "tile": "b5"}),
        ("swap", {"set": "b3 b4 j", "tile": "b5 b6"}),
        ("swap", {"set": "b3 b4 j", "tile": ""}),
        ("swap", {"set": "b3 b4 j", "tile": "r" + "1" * 100}),
    ],
)
def test_api_bad_tile_is_422(client: FlaskClient, tool: str, body: Any) -> None:
    assert codes(api(client, tool, body, 422)) == ["bad_tile"]


@pytest.mark.parametrize(
    ("tool", "body"),
    [
        ("set", {"tiles": 7}),
        ("set", {"tiles": [7, 8, 9]}),
        ("meld", {"sets": "r1 r2 r3"}),
        ("swap", {"set": ["b3", "b4", "j"], "tile": 5}),
        ("swap", {"set": ["b3", "b4", "j"], "tile": ["b5"]}),
        ("swap", {"set": ["b3", "b4", "j"]}),
        ("swap", {"set": 3, "tile": "b5"}),
        ("swap", {"tile": "b5"}),
        ("swap", [{"set": "b3 b4 j", "tile": "b5"}]),
        ("swap", {"set": "b3 b4 j", "tile": "b5", "session": "1"}),
        ("swap", {"set": "b3 b4 j", "tile": "b5", "rules": {"run_wrap": "yes"}}),
    ],
)
def test_api_wrong_types_are_400(client: FlaskClient, tool: str, body: Any) -> None:
    assert codes(api(client, tool, body, 400)) in (["bad_request"], ["bad_setting"])


def test_api_swap_unknown_session_is_404(client: FlaskClient) -> None:
    body = {"set": "b3 b4 j", "tile": "b5", "session": 999}
    assert codes(api(client, "swap", body, 404)) == ["not_found"]
