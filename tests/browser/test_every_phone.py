"""The evening as every phone at the table has it: each scenario runs in Chromium (Playwright)
and in WebKit (WebKitGTK's MiniBrowser, Selenium), written once against tests/browser/drive.py.

An evening with a round of each ending, a tie, a refused misprint, a confirmed typo, an edit and
an Undo; the tile keypad; a second phone that follows the first; a round kept on the phone
while the server cannot be reached; the turn clock running out. What the WebKit run cannot
show of an iPhone is in docs/BROWSERS.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from drive import Phone
from factories import api, new_session, stored_rounds
from phone import Network

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
SESSION_URL = re.compile(r"/sessions/(\d+)$")
ENDINGS = ("went_out", "pool_empty", "scores")
SAVED = "Saved on this phone; it will be sent when the network is back"


def row(number: int) -> str:
    """The scores of round `number` in the table (rows in round order)."""
    return f"table.scores tbody tr:nth-child({number}) td"


def flash(phone: Phone, text: str) -> None:
    """The one message of a change: the Undo offer's words, or a message of its own."""
    phone.expect_shown(".flash, #undo-what", text)


def pick(phone: Phone, name: str) -> None:
    """Tap a big name button (the radio under it is visually hidden)."""
    phone.tap(".pick-option label", name)


def tab(phone: Phone, name: str) -> None:
    phone.tap("nav.tabs a", name)
    phone.expect_shown("nav.tabs a[aria-current=page]", name)


def test_an_evening(phone: Phone, live_server: str) -> None:
    # A new session on the form: four players, five rounds.
    phone.visit(live_server + "/sessions/new")
    for seat, name in enumerate(PLAYERS, start=1):
        phone.fill(f"Player {seat}", name)
    phone.fill("Rounds", "5")
    phone.tap("button", "Start the session")
    phone.wait_for(lambda: SESSION_URL.search(phone.url), "the session page")
    session_id = int(SESSION_URL.search(phone.url)[1])
    phone.expect_text("#round-of", "Round 1 of 5")

    # Round 1: Ann went out; racks typed digit by digit, Enter moving on, the last one saving.
    phone.tap("a", "Add round")
    pick(phone, "Ann")
    phone.wait_for(lambda: phone.focused() == "Bo", "the focus in Bo's rack")
    phone.type_racks((("22", "Cy"), ("55", "Di")))
    phone.type("8")
    phone.expect_text("#preview", "Ann +85: adds up to 0.")
    phone.press("Enter")
    flash(phone, "Round 1 saved.")
    phone.expect_first_lines(row(1), ["+85", "-22", "-55", "-8"])
    phone.expect_text("#round-of", "Round 2 of 5")

    # Round 2: the pool ran out and Ann and Bo tie on the lowest rack: asked at once, before
    # Save, among the two only; Bo takes it.
    phone.tap("a", "Add round")
    tab(phone, "The pool ran out")
    for name, rack in zip(PLAYERS, ["10", "10", "55", "18"], strict=True):
        phone.fill(name, rack)
    phone.expect_shown("fieldset.pick legend", "Who takes the round?")
    assert phone.texts(".pick .pick-option:not([hidden]) label") == ["Ann", "Bo"]
    pick(phone, "Bo")
    phone.expect_text("#preview", "Bo takes the round: +53.")
    phone.tap("button", "Save round")
    flash(phone, "Round 2 saved.")
    phone.expect_first_lines(row(2), ["0", "+53", "-45", "-8"])

    # Round 3: a misprinted paper line is refused, what was typed kept; fixed, it is saved.
    phone.tap("a", "Add round")
    tab(phone, "Scores as on paper")
    misprinted = {"Ann": "+6", "Bo": "-11", "Cy": "+22", "Di": "-5"}
    for name, score in misprinted.items():
        phone.fill(name, score)
    phone.expect_text("#preview", "Adds up to +12: someone counted a rack wrong.")
    phone.tap("button", "Save round")
    phone.wait_for(
        lambda: "Adds up to +12" in phone.text("[role=alert]"), "the refusal of the misprint"
    )
    assert {name: phone.value(name) for name in PLAYERS} == misprinted
    assert len(stored_rounds(live_server, session_id)) == 2
    phone.fill("Ann", "-6")
    phone.expect_text("#preview", "Adds up to 0 ✓")
    phone.tap("button", "Save round")
    flash(phone, "Round 3 saved.")
    phone.expect_first_lines(row(3), ["-6", "-11", "+22", "-5"])

    # Round 4: Add round opens the ending used last (scores as on paper); went out it is. A rack
    # of 200 looks like a typo: asked at once, before Save; its one yes keeps it, marked, and
    # saves the round (the last thing missing).
    phone.tap("a", "Add round")
    phone.expect_shown("nav.tabs a[aria-current=page]", "Scores as on paper")
    tab(phone, "Someone went out")
    pick(phone, "Cy")
    for name, rack in (("Ann", "200"), ("Bo", "5"), ("Di", "5")):
        phone.fill(name, rack)
    phone.tap(".confirm label", "Yes, 200 is right")
    flash(phone, "Round 4 saved.")
    phone.expect_first_lines(row(4), ["-200⚠", "-5", "+210", "-5"])

    # An edit: Bo had 30 left in round 1, not 22.
    phone.tap("a", "Edit round 1")
    phone.wait_for(lambda: phone.value("Bo") == "22", "round 1 on the edit form")
    phone.fill("Bo", "30")
    phone.expect_text("#preview", "Ann +93: adds up to 0.")
    phone.tap("button", "Save changes")
    flash(phone, "Round 1 changed.")
    phone.expect_first_lines(row(1), ["+93", "-30", "-55", "-8"])

    # A delete, and Undo puts the round back.
    phone.tap("a", "Edit round 4")
    phone.tap("a", "Delete round 4…")
    phone.tap("#entry [data-delete-ask] button", "Delete")  # asked in place
    phone.expect_text("#undo-what", "Round 4 deleted.")
    assert len(stored_rounds(live_server, session_id)) == 3
    phone.tap("form.undo button", "Undo")
    flash(phone, "Round 4 is back.")
    phone.expect_first_lines(row(4), ["-200⚠", "-5", "+210", "-5"])
    phone.expect_texts("table.scores tfoot b", ["-113", "+7", "+132", "-26"])
    assert [r["scores"]["Bo"] for r in stored_rounds(live_server, session_id)] == [-30, 53, -11, -5]
    assert phone.overflow() <= 0


def test_enter_moves_through_the_names_to_start(phone: Phone, live_server: str) -> None:
    """Enter in a player's name moves to the next seat; Enter in the empty seat after the last
    name starts the session (without JavaScript Enter starts it from any field)."""
    phone.visit(live_server + "/sessions/new")
    phone.fill("Player 1", "Ann")
    for seat, name in ((2, "Bo"), (3, "Cy")):
        phone.press("Enter")
        phone.wait_for(lambda seat=seat: phone.focused() == f"Player {seat}", f"seat {seat}")
        assert SESSION_URL.search(phone.url) is None  # still on the form
        phone.type(name)
    phone.press("Enter")
    phone.wait_for(lambda: phone.focused() == "Player 4", "the empty fourth seat")
    assert phone.value("Player 3") == "Cy" and phone.value("Player 4") == ""
    phone.press("Enter")  # after the last name: Start
    phone.wait_for(lambda: SESSION_URL.search(phone.url), "the session page")
    session_id = int(SESSION_URL.search(phone.url)[1])
    assert api(live_server, f"/sessions/{session_id}")["players"] == ["Ann", "Bo", "Cy"]

    # Six names: Enter in the last seat starts too, with the two tile sets six need (the
    # first session's one set, the family's last setting, switched by the names, and said).
    phone.visit(live_server + "/sessions/new")
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"]
    phone.fill("Player 1", names[0])
    for seat, name in enumerate(names[1:], start=2):
        phone.press("Enter")
        phone.wait_for(lambda seat=seat: phone.focused() == f"Player {seat}", f"seat {seat}")
        phone.type(name)
    phone.expect_text("#players-sets", "6 players: two tile sets.")
    phone.press("Enter")
    phone.wait_for(lambda: SESSION_URL.search(phone.url), "the session page")
    session = api(live_server, f"/sessions/{int(SESSION_URL.search(phone.url)[1])}")
    assert session["players"] == names
    assert session["rules"]["tile_sets"] == 2


def test_the_tile_keypad(phone: Phone, live_server: str) -> None:
    session_id = new_session(live_server, PLAYERS, rules={"tile_sets": 1, "joker_penalty": 25})
    phone.visit(f"{live_server}/sessions/{session_id}/rounds/new")
    pick(phone, "Ann")
    phone.tap("button", "Tap tiles for Bo")
    phone.wait_for(lambda: len(phone.texts("#keypad .key")) == 53, "the keypad's 53 keys")
    phone.tap("#keypad button", "red 7")
    phone.tap("#keypad button", "red 7")
    phone.wait_for(lambda: phone.value("Bo") == "r7 r7", "two red 7s on Bo's rack")
    phone.expect_text("#keypad .keypad-head", "Bo: 2 tiles · 14 points")
    phone.expect_text("output[data-preview-seat='1']", "-14")
    red_7 = "return document.querySelector('#keypad button[aria-label=\"red 7\"]').disabled;"
    phone.wait_for(lambda: phone.run(red_7), "red 7 refused: both copies are on racks")
    phone.expect_shown("#keypad li", "red 7: both copies are already on racks")

    phone.tap("button", "Tap tiles for Cy")
    phone.expect_text("#keypad .keypad-head", "Cy: 0 tiles · 0 points")
    assert phone.run(red_7)  # counted across all racks
    for name in ("joker", "black 13", "orange 1"):
        phone.tap("#keypad button", name)
    phone.wait_for(lambda: phone.value("Cy") == "j k13 o1", "Cy's three tiles")
    phone.expect_text("#keypad .keypad-head", "Cy: 3 tiles · 39 points")
    phone.tap("#keypad button", "Done")
    phone.wait_for(lambda: not phone.find("#keypad"), "the keypad closed")
    phone.fill("Di", "5")
    phone.expect_text("#preview", "Ann +58: adds up to 0.")
    phone.tap("button", "Save round")
    flash(phone, "Round 1 saved.")
    assert stored_rounds(live_server, session_id)[0]["scores"] == {
        "Ann": 58,
        "Bo": -14,
        "Cy": -39,
        "Di": -5,
    }
    assert phone.overflow() <= 0


def test_a_second_phone_sees_the_round(open_phone: Callable[[], Phone], live_server: str) -> None:
    first, second = open_phone(), open_phone()
    session_id = new_session(live_server, PLAYERS)
    url = f"{live_server}/sessions/{session_id}"
    second.visit(url)
    second.expect_shown("td.empty", "No rounds yet.")

    first.visit(url + "/rounds/new")
    pick(first, "Ann")
    for name, rack in (("Bo", "22"), ("Cy", "55"), ("Di", "8")):
        first.fill(name, rack)
    first.tap("button", "Save round")
    flash(first, "Round 1 saved.")

    # The other phone follows without a reload: the message, the row, the round number.
    second.expect_text("#live-change", "Round 1 added.")
    second.expect_first_lines(row(1), ["+85", "-22", "-55", "-8"])
    second.expect_text("#round-of", "Round 2 of 3")
    assert first.text("#live-change") == ""  # the phone that saved says nothing of its own

    # And back: the second phone deletes it, the first sees it go.
    second.tap("a", "Edit round 1")
    second.tap("a", "Delete round 1…")
    second.tap("#entry [data-delete-ask] button", "Delete")  # asked in place
    second.expect_shown("form.undo button", "Undo")
    first.expect_text("#live-change", "Round 1 deleted.")
    first.expect_shown("td.empty", "No rounds yet.")


def test_a_round_is_kept_while_the_server_cannot_be_reached(
    phone: Phone, live_server: str, network: Network
) -> None:
    """The Wi-Fi says connected but nothing gets through (the phone believes it is online):
    the round is kept on the phone, and sent once the way is open again."""
    session_id = new_session(live_server, PLAYERS, rounds=3)
    form = f"{network.url}/sessions/{session_id}/rounds/new"
    phone.visit(form)
    pick(phone, "Ann")
    for name, rack in (("Bo", "12"), ("Cy", "7"), ("Di", "3")):
        phone.fill(name, rack)

    network.off()
    phone.tap("button", "Save round")
    phone.wait_for(lambda: SAVED in phone.text("#offline-notice"), "the round kept on the phone")
    assert phone.url == form and phone.value("Bo") == "12"
    kept = "return JSON.parse(localStorage.getItem('scorekeeper.offline-rounds') || '[]').length;"
    assert phone.run(kept) == 1
    assert stored_rounds(live_server, session_id) == []

    network.on()
    phone.visit(form)  # a round form opening sends what the phone kept
    phone.expect_page(f"/sessions/{session_id}")
    phone.expect_first_lines(row(1), ["+22", "-12", "-7", "-3"])
    assert [r["scores"] for r in stored_rounds(live_server, session_id)] == [
        {"Ann": 22, "Bo": -12, "Cy": -7, "Di": -3}
    ]
    phone.wait_for(lambda: phone.run(kept) == 0, "the kept round forgotten once sent")


def test_the_turn_clock_counts_down(phone: Phone, live_server: str) -> None:
    session_id = new_session(
        live_server, PLAYERS, rules={"seconds_per_turn": 3, "penalty_tiles": 3}
    )
    phone.visit(f"{live_server}/sessions/{session_id}/clock")
    for name, drawn in zip(PLAYERS, ["5", "11", "11", "2"], strict=True):
        phone.fill(name, drawn)
    phone.tap("#draw-button")
    phone.expect_text("#draw-result", "Bo and Cy draw again (both drew 11).")
    phone.fill("Bo", "4")
    phone.fill("Cy", "9")
    phone.tap("#draw-button")
    phone.expect_text("#draw-result", "Cy starts (drew 9).")

    phone.tap("button", "Start the clock: Cy first")
    phone.expect_text("#clock-player", "Cy's turn")
    phone.wait_for(
        lambda: re.fullmatch(r"00:0[123]", phone.text("#clock-time")), "the clock at 3 s"
    )
    phone.expect_text(
        "#clock-alert",
        "Time! Put the table back as it was, take back the tiles you played "
        "and draw 3 penalty tiles.",
    )
    assert phone.text("#clock-time") == "00:00"
    phone.tap("button", "Next player")
    phone.expect_text("#clock-player", "Di's turn")
    phone.expect_text("#clock-alert", "")
    assert phone.overflow() <= 0


def test_no_field_makes_an_iphone_zoom_in(phone: Phone, live_server: str) -> None:
    """Safari on an iPhone zooms the page into a field whose text is under 16 px when it is
    focused (and stays zoomed): every field a person types in or picks from is 16 px or more."""
    session_id = new_session(live_server, PLAYERS)
    small = """
    return Array.from(document.querySelectorAll("input, select, textarea"))
      .filter((e) => e.getClientRects().length && !["hidden", "radio", "checkbox"].includes(e.type))
      .filter((e) => parseFloat(getComputedStyle(e).fontSize) < 16)
      .map((e) => `${e.id || e.name}: ${getComputedStyle(e).fontSize}`);
    """
    pages = ["/", "/sessions/new", f"/sessions/{session_id}", f"/sessions/{session_id}/clock"]
    pages.append(f"/sessions/{session_id}/who-starts")
    pages += [f"/sessions/{session_id}/rounds/new?ending={e}" for e in ENDINGS]
    found = {}
    for path in pages:
        phone.visit(live_server + path)
        phone.expect_shown("h1")
        found[path] = phone.run(small)
    assert {path: fields for path, fields in found.items() if fields} == {}
