"""SIGKILL in the middle of a burst of writes: after a restart every round is whole, every
acknowledged round is there exactly once, and SQLite's integrity check says ok.

SQLite runs in WAL mode with synchronous=NORMAL: a power cut may lose the last commits, but a
killed process cannot, because a commit is in the operating system's hands before the 201 is
sent. So this test holds the server to "acknowledged means durable".
"""

from __future__ import annotations

import http.client
import sqlite3
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from factories import went_out
from server_harness import (
    POSTGRES_URL,
    Server,
    assert_clean_log,
    check_session,
    inputs_of,
    inputs_of_stored,
    prepare_database,
)

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
TABLES = 4
WRITERS = 8  # two writers per table: they contend for the same session as well as the file
KILL_AFTER_ACKS = 150
KILL_AFTER_S = 1.5
MIN_ACKS = 10  # on a slow machine, wait (bounded) for at least this many before the kill
BURST_LIMIT_S = 20.0


def integrity(url: str) -> str:
    """PRAGMA integrity_check of the SQLite file, read as the crash left it."""
    path = sa.make_url(url).database
    assert path is not None
    with sqlite3.connect(path) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


# SQLite under gunicorn (four worker processes, each with the file open, killed at once); and,
# when configured, PostgreSQL under waitress. One server each keeps the folder's time down: what
# is proved, commit before 201, is the database's, and both servers take the same path to it.
CASES = [pytest.param("sqlite", "gunicorn", id="sqlite-gunicorn")]
if POSTGRES_URL:
    CASES.append(
        pytest.param("postgresql", "waitress", id="postgresql-waitress", marks=pytest.mark.postgres)
    )


@pytest.mark.parametrize(("server_database", "kind"), CASES)
def test_sigkill_mid_burst_loses_no_acknowledged_round(
    server_database: str, kind: str, tmp_path: Path
) -> None:
    url = prepare_database(server_database, tmp_path)
    server = Server(kind, url, tmp_path / "server.log").start()
    try:
        sessions = [server.new_session(PLAYERS, rounds=100) for _ in range(TABLES)]
        acked: dict[int, list[dict[str, Any]]] = {s: [] for s in sessions}
        unknown: dict[int, list[dict[str, Any]]] = {s: [] for s in sessions}
        refused: list[Any] = []
        lock = threading.Lock()
        enough = threading.Event()
        killed = threading.Event()
        started = time.monotonic()

        def writer(t: int) -> None:
            session_id = sessions[t % TABLES]
            path = f"/api/v1/sessions/{session_id}/rounds"
            for s in range(1000):  # far more than fit before the kill; bounded all the same
                if time.monotonic() - started > BURST_LIMIT_S:
                    return
                # Rack values that say who sent it: Bo = the writer, Cy and Di = its sequence.
                body = went_out("Ann", Bo=1 + t, Cy=1 + s % 90, Di=1 + s // 90)
                body["key"] = f"writer{t}-save{s}"  # what a phone sends again after a lost answer
                try:
                    reply = server.request("POST", path, body)
                except (OSError, http.client.HTTPException) as err:
                    if not isinstance(err, ConnectionRefusedError):  # it may have arrived
                        with lock:
                            unknown[session_id].append(body)
                    if not killed.is_set():
                        with lock:
                            refused.append(repr(err))
                    return
                with lock:
                    if reply.status == 201:
                        acked[session_id].append(body)
                        if sum(map(len, acked.values())) >= KILL_AFTER_ACKS:
                            enough.set()
                    else:
                        refused.append(reply)

        with ThreadPoolExecutor(max_workers=WRITERS) as pool:
            futures = [pool.submit(writer, t) for t in range(WRITERS)]
            enough.wait(timeout=KILL_AFTER_S)
            while time.monotonic() - started < BURST_LIMIT_S / 2:
                with lock:
                    acked_before_kill = sum(map(len, acked.values()))
                if acked_before_kill >= MIN_ACKS:
                    break
                time.sleep(0.05)
            assert acked_before_kill >= MIN_ACKS, "too few writes acknowledged before the kill"
            killed.set()
            server.kill()
            killed_at = time.monotonic() - started
            for future in futures:
                future.result(timeout=BURST_LIMIT_S + 30)

        assert not refused, refused[:5]  # before the kill: every write a 201, nothing else
        assert server.tally.server_errors == 0
        assert_clean_log(server)
        crash_verdict = integrity(url) if server_database == "sqlite" else "n/a"
        if server_database == "sqlite":
            assert crash_verdict == "ok"

        server.start()  # same database, a new process
        stored_total = lost = doubled = in_flight_stored = 0
        retried = Counter[int]()
        for session_id in sessions:
            document = server.session(session_id)
            stored = check_session(document)  # whole, scored by the rules, numbered 1..n
            stored_total += len(stored)
            found = Counter(inputs_of_stored(r) for r in stored)
            sent = Counter(inputs_of(b) for b in acked[session_id] + unknown[session_id])
            assert all(n == 1 for n in sent.values())  # every body sent was distinct
            assert not found - sent, "stored a round nobody sent"
            doubled += sum(n - 1 for n in found.values() if n > 1)
            lost += sum(1 for b in acked[session_id] if not found[inputs_of(b)])
            in_flight_stored += sum(1 for b in unknown[session_id] if found[inputs_of(b)])
            # Each phone whose answer was lost saves again with the same key: a round already
            # stored comes back (200), one that never arrived is stored now (201).
            for body in unknown[session_id]:
                reply = server.request("POST", f"/api/v1/sessions/{session_id}/rounds", body)
                assert reply.status == (200 if found[inputs_of(body)] else 201), reply
                retried[reply.status] += 1
            document = server.session(session_id)
            stored = check_session(document)
            sent = Counter(inputs_of(b) for b in acked[session_id] + unknown[session_id])
            assert Counter(inputs_of_stored(r) for r in stored) == sent
            # The restarted server goes on where the table stopped.
            more = went_out("Bo", Ann=11, Cy=12, Di=13)
            reply = server.request(
                "POST", f"/api/v1/sessions/{session_id}/rounds", more | {"number": len(stored) + 1}
            )
            assert reply.status == 201, reply
        acknowledged = sum(map(len, acked.values()))
        in_flight = sum(map(len, unknown.values()))
        print(
            f"\n[crash {kind}/{server_database}] SIGKILL after {killed_at:.2f} s: "
            f"{acknowledged} writes acknowledged, {in_flight} in flight; after restart "
            f"{stored_total} rounds stored ({acknowledged} acknowledged + {in_flight_stored} of "
            f"the in-flight), lost {lost}, doubled {doubled}, integrity_check {crash_verdict}; "
            f"in-flight saves retried with their keys: {retried[200]} answered 200 (already "
            f"stored), {retried[201]} stored now"
        )
        assert lost == 0
        assert doubled == 0
        assert stored_total == acknowledged + in_flight_stored
    finally:
        server.stop()
    assert server.tally.server_errors == 0
    assert_clean_log(server)
    if server_database == "sqlite":
        assert integrity(url) == "ok"
