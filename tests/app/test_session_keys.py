"""Rematch, extend and notes sent twice or from a page left open (issue #23, finding 11): a
new-session form sent twice makes one session; "Play one more round" and the notes carry the
version they were made against, and a stale one changes nothing and says so."""

from __future__ import annotations

import re
from typing import Any

from factories import new_session_form
from flask.testing import FlaskClient

API = "/api/v1/sessions"
PLAYERS = ["Ann", "Bo", "Cy"]
ROUND = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55}}


def _hidden(page: str, name: str) -> str:
    match = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page) or re.search(
        rf'value="([^"]*)"[^>]*name="{name}"', page
    )
    assert match, f"no hidden field {name}"
    return match.group(1)


def _document(client: FlaskClient, sid: int) -> dict[str, Any]:
    return client.get(f"{API}/{sid}").json


def _finished(client: FlaskClient) -> int:
    sid = client.post(API, json={"players": PLAYERS, "rounds": 1}).json["id"]
    client.post(f"{API}/{sid}/rounds", json=ROUND)
    return sid


def _session_count(client: FlaskClient) -> int:
    return len(client.get(API).json["sessions"])


def test_a_rematch_form_sent_eight_times_makes_one_session(client: FlaskClient) -> None:
    sid = _finished(client)
    page = client.get(f"/sessions/new?again={sid}").get_data(as_text=True)
    key = _hidden(page, "key")
    assert len(key) >= 16
    form = new_session_form(PLAYERS, key=key)
    answers = [client.post("/sessions/new", data=form) for _ in range(8)]
    assert {a.status_code for a in answers} == {302}
    assert len({a.headers["Location"] for a in answers}) == 1
    assert _session_count(client) == 2
    # A fresh form (a new key) is a new session.
    fresh = client.get(f"/sessions/new?again={sid}").get_data(as_text=True)
    assert _hidden(fresh, "key") != key
    assert (
        client.post("/sessions/new", data={**form, "key": _hidden(fresh, "key")}).status_code == 302
    )
    assert _session_count(client) == 3


def test_the_api_takes_a_key_for_a_new_session(client: FlaskClient) -> None:
    body = {"players": PLAYERS, "key": "evening-1"}
    first = client.post(API, json=body)
    assert first.status_code == 201
    again = client.post(API, json=body)
    assert again.status_code == 200 and again.json["id"] == first.json["id"]
    other = client.post(API, json={"players": ["Di", "Ed"], "key": "evening-1"})
    assert other.status_code == 409
    assert other.json["errors"][0]["code"] == "key_reused"
    assert client.post(API, json={**body, "key": ""}).status_code == 400
    assert client.post(API, json={**body, "key": 7}).status_code == 400
    assert _session_count(client) == 1


def test_two_phones_tapping_one_more_round_add_one(client: FlaskClient) -> None:
    sid = _finished(client)
    page_a = client.get(f"/sessions/{sid}").get_data(as_text=True)
    page_b = client.get(f"/sessions/{sid}").get_data(as_text=True)
    extend = re.search(r'action="/sessions/\d+/extend".*?</form>', page_a, re.S)
    assert extend and 'name="version"' in extend.group(0)
    first = client.post(f"/sessions/{sid}/extend", data={"version": _hidden(page_a, "version")})
    assert first.status_code == 302
    assert _document(client, sid)["rounds_planned"] == 2
    second = client.post(
        f"/sessions/{sid}/extend",
        data={"version": _hidden(page_b, "version")},
        follow_redirects=True,
    )
    assert "Another phone changed the session meanwhile" in second.get_data(as_text=True)
    assert _document(client, sid)["rounds_planned"] == 2


def test_the_api_extend_takes_the_version_it_was_made_against(client: FlaskClient) -> None:
    sid = _finished(client)
    seen = _document(client, sid)["version"]
    assert (
        client.post(f"{API}/{sid}/extend", json={"rounds": 1, "version": seen}).status_code == 200
    )
    stale = client.post(f"{API}/{sid}/extend", json={"rounds": 1, "version": seen})
    assert stale.status_code == 409
    assert stale.json["errors"][0]["code"] == "stale_session"
    assert client.post(f"{API}/{sid}/extend", json={"version": "x"}).status_code == 400
    assert _document(client, sid)["rounds_planned"] == 2
    assert client.post(f"{API}/{sid}/extend", json={"rounds": 1}).status_code == 200  # no version
    assert _document(client, sid)["rounds_planned"] == 3


def test_notes_saved_from_a_page_left_open_keep_what_was_typed(client: FlaskClient) -> None:
    sid = _finished(client)
    page_a = client.get(f"/sessions/{sid}/details").get_data(as_text=True)
    page_b = client.get(f"/sessions/{sid}/details").get_data(as_text=True)
    seen_a = {"notes": "Di brought cake", "notes_seen": _hidden(page_a, "notes_seen")}
    assert client.post(f"/sessions/{sid}/notes", data=seen_a).status_code == 302
    # A round saved meanwhile does not make B's notes stale; A's notes do.
    client.post(f"{API}/{sid}/extend", json={"rounds": 1})
    seen_b = {"notes": "Bo won the cake", "notes_seen": _hidden(page_b, "notes_seen")}
    refused = client.post(f"/sessions/{sid}/notes", data=seen_b)
    assert refused.status_code == 409
    text = refused.get_data(as_text=True)
    assert "Someone changed the notes meanwhile" in text
    assert "Di brought cake" in text  # the notes stored now are shown
    assert re.search(r">\s*Bo won the cake</textarea>", text)  # the typed text stays there
    assert _document(client, sid)["notes"] == "Di brought cake"
    # After a look, the second Save keeps the text typed.
    again = {"notes": "Bo won the cake", "notes_seen": _hidden(text, "notes_seen")}
    assert client.post(f"/sessions/{sid}/notes", data=again).status_code == 302
    assert _document(client, sid)["notes"] == "Bo won the cake"
