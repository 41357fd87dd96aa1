"""The family's files are readable by their owner only (0600), whatever the umask: the SQLite
file the app or `flask db upgrade` creates, its -wal and -shm, `flask backup`'s copy and
`flask export-json`'s file."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.services import rounds, sessions

UMASKS = [pytest.param(0o022, id="umask-022"), pytest.param(0o000, id="umask-000")]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(params=UMASKS)
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """The process's umask for the test (the usual 022, and none at all)."""
    before = os.umask(request.param)
    yield request.param
    os.umask(before)


def _sqlite_app(tmp_path: Path, url: str | None = None) -> Flask:
    config = {"TESTING": True, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False}
    if url:
        config["SQLALCHEMY_DATABASE_URI"] = url
    return create_app(config, instance_path=str(tmp_path / "instance"))


def _played(app: Flask) -> None:
    with app.app_context():
        view = sessions.create_session(["Ann", "Bo"], "Sunday")
        rounds.add_round(view.id, {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 9}})


@pytest.mark.parametrize("relative", [False, True], ids=["absolute", "relative"])
def test_db_upgrade_makes_a_private_database_wal_and_shm(
    tmp_path: Path, umask: int, relative: bool
) -> None:
    """The SQLite file `flask db upgrade` creates, and the -wal and -shm SQLite writes next to
    it while connections are open, are 0600 (a relative path is in the instance folder)."""
    url = "sqlite:///scores.sqlite" if relative else f"sqlite:///{tmp_path / 'scores.sqlite'}"
    app = _sqlite_app(tmp_path, url)
    file = (tmp_path / "instance" if relative else tmp_path) / "scores.sqlite"
    upgrade = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert upgrade.exit_code == 0, upgrade.output
    _played(app)
    with app.app_context(), db.engine.connect() as held:  # keeps the -wal and -shm in place
        held.execute(sa.text("SELECT count(*) FROM rounds"))
        files = [file, Path(f"{file}-wal"), Path(f"{file}-shm")]
        assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
    with app.app_context():
        db.engine.dispose()


def test_the_default_instance_database_is_private(tmp_path: Path, umask: int) -> None:
    """The app's own instance/scorekeeper.sqlite, first made by the app starting."""
    app = _sqlite_app(tmp_path)
    file = tmp_path / "instance" / "scorekeeper.sqlite"
    with app.app_context():
        assert db.engine.url.database == str(file)
        db.create_all()
        _played(app)
        with db.engine.connect() as held:
            held.execute(sa.text("SELECT 1"))
            for f in (file, Path(f"{file}-wal"), Path(f"{file}-shm")):
                assert mode(f) == 0o600, f.name
        db.engine.dispose()


def test_an_existing_database_keeps_its_mode(tmp_path: Path, umask: int) -> None:
    """A file the family made themselves (say 0640 for a backup user) is left as it is."""
    file = tmp_path / "scores.sqlite"
    file.touch()
    file.chmod(0o640)
    app = _sqlite_app(tmp_path, f"sqlite:///{file}")
    with app.app_context():
        db.create_all()
        db.engine.dispose()
    assert mode(file) == 0o640


def test_backup_file_is_private(tmp_path: Path, umask: int) -> None:
    app = _sqlite_app(tmp_path, f"sqlite:///{tmp_path / 'scores.sqlite'}")
    with app.app_context():
        db.create_all()
    _played(app)
    runner = app.test_cli_runner()
    copy = tmp_path / "backups" / "copy.sqlite"
    result = runner.invoke(args=["backup", str(copy)])
    assert result.exit_code == 0, result.output
    assert mode(copy) == 0o600
    old = tmp_path / "backups" / "old.sqlite"  # a copy written over a looser file
    old.write_bytes(b"")
    old.chmod(0o644)
    assert runner.invoke(args=["backup", str(old)]).exit_code == 0
    assert mode(old) == 0o600
    with app.app_context():
        db.engine.dispose()


def test_export_json_file_is_private(app: Flask, tmp_path: Path, umask: int) -> None:
    """On SQLite and on PostgreSQL alike: the export holds every score and name."""
    _played(app)
    runner = app.test_cli_runner()
    out = tmp_path / "export.json"
    result = runner.invoke(args=["export-json", str(out)])
    assert result.exit_code == 0, result.output
    assert mode(out) == 0o600
    assert '"Ann"' in out.read_text(encoding="utf-8")
    out.chmod(0o644)
    assert runner.invoke(args=["export-json", str(out)]).exit_code == 0
    assert mode(out) == 0o600


def test_the_backup_file_is_private_on_either_database(
    app: Flask, tmp_path: Path, umask: int
) -> None:
    """SQLite's copy and pg_dump's file alike (pg_dump made its file 0644, finding 4 of issue
    23): the dump holds every name, score and the passphrase's hash."""
    _played(app)
    runner = app.test_cli_runner()
    copy = tmp_path / "backups" / "scores.backup"
    result = runner.invoke(args=["backup", str(copy)])
    assert result.exit_code == 0, result.output
    assert mode(copy) == 0o600
    copy.chmod(0o644)  # written over, a looser file becomes private too
    assert runner.invoke(args=["backup", str(copy)]).exit_code == 0
    assert mode(copy) == 0o600
