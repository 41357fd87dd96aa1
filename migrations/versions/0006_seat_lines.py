"""seat lines: each seat's total, win, rounds won and round scores, for the statistics

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 09:40:00.000000

The players' pages (services/stats.py) read each seat's line of its session's table from the
seat instead of every round of the history. The lines of the sessions already played are
worked out here, a few hundred sessions at a time, by a frozen copy of the standings as the
rules gave them when this migration was written (_totals_and_winners below). A migration
imports none of the app's code: a later change of the rules must not change what an old
migration computes, nor a rename break the upgrade of an old database. After a change of the
standings rules, `flask resummarise` works every line out again with the rules of the day.
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# Sessions whose lines are worked out per read of their rounds: memory stays small.
CHUNK = 500

sessions = sa.table(
    "sessions",
    sa.column("id", sa.Integer),
    sa.column("rounds_planned", sa.Integer),
    sa.column("rules", sa.JSON),
)
seats = sa.table(
    "seats",
    sa.column("id", sa.Integer),
    sa.column("session_id", sa.Integer),
    sa.column("position", sa.Integer),
    sa.column("name", sa.String),
    sa.column("total", sa.Integer),
    sa.column("won", sa.Boolean),
    sa.column("rounds_won", sa.Integer),
    sa.column("score_sum", sa.Integer),
    sa.column("best_score", sa.Integer),
    sa.column("worst_score", sa.Integer),
)
rounds = sa.table(
    "rounds",
    sa.column("id", sa.Integer),
    sa.column("session_id", sa.Integer),
    sa.column("number", sa.Integer),
    sa.column("winner_seat_id", sa.Integer),
)
entries = sa.table(
    "entries", sa.column("round_id", sa.Integer), sa.column("seat_id"), sa.column("score")
)
LINE = ("total", "won", "rounds_won", "score_sum", "best_score", "worst_score")


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("total", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("won", sa.Boolean(), server_default="0", nullable=False))
        batch_op.add_column(
            sa.Column("rounds_won", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(
            sa.Column("score_sum", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(sa.Column("best_score", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("worst_score", sa.Integer(), nullable=True))
    fill(op.get_bind())


def fill(connection: sa.Connection) -> None:
    """Fill the line of every seat from its session's seats and rounds."""
    ids = connection.scalars(sa.select(sessions.c.id).order_by(sessions.c.id)).all()
    for start in range(0, len(ids), CHUNK):
        low, high = ids[start], ids[min(start + CHUNK, len(ids)) - 1]
        updates = [
            {"seat": seat, **{f"line_{k}": v for k, v in line.items()}}
            for seat, line in _lines(connection, low, high)
        ]
        if updates:  # (a bound name may not be a column's: hence line_total and so on)
            connection.execute(
                sa.update(seats)
                .where(seats.c.id == sa.bindparam("seat"))
                .values({column: sa.bindparam(f"line_{column}") for column in LINE}),
                updates,
            )


def _lines(connection: sa.Connection, low: int, high: int) -> list[tuple[int, dict[str, Any]]]:
    """(seat id, line) of the seats of the sessions with ids from low to high."""
    names: dict[int, dict[int, str]] = {}
    for session_id, seat_id, name in connection.execute(
        sa.select(seats.c.session_id, seats.c.id, seats.c.name)
        .where(seats.c.session_id.between(low, high))
        .order_by(seats.c.session_id, seats.c.position)
    ):
        names.setdefault(session_id, {})[seat_id] = name
    played: dict[int, dict[int, dict[int, int]]] = {}  # session -> number -> seat -> score
    round_winners: dict[int, dict[int, int | None]] = {}  # session -> number -> winner seat
    for session_id, number, winner, seat_id, score in connection.execute(
        sa.select(
            rounds.c.session_id,
            rounds.c.number,
            rounds.c.winner_seat_id,
            entries.c.seat_id,
            entries.c.score,
        )
        .select_from(rounds)
        .outerjoin(entries, entries.c.round_id == rounds.c.id)
        .where(rounds.c.session_id.between(low, high))
    ):
        scores = played.setdefault(session_id, {}).setdefault(number, {})
        if seat_id is not None and score is not None:
            round_winners.setdefault(session_id, {})[number] = winner
            if seat_id in names.get(session_id, {}):
                scores[seat_id] = score
    found = []
    for row in connection.execute(
        sa.select(sessions.c.id, sessions.c.rounds_planned, sessions.c.rules).where(
            sessions.c.id.between(low, high)
        )
    ):
        seated = names.get(row.id, {})
        by_number = played.get(row.id, {})
        totals, winners = _totals_and_winners(
            list(seated),
            [by_number[n] for n in sorted(by_number)],
            row.rounds_planned,
            bool((row.rules or {}).get("drop_worst_round")),
        )
        won_rounds = list(round_winners.get(row.id, {}).values())
        for seat in seated:
            mine = [scores[seat] for scores in by_number.values() if seat in scores]
            line = {
                "total": totals[seat],
                "won": seat in winners,
                "rounds_won": won_rounds.count(seat),
                "score_sum": sum(mine),
                "best_score": max(mine, default=None),
                "worst_score": min(mine, default=None),
            }
            found.append((seat, line))
    return found


def _totals_and_winners(
    seats: list[int], rounds: list[dict[int, int]], rounds_planned: int, drop_worst_round: bool
) -> tuple[dict[int, int], list[int]]:
    """Each seat's total after `rounds` (round N is rounds[N-1], a score per seat) and the
    seats that won: those with the highest total once the rounds planned are played. A total
    is the sum of the seat's rounds; with drop-worst on and two rounds or more played, less
    the seat's lowest round. Frozen: the rules as they stood in this migration."""
    totals = {s: sum(scores.get(s, 0) for scores in rounds) for s in seats}
    if drop_worst_round and len(rounds) >= 2:
        for s in seats:
            totals[s] -= min(scores.get(s, 0) for scores in rounds)
    top = max(totals.values()) if rounds and totals else None
    complete = len(rounds) >= rounds_planned
    winners = [s for s in seats if complete and top is not None and totals[s] == top]
    return totals, winners


def downgrade() -> None:
    # Not batch mode: on SQLite a batch drop_column copies the table and drops the old one,
    # the one every entry and round winner points at. ALTER TABLE ... DROP COLUMN (SQLite
    # 3.35 and later) leaves the table, and every row, where it is.
    for column in reversed(LINE):
        op.drop_column("seats", column)
