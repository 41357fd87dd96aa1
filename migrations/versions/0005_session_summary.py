"""session summary: rounds played and standing on each session, for lists that read no rounds

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 08:27:06.009414

The home page and the API's list of sessions read each session's summary from its row
instead of every round. The summary of the sessions already played is worked out here, a few
hundred sessions at a time, by a frozen copy of the standings as the rules gave them when this
migration was written (_standing below). A migration imports none of the app's code: a later
change of the rules must not change what an old migration computes, nor a rename break the
upgrade of an old database. After a change of the standings rules, `flask resummarise` works
every summary out again with the rules of the day.
"""

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

NO_STANDING = {"leaders": [], "leading_total": None, "winners": []}
# Sessions summarised per read of their rounds: memory stays small however long the history.
CHUNK = 500

sessions = sa.table(
    "sessions",
    sa.column("id", sa.Integer),
    sa.column("rounds_planned", sa.Integer),
    sa.column("rules", sa.JSON),
    sa.column("rounds_played", sa.Integer),
    sa.column("standing", sa.JSON),
)
seats = sa.table(
    "seats",
    sa.column("id", sa.Integer),
    sa.column("session_id", sa.Integer),
    sa.column("position", sa.Integer),
    sa.column("name", sa.String),
)
rounds = sa.table(
    "rounds", sa.column("id", sa.Integer), sa.column("session_id"), sa.column("number")
)
entries = sa.table(
    "entries", sa.column("round_id", sa.Integer), sa.column("seat_id"), sa.column("score")
)


def upgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("rounds_played", sa.Integer(), server_default="0", nullable=False)
        )
        batch_op.add_column(
            sa.Column("standing", sa.JSON(), server_default=json.dumps(NO_STANDING), nullable=False)
        )
        batch_op.create_index(
            "ix_sessions_in_progress",
            ["id"],
            unique=False,
            sqlite_where=sa.text("finished_at IS NULL"),
            postgresql_where=sa.text("finished_at IS NULL"),
        )
    summarise(op.get_bind())


def summarise(connection: sa.Connection) -> None:
    """Fill rounds_played and standing of every session from its seats and rounds."""
    ids = connection.scalars(sa.select(sessions.c.id).order_by(sessions.c.id)).all()
    for start in range(0, len(ids), CHUNK):
        low, high = ids[start], ids[min(start + CHUNK, len(ids)) - 1]
        updates = [
            {"sid": sid, "played": played, "standing": standing}
            for sid, played, standing in _summaries(connection, low, high)
        ]
        if updates:
            connection.execute(
                sa.update(sessions)
                .where(sessions.c.id == sa.bindparam("sid"))
                .values(rounds_played=sa.bindparam("played"), standing=sa.bindparam("standing")),
                updates,
            )


def _summaries(
    connection: sa.Connection, low: int, high: int
) -> list[tuple[int, int, dict[str, Any]]]:
    """(id, rounds played, standing) of the sessions with ids from low to high."""
    names: dict[int, dict[int, str]] = {}
    for session_id, seat_id, name in connection.execute(
        sa.select(seats.c.session_id, seats.c.id, seats.c.name)
        .where(seats.c.session_id.between(low, high))
        .order_by(seats.c.session_id, seats.c.position)
    ):
        names.setdefault(session_id, {})[seat_id] = name
    played: dict[int, dict[int, dict[str, int]]] = {}
    for session_id, number, seat_id, score in connection.execute(
        sa.select(rounds.c.session_id, rounds.c.number, entries.c.seat_id, entries.c.score)
        .select_from(rounds)
        .outerjoin(entries, entries.c.round_id == rounds.c.id)
        .where(rounds.c.session_id.between(low, high))
    ):
        scores = played.setdefault(session_id, {}).setdefault(number, {})
        if seat_id is not None and seat_id in names.get(session_id, {}):
            scores[names[session_id][seat_id]] = score
    found = []
    for row in connection.execute(
        sa.select(sessions.c.id, sessions.c.rounds_planned, sessions.c.rules).where(
            sessions.c.id.between(low, high)
        )
    ):
        by_number = played.get(row.id, {})
        standing = _standing(
            list(names.get(row.id, {}).values()),
            [by_number[n] for n in sorted(by_number)],
            row.rounds_planned,
            bool((row.rules or {}).get("drop_worst_round")),
        )
        found.append((row.id, len(by_number), standing))
    return found


def _standing(
    players: list[str], rounds: list[dict[str, int]], rounds_planned: int, drop_worst_round: bool
) -> dict[str, Any]:
    """The standing after `rounds` (round N is rounds[N-1], a score per player): the leaders
    in seating order, their total, and the winners once the rounds planned are played. Each
    total is the sum of the player's rounds; with drop-worst on and two rounds or more played,
    less the player's lowest round. Frozen: the rules as they stood in this migration."""
    totals = {p: sum(scores.get(p, 0) for scores in rounds) for p in players}
    if drop_worst_round and len(rounds) >= 2:
        for p in players:
            totals[p] -= min(scores.get(p, 0) for scores in rounds)
    top = max(totals.values()) if rounds and totals else None
    leaders = [p for p in players if top is not None and totals[p] == top]
    winners = leaders if len(rounds) >= rounds_planned else []
    return {"leaders": leaders, "leading_total": top, "winners": winners}


def downgrade() -> None:
    # Not batch mode: on SQLite a batch drop_column copies the table and drops the old one,
    # and dropping `sessions` with foreign keys on deletes every seat and round (ON DELETE
    # CASCADE). ALTER TABLE ... DROP COLUMN (SQLite 3.35 and later) keeps them.
    op.drop_index(
        "ix_sessions_in_progress",
        table_name="sessions",
        sqlite_where=sa.text("finished_at IS NULL"),
        postgresql_where=sa.text("finished_at IS NULL"),
    )
    op.drop_column("sessions", "standing")
    op.drop_column("sessions", "rounds_played")
