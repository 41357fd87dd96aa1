"""`flask restore` while phones poll, guess and try to set a passphrase, on a real server
(issue 23, findings 1 and 3): waitress on SQLite, gunicorn with several workers on
PostgreSQL, the restore run as the operator runs it (its own process).

No request gets a protected page with a signed-out phone's cookie or none, no guess gets in,
no anonymous POST /access sets a passphrase, at any moment, and nothing answers 500. A restore
that fails (the backup cut short, so the dump fails midway) leaves the scores, the passphrase
and the signed-in phones as they were; the one that succeeds brings the backup's scores back
with the family's passphrase, and every phone signs in again. Bounded: the load stops when
the command ends (at most RESTORE_TIMEOUT_S), loopback only.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlalchemy as sa
from factories import csrf_token
from server_harness import (
    POSTGRES_URL,
    REPO,
    Reply,
    Server,
    assert_clean_log,
    flask_command,
    prepare_database,
    server_environment,
)

sys.path.insert(0, str(REPO / "bench"))

from seed import seed  # noqa: E402

FAMILY = "tiles on the table"
NEIGHBOUR = "the neighbour's own"
# A history long enough that pg_restore takes a while (the window of finding 1 was seconds).
SESSIONS, ROUNDS = 300, 30
RESTORE_TIMEOUT_S = 120.0

CASES = [pytest.param("sqlite", "waitress", id="sqlite-waitress")]
if POSTGRES_URL:
    CASES.append(
        pytest.param("postgresql", "gunicorn", id="postgresql-gunicorn", marks=pytest.mark.postgres)
    )


def _cookies(reply: Reply, cookie: str = "") -> str:
    """The phone's cookies after an answer: the ones it had, with those the answer set."""
    jar = dict(c.split("=", 1) for c in cookie.split("; ") if "=" in c)
    for header in reply.headers.get("set-cookie", "").split(", "):
        name, _, value = header.split(";", 1)[0].partition("=")
        if name.strip() and "=" in header:
            jar[name.strip()] = value
    return "; ".join(f"{k}={v}" for k, v in jar.items())


def _form_page(server: Server, path: str, cookie: str = "") -> tuple[str, str]:
    """A page's CSRF token and the phone's cookies after it (the session cookie set)."""
    page = server.request("GET", path, cookie=cookie or None, headers={"Accept": "text/html"})
    assert page.status == 200, page
    return csrf_token(page.text), _cookies(page, cookie)


def _sign_in(server: Server, passphrase: str = FAMILY) -> str:
    token, cookie = _form_page(server, "/sign-in")
    form = {"csrf_token": token, "passphrase": passphrase, "remember": "y", "next": "/"}
    reply = server.request("POST", "/sign-in", form=form, cookie=cookie)
    assert reply.status == 303, reply
    return _cookies(reply, cookie)


def _forget_guesses(url: str) -> None:
    """Every wrong guess the load made is forgotten (the limit would keep the family out)."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(sa.text("DELETE FROM failed_sign_ins"))
    finally:
        engine.dispose()


def _sessions(url: str) -> int:
    """The sessions the database holds, read as they are stored."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return int(connection.scalar(sa.text("SELECT count(*) FROM sessions")) or 0)
    finally:
        engine.dispose()


def _bearer(server: Server, passphrase: str) -> int:
    headers = {"Authorization": f"Bearer {passphrase}"}
    return server.request("GET", "/api/v1/sessions", headers=headers).status


def restore_under_load(
    server: Server, backup: Path, signed_out: str, anonymous: tuple[str, str], session_id: int
) -> tuple[subprocess.CompletedProcess[str], Counter[tuple[str, int]]]:
    """Run `flask restore BACKUP --yes` while four phones keep at it; every answer by kind."""
    seen: Counter[tuple[str, int]] = Counter()
    lock = threading.Lock()
    done = threading.Event()
    token, cookie = anonymous
    table = f"/sessions/{session_id}/table"
    page = {"Accept": "text/html"}
    calls: dict[str, Callable[[], Reply]] = {
        "signed-out poll": lambda: server.request("GET", table, cookie=signed_out, headers=page),
        "no-cookie poll": lambda: server.request("GET", f"/api/v1/sessions/{session_id}"),
        "wrong guess": lambda: server.request(
            "GET", "/api/v1/sessions", headers={"Authorization": f"Bearer {NEIGHBOUR}"}
        ),
        "set passphrase": lambda: server.request(
            "POST",
            "/access",
            form={"csrf_token": token, "passphrase": NEIGHBOUR, "confirm": NEIGHBOUR},
            cookie=cookie,
        ),
    }

    def phone(kind: str) -> None:
        deadline = time.monotonic() + RESTORE_TIMEOUT_S
        while not done.is_set() and time.monotonic() < deadline:
            status = calls[kind]().status
            with lock:
                seen[(kind, status)] += 1

    threads = [threading.Thread(target=phone, args=(kind,)) for kind in calls]
    for thread in threads:
        thread.start()
    try:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "flask",
                "--app",
                "scorekeeper",
                "restore",
                str(backup),
                "--yes",
            ],
            cwd=REPO,
            env=server_environment(server.database_url),
            capture_output=True,
            text=True,
            timeout=RESTORE_TIMEOUT_S,
            check=False,
        )
    finally:
        done.set()
        for thread in threads:
            thread.join(timeout=60)
    return result, seen


def _never_let_in(seen: Counter[tuple[str, int]], closed: bool = True) -> None:
    """Only refusals and waits: no protected page, no guess let in, no passphrase set."""
    allowed = {
        "signed-out poll": {302, 503},
        "no-cookie poll": {401, 503},
        "wrong guess": {401, 429, 503},
        "set passphrase": {302, 503},
    }
    wrong = {key: n for key, n in seen.items() if key[1] not in allowed[key[0]]}
    assert wrong == {}, dict(seen)
    if closed:  # the restore ran long enough for some phone to find the app closed
        assert sum(n for (_, status), n in seen.items() if status == 503), dict(seen)


@pytest.mark.parametrize(("server_database", "kind"), CASES)
def test_restore_under_polls_guesses_and_passphrase_attempts(
    server_database: str, kind: str, tmp_path: Path
) -> None:
    url = prepare_database(server_database, tmp_path)
    seed(url, sessions=SESSIONS, rounds_per_session=ROUNDS)
    server = Server(kind, url, tmp_path / "server.log", workers=3).start()
    try:
        # The family sets its passphrase; phone A signs in, the backup is taken.
        token, cookie = _form_page(server, "/access")
        form = {"csrf_token": token, "passphrase": FAMILY, "confirm": FAMILY}
        assert server.request("POST", "/access", form=form, cookie=cookie).status == 303
        phone_a = _sign_in(server)
        backup = tmp_path / "scores.backup"
        made = flask_command(url, "backup", str(backup))
        assert made.returncode == 0, made.stdout + made.stderr
        # Every phone signed out (A's cookie is worthless now, not in the backup); B signs in.
        token, _ = _form_page(server, "/access", phone_a)
        out = server.request(
            "POST", "/access/sign-out-everywhere", form={"csrf_token": token}, cookie=phone_a
        )
        assert out.status == 303, out
        phone_b = _sign_in(server)
        session_id = 1
        after_backup = server.request(
            "POST",
            "/api/v1/sessions",
            {"players": ["Ann", "Bo"]},
            headers={"Authorization": f"Bearer {FAMILY}"},
        )
        assert after_backup.status == 201, after_backup
        before = _sessions(url)
        anonymous = _form_page(server, "/sign-in")

        # A backup cut short: the dump (or file) fails midway; nothing changes.
        cut = tmp_path / "cut.backup"
        cut.write_bytes(backup.read_bytes()[: backup.stat().st_size * 2 // 3])
        failed, seen = restore_under_load(server, cut, phone_a, anonymous, session_id)
        assert failed.returncode != 0, failed.stdout + failed.stderr
        assert "The restore failed" in failed.stderr, failed.stderr
        assert "the scores and the passphrase are as they were" in failed.stderr
        _never_let_in(seen, closed=False)  # a cut SQLite file is refused at once
        _forget_guesses(url)
        assert _sessions(url) == before
        assert _bearer(server, FAMILY) == 200 and _bearer(server, NEIGHBOUR) == 401
        table = f"/sessions/{session_id}/table"
        assert server.request("GET", table, cookie=phone_b).status == 200  # still signed in

        # The backup itself: its scores back, the family's passphrase, every phone signed out.
        restored, seen = restore_under_load(server, backup, phone_a, anonymous, session_id)
        assert restored.returncode == 0, restored.stdout + restored.stderr
        assert "the one in force before the restore" in restored.stdout
        _never_let_in(seen)
        _forget_guesses(url)
        assert _sessions(url) == before - 1
        assert _bearer(server, FAMILY) == 200 and _bearer(server, NEIGHBOUR) == 401
        for cookie in (phone_a, phone_b):
            assert server.request("GET", table, cookie=cookie).status == 302
        assert server.request("GET", table, cookie=_sign_in(server)).status == 200
        print(f"\n[{server_database}] answers during the restores: {dict(seen)}")
    finally:
        server.stop()
    # The restore's 503s are the only 5xx: no 500, no crashed worker.
    failures = {s: n for s, n in server.tally.statuses.items() if s >= 500 and s != 503}
    assert failures == {}, dict(server.tally.statuses)
    assert_clean_log(server)
