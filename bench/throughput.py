"""Server throughput against the framework floor: gunicorn with 2 workers on 127.0.0.1, wrk in
a second process, alternating `/healthz` (the floor: Flask answering "ok"), a phone's poll of
the live table that finds nothing new (If-None-Match, answered 304), the same poll of the JSON
document, the whole session page of a 6-player 30-round session, and a round POST; on SQLite
and PostgreSQL.

Goal: a poll that finds nothing new costs at most twice the floor (at least 0.5x its requests
per second); the page itself is a figure. `python bench/throughput.py [--quick]` prints the
section of docs/PERFORMANCE.md.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import ROOT, median, table, version_of  # noqa: E402

GOAL = 0.5
POLLS = ("poll", "json_poll")
PLAYERS = ["Ann", "Bo", "Cy", "Di", "Eva", "Finn"]
ROUNDS = 30
# Sessions a POST run spreads its rounds over (each holds up to 100 rounds).
POST_SESSIONS = 400
WORKERS = 2
WRK_THREADS = 2
WRK_CONNECTIONS = 16
POSTGRES_ADMIN = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
POSTGRES_BENCH = "postgresql+psycopg://postgres@127.0.0.1:5432/scorekeeper_throughput"

POST_SCRIPT = """
local counter = 0
local first = tonumber(os.getenv("FIRST_SESSION"))
local count = tonumber(os.getenv("SESSION_COUNT"))
local body = os.getenv("ROUND_BODY")
wrk.headers["Content-Type"] = "application/json"
request = function()
  counter = counter + 1
  local id = first + (counter * 7 + math.random(0, 1000)) % count
  return wrk.format("POST", "/api/v1/sessions/" .. id .. "/rounds", nil, body)
end
"""


@dataclass(frozen=True)
class Run:
    """One wrk run against one URL."""

    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: int


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _round_body(number: int) -> dict[str, object]:
    """A went-out round with two-digit racks, a different winner each round."""
    winner = PLAYERS[number % len(PLAYERS)]
    racks = {p: 10 + (number * 7 + i * 11) % 60 for i, p in enumerate(PLAYERS) if p != winner}
    return {"ending": "went_out", "winner": winner, "racks": racks}


def seed(database_url: str) -> tuple[int, int]:
    """A fresh schema (the real migrations), the 30-round session and the sessions the POST run
    writes to; returns (the 30-round session's id, the first POST session's id)."""
    from flask_migrate import upgrade

    from scorekeeper import create_app
    from scorekeeper.services import rounds, sessions

    with tempfile.TemporaryDirectory() as instance:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench", "PASSPHRASE": None},
            instance_path=instance,
        )
        with app.app_context():
            upgrade()
            rules = {"drop_worst_round": True, "tile_sets": 2}
            view = sessions.create_session(PLAYERS, "Benchmark evening", ROUNDS, rules)
            for number in range(1, ROUNDS + 1):
                rounds.add_round(view.id, _round_body(number))
            first = None
            for i in range(POST_SESSIONS):
                created = sessions.create_session(PLAYERS, f"Writes {i}", 100, {"tile_sets": 2})
                first = first or created.id
            from scorekeeper.extensions import db

            db.engine.dispose()
    assert first is not None
    return view.id, first


def _environment(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.pop("DATABASE_URL", None)
    env["SCOREKEEPER_DATABASE_URL"] = database_url
    env["SCOREKEEPER_SECRET_KEY"] = "bench-secret"
    return env


@contextmanager
def gunicorn(database_url: str) -> Iterator[str]:
    """gunicorn with 2 sync workers on a free port of 127.0.0.1; yields its base URL."""
    port = _free_port()
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "--workers",
        str(WORKERS),
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        "scorekeeper:create_app()",
    ]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=_environment(database_url),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_until_up(base, process, log)
            yield base
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=20)
            log.seek(0)
            output = log.read().decode(errors="replace")
            if "Traceback" in output:
                print(output[-3000:], file=sys.stderr)


def _wait_until_up(base: str, process: subprocess.Popen[bytes], log: IO[bytes]) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                log.seek(0)
                raise RuntimeError("gunicorn did not start:\n" + log.read().decode()) from None
            time.sleep(0.2)


def _milliseconds(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def wrk(
    url: str,
    seconds: int,
    script: Path | None = None,
    env: dict[str, str] | None = None,
    cookie: str | None = None,
    etag: str | None = None,
) -> Run:
    """One wrk run: requests per second, p50 and p99 latency, and the non-2xx/3xx count
    (`etag`: sent as If-None-Match, as a polling phone does)."""
    command = [
        "wrk",
        f"-t{WRK_THREADS}",
        f"-c{WRK_CONNECTIONS}",
        f"-d{seconds}s",
        "--latency",
        "-H",
        "Accept-Encoding: identity",
    ]
    if cookie:
        command += ["-H", f"Cookie: {cookie}"]
    if etag:
        command += ["-H", f"If-None-Match: {etag}"]
    if script is not None:
        command += ["-s", str(script)]
    done = subprocess.run(
        [*command, url],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=seconds + 60,
    )
    out = done.stdout
    if done.returncode != 0 or "Requests/sec" not in out:
        raise RuntimeError(f"wrk failed on {url}:\n{out}\n{done.stderr}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _milliseconds(re.search(r"\s50%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    p99 = _milliseconds(re.search(r"\s99%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    errors_found = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    socket_errors = re.search(r"Socket errors:.*?timeout (\d+)", out)
    errors = int(errors_found.group(1)) if errors_found else 0
    errors += int(socket_errors.group(1)) if socket_errors else 0
    return Run(rps, p50, p99, requests, errors)


def _check_page(base: str, session_id: int) -> tuple[int, str, dict[str, str]]:
    """The page really is the 6-player 30-round table: its size in bytes (uncompressed), the
    cookie its first visit set, which a phone at the table sends from then on, and the ETags a
    phone polls with (the live table's, the JSON's), each checked to be answered 304."""
    with urllib.request.urlopen(f"{base}/sessions/{session_id}", timeout=10) as answer:
        page = answer.read()
        cookie = answer.headers.get("Set-Cookie", "").split(";", 1)[0]
    assert b"Benchmark evening" in page and b"Finn" in page, "not the benchmark session"
    with urllib.request.urlopen(f"{base}/api/v1/sessions/{session_id}", timeout=10) as answer:
        document = json.load(answer)
        json_tag = answer.headers["ETag"]
    assert len(document["rounds"]) == ROUNDS and len(document["players"]) == len(PLAYERS)
    with urllib.request.urlopen(f"{base}/sessions/{session_id}/table", timeout=10) as answer:
        table_tag = answer.headers["ETag"]
    for path, tag in (
        (f"/sessions/{session_id}/table", table_tag),
        (f"/api/v1/sessions/{session_id}", json_tag),
    ):
        asked = urllib.request.Request(f"{base}{path}", headers={"If-None-Match": tag})
        try:
            urllib.request.urlopen(asked, timeout=10)
            raise AssertionError(f"{path} answered 200 to its own ETag")
        except urllib.error.HTTPError as answer:
            assert answer.code == 304, answer.code
    return len(page), cookie, {"poll": table_tag, "json_poll": json_tag}


def measure(database: str, database_url: str, repeats: int, seconds: int) -> dict[str, list[Run]]:
    """Seed, serve, and run wrk on the four targets in turn, `repeats` times."""
    session_id, first_post = seed(database_url)
    runs: dict[str, list[Run]] = {"floor": [], "poll": [], "json_poll": [], "page": [], "post": []}
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "post.lua"
        script.write_text(POST_SCRIPT)
        post_env = {
            "FIRST_SESSION": str(first_post),
            "SESSION_COUNT": str(POST_SESSIONS),
            "ROUND_BODY": json.dumps(_round_body(1)),
        }
        with gunicorn(database_url) as base:
            page_bytes, cookie, tags = _check_page(base, session_id)
            runs["page_bytes"] = page_bytes  # type: ignore[assignment]
            targets = {
                "floor": (f"{base}/healthz", None),
                "poll": (f"{base}/sessions/{session_id}/table", None),
                "json_poll": (f"{base}/api/v1/sessions/{session_id}", None),
                "page": (f"{base}/sessions/{session_id}", None),
                "post": (f"{base}/", script),
            }
            wrk(targets["floor"][0], 1)  # warm both workers
            wrk(targets["page"][0], 1)
            for _ in range(repeats):
                for name, (url, lua) in targets.items():
                    env = post_env if lua is not None else None
                    runs[name].append(wrk(url, seconds, lua, env, cookie, tags.get(name)))
    return runs


def _postgres_ready() -> bool:
    try:
        import sqlalchemy as sa

        engine = sa.create_engine(POSTGRES_ADMIN, isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            connection.execute(sa.text("DROP DATABASE IF EXISTS scorekeeper_throughput"))
            connection.execute(sa.text("CREATE DATABASE scorekeeper_throughput"))
        engine.dispose()
        return True
    except Exception as error:  # noqa: BLE001 - no server: the lane is reported as not run
        print(f"PostgreSQL not reachable: {error}", file=sys.stderr)
        return False


def run(quick: bool = False) -> str:
    """Measure both databases and return the Markdown section."""
    if shutil.which("wrk") is None:
        return (
            "## Server throughput\n\nwrk is not installed (`apt-get install wrk`): not measured.\n"
        )
    repeats, seconds = (1, 2) if quick else (3, 5)
    results: dict[str, dict[str, list[Run]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        results["SQLite"] = measure(
            "sqlite", f"sqlite:///{Path(scratch) / 'bench.sqlite'}", repeats, seconds
        )
    if _postgres_ready():
        results["PostgreSQL"] = measure("postgresql", POSTGRES_BENCH, repeats, seconds)
    return render(results, repeats, seconds)


def render(results: dict[str, dict[str, list[Run]]], repeats: int, seconds: int) -> str:
    labels = {
        "floor": "`/healthz` (floor)",
        "poll": "poll of the live table, nothing new (304)",
        "json_poll": "poll of the JSON, nothing new (304)",
        "page": "session page (HTML, drawn afresh)",
        "post": "round POST (JSON API)",
    }
    lines = [
        "## Server throughput against the framework floor",
        "",
        f"gunicorn {WORKERS} sync workers on 127.0.0.1; {version_of(['wrk', '--version'])}, "
        f"{WRK_THREADS} threads, {WRK_CONNECTIONS} connections, in a second process on the same "
        f"machine; the five targets alternate, {repeats} runs of {seconds} s each, median "
        "reported. The session is 6 players and 30 rounds with drop-worst on. The POST adds a "
        f"went-out round to one of {POST_SESSIONS} sessions (a real write, committed). "
        f"**Goal: a poll that finds nothing new at least {GOAL}x the floor's requests per "
        "second (it costs at most twice the floor); the page itself: a figure.**",
        "",
    ]
    lines += [
        "Every page is drawn afresh; a phone polls the live part of the session page with the "
        "ETag it was drawn with (`static/live.js`), answered 304 after one read through the "
        "pool, outside any transaction: the household's passphrase state (the gate) with the "
        "session's stamp (`extensions.read_at_once`, `web/responses.py`). Every phone sends the "
        "cookie its first visit set, as wrk does here for every target. The floor reads "
        "nothing.",
        "",
    ]
    for database, runs in results.items():
        floor = median(r.rps for r in runs["floor"])
        rows = []
        for name in ("floor", *POLLS, "page", "post"):
            found = runs[name]
            rps = median(r.rps for r in found)
            ratio = rps / floor
            verdict = ""
            if name in POLLS:
                verdict = "met" if ratio >= GOAL else "NOT met"
            rows.append(
                (
                    labels[name],
                    f"{rps:,.0f}",
                    f"{ratio:.2f}x",
                    f"{median(r.p50_ms for r in found):.2f}",
                    f"{median(r.p99_ms for r in found):.2f}",
                    sum(r.errors for r in found),
                    verdict,
                )
            )
        lines += [
            f"### {database}",
            "",
            f"Session page: {runs['page_bytes']:,} bytes of HTML (uncompressed).",  # type: ignore[str-format]
            "",
            table(
                ("target", "req/s", "vs floor", "p50 ms", "p99 ms", "non-2xx", "goal"),
                rows,
            ),
            "",
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
