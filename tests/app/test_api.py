"""The JSON API of docs/DESIGN.md 3: documents, statuses, every error code, and nothing written on
an error. Each test runs on SQLite, and on PostgreSQL when SCOREKEEPER_TEST_DATABASE_URL is set.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

import pytest
from api_answers import problems
from contract import DEFAULT_RULES
from factories import add_round, new_session, paper, pool_empty, session_doc, went_out
from flask import Flask
from flask.testing import FlaskClient

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

API = "/api/v1"
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
SUNDAY = {"name": "Sunday", "players": PLAYERS, "rounds": 3, "rules": DEFAULT_RULES}
WENT_OUT = went_out("Ann", Bo=22, Cy=55, Di=8)
WENT_OUT_TILES = went_out("Ann", Bo=["r7", "k13", "j"], Cy=12, Di=8)
POOL_EMPTY = pool_empty(Ann=10, Bo=22, Cy=55, Di=8) | {
    "tile_counts": {"Ann": 3, "Bo": 5, "Cy": 9, "Di": 2},
    "winner": "Di",
}
PAPER = paper(Ann=24, Bo=-5, Cy=-16, Di=-3)

# The Polish score sheet (seeds/001): players A-D, three rounds; round 2 is misprinted.
GRACZE = ["Gracz A", "Gracz B", "Gracz C", "Gracz D"]
SHEET_ROUND_1 = [24, -5, -16, -3]
SHEET_ROUND_2_AS_PRINTED = [6, -11, 22, -5]
SHEET_ROUND_2_CORRECTED = [-6, -11, 22, -5]
SHEET_ROUND_3 = [-32, -13, -2, 47]
SHEET_TOTALS = [-14, -29, 4, 39]


# --- Helpers ----------------------------------------------------------------------------------


def rounds_url(session_id: int, number: int | None = None) -> str:
    url = f"{API}/sessions/{session_id}/rounds"
    return url if number is None else f"{url}/{number}"


def sheet(players: list[str], scores: list[int]) -> dict[str, Any]:
    """A row of a paper score sheet, the players' scores in seat order, as a round body."""
    return paper(**dict(zip(players, scores, strict=True)))


def codes(found: list[dict[str, str]]) -> list[str]:
    return [p["code"] for p in found]


@contextmanager
def nothing_written(client: FlaskClient, session_id: int | None = None) -> Iterator[None]:
    """The session (rounds, totals, version) and the session list are the same afterwards."""
    listed = client.get(f"{API}/sessions").get_json()
    before = session_doc(client, session_id) if session_id else None
    yield
    assert client.get(f"{API}/sessions").get_json() == listed
    if session_id:
        assert session_doc(client, session_id) == before


def refused(
    client: FlaskClient,
    session_id: int,
    body: Any,
    status: int,
    code: str,
    url: str | None = None,
    method: str = "POST",
) -> list[dict[str, str]]:
    """Send a round (by default) that must be refused with this status and code, writing nothing."""
    with nothing_written(client, session_id):
        response = client.open(url or rounds_url(session_id), method=method, json=body)
        found = problems(response, status)
    assert code in codes(found), found
    return [p for p in found if p["code"] == code]


# --- Sessions ---------------------------------------------------------------------------------


def test_create_session_returns_document_and_location(client: FlaskClient) -> None:
    response = client.post(f"{API}/sessions", json=SUNDAY)
    assert response.status_code == 201
    doc = response.get_json()
    assert response.headers["Location"] == f"{API}/sessions/{doc['id']}"
    date.fromisoformat(doc["date"])
    assert isinstance(doc["version"], int)
    assert {k: v for k, v in doc.items() if k not in ("id", "date", "version")} == {
        "name": "Sunday",
        "players": PLAYERS,
        "rounds_planned": 3,
        "rules": DEFAULT_RULES,
        "rounds": [],
        "totals": dict.fromkeys(PLAYERS, 0),
        "dropped": dict.fromkeys(PLAYERS),
        "complete": False,
        "winners": [],
        "last_change": None,
        "notes": "",
    }
    assert client.get(response.headers["Location"]).get_json() == doc


def test_name_rounds_and_rules_are_optional(client: FlaskClient) -> None:
    response = client.post(f"{API}/sessions", json={"players": ["Ann", "Bo"]})
    assert response.status_code == 201
    doc = response.get_json()
    assert doc["rounds_planned"] == 3
    assert doc["rules"] == DEFAULT_RULES
    assert isinstance(doc["name"], str) and doc["name"]


def test_some_rules_given_the_rest_default(client: FlaskClient) -> None:
    doc = session_doc(
        client, new_session(client, PLAYERS, rules={"joker_penalty": 50, "run_wrap": True})
    )
    assert doc["rules"] == {**DEFAULT_RULES, "joker_penalty": 50, "run_wrap": True}


def test_player_names_are_trimmed(client: FlaskClient) -> None:
    doc = session_doc(client, new_session(client, ["  Ann ", "Bo   Ek"]))
    assert doc["players"] == ["Ann", "Bo Ek"]


def test_sessions_are_listed_newest_first(client: FlaskClient) -> None:
    first = new_session(client, PLAYERS, name="First")
    second = new_session(client, PLAYERS, name="Second")
    third = new_session(client, PLAYERS, name="Third", rounds=1)
    add_round(client, third, WENT_OUT)  # the newest is complete: it still comes first
    response = client.get(f"{API}/sessions")
    assert response.status_code == 200
    listed = response.get_json()["sessions"]
    assert [s["id"] for s in listed] == [third, second, first]
    assert [s["name"] for s in listed] == ["Third", "Second", "First"]
    assert listed[0] | {"date": None} == {
        "id": third,
        "name": "Third",
        "date": None,
        "players": PLAYERS,
        "rounds_planned": 1,
        "rounds_played": 1,
        "complete": True,
        "leaders": ["Ann"],
    }


def test_no_sessions_is_an_empty_list(client: FlaskClient) -> None:
    assert client.get(f"{API}/sessions").get_json() == {"sessions": []}


def test_session_document_after_a_round_is_design_example(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, name="Sunday")
    add_round(client, session_id, WENT_OUT)
    doc = session_doc(client, session_id)
    assert {k: v for k, v in doc.items() if k not in ("date", "version")} == {
        "id": session_id,
        "name": "Sunday",
        "players": PLAYERS,
        "rounds_planned": 3,
        "rules": DEFAULT_RULES,
        "rounds": [
            {
                "number": 1,
                "ending": "went_out",
                "winner": "Ann",
                "racks": {"Bo": 22, "Cy": 55, "Di": 8},
                "scores": {"Ann": 85, "Bo": -22, "Cy": -55, "Di": -8},
                "flags": [],
                "version": 2,  # the session version that wrote it
            }
        ],
        "totals": {"Ann": 85, "Bo": -22, "Cy": -55, "Di": -8},
        "dropped": dict.fromkeys(PLAYERS),
        "complete": False,
        "winners": [],
        "last_change": {"code": "round_added", "round": 1, "message": "Round 1 added"},
        "notes": "",
    }


def test_too_many_players_for_one_set(client: FlaskClient) -> None:
    five = PLAYERS + ["Ed"]
    with nothing_written(client):
        found = problems(client.post(f"{API}/sessions", json={"players": five}), 422)
    assert codes(found) == ["too_many_players"]
    assert found[0]["field"] == "players"
    assert "two tile sets" in found[0]["message"]
    assert new_session(client, five, rules={"tile_sets": 2})
    seven = five + ["Flo", "Gus"]
    found = problems(
        client.post(f"{API}/sessions", json={"players": seven, "rules": {"tile_sets": 2}}), 422
    )
    assert codes(found) == ["too_many_players"]


@pytest.mark.parametrize(
    ("rules", "field"),
    [({"colour_blind": True}, "colour_blind"), ({"joker_penalty": "30"}, "joker_penalty")],
    ids=["unknown-key", "wrong-type"],
)
def test_bad_setting_unknown_or_wrong_type_is_400(
    client: FlaskClient, rules: dict[str, Any], field: str
) -> None:
    with nothing_written(client):
        response = client.post(f"{API}/sessions", json={"players": PLAYERS, "rules": rules})
        found = problems(response, 400)
    assert codes(found) == ["bad_setting"]
    assert found[0]["field"] == field


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"tile_sets": 3}, "tile_sets"),
        ({"typo_threshold": 0}, "typo_threshold"),
        ({"empty_pool": "random"}, "empty_pool"),
        ({"winner_bonus": 0}, "winner_bonus"),
    ],
    ids=["tile-sets", "typo-threshold", "empty-pool", "winner-bonus"],
)
def test_bad_setting_out_of_range_is_422(
    client: FlaskClient, rules: dict[str, Any], field: str
) -> None:
    with nothing_written(client):
        response = client.post(f"{API}/sessions", json={"players": PLAYERS, "rules": rules})
        found = problems(response, 422)
    assert codes(found) == ["bad_setting"]
    assert found[0]["field"] == field


def test_agreed_rounds_out_of_range(client: FlaskClient) -> None:
    with nothing_written(client):
        found = problems(
            client.post(f"{API}/sessions", json={"players": PLAYERS, "rounds": 0}), 422
        )
    assert codes(found) == ["bad_setting"]
    assert found[0]["field"] == "rounds"


@pytest.mark.parametrize(
    "players",
    [["Ann", "ann"], ["Ann"], ["Ann", ""], ["Ann", "x" * 41]],
    ids=["duplicate", "one", "blank", "too-long"],
)
def test_bad_player_lists_are_422(client: FlaskClient, players: list[str]) -> None:
    with nothing_written(client):
        problems(client.post(f"{API}/sessions", json={"players": players}), 422)


@pytest.mark.parametrize(
    "body",
    [
        [PLAYERS],
        {"players": "Ann, Bo"},
        {"players": PLAYERS, "rounds": "3"},
        {"players": PLAYERS, "name": 7},
    ],
    ids=["array-body", "players-text", "rounds-text", "name-number"],
)
def test_malformed_new_session_is_400(client: FlaskClient, body: Any) -> None:
    with nothing_written(client):
        found = problems(client.post(f"{API}/sessions", json=body), 400)
    assert codes(found) == ["bad_request"]


# --- Adding rounds: the four bodies of docs/DESIGN.md 3 ----------------------------------------


@pytest.mark.parametrize(
    ("body", "winner", "scores", "extra"),
    [
        (WENT_OUT, "Ann", [85, -22, -55, -8], {}),
        (
            WENT_OUT_TILES,
            "Ann",
            [70, -50, -12, -8],
            {"tile_counts": {"Bo": 3}, "tiles": {"Bo": ["k13", "r7", "j"]}},
        ),
        (POOL_EMPTY, "Di", [-2, -14, -47, 63], {"tile_counts": POOL_EMPTY["tile_counts"]}),
        (PAPER, "Ann", [24, -5, -16, -3], {}),
    ],
    ids=["went_out", "went_out-tiles", "pool_empty", "scores"],
)
def test_design_round_bodies(
    client: FlaskClient,
    body: dict[str, Any],
    winner: str,
    scores: list[int],
    extra: dict[str, Any],
) -> None:
    session_id = new_session(client, PLAYERS)
    response = client.post(rounds_url(session_id), json=body)
    assert response.status_code == 201
    assert response.headers["Location"] == rounds_url(session_id, 1)
    racks = {"Bo": 50, "Cy": 12, "Di": 8} if body is WENT_OUT_TILES else body.get("racks", {})
    assert response.get_json() == {
        "number": 1,
        "ending": body["ending"],
        "winner": winner,
        "racks": racks,
        "scores": dict(zip(PLAYERS, scores, strict=True)),
        "flags": [],
        "version": 2,
        **extra,
    }
    assert client.get(response.headers["Location"]).get_json() == response.get_json()
    assert session_doc(client, session_id)["totals"] == dict(zip(PLAYERS, scores, strict=True))


def test_rounds_are_numbered_in_order(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    for number, body in enumerate([WENT_OUT, POOL_EMPTY, PAPER], start=1):
        response = client.post(rounds_url(session_id), json=body)
        assert response.headers["Location"] == rounds_url(session_id, number)
        assert response.get_json()["number"] == number
    doc = session_doc(client, session_id)
    assert doc["totals"] == {"Ann": 107, "Bo": -41, "Cy": -118, "Di": 52}
    assert doc["complete"] is True
    assert doc["winners"] == ["Ann"]


def test_players_are_named_case_insensitively(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    body = {"ending": "went_out", "winner": "ann", "racks": {"BO": 22, " cy ": 55, "dI": 8}}
    doc = add_round(client, session_id, body)
    assert doc["winner"] == "Ann"
    assert doc["racks"] == {"Bo": 22, "Cy": 55, "Di": 8}
    assert doc["scores"] == {"Ann": 85, "Bo": -22, "Cy": -55, "Di": -8}
    pool = {
        "ending": "pool_empty",
        "racks": {"ann": 10, "bo": 10, "cy": 55, "di": 18},
        "tile_counts": {"ANN": 3, "bo": 2},
    }
    assert add_round(client, session_id, pool)["winner"] == "Bo"
    scores = add_round(client, session_id, sheet(["aNN", "bo", "CY", "di"], [24, -5, -16, -3]))
    assert scores["scores"] == {"Ann": 24, "Bo": -5, "Cy": -16, "Di": -3}


# --- Every error code of docs/DESIGN.md 3 ------------------------------------------------------


def test_zero_sum(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    found = refused(client, session_id, sheet(PLAYERS, SHEET_ROUND_2_AS_PRINTED), 422, "zero_sum")
    assert found[0]["message"] == "Adds up to +12: someone counted a rack wrong."
    two_winners = sheet(PLAYERS, [10, 5, -10, -5])
    assert (
        "only the winner" in refused(client, session_id, two_winners, 422, "zero_sum")[0]["message"]
    )
    # Every score 0 adds up with nobody plus (docs/RULES.md 6): accepted, and nobody won it.
    assert add_round(client, session_id, sheet(PLAYERS, [0, 0, 0, 0]))["winner"] is None


def test_confirm_required_then_confirmed(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    body = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 200, "Cy": 190, "Di": 8}}
    found = refused(client, session_id, body, 409, "confirm_required")
    assert [p["field"] for p in found] == ["Bo", "Cy"]
    assert found[0]["message"] == "Bo: 200 on the rack, more than 180. Right?"
    refused(client, session_id, {**body, "confirm": False}, 409, "confirm_required")
    response = client.post(rounds_url(session_id), json={**body, "confirm": True})
    assert response.status_code == 201
    doc = response.get_json()
    assert doc["flags"] == ["Bo", "Cy"]
    assert doc["scores"] == {"Ann": 398, "Bo": -200, "Cy": -190, "Di": -8}
    assert session_doc(client, session_id)["rounds"][0]["flags"] == ["Bo", "Cy"]


def test_confirm_required_on_paper_scores(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    body = sheet(PLAYERS, [250, -200, -45, -5])
    found = refused(client, session_id, body, 409, "confirm_required")
    assert [p["field"] for p in found] == ["Bo"]
    assert add_round(client, session_id, {**body, "confirm": True})["flags"] == ["Bo"]


def test_typo_threshold_is_a_setting(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rules={"typo_threshold": -100})
    body = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 120, "Cy": 1, "Di": 1}}
    refused(client, session_id, body, 409, "confirm_required")


def test_unknown_player(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    found = refused(client, session_id, {**WENT_OUT, "winner": "Ed"}, 422, "unknown_player")
    assert found[0]["field"] == "winner"
    assert "Ed" in found[0]["message"]
    racks = {"Bo": 22, "Cy": 55, "Di": 8, "Ed": 3}
    found = refused(client, session_id, {**WENT_OUT, "racks": racks}, 422, "unknown_player")
    assert found[0]["field"] == "Ed"
    scores = {"Ann": 5, "Bo": -5, "Cy": 0, "Di": 0, "Ed": 0}
    refused(client, session_id, {"ending": "scores", "scores": scores}, 422, "unknown_player")


def test_missing_player(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    body = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55}}
    assert refused(client, session_id, body, 422, "missing_player")[0]["field"] == "Di"
    no_winner = {"ending": "went_out", "racks": WENT_OUT["racks"]}
    assert refused(client, session_id, no_winner, 422, "missing_player")[0]["field"] == "winner"
    pool = {"ending": "pool_empty", "racks": {"Ann": 10, "Bo": 22, "Cy": 55}}
    assert refused(client, session_id, pool, 422, "missing_player")[0]["field"] == "Di"
    three = {"ending": "scores", "scores": {"Ann": 5, "Bo": -5, "Cy": 0}}
    assert refused(client, session_id, three, 422, "missing_player")[0]["field"] == "Di"


def test_winner_has_tiles(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    racks = {"Ann": 5, "Bo": 22, "Cy": 55, "Di": 8}
    found = refused(client, session_id, {**WENT_OUT, "racks": racks}, 422, "winner_has_tiles")
    assert found[0]["field"] == "Ann"
    # An empty rack for the winner is what went out means: accepted.
    assert (
        add_round(client, session_id, {**WENT_OUT, "racks": {**racks, "Ann": 0}})["scores"]["Ann"]
        == 85
    )


def test_negative_rack(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    racks = {"Bo": -3, "Cy": 55, "Di": 8}
    found = refused(client, session_id, {**WENT_OUT, "racks": racks}, 422, "negative_rack")
    assert found[0]["field"] == "Bo"


def test_impossible_rack(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    racks = {"Bo": 1000, "Cy": 55, "Di": 8}
    found = refused(client, session_id, {**WENT_OUT, "racks": racks}, 422, "impossible_rack")
    assert found[0]["field"] == "Bo"
    too_dear = {
        "ending": "pool_empty",
        "racks": {"Ann": 100, "Bo": 22, "Cy": 55, "Di": 8},
        "tile_counts": {"Ann": 2},
    }
    found = refused(client, session_id, too_dear, 422, "impossible_rack")
    assert found[0]["field"] == "Ann"
    huge_paper = sheet(PLAYERS, [5000, -5000, 0, 0])
    refused(client, session_id, {**huge_paper, "confirm": True}, 422, "impossible_rack")


def test_bad_tile_names_the_token(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    racks = {"Bo": ["r7", "x9"], "Cy": 55, "Di": 8}
    found = refused(client, session_id, {**WENT_OUT, "racks": racks}, 422, "bad_tile")
    assert found[0]["field"] == "Bo"
    assert "x9" in found[0]["message"]
    racks = {"Bo": ["r14"], "Cy": 55, "Di": 8}
    assert (
        "r14"
        in refused(client, session_id, {**WENT_OUT, "racks": racks}, 422, "bad_tile")[0]["message"]
    )


def test_tile_supply_across_racks(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    racks = {"Bo": ["r7", "r7"], "Cy": ["r7"], "Di": 8}
    found = refused(client, session_id, {**WENT_OUT, "racks": racks}, 422, "tile_supply")
    assert found[0]["message"] == "red 7 entered 3 times; a single set has 2."
    two_sets = new_session(client, PLAYERS, rules={"tile_sets": 2})
    assert add_round(client, two_sets, {**WENT_OUT, "racks": racks})["scores"]["Ann"] == 29


def test_tie_then_winner_settles_it(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    body = {"ending": "pool_empty", "racks": {"Ann": 10, "Bo": 10, "Cy": 55, "Di": 18}}
    found = refused(client, session_id, body, 422, "tie")
    assert "Ann" in found[0]["message"] and "Bo" in found[0]["message"]
    wrong = refused(client, session_id, {**body, "winner": "Cy"}, 422, "wrong_winner")
    assert wrong[0]["field"] == "winner"
    doc = add_round(client, session_id, {**body, "winner": "Bo"})
    assert doc["winner"] == "Bo"
    assert doc["scores"] == {"Ann": 0, "Bo": 53, "Cy": -45, "Di": -8}


def test_tie_settled_by_fewer_tiles(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    body = {
        "ending": "pool_empty",
        "racks": {"Ann": 10, "Bo": 10, "Cy": 55, "Di": 18},
        "tile_counts": {"Ann": 3, "Bo": 2},
    }
    assert add_round(client, session_id, body)["winner"] == "Bo"


def test_session_complete_until_extended(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    for _ in range(3):
        add_round(client, session_id, WENT_OUT)
    doc = session_doc(client, session_id)
    assert doc["complete"] is True and doc["winners"] == ["Ann"]
    found = refused(client, session_id, WENT_OUT, 409, "session_complete")
    assert "3" in found[0]["message"]
    response = client.post(f"{API}/sessions/{session_id}/extend", json={"rounds": 1})
    assert response.status_code == 200
    extended = response.get_json()
    assert extended["rounds_planned"] == 4
    assert extended["complete"] is False and extended["winners"] == []
    assert add_round(client, session_id, PAPER)["number"] == 4
    doc = session_doc(client, session_id)
    assert doc["complete"] is True
    assert doc["totals"] == {"Ann": 279, "Bo": -71, "Cy": -181, "Di": -27}
    assert doc["winners"] == ["Ann"]


def test_extend_defaults_to_one_round(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    response = client.post(f"{API}/sessions/{session_id}/extend", json={})
    assert response.status_code == 200
    assert response.get_json()["rounds_planned"] == 4


def test_extend_refusals(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    url = f"{API}/sessions/{session_id}/extend"
    assert codes(refused(client, session_id, {"rounds": 0}, 422, "bad_setting", url)) == [
        "bad_setting"
    ]
    refused(client, session_id, {"rounds": 98}, 422, "bad_setting", url)
    refused(client, session_id, {"rounds": "1"}, 400, "bad_request", url)
    refused(client, session_id, [1], 400, "bad_request", url)


def test_winners_share_equal_totals(client: FlaskClient) -> None:
    session_id = new_session(client, ["Ann", "Bo"], rounds=2)
    add_round(client, session_id, sheet(["Ann", "Bo"], [10, -10]))
    add_round(client, session_id, sheet(["Ann", "Bo"], [-10, 10]))
    assert session_doc(client, session_id)["winners"] == ["Ann", "Bo"]


def test_duplicate_round_number(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    add_round(client, session_id, {**WENT_OUT, "number": 1})
    found = refused(client, session_id, {**WENT_OUT, "number": 1}, 409, "duplicate_round")
    assert found[0]["field"] == "number"


# --- Malformed bodies (400), unknown things (404), wrong methods (405) ----------------------


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**WENT_OUT, "racks": {"Bo": 1.5, "Cy": 55, "Di": 8}}, "Bo"),
        ({**WENT_OUT, "racks": {"Bo": True, "Cy": 55, "Di": 8}}, "Bo"),
        ({**WENT_OUT, "racks": {"Bo": None, "Cy": 55, "Di": 8}}, "Bo"),
        ({**WENT_OUT, "racks": {"Bo": ["r7", 7], "Cy": 55, "Di": 8}}, "Bo"),
        ({**WENT_OUT, "racks": [22, 55, 8]}, "racks"),
        ({**WENT_OUT, "racks": "Bo 22"}, "racks"),
        ({**WENT_OUT, "winner": ["Ann"]}, "winner"),
        ({"ending": "scores", "scores": {"Ann": 5, "Bo": "-5", "Cy": 0, "Di": 0}}, "Bo"),
        ({"ending": "scores", "scores": {"Ann": 5.0, "Bo": -5, "Cy": 0, "Di": 0}}, "Ann"),
        ({**POOL_EMPTY, "tile_counts": {"Ann": 3.5}}, "Ann"),
        ({**WENT_OUT, "confirm": "yes"}, "confirm"),
        ({**WENT_OUT, "key": ""}, "key"),
        ({**WENT_OUT, "key": "k" * 65}, "key"),
        ({**WENT_OUT, "key": "a\x00b"}, "key"),
        ({**WENT_OUT, "number": "1"}, "number"),
        ({**WENT_OUT, "ending": "won"}, "ending"),
        ({"winner": "Ann", "racks": WENT_OUT["racks"]}, "ending"),
        ({**WENT_OUT, "racks": {"Bo": 10**7, "Cy": 55, "Di": 8}}, "Bo"),
        ({**WENT_OUT, "racks": {"Bo": ["k1"] * 101, "Cy": 55, "Di": 8}}, "Bo"),
        ({**WENT_OUT, "racks": {"Bo": 3, "bo": 40, "Cy": 55, "Di": 8}}, "racks"),
        (sheet(["Ann", "ann ", "Bo", "Cy", "Di"], [10, 5, -5, -5, -5]), "scores"),
    ],
    ids=[
        "rack-1.5",
        "rack-true",
        "rack-null",
        "tile-number",
        "racks-list",
        "racks-text",
        "winner-list",
        "score-text",
        "score-float",
        "tile-count-float",
        "confirm-text",
        "key-empty",
        "key-too-long",
        "key-nul",
        "number-text",
        "ending-unknown",
        "ending-missing",
        "rack-huge",
        "rack-too-many-tiles",
        "rack-twice",
        "score-twice",
    ],
)
def test_wrong_types_are_400(client: FlaskClient, body: dict[str, Any], field: str) -> None:
    session_id = new_session(client, PLAYERS)
    found = refused(client, session_id, body, 400, "bad_request")
    assert found[0].get("field") == field


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("not json", "application/json"),
        ('{"ending": "went_out",', "application/json"),
        ("", "application/json"),
        ("null", "application/json"),
        ('{"ending": "went_out", "winner": "Ann", "racks": {"Bo": 1}}', "text/plain"),
        ("[" * 50_000 + "]" * 10, "application/json"),
    ],
    ids=["text", "truncated", "empty", "null", "json-as-text-plain", "nested-too-deep"],
)
def test_non_json_body_is_400(client: FlaskClient, data: str, content_type: str) -> None:
    session_id = new_session(client, PLAYERS)
    with nothing_written(client, session_id):
        for url, method in [
            (rounds_url(session_id), "POST"),
            (f"{API}/sessions", "POST"),
            (f"{API}/sessions/{session_id}/extend", "POST"),
            (f"{API}/rules/rack", "POST"),
        ]:
            response = client.open(url, method=method, data=data, content_type=content_type)
            assert codes(problems(response, 400)) == ["bad_request"]
    add_round(client, session_id, WENT_OUT)
    with nothing_written(client, session_id):
        response = client.put(rounds_url(session_id, 1), data=data, content_type=content_type)
        assert codes(problems(response, 400)) == ["bad_request"]


def test_array_body_is_400(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    refused(client, session_id, [WENT_OUT], 400, "bad_request")


def test_body_too_large_is_413(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    with nothing_written(client, session_id):
        response = client.post(
            rounds_url(session_id), data="x" * (65 * 1024), content_type="application/json"
        )
        problems(response, 413)


# Each a request the API answers with a JSON problem and writes nothing for: an address it
# does not know (404 not_found), or a method the address does not take (405).
NOT_FOUND = [
    ("GET", "/api/v1/sessions/999"),
    ("GET", "/api/v1/sessions/99999999999999999999999"),
    ("POST", "/api/v1/sessions/999/rounds"),
    ("POST", "/api/v1/sessions/999/extend"),
    ("GET", "/api/v1/sessions/999/rounds/1"),
    ("PUT", "/api/v1/sessions/999/rounds/1"),
    ("DELETE", "/api/v1/sessions/999/rounds/1"),
    ("GET", "/api/v1/sessions/{sid}/rounds/2"),
    ("PUT", "/api/v1/sessions/{sid}/rounds/2"),
    ("DELETE", "/api/v1/sessions/{sid}/rounds/2"),
    ("GET", "/api/v1/sessions/{sid}/rounds/0"),
    ("GET", "/api/v1/sessions/{sid}/rounds/99999999999999999999"),
    ("GET", "/api/v1/nowhere"),
    ("GET", "/api/v1/sessions/Sunday"),
    ("GET", "/api/v1/sessions/-1"),
    ("POST", "/api/v1/rules/nothing"),
]
WRONG_METHOD = [
    ("DELETE", "/api/v1/sessions"),
    ("PUT", "/api/v1/sessions/{sid}"),
    ("GET", "/api/v1/sessions/{sid}/extend"),
    ("GET", "/api/v1/sessions/{sid}/rounds"),
    ("PATCH", "/api/v1/sessions/{sid}/rounds/1"),
    ("POST", "/api/v1/sessions/{sid}/rounds/1"),
    ("GET", "/api/v1/rules/set"),
    ("POST", "/api/v1/openapi.json"),
]


@pytest.mark.parametrize(
    ("method", "url", "status", "code"),
    [(method, url, 404, "not_found") for method, url in NOT_FOUND]
    + [(method, url, 405, "method_not_allowed") for method, url in WRONG_METHOD],
)
def test_unknown_or_wrong_method_is_json(
    client: FlaskClient, method: str, url: str, status: int, code: str
) -> None:
    session_id = new_session(client, PLAYERS)
    add_round(client, session_id, WENT_OUT)
    with nothing_written(client, session_id):
        response = client.open(url.format(sid=session_id), method=method, json=PAPER)
        assert codes(problems(response, status)) == [code]


def test_unknown_session_in_a_tool_is_404(client: FlaskClient) -> None:
    for session in (999, 10**30):
        response = client.post(f"{API}/rules/rack", json={"tiles": ["r7"], "session": session})
        assert codes(problems(response, 404)) == ["not_found"]


def test_405_names_the_allowed_methods(client: FlaskClient) -> None:
    response = client.delete(f"{API}/sessions")
    assert response.status_code == 405
    assert set(response.headers.get("Allow", "").split(", ")) >= {"GET", "POST"}


# --- Idempotency keys --------------------------------------------------------------------------


def test_idempotency_key_returns_the_first_round(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    first = client.post(rounds_url(session_id), json={**WENT_OUT, "key": "tap-1"})
    assert first.status_code == 201
    with nothing_written(client, session_id):
        again = client.post(rounds_url(session_id), json={**WENT_OUT, "key": "tap-1"})
        assert again.status_code == 200
        assert again.get_json() == first.get_json()
        assert again.headers["Location"] == first.headers["Location"]
        # A different body under the same key is another round: refused, not taken for it.
        other = client.post(rounds_url(session_id), json={**PAPER, "key": "tap-1"})
        assert other.status_code == 409
        assert other.get_json()["errors"][0]["code"] == "key_reused"
    assert [r["number"] for r in session_doc(client, session_id)["rounds"]] == [1]
    second = client.post(rounds_url(session_id), json={**PAPER, "key": "tap-2"})
    assert second.status_code == 201
    assert second.get_json()["number"] == 2


def test_idempotency_keys_belong_to_their_session(client: FlaskClient) -> None:
    first = new_session(client, PLAYERS)
    second = new_session(client, PLAYERS)
    assert client.post(rounds_url(first), json={**WENT_OUT, "key": "k"}).status_code == 201
    assert client.post(rounds_url(second), json={**WENT_OUT, "key": "k"}).status_code == 201


def test_replay_after_the_session_is_complete(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rounds=1)
    first = client.post(rounds_url(session_id), json={**WENT_OUT, "key": "last"})
    again = client.post(rounds_url(session_id), json={**WENT_OUT, "key": "last"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json() == first.get_json()


# --- Replacing and deleting rounds -------------------------------------------------------------


def test_put_replaces_a_round_and_derives_scores_again(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    add_round(client, session_id, WENT_OUT)
    add_round(client, session_id, PAPER)
    response = client.put(rounds_url(session_id, 1), json=POOL_EMPTY)
    assert response.status_code == 200
    doc = response.get_json()
    assert doc["number"] == 1
    assert doc["ending"] == "pool_empty" and doc["winner"] == "Di"
    assert doc["scores"] == {"Ann": -2, "Bo": -14, "Cy": -47, "Di": 63}
    assert doc["version"] == 4  # the session's fourth version: created, two rounds, this edit
    assert client.get(rounds_url(session_id, 1)).get_json() == doc
    session = session_doc(client, session_id)
    assert [r["number"] for r in session["rounds"]] == [1, 2]
    assert session["totals"] == {"Ann": 22, "Bo": -19, "Cy": -63, "Di": 60}


def test_put_with_tiles_then_value(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    assert add_round(client, session_id, WENT_OUT_TILES)["tiles"] == {"Bo": ["k13", "r7", "j"]}
    replaced = client.put(rounds_url(session_id, 1), json=WENT_OUT).get_json()
    assert "tiles" not in replaced and "tile_counts" not in replaced
    assert replaced["scores"]["Ann"] == 85


def test_put_refusals_leave_the_round_alone(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    add_round(client, session_id, WENT_OUT)
    url = rounds_url(session_id, 1)
    refused(client, session_id, sheet(PLAYERS, [6, -11, 22, -5]), 422, "zero_sum", url, "PUT")
    typo = {**WENT_OUT, "racks": {"Bo": 300, "Cy": 55, "Di": 8}}
    refused(client, session_id, typo, 409, "confirm_required", url, "PUT")
    refused(client, session_id, {**WENT_OUT, "racks": [1]}, 400, "bad_request", url, "PUT")
    confirmed = client.put(url, json={**typo, "confirm": True})
    assert confirmed.status_code == 200
    assert confirmed.get_json()["flags"] == ["Bo"]


def test_put_works_on_a_complete_session(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rounds=1)
    add_round(client, session_id, WENT_OUT)
    assert client.put(rounds_url(session_id, 1), json=PAPER).status_code == 200


def test_delete_renumbers_later_rounds(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    add_round(client, session_id, WENT_OUT)
    third = {**PAPER, "scores": {"Ann": -10, "Bo": 20, "Cy": -5, "Di": -5}}
    add_round(client, session_id, PAPER)
    add_round(client, session_id, third)
    response = client.delete(rounds_url(session_id, 2))
    assert response.status_code == 204
    assert response.get_data() == b""
    doc = session_doc(client, session_id)
    assert [r["number"] for r in doc["rounds"]] == [1, 2]
    assert doc["rounds"][1]["scores"] == third["scores"]
    assert client.get(rounds_url(session_id, 2)).get_json()["scores"] == third["scores"]
    problems(client.get(rounds_url(session_id, 3)), 404)
    assert doc["totals"] == {"Ann": 75, "Bo": -2, "Cy": -60, "Di": -13}
    assert doc["complete"] is False
    assert add_round(client, session_id, PAPER)["number"] == 3


def test_delete_then_key_can_be_used_again(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    add_round(client, session_id, {**WENT_OUT, "key": "k"})
    assert client.delete(rounds_url(session_id, 1)).status_code == 204
    assert client.post(rounds_url(session_id), json={**PAPER, "key": "k"}).status_code == 201


# --- Settings that change the table --------------------------------------------------------------


def test_drop_worst_round(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rules={"drop_worst_round": True})
    add_round(client, session_id, sheet(PLAYERS, SHEET_ROUND_1))
    doc = session_doc(client, session_id)  # one round: nothing is dropped yet
    assert doc["dropped"] == dict.fromkeys(PLAYERS)
    assert doc["totals"] == dict(zip(PLAYERS, SHEET_ROUND_1, strict=True))
    add_round(client, session_id, sheet(PLAYERS, SHEET_ROUND_2_CORRECTED))
    add_round(client, session_id, sheet(PLAYERS, SHEET_ROUND_3))
    doc = session_doc(client, session_id)
    assert doc["dropped"] == {"Ann": 3, "Bo": 3, "Cy": 1, "Di": 2}
    assert doc["totals"] == {"Ann": 18, "Bo": -16, "Cy": 20, "Di": 44}
    assert doc["winners"] == ["Di"]


def test_drop_worst_round_off_drops_nothing(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS)
    for scores in (SHEET_ROUND_1, SHEET_ROUND_2_CORRECTED, SHEET_ROUND_3):
        add_round(client, session_id, sheet(PLAYERS, scores))
    assert session_doc(client, session_id)["dropped"] == dict.fromkeys(PLAYERS)


def test_winner_bonus_replaces_the_losers_sum(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rules={"winner_bonus": 50})
    assert add_round(client, session_id, WENT_OUT)["scores"] == {
        "Ann": 50,
        "Bo": -22,
        "Cy": -55,
        "Di": -8,
    }


def test_joker_penalty_counts_in_tile_racks(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rules={"joker_penalty": 50})
    assert add_round(client, session_id, WENT_OUT_TILES)["racks"]["Bo"] == 70


# --- The Polish score sheet (seeds/001), entered as paper scores ---------------------------------


def test_polish_score_sheet(client: FlaskClient) -> None:
    session_id = new_session(client, GRACZE, name="Przykład zapisu")
    add_round(client, session_id, sheet(GRACZE, SHEET_ROUND_1))
    found = refused(client, session_id, sheet(GRACZE, SHEET_ROUND_2_AS_PRINTED), 422, "zero_sum")
    assert "+12" in found[0]["message"]
    assert (
        add_round(client, session_id, sheet(GRACZE, SHEET_ROUND_2_CORRECTED))["winner"] == "Gracz C"
    )
    assert add_round(client, session_id, sheet(GRACZE, SHEET_ROUND_3))["winner"] == "Gracz D"
    doc = session_doc(client, session_id)
    assert doc["name"] == "Przykład zapisu"
    assert [r["scores"] for r in doc["rounds"]] == [
        dict(zip(GRACZE, scores, strict=True))
        for scores in (SHEET_ROUND_1, SHEET_ROUND_2_CORRECTED, SHEET_ROUND_3)
    ]
    assert doc["totals"] == dict(zip(GRACZE, SHEET_TOTALS, strict=True))
    assert doc["complete"] is True
    assert doc["winners"] == ["Gracz D"]


# --- The rules tools ----------------------------------------------------------------------------


def test_rules_tools_answer_as_design_documents(client: FlaskClient) -> None:
    response = client.post(f"{API}/rules/set", json={"tiles": ["j", "r12", "r13"]})
    assert response.status_code == 200
    assert response.get_json() == {
        "valid": True,
        "readings": [{"kind": "run", "as": ["r11", "r12", "r13"], "points": 36}],
        "points": 36,
        "reason": None,
    }
    response = client.post(
        f"{API}/rules/meld", json={"sets": [["r10", "b10", "j"], ["k1", "k2", "k3"]]}
    )
    assert response.status_code == 200
    meld = response.get_json()
    # docs/DESIGN.md 3 documents four keys; the API adds each set's verdict under `sets`.
    assert set(meld) - {"sets"} == {"valid", "points", "minimum", "reason"}
    assert {k: v for k, v in meld.items() if k != "sets"} == {
        "valid": True,
        "points": 36,
        "minimum": 30,
        "reason": None,
    }
    assert [s["points"] for s in meld["sets"]] == [30, 6]
    response = client.post(f"{API}/rules/rack", json={"tiles": ["r7", "k13", "j"]})
    assert response.status_code == 200
    assert response.get_json() == {"value": 50, "count": 3}


def test_set_readings_list_every_reading(client: FlaskClient) -> None:
    doc = client.post(f"{API}/rules/set", json={"tiles": ["j", "j", "b5"]}).get_json()
    assert doc["valid"] is True
    assert sorted((r["kind"], r["points"]) for r in doc["readings"]) == [
        ("group", 15),
        ("run", 12),
        ("run", 15),
        ("run", 18),
    ]
    assert doc["points"] == 18


def test_invalid_set_is_200_with_a_reason(client: FlaskClient) -> None:
    doc = client.post(f"{API}/rules/set", json={"tiles": ["r5", "b5", "k5", "r5"]}).get_json()
    assert doc["valid"] is False and doc["readings"] == [] and doc["points"] == 0
    assert "red 5" in doc["reason"]


def test_meld_below_the_minimum(client: FlaskClient) -> None:
    doc = client.post(f"{API}/rules/meld", json={"sets": [["r1", "r2", "r3"]]}).get_json()
    assert (doc["valid"], doc["points"], doc["minimum"]) == (False, 6, 30)
    lower = {"sets": [["r1", "r2", "r3"]], "rules": {"min_initial_meld": 5}}
    assert client.post(f"{API}/rules/meld", json=lower).get_json()["valid"] is True


def test_tools_use_a_sessions_rules(client: FlaskClient) -> None:
    session_id = new_session(client, PLAYERS, rules={"joker_penalty": 50})
    body = {"tiles": ["r7", "k13", "j"], "session": session_id}
    assert client.post(f"{API}/rules/rack", json=body).get_json() == {"value": 70, "count": 3}
    body["rules"] = {"joker_penalty": 25}
    assert client.post(f"{API}/rules/rack", json=body).get_json() == {"value": 45, "count": 3}


@pytest.mark.parametrize("tool", ["set", "rack"])
def test_tools_bad_tile_and_tile_supply(client: FlaskClient, tool: str) -> None:
    url = f"{API}/rules/{tool}"
    found = problems(client.post(url, json={"tiles": ["r7", "x9", "k3"]}), 422)
    assert codes(found) == ["bad_tile"] and "x9" in found[0]["message"]
    found = problems(client.post(url, json={"tiles": ["r7", "r7", "r7"]}), 422)
    assert codes(found) == ["tile_supply"]
    assert found[0]["message"] == "red 7 entered 3 times; a single set has 2."
    two_sets = {"tiles": ["r7", "r7", "r7"], "rules": {"tile_sets": 2}}
    assert client.post(url, json=two_sets).status_code == 200


def test_meld_tile_supply(client: FlaskClient) -> None:
    body = {"sets": [["j", "j", "r1"], ["j", "b2", "b3"]]}
    assert codes(problems(client.post(f"{API}/rules/meld", json=body), 422)) == ["tile_supply"]


@pytest.mark.parametrize(
    ("tool", "body"),
    [
        ("set", {"tiles": 7}),
        ("set", {}),
        ("set", {"tiles": ["r7", 7]}),
        ("rack", {"tiles": None}),
        ("meld", {"sets": "r1 r2 r3"}),
        ("meld", {"sets": [7]}),
        ("meld", {"sets": [["r1", "r2", 3]]}),
        ("rack", {"tiles": ["r7"], "session": "1"}),
        ("rack", {"tiles": ["r7"], "rules": [1]}),
        ("rack", {"tiles": ["r7"], "rules": {"colour_blind": True}}),
        ("rack", {"tiles": ["r7"], "rules": {"joker_penalty": 1.5}}),
        ("set", ["r7"]),
    ],
)
def test_tools_malformed_is_400(client: FlaskClient, tool: str, body: Any) -> None:
    problems(client.post(f"{API}/rules/{tool}", json=body), 400)


def test_tools_setting_out_of_range_is_422(client: FlaskClient) -> None:
    body = {"tiles": ["r7"], "rules": {"joker_penalty": 500}}
    found = problems(client.post(f"{API}/rules/rack", json=body), 422)
    assert codes(found) == ["bad_setting"] and found[0]["field"] == "joker_penalty"


# --- CSRF: the API is exempt --------------------------------------------------------------------


def test_api_is_exempt_from_csrf(make_app: Callable[..., Flask]) -> None:
    client = make_app(WTF_CSRF_ENABLED=True).test_client()
    session_id = new_session(client, PLAYERS)
    assert client.post(rounds_url(session_id), json=WENT_OUT).status_code == 201
    assert client.put(rounds_url(session_id, 1), json=PAPER).status_code == 200
    assert client.delete(rounds_url(session_id, 1)).status_code == 204
