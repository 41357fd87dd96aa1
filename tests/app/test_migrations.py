"""Migrations build the schema on an empty database and match the models."""

from pathlib import Path

import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import MIGRATIONS_DIR, db


def test_upgrade_reaches_head_and_matches_models(database_url: str, tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url},
        instance_path=str(tmp_path / "instance"),
    )
    runner = app.test_cli_runner()

    upgrade = runner.invoke(args=["db", "upgrade"])
    assert upgrade.exit_code == 0, upgrade.output

    head = ScriptDirectory(str(MIGRATIONS_DIR)).get_current_head()
    with app.app_context():
        assert sa.inspect(db.engine).has_table("alembic_version")
        assert db.session.scalar(sa.text("SELECT version_num FROM alembic_version")) == head
        db.session.remove()

    check = runner.invoke(args=["db", "check"])
    assert check.exit_code == 0, check.output

    with app.app_context():
        db.engine.dispose()


def test_each_downgrade_step_keeps_every_round(migrated_app: Flask) -> None:
    """Taking a release back must not take the scores with it: on SQLite a downgrade that
    copies the `sessions` table (Alembic's batch mode) would cascade-delete every seat and
    round, so each step down to the first schema with rounds is checked with rounds stored."""
    from scorekeeper.services import rounds, sessions

    app = migrated_app
    runner = app.test_cli_runner()
    with app.app_context():
        view = sessions.create_session(["Ann", "Bo"], "Kept", 3)
        body = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 12}}
        rounds.add_round(view.id, body)
        rounds.add_round(view.id, {**body, "winner": "Bo", "racks": {"Ann": 7}})
        db.session.remove()
    script = ScriptDirectory(str(MIGRATIONS_DIR))
    steps = [rev.down_revision for rev in script.walk_revisions() if rev.down_revision]
    for target in steps:
        if target == "0001":  # 0002 made the tables: taking it back drops them
            break
        done = runner.invoke(args=["db", "downgrade", str(target)])
        assert done.exit_code == 0, done.output
        with app.app_context():
            counts = db.session.execute(
                sa.text("SELECT (SELECT count(*) FROM rounds), (SELECT count(*) FROM seats)")
            ).one()
            db.session.remove()
        assert tuple(counts) == (2, 2), target
