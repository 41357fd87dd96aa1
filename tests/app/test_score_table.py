"""The session page's score table, its top and its actions (issue #25, findings 3 to 5): one
number a cell, the Total row with each player's place and the lead in words (in every
language), one colour rule for scores and totals, the name and the round on one line, the
winner's banner first in the winner's seat colour, one primary action at a time."""

from __future__ import annotations

import re

from factories import add_round, new_session, paper
from flask.testing import FlaskClient

API = "/api/v1"
FOUR = ["Sofie", "Peter", "Anders", "Mormor"]


def scores(client: FlaskClient, sid: int, **by_name: int) -> None:
    add_round(client, sid, paper(**by_name) | {"confirm": True})


def page(client: FlaskClient, sid: int, path: str = "", **headers: str) -> str:
    return client.get(f"/sessions/{sid}{path}", headers=headers).get_data(as_text=True)


def cells(html: str) -> list[list[str]]:
    """Each round's row of the table: its cells as the HTML has them."""
    body = html.split('<tbody class="neg">')[1].split("</tbody>")[0]
    return [re.split(r"<td[^>]*>", row)[1:] for row in body.split("<tr>")[1:]]


def totals_row(html: str) -> list[tuple[str, str, str]]:
    """Each total: its cell's class, the total and the place under it."""
    foot = html.split('<tr class="totals">')[1].split("</tr>")[0]
    return re.findall(r'<td class="([^"]*)"><b>([^<]+)</b>(?:<small>([^<]+)</small>)?', foot)


def test_a_cell_holds_the_round_score_alone(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    scores(client, sid, Sofie=72, Peter=-8, Anders=-41, Mormor=-23)
    scores(client, sid, Sofie=-30, Peter=47, Anders=-5, Mormor=-12)
    html = page(client, sid)
    # The second round's cells: its scores, no running total (-38, +39, -46, -35) after them.
    assert [cell.strip() for cell in cells(html)[1]] == ["-30", "+47", "-5", "-12"]
    for total in ("+39", "-46", "-35"):
        assert total not in html.split("<tfoot>")[0]


def level(client: FlaskClient, sid: int) -> None:
    """Two rounds that leave Sofie and Peter level on +50, Anders -30, Mormor -70."""
    scores(client, sid, Sofie=60, Peter=-20, Anders=-10, Mormor=-30)
    scores(client, sid, Sofie=-10, Peter=70, Anders=-20, Mormor=-40)


def test_the_total_row_says_each_place_ties_sharing_one(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    level(client, sid)
    assert totals_row(page(client, sid)) == [
        ("pos leader", "+50", "1st"),
        ("pos leader", "+50", "1st"),
        ("neg", "-30", "3rd"),
        ("neg", "-70", "4th"),
    ]


def test_the_lead_in_words(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rounds=3)
    assert "lead-words" not in page(client, sid)  # no round yet: nobody leads
    level(client, sid)
    assert '<p class="lead-words">Sofie and Peter are level</p>' in page(client, sid)
    scores(client, sid, Sofie=12, Peter=-1, Anders=-5, Mormor=-6)
    # The evening is over: who won, by how much over the next.
    assert '<p class="lead-words">Sofie won by 13 points</p>' in page(client, sid)
    other = new_session(client, FOUR)
    scores(client, other, Sofie=11, Peter=-1, Anders=-1, Mormor=-9)
    assert '<p class="lead-words">Sofie leads Peter and Anders by 12 points</p>' in page(
        client, other
    )
    scores(client, other, Sofie=-1, Peter=12, Anders=-5, Mormor=-6)
    # Totals +10, +11, -6, -15: one point, said in the singular.
    assert '<p class="lead-words">Peter leads Sofie by 1 point</p>' in page(client, other)


def test_the_lead_in_words_in_other_languages(client: FlaskClient) -> None:
    sid = new_session(client, FOUR)
    scores(client, sid, Sofie=22, Peter=-1, Anders=-10, Mormor=-11)
    for lang, words in (
        ("da", "Sofie fører med 23 point foran Peter"),
        ("pl", "Sofie prowadzi przed Peter o 23 punkty"),
        ("fr", "Sofie devance Peter de 23 points"),
    ):
        html = page(client, sid, **{"Accept-Language": lang})
        assert f'<p class="lead-words">{words}</p>' in html, lang
    scores(client, sid, Sofie=-20, Peter=-6, Anders=27, Mormor=-1)
    # Totals +2, -7, +17, -12. Polish counts 15 in the genitive plural: "o 15 punktów".
    html = page(client, sid, **{"Accept-Language": "pl"})
    assert '<p class="lead-words">Anders prowadzi przed Sofie o 15 punktów</p>' in html


def test_one_colour_rule_for_scores_and_totals(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rounds=1)
    scores(client, sid, Sofie=30, Peter=0, Anders=-10, Mormor=-20)
    html = page(client, sid)
    # The rounds' body is the losers' ink; a positive score says pos, a zero says zero.
    row = html.split('<tbody class="neg">')[1].split("</tbody>")[0]
    assert re.findall(r"<td(?: class=\"(\w+)\")?>([^<]+)", row) == [
        ("pos", "+30"),
        ("zero", "0"),
        ("", "-10"),
        ("", "-20"),
    ]
    assert [cls.split()[0] for cls, _, _ in totals_row(html)] == ["pos", "zero", "neg", "neg"]
    summary = page(client, sid, "/summary")
    assert '<strong class="pos">+30</strong>' in summary
    assert '<strong class="zero">0</strong>' in summary
    assert '<strong class="neg">-20</strong>' in summary


def test_the_top_is_the_name_and_the_round_on_one_line(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rounds=3)
    html = page(client, sid)
    top = html.split('<div class="top">')[1].split("</div>")[0]
    assert re.search(
        r'<h1>[^<]+</h1>\s*<strong id="round-of" class="pill">Round 1 of 3</strong>', top
    )
    assert "announce" not in html


def test_the_winner_banner_comes_first_in_the_winner_seat_colour(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rounds=1)
    scores(client, sid, Sofie=-30, Peter=-10, Anders=60, Mormor=-20)
    html = page(client, sid)
    live = html.split('id="live"')[1]
    # Anders sits third: the banner in seat 3's colour, before the name, the rounds played in it.
    assert live.index('class="announce s3"') < live.index("<h1>")
    banner = live.split('class="announce s3"')[1].split("</p>")[0]
    assert "Anders wins!" in banner and "All 1 rounds played" in banner
    assert 'id="round-of"' in banner and html.count('id="round-of"') == 1
    # The summary's banner too.
    assert '<p class="announce s3">' in page(client, sid, "/summary")
    # A shared win: the banner in no one seat's colour.
    tied = new_session(client, FOUR, rounds=2)
    level(client, tied)
    html = page(client, tied)
    assert 'class="announce"' in html and "Sofie and Peter share the win!" in html
    assert "lead-words" not in html  # the banner says it


def primary_actions(html: str) -> list[str]:
    """The filled buttons and button-links of the live part and its quiet row: what has no
    quiet class (secondary, switch) and is not in the quiet row or the Who-went-out picks."""
    live = html.split('id="live"')[1].split("</main>")[0]
    live = re.sub(r'<div class="more-actions">.*?</div>', "", live, flags=re.S)
    live = re.sub(r'<section class="went-out.*?</section>', "", live, flags=re.S)
    found = re.findall(r'<a class="button[^"]*"[^>]*>([^<]+)</a>', live)
    found += re.findall(r"<button(?![^>]*class=\"(?:secondary|switch))[^>]*>([^<]+)</button>", live)
    return found


def test_one_primary_action_at_a_time(client: FlaskClient) -> None:
    sid = new_session(client, FOUR, rounds=1)
    assert primary_actions(page(client, sid)) == ["Add round"]
    scores(client, sid, Sofie=-30, Peter=-10, Anders=60, Mormor=-20)
    html = page(client, sid)
    assert primary_actions(html) == ["New session with the same players"]
    # The rest in the quiet row: one more round, the summary.
    quiet = html.split('<div class="more-actions">')[1].split("</div>")[0]
    assert "Play one more round (2 in all)" in quiet and "Summary to print or share" in quiet
    # "Keep the screen on" a switch that says its state, not a second button.
    assert re.search(
        r'<button type="button" id="keep-awake" class="switch" aria-pressed="false"', html
    )


# --- drop-worst: the table, the chart and the Total tell one story (issue #24, item 7) ------


def drop_worst_evening(client: FlaskClient) -> int:
    """Three rounds with drop-worst: Sofie drops round 2 (-30), Peter round 1 (-8), Anders
    round 1 (-41), Mormor round 3 (-40). Totals +62, +102, -10, -35."""
    sid = new_session(client, FOUR, rules={"drop_worst_round": True})
    scores(client, sid, Sofie=72, Peter=-8, Anders=-41, Mormor=-23)
    scores(client, sid, Sofie=-30, Peter=47, Anders=-5, Mormor=-12)
    scores(client, sid, Sofie=-10, Peter=55, Anders=-5, Mormor=-40)
    return sid


def test_a_dropped_cell_is_struck_out_once_with_a_hidden_word(client: FlaskClient) -> None:
    sid = drop_worst_evening(client)
    html = page(client, sid)
    sofie_round_2 = cells(html)[1][0]
    assert "<s>-30</s>" in sofie_round_2
    # one visible mark (the strike); the word is for screen readers only
    assert '<span class="visually-hidden"> dropped</span>' in sofie_round_2
    assert "<small>" not in sofie_round_2
    # the Dropped row stays, with the round
    dropped_row = html.split('<tr class="dropped-row">')[1].split("</tr>")[0]
    assert "<s>-30</s> <small>round 2</small>" in dropped_row
    assert [t for _, t, _ in totals_row(html)] == ["+62", "+102", "-10", "-35"]


def test_the_chart_ends_at_the_total_and_rings_each_dropped_round(client: FlaskClient) -> None:
    sid = drop_worst_evening(client)
    svg = client.get(f"/sessions/{sid}/chart.svg").get_data(as_text=True)
    # the lines end where the Total row does, after the drop (not at the raw sums +32, +94)
    assert "after round 3: Sofie +62, Peter +102, Anders -10, Mormor -35." in svg
    rings = re.findall(
        r'<circle [^>]*class="dropped-ring[^"]*" data-player="(\w+)" '
        r'data-round="(\d)"',
        svg,
    )
    assert sorted(rings) == [("Anders", "1"), ("Mormor", "3"), ("Peter", "1"), ("Sofie", "2")]
    # Peter's and Anders' rings both sit on 0 after round 1: the second is drawn round the first
    first = re.findall(r'r="(\d+)" [^>]*data-player="(\w+)" data-round="1"', svg)
    assert sorted(r for r, _ in first) == ["12", "8"]
    assert {player for _, player in first} == {"Peter", "Anders"}
    # Sofie's line stays level over her dropped round: +72 after round 1 and round 2
    sofie = re.search(r'data-player="Sofie"[^>]*><polyline points="([^"]+)"', svg)
    assert sofie is not None
    ys = [point.split(",")[1] for point in sofie.group(1).split()]
    assert ys[1] == ys[2] != ys[3]


def test_the_chart_caption_says_the_worst_round_is_left_out(client: FlaskClient) -> None:
    sid = drop_worst_evening(client)
    caption = page(client, sid).split('id="chart-caption">')[1].split("</figcaption>")[0]
    assert "Each player's worst round is left out of the total: a ring marks it." in caption
    plain = new_session(client, FOUR)
    scores(client, plain, Sofie=72, Peter=-8, Anders=-41, Mormor=-23)
    scores(client, plain, Sofie=-30, Peter=47, Anders=-5, Mormor=-12)
    assert "left out" not in page(client, plain)
    svg = client.get(f"/sessions/{plain}/chart.svg").get_data(as_text=True)
    assert "dropped-ring" not in svg
