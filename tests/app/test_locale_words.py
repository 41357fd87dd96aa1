"""The words the app builds in Python, in the phone's language: lists of names by the
language's own rules, a rule's on/off, the turn clock's draw, the chart, what changed (stored
as a code, worded when shown; migration 0008 turned the stored English into codes) and the
scripts' plural forms and list patterns."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.services.changes import CHANGES, Change
from scorekeeper.web.messages import CHANGE_TEXTS, change_text

API = "/api/v1"
BLOCK = re.compile(r'<script type="application/json" id="js-messages">(.*?)</script>', re.S)


def session_with_a_shared_win(client: FlaskClient) -> int:
    created = client.post(
        f"{API}/sessions",
        json={"players": ["Tomek", "Zosia", "Ola"], "rounds": 2, "rules": {"seconds_per_turn": 60}},
    )
    sid = int(created.get_json()["id"])
    for winner, racks in (("Tomek", {"Zosia": 10, "Ola": 5}), ("Zosia", {"Tomek": 10, "Ola": 5})):
        body = {"ending": "went_out", "winner": winner, "racks": racks}
        assert client.post(f"{API}/sessions/{sid}/rounds", json=body).status_code == 201
    return sid


def read(client: FlaskClient, url: str, lang: str, **kw: Any) -> str:
    response = client.open(url, headers={"Accept-Language": lang}, **kw)
    assert response.status_code < 400, (url, response.status_code)
    return html.unescape(response.get_data(as_text=True))


def test_names_are_joined_by_the_languages_own_rules(client: FlaskClient) -> None:
    sid = session_with_a_shared_win(client)
    assert "Tomek og Zosia deler sejren!" in read(client, f"/sessions/{sid}", "da")
    assert "Tomek i Zosia dzielą się wygraną!" in read(client, f"/sessions/{sid}", "pl")
    assert "Tomek and Zosia share the win!" in read(client, f"/sessions/{sid}", "en")
    assert "Tomek, Zosia i Ola" in read(client, "/", "pl")
    assert "Tomek, Zosia ja Ola" in read(client, "/", "fi")
    assert "Tomek, Zosia and Ola" in read(client, "/", "en")  # British: no serial comma
    # A problem's list of names, in Python too.
    body = {"ending": "pool_empty", "racks": {"Tomek": 5, "Zosia": 5, "Ola": 9}}
    extended = client.post(f"{API}/sessions/{sid}/extend", json={"rounds": 1})
    assert extended.status_code == 200
    tie = client.post(f"{API}/sessions/{sid}/rounds", json=body, headers={"Accept-Language": "da"})
    assert "Tomek og Zosia" in tie.get_json()["errors"][0]["message"]


def test_a_sessions_rules_read_in_the_language(client: FlaskClient) -> None:
    sid = session_with_a_shared_win(client)
    danish = read(client, f"/sessions/{sid}/details", "da")
    rules = danish[danish.index('id="rules"') :]
    for word in ("<dd>til</dd>", "<dd>fra</dd>", "<dd>Forskel</dd>", "<dd>Brikker</dd>"):
        assert word in rules, word
    assert "<dd>on</dd>" not in rules and "<dd>off</dd>" not in rules
    assert "<dd>-180</dd>" in read(client, f"/sessions/{sid}/details", "en")
    assert "<dd>päällä</dd>" in read(client, f"/sessions/{sid}/details", "fi")


def test_the_turn_clocks_draw_speaks_the_language(client: FlaskClient) -> None:
    sid = session_with_a_shared_win(client)
    url = f"/sessions/{sid}/clock/start"
    polish = read(
        client,
        url,
        "pl",
        method="POST",
        data={f"drawn_{i}": n for i, n in enumerate(["9", "12", "4"])},
    )
    assert "Zosia (wylosowano 12)." in polish
    assert "starts (drew" not in polish
    tie = read(
        client, url, "da", method="POST", data={"drawn_0": "12", "drawn_1": "12", "drawn_2": "2"}
    )
    assert "Tomek og Zosia" in tie and "draw again" not in tie


def test_the_chart_speaks_the_language(client: FlaskClient) -> None:
    sid = session_with_a_shared_win(client)
    danish = read(client, f"/sessions/{sid}/chart.svg", "da")
    assert "løbende totaler</text>" in danish
    assert "running totals" not in danish and ">start<" in danish
    assert "<title" in danish and "Løbende totaler · " in danish
    assert (
        "Løbende totaler efter hver af 2 runder; efter runde 2: Tomek +5, Zosia +5, Ola −10."
        in danish
        or ("Løbende totaler efter hver af 2 runder" in danish)
    )
    finnish = read(client, f"/sessions/{sid}/chart.svg", "fi")
    assert ">alku<" in finnish and "juoksevat kokonaispisteet" in finnish
    english = read(client, f"/sessions/{sid}/chart.svg", "en")
    assert re.search(r"\w{3} \d+ \w{3} \d{4} · running totals</text>", english)


def test_what_changed_is_worded_from_its_code() -> None:
    """The web layer's words are the services' English, each msgid listed for extraction."""
    assert set(CHANGE_TEXTS) == set(CHANGES)
    for code, english in CHANGES.items():
        listed = CHANGE_TEXTS[code]
        assert (listed if isinstance(listed, tuple) else listed._args[0]) == english, code


def test_a_stored_change_reads_back_or_becomes_the_generic_one(app: Flask) -> None:
    assert Change.from_stored(None) is None
    assert Change.from_stored({"code": "round_added", "round": 3}) == Change(
        "round_added", {"round": 3}
    )
    for junk in ("Round 3 added", {"code": "from_the_future"}, {"code": "round_added"}, 7):
        assert Change.from_stored(junk) == Change("session_changed")
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        assert (
            change_text(Change("rounds_agreed", {"count": 1})) == "Uzgodniono jeszcze jedną partię"
        )
        assert (
            change_text(Change("rounds_agreed", {"count": 5})) == "Uzgodniono 5 dodatkowych partii"
        )
        assert change_text(Change("round_added", {"round": 3})) == "Dodano partię 3"


def test_polish_scripts_get_every_plural_form_and_the_list_locale(client: FlaskClient) -> None:
    sid = session_with_a_shared_win(client)
    page = read(client, f"/sessions/{sid}/clock", "pl")
    words = json.loads(BLOCK.search(page)[1])
    penalty = words["clock_time_up_penalty"]
    assert set(penalty) == {"one", "few", "many", "other"}
    assert "%(count)s kostkę karną" in penalty["one"]
    assert "%(count)s kostki karne" in penalty["few"]
    assert "%(count)s kostek karnych" in penalty["many"]
    assert words["list_locale"] == "pl"
    danish = json.loads(BLOCK.search(read(client, f"/sessions/{sid}/clock", "da"))[1])
    assert set(danish["clock_time_up_penalty"]) == {"one", "other"}
    assert danish["list_locale"] == "da"
    english = json.loads(BLOCK.search(read(client, f"/sessions/{sid}/clock", "en"))[1])
    assert english["list_locale"] == "en-GB"  # British: no serial comma
    # The keypad fetched on demand brings its forms too.
    fresh = client.post(f"{API}/sessions", json={"players": ["Tomek", "Zosia"]}).get_json()["id"]
    form = read(client, f"/sessions/{fresh}/rounds/new", "pl")
    keypad = re.search(r"(/static/words/pl/round_keypad\.[0-9a-f]{10}\.js)", form)
    assert keypad
    script = client.get(keypad[1]).get_data(as_text=True)
    assert '"few": ": %(count)s kostki · %(points)s pkt"' in script
    assert '"many": ": %(count)s kostek · %(points)s pkt"' in script


ENGLISH_CHANGES = {
    "Round 3 added": {"code": "round_added", "round": 3},
    "Round 12 changed back": {"code": "round_changed_back", "round": 12},
    "Round 2 put back": {"code": "round_put_back", "round": 2},
    "One more round agreed": {"code": "rounds_agreed", "count": 1},
    "4 more rounds agreed": {"code": "rounds_agreed", "count": 4},
    "Turn clock set to 60 s": {"code": "clock_set", "seconds": 60},
    "Turn clock turned off": {"code": "clock_off"},
    "Ann renamed to Bo": {"code": "player_renamed", "before": "Ann", "after": "Bo"},
    "Notes cleared": {"code": "notes_cleared"},
    "Something a later version wrote": {"code": "session_changed"},
}


def test_migration_0008_reads_the_stored_english_back_into_codes(migrated_app: Flask) -> None:
    app = migrated_app
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "downgrade", "0007"]).exit_code == 0
    with app.app_context():
        for i, text in enumerate([*ENGLISH_CHANGES, None], start=1):
            db.session.execute(
                sa.text(
                    "INSERT INTO sessions (id, name, played_on, rounds_planned, rules, created_at,"
                    " updated_at, version, last_change, notes, rounds_played, standing)"
                    " VALUES (:id, 'S', '2026-12-01', 3, '{}', '2026-12-01 10:00:00',"
                    " '2026-12-01 10:00:00', 2, :text, '', 0, '{}')"
                ),
                {"id": i, "text": text},
            )
        db.session.commit()
        db.session.remove()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        rows = db.session.execute(sa.text("SELECT id, change FROM sessions ORDER BY id")).all()
        db.session.remove()
    stored = [json.loads(c) if isinstance(c, str) else c for _, c in rows]
    assert stored == [*ENGLISH_CHANGES.values(), None]
    assert runner.invoke(args=["db", "downgrade", "0007"]).exit_code == 0
    with app.app_context():
        texts = db.session.scalars(sa.text("SELECT last_change FROM sessions ORDER BY id")).all()
        db.session.remove()
    back = [*ENGLISH_CHANGES][:-1] + ["Session changed", None]
    assert texts == back
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
