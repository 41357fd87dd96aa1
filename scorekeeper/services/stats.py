"""History and players: who played, who won, best and worst rounds, streaks, head-to-head."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.extensions import db
from scorekeeper.models import Entry, GameSession, Player, Round, Seat
from scorekeeper.rules import Problem
from scorekeeper.services.errors import BadRequest, not_found
from scorekeeper.services.views import MAX_ID

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
    # The seat (position, from 0) they sat at in every session, whatever the period; None
    # where they sat at different ones (player_identity). Their mark's colour: web/seats.py.
    seat: int | None = None

    @property
    def has_newer(self) -> bool:
        return self.page > 1


# -- Reading the database ---------------------------------------------------------------------


def _seated_in(period: Period) -> list[sa.ColumnElement[bool]]:
    """The condition on a seat that its session is of the period (none for the whole history), as
    the period's session ids."""
    dates: list[sa.ColumnElement[bool]] = []
    if period.start is not None:
        dates.append(GameSession.played_on >= period.start)
    if period.end is not None:
        dates.append(GameSession.played_on <= period.end)
    if not dates:
        return []
    return [Seat.session_id.in_(sa.select(GameSession.id).where(*dates))]


def list_players(period: Period | None = None) -> list[PlayerLine]:
    """Everyone who played in the period, with sessions played and won and rounds won, by
    name: one statement, an aggregate over the seats of the period's sessions (named after)."""
    counted = (
        sa.select(
            Seat.player_id,
            sa.func.count(Seat.id).label("played"),
            _count(Seat.won).label("won"),
            sa.func.sum(Seat.rounds_won).label("rounds_won"),
        )
        .where(*_seated_in(period or Period()))
        .group_by(Seat.player_id)
        .subquery()
    )
    rows = db.session.execute(
        sa.select(Player.id, Player.name, counted.c.played, counted.c.won, counted.c.rounds_won)
        .select_from(counted)
        .join(Player, counted.c.player_id == Player.id)
    )
    lines = [PlayerLine(*row) for row in rows]
    return sorted(lines, key=lambda line: (line.name.casefold(), line.id))


def player_identity(player_id: int) -> tuple[str, int | None]:
    """The player's name and the seat (its position, from 0) they sat at in every session, whatever
    the period (None if it varied, or before their first); or NotFound."""
    row = None
    if 1 <= player_id <= MAX_ID:
        row = db.session.execute(
            sa.select(Player.name, sa.func.min(Seat.position), sa.func.max(Seat.position))
            .select_from(Player)
            .outerjoin(Seat, Seat.player_id == Player.id)
            .where(Player.id == player_id)
            .group_by(Player.id, Player.name)
        ).one_or_none()
    if row is None:
        raise not_found("player", player_id)
    name, first, last = row
    return name, first if first == last else None


def get_player_stats(player_id: int, period: Period | None = None, page: int = 1) -> PlayerStats:
    """One player's page, with page `page` of their sessions, the newest first; NotFound for an id
    that names no player."""
    name, seat = player_identity(player_id)
    mine = _seats_of(player_id, period or Period())
    figures = _figures(mine)
    page = min(max(page, 1), MAX_ID)
    shown = _history_page(mine, page)
    best, worst = _marks(mine, figures.best, figures.worst)
    return PlayerStats(
        id=player_id,
        name=name,
        sessions_played=figures.played,
        sessions_finished=figures.finished,
        sessions_won=figures.won,
        rounds_played=figures.rounds,
        rounds_won=figures.rounds_won,
        average_score=figures.score_sum / figures.rounds if figures.rounds else None,
        best=best,
        worst=worst,
        streak=Streak(bool(figures.latest), figures.streak) if figures.finished else None,
        head_to_head=_head_to_head(mine),
        history=tuple(_result(row) for row in shown[:HISTORY_PAGE_SIZE]),
        page=page,
        has_older=len(shown) > HISTORY_PAGE_SIZE,
        seat=seat,
    )


def _seats_of(player_id: int, period: Period) -> sa.Select[*tuple[Any, ...]]:
    """The player's seats at the sessions of the period, with what the page needs of those
    sessions."""
    return (
        sa.select(
            Seat.id.label("seat_id"),
            Seat.total,
            Seat.won,
            Seat.rounds_won,
            Seat.score_sum,
            Seat.best_score,
            Seat.worst_score,
            GameSession.id.label("session_id"),
            GameSession.name.label("session_name"),
            GameSession.played_on,
            GameSession.rounds_planned,
            GameSession.rounds_played,
            GameSession.finished_at,
        )
        .select_from(Seat)
        .join(GameSession, Seat.session_id == GameSession.id)
        .where(Seat.player_id == player_id, *_seated_in(period))
    )


@dataclass(frozen=True)
class _Figures:
    """The sums over a player's seats, and their current streak."""

    played: int
    finished: int
    won: int
    rounds: int
    rounds_won: int
    score_sum: int
    best: int | None
    worst: int | None
    latest: bool | None  # did they win the latest finished session
    streak: int  # how many of the latest finished sessions went the same way


def _figures(seats: sa.Select[*tuple[Any, ...]]) -> _Figures:
    """One statement: the sums, and the streak from the finished sessions numbered from the
    latest (the first one that went the other way ends it)."""
    mine = seats.subquery("mine")
    done = mine.c.finished_at.is_not(None)
    ended = seats.subquery("ended")
    finished = (
        sa.select(
            ended.c.won,
            sa.func.row_number()
            .over(order_by=(ended.c.played_on.desc(), ended.c.session_id.desc()))
            .label("n"),
        )
        .where(ended.c.finished_at.is_not(None))
        .cte("finished")
    )
    latest = sa.select(finished.c.won).where(finished.c.n == 1).scalar_subquery()
    turn = sa.select(sa.func.min(finished.c.n)).where(finished.c.won != latest).scalar_subquery()
    row = db.session.execute(
        sa.select(
            sa.func.count(),
            _count(done),
            _count(sa.and_(done, mine.c.won)),
            sa.func.sum(mine.c.rounds_played),
            sa.func.sum(mine.c.rounds_won),
            sa.func.sum(mine.c.score_sum),
            sa.func.max(mine.c.best_score),
            sa.func.min(mine.c.worst_score),
            latest,
            turn,
        ).select_from(mine)
    ).one()
    played, finished_count, won, rounds, rounds_won, score_sum, best, worst, first, turned = row
    return _Figures(
        played,
        finished_count or 0,
        won or 0,
        rounds or 0,
        rounds_won or 0,
        score_sum or 0,
        best,
        worst,
        None if first is None else bool(first),
        turned - 1 if turned else finished_count or 0,
    )


def _count(
    condition: sa.ColumnElement[bool] | so.InstrumentedAttribute[bool],
) -> sa.ColumnElement[Any]:
    """How many rows meet the condition (portable: no FILTER clause)."""
    return sa.func.sum(sa.case((condition, 1), else_=0))


def _history_page(seats: sa.Select[*tuple[Any, ...]], page: int) -> list[Any]:
    """The sessions of one page of the player's history (and one more, if older ones are
    left), the newest first; for a session they won, how many won it (two or more: shared)."""
    mine = seats.subquery("mine")
    other = so.aliased(Seat)
    winners = (
        sa.select(sa.func.count())
        .where(other.session_id == mine.c.session_id, other.won)
        .scalar_subquery()
    )
    return list(
        db.session.execute(
            sa.select(mine, sa.case((mine.c.won, winners), else_=0).label("winners"))
            .order_by(mine.c.played_on.desc(), mine.c.session_id.desc())
            .limit(HISTORY_PAGE_SIZE + 1)
            .offset((page - 1) * HISTORY_PAGE_SIZE)
        )
    )


def _marks(
    seats: sa.Select[*tuple[Any, ...]], best: int | None, worst: int | None
) -> tuple[RoundMark | None, RoundMark | None]:
    """The best and the worst round (scores `best` and `worst`): of equal ones the earliest played
    (by day, then session id, then number); none before the first round."""
    if best is None or worst is None:
        return None, None

    def first(kind: str, column: str, score: int) -> sa.Subquery:
        mine = seats.subquery()
        number = (
            sa.select(sa.func.min(Round.number))
            .select_from(Entry)
            .join(Round, Entry.round_id == Round.id)
            .where(Entry.seat_id == mine.c.seat_id, Entry.score == score)
            .scalar_subquery()
        )
        return (
            sa.select(
                sa.literal(kind).label("kind"),
                mine.c.session_id,
                mine.c.session_name,
                mine.c.played_on,
                number.label("number"),
            )
            .where(mine.c[column] == score)
            .order_by(mine.c.played_on, mine.c.session_id)
            .limit(1)
            .subquery()
        )

    found = {
        row.kind: row
        for row in db.session.execute(
            sa.union_all(
                sa.select(first("best", "best_score", best)),
                sa.select(first("worst", "worst_score", worst)),
            )
        )
    }

    def mark(kind: str, score: int) -> RoundMark:
        row = found[kind]
        return RoundMark(score, row.session_id, row.session_name, row.played_on, row.number)

    return mark("best", best), mark("worst", worst)


def _head_to_head(seats: sa.Select[*tuple[Any, ...]]) -> tuple[HeadToHead, ...]:
    """Against everyone met in a finished session of the period: how often the player finished
    ahead, behind or level."""
    mine = seats.subquery("mine")
    other = so.aliased(Seat)
    tally = (
        sa.select(
            other.player_id,
            sa.func.count(other.id).label("sessions"),
            _count(mine.c.total > other.total).label("ahead"),
            _count(mine.c.total < other.total).label("behind"),
            _count(mine.c.total == other.total).label("level"),
        )
        .select_from(mine)
        .join(other, sa.and_(other.session_id == mine.c.session_id, other.id != mine.c.seat_id))
        .where(mine.c.finished_at.is_not(None))
        .group_by(other.player_id)
        .subquery()
    )
    rows = db.session.execute(
        sa.select(
            Player.id, Player.name, tally.c.sessions, tally.c.ahead, tally.c.behind, tally.c.level
        )
        .select_from(tally)
        .join(Player, tally.c.player_id == Player.id)
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
        complete=seat.finished_at is not None,
        won=bool(seat.won),
        shared=bool(seat.won) and seat.winners > 1,
    )
