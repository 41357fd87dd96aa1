"""Python-side strings in the family's language: API errors keep their code, CSV labels follow
the request's language (or stay English with ?labels=en), problems render translated params."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from factories import add_round, new_session, went_out
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import LABELS, Problem, RulesError, Settings, check_set, parse_tiles
from scorekeeper.rules.errors import NameList, TileName, Word
from scorekeeper.rules.sets import FREED_JOKER_REMINDER, check_joker_swap
from scorekeeper.rules.tiles import check_supply
from scorekeeper.web.forms.common import SETTING_LABELS
from scorekeeper.web.messages import RULES_TEXTS, translate

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

API = "/api/v1"
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def play_a_round(client: FlaskClient, session_id: int) -> None:
    add_round(client, session_id, went_out("Ann", Bo=22, Cy=55, Di=8))


def csv_rows(data: bytes) -> list[list[str]]:
    text = data.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


# -- API errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"ending": "scores", "scores": {"Ann": 24, "Bo": -5, "Cy": -16, "Di": -2}},  # zero_sum
        {"ending": "went_out", "winner": "Zed", "racks": {"Bo": 1, "Cy": 2, "Di": 3}},
        {"ending": "went_out", "winner": "Ann", "racks": {"Bo": ["x9"], "Cy": 2, "Di": 3}},
        {"ending": "went_out", "winner": "Ann", "racks": {"Bo": ["r7", "r7", "r7"], "Cy": 2}},
        {"ending": "nope"},
    ],
)
def test_api_error_in_polish_keeps_the_code(client: FlaskClient, body: dict[str, Any]) -> None:
    session_id = new_session(client, PLAYERS)
    url = f"{API}/sessions/{session_id}/rounds"
    english = client.post(url, json=body, headers={"Accept-Language": "en"})
    polish = client.post(url, json=body, headers={"Accept-Language": "pl"})
    assert english.status_code == polish.status_code
    assert english.status_code in (400, 404, 409, 422)
    en_errors, pl_errors = english.get_json()["errors"], polish.get_json()["errors"]
    assert [e["code"] for e in pl_errors] == [e["code"] for e in en_errors]
    assert [e.get("field") for e in pl_errors] == [e.get("field") for e in en_errors]
    for error in pl_errors:
        assert isinstance(error["message"], str) and error["message"].strip()


def test_api_error_with_the_lang_cookie_keeps_the_code(client: FlaskClient) -> None:
    client.set_cookie("lang", "fr")
    response = client.post(f"{API}/sessions", json={"players": ["Ann"]})
    assert response.status_code == 422
    (error,) = response.get_json()["errors"]
    assert error["code"] == "too_few_players"
    assert error["message"].strip()


def test_api_error_in_english_is_unchanged(client: FlaskClient) -> None:
    response = client.post(f"{API}/sessions", json={"players": PLAYERS, "rules": {"tile_sets": 3}})
    (error,) = response.get_json()["errors"]
    assert error == {
        "code": "bad_setting",
        "message": "Number of tile sets must be a whole number from 1 to 2.",
        "field": "tile_sets",
    }


# -- CSV labels ---------------------------------------------------------------------------------


def test_session_csv_with_labels_en_keeps_english_labels(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rules={"drop_worst_round": True})
    play_a_round(client, session_id)
    response = client.get(
        f"/sessions/{session_id}/export.csv?labels=en", headers={"Accept-Language": "fr"}
    )
    assert response.status_code == 200
    rows = csv_rows(response.data)
    assert rows[0] == ["Round", *PLAYERS]
    assert [r[0] for r in rows[-2:]] == ["Dropped", "Total"]


def test_history_csv_with_labels_en_keeps_english_header(client: FlaskClient) -> None:
    play_a_round(client, new_session(client, PLAYERS))
    response = client.get("/export.csv?labels=en", headers={"Accept-Language": "pl"})
    assert response.status_code == 200
    rows = csv_rows(response.data)
    assert rows[0] == ["session", "date", "round", "player", "ending", "rack", "score"]


def test_csv_in_english_has_english_labels(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    play_a_round(client, session_id)
    rows = csv_rows(client.get(f"/sessions/{session_id}/export.csv").data)
    assert rows[0][0] == "Round" and rows[-1][0] == "Total"


def test_csv_in_french_has_french_header_labels(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rules={"drop_worst_round": True})
    play_a_round(client, session_id)
    response = client.get(f"/sessions/{session_id}/export.csv", headers={"Accept-Language": "fr"})
    rows = csv_rows(response.data)
    assert rows[0] == ["Manche", *PLAYERS]
    assert [r[0] for r in rows[-2:]] == ["Retirée", "Total"]


# -- translate() --------------------------------------------------------------------------------


def test_translate_renders_params_like_message(app: Flask) -> None:
    problem = Problem(
        "impossible_rack",
        "%(player)s: %(count)d tiles cannot be worth %(value)d.",
        {"player": "Bo", "count": 2, "value": 99},
        "Bo",
    )
    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert translate(problem) == "Bo: 2 tiles cannot be worth 99." == problem.message


def test_translate_renders_structured_params(app: Flask) -> None:
    with app.test_request_context():
        with pytest.raises(RulesError) as err:
            check_supply([parse_tiles("r7 r7 r7")])
        (supply,) = err.value.problems
        assert isinstance(supply.params["tile"], TileName)
        assert translate(supply) == supply.message == "red 7 entered 3 times; a single set has 2."

        bad_set = check_set(parse_tiles("r1 b2 o3")).reason
        assert bad_set is not None and isinstance(bad_set.params["tiles"], NameList)
        assert translate(bad_set) == bad_set.message

        swap = check_joker_swap(parse_tiles("r10 b10 j"), parse_tiles("r9")[0]).reason
        assert swap is not None
        assert translate(swap) == swap.message
        assert "or" in swap.message

        with pytest.raises(RulesError) as err:
            Settings(tile_sets=3)
        (setting,) = err.value.problems
        assert isinstance(setting.params["label"], Word)
        assert translate(setting) == setting.message


def test_translate_in_another_language_never_fails(app: Flask) -> None:
    with pytest.raises(RulesError) as err:
        check_supply([parse_tiles("r7 r7 r7")])
    for lang in ("da", "et", "fi", "fr", "pl"):
        with app.test_request_context(headers={"Accept-Language": lang}):
            text = translate(err.value.problems[0])
            assert "3" in text and "2" in text


def test_setting_labels_are_the_rules_labels(app: Flask) -> None:
    with app.test_request_context():
        assert {key: str(label) for key, label in SETTING_LABELS.items()} == LABELS
        assert {text: str(value) for text, value in RULES_TEXTS.items()} == {
            FREED_JOKER_REMINDER: FREED_JOKER_REMINDER
        }


def test_the_session_page_offers_english_headings_in_other_languages(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    french = client.get(f"/sessions/{session_id}", headers={"Accept-Language": "fr"})
    assert f'"{session_id}/export.csv?labels=en"' in french.get_data(as_text=True)
    english = client.get(f"/sessions/{session_id}", headers={"Accept-Language": "en"})
    assert "labels=en" not in english.get_data(as_text=True)
