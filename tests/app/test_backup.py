"""Backups: the JSON export imports back exactly; the SQLite file copy and restore work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa
from factories import wipe
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.services import access, backup, rounds, sessions, views
from scorekeeper.web.access import here


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


def test_json_export_imports_back_exactly(app: Flask) -> None:
    session_id = _evening(app)
    with app.app_context():
        before = backup.export_everything()
        table_before = views.get_session(session_id)
        wipe()
        counts = backup.import_everything(json.loads(json.dumps(before)))
        after = backup.export_everything()
        assert counts["entries"] == 9 and counts["rounds"] == 3
        # The same scores; only the household's generation (and sign-out epoch) moved on.
        assert [h["generation"] for h in after["tables"].pop("household")] != [None]
        before["tables"].pop("household")
        assert after == before
        assert views.get_session(session_id).standings == table_before.standings
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
        wipe()
    result = runner.invoke(args=["import-json", str(out)])
    assert result.exit_code == 0, result.output
    with app.app_context():
        imported, exported = backup.export_everything(), json.loads(out.read_text("utf-8"))
        assert imported["tables"].pop("household")[0]["generation"]  # drawn by the import
        exported["tables"].pop("household")
        assert imported == exported


def _phone_etag(client: FlaskClient, session_id: int) -> str:
    response = client.get(f"/api/v1/sessions/{session_id}")
    assert response.status_code == 200
    return response.headers["ETag"]


def test_cli_backup_and_restore(migrated_app: Flask, tmp_path: Path) -> None:
    """A consistent copy that restores on both databases (SQLite's backup API, pg_dump and
    pg_restore), and no phone keeps the table from before the restore: a phone that saw the
    round added after the backup is not told "nothing changed" by a restored session that
    reached the same version again with other rounds."""
    app = migrated_app
    session_id = _evening(app)
    runner = app.test_cli_runner()
    phone = app.test_client()
    copy = tmp_path / "backups" / "copy.backup"
    result = runner.invoke(args=["backup", str(copy)])
    assert result.exit_code == 0, result.output
    with app.app_context():
        rounds.delete_round(session_id, 1)
        assert len(views.get_session(session_id).rounds) == 2
    seen_after_backup = _phone_etag(phone, session_id)
    result = runner.invoke(args=["restore", str(copy), "--yes"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert len(views.get_session(session_id).rounds) == 3
        # The family plays on: the restored session reaches the version the phone saw.
        rounds.delete_round(session_id, 3)
    after = phone.get(
        f"/api/v1/sessions/{session_id}", headers={"If-None-Match": seen_after_backup}
    )
    assert after.status_code == 200
    assert [r["number"] for r in after.get_json()["rounds"]] == [1, 2]
    assert after.get_json()["rounds"][0]["ending"] == "went_out"  # round 1 is back
    table = phone.get(f"/sessions/{session_id}/table")
    assert table.headers["ETag"] not in {seen_after_backup}
    assert (
        phone.get(
            f"/sessions/{session_id}/table", headers={"If-None-Match": table.headers["ETag"]}
        ).status_code
        == 304
    )


def test_a_restore_signs_every_phone_out(migrated_app: Flask, tmp_path: Path) -> None:
    """A phone signed out after the backup is not let back in by the restored (older) epoch,
    and a phone signed in before the restore gives the passphrase again."""
    app = migrated_app
    runner = app.test_cli_runner()
    with app.test_request_context():
        access.set_passphrase(here(), "tiles on the table")
    with app.test_request_context():
        kept_in = access.cookie_token(
            here(), remember=True
        )  # a phone signed in at the backup's epoch
    assert runner.invoke(args=["backup", str(tmp_path / "copy.backup")]).exit_code == 0
    with app.test_request_context():
        access.sign_out_every_phone(here())
    with app.test_request_context():
        assert access.read_cookie(here(), kept_in) is None
        signed_in_since = access.cookie_token(here(), remember=True)
    result = runner.invoke(args=["restore", str(tmp_path / "copy.backup"), "--yes"])
    assert result.exit_code == 0, result.output
    with app.test_request_context():
        assert access.access_state(here()).locked  # the restored passphrase holds
        assert access.read_cookie(here(), kept_in) is None
        assert access.read_cookie(here(), signed_in_since) is None
        assert access.read_cookie(here(), access.cookie_token(here(), remember=True)) is not None


def test_an_import_moves_the_generation_on(app: Flask) -> None:
    session_id = _evening(app)
    phone = app.test_client()
    seen = _phone_etag(phone, session_id)
    with app.app_context():
        document = backup.export_everything()
        wipe()
        backup.import_everything(document)
    again = phone.get(f"/api/v1/sessions/{session_id}", headers={"If-None-Match": seen})
    assert again.status_code == 200
    assert again.headers["ETag"] != seen
