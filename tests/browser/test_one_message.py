"""One message per problem, gone the moment it is fixed (issue #24, item 8), in Chromium at a
phone's size: a paper round that does not add up is said once (the server's refusal and the
live preview are one voice) and the red line goes as soon as the scores are fixed, without a
save; a rack that looks like a typo is asked in the numbers typed, with one tap that says yes
and saves the round when nothing else is missing. On the round page and in place."""

from __future__ import annotations

from factories import new_session, stored_rounds
from playwright.sync_api import Page, expect

PLAYERS = ["Mormor", "Peter", "Sofie", "Anders"]
WRONG = "Adds up to -12"
QUESTION = "Anders: 190 on the rack, more than 180. Right?"


def times_said(page: Page, words: str) -> int:
    """How many elements on screen say `words` in their own text."""
    return page.evaluate(
        """(words) => [...document.querySelectorAll("body *")].filter((e) =>
             e.checkVisibility() && [...e.childNodes].some((n) =>
               n.nodeType === Node.TEXT_NODE && n.textContent.includes(words))).length""",
        words,
    )


def fill(page: Page, values: dict[str, str]) -> None:
    for name, value in values.items():
        page.get_by_role("textbox", name=name, exact=True).fill(value)


def pick(page: Page, winner: str) -> None:
    page.get_by_role("group", name="Who went out?").get_by_text(winner, exact=True).tap()


def paper_round_said_once_and_gone_when_fixed(page: Page) -> None:
    fill(page, {"Mormor": "40", "Peter": "-10", "Sofie": "-18", "Anders": "-24"})
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator("[role=alert]")).to_contain_text(WRONG)  # the server's refusal
    assert times_said(page, WRONG) == 1
    assert times_said(page, "Adds up to") == 1
    page.get_by_role("textbox", name="Anders", exact=True).fill("-12")
    expect(page.get_by_text("Adds up to 0 ✓")).to_be_visible()
    assert times_said(page, WRONG) == 0
    assert times_said(page, "Adds up to") == 1


def test_a_paper_round_that_does_not_add_up_is_said_once_and_goes_when_fixed(
    page: Page, live_server: str
) -> None:
    session_id = new_session(live_server, PLAYERS, rounds=3)
    page.goto(f"{live_server}/sessions/{session_id}/rounds/new?ending=scores")
    paper_round_said_once_and_gone_when_fixed(page)
    page.get_by_role("button", name="Save round").tap()
    expect(page.locator("table.scores tbody tr")).to_have_count(1)


def test_in_place_too_a_paper_round_is_said_once_and_goes_when_fixed(
    page: Page, live_server: str
) -> None:
    session_id = new_session(live_server, PLAYERS, rounds=3)
    page.goto(f"{live_server}/sessions/{session_id}")
    page.get_by_role("link", name="Add round").tap()
    page.locator("#entry nav.tabs").get_by_role("link", name="Scores as on paper").tap()
    expect(page.locator("#entry nav.tabs a[aria-current=page]")).to_have_text("Scores as on paper")
    paper_round_said_once_and_gone_when_fixed(page)
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    assert len(stored_rounds(live_server, session_id)) == 1


def test_the_typo_question_speaks_of_the_rack_typed_and_one_tap_saves(
    page: Page, live_server: str
) -> None:
    """On the round page the server asks (after Save), once, in the family's numbers; a tap on
    "Yes, 190 is right" is the whole answer: the round is saved with the rack."""
    session_id = new_session(live_server, PLAYERS, rounds=3)
    page.goto(f"{live_server}/sessions/{session_id}/rounds/new")
    pick(page, "Peter")
    fill(page, {"Mormor": "12", "Sofie": "30", "Anders": "190"})
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text(QUESTION)).to_be_visible()
    assert times_said(page, "Anders:") == 1
    assert times_said(page, "below") == 0  # not "-190 is below -180"
    assert stored_rounds(live_server, session_id) == []
    page.get_by_text("Yes, 190 is right", exact=True).tap()
    expect(page.locator("table.scores tbody tr")).to_have_count(1)
    (saved,) = stored_rounds(live_server, session_id)
    assert saved["scores"]["Anders"] == -190 and saved["scores"]["Peter"] == 232


def test_in_place_the_question_comes_at_once_and_goes_when_fixed(
    page: Page, live_server: str
) -> None:
    """In place the question comes as the rack is typed, changes with it and goes when it is
    fixed; yes only ticks while a rack is missing, and saves at once when nothing is."""
    session_id = new_session(live_server, PLAYERS, rounds=3)
    page.goto(f"{live_server}/sessions/{session_id}")
    page.get_by_role("link", name="Add round").tap()
    pick(page, "Peter")
    fill(page, {"Anders": "190"})
    expect(page.get_by_text(QUESTION)).to_be_visible()
    assert times_said(page, "Anders:") == 1
    fill(page, {"Anders": "19"})
    expect(page.get_by_text("Anders:")).to_be_hidden()
    expect(page.locator("#typo-confirm")).to_be_hidden()
    fill(page, {"Anders": "250"})
    expect(page.get_by_text("Anders: 250 on the rack, more than 180. Right?")).to_be_visible()
    yes = page.get_by_text("Yes, 250 is right", exact=True)
    yes.tap()  # Mormor's and Sofie's racks are still blank: ticked, not saved
    expect(page.locator("#confirm")).to_be_checked()
    assert stored_rounds(live_server, session_id) == []
    fill(page, {"Anders": "190"})
    expect(page.get_by_text("Yes, 190 is right", exact=True)).to_be_visible()
    page.get_by_text("Yes, 190 is right", exact=True).tap()  # untick: not yet
    expect(page.locator("#confirm")).not_to_be_checked()
    fill(page, {"Mormor": "12", "Sofie": "30"})
    page.get_by_text("Yes, 190 is right", exact=True).tap()  # the last thing missing: saved
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    (saved,) = stored_rounds(live_server, session_id)
    assert saved["scores"]["Anders"] == -190 and saved["scores"]["Peter"] == 232
