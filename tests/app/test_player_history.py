"""Player statistics over a longer, varied history equal those worked out from every round of
every session (as the pages did before the seats kept their lines), for the whole history
and for periods; a player's sessions are shown twenty to a page."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Player, Seat
from scorekeeper.services import lists, rounds, sessions, stats, views
from scorekeeper.services.stats import (
    HISTORY_PAGE_SIZE,
    HeadToHead,
    Period,
    PlayerLine,
    PlayerStats,
    RoundMark,
    SessionResult,
    Streak,
)

FAMILY = ["Ann", "Bo", "Cy", "Di", "Eve"]
START = date(2025, 1, 1)


def _round(players: list[str], rng: random.Random) -> dict[str, Any]:
    """A round: mostly someone going out with small racks (equal rounds are common), now and
    then scores written on paper."""
    winner = rng.choice(players)
    if rng.random() < 0.2:
        scores = {p: -rng.randint(1, 9) for p in players if p != winner}
        return {"ending": "scores", "scores": {**scores, winner: -sum(scores.values())}}
    racks = {p: rng.randint(1, 12) for p in players if p != winner}
    return {"ending": "went_out", "winner": winner, "racks": racks}


def build_history(app: Flask, count: int = 45, seed: int = 6) -> None:
    """`count` sessions of three to five of the family over two months (several on a day,
    recorded out of date order), some dropping the worst round, some still in play, one
    with a player renamed (a new player from then on)."""
    rng = random.Random(seed)
    with app.app_context():
        for number in range(count):
            players = rng.sample(FAMILY, rng.randint(2, 4))
            planned = rng.randint(1, 4)
            played = planned if rng.random() < 0.85 else rng.randint(0, planned - 1)
            view = sessions.create_session(
                players,
                f"Evening {number}",
                planned,
                {"drop_worst_round": rng.random() < 0.3},
                played_on=START + timedelta(days=rng.randint(0, 60)),
            )
            for _ in range(played):
                rounds.add_round(view.id, {**_round(players, rng), "confirm": True})
            if number == 5:
                sessions.rename_player(view.id, 0, "Fay")


# -- The statistics as worked out from every round ---------------------------------------------


@dataclass
class _Evening:
    id: int
    name: str
    played_on: date
    seats: dict[str, int]  # seat name -> player id
    view: views.SessionView

    @property
    def order(self) -> tuple[date, int]:
        return (self.played_on, self.id)


def _evenings(period: Period) -> tuple[list[_Evening], dict[int, str]]:
    players = dict(db.session.execute(sa.select(Player.id, Player.name)).all())
    seated: dict[int, dict[str, int]] = defaultdict(dict)
    for session_id, name, player_id in db.session.execute(
        sa.select(Seat.session_id, Seat.name, Seat.player_id)
    ):
        seated[session_id][name] = player_id
    found = []
    for summary in lists.list_sessions():
        if period.start and summary.played_on < period.start:
            continue
        if period.end and summary.played_on > period.end:
            continue
        view = views.get_session(summary.id)
        found.append(_Evening(view.id, view.name, view.played_on, seated[view.id], view))
    return sorted(found, key=lambda e: e.order), players


def expected_lines(evenings: list[_Evening], names: dict[int, str]) -> list[PlayerLine]:
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for evening in evenings:
        table = evening.view.standings
        for name, player in evening.seats.items():
            counts[player][0] += 1
            counts[player][1] += name in table.winners
            counts[player][2] += sum(r.winner == name for r in evening.view.rounds if r.entries)
    lines = [PlayerLine(p, names[p], *c) for p, c in counts.items()]
    return sorted(lines, key=lambda line: (line.name.casefold(), line.id))


def expected_seat(every: list[_Evening], player_id: int) -> int | None:
    """The seat the player sat at in every session of the whole history, if one."""
    places = {
        e.view.players.index(name)
        for e in every
        for name, player in e.seats.items()
        if player == player_id
    }
    return places.pop() if len(places) == 1 else None


def current_streak(won_latest_first: list[bool]) -> Streak | None:
    """How many of the latest finished sessions in a row went the same way (all won, or all
    not won), counted one by one: what stats works out in one SQL statement."""
    if not won_latest_first:
        return None
    first = won_latest_first[0]
    length = 0
    for won in won_latest_first:
        if won != first:
            break
        length += 1
    return Streak(first, length)


def expected_stats(
    evenings: list[_Evening], names: dict[int, str], player_id: int, always_at: int | None
) -> PlayerStats:
    mine = [e for e in evenings if player_id in e.seats.values()]
    seat = {e.id: next(n for n, p in e.seats.items() if p == player_id) for e in mine}
    finished = [e for e in mine if e.view.complete]
    marks = []
    rounds_won = 0
    for evening in mine:
        for played in evening.view.rounds:
            entry = played.entries.get(seat[evening.id])
            if entry is not None:
                marks.append(
                    RoundMark(
                        entry.score, evening.id, evening.name, evening.played_on, played.number
                    )
                )
            rounds_won += bool(played.entries) and played.winner == seat[evening.id]
    won = [seat[e.id] in e.view.standings.winners for e in reversed(finished)]
    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for evening in finished:
        totals = evening.view.standings.totals
        for name, other in evening.seats.items():
            if other == player_id:
                continue
            mine_total, theirs = totals[seat[evening.id]], totals[name]
            tally[other][0] += 1
            tally[other][1 if mine_total > theirs else 2 if mine_total < theirs else 3] += 1
    h2h = sorted(
        (HeadToHead(o, names[o], *c) for o, c in tally.items()),
        key=lambda h: (-h.sessions, h.opponent_name.casefold(), h.opponent_id),
    )
    history = []
    for evening in reversed(mine):
        table = evening.view.standings
        name = seat[evening.id]
        history.append(
            SessionResult(
                evening.id,
                evening.name,
                evening.played_on,
                table.totals[name],
                len(evening.view.rounds),
                evening.view.rounds_planned,
                table.complete,
                name in table.winners,
                name in table.winners and len(table.winners) > 1,
            )
        )
    return PlayerStats(
        id=player_id,
        name=names[player_id],
        sessions_played=len(mine),
        sessions_finished=len(finished),
        sessions_won=sum(won),
        rounds_played=len(marks),
        rounds_won=rounds_won,
        average_score=sum(m.score for m in marks) / len(marks) if marks else None,
        best=max(marks, key=lambda m: m.score, default=None),
        worst=min(marks, key=lambda m: m.score, default=None),
        streak=current_streak(won),
        head_to_head=tuple(h2h),
        history=tuple(history),
        seat=always_at,
    )


def every_page(player_id: int, period: Period) -> PlayerStats:
    """The player's statistics with the sessions of every page, as one history."""
    first = stats.get_player_stats(player_id, period)
    history = list(first.history)
    shown = first
    while shown.has_older:
        shown = stats.get_player_stats(player_id, period, shown.page + 1)
        assert shown.page > 1 and shown.has_newer
        assert len(shown.history) <= HISTORY_PAGE_SIZE
        assert {**vars(shown), "history": (), "page": 1, "has_older": False} == {
            **vars(first),
            "history": (),
            "page": 1,
            "has_older": False,
        }
        history += shown.history
    return PlayerStats(**{**vars(first), "history": tuple(history), "has_older": False})


PERIODS = [
    Period(),
    Period(START + timedelta(days=20), None),
    Period(None, START + timedelta(days=20)),
    Period(START + timedelta(days=10), START + timedelta(days=10)),
    Period(START + timedelta(days=400), None),
]


def test_statistics_equal_those_of_every_round(app: Flask) -> None:
    build_history(app)
    for period in PERIODS:
        with app.app_context():
            evenings, names = _evenings(period)
            every, _ = _evenings(Period())
            assert stats.list_players(period) == expected_lines(evenings, names), period
            assert len(names) == len(FAMILY) + 1  # and Fay
            found = {}
            for player_id in names:
                found[player_id] = every_page(player_id, period)
                seat = expected_seat(every, player_id)
                expected = expected_stats(evenings, names, player_id, seat)
                assert found[player_id] == expected, period
        if period == Period():  # the history is long and varied enough to mean something
            most = max(found.values(), key=lambda s: s.sessions_played)
            assert most.sessions_played > HISTORY_PAGE_SIZE
            assert most.sessions_finished < most.sessions_played and most.sessions_won
            assert any(s.streak and s.streak.length > 1 for s in found.values())
            assert any(h.level for s in found.values() for h in s.head_to_head)
            assert any(r.shared for s in found.values() for r in s.history)
        if period == PERIODS[-1]:
            assert not any(s.sessions_played for s in found.values())


# -- A page at a time --------------------------------------------------------------------------


def _played(app: Flask, count: int) -> int:
    """`count` finished sessions of Ann and Bo, one a day from START; Ann's id."""
    with app.app_context():
        for number in range(count):
            view = sessions.create_session(
                ["Ann", "Bo"], f"S{number + 1}", 1, played_on=START + timedelta(days=number)
            )
            rounds.add_round(view.id, {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 3}})
        ann = db.session.scalar(sa.select(Player.id).where(Player.name == "Ann"))
        assert ann is not None
        return ann


def _cards(page: str) -> list[str]:
    return re.findall(r'<span class="card-title">([^<]*)</span>', page)


def test_a_players_sessions_come_twenty_to_a_page(app: Flask, client: FlaskClient) -> None:
    ann = _played(app, 45)
    first = client.get(f"/players/{ann}").get_data(as_text=True)
    assert _cards(first) == [f"S{n}" for n in range(45, 25, -1)]
    assert 'id="newer-sessions"' not in first
    assert f'href="/players/{ann}?page=2#player-sessions"' in first
    assert re.search(r"Sessions played</dt>\s*<dd><span class=\"figure\">45</span>", first)

    second = client.get(f"/players/{ann}?page=2").get_data(as_text=True)
    assert _cards(second) == [f"S{n}" for n in range(25, 5, -1)]
    assert f'href="/players/{ann}#player-sessions" rel="prev"' in second
    assert f'href="/players/{ann}?page=3#player-sessions" rel="next"' in second
    assert re.search(r"Sessions played</dt>\s*<dd><span class=\"figure\">45</span>", second)

    third = client.get(f"/players/{ann}?page=3").get_data(as_text=True)
    assert _cards(third) == [f"S{n}" for n in range(5, 0, -1)]
    assert 'id="older-sessions"' not in third
    assert f'href="/players/{ann}?page=2#player-sessions" rel="prev"' in third

    beyond = client.get(f"/players/{ann}?page=99999999999999999999")
    assert beyond.status_code == 200 and _cards(beyond.get_data(as_text=True)) == []
    assert _cards(client.get(f"/players/{ann}?page=-3").get_data(as_text=True)) == _cards(first)


def test_the_pages_keep_the_period(app: Flask, client: FlaskClient) -> None:
    ann = _played(app, 45)
    since = (START + timedelta(days=10)).isoformat()  # S11 to S45: 35 sessions
    first = client.get(f"/players/{ann}?from={since}").get_data(as_text=True)
    assert _cards(first) == [f"S{n}" for n in range(45, 25, -1)]
    older = f'href="/players/{ann}?page=2&amp;from={since}#player-sessions"'
    assert older in first
    second = client.get(f"/players/{ann}?page=2&from={since}").get_data(as_text=True)
    assert _cards(second) == [f"S{n}" for n in range(25, 10, -1)]
    assert 'id="older-sessions"' not in second
    assert f'href="/players/{ann}?from={since}#player-sessions" rel="prev"' in second
