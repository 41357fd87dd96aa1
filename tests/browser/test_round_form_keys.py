"""The round form on a real phone (issue #23, findings 5 and 8): Back to a form whose round was
saved types a new round, never one dropped as "saved"; and a round typed in place follows the
table when an earlier round is deleted, instead of being stuck on the old number."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from factories import add_round, new_session, stored_rounds, went_out
from phone import CHROMIUM, CHROMIUM_ARGS, phone_page
from playwright.sync_api import Browser, Page, Route, expect

PLAYERS = ["Ann", "Bo", "Cy"]
LIVE_WAIT = 8_000  # the poll comes every 1.25 s: a few of them


def type_round(page: Page, winner: str, racks: dict[str, str]) -> None:
    page.get_by_role("group", name="Who went out?").get_by_text(winner, exact=True).tap()
    for name, rack in racks.items():
        page.get_by_role("textbox", name=name, exact=True).fill(rack)


def key_of(page: Page) -> str:
    return page.locator("#round-form input[name=key]").input_value()


@pytest.fixture
def phone_with_back_cache(browser: Browser, live_server: str) -> Iterator[Page]:
    """A phone whose Chromium keeps pages in its back-forward cache, as phones do (Playwright
    turns that cache off by default: here it is left on)."""
    chromium = browser.browser_type.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    try:
        with phone_page(chromium) as page:
            yield page
    finally:
        chromium.close()


def test_back_to_a_saved_round_form_saves_the_next_round(
    phone_with_back_cache: Page, live_server: str
) -> None:
    """Back after a save shows the round form again: the round typed there is a new round
    (the page is fetched afresh, `Cache-Control: no-store`, with a new key)."""
    page = phone_with_back_cache
    session_id = new_session(live_server, PLAYERS, rounds=6)
    session_url = f"{live_server}/sessions/{session_id}"
    page.goto(session_url + "/rounds/new")
    page.evaluate("navigator.serviceWorker.ready")  # settled: nothing in flight at Back
    first_key = key_of(page)
    type_round(page, "Ann", {"Bo": "12", "Cy": "7"})
    page.get_by_role("button", name="Save round").tap()
    expect(page).to_have_url(session_url)
    expect(page.locator("table.scores tbody tr")).to_have_count(1)

    page.go_back(wait_until="commit")  # the round form again, as the phone shows it
    expect(page.get_by_role("button", name="Save round")).to_be_enabled()
    expect(page.locator("#round-form input[name=key]")).not_to_have_value(first_key)
    type_round(page, "Bo", {"Ann": "5", "Cy": "9"})
    page.get_by_role("button", name="Save round").tap()
    expect(page).to_have_url(session_url)
    expect(page.locator("table.scores tbody tr")).to_have_count(2)
    assert [r["winner"] for r in stored_rounds(live_server, session_id)] == ["Ann", "Bo"]


def test_a_form_kept_in_the_back_forward_cache_draws_a_new_key(
    phone_with_back_cache: Page, live_server: str
) -> None:
    """A browser that keeps the page in its back-forward cache anyway (the header stripped
    here, as a proxy or a browser keeping no-store pages might): the page shown again by Back
    draws a new key (`pageshow`, persisted), so the next round is not taken for the first."""
    page = phone_with_back_cache
    session_id = new_session(live_server, PLAYERS, rounds=6)
    session_url = f"{live_server}/sessions/{session_id}"

    def kept(route: Route) -> None:
        response = route.fetch()
        headers = {k: v for k, v in response.headers.items() if k.lower() != "cache-control"}
        route.fulfill(response=response, headers=headers)

    page.route("**/rounds/new", kept)
    page.goto(session_url + "/rounds/new")
    page.evaluate("navigator.serviceWorker.ready")
    page.evaluate("window.scorekeeperNotReloaded = true")  # gone if the page is loaded again
    first_key = key_of(page)
    type_round(page, "Ann", {"Bo": "12", "Cy": "7"})
    page.get_by_role("button", name="Save round").tap()
    expect(page).to_have_url(session_url)

    page.go_back(wait_until="commit")  # restored from the cache: no load event
    expect(page.get_by_role("button", name="Save round")).to_be_enabled()
    assert page.evaluate("window.scorekeeperNotReloaded === true")  # restored, not reloaded
    expect(page.locator("#round-form input[name=key]")).not_to_have_value(first_key)
    type_round(page, "Bo", {"Ann": "5", "Cy": "9"})
    page.get_by_role("button", name="Save round").tap()
    # The form still names round 1, saved since: the phone is asked, what was typed kept.
    expect(page.get_by_role("alert")).to_contain_text("Someone just saved round 1")
    expect(page.get_by_role("textbox", name="Cy", exact=True)).to_have_value("9")
    assert len(stored_rounds(live_server, session_id)) == 1
    page.get_by_role("button", name="Save round").tap()
    expect(page).to_have_url(session_url)
    assert [r["winner"] for r in stored_rounds(live_server, session_id)] == ["Ann", "Bo"]


def test_a_round_typed_in_place_follows_a_delete_before_it(page: Page, live_server: str) -> None:
    session_id = new_session(live_server, PLAYERS, rounds=6)
    for winner, racks in (("Ann", {"Bo": 10, "Cy": 20}), ("Bo", {"Ann": 3, "Cy": 4})):
        add_round(live_server, session_id, went_out(winner, **racks))
    page.goto(f"{live_server}/sessions/{session_id}")
    page.get_by_role("region", name="Who went out?").get_by_role("link", name="Cy").tap()
    expect(page.locator("#entry input[name=number]")).to_have_value("3")
    page.get_by_role("textbox", name="Ann", exact=True).fill("8")

    gone = page.request.delete(f"{live_server}/api/v1/sessions/{session_id}/rounds/1")
    assert gone.status == 204  # another phone deletes round 1
    expect(page.locator("#entry input[name=number]")).to_have_value("2", timeout=LIVE_WAIT)
    expect(page.get_by_role("textbox", name="Ann", exact=True)).to_have_value("8")
    page.get_by_role("textbox", name="Bo", exact=True).fill("6")
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 2 saved.")).to_be_visible()
    # Saved in place, not as a page: the round closed (the next one's form kept ready, hidden).
    expect(page.locator("#entry")).to_be_hidden()
    expect(page).to_have_url(f"{live_server}/sessions/{session_id}")
    rounds = stored_rounds(live_server, session_id)
    assert [(r["number"], r["winner"]) for r in rounds] == [(1, "Bo"), (2, "Cy")]
