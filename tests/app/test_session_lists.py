"""Lists of sessions: the summary kept on each session's row (rounds played, leaders, winners,
finish) stays what the session's whole table gives, through every kind of write and a backup
import; the home page a page at a time; the API's list, whole or a page of it."""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from babel.dates import format_date
from factories import two_evenings, went_out, wipe
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from scorekeeper.services import backup, lists, rounds, sessions, views

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app


def assert_summaries_true() -> None:
    """Every stored summary equals the one worked out from the session's rounds, and the
    home page's first page lists the same sessions, in progress before finished."""
    stored = lists.list_sessions()
    derived = [lists.summary_of(views.get_session(s.id)) for s in stored]
    assert stored == derived
    page = lists.home_page(1)
    assert sorted(s.id for s in page.sessions) == sorted(s.id for s in stored)
    ordered = sorted(stored, key=lambda s: (s.complete, -s.id))
    assert list(page.sessions) == ordered


def test_every_write_keeps_the_summary_true(app: Flask) -> None:
    with app.app_context():
        evening = sessions.create_session(["Ann", "Bo", "Cy"], "Evening", 2)
        dropping = sessions.create_session(
            ["Di", "Eve", "Finn", "Gus"], "Drop", 3, {"drop_worst_round": True}
        )
        assert_summaries_true()
        assert lists.list_sessions()[0].leaders == ()

        rounds.add_round(evening.id, went_out("Ann", Bo=22, Cy=8))
        assert_summaries_true()
        rounds.add_round(evening.id, went_out("Bo", Ann=40, Cy=5))  # Bo leads; complete
        assert_summaries_true()
        done = views.get_session(evening.id)
        assert done.complete and done.finished_at is not None
        assert lists.list_sessions()[1].winners == ("Bo",)

        rounds.replace_round(evening.id, 2, went_out("Cy", Ann=1, Bo=2))  # Ann leads again
        assert_summaries_true()
        sessions.rename_player(evening.id, 0, "Annie")  # the leader's name changes
        assert_summaries_true()
        assert lists.list_sessions()[1].winners == ("Annie",)

        sessions.extend_session(evening.id, 1)  # no longer complete
        assert_summaries_true()
        assert views.get_session(evening.id).finished_at is None
        body = rounds.delete_round(evening.id, 1).body
        assert_summaries_true()
        version = views.get_session(evening.id).version
        rounds.undo_change(evening.id, "delete", 1, body, version)  # the Undo of the delete
        assert_summaries_true()

        paper = {"Di": 30, "Eve": -30, "Finn": 0, "Gus": 0}
        rounds.add_round(dropping.id, {"ending": "scores", "scores": paper})
        rounds.add_round(
            dropping.id,
            {"ending": "pool_empty", "racks": {"Di": 9, "Eve": 4, "Finn": 12, "Gus": 20}},
        )
        rounds.add_round(dropping.id, went_out("Gus", Di=60, Eve=2, Finn=3))
        assert_summaries_true()
        after_add = views.get_session(dropping.id)
        assert after_add.settings.drop_worst_round and after_add.complete

        # Undo, as a phone does: each at the version its change left the session at.
        rounds.undo_change(dropping.id, "add", 3, None, after_add.version)
        assert_summaries_true()
        edited_from = rounds.round_body(rounds.get_round(dropping.id, 1))
        paper = {"Di": -5, "Eve": 5, "Finn": 0, "Gus": 0}
        rounds.replace_round(dropping.id, 1, {"ending": "scores", "scores": paper})
        version = views.get_session(dropping.id).version
        rounds.undo_change(dropping.id, "edit", 1, edited_from, version)
        assert_summaries_true()
        deleted = rounds.delete_round(dropping.id, 2).body
        rounds.undo_change(
            dropping.id, "delete", 2, deleted, views.get_session(dropping.id).version
        )
        assert_summaries_true()

        sessions.save_notes(evening.id, "Cake by Annie")
        sessions.set_seconds_per_turn(evening.id, 60)
        assert_summaries_true()


def _without_summaries(document: dict[str, Any]) -> dict[str, Any]:
    """The export as a version from before the summaries would have written it."""
    for row in document["tables"]["sessions"]:
        del row["rounds_played"], row["standing"]
    return document


def test_a_backup_from_before_the_summaries_imports_with_them(app: Flask) -> None:
    with app.app_context():
        two_evenings()
        expected = lists.list_sessions()
        document = _without_summaries(backup.export_everything())
        wipe()
        backup.import_everything(document)
        assert lists.list_sessions() == expected
        assert expected[1].winners == ("Ann",) and expected[1].leading_total == 29
        assert_summaries_true()


def test_flask_import_json_fills_the_summaries(
    app: Flask, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    with app.app_context():
        view = sessions.create_session(["Ann", "Bo", "Cy"], "Sunday", 1)
        rounds.add_round(view.id, went_out("Bo", Ann=5, Cy=6))
        expected = lists.list_sessions()
        export = tmp_path / "old.json"
        export.write_text(json.dumps(_without_summaries(backup.export_everything())))
        wipe()
    result = runner.invoke(args=["import-json", str(export)])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert lists.list_sessions() == expected
        assert expected[0].winners == ("Bo",) and expected[0].complete


def test_migration_0005_works_out_the_summaries_of_sessions_played(migrated_app: Flask) -> None:
    """Sessions played before migration 0005 get their summaries from their rounds (and its
    downgrade keeps every round: on SQLite a table copy would cascade-delete them)."""
    app = migrated_app
    runner = app.test_cli_runner()
    with app.app_context():
        first = sessions.create_session(["Ann", "Bo", "Cy"], "First", 2)
        rounds.add_round(first.id, went_out("Bo", Ann=5, Cy=6))
        rounds.add_round(first.id, went_out("Cy", Ann=1, Bo=2))
        dropping = sessions.create_session(["Di", "Eve"], "Drop", 3, {"drop_worst_round": True})
        rounds.add_round(dropping.id, went_out("Di", Eve=40))
        rounds.add_round(dropping.id, went_out("Eve", Di=10))
        sessions.create_session(["Finn", "Gus"], "Not started", 1)
        expected = lists.list_sessions()
        db.session.remove()
    down = runner.invoke(args=["db", "downgrade", "0004"])
    assert down.exit_code == 0, down.output
    up = runner.invoke(args=["db", "upgrade"])
    assert up.exit_code == 0, up.output
    with app.app_context():
        assert lists.list_sessions() == expected
        standing = [(s.leaders, s.leading_total, s.winners) for s in expected]
        # Di: +40 then -10, whose worst round is dropped: 40 (30 without the drop).
        assert standing == [((), None, ()), (("Di",), 40, ()), (("Bo",), 9, ("Bo",))]
        assert views.get_session(first.id).rounds_played == 2
        assert_summaries_true()
        db.session.remove()


def _history(app: Flask, count: int, finished: set[int]) -> None:
    """`count` sessions named S1, S2, ...; those numbered in `finished` played to the end."""
    with app.app_context():
        for number in range(1, count + 1):
            view = sessions.create_session(["Ann", "Bo"], f"S{number}", 1)
            if number in finished:
                rounds.add_round(view.id, went_out("Ann", Bo=number))


def _names(page: str, list_id: str) -> list[str]:
    listed = re.search(rf'<ul class="sessions" id="{list_id}">(.*?)</ul>', page, re.S)
    return re.findall(r'<span class="card-title">([^<]*)</span>', listed[1]) if listed else []


def test_the_home_page_shows_twenty_sessions_a_page(app: Flask, client: FlaskClient) -> None:
    _history(app, 45, finished={n for n in range(1, 46) if n % 10})  # S10, S20... in play
    finished = [f"S{n}" for n in range(45, 0, -1) if n % 10]  # 41 of them, newest first
    first = html.unescape(client.get("/").get_data(as_text=True))
    assert _names(first, "in-progress") == ["S40", "S30", "S20", "S10"]
    assert _names(first, "finished") == finished[:16]
    assert 'id="newer-sessions"' not in first
    assert 'href="/?page=2" rel="next"' in first and "Older sessions" in first

    second = html.unescape(client.get("/?page=2").get_data(as_text=True))
    assert _names(second, "in-progress") == []
    assert _names(second, "finished") == finished[16:36]
    assert 'href="/" rel="prev"' in second and "Newer sessions" in second
    assert 'href="/?page=3" rel="next"' in second

    third = html.unescape(client.get("/?page=3").get_data(as_text=True))
    assert _names(third, "finished") == finished[36:] == ["S5", "S4", "S3", "S2", "S1"]
    assert 'href="/?page=2" rel="prev"' in third and 'id="older-sessions"' not in third
    assert 'href="/players"' in third


@pytest.mark.parametrize("asked", ["0", "-3", "two", "1.5", ""])
def test_a_page_number_that_is_no_page_shows_the_first(
    app: Flask, client: FlaskClient, asked: str
) -> None:
    _history(app, 2, finished={1})
    page = client.get(f"/?page={asked}")
    assert page.status_code == 200
    assert _names(page.get_data(as_text=True), "in-progress") == ["S2"]


def test_a_page_beyond_the_last_links_back(app: Flask, client: FlaskClient) -> None:
    _history(app, 2, finished=set())
    page = client.get("/?page=9").get_data(as_text=True)
    assert 'class="session-card"' not in page
    assert 'href="/?page=8" rel="prev"' in page
    assert "Keeps the score of Rummikub" not in page  # the welcome is for an empty history
    assert client.get("/?page=99999999999999").status_code == 200


def test_the_api_lists_every_session_newest_first_or_a_page(
    app: Flask, client: FlaskClient
) -> None:
    _history(app, 5, finished={2})
    everything = client.get("/api/v1/sessions").get_json()["sessions"]
    assert [s["name"] for s in everything] == ["S5", "S4", "S3", "S2", "S1"]
    assert everything[3] == {
        "id": 2,
        "name": "S2",
        "date": everything[3]["date"],
        "players": ["Ann", "Bo"],
        "rounds_planned": 1,
        "rounds_played": 1,
        "complete": True,
        "leaders": ["Ann"],
    }
    page = client.get("/api/v1/sessions?limit=2&offset=1").get_json()["sessions"]
    assert [s["name"] for s in page] == ["S4", "S3"]
    assert client.get("/api/v1/sessions?offset=4").get_json()["sessions"][0]["name"] == "S1"
    assert client.get("/api/v1/sessions?offset=5").get_json() == {"sessions": []}


@pytest.mark.parametrize(
    ("query", "field"),
    [("limit=0", "limit"), ("limit=x", "limit"), ("offset=-1", "offset"), ("limit=", "limit")],
)
def test_the_api_refuses_a_page_that_is_not_whole_numbers(
    client: FlaskClient, query: str, field: str
) -> None:
    answer = client.get(f"/api/v1/sessions?{query}")
    assert answer.status_code == 400
    assert answer.get_json()["errors"][0]["code"] == "bad_request"
    assert answer.get_json()["errors"][0]["field"] == field


# --- sessions named after their day, in the reader's language (issue #24, item 9) -----------


def _card(page: str, session_id: int) -> str:
    found = re.search(rf'href="/sessions/{session_id}">(.*?)</a>', page, re.S)
    assert found, session_id
    return html.unescape(found[1])


def _local(hour: int, minute: int) -> str:
    """The server's clock at that UTC time of 1 December 2026, as the home page shows it."""
    return datetime(2026, 12, 1, hour, minute, tzinfo=UTC).astimezone().strftime("%H:%M")


def test_a_session_made_without_a_name_is_read_in_each_readers_language(
    app: Flask, client: FlaskClient
) -> None:
    made = client.post(
        "/api/v1/sessions", json={"players": ["Ann", "Bo"]}, headers={"Accept-Language": "da"}
    ).get_json()
    today = date.today()
    danish, english = (format_date(today, "EEEE d MMMM", locale=x) for x in ("da", "en"))
    assert made["name"] == danish  # the API answers the name the asking phone reads
    with app.app_context():
        assert views.get_session(made["id"]).name == ""  # the words are not stored
    english_home = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert english in _card(english_home, made["id"])
    assert danish not in english_home
    polish = format_date(today, "EEEE d MMMM", locale="pl")
    polish_home = client.get("/", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert polish in _card(polish_home, made["id"])
    page = client.get(f"/sessions/{made['id']}", headers={"Accept-Language": "en"})
    assert f"<h1>{english}</h1>" in page.get_data(as_text=True)
    listed = client.get("/api/v1/sessions", headers={"Accept-Language": "fr"}).get_json()
    assert listed["sessions"][0]["name"] == format_date(today, "EEEE d MMMM", locale="fr")
    csv = client.get(f"/sessions/{made['id']}/export.csv", headers={"Accept-Language": "en"})
    slug = english.lower().replace(" ", "-")
    assert (
        f"filename=scorekeeper-{today.isoformat()}-{slug}.csv" in csv.headers["Content-Disposition"]
    )


def test_two_sessions_of_one_day_are_told_apart_on_the_home_page(
    app: Flask, client: FlaskClient
) -> None:
    day = date(2026, 12, 1)
    with app.app_context():
        ids = [sessions.create_session(["Ann", "Bo"], None, 3, played_on=day).id for _ in "abc"]
        named = sessions.create_session(["Cy", "Di"], "Christmas", 3, played_on=day).id
        started = [datetime(2026, 12, 1, 18, 5), datetime(2026, 12, 1, 19, 30, 10)]
        started.append(datetime(2026, 12, 1, 19, 30, 50))
        for session_id, moment in zip(ids, started, strict=True):
            db.session.execute(
                sa.update(GameSession).where(GameSession.id == session_id).values(created_at=moment)
            )
        db.session.commit()
    home = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    cards = [_card(home, i) for i in ids]
    assert f"Started {_local(18, 5)}</span>" in cards[0]
    assert f"Started {_local(19, 30)} (1)</span>" in cards[1]  # one minute: counted
    assert f"Started {_local(19, 30)} (2)</span>" in cards[2]
    assert "Tuesday 1 December" in cards[0]
    assert "Started" not in _card(home, named)  # one of its name that day: nothing to add
