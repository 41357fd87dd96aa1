"""The round in place on the session page, as the family has it at the table: what changed is
where the eyes are, the scores stay in sight while a round is typed, a round can be closed, a
round is changed and deleted without a page load, and a tap on a name starts typing at once
with a visible way on by each rack (an iPhone's number pad has no Enter). Each scenario but
the scores in sight runs in Chromium and in WebKit (tests/browser/drive.py)."""

from __future__ import annotations

from typing import Any

from drive import ChromiumPhone, Phone
from factories import add_round, new_session, stored_rounds, went_out
from playwright.sync_api import Page, expect

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
ROUND = went_out("Ann", Bo=10, Cy=20, Di=30)

# Whether the element `css` finds lies wholly on the screen.
ON_SCREEN = """
const e = document.querySelector(arguments[0]);
if (!e) return false;
const r = e.getBoundingClientRect();
return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
"""
# A mark that a page load would wipe out: set, then read.
MARK = "window.__samePage = 'yes'; return true;"
SAME_PAGE = "return window.__samePage === 'yes';"
# The events the round entry tells the page, recorded in order.
LISTEN = """
window.__told = [];
for (const name of ["opened", "saved", "closed"]) {
  document.addEventListener("scorekeeper:entry-" + name,
    (event) => window.__told.push(
      name + (event.detail && event.detail.number ? " " + event.detail.number : "")));
}
return true;
"""


def session_with(live_server: str, rounds: int, planned: int, **body: Any) -> int:
    session_id = new_session(live_server, PLAYERS, rounds=planned, **body)
    for _ in range(rounds):
        add_round(live_server, session_id, ROUND)
    return session_id


def on_screen(phone: Phone, css: str) -> None:
    phone.wait_for(
        lambda: phone.run(ON_SCREEN, css),
        f"{css} on the screen",
        seen=lambda: phone.run(
            "const r = document.querySelector(arguments[0])?.getBoundingClientRect();"
            " return [r && r.top, r && r.bottom, innerHeight, scrollY];",
            css,
        ),
    )


def type_went_out(phone: Phone, winner: str) -> None:
    """Tap `winner` under "Who went out?" and type the others' racks 5, 6 and 7, Enter after
    each (the last one saves), as a thumb does."""
    first, *others = (player for player in PLAYERS if player != winner)
    phone.tap(".went-out a", winner)
    phone.wait_for(lambda: phone.focused() == first, f"the focus in {first}'s rack")
    phone.type_racks(tuple(zip(("5", "6"), others, strict=True)))
    phone.type("7")
    phone.press("Enter")


def went_out_in_place(phone: Phone, winner: str, number: int) -> None:
    """A went-out round typed in place (`type_went_out`), then the round's message."""
    type_went_out(phone, winner)
    phone.expect_shown("#undo-what", f"Round {number} saved.")


def focused_message(phone: Phone) -> None:
    phone.wait_for(
        lambda: phone.run("return document.activeElement.id === 'change-message';"),
        "the focus on the change's message",
        seen=lambda: phone.run("return document.activeElement.outerHTML.slice(0, 80);"),
    )


def ready(phone: Phone) -> None:
    """The next round's form kept ready in the page (fetched while the page is idle)."""
    phone.wait_for(
        lambda: phone.run("return !!document.querySelector('#entry #entry-fragment[data-ready]');"),
        "the round's form ready in the page",
    )


def test_the_last_round_saved_and_its_undo_are_brought_into_view(
    phone: Phone, live_server: str
) -> None:
    """Item 1: after the last agreed round is saved the winner, the message with Undo and the new
    row are on the screen, the message focused; Undo runs in the background and its result is
    brought into view too."""
    session_id = session_with(live_server, rounds=5, planned=6)
    phone.visit(f"{live_server}/sessions/{session_id}")
    phone.run(MARK)
    went_out_in_place(phone, "Bo", 6)
    phone.wait_for(lambda: "Ann wins!" in phone.text(".announce"), "the evening's winner")
    for css in (".announce", "#change-message", "#scores-table tbody tr:nth-child(6)"):
        on_screen(phone, css)
    focused_message(phone)
    assert len(stored_rounds(live_server, session_id)) == 6

    phone.tap("#change-message button", "Undo")
    phone.expect_shown("#change-message", "Round 6 is taken back.")
    on_screen(phone, "#change-message")
    focused_message(phone)
    assert phone.run(SAME_PAGE), "the Undo loaded the page"
    assert len(stored_rounds(live_server, session_id)) == 5


# Marks on parts of the session page that a round saved leaves as they were: the live part
# itself, the title, the first round's row and the chart's card.
KEPT = ("#live", "#live h1", "#scores-table tbody tr", "#chart")
MARK_KEPT = "for (const css of arguments[0]) document.querySelector(css).__kept = css; return true;"
STILL_KEPT = "return arguments[0].filter((css) => document.querySelector(css).__kept === css);"


def test_a_round_saved_draws_again_only_what_changed(phone: Phone, live_server: str) -> None:
    """The new table is put over the old one node by node: what did not change (the title, the
    rounds before, the chart's card) is the same element, so only the new row, the totals, the
    message and the chart's image are laid out and painted again."""
    session_id = session_with(live_server, rounds=3, planned=6)
    phone.visit(f"{live_server}/sessions/{session_id}")
    assert phone.run(MARK_KEPT, list(KEPT))
    chart = "return document.querySelector('#chart img').getAttribute('src');"
    drawn = phone.run(chart)
    went_out_in_place(phone, "Ann", 4)
    phone.expect_first_lines("#scores-table tbody tr:nth-child(4) td", ["+18", "-5", "-6", "-7"])
    assert phone.run(STILL_KEPT, list(KEPT)) == list(KEPT)
    assert phone.run(chart) != drawn  # the new chart's image
    assert phone.run("return document.querySelectorAll('#live').length;") == 1


def test_a_round_opened_in_place_closes_with_cancel_or_escape(
    phone: Phone, live_server: str
) -> None:
    """Item 3: Cancel and Escape close an open round, nothing stored, the page told; switching
    the ending keeps who went out as well as the racks."""
    session_id = session_with(live_server, rounds=1, planned=3)
    phone.visit(f"{live_server}/sessions/{session_id}")
    phone.run(LISTEN)
    phone.tap(".went-out a", "Cy")
    phone.wait_for(lambda: phone.focused() == "Ann", "the focus in Ann's rack")
    phone.type("12")
    phone.tap("#entry button", "Cancel")
    phone.wait_for(lambda: not phone.find("#entry #round-form"), "the round closed")
    phone.expect_shown(".went-out h2", "Who went out?")
    assert phone.run("return window.__told;") == ["opened 2", "closed"]

    phone.tap("a", "Add round")
    phone.wait_for(lambda: phone.find("#entry #round-form"), "the round open")
    phone.press("Escape")
    phone.wait_for(lambda: not phone.find("#entry #round-form"), "the round closed by Escape")
    assert len(stored_rounds(live_server, session_id)) == 1

    # Who went out and the racks survive a trip through another ending.
    phone.tap(".went-out a", "Cy")
    phone.wait_for(lambda: phone.focused() == "Ann", "the focus in Ann's rack")
    phone.fill("Ann", "12")
    phone.tap("nav.tabs a", "The pool ran out")
    phone.expect_shown("nav.tabs a[aria-current=page]", "The pool ran out")
    phone.tap("nav.tabs a", "Someone went out")
    phone.expect_shown("nav.tabs a[aria-current=page]", "Someone went out")
    phone.wait_for(
        lambda: (
            phone.run("return document.querySelector('#round-form [name=winner]:checked')?.value;")
            == "2"
        ),
        "Cy still chosen",
    )
    assert phone.value("Ann") == "12"
    phone.fill("Bo", "3")
    phone.fill("Di", "4")
    phone.tap("button", "Save round")
    phone.expect_shown("#undo-what", "Round 2 saved.")
    assert stored_rounds(live_server, session_id)[1]["scores"]["Cy"] == 19
    told = phone.run("return window.__told;")
    assert told[-2:] == ["saved", "closed"], told


def test_a_round_is_changed_and_deleted_in_place(phone: Phone, live_server: str) -> None:
    """Item 5: a round's number opens it under the table with its values; Save puts the new
    table in place; Delete asks once, in place, and offers Undo; no page load. A flagged
    value's ⚠ goes as soon as it is corrected."""
    session_id = session_with(live_server, rounds=1, planned=4)
    flagged = went_out("Ann", Bo=200, Cy=2, Di=3)
    add_round(live_server, session_id, {**flagged, "confirm": True})
    phone.visit(f"{live_server}/sessions/{session_id}")
    phone.run(MARK)

    phone.tap("#scores-table a", "Edit round 2")
    phone.expect_shown("#entry #entry-title", "Edit round 2")
    assert phone.value("Bo") == "200"
    mark = (
        "const label = document.querySelector(arguments[0]).labels[0];"
        " return getComputedStyle(label, '::before').content;"
    )
    bo = phone.field("Bo")
    assert "⚠" in phone.run(mark, bo)
    phone.fill("Bo", "20")
    phone.wait_for(lambda: "⚠" not in phone.run(mark, bo), "the ⚠ gone with the typo")
    assert "⚠" not in phone.run(
        "return document.querySelector(arguments[0]).labels[0].textContent;", bo
    )
    phone.tap("button", "Save changes")
    phone.expect_shown("#undo-what", "Round 2 changed.")
    phone.expect_first_lines("#scores-table tbody tr:nth-child(2) td", ["+25", "-20", "-2", "-3"])
    on_screen(phone, "#change-message")
    on_screen(phone, "#scores-table tbody tr:nth-child(2)")
    focused_message(phone)

    phone.tap("#scores-table a", "Edit round 1")
    phone.expect_shown("#entry #entry-title", "Edit round 1")
    phone.tap("#entry a", "Delete round 1…")
    phone.expect_shown("#entry [data-delete-ask] p", "Delete round 1?")
    phone.tap("#entry button", "Keep it")
    phone.wait_for(lambda: not phone.find("#entry [data-delete-ask]"), "the question put away")
    phone.tap("#entry a", "Delete round 1…")
    phone.tap("#entry button", "Delete")
    phone.expect_shown("#undo-what", "Round 1 deleted.")
    on_screen(phone, "#change-message")
    focused_message(phone)
    assert [r["scores"]["Bo"] for r in stored_rounds(live_server, session_id)] == [-20]
    phone.tap("#change-message button", "Undo")
    phone.expect_shown("#change-message", "Round 1 is back.")
    assert len(stored_rounds(live_server, session_id)) == 2
    assert phone.run(SAME_PAGE), "a page was loaded"


def test_a_tap_on_a_name_focuses_the_first_rack_within_the_tap(
    phone: Phone, live_server: str
) -> None:
    """Item 10: the form is in the page before the tap, so the tap's own handler focuses the
    first rack (Safari opens the keypad only so); each rack has a visible Next, the last Save."""
    session_id = session_with(live_server, rounds=0, planned=3)
    phone.visit(f"{live_server}/sessions/{session_id}")
    ready(phone)
    focused = phone.run(
        "document.querySelector('.went-out a[href*=\"winner=2\"]').click();"
        " return document.activeElement.name;"
    )
    assert focused == "rack_0"
    phone.type("5")
    phone.tap("#entry .seat:nth-of-type(1) button.next-field", "Next")
    phone.wait_for(lambda: phone.focused() == "Bo", "the focus in Bo's rack")
    phone.type("6")
    phone.tap("#entry .seat:nth-of-type(2) button.next-field", "Next")
    phone.wait_for(lambda: phone.focused() == "Di", "the focus in Di's rack")
    phone.type("7")
    phone.tap("#entry button.next-field", "Save")
    phone.expect_shown("#undo-what", "Round 1 saved.")
    assert stored_rounds(live_server, session_id)[0]["scores"]["Cy"] == 18
    # The next round's form is made ready again, for the next tap.
    ready(phone)


def test_the_scores_stay_in_sight_while_a_round_is_typed(page: Page, live_server: str) -> None:
    """Item 2 (4 players, 390×844): the names and the Total stay on the screen while the racks
    are typed; the form repeats neither "Round 6 of 8" nor "Who went out?", and the notation
    help is folded behind the tiles control."""
    session_id = session_with(live_server, rounds=5, planned=8)
    page.goto(f"{live_server}/sessions/{session_id}")
    page.locator(".went-out").get_by_role("link", name="Bo").tap()
    for name in ("Ann", "Cy"):
        expect(page.get_by_role("textbox", name=name, exact=True)).to_be_focused()
        page.keyboard.type("5")
        page.keyboard.press("Enter")
    last = page.get_by_role("textbox", name="Di", exact=True)
    expect(last).to_be_focused()
    page.keyboard.type("7")
    # The Total shown, uncovered, while the rack typed is on the screen too.
    totals_seen = """() => Array.from(document.querySelectorAll("tr.totals")).some((row) => {
      const r = row.getBoundingClientRect();
      if (!(r.height > 0 && r.top >= 0 && r.bottom <= innerHeight)) return false;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !!hit && row.contains(hit) && row.textContent.includes("+300");
    })"""
    assert page.evaluate(totals_seen)
    assert page.evaluate(f"(arguments) => {{ {ON_SCREEN} }}", ["#entry #rack_3"])
    scrolled = page.evaluate("scrollY")
    page.mouse.wheel(0, 200)  # scrolled on through the form: still in sight
    page.wait_for_function("(before) => scrollY > before", arg=scrolled)
    last.focus()
    assert page.evaluate(totals_seen)
    # Said once on the page: the round's number (the pill) and "Who went out?".
    expect(page.locator("#entry")).not_to_contain_text("Round 6 of 8")
    expect(page.get_by_text("Who went out?", exact=True).locator("visible=true")).to_have_count(1)
    expect(page.locator("#entry .racks details")).to_be_hidden()


def test_a_save_tells_the_form_no_change_as_it_goes(phone: Phone, live_server: str) -> None:
    """The last Enter saves without the browser's own form submission (which sent the rack a
    change first), and the saved form's fields go without sending it one: its preview and
    typo question are not worked out again on the way out (static/round.js, entry.js)."""
    session_id = session_with(live_server, rounds=0, planned=3)
    phone.visit(f"{live_server}/sessions/{session_id}")
    phone.tap(".went-out a", "Ann")
    phone.wait_for(lambda: phone.focused() == "Bo", "the focus in Bo's rack")
    phone.type_racks((("5", "Cy"), ("6", "Di")))
    phone.type("7")
    phone.run(
        "window.__changes = 0; document.getElementById('round-form')"
        ".addEventListener('change', () => { window.__changes += 1; }); return true;"
    )
    phone.press("Enter")
    phone.expect_shown("#undo-what", "Round 1 saved.")
    assert phone.run("return window.__changes;") == 0
    assert len(stored_rounds(live_server, session_id)) == 1


def test_a_round_opened_in_place_keeps_no_autofocus(phone: Phone, live_server: str) -> None:
    """A round's form fetched at the tap (before the next one was made ready) comes with the
    server's autofocus: in place it is dropped and the field focused at once, since WebKit
    acted on it late, after the first Enter, and a rack's digits landed in the first field."""
    session_id = session_with(live_server, rounds=0, planned=3)
    phone.visit(f"{live_server}/sessions/{session_id}")
    phone.tap(".went-out a", "Bo")
    phone.wait_for(lambda: phone.focused() == "Ann", "the focus in Ann's rack")
    assert phone.run("return document.querySelectorAll('#entry [autofocus]').length;") == 0
    phone.type_racks((("5", "Cy"), ("6", "Di")))
    assert phone.value("Ann") == "5"


def test_a_slow_save_says_saving(page_without_worker: Page, live_server: str) -> None:
    """A quick save draws nothing before the new table; one whose answer is slow to come says
    "Saving…" on its button, which takes no second tap, until the table arrives."""
    page = page_without_worker
    session_id = session_with(live_server, rounds=0, planned=3)
    held: list[Any] = []  # the POST of the round, answered when the test lets it through

    def hold(route: Any) -> None:
        if route.request.method == "POST":
            held.append(route)
        else:
            route.continue_()

    page.route(lambda url: "/rounds/new" in url, hold)
    page.goto(f"{live_server}/sessions/{session_id}")
    type_went_out(ChromiumPhone(page), "Ann")
    save = page.locator("#entry #save")
    expect(save).to_have_text("Saving…")
    expect(save).to_be_disabled()
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("#undo-what")).to_have_text("Round 1 saved.")
    assert stored_rounds(live_server, session_id)[0]["scores"]["Ann"] == 18
