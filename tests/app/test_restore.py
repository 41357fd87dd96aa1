"""A restore is all or nothing and closed while it runs (issue 23, findings 1, 3 and 13): a
missing household row closes the gate, a restore's flag file closes the app in every process,
a failed restore changes nothing, and a restore keeps the passphrase in force unless told to
take the backup's. The same under a real server's load: tests/server/test_restore_load.py."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Household
from scorekeeper.services import access, backup, sessions
from scorekeeper.web.access import RESTORE_FLAG, here

FAMILY = "tiles on the table"
LATER = "jokers are wild"


def _household_rows(app: Flask) -> list[tuple[int, str | None]]:
    with app.app_context():
        rows = db.session.execute(sa.select(Household.id, Household.passphrase_hash)).all()
        db.session.remove()
    return [tuple(row) for row in rows]  # type: ignore[misc]


def _closed(response: object) -> bool:
    status = getattr(response, "status_code", None)
    headers = getattr(response, "headers", {})
    return status == 503 and headers.get("Retry-After") == "5"


def test_a_new_database_holds_the_household_row(migrated_app: Flask, tmp_path: Path) -> None:
    """The migrations (0009) and create_all (the tests, the bench) both make the row."""
    assert _household_rows(migrated_app) == [(1, None)]
    made = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": "sqlite://"},
        instance_path=str(tmp_path / "instance"),
    )
    with made.app_context():
        db.create_all()
    assert _household_rows(made) == [(1, None)]


def test_a_missing_household_row_closes_the_gate(app: Flask, client: FlaskClient) -> None:
    """Read as "no passphrase", a missing row let anyone set one (finding 1)."""
    with app.app_context():
        db.session.execute(sa.delete(Household))
        db.session.commit()
    page = client.get("/")
    assert _closed(page)
    assert "being restored or set up" in page.get_data(as_text=True)
    api = client.get("/api/v1/sessions")
    assert _closed(api)
    assert api.get_json()["errors"][0]["code"] == "service_unavailable"
    taken = client.post("/access", data={"passphrase": FAMILY, "confirm": FAMILY})
    assert _closed(taken)
    assert _household_rows(app) == []
    assert client.get("/healthz").status_code == 200
    with app.test_request_context(), app.app_context():
        try:
            access.set_passphrase(here(), FAMILY)
        except access.PassphraseRefused as refused:
            assert "being restored or set up" in refused.message
        else:
            raise AssertionError("a passphrase was set with no household row")
    assert _household_rows(app) == []


def _dead_pid() -> int:
    """The pid of a process that has ended (as a restore killed with -9 leaves its flag)."""
    finished = subprocess.Popen(["true"])
    finished.wait()
    return finished.pid


def test_a_restore_flag_closes_the_app_until_its_command_is_gone(
    app: Flask, client: FlaskClient
) -> None:
    flag: Path = app.extensions[RESTORE_FLAG]
    with app.app_context():
        session_id = sessions.create_session(["Ann", "Bo"]).id
    flag.write_text(f"{os.getpid()}\n", encoding="ascii")
    try:
        for path in ("/", f"/sessions/{session_id}", f"/sessions/{session_id}/table", "/access"):
            assert _closed(client.get(path)), path
        assert _closed(client.get(f"/api/v1/sessions/{session_id}"))
        assert _closed(client.post("/access", data={"passphrase": FAMILY, "confirm": FAMILY}))
        assert client.get("/healthz").status_code == 200
        assert _household_rows(app) == [(1, None)]
        # Killed before it changed anything: the flag of a process gone is ignored...
        flag.write_text(f"{_dead_pid()}\n", encoding="ascii")
        assert client.get(f"/sessions/{session_id}").status_code == 200
        # ...unless it had begun to replace a PostgreSQL database ("hold").
        flag.write_text(f"{_dead_pid()} hold\n", encoding="ascii")
        assert _closed(client.get(f"/sessions/{session_id}"))
    finally:
        flag.unlink(missing_ok=True)
    assert client.get(f"/sessions/{session_id}").status_code == 200


def _signs_in(app: Flask, passphrase: str) -> bool:
    """Whether the passphrase is the household's (each guess from an address of its own)."""
    with app.test_request_context():
        try:
            access.check_passphrase(here(), f"10.0.0.{len(_GUESSES)}", passphrase)
        except access.WrongPassphrase:
            return False
        finally:
            _GUESSES.append(passphrase)
    return True


_GUESSES: list[str] = []


def test_a_restore_keeps_the_passphrase_in_force(migrated_app: Flask, tmp_path: Path) -> None:
    """The backup's (older) passphrase comes back only when the command is told so."""
    app = migrated_app
    runner = app.test_cli_runner()
    with app.test_request_context():
        access.set_passphrase(here(), FAMILY)
    copy = tmp_path / "copy.backup"
    assert runner.invoke(args=["backup", str(copy)]).exit_code == 0
    with app.test_request_context():
        access.change_passphrase(here(), "127.0.0.1", FAMILY, LATER)
    kept = runner.invoke(args=["restore", str(copy), "--yes"])
    assert kept.exit_code == 0, kept.output
    assert "the one in force before the restore" in kept.output
    assert "--backup-passphrase" in kept.output
    assert not _signs_in(app, FAMILY)
    assert _signs_in(app, LATER)
    taken = runner.invoke(args=["restore", str(copy), "--yes", "--backup-passphrase"])
    assert taken.exit_code == 0, taken.output
    assert "The household passphrase is the backup's" in taken.output
    assert not _signs_in(app, LATER)
    assert _signs_in(app, FAMILY)
    assert not app.extensions[RESTORE_FLAG].exists()


def _spoilt(copy: Path, tmp_path: Path) -> Path:
    """The backup cut short halfway: a file that fails as it is read."""
    cut = tmp_path / "cut.backup"
    data = copy.read_bytes()
    cut.write_bytes(data[: len(data) * 2 // 3])
    return cut


def _rounds_and_passphrase(app: Flask) -> tuple[int, str | None]:
    with app.app_context():
        count = db.session.scalar(sa.text("SELECT count(*) FROM sessions"))
        db.session.remove()
    return int(count or 0), _household_rows(app)[0][1]


def test_a_failed_restore_changes_nothing(migrated_app: Flask, tmp_path: Path) -> None:
    """A backup cut short (the dump fails midway on PostgreSQL: before, --clean had dropped
    every table by then) and, on SQLite, a backup the migrations cannot bring up to date (a
    newer version's): the command says it failed and changed nothing, the scores and the
    passphrase are as they were, and the app is open again."""
    app = migrated_app
    runner = app.test_cli_runner()
    with app.app_context():
        for name in ("Monday", "Tuesday", "Wednesday"):
            sessions.create_session(["Ann", "Bo"], name)
    copy = tmp_path / "copy.backup"
    assert runner.invoke(args=["backup", str(copy)]).exit_code == 0
    with app.test_request_context():
        access.set_passphrase(here(), FAMILY)
    with app.app_context():
        sessions.create_session(["Ann", "Cy"], "Thursday")
    before = _rounds_and_passphrase(app)
    assert before[0] == 4 and before[1] is not None
    spoilt = [_spoilt(copy, tmp_path)]
    if backup_is_sqlite(app):
        newer = tmp_path / "newer.backup"
        newer.write_bytes(copy.read_bytes())
        with sqlite3.connect(newer) as connection:
            connection.execute("UPDATE alembic_version SET version_num = 'ffff_newer'")
        spoilt.append(newer)
    else:  # a dump of a newer version's: refused before pg_restore changes anything
        newer = tmp_path / "newer.backup"
        with app.app_context():
            revision = db.session.scalar(sa.text("SELECT version_num FROM alembic_version"))
            db.session.execute(sa.text("UPDATE alembic_version SET version_num = 'ffff_newer'"))
            db.session.commit()
        assert runner.invoke(args=["backup", str(newer)]).exit_code == 0
        with app.app_context():
            db.session.execute(
                sa.text("UPDATE alembic_version SET version_num = :r"), {"r": revision}
            )
            db.session.commit()
        spoilt.append(newer)
    for bad in spoilt:
        result = runner.invoke(args=["restore", str(bad), "--yes"])
        assert result.exit_code != 0, result.output
        assert "The restore failed" in result.output
        assert "the scores and the passphrase are as they were" in result.output
        assert "Traceback" not in result.output
        assert _rounds_and_passphrase(app) == before, bad.name
        assert not app.extensions[RESTORE_FLAG].exists()
        assert _signs_in(app, FAMILY)
        assert app.test_client().get("/sign-in").status_code == 200  # open again
    leftovers = [p.name for p in tmp_path.rglob("*.restore-*")]
    assert leftovers == []


def backup_is_sqlite(app: Flask) -> bool:
    with app.app_context():
        return backup.sqlite_path() is not None
