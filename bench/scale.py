"""Scale: the home page, the history CSV and the player pages over a long family history.

Seeds databases of 1,000 and 10,000 sessions of 30 rounds (bench/seed.py; `--quick`: 100 and
1,000) on SQLite, and on PostgreSQL when one answers on 127.0.0.1:5432 (in a database
`scorekeeper_bench`, made and dropped here), then measures through the Flask test client:
the home page (first and last page) and the API's list; the whole-history CSV streamed chunk
by chunk in a fresh process per size (its time, size, peak Python heap and growth of the
process's resident memory); the player pages; and the query plans behind them, with and
without the index the home page's sessions in progress are read by.

Goals (issue 6): the first page of the home page takes the same time at 10x the sessions
(its reads do not grow with the history), and the CSV's peak memory stays flat as the
history grows. `python bench/scale.py [--quick]` prints the section of docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import PYTHON, ROOT, machine, median, table  # noqa: E402

SIZES = (1_000, 10_000)
QUICK_SIZES = (100, 1_000)
ROUNDS_PER_SESSION = 30
RUNS = 15
SLOW_RUNS = 3  # the old home page's read of the whole history: fewer runs, no warm-up
CSV_RUNS = 3
POSTGRES_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
POSTGRES_BENCH = "postgresql+psycopg://postgres@127.0.0.1:5432/scorekeeper_bench"
HOME_INDEX = "ix_sessions_in_progress"
# Peak memory counts as flat when 10x the history adds less than this (MiB) and under 1.5x.
FLAT_MIB = 5.0
# The first page counts as independent of the history when 10x the sessions take < 1.5x.
FLAT_TIME = 1.5
BEFORE = "the home page's read before the summaries (every session, its rounds and entries)"


@dataclass
class Measured:
    """What one database of one size gave."""

    database: str
    sessions: int
    rounds: int
    seeded_s: float
    home_first_ms: float
    home_last_ms: float
    last_page: int
    api_all_ms: float
    api_page_ms: float
    players_ms: float
    player_ms: float
    players_year_ms: float
    csv: dict[str, float]
    plans: dict[str, list[str]]
    index_before: list[str]
    index_after: list[str]
    query_without_index_ms: float
    query_with_index_ms: float
    old_home_ms: float | None


# -- Databases ---------------------------------------------------------------------------------


def postgres_reachable() -> bool:
    import sqlalchemy as sa

    engine = sa.create_engine(POSTGRES_ADMIN, connect_args={"connect_timeout": 3})
    try:
        with engine.connect():
            return True
    except Exception:  # noqa: BLE001 - any failure means: no server to measure
        return False
    finally:
        engine.dispose()


@contextmanager
def empty_database(kind: str, workdir: Path, sessions: int) -> Iterator[str]:
    """The URL of an empty database of that kind, dropped (or deleted) afterwards."""
    if kind == "sqlite":
        path = workdir / f"scale-{sessions}.sqlite"
        yield f"sqlite:///{path}"
        for leftover in workdir.glob(f"scale-{sessions}.sqlite*"):
            leftover.unlink()
        return
    import sqlalchemy as sa

    admin = sa.create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql("DROP DATABASE IF EXISTS scorekeeper_bench WITH (FORCE)")
            connection.exec_driver_sql("CREATE DATABASE scorekeeper_bench")
        yield POSTGRES_BENCH
        with admin.connect() as connection:
            connection.exec_driver_sql("DROP DATABASE IF EXISTS scorekeeper_bench WITH (FORCE)")
    finally:
        admin.dispose()


def bench_app(url: str, workdir: Path) -> Any:
    from scorekeeper import create_app

    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": url,
            "PASSPHRASE": None,
        },
        instance_path=str(workdir / "instance"),
    )


# -- Timing ------------------------------------------------------------------------------------


def timed_ms(action: Callable[[], object], runs: int, warm: bool = True) -> float:
    """The median of `runs` timings (ms), after one warm-up unless `warm` is False."""
    if warm:
        action()
    found = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        found.append((time.perf_counter() - started) * 1000)
    return median(found)


def get(client: Any, url: str) -> Callable[[], None]:
    def fetch() -> None:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    return fetch


# -- Plans -------------------------------------------------------------------------------------


def statements_of(app: Any, action: Callable[[], object]) -> list[tuple[str, Any]]:
    """The statements (and parameters) an action sends, transaction control left out."""
    import sqlalchemy as sa

    from scorekeeper.extensions import db

    sent: list[tuple[str, Any]] = []

    def keep(_conn: object, _cursor: object, statement: str, parameters: Any, *_: object) -> None:
        if not statement.lstrip().upper().startswith(("BEGIN", "SAVEPOINT", "RELEASE", "EXPLAIN")):
            sent.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", keep)
    try:
        with app.test_request_context():
            action()
            db.session.rollback()
    finally:
        sa.event.remove(engine, "before_cursor_execute", keep)
    return sent


COST = re.compile(r"\s+\(cost=[^)]*\)")
# PostgreSQL's EXPLAIN lines about its JIT compiler, not the plan: left out.
JIT_LINES = ("JIT:", "Functions:", "Options:")


def explain(connection: Any, statement: str, parameters: Any, note: str = "") -> list[str]:
    """The plan's lines: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN without costs.
    `note` makes the text new: the driver's cached EXPLAIN would not see a dropped index."""
    statement += f" -- {note}" if note else ""
    if connection.dialect.name == "sqlite":
        rows = connection.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters)
        return [row[3] for row in rows]
    rows = connection.exec_driver_sql("EXPLAIN " + statement, parameters)
    lines = [COST.sub("", row[0]).rstrip() for row in rows]
    return [line for line in lines if not line.lstrip().startswith(JIT_LINES)]


def plans_of(app: Any) -> dict[str, list[str]]:
    """The plans of the statements behind the home page, the API list and the stats pages."""
    from scorekeeper.extensions import db
    from scorekeeper.services import lists, stats

    year = stats.Period(date.today() - timedelta(days=365), date.today())
    actions: dict[str, Callable[[], object]] = {
        "home page": lambda: lists.home_page(1),
        "API list (20)": lambda: lists.list_sessions(20, 0),
        "/players": lambda: stats.list_players(),
        "/players (one year)": lambda: stats.list_players(year),
        "/players/<id>": lambda: stats.get_player_stats(1),
    }
    plans: dict[str, list[str]] = {}
    for name, action in actions.items():
        lines: list[str] = []
        with app.app_context(), db.engine.connect() as connection:
            for number, (statement, parameters) in enumerate(statements_of(app, action), 1):
                if statement.lstrip().upper().startswith("SELECT PLAYERS.NAME"):
                    continue  # the player's name by primary key: nothing to see
                lines.append(f"-- statement {number}: {' '.join(statement.split())[:90]}…")
                lines += explain(connection, statement, parameters)
        plans[name] = lines
    return plans


def home_index_effect(app: Any) -> tuple[list[str], list[str], float, float]:
    """The home page's statement planned and timed without the index of the sessions in
    progress (dropped inside a transaction that is rolled back) and with it."""
    from scorekeeper.extensions import db
    from scorekeeper.services import lists

    statement, parameters = statements_of(app, lambda: lists.home_page(1))[0]

    def run(connection: Any) -> None:
        connection.exec_driver_sql(statement, parameters).all()

    with app.app_context(), db.engine.connect() as connection:
        after = explain(connection, statement, parameters)
        with_index = timed_ms(lambda: run(connection), RUNS * 4)
        connection.exec_driver_sql(f"DROP INDEX {HOME_INDEX}")  # in this transaction only
        before = explain(connection, statement, parameters, note="without the index")
        without_index = timed_ms(lambda: run(connection), RUNS * 4)
        connection.rollback()
    return before, after, without_index, with_index


# -- The CSV, in a process of its own ----------------------------------------------------------


def stream_history(url: str, trace: bool) -> dict[str, float]:
    """Stream /export.csv whole through the test client, chunk by chunk, keeping nothing."""
    with tempfile.TemporaryDirectory() as workdir:
        app = bench_app(url, Path(workdir))
        client = app.test_client()
        client.get("/")  # imports, templates and the connection pool, before measuring
        base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if trace:
            tracemalloc.start()
        started = time.perf_counter()
        response = client.get("/export.csv", buffered=False)
        size = lines = 0
        for chunk in response.iter_encoded():
            size += len(chunk)
            lines += chunk.count(b"\n")
        response.close()
        took = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1] if trace else 0
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base_rss
    return {
        "seconds": took,
        "bytes": size,
        "lines": lines,
        "heap_peak_mib": peak / 2**20,
        "rss_growth_mib": grown / 1024,
    }


def history_in_subprocesses(url: str, runs: int) -> dict[str, float]:
    """Medians over fresh processes: time and RSS growth untraced, heap peak traced."""

    def one(trace: bool) -> dict[str, float]:
        command = [PYTHON, str(Path(__file__).resolve()), "--stream-history", url]
        done = subprocess.run(
            command + (["--trace"] if trace else []),
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        return json.loads(done.stdout.strip().splitlines()[-1])

    plain = [one(False) for _ in range(runs)]
    traced = [one(True) for _ in range(max(1, runs // 2))]
    return {
        "seconds": median(r["seconds"] for r in plain),
        "rss_growth_mib": median(r["rss_growth_mib"] for r in plain),
        "heap_peak_mib": median(r["heap_peak_mib"] for r in traced),
        "bytes": plain[0]["bytes"],
        "lines": plain[0]["lines"],
    }


# -- One database of one size ------------------------------------------------------------------


def old_home_read(app: Any) -> float:
    """How long the home page's read took before the summaries: every session loaded with its
    seats, rounds and entries and turned into its table (as services.list_sessions did)."""
    import sqlalchemy as sa
    import sqlalchemy.orm as so

    from scorekeeper.extensions import db
    from scorekeeper.models import GameSession, Round
    from scorekeeper.services.views import view_of

    everything = sa.select(GameSession).options(
        so.selectinload(GameSession.seats),
        so.selectinload(GameSession.rounds).selectinload(Round.entries),
    )

    def read() -> None:
        with app.app_context():
            found = db.session.scalars(everything.order_by(GameSession.id.desc())).all()
            sorted((view_of(gs) for gs in found), key=lambda v: v.complete)
            db.session.remove()

    return timed_ms(read, SLOW_RUNS, warm=False)


def measure(kind: str, sessions: int, quick: bool, workdir: Path, with_old: bool) -> Measured:
    from seed import seed

    from scorekeeper.extensions import db

    with empty_database(kind, workdir, sessions) as url:
        started = time.perf_counter()
        counts = seed(url, sessions, ROUNDS_PER_SESSION)
        seeded = time.perf_counter() - started
        app = bench_app(url, workdir)
        client = app.test_client()
        runs = 3 if quick else RUNS
        last_page = math.ceil(sessions / 20)
        year_ago = (date.today() - timedelta(days=365)).isoformat()
        before, after, without_index, with_index = home_index_effect(app)
        measured = Measured(
            database=kind,
            sessions=counts["sessions"],
            rounds=counts["rounds"],
            seeded_s=seeded,
            home_first_ms=timed_ms(get(client, "/"), runs),
            home_last_ms=timed_ms(get(client, f"/?page={last_page}"), runs),
            last_page=last_page,
            api_all_ms=timed_ms(get(client, "/api/v1/sessions"), runs),
            api_page_ms=timed_ms(get(client, "/api/v1/sessions?limit=20&offset=0"), runs),
            players_ms=timed_ms(get(client, "/players"), runs),
            player_ms=timed_ms(get(client, "/players/1"), runs),
            players_year_ms=timed_ms(get(client, f"/players?from={year_ago}"), runs),
            csv=history_in_subprocesses(url, 1 if quick else CSV_RUNS),
            plans=plans_of(app),
            index_before=before,
            index_after=after,
            query_without_index_ms=without_index,
            query_with_index_ms=with_index,
            old_home_ms=old_home_read(app) if with_old else None,
        )
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    return measured


# -- The section -------------------------------------------------------------------------------


def _ms(value: float) -> str:
    return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"


def _verdict(ok: bool) -> str:
    return "met" if ok else "**NOT met**"


def _flat(small: Measured, large: Measured) -> bool:
    """The CSV's memory at the larger history is within the goal of the smaller's."""
    heap = large.csv["heap_peak_mib"] < max(FLAT_MIB, FLAT_TIME * small.csv["heap_peak_mib"])
    rss = large.csv["rss_growth_mib"] < FLAT_MIB + FLAT_TIME * small.csv["rss_growth_mib"]
    return heap and rss


def section(found: list[Measured], quick: bool, skipped: str) -> str:
    """The Markdown section of docs/PERFORMANCE.md."""
    kinds = list(dict.fromkeys(m.database for m in found))
    small_size, large_size = min(m.sessions for m in found), max(m.sessions for m in found)
    pairs = {
        kind: (
            next(m for m in found if m.database == kind and m.sessions == small_size),
            next(m for m in found if m.database == kind and m.sessions == large_size),
        )
        for kind in kinds
    }
    home_ok = {
        kind: big.home_first_ms <= FLAT_TIME * few.home_first_ms
        for kind, (few, big) in pairs.items()
    }
    flat_ok = {kind: _flat(few, big) for kind, (few, big) in pairs.items()}
    results = [
        f"{kind}: first page {_ms(few.home_first_ms)} ms at {few.sessions:,} and "
        f"{_ms(big.home_first_ms)} ms at {big.sessions:,} sessions, CSV heap peak "
        f"{few.csv['heap_peak_mib']:.1f} and {big.csv['heap_peak_mib']:.1f} MiB"
        + ("" if home_ok[kind] and flat_ok[kind] else " (goal NOT met)")
        for kind, (few, big) in pairs.items()
    ]
    lines = [
        "## Scale: a long history",
        "",
        f"Measured on {machine()}"
        + (" (quick mode: small histories)." if quick else ".")
        + f" Histories seeded by `bench/seed.py` ({ROUNDS_PER_SESSION} rounds a session, 3-6 "
        "of a family of 8 at each, a few sessions still in play); times are medians through "
        "the Flask test client. `python bench/scale.py` reproduces this section."
        + (f" {skipped}" if skipped else ""),
        "",
        "**Goal: the first page of the home page takes no longer with 10x the sessions (within "
        f"{FLAT_TIME}x: its two statements read one page of summaries, never a round), and the "
        f"history CSV's peak memory stays flat (at 10x the history, under {FLAT_TIME}x or "
        f"{FLAT_MIB:.0f} MiB more).**",
        "",
        "**Result: " + "; ".join(results) + ".**",
        "",
        f"### Home page and the API's list of sessions (ms, median of {RUNS})",
        "",
        table(
            [
                "Database",
                "Sessions",
                "Rounds",
                "Seeded in",
                "Home, first page",
                "Home, last page",
                "API, 20",
                "API, all",
                "First page flat",
            ],
            [
                [
                    m.database,
                    f"{m.sessions:,}",
                    f"{m.rounds:,}",
                    f"{m.seeded_s:.1f} s",
                    _ms(m.home_first_ms),
                    f"{_ms(m.home_last_ms)} (page {m.last_page})",
                    _ms(m.api_page_ms),
                    _ms(m.api_all_ms),
                    _verdict(home_ok[m.database]) if m.sessions == large_size else "",
                ]
                for m in found
            ],
        ),
        "",
        "The first page reads the 21 newest sessions in progress and the 21 newest finished, "
        "each along an index, and the players of the 20 shown in a second statement. A deep "
        "page (`?page=N`) steps over the pages before it (OFFSET), so it grows with N, as the "
        "API's whole list grows with the sessions (a summary each; still no round is read).",
    ]
    old = [m for m in found if m.old_home_ms is not None]
    if old:
        lines += [
            "",
            "For comparison, "
            + BEFORE
            + ": "
            + "; ".join(f"{m.database} {_ms(m.old_home_ms or 0)} ms at {m.sessions:,}" for m in old)
            + " sessions (median of "
            + f"{SLOW_RUNS}; not run at the larger size: it holds every round in memory).",
        ]
    lines += [
        "",
        "### The whole-history CSV (`/export.csv`), read in a fresh process per size",
        "",
        table(
            [
                "Database",
                "Sessions",
                "Lines",
                "Size",
                "Time",
                "Rate",
                "Peak Python heap",
                "RSS growth",
                "Memory flat",
            ],
            [
                [
                    m.database,
                    f"{m.sessions:,}",
                    f"{int(m.csv['lines']):,}",
                    f"{m.csv['bytes'] / 2**20:.1f} MiB",
                    f"{m.csv['seconds']:.2f} s",
                    f"{m.csv['bytes'] / 2**20 / max(m.csv['seconds'], 1e-9):.1f} MiB/s",
                    f"{m.csv['heap_peak_mib']:.2f} MiB",
                    f"{m.csv['rss_growth_mib']:.1f} MiB",
                    _verdict(flat_ok[m.database]) if m.sessions == large_size else "",
                ]
                for m in found
            ],
        ),
        "",
        "Peak Python heap: tracemalloc's peak while the response is read chunk by chunk and "
        "thrown away (runs of their own, since tracing slows it down); RSS growth: the "
        "process's peak resident memory after the download less before it (the database "
        "driver's and SQLite's own buffers included; 0 when the download never took the "
        "process above the peak its start-up had reached). The file is one statement read "
        "500 rows at a time (a server-side cursor on PostgreSQL).",
        "",
        f"### Player statistics (ms, median of {RUNS})",
        "",
        table(
            ["Database", "Sessions", "/players", "/players?from=(a year ago)", "/players/<id>"],
            [
                [
                    m.database,
                    f"{m.sessions:,}",
                    _ms(m.players_ms),
                    _ms(m.players_year_ms),
                    _ms(m.player_ms),
                ]
                for m in found
            ],
        ),
        "",
        "Neither page reads the rounds of the history: each seat keeps its line of its "
        "session's table (total, won, rounds won, the sum, best and worst of its round "
        "scores; migration 0006), kept true by every write, so `/players` is one aggregate "
        "over the seats of the period, and a player's page (player 1 sat at about half of the "
        "sessions) reads their figures and streak, one page of twenty of their sessions, the "
        "head-to-head and where their best and worst rounds were in SQL over their seats "
        "(services/stats.py; the statement counts are pinned by "
        "tests/app/test_statement_counts.py). Their time grows with the player's sessions in "
        "the period, no longer with its rounds. Before the seat lines, the pages rebuilt every "
        "session of the period from its entries in Python: at 10,000 sessions about 8 s "
        "(`/players`) and 6 s (`/players/1`) on SQLite, 11 s and 8 s on PostgreSQL (measured "
        "once on the machine above, through the test client).",
        "",
        "### Query plans",
        "",
        f"The partial index `{HOME_INDEX}` (migration 0005) holds only the sessions in "
        "progress, so the home page finds them without walking the sessions past the finished "
        f"ones. Its statement at {large_size:,} sessions with and without the index (dropped "
        "in a transaction that is rolled back):",
        "",
    ]
    for _, large in pairs.values():
        lines += [
            f"{large.database}: {_ms(large.query_without_index_ms)} ms without, "
            f"{_ms(large.query_with_index_ms)} ms with the index (median of {RUNS * 4}).",
            "",
            "```",
            "-- without " + HOME_INDEX,
            *large.index_before,
            "-- with " + HOME_INDEX,
            *large.index_after,
            "```",
            "",
        ]
    lines += [
        "<details><summary>The plans of the home page, the API's list and the player pages "
        f"at {large_size:,} sessions</summary>",
        "",
    ]
    for _, large in pairs.values():
        for name, plan in large.plans.items():
            lines += [f"{large.database}, {name}:", "", "```", *plan, "```", ""]
    lines += ["</details>"]
    return "\n".join(lines).rstrip() + "\n"


def run(quick: bool = False) -> str:
    sizes = QUICK_SIZES if quick else SIZES
    kinds = ["sqlite"]
    skipped = ""
    if postgres_reachable():
        kinds.append("postgresql")
    else:
        skipped = "PostgreSQL did not answer on 127.0.0.1:5432: SQLite only."
    found = []
    with tempfile.TemporaryDirectory() as workdir:
        for kind in kinds:
            for sessions in sizes:
                found.append(
                    measure(kind, sessions, quick, Path(workdir), with_old=sessions == sizes[0])
                )
    return section(found, quick, skipped)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--stream-history", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stream_history:
        print(json.dumps(stream_history(args.stream_history, args.trace)))
    else:
        print(run(quick=args.quick))
