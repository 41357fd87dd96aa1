"""The phone pages: sessions, the score table, the three round forms, edit, delete and undo."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from factories import (
    csrf_token,
    error_next_to,
    new_session_by_form,
    new_session_form,
    text,
    went_out_form,
)
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import LABELS
from scorekeeper.services import lists, views
from scorekeeper.services.views import SessionView

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

FOUR = ["Ann", "Bo", "Cy", "Di"]
STATIC = Path(__file__).resolve().parents[2] / "scorekeeper" / "static"


def table(app: Flask, session_id: int) -> SessionView:
    with app.app_context():
        return views.get_session(session_id)


def test_home_lists_sessions_in_progress_before_finished(client: FlaskClient, app: Flask) -> None:
    finished = new_session_by_form(client, FOUR, name="Finished evening", rounds="1")
    client.post(
        f"/sessions/{finished}/rounds/new", data=went_out_form(0, {1: "22", 2: "55", 3: "8"})
    )
    new_session_by_form(client, FOUR, name="Evening in progress")
    page = text(client.get("/"))
    assert "New session" in page
    assert page.index("Evening in progress") < page.index("Finished evening")
    assert "Round 1 of 3" in page
    assert "Ann wins" in page
    assert "Ann, Bo, Cy and Di" in page


def test_new_session_page_shows_every_setting_label_exactly(client: FlaskClient) -> None:
    page = text(client.get("/sessions/new"))
    for label in [*LABELS.values(), "Rounds"]:
        assert f">{label}</label>" in page, label
    assert "More rules" in page
    assert ">Standard</option>" in page
    assert ">Tournament</option>" in page
    assert page.count('list="known-names"') == 0  # no names played before yet


def test_creating_a_session_redirects_to_its_table(client: FlaskClient, app: Flask) -> None:
    response = client.post("/sessions/new", data=new_session_form(FOUR, name="Sunday", rounds="4"))
    assert response.status_code == 302
    page = text(client.get(response.headers["Location"]))
    assert "<h1>Sunday</h1>" in page
    assert "Round 1 of 4" in page
    for name in FOUR:
        assert name in page
    view = table(app, 1)
    assert view.players == tuple(FOUR)
    assert view.rounds_planned == 4


def test_five_players_with_one_set_start_with_two_sets(client: FlaskClient, app: Flask) -> None:
    response = client.post("/sessions/new", data=new_session_form([*FOUR, "Eve"]))
    assert response.status_code == 302  # not refused: five players play with two tile sets
    assert "5 players: two tile sets." in text(client.get(response.headers["Location"]))
    assert table(app, 1).settings.tile_sets == 2
    seven = new_session_form([*FOUR, "Eve", "Fin"], player_6="Gus")
    page = text(client.post("/sessions/new", data=seven))
    match = re.search(r'<p class="error" id="players-error" role="alert">([^<]*)</p>', page)
    assert match
    assert "At most 6 players" in match[1]
    assert 'value="Eve"' in page  # nothing typed is lost


def test_a_duplicate_name_is_shown_at_its_own_field(client: FlaskClient) -> None:
    form = new_session_form(["Ann", "", " ann "])
    response = client.post("/sessions/new", data=form)
    assert response.status_code == 422
    assert "ann is already playing" in error_next_to(text(response), "player_2")


def test_preset_without_javascript_fills_the_rules_and_keeps_the_names(
    client: FlaskClient,
) -> None:
    form = new_session_form(FOUR, preset="tournament", use_preset="1")
    response = client.post("/sessions/new", data=form)
    assert response.status_code == 200
    page = text(response)
    assert re.search(r'id="seconds_per_turn"[^>]*value="60"', page)
    assert 'value="Cy"' in page


def test_our_last_settings_without_javascript_fill_the_last_rules(client: FlaskClient) -> None:
    # Once a bug: "Our last settings" and Use preset filled in the Standard rules.
    new_session_by_form(client, FOUR, joker_penalty="25")
    form = new_session_form(FOUR, preset="", use_preset="1", joker_penalty="30")
    page = text(client.post("/sessions/new", data=form))
    assert re.search(r'id="joker_penalty"[^>]*value="25"', page)
    assert 'value="Cy"' in page


def test_the_familys_last_settings_are_the_next_defaults(client: FlaskClient) -> None:
    new_session_by_form(client, FOUR, joker_penalty="25")
    page = text(client.get("/sessions/new"))
    assert re.search(r'id="joker_penalty"[^>]*value="25"', page)
    assert '<option value="Ann">' in page  # names played before, without JavaScript


def test_went_out_round_records_the_derived_scores(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR)
    page = text(client.get(f"/sessions/{sid}/rounds/new"))
    assert "Who went out?" in page
    assert 'inputmode="numeric"' in page
    assert 'autocomplete="off"' in page  # on the form, for every field
    # A seat's field carries only its own: text is the default type, a blank value no attribute
    # (round.js adds Enter's key hint and the score shown beside it).
    assert '<input id="rack_1" inputmode="numeric" name="rack_1">' in page
    response = client.post(
        f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "22", 2: "55", 3: "8"})
    )
    assert response.status_code == 302
    assert table(app, sid).rounds[0].scores == {"Ann": 85, "Bo": -22, "Cy": -55, "Di": -8}
    shown = text(client.get(f"/sessions/{sid}"))
    assert "+85" in shown
    assert "-55" in shown
    assert "Round 2 of 3" in shown


def test_pool_empty_round_uses_difference_scoring(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR)
    page = text(client.get(f"/sessions/{sid}/rounds/new?ending=pool_empty"))
    assert "Tile counts (only for ties or the fewest-tiles rule)" in page
    form = {"ending": "pool_empty", "rack_0": "10", "rack_1": "22", "rack_2": "55", "rack_3": "8"}
    assert client.post(f"/sessions/{sid}/rounds/new", data=form).status_code == 302
    view = table(app, sid)
    assert view.rounds[0].winner == "Di"
    assert view.rounds[0].scores == {"Ann": -2, "Bo": -14, "Cy": -47, "Di": 63}


def test_pool_empty_tie_asks_who_takes_the_round(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR)
    form = {"ending": "pool_empty", "rack_0": "10", "rack_1": "10", "rack_2": "55", "rack_3": "18"}
    response = client.post(f"/sessions/{sid}/rounds/new", data=form)
    assert response.status_code == 422
    page = text(response)
    assert "Who takes the round?" in page
    assert '<details class="more counts" open>' in page
    assert re.search(r'<label for="winner-0">Ann</label>', page)
    assert re.search(r'<label for="winner-1">Bo</label>', page)
    assert 'for="winner-2"' not in page  # only the tied players are offered
    chosen = client.post(f"/sessions/{sid}/rounds/new", data={**form, "winner": "1"})
    assert chosen.status_code == 302
    assert table(app, sid).rounds[0].scores == {"Ann": 0, "Bo": 53, "Cy": -45, "Di": -8}


def test_paper_scores_are_refused_until_they_add_up(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR)
    page = text(client.get(f"/sessions/{sid}/rounds/new?ending=scores"))
    assert 'pattern="-?[0-9]*"' in page
    printed = {"ending": "scores", "score_0": "6", "score_1": "-11", "score_2": "22"}
    response = client.post(f"/sessions/{sid}/rounds/new", data={**printed, "score_3": "-5"})
    assert response.status_code == 422
    page = text(response)
    assert "Adds up to +12: someone counted a rack wrong." in page
    assert 'value="-11"' in page
    assert table(app, sid).rounds == ()
    corrected = {**printed, "score_0": "-6", "score_3": "-5"}
    assert client.post(f"/sessions/{sid}/rounds/new", data=corrected).status_code == 302
    assert table(app, sid).rounds[0].scores == {"Ann": -6, "Bo": -11, "Cy": 22, "Di": -5}


def test_a_blank_rack_is_an_error_not_a_zero(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR)
    response = client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "", 2: "55"}))
    assert response.status_code == 422
    page = text(response)
    assert error_next_to(page, "rack_1") == "Bo: enter what is left."
    assert error_next_to(page, "rack_3") == "Di: enter what is left."
    assert 'value="55"' in page
    assert re.search(r'<input checked[^>]* id="winner-0"', page)
    assert table(app, sid).rounds == ()


def test_a_typo_asks_for_confirmation_then_is_kept_with_its_mark(
    client: FlaskClient, app: Flask
) -> None:
    sid = new_session_by_form(client, FOUR)
    form = went_out_form(0, {1: "222", 2: "55", 3: "8"}, key="k1")
    response = client.post(f"/sessions/{sid}/rounds/new", data=form)
    assert response.status_code == 409
    page = text(response)
    # Asked once, in the numbers typed, with the confirmation; nothing under the field.
    assert page.count("Bo: 222 on the rack, more than 180. Right?") == 1
    assert '<label for="confirm">Yes, 222 is right</label>' in page
    assert 'id="rack_1-error"' not in page
    assert 'class="row seat flagged"' in page
    assert 'value="222"' in page
    assert 'value="k1"' in page  # the same key: still one round however often it is sent
    assert table(app, sid).rounds == ()
    response = client.post(f"/sessions/{sid}/rounds/new", data={**form, "confirm": "y"})
    assert response.status_code == 302
    assert table(app, sid).rounds[0].scores["Bo"] == -222
    shown = text(client.get(f"/sessions/{sid}"))
    assert 'aria-label="confirmed unusual entry"' in shown
    assert "⚠" in shown
    edit = text(client.get(f"/sessions/{sid}/rounds/1/edit"))
    assert re.search(r'<input checked[^>]* id="confirm"', edit)  # stays confirmed on an edit


def test_the_same_key_posted_twice_stores_one_round(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR)
    form = went_out_form(0, {1: "22", 2: "55", 3: "8"}, key="double-tap")
    first = client.post(f"/sessions/{sid}/rounds/new", data=form)
    second = client.post(f"/sessions/{sid}/rounds/new", data=form)
    assert first.status_code == second.status_code == 302
    assert len(table(app, sid).rounds) == 1


def test_each_new_round_form_carries_a_fresh_key(client: FlaskClient) -> None:
    sid = new_session_by_form(client, FOUR)
    keys = [
        re.search(r'name="key" type="hidden" value="([0-9a-f]{32})"', text(r))
        for r in (
            client.get(f"/sessions/{sid}/rounds/new"),
            client.get(f"/sessions/{sid}/rounds/new"),
        )
    ]
    assert keys[0] and keys[1]
    assert keys[0][1] != keys[1][1]


def test_editing_a_round_changes_its_scores(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR)
    client.post(
        f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "22", 2: "r7 k13 j", 3: "8"})
    )
    shown = text(client.get(f"/sessions/{sid}"))
    assert "<summary>3 tiles</summary>" in shown
    page = text(client.get(f"/sessions/{sid}/rounds/1/edit"))
    assert "Edit round 1" in page
    assert re.search(r'id="rack_1"[^>]* value="22"', page)
    assert re.search(r'<input checked[^>]* id="winner-0"', page)
    assert 'value="k13 r7 j"' in page
    response = client.post(
        f"/sessions/{sid}/rounds/1/edit", data=went_out_form(1, {0: "10", 2: "5", 3: "3"})
    )
    assert response.status_code == 302
    view = table(app, sid)
    assert len(view.rounds) == 1
    assert view.rounds[0].scores == {"Ann": -10, "Bo": 18, "Cy": -5, "Di": -3}


def test_delete_then_undo_restores_the_round(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR)
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "22", 2: "55", 3: "8"}))
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(1, {0: "5", 2: "10", 3: "3"}))
    assert "Delete round 1?" in text(client.get(f"/sessions/{sid}/rounds/1/delete"))
    response = client.post(f"/sessions/{sid}/rounds/1/delete")
    assert response.status_code == 302
    assert [r.scores["Bo"] for r in table(app, sid).rounds] == [18]
    page = text(client.get(f"/sessions/{sid}"))
    assert "Round 1 deleted." in page
    assert f'action="/sessions/{sid}/rounds/restore"' in page
    assert client.post(f"/sessions/{sid}/rounds/restore").status_code == 302
    view = table(app, sid)
    assert [r.scores["Bo"] for r in view.rounds] == [-22, 18]
    assert "Round 1 deleted." not in text(client.get(f"/sessions/{sid}"))
    client.post(f"/sessions/{sid}/rounds/restore")  # a second tap puts nothing back twice
    assert len(table(app, sid).rounds) == 2


def test_undo_is_withdrawn_once_the_table_changed(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR)
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "22", 2: "55", 3: "8"}))
    client.post(f"/sessions/{sid}/rounds/1/delete")
    api_round = {"ending": "went_out", "winner": "Bo", "racks": {"Ann": 5, "Cy": 1, "Di": 2}}
    assert client.post(f"/api/v1/sessions/{sid}/rounds", json=api_round).status_code == 201
    assert "Round 1 deleted." not in text(client.get(f"/sessions/{sid}"))
    client.post(f"/sessions/{sid}/rounds/restore")
    assert [r.scores["Bo"] for r in table(app, sid).rounds] == [8]


def test_extend_adds_a_round_to_the_plan(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR, rounds="1")
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "22", 2: "55", 3: "8"}))
    page = text(client.get(f"/sessions/{sid}"))
    assert "Ann wins!" in page
    assert "Add round</a>" not in page
    assert client.post(f"/sessions/{sid}/extend").status_code == 302
    assert table(app, sid).rounds_planned == 2
    page = text(client.get(f"/sessions/{sid}"))
    assert "Round 2 of 2" in page
    assert "Add round</a>" in page


def test_shared_win_is_announced(client: FlaskClient) -> None:
    sid = new_session_by_form(client, FOUR, rounds="2")
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "10", 2: "5", 3: "5"}))
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(1, {0: "10", 2: "5", 3: "5"}))
    assert "Ann and Bo share the win!" in text(client.get(f"/sessions/{sid}"))


def test_rename_keeps_past_scores_under_the_new_name(client: FlaskClient, app: Flask) -> None:
    sid = new_session_by_form(client, FOUR)
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(0, {1: "22", 2: "55", 3: "8"}))
    renamed = client.post(f"/sessions/{sid}/players/1/rename", data={"name": "Bob"})
    assert renamed.status_code == 302
    view = table(app, sid)
    assert view.players == ("Ann", "Bob", "Cy", "Di")
    assert view.rounds[0].scores["Bob"] == -22
    response = client.post(f"/sessions/{sid}/players/1/rename", data={"name": "ann"})
    assert response.status_code == 422
    assert "ann is already playing" in text(response)


def test_the_session_page_links_to_its_notes_names_and_rules(client: FlaskClient) -> None:
    sid = new_session_by_form(client, FOUR)
    page = text(client.get(f"/sessions/{sid}"))
    for anchor, label in (("notes", "Add notes"), ("rename", "Rename a player")):
        assert f'<a href="{sid}/details#{anchor}">{label}</a>' in page
    assert f'<a href="{sid}/details#rules">Rules of this session</a>' in page
    assert "<textarea" not in page and "<dl" not in page  # they live on the details page
    details = text(client.get(f"/sessions/{sid}/details"))
    assert 'id="notes"' in details and 'id="rename"' in details and 'id="rules"' in details
    assert "<dt>Minimum initial meld</dt><dd>30</dd>" in details
    assert f'href="/sessions/{sid}">← Back to the table</a>' in details
    assert client.get("/sessions/999/details").status_code == 404
    # The page's one rename form names the seat; a refusal comes back on the details page,
    # with the seat still chosen and the name as typed.
    renamed = client.post(f"/sessions/{sid}/rename", data={"position": "2", "name": "Cyd"})
    assert renamed.status_code == 302
    assert "Renamed to Cyd." in text(client.get(f"/sessions/{sid}"))
    refused = client.post(f"/sessions/{sid}/rename", data={"position": "1", "name": "ann"})
    assert refused.status_code == 422
    page = text(refused)
    assert "ann is already playing" in page and 'id="rename"' in page
    assert '<option selected value="1">Bo</option>' in page
    assert client.post(f"/sessions/{sid}/rename", data={"name": "Bob"}).status_code == 400
    assert (
        client.post(f"/sessions/{sid}/rename", data={"position": "9", "name": "X"}).status_code
        == 404
    )


def test_names_are_escaped_on_every_page(client: FlaskClient) -> None:
    evil = "<script>alert(1)</script>"
    sid = new_session_by_form(client, [evil, "Bo"], name=evil)
    client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(1, {0: "12"}))
    pages = [
        "/",
        "/sessions/new",
        f"/sessions/{sid}",
        f"/sessions/{sid}/rounds/new",
        f"/sessions/{sid}/rounds/new?ending=scores",
        f"/sessions/{sid}/rounds/1/edit",
        f"/sessions/{sid}/rounds/1/delete",
        f"/sessions/{sid}/details",
    ]
    for url in pages:
        page = client.get(url).get_data(as_text=True)
        assert evil not in page, url
        assert "&lt;script&gt;" in page, url
    failed = client.post(f"/sessions/{sid}/rounds/new", data=went_out_form(1, {}))
    assert evil not in failed.get_data(as_text=True)


def test_six_players_fit_a_phone_without_sideways_scrolling(client: FlaskClient) -> None:
    six = ["Alexandra", "Bartholomew", "Cy", "Dorothea", "Eero", "Łukasz"]
    sid = new_session_by_form(client, six, tile_sets="2")
    page = text(client.get(f"/sessions/{sid}"))
    # Six long names: each column is headed by the seat's mark, the whole names listed above.
    assert '<table class="scores n6 initials">' in page
    assert '<ul class="legend" aria-hidden="true">' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    css = (STATIC / "live.css").read_text(encoding="utf-8")  # the session page's own styles
    rule = re.search(r"\.scores \{([^}]*)\}", css)
    assert rule
    assert "table-layout: fixed" in rule[1]
    assert "width: 100%" in rule[1]
    assert "text-overflow: ellipsis" not in css  # no name is cut: they break between words
    # The session page's stylesheet, as served (minified, web/assets.py), stays small.
    served = re.search(
        r'<link rel="stylesheet" href="(/static/app\.live\.[0-9a-f]{10}\.css)">', page
    )
    assert served
    assert len(client.get(served[1]).get_data()) < 12 * 1024  # test_page_weight.py: the page


def test_scripts_are_files_not_inline(client: FlaskClient) -> None:
    sid = new_session_by_form(client, FOUR)
    for url in ("/sessions/new", f"/sessions/{sid}/rounds/new"):
        page = client.get(url).get_data(as_text=True)
        scripts = re.findall(r"<script[^>]*>", page)
        assert scripts
        assert all(
            "src=" in tag or tag == '<script type="application/json" id="js-messages">'  # data
            for tag in scripts
        )
        # Only app.js (the colour theme first) runs before the page is drawn (so a dark page
        # never flashes white); every other script waits for the page.
        early = [tag for tag in scripts if "defer" not in tag and "src=" in tag]
        assert len(early) == 1
        assert re.fullmatch(r'<script src="/static/app\.[0-9a-f]{10}\.js" [^>]*>', early[0])
    assert (STATIC / "round.js").exists()


def test_unknown_ids_show_the_404_page(client: FlaskClient) -> None:
    sid = new_session_by_form(client, FOUR)
    for url in (
        "/sessions/99",
        "/sessions/99/rounds/new",
        f"/sessions/{sid}/rounds/7/edit",
        f"/sessions/{sid}/rounds/7/delete",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "There is nothing at this address" in text(response)
    assert client.post("/sessions/99/extend").status_code == 404


@pytest.fixture
def csrf_app(make_app: Callable[..., Flask]) -> Flask:
    """The app with CSRF protection on, as it runs for the family."""
    return make_app(WTF_CSRF_ENABLED=True)


def test_a_post_without_the_csrf_token_is_refused(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    refused = client.post("/sessions/new", data=new_session_form(FOUR))
    assert refused.status_code == 400
    with csrf_app.app_context():
        assert lists.list_sessions() == []
    page = client.get("/sessions/new").get_data(as_text=True)
    accepted = client.post(
        "/sessions/new", data=new_session_form(FOUR, csrf_token=csrf_token(page))
    )
    assert accepted.status_code == 302
    assert client.post("/sessions/1/extend").status_code == 400
    with csrf_app.app_context():
        assert views.get_session(1).rounds_planned == 3
