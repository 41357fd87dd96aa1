"""The round recorded on the session page: the round form as a fragment of a page (the same
template and view as the round page), a save in place answered with the live table, one message
per change, the agreed count changed only once it is played, the Dropped row, the QR code of the
session's home-network address, and the rematch."""

from __future__ import annotations

import re
from typing import Any

from factories import new_session, went_out_form
from flask.testing import FlaskClient

from scorekeeper.network import home_network_url

API = "/api/v1"
FOUR = ["Ann", "Bo", "Cy", "Di"]
IN_PLACE = {"X-Requested-With": "fetch"}


def rounds_of(client: FlaskClient, sid: int) -> list[dict[str, Any]]:
    return client.get(f"{API}/sessions/{sid}").get_json()["rounds"]


def test_the_round_form_comes_as_a_fragment_of_the_round_page(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    page = client.get(f"/sessions/{sid}/rounds/new?winner=1").get_data(as_text=True)
    part = client.get(f"/sessions/{sid}/rounds/new?winner=1&fragment=1").get_data(as_text=True)
    assert page.startswith("<!doctype html>")
    assert not part.lstrip().startswith("<!doctype") and "<header" not in part
    assert part.lstrip().startswith('<div id="entry-fragment"')

    # The same form: the same fields, posted to the same view.
    def fields(html: str) -> set[str]:
        form = html.split('id="round-form"')[1].split("</form>")[0]
        return set(re.findall(r'<input[^>]*name="(\w+)"', form))

    # (in place, the typo question is there from the start, hidden until an entry asks it)
    assert fields(part) - {"confirm"} == fields(page) and "rack_3" in fields(page)
    assert f'action="/sessions/{sid}/rounds/new?ending=went_out"' in part
    # In place it names what it needs to run: its stylesheet and scripts, fetched on demand.
    scripts = re.search(r'data-scripts="([^"]+)"', part)
    assert scripts and "round_form_went_out." in scripts[1] and ".css" in scripts[1]
    assert "data-scripts" not in page  # the round page loads its own


def test_a_round_saved_in_place_answers_with_the_live_table(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    response = client.post(
        f"/sessions/{sid}/rounds/new",
        data=went_out_form(0, {1: "22", 2: "55", 3: "8"}),
        headers=IN_PLACE,
    )
    assert response.status_code == 200  # no redirect: the table itself
    part = response.get_data(as_text=True)
    assert part.lstrip().startswith("{#") is False and '<div id="live"' in part
    assert "<b>+85</b>" in part
    # One message, carrying Undo.
    assert part.count("Round 1 saved.") == 1
    assert f'action="/sessions/{sid}/rounds/restore"' in part
    assert len(rounds_of(client, sid)) == 1
    # Nothing is left to flash on the next page.
    assert client.get(f"/sessions/{sid}").get_data(as_text=True).count("Round 1 saved.") == 1


def test_a_refused_round_in_place_comes_back_with_everything_typed(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    response = client.post(
        f"/sessions/{sid}/rounds/new",
        data={
            "ending": "scores",
            "score_0": "+6",
            "score_1": "-11",
            "score_2": "+22",
            "score_3": "-5",
        },
        headers=IN_PLACE,
    )
    assert response.status_code == 422
    part = response.get_data(as_text=True)
    assert part.lstrip().startswith('<div id="entry-fragment"')
    assert "Adds up to +12" in part
    for value in ("+6", "-11", "+22", "-5"):
        assert f'value="{value}"' in part
    assert rounds_of(client, sid) == []


def test_a_round_posted_to_no_session_or_as_a_bad_form_changes_nothing(
    client: FlaskClient,
) -> None:
    """The save reads the session itself (before it, only the seats): a session that is not
    there is a 404 in place and as a page; a form that does not parse (422), or that the
    rules refuse (400), comes back with what was typed, nothing stored."""
    body = went_out_form(0, {1: "22", 2: "55", 3: "8"})
    for missing in (999, 10**30):
        for headers in (IN_PLACE, {}):
            url = f"/sessions/{missing}/rounds/new"
            assert client.post(url, data=body, headers=headers).status_code == 404
    sid = new_session(client, FOUR)
    for status, typed in (
        (422, {"ending": "scores", "score_0": "abc", "score_1": "22"}),
        (400, {**body, "ending": "nonsense"}),
    ):
        bad = client.post(f"/sessions/{sid}/rounds/new", data=typed, headers=IN_PLACE)
        assert bad.status_code == status
        part = bad.get_data(as_text=True)
        assert part.lstrip().startswith('<div id="entry-fragment"')
        assert "Round 1 of 3" not in part  # the page says it: the form does not repeat it
        assert 'value="22"' in part
    assert rounds_of(client, sid) == []


def test_the_no_javascript_save_says_it_once(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    saved = client.post(
        f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "22", 2: "55", 3: "8"})
    )
    assert saved.status_code == 302
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert page.count("Round 1 saved.") == 1
    assert "Round 1 added." not in page


def test_one_more_round_is_offered_only_once_the_agreed_rounds_are_played(
    client: FlaskClient,
) -> None:
    sid = new_session(client, FOUR, rounds=1)
    assert "/extend" not in client.get(f"/sessions/{sid}").get_data(as_text=True)
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "22", 2: "55", 3: "8"}))
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert f'action="/sessions/{sid}/extend"' in page
    assert "Play one more round (2 in all)" in page
    assert "Add round" not in page


def test_drop_worst_shows_what_leaves_each_total(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rules={"drop_worst_round": True})
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "22", 2: "55", 3: "8"}))
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(1, {0: "30", 2: "5", 3: "1"}))
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    foot = page.split("<tfoot>")[1].split("</tfoot>")[0]
    dropped, total = foot.split("</tr>")[:2]
    assert "Dropped" in dropped and "Total" in total
    # Ann: +85 then -30; -30 leaves, the total is +85. The cell holds its score struck out and
    # no running total (which would say +55 beside a total of +85).
    assert "<s>-30</s>" in dropped
    assert "<b>+85</b>" in total
    hidden = '<span class="visually-hidden"> dropped</span>'
    assert re.search(rf'<td class="dropped"><s>-30</s>{hidden}(<td|\n)', page)
    assert "+55" not in page


def test_the_qr_code_names_the_home_network_address(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert f'src="{sid}/qr.svg"' in page
    response = client.get(f"/sessions/{sid}/qr.svg")
    assert response.mimetype == "image/svg+xml"
    svg = response.get_data(as_text=True)
    address = home_network_url(f"http://localhost/sessions/{sid}")
    assert f"<title>QR code of {address}</title>" in svg
    assert f'alt="QR code of {address}"' in page
    assert client.get("/sessions/999999/qr.svg").status_code == 404


def test_a_loopback_address_becomes_a_home_network_one() -> None:
    url = home_network_url("http://127.0.0.1:5000/sessions/3")
    assert url.endswith(":5000/sessions/3")
    assert home_network_url("http://192.168.1.20:5000/x") == "http://192.168.1.20:5000/x"


def test_a_rematch_seats_the_same_players(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rounds=1)
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "22", 2: "55", 3: "8"}))
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert f'href="/sessions/new?again={sid}"' in page
    form = client.get(f"/sessions/new?again={sid}").get_data(as_text=True)
    for seat, name in enumerate(FOUR):
        assert re.search(rf'name="player_{seat}"[^>]*value="{name}"', form), name
    assert client.get("/sessions/new?again=999999").status_code == 200  # gone: an empty form


def test_a_round_deleted_and_put_back_in_place_answers_with_the_live_table(
    client: FlaskClient,
) -> None:
    """Delete and Undo asked in place (the header) answer with the live table, the one message
    in it (focusable, for live.js to focus) and the changed round named; without the header
    they stay a redirect to the page."""
    sid = new_session(client, FOUR)
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "22", 2: "55", 3: "8"}))
    version = rounds_of(client, sid)[0]["version"]
    deleted = client.post(
        f"/sessions/{sid}/rounds/1/delete", data={"version": version}, headers=IN_PLACE
    )
    assert deleted.status_code == 200
    part = deleted.get_data(as_text=True)
    assert part.lstrip().startswith('<div id="live"') and 'data-round="1"' in part
    assert re.search(r'<form class="undo[^>]*id="change-message" tabindex="-1"', part)
    assert "Round 1 deleted." in part and rounds_of(client, sid) == []

    back = client.post(f"/sessions/{sid}/rounds/restore", headers=IN_PLACE)
    assert back.status_code == 200
    part = back.get_data(as_text=True)
    assert part.lstrip().startswith('<div id="live"')
    assert re.search(
        r'class="flash flash-success" id="change-message"[^>]*>Round 1 is back\.', part
    )
    assert [r["number"] for r in rounds_of(client, sid)] == [1]
    # Asked again: nothing to undo, said as a problem, nothing changed.
    again = client.post(f"/sessions/{sid}/rounds/restore", headers=IN_PLACE)
    assert again.status_code == 200
    assert 'class="flash flash-error"' in again.get_data(as_text=True)
    assert [r["number"] for r in rounds_of(client, sid)] == [1]

    # Without the header: the page's redirect, as before.
    version = rounds_of(client, sid)[0]["version"]
    page = client.post(f"/sessions/{sid}/rounds/1/delete", data={"version": version})
    assert page.status_code == 302
    assert client.post(f"/sessions/{sid}/rounds/restore").status_code == 302
    assert [r["number"] for r in rounds_of(client, sid)] == [1]


def test_a_round_opened_in_place_to_change_asks_its_delete_there(client: FlaskClient) -> None:
    """The round's form in place: its own title, Cancel, a delete that asks in place (with the
    round's version), and a flagged entry marked by its class (no ⚠ typed into the label)."""
    sid = new_session(client, FOUR)
    body = {**went_out_form(0, {1: "22", 2: "200", 3: "8"}), "confirm": "y"}
    assert client.post(f"/sessions/{sid}/rounds/new", data=body).status_code == 302
    version = rounds_of(client, sid)[0]["version"]
    part = client.get(f"/sessions/{sid}/rounds/1/edit?fragment=1").get_data(as_text=True)
    assert "Edit round 1" in part and "data-cancel" in part and 'data-number="1"' in part
    ask = part.split("data-delete-ask")[1].split("</form>")[0]
    assert f'name="version" value="{version}"' in ask and "Delete round 1?" in ask
    assert "Keep it" in ask
    assert re.search(r'class="row seat flagged"><label for="rack_2">(?!<span class="flag)', part)
    page = client.get(f"/sessions/{sid}/rounds/1/edit").get_data(as_text=True)
    assert "data-delete-ask" not in page and "data-cancel" not in page
