"""The turn clock in a phone-sized Chromium: set 3 seconds on the clock page, draw for the
start (a tie draws again), run out of time offline, and see the penalty message."""

from __future__ import annotations

import re

from factories import new_session
from playwright.sync_api import Page, expect

PLAYERS = ["Ann", "Bo", "Cy", "Di"]

# Record what the page asks of the phone: vibration, the screen wake lock, the beep.
SPIES = """
window.spied = { vibrate: [], locks: 0, tones: 0 };
navigator.vibrate = (pattern) => { window.spied.vibrate.push(pattern); return true; };
Object.defineProperty(navigator, "wakeLock", { value: { request: async (kind) => {
  window.spied.locks += 1;
  return { release: async () => {}, addEventListener: () => {} };
} } });
const make = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.spied.tones += 1;
  return make.call(this);
};
"""


def test_clock_set_to_3_seconds_runs_out_with_the_penalty_message(
    page: Page, live_server: str
) -> None:
    page.add_init_script(SPIES)
    page.clock.install()  # the page's time, run on by the test where it waits for it
    session_id = new_session(
        live_server, PLAYERS, rules={"seconds_per_turn": 60, "penalty_tiles": 3}
    )

    # The session page offers the clock; the clock page sets 3 seconds in its custom field.
    page.goto(f"{live_server}/sessions/{session_id}")
    page.get_by_role("link", name="Turn clock · 60 s a turn").tap()
    expect(page.get_by_role("heading", name="Turn clock")).to_be_visible()
    page.get_by_text("Seconds per turn: 60 (change)").tap()
    page.get_by_label("Other number of seconds").fill("3")
    page.get_by_role("button", name="Set", exact=True).tap()
    expect(page.get_by_text("Seconds per turn: 3.")).to_be_visible()
    rules = page.request.get(f"{live_server}/api/v1/sessions/{session_id}").json()["rules"]
    assert rules["seconds_per_turn"] == 3

    # From here on the phone is offline: who starts and the countdown need no network.
    page.context.set_offline(True)

    # Who starts: Bo and Cy tie on 11 and draw again; Ann and Di sit the redraw out.
    for name, drawn in zip(PLAYERS, ["5", "11", "11", "2"], strict=True):
        page.get_by_label(name, exact=True).fill(drawn)
    page.get_by_role("button", name="Who starts?").tap()
    result = page.get_by_role("status").filter(has_text="draw again")
    expect(result).to_have_text("Bo and Cy draw again (both drew 11).")
    expect(page.get_by_label("Ann", exact=True)).to_be_disabled()
    expect(page.get_by_label("Bo", exact=True)).to_have_value("")
    expect(page.get_by_label("Bo", exact=True)).to_be_focused()
    page.get_by_label("Bo", exact=True).fill("4")
    page.get_by_label("Cy", exact=True).fill("9")
    page.get_by_role("button", name="Who starts?").tap()
    expect(page.get_by_text("Cy starts (drew 9).")).to_be_visible()
    expect(page.get_by_text("Then Di, Ann and Bo, in seating order.")).to_be_visible()

    # The clock: Cy's turn, three seconds; Pause holds the time, Resume runs it on.
    page.get_by_role("button", name="Start the clock: Cy first").tap()
    clock = page.get_by_role("region", name="Turn clock")
    expect(clock).to_be_visible()
    expect(page.locator("#clock-player")).to_have_text("Cy's turn")
    expect(page.get_by_role("timer")).to_have_text(re.compile(r"^00:0[123]$"))
    page.get_by_role("button", name="Pause").tap()
    held = page.get_by_role("timer").inner_text()
    page.clock.run_for(1_500)
    expect(page.get_by_role("timer")).to_have_text(held)
    expect(page.locator("#clock-alert")).to_be_empty()
    page.get_by_role("button", name="Resume").tap()
    page.clock.run_for(3_000)

    # At zero: the penalty message with the session's Penalty tiles, a vibration and a beep.
    message = (
        "Time! Put the table back as it was, take back the tiles you played "
        "and draw 3 penalty tiles."
    )
    expect(clock.get_by_role("alert")).to_have_text(message)
    expect(page.get_by_role("timer")).to_have_text("00:00")
    spied = page.evaluate("window.spied")
    assert spied["vibrate"], "no vibration at zero"
    assert spied["locks"] >= 1, "the screen was not kept awake"
    assert spied["tones"] >= 1, "no beep at zero"

    # A tap anywhere on the clock passes the turn to the next player in seating order.
    page.get_by_role("timer").tap()
    expect(page.locator("#clock-player")).to_have_text("Di's turn")
    expect(page.locator("#clock-alert")).to_be_empty()
    page.get_by_role("button", name="Next player").tap()
    expect(page.locator("#clock-player")).to_have_text("Ann's turn")
    page.get_by_role("button", name="Stop").tap()
    expect(clock).to_be_hidden()
    expect(page.get_by_role("button", name="Start the clock: Cy first")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_clock_off_is_offered_and_set_with_one_tap(page: Page, live_server: str) -> None:
    session_id = new_session(live_server, PLAYERS)
    page.goto(f"{live_server}/sessions/{session_id}")
    expect(page.get_by_role("link", name="Turn clock · 60 s a turn")).to_have_count(0)
    page.locator("#notes-section > summary").tap()  # "More"
    page.get_by_text("Rules of this session").tap()
    page.get_by_role("link", name="Turn clock: off — set one").tap()
    expect(page.get_by_text("The turn clock is off for this session.")).to_be_visible()
    page.get_by_role("button", name="60 seconds a turn").tap()
    expect(page.get_by_text("Seconds per turn: 60.")).to_be_visible()
    expect(page.get_by_role("button", name="Start the clock: Ann first")).to_be_visible()
    expect(page.get_by_role("timer")).to_be_hidden()
