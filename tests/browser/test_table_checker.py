"""The table checker in a phone-sized Chromium: `J r12 r13` is a run worth 36, `r12 r13 r1` is
invalid and then valid with run wrap on (the toggle, and a session's rules), and a joker swap
answer carries the reminder; with JavaScript the answers come without a reload, and without
it the same forms POST to the page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from factories import new_session
from phone import PHONE, phone_page
from playwright.sync_api import Browser, Page, expect

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
REMINDER = "Play the freed joker this turn: it may never end on a rack."


def watch(page: Page) -> list[str]:
    """Script errors and console errors (a CSP refusal shows up here); a 422 answer of the API
    or the missing favicon is logged as a failed resource, which is expected."""
    problems: list[str] = []

    def on_console(message: Any) -> None:
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            problems.append(message.text)

    page.on("console", on_console)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def check_sets(page: Page, sets: str) -> None:
    page.get_by_role("textbox", name="Sets, one per line").fill(sets)
    page.locator("#check-set").get_by_role("button", name="Check").tap()


def test_set_check_answers_at_once_and_run_wrap_toggle(page: Page, live_server: str) -> None:
    problems = watch(page)
    page.goto(f"{live_server}/")
    page.get_by_role("link", name="Table checker").tap()
    expect(page).to_have_url(f"{live_server}/tools/check")
    expect(page.get_by_role("heading", name="Table checker")).to_be_visible()
    page.evaluate("window.notReloaded = true")
    verdict = page.locator("#set-verdict")

    check_sets(page, "J r12 r13")
    expect(verdict).to_contain_text("Valid — a run worth 36 points.")
    expect(verdict.locator(".readings li")).to_have_text(["Run r11 r12 r13 · 36 points"])

    check_sets(page, "r12 r13 r1")
    expect(verdict).to_contain_text("Not valid — red 12, red 13, red 1 needs the run wrap setting")
    assert page.evaluate("window.notReloaded") is True  # answered through the API

    # Run wrap on: the shown verdict is asked again at once, and the address keeps the rules.
    page.get_by_text("Rules: Standard").tap()
    page.get_by_role("checkbox", name="Run wrap (1 after 13)").check()
    expect(verdict).to_contain_text("Valid — a run worth 26 points.")
    expect(verdict.locator(".readings li")).to_have_text(["Run r12 r13 r1 · 26 points"])
    expect(page).to_have_url(re.compile(r"run_wrap=y"))
    expect(page.locator("#apply-rules")).to_be_hidden()
    assert page.evaluate("window.notReloaded") is True

    # The address reloads with the same rules (the forms post to it too).
    page.reload()
    expect(page.get_by_role("checkbox", name="Run wrap (1 after 13)")).to_be_checked()
    check_sets(page, "r12 r13 r1\nJ J b5")
    expect(verdict.locator(".verdict")).to_have_count(2)
    expect(verdict.locator(".verdict").nth(1)).to_contain_text(
        "Valid — 4 readings; the highest is worth 18 points."
    )

    # A bad tile is named, and typing nothing asks for a set.
    check_sets(page, "x9 r1 r2")
    expect(verdict).to_contain_text("Cannot check — “x9” is not a tile")
    check_sets(page, "")
    expect(page.locator("#sets-error")).to_have_text("Type a set, like r5 b5 j.")
    expect(page.get_by_role("textbox", name="Sets, one per line")).to_have_attribute(
        "aria-invalid", "true"
    )
    assert problems == []


def test_session_with_run_wrap_and_the_joker_swap(page: Page, live_server: str) -> None:
    problems = watch(page)
    session_id = new_session(live_server, PLAYERS, name="Wrap night", rules={"run_wrap": True})
    page.goto(f"{live_server}/sessions/{session_id}")
    page.get_by_role("link", name="Table checker").tap()
    expect(page).to_have_url(f"{live_server}/tools/check?session={session_id}")
    expect(page.get_by_text("Rules of Wrap night")).to_be_visible()
    expect(page.get_by_role("link", name="← Wrap night")).to_be_visible()

    check_sets(page, "r12 r13 r1")
    expect(page.locator("#set-verdict")).to_contain_text("Valid — a run worth 26 points.")

    swap = page.locator("#check-swap")
    swap.get_by_role("textbox", name="Set on the table").fill("b3 b4 J")
    swap.get_by_role("textbox", name="Tile from the rack").fill("b5")
    swap.get_by_role("button", name="Check the swap").tap()
    verdict = page.locator("#swap-verdict")
    expect(verdict).to_contain_text("Allowed — b5 may take the joker's place.")
    expect(verdict.locator(".reminder")).to_have_text(REMINDER)

    swap.get_by_role("textbox", name="Tile from the rack").fill("b6")
    swap.get_by_role("button", name="Check the swap").tap()
    expect(verdict).to_contain_text(
        "Not allowed — The joker here stands for blue 2 or blue 5; blue 6 cannot replace it."
    )
    expect(verdict.locator(".reminder")).to_have_count(0)

    meld = page.locator("#check-meld")
    meld.get_by_role("textbox", name="Sets from one rack, one per line").fill("r10 b10 J\nk1 k2 k3")
    meld.get_by_role("button", name="Check the meld").tap()
    expect(page.locator("#meld-verdict")).to_contain_text(
        "Makes the initial meld — 36 points; the minimum is 30."
    )
    assert problems == []


def test_phone_layout_targets_and_no_sideways_scroll(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/tools/check")
    page.get_by_text("Rules: Standard").tap()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    for control in page.locator(
        "#checker button:visible, #checker input:visible, #checker select:visible, "
        "#checker textarea:visible, #checker summary"
    ).all():
        # A checkbox is tapped through its row (the label is part of the target).
        height = control.evaluate(
            "e => (e.type === 'checkbox' ? e.closest('.check') : e).getBoundingClientRect().height"
        )
        assert height >= 44, control.evaluate("e => e.outerHTML")


@pytest.fixture
def no_script_page(browser: Browser) -> Iterator[Page]:
    with phone_page(browser, is_mobile=False, java_script_enabled=False) as page:
        yield page


def test_without_javascript_the_forms_post(no_script_page: Page, live_server: str) -> None:
    page = no_script_page
    page.goto(f"{live_server}/tools/check")
    check_sets(page, "J r12 r13")
    expect(page.locator("#set-verdict")).to_contain_text("Valid — a run worth 36 points.")
    check_sets(page, "r12 r13 r1")
    expect(page.locator("#set-verdict")).to_contain_text("Not valid")

    # The rules form is a GET: tick run wrap and use the rules.
    page.get_by_text("Rules: Standard").tap()
    page.get_by_role("checkbox", name="Run wrap (1 after 13)").check()
    page.get_by_role("button", name="Use these rules").tap()
    expect(page).to_have_url(re.compile(r"run_wrap=y"))
    check_sets(page, "r12 r13 r1")
    expect(page.locator("#set-verdict")).to_contain_text("Valid — a run worth 26 points.")

    swap = page.locator("#check-swap")
    swap.get_by_role("textbox", name="Set on the table").fill("r5 b5 J")
    swap.get_by_role("textbox", name="Tile from the rack").fill("o5")
    swap.get_by_role("button", name="Check the swap").tap()
    expect(page).to_have_url(re.compile(r"run_wrap=y.*#check-swap$"))
    expect(page.locator("#swap-verdict .reminder")).to_have_text(REMINDER)


def test_keypad_enters_sets_and_the_swap_tile(page: Page, live_server: str) -> None:
    problems = watch(page)
    page.goto(f"{live_server}/tools/check")
    field = page.get_by_role("textbox", name="Sets, one per line")
    toggle = page.get_by_role("button", name="Keypad for Sets, one per line")
    toggle.tap()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    keypad = page.locator("#checker-keypad")
    expect(keypad.locator(".key")).to_have_count(53)

    def tap(*names: str) -> None:
        for name in names:
            keypad.get_by_role("button", name=name, exact=True).tap()

    tap("joker", "red 12", "red 13", "New set", "red 12", "red 13", "red 2")
    expect(field).to_have_value("j r12 r13\nr12 r13 r2")
    tap("⌫ Take the last off", "red 1")
    expect(field).to_have_value("j r12 r13\nr12 r13 r1")
    tap("Done")
    expect(keypad).to_be_hidden()
    expect(toggle).to_have_attribute("aria-expanded", "false")
    page.locator("#check-set").get_by_role("button", name="Check").tap()
    verdicts = page.locator("#set-verdict .verdict")
    expect(verdicts.nth(0)).to_contain_text("Valid — a run worth 36 points.")
    expect(verdicts.nth(1)).to_contain_text("Not valid")

    # The swap's tile field holds one tile: a tap replaces it.
    page.get_by_role("textbox", name="Set on the table").fill("b3 b4 j")
    page.get_by_role("button", name="Keypad for Tile from the rack").tap()
    tap("blue 6", "blue 5")
    expect(page.get_by_role("textbox", name="Tile from the rack")).to_have_value("b5")
    page.get_by_role("button", name="Check the swap").tap()
    expect(page.locator("#swap-verdict .reminder")).to_have_text(REMINDER)
    assert problems == []


def test_cards_session_keypad_and_readings_speak_cards(page: Page, live_server: str) -> None:
    session_id = new_session(live_server, PLAYERS, name="Cards", rules={"played_with": "cards"})
    page.goto(f"{live_server}/tools/check?session={session_id}")
    page.get_by_role("button", name="Keypad for Sets, one per line").tap()
    keypad = page.locator("#checker-keypad")
    for name in ("joker", "hearts Q", "hearts K"):
        keypad.get_by_role("button", name=name, exact=True).tap()
    expect(page.get_by_role("textbox", name="Sets, one per line")).to_have_value("j hQ hK")
    page.locator("#check-set").get_by_role("button", name="Check").tap()
    verdict = page.locator("#set-verdict")
    expect(verdict).to_contain_text("Valid — a run worth 36 points.")
    expect(verdict.locator(".readings li")).to_have_text(["Run hJ hQ hK · 36 points"])
    expect(page.locator("label[for=swap_tile]")).to_have_text("Card from the hand")
