"""Hostile input (issue 5, section 6, and the request-size limit of section 5): each answered
with a clear 4xx in the docs/DESIGN.md 3 error shape, exact status and code, and nothing written.

"Nothing written" is checked three ways around every refused request: the session list, every
session's document (rounds, totals, version) and the row count of every table are unchanged.
Each test runs on SQLite, and on PostgreSQL when SCOREKEEPER_TEST_DATABASE_URL is set.

Decisions these tests pin down:

- Numbers are JSON integers only. A fraction or an exponent is refused (400) even when the
  value is whole (`22.0`, `1e3`), and so are NaN and Infinity, which are not JSON at all.
  Anything beyond +-1,000,000 is out of range (400); an id beyond any stored id is a 404.
- A rack may be text, because a rack may be tiles text ("r7 k13 j"): a whole number written
  as text ("22", " 22 ") is that rack value. Any other text must be tiles, so "1.5", "+22",
  "1e3" or Arabic-Indic digits are 422 `bad_tile`, "-5" is 422 `negative_rack`. Scores and
  tile counts are numbers only: "24" is a 400.
- An object that gives one key twice is refused (400), whether the keys are identical
  ({"Bo": 22, "Bo": 23}, which JSON parsers would silently settle) or name one player
  ("Bo" and " bo ").
- Names are kept as typed in any script (Polish, Estonian, Danish, CJK, Arabic, emoji), trimmed,
  inner whitespace (newlines, no-break spaces) folded to one space. Refused (422 `bad_name`):
  empty or whitespace-only, over 40 characters, or holding a character that cannot be shown:
  control characters, zero-width characters, bidirectional overrides and isolates, lone
  surrogates, and therefore also emoji joined with a zero-width joiner (a family emoji). Names
  that differ only in case or surrounding/inner spaces are the same player (422
  `duplicate_player`). A name that is not text is a 400.
- `<script>` is a fine name: kept as typed, shown as text on the pages.
- Every number typed in a form (settings, rounds, racks, scores, tile counts, the clock's
  seconds and draw, the checker's rules) is ASCII digits with a sign only where one may be,
  and no more digits than its bounds are written in (rules/numbers.py whole_number): `²`,
  Arabic-Indic or full-width digits, `1_0`, `+-3` and 4,400 digits are a 422 with a message
  by the field; in the API they are a 400 or 422 of a few hundred bytes.
- Bodies over 64 KiB are 413 with the JSON error shape under /api/v1 (also when streamed
  without a Content-Length); a body of exactly 64 KiB is read.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import pytest
import sqlalchemy as sa
from api_answers import problems
from factories import new_session, new_session_form
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.extensions import db

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

API = "/api/v1"
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
WENT_OUT = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55, "Di": 8}}
POOL_EMPTY = {"ending": "pool_empty", "racks": {"Ann": 10, "Bo": 22, "Cy": 55, "Di": 8}}
PAPER = {"ending": "scores", "scores": {"Ann": 24, "Bo": -5, "Cy": -16, "Di": -3}}
HUGE = 10**30
LIMIT = 64 * 1024
SEVEN = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]

SESSIONS = f"{API}/sessions"
SESSION = f"{API}/sessions/{{sid}}"
ROUNDS = f"{API}/sessions/{{sid}}/rounds"
ROUND_1 = f"{API}/sessions/{{sid}}/rounds/1"
EXTEND = f"{API}/sessions/{{sid}}/extend"
TOOLS = [f"{API}/rules/set", f"{API}/rules/meld", f"{API}/rules/rack"]


# --- Helpers ----------------------------------------------------------------------------------


def snapshot(client: FlaskClient, app: Flask) -> tuple[Any, ...]:
    """What the API shows of every session, and how many rows every table holds."""
    listed = client.get(f"{API}/sessions")
    assert listed.status_code == 200
    documents = {}
    for summary in listed.get_json()["sessions"]:
        document = client.get(f"{API}/sessions/{summary['id']}")
        assert document.status_code == 200
        documents[summary["id"]] = document.get_json()
    with app.app_context():
        rows = {
            table.name: db.session.scalar(sa.select(sa.func.count()).select_from(table))
            for table in db.metadata.sorted_tables
        }
        db.session.remove()
    return listed.get_json(), documents, rows


@contextmanager
def nothing_written(client: FlaskClient, app: Flask) -> Iterator[None]:
    before = snapshot(client, app)
    yield
    after = snapshot(client, app)
    assert after[0] == before[0], "the session list changed"
    assert after[1] == before[1], "a session document changed"
    assert after[2] == before[2], "a table gained or lost rows"


def sunday(client: FlaskClient) -> int:
    """A session of Ann, Bo, Cy and Di with round 1 played (two of three rounds to go)."""
    session_id = new_session(client, PLAYERS, name="Sunday")
    response = client.post(f"{API}/sessions/{session_id}/rounds", json=WENT_OUT)
    assert response.status_code == 201
    return session_id


@pytest.fixture
def sid(client: FlaskClient) -> int:
    """Sunday's session (see sunday) on the test's own app."""
    return sunday(client)


@dataclass
class Table:
    """The session every case of the table is sent to, and what the API and the tables showed
    when it was made: what each case must leave."""

    app: Flask
    sid: int
    before: tuple[Any, ...]
    changed: bool = False

    def make(self) -> None:
        with self.app.app_context():
            db.drop_all()
            db.create_all()
            db.session.remove()
        self.sid = sunday(self.app.test_client())
        self.before = snapshot(self.app.test_client(), self.app)
        self.changed = False


@pytest.fixture(scope="module")
def made_table(module_app: Flask) -> Table:
    table = Table(module_app, 0, ())
    table.make()
    return table


@pytest.fixture
def table(made_table: Table) -> Table:
    """Sunday's session, shared by the cases of the table (each asserts it wrote nothing, so
    each finds it as it was made); made again after a case that may have changed it."""
    if made_table.changed:
        made_table.make()
    return made_table


@contextmanager
def left_as_made(table: Table) -> Iterator[None]:
    """nothing_written, against the table as it was made: the case counts as a change until
    the three checks pass."""
    table.changed = True
    yield
    after = snapshot(table.app.test_client(), table.app)
    assert after[0] == table.before[0], "the session list changed"
    assert after[1] == table.before[1], "a session document changed"
    assert after[2] == table.before[2], "a table gained or lost rows"
    table.changed = False


def raw_round(rack: str) -> str:
    """A went-out round with Bo's rack written as raw JSON text."""
    return (
        '{"ending": "went_out", "winner": "Ann", "racks": {"Bo": ' + rack + ', "Cy": 55, "Di": 8}}'
    )


# --- The table --------------------------------------------------------------------------------

NO_BODY = object()


@dataclass(frozen=True)
class Hostile:
    """One hostile request and the answer it must get."""

    id: str
    status: int
    code: str
    body: Any = NO_BODY  # a value sent as JSON...
    raw: str | bytes | None = None  # ...or the body exactly as given
    url: str = ROUNDS  # {sid} is the session of the test
    method: str = "POST"
    content_type: str = "application/json"
    field: str | None = None
    says: str | None = None  # words the first problem's message must hold
    also_put: bool = True  # a round body: also sent as PUT to round 1


def went_out_but(**racks: Any) -> dict[str, Any]:
    """WENT_OUT with these racks changed (hostile values, as given)."""
    return {**WENT_OUT, "racks": {**WENT_OUT["racks"], **racks}}


def paper_but(**scores: Any) -> dict[str, Any]:
    """PAPER with these scores changed (hostile values, as given)."""
    return {"ending": "scores", "scores": {**PAPER["scores"], **scores}}


def session_body(**fields: Any) -> dict[str, Any]:
    return {"players": PLAYERS, **fields}


ROUND_BODIES = [
    # Huge numbers.
    Hostile("rack-10**30", 400, "bad_request", went_out_but(Bo=HUGE), field="Bo"),
    Hostile("rack--10**30", 400, "bad_request", went_out_but(Bo=-HUGE), field="Bo"),
    Hostile("rack-1000001", 400, "bad_request", went_out_but(Bo=1_000_001), field="Bo"),
    Hostile("rack-text-31-digits", 422, "impossible_rack", went_out_but(Bo=str(HUGE)), field="Bo"),
    Hostile("rack-5000-digit-literal", 400, "bad_request", raw=raw_round("9" * 5000)),
    Hostile("score-10**30", 400, "bad_request", paper_but(Ann=HUGE, Bo=-HUGE), field="Ann"),
    Hostile(
        "tile-count-10**30",
        400,
        "bad_request",
        {**POOL_EMPTY, "tile_counts": {"Ann": HUGE}},
        field="Ann",
    ),
    # Floats, even whole ones.
    Hostile("rack-1.5", 400, "bad_request", went_out_but(Bo=1.5), field="Bo"),
    Hostile("rack-1e3", 400, "bad_request", raw=raw_round("1e3"), field="Bo"),
    Hostile("rack-22.0", 400, "bad_request", raw=raw_round("22.0"), field="Bo"),
    Hostile("rack-1e400", 400, "bad_request", raw=raw_round("1e400"), field="Bo"),
    Hostile("score-1.5", 400, "bad_request", paper_but(Ann=24.5, Bo=-5.5), field="Ann"),
    Hostile(
        "tile-count-1e3",
        400,
        "bad_request",
        raw='{"ending": "pool_empty", "racks": {"Ann": 10, "Bo": 22, "Cy": 55, "Di": 8}, '
        '"tile_counts": {"Ann": 1e3}}',
        field="Ann",
    ),
    Hostile("rack-true", 400, "bad_request", went_out_but(Bo=True), field="Bo"),
    # NaN and Infinity are not JSON.
    Hostile("rack-NaN", 400, "bad_request", raw=raw_round("NaN"), says="NaN is not a JSON number"),
    Hostile("rack-Infinity", 400, "bad_request", raw=raw_round("Infinity"), says="Infinity"),
    Hostile(
        "score--Infinity",
        400,
        "bad_request",
        raw='{"ending": "scores", "scores": {"Ann": -Infinity, "Bo": 5, "Cy": 0, "Di": 0}}',
        says="-Infinity is not a JSON number",
    ),
    # Strings for numbers: a rack may be text (tiles, or a whole number); scores and counts not.
    Hostile("rack-text-1.5", 422, "bad_tile", went_out_but(Bo="1.5"), field="Bo"),
    Hostile("rack-text-+22", 422, "bad_tile", went_out_but(Bo="+22"), field="Bo"),
    Hostile("rack-text-1e3", 422, "bad_tile", went_out_but(Bo="1e3"), field="Bo"),
    Hostile("rack-text--5", 422, "negative_rack", went_out_but(Bo="-5"), field="Bo"),
    Hostile("rack-text-arabic-digits", 422, "bad_tile", went_out_but(Bo="٢٢"), field="Bo"),
    Hostile("rack-text-fullwidth-digits", 422, "bad_tile", went_out_but(Bo="２２"), field="Bo"),
    Hostile("rack-text-1001-chars", 400, "bad_request", went_out_but(Bo="7" * 1001), field="Bo"),
    Hostile("score-text", 400, "bad_request", paper_but(Ann="24"), field="Ann"),
    Hostile(
        "tile-count-text",
        400,
        "bad_request",
        {**POOL_EMPTY, "tile_counts": {"Ann": "3"}},
        field="Ann",
    ),
    # One player twice.
    Hostile(
        "racks-Bo-and-bo",
        400,
        "bad_request",
        {**WENT_OUT, "racks": {"Bo": 22, "bo": 23, "Cy": 55, "Di": 8}},
        field="racks",
    ),
    Hostile(
        "racks-Bo-and-spaced-bo",
        400,
        "bad_request",
        {**WENT_OUT, "racks": {"Bo": 22, " BO ": 23, "Cy": 55, "Di": 8}},
        field="racks",
    ),
    Hostile(
        "racks-Bo-twice-in-the-text",
        400,
        "bad_request",
        raw='{"ending": "went_out", "winner": "Ann", '
        '"racks": {"Bo": 22, "Bo": 23, "Cy": 55, "Di": 8}}',
        says="“Bo” twice",
    ),
    Hostile(
        "scores-Ann-and-ANN",
        400,
        "bad_request",
        {"ending": "scores", "scores": {"Ann": 24, "ANN": 0, "Bo": -5, "Cy": -16, "Di": -3}},
        field="scores",
    ),
    Hostile(
        "ending-twice-in-the-text",
        400,
        "bad_request",
        raw='{"ending": "scores", "ending": "went_out", "winner": "Ann", '
        '"racks": {"Bo": 22, "Cy": 55, "Di": 8}}',
    ),
    # Tiles: too many, too long.
    Hostile("tiles-10000", 400, "bad_request", went_out_but(Bo=["r7"] * 10_000), field="Bo"),
    Hostile("tiles-101", 400, "bad_request", went_out_but(Bo=["k1"] * 101), field="Bo"),
    Hostile(
        "tile-60000-digits",
        422,
        "bad_tile",
        went_out_but(Bo=["r" + "7" * 60_000]),
        field="Bo",
        says="Bo: “r7777777777777777777…” is not a tile",
    ),
    Hostile("tile-60000-chars", 422, "bad_tile", went_out_but(Bo=["x" * 60_000]), field="Bo"),
    Hostile("tile-1MB", 413, "request_entity_too_large", went_out_but(Bo=["r" + "7" * 1_000_000])),
    Hostile("rack-text-1MB", 413, "request_entity_too_large", went_out_but(Bo="r7 " * 350_000)),
    Hostile("tile-a-number", 400, "bad_request", went_out_but(Bo=["r7", 7]), field="Bo"),
    Hostile(
        "rack-nested-300", 400, "bad_request", went_out_but(Bo=json.loads("[" * 300 + "]" * 300))
    ),
    # Not a round object.
    Hostile(
        "nested-30000-arrays",
        400,
        "bad_request",
        raw="[" * 30_000 + "]" * 30_000,
        says="nested too deeply",
    ),
    Hostile("nested-10000-objects", 400, "bad_request", raw='{"a":' * 10_000 + "1" + "}" * 10_000),
    Hostile("array", 400, "bad_request", [WENT_OUT]),
    Hostile("string", 400, "bad_request", raw='"went_out"'),
    Hostile("number", 400, "bad_request", raw="85"),
    Hostile("true", 400, "bad_request", raw="true"),
    Hostile("null", 400, "bad_request", raw="null"),
    Hostile("empty-body", 400, "bad_request", raw=""),
    Hostile("whitespace-body", 400, "bad_request", raw=" \n\t "),
    Hostile("truncated", 400, "bad_request", raw=json.dumps(WENT_OUT)[:-1]),
    Hostile("not-utf8", 400, "bad_request", raw=b'{"ending": "went_out", "winner": "\xff\xfe"}'),
    Hostile("text-plain", 400, "bad_request", raw=json.dumps(WENT_OUT), content_type="text/plain"),
    Hostile(
        "form-encoded",
        400,
        "bad_request",
        raw="ending=went_out&winner=Ann",
        content_type="application/x-www-form-urlencoded",
    ),
    Hostile("no-content-type", 400, "bad_request", raw=json.dumps(WENT_OUT), content_type=""),
    # Wrong shapes and names.
    Hostile("ending-missing", 400, "bad_request", {"racks": WENT_OUT["racks"]}, field="ending"),
    Hostile(
        "ending-upper-case", 400, "bad_request", {**WENT_OUT, "ending": "WENT_OUT"}, field="ending"
    ),
    Hostile("winner-a-number", 400, "bad_request", {**WENT_OUT, "winner": 1}, field="winner"),
    Hostile("winner-10000-chars", 422, "unknown_player", {**WENT_OUT, "winner": "W" * 10_000}),
    Hostile("racks-a-list", 400, "bad_request", {**WENT_OUT, "racks": [22, 55, 8]}, field="racks"),
    Hostile(
        "racks-13-players",
        400,
        "bad_request",
        {**WENT_OUT, "racks": {f"P{i}": 1 for i in range(13)}},
        field="racks",
    ),
    Hostile("racks-unknown-player", 422, "unknown_player", went_out_but(Ed=5), field="Ed"),
    Hostile("racks-emoji-player", 422, "unknown_player", went_out_but(**{"👻": 5}), field="👻"),
    Hostile("confirm-text", 400, "bad_request", {**WENT_OUT, "confirm": "yes"}, field="confirm"),
    Hostile("key-65-chars", 400, "bad_request", {**WENT_OUT, "key": "k" * 65}, field="key"),
    Hostile("key-newline", 400, "bad_request", {**WENT_OUT, "key": "tap\n1"}, field="key"),
    Hostile("key-a-number", 400, "bad_request", {**WENT_OUT, "key": HUGE}, field="key"),
    # POST only: a PUT ignores `number`.
    Hostile("number-10**30", 400, "bad_request", {**WENT_OUT, "number": HUGE}, also_put=False),
    Hostile("number-1.5", 400, "bad_request", {**WENT_OUT, "number": 2.5}, also_put=False),
    Hostile("number-taken", 409, "duplicate_round", {**WENT_OUT, "number": 1}, also_put=False),
]

PUT_ONLY = [
    Hostile(
        "version-10**30",
        409,
        "stale_round",
        {**WENT_OUT, "version": HUGE},
        url=ROUND_1,
        method="PUT",
        field="version",
    ),
    Hostile(
        "version-text",
        400,
        "bad_request",
        {**WENT_OUT, "version": "1"},
        url=ROUND_1,
        method="PUT",
        field="version",
    ),
]

NEW_SESSIONS = [
    replace(case, id=f"session-{case.id}", url=SESSIONS, also_put=False)
    for case in [
        # How many play.
        Hostile("no-players", 422, "too_few_players", session_body(players=[]), field="players"),
        Hostile("1-player", 422, "too_few_players", session_body(players=["Ann"]), field="players"),
        Hostile("7-players", 422, "too_many_players", session_body(players=SEVEN), field="players"),
        Hostile(
            "7-players-two-sets",
            422,
            "too_many_players",
            session_body(players=SEVEN, rules={"tile_sets": 2}),
            field="players",
        ),
        Hostile(
            "5-players-one-set",
            422,
            "too_many_players",
            session_body(players=SEVEN[:5]),
            field="players",
        ),
        Hostile(
            "5000-players",
            422,
            "too_many_players",
            session_body(players=[f"P{i}" for i in range(5000)]),
            field="players",
        ),
        # Empty and whitespace names.
        Hostile(
            "name-empty", 422, "bad_name", session_body(players=["Ann", ""]), field="players.1"
        ),
        Hostile(
            "name-spaces", 422, "bad_name", session_body(players=["Ann", "   "]), field="players.1"
        ),
        Hostile(
            "name-tab-newline",
            422,
            "bad_name",
            session_body(players=["Ann", "\t\n"]),
            field="players.1",
        ),
        Hostile(
            "name-no-break-space",
            422,
            "bad_name",
            session_body(players=["Ann", "\u00a0\u3000"]),
            field="players.1",
        ),
        # Characters that cannot be shown.
        Hostile(
            "name-zero-width-space",
            422,
            "bad_name",
            session_body(players=["Ann", "\u200b"]),
            field="players.1",
        ),
        Hostile(
            "name-with-zero-width-joiner",
            422,
            "bad_name",
            session_body(players=["Ann", "A\u200dnn"]),
            field="players.1",
        ),
        Hostile(
            "name-rtl-override",
            422,
            "bad_name",
            session_body(players=["Ann", "\u202eoB"]),
            field="players.1",
        ),
        Hostile(
            "name-rtl-isolate",
            422,
            "bad_name",
            session_body(players=["Ann", "\u2067Bo\u2069"]),
            field="players.1",
        ),
        Hostile(
            "name-bell", 422, "bad_name", session_body(players=["Ann", "Bo\x07"]), field="players.1"
        ),
        Hostile(
            "name-ansi-escape",
            422,
            "bad_name",
            session_body(players=["Ann", "\x1b[31mBo"]),
            field="players.1",
        ),
        Hostile(
            "name-nul", 422, "bad_name", session_body(players=["Ann", "B\x00o"]), field="players.1"
        ),
        Hostile(
            "name-lone-surrogate",
            422,
            "bad_name",
            raw='{"players": ["Ann", "B\\ud800o"]}',
            field="players.1",
        ),
        Hostile(
            "name-family-emoji",
            422,
            "bad_name",
            session_body(players=["Ann", "\U0001f468\u200d\U0001f469\u200d\U0001f467"]),
            field="players.1",
        ),
        # Too long.
        Hostile(
            "name-41-chars",
            422,
            "bad_name",
            session_body(players=["Ann", "x" * 41]),
            field="players.1",
        ),
        Hostile(
            "name-10000-chars",
            422,
            "bad_name",
            session_body(players=["Ann", "x" * 10_000]),
            field="players.1",
        ),
        # Not text.
        Hostile(
            "name-a-number", 400, "bad_request", session_body(players=["Ann", 7]), field="players.1"
        ),
        Hostile(
            "name-null", 400, "bad_request", session_body(players=["Ann", None]), field="players.1"
        ),
        Hostile(
            "name-a-list",
            400,
            "bad_request",
            session_body(players=[["Ann"], "Bo"]),
            field="players.0",
        ),
        Hostile(
            "players-text", 400, "bad_request", session_body(players="Ann, Bo"), field="players"
        ),
        Hostile("players-missing", 400, "bad_request", {"name": "Sunday"}, field="players"),
        # Equal but for case or spaces.
        Hostile(
            "names-Ann-and-spaced-ann",
            422,
            "duplicate_player",
            session_body(players=["Ann", " ann "]),
            field="players.1",
        ),
        Hostile(
            "names-Bo-and-BO",
            422,
            "duplicate_player",
            session_body(players=["Bo", "Cy", "BO"]),
            field="players.2",
        ),
        Hostile(
            "names-folded-inner-spaces",
            422,
            "duplicate_player",
            session_body(players=["Ann Marie", "ann\n  MARIE"]),
            field="players.1",
        ),
        Hostile(
            "names-Strasse-casefold",
            422,
            "duplicate_player",
            session_body(players=["Straße", "STRASSE"]),
            field="players.1",
        ),
        Hostile(
            "names-Lukasz-casefold",
            422,
            "duplicate_player",
            session_body(players=["Łukasz", "ŁUKASZ"]),
            field="players.1",
        ),
        # The session's name and rounds.
        Hostile(
            "session-name-81-chars", 422, "bad_name", session_body(name="S" * 81), field="name"
        ),
        Hostile(
            "session-name-control", 422, "bad_name", session_body(name="Sun\x1bday"), field="name"
        ),
        Hostile(
            "session-name-rtl-override",
            422,
            "bad_name",
            session_body(name="\u202eyadnuS"),
            field="name",
        ),
        Hostile("session-name-a-number", 400, "bad_request", session_body(name=HUGE), field="name"),
        Hostile("rounds-10**30", 422, "bad_setting", session_body(rounds=HUGE), field="rounds"),
        Hostile("rounds-0", 422, "bad_setting", session_body(rounds=0), field="rounds"),
        Hostile("rounds--1", 422, "bad_setting", session_body(rounds=-1), field="rounds"),
        Hostile("rounds-1.5", 400, "bad_request", session_body(rounds=1.5), field="rounds"),
        Hostile("rounds-text", 400, "bad_request", session_body(rounds="3"), field="rounds"),
        Hostile("rounds-true", 400, "bad_request", session_body(rounds=True), field="rounds"),
        Hostile("rounds-NaN", 400, "bad_request", raw='{"players": ["Ann", "Bo"], "rounds": NaN}'),
        Hostile(
            "rounds-1e1",
            400,
            "bad_request",
            raw='{"players": ["Ann", "Bo"], "rounds": 1e1}',
            field="rounds",
        ),
        # Settings.
        Hostile(
            "rule-10**30",
            422,
            "bad_setting",
            session_body(rules={"joker_penalty": HUGE}),
            field="joker_penalty",
        ),
        Hostile(
            "rule-1.5",
            400,
            "bad_setting",
            session_body(rules={"tile_sets": 1.5}),
            field="tile_sets",
        ),
        Hostile(
            "rule-text",
            400,
            "bad_setting",
            session_body(rules={"tile_sets": "2"}),
            field="tile_sets",
        ),
        Hostile(
            "rule-unknown", 400, "bad_setting", session_body(rules={"jokers": 3}), field="jokers"
        ),
        Hostile("rules-a-list", 400, "bad_setting", session_body(rules=[1, 2]), field="rules"),
        Hostile(
            "rule-Infinity",
            400,
            "bad_request",
            raw='{"players": ["Ann", "Bo"], "rules": {"winner_bonus": Infinity}}',
        ),
        # Not a session object.
        Hostile("array", 400, "bad_request", [PLAYERS]),
        Hostile("string", 400, "bad_request", raw='"Ann, Bo"'),
        Hostile("empty-body", 400, "bad_request", raw=""),
        Hostile("nested", 400, "bad_request", raw="[" * 30_000 + "]" * 30_000),
        Hostile(
            "players-twice-in-the-text",
            400,
            "bad_request",
            raw='{"players": ["Ann", "Bo"], "players": ["Cy", "Di"]}',
        ),
        Hostile(
            "text-plain",
            400,
            "bad_request",
            raw=json.dumps(session_body()),
            content_type="text/plain",
        ),
    ]
]

OTHERS = [
    # Unknown and huge ids in the path.
    Hostile("get-session-999", 404, "not_found", url=f"{API}/sessions/999", method="GET"),
    Hostile("get-session-10**30", 404, "not_found", url=f"{API}/sessions/{HUGE}", method="GET"),
    Hostile("get-session-2**31", 404, "not_found", url=f"{API}/sessions/{2**31}", method="GET"),
    Hostile("get-session-2**63", 404, "not_found", url=f"{API}/sessions/{2**63}", method="GET"),
    Hostile("get-session-0", 404, "not_found", url=f"{API}/sessions/0", method="GET"),
    Hostile("get-session--1", 404, "not_found", url=f"{API}/sessions/-1", method="GET"),
    Hostile("get-session-1.5", 404, "not_found", url=f"{API}/sessions/1.5", method="GET"),
    Hostile("get-session-name", 404, "not_found", url=f"{API}/sessions/Sunday", method="GET"),
    Hostile(
        "round-to-session-10**30", 404, "not_found", WENT_OUT, url=f"{API}/sessions/{HUGE}/rounds"
    ),
    Hostile("round-to-session-999", 404, "not_found", WENT_OUT, url=f"{API}/sessions/999/rounds"),
    Hostile("extend-session-10**30", 404, "not_found", {}, url=f"{API}/sessions/{HUGE}/extend"),
    Hostile("get-round-2", 404, "not_found", url=f"{SESSION}/rounds/2", method="GET"),
    Hostile("get-round-10**30", 404, "not_found", url=f"{SESSION}/rounds/{HUGE}", method="GET"),
    Hostile("get-round-0", 404, "not_found", url=f"{SESSION}/rounds/0", method="GET"),
    Hostile("put-round-2", 404, "not_found", WENT_OUT, url=f"{SESSION}/rounds/2", method="PUT"),
    Hostile(
        "put-round-10**30", 404, "not_found", WENT_OUT, url=f"{SESSION}/rounds/{HUGE}", method="PUT"
    ),
    Hostile("delete-round-2", 404, "not_found", url=f"{SESSION}/rounds/2", method="DELETE"),
    Hostile(
        "delete-round-10**30", 404, "not_found", url=f"{SESSION}/rounds/{HUGE}", method="DELETE"
    ),
    Hostile(
        "delete-round-of-session-2**63",
        404,
        "not_found",
        url=f"{API}/sessions/{2**63}/rounds/1",
        method="DELETE",
    ),
    Hostile("unknown-path", 404, "not_found", url=f"{API}/sessions/{{sid}}/players", method="GET"),
    # Wrong methods.
    Hostile("put-sessions", 405, "method_not_allowed", {}, url=SESSIONS, method="PUT"),
    Hostile("delete-sessions", 405, "method_not_allowed", url=SESSIONS, method="DELETE"),
    Hostile("delete-session", 405, "method_not_allowed", url=SESSION, method="DELETE"),
    Hostile("post-session", 405, "method_not_allowed", WENT_OUT, url=SESSION),
    Hostile("patch-round", 405, "method_not_allowed", WENT_OUT, url=ROUND_1, method="PATCH"),
    Hostile("put-rounds", 405, "method_not_allowed", WENT_OUT, url=ROUNDS, method="PUT"),
    Hostile("delete-rounds", 405, "method_not_allowed", url=ROUNDS, method="DELETE"),
    Hostile("get-extend", 405, "method_not_allowed", url=EXTEND, method="GET"),
    Hostile("delete-rules-set", 405, "method_not_allowed", url=f"{API}/rules/set", method="DELETE"),
    Hostile("get-rules-meld", 405, "method_not_allowed", url=f"{API}/rules/meld", method="GET"),
    Hostile("put-rules-rack", 405, "method_not_allowed", {}, url=f"{API}/rules/rack", method="PUT"),
    Hostile("post-openapi", 405, "method_not_allowed", {}, url=f"{API}/openapi.json"),
    # Extending.
    Hostile("extend-10**30", 422, "bad_setting", {"rounds": HUGE}, url=EXTEND, field="rounds"),
    Hostile("extend--10**30", 422, "bad_setting", {"rounds": -HUGE}, url=EXTEND, field="rounds"),
    Hostile("extend-1.5", 400, "bad_request", {"rounds": 1.5}, url=EXTEND, field="rounds"),
    Hostile("extend-text", 400, "bad_request", {"rounds": "1"}, url=EXTEND, field="rounds"),
    Hostile("extend-NaN", 400, "bad_request", raw='{"rounds": NaN}', url=EXTEND),
    Hostile("extend-array", 400, "bad_request", [1], url=EXTEND, field="rounds"),
    Hostile("extend-empty-body", 400, "bad_request", raw="", url=EXTEND),
    # The rules tools.
    Hostile(
        "rack-tool-10000-tiles",
        400,
        "bad_request",
        {"tiles": ["r7"] * 10_000},
        url=f"{API}/rules/rack",
        field="tiles",
    ),
    Hostile(
        "rack-tool-tile-60000-digits",
        422,
        "bad_tile",
        {"tiles": ["r" + "7" * 60_000]},
        url=f"{API}/rules/rack",
    ),
    Hostile(
        "rack-tool-tile-1MB",
        413,
        "request_entity_too_large",
        {"tiles": ["j" * 1_000_000]},
        url=f"{API}/rules/rack",
    ),
    Hostile(
        "rack-tool-tiles-a-number",
        400,
        "bad_request",
        {"tiles": 50},
        url=f"{API}/rules/rack",
        field="tiles",
    ),
    Hostile("rack-tool-NaN", 400, "bad_request", raw='{"tiles": NaN}', url=f"{API}/rules/rack"),
    Hostile(
        "rack-tool-session-10**30",
        404,
        "not_found",
        {"tiles": ["r7"], "session": HUGE},
        url=f"{API}/rules/rack",
    ),
    Hostile(
        "rack-tool-session-text",
        400,
        "bad_request",
        {"tiles": ["r7"], "session": "1"},
        url=f"{API}/rules/rack",
        field="session",
    ),
    Hostile(
        "rack-tool-rule-10**30",
        422,
        "bad_setting",
        {"tiles": ["r7"], "rules": {"joker_penalty": HUGE}},
        url=f"{API}/rules/rack",
        field="joker_penalty",
    ),
    Hostile(
        "set-tool-tile-60000-digits",
        422,
        "bad_tile",
        {"tiles": ["k" + "1" * 60_000]},
        url=f"{API}/rules/set",
    ),
    Hostile(
        "set-tool-text-2001-chars",
        400,
        "bad_request",
        {"tiles": "r7 " * 667},
        url=f"{API}/rules/set",
        field="tiles",
    ),
    Hostile("set-tool-array", 400, "bad_request", [["r7", "r8", "r9"]], url=f"{API}/rules/set"),
    Hostile(
        "meld-tool-41-sets",
        400,
        "bad_request",
        {"sets": [["r1", "r2", "r3"]] * 41},
        url=f"{API}/rules/meld",
        field="sets",
    ),
    Hostile(
        "meld-tool-tile-60000-digits",
        422,
        "bad_tile",
        {"sets": [["r1", "r2", "r" + "3" * 60_000]]},
        url=f"{API}/rules/meld",
    ),
    Hostile(
        "meld-tool-set-a-number",
        400,
        "bad_request",
        {"sets": [["r1", "r2", "r3"], 7]},
        url=f"{API}/rules/meld",
        field="sets.1",
    ),
]

TABLE = [
    *ROUND_BODIES,
    *[replace(c, id=f"put-{c.id}", url=ROUND_1, method="PUT") for c in ROUND_BODIES if c.also_put],
    *PUT_ONLY,
    *NEW_SESSIONS,
    *OTHERS,
]


def send(client: FlaskClient, case: Hostile, session_id: int) -> TestResponse:
    url = case.url.format(sid=session_id)
    if case.raw is not None:
        return client.open(url, method=case.method, data=case.raw, content_type=case.content_type)
    if case.body is NO_BODY:
        return client.open(url, method=case.method)
    return client.open(url, method=case.method, json=case.body)


def test_the_table_has_no_duplicate_ids() -> None:
    ids = [case.id for case in TABLE]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("case", TABLE, ids=[case.id for case in TABLE])
def test_hostile_input_is_refused_and_nothing_written(table: Table, case: Hostile) -> None:
    with left_as_made(table):
        response = send(table.app.test_client(), case, table.sid)  # a phone of its own
        found = problems(response, case.status)
    assert {p["code"] for p in found} == {case.code}, found
    if case.field is not None:
        assert found[0].get("field") == case.field, found
    if case.says is not None:
        assert case.says in found[0]["message"], found
    if case.status == 405:
        assert response.headers.get("Allow"), "a 405 names the methods allowed"
    text = response.get_data(as_text=True)
    assert len(text) < 4096, "an answer does not echo a flood back"


# --- What is accepted, and how -----------------------------------------------------------------


def test_a_rack_may_be_a_whole_number_written_as_text(client: FlaskClient, sid: int) -> None:
    response = client.post(
        f"{API}/sessions/{sid}/rounds",
        json={**WENT_OUT, "racks": {"Bo": "22", "Cy": " 55 ", "Di": "8"}},
    )
    assert response.status_code == 201, response.get_json()
    document = response.get_json()
    assert document["racks"] == {"Bo": 22, "Cy": 55, "Di": 8}
    assert document["scores"] == {"Ann": 85, "Bo": -22, "Cy": -55, "Di": -8}
    assert "tiles" not in document  # a value, not tiles


NAMES = ["Łucja Wąż", "Jürgen Õun", "Søren Æbelø", "Åse", "山田 太郎", "🎲 Gran 👍🏽"]


def test_names_in_any_script_are_kept_and_found_case_insensitively(client: FlaskClient) -> None:
    response = client.post(f"{API}/sessions", json={"players": NAMES, "rules": {"tile_sets": 2}})
    assert response.status_code == 201, response.get_json()
    session_id = response.get_json()["id"]
    assert response.get_json()["players"] == NAMES
    body = {
        "ending": "went_out",
        "winner": "ŁUCJA WĄŻ",
        "racks": {
            "jürgen õun": 10,
            "SØREN ÆBELØ": 5,
            " åse ": 3,
            "山田 太郎": 7,
            "🎲 GRAN 👍🏽": 2,
        },
    }
    response = client.post(f"{API}/sessions/{session_id}/rounds", json=body)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["scores"] == {
        "Łucja Wąż": 27,
        "Jürgen Õun": -10,
        "Søren Æbelø": -5,
        "Åse": -3,
        "山田 太郎": -7,
        "🎲 Gran 👍🏽": -2,
    }
    assert client.get(f"{API}/sessions/{session_id}").get_json()["players"] == NAMES


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("  Ann  ", "Ann"),
        ("Ann\nMarie", "Ann Marie"),
        ("Ann\u00a0\u00a0Marie", "Ann Marie"),
        ("Ann\u2028Marie", "Ann Marie"),
        ("فاطمة", "فاطمة"),
        ("דניאל", "דניאל"),
        ("Zoe\u0308", "Zo\u00eb"),  # kept in composed form, so it matches a typed "Zoë"
        ("🇩🇰 Mette", "🇩🇰 Mette"),
        ("<script>alert(1)</script>", "<script>alert(1)</script>"),
        ("x" * 40, "x" * 40),
    ],
    ids=[
        "trimmed",
        "newline",
        "no-break-spaces",
        "line-separator",
        "arabic",
        "hebrew",
        "combining-mark",
        "flag",
        "script-tag",
        "40-chars",
    ],
)
def test_names_that_are_accepted(client: FlaskClient, typed: str, kept: str) -> None:
    response = client.post(f"{API}/sessions", json={"players": [typed, "Bo"]})
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["players"] == [kept, "Bo"]


def test_names_equal_but_for_normalisation_are_one_player(client: FlaskClient, app: Flask) -> None:
    with nothing_written(client, app):
        response = client.post(f"{API}/sessions", json={"players": ["Zo\u00eb", "Zoe\u0308"]})
        found = problems(response, 422)
    assert [p["code"] for p in found] == ["duplicate_player"]


# --- The request-size limit --------------------------------------------------------------------


def padded(body: dict[str, Any], size: int) -> str:
    """The body as JSON text of exactly `size` bytes (spaces after it are still JSON)."""
    text = json.dumps(body)
    assert len(text.encode()) <= size
    return text + " " * (size - len(text.encode()))


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("POST", SESSIONS, session_body()),
        ("POST", ROUNDS, WENT_OUT),
        ("PUT", ROUND_1, WENT_OUT),
        ("POST", EXTEND, {"rounds": 1}),
        *[("POST", url, {"tiles": ["r7"], "sets": [["r7"]]}) for url in TOOLS],
    ],
    ids=["session", "round", "put-round", "extend", "set", "meld", "rack"],
)
def test_a_body_over_64_kib_is_413_json(
    client: FlaskClient, app: Flask, sid: int, method: str, url: str, body: dict[str, Any]
) -> None:
    with nothing_written(client, app):
        response = client.open(
            url.format(sid=sid),
            method=method,
            data=padded(body, LIMIT + 1),
            content_type="application/json",
        )
        found = problems(response, 413)
    assert [p["code"] for p in found] == ["request_entity_too_large"]


def test_a_streamed_body_over_64_kib_is_413_json(client: FlaskClient, app: Flask) -> None:
    """Without a Content-Length (chunked), werkzeug cuts the body at the limit: still a 413,
    and none of it is read as a session."""
    body = padded(session_body(), LIMIT + 10).encode()
    with nothing_written(client, app):
        response = client.post(
            f"{API}/sessions",
            input_stream=io.BytesIO(body),
            content_type="application/json",
            headers={"Transfer-Encoding": "chunked"},
            environ_overrides={"wsgi.input_terminated": True},
        )
        found = problems(response, 413)
    assert [p["code"] for p in found] == ["request_entity_too_large"]


def test_a_body_of_exactly_64_kib_is_read(client: FlaskClient) -> None:
    response = client.post(
        f"{API}/sessions", data=padded(session_body(), LIMIT), content_type="application/json"
    )
    assert response.status_code == 201, response.get_json()


# --- The pages: the new-session form -----------------------------------------------------------


def page_errors(response: TestResponse) -> list[str]:
    """The error messages shown on a page (paragraphs of class "error")."""
    return [
        message.strip()
        for message in re.findall(
            r'<p class="error"[^>]*>([^<]*)</p>', response.get_data(as_text=True)
        )
        if message.strip()
    ]


SCRIPT = "<script>alert(1)</script>"


@pytest.mark.parametrize(
    ("players", "changes", "shown"),
    [
        (SEVEN, {}, "At most 6 players can share a table"),
        ([SCRIPT, *SEVEN[1:]], {}, "At most 6 players can share a table"),
        (["A" * 10_000, "Bo"], {}, "at most 40 letters"),
        ([SCRIPT + "x" * 20, "Bo"], {}, "at most 40 letters"),
        (["Ann", "Bo\x00"], {}, "cannot be shown"),
        (["Ann", " ann "], {}, "already playing"),
        (["Ann", "Bo"], {"rounds": str(HUGE)}, "Rounds must be from 1 to 100"),
        (["Ann", "Bo"], {"joker_penalty": str(HUGE)}, "Joker penalty must be a whole number"),
        (["Ann", "Bo"], {"name": "S" * 10_000}, "at most 80 letters"),
    ],
    ids=[
        "7-players",
        "7-players-script-name",
        "10000-char-name",
        "long-script-name",
        "nul-in-name",
        "same-name",
        "rounds-10**30",
        "joker-penalty-10**30",
        "session-name-10000-chars",
    ],
)
def test_the_new_session_form_refuses_with_422(
    client: FlaskClient, app: Flask, players: list[str], changes: dict[str, str], shown: str
) -> None:
    with nothing_written(client, app):
        response = client.post("/sessions/new", data=new_session_form(players, **changes))
    assert response.status_code == 422
    assert response.mimetype == "text/html"
    assert any(shown in message for message in page_errors(response)), page_errors(response)
    assert "<script>alert" not in response.get_data(as_text=True)


def test_the_form_refuses_seven_names_with_two_tile_sets(client: FlaskClient, app: Flask) -> None:
    with nothing_written(client, app):
        response = client.post("/sessions/new", data=new_session_form(SEVEN, tile_sets="2"))
    assert response.status_code == 422


def test_a_script_name_is_kept_and_shown_as_text(client: FlaskClient) -> None:
    response = client.post("/sessions/new", data=new_session_form([SCRIPT, "Bo"]))
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert" not in page
    listed = client.get(f"{API}/sessions").get_json()["sessions"]
    assert listed[0]["players"] == [SCRIPT, "Bo"]


def test_a_form_over_64_kib_is_413_and_writes_nothing(client: FlaskClient, app: Flask) -> None:
    with nothing_written(client, app):
        response = client.post(
            "/sessions/new", data=new_session_form(["Ann", "Bo"], name="S" * (LIMIT + 1))
        )
    assert response.status_code == 413
    assert response.mimetype == "text/html"


# --- One notation a session (issue 23, finding 14) ----------------------------------------------


@pytest.mark.parametrize(
    ("played_with", "typed", "said"),
    [
        ("tiles", "hq", "“hq” is a card: this session is played with tiles."),
        ("tiles", "h7", "“h7” is a card: this session is played with tiles."),
        ("cards", "r7", "“r7” is a tile: this session is played with cards."),
        ("cards", "red 7", "“red 7” is a tile: this session is played with cards."),
    ],
)
def test_a_token_of_the_other_notation_is_named_everywhere(
    client: FlaskClient, app: Flask, played_with: str, typed: str, said: str
) -> None:
    """The API, the round form, the rules tools and the table checker read only the session's
    notation; nothing is stored."""
    session_id = new_session(client, ["Ann", "Bo"], rules={"played_with": played_with})
    joker = "j"
    with nothing_written(client, app):
        api = client.post(
            f"{API}/sessions/{session_id}/rounds",
            json={"ending": "went_out", "winner": "Ann", "racks": {"Bo": f"{typed} {joker}"}},
        )
        assert [p["message"] for p in problems(api, 422)] == [f"Bo: {said}"]
        page = client.post(
            f"/sessions/{session_id}/rounds/new",
            data={"ending": "went_out", "winner": "0", "rack_1": typed},
        )
        assert page.status_code == 422
        assert any(said in message for message in page_errors(page)), page_errors(page)
        tool = client.post(f"{API}/rules/rack", json={"session": session_id, "tiles": [typed]})
        assert [p["message"] for p in problems(tool, 422)] == [said]
        rules = {"rules": {"played_with": played_with}, "tiles": f"{typed} {joker} {joker}"}
        assert [p["message"] for p in problems(client.post(f"{API}/rules/set", json=rules), 422)]
        checker = client.post(
            f"/tools/check?session={session_id}", data={"check": "set", "sets": f"{typed} j j"}
        )
        assert checker.status_code == 422
        assert said in checker.get_data(as_text=True)


# --- Odd digits in every number field (issue 23, finding 9) --------------------------------------

# Superscript two passes str.isdigit() and fails int(); Arabic-Indic and full-width digits pass
# int(); 4,400 digits are past int()'s limit; a doubled sign is no number.
ODD_NUMBERS = {
    "superscript": "²",
    "arabic-indic": "١٢",
    "fullwidth": "１２",
    "4400-digits": "9" * 4400,
    "two-signs": "+-3",
    "underscore": "1_0",
}
SETTING_FIELDS = [
    "min_initial_meld",
    "joker_penalty",
    "seconds_per_turn",
    "penalty_tiles",
    "winner_bonus",
    "typo_threshold",
    "tile_sets",
]


def form_posts(sid: int, odd: str) -> dict[str, tuple[str, dict[str, str]]]:
    """Every number field of every form, with `odd` typed in it."""
    rounds = f"/sessions/{sid}/rounds/new"
    checker = "/tools/check?rules=chosen&tile_sets=1&min_initial_meld=30&played_with=tiles"
    posts = {
        "new-session-rounds": ("/sessions/new", new_session_form(["Ann", "Bo"], rounds=odd)),
        **{
            f"new-session-{name}": (
                "/sessions/new",
                new_session_form(["Ann", "Bo"], **{name: odd}),
            )
            for name in SETTING_FIELDS
        },
        "rack": (rounds, {"ending": "went_out", "winner": "0", "rack_1": odd, "rack_2": "5"}),
        "score": (rounds, {"ending": "scores", "score_0": odd, "score_1": "-3", "score_2": "3"}),
        "tile-count": (
            rounds,
            {"ending": "pool_empty", "rack_0": "3", "rack_1": "4", "rack_2": "5", "count_0": odd},
        ),
        "winner": (rounds, {"ending": "went_out", "winner": odd, "rack_1": "4", "rack_2": "5"}),
        "clock-seconds": (f"/sessions/{sid}/clock/seconds", {"seconds": odd}),
        "clock-draw": (
            f"/sessions/{sid}/clock/start",
            {"drawn_0": odd, "drawn_1": "3", "drawn_2": "4", "drawn_3": "5"},
        ),
        "checker-meld": (
            checker.replace("min_initial_meld=30", f"min_initial_meld={odd}"),
            {"check": "set", "sets": "r1 r2 r3"},
        ),
        "checker-tile-sets": (
            checker.replace("tile_sets=1", f"tile_sets={odd}"),
            {"check": "set", "sets": "r1 r2 r3"},
        ),
        "rename-seat": (f"/sessions/{sid}/rename", {"position": odd, "name": "Zed"}),
    }
    return posts


FORM_FIELDS = list(form_posts(0, "1"))


@pytest.mark.parametrize("field", FORM_FIELDS)
@pytest.mark.parametrize("odd", ODD_NUMBERS.values(), ids=ODD_NUMBERS.keys())
def test_every_number_field_of_every_form_refuses_odd_digits(
    table: Table, field: str, odd: str
) -> None:
    client = table.app.test_client()
    url, data = form_posts(table.sid, odd)[field]
    written_nothing = left_as_made(table)
    if field == "clock-draw":  # the draw is on the page once the session has a clock
        table.changed = True  # the next case finds the table made again
        seconds = client.post(f"/sessions/{table.sid}/clock/seconds", data={"seconds": "60"})
        assert seconds.status_code in (200, 302)
        written_nothing = nothing_written(client, table.app)
    with written_nothing:
        response = client.post(url, data=data)
    if field == "rename-seat":  # the seat is the page's, not typed: a bad request
        assert response.status_code == 400
        return
    # A rack of 4,400 digits is longer than any rack's text: the service's bad request (400).
    assert response.status_code in ((400, 422) if field == "rack" else (422,)), field
    assert page_errors(response), f"{field}: no message shown"
    assert len(response.get_data(as_text=True)) < 200_000


def api_posts(sid: int, odd: Any) -> dict[str, tuple[str, Any]]:
    """Every number of the API, sent as `odd` (text, or a huge JSON number)."""
    return {
        "rack": (ROUNDS, went_out_but(Bo=odd)),
        "score": (ROUNDS, paper_but(Ann=odd)),
        "tile-count": (ROUNDS, {**POOL_EMPTY, "tile_counts": {"Ann": odd}}),
        "number": (ROUNDS, {**WENT_OUT, "number": odd}),
        "rounds": (SESSIONS, session_body(rounds=odd)),
        **{f"setting-{n}": (SESSIONS, session_body(rules={n: odd})) for n in SETTING_FIELDS},
        "extend": (EXTEND, {"rounds": odd}),
        "tool-session": (f"{API}/rules/rack", {"tiles": "r1", "session": odd}),
        "tool-setting": (f"{API}/rules/meld", {"sets": [], "rules": {"min_initial_meld": odd}}),
    }


@pytest.mark.parametrize("field", list(api_posts(0, 1)))
@pytest.mark.parametrize(
    "odd",
    [*ODD_NUMBERS.values(), 10**4000, -(10**4000)],
    ids=[*ODD_NUMBERS, "10**4000", "-10**4000"],
)
def test_every_number_of_the_api_refuses_odd_digits(table: Table, field: str, odd: Any) -> None:
    url, body = api_posts(table.sid, odd)[field]
    with left_as_made(table):
        response = table.app.test_client().post(url.format(sid=table.sid), json=body)
    assert response.status_code in (400, 404, 422), response.status_code
    if response.status_code != 404:  # a session id past every id is not found
        assert problems(response, response.status_code)
    assert len(response.get_data(as_text=True)) < 4096, "an answer does not echo a flood back"
