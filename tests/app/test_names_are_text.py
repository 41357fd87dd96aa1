"""A player's name is always text: every page that shows names, in every language, has the
same elements and attributes whether the names are plain or made of markup.

Each page is drawn twice, once for a table of plain names and once for a table of hostile ones
(an `<img onerror>`, a `<meta http-equiv=refresh>` split over two names, a quote that would
close an attribute), and parsed; a tag or an attribute found in one drawing and not the other
came from a name. The pages: the session page and its live part, the three round forms and
the edit pages of a round of each ending, a form refused with problems that name players (a
tie, a wrong sum), delete, summary, details, the clock, the players and a player's page, home,
and the checker.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from factories import let_go
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.web.i18n import LANGUAGES

API = "/api/v1"
HOSTILE = [
    "<img src=x onerror=alert(1)>",
    '<meta http-equiv="refresh" x="',
    '" content="0;//elsewhere">',
    "'\"><svg onload=alert(2)>",
]
# Plain names as long as the hostile ones: a long name is drawn with its full text as a title.
PLAIN = [first + "a" * (len(name) - 1) for first, name in zip("ABCD", HOSTILE, strict=True)]


class Shape(HTMLParser):
    """Every start tag with its attribute names (their values may hold names: they are text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: Counter[tuple[str, tuple[str, ...]]] = Counter()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[(tag, tuple(sorted(name for name, _ in attrs)))] += 1

    handle_startendtag = handle_starttag


def shape(html: str) -> Counter[tuple[str, tuple[str, ...]]]:
    parser = Shape()
    parser.feed(html)
    parser.close()
    return parser.tags


def evening(client: FlaskClient, names: list[str]) -> dict[str, Any]:
    """A session with a round of each ending (the empty pool one with tile counts), its
    players, and what its pages are."""
    created = client.post(
        f"{API}/sessions",
        json={"players": names, "rounds": 5, "rules": {"seconds_per_turn": 30}},
    )
    assert created.status_code == 201, created.get_json()
    sid = created.get_json()["id"]
    a, b, c, d = names
    for body in (
        {"ending": "went_out", "winner": a, "racks": {b: 22, c: 55, d: 8}},
        {
            "ending": "pool_empty",
            "racks": {a: 10, b: 22, c: 10, d: 8},
            "tile_counts": {a: 3, b: 5, c: 2, d: 2},
            "winner": d,
        },
        {"ending": "scores", "scores": {a: 24, b: -5, c: -16, d: -3}},
    ):
        added = client.post(f"{API}/sessions/{sid}/rounds", json=body)
        assert added.status_code == 201, added.get_json()
    player = client.get(f"{API}/sessions/{sid}").get_json()
    assert player["players"] == names
    return {"sid": sid}


def pages(client: FlaskClient, sid: int, player_id: int) -> dict[str, str]:
    """What a phone is shown of the session, page by page (GETs and refused POSTs)."""
    gets = {
        "session": f"/sessions/{sid}",
        "live part": f"/sessions/{sid}/table",
        "went out form": f"/sessions/{sid}/rounds/new?ending=went_out&winner=1",
        "empty pool form": f"/sessions/{sid}/rounds/new?ending=pool_empty",
        "paper form": f"/sessions/{sid}/rounds/new?ending=scores",
        "edit went out": f"/sessions/{sid}/rounds/1/edit",
        "edit empty pool": f"/sessions/{sid}/rounds/2/edit",
        "edit paper": f"/sessions/{sid}/rounds/3/edit",
        "delete": f"/sessions/{sid}/rounds/2/delete",
        "summary": f"/sessions/{sid}/summary",
        "details": f"/sessions/{sid}/details",
        "clock": f"/sessions/{sid}/clock",
        "players": "/players",
        "player": f"/players/{player_id}",
        "home": "/",
        "checker": f"/tools/check?session={sid}",
    }
    drawn = {}
    for name, url in gets.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        drawn[name] = response.get_data(as_text=True)
    refused = {
        # Equal lowest racks: the form asks who takes the round, naming the tied players.
        "tie": {"ending": "pool_empty", "rack_0": "5", "rack_1": "5", "rack_2": "9", "rack_3": "9"},
        # A paper round that does not add up, and a went-out round with every rack missing.
        "wrong sum": {"ending": "scores", "score_0": "5", "score_1": "-2"},
        "missing racks": {"ending": "went_out", "winner": "2"},
    }
    for name, form in refused.items():
        response = client.post(f"/sessions/{sid}/rounds/new", data=form)
        assert response.status_code in (409, 422), (name, response.status_code)
        drawn[name] = response.get_data(as_text=True)
    return drawn


def household(folder: Path) -> Flask:
    """An app of its own on a fresh SQLite file: the two tables' players never mix."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'scores.sqlite'}",
            "PASSPHRASE": None,
        },
        instance_path=str(folder / "instance"),
    )
    with app.app_context():
        db.create_all()
    return app


@pytest.fixture(scope="module")
def drawings(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, str]]]:
    """Every page in every language, for a table of plain names and one of hostile names."""
    drawn: dict[str, list[dict[str, str]]] = {code: [] for code in LANGUAGES}
    for names in (PLAIN, HOSTILE):
        app = household(tmp_path_factory.mktemp("household"))
        client = app.test_client()
        sid = evening(client, names)["sid"]
        for code in LANGUAGES:
            client.set_cookie("lang", code)
            drawn[code].append(pages(client, sid, player_id=1))
        let_go(app)
    return drawn


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_no_page_takes_markup_from_a_name(
    drawings: dict[str, list[dict[str, str]]], language: str
) -> None:
    plain, hostile = drawings[language]
    assert set(plain) == set(hostile)
    for page in plain:
        extra = shape(hostile[page]) - shape(plain[page])
        missing = shape(plain[page]) - shape(hostile[page])
        assert not extra and not missing, (page, extra, missing)


def test_the_hostile_names_are_shown_as_they_were_typed(
    drawings: dict[str, list[dict[str, str]]],
) -> None:
    hostile = drawings["en"][1]
    for page in ("session", "empty pool form", "edit empty pool", "summary", "tie"):
        text = hostile[page]
        assert "&lt;img src=x onerror=alert(1)&gt;" in text, page
        assert "<img src=x" not in text and "<meta http-equiv" not in text, page


# Issue 23, finding 13: a name of nothing visible (a Hangul filler, a zero-width space, a lone
# variation selector) or a letter under forty accents is refused at every door a name comes in
# by: the API's new session, the new-session page and the rename form; nothing is stored.
UNSEEN = {
    "hangul-filler": "\u3164",
    "halfwidth-hangul-filler": "\uffa0",
    "zero-width-space": "\u200b",
    "variation-selector": "\ufe0f",
    "forty-marks": "Z" + "\u0301" * 40,
}


def _rows(app: Flask) -> tuple[int, int]:
    from sqlalchemy import func, select

    from scorekeeper.models import GameSession, Player

    with app.app_context():
        counts = (
            db.session.scalar(select(func.count()).select_from(Player)) or 0,
            db.session.scalar(select(func.count()).select_from(GameSession)) or 0,
        )
        db.session.remove()
    return counts


@pytest.mark.parametrize("name", UNSEEN.values(), ids=UNSEEN.keys())
def test_a_name_that_shows_nothing_is_refused_everywhere(tmp_path: Path, name: str) -> None:
    app = household(tmp_path)
    client = app.test_client()
    sid = client.post(f"{API}/sessions", json={"players": ["Ann", "Bo"]}).get_json()["id"]
    before = _rows(app)
    answer = client.post(f"{API}/sessions", json={"players": ["Ann", name]})
    assert answer.status_code == 422, answer.get_json()
    assert [p["code"] for p in answer.get_json()["errors"]] == ["bad_name"]
    assert answer.get_json()["errors"][0]["field"] == "players.1"
    page = client.post(
        "/sessions/new",
        data={"player_0": "Ann", "player_1": name, "rounds": "3", "preset": "standard"},
    )
    assert page.status_code == 422
    assert 'class="error"' in page.get_data(as_text=True)
    renamed = client.post(f"/sessions/{sid}/players/1/rename", data={"name": name})
    assert renamed.status_code == 422
    assert 'class="error"' in renamed.get_data(as_text=True)
    assert _rows(app) == before
    assert client.get(f"{API}/sessions/{sid}").get_json()["players"] == ["Ann", "Bo"]
