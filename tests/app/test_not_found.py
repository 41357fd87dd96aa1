"""One way to a 404: a service's NotFound, answered by one handler (web/errors.py)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules import RulesError
from scorekeeper.services import errors

PAGE_404 = "There is nothing at this address."

MISSING = [
    ("GET", "/sessions/999"),
    ("GET", "/sessions/999/details"),
    ("GET", "/sessions/999/table"),
    ("POST", "/sessions/999/notes"),
    ("GET", "/sessions/999/summary"),
    ("GET", "/sessions/999/chart.svg"),
    ("GET", "/sessions/999/qr.svg"),
    ("POST", "/sessions/999/extend"),
    ("POST", "/sessions/999/players/0/rename"),
    ("GET", "/sessions/999/export.csv"),
    ("GET", "/sessions/999/rounds/new"),
    ("POST", "/sessions/999/rounds/new"),
    ("GET", "/sessions/999/rounds/1/edit"),
    ("POST", "/sessions/999/rounds/1/delete"),
    ("POST", "/sessions/999/rounds/restore"),
    ("GET", "/sessions/999/clock"),
    ("POST", "/sessions/999/clock/seconds"),
    ("GET", "/players/999"),
    ("GET", "/tools?session=999"),
]


def test_a_missing_id_is_a_service_error_not_a_rules_error() -> None:
    missing = errors.not_found("session", 999)
    assert isinstance(missing, errors.ServiceError)
    assert not isinstance(missing, RulesError)
    assert [p.as_dict() for p in missing.problems] == [
        {"code": "not_found", "message": "There is no session 999."}
    ]


@pytest.mark.parametrize(("method", "path"), MISSING)
def test_every_page_of_a_missing_session_or_player_is_the_404_page(
    client: FlaskClient, method: str, path: str
) -> None:
    response = client.open(path, method=method, data={"seconds": "60", "notes": "x"})
    assert response.status_code == 404
    assert PAGE_404 in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("method", "path", "message"),
    [
        ("GET", "/api/v1/sessions/999", "There is no session 999."),
        ("GET", "/api/v1/sessions/999/rounds/1", "There is no session 999."),
        ("DELETE", "/api/v1/sessions/999/rounds/1", "There is no session 999."),
    ],
)
def test_the_api_answers_a_missing_session_with_its_problem(
    client: FlaskClient, method: str, path: str, message: str
) -> None:
    response = client.open(path, method=method)
    assert response.status_code == 404
    assert response.get_json() == {"errors": [{"code": "not_found", "message": message}]}
