"""Page weight: each page's HTML plus the stylesheets and scripts it loads stays within 30 KB,
and within 10 KB as sent to a browser that accepts gzip. Sizes, not timings: exact and steady.

bench/page_weight.py reports the same figures in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from flask import Flask
from flask.testing import FlaskClient

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = [pytest.mark.shared_app, pytest.mark.one_database]

KB = 1024
BUDGET = (30 * KB, 10 * KB)  # uncompressed, gzip
SIX = ["Alexandra", "Bartholomew", "Cy", "Dorothea", "Eero", "Łukasz"]
GZIP = {"Accept-Encoding": "gzip"}


@dataclass
class Weight:
    raw: int  # HTML + CSS + JS, uncompressed
    sent: int  # the same, as sent (gzip where the response is compressed)
    files: list[str]


def fetch(client: FlaskClient, url: str) -> tuple[bytes, int]:
    """A response's body uncompressed, and how many bytes it took as sent."""
    response = client.get(url, headers=GZIP)
    assert response.status_code in (200, 404), url
    body = response.get_data()
    if response.headers.get("Content-Encoding") == "gzip":
        return gzip.decompress(body), len(body)
    return body, len(body)


def weigh(client: FlaskClient, url: str) -> Weight:
    html, sent = fetch(client, url)
    page = html.decode()
    files = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)
    files += re.findall(r'<script src="([^"]+)"', page)
    raw = len(html)
    for file in files:
        body, size = fetch(client, file)
        raw += len(body)
        sent += size
    return Weight(raw, sent, files)


@pytest.fixture
def pages(app: Flask) -> dict[str, str]:
    """Every page a person sees, at its fullest: six players, 30 rounds (some racks as tiles),
    the turn clock on; a finished evening; the sign-in page behind a passphrase."""
    client = app.test_client()
    big = client.post(
        "/api/v1/sessions",
        json={"players": SIX, "rounds": 32, "rules": {"tile_sets": 2, "seconds_per_turn": 60}},
    ).json["id"]
    for number in range(1, 31):
        winner = SIX[number % 6]
        racks: dict[str, object] = {
            p: (number * 7 + seat * 13) % 60 + 1
            for seat, p in enumerate(p for p in SIX if p != winner)
        }
        if number % 4 == 0:
            racks[next(p for p in SIX if p != winner)] = ["r7", "k13", "j", "b1", "o12"]
        added = client.post(
            f"/api/v1/sessions/{big}/rounds",
            json={"ending": "went_out", "winner": winner, "racks": racks, "confirm": True},
        )
        assert added.status_code == 201, added.json
    small = client.post(
        "/api/v1/sessions", json={"players": ["Ann", "Bo", "Cy", "Di"], "rounds": 1}
    ).json["id"]
    client.post(
        f"/api/v1/sessions/{small}/rounds",
        json={"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55, "Di": 8}},
    )
    player = re.search(r'href="(/players/\d+)"', client.get("/players").get_data(as_text=True))
    assert player
    return {
        "home": "/",
        "new session": "/sessions/new",
        "session, 6 players, 30 rounds": f"/sessions/{big}",
        "session, finished": f"/sessions/{small}",
        "round form": f"/sessions/{big}/rounds/new",
        "round form, pool empty": f"/sessions/{big}/rounds/new?ending=pool_empty",
        "round form, edit": f"/sessions/{big}/rounds/4/edit",
        "delete a round": f"/sessions/{big}/rounds/4/delete",
        "summary, 30 rounds": f"/sessions/{big}/summary",
        "turn clock": f"/sessions/{big}/clock",
        "turn clock, off": f"/sessions/{small}/clock",
        "who starts": f"/sessions/{big}/who-starts",
        "table checker": "/tools/check",
        "players": "/players",
        "a player": player[1],
        "access": "/access",
        "not found": "/no-such-page",
    }


@pytest.fixture
def weights(app: Flask, pages: dict[str, str], make_app: Callable[..., Flask]) -> dict[str, Weight]:
    client = app.test_client()
    found = {name: weigh(client, url) for name, url in pages.items()}
    locked = make_app(PASSPHRASE="tiles on the table").test_client()
    found["sign in"] = weigh(locked, "/sign-in")
    return found


def test_every_page_is_within_its_budget(weights: dict[str, Weight]) -> None:
    for name, weight in weights.items():
        raw, sent = BUDGET
        assert weight.raw <= raw, f"{name}: {weight.raw} bytes, over {raw} ({weight.files})"
        assert weight.sent <= sent, f"{name}: {weight.sent} bytes sent, over {sent}"
        assert any("/app." in file and file.endswith(".css") for file in weight.files), name
        if name != "not found":  # Flask-Compress compresses 2xx answers only
            assert weight.sent < weight.raw / 2, name  # sent compressed
