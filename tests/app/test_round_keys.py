"""A key means one round, and a new round names the table it was typed against (issue #23,
findings 5 to 8): a key sent again with another round is refused, an Undo of a delete keeps
the round's key, a renumbering since the form was drawn is a 409 (never a second copy), the
form's number and version come back refreshed with every such answer, and pages with forms
are never kept by the browser."""

from __future__ import annotations

import re
from typing import Any

from factories import new_session
from flask.testing import FlaskClient

API = "/api/v1/sessions"
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
IN_PLACE = {"X-Requested-With": "fetch"}
FIRST = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55, "Di": 8}}
SECOND = {"ending": "went_out", "winner": "Bo", "racks": {"Ann": 5, "Cy": 6, "Di": 7}}
THIRD = {"ending": "scores", "scores": {"Ann": 10, "Bo": -5, "Cy": -3, "Di": -2}}


def _hidden(page: str, name: str) -> str:
    match = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page) or re.search(
        rf'value="([^"]*)"[^>]*name="{name}"', page
    )
    assert match, f"no hidden field {name}"
    return match.group(1)


def _rounds(client: FlaskClient, session_id: int) -> list[dict[str, Any]]:
    return client.get(f"{API}/{session_id}").json["rounds"]


def _form(page: str, **racks: str) -> dict[str, str]:
    """The round form as drawn (its hidden fields) with Ann gone out and the racks typed."""
    fields = {"ending": "went_out", "winner": "0", **racks}
    for name in ("key", "number", "version"):
        fields[name] = _hidden(page, name)
    return fields


# --- Finding 5: a key means one round ----------------------------------------------------------


def test_a_key_sent_again_with_another_round_is_refused_by_the_api(client: FlaskClient) -> None:
    sid = new_session(client, PLAYERS, rounds=6)
    first = client.post(f"{API}/{sid}/rounds", json={**FIRST, "key": "k1"})
    assert first.status_code == 201
    # The same round sent again (a lost answer) is the first round: 200, nothing added.
    again = client.post(f"{API}/{sid}/rounds", json={**FIRST, "key": "k1"})
    assert again.status_code == 200 and again.json["number"] == 1
    # Tiles in another order and the winner's case are still the same round.
    tiles = {"ending": "went_out", "winner": "bo", "racks": {"Ann": ["r7", "k13", "j"]}}
    tiles["racks"].update({"Cy": 6, "Di": 7})
    assert client.post(f"{API}/{sid}/rounds", json={**tiles, "key": "k2"}).status_code == 201
    shuffled = {**tiles, "winner": "BO", "racks": {**tiles["racks"], "Ann": ["j", "r7", "k13"]}}
    assert client.post(f"{API}/{sid}/rounds", json={**shuffled, "key": "k2"}).status_code == 200
    # Another round under a key used already: a 409 that says so, and nothing stored.
    version = client.get(f"{API}/{sid}").json["version"]
    for other in (SECOND, THIRD, {**FIRST, "racks": {"Bo": 22, "Cy": 55, "Di": 9}}):
        refused = client.post(f"{API}/{sid}/rounds", json={**other, "key": "k1"})
        assert refused.status_code == 409, refused.json
        assert [e["code"] for e in refused.json["errors"]] == ["key_reused"]
        assert "round 1" in refused.json["errors"][0]["message"]
    after = client.get(f"{API}/{sid}").json
    assert len(after["rounds"]) == 2 and after["version"] == version


def test_a_form_brought_back_with_a_used_key_is_refused_and_keeps_what_was_typed(
    client: FlaskClient,
) -> None:
    """Back to the round form after a save: its key was used. The round typed there is not
    dropped with "Round 1 saved.": the page says why, keeps it, and a second Save stores it."""
    sid = new_session(client, PLAYERS, rounds=6)
    page = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    form = _form(page, rack_1="22", rack_2="55", rack_3="8")
    saved = client.post(f"/sessions/{sid}/rounds/new", data=form, follow_redirects=True)
    assert "Round 1 saved." in saved.get_data(as_text=True)
    # The same form sent again (a double tap, a lost answer): the same round, stored once.
    assert client.post(f"/sessions/{sid}/rounds/new", data=form).status_code == 302
    client.get(f"/sessions/{sid}")  # (what the session page says of it)
    assert len(_rounds(client, sid)) == 1

    typed = {**form, "winner": "1", "rack_0": "5", "rack_1": "", "rack_2": "6", "rack_3": "7"}
    refused = client.post(f"/sessions/{sid}/rounds/new", data=typed)
    assert refused.status_code == 409
    text = refused.get_data(as_text=True)
    assert "This form saved round 1 already" in text
    assert "Round 1 saved." not in text
    assert 'value="6"' in text and 'value="7"' in text  # what was typed stays
    assert len(_rounds(client, sid)) == 1
    assert _hidden(text, "key") != form["key"]  # a fresh key for this round
    assert _hidden(text, "number") == "2"

    in_place = client.post(f"/sessions/{sid}/rounds/new", data=typed, headers=IN_PLACE)
    assert in_place.status_code == 409
    assert "This form saved round 1 already" in in_place.get_data(as_text=True)

    again = {**typed, **{n: _hidden(text, n) for n in ("key", "number", "version")}}
    assert client.post(f"/sessions/{sid}/rounds/new", data=again).status_code == 302
    assert [r["winner"] for r in _rounds(client, sid)] == ["Ann", "Bo"]


def test_pages_with_forms_are_never_kept_by_the_browser(client: FlaskClient) -> None:
    sid = new_session(client, PLAYERS, rounds=6)
    client.post(f"{API}/{sid}/rounds", json=FIRST)
    for url in (
        f"/sessions/{sid}/rounds/new",
        f"/sessions/{sid}/rounds/new?fragment=1",
        f"/sessions/{sid}/rounds/1/edit",
        f"/sessions/{sid}/rounds/1/delete",
        f"/sessions/{sid}/details",
        "/sessions/new",
        f"/sessions/new?again={sid}",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers.get("Cache-Control") == "no-store", url
    refused = client.post(f"/sessions/{sid}/rounds/new", data={"ending": "went_out"})
    assert refused.headers.get("Cache-Control") == "no-store"
    # The session page stays the one the service worker keeps for a Wi-Fi blip.
    assert "no-store" not in client.get(f"/sessions/{sid}").headers.get("Cache-Control", "")


# --- Finding 7: an Undo of a delete keeps the round's key --------------------------------------


def test_the_undo_of_a_delete_puts_the_round_back_with_its_key(client: FlaskClient) -> None:
    sid = new_session(client, PLAYERS, rounds=6)
    page = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    form = _form(page, rack_1="22", rack_2="55", rack_3="8")
    assert client.post(f"/sessions/{sid}/rounds/new", data=form).status_code == 302
    delete = client.get(f"/sessions/{sid}/rounds/1/delete").get_data(as_text=True)
    gone = client.post(
        f"/sessions/{sid}/rounds/1/delete", data={"version": _hidden(delete, "version")}
    )
    assert gone.status_code == 302 and _rounds(client, sid) == []
    assert client.post(f"/sessions/{sid}/rounds/restore").status_code == 302
    assert len(_rounds(client, sid)) == 1
    # The first save sent again (its answer was lost) is the round put back, not a second one.
    assert client.post(f"/sessions/{sid}/rounds/new", data=form).status_code == 302
    assert client.post(f"{API}/{sid}/rounds", json={**FIRST, "key": form["key"]}).status_code == 200
    assert len(_rounds(client, sid)) == 1


# --- Finding 6: a new round names the table it was typed against -------------------------------


def test_a_renumbering_since_the_form_was_drawn_is_refused(client: FlaskClient) -> None:
    """Phones A and B open round 3; B saves it and deletes round 1; A's round 3 is the same
    round: it is refused (409), never stored a second time, and the second Save goes through."""
    sid = new_session(client, PLAYERS, rounds=6)
    client.post(f"{API}/{sid}/rounds", json=FIRST)
    client.post(f"{API}/{sid}/rounds", json=SECOND)
    page_a = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    page_b = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    assert _hidden(page_a, "number") == "3"
    assert _hidden(page_a, "version") == str(client.get(f"{API}/{sid}").json["version"])
    typed = {"rack_1": "12", "rack_2": "4", "rack_3": "9"}
    assert (
        client.post(f"/sessions/{sid}/rounds/new", data=_form(page_b, **typed)).status_code == 302
    )
    client.delete(f"{API}/{sid}/rounds/1")
    assert len(_rounds(client, sid)) == 2

    refused = client.post(f"/sessions/{sid}/rounds/new", data=_form(page_a, **typed))
    assert refused.status_code == 409
    text = refused.get_data(as_text=True)
    assert "rounds were added or deleted" in text
    assert 'value="12"' in text
    assert len(_rounds(client, sid)) == 2
    assert _hidden(text, "number") == "3"
    assert _hidden(text, "version") == str(client.get(f"{API}/{sid}").json["version"])

    # Sure it is another round, after a look: the form now names the table as it is.
    again = {**_form(page_a, **typed), "number": "3", "version": _hidden(text, "version")}
    assert client.post(f"/sessions/{sid}/rounds/new", data=again).status_code == 302
    assert len(_rounds(client, sid)) == 3


def test_the_api_takes_the_version_a_round_was_typed_against(client: FlaskClient) -> None:
    sid = new_session(client, PLAYERS, rounds=6)
    client.post(f"{API}/{sid}/rounds", json=FIRST)
    seen = client.get(f"{API}/{sid}").json["version"]
    # An edit or a note since does not move the rounds: the round is simply the next one.
    client.put(f"{API}/{sid}/rounds/1", json={**FIRST, "racks": {"Bo": 20, "Cy": 55, "Di": 8}})
    ok = client.post(f"{API}/{sid}/rounds", json={**SECOND, "number": 2, "version": seen})
    assert ok.status_code == 201
    seen = client.get(f"{API}/{sid}").json["version"]
    client.post(f"{API}/{sid}/rounds", json=THIRD)
    client.delete(f"{API}/{sid}/rounds/1")
    refused = client.post(f"{API}/{sid}/rounds", json={**THIRD, "number": 3, "version": seen})
    assert refused.status_code == 409
    assert [e["code"] for e in refused.json["errors"]] == ["stale_round"]
    assert len(_rounds(client, sid)) == 2
    # Rounds deleted since (the number now ahead of the table): refused the same way.
    client.delete(f"{API}/{sid}/rounds/1")
    late = client.post(f"{API}/{sid}/rounds", json={**THIRD, "number": 3, "version": seen})
    assert late.status_code == 409 and late.json["errors"][0]["code"] == "stale_round"
    for bad in (True, "7", 1.5):
        wrong = client.post(f"{API}/{sid}/rounds", json={**THIRD, "version": bad})
        assert wrong.status_code == 400 and wrong.json["errors"][0]["field"] == "version"
    assert len(_rounds(client, sid)) == 1


# --- Finding 8: the form's number follows the table --------------------------------------------


def test_the_form_is_not_stuck_after_an_earlier_round_is_deleted(client: FlaskClient) -> None:
    """The round page and the form in place open on round 3; round 1 is deleted: the save is
    a 409 whose form names round 2 and the table as it is now, so the next Save goes through
    (in place too: no fall back to a page)."""
    sid = new_session(client, PLAYERS, rounds=6)
    client.post(f"{API}/{sid}/rounds", json=FIRST)
    client.post(f"{API}/{sid}/rounds", json=SECOND)
    page = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    fragment = client.get(f"/sessions/{sid}/rounds/new?fragment=1").get_data(as_text=True)
    client.delete(f"{API}/{sid}/rounds/1")
    typed = {"rack_1": "12", "rack_2": "4", "rack_3": "9"}

    on_page = client.post(f"/sessions/{sid}/rounds/new", data=_form(page, **typed))
    in_place = client.post(
        f"/sessions/{sid}/rounds/new", data=_form(fragment, **typed), headers=IN_PLACE
    )
    version = str(client.get(f"{API}/{sid}").json["version"])
    for answer in (on_page, in_place):
        assert answer.status_code == 409
        text = answer.get_data(as_text=True)
        assert (_hidden(text, "number"), _hidden(text, "version")) == ("2", version)
    # The round page says its number; in place, the session page does (the form only carries it).
    assert "Round 2 of 6" in on_page.get_data(as_text=True)
    assert 'id="entry-fragment"' in in_place.get_data(as_text=True)
    assert len(_rounds(client, sid)) == 1

    text = in_place.get_data(as_text=True)
    again = {**_form(text, **typed)}
    saved = client.post(f"/sessions/{sid}/rounds/new", data=again, headers=IN_PLACE)
    assert saved.status_code == 200 and 'id="live"' in saved.get_data(as_text=True)
    assert [r["number"] for r in _rounds(client, sid)] == [1, 2]


def test_the_live_table_names_the_next_round_for_the_form_in_place(client: FlaskClient) -> None:
    """What the poll brings (static/live.js) carries the next round's number, the table's
    version and the newest round's version: a new round's form in place (data-new) follows it
    when no round is newer than the table the form names (rounds before it only deleted)."""
    sid = new_session(client, PLAYERS, rounds=6)
    client.post(f"{API}/{sid}/rounds", json=FIRST)
    second = client.post(f"{API}/{sid}/rounds", json=SECOND).json["version"]
    client.delete(f"{API}/{sid}/rounds/1")
    live = client.get(f"/sessions/{sid}/table").get_data(as_text=True)
    version = client.get(f"{API}/{sid}").json["version"]
    assert f'data-version="{version}"' in live
    assert 'data-next="2"' in live
    assert f'data-newest="{second}"' in live
    # A new round's form has a key; an edit's has none (live.js follows only the former).
    fragment = client.get(f"/sessions/{sid}/rounds/new?fragment=1").get_data(as_text=True)
    assert _hidden(fragment, "key")
    edit = client.get(f"/sessions/{sid}/rounds/1/edit?fragment=1").get_data(as_text=True)
    assert not re.search(r'name="key"[^>]*value="[^"]', edit)
