"""The household passphrase on a phone: set it in the app, be asked for it, sign in."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

PASSPHRASE = "tiles on the table"


def test_set_a_passphrase_then_sign_in(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    expect(page.get_by_text("Anyone on this network can use Scorekeeper.")).to_be_visible()
    page.get_by_role("link", name="Set a household passphrase").tap()
    expect(page.get_by_role("heading", name="Household passphrase", exact=True)).to_be_visible()

    page.get_by_label("New passphrase").fill(PASSPHRASE)
    page.get_by_label("The same passphrase again").fill(PASSPHRASE)
    page.get_by_role("button", name="Set the passphrase").tap()

    # Locked now: the sign-in page, and the home page sends back to it.
    expect(page).to_have_url(re.compile(r"/sign-in$"))
    expect(page.get_by_text("The household passphrase is set.")).to_be_visible()
    page.goto(live_server + "/sessions/new")
    expect(page).to_have_url(re.compile(r"/sign-in\?next="))
    expect(page.get_by_role("heading", name="Sign in", exact=True)).to_be_visible()
    expect(page.get_by_label("Remember this phone")).to_be_checked()

    page.get_by_label("Household passphrase", exact=True).fill("not the passphrase")
    page.get_by_role("button", name="Sign in").tap()
    expect(page.get_by_text("That is not the household passphrase.")).to_be_visible()

    page.get_by_label("Household passphrase", exact=True).fill(PASSPHRASE)
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/sessions/new$"))
    cookie = next(c for c in page.context.cookies() if c["name"] == "scorekeeper_access")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert cookie["expires"] > 0  # remembered: not a browser-session cookie

    page.get_by_role("link", name="Scorekeeper", exact=True).tap()
    expect(page.get_by_role("link", name="New session")).to_be_visible()
    expect(page.get_by_text("Anyone on this network can use Scorekeeper.")).to_have_count(0)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]

    page.locator("#household-menu > summary").tap()  # the header's key menu
    page.get_by_role("button", name="Sign out").tap()
    expect(page).to_have_url(re.compile(r"/sign-in$"))
    page.goto(live_server + "/")
    expect(page).to_have_url(re.compile(r"/sign-in\?next="))
