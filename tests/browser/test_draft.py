"""Nothing typed is lost by leaving the page: a round typed in place on the session page is kept
on the phone as a draft of its session (static/draft.js) until it is saved or closed, and comes
back after a reload, Back from the table checker or a closed tab; a draft the table has moved
past comes back with the reason. What the server holds is read over the JSON API."""

from __future__ import annotations

import pytest
from factories import add_round, new_session, stored_rounds, went_out
from phone import starting_with
from playwright.sync_api import BrowserContext, Page, Route, expect

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
DRAFTS = "scorekeeper.drafts"
ROUND_1 = went_out("Ann", Bo=22, Cy=55, Di=8)


def round_1_played(live_server: str, rounds: int = 3) -> int:
    """A session of four with round 1 played."""
    session_id = new_session(live_server, PLAYERS, rounds=rounds)
    add_round(live_server, session_id, ROUND_1)
    return session_id


def expect_no_draft(page: Page) -> None:
    """The phone keeps no draft, once the frame that shows the saved or closed round has gone
    (static/draft.js forgets it then): fails if it is still kept after the wait."""
    page.wait_for_function(
        f"() => Object.keys(JSON.parse(localStorage.getItem('{DRAFTS}') || '{{}}')).length === 0"
    )


def type_round_2(page: Page) -> None:
    """Cy went out; Ann's and Bo's racks typed, Di's not yet."""
    page.get_by_role("region", name="Who went out?").get_by_role("link", name="Cy").tap()
    expect(page.locator("#entry #round-form")).to_be_visible()
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    page.keyboard.type("7")
    expect(page.get_by_role("textbox", name="Bo", exact=True)).to_have_value("7")


def round_2_typed(page: Page, live_server: str) -> tuple[int, str]:
    """A new session's page open and its round 2 typed in place: the session and its address."""
    session_id = round_1_played(live_server)
    url = f"{live_server}/sessions/{session_id}"
    page.goto(url)
    type_round_2(page)
    return session_id, url


def round_2_typed_and_tab_closed(page: Page, live_server: str) -> tuple[int, str, BrowserContext]:
    """Round 2 typed, then the tab closed: the session, its page's address, and the phone's
    browser (its storage kept) to open the page again."""
    session_id, url = round_2_typed(page, live_server)
    context = page.context
    page.close()
    return session_id, url, context


def expect_round_2_typed(page: Page, number: str = "2", di: str = "") -> None:
    """The round open in place as typed, as round `number` (the form carries it; the page
    says it)."""
    expect(page.locator("#entry")).to_be_visible()
    expect(page.locator("#entry input[name=number]")).to_have_value(number)
    expect(page.get_by_role("radio", name="Cy")).to_be_checked()
    expect(page.get_by_role("textbox", name="Ann", exact=True)).to_have_value("12")
    expect(page.get_by_role("textbox", name="Bo", exact=True)).to_have_value("7")
    expect(page.get_by_role("textbox", name="Di", exact=True)).to_have_value(di)


def test_a_reload_brings_the_round_back_as_typed_and_a_save_forgets_it(
    page: Page, live_server: str
) -> None:
    session_id = round_1_played(live_server)
    url = f"{live_server}/sessions/{session_id}"
    page.goto(url)
    type_round_2(page)

    page.reload()
    expect_round_2_typed(page)
    expect(page.locator("#offline-notice")).to_have_text("Round 2 as you left it.")
    # Typing goes on where it stopped: Di's rack, then Enter saves.
    di = page.get_by_role("textbox", name="Di", exact=True)
    expect(di).to_be_focused()
    page.keyboard.type("9")
    page.keyboard.press("Enter")
    expect(page.get_by_text("Round 2 saved.")).to_be_visible()
    assert [r["scores"]["Cy"] for r in stored_rounds(live_server, session_id)] == [-55, 28]
    expect_no_draft(page)

    page.reload()  # nothing comes back once saved
    expect(page.locator("table.scores tbody tr")).to_have_count(2)
    expect(page.locator("#entry")).to_be_hidden()
    expect(page.locator("#entry")).to_be_hidden()


def test_back_from_the_table_checker_brings_the_round_back(page: Page, live_server: str) -> None:
    session_id = round_1_played(live_server)
    page.goto(f"{live_server}/sessions/{session_id}")
    type_round_2(page)
    # To count a rack's tiles, then Back (the last key's draft is kept as the page goes).
    page.get_by_role("link", name="Table checker").tap()
    expect(page.get_by_role("heading", name="Table checker")).to_be_visible()
    page.go_back()
    expect_round_2_typed(page)
    expect(page.locator("#offline-notice")).to_have_text("Round 2 as you left it.")


def test_a_round_closed_is_no_draft(page: Page, live_server: str) -> None:
    """Closing the round (Cancel; Escape does the same) forgets it."""
    session_id = round_1_played(live_server)
    page.goto(f"{live_server}/sessions/{session_id}")
    type_round_2(page)
    page.wait_for_function(f"() => localStorage.getItem('{DRAFTS}')")
    page.locator("#entry").get_by_role("button", name="Cancel").tap()
    expect(page.locator("#entry")).to_be_hidden()
    expect_no_draft(page)
    page.reload()
    expect(page.locator("#round-of")).to_have_text("Round 2 of 3")
    page.wait_for_function("() => window.ScorekeeperEntry")  # the entry and its drafts ran
    expect(page.locator("#entry")).to_be_hidden()
    expect(page.get_by_text("as you left it")).to_have_count(0)


def test_a_draft_saved_meanwhile_on_another_phone_comes_back_with_the_reason(
    page: Page, live_server: str
) -> None:
    """The tab is closed while round 2 is typed; another phone saves round 2; opened again, the
    draft is on round 3, saying why, and saved it is round 3, the other phone's untouched."""
    session_id, url, context = round_2_typed_and_tab_closed(page, live_server)

    add_round(
        live_server,
        session_id,
        went_out("Bo", Ann=5, Cy=6, Di=9),
    )
    page = context.new_page()
    page.goto(url)
    expect(page.locator("#offline-notice")).to_have_text(
        "Round 2 was saved on another phone meanwhile; your draft is below to compare."
    )
    expect_round_2_typed(page, "3")
    expect(page.locator("table.scores tbody tr")).to_have_count(2)
    page.get_by_role("textbox", name="Di", exact=True).fill("4")
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 3 saved.")).to_be_visible()
    rounds = stored_rounds(live_server, session_id)
    assert [r["winner"] for r in rounds] == ["Ann", "Bo", "Cy"]
    assert rounds[2]["scores"] == {"Ann": -12, "Bo": -7, "Cy": 23, "Di": -4}
    expect_no_draft(page)


def test_a_draft_after_rounds_were_deleted_says_its_new_number(
    page: Page, live_server: str
) -> None:
    """The tab closed while round 2 was typed; round 1 deleted on another phone meanwhile (an
    open page follows a delete by itself: static/live.js)."""
    session_id, url, context = round_2_typed_and_tab_closed(page, live_server)
    deleted = context.request.delete(f"{live_server}/api/v1/sessions/{session_id}/rounds/1")
    assert deleted.ok, deleted.text()
    page = context.new_page()
    page.goto(url)
    expect(page.locator("#offline-notice")).to_have_text(
        "Rounds were deleted meanwhile, so your draft is round 1 now: "
        "check the table before saving."
    )
    expect_round_2_typed(page, "1")


def test_a_save_on_its_way_when_the_tab_closed_is_never_stored_twice(
    page_without_worker: Page, live_server: str
) -> None:
    """The Save reached the server but the tab was closed before its answer came (a slow
    Wi-Fi): the draft comes back saying its round is in the table, and saved again it is that
    same round (the draft's key), not a second one."""
    page = page_without_worker
    session_id, url = round_2_typed(page, live_server)
    page.get_by_role("textbox", name="Di", exact=True).fill("9")
    landed: list[int] = []

    def lost_answer(route: Route) -> None:
        landed.append(route.fetch().status)  # stored; the answer never reaches the page

    page.route("**/rounds/new?*", lost_answer)
    page.get_by_role("button", name="Save round").tap()
    while not landed:  # the handler runs while Playwright waits (a guard, not a measure)
        page.wait_for_timeout(50)
    assert landed == [200]
    assert len(stored_rounds(live_server, session_id)) == 2
    context = page.context
    page.close()

    page = context.new_page()
    page.goto(url)
    expect(page.locator("#offline-notice")).to_have_text(
        "Round 2 is in the table now; your draft is below to compare."
    )
    expect_round_2_typed(page, "3", di="9")
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator("#entry")).to_be_hidden()
    expect(page.locator("table.scores tbody tr")).to_have_count(2)
    assert [r["winner"] for r in stored_rounds(live_server, session_id)] == ["Ann", "Cy"]
    expect_no_draft(page)
    expect(page.locator("table.scores tbody tr").nth(1).locator("td")).to_have_text(
        starting_with("-12", "-7", "+28", "-9")
    )


@pytest.mark.parametrize("how", ["offline", "no answer"])
def test_a_round_kept_offline_is_the_offline_keepers_not_a_draft(
    page_without_worker: Page, live_server: str, how: str
) -> None:
    """Saved with no network (the phone knows it is offline, or the Save gets no answer): the
    round is kept and sent by offline.js as before, and once it is sent no draft of it comes
    back."""
    page = page_without_worker
    session_id, url = round_2_typed(page, live_server)
    page.get_by_role("textbox", name="Di", exact=True).fill("9")
    if how == "offline":
        page.context.set_offline(True)
    else:
        page.route("**/rounds/new?*", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator("#offline-notice")).to_contain_text("Saved on this phone")
    page.unroute_all()
    page.context.set_offline(True)
    page.context.set_offline(False)  # the network back: offline.js sends the round

    expect(page.locator("table.scores tbody tr")).to_have_count(2)
    expect(page).to_have_url(url)
    assert [r["winner"] for r in stored_rounds(live_server, session_id)] == ["Ann", "Cy"]
    expect_no_draft(page)  # so the page has nothing to bring back (static/live.js)
    expect(page.locator("#entry")).to_be_hidden()
