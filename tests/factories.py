"""What the tests build again and again, written once for tests/unit, app, browser and server
(imported by name, as tests/contract.py is): a new session through the API or the page's form,
the body of a round of each ending, a round form as the page posts it, a page's hidden fields.

`via` is the app's test client, or the base URL of the app served over HTTP (browser tests)."""

from __future__ import annotations

import html
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from html.parser import HTMLParser
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.rules import Settings
from scorekeeper.services import rounds, sessions

API = "/api/v1"

Via = FlaskClient | str
Rack = int | list[str]


# --- The API's round bodies (docs/API.md) ----------------------------------------------------


def went_out(winner: str, **racks: Rack) -> dict[str, Any]:
    """A round `winner` went out of, with each other player's rack (points, or tiles)."""
    return {"ending": "went_out", "winner": winner, "racks": racks}


def pool_empty(**racks: Rack) -> dict[str, Any]:
    """A round the pool ran out in, with every player's rack."""
    return {"ending": "pool_empty", "racks": racks}


def paper(**scores: int) -> dict[str, Any]:
    """A round written as on paper: each player's signed score."""
    return {"ending": "scores", "scores": scores}


# --- The API, by the test client or over HTTP ------------------------------------------------


def call(via: Via, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """Send `body` as JSON to the API's `path` (after /api/v1); the answer's status and JSON."""
    if isinstance(via, FlaskClient):
        answer = via.open(API + path, method=method, json=body)
        return answer.status_code, answer.get_json(silent=True)
    request = urllib.request.Request(
        via + API + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as refused:
        with refused:
            return refused.code, json.loads(refused.read() or b"null")


def api(via: Via, path: str, body: Any = None) -> Any:
    """GET the API's `path`, or POST `body` to it, as another client would; the answer's JSON."""
    status, answer = call(via, "GET" if body is None else "POST", path, body)
    assert 200 <= status < 300, (status, answer)
    return answer


def new_session(via: Via, players: Sequence[str], **fields: Any) -> int:
    """Start a session of `players` through the API (`name`, `rounds`, `rules` as given); its id."""
    status, answer = call(via, "POST", "/sessions", {"players": list(players), **fields})
    assert status == 201, answer
    return int(answer["id"])


def add_round(via: Via, session_id: int, body: Mapping[str, Any]) -> dict[str, Any]:
    """Add a round through the API; the stored round."""
    status, answer = call(via, "POST", f"/sessions/{session_id}/rounds", dict(body))
    assert status == 201, answer
    return dict(answer)


def session_doc(via: Via, session_id: int) -> dict[str, Any]:
    """The session's document from the API."""
    status, answer = call(via, "GET", f"/sessions/{session_id}")
    assert status == 200, answer
    return dict(answer)


def stored_rounds(via: Via, session_id: int) -> list[dict[str, Any]]:
    """The session's rounds as the API stores them."""
    return list(session_doc(via, session_id)["rounds"])


# --- The pages' forms ------------------------------------------------------------------------


def typed(value: object) -> str | None:
    """A setting's value as the form posts it: a ticked box is "y", an unticked one is not
    sent (None), a setting that is off (None) is a blank."""
    if isinstance(value, bool):
        return "y" if value else None
    return "" if value is None else str(value)


def new_session_form(players: Sequence[str], **changes: str) -> dict[str, str]:
    """What the new-session page posts with the Standard settings (every declared setting)."""
    form = {"name": "", "rounds": "3", "preset": "standard"}
    for key, value in Settings().to_dict().items():
        if (text := typed(value)) is not None:
            form[key] = text
    form.update({f"player_{i}": name for i, name in enumerate(players)})
    form.update(changes)
    return form


def new_session_by_form(client: FlaskClient, players: Sequence[str], **changes: str) -> int:
    """Start a session as the new-session page does (it answers with a redirect); its id."""
    response = client.post("/sessions/new", data=new_session_form(players, **changes))
    assert response.status_code == 302, response.get_data(as_text=True)
    location = response.headers["Location"]
    assert location.startswith("/sessions/") and location[10:].isdigit(), location
    return int(location[10:])


def went_out_form(winner: int, racks: Mapping[int, str], **fields: str) -> dict[str, str]:
    """What the round form posts when the player in seat `winner` went out: each other seat's
    rack as typed (and `fields`, such as the round's key)."""
    form = {"ending": "went_out", "winner": str(winner)}
    form.update({f"rack_{seat}": value for seat, value in racks.items()})
    return form | fields


class _HiddenFields(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "input" and found.get("type") == "hidden" and found.get("name"):
            self.values[str(found["name"])] = found.get("value") or ""


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden inputs of a page's forms (the CSRF token, a round's key, number, version)."""
    parser = _HiddenFields()
    parser.feed(page)
    return parser.values


def csrf_token(page: str) -> str:
    """The CSRF token a page's forms post (one for every form of the page)."""
    return hidden_fields(page)["csrf_token"]


def text(response: Any) -> str:
    """A test client's page with its character references read (`&amp;` as `&`)."""
    return html.unescape(response.get_data(as_text=True))


def error_next_to(page: str, field_id: str) -> str:
    """The error message a form shows under one field."""
    match = re.search(rf'<p class="error" id="{field_id}-error">([^<]*)</p>', page)
    assert match, f"no error next to {field_id}"
    return match[1]


TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


def let_go(app: Flask) -> None:
    """Close `app`'s database session and connections: the end of a test's app."""
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def two_evenings() -> int:
    """In the app's context, through the services: Sunday (Ann, Bo and Cy, both its rounds played:
    Ann wins on 29) and Monday (Ann and Bo, none played yet); Sunday's id."""
    sunday = sessions.create_session(["Ann", "Bo", "Cy"], "Sunday", 2)
    rounds.add_round(sunday.id, went_out("Ann", Bo=22, Cy=8))
    rounds.add_round(sunday.id, went_out("Cy", Ann=1, Bo=2))
    sessions.create_session(["Ann", "Bo"], "Monday", 3)
    return sunday.id


def wipe() -> None:
    """Every row of every table deleted, in the app's context: an empty database to import into."""
    for table in reversed(db.metadata.sorted_tables):
        db.session.execute(table.delete())
    db.session.commit()


@contextmanager
def with_tables(app: Flask) -> Iterator[Flask]:
    """`app` with its tables made by create_all; let go at the end."""
    with app.app_context():
        db.create_all()
    try:
        yield app
    finally:
        let_go(app)


@contextmanager
def sql_sent(app: Flask, *, transactions: bool = True) -> Iterator[list[str]]:
    """Every SQL statement the app's engine sends inside the block (an SQLAlchemy
    `before_cursor_execute` listener); without `transactions`, BEGIN, COMMIT and the like
    left out."""
    sent: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if transactions or not statement.lstrip().upper().startswith(TRANSACTION_CONTROL):
            sent.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


# --- Every page at its fullest (tests/app/test_page_weight.py, bench/page_weight.py) ---------

PAGE_BUDGET = (30 * 1024, 10 * 1024)  # bytes a page fetches: uncompressed, gzip (issue 6)
SIX = ["Alexandra", "Bartholomew", "Cy", "Dorothea", "Eero", "Łukasz"]
TILE_RACKS = (["r7", "k13", "j"], ["b1", "b2", "o11", "o12"], ["k5"], ["r10", "r11", "b3"])


def fullest_pages(client: FlaskClient) -> dict[str, str]:
    """Every page a person sees, by name, at its fullest: an evening of six players and 30 rounds
    (every fourth with two racks as tiles), the turn clock on, and a finished evening of four."""
    rules = {"tile_sets": 2, "seconds_per_turn": 60}
    big = new_session(client, SIX, name="Friday at Łukasz's", rounds=32, rules=rules)
    for number in range(1, 31):
        winner = SIX[number % 6]
        racks: dict[str, Rack] = {}
        for seat, player in enumerate(p for p in SIX if p != winner):
            if number % 4 == 0 and seat < 2:
                racks[player] = TILE_RACKS[(number + seat) % len(TILE_RACKS)]
            else:
                racks[player] = (number * 7 + seat * 13) % 60 + 1
        add_round(client, big, {**went_out(winner, **racks), "confirm": True})
    small = new_session(client, ["Ann", "Bo", "Cy", "Di"], name="Sunday", rounds=3)
    add_round(client, small, went_out("Ann", Bo=22, Cy=55, Di=8))
    add_round(client, small, went_out("Ann", Bo=3, Cy=40, Di=12))
    add_round(client, small, went_out("Bo", Ann=5, Cy=9, Di=20))
    player = re.search(r'href="/players/(\d+)"', client.get("/players").get_data(as_text=True))
    assert player, "no player's page is linked from /players"
    return {
        "Home (sessions)": "/",
        "New session": "/sessions/new",
        "Session, 6 players, 30 rounds": f"/sessions/{big}",
        "Session, finished": f"/sessions/{small}",
        "Round form: add": f"/sessions/{big}/rounds/new",
        "Round form: add, pool empty": f"/sessions/{big}/rounds/new?ending=pool_empty",
        "Round form: edit (tiles)": f"/sessions/{big}/rounds/4/edit",
        "Round: delete": f"/sessions/{big}/rounds/4/delete",
        "Summary, 30 rounds": f"/sessions/{big}/summary",
        "Turn clock": f"/sessions/{big}/clock",
        "Turn clock: off": f"/sessions/{small}/clock",
        "Who starts": f"/sessions/{big}/who-starts",
        "Table checker": "/tools/check",
        "Players": "/players",
        "A player": f"/players/{player[1]}",
        "Access settings": "/access",
        "Not found (404)": "/no-such-page",
    }
