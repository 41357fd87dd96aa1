"""The operator's migration commands, run as on a deploy: upgrade, downgrade to nothing, and
upgrade again, on SQLite and on PostgreSQL. (tests/app/test_migrations.py checks that the
upgraded schema matches the models.)"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic.script import ScriptDirectory
from server_harness import prepare_database

from scorekeeper import create_app
from scorekeeper.extensions import MIGRATIONS_DIR, db


def tables_and_revision(url: str) -> tuple[set[str], str | None]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            tables = set(sa.inspect(connection).get_table_names())
            revision = None
            if "alembic_version" in tables:
                revision = connection.scalar(sa.text("SELECT version_num FROM alembic_version"))
        return tables - {"alembic_version"}, revision
    finally:
        engine.dispose()


def test_upgrade_downgrade_to_base_and_upgrade_again(server_database: str, tmp_path: Path) -> None:
    head = ScriptDirectory(str(MIGRATIONS_DIR)).get_current_head()
    url = prepare_database(server_database, tmp_path, fresh=True)  # by `flask db upgrade` itself
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url},
        instance_path=str(tmp_path / "instance"),
    )
    app_tables = set(db.metadata.tables)  # every model's table, registered by create_app
    assert {"sessions", "rounds", "entries"} <= app_tables
    assert tables_and_revision(url) == (app_tables, head)
    # The same commands again, in this process (a second `flask` start costs seconds here).
    runner = app.test_cli_runner()
    try:
        down = runner.invoke(args=["db", "downgrade", "base"])
        assert down.exit_code == 0, down.output
        assert tables_and_revision(url) == (set(), None)

        up = runner.invoke(args=["db", "upgrade"])
        assert up.exit_code == 0, up.output
        assert tables_and_revision(url) == (app_tables, head)
    finally:
        with app.app_context():
            db.engine.dispose()
