"""Layout that matters on a phone (issue #25): Start in reach of the last name with 30 known
players, and the chart's legend within the chart with six long names."""

from __future__ import annotations

from contract import SIX_LONG_NAMES
from factories import add_round, new_session, went_out
from phone import PHONE
from playwright.sync_api import Page, expect

SIX = SIX_LONG_NAMES


def test_start_is_within_one_screen_of_the_last_name(page: Page, live_server: str) -> None:
    for evening in range(5):  # 30 players played before
        players = [f"Spiller {evening}-{seat} Jensen" for seat in range(6)]
        new_session(live_server, players, rules={"tile_sets": 2})
    page.goto(f"{live_server}/sessions/new")
    expect(page.locator("#known-names-buttons")).to_be_visible()
    expect(page.get_by_role("button", name="Spiller 4-0 Jensen")).to_be_visible()
    expect(page.get_by_role("button", name="Spiller 0-0 Jensen")).to_be_hidden()  # folded
    last = page.locator("input.player, .player input").last.bounding_box()
    start = page.get_by_role("button", name="Start the session").last.bounding_box()
    assert last and start
    assert start["y"] + start["height"] - last["y"] <= PHONE["height"]
    # And the names are where the eyes are: the first field within the first screen.
    first = page.locator("input.player, .player input").first.bounding_box()
    assert first and first["y"] + first["height"] <= PHONE["height"]


def test_the_legend_fits_the_chart_with_six_long_names(page: Page, live_server: str) -> None:
    session_id = new_session(live_server, SIX, rules={"tile_sets": 2})
    racks = {name: 7 * (seat + 1) for seat, name in enumerate(SIX[1:])}
    add_round(live_server, session_id, went_out(SIX[0], **racks))
    page.goto(f"{live_server}/sessions/{session_id}/chart.svg")
    boxes = page.evaluate(
        """() => Array.from(document.querySelectorAll("text.chart-name")).map((t) => {
             const b = t.getBBox();
             return {name: t.textContent, left: b.x, right: b.x + b.width, top: b.y,
                     bottom: b.y + b.height};
           })"""
    )
    width = float(page.evaluate("document.documentElement.viewBox.baseVal.width"))
    height = float(page.evaluate("document.documentElement.viewBox.baseVal.height"))
    assert [" ".join(box["name"].split()) for box in boxes] == SIX  # whole, read as one
    for box in boxes:
        assert box["right"] <= width and box["bottom"] <= height, box
    for one in boxes:  # no name runs into another
        for other in boxes:
            if one is not other:
                apart = (
                    one["right"] <= other["left"]
                    or other["right"] <= one["left"]
                    or one["bottom"] <= other["top"]
                    or other["bottom"] <= one["top"]
                )
                assert apart, (one, other)


def test_no_rounds_yet_is_quiet_not_an_error(page: Page, live_server: str) -> None:
    """The empty table's line in the quiet text colour, not the red of a losing score."""
    session_id = new_session(live_server, ["Ann", "Bo"])
    page.goto(f"{live_server}/sessions/{session_id}")
    empty = page.locator("td.empty")
    expect(empty).to_have_text("No rounds yet.")
    colours = empty.evaluate(
        """(e) => {
             const probe = document.createElement("span");
             probe.style.color = "var(--muted)";
             e.append(probe);
             const muted = getComputedStyle(probe).color;
             probe.remove();
             return {line: getComputedStyle(e, "::first-line").color, muted,
                     weight: getComputedStyle(e, "::first-line").fontWeight};
           }"""
    )
    assert colours["line"] == colours["muted"], colours


def test_the_letter_keyboard_shows_how_tiles_are_written(page: Page, live_server: str) -> None:
    """One line of help; the notation shows with the letter keyboard, and goes with it."""
    session_id = new_session(live_server, ["Ann", "Bo"])
    page.goto(f"{live_server}/sessions/{session_id}/rounds/new")
    key = page.get_by_text("k black, r red, b blue, o orange, j joker")
    expect(page.get_by_text("Leave the winner's blank.")).to_be_visible()
    expect(key).to_be_hidden()
    page.get_by_role("button", name="Type letters (abc)").tap()
    expect(key).to_be_visible()
    expect(page.get_by_role("textbox", name="Bo")).to_have_attribute("inputmode", "text")
    page.get_by_role("button", name="Type numbers (123)").tap()
    expect(key).to_be_hidden()
    expect(page.get_by_role("textbox", name="Bo")).to_have_attribute("inputmode", "numeric")
