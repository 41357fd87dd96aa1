"""Pages and documents kept per session version (web/rendered.py): what one worker keeps is
never shown once another worker has changed the session, and nothing of one phone's (its CSRF
token, a flash message, its Undo, its language) reaches another phone."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.services import access, peek
from scorekeeper.web.rendered import CSRF_MARK, EXTENSION

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
WENT_OUT = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55, "Di": 8}}
BO_OUT = {"ending": "went_out", "winner": "Bo", "racks": {"Ann": 10, "Cy": 5, "Di": 7}}


def create(client: FlaskClient) -> int:
    response = client.post("/api/v1/sessions", json={"players": PLAYERS, "rounds": 4})
    assert response.status_code == 201
    return int(response.get_json()["id"])


def add(client: FlaskClient, session_id: int, body: dict[str, Any]) -> None:
    assert client.post(f"/api/v1/sessions/{session_id}/rounds", json=body).status_code == 201


def tokens(page: str) -> set[str]:
    return set(re.findall(r'name="csrf_token" value="([^"]+)"', page))


def kept_items(app: Flask) -> list[object]:
    return list(app.extensions[EXTENSION]._items.values())


@pytest.fixture
def worker_b(make_app: Callable[..., Flask]) -> Flask:
    """A second worker process on the same database: its own store of kept pages."""
    return make_app(WTF_CSRF_ENABLED=True)


def test_a_change_made_through_another_worker_shows_at_once(
    app: Flask, client: FlaskClient, worker_b: Flask
) -> None:
    sid = create(client)
    add(client, sid, WENT_OUT)
    other = worker_b.test_client()
    first = other.get(f"/sessions/{sid}").get_data(as_text=True)
    document = other.get(f"/api/v1/sessions/{sid}").get_json()
    assert ">+85<" in first and len(document["rounds"]) == 1
    kept = other.get(f"/sessions/{sid}").get_data(as_text=True)
    # The same page again (kept), but for its CSRF token: signed afresh with the time.
    assert re.sub(r'value="[^"]+\.[^"]+"', "", kept) == re.sub(r'value="[^"]+\.[^"]+"', "", first)
    assert len(kept_items(worker_b)) == 2  # the page and the document
    add(client, sid, BO_OUT)  # through the first worker
    again = other.get(f"/sessions/{sid}").get_data(as_text=True)
    assert "Edit round 2" in again
    assert len(other.get(f"/api/v1/sessions/{sid}").get_json()["rounds"]) == 2
    table = other.get(f"/sessions/{sid}/table").get_data(as_text=True)
    assert "Edit round 2" in table
    # A rename and the notes move the version on too.
    assert client.put(f"/api/v1/sessions/{sid}/rounds/2", json=WENT_OUT).status_code == 200
    assert other.get(f"/api/v1/sessions/{sid}").get_json()["rounds"][1]["winner"] == "Ann"


def test_each_phone_gets_its_own_csrf_token_in_a_kept_page(
    worker_b: Flask,
) -> None:
    phone_1, phone_2 = worker_b.test_client(), worker_b.test_client()
    response = phone_1.post("/api/v1/sessions", json={"players": PLAYERS})
    sid = response.get_json()["id"]
    page_1 = phone_1.get(f"/sessions/{sid}").get_data(as_text=True)
    page_2 = phone_2.get(f"/sessions/{sid}").get_data(as_text=True)
    (token_1,), (token_2,) = tokens(page_1), tokens(page_2)
    assert token_1 != token_2
    assert page_1.replace(token_1, "") == page_2.replace(token_2, "")
    kept = [item for item in kept_items(worker_b) if isinstance(item, str)]
    assert kept and all(CSRF_MARK in item and token_2 not in item for item in kept)
    # The token in the kept page is the phone's own: its form goes through.
    renamed = phone_2.post(
        f"/sessions/{sid}/rename", data={"csrf_token": token_2, "position": "1", "name": "Bob"}
    )
    assert renamed.status_code == 302
    refused = phone_2.post(
        f"/sessions/{sid}/rename", data={"csrf_token": token_1, "position": "1", "name": "Bo"}
    )
    assert refused.status_code == 400


def test_a_flash_message_and_an_undo_are_for_one_phone_only(
    client: FlaskClient, app: Flask
) -> None:
    sid = create(client)
    other_phone = app.test_client()
    other_phone.get(f"/sessions/{sid}")  # kept before the change
    form = {"ending": "went_out", "winner": "0", "rack_1": "22", "rack_2": "55", "rack_3": "8"}
    assert client.post(f"/sessions/{sid}/rounds/new", data=form).status_code == 302
    mine = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert "Round 1 saved." in mine
    assert ">Undo<" in mine
    theirs = other_phone.get(f"/sessions/{sid}").get_data(as_text=True)
    assert ">Undo<" not in theirs and "Edit round 1" in theirs
    assert not any(">Undo<" in str(item) for item in kept_items(app))
    # The same phone, once its flash is shown, still sees its own Undo.
    again = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert ">Undo<" in again and "Round 1 saved." not in again


def test_a_kept_page_is_kept_per_language(client: FlaskClient) -> None:
    sid = create(client)
    english = client.get(f"/sessions/{sid}").get_data(as_text=True)
    french = client.get(f"/sessions/{sid}", headers={"Accept-Language": "fr"})
    assert 'lang="en"' in english
    assert 'lang="fr"' in french.get_data(as_text=True)
    assert 'lang="en"' in client.get(f"/sessions/{sid}").get_data(as_text=True)


def test_a_kept_answer_costs_one_small_read_and_nothing_else(
    app: Flask, client: FlaskClient
) -> None:
    sid = create(client)
    add(client, sid, WENT_OUT)
    for url in (f"/sessions/{sid}", f"/api/v1/sessions/{sid}", f"/sessions/{sid}/table"):
        client.get(url)  # drawn and kept
        before = peek.reads()
        statements: list[str] = []
        with app.app_context():
            engine = db.engine

        def record(*args: Any, seen: list[str] = statements) -> None:
            seen.append(args[2])

        sa.event.listen(engine, "before_cursor_execute", record)
        try:
            response = client.get(url)
        finally:
            sa.event.remove(engine, "before_cursor_execute", record)
        assert response.status_code == 200
        assert statements == [], url  # the ORM is not asked at all
        # The household's passphrase state and the session's stamp, in one statement.
        assert peek.reads() - before == 1, url


def test_an_unknown_session_is_404_everywhere(client: FlaskClient) -> None:
    for url in ("/sessions/999", "/sessions/999/table", "/api/v1/sessions/999"):
        assert client.get(url).status_code == 404


def test_a_passphrase_set_through_another_worker_locks_kept_pages_at_once(
    app: Flask, client: FlaskClient, make_app: Callable[..., Flask]
) -> None:
    sid = create(client)
    add(client, sid, WENT_OUT)
    for url in (f"/sessions/{sid}", f"/api/v1/sessions/{sid}", f"/sessions/{sid}/table"):
        assert client.get(url).status_code == 200  # drawn and kept by this worker
    other = make_app()
    with other.test_request_context():
        access.set_passphrase("tiles on the table")
    page = client.get(f"/sessions/{sid}")
    assert page.status_code == 302 and "/sign-in" in page.headers["Location"]
    assert client.get(f"/sessions/{sid}/table").status_code == 302
    assert client.get(f"/api/v1/sessions/{sid}").status_code == 401
    bearer = {"Authorization": "Bearer tiles on the table"}
    assert client.get(f"/api/v1/sessions/{sid}", headers=bearer).status_code == 200


def test_a_phone_gets_the_same_signed_token_within_a_minute(worker_b: Flask) -> None:
    phone = worker_b.test_client()
    sid = phone.post("/api/v1/sessions", json={"players": PLAYERS}).get_json()["id"]
    first = tokens(phone.get(f"/sessions/{sid}").get_data(as_text=True))
    again = tokens(phone.get(f"/sessions/{sid}").get_data(as_text=True))  # a kept page
    assert first == again and len(first) == 1
    (token,) = again
    saved = phone.post(f"/sessions/{sid}/extend", data={"csrf_token": token})
    assert saved.status_code == 302
