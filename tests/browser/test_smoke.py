"""The home page in a phone-sized Chromium: it loads, says what it is, fits the screen."""

from __future__ import annotations


def test_home_page_fits_a_phone(page, live_server: str) -> None:
    page.goto(live_server + "/")
    assert "Scorekeeper" in page.title() + page.inner_text("body")
    # Compare with the viewport Playwright set: on a mobile page Chromium widens innerWidth
    # to fit whatever sticks out, so innerWidth cannot show an overflow.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
