"""An evening of Rummikub recorded on a phone in Chromium, the way a family member does it.

Creates a session, records a round in each of the three ways (who went out, the pool ran out,
scores as on paper), edits a round, downloads the CSV, and checks that nothing scrolls sideways;
a last test counts the taps and keys of the hot path (a went-out round with two-digit racks).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from contract import LONG_NAMES
from factories import stored_rounds
from phone import PHONE, Thumb, round_cells, starting_with
from playwright.sync_api import Browser, Locator, Page, expect

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
SESSION_URL = re.compile(r"/sessions/(\d+)$")


def start_session(page: Page, live_server: str, players: list[str], tile_sets: int = 1) -> int:
    """Fill /sessions/new with the default settings (3 rounds) and land on the score table."""
    page.goto(live_server + "/sessions/new")
    for seat, name in enumerate(players, start=1):
        page.get_by_label(f"Player {seat}", exact=True).fill(name)
    expect(page.get_by_label("Rounds", exact=True)).to_have_value("3")
    if tile_sets != 1:
        page.get_by_label("Number of tile sets").select_option(str(tile_sets))
    page.get_by_role("button", name="Start the session").tap()
    expect(page).to_have_url(SESSION_URL)
    expect(page.locator("#round-of")).to_have_text("Round 1 of 3")
    match = SESSION_URL.search(page.url)
    assert match is not None
    return int(match.group(1))


def seat_field(page: Page, name: str) -> Locator:
    """A player's rack (or paper score) field, labelled with their name."""
    return page.get_by_role("textbox", name=name, exact=True)


def winner_button(page: Page, name: str) -> Locator:
    """The big name button under "Who went out?" (the radio itself is visually hidden)."""
    return page.get_by_role("group", name="Who went out?").get_by_text(name, exact=True)


def totals(page: Page) -> Locator:
    return page.locator("table.scores tfoot b")


def horizontal_overflow(page: Page) -> int:
    """How many CSS pixels the page is wider than the screen (0 or less: no sideways scroll).

    A mobile browser widens the layout viewport to fit content that overflows, so
    `window.innerWidth` grows with the page and `scrollWidth <= innerWidth` would always hold;
    the screen's width is the emulated viewport's, which stays put.
    """
    screen = page.viewport_size
    assert screen is not None
    return page.evaluate("document.documentElement.scrollWidth") - screen["width"]


def test_an_evening_on_a_phone(page: Page, live_server: str) -> None:
    session_id = start_session(page, live_server, PLAYERS)
    expect(page.get_by_text("No rounds yet.")).to_be_visible()

    # Round 1: Ann went out; the others' racks typed on the keypad, Enter moving on.
    thumb = Thumb(page)
    thumb.tap(page.get_by_role("link", name="Add round"))
    expect(page.locator("#entry input[name=number]")).to_have_value("1")
    thumb.tap(winner_button(page, "Ann"))
    expect(page.get_by_role("radio", name="Ann")).to_be_checked()
    expect(seat_field(page, "Ann")).to_be_hidden()
    expect(seat_field(page, "Bo")).to_be_focused()
    # Enter's key says "next" up to the last rack shown, "done" there (round.js: the page has
    # no hint, for without JavaScript Enter saves).
    expect(seat_field(page, "Bo")).to_have_attribute("enterkeyhint", "next")
    expect(seat_field(page, "Di")).to_have_attribute("enterkeyhint", "done")
    thumb.type("22")
    thumb.press("Enter")
    expect(seat_field(page, "Cy")).to_be_focused()
    thumb.type("55")
    thumb.press("Enter")
    expect(seat_field(page, "Di")).to_be_focused()
    thumb.type("8")
    expect(page.locator("#preview")).to_have_text("Ann +85: adds up to 0.")
    expect(page.locator("output[data-preview-seat='0']")).to_have_text("+85")
    thumb.press("Enter")  # the last Enter saves
    expect(page).to_have_url(SESSION_URL)
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    expect(round_cells(page, 1)).to_have_text(starting_with("+85", "-22", "-55", "-8"))
    expect(page.locator("#round-of")).to_have_text("Round 2 of 3")

    # Round 2: the pool ran out; the lowest rack (Di's 8) takes the differences.
    page.get_by_role("link", name="Add round").tap()
    expect(page.locator("#entry nav.tabs")).to_be_visible()  # the round opens in place
    page.get_by_role("link", name="The pool ran out").tap()
    expect(page.get_by_role("link", name="The pool ran out")).to_have_attribute(
        "aria-current", "page"
    )
    for name, rack in zip(PLAYERS, ["10", "22", "55", "8"], strict=True):
        seat_field(page, name).fill(rack)
    expect(page.locator("#preview")).to_have_text("Di takes the round: +63.")
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 2 saved.")).to_be_visible()
    expect(round_cells(page, 2)).to_have_text(starting_with("-2", "-14", "-47", "+63"))

    # Round 3: the Polish sheet's line as printed does not add up to zero.
    page.get_by_role("link", name="Add round").tap()
    expect(page.locator("#entry nav.tabs")).to_be_visible()  # the round opens in place
    page.get_by_role("link", name="Scores as on paper").tap()
    expect(page.get_by_role("link", name="Scores as on paper")).to_have_attribute(
        "aria-current", "page"
    )
    misprinted = {"Ann": "+6", "Bo": "-11", "Cy": "+22", "Di": "-5"}
    for name, score in misprinted.items():
        seat_field(page, name).fill(score)
    expect(page.locator("#preview")).to_have_text("Adds up to +12: someone counted a rack wrong.")
    page.get_by_role("button", name="Save round").tap()
    refusal = page.get_by_role("group", name="Enter scores as on paper").get_by_role("alert")
    expect(refusal).to_contain_text("Adds up to +12")
    expect(page.locator("#entry input[name=number]")).to_have_value("3")
    for name, score in misprinted.items():
        expect(seat_field(page, name)).to_have_value(score)
    assert len(stored_rounds(live_server, session_id)) == 2
    seat_field(page, "Ann").fill("-6")
    expect(page.locator("#preview")).to_have_text("Adds up to 0 ✓")
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 3 saved.")).to_be_visible()
    expect(round_cells(page, 3)).to_have_text(starting_with("-6", "-11", "+22", "-5"))

    # All three agreed rounds played: the totals and the winner.
    expect(totals(page)).to_have_text(["+77", "-47", "-80", "+50"])
    expect(page.locator("#round-of")).to_have_text("All 3 rounds played")
    expect(page.get_by_text("Ann wins!")).to_be_visible()
    expect(page.locator("table.scores thead th.leader")).to_have_text(re.compile(r"Ann"))
    expect(page.get_by_role("link", name="Add round")).to_have_count(0)

    # Edit round 1: Bo had 22 left, not 30.
    page.get_by_role("link", name="Edit round 1", exact=True).tap()
    expect(page.get_by_role("heading", name="Edit round 1")).to_be_visible()
    expect(page.get_by_role("radio", name="Ann")).to_be_checked()
    expect(seat_field(page, "Bo")).to_have_value("22")
    seat_field(page, "Bo").fill("30")
    expect(page.locator("#preview")).to_have_text("Ann +93: adds up to 0.")
    page.get_by_role("button", name="Save changes").tap()
    expect(page.get_by_text("Round 1 changed.")).to_be_visible()
    expect(round_cells(page, 1)).to_have_text(starting_with("+93", "-30", "-55", "-8"))
    expect(totals(page)).to_have_text(["+85", "-55", "-80", "+50"])
    expect(page.get_by_text("Ann wins!")).to_be_visible()
    assert len(stored_rounds(live_server, session_id)) == 3

    # The CSV, byte for byte (under "More").
    page.locator("#notes-section > summary").tap()
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Table for a spreadsheet (CSV)").tap()
    download = download_info.value
    assert download.suggested_filename.endswith(".csv")
    assert Path(download.path()).read_bytes() == (
        b"\xef\xbb\xbf"
        b"Round,Ann,Bo,Cy,Di\r\n"
        b"1,93,-30,-55,-8\r\n"
        b"2,-2,-14,-47,63\r\n"
        b"3,-6,-11,22,-5\r\n"
        b"Total,85,-55,-80,50\r\n"
    )

    # The table fits the 390 px screen.
    assert page.viewport_size == {"width": 390, "height": 844}
    assert horizontal_overflow(page) <= 0


def test_without_javascript_enter_in_a_name_starts_the_session(
    browser: Any, live_server: str
) -> None:
    """Without the script Enter in any field submits the form, as a plain form does; the
    script's moving on to the next name is tests/browser/test_every_phone.py's."""
    context = browser.new_context(viewport=PHONE, has_touch=True, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server + "/sessions/new")
        page.get_by_label("Player 1", exact=True).fill("Ann")
        page.get_by_label("Player 2", exact=True).fill("Bo")
        page.get_by_label("Player 1", exact=True).press("Enter")
        expect(page).to_have_url(SESSION_URL)
        expect(page.locator("table.scores thead")).to_contain_text("Bo")
    finally:
        context.close()


def test_six_long_names_fit_a_small_phone(page: Page, live_server: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    start_session(page, live_server, LONG_NAMES, tile_sets=2)
    assert horizontal_overflow(page) <= 0, "empty score table scrolls sideways"

    page.get_by_role("link", name="Add round").tap()
    expect(page.locator("#entry nav.tabs")).to_be_visible()  # the round opens in place
    expect(page.locator("#entry input[name=number]")).to_have_value("1")
    assert horizontal_overflow(page) <= 0, "went-out form scrolls sideways"
    winner_button(page, "Konstantinopoulos").tap()
    for name, rack in zip(LONG_NAMES, ["104", "87", "123", "9", "", "66"], strict=True):
        if rack:
            seat_field(page, name).fill(rack)
    expect(page.locator("output[data-preview-seat='4']")).to_have_text("+389")
    assert horizontal_overflow(page) <= 0, "went-out form with a preview scrolls sideways"
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    expect(round_cells(page, 1)).to_have_text(
        starting_with("-104", "-87", "-123", "-9", "+389", "-66")
    )
    assert horizontal_overflow(page) <= 0, "score table with a round scrolls sideways"

    page.get_by_role("link", name="Add round").tap()
    expect(page.locator("#entry nav.tabs")).to_be_visible()  # the round opens in place
    expect(page.locator("#entry input[name=number]")).to_have_value("2")
    for tab in ("The pool ran out", "Scores as on paper"):
        page.get_by_role("link", name=tab).tap()
        expect(page.get_by_role("link", name=tab)).to_have_attribute("aria-current", "page")
        assert horizontal_overflow(page) <= 0, f"{tab!r} form scrolls sideways"


def test_a_long_surname_fits_the_round_form(page: Page, live_server: str) -> None:
    """A 35-letter surname (a real one; names may have 40) must not push any form sideways."""
    page.set_viewport_size({"width": 360, "height": 740})
    surname = "Wolfeschlegelsteinhausenbergerdorff"
    start_session(page, live_server, [surname, "Bo", "Cy", "Di", "Ed", "Fay"], tile_sets=2)
    assert horizontal_overflow(page) <= 0, "score table scrolls sideways"

    page.get_by_role("link", name="Add round").tap()
    expect(page.locator("#entry nav.tabs")).to_be_visible()  # the round opens in place
    expect(page.locator("#entry input[name=number]")).to_have_value("1")
    overflow = {"Someone went out": horizontal_overflow(page)}
    for tab in ("The pool ran out", "Scores as on paper"):
        page.get_by_role("link", name=tab).tap()
        expect(page.get_by_role("link", name=tab)).to_have_attribute("aria-current", "page")
        overflow[tab] = horizontal_overflow(page)
    assert max(overflow.values()) <= 0, f"px wider than the 360 px screen: {overflow}"


def test_taps_and_keys_for_a_went_out_round(page: Page, live_server: str) -> None:
    """From the session page: one tap on who went out (the round form opens with the winner
    chosen and the first other rack focused), two digits and Enter per rack, the last Enter
    saves. Issue 6's goal for 4 players: at most 2 taps + 6 digits + 2 Enters (10)."""
    start_session(page, live_server, PLAYERS)
    thumb = Thumb(page)

    thumb.tap(page.get_by_role("region", name="Who went out?").get_by_role("link", name="Ann"))
    expect(page.get_by_role("radio", name="Ann")).to_be_checked()
    expect(seat_field(page, "Bo")).to_be_focused()
    for rack in ("22", "55", "18"):
        thumb.type(rack)
        thumb.press("Enter")

    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    expect(round_cells(page, 1)).to_have_text(starting_with("+95", "-22", "-55", "-18"))
    print(
        f"A 4-player went-out round with two-digit racks: {thumb.taps} taps + "
        f"{thumb.keys} keys = {thumb.total}"
    )
    assert (thumb.taps, thumb.keys) == (1, 9)
    assert thumb.taps <= 2 and thumb.total <= 10


def test_a_round_in_place_takes_no_keys_before_its_scripts_run(
    browser: Browser, live_server: str
) -> None:
    """The round opened in place shows, with its first rack focused, only once its scripts
    have run: keys typed while they are still on their way (a slow Wi-Fi) go nowhere, and an
    Enter among them never posts the half-typed round as a page. (No service worker: it would
    hand the scripts over at once from its cache, out of the slow network's way.)"""
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, service_workers="block"
    )
    page = context.new_page()
    session_id = start_session(page, live_server, PLAYERS)
    scripts = re.compile(r"/static/round_form_went_out\.[0-9a-f]+\.js$")
    held: list[Any] = []

    def hold(route: Any) -> None:  # the round form's scripts held on their way
        held.append(route)

    page.route(scripts, hold)

    with page.expect_request(scripts):  # the form is fetched and asks for its scripts
        page.get_by_role("region", name="Who went out?").get_by_role("link", name="Ann").tap()
    page.evaluate("() => document.activeElement.blur()")  # nothing focused: autofocus could act
    page.keyboard.type("22")
    page.keyboard.press("Enter")
    assert len(held) == 1
    held[0].continue_()  # the scripts arrive, late

    expect(seat_field(page, "Bo")).to_be_focused()
    expect(page).to_have_url(f"{live_server}/sessions/{session_id}")  # no page posted
    expect(seat_field(page, "Bo")).to_have_value("")
    expect(page.locator("#round-of")).to_have_text("Round 1 of 3")  # nothing saved
    context.close()
