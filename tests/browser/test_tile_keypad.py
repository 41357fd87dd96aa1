"""Racks entered tile by tile on the round form's keypad, in a phone-sized Chromium: the supply
across racks, the joker penalty, the stored tiles in the table, the keypad for cards, and the
keypad fetched at its first use, in the page's language, offline too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.support import Translations
from factories import new_session
from phone import phone_page
from playwright.sync_api import Browser, Locator, Page, expect

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
TRANSLATIONS = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"


def rack_field(page: Page, name: str) -> Locator:
    return page.get_by_role("textbox", name=name, exact=True)


def keypad(page: Page) -> Locator:
    return page.locator("#keypad")


def key(page: Page, name: str) -> Locator:
    return keypad(page).get_by_role("button", name=name, exact=True)


def new_went_out_round(page: Page, live_server: str, session_id: int, winner: str) -> None:
    page.goto(f"{live_server}/sessions/{session_id}/rounds/new")
    page.get_by_role("group", name="Who went out?").get_by_text(winner, exact=True).tap()


def test_supply_across_racks_joker_penalty_and_stored_tiles(page: Page, live_server: str) -> None:
    session_id = new_session(live_server, PLAYERS, rules={"tile_sets": 1, "joker_penalty": 25})
    new_went_out_round(page, live_server, session_id, "Ann")

    # Bo's rack, tile by tile: two red 7s use up the single set's copies.
    page.get_by_role("button", name="Tiles for Bo").tap()
    expect(page.get_by_role("button", name="Tiles for Bo")).to_have_attribute(
        "aria-expanded", "true"
    )
    expect(keypad(page)).to_be_visible()
    expect(keypad(page).locator(".key")).to_have_count(53)
    key(page, "red 7").tap()
    expect(key(page, "red 7")).to_be_enabled()
    key(page, "red 7").tap()
    expect(rack_field(page, "Bo")).to_have_value("r7 r7")
    expect(keypad(page).locator(".keypad-head")).to_have_text("Bo: 2 tiles · 14 points")
    expect(keypad(page).get_by_role("button", name="Take red 7 off")).to_have_count(2)
    expect(page.locator("output[data-preview-seat='1']")).to_have_text("-14")
    reason = "red 7: both copies are already on racks"
    expect(key(page, "red 7")).to_be_disabled()
    expect(key(page, "red 7")).to_have_attribute("title", reason)
    expect(key(page, "red 7")).to_have_accessible_description(reason)
    expect(keypad(page).get_by_text(reason)).to_be_visible()

    # For Cy the third red 7 is refused too: the copies are counted across all racks.
    page.get_by_role("button", name="Tiles for Cy").tap()
    expect(page.get_by_role("button", name="Tiles for Bo")).to_have_attribute(
        "aria-expanded", "false"
    )
    expect(keypad(page).locator(".keypad-head")).to_have_text("Cy: 0 tiles · 0 points")
    expect(key(page, "red 7")).to_be_disabled()
    expect(keypad(page).get_by_text(reason)).to_be_visible()
    expect(key(page, "red 6")).to_be_enabled()
    expect(key(page, "black 7")).to_be_enabled()

    # A joker costs the session's Joker penalty (25 here), in the keypad and in the preview.
    key(page, "joker").tap()
    expect(keypad(page).locator(".keypad-head")).to_have_text("Cy: 1 tile · 25 points")
    expect(page.locator("output[data-preview-seat='2']")).to_have_text("-25")
    key(page, "black 13").tap()
    key(page, "orange 1").tap()
    expect(rack_field(page, "Cy")).to_have_value("j k13 o1")
    expect(keypad(page).locator(".keypad-head")).to_have_text("Cy: 3 tiles · 39 points")
    expect(page.locator("output[data-preview-seat='2']")).to_have_text("-39")

    # A chip taken off Bo's rack frees a red 7 again; typing in the field counts as well.
    page.get_by_role("button", name="Tiles for Bo").tap()
    keypad(page).get_by_role("button", name="Take red 7 off").first.tap()
    expect(rack_field(page, "Bo")).to_have_value("r7")
    expect(key(page, "red 7")).to_be_enabled()
    expect(keypad(page).get_by_text(reason)).to_have_count(0)
    rack_field(page, "Di").fill("r7 b2")
    expect(key(page, "red 7")).to_be_disabled()
    expect(page.locator("output[data-preview-seat='3']")).to_have_text("-9")
    keypad(page).get_by_role("button", name="Done").tap()
    expect(keypad(page)).to_be_hidden()

    expect(page.locator("#preview")).to_have_text("Ann +55: adds up to 0.")
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()

    # The table shows how many tiles each rack held; a tap shows them.
    cy = page.locator("table.scores tbody td").nth(2)
    expect(cy).to_have_text(re.compile(r"^-393 tiles"))  # the score, then the tiles' count
    expect(cy.get_by_text("3 tiles")).to_be_visible()
    expect(cy.get_by_text("k13 o1 j")).to_be_hidden()
    cy.get_by_text("3 tiles").tap()
    expect(cy.get_by_text("k13 o1 j")).to_be_visible()
    stored = page.request.get(f"{live_server}/api/v1/sessions/{session_id}/rounds/1").json()
    assert stored["scores"] == {"Ann": 55, "Bo": -7, "Cy": -39, "Di": -9}


def test_a_third_copy_typed_by_hand_is_named_and_refused_by_the_server(
    page: Page, live_server: str
) -> None:
    session_id = new_session(live_server, PLAYERS)
    new_went_out_round(page, live_server, session_id, "Ann")
    rack_field(page, "Bo").fill("r7 r7")
    rack_field(page, "Cy").fill("red 7")
    rack_field(page, "Di").fill("4")
    page.get_by_role("button", name="Tiles for Di").tap()
    expect(rack_field(page, "Di")).to_have_value("4")
    expect(keypad(page).get_by_text("red 7: entered 3 times; a single set has 2")).to_be_visible()
    page.get_by_role("button", name="Save round").tap()
    message = "red 7 entered 3 times; a single set has 2."
    expect(page.locator("#rack_1-error")).to_have_text(message)
    expect(page.locator("#rack_2-error")).to_have_text(message)
    expect(rack_field(page, "Cy")).to_have_value("red 7")


def test_the_keypad_fits_a_360_px_phone(page: Page, live_server: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    session_id = new_session(live_server, PLAYERS, rules={"tile_sets": 2})
    new_went_out_round(page, live_server, session_id, "Ann")
    page.get_by_role("button", name="Tiles for Bo").tap()
    keys = keypad(page).locator(".key")
    expect(keys).to_have_count(53)
    for box in (keys.nth(i).bounding_box() for i in (0, 6, 7, 13, 52)):
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert box["width"] >= 44 and box["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for _ in range(4):
        key(page, "blue 9").tap()
    expect(key(page, "blue 9")).to_be_disabled()
    expect(keypad(page).get_by_text("blue 9: all 4 copies are already on racks")).to_be_visible()


def test_on_a_small_phone_the_keypad_shows_its_rack_and_done_moves_on(
    page: Page, live_server: str
) -> None:
    """At 360×640, in place on the session page: each rack's keypad opens scrolled so that the
    rack's field and every key are on the screen; Done moves on to the next rack, and after
    the last one to Save."""
    page.set_viewport_size({"width": 360, "height": 640})
    session_id = new_session(live_server, PLAYERS, rules={"tile_sets": 1})
    page.goto(f"{live_server}/sessions/{session_id}")
    page.get_by_role("region", name="Who went out?").get_by_role("link", name="Ann").tap()
    expect(rack_field(page, "Bo")).to_be_focused()
    on_screen = """([field, keys]) => {
      const inside = (e) => { const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; };
      return [inside(document.querySelector(field)),
              Array.from(document.querySelectorAll(keys)).filter((k) => !inside(k)).length];
    }"""
    tiles = {"Bo": "red 3", "Cy": "blue 10", "Di": "joker"}
    onward = {"Bo": rack_field(page, "Cy"), "Cy": rack_field(page, "Di")}
    for name, tile in tiles.items():
        page.get_by_role("button", name=f"Tiles for {name}").tap()
        expect(keypad(page).locator(".key")).to_have_count(53)
        expect(keypad(page).locator(".keypad-head")).to_contain_text(name)
        field = "#" + rack_field(page, name).get_attribute("id")
        assert page.evaluate(on_screen, [field, "#keypad .key"]) == [True, 0], name
        key(page, tile).tap()
        keypad(page).get_by_role("button", name="Done").tap()
        expect(keypad(page)).to_be_hidden()
        expect(onward.get(name, page.get_by_role("button", name="Save round"))).to_be_focused()
    expect(page.locator("#preview")).to_have_text("Ann +43: adds up to 0.")
    page.keyboard.press("Enter")  # Save has the focus
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    stored = page.request.get(f"{live_server}/api/v1/sessions/{session_id}/rounds/1").json()
    assert stored["scores"] == {"Ann": 43, "Bo": -3, "Cy": -10, "Di": -30}


def test_a_cards_session_shows_suits_and_stores_cards(page: Page, live_server: str) -> None:
    session_id = new_session(live_server, PLAYERS, rules={"played_with": "cards"})
    new_went_out_round(page, live_server, session_id, "Ann")
    page.get_by_role("button", name="Cards for Bo").tap()
    for suit in ("♠", "♥", "♦", "♣"):
        expect(keypad(page).locator(".key .corner", has_text=suit)).to_have_count(13)
    expect(keypad(page).get_by_text(re.compile(r"♠ s spades · ♥ h hearts"))).to_be_visible()
    expect(key(page, "hearts Q")).to_have_text("♥Q")
    key(page, "hearts Q").tap()
    key(page, "spades A").tap()
    key(page, "diamonds 10").tap()
    key(page, "joker").tap()
    expect(rack_field(page, "Bo")).to_have_value("hQ sA d10 j")
    expect(keypad(page).get_by_role("button", name="Take hearts Q off")).to_have_text("hQ×")
    expect(keypad(page).locator(".keypad-head")).to_have_text("Bo: 4 cards · 53 points")
    expect(page.locator("output[data-preview-seat='1']")).to_have_text("-53")
    key(page, "hearts Q").tap()
    expect(key(page, "hearts Q")).to_be_disabled()
    expect(keypad(page).get_by_text("hearts Q: both copies are already on racks")).to_be_visible()
    keypad(page).get_by_role("button", name="Take hearts Q off").last.tap()
    rack_field(page, "Cy").fill("7")
    rack_field(page, "Di").fill("c2")
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()
    bo = page.locator("table.scores tbody td").nth(1)
    bo.get_by_text("4 cards").tap()
    expect(bo.get_by_text("sA hQ d10 j")).to_be_visible()


@pytest.fixture
def french_page(browser: Browser) -> Iterator[Page]:
    """A phone whose browser asks for French."""
    with phone_page(browser, locale="fr-FR") as page:
        yield page


def test_the_keypad_comes_at_first_use_in_the_page_language_even_offline(
    french_page: Page, live_server: str
) -> None:
    """The round form loads without the keypad: its script, styles and words are fetched at the
    first tap on a rack's button; the service worker keeps them, so that works offline too."""
    page = french_page
    session_id = new_session(live_server, PLAYERS)
    page.goto(f"{live_server}/sessions/{session_id}/rounds/new")
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()  # now under the worker's control, which keeps the app shell
    assert page.evaluate("!!navigator.serviceWorker.controller")
    loaded = "performance.getEntriesByType('resource').map((e) => e.name).join(' ')"
    assert "keypad" not in page.evaluate(loaded)
    expect(page.locator("html")).to_have_attribute("lang", "fr")

    page.context.set_offline(True)
    page.locator(".tiles-toggle").nth(1).tap()  # Bo's
    expect(keypad(page)).to_be_visible()
    expect(keypad(page).locator(".key")).to_have_count(53)
    assert "/static/keypad." in page.evaluate(loaded)
    french = Translations.load(str(TRANSLATIONS), ["fr"])
    legend = french.gettext("k black · r red · b blue · o orange · J joker.")
    tap = french.gettext("Tap a tile to add it, a chosen tile to take it off.")
    assert tap != "Tap a tile to add it, a chosen tile to take it off."
    expect(keypad(page).locator("p.hint")).to_have_text(f"{legend} {tap}")
    key(
        page,
        french.gettext("%(colour)s %(number)s") % {"colour": french.gettext("red"), "number": 7},
    ).tap()
    expect(rack_field(page, "Bo")).to_have_value("r7")
    page.context.set_offline(False)


def test_an_empty_rack_opens_with_no_chip(page: Page, live_server: str) -> None:
    """The keypad's first opening, on a blank rack, before round.js has read any tiles: no
    chip (it showed a bogus "⚠ ×", the blank read as one unread tile)."""
    session_id = new_session(live_server, PLAYERS)
    new_went_out_round(page, live_server, session_id, "Ann")
    page.get_by_role("button", name="Tiles for Bo").tap()
    expect(keypad(page).locator(".keypad-head")).to_have_text("Bo: 0 tiles · 0 points")
    expect(keypad(page).locator(".rack-chips > *")).to_have_count(0)
    key(page, "red 7").tap()
    expect(keypad(page).get_by_role("button", name="Take red 7 off")).to_have_count(1)
    expect(keypad(page).locator(".rack-chips > *")).to_have_count(1)
