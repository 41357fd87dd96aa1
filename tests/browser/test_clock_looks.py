"""The turn clock in the family's look (issue #25): whose turn in their seat's mark and colour,
and at zero the theme's danger tint, dark in dark mode."""

from __future__ import annotations

import re

from factories import new_session
from phone import PHONE
from playwright.sync_api import Browser, expect

PLAYERS = ["Mormor", "Peter", "Sofie"]


def _luminance(rgb: str) -> float:
    r, g, b = (int(part) for part in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def test_the_clock_shows_the_seat_and_stays_dark_at_zero(
    browser: Browser, live_server: str
) -> None:
    session_id = new_session(live_server, PLAYERS, rules={"seconds_per_turn": 30})
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, color_scheme="dark"
    )
    page = context.new_page()
    page.clock.install()
    page.goto(f"{live_server}/sessions/{session_id}/clock")
    page.get_by_role("button", name="Start the clock: Mormor first").tap()
    mark = page.locator("#clock-mark")
    expect(mark).to_have_text("M")
    expect(mark).to_have_class("mark s1")
    page.get_by_role("button", name="Next player").tap()
    expect(mark).to_have_text("P")
    expect(mark).to_have_class("mark s2")
    page.clock.run_for(31_000)
    expect(page.locator("#clock")).to_have_class(re.compile(r"^(?=.*\bs2\b)(?=.*\bexpired\b)"))
    background = page.locator("#clock").evaluate("e => getComputedStyle(e).backgroundColor")
    assert _luminance(background) < 0.3, background
    context.close()
