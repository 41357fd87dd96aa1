"""Two phones at one table: the same round saved twice, or one round edited twice at once."""

from __future__ import annotations

import re

from factories import new_session
from flask.testing import FlaskClient

API = "/api/v1/sessions"
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def _hidden(page: str, name: str) -> str:
    match = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page) or re.search(
        rf'value="([^"]*)"[^>]*name="{name}"', page
    )
    assert match, f"no hidden field {name}"
    return match.group(1)


def _rounds(client: FlaskClient, session_id: int) -> list[dict]:
    return client.get(f"{API}/{session_id}").json["rounds"]


def test_someone_just_saved_this_round(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rounds=5)
    page = client.get(f"/sessions/{session_id}/rounds/new").get_data(as_text=True)
    assert _hidden(page, "number") == "1"
    form = {
        "ending": "went_out",
        "winner": "0",
        "rack_1": "22",
        "rack_2": "55",
        "rack_3": "8",
        "number": "1",
        "key": _hidden(page, "key"),
    }
    # The other phone saves round 1 first.
    other = {"ending": "went_out", "winner": "Bo", "racks": {"Ann": 5, "Cy": 6, "Di": 7}}
    assert client.post(f"{API}/{session_id}/rounds", json={**other, "number": 1}).status_code == 201

    refused = client.post(f"/sessions/{session_id}/rounds/new", data=form)
    assert refused.status_code == 409
    text = refused.get_data(as_text=True)
    assert "Someone just saved round 1" in text
    assert 'value="55"' in text  # what was typed stays on screen to review
    assert len(_rounds(client, session_id)) == 1
    assert _hidden(text, "number") == "2"

    saved = client.post(
        f"/sessions/{session_id}/rounds/new", data={**form, "number": _hidden(text, "number")}
    )
    assert saved.status_code == 302
    stored = _rounds(client, session_id)
    assert [r["number"] for r in stored] == [1, 2]
    assert stored[1]["scores"]["Ann"] == 85


def test_a_stale_edit_is_refused_with_the_current_values(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rounds=5)
    first = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55, "Di": 8}}
    client.post(f"{API}/{session_id}/rounds", json=first)
    page = client.get(f"/sessions/{session_id}/rounds/1/edit").get_data(as_text=True)
    assert _hidden(page, "version") == "2"  # the session's version that wrote the round
    # Meanwhile the other phone corrects Bo's rack.
    changed = client.put(
        f"{API}/{session_id}/rounds/1",
        json={**first, "racks": {"Bo": 30, "Cy": 55, "Di": 8}, "version": 2},
    )
    assert changed.status_code == 200 and changed.json["version"] == 3

    form = {"ending": "went_out", "winner": "0", "rack_1": "22", "rack_2": "50", "rack_3": "8"}
    refused = client.post(f"/sessions/{session_id}/rounds/1/edit", data={**form, "version": "2"})
    assert refused.status_code == 409
    text = refused.get_data(as_text=True)
    assert "Someone changed round 1 meanwhile" in text
    assert "Bo -30" in text  # the current values are shown
    assert 'value="50"' in text
    assert _rounds(client, session_id)[0]["scores"]["Bo"] == -30

    saved = client.post(
        f"/sessions/{session_id}/rounds/1/edit", data={**form, "version": _hidden(text, "version")}
    )
    assert saved.status_code == 302
    assert _rounds(client, session_id)[0]["scores"] == {"Ann": 80, "Bo": -22, "Cy": -50, "Di": -8}


def test_api_stale_round_and_duplicate_round(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rounds=5)
    body = {"ending": "scores", "scores": {"Ann": 10, "Bo": -5, "Cy": -3, "Di": -2}}
    assert client.post(f"{API}/{session_id}/rounds", json={**body, "number": 1}).status_code == 201
    again = client.post(f"{API}/{session_id}/rounds", json={**body, "number": 1})
    assert again.status_code == 409
    assert again.json["errors"][0]["code"] == "duplicate_round"
    ahead = client.post(f"{API}/{session_id}/rounds", json={**body, "number": 5})
    assert ahead.status_code == 400
    stale = client.put(f"{API}/{session_id}/rounds/1", json={**body, "version": 7})
    assert stale.status_code == 409
    assert stale.json["errors"][0]["code"] == "stale_round"
    assert len(_rounds(client, session_id)) == 1
