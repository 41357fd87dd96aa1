"""Backups: the JSON export imports back exactly; the SQLite file copy and restore work."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.services import backup, rounds, sessions


def _evening(app: Flask) -> int:
    with app.app_context():
        view = sessions.create_session(
            ["Ann", "Bø", "Cyłla"], "Sunday", 3, {"drop_worst_round": True}
        )
        rounds.add_round(
            view.id,
            {
                "ending": "went_out",
                "winner": "Ann",
                "racks": {"Bø": 22, "Cyłla": ["r7", "k13", "j"]},
            },
        )
        rounds.add_round(
            view.id, {"ending": "pool_empty", "racks": {"Ann": 10, "Bø": 4, "Cyłla": 30}}
        )
        rounds.add_round(
            view.id,
            {
                "ending": "went_out",
                "winner": "Bø",
                "racks": {"Ann": 200, "Cyłla": 3},
                "confirm": True,
            },
        )
        return view.id


def _wipe() -> None:
    for table in reversed(db.metadata.sorted_tables):
        db.session.execute(table.delete())
    db.session.commit()


def test_json_export_imports_back_exactly(app: Flask) -> None:
    session_id = _evening(app)
    with app.app_context():
        before = backup.export_everything()
        table_before = sessions.get_session(session_id)
        _wipe()
        counts = backup.import_everything(json.loads(json.dumps(before)))
        after = backup.export_everything()
        assert counts["entries"] == 9 and counts["rounds"] == 3
        assert after == before
        assert sessions.get_session(session_id).standings == table_before.standings
        # New rows still get fresh ids after an import that kept the old ones.
        again = sessions.create_session(["Ann", "Di"])
        assert again.id == session_id + 1


def test_import_refuses_a_database_that_holds_scores(app: Flask) -> None:
    _evening(app)
    with app.app_context():
        document = backup.export_everything()
        with pytest.raises(backup.RulesError) as err:
            backup.import_everything(document)
        assert err.value.code == "bad_backup"
        assert db.session.scalar(sa.select(sa.func.count()).select_from(sa.table("rounds"))) == 3


@pytest.mark.parametrize("document", [None, [], {"format": "other"}, {"format": backup.FORMAT}])
def test_import_refuses_what_is_not_an_export(app: Flask, document: object) -> None:
    with app.app_context(), pytest.raises(backup.RulesError):
        backup.import_everything(document)


def test_cli_json_round_trip(app: Flask, tmp_path: Path) -> None:
    _evening(app)
    runner = app.test_cli_runner()
    out = tmp_path / "export.json"
    result = runner.invoke(args=["export-json", str(out)])
    assert result.exit_code == 0, result.output
    assert "3 rounds" in result.output
    with app.app_context():
        _wipe()
    result = runner.invoke(args=["import-json", str(out)])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert backup.export_everything() == json.loads(out.read_text(encoding="utf-8"))


def test_cli_backup_and_restore(app: Flask, tmp_path: Path) -> None:
    """On SQLite a consistent file copy that restores; on PostgreSQL the pg_dump to run."""
    session_id = _evening(app)
    runner = app.test_cli_runner()
    copy = tmp_path / "backups" / "copy.sqlite"
    result = runner.invoke(args=["backup", str(copy)])
    assert result.exit_code == 0, result.output
    with app.app_context():
        on_sqlite = backup.sqlite_path() is not None
    if not on_sqlite:
        assert "pg_dump --format=custom" in result.output
        dump = tmp_path / "evening.dump"
        dump.write_bytes(b"")
        assert "pg_restore --clean" in runner.invoke(args=["restore", str(dump)]).output
        return
    with sqlite3.connect(copy) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert check.execute("SELECT count(*) FROM rounds").fetchone() == (3,)
    with app.app_context():
        rounds.delete_round(session_id, 1)
        assert len(sessions.get_session(session_id).rounds) == 2
    result = runner.invoke(args=["restore", str(copy), "--yes"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert len(sessions.get_session(session_id).rounds) == 3
