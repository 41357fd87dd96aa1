"""Security headers on pages, API answers and downloads; hostile names shown as text."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorekeeper.web.security import HEADERS

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app


@pytest.mark.parametrize("path", ["/", "/sessions/new", "/healthz", "/api/v1/sessions", "/nope"])
def test_every_response_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, name
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp


def test_session_cookie_is_http_only_and_same_site(client: FlaskClient) -> None:
    client.post(
        "/api/v1/sessions", json={"players": ["Ann", "Bo"]}
    )  # a page that sets the cookie: deleting a round stores the undo in it
    client.post(
        "/api/v1/sessions/1/rounds", json={"ending": "scores", "scores": {"Ann": 5, "Bo": -5}}
    )
    response = client.post("/sessions/1/rounds/1/delete")
    cookie = response.headers.get("Set-Cookie", "")
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie


def test_script_names_are_text_on_every_page_and_in_the_api(client: FlaskClient) -> None:
    hostile = "<script>alert(1)</script>"
    created = client.post("/api/v1/sessions", json={"players": [hostile, "Bo"]})
    assert created.status_code == 201
    assert created.json["players"][0] == hostile
    client.post(
        "/api/v1/sessions/1/rounds",
        json={"ending": "went_out", "winner": hostile, "racks": {"Bo": 12}},
    )
    for path in ["/", "/sessions/1", "/sessions/1/rounds/new", "/sessions/1/rounds/1/edit"]:
        page = client.get(path).get_data(as_text=True)
        assert hostile not in page, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page, path
    csv = client.get("/sessions/1/export.csv")
    assert csv.headers["Content-Type"].startswith("text/csv")
    assert csv.headers["Content-Disposition"].startswith("attachment")
