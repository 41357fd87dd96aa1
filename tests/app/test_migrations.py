"""Migrations build the schema on an empty database and match the models."""

from pathlib import Path

import sqlalchemy as sa
from alembic.script import ScriptDirectory

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
