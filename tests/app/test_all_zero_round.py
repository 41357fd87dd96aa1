"""A paper round where everyone scores 0 (docs/RULES.md 6): it adds up to 0 with nobody plus, as an
empty pool with equal racks scores, so the API and the round page accept it. Nobody won it:
the totals stay, no player counts it as a round won, and the session page, the summary and
the player pages show it."""

from __future__ import annotations

from factories import new_session_by_form
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.services import stats, views

API = "/api/v1"
FOUR = ["Ann", "Bo", "Cy", "Di"]
ALL_ZERO = {"ending": "scores", "scores": {"Ann": 0, "Bo": 0, "Cy": 0, "Di": 0}}


def test_the_api_accepts_an_all_zero_paper_round(client: FlaskClient, app: Flask) -> None:
    created = client.post(f"{API}/sessions", json={"players": FOUR, "rounds": 2})
    assert created.status_code == 201, created.get_json()
    sid = created.get_json()["id"]
    first = {"ending": "went_out", "winner": "Bo", "racks": {"Ann": 22, "Cy": 55, "Di": 8}}
    assert client.post(f"{API}/sessions/{sid}/rounds", json=first).status_code == 201
    answer = client.post(f"{API}/sessions/{sid}/rounds", json=ALL_ZERO)
    assert answer.status_code == 201, answer.get_json()
    doc = answer.get_json()
    assert doc["scores"] == {"Ann": 0, "Bo": 0, "Cy": 0, "Di": 0}
    assert doc["winner"] is None
    session = client.get(f"{API}/sessions/{sid}").get_json()
    assert session["totals"] == {"Ann": -22, "Bo": 85, "Cy": -55, "Di": -8}
    assert session["complete"] is True
    assert session["winners"] == ["Bo"]
    with app.app_context():
        won = {line.name: line.rounds_won for line in stats.list_players()}
    assert won == {"Ann": 0, "Bo": 1, "Cy": 0, "Di": 0}  # the all-zero round: nobody's
    for page in (f"/sessions/{sid}", f"/sessions/{sid}/summary", "/players"):
        assert client.get(page).status_code == 200, page


def test_the_round_page_accepts_an_all_zero_paper_round(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR)
    form = {"ending": "scores", **{f"score_{seat}": "0" for seat in range(4)}}
    saved = client.post(f"/sessions/{sid}/rounds/new", data=form)
    assert saved.status_code == 302, saved.get_data(as_text=True)
    with app.app_context():
        view = views.get_session(sid)
    assert [r.scores for r in view.rounds] == [{"Ann": 0, "Bo": 0, "Cy": 0, "Di": 0}]
    assert view.rounds[0].winner is None
    assert client.get(f"/sessions/{sid}").status_code == 200
    edit = client.get(f"/sessions/{sid}/rounds/1/edit")
    assert edit.status_code == 200
    assert edit.get_data(as_text=True).count('value="0"') >= 4
