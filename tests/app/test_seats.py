"""Each seat's mark (web/seats.py): initials unique in a session, the seat colours and the
chart's read out of app.css in both themes and readable there, and a player's own mark on
their page, the same colour on every visit."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any

import pytest
from factories import new_session
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import RulesError
from scorekeeper.rules.players import MAX_NAME, clean_name
from scorekeeper.web.seats import SEATS, colours, initials, marks, palette, player_mark

pytestmark = pytest.mark.one_database

API = "/api/v1"


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        (["Ann", "Bo", "Cy", "Di"], ["A", "B", "C", "D"]),
        (["Anna Berg", "Bo"], ["AB", "B"]),
        (["Mormor", "Morfar"], ["MM", "MF"]),  # the letter that tells them apart
        (["Anna Berg", "Anna Bo"], ["AE", "AO"]),
        (["Ann", "Anne", "Anders", "Bo"], ["AN", "AE", "AD", "B"]),
        (["Mormor", "Morfar", "Mia Fox"], ["MM", "MO", "MF"]),  # MF was Mia Fox's already
        (["Ann", "Ann"], ["A1", "A2"]),  # the same name twice: the seat number
        (["ann", "ANN ", "Ann"], ["A1", "A2", "A3"]),
        (["A 2", "Ann", "Ann"], ["A2", "A2′", "A3"]),
        (["Ann-Marie", "Anna"], ["AM", "AA"]),  # punctuation is not a letter
        (["3 Kings", "3 Queens", "42"], ["3K", "3Q", "4"]),  # leading digits
        (["😀 Joy", "😀 Jo"], ["😀Y", "😀J"]),  # an emoji is one glyph
        (["🇩🇰 Lars", "🇩🇰 Lis"], ["🇩🇰A", "🇩🇰I"]),  # a flag is two code points, one glyph
        (["👍🏽 Max", "Ole"], ["👍🏽M", "O"]),  # a skin tone stays with its hand
        (["A\u030angstrom", "Bo"], ["A\u030a", "B"]),  # a combining ring stays on its A
        (["ßig", "ßag"], ["ßI", "ßA"]),  # no capital of the same length: as written
        (["  Bo  Berg ", "Cy"], ["BB", "C"]),  # spaces as typed (clean_name folds them)
        (["!!!", "???"], ["!", "?"]),
    ],
)
def test_initials_are_short_and_unique(players: list[str], expected: list[str]) -> None:
    assert initials(players) == expected


def _names() -> st.SearchStrategy[str]:
    """Names as the app keeps them: clean_name's, from family-like letters and any text."""
    letters = st.text(alphabet="AaMmOoRrFfBb -ÅåßØ😀🇩🇰3", min_size=1, max_size=12)

    def clean(text: str) -> str | None:
        try:
            return clean_name(text)
        except RulesError:
            return None

    any_text = st.text(min_size=1, max_size=MAX_NAME)
    return st.one_of(letters, any_text).map(clean).filter(lambda name: name is not None)  # type: ignore[return-value]


@settings(max_examples=400, deadline=None)
@given(st.lists(_names(), min_size=1, max_size=SEATS))
def test_any_seating_has_unique_initials(players: list[str]) -> None:
    found = initials(players)
    assert len(set(found)) == len(players), (players, found)
    assert all(1 <= len(mark) <= 12 and mark.strip() == mark for mark in found)


def test_marks_give_each_seat_its_colour_in_seating_order() -> None:
    found = marks(["Ann", "Bo", "Cy", "Di", "Ed", "Flo"])
    assert [m.css for m in found] == ["s1", "s2", "s3", "s4", "s5", "s6"]
    assert [m.initials for m in found] == ["A", "B", "C", "D", "E", "F"]
    assert [m.name for m in found] == ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    high, low = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_colours_are_read_out_of_app_css_six_a_theme() -> None:
    found = colours()
    assert set(found) == {"light", "dark"}
    for theme in found.values():
        assert len(theme) == SEATS == len(set(theme))
        assert all(re.fullmatch(r"#[0-9a-f]{6}", colour) for colour in theme)
    assert not set(found["light"]) & set(found["dark"])
    assert palette()["light"]["card"] == "#fffcf5" and palette()["dark"]["card"] == "#1e1c18"
    # The tokens the chart draws with are there in both themes.
    for theme in palette().values():
        assert {"card", "tile", "fg", "muted", "border", "line"} <= set(theme)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_each_seat_colour_reads_on_the_card_and_on_its_tile(theme: str) -> None:
    """A player's line at least 3:1 on the chart's card, their initials 4.5:1 on the tile."""
    tokens = palette()[theme]
    for seat, colour in enumerate(colours()[theme], start=1):
        assert contrast(colour, tokens["card"]) >= 3, (theme, seat)
        assert contrast(colour, tokens["tile"]) >= 4.5, (theme, seat)
    assert contrast(tokens["fg"], tokens["card"]) >= 4.5
    assert contrast(tokens["muted"], tokens["card"]) >= 4.5
    assert contrast(tokens["border"], tokens["card"]) >= 3  # the chart's grid


def test_a_player_mark_without_one_seat_comes_from_the_name_the_same_every_time() -> None:
    assert player_mark("Ann", 0).css == "s1" and player_mark("Ann", 3).css == "s4"
    mark = player_mark("Anna Berg", None)
    assert mark.initials == "AB" and mark == player_mark("Anna Berg", None)
    # The name as the app compares names: case and spacing do not change the colour.
    assert player_mark("anna  berg", None).seat == mark.seat
    # Not Python's hash(), which changes with every process: another process agrees.
    program = (
        "from scorekeeper.web.seats import player_mark; print(player_mark('Anna Berg', None).seat)"
    )
    for seed in ("1", "2"):
        other = subprocess.run(
            [sys.executable, "-c", program],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert int(other.stdout) == mark.seat
    # Different names spread over the six colours.
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lea"]
    assert len({player_mark(name, None).seat for name in names}) >= 4


def _player_page(client: FlaskClient, name: str, query: str = "") -> Any:
    players = client.get("/players").get_data(as_text=True)
    found = re.search(rf'<a href="/players/(\d+)">{name}</a>', players)
    assert found, name
    return client.get(f"/players/{found[1]}{query}")


def _heading_mark(page: str) -> tuple[str, str]:
    found = re.search(
        r'<h1 class="named"><span class="mark (s\d)" aria-hidden="true">([^<]+)</span>([^<]+)</h1>',
        page,
    )
    assert found
    return found[1], found[2]


def test_a_player_page_shows_the_mark_of_the_seat_they_always_sat_at(
    client: FlaskClient,
) -> None:
    new_session(client, ["Anna Berg", "Bo", "Cy"])
    new_session(client, ["Anna Berg", "Cy", "Bo", "Di"])
    # Anna always sat first: the first seat's colour, as the table showed her.
    assert _heading_mark(_player_page(client, "Anna Berg").get_data(as_text=True)) == ("s1", "AB")
    # Cy sat third, then second: the colour their name picks.
    expected = player_mark("Cy", None)
    assert _heading_mark(_player_page(client, "Cy").get_data(as_text=True)) == (
        expected.css,
        "C",
    )
    # The mark is the same whatever the period, and with dates to fix too.
    for query in ("?from=2000-01-01&to=2000-01-02", "?from=yesterday"):
        response = _player_page(client, "Anna Berg", query)
        assert _heading_mark(response.get_data(as_text=True)) == ("s1", "AB")
