"""Every phone live, the chart, the colour theme, keeping the screen on and large text, in
Chromium at a phone's size: two browser contexts are two phones at the same table."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from contract import LONG_NAMES
from factories import add_round, new_session, went_out
from phone import PHONE, phone_page, round_cells, starting_with
from playwright.sync_api import Page, expect

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
DARK_BG = "rgb(18, 17, 14)"  # app.css --paper, dark
LIGHT_BG = "rgb(243, 238, 228)"  # --paper, light
# How long a change may take to reach the other phone before the test gives up: a guard
# against a hang on a loaded machine, not a measure (bench/live.py measures it).
LIVE_WAIT = 20_000


def background(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


@pytest.fixture
def other_phone(browser: Any) -> Iterator[Page]:
    """A second phone at the table: a browser context of its own (its own cookies)."""
    with phone_page(browser) as phone:
        yield phone


def test_a_round_saved_on_one_phone_appears_on_the_other(
    page: Page, other_phone: Page, live_server: str
) -> None:
    session_id = new_session(live_server, PLAYERS)
    url = f"{live_server}/sessions/{session_id}"
    other_phone.goto(url)
    expect(other_phone.get_by_text("No rounds yet.")).to_be_visible()

    page.goto(url)
    page.get_by_role("link", name="Add round").tap()
    page.get_by_role("group", name="Who went out?").get_by_text("Ann", exact=True).tap()
    for name, rack in (("Bo", "22"), ("Cy", "55"), ("Di", "8")):
        page.get_by_role("textbox", name=name, exact=True).fill(rack)
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 1 saved.")).to_be_visible()

    # The other phone, without a reload: the message, the row, the totals (how soon is
    # `make bench`'s to say: bench/live.py; the wait here only guards against a hang).
    expect(other_phone.locator("#live-change")).to_have_text("Round 1 added.", timeout=LIVE_WAIT)
    expect(round_cells(other_phone, 1)).to_have_text(starting_with("+85", "-22", "-55", "-8"))
    expect(other_phone.locator("#round-of")).to_have_text("Round 2 of 3")
    chart = other_phone.locator("#chart img:visible")
    expect(chart).to_have_attribute("src", re.compile(r"chart\.svg\?v="))
    # The phone that saved says nothing of its own change.
    expect(page.locator("#live-change")).to_have_text("")

    # And back: the other phone deletes the round (asked in place); the first sees it go.
    other_phone.get_by_role("link", name="Edit round 1").tap()
    other_phone.get_by_role("link", name="Delete round 1…").tap()
    other_phone.get_by_role("button", name="Delete", exact=True).tap()
    expect(other_phone.get_by_role("button", name="Undo")).to_be_visible()
    expect(page.locator("#live-change")).to_have_text("Round 1 deleted.", timeout=LIVE_WAIT)
    expect(page.get_by_text("No rounds yet.")).to_be_visible()
    expect(page.locator("#chart")).to_have_count(0)
    # An Undo on the other phone puts it back, and the first phone follows again.
    other_phone.get_by_role("button", name="Undo").tap()
    expect(other_phone.get_by_text("Round 1 is back.")).to_be_visible()
    expect(page.locator("#live-change")).to_have_text("Round 1 put back.", timeout=LIVE_WAIT)
    expect(round_cells(page, 1)).to_have_text(starting_with("+85", "-22", "-55", "-8"))


def test_another_phone_saves_while_a_round_is_typed_in_place(
    page: Page, other_phone: Page, live_server: str
) -> None:
    """Phone A is typing round 2 in place when phone B saves round 2: A's table follows and A
    is told, what A typed (and the caret) stays; A's Save is answered that round 2 was just
    saved, with the typed values kept beside the new table; saved again, it is round 3."""
    session_id = new_session(live_server, PLAYERS)
    round_1 = went_out("Ann", Bo=22, Cy=55, Di=8)
    add_round(live_server, session_id, round_1)
    url = f"{live_server}/sessions/{session_id}"
    page.goto(url)
    other_phone.goto(url)

    # A opens round 2 in place (Cy went out) and types two racks and half of the third.
    page.get_by_role("region", name="Who went out?").get_by_role("link", name="Cy").tap()
    expect(page.locator("#entry #round-form")).to_be_visible()
    expect(page.get_by_role("textbox", name="Ann", exact=True)).to_be_focused()
    page.keyboard.type("12")
    page.keyboard.press("Enter")
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    page.keyboard.type("34")
    di = page.get_by_role("textbox", name="Di", exact=True)
    expect(di).to_be_focused()
    di.evaluate("(e) => e.setSelectionRange(1, 1)")  # the caret between 3 and 4

    # B saves round 2 in place meanwhile: Bo went out.
    other_phone.get_by_role("region", name="Who went out?").get_by_role("link", name="Bo").tap()
    for name, rack in (("Ann", "5"), ("Cy", "6"), ("Di", "9")):
        other_phone.get_by_role("textbox", name=name, exact=True).fill(rack)
    other_phone.get_by_role("button", name="Save round").tap()
    expect(other_phone.get_by_text("Round 2 saved.")).to_be_visible()

    # A's table follows, A is told, and A's round stays as typed, the caret where it was.
    expect(page.locator("#live-change")).to_have_text("Round 2 added.", timeout=LIVE_WAIT)
    expect(round_cells(page, 2)).to_have_text(starting_with("-5", "+20", "-6", "-9"))
    for name, value in (("Ann", "12"), ("Bo", "7"), ("Di", "34")):
        expect(page.get_by_role("textbox", name=name, exact=True)).to_have_value(value)
    expect(page.locator("#entry input[name=number]")).to_have_value("2")
    expect(page.get_by_role("radio", name="Cy")).to_be_checked()
    expect(di).to_be_focused()
    assert di.evaluate("(e) => [e.selectionStart, e.selectionEnd]") == [1, 1]

    # A's Save (the last Enter): not stored as a second round 2, nor over B's; the reason
    # said, what was typed kept, the form now for round 3.
    page.keyboard.press("Enter")
    expect(page.locator("#entry [role=alert]")).to_contain_text(
        "Someone just saved round 2: check the table before saving again."
    )
    expect(page.get_by_text("Someone just saved round 2")).to_have_count(1)  # said once
    expect(page.locator("#entry input[name=number]")).to_have_value("3")
    expect(page.get_by_role("radio", name="Cy")).to_be_checked()
    for name, value in (("Ann", "12"), ("Bo", "7"), ("Di", "34")):
        expect(page.get_by_role("textbox", name=name, exact=True)).to_have_value(value)
    expect(round_cells(page, 2)).to_have_text(starting_with("-5", "+20", "-6", "-9"))
    stored = page.request.get(f"{live_server}/api/v1/sessions/{session_id}").json()["rounds"]
    assert [r["scores"]["Bo"] for r in stored] == [-22, 20]

    # Saved again after a look: round 3, B's round 2 untouched.
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 3 saved.")).to_be_visible()
    expect(round_cells(page, 3)).to_have_text(starting_with("-12", "-7", "+53", "-34"))
    expect(round_cells(page, 2)).to_have_text(starting_with("-5", "+20", "-6", "-9"))
    stored = page.request.get(f"{live_server}/api/v1/sessions/{session_id}").json()["rounds"]
    assert [r["number"] for r in stored] == [1, 2, 3]
    assert stored[2]["scores"] == {"Ann": -12, "Bo": -7, "Cy": 53, "Di": -34}
    # And B follows A's round 3.
    expect(other_phone.locator("#live-change")).to_have_text("Round 3 added.", timeout=LIVE_WAIT)


def test_a_round_saved_in_place_brings_the_new_chart_after_the_table(
    page: Page, live_server: str
) -> None:
    """The session page's chart image (the drawing of the page's theme, light here) is fetched
    lazily, after the layout that puts the new table in place, or once it comes near the
    screen; after a round saved in place the new chart comes."""
    session_id = new_session(live_server, PLAYERS)
    round_1 = went_out("Ann", Bo=22, Cy=55, Di=8)
    add_round(live_server, session_id, round_1)
    loaded = "img => img.complete && img.naturalWidth > 0"
    page.goto(f"{live_server}/sessions/{session_id}")
    chart = page.locator("#chart img:visible")
    expect(chart).to_have_attribute("loading", "lazy")
    page.wait_for_function(f"() => ({loaded})(document.querySelector('#chart img'))")
    old = chart.get_attribute("src")
    page.get_by_role("region", name="Who went out?").get_by_role("link", name="Bo").tap()
    for name, rack in (("Ann", "5"), ("Cy", "6"), ("Di", "9")):
        page.get_by_role("textbox", name=name, exact=True).fill(rack)
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 2 saved.")).to_be_visible()
    expect(chart).not_to_have_attribute("src", old or "")
    expect(chart).to_have_attribute("loading", "lazy")
    page.wait_for_function(f"() => ({loaded})(document.querySelector('#chart img'))")


def test_an_api_change_and_a_rename_reach_the_page(
    page: Page, other_phone: Page, live_server: str
) -> None:
    session_id = new_session(live_server, PLAYERS)
    page.goto(f"{live_server}/sessions/{session_id}")
    expect(page.locator("#round-of")).to_have_text("Round 1 of 3")
    other_phone.goto(f"{live_server}/sessions/{session_id}")
    other_phone.locator("#notes-section > summary").tap()  # "More": the links to the details
    other_phone.get_by_role("link", name="Rename a player").tap()
    other_phone.get_by_label("Player", exact=True).select_option("Bo")
    other_phone.get_by_label("New name").fill("Bob")
    other_phone.get_by_role("button", name="Rename").tap()
    expect(other_phone.get_by_text("Renamed to Bob.")).to_be_visible()
    expect(page.locator("#live-change")).to_have_text("Bo renamed to Bob.", timeout=LIVE_WAIT)
    expect(page.locator("table.scores thead")).to_contain_text("Bob")
    response = page.request.post(
        f"{live_server}/api/v1/sessions/{session_id}/extend", data={"rounds": 1}
    )
    assert response.ok
    expect(page.locator("#live-change")).to_have_text("One more round agreed.", timeout=LIVE_WAIT)
    expect(page.locator("#round-of")).to_have_text("Round 1 of 4")


def test_the_chart_draws_one_line_per_player(page: Page, live_server: str) -> None:
    session_id = new_session(live_server, LONG_NAMES, rules={"tile_sets": 2}, rounds=2)
    for scores in ([120, -30, -20, -40, -10, -20], [-5, 60, -15, -10, -20, -10]):
        add_round(
            live_server,
            session_id,
            {"ending": "scores", "scores": dict(zip(LONG_NAMES, scores, strict=True))},
        )
    for path in ("", "/summary"):
        page.goto(f"{live_server}/sessions/{session_id}{path}")
        chart = page.locator("#chart img:visible")
        expect(chart).to_be_visible()
        chart.evaluate("img => img.decode()")  # loaded (lazily on the session page)
        assert chart.evaluate("img => img.complete && img.naturalWidth") == 360
        box = chart.bounding_box()
        assert box is not None and 300 <= box["width"] <= PHONE["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The image itself: one line and one marker row per player, each in its own colour.
    image = page.request.get(live_server + chart.get_attribute("src"))
    assert image.headers["content-type"].startswith("image/svg+xml")
    svg = image.text()
    assert svg.count("<polyline") == len(LONG_NAMES)
    assert svg.count('class="markers"') == len(LONG_NAMES)
    strokes = set(re.findall(r'<g class="series series-\d" stroke="([^"]+)"', svg))
    assert len(strokes) == len(LONG_NAMES)
    # Drawn, each name of the legend ends before the next column's tile (or the edge).
    page.goto(live_server + chart.get_attribute("src"))
    gaps = page.evaluate(
        """() => {
        const names = [...document.querySelectorAll('.chart-name')];
        const tiles = [...document.querySelectorAll('.chart-mark rect:first-child')];
        return names.map((name, i) => {
            const box = name.getBBox();
            const next = i % 2 == 0 ? tiles[i + 1].x.baseVal.value : 360;
            return next - (box.x + box.width);
        });
    }"""
    )
    assert len(gaps) == len(LONG_NAMES) and min(gaps) >= 4, gaps
    page.go_back()
    expect(page.get_by_text("Anna-Katharina wins!")).to_be_visible()
    expect(page.get_by_role("link", name="Chart as a picture (SVG)")).to_be_visible()
    with page.expect_download() as download:
        page.get_by_role("link", name="Chart as a picture (SVG)").click()
    assert download.value.suggested_filename.endswith("-chart.svg")


SHOWN_CHART = """() => [...document.querySelectorAll('#chart img')]
    .filter(img => getComputedStyle(img).display !== 'none')
    .map(img => [img.complete && img.naturalWidth, img.currentSrc])"""


def shown_chart(page: Page, theme: str) -> str:
    """The address of the one chart the page shows, once it has loaded, in `theme`."""
    page.locator("#chart").scroll_into_view_if_needed()
    page.wait_for_function(
        f"() => {{ const shown = ({SHOWN_CHART})(); return shown.length === 1 && shown[0][0]; }}"
    )
    [(width, src)] = page.evaluate(SHOWN_CHART)
    assert width == 360
    assert ("theme=dark" in src) == (theme == "dark")
    return src


def test_the_chart_follows_the_theme_and_only_the_shown_one_is_fetched(
    browser: Any, live_server: str
) -> None:
    """The session page and the summary show the chart of the theme the page is in (the
    system's, or the one chosen with the theme button), and fetch only that one."""
    for system in ("dark", "light"):
        context = browser.new_context(viewport=PHONE, is_mobile=True, color_scheme=system)
        page = context.new_page()
        page.set_default_timeout(10_000)
        fetched: list[str] = []
        page.on(
            "request", lambda r, fetched=fetched: "chart.svg" in r.url and fetched.append(r.url)
        )
        session_id = new_session(live_server, PLAYERS)
        add_round(
            live_server,
            session_id,
            {"ending": "scores", "scores": {"Ann": 30, "Bo": -10, "Cy": -10, "Di": -10}},
        )
        for path in ("", "/summary"):
            fetched.clear()
            page.goto(f"{live_server}/sessions/{session_id}{path}")
            src = shown_chart(page, system)
            # Both drawings are in the page from its parse: by the time the shown one has
            # loaded, a fetch of the other would have begun.
            assert fetched == [src]  # the other drawing, not shown, is not fetched
            image = page.request.get(src).text()
            assert f'data-theme="{system}"' in image
        # On paper, the light drawing, whatever the page's theme.
        page.emulate_media(media="print")
        shown_chart(page, "light")
        page.emulate_media(media="screen")
        # The theme button: system -> light -> dark, and the chart follows each time.
        toggle = page.locator("#theme-toggle")
        toggle.click()
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
        src = shown_chart(page, "light")
        toggle.click()
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        assert shown_chart(page, "dark") != src
        assert len(fetched) == 2 and len(set(fetched)) == 2  # each drawing once
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        # A round from another phone reaches the session page: the new chart, in its theme.
        page.goto(f"{live_server}/sessions/{session_id}")
        shown_chart(page, "dark")
        fetched.clear()
        add_round(
            live_server,
            session_id,
            {"ending": "scores", "scores": {"Ann": -10, "Bo": 30, "Cy": -10, "Di": -10}},
        )
        expect(page.locator("#live-change")).to_have_text("Round 2 added.", timeout=LIVE_WAIT)
        src = shown_chart(page, "dark")
        assert fetched == [src] and "-v3-" in src
        context.close()


def test_dark_mode_switches_and_persists_across_reload(page: Page, live_server: str) -> None:
    page.emulate_media(color_scheme="light")
    page.goto(live_server + "/")
    choice = page.locator("#theme-toggle")
    expect(choice).to_be_visible()
    expect(choice).to_have_accessible_name("Theme: System")
    assert background(page) == LIGHT_BG

    choice.click()  # system -> light -> dark
    choice.click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(choice).to_have_accessible_name("Theme: Dark")
    assert background(page) == DARK_BG
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.locator("#theme-toggle")).to_have_accessible_name("Theme: Dark")
    assert background(page) == DARK_BG

    # Light chosen on a phone whose system is dark: the choice wins, and is remembered.
    page.emulate_media(color_scheme="dark")
    page.locator("#theme-toggle").click()  # dark -> system
    page.locator("#theme-toggle").click()  # system -> light
    expect(page.locator("#theme-toggle")).to_have_accessible_name("Theme: Light")
    assert background(page) == LIGHT_BG
    page.goto(live_server + "/sessions/new")
    assert background(page) == LIGHT_BG
    # Back to following the system.
    page.locator("#theme-toggle").click()  # light -> dark
    page.locator("#theme-toggle").click()  # dark -> system
    expect(page.locator("html")).not_to_have_attribute("data-theme", "light")
    assert background(page) == DARK_BG
    page.reload()
    assert background(page) == DARK_BG


def test_keep_the_screen_on_is_remembered(page: Page, live_server: str) -> None:
    session_id = new_session(live_server, PLAYERS)
    page.goto(f"{live_server}/sessions/{session_id}")
    button = page.locator("#keep-awake")
    expect(button).to_be_visible()
    expect(button).to_have_attribute("aria-pressed", "false")
    fill = "el => getComputedStyle(el).backgroundColor"
    primary = page.locator("#add-round").evaluate(fill)
    button.tap()
    # A switch: its words stay, aria-pressed says its state (drawn as the switch's knob), and
    # it stays quiet: never a second button in the primary colour.
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(button).to_have_text("Keep the screen on")
    assert button.evaluate(fill) != primary
    page.reload()
    expect(page.locator("#keep-awake")).to_have_attribute("aria-pressed", "true")
    page.locator("#keep-awake").tap()
    expect(page.locator("#keep-awake")).to_have_attribute("aria-pressed", "false")
    page.reload()
    expect(page.locator("#keep-awake")).to_have_attribute("aria-pressed", "false")


def test_the_table_stays_usable_at_200_percent_text(
    page: Page, live_server: str, tmp_path: Path
) -> None:
    """The phone's text size at 32 px (twice the usual 16): nothing overlaps, no number is cut,
    the page does not scroll sideways; the table scrolls sideways on its own instead."""
    session_id = new_session(live_server, LONG_NAMES, rules={"tile_sets": 2})
    for scores in ([120, -30, -20, -40, -10, -20], [-5, 60, -15, -10, -20, -10]):
        add_round(
            live_server,
            session_id,
            {"ending": "scores", "scores": dict(zip(LONG_NAMES, scores, strict=True))},
        )
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 32}})
    for path in ("", "/summary"):
        page.goto(f"{live_server}/sessions/{session_id}{path}")
        assert page.evaluate("getComputedStyle(document.body).fontSize") == "34px"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        cut = page.locator(".scores td").evaluate_all(
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
        )
        assert cut == []
        table = page.locator("#scores-table")
        sideways = table.evaluate("t => [t.scrollWidth, t.clientWidth]")
        assert sideways[0] > sideways[1]  # six players at this size scroll within the table
        page.screenshot(path=str(tmp_path / f"large-text{path.replace('/', '-')}.png"))
    # The blocks of the session page follow one another without overlapping.
    page.goto(f"{live_server}/sessions/{session_id}")
    boxes = page.locator(
        "#live > p.meta, #scores-table, #live > .actions > *, #chart, .comfort, details.more"
    ).evaluate_all(
        "els => els.filter(e => e.offsetParent).map(e => {"
        " const r = e.getBoundingClientRect(); return [r.top, r.bottom]; })"
    )
    assert len(boxes) >= 6
    for (_, bottom), (top, _) in zip(boxes, boxes[1:], strict=False):
        assert top >= bottom - 1


# Every control a person taps on the session page, and its box (for a radio or a checkbox, its
# label's); links inside a sentence are left out, as WCAG's target size does (their size is
# the line's).
TARGETS = """() => {
  const squeeze = (s) => (s || "").replace(/\\s+/g, " ").trim();
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
  const inSentence = (e) => {
    if (e.tagName !== "A" || getComputedStyle(e).display !== "inline") return false;
    const block = e.parentElement.closest("p, li, figcaption, dd, td, div");
    return squeeze(block && block.textContent).length > squeeze(e.textContent).length;
  };
  const controls = "a[href], button, input:not([type=hidden]), select, textarea, summary, "
    + "[tabindex]:not([tabindex='-1']), [role=button], [role=link]";
  return Array.from(document.querySelectorAll(controls))
    .filter((e) => shown(e) && !e.closest("[aria-hidden=true]") && !inSentence(e))
    .map((e) => {
      const target = ["radio", "checkbox"].includes(e.type) && e.labels[0] || e;
      const box = target.getBoundingClientRect();
      const name = squeeze(e.getAttribute("aria-label") || e.textContent || e.name);
      return [`${e.tagName.toLowerCase()} ${name}`, box.width, box.height];
    });
}"""
# Too small today, left to the restyle of the page (not this test's to fix): the tiles of a
# rack in a table cell, and the QR code's summary. Drop a line once its control is 44×44.
TOO_SMALL_FOR_NOW: set[str] = set()


def test_every_control_on_the_session_page_is_44_px_square(page: Page, live_server: str) -> None:
    """At 360 px, every control of the session page (the round numbers, which edit their
    round, first) is at least 44×44 CSS px: with rounds and the Undo offer, with each ending
    open in place, and once the session is finished; every <details> open."""
    page.set_viewport_size({"width": 360, "height": 640})
    session_id = new_session(live_server, PLAYERS, rounds=2)
    racks = {"Bo": "r7 k13 j", "Cy": 5, "Di": 8}
    round_1 = went_out("Ann", **racks)
    add_round(live_server, session_id, round_1)
    page.goto(f"{live_server}/sessions/{session_id}")
    small: dict[str, set[str]] = {}

    def measure(state: str) -> None:
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        found = page.evaluate(TARGETS)
        assert any(name == "a Edit round 1" for name, _, _ in found), state
        for name, width, height in found:
            if width < 44 or height < 44:
                small.setdefault(name, set()).add(f"{state}: {width:.0f}×{height:.0f}")

    page.get_by_role("region", name="Who went out?").get_by_role("link", name="Ann").tap()
    measure("went out, in place")
    for ending in ("The pool ran out", "Scores as on paper"):
        page.locator("#entry nav.tabs").get_by_role("link", name=ending).tap()
        expect(page.locator("#entry nav.tabs a[aria-current=page]")).to_have_text(ending)
        measure(f"{ending}, in place")
    page.locator("#entry nav.tabs").get_by_role("link", name="Someone went out").tap()
    page.get_by_role("group", name="Who went out?").get_by_text("Bo", exact=True).tap()
    for name, rack in (("Ann", "3"), ("Cy", "5"), ("Di", "8")):
        page.get_by_role("textbox", name=name, exact=True).fill(rack)
    page.get_by_role("button", name="Save round").tap()
    expect(page.get_by_text("Round 2 saved.")).to_be_visible()
    measure("finished, with Undo")
    page.reload()
    measure("finished")
    assert {name for name in small if name not in TOO_SMALL_FOR_NOW} == set(), small
    assert set(small) == TOO_SMALL_FOR_NOW, f"now 44×44, drop from TOO_SMALL_FOR_NOW: {small}"
