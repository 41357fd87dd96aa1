"""Drop-worst read on a phone as one story (the struck-out cell, the Total, the chart's end and
its rings, the caption), and a session made without a name read in the reading phone's
language, two of one day told apart on the home page (issue #24, items 7 and 9)."""

from __future__ import annotations

import re
from datetime import date

from babel.dates import format_date
from playwright.sync_api import Browser, Page, expect

SMALL = {"width": 360, "height": 640}
FOUR = ["Sofie", "Peter", "Anders", "Mormor"]
# Sofie drops round 2 (-30), Peter and Anders round 1, Mormor round 3: totals +62 +102 -10 -35
ROUNDS = [
    {"Sofie": 72, "Peter": -8, "Anders": -41, "Mormor": -23},
    {"Sofie": -30, "Peter": 47, "Anders": -5, "Mormor": -12},
    {"Sofie": -10, "Peter": 55, "Anders": -5, "Mormor": -40},
]


def test_a_drop_worst_evening_tells_one_story_on_a_phone(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context(viewport=SMALL, has_touch=True, is_mobile=True)
    page = context.new_page()
    made = page.request.post(
        f"{live_server}/api/v1/sessions",
        data={"players": FOUR, "rules": {"drop_worst_round": True}},
    )
    sid = made.json()["id"]
    for scores in ROUNDS:
        added = page.request.post(
            f"{live_server}/api/v1/sessions/{sid}/rounds",
            data={"ending": "scores", "scores": scores, "confirm": True},
        )
        assert added.status == 201, added.text()
    page.goto(f"{live_server}/sessions/{sid}")

    # The dropped cell: struck out once; "dropped" is said to a screen reader, not shown.
    cell = page.locator("table.scores tbody tr").nth(1).locator("td").first
    expect(cell.locator("s")).to_have_count(1)
    assert cell.locator("s").evaluate("s => getComputedStyle(s).textDecorationLine") == (
        "line-through"
    )
    hidden = cell.get_by_text("dropped")
    box = hidden.bounding_box()
    assert box is not None and box["width"] <= 1 and box["height"] <= 1
    expect(page.locator("tr.dropped-row td").first).to_contain_text("round 2")
    totals = page.locator("tr.totals td b").all_inner_texts()
    assert totals == ["+62", "+102", "-10", "-35"]

    # The caption under the chart says what happened, on screen once scrolled to.
    caption = page.locator("#chart-caption")
    caption.scroll_into_view_if_needed()
    expect(caption).to_contain_text("Each player's worst round is left out of the total")
    expect(caption).to_be_in_viewport()

    # The chart the phone shows ends at the Total, and rings each dropped round on its line.
    chart = page.locator("#chart img").first
    expect(chart).to_be_visible()
    source = chart.evaluate("img => img.currentSrc")
    drawing = context.new_page()
    drawing.goto(source)
    desc = drawing.locator("desc").first.text_content() or ""
    assert "Sofie +62, Peter +102, Anders -10, Mormor -35." in desc
    rings = drawing.evaluate(
        """() => [...document.querySelectorAll('circle.dropped-ring')].map(ring => {
            const player = ring.getAttribute('data-player');
            const line = document.querySelector(`g.series[data-player="${player}"] polyline`);
            const points = line.getAttribute('points').split(' ');
            const at = points[Number(ring.getAttribute('data-round'))];
            return [player, ring.getAttribute('data-round'),
                    at === `${ring.getAttribute('cx')},${ring.getAttribute('cy')}`];
        })"""
    )
    assert sorted(rings) == [
        ["Anders", "1", True],
        ["Mormor", "3", True],
        ["Peter", "1", True],
        ["Sofie", "2", True],
    ]
    context.close()


def start_without_a_name(page: Page, live_server: str, players: list[str]) -> int:
    """The new-session form, names typed and Start tapped, no session name."""
    page.goto(live_server + "/sessions/new")
    for seat, name in enumerate(players):
        page.locator(f'input[name="player_{seat}"]').fill(name)
    page.locator("button.big[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/sessions/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def test_an_english_phone_reads_a_danish_made_session_in_english(
    browser: Browser, live_server: str
) -> None:
    danish = browser.new_context(locale="da-DK", extra_http_headers={"Accept-Language": "da"})
    maker = danish.new_page()
    first = start_without_a_name(maker, live_server, ["Mormor", "Peter"])
    second = start_without_a_name(maker, live_server, ["Sofie", "Anders"])
    today = date.today()
    in_danish = format_date(today, "EEEE d MMMM", locale="da")
    expect(maker.locator("h1")).to_have_text(in_danish)

    english = browser.new_context(
        viewport={"width": 390, "height": 844},
        locale="en-GB",
        extra_http_headers={"Accept-Language": "en-GB"},
    )
    reader = english.new_page()
    in_english = format_date(today, "EEEE d MMMM", locale="en")
    reader.goto(live_server + "/")
    cards = [reader.locator(f'a.session-card[href="/sessions/{sid}"]') for sid in (first, second)]
    for card in cards:
        expect(card.locator(".card-title")).to_contain_text(in_english)
        expect(card.locator(".card-when")).to_have_text(
            re.compile(r"^Started \d\d:\d\d( \([12]\))?$")
        )
    assert cards[0].locator(".card-when").text_content() != (
        cards[1].locator(".card-when").text_content()
    )
    assert in_danish not in reader.content()
    cards[0].click()
    expect(reader.locator("h1")).to_have_text(in_english)
    assert in_english in reader.title()
    danish.close()
    english.close()
