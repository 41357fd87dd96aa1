"""History and players: who played, who won, best and worst rounds, streaks, head-to-head.

Constant queries: a page reads its history in two statements (every seat of the sessions in
the period, then every entry of their rounds), whatever the size of the history, and the
statistics are worked out here in Python, the sessions' winners by the rules' own standings.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Entry, GameSession, Player, Round, Seat
from scorekeeper.rules import Problem, standings
from scorekeeper.services.errors import BadRequest, not_found
from scorekeeper.services.sessions import MAX_ID

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


# -- What the two statements read -------------------------------------------------------------


@dataclass(frozen=True)
class SeatRow:
    """One player's seat at one session, with what the statistics need of the session."""

    session_id: int
    session_name: str
    played_on: date
    rounds_planned: int
    drop_worst_round: bool
    seat_id: int
    player_id: int
    player_name: str


@dataclass(frozen=True)
class EntryRow:
    """One player's score in one round, and the seat that won the round."""

    session_id: int
    round_number: int
    winner_seat_id: int | None
    seat_id: int
    score: int


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
    history: tuple[SessionResult, ...]


@dataclass
class _Evening:
    """One session rebuilt from the rows: seats, rounds and the standings the rules give."""

    id: int
    name: str
    played_on: date
    rounds_planned: int
    drop_worst_round: bool
    seats: dict[int, int] = field(default_factory=dict)  # seat id -> player id
    rounds: dict[int, dict[int, int]] = field(default_factory=dict)  # number -> player -> score
    round_winners: dict[int, int | None] = field(default_factory=dict)  # number -> player
    totals: dict[int, int] = field(default_factory=dict)
    winners: frozenset[int] = frozenset()
    complete: bool = False

    def settle(self) -> None:
        """Totals, completion and winners by the rules (drop-worst included; ties share)."""
        players = [str(p) for p in self.seats.values()]
        ordered = [self.rounds[n] for n in sorted(self.rounds)]
        table = standings(
            players,
            [{str(p): s for p, s in scores.items()} for scores in ordered],
            self.rounds_planned,
            self.drop_worst_round,
        )
        self.totals = {int(p): t for p, t in table.totals.items()}
        self.winners = frozenset(int(p) for p in table.winners)
        self.complete = table.complete

    @property
    def order(self) -> tuple[date, int]:
        return (self.played_on, self.id)


@dataclass(frozen=True)
class History:
    """The sessions of a period, settled, and the names of everyone who sat at them."""

    evenings: tuple[_Evening, ...]
    names: dict[int, str]


def build_history(seats: Iterable[SeatRow], entries: Iterable[EntryRow]) -> History:
    """Rebuild the sessions from the rows of the two statements (pure: no database)."""
    evenings: dict[int, _Evening] = {}
    names: dict[int, str] = {}
    seat_player: dict[int, int] = {}
    for row in seats:
        evening = evenings.get(row.session_id)
        if evening is None:
            evening = evenings[row.session_id] = _Evening(
                row.session_id,
                row.session_name,
                row.played_on,
                row.rounds_planned,
                row.drop_worst_round,
            )
        evening.seats[row.seat_id] = row.player_id
        seat_player[row.seat_id] = row.player_id
        names[row.player_id] = row.player_name
    for entry in entries:
        evening = evenings.get(entry.session_id)
        player = seat_player.get(entry.seat_id)
        if evening is None or player is None:
            continue
        evening.rounds.setdefault(entry.round_number, {})[player] = entry.score
        winner = seat_player.get(entry.winner_seat_id) if entry.winner_seat_id else None
        evening.round_winners[entry.round_number] = winner
    for evening in evenings.values():
        evening.settle()
    ordered = sorted(evenings.values(), key=lambda e: e.order)
    return History(tuple(ordered), names)


def player_lines(history: History) -> list[PlayerLine]:
    """Everyone who sat at a session of the history, by name."""
    played: dict[int, int] = defaultdict(int)
    won: dict[int, int] = defaultdict(int)
    rounds_won: dict[int, int] = defaultdict(int)
    for evening in history.evenings:
        for player in set(evening.seats.values()):
            played[player] += 1
            won[player] += player in evening.winners
        for winner in evening.round_winners.values():
            if winner is not None:
                rounds_won[winner] += 1
    lines = [
        PlayerLine(player, history.names[player], played[player], won[player], rounds_won[player])
        for player in played
    ]
    return sorted(lines, key=lambda line: (line.name.casefold(), line.id))


def player_stats(history: History, player_id: int, name: str) -> PlayerStats:
    """One player's statistics over the history (which may hold sessions they did not play)."""
    mine = [e for e in history.evenings if player_id in e.seats.values()]
    finished = [e for e in mine if e.complete]
    marks: list[RoundMark] = []
    rounds_won = 0
    for evening in mine:
        for number in sorted(evening.rounds):
            score = evening.rounds[number].get(player_id)
            if score is not None:
                marks.append(RoundMark(score, evening.id, evening.name, evening.played_on, number))
            rounds_won += evening.round_winners.get(number) == player_id
    # The earliest round wins a tie for best or worst: marks are in the order they were played.
    best = max(marks, key=lambda m: m.score, default=None)
    worst = min(marks, key=lambda m: m.score, default=None)
    average = sum(m.score for m in marks) / len(marks) if marks else None
    return PlayerStats(
        id=player_id,
        name=name,
        sessions_played=len(mine),
        sessions_finished=len(finished),
        sessions_won=sum(player_id in e.winners for e in finished),
        rounds_played=len(marks),
        rounds_won=rounds_won,
        average_score=average,
        best=best,
        worst=worst,
        streak=current_streak([player_id in e.winners for e in reversed(finished)]),
        head_to_head=_head_to_head(finished, player_id, history.names),
        history=tuple(_result(e, player_id) for e in reversed(mine)),
    )


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


def _head_to_head(
    finished: Sequence[_Evening], player_id: int, names: dict[int, str]
) -> tuple[HeadToHead, ...]:
    tally: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # sessions, ahead, behind, =
    for evening in finished:
        mine = evening.totals[player_id]
        for other in set(evening.seats.values()) - {player_id}:
            counts = tally[other]
            counts[0] += 1
            theirs = evening.totals[other]
            counts[1 if mine > theirs else 2 if mine < theirs else 3] += 1
    rows = [HeadToHead(other, names[other], *counts) for other, counts in tally.items()]
    return tuple(
        sorted(rows, key=lambda h: (-h.sessions, h.opponent_name.casefold(), h.opponent_id))
    )


def _result(evening: _Evening, player_id: int) -> SessionResult:
    return SessionResult(
        session_id=evening.id,
        session_name=evening.name,
        played_on=evening.played_on,
        total=evening.totals[player_id],
        rounds_played=len(evening.rounds),
        rounds_planned=evening.rounds_planned,
        complete=evening.complete,
        won=player_id in evening.winners,
        shared=player_id in evening.winners and len(evening.winners) > 1,
    )


# -- Reading the database ---------------------------------------------------------------------


def _in_period(period: Period) -> list[sa.ColumnElement[bool]]:
    conditions: list[sa.ColumnElement[bool]] = []
    if period.start is not None:
        conditions.append(GameSession.played_on >= period.start)
    if period.end is not None:
        conditions.append(GameSession.played_on <= period.end)
    return conditions


def load_history(period: Period, player_id: int | None = None) -> History:
    """The sessions of the period (only those the player sat at, if one is named): two
    statements, however long the history."""
    conditions = _in_period(period)
    if player_id is not None:
        conditions.append(
            GameSession.id.in_(sa.select(Seat.session_id).where(Seat.player_id == player_id))
        )
    seat_rows = db.session.execute(
        sa.select(
            GameSession.id,
            GameSession.name,
            GameSession.played_on,
            GameSession.rounds_planned,
            GameSession.rules,
            Seat.id,
            Seat.player_id,
            Player.name,
        )
        .select_from(Seat)
        .join(GameSession, Seat.session_id == GameSession.id)
        .join(Player, Seat.player_id == Player.id)
        .where(*conditions)
        .order_by(GameSession.id, Seat.position)
    ).all()
    entry_rows = db.session.execute(
        sa.select(Round.session_id, Round.number, Round.winner_seat_id, Entry.seat_id, Entry.score)
        .select_from(Entry)
        .join(Round, Entry.round_id == Round.id)
        .join(GameSession, Round.session_id == GameSession.id)
        .where(*conditions)
        .order_by(Round.session_id, Round.number)
    ).all()
    seats = [
        SeatRow(sid, sname, played_on, planned, bool((rules or {}).get("drop_worst_round")), *rest)
        for sid, sname, played_on, planned, rules, *rest in seat_rows
    ]
    return build_history(seats, [EntryRow(*row) for row in entry_rows])


def list_players(period: Period | None = None) -> list[PlayerLine]:
    """Everyone who played in the period, with sessions played and won and rounds won."""
    return player_lines(load_history(period or Period()))


def player_name(player_id: int) -> str:
    """The name of the remembered player, or NotFound."""
    name = None
    if 1 <= player_id <= MAX_ID:
        name = db.session.scalar(sa.select(Player.name).where(Player.id == player_id))
    if name is None:
        raise not_found("player", player_id)
    return name


def get_player_stats(player_id: int, period: Period | None = None) -> PlayerStats:
    """One player's page (three statements), or NotFound for an id that names no player."""
    name = player_name(player_id)
    return player_stats(load_history(period or Period(), player_id), player_id, name)
