"""History and players: statistics checked against a small history worked out by hand.

The history (three sessions; the numbers below are written out by hand, not computed):

S1 "New Year", 2025-01-05, Ann Bo Cy, 2 rounds, standard:
    R1 Ann went out, Bo 10 Cy 20 left:  Ann +30  Bo -10  Cy -20
    R2 Bo went out, Ann 15 Cy 10 left:  Ann -15  Bo +25  Cy -10
    totals Ann 15  Bo 15  Cy -30: finished, Ann and Bo share the win
S2 "February", 2025-02-09, Ann Bo Di, 3 rounds, drop the worst round:
    R1 Bo went out, Ann 40 Di 2:        Ann -40  Bo +42  Di -2
    R2 Ann went out, Bo 30 Di 20:       Ann +50  Bo -30  Di -20
    R3 Di went out, Ann 1 Bo 2:         Ann -1   Bo -2   Di +3
    without the drop Bo would win (Ann 9, Bo 10, Di -19); with it (Ann drops -40, Bo -30,
    Di -20) the totals are Ann 49  Bo 40  Di 1: finished, Ann wins
S3 "March", 2025-03-02, Ann Cy Di, 3 rounds, 2 played (in progress):
    R1 on paper:                        Ann -6   Cy +15  Di -9
    R2 Ann went out, Cy 8 Di 5:         Ann +13  Cy -8   Di -5
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from factories import sql_sent, went_out
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.services import rounds, sessions, stats
from scorekeeper.services.errors import BadRequest, NotFound
from scorekeeper.services.stats import Period, RoundMark, Streak

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app


def record(
    players: list[str],
    played_on: date,
    planned: int,
    played: list[dict[str, Any]],
    name: str,
    drop_worst: bool = False,
) -> int:
    view = sessions.create_session(
        players, name, planned, {"drop_worst_round": drop_worst}, played_on=played_on
    )
    for body in played:
        rounds.add_round(view.id, body)
    return view.id


@pytest.fixture
def history(app: Flask) -> Iterator[dict[str, int]]:
    """The three sessions of the module docstring; the ids of the sessions and players."""
    with app.app_context():
        s1 = record(
            ["Ann", "Bo", "Cy"],
            date(2025, 1, 5),
            2,
            [went_out("Ann", Bo=10, Cy=20), went_out("Bo", Ann=15, Cy=10)],
            "New Year",
        )
        s2 = record(
            ["Ann", "Bo", "Di"],
            date(2025, 2, 9),
            3,
            [
                went_out("Bo", Ann=40, Di=2),
                went_out("Ann", Bo=30, Di=20),
                went_out("Di", Ann=1, Bo=2),
            ],
            "February",
            drop_worst=True,
        )
        s3 = record(
            ["Ann", "Cy", "Di"],
            date(2025, 3, 2),
            3,
            [
                {"ending": "scores", "scores": {"Ann": -6, "Cy": 15, "Di": -9}},
                went_out("Ann", Cy=8, Di=5),
            ],
            "March",
        )
        ids = {name: pid for name, pid in db.session.execute(sa.select(Player.name, Player.id))}
    yield {"S1": s1, "S2": s2, "S3": s3, **ids}


# -- The statistics, by hand ------------------------------------------------------------------


def test_players_list_by_hand(app: Flask, history: dict[str, int]) -> None:
    with app.app_context():
        lines = stats.list_players()
    table = {
        line.name: (line.sessions_played, line.sessions_won, line.rounds_won) for line in lines
    }
    assert table == {
        "Ann": (3, 2, 3),  # S1 shared, S2 (after the drop); rounds S1R1 S2R2 S3R2
        "Bo": (2, 1, 2),  # S1 shared; rounds S1R2 S2R1
        "Cy": (2, 0, 1),  # round S3R1 (on paper: the plus score wins the round)
        "Di": (2, 0, 1),  # round S2R3
    }
    assert [line.name for line in lines] == ["Ann", "Bo", "Cy", "Di"]


def test_ann_by_hand(app: Flask, history: dict[str, int]) -> None:
    with app.app_context():
        ann = stats.get_player_stats(history["Ann"])
    assert ann.name == "Ann"
    assert (ann.sessions_played, ann.sessions_finished, ann.sessions_won) == (3, 2, 2)
    assert (ann.rounds_played, ann.rounds_won) == (7, 3)
    # +30 -15 -40 +50 -1 -6 +13 = 31 over 7 rounds
    assert ann.average_score == pytest.approx(31 / 7)
    assert ann.best == RoundMark(50, history["S2"], "February", date(2025, 2, 9), 2)
    assert ann.worst == RoundMark(-40, history["S2"], "February", date(2025, 2, 9), 1)
    assert ann.streak == Streak(won=True, length=2)  # S2 won, S1 shared: S3 is not finished
    h2h = {h.opponent_name: (h.sessions, h.ahead, h.behind, h.level) for h in ann.head_to_head}
    assert h2h == {
        "Bo": (2, 1, 0, 1),  # S1 level at 15, S2 49 to 40
        "Cy": (1, 1, 0, 0),  # S1 15 to -30 (S3 is still being played)
        "Di": (1, 1, 0, 0),  # S2 49 to 1
    }
    assert [h.opponent_name for h in ann.head_to_head] == ["Bo", "Cy", "Di"]
    results = [(r.session_name, r.total, r.complete, r.won, r.shared) for r in ann.history]
    assert results == [
        ("March", 7, False, False, False),
        ("February", 49, True, True, False),
        ("New Year", 15, True, True, True),
    ]


def test_bo_cy_and_di_by_hand(app: Flask, history: dict[str, int]) -> None:
    with app.app_context():
        bo = stats.get_player_stats(history["Bo"])
        cy = stats.get_player_stats(history["Cy"])
        di = stats.get_player_stats(history["Di"])

    assert (bo.sessions_played, bo.sessions_finished, bo.sessions_won) == (2, 2, 1)
    assert (bo.rounds_played, bo.rounds_won) == (5, 2)
    assert bo.average_score == pytest.approx(5.0)  # -10 +25 +42 -30 -2 = 25 over 5
    assert bo.best == RoundMark(42, history["S2"], "February", date(2025, 2, 9), 1)
    assert bo.worst == RoundMark(-30, history["S2"], "February", date(2025, 2, 9), 2)
    assert bo.streak == Streak(won=False, length=1)  # S2 lost, S1 shared
    assert {h.opponent_name: (h.sessions, h.ahead, h.behind, h.level) for h in bo.head_to_head} == {
        "Ann": (2, 0, 1, 1),
        "Cy": (1, 1, 0, 0),
        "Di": (1, 1, 0, 0),
    }

    assert (cy.sessions_played, cy.sessions_finished, cy.sessions_won) == (2, 1, 0)
    assert (cy.rounds_played, cy.rounds_won) == (4, 1)
    assert cy.average_score == pytest.approx(-5.75)  # -20 -10 +15 -8 = -23 over 4
    assert cy.best == RoundMark(15, history["S3"], "March", date(2025, 3, 2), 1)
    assert cy.worst == RoundMark(-20, history["S1"], "New Year", date(2025, 1, 5), 1)
    assert cy.streak == Streak(won=False, length=1)
    assert {h.opponent_name: (h.sessions, h.ahead, h.behind, h.level) for h in cy.head_to_head} == {
        "Ann": (1, 0, 1, 0),
        "Bo": (1, 0, 1, 0),
    }

    assert (di.sessions_played, di.sessions_finished, di.sessions_won) == (2, 1, 0)
    assert (di.rounds_played, di.rounds_won) == (5, 1)
    assert di.average_score == pytest.approx(-6.6)  # -2 -20 +3 -9 -5 = -33 over 5
    assert di.best == RoundMark(3, history["S2"], "February", date(2025, 2, 9), 3)
    assert di.worst == RoundMark(-20, history["S2"], "February", date(2025, 2, 9), 2)
    assert di.streak == Streak(won=False, length=1)


def test_a_tie_for_best_or_worst_is_the_earliest_round(app: Flask) -> None:
    """Equal rounds: the earliest session's (by day, then by id) and in it the first."""
    with app.app_context():
        same = [went_out("Ann", Bo=5), went_out("Ann", Bo=5)]
        record(["Ann", "Bo"], date(2025, 1, 2), 2, same, "Later")  # recorded first
        first = record(["Ann", "Bo"], date(2025, 1, 1), 2, same, "First")
        record(["Ann", "Bo"], date(2025, 1, 1), 2, same, "Same day")
        bo_id = db.session.scalar(sa.select(Player.id).where(Player.name == "Bo"))
        assert bo_id is not None
        bo = stats.get_player_stats(bo_id)
    assert bo.worst == RoundMark(-5, first, "First", date(2025, 1, 1), 1)
    assert bo.best == RoundMark(-5, first, "First", date(2025, 1, 1), 1)
    assert bo.streak == Streak(won=False, length=3)


@pytest.mark.parametrize(
    ("latest_first", "streak"),
    [
        ([], None),
        ([True], Streak(True, 1)),
        ([True, True, False, True], Streak(True, 2)),
        ([False, False, False], Streak(False, 3)),
        ([False, True, True], Streak(False, 1)),
    ],
)
def test_the_streak_is_the_latest_finished_sessions_that_went_one_way(
    app: Flask, latest_first: list[bool], streak: Streak | None
) -> None:
    """Ann's finished sessions, won or not, the latest first (one a week, a round each); a
    session still being played counts for nothing."""
    with app.app_context():
        start = date(2025, 1, 5)
        for week, won in enumerate(reversed(latest_first)):
            round_ = went_out("Ann", Bo=5) if won else went_out("Bo", Ann=5)
            record(["Ann", "Bo"], start + timedelta(weeks=week), 1, [round_], f"Week {week}")
        later = start + timedelta(weeks=len(latest_first))
        record(["Ann", "Bo"], later, 2, [went_out("Bo", Ann=5)], "Not finished")
        ann = db.session.scalar(sa.select(Player.id).where(Player.name == "Ann"))
        assert ann is not None
        assert stats.get_player_stats(ann).streak == streak


# -- The date filter ---------------------------------------------------------------------------


def test_the_period_filters_by_the_day_played(app: Flask, history: dict[str, int]) -> None:
    def lines(start: date | None, end: date | None) -> dict[str, tuple[int, int, int]]:
        with app.app_context():
            found = stats.list_players(Period(start, end))
        return {ln.name: (ln.sessions_played, ln.sessions_won, ln.rounds_won) for ln in found}

    assert lines(date(2025, 2, 1), None) == {
        "Ann": (2, 1, 2),
        "Bo": (1, 0, 1),
        "Cy": (1, 0, 1),
        "Di": (2, 0, 1),
    }
    assert lines(None, date(2025, 1, 31)) == {"Ann": (1, 1, 1), "Bo": (1, 1, 1), "Cy": (1, 0, 0)}
    # Both ends are included.
    assert lines(date(2025, 2, 9), date(2025, 2, 9)) == {
        "Ann": (1, 1, 1),
        "Bo": (1, 0, 1),
        "Di": (1, 0, 1),
    }
    assert lines(date(2026, 1, 1), None) == {}
    with app.app_context():
        ann = stats.get_player_stats(history["Ann"], Period(None, date(2025, 1, 31)))
    assert ann.best == RoundMark(30, history["S1"], "New Year", date(2025, 1, 5), 1)
    assert ann.worst == RoundMark(-15, history["S1"], "New Year", date(2025, 1, 5), 2)
    assert [h.opponent_name for h in ann.head_to_head] == ["Bo", "Cy"]


def test_the_pages_filter_by_date(client: FlaskClient, history: dict[str, int]) -> None:
    page = client.get("/players?from=2025-02-01&to=2025-02-28")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'value="2025-02-01"' in text and 'value="2025-02-28"' in text
    names = re.findall(
        r'<a href="/players/\d+\?from=2025-02-01&amp;to=2025-02-28">([^<]+)</a>', text
    )
    assert names == ["Ann", "Bo", "Di"]  # links keep the period

    ann = client.get(f"/players/{history['Ann']}?from=2025-03-01")
    assert ann.status_code == 200
    text = ann.get_data(as_text=True)
    assert "March" in text and "February" not in text and "New Year" not in text
    assert re.search(r"Sessions played</dt>\s*<dd><span class=\"figure\">1</span>", text)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("from=2025-13-01", "“2025-13-01” is not a date"),
        ("to=yesterday", "“yesterday” is not a date"),
        ("from=20250101", "“20250101” is not a date"),
        ("from=2025-03-01&to=2025-02-01", "The end date is before the start date."),
    ],
)
def test_a_wrong_date_is_a_bad_request(
    client: FlaskClient, history: dict[str, int], query: str, message: str
) -> None:
    for url in ("/players", f"/players/{history['Ann']}"):
        page = client.get(f"{url}?{query}")
        assert page.status_code == 400
        text = html.unescape(page.get_data(as_text=True))
        assert message in text
        assert 'aria-invalid="true"' in text
        assert "Sessions played" not in text  # no statistics for a period that is not one


def test_period_of_reads_blank_as_open() -> None:
    assert stats.period_of("", "  ") == Period()
    assert stats.period_of("2025-01-05", None) == Period(date(2025, 1, 5), None)
    with pytest.raises(BadRequest) as raised:
        stats.period_of("2025-02-30", "nope")
    assert [p.field for p in raised.value.problems] == ["from", "to"]


# -- Pages: 404, escaping, links --------------------------------------------------------------


@pytest.mark.parametrize("player_id", ["999", "0", "99999999999"])
def test_an_unknown_player_is_404(
    client: FlaskClient, history: dict[str, int], player_id: str
) -> None:
    assert client.get(f"/players/{player_id}").status_code == 404


def test_the_service_says_not_found(app: Flask) -> None:
    with app.app_context(), pytest.raises(NotFound):
        stats.get_player_stats(1)


def test_names_are_escaped(app: Flask, client: FlaskClient) -> None:
    evil = '<script>alert("x")</script>'
    with app.app_context():
        record([evil, "Bo"], date(2025, 1, 1), 1, [went_out("Bo", **{evil: 3})], "<b>Night</b>")
        evil_id = db.session.scalar(sa.select(Player.id).where(Player.name == evil))
    for url in ("/players", f"/players/{evil_id}", "/players/2"):
        text = client.get(url).get_data(as_text=True)
        assert "<script>alert" not in text
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in text
    assert "&lt;b&gt;Night&lt;/b&gt;" in client.get(f"/players/{evil_id}").get_data(as_text=True)


def test_the_pages_show_the_figures(client: FlaskClient, history: dict[str, int]) -> None:
    home = client.get("/").get_data(as_text=True)
    assert 'href="/players"' in home

    listing = client.get("/players").get_data(as_text=True)
    row = re.search(
        r"<th scope=\"row\"><a href=\"/players/\d+\">Ann</a></th>(.*?)</tr>", listing, re.S
    )
    assert row and re.findall(r"<td>(\d+)</td>", row[1]) == ["3", "2", "3"]

    ann = client.get(f"/players/{history['Ann']}").get_data(as_text=True)
    figures = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", ann))
    assert "Average round score +4.4" in figures
    assert "Best round +50 round 2 of February" in figures
    assert "Worst round -40 round 1 of February" in figures
    assert "Won the last 2 finished sessions" in figures
    assert "(1 still in progress)" in figures
    assert "The streak counts finished sessions, the most recent first" in figures
    assert f'href="/sessions/{history["S2"]}"' in ann


def test_a_player_who_never_played_has_an_empty_page(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        db.session.add(Player(name="Eve", name_key="eve"))
        db.session.commit()
        eve = db.session.scalar(sa.select(Player.id).where(Player.name == "Eve"))
    page = client.get(f"/players/{eve}")
    assert page.status_code == 200
    assert "Eve played no session yet." in page.get_data(as_text=True)
    assert "Nobody has played yet" in client.get("/players").get_data(as_text=True)


# -- Constant queries -------------------------------------------------------------------------


def _played(app: Flask, first: int, last: int) -> None:
    """Sessions first to last of Ann, Bo and a new guest each evening."""
    with app.app_context():
        for i in range(first, last + 1):
            record(
                ["Ann", "Bo", f"Guest {i}"],
                date(2025, 1, 1) + timedelta(days=i),
                2,
                [
                    went_out("Ann", Bo=3, **{f"Guest {i}": 4}),
                    went_out("Bo", Ann=5, **{f"Guest {i}": 6}),
                ],
                f"Evening {i}",
                drop_worst=i % 2 == 0,
            )


def _statements(app: Flask, client: FlaskClient, url: str) -> int:
    client.get(url)  # warm: the first request of an app may read more (e.g. the access row)
    with sql_sent(app) as statements:
        response = client.get(url)
    assert response.status_code == 200
    return len(statements)


@pytest.mark.parametrize("url", ["/players", "/players/1", "/players/1?from=2025-01-02"])
def test_player_pages_read_a_constant_number_of_statements(
    app: Flask, client: FlaskClient, url: str
) -> None:
    _played(app, 1, 1)
    one = _statements(app, client, url)
    _played(app, 2, 20)
    with app.app_context():
        assert len(stats.list_players()) == 22  # Ann, Bo and twenty guests
    twenty = _statements(app, client, url)
    assert one == twenty
    assert twenty <= 7  # the gate reads the household too
