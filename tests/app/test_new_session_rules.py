"""Nothing changes the scoring silently: the new-session page says, right above Start, every
rule apart from the standard set (as last time, or as in the session a rematch repeats), and
five or six names switch to two tile sets by themselves and say so (the page without scripts;
tests/browser/test_new_session_browser.py has the script's side)."""

from __future__ import annotations

import re

import pytest
from factories import new_session_by_form, new_session_form, text
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules.settings import Settings
from scorekeeper.services import lists, views

pytestmark = pytest.mark.shared_app

FOUR = ["Ann", "Bo", "Cy", "Di"]
SIX = ["Ann", "Bo", "Cy", "Di", "Eve", "Fin"]


def rules_line(page: str) -> tuple[str, list[tuple[str, str]]]:
    """What the line above Start says first, and each rule's link (target, words)."""
    match = re.search(r'<p class="rules-said" id="rules-said"([^>]*)>(.*?)</p>', page, re.S)
    assert match, "no rules line"
    if " hidden" in match[1]:
        return "", []
    first = re.search(r'<span class="first">([^<]*)</span>', match[2])
    links = re.findall(r'<a href="#([^"]+)" data-rule="[^"]+">([^<]*)</a>', match[2])
    return (first[1] if first else ""), links


def before_start(page: str, snippet: str) -> None:
    """The snippet is on the page between the rules and the Start button."""
    start = page.index('<button type="submit" class="big">Start the session</button>')
    assert page.rindex("Each rule") < page.index(snippet) < start


def test_the_player_count_decides_the_tile_sets_once() -> None:
    from scorekeeper.rules.players import differing_rules, standard_for, tile_sets_for

    assert [tile_sets_for(n) for n in range(2, 8)] == [1, 1, 1, 2, 2, 2]
    assert standard_for(6) == Settings(tile_sets=2)
    assert differing_rules(Settings(tile_sets=2).to_dict(), 6) == ()
    named = [s.name for s in differing_rules(Settings(tile_sets=2).to_dict(), 4)]
    assert named == ["tile_sets"]


def test_a_first_evening_says_no_rules(client: FlaskClient) -> None:
    assert rules_line(text(client.get("/sessions/new"))) == ("", [])


def test_the_rules_carried_from_a_six_player_evening_are_said_above_start(
    client: FlaskClient,
) -> None:
    new_session_by_form(client, SIX, tile_sets="2", drop_worst_round="y")
    page = text(client.get("/sessions/new"))
    first, links = rules_line(page)
    assert first == "As last time:"
    assert links == [
        ("tile_sets", "Number of tile sets: 2 (5-6 players)"),
        ("drop_worst_round", "Drop each player's worst round"),
    ]
    before_start(page, "As last time:")


def test_a_rule_switched_off_or_a_number_is_said_with_its_value(client: FlaskClient) -> None:
    new_session_by_form(client, FOUR, jokers_retrievable="", joker_penalty="50", winner_bonus="100")
    form = new_session_form(FOUR, joker_penalty="50", winner_bonus="100", rounds="0")
    del form["jokers_retrievable"]
    page = text(client.post("/sessions/new", data=form))  # refused (0 rounds): said again
    first, links = rules_line(page)
    assert first == "As last time:"
    assert [words for _, words in links] == [
        "Jokers may be retrieved from the table: off",
        "Joker penalty: 50",
        "Winner bonus: 100",
    ]


def test_rules_changed_from_the_last_ones_are_not_said_as_last_time(
    client: FlaskClient,
) -> None:
    new_session_by_form(client, FOUR)
    page = text(
        client.post("/sessions/new", data=new_session_form(FOUR, joker_penalty="40", rounds="0"))
    )
    assert rules_line(page) == ("Not the printed rules:", [("joker_penalty", "Joker penalty: 40")])


def test_a_rematch_takes_the_rules_of_the_session_it_repeats(
    client: FlaskClient, app: Flask
) -> None:
    repeated = new_session_by_form(client, FOUR, name="Sunday", drop_worst_round="y")
    # The latest session: other rules.
    new_session_by_form(client, ["Gus", "Hal"], joker_penalty="25")
    page = text(client.get(f"/sessions/new?again={repeated}"))
    first, links = rules_line(page)
    assert first == "As in Sunday:"
    assert links == [("drop_worst_round", "Drop each player's worst round")]
    assert re.search(r'id="joker_penalty"[^>]*value="30"', page)
    assert f'action="/sessions/new?again={repeated}"' in page
    again = create_from(client, f"/sessions/new?again={repeated}", FOUR, drop_worst_round="y")
    with app.app_context():
        assert views.get_session(again).settings.drop_worst_round


def create_from(client: FlaskClient, url: str, players: list[str], **changes: str) -> int:
    response = client.post(url, data=new_session_form(players, **changes))
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_six_names_sent_without_scripts_start_with_two_tile_sets_and_say_so(
    client: FlaskClient, app: Flask
) -> None:
    response = client.post("/sessions/new", data=new_session_form(SIX))
    assert response.status_code == 302
    page = text(client.get(response.headers["Location"]))
    assert "6 players: two tile sets." in page
    with app.app_context():
        (made,) = lists.list_sessions()
        assert views.get_session(made.id).settings.tile_sets == 2


def test_five_names_refused_for_another_reason_keep_two_tile_sets_and_say_so(
    client: FlaskClient,
) -> None:
    page = text(client.post("/sessions/new", data=new_session_form([*FOUR, "Eve"], rounds="0")))
    assert '<p class="hint" id="players-sets" role="status">5 players: two tile sets.</p>' in page
    assert re.search(r'<option selected value="2">|<option value="2" selected>', page)
    assert rules_line(page) == ("", [])  # two tile sets are the standard for five


def test_four_names_keep_the_tile_sets_set(client: FlaskClient, app: Flask) -> None:
    new_session_by_form(client, FOUR)
    with app.app_context():
        assert views.get_session(1).settings.tile_sets == 1


def test_draw_who_starts_first_opens_the_draw_and_is_remembered(client: FlaskClient) -> None:
    box = re.compile(r'<input[^>]*id="draw_first"[^>]*>')
    found = box.search(text(client.get("/sessions/new")))
    assert found and "checked" not in found[0]
    response = client.post("/sessions/new", data=new_session_form(FOUR, draw_first="y"))
    assert response.status_code == 302
    assert re.fullmatch(r"/sessions/\d+/who-starts", response.headers["Location"])
    found = box.search(text(client.get("/sessions/new")))
    assert found and "checked" in found[0]  # this phone's choice, the next time
    response = client.post("/sessions/new", data=new_session_form(FOUR))
    assert re.fullmatch(r"/sessions/\d+", response.headers["Location"])
    found = box.search(text(client.get("/sessions/new")))
    assert found and "checked" not in found[0]


def test_a_rematch_of_a_session_named_after_its_day_says_the_day(client: FlaskClient) -> None:
    repeated = new_session_by_form(client, FOUR, drop_worst_round="y")  # no name: called by its day
    page = text(client.get(f"/sessions/new?again={repeated}"))
    first, _ = rules_line(page)
    day = re.search(r"<h1>([^<]+)</h1>", text(client.get(f"/sessions/{repeated}")))
    assert day
    assert first == f"As in {day[1]}:"
    assert f">Rules of {day[1]}</option>" in page
