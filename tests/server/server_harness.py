"""The real server as a separate process, a small HTTP client, and the checks a stored round
must pass. Only ever talks to 127.0.0.1; every wait is bounded."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from factories import hidden_fields, went_out
from postgres_databases import empty_tables, fresh_postgres_url

REPO = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"
# Generous: on a busy 2-core machine SQLite writers queue behind each other.
REQUEST_TIMEOUT_S = 30.0
START_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 10.0

SERVER_KINDS = ("waitress", "gunicorn")
# Also startable: the server exactly as `make run` starts it (scorekeeper/serve.py: waitress
# with its limits), for the tests of what those limits are for; not one of the kinds every
# server test runs on.
MAKE_RUN = "make-run"
OTHER_KINDS = (MAKE_RUN,)

POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")

DATABASES = [pytest.param("sqlite", id="sqlite")]
if POSTGRES_URL:
    DATABASES.append(pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres))

# What must never appear in a server's log: a traceback means a 500 or a crashed worker.
TROUBLE = re.compile(r"Traceback|database is locked|\[CRITICAL\]|WORKER TIMEOUT", re.I)


# What `flask db upgrade` made in this worker, per kind of database: a copy of the SQLite file
# it made, and the PostgreSQL database it upgraded (while no test has changed its schema since).
_MIGRATED: dict[str, str] = {}


def prepare_database(kind: str, directory: Path, *, fresh: bool = False) -> str:
    """An empty database of that kind, its schema made by `flask db upgrade`; its URL.

    The command runs once per worker and kind of database (a few seconds each time): after it,
    a SQLite database is a copy of the file it made, and the PostgreSQL one is the database it
    upgraded with every row deleted. `fresh`: the command runs for this database, which the
    caller may then take down and up (the PostgreSQL one is upgraded again for the next)."""
    if kind == "sqlite":
        path = directory / "scorekeeper.sqlite"
        url = f"sqlite:///{path}"
        made = _MIGRATED.get(kind)
        # (The copy is in the first caller's folder: a bench's is gone when its section ends.)
        if made is not None and not fresh and Path(made).exists():
            shutil.copy2(made, path)  # the file's mode (0600) too
            return url
        upgrade(url)
        if not fresh:
            _MIGRATED[kind] = str(shutil.copy2(path, directory / "migrated.sqlite"))
        return url
    assert POSTGRES_URL is not None
    url = fresh_postgres_url(POSTGRES_URL, "_server", empty=False)
    if _MIGRATED.get(kind) == url and not fresh and _empty_at_head(url):
        return url
    _MIGRATED.pop(kind, None)
    fresh_postgres_url(POSTGRES_URL, "_server")  # schema public dropped and made again
    upgrade(url)
    if not fresh:
        _MIGRATED[kind] = url
    return url


def _empty_at_head(url: str) -> bool:
    """Delete every row of the database's tables (alembic's own kept) and start every id
    sequence again at 1, if its schema is at the migrations' head; whether it was."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory(str(REPO / "migrations")).get_current_head()
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            tables = sa.MetaData()
            tables.reflect(connection)
            if (
                "alembic_version" not in tables.tables
                or connection.scalar(sa.text("SELECT version_num FROM alembic_version")) != head
            ):
                return False
            empty_tables(
                connection, [t for t in tables.sorted_tables if t.name != "alembic_version"]
            )
        return True
    finally:
        engine.dispose()


@contextlib.contextmanager
def serving(kind: str, database: str, directory: Path, **options: Any) -> Iterator[Server]:
    """A server of `kind` on a fresh `database` ("sqlite" or "postgresql") made in `directory`,
    stopped at the end, when it must have answered no 5xx and logged no trouble."""
    url = prepare_database(database, directory)
    server = Server(kind, url, directory / "server.log", **options).start()
    try:
        yield server
    finally:
        server.stop()
    assert server.tally.server_errors == 0
    assert_clean_log(server)


def assert_clean_log(server: Server) -> None:
    """No traceback, no "database is locked", no timed-out worker in the server's output."""
    trouble = [line for line in server.log().splitlines() if TROUBLE.search(line)]
    assert not trouble, "server log:\n" + server.log()[-5000:]


def _group_running(group: int) -> bool:
    """Whether any process of the group still runs (zombies do not count)."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    proc = Path("/proc")
    if not proc.is_dir():
        return True
    for stat in proc.glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its ")".
        fields = text[text.rindex(")") + 2 :].split()
        if int(fields[2]) == group and fields[0] != "Z":
            return True
    return False


def free_port() -> int:
    """A port nobody listens on right now (the server binds it a moment later)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def server_environment(
    database_url: str, settings: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment a server or `flask` command runs in: our database, a test secret, the
    given settings, and none of the caller's Scorekeeper settings (a passphrase, a database)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.pop("DATABASE_URL", None)
    env["SCOREKEEPER_SECRET_KEY"] = "server-test-secret"
    env["SCOREKEEPER_DATABASE_URL"] = database_url
    env["PYTHONUNBUFFERED"] = "1"
    env.update(settings or {})
    return env


def flask_command(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `flask --app scorekeeper ARGS` against the database, as an operator would."""
    return subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", *args],
        cwd=REPO,
        env=server_environment(database_url),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def upgrade(database_url: str) -> None:
    """Create the schema with the real migrations."""
    done = flask_command(database_url, "db", "upgrade")
    assert done.returncode == 0, done.stdout + done.stderr


@dataclass
class Reply:
    """One HTTP answer: its status, its JSON body (None when it had none), and for pages the
    text and the headers."""

    status: int
    body: Any
    text: str = field(default="", repr=False)
    headers: dict[str, str] = field(default_factory=dict, repr=False)


@dataclass
class Tally:
    """Every answer a test received, by status, so 5xx can be counted across a whole run."""

    statuses: Counter[int] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, status: int) -> None:
        with self.lock:
            self.statuses[status] += 1

    @property
    def fired(self) -> int:
        return sum(self.statuses.values())

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)


# Every answer of every server in this pytest run: the figure the OPERATIONS.md note quotes.
RUN_TALLY = Tally()


class Server:
    """The app served by waitress or by gunicorn with 4 workers (or `workers`), or as `make run`
    serves it, in its own process group; `settings` are added to its environment."""

    def __init__(
        self,
        kind: str,
        database_url: str,
        log_path: Path,
        *,
        workers: int = 4,
        settings: Mapping[str, str] | None = None,
    ) -> None:
        assert kind in SERVER_KINDS + OTHER_KINDS
        self.kind = kind
        self.database_url = database_url
        self.log_path = log_path
        self.workers = workers
        self.settings = dict(settings or {})
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.tally = Tally()

    def command(self) -> list[str]:
        bind = f"{HOST}:{self.port}"
        if self.kind == MAKE_RUN:  # HOST and PORT are in its environment (see environment)
            return [sys.executable, "-m", "scorekeeper.serve"]
        if self.kind == "waitress":
            return [
                sys.executable,
                "-m",
                "waitress",
                f"--listen={bind}",
                "--threads=8",
                "--call",
                "scorekeeper:create_app",
            ]
        return [
            sys.executable,
            "-m",
            "gunicorn",
            "-w",
            str(self.workers),
            "-b",
            bind,
            "scorekeeper:create_app()",
        ]

    def environment(self) -> dict[str, str]:
        env = server_environment(self.database_url, self.settings)
        if self.kind == MAKE_RUN:  # serve.py takes its address and port from the environment
            env.update(HOST=HOST, PORT=str(self.port))
        return env

    def start(self) -> Server:
        """Start on a free port and wait until /healthz answers (a few tries if a port races)."""
        for _attempt in range(3):
            self.port = free_port()
            with open(self.log_path, "ab") as log:
                self.process = subprocess.Popen(
                    self.command(),
                    cwd=REPO,
                    env=self.environment(),
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # its own process group: one signal stops it all
                )
            if self._wait_healthy():
                return self
            self.stop()
        raise AssertionError(f"{self.kind} did not start:\n{self.log()}")

    def _wait_healthy(self) -> bool:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                return False
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
                conn.request("GET", "/healthz")
                response = conn.getresponse()
                ok = response.status == 200 and response.read() == b"ok"
                conn.close()
                if ok:
                    return True
            except OSError:
                pass
            time.sleep(0.1)
        return False

    def kill(self) -> None:
        """SIGKILL the whole process group: master and workers die mid-request."""
        assert self.process is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=STOP_TIMEOUT_S)
        self._reap_group()

    def stop(self) -> None:
        """SIGTERM the process group, then SIGKILL whatever is still there."""
        if self.process is None:
            return
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=STOP_TIMEOUT_S)
        self._reap_group()
        if self.process.poll() is None:
            self.process.wait(timeout=STOP_TIMEOUT_S)

    def _reap_group(self) -> None:
        """Workers outlive a killed master for a moment: SIGKILL the group until none of it is
        running (bounded). An orphaned worker stays a zombie until init reaps it: that is gone."""
        assert self.process is not None
        deadline = time.monotonic() + STOP_TIMEOUT_S
        while time.monotonic() < deadline:
            if not _group_running(self.process.pid):
                return
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            time.sleep(0.05)
        raise AssertionError(f"process group {self.process.pid} did not die")

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def request(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        form: Mapping[str, str] | None = None,
        cookie: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        """One request on its own connection: a JSON body, or a form as a browser posts it
        (with the session cookie), with any extra headers. Raises OSError when the server is
        gone."""
        conn = http.client.HTTPConnection(HOST, self.port, timeout=REQUEST_TIMEOUT_S)
        try:
            sent = {"Accept": "application/json" if form is None else "text/html"}
            sent.update(headers or {})
            payload = None
            if body is not None:
                payload = json.dumps(body).encode()
                sent["Content-Type"] = "application/json"
            if form is not None:
                payload = urllib.parse.urlencode(form).encode()
                sent["Content-Type"] = "application/x-www-form-urlencoded"
            if cookie:
                sent["Cookie"] = cookie
            conn.request(method, path, body=payload, headers=sent)
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        self.tally.add(response.status)
        RUN_TALLY.add(response.status)
        parsed = None
        content_type = response.getheader("Content-Type", "")
        if raw and content_type.startswith("application/json"):
            parsed = json.loads(raw)
        text = raw.decode("utf-8", errors="replace") if content_type.startswith("text/") else ""
        headers = {k.lower(): v for k, v in response.getheaders()}
        return Reply(response.status, parsed, text, headers)

    def new_session(self, players: Sequence[str], rounds: int, **rules: Any) -> int:
        """Start a session through the API; its id."""
        body: dict[str, Any] = {"players": list(players), "rounds": rounds}
        if rules:
            body["rules"] = rules
        reply = self.request("POST", "/api/v1/sessions", body)
        assert reply.status == 201, reply
        return int(reply.body["id"])

    def session(self, session_id: int) -> dict[str, Any]:
        reply = self.request("GET", f"/api/v1/sessions/{session_id}")
        assert reply.status == 200, reply
        return reply.body  # type: ignore[no-any-return]


def at_once(calls: Sequence[Callable[[], Reply]]) -> list[Reply]:
    """Run the calls on as many threads, released together by a barrier."""
    barrier = threading.Barrier(len(calls), timeout=20)

    def run(call: Callable[[], Reply]) -> Reply:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def open_page(server: Server, path: str, cookie: str | None = None) -> tuple[dict[str, str], str]:
    """A phone opens a page: its forms' hidden fields, and the phone's cookie (the one it
    brought, or the one the page set)."""
    page = server.request("GET", path, cookie=cookie)
    assert page.status == 200, page
    if "set-cookie" in page.headers:
        cookie = page.headers["set-cookie"].split(";", 1)[0]
    assert cookie, "the page set no cookie"
    return hidden_fields(page.text), cookie


def varied_round(players: Sequence[str], i: int) -> dict[str, Any]:
    """The i-th of a family of valid round bodies, cycling through the three endings and
    through rack values and tiles, each different from its neighbours."""
    n = len(players)
    winner = players[i % n]
    kind = i % 4
    if kind == 3:  # as on paper: one plus, the rest minus, summing to zero
        minus = {p: -(1 + (i * 7 + j * 11) % 60) for j, p in enumerate(players) if p != winner}
        return {"ending": "scores", "scores": {winner: -sum(minus.values()), **minus}}
    if kind == 2:  # pool ran out: the winner holds the lowest rack
        racks = {p: 20 + (i * 5 + j * 13) % 70 for j, p in enumerate(players) if p != winner}
        return {"ending": "pool_empty", "racks": {winner: 1 + i % 19, **racks}}
    losers = [p for p in players if p != winner]
    body = went_out(winner, **{p: 1 + (i * 3 + j * 17) % 90 for j, p in enumerate(losers)})
    if kind == 1:  # one loser's rack as tiles: value and count come from the tiles
        first_loser = next(iter(body["racks"]))
        body["racks"][first_loser] = [f"r{1 + i % 13}", f"k{1 + (i + 5) % 13}", "j"]
    return body


def check_round(
    document: Mapping[str, Any], players: Sequence[str], rules: Mapping[str, Any]
) -> None:
    """Assert a stored round is whole and its scores follow docs/RULES.md from its inputs."""
    scores = document["scores"]
    number = document["number"]
    assert set(scores) == set(players), f"round {number}: entries for {sorted(scores)}"
    assert all(isinstance(s, int) for s in scores.values())
    ending = document["ending"]
    racks = document.get("racks", {})
    winner = document.get("winner")
    bonus = rules.get("winner_bonus")
    if ending == "scores":
        assert sum(scores.values()) == 0, f"round {number}: {scores}"
        assert sum(1 for s in scores.values() if s > 0) == 1, f"round {number}: {scores}"
        return
    assert winner in players, f"round {number}: winner {winner!r}"
    losers = [p for p in players if p != winner]
    if ending == "went_out":
        assert set(racks) == set(losers), f"round {number}: racks {racks}"
        base = {p: racks[p] for p in losers}
    else:
        assert ending == "pool_empty", f"round {number}: ending {ending!r}"
        assert set(racks) == set(players), f"round {number}: racks {racks}"
        if rules.get("empty_pool", "difference") == "difference":
            base = {p: racks[p] - racks[winner] for p in losers}
        else:
            base = {p: racks[p] for p in losers}
    for p in losers:
        assert scores[p] == -base[p], f"round {number}: {p} scored {scores[p]}, rack {racks}"
    expected_winner = bonus if bonus is not None else sum(base.values())
    assert scores[winner] == expected_winner, f"round {number}: winner {scores}"
    if bonus is None:
        assert sum(scores.values()) == 0, f"round {number}: {scores}"


def check_session(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Assert every stored round of a session is whole and right and numbered 1..n; return them."""
    stored = document["rounds"]
    numbers = [r["number"] for r in stored]
    assert numbers == list(range(1, len(stored) + 1)), f"numbers {numbers}"
    for rnd in stored:
        check_round(rnd, document["players"], document["rules"])
    totals = {p: sum(r["scores"][p] for r in stored) for p in document["players"]}
    if not document["rules"].get("drop_worst_round"):
        assert document["totals"] == totals
    return list(stored)


def inputs_of(body: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a round body says, comparable with a stored round document: ending, winner, racks
    (values; a list of tiles as the sorted tiles) or scores."""
    if body["ending"] == "scores":
        return ("scores", tuple(sorted(body["scores"].items())))
    racks = []
    for player, rack in body["racks"].items():
        racks.append((player, tuple(sorted(rack)) if isinstance(rack, list) else rack))
    return (body["ending"], body.get("winner"), tuple(sorted(racks)))


def inputs_of_stored(document: Mapping[str, Any]) -> tuple[Any, ...]:
    """The same as inputs_of, read back from a stored round document."""
    if document["ending"] == "scores":
        return ("scores", tuple(sorted(document["scores"].items())))
    tiles = document.get("tiles", {})
    racks = []
    for player, value in document["racks"].items():
        racks.append((player, tuple(sorted(tiles[player])) if player in tiles else value))
    # A pool-ran-out body names no winner (the lowest rack wins): compare without it.
    winner = document["winner"] if document["ending"] == "went_out" else None
    return (document["ending"], winner, tuple(sorted(racks)))
