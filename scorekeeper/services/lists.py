"""Lists of sessions: the home page, the summaries, the names and rules offered for the next one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player, Seat
from scorekeeper.rules import RulesError, Settings
from scorekeeper.services.views import MAX_ID, SessionView
from scorekeeper.services.writes import standing_of

# Sessions on one page of the home page.
HOME_PAGE_SIZE = 20


@dataclass(frozen=True)
class SessionSummary:
    """A session as a list shows it, read from the session's row and seats: no rounds."""

    id: int
    name: str
    played_on: date
    players: tuple[str, ...]
    rounds_planned: int
    rounds_played: int
    complete: bool
    leaders: tuple[str, ...]
    leading_total: int | None
    winners: tuple[str, ...]
    started: datetime | None = None  # when it was made (UTC), to tell a day's sessions apart


@dataclass(frozen=True)
class SessionsPage:
    """One page of the home page: sessions in progress first, then finished, newest first."""

    number: int
    sessions: tuple[SessionSummary, ...]
    has_older: bool

    @property
    def has_newer(self) -> bool:
        return self.number > 1


def summary_of(view: SessionView) -> SessionSummary:
    """The summary of a session worked out from its whole table (what the row must hold)."""
    table = view.standings
    return SessionSummary(
        view.id,
        view.name,
        view.played_on,
        view.players,
        view.rounds_planned,
        table.rounds_played,
        view.complete,
        table.leaders,
        standing_of(table)["leading_total"],
        table.winners,
        view.created_at,
    )


def _summary_columns() -> tuple[so.InstrumentedAttribute[Any], ...]:
    return (
        GameSession.id,
        GameSession.name,
        GameSession.played_on,
        GameSession.rounds_planned,
        GameSession.rounds_played,
        GameSession.finished_at,
        GameSession.standing,
        GameSession.created_at,
    )


def _summaries(
    rows: Sequence[sa.Row[Any]], seats: sa.ColumnElement[bool] | None
) -> list[SessionSummary]:
    """Summaries of the session rows, with their players read in one more statement (the
    seats matching `seats`, or those of the rows' ids)."""
    if not rows:
        return []
    if seats is None:
        seats = Seat.session_id.in_([row.id for row in rows])
    players: dict[int, list[str]] = {}
    for session_id, name in db.session.execute(
        sa.select(Seat.session_id, Seat.name).where(seats).order_by(Seat.session_id, Seat.position)
    ):
        players.setdefault(session_id, []).append(name)
    summaries = []
    for row in rows:
        standing = row.standing or {}
        summaries.append(
            SessionSummary(
                row.id,
                row.name,
                row.played_on,
                tuple(players.get(row.id, ())),
                row.rounds_planned,
                row.rounds_played,
                row.finished_at is not None,
                tuple(standing.get("leaders", ())),
                standing.get("leading_total"),
                tuple(standing.get("winners", ())),
                row.created_at,
            )
        )
    return summaries


def list_sessions(limit: int | None = None, offset: int = 0) -> list[SessionSummary]:
    """Sessions newest first (`limit` of them after skipping `offset`, or all): two
    statements, whatever their number, reading the summary kept on each session's row."""
    rows = db.session.execute(
        sa.select(*_summary_columns()).order_by(GameSession.id.desc()).limit(limit).offset(offset)
    ).all()
    # Newest first, so the page's sessions are exactly those with ids from its last to its first.
    seats = Seat.session_id.between(rows[-1].id, rows[0].id) if rows else None
    return _summaries(rows, seats)


def _in_home_order(upto: int) -> sa.Subquery:
    """The first `upto` sessions in progress and the first `upto` finished, newest first, with
    `part` 0 or 1."""
    parts = []
    for part, condition in enumerate(
        (GameSession.finished_at.is_(None), GameSession.finished_at.is_not(None))
    ):
        newest = (
            sa.select(GameSession.id, sa.literal_column(str(part)).label("part"))
            .where(condition)
            .order_by(GameSession.id.desc())
            .limit(upto)
            .subquery()
        )
        parts.append(sa.select(newest.c.id, newest.c.part))
    return sa.union_all(*parts).subquery("home_order")


def home_page(number: int = 1, size: int = HOME_PAGE_SIZE) -> SessionsPage:
    """Page `number` (from 1) of the sessions, in progress first, then finished, newest
    first within each: two statements whatever the number of sessions, no rounds read."""
    number = max(1, min(number, MAX_ID // size))
    skip = (number - 1) * size
    order = _in_home_order(skip + size + 1)
    rows = db.session.execute(
        sa.select(*_summary_columns())
        .join(order, order.c.id == GameSession.id)
        .order_by(order.c.part, order.c.id.desc())
        .limit(size + 1)
        .offset(skip)
    ).all()
    summaries = _summaries(rows[:size], None)
    return SessionsPage(number, tuple(summaries), has_older=len(rows) > size)


def last_rules() -> Settings:
    """The settings of the family's latest session: the default for the next one."""
    rules = db.session.scalar(sa.select(GameSession.rules).order_by(GameSession.id.desc()))
    try:
        return Settings.from_dict(rules)
    except RulesError:
        return Settings()


def known_player_names(limit: int = 30) -> list[str]:
    """Names played before, by the day each last played (the latest first; on one day, the
    evening begun last), to offer with one tap: the page shows the first few."""
    last_day = sa.func.max(GameSession.played_on).label("last_day")
    latest = sa.func.max(Seat.session_id).label("latest")
    rows = db.session.execute(
        sa.select(Player.name, last_day, latest)
        .join(Seat, Seat.player_id == Player.id)
        .join(GameSession, GameSession.id == Seat.session_id)
        .group_by(Player.id, Player.name)
        .order_by(last_day.desc(), latest.desc(), Player.name)
        .limit(limit)
    ).all()
    return [row.name for row in rows]
