"""The turn clock page (set the seconds, who starts without JavaScript) and the no-JS rack in
tiles: the text field in notation, checked against the supply across racks."""

from __future__ import annotations

import re
from typing import Any

import pytest
from factories import error_next_to, new_session, text, went_out_form
from flask.testing import FlaskClient

from scorekeeper.rules import RulesError
from scorekeeper.rules.turns import turn_order, who_starts

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

FOUR = ["Ann", "Bo", "Cy", "Di"]


def rules_of(client: FlaskClient, session_id: int) -> dict[str, Any]:
    response = client.get(f"/api/v1/sessions/{session_id}")
    assert response.status_code == 200
    return dict(response.get_json()["rules"])


def input_tag(page: str, field_id: str) -> str:
    """The <input> of one field, whatever the order of its attributes."""
    match = re.search(rf'<input[^>]*\bid="{field_id}"[^>]*>', page)
    assert match, f"no input {field_id}"
    return match[0]


# ---- Who starts, in the rules ----


def test_the_highest_draw_starts_and_play_goes_round_from_them() -> None:
    drawn = who_starts({"Ann": 4, "Bo": 12, "Cy": 9})
    assert (drawn.starter, drawn.tied, drawn.highest) == ("Bo", (), 12)
    assert turn_order(["Ann", "Bo", "Cy", "Di"], "Cy") == ["Cy", "Di", "Ann", "Bo"]


def test_a_tie_for_the_highest_draws_again() -> None:
    drawn = who_starts({"Ann": 12, "Bo": 3, "Cy": 12})
    assert (drawn.starter, drawn.tied) == (None, ("Ann", "Cy"))


@pytest.mark.parametrize("number", [0, 14, True, "7"])
def test_a_draw_outside_1_to_13_is_refused(number: object) -> None:
    with pytest.raises(RulesError) as error:
        who_starts({"Ann": 5, "Bo": number})  # type: ignore[dict-item]
    assert error.value.code == "bad_draw"
    assert error.value.problems[0].field == "Bo"


# ---- The clock page ----


def test_clock_page_offers_setting_the_seconds_when_the_clock_is_off(
    client: FlaskClient,
) -> None:
    sid = new_session(client, FOUR)
    page = text(client.get(f"/sessions/{sid}/clock"))
    assert "The turn clock is off for this session." in page
    for seconds in (30, 60, 120):
        assert f'name="seconds" value="{seconds}"' in page
    assert 'id="clock"' not in page
    assert not re.search(r"/static/clock_page\.[0-9a-f]{10}\.js", page)
    rules = text(client.get(f"/sessions/{sid}/details"))  # linked from the session page
    assert f'href="/sessions/{sid}/clock">Turn clock: off' in rules


def test_clock_page_renders_the_countdown_for_a_session_with_seconds(
    client: FlaskClient,
) -> None:
    sid = new_session(client, FOUR, rules={"seconds_per_turn": 90, "penalty_tiles": 2})
    response = client.get(f"/sessions/{sid}/clock")
    assert response.status_code == 200
    page = text(response)
    assert '<section id="clock"' in page
    assert 'data-seconds="90"' in page
    assert 'data-penalty-tiles="2"' in page
    assert ">01:30</p>" in page
    assert 'data-players="["Ann", "Bo", "Cy", "Di"]"' in page
    assert re.search(r'<script src="/static/clock_page\.[0-9a-f]{10}\.js" defer>', page)
    assert "<script>" not in page  # the CSP forbids inline script: settings go in data-*
    assert "The turn clock is off" not in page
    table = text(client.get(f"/sessions/{sid}"))
    assert f'href="{sid}/clock">Turn clock · 90 s a turn' in table


@pytest.mark.parametrize(("sent", "stored"), [("60", 60), (" 120 ", 120), ("3", 3), ("0", 0)])
def test_setting_the_seconds_changes_the_session(
    client: FlaskClient, sent: str, stored: int
) -> None:
    sid = new_session(client, FOUR, rules={"seconds_per_turn": 30, "joker_penalty": 25})
    response = client.post(f"/sessions/{sid}/clock/seconds", data={"seconds": sent})
    assert response.status_code == 302
    assert response.headers["Location"] == f"/sessions/{sid}/clock"
    rules = rules_of(client, sid)
    assert rules["seconds_per_turn"] == stored
    assert rules["joker_penalty"] == 25  # the other settings stay
    shown = text(client.get(f"/sessions/{sid}/clock"))
    assert ("The turn clock is off." if stored == 0 else f"Seconds per turn: {stored}.") in shown


def test_setting_the_seconds_moves_the_session_version_on(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    before = client.get(f"/api/v1/sessions/{sid}").get_json()["version"]
    client.post(f"/sessions/{sid}/clock/seconds", data={"seconds": "60"})
    assert client.get(f"/api/v1/sessions/{sid}").get_json()["version"] == before + 1


@pytest.mark.parametrize(
    ("sent", "message"),
    [
        ("", "Enter the seconds per turn"),
        ("abc", "Seconds per turn is a whole number"),
        ("-5", "Seconds per turn is a whole number"),
        ("4000", "Seconds per turn must be a whole number from 0 to 3600."),
    ],
)
def test_a_wrong_number_of_seconds_is_shown_next_to_the_field(
    client: FlaskClient, sent: str, message: str
) -> None:
    sid = new_session(client, FOUR)
    response = client.post(f"/sessions/{sid}/clock/seconds", data={"seconds": sent})
    assert response.status_code == 422
    assert message in error_next_to(text(response), "seconds")
    assert rules_of(client, sid)["seconds_per_turn"] == 0


def test_the_clock_of_a_missing_session_is_not_found(client: FlaskClient) -> None:
    assert client.get("/sessions/999/clock").status_code == 404
    assert client.post("/sessions/999/clock/seconds", data={"seconds": "60"}).status_code == 404
    assert client.post("/sessions/999/clock/start", data={}).status_code == 404


def test_who_starts_without_javascript_picks_the_highest(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rules={"seconds_per_turn": 60})
    draws = {"drawn_0": "4", "drawn_1": "9", "drawn_2": "11", "drawn_3": "2"}
    response = client.post(f"/sessions/{sid}/clock/start", data=draws)
    assert response.status_code == 200
    page = text(response)
    assert "Cy starts (drew 11)." in page
    assert "Then Di, Ann and Bo, in seating order." in page
    assert 'data-starter="2"' in page


def test_who_starts_reports_a_tie_and_only_the_tied_draw_again(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rules={"seconds_per_turn": 60})
    draws = {"drawn_0": "12", "drawn_1": "9", "drawn_2": "12", "drawn_3": "2"}
    page = text(client.post(f"/sessions/{sid}/clock/start", data=draws))
    assert "Ann and Cy draw again (both drew 12)." in page
    assert 'name="drawing" type="hidden" value="0,2"' in page
    assert "disabled" in input_tag(page, "drawn_1")  # Bo is out of the redraw
    assert "disabled" not in input_tag(page, "drawn_0")
    # The redraw: only Ann's and Cy's numbers count, so Bo's earlier 9 cannot win now.
    again = {"drawing": "0,2", "drawn_0": "3", "drawn_2": "5"}
    page = text(client.post(f"/sessions/{sid}/clock/start", data=again))
    assert "Cy starts (drew 5)." in page
    assert "Then Di, Ann and Bo, in seating order." in page


def test_who_starts_refuses_a_missing_or_impossible_draw(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rules={"seconds_per_turn": 60})
    draws = {"drawn_0": "12", "drawn_1": "", "drawn_2": "14", "drawn_3": "x"}
    response = client.post(f"/sessions/{sid}/clock/start", data=draws)
    assert response.status_code == 422
    page = text(response)
    assert error_next_to(page, "drawn_1") == "Bo: enter the number of the tile drawn."
    assert error_next_to(page, "drawn_2") == "Cy: a drawn tile is numbered 1 to 13."
    assert error_next_to(page, "drawn_3") == "Di: a drawn tile is numbered 1 to 13."
    assert 'value="12"' in page  # what was typed stays


# ---- Who starts, a page of its own ----


def test_the_session_page_offers_who_starts_until_the_first_round(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)  # no turn clock: the draw is still there
    link = f'<a href="{sid}/who-starts">Who starts?</a>'  # relative to the page
    assert link in text(client.get(f"/sessions/{sid}"))
    racks = {"ending": "went_out", "winner": "0", "rack_1": "5", "rack_2": "5", "rack_3": "5"}
    assert client.post(f"/sessions/{sid}/rounds/new", data=racks).status_code == 302
    assert link not in text(client.get(f"/sessions/{sid}"))


def test_who_starts_page_draws_with_one_big_button(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    page = text(client.get(f"/sessions/{sid}/who-starts"))
    assert "<h1>Who starts?</h1>" in page
    assert re.search(
        r'<button type="submit" name="draw" value="for_us" class="big"[^>]*>Draw', page
    )
    assert f'action="/sessions/{sid}/who-starts"' in page
    for _ in range(20):  # a tie draws again, between the tied only
        response = client.post(f"/sessions/{sid}/who-starts", data={"draw": "for_us"})
        assert response.status_code == 200
        page = text(response)
        result = re.search(r'<p id="draw-result"[^>]*>([^<]*)</p>', page)
        assert result
        if "starts" in result[1]:
            break
        assert "draw again" in result[1]
    starter = re.fullmatch(r"(\w+) starts \(drew (\d+)\)\.", result[1])
    assert starter, result[1]
    assert starter[1] in FOUR and 1 <= int(starter[2]) <= 13
    assert f'value="{starter[2]}"' in input_tag(page, f"drawn_{FOUR.index(starter[1])}")


def test_who_starts_page_reads_the_tiles_typed(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    draws = {"drawn_0": "4", "drawn_1": "9", "drawn_2": "11", "drawn_3": "2"}
    page = text(client.post(f"/sessions/{sid}/who-starts", data=draws))
    assert "Cy starts (drew 11)." in page
    assert "Then Di, Ann and Bo, in seating order." in page
    draws["drawn_3"] = "x"
    response = client.post(f"/sessions/{sid}/who-starts", data=draws)
    assert response.status_code == 422
    assert error_next_to(text(response), "drawn_3") == "Di: a drawn tile is numbered 1 to 13."


def test_who_starts_of_a_missing_session_is_not_found(client: FlaskClient) -> None:
    assert client.get("/sessions/999/who-starts").status_code == 404
    assert client.post("/sessions/999/who-starts", data={"draw": "for_us"}).status_code == 404


# ---- The rack in tiles without JavaScript ----


def ann_went_out(racks: dict[int, str]) -> dict[str, str]:
    """The round form: Ann (seat 0) went out, the others' racks typed as tiles."""
    return went_out_form(0, racks, key="k-" + "-".join(racks.values()))


def test_the_rack_hint_says_how_to_type_tiles(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    page = text(client.get(f"/sessions/{sid}/rounds/new"))
    assert "r7 k13 j (k black, r red, b blue, o orange, j joker)" in page
    assert 'data-tile-sets="1" data-played-with="tiles"' in page
    # The keypad is fetched when first opened, by round.js: one script (the keys, tile_keys.js,
    # then the keypad) after its words, and its styles.
    words, script, styles = (
        rf"/static/{name}\.[0-9a-f]{{10}}"
        for name in ("words/en/round_keypad", "round_keypad", "keypad")
    )
    files = f"{words}\\.js {script}\\.js {styles}\\.css"
    assert re.search(rf'data-keypad="{files}"', page)
    # Without JavaScript the number pad has no letters: a link asks the page for the keyboard.
    assert 'inputmode="numeric"' in input_tag(page, "rack_1")
    raw = client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True)
    link = f'href="/sessions/{sid}/rounds/new?ending=went_out&amp;keyboard=letters"'
    assert re.search(rf"<noscript><p><a {re.escape(link)}>Type tiles with the letter", raw)
    letters = text(client.get(f"/sessions/{sid}/rounds/new?keyboard=letters"))
    assert 'inputmode="text"' in input_tag(letters, "rack_1")
    assert "<noscript>" not in letters


def test_cards_sessions_say_how_to_type_cards(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rules={"played_with": "cards"})
    page = text(client.get(f"/sessions/{sid}/rounds/new"))
    assert "h7 sK dA j (s spades, h hearts, d diamonds, c clubs, j joker)" in page
    assert 'data-played-with="cards"' in page


def test_a_third_red_7_in_one_set_is_refused_next_to_the_racks(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    response = client.post(f"/sessions/{sid}/rounds/new", data=ann_went_out({1: "r7 r7", 2: "r7"}))
    assert response.status_code == 422
    page = text(response)
    message = "red 7 entered 3 times; a single set has 2."
    assert error_next_to(page, "rack_1") == message
    assert error_next_to(page, "rack_2") == message
    assert 'value="r7 r7"' in page  # what was typed stays, in the letters keyboard
    assert 'inputmode="text"' in input_tag(page, "rack_1")
    assert client.get(f"/api/v1/sessions/{sid}").get_json()["rounds"] == []


def test_three_red_7s_fit_two_sets_and_the_table_shows_the_tiles(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rules={"tile_sets": 2})
    form = ann_went_out({1: "r7 r7", 2: "r7", 3: "j k13 o1"})
    response = client.post(f"/sessions/{sid}/rounds/new", data=form)
    assert response.status_code == 302, text(response)
    stored = client.get(f"/api/v1/sessions/{sid}/rounds/1").get_json()
    assert stored["scores"] == {"Ann": 65, "Bo": -14, "Cy": -7, "Di": -44}
    page = text(client.get(f"/sessions/{sid}"))
    assert "<summary>2 tiles</summary><span>r7 r7</span></details>" in page
    assert "<summary>1 tile</summary><span>r7</span>" in page
    assert "<summary>3 tiles</summary><span>k13 o1 j</span>" in page


def test_a_bad_tile_is_shown_next_to_its_rack(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    response = client.post(f"/sessions/{sid}/rounds/new", data=ann_went_out({1: "r7 x9", 2: "5"}))
    assert response.status_code == 422
    assert "“x9” is not a tile" in error_next_to(text(response), "rack_1")


def test_cards_are_stored_and_shown_as_cards(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rules={"played_with": "cards"})
    form = ann_went_out({1: "hq ♦A s10", 2: "j", 3: "c2"})
    assert client.post(f"/sessions/{sid}/rounds/new", data=form).status_code == 302
    page = text(client.get(f"/sessions/{sid}"))
    assert "<summary>3 cards</summary><span>s10 hQ dA</span></details>" in page
    stored = client.get(f"/api/v1/sessions/{sid}/rounds/1").get_json()
    assert stored["scores"]["Bo"] == -(12 + 1 + 10)
    assert stored["scores"]["Cy"] == -30
