"""Fill an empty database with a long family history, fast, for the scale benchmarks.

    python bench/seed.py --database-url URL [--sessions 10000] [--rounds-per-session 30]

The schema is made by the migrations (as `flask db upgrade` does); the rows go in with bulk
inserts (executemany, thousands of rows a statement batch), in one transaction. The history
is what a family's would look like: eight names, three to six of them at each session, most
rounds ending with someone going out (the others' racks give the winner's score, so every
round sums to zero), a few with the pool run out (scored by the rules module itself), the
finished sessions' summaries, finish times and seats' lines filled in, the newest sessions
still in play.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import flask_migrate  # noqa: E402
import sqlalchemy as sa  # noqa: E402

from scorekeeper import create_app  # noqa: E402
from scorekeeper.extensions import db  # noqa: E402
from scorekeeper.models import Entry, GameSession, Player, Round, Seat  # noqa: E402
from scorekeeper.rules import Rack, RoundEntry, Settings, score_round, standings  # noqa: E402
from scorekeeper.rules.players import name_key  # noqa: E402
from scorekeeper.services.changes import round_change  # noqa: E402
from scorekeeper.services.writes import standing_of  # noqa: E402

FAMILY = ("Ann", "Bo", "Cy", "Di", "Łucja", "Søren", "Mari", "Élodie")
# How many players sit at a session, and how often.
TABLE_SIZES = (3, 4, 4, 4, 4, 5, 5, 6)
POOL_EMPTY_SHARE = 0.06
DROP_WORST_SHARE = 0.1
# Sessions left unfinished among the old ones (the newest two are always still in play).
ABANDONED_SHARE = 0.005
NAMED_EVENINGS = ("Christmas", "Grandma's birthday", "New Year's Eve", "Rainy Sunday")
# Sessions whose rows are built and inserted at a time: memory stays small however many.
BATCH_SESSIONS = 1000


@dataclass
class Batch:
    """The rows of a run of sessions, table by table, ready for executemany."""

    sessions: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Counter:
    """The next id of each table: the database is empty, so ids are given, not returned."""

    seat: int = 0
    round: int = 0
    entry: int = 0

    def next(self, name: str) -> int:
        value = getattr(self, name) + 1
        setattr(self, name, value)
        return value


def _rack(rng: random.Random) -> int:
    """A rack left when someone goes out: a few tiles, now and then a joker (30)."""
    value = sum(rng.randint(1, 13) for _ in range(rng.randint(0, 7)))
    return value + (30 if rng.random() < 0.06 else 0)


# Racks drawn ahead from that spread: picking among them is many times quicker than drawing.
RACKS = tuple(_rack(random.Random(i)) for i in range(4096))


def _went_out(players: Sequence[str], rng: random.Random) -> tuple[str, dict[str, int | None]]:
    """Someone went out: the others lose their racks, the winner scores their sum."""
    winner = rng.choice(players)
    others = [p for p in players if p != winner]
    racks: dict[str, int | None] = dict(zip(others, rng.choices(RACKS, k=len(others)), strict=True))
    racks[winner] = None
    return winner, racks


def _pool_empty(
    players: Sequence[str], settings: Settings, rng: random.Random
) -> tuple[str, dict[str, int], dict[str, int]]:
    """The pool ran out: the rules module scores it (the lowest rack takes the differences)."""
    racks = {p: v + 5 for p, v in zip(players, rng.choices(RACKS, k=len(players)), strict=True)}
    low = min(racks.values())
    for p in [p for p in players if racks[p] == low][1:]:
        racks[p] += 1  # one lowest rack, so no tile counts are needed to settle a tie
    scored = score_round(
        players, RoundEntry("pool_empty", racks={p: Rack(v) for p, v in racks.items()}), settings
    )
    assert scored.winner is not None
    return scored.winner, racks, scored.scores


def build_session(
    number: int, total: int, rounds_per_session: int, today: date, rng: random.Random, ids: Counter
) -> Batch:
    """Session `number` (1 the oldest) of `total`: its row, seats, rounds and entries."""
    batch = Batch()
    span = max(total // 3, 30)  # about three sessions a day, over years of evenings
    played_on = today - timedelta(days=span - (number - 1) * span // total)
    started = datetime.combine(played_on, datetime.min.time()) + timedelta(
        hours=18, minutes=rng.randint(0, 180)
    )
    players = rng.sample(FAMILY, rng.choice(TABLE_SIZES))
    settings = Settings(
        tile_sets=2 if len(players) > 4 else 1, drop_worst_round=rng.random() < DROP_WORST_SHARE
    )
    in_play = number > total - 2 or rng.random() < ABANDONED_SHARE
    # A session still in play agreed one more round than it has played, so the history holds
    # exactly sessions x rounds_per_session rounds.
    planned = rounds_per_session + 1 if in_play else rounds_per_session
    seat_ids = {p: ids.next("seat") for p in players}
    for position, player in enumerate(players):
        batch.seats.append(
            {
                "id": seat_ids[player],
                "session_id": number,
                "player_id": FAMILY.index(player) + 1,
                "position": position,
                "name": player,
            }
        )
    table: list[dict[str, int]] = []
    for round_number in range(1, rounds_per_session + 1):
        round_id = ids.next("round")
        when = started + timedelta(minutes=6 * round_number)
        if rng.random() < POOL_EMPTY_SHARE:
            ending = "pool_empty"
            winner, racks, scores = _pool_empty(players, settings, rng)
            values: dict[str, int | None] = dict(racks)
        else:
            ending = "went_out"
            winner, values = _went_out(players, rng)
            losses = sum(v for v in values.values() if v is not None)
            scores = {p: losses if p == winner else -(values[p] or 0) for p in players}
        table.append(scores)
        batch.rounds.append(
            {
                "id": round_id,
                "session_id": number,
                "number": round_number,
                "ending": ending,
                "winner_seat_id": seat_ids[winner],
                "idempotency_key": None,
                "created_at": when,
                "updated_at": when,
                "version": 1,
            }
        )
        for player in sorted(players, key=seat_ids.__getitem__):
            batch.entries.append(
                {
                    "id": ids.next("entry"),
                    "round_id": round_id,
                    "seat_id": seat_ids[player],
                    "rack_value": values[player],
                    "tiles": None,
                    "tile_count": None,
                    "tile_count_entered": False,
                    "score": scores[player],
                    "flagged": False,
                }
            )
    result = standings(players, table, planned, settings.drop_worst_round)
    round_winners = [r["winner_seat_id"] for r in batch.rounds]
    for seat in batch.seats:  # each seat's line of the table, as services.sessions keeps it
        mine = [scores[seat["name"]] for scores in table]
        seat.update(
            total=result.totals[seat["name"]],
            won=seat["name"] in result.winners,
            rounds_won=round_winners.count(seat["id"]),
            score_sum=sum(mine),
            best_score=max(mine, default=None),
            worst_score=min(mine, default=None),
        )
    last = started + timedelta(minutes=6 * rounds_per_session)
    name = rng.choice(NAMED_EVENINGS) if rng.random() < 0.05 else f"{played_on:%A %-d %B}"
    batch.sessions.append(
        {
            "id": number,
            "name": name,
            "played_on": played_on,
            "rounds_planned": planned,
            "rules": settings.to_dict(),
            "created_at": started,
            "updated_at": last,
            "finished_at": last if result.complete else None,
            "version": 1 + rounds_per_session,
            "change": round_change("round_added", rounds_per_session).stored(),
            "notes": "",
            "rounds_played": result.rounds_played,
            "standing": standing_of(result),
        }
    )
    return batch


def batches(
    sessions: int, rounds_per_session: int, today: date, seed: int
) -> Iterator[tuple[int, Batch]]:
    """The history a batch of sessions at a time, oldest first (deterministic for a seed)."""
    rng = random.Random(seed)
    ids = Counter()
    for first in range(1, sessions + 1, BATCH_SESSIONS):
        batch = Batch()
        last = min(first + BATCH_SESSIONS, sessions + 1)
        for number in range(first, last):
            one = build_session(number, sessions, rounds_per_session, today, rng, ids)
            batch.sessions += one.sessions
            batch.seats += one.seats
            batch.rounds += one.rounds
            batch.entries += one.entries
        yield last - first, batch


def insert(connection: sa.Connection, table: sa.Table, rows: Sequence[dict[str, Any]]) -> None:
    """Many rows at once: one executemany on SQLite; COPY on PostgreSQL, whose driver's
    executemany still sends a statement a row (ten times slower here)."""
    if not rows:
        return
    if connection.dialect.name != "postgresql":
        connection.execute(table.insert(), rows)
        return
    columns = list(rows[0])
    as_json = {c.name for c in table.columns if isinstance(c.type, sa.JSON)}
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    with cursor.copy(f"COPY {table.name} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row([json.dumps(row[c]) if c in as_json else row[c] for c in columns])


def _reset_sequences(connection: sa.Connection) -> None:
    """PostgreSQL's id sequences must move past the ids given here."""
    if connection.dialect.name != "postgresql":
        return
    for table in ("players", "sessions", "seats", "rounds", "entries"):
        connection.execute(
            sa.text(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
            )
        )


def seed(
    url: str, sessions: int = 10_000, rounds_per_session: int = 30, seed: int = 6
) -> dict[str, int]:
    """Migrate the empty database at `url` to the head, then fill it; returns the row counts."""
    with tempfile.TemporaryDirectory() as instance:
        config = {"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url}
        app = create_app(config, instance_path=instance)
        with app.app_context():
            flask_migrate.upgrade()
            counts = fill(sessions, rounds_per_session, seed)
            db.session.remove()
            settle(db.engine)
            db.engine.dispose()
    return counts


def settle(engine: sa.Engine) -> None:
    """Leave the database as one in use for years would be, not as one just loaded: on
    PostgreSQL the planner's statistics (autovacuum's work), on SQLite the write-ahead log
    folded into the file (a checkpoint), so the measurements after start from there."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql(
                "VACUUM ANALYZE"
            )
        return
    path = engine.url.database
    if engine.dialect.name == "sqlite" and path and path != ":memory:":
        engine.dispose()
        with closing(sqlite3.connect(path)) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def fill(sessions: int, rounds_per_session: int, seed: int = 6) -> dict[str, int]:
    """Insert the history into the app's (empty, migrated) database in one transaction."""
    counts = dict.fromkeys(("players", "sessions", "seats", "rounds", "entries"), 0)
    with db.engine.begin() as connection:
        if connection.scalar(sa.select(sa.func.count()).select_from(GameSession)):
            raise SystemExit("The database already holds sessions: seed an empty one.")
        joined = datetime(2000, 1, 1)
        connection.execute(
            sa.insert(Player),
            [
                {"id": i, "name": n, "name_key": name_key(n), "created_at": joined}
                for i, n in enumerate(FAMILY, 1)
            ],
        )
        counts["players"] = len(FAMILY)
        for made, batch in batches(sessions, rounds_per_session, date.today(), seed):
            insert(connection, GameSession.__table__, batch.sessions)
            insert(connection, Seat.__table__, batch.seats)
            insert(connection, Round.__table__, batch.rounds)
            insert(connection, Entry.__table__, batch.entries)
            counts["sessions"] += made
            counts["seats"] += len(batch.seats)
            counts["rounds"] += len(batch.rounds)
            counts["entries"] += len(batch.entries)
        _reset_sequences(connection)
    return counts


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="an empty database (any schema)")
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--rounds-per-session", type=int, default=30)
    parser.add_argument("--seed", type=int, default=6, help="the same seed gives the same rows")
    args = parser.parse_args(argv)
    if not 1 <= args.rounds_per_session <= 99:
        parser.error("--rounds-per-session is from 1 to 99 (a session has at most 100 rounds)")
    started = time.perf_counter()
    counts = seed(args.database_url, args.sessions, args.rounds_per_session, args.seed)
    took = time.perf_counter() - started
    print(", ".join(f"{n:,} {name}" for name, n in counts.items()) + f" in {took:.1f} s")


if __name__ == "__main__":
    main()
