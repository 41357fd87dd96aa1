"""Live on every phone, charts and comfort: the session's ETag and 304, what changed, notes,
the undo of this phone's last change, the summary page and the chart as SVG."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
from factories import (
    add_round,
    new_session,
    paper,
    pool_empty,
    session_doc,
    sql_sent,
    text,
    went_out,
    went_out_form,
)
from flask import Flask
from flask.testing import FlaskClient
from test_seats import contrast

from scorekeeper.rules import RulesError
from scorekeeper.services import rounds, sessions, views
from scorekeeper.services.documents import session_document
from scorekeeper.web.chart import DASHES, running_chart
from scorekeeper.web.seats import colours, marks, palette

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

API = "/api/v1"
FOUR = ["Ann", "Bo", "Cy", "Di"]
SVG = "{http://www.w3.org/2000/svg}"
WENT_OUT = went_out("Ann", Bo=22, Cy=55, Di=8)
BO_OUT = went_out("Bo", Ann=5, Cy=10, Di=3)
PAPER = paper(Ann=24, Bo=-5, Cy=-16, Di=-3)


def scores_table(client: FlaskClient, session_id: int) -> dict[str, Any]:
    """Everything the table shows: rounds with their inputs and scores, totals, winners."""
    doc = session_doc(client, session_id)
    rounds_shown = [{k: v for k, v in r.items() if k != "version"} for r in doc["rounds"]]
    return {
        "rounds": rounds_shown,
        "totals": doc["totals"],
        "dropped": doc["dropped"],
        "rounds_planned": doc["rounds_planned"],
        "complete": doc["complete"],
        "winners": doc["winners"],
    }


@pytest.fixture
def other_phone(app: Flask) -> FlaskClient:
    """A second phone at the table: its own cookies, the same server."""
    return app.test_client()


# --- ETag and 304 -------------------------------------------------------------------------------


def test_session_carries_a_weak_etag_of_its_version(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    response = client.get(f"{API}/sessions/{sid}")
    version = response.get_json()["version"]
    assert response.headers["ETag"] == f'W/"json-en-s{sid}-v{version}-0"'
    assert response.headers["Cache-Control"] == "private, no-cache"
    add_round(client, sid, WENT_OUT)
    assert (
        client.get(f"{API}/sessions/{sid}").headers["ETag"]
        == f'W/"json-en-s{sid}-v{version + 1}-0"'
    )


def test_a_matching_if_none_match_is_a_bodiless_304(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    etag = client.get(f"{API}/sessions/{sid}").headers["ETag"]
    response = client.get(f"{API}/sessions/{sid}", headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert response.get_data() == b""
    assert response.headers["ETag"] == etag
    for header in (f'"json-en-s{sid}-v1-0"', f'W/"x", {etag}', "*"):  # strong form, a list, any
        again = client.get(f"{API}/sessions/{sid}", headers={"If-None-Match": header})
        assert again.status_code == 304, header
    other = client.get(
        f"{API}/sessions/{sid}", headers={"If-None-Match": f'W/"json-en-s{sid + 1}-v1-0"'}
    )
    assert other.status_code == 200


def test_a_304_costs_one_small_query_of_the_stamp(client: FlaskClient, app: Flask) -> None:
    sid = new_session(client, FOUR)
    add_round(client, sid, WENT_OUT)
    for url in (f"{API}/sessions/{sid}", f"/sessions/{sid}/table"):
        etag = client.get(url).headers["ETag"]
        with sql_sent(app) as sent:
            response = client.get(url, headers={"If-None-Match": etag})
        statements = [" ".join(s.split()).lower() for s in sent]
        assert response.status_code == 304, url
        assert response.get_data() == b""
        # One read through the pool, outside any transaction (no BEGIN, no ROLLBACK): the
        # household's passphrase state (the gate) with the session's version and the
        # household's generation, by primary keys.
        assert len(statements) == 1, statements
        assert "household" in statements[0] and "sessions" in statements[0]
        assert "rounds" not in statements[0]


def test_a_round_from_another_phone_gives_200_and_a_new_etag(
    client: FlaskClient, other_phone: FlaskClient
) -> None:
    sid = new_session(client, FOUR)
    first = client.get(f"{API}/sessions/{sid}")
    etag = first.headers["ETag"]
    add_round(other_phone, sid, WENT_OUT)
    response = client.get(f"{API}/sessions/{sid}", headers={"If-None-Match": etag})
    assert response.status_code == 200
    assert response.headers["ETag"] != etag
    doc = response.get_json()
    assert doc["last_change"] == {"code": "round_added", "round": 1, "message": "Round 1 added"}
    assert [r["number"] for r in doc["rounds"]] == [1]
    assert response.headers["ETag"] == f'W/"json-en-s{sid}-v{doc["version"]}-0"'
    again = client.get(f"{API}/sessions/{sid}", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_an_unknown_session_is_404_with_or_without_if_none_match(client: FlaskClient) -> None:
    assert client.get(f"{API}/sessions/999").status_code == 404
    missing = client.get(f"{API}/sessions/999", headers={"If-None-Match": 'W/"json-en-s999-v1-0"'})
    assert missing.status_code == 404
    assert missing.get_json()["errors"][0]["code"] == "not_found"
    huge = client.get(f"{API}/sessions/{10**12}", headers={"If-None-Match": "*"})
    assert huge.status_code == 404


# --- What changed -------------------------------------------------------------------------------


def test_a_new_session_has_no_last_change_yet(client: FlaskClient) -> None:
    doc = session_doc(client, new_session(client, FOUR))
    assert doc["last_change"] is None
    assert doc["notes"] == ""


def test_last_change_says_what_each_kind_of_write_did(client: FlaskClient) -> None:
    """A code and its params (stable), and the message in the asking phone's language."""
    sid = new_session(client, FOUR, rounds=2)
    url = f"{API}/sessions/{sid}"

    def check(message: str, code: str, **params: Any) -> None:
        change = session_doc(client, sid)["last_change"]
        assert change == {"code": code, "round": None, **params, "message": message}

    add_round(client, sid, WENT_OUT)
    check("Round 1 added", "round_added", round=1)
    add_round(client, sid, BO_OUT)
    check("Round 2 added", "round_added", round=2)
    assert client.put(f"{url}/rounds/1", json=PAPER).status_code == 200
    check("Round 1 changed", "round_changed", round=1)
    assert client.delete(f"{url}/rounds/1").status_code == 204
    check("Round 1 deleted", "round_deleted", round=1)
    assert client.post(f"{url}/extend", json={"rounds": 1}).status_code == 200
    check("One more round agreed", "rounds_agreed", count=1)
    assert client.post(f"{url}/extend", json={"rounds": 2}).status_code == 200
    check("2 more rounds agreed", "rounds_agreed", count=2)
    assert client.post(f"/sessions/{sid}/players/1/rename", data={"name": "Bob"}).status_code == 302
    check("Bo renamed to Bob", "player_renamed", before="Bo", after="Bob")
    assert client.post(f"/sessions/{sid}/notes", data={"notes": "Cake by Di"}).status_code == 302
    check("Notes changed", "notes_changed")
    assert client.post(f"/sessions/{sid}/clock/seconds", data={"seconds": "60"}).status_code == 302
    check("Turn clock set to 60 s", "clock_set", seconds=60)
    assert client.post(f"/sessions/{sid}/clock/seconds", data={"seconds": "0"}).status_code == 302
    check("Turn clock turned off", "clock_off")
    polish = client.get(url, headers={"Accept-Language": "pl"}).get_json()["last_change"]
    assert polish["code"] == "clock_off" and polish["message"] != "Turn clock turned off"


def test_the_change_is_told_in_the_asking_phones_language(client: FlaskClient) -> None:
    """The same stored change, worded for each phone: in the API and on the live page."""
    sid = new_session(client, FOUR, rounds=2)
    add_round(client, sid, WENT_OUT)
    assert client.post(f"{API}/sessions/{sid}/extend", json={"rounds": 3}).status_code == 200
    said = {}
    for lang in ("en", "da", "pl"):
        response = client.get(f"{API}/sessions/{sid}", headers={"Accept-Language": lang})
        said[lang] = response.get_json()["last_change"]["message"]
        page = client.get(f"/sessions/{sid}/table", headers={"Accept-Language": lang}).text
        assert f'data-change="{said[lang]}"' in page, lang
    assert said["en"] == "3 more rounds agreed"
    assert said["da"] == "3 runder mere aftalt"
    assert said["pl"] == "Uzgodniono 3 dodatkowe partie"  # the "2-4" form: five would be "partii"
    # Each language has its own tag: a phone that changes language never gets a 304 for the other.
    english = client.get(f"{API}/sessions/{sid}").headers["ETag"]
    danish = client.get(f"{API}/sessions/{sid}", headers={"Accept-Language": "da"})
    assert danish.headers["ETag"] != english
    again = client.get(
        f"{API}/sessions/{sid}", headers={"Accept-Language": "da", "If-None-Match": english}
    )
    assert again.status_code == 200


def test_a_refused_write_leaves_version_and_last_change_be(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    add_round(client, sid, WENT_OUT)
    before = session_doc(client, sid)
    bad = {**WENT_OUT, "racks": {"Bo": -1, "Cy": 1, "Di": 1}}
    assert client.post(f"{API}/sessions/{sid}/rounds", json=bad).status_code == 422
    after = session_doc(client, sid)
    assert (after["version"], after["last_change"]) == (before["version"], before["last_change"])
    assert after["last_change"]["message"] == "Round 1 added"


# --- The live part of the page ------------------------------------------------------------------


def test_session_page_polls_its_own_etag_without_inline_script(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    add_round(client, sid, WENT_OUT)
    etag = client.get(f"/sessions/{sid}/table").headers["ETag"]
    page = text(client.get(f"/sessions/{sid}"))
    live = re.search(r'<div id="live"[^>]*>', page)
    assert live
    assert f'data-etag="{etag}"' in live[0]
    assert f'data-poll="{sid}/table"' in live[0]
    # One URL polled: the live part itself, answered 304 while the page's ETag holds.
    assert client.get(f"/sessions/{sid}/table", headers={"If-None-Match": etag}).status_code == 304
    assert 'id="live-change" role="status"' in page
    scripts = re.findall(r"<script[^>]*>", page)
    assert any(
        re.fullmatch(r'<script src="/static/live\.[0-9a-f]{10}\.js" defer>', s) for s in scripts
    )
    assert all(
        "src=" in tag or tag == '<script type="application/json" id="js-messages">'  # data
        for tag in scripts
    )


def test_the_table_fragment_is_the_live_part_drawn_again(
    client: FlaskClient, other_phone: FlaskClient
) -> None:
    sid = new_session(client, FOUR)
    add_round(client, sid, WENT_OUT)
    add_round(other_phone, sid, BO_OUT)
    response = client.get(f"/sessions/{sid}/table")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "private, no-cache"
    fragment = text(response)
    assert "<html" not in fragment and '<div id="live"' in fragment
    assert 'data-change="Round 2 added"' in fragment
    assert 'data-version="3"' in fragment
    assert "Edit round 2" in fragment and "Round 3 of 3" in fragment
    assert client.get("/sessions/999/table").status_code == 404


# --- Notes --------------------------------------------------------------------------------------


def test_notes_are_saved_shown_escaped_and_in_the_document(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    typed = "  Di brought <b>cake</b> & tea\r\n<script>alert(1)</script>  \r\n\r\n"
    response = client.post(f"/sessions/{sid}/notes", data={"notes": typed})
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/sessions/{sid}#notes-section")
    stored = "Di brought <b>cake</b> & tea\n<script>alert(1)</script>"
    assert session_doc(client, sid)["notes"] == stored
    raw = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in raw
    assert "<b>cake</b>" not in raw
    assert "Di brought &lt;b&gt;cake&lt;/b&gt; &amp; tea\n&lt;script&gt;" in raw
    assert "Notes saved." in raw
    summary = client.get(f"/sessions/{sid}/summary").get_data(as_text=True)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in summary and "<script>alert" not in summary
    client.post(f"/sessions/{sid}/notes", data={"notes": "   "})
    assert session_doc(client, sid)["notes"] == ""
    assert session_doc(client, sid)["last_change"]["code"] == "notes_cleared"


def test_notes_hold_at_most_2000_characters(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    assert client.post(f"/sessions/{sid}/notes", data={"notes": "x" * 2000}).status_code == 302
    assert session_doc(client, sid)["notes"] == "x" * 2000
    before = session_doc(client, sid)["version"]
    response = client.post(f"/sessions/{sid}/notes", data={"notes": "y" * 2001})
    assert response.status_code == 422
    page = text(response)
    assert "Notes hold at most 2000 characters; these have 2001." in page
    assert "y" * 2001 in page  # what was typed stays on screen
    assert 'maxlength="2000"' in page
    doc = session_doc(client, sid)
    assert (doc["notes"], doc["version"]) == ("x" * 2000, before)


def test_notes_refuse_control_characters_and_unknown_sessions(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    response = client.post(f"/sessions/{sid}/notes", data={"notes": "bell \x07"})
    assert response.status_code == 422
    assert session_doc(client, sid)["notes"] == ""
    assert client.post("/sessions/999/notes", data={"notes": "hi"}).status_code == 404


def test_saving_the_same_notes_again_changes_nothing(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    client.post(f"/sessions/{sid}/notes", data={"notes": "Cake"})
    version = session_doc(client, sid)["version"]
    client.post(f"/sessions/{sid}/notes", data={"notes": "Cake\n"})
    assert session_doc(client, sid)["version"] == version


# --- Undo of the last action --------------------------------------------------------------------


def test_undo_of_an_add_restores_the_previous_table_exactly(
    client: FlaskClient, other_phone: FlaskClient
) -> None:
    sid = new_session(client, FOUR)
    add_round(other_phone, sid, WENT_OUT)
    before = scores_table(client, sid)
    saved = client.post(
        f"/sessions/{sid}/rounds/new", data=went_out_form(1, {0: "5", 2: "10", 3: "3"})
    )
    assert saved.status_code == 302
    page = text(client.get(f"/sessions/{sid}"))
    assert "Round 2 saved." in page
    assert f'action="/sessions/{sid}/rounds/restore"' in page
    assert "Round 2 saved." not in text(other_phone.get(f"/sessions/{sid}"))  # this phone's
    response = client.post(f"/sessions/{sid}/rounds/restore")
    assert response.status_code == 302
    assert scores_table(client, sid) == before
    page = text(client.get(f"/sessions/{sid}"))
    assert "Round 2 is taken back." in page
    assert "Round 2 saved." not in page
    assert session_doc(client, sid)["last_change"]["message"] == "Round 2 taken back"
    client.post(f"/sessions/{sid}/rounds/restore")  # a second tap takes nothing more back
    assert scores_table(client, sid) == before


def test_undo_of_an_edit_puts_the_previous_round_back_exactly(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rules={"drop_worst_round": True})
    add_round(client, sid, went_out("Ann", Bo=["r7", "k13", "j"], Cy=12, Di=8))
    pool = pool_empty(Ann=10, Bo=22, Cy=55, Di=8)
    pool |= {"tile_counts": {"Ann": 3, "Bo": 5, "Cy": 9, "Di": 2}, "winner": "Di"}
    add_round(client, sid, pool)
    add_round(client, sid, went_out("Ann", Bo=200, Cy=12, Di=8) | {"confirm": True})
    before = scores_table(client, sid)
    for number in (1, 2, 3):
        edit = went_out_form(1, {0: "4", 2: "6", 3: "9"})
        edit["version"] = str(session_doc(client, sid)["rounds"][number - 1]["version"])
        response = client.post(f"/sessions/{sid}/rounds/{number}/edit", data=edit)
        assert response.status_code == 302
        assert scores_table(client, sid) != before
        assert f"Round {number} changed." in text(client.get(f"/sessions/{sid}"))
        assert client.post(f"/sessions/{sid}/rounds/restore").status_code == 302
        assert scores_table(client, sid) == before, f"round {number}"
        assert f"Round {number} is as it was before the edit." in text(
            client.get(f"/sessions/{sid}")
        )


def test_undo_of_a_delete_restores_the_previous_table_exactly(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    add_round(client, sid, WENT_OUT)
    add_round(client, sid, BO_OUT)
    add_round(client, sid, PAPER)
    before = scores_table(client, sid)
    assert client.post(f"/sessions/{sid}/rounds/2/delete").status_code == 302
    assert len(scores_table(client, sid)["rounds"]) == 2
    assert "Round 2 deleted." in text(client.get(f"/sessions/{sid}"))
    client.post(f"/sessions/{sid}/rounds/restore")
    assert scores_table(client, sid) == before
    assert session_doc(client, sid)["last_change"]["message"] == "Round 2 put back"


def _add_on_page(client: FlaskClient, sid: int) -> None:
    data = went_out_form(1, {0: "5", 2: "10", 3: "3"})
    assert client.post(f"/sessions/{sid}/rounds/new", data=data).status_code == 302


def _edit_on_page(client: FlaskClient, sid: int) -> None:
    data = went_out_form(2, {0: "1", 1: "2", 3: "3"})
    assert client.post(f"/sessions/{sid}/rounds/1/edit", data=data).status_code == 302


def _delete_on_page(client: FlaskClient, sid: int) -> None:
    assert client.post(f"/sessions/{sid}/rounds/1/delete").status_code == 302


@pytest.mark.parametrize(
    ("action", "offered"),
    [
        (_add_on_page, "Round 2 saved."),
        (_edit_on_page, "Round 1 changed."),
        (_delete_on_page, "Round 1 deleted."),
    ],
)
def test_undo_is_refused_once_another_phone_changed_the_session(
    client: FlaskClient, other_phone: FlaskClient, action: Any, offered: str
) -> None:
    sid = new_session(client, FOUR, rounds=5)
    add_round(client, sid, WENT_OUT)
    action(client, sid)
    assert offered in text(client.get(f"/sessions/{sid}"))
    other_phone.post(f"/sessions/{sid}/notes", data={"notes": "Tea at nine"})
    after_other = scores_table(client, sid)
    page = text(client.get(f"/sessions/{sid}"))
    assert offered not in page
    assert "rounds/restore" not in page
    response = client.post(f"/sessions/{sid}/rounds/restore", follow_redirects=True)
    assert "The table changed since" in text(response)
    assert scores_table(client, sid) == after_other


def test_a_delete_offers_the_undo_of_its_own_write_only(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another phone's write landing just after this phone's delete commits (before the
    answer is drawn) is not taken for this phone's: its Undo is refused, the table kept."""
    sid = new_session(client, FOUR, rounds=5)
    add_round(client, sid, WENT_OUT)
    add_round(client, sid, BO_OUT)
    delete_round = rounds.delete_round

    def delete_then_another_phone_writes(*args: Any, **kwargs: Any) -> Any:
        deleted = delete_round(*args, **kwargs)
        sessions.save_notes(sid, "Tea at nine")  # the other phone, between commit and answer
        return deleted

    monkeypatch.setattr(rounds, "delete_round", delete_then_another_phone_writes)
    _delete_on_page(client, sid)
    monkeypatch.undo()
    after_other = scores_table(client, sid)
    assert "rounds/restore" not in text(client.get(f"/sessions/{sid}"))
    response = client.post(f"/sessions/{sid}/rounds/restore", follow_redirects=True)
    assert "The table changed since that delete" in text(response)
    assert scores_table(client, sid) == after_other


def test_undo_is_withdrawn_when_this_phone_changes_something_else(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    add_round(client, sid, WENT_OUT)
    _add_on_page(client, sid)
    client.post(f"/sessions/{sid}/extend")
    assert "rounds/restore" not in text(client.get(f"/sessions/{sid}"))
    client.post(f"/sessions/{sid}/rounds/restore")
    assert len(session_doc(client, sid)["rounds"]) == 2


def test_undo_service_checks_the_version_under_the_lock(app: Flask, client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    add_round(client, sid, WENT_OUT)
    add_round(client, sid, BO_OUT)
    with app.app_context():
        version = views.get_session(sid).version
        with pytest.raises(RulesError) as stale:
            rounds.undo_change(sid, "add", 2, None, version - 1)
        assert stale.value.code == "stale_undo"
        with pytest.raises(RulesError):
            rounds.undo_change(sid, "add", 1, None, version)  # not the last round
        with pytest.raises(RulesError):
            rounds.undo_change(sid, "move", 2, None, version)
        assert len(views.get_session(sid).rounds) == 2
        taken = rounds.undo_change(sid, "add", 2, None, version)
        assert (taken.code, taken.round, taken.message) == (
            "round_taken_back",
            2,
            "Round 2 taken back",
        )
        assert len(views.get_session(sid).rounds) == 1


def test_a_repeated_save_offers_no_undo(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    data = {**went_out_form(0, {1: "22", 2: "55", 3: "8"}), "key": "tap-1"}
    client.post(f"/sessions/{sid}/rounds/new", data=data)
    client.post(f"/sessions/{sid}/rounds/new", data=data)  # the same tap, sent twice
    assert len(session_doc(client, sid)["rounds"]) == 1
    page = text(client.get(f"/sessions/{sid}"))
    assert "rounds/restore" not in page
    assert page.count("Round 1 saved.") == 1  # the one message: no Undo to say it


# --- The chart and the summary ------------------------------------------------------------------


def _svg(markup: str) -> ET.Element:
    if "xmlns=" not in markup:
        markup = markup.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return ET.fromstring(markup)


def _lines(svg: ET.Element) -> list[ET.Element]:
    return list(svg.iter(f"{SVG}polyline"))


def test_chart_svg_is_an_image_with_one_line_and_markers_per_player(client: FlaskClient) -> None:
    players = ["Ann", "Bo", "Cy", "Di", "Ed & <Flo>"]
    sid = new_session(client, players, rules={"tile_sets": 2}, rounds=4)
    add_round(
        client,
        sid,
        {
            "ending": "scores",
            "scores": {"Ann": 40, "Bo": -10, "Cy": -10, "Di": -10, "Ed & <Flo>": -10},
        },
    )
    add_round(
        client,
        sid,
        {
            "ending": "scores",
            "scores": {"Ann": -20, "Bo": 50, "Cy": -10, "Di": -10, "Ed & <Flo>": -10},
        },
    )
    response = client.get(f"/sessions/{sid}/chart.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert "chart.svg" in response.headers["Content-Disposition"]
    svg = ET.fromstring(response.get_data(as_text=True))  # well-formed XML, names escaped
    assert svg.tag == f"{SVG}svg"
    lines = _lines(svg)
    assert len(lines) == len(players)
    groups = [g for g in svg.iter(f"{SVG}g") if g.get("data-player")]
    assert [g.get("data-player") for g in groups] == players
    markers = {g.get("data-marker") for g in groups}
    assert len(markers) == len(players)  # a shape of its own each, not only a colour
    dashes = {line.get("stroke-dasharray") for line in lines}
    assert len(dashes) == len(players)
    # Each in their seat's colour, as the table header shows them (light by default).
    assert [g.get("stroke") for g in groups] == list(colours()["light"][: len(players)])
    for group in groups:
        assert group.find(f"{SVG}path").get("class") == "markers"
        points = group.find(f"{SVG}polyline").get("points").split()
        assert len(points) == 3  # the start at 0, then rounds 1 and 2
    legend = "".join(svg.itertext())
    assert "Ed & <Flo>" in legend and "Running totals" in legend


def test_chart_lines_follow_the_running_totals(app: Flask, client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    add_round(client, sid, WENT_OUT)  # Ann 85, Bo -22, Cy -55, Di -8
    add_round(client, sid, BO_OUT)  # Ann 80, Bo -4, Cy -65, Di -11
    with app.app_context():
        view = views.get_session(sid)
    svg = _svg(str(running_chart(view)))
    last_y = {}
    for group in svg.iter(f"{SVG}g"):
        if group.get("data-player"):
            points = group.find(f"{SVG}polyline").get("points").split()
            ys = [float(p.split(",")[1]) for p in points]
            last_y[group.get("data-player")] = ys[-1]
    zero_ys = {
        float(g.find(f"{SVG}polyline").get("points").split()[0].split(",")[1])
        for g in svg.iter(f"{SVG}g")
        if g.get("data-player")
    }
    assert len(zero_ys) == 1  # everyone starts at 0
    # Higher totals are drawn higher (smaller y): Ann, Bo, Di, Cy.
    assert sorted(last_y, key=last_y.get) == ["Ann", "Bo", "Di", "Cy"]


def test_six_players_have_six_different_looks(app: Flask, client: FlaskClient) -> None:
    six = ["A", "B", "C", "D", "E", "F"]
    sid = new_session(client, six, rules={"tile_sets": 2})
    add_round(
        client,
        sid,
        {"ending": "scores", "scores": {"A": 5, "B": -1, "C": -1, "D": -1, "E": -1, "F": -1}},
    )
    with app.app_context():
        svg = _svg(str(running_chart(views.get_session(sid))))
    groups = [g for g in svg.iter(f"{SVG}g") if g.get("data-player")]
    looks = {
        (g.get("stroke"), g.get("data-marker"), g.find(f"{SVG}polyline").get("stroke-dasharray"))
        for g in groups
    }
    assert len(looks) == 6
    assert len(set(DASHES)) == 6


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_chart_is_drawn_in_the_theme_and_the_seat_colours(
    client: FlaskClient, theme: str
) -> None:
    players = ["Mormor", "Morfar", "Anna Berg", "Anna Bo", "Ed & <Flo>", "Cy"]
    sid = new_session(client, players, rules={"tile_sets": 2})
    add_round(
        client,
        sid,
        {"ending": "scores", "scores": dict(zip(players, [25, -5, -5, -5, -5, -5], strict=True))},
    )
    query = "" if theme == "light" else "?theme=dark"
    response = client.get(f"/sessions/{sid}/chart.svg{query}")
    assert response.status_code == 200
    suffix = "" if theme == "light" else "-dark"
    assert response.headers["Content-Disposition"].endswith(f'-chart{suffix}.svg"')
    svg = ET.fromstring(response.get_data(as_text=True))
    tokens = palette()[theme]
    assert svg.get("data-theme") == theme
    # On the theme's card, its corners rounded as the cards are.
    background = svg.find(f"{SVG}rect")
    assert (
        background.get("fill") == tokens["card"] == ("#fffcf5" if theme == "light" else "#1e1c18")
    )
    assert background.get("rx") == "12"
    # Each player in their seat's colour, as on the table: the same mapping (web/seats.py).
    seated = marks(players)
    groups = [g for g in svg.iter(f"{SVG}g") if g.get("data-player")]
    assert [g.get("stroke") for g in groups] == [colours()[theme][m.seat - 1] for m in seated]
    assert len({g.get("data-marker") for g in groups}) == 6  # and a shape and a dash of its own
    assert len({g.find(f"{SVG}polyline").get("stroke-dasharray") for g in groups}) == 6
    # The legend: each player's initials on a tile, in the seat's colour, then the name.
    chips = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "chart-mark"]
    assert [g.find(f"{SVG}text").text for g in chips] == [m.initials for m in seated]
    assert [g.find(f"{SVG}text").get("fill") for g in chips] == [g.get("stroke") for g in groups]
    names = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "chart-name"]
    assert names == players
    # Readable on its background: text at least 4.5:1, lines (the grid, each player's) 3:1,
    # the initials on their tile 4.5:1; no colour of another theme.
    card = tokens["card"]
    texts = [t for t in svg.iter(f"{SVG}text") if t.get("fill")]
    assert {t.get("fill") for t in texts} - set(colours()[theme]) == {tokens["fg"], tokens["muted"]}
    for label in texts:
        assert contrast(label.get("fill"), card) >= 4.5, label.text
    lines = [e for e in svg.iter() if e.get("stroke")]
    assert {e.get("stroke") for e in lines} == {tokens["border"], *colours()[theme]}
    for line in lines:
        assert contrast(line.get("stroke"), card) >= 3
    for chip in chips:
        tile = chip.findall(f"{SVG}rect")[-1].get("fill")
        assert tile == tokens["tile"]
        assert contrast(chip.find(f"{SVG}text").get("fill"), tile) >= 4.5


def test_the_light_and_dark_charts_differ_and_another_theme_is_refused(
    app: Flask, client: FlaskClient
) -> None:
    sid = new_session(client, FOUR)
    add_round(client, sid, WENT_OUT)
    light = client.get(f"/sessions/{sid}/chart.svg?theme=light").get_data(as_text=True)
    assert light == client.get(f"/sessions/{sid}/chart.svg").get_data(as_text=True)
    dark = client.get(f"/sessions/{sid}/chart.svg?theme=dark").get_data(as_text=True)
    assert light != dark
    assert not set(re.findall(r'"(#[0-9a-f]{6})"', dark)) & set(colours()["light"])
    for wrong in ("sepia", "", "DARK", "dark ", "light&theme=dark"):
        response = client.get(f"/sessions/{sid}/chart.svg", query_string={"theme": wrong})
        assert response.status_code == 400, wrong
        assert "nothing was changed" in response.get_data(as_text=True)
    assert client.get("/sessions/999/chart.svg?theme=dark").status_code == 404
    with app.app_context(), pytest.raises(ValueError):
        running_chart(views.get_session(sid), theme="sepia")


def test_a_session_without_rounds_has_no_chart_on_its_page(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert 'id="chart"' not in page
    assert "chart.svg" not in page
    svg = ET.fromstring(client.get(f"/sessions/{sid}/chart.svg").get_data(as_text=True))
    assert _lines(svg) == []
    assert "No rounds yet" in "".join(svg.itertext())


def test_session_page_shows_the_chart_with_the_table_as_its_text(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    add_round(client, sid, WENT_OUT)
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    # The chart is an image of its own, asked for with the version it shows, so the page stays
    # small and the phone keeps each chart it has seen; its caption points to the table. It
    # is there twice, light and dark (static/live.css shows the one of the page's theme), each
    # fetched only once shown.
    images = re.findall(
        r'<img src="([^"]+)" width="360" height="(\d+)" alt="([^"]+)" loading="lazy">',
        page,
    )
    version = f"/sessions/{sid}/chart.svg?v=s{sid}-v2-0"
    assert [html.unescape(src) for src, _, _ in images] == [version, version + "&theme=dark"]
    assert all(alt for *_, alt in images)
    assert "<polyline" not in page
    for theme, (src, height, _) in zip(("light", "dark"), images, strict=True):
        chart = client.get(html.unescape(src))
        assert chart.headers["Cache-Control"] == "private, max-age=31536000, immutable"
        svg = ET.fromstring(chart.get_data(as_text=True))
        assert len(_lines(svg)) == 4 and svg.get("height") == height
        assert svg.get("data-theme") == theme
    # Asked for with an older version, it is the current chart, not to be kept.
    assert (
        client.get(f"/sessions/{sid}/chart.svg?v=s{sid}-v1-0").headers["Cache-Control"]
        == "no-cache"
    )
    assert re.search(r'<figcaption[^>]*id="chart-caption"[^>]*>[^<]*<a href="#scores-table">', page)
    assert "has each round's score and the totals" in page
    assert 'id="scores-table"' in page
    assert re.search(r'<link rel="stylesheet" href="/static/app\.live\.[0-9a-f]{10}\.css">', page)


def test_summary_of_a_finished_session(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rounds=2, name="Sunday & co")
    add_round(client, sid, WENT_OUT)
    add_round(client, sid, BO_OUT)
    response = client.get(f"/sessions/{sid}/summary")
    assert response.status_code == 200
    raw = response.get_data(as_text=True)
    page = html.unescape(raw)
    assert "Sunday & co" in page and "Sunday &amp; co" in raw
    assert "Ann wins!" in page
    ranking = re.findall(r'<span class="ranking-name">(?:<span[^>]*>★ </span>)?([^<]+)</span>', raw)
    assert ranking == ["Ann", "Bo", "Di", "Cy"]
    assert f'src="/sessions/{sid}/chart.svg?v=s{sid}-v3-0"' in raw
    assert 'id="scores-table"' in raw
    assert "Edit round" not in raw  # the summary's table is to read, not to change
    assert f'href="/sessions/{sid}/chart.svg"' in raw
    assert 'download="sunday-co-' in raw
    assert 'id="share"' in raw and f'data-url="http://localhost/sessions/{sid}/summary"' in raw
    assert re.search(r'<link rel="stylesheet" href="/static/app\.live\.[0-9a-f]{10}\.css">', raw)
    assert re.search(r'<link rel="stylesheet" href="/static/summary\.[0-9a-f]{10}\.css">', raw)
    assert re.search(r'<script src="/static/share\.[0-9a-f]{10}\.js" defer>', raw)
    assert client.get("/sessions/999/summary").status_code == 404
    assert client.get("/sessions/999/chart.svg").status_code == 404


def test_summary_of_an_evening_in_progress_says_so(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    add_round(client, sid, WENT_OUT)
    page = text(client.get(f"/sessions/{sid}/summary"))
    assert "still being played" in page and "wins!" not in page
    assert "Summary so far" in text(client.get(f"/sessions/{sid}"))


def test_print_stylesheet_hides_the_controls(client: FlaskClient) -> None:
    css = client.get("/static/live.css").get_data(as_text=True).split("@media print {")[1]
    hidden = re.search(r"([^{}]*)\{\s*display: none !important;", css)
    assert hidden
    for selector in (".site-header", ".actions", "button", "form", "details.more", ".extras"):
        assert selector in hidden[1]


# --- Comfort: theme, keep awake, large text -----------------------------------------------------


def test_every_page_loads_the_theme_first_and_offers_the_choice(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    head = page.split("</head>")[0]
    # One script for every page, run before the page is drawn (not deferred): the theme first.
    app_js = r'<script src="/static/app\.[0-9a-f]{10}\.js" data-sw="/sw.js\?lang=en"></script>'
    assert re.search(app_js, head)
    assert re.search(r'<link rel="stylesheet" href="/static/app\.[0-9a-f]{10}\.css">', head)
    # The theme is one icon button in the header, naming the three choices it goes through.
    button = re.search(r'<button type="button" id="theme-toggle"[^>]*>', page)
    assert button
    inside = page.split('id="theme-toggle"')[1].split("</button>")[0]
    assert re.findall(r'data-theme-name="(\w+)"', inside) == ["system", "light", "dark"]
    assert '<use href="/static/icons/sprite.' in inside


def test_app_css_sets_every_colour_for_both_choices(client: FlaskClient) -> None:
    css = client.get("/static/app.css").get_data(as_text=True)  # the plain URL: as written

    def colours(pattern: str) -> dict[str, str]:
        block = re.search(pattern + r" \{([^}]*)\}", css, re.M)
        assert block, pattern
        return dict(re.findall(r"(--[a-z0-9-]+):\s*([^;]+);", block[1]))

    light = colours(r"^:root")
    dark = colours(r':root\[data-theme="dark"\]')
    assert {"--paper", "--card", "--fg", "--accent", "--lead-bg", "--s1", "--s6"} <= set(dark)
    # Every colour the dark theme sets, the light one sets too (and differently).
    colour_keys = {key for key, value in light.items() if value.startswith("#")}
    assert colour_keys <= set(dark)
    assert all(light[key] != dark[key] for key in colour_keys)
    # One dark block: app.js resolves "system" to light or dark (no second copy to keep equal).
    assert "prefers-color-scheme" not in css
    assert re.search(r"^:root \{\s*color-scheme: light;", css, re.M)
    assert re.search(r':root\[data-theme="dark"\] \{\s*color-scheme: dark;', css)


def test_session_page_offers_keep_awake_and_uses_rem(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert re.search(
        r'<button type="button" id="keep-awake"[^>]*aria-pressed="false"[^>]*hidden', page
    )
    assert re.search(r'<script src="/static/live\.[0-9a-f]{10}\.js" defer>', page)  # awake too
    for name in ("live.css", "app.css"):
        css = client.get(f"/static/{name}").get_data(as_text=True)
        assert not re.search(r"font-size:\s*\d+px", css), name


@pytest.fixture
def documents_of(app: Flask) -> Iterator[Any]:
    def read(session_id: int) -> dict[str, Any]:
        with app.app_context():
            return session_document(views.get_session(session_id))

    yield read


def test_document_carries_notes_and_last_change(client: FlaskClient, documents_of: Any) -> None:
    sid = new_session(client, FOUR)
    client.post(f"/sessions/{sid}/notes", data={"notes": "Ann keeps score"})
    doc = documents_of(sid)
    assert doc["notes"] == "Ann keeps score"
    assert doc["last_change"] == {
        "code": "notes_changed",
        "round": None,
        "message": "Notes changed",
    }
