"""The PostgreSQL databases of a test run, next to SCOREKEEPER_TEST_DATABASE_URL's: one per
pytest-xdist worker (`scorekeeper_test_gw0`, ...), so workers running at once never share one.

Their commits do not wait for the write-ahead log to reach the disk (synchronous_commit off):
what a commit makes visible, and that it outlives the app's process, is the same; only a crash
of the PostgreSQL server itself could lose the last ones, which no test does. The wait was
about 1.5 ms a commit here, a third of the time of tests/app/test_api.py on PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Sequence

import sqlalchemy as sa

from scorekeeper import sqlalchemy_url

# "gw0", "gw1", ... under `pytest -n`; empty when the tests run in one process.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def fresh_postgres_url(base_url: str, suffix: str, empty: bool = True) -> str:
    """A PostgreSQL database next to `base_url`'s, named with the suffix (and this worker's
    name), created if missing and, when `empty`, emptied (schema public dropped and made again)."""
    url = sa.make_url(sqlalchemy_url(base_url))
    url = url.set(database=f"{url.database}{suffix}{'_' + WORKER if WORKER else ''}")
    admin = sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            exists = connection.scalar(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :name"),
                {"name": url.database},
            )
            if not exists:
                connection.exec_driver_sql(f'CREATE DATABASE "{url.database}"')
            connection.exec_driver_sql(
                f'ALTER DATABASE "{url.database}" SET synchronous_commit = off'
            )
    finally:
        admin.dispose()
    if empty:
        engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as connection:
                connection.exec_driver_sql("DROP SCHEMA public CASCADE")
                connection.exec_driver_sql("CREATE SCHEMA public")
        finally:
            engine.dispose()
    return url.render_as_string(hide_password=False)


def empty_tables(connection: sa.Connection, tables: Sequence[sa.Table]) -> None:
    """Every row of `tables` (in dependency order: the ones others point to first) deleted,
    last ones first, and on PostgreSQL every id sequence of the schema back at 1 (SQLite's ids
    start again at 1 by themselves: the tables have no AUTOINCREMENT). Why not TRUNCATE:
    tests/conftest.py, SharedApps. The household's row is put back as a new database has it
    (migration 0009, models.py): without it the gate is closed."""
    for table in reversed(tables):
        connection.execute(table.delete())
    if any(table.name == "household" for table in tables):
        connection.exec_driver_sql(
            "INSERT INTO household (id, passphrase_hash, changed_at, cookie_epoch)"
            " VALUES (1, NULL, CURRENT_TIMESTAMP, 0)"
        )
    if connection.dialect.name == "postgresql":
        sequences = connection.exec_driver_sql(
            "SELECT c.oid::regclass::text FROM pg_class c"
            " JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE c.relkind = 'S' AND n.nspname = current_schema()"
        ).scalars()
        for sequence in sequences.all():
            connection.execute(sa.select(sa.func.setval(sequence, 1, False)))
