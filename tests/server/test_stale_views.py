"""A view of a round left open on one phone never lands on another round: an edit or a delete
made from it after another phone deleted an earlier round (so the rounds moved up), or the same
round, is refused with stale_round and changes nothing; an Undo after another phone's change
changes nothing. Real servers over real HTTP (waitress and gunicorn, SQLite and PostgreSQL),
through the pages with CSRF on and through the API."""

from __future__ import annotations

import re

from factories import hidden_fields, went_out, went_out_form
from server_harness import Server, at_once, open_page

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def evening(server: Server, count: int = 4) -> int:
    """A session of `count` rounds, each recognisable by Ann's rack (10, 20, 30, ...)."""
    session_id = server.new_session(PLAYERS, rounds=8)
    for i in range(count):
        body = went_out("Bo", Ann=10 * (i + 1), Cy=5, Di=7)
        reply = server.request("POST", f"/api/v1/sessions/{session_id}/rounds", body)
        assert reply.status == 201, reply
    return session_id


def ann_racks(server: Server, session_id: int) -> list[int]:
    """Ann's rack in each round, in order: which rounds are stored, and what they hold."""
    return [r["racks"]["Ann"] for r in server.session(session_id)["rounds"]]


def edit_fields(hidden: dict[str, str], ann: int) -> dict[str, str]:
    """The edit form as a phone posts it: Bo went out, Ann's rack changed."""
    return hidden | went_out_form(1, {0: str(ann), 2: "5", 3: "7"})


def test_every_round_version_is_new_to_its_session(live_server: Server) -> None:
    session_id = evening(live_server)
    live_server.request("DELETE", f"/api/v1/sessions/{session_id}/rounds/2")
    path = f"/api/v1/sessions/{session_id}/rounds"
    live_server.request("POST", path, went_out("Bo", Ann=50, Cy=5, Di=7))
    put = live_server.request("PUT", f"{path}/1", went_out("Bo", Ann=11, Cy=5, Di=7))
    assert put.status == 200, put
    versions = [r["version"] for r in live_server.session(session_id)["rounds"]]
    assert len(set(versions)) == len(versions) == 4, versions


def test_an_edit_page_left_open_never_overwrites_the_round_that_moved_up(
    live_server: Server,
) -> None:
    """Phone A opens "Edit round 3"; phone B deletes round 2; A saves: refused, nothing lost,
    and A's page shows the round it was editing, now round 2, with what A typed."""
    session_id = evening(live_server)
    hidden, cookie = open_page(live_server, f"/sessions/{session_id}/rounds/3/edit")
    assert hidden.get("version"), hidden
    gone = live_server.request("DELETE", f"/api/v1/sessions/{session_id}/rounds/2")
    assert gone.status == 204
    assert ann_racks(live_server, session_id) == [10, 30, 40]

    saved = live_server.request(
        "POST",
        f"/sessions/{session_id}/rounds/3/edit",
        form=edit_fields(hidden, 33),
        cookie=cookie,
    )
    assert saved.status == 409, saved.status
    assert ann_racks(live_server, session_id) == [10, 30, 40]  # round 3 (Ann 40) untouched
    assert "now round 2" in saved.text
    assert re.search(r'name="rack_0"[^>]*value="33"', saved.text)  # what A typed is kept
    form_action = re.search(r'<form[^>]*action="([^"?]*rounds/\d+/edit)[?"]', saved.text)
    assert form_action and form_action[1].endswith("/rounds/2/edit")

    # A looks and saves again: the round A was editing (now round 2) takes the change.
    resaved = live_server.request(
        "POST",
        f"/sessions/{session_id}/rounds/2/edit",
        form=edit_fields(hidden_fields(saved.text), 33),
        cookie=cookie,
    )
    assert resaved.status == 302, resaved.status
    assert ann_racks(live_server, session_id) == [10, 33, 40]


def test_an_api_edit_or_delete_with_an_old_version_changes_nothing(live_server: Server) -> None:
    session_id = evening(live_server)
    path = f"/api/v1/sessions/{session_id}/rounds"
    seen = live_server.request("GET", f"{path}/3").body["version"]
    assert live_server.request("DELETE", f"{path}/2").status == 204
    put = live_server.request(
        "PUT", f"{path}/3", went_out("Bo", Ann=1, Cy=5, Di=7) | {"version": seen}
    )
    assert put.status == 409 and put.body["errors"][0]["code"] == "stale_round", put
    deleted = live_server.request("DELETE", f"{path}/3?version={seen}")
    assert deleted.status == 409 and deleted.body["errors"][0]["code"] == "stale_round"
    assert ann_racks(live_server, session_id) == [10, 30, 40]
    # The round the view was of, at its new number, with its version: that one applies.
    assert live_server.request("DELETE", f"{path}/2?version={seen}").status == 204
    assert ann_racks(live_server, session_id) == [10, 40]
    bad = live_server.request("DELETE", f"{path}/1?version=one")
    assert bad.status == 400


def test_a_delete_page_left_open_and_deletes_at_once_remove_one_round(
    live_server: Server,
) -> None:
    session_id = evening(live_server)
    hidden, cookie = open_page(live_server, f"/sessions/{session_id}/rounds/3/delete")
    assert hidden.get("version"), hidden
    # Another phone deletes round 2: the page left open would now delete Ann's 40.
    assert live_server.request("DELETE", f"/api/v1/sessions/{session_id}/rounds/2").status == 204
    late = live_server.request(
        "POST", f"/sessions/{session_id}/rounds/3/delete", form=hidden, cookie=cookie
    )
    assert late.status == 409, late.status
    assert "now round 2" in late.text
    assert ann_racks(live_server, session_id) == [10, 30, 40]

    # Six phones delete round 2 (Ann 30) at once, each from its own view of it: one does.
    version = live_server.request("GET", f"/api/v1/sessions/{session_id}/rounds/2").body["version"]
    path = f"/api/v1/sessions/{session_id}/rounds/2?version={version}"
    replies = at_once([lambda: live_server.request("DELETE", path)] * 6)
    assert sorted(r.status for r in replies) == [204] + [409] * 5, [r.status for r in replies]
    assert ann_racks(live_server, session_id) == [10, 40]


def test_undo_after_another_phones_delete_changes_nothing(live_server: Server) -> None:
    session_id = evening(live_server, count=2)
    hidden, cookie = open_page(live_server, f"/sessions/{session_id}/rounds/new")
    fields = hidden | went_out_form(1, {0: "30", 2: "5", 3: "7"})
    added = live_server.request(
        "POST", f"/sessions/{session_id}/rounds/new", form=fields, cookie=cookie
    )
    assert added.status == 302, added.status
    cookie = added.headers["set-cookie"].split(";", 1)[0]
    page, cookie = open_page(live_server, f"/sessions/{session_id}", cookie)
    assert "csrf_token" in page
    # The Undo this phone is offered would take back round 3; another phone deletes round 1.
    assert live_server.request("DELETE", f"/api/v1/sessions/{session_id}/rounds/1").status == 204
    undo = live_server.request(
        "POST",
        f"/sessions/{session_id}/rounds/restore",
        form={"csrf_token": page["csrf_token"]},
        cookie=cookie,
    )
    assert undo.status == 302
    assert ann_racks(live_server, session_id) == [20, 30]


def test_the_last_round_left_open_is_found_where_it_moved(live_server: Server) -> None:
    """The page left open is of the last round: after an earlier round is deleted its number
    is gone, and the Save or the Delete from it is told where the round is now (not a 404)."""
    session_id = evening(live_server, count=3)
    edit_hidden, edit_cookie = open_page(live_server, f"/sessions/{session_id}/rounds/3/edit")
    delete_hidden, delete_cookie = open_page(live_server, f"/sessions/{session_id}/rounds/3/delete")
    assert live_server.request("DELETE", f"/api/v1/sessions/{session_id}/rounds/1").status == 204
    saved = live_server.request(
        "POST",
        f"/sessions/{session_id}/rounds/3/edit",
        form=edit_fields(edit_hidden, 33),
        cookie=edit_cookie,
    )
    assert saved.status == 409, saved.status
    assert "now round 2" in saved.text
    late = live_server.request(
        "POST", f"/sessions/{session_id}/rounds/3/delete", form=delete_hidden, cookie=delete_cookie
    )
    assert late.status == 409, late.status
    assert "now round 2" in late.text and "Delete round 2?" in late.text
    assert ann_racks(live_server, session_id) == [20, 30]
