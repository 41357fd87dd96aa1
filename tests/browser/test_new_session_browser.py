"""The new-session page in a phone-sized Chromium: the line above Start says every rule apart
from the standard set and follows each change, six names typed and Enter start with two tile
sets and say so, and the who-starts page draws."""

from __future__ import annotations

import re

from factories import new_session
from playwright.sync_api import Page, expect

FOUR = ["Ann", "Bo", "Cy", "Di"]
SIX = ["Ann", "Bo", "Cy", "Di", "Eve", "Fin"]
STARTS = re.compile(r"^(Ann|Bo|Cy|Di) starts \(drew ([1-9]|1[0-3])\)\.$")


def test_the_rules_line_follows_each_change(page: Page, live_server: str) -> None:
    new_session(live_server, SIX, name="Sunday", rules={"tile_sets": 2, "drop_worst_round": True})
    page.goto(f"{live_server}/sessions/new")
    line = page.locator("#rules-said")
    expect(line).to_have_text(
        "As last time: Number of tile sets: 2 (5-6 players) · Drop each player's worst round"
    )
    # Each rule is a link to its field, opened from the folded rules.
    line.get_by_role("link", name="Drop each player's worst round").tap()
    box = page.get_by_label("Drop each player's worst round")
    expect(box).to_be_focused()
    box.uncheck()
    expect(line).to_have_text("As last time: Number of tile sets: 2 (5-6 players)")
    page.get_by_label("Joker penalty").fill("50")
    expect(line).to_have_text(
        "Not the printed rules: Number of tile sets: 2 (5-6 players) · Joker penalty: 50"
    )
    # Five names: two tile sets are the standard, so the line no longer names them.
    for seat, name in enumerate([*FOUR, "Eve"]):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    expect(line).to_have_text("Not the printed rules: Joker penalty: 50")
    page.get_by_label("Joker penalty").fill("30")
    expect(line).to_be_hidden()


def test_a_rematch_says_the_session_it_repeats(page: Page, live_server: str) -> None:
    sunday = new_session(live_server, FOUR, name="Sunday", rules={"drop_worst_round": True})
    new_session(live_server, ["Gus", "Hal"], name="Sunday", rules={"joker_penalty": 25})
    page.goto(f"{live_server}/sessions/new?again={sunday}")
    expect(page.locator("#rules-said")).to_have_text("As in Sunday: Drop each player's worst round")
    expect(page.get_by_label("Player 4", exact=True)).to_have_value("Di")


def test_six_names_typed_and_enter_start_with_two_tile_sets(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/sessions/new")
    said = page.locator("#players-sets")
    sets = page.get_by_label("Number of tile sets")
    for seat, name in enumerate(SIX):
        field = page.get_by_label(f"Player {seat + 1}", exact=True)
        field.fill(name)
        if seat == 4:
            expect(said).to_have_text("5 players: two tile sets.")
            expect(sets).to_have_value("2")
    expect(said).to_have_text("6 players: two tile sets.")
    expect(page.locator("#rules-said")).to_be_hidden()  # two sets are standard for six
    page.get_by_label("Player 6", exact=True).press("Enter")
    expect(page.get_by_text("6 players: two tile sets.")).to_be_visible()
    session_id = int(page.url.rsplit("/", 1)[1])
    body = page.request.get(f"{live_server}/api/v1/sessions/{session_id}").json()
    assert body["rules"]["tile_sets"] == 2
    assert body["players"] == SIX


def test_fewer_names_again_put_the_tile_sets_back(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/sessions/new")
    for seat, name in enumerate([*FOUR, "Eve"]):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    expect(page.get_by_label("Number of tile sets")).to_have_value("2")
    page.get_by_label("Player 5", exact=True).fill("")
    expect(page.get_by_label("Number of tile sets")).to_have_value("1")
    expect(page.locator("#players-sets")).to_be_empty()


def test_six_names_said_even_with_two_tile_sets_set(page: Page, live_server: str) -> None:
    new_session(live_server, SIX, name="Sunday", rules={"tile_sets": 2})
    page.goto(f"{live_server}/sessions/new")
    for seat, name in enumerate(SIX):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    expect(page.locator("#players-sets")).to_have_text("6 players: two tile sets.")


def test_who_starts_page_draws_with_one_tap(page: Page, live_server: str) -> None:
    session_id = new_session(live_server, FOUR, name="Sunday")
    page.goto(f"{live_server}/sessions/{session_id}")
    page.get_by_role("link", name="Who starts?").tap()
    expect(page.get_by_role("heading", name="Who starts?", level=1)).to_be_visible()
    # Its script (deferred) has run by then; a tap before it is the server's draw, as
    # without scripts (a CI run under load tapped that early once).
    page.wait_for_load_state("domcontentloaded")
    result = page.locator("#draw-result")
    expect(result).to_be_hidden()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.method))
    for _ in range(20):  # a tie draws again, between the tied only
        page.get_by_role("button", name="Draw for us").tap()
        expect(result).to_be_visible()
        if "starts" in (result.text_content() or ""):
            break
        expect(result).to_contain_text("draw again")
    expect(result).to_have_text(STARTS)
    assert float(result.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 28
    expect(page.locator("#draw-order")).to_contain_text("in seating order.")
    assert "POST" not in requests  # drawn on the phone


def test_who_starts_page_reads_a_tie_and_the_redraw(page: Page, live_server: str) -> None:
    session_id = new_session(live_server, FOUR, name="Sunday")
    page.goto(f"{live_server}/sessions/{session_id}/who-starts")
    for name, drawn in zip(FOUR, ["12", "3", "12", "5"], strict=True):
        page.get_by_label(name, exact=True).fill(drawn)
    page.get_by_label("Di", exact=True).press("Enter")  # reads the numbers typed
    result = page.locator("#draw-result")
    expect(result).to_have_text("Ann and Cy draw again (both drew 12).")
    expect(page.get_by_label("Bo", exact=True)).to_be_disabled()
    page.get_by_label("Ann", exact=True).fill("2")
    page.get_by_label("Cy", exact=True).fill("9")
    page.get_by_role("button", name="Who starts?").tap()
    expect(result).to_have_text("Cy starts (drew 9).")
    expect(page.locator("#draw-order")).to_have_text("Then Di, Ann and Bo, in seating order.")


def test_draw_who_starts_first_after_start(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/sessions/new")
    for seat, name in enumerate(FOUR):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.get_by_label("Draw who starts first").check()
    page.get_by_label("Player 5", exact=True).press("Enter")  # the empty seat: Start
    expect(page.get_by_role("heading", name="Who starts?", level=1)).to_be_visible()
    page.get_by_role("button", name="Draw for us").tap()
    expect(page.locator("#draw-result")).to_be_visible()
    page.goto(f"{live_server}/sessions/new")
    expect(page.get_by_label("Draw who starts first")).to_be_checked()
