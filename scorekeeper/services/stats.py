"""History and players: who played, who won, best and worst rounds, streaks, head-to-head.

Every figure comes from the seats' lines (Seat.total, won, rounds_won, score_sum, best_score,
worst_score), which every write keeps true to the session's table (services.sessions.touch),
so neither page reads a round, whatever the size of the history: the list of players is one
aggregate over the seats of the period; a player's page reads their name, their seats, the
head-to-head over the finished sessions they played (an aggregate), and the round numbers of
their best and worst rounds (two lookups along an index).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.extensions import db
from scorekeeper.models import Entry, GameSession, Player, Round, Seat
from scorekeeper.rules import Problem
from scorekeeper.services.errors import BadRequest, not_found
from scorekeeper.services.sessions import MAX_ID

# Sessions on one page of a player's history, the newest first (as on the home page).
HISTORY_PAGE_SIZE = 20
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Period:
    """The dates a page looks at, both ends included; None is open-ended."""

    start: date | None = None
    end: date | None = None

    @property
    def whole_history(self) -> bool:
        return self.start is None and self.end is None


def period_of(start: str | None, end: str | None) -> Period:
    """Read `from` and `to` as typed (YYYY-MM-DD, or blank); bad dates are a bad request."""
    problems: list[Problem] = []
    dates: list[date | None] = []
    for name, text in (("from", start), ("to", end)):
        text = (text or "").strip()
        if not text:
            dates.append(None)
            continue
        try:
            if not ISO_DATE.fullmatch(text):
                raise ValueError(text)
            dates.append(date.fromisoformat(text))
        except ValueError:
            dates.append(None)
            problems.append(
                Problem(
                    "bad_date",
                    "%(text)s is not a date: write it as YYYY-MM-DD, like 2025-11-30.",
                    {"text": f"“{text[:20]}”"},
                    name,
                )
            )
    first, last = dates
    if first and last and last < first:
        problems.append(Problem("bad_date", "The end date is before the start date.", {}, "to"))
    if problems:
        raise BadRequest(problems)
    return Period(first, last)


# -- What the pages show ----------------------------------------------------------------------


@dataclass(frozen=True)
class RoundMark:
    """A round remembered for its score: where and when it happened."""

    score: int
    session_id: int
    session_name: str
    played_on: date
    round_number: int


@dataclass(frozen=True)
class Streak:
    """The run of finished sessions, most recent first, all won or all not won."""

    won: bool
    length: int


@dataclass(frozen=True)
class HeadToHead:
    """Two players over the finished sessions they both played: who finished ahead how often."""

    opponent_id: int
    opponent_name: str
    sessions: int
    ahead: int
    behind: int
    level: int


@dataclass(frozen=True)
class SessionResult:
    """One session of a player's history: their total and how it ended for them."""

    session_id: int
    session_name: str
    played_on: date
    total: int
    rounds_played: int
    rounds_planned: int
    complete: bool
    won: bool
    shared: bool


@dataclass(frozen=True)
class PlayerLine:
    """A player as the list of players shows them."""

    id: int
    name: str
    sessions_played: int
    sessions_won: int
    rounds_won: int


@dataclass(frozen=True)
class PlayerStats:
    """Everything the player page shows, over the period asked for."""

    id: int
    name: str
    sessions_played: int
    sessions_finished: int
    sessions_won: int
    rounds_played: int
    rounds_won: int
    average_score: float | None
    best: RoundMark | None
    worst: RoundMark | None
    streak: Streak | None
    head_to_head: tuple[HeadToHead, ...]
    history: tuple[SessionResult, ...]  # one page of the sessions, the newest first
    page: int = 1
    has_older: bool = False

    @property
    def has_newer(self) -> bool:
        return self.page > 1


def current_streak(won_latest_first: Sequence[bool]) -> Streak | None:
    """How many of the latest finished sessions in a row were all won (or all not won)."""
    if not won_latest_first:
        return None
    first = won_latest_first[0]
    length = 0
    for won in won_latest_first:
        if won != first:
            break
        length += 1
    return Streak(first, length)


# -- Reading the database ---------------------------------------------------------------------


def _in_period(period: Period) -> list[sa.ColumnElement[bool]]:
    conditions: list[sa.ColumnElement[bool]] = []
    if period.start is not None:
        conditions.append(GameSession.played_on >= period.start)
    if period.end is not None:
        conditions.append(GameSession.played_on <= period.end)
    return conditions


def list_players(period: Period | None = None) -> list[PlayerLine]:
    """Everyone who played in the period, with sessions played and won and rounds won, by
    name: one aggregate over the seats of the period's sessions."""
    conditions = _in_period(period or Period())
    query = (
        sa.select(
            Seat.player_id,
            Player.name,
            sa.func.count(Seat.id),
            sa.func.sum(sa.case((Seat.won, 1), else_=0)),
            sa.func.sum(Seat.rounds_won),
        )
        .select_from(Seat)
        .join(Player, Seat.player_id == Player.id)
        .group_by(Seat.player_id, Player.name)
    )
    if conditions:
        query = query.join(GameSession, Seat.session_id == GameSession.id).where(*conditions)
    lines = [PlayerLine(*row) for row in db.session.execute(query)]
    return sorted(lines, key=lambda line: (line.name.casefold(), line.id))


def player_name(player_id: int) -> str:
    """The name of the remembered player, or NotFound."""
    name = None
    if 1 <= player_id <= MAX_ID:
        name = db.session.scalar(sa.select(Player.name).where(Player.id == player_id))
    if name is None:
        raise not_found("player", player_id)
    return name


def get_player_stats(player_id: int, period: Period | None = None, page: int = 1) -> PlayerStats:
    """One player's page, with page `page` of their sessions (four statements), or NotFound
    for an id that names no player."""
    name = player_name(player_id)
    conditions = _in_period(period or Period())
    page = max(page, 1)
    mine = _seats_of(player_id, conditions)  # the newest first
    finished = [seat for seat in mine if seat.finished]
    rounds_played = sum(seat.rounds_played for seat in mine)
    best, worst = _marks(mine)
    shown = mine[(page - 1) * HISTORY_PAGE_SIZE : page * HISTORY_PAGE_SIZE]
    return PlayerStats(
        id=player_id,
        name=name,
        sessions_played=len(mine),
        sessions_finished=len(finished),
        sessions_won=sum(seat.won for seat in finished),
        rounds_played=rounds_played,
        rounds_won=sum(seat.rounds_won for seat in mine),
        average_score=sum(s.score_sum for s in mine) / rounds_played if rounds_played else None,
        best=best,
        worst=worst,
        streak=current_streak([seat.won for seat in finished]),
        head_to_head=_head_to_head(player_id, conditions),
        history=tuple(_result(seat) for seat in shown),
        page=page,
        has_older=len(mine) > page * HISTORY_PAGE_SIZE,
    )


def _seats_of(player_id: int, conditions: list[sa.ColumnElement[bool]]) -> list[Any]:
    """The player's seats at the period's sessions, with their sessions, the newest first;
    for a session they won, how many won it (more than one: a shared win)."""
    other = so.aliased(Seat)
    winners = (
        sa.select(sa.func.count())
        .where(other.session_id == Seat.session_id, other.won)
        .scalar_subquery()
    )
    return list(
        db.session.execute(
            sa.select(
                GameSession.id.label("session_id"),
                GameSession.name.label("session_name"),
                GameSession.played_on,
                GameSession.rounds_planned,
                GameSession.rounds_played,
                GameSession.finished_at.is_not(None).label("finished"),
                Seat.id.label("seat_id"),
                Seat.total,
                Seat.won,
                Seat.rounds_won,
                Seat.score_sum,
                Seat.best_score,
                Seat.worst_score,
                sa.case((Seat.won, winners), else_=0).label("winners"),
            )
            .select_from(Seat)
            .join(GameSession, Seat.session_id == GameSession.id)
            .where(Seat.player_id == player_id, *conditions)
            .order_by(GameSession.played_on.desc(), GameSession.id.desc())
        )
    )


def _marks(mine: Sequence[Any]) -> tuple[RoundMark | None, RoundMark | None]:
    """The best and the worst round of the seats (the newest first); of equal rounds, the
    earliest played: the earliest session's, and in it the lowest round number (read in one
    statement along the entries' index by seat)."""
    scored = [seat for seat in reversed(mine) if seat.best_score is not None]
    if not scored:
        return None, None
    best = max(scored, key=lambda seat: seat.best_score)  # the first of equals: the earliest
    worst = min(scored, key=lambda seat: seat.worst_score)
    numbers = db.session.execute(
        sa.select(
            _first_round(best.seat_id, best.best_score),
            _first_round(worst.seat_id, worst.worst_score),
        )
    ).one()
    return (
        RoundMark(best.best_score, best.session_id, best.session_name, best.played_on, numbers[0]),
        RoundMark(
            worst.worst_score, worst.session_id, worst.session_name, worst.played_on, numbers[1]
        ),
    )


def _first_round(seat_id: int, score: int) -> sa.ScalarSelect[Any]:
    """The number of the seat's first round with that score."""
    return (
        sa.select(sa.func.min(Round.number))
        .select_from(Entry)
        .join(Round, Entry.round_id == Round.id)
        .where(Entry.seat_id == seat_id, Entry.score == score)
        .scalar_subquery()
    )


def _head_to_head(
    player_id: int, conditions: list[sa.ColumnElement[bool]]
) -> tuple[HeadToHead, ...]:
    """Against everyone met in a finished session of the period: how often the player
    finished ahead, behind or level (one aggregate over the seats at those sessions)."""
    me, other = so.aliased(Seat), so.aliased(Seat)

    def count(condition: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
        return sa.func.sum(sa.case((condition, 1), else_=0))

    rows = db.session.execute(
        sa.select(
            other.player_id,
            Player.name,
            sa.func.count(other.id),
            count(me.total > other.total),
            count(me.total < other.total),
            count(me.total == other.total),
        )
        .select_from(me)
        .join(other, sa.and_(other.session_id == me.session_id, other.id != me.id))
        .join(GameSession, me.session_id == GameSession.id)
        .join(Player, other.player_id == Player.id)
        .where(me.player_id == player_id, GameSession.finished_at.is_not(None), *conditions)
        .group_by(other.player_id, Player.name)
    )
    found = [HeadToHead(*row) for row in rows]
    return tuple(
        sorted(found, key=lambda h: (-h.sessions, h.opponent_name.casefold(), h.opponent_id))
    )


def _result(seat: Any) -> SessionResult:
    return SessionResult(
        session_id=seat.session_id,
        session_name=seat.session_name,
        played_on=seat.played_on,
        total=seat.total,
        rounds_played=seat.rounds_played,
        rounds_planned=seat.rounds_planned,
        complete=bool(seat.finished),
        won=bool(seat.won),
        shared=bool(seat.won) and seat.winners > 1,
    )
