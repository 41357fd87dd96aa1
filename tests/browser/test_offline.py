"""A Wi-Fi blip at the table: a round typed offline is kept on the phone and sent once.

Chromium goes offline with Playwright's `context.set_offline`; what the server holds is read
over the JSON API with plain urllib (another client, not the phone), so the phone's own cache
or queue can never make a round look stored when it is not.
"""

from __future__ import annotations

import re
from typing import Any

from factories import add_round, new_session, stored_rounds, went_out
from playwright.sync_api import Page, expect

THREE = ["Ann", "Bo", "Cy"]
QUEUE = "scorekeeper.offline-rounds"
SAVED = "Saved on this phone; it will be sent when the network is back"


def kept_on_phone(page: Page) -> list[dict[str, Any]]:
    return page.evaluate(f"JSON.parse(localStorage.getItem('{QUEUE}') || '[]')")


def type_went_out(page: Page, winner: str, racks: dict[str, str]) -> None:
    page.get_by_role("group", name="Who went out?").get_by_text(winner, exact=True).tap()
    for name, rack in racks.items():
        page.get_by_role("textbox", name=name, exact=True).fill(rack)


def test_a_round_typed_offline_is_kept_and_sent_once(page: Page, live_server: str) -> None:
    session_id = new_session(live_server, THREE, rounds=3)
    session_url = f"{live_server}/sessions/{session_id}"
    page.goto(session_url + "/rounds/new")
    expect(page.get_by_role("heading", name="Round 1 of 3")).to_be_visible()

    page.context.set_offline(True)
    type_went_out(page, "Ann", {"Bo": "12", "Cy": "7"})
    page.get_by_role("button", name="Save round").tap()

    expect(page.locator("#offline-notice")).to_contain_text(SAVED)
    expect(page).to_have_url(re.compile(r"/rounds/new$"))  # still the form, still typed
    expect(page.get_by_role("textbox", name="Bo", exact=True)).to_have_value("12")
    assert stored_rounds(live_server, session_id) == []
    kept = kept_on_phone(page)
    assert len(kept) == 1
    assert dict(kept[0]["fields"])["rack_1"] == "12"

    # A second tap on Save, still offline: the same round, kept once (its key is the same).
    expect(page.get_by_role("button", name="Save round")).to_be_enabled()
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator("#offline-notice")).to_contain_text(SAVED)
    assert len(kept_on_phone(page)) == 1
    assert stored_rounds(live_server, session_id) == []

    page.context.set_offline(False)
    expect(page).to_have_url(session_url)
    expect(page.locator("table.scores tbody tr")).to_have_count(1)
    expect(page.locator("table.scores tbody tr").first).to_contain_text("+19")
    rounds = stored_rounds(live_server, session_id)
    assert len(rounds) == 1
    assert rounds[0]["scores"] == {"Ann": 19, "Bo": -12, "Cy": -7}
    assert kept_on_phone(page) == []

    # A reload sends nothing again; the very same form posted again is the same round.
    page.reload()
    expect(page.locator("table.scores tbody tr")).to_have_count(1)
    fields = dict(kept[0]["fields"])
    replay = page.request.post(live_server + kept[0]["url"], form=fields)
    assert replay.ok and replay.url.endswith(f"/sessions/{session_id}")
    assert len(stored_rounds(live_server, session_id)) == 1


def test_a_round_is_kept_when_the_server_does_not_answer(
    page_without_worker: Page, live_server: str
) -> None:
    """Wi-Fi "connected" but no way through: the phone says online, the server is silent."""
    page = page_without_worker
    session_id = new_session(live_server, THREE, rounds=3)
    page.goto(f"{live_server}/sessions/{session_id}/rounds/new")
    page.route("**/healthz", lambda route: route.abort("internetdisconnected"))
    type_went_out(page, "Bo", {"Ann": "5", "Cy": "10"})
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator("#offline-notice")).to_contain_text(SAVED)
    assert stored_rounds(live_server, session_id) == []

    page.unroute("**/healthz")
    page.reload()  # the kept round is sent when a round form opens
    expect(page).to_have_url(f"{live_server}/sessions/{session_id}")
    rounds = stored_rounds(live_server, session_id)
    assert [r["scores"] for r in rounds] == [{"Ann": -5, "Bo": 15, "Cy": -10}]


def test_a_kept_round_the_server_refuses_comes_back_on_the_form(
    page: Page, live_server: str
) -> None:
    """Another phone saved round 1 meanwhile: the kept round is not stored twice as round 1,
    and what was typed comes back with the server's reason, to check and save again."""
    session_id = new_session(live_server, THREE, rounds=3)
    page.goto(f"{live_server}/sessions/{session_id}/rounds/new")
    page.context.set_offline(True)
    type_went_out(page, "Cy", {"Ann": "3", "Bo": "4"})
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator("#offline-notice")).to_contain_text(SAVED)

    add_round(live_server, session_id, went_out("Ann", Bo=10, Cy=20))
    page.context.set_offline(False)

    notice = page.locator("#offline-notice")
    expect(notice).to_contain_text("was not saved")
    expect(notice).to_contain_text("Someone just saved round 1")
    expect(page.get_by_role("textbox", name="Ann", exact=True)).to_have_value("3")
    expect(page.get_by_role("textbox", name="Bo", exact=True)).to_have_value("4")
    assert len(stored_rounds(live_server, session_id)) == 1

    page.get_by_role("button", name="Save round").tap()  # the form now names round 2
    expect(page).to_have_url(f"{live_server}/sessions/{session_id}")
    rounds = stored_rounds(live_server, session_id)
    assert [r["winner"] for r in rounds] == ["Ann", "Cy"]
    assert kept_on_phone(page) == []


def test_an_open_session_survives_a_wifi_blip(page: Page, live_server: str) -> None:
    """The service worker keeps the last good copy of a page: a reload offline still shows it,
    and a page never opened says so instead of the browser's error."""
    session_id = new_session(live_server, THREE, rounds=3)
    add_round(live_server, session_id, went_out("Ann", Bo=10, Cy=20))
    session_url = f"{live_server}/sessions/{session_id}"
    page.goto(session_url)
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()  # now under the worker's control, which keeps this copy
    assert page.evaluate("!!navigator.serviceWorker.controller")

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("table.scores tbody tr")).to_have_count(1)
    expect(page.locator("table.scores tbody tr").first).to_contain_text("+30")

    page.goto(f"{live_server}/sessions/{session_id}/clock")
    expect(page.get_by_role("heading", name="No network")).to_be_visible()
    page.context.set_offline(False)


def test_a_save_in_place_goes_straight_to_the_server(page: Page, live_server: str) -> None:
    """The worker's static route (templates/pwa/sw.js): a round saved in place, and the poll,
    go to the network without waking the worker; its own files still come through it."""
    session_id = new_session(live_server, THREE, rounds=3)
    session_url = f"{live_server}/sessions/{session_id}"
    page.goto(session_url)
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    assert page.evaluate("!!navigator.serviceWorker.controller")

    page.get_by_role("region", name="Who went out?").get_by_role("link", name="Ann").tap()
    expect(page.get_by_role("textbox", name="Bo", exact=True)).to_be_focused()
    page.keyboard.type("10")
    page.keyboard.press("Enter")
    page.keyboard.type("20")
    page.keyboard.press("Enter")
    expect(page.locator("#undo-what")).to_have_text("Round 1 saved.")
    page.wait_for_function(  # the poll after the save, with the save's POST in the list
        "() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/table'))"
    )
    routed = page.evaluate(
        """() => Object.fromEntries(performance.getEntriesByType("resource").map((e) =>
             [new URL(e.name).pathname, e.workerMatchedSourceType]))"""
    )
    assert routed[f"/sessions/{session_id}/rounds/new"] == "network"
    assert routed[f"/sessions/{session_id}/table"] == "network"
    scripts = [path for path in routed if path.startswith("/static/")]
    assert scripts and all(routed[path] == "" for path in scripts)
