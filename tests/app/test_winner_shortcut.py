"""The hot path's first tap on the session page: "Who went out?" lists the players, each a link
to the round form with that winner chosen and the first other rack focused (no JavaScript)."""

from __future__ import annotations

import html
import re

import pytest
from factories import new_session_by_form
from flask.testing import FlaskClient

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

FOUR = ["Ann", "Bo", "Cy", "Di"]


def marked(page: str) -> list[str]:
    """The ids of the inputs the page checks or focuses, as `checked:id` / `autofocus:id`."""
    found = []
    for tag in re.findall(r"<input[^>]*>", page):
        field_id = re.search(r'id="([^"]+)"', tag)
        for flag in ("checked", "autofocus"):
            if field_id and re.search(rf"\s{flag}[\s>]", tag):
                found.append(f"{flag}:{field_id[1]}")
    return found


def test_the_session_page_links_each_player_to_the_round_form(client: FlaskClient) -> None:
    sid = new_session_by_form(client, FOUR)
    page = html.unescape(client.get(f"/sessions/{sid}").get_data(as_text=True))
    section = page[page.index('<section class="went-out card"') :]
    section = section[: section.index("</section>")]
    picks = section[section.index('<div class="pick-buttons">') :]
    picks = picks[: picks.index("</div>")]
    assert '<h2 id="went-out-heading">Who went out?</h2>' in section
    links = re.findall(
        r'<a data-entry href="([^"]+)">'
        r'<span class="mark s\d" aria-hidden="true">\w+</span>([^<]+)</a>',
        picks,
    )
    # Relative to the session page, as its other links.
    assert links == [(f"{sid}/rounds/new?winner={i}", name) for i, name in enumerate(FOUR)]


@pytest.mark.parametrize(
    ("winner", "expected"),
    [
        ("0", ["checked:winner-0", "autofocus:rack_1"]),
        ("2", ["checked:winner-2", "autofocus:rack_0"]),
        ("3", ["checked:winner-3", "autofocus:rack_0"]),
    ],
)
def test_a_winner_from_the_session_page_is_chosen_and_typing_starts_at_the_next_rack(
    client: FlaskClient, winner: str, expected: list[str]
) -> None:
    sid = new_session_by_form(client, FOUR)
    response = client.get(f"/sessions/{sid}/rounds/new", query_string={"winner": winner})
    assert response.status_code == 200
    assert marked(response.get_data(as_text=True)) == expected


@pytest.mark.parametrize("winner", ["4", "-1", "01", "x", "²", "", "9" * 5000])
def test_a_winner_that_is_no_seat_is_ignored(client: FlaskClient, winner: str) -> None:
    sid = new_session_by_form(client, FOUR)
    response = client.get(f"/sessions/{sid}/rounds/new", query_string={"winner": winner})
    assert response.status_code == 200
    assert marked(response.get_data(as_text=True)) == []


def test_the_winner_is_only_chosen_for_a_went_out_round(client: FlaskClient) -> None:
    sid = new_session_by_form(client, FOUR)
    for ending in ("pool_empty", "scores"):
        response = client.get(
            f"/sessions/{sid}/rounds/new", query_string={"ending": ending, "winner": "1"}
        )
        assert response.status_code == 200
        assert marked(response.get_data(as_text=True)) == []


def test_no_winner_links_once_every_round_is_played(client: FlaskClient) -> None:
    sid = new_session_by_form(client, FOUR, rounds="1")
    form = {"ending": "went_out", "winner": "0", "rack_1": "5", "rack_2": "6", "rack_3": "7"}
    assert client.post(f"/sessions/{sid}/rounds/new", data=form).status_code == 302
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert "went-out-heading" not in page
    assert "rounds/new?winner=" not in page
