"""Shared fixtures: an app on a clean database (SQLite always, PostgreSQL when configured).

The schema is made once per run and database, not per test: an `app` test gets a copy of an
SQLite file that create_all made once, or the PostgreSQL database with its tables emptied
(DELETE, and every id sequence back at 1), which costs a few milliseconds where dropping and
creating the tables cost most of a test's time. `database_url` is an empty database (no
tables), for the tests that make the schema themselves (migrations).
"""

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from factories import let_go, with_tables
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from postgres_databases import empty_tables, fresh_postgres_url

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.web.access import SETTINGS

POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")

DATABASES = [pytest.param("sqlite", id="sqlite")]
if POSTGRES_URL:
    DATABASES.append(pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres))

# Passphrases hashed with a cheap scrypt (n=2**10, 4 ms instead of 160 ms of CPU a hash): what
# the tests check is what is stored and compared, not the hash's cost; one test keeps the
# default's (tests/app/test_access.py), and the real servers of tests/server hash as deployed.
TEST_HASH_METHOD = "scrypt:1024:8:1"

TEST_CONFIG = {
    "TESTING": True,
    "SECRET_KEY": "test",
    "WTF_CSRF_ENABLED": False,
    "PASSPHRASE": None,  # a passphrase exported in the shell must not gate the tests
    "PASSPHRASE_HASH_METHOD": TEST_HASH_METHOD,
}


def _drop_everything(url: str) -> None:
    """Drop every table (alembic_version included) so a PostgreSQL test starts from nothing."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            tables = sa.MetaData()
            tables.reflect(connection)
            tables.drop_all(connection)
            connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
    finally:
        engine.dispose()


class Schema:
    """The run's databases with the app's tables made once: a template SQLite file, and
    whether this worker's PostgreSQL database holds the tables (a migration test empties it)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.sqlite_template: Path | None = None
        self.postgres_url = fresh_postgres_url(POSTGRES_URL, "") if POSTGRES_URL else None
        self.postgres_ready = False
        # One pooled connection for emptying the tables, test after test.
        self.postgres = sa.create_engine(self.postgres_url) if self.postgres_url else None

    def _create_all(self, url: str) -> None:
        app = create_app(
            {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url},
            instance_path=str(self.folder / "instance"),
        )
        with app.app_context():
            db.create_all()
            db.engine.dispose()

    def sqlite_copy(self, target: Path) -> str:
        if self.sqlite_template is None:
            template = self.folder / "template.sqlite"
            self._create_all(f"sqlite:///{template}")
            self.sqlite_template = template
        shutil.copyfile(self.sqlite_template, target)
        return f"sqlite:///{target}"

    def postgres_tables(self) -> str:
        """The worker's PostgreSQL database with the app's tables, empty, every id sequence
        back at 1. DELETE and setval, not TRUNCATE ... RESTART IDENTITY: on tables this small
        TRUNCATE cost PostgreSQL some 60 ms of CPU a test (new files for every table), these
        about 1 ms."""
        assert self.postgres_url is not None and self.postgres is not None
        if not self.postgres_ready:
            _drop_everything(self.postgres_url)
            self._create_all(self.postgres_url)
            self.postgres_ready = True
            return self.postgres_url
        with self.postgres.begin() as connection:
            empty_tables(connection, db.metadata.sorted_tables)
        return self.postgres_url

    def postgres_empty(self) -> str:
        assert self.postgres_url is not None
        _drop_everything(self.postgres_url)
        self.postgres_ready = False
        return self.postgres_url


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test its own id, the one its name says. schemathesis names each operation's test
    `test_...[GET /api/v1/sessions]`, but pytest 9 makes a test's id from its original name and
    parameters: all of them had one id, and pytest-xdist, which hands tests to its workers by
    id, ran only the first (tests/app/test_schemathesis.py)."""
    for item in items:
        if item.parent is not None and not item.nodeid.endswith(f"::{item.name}"):
            item._id = item.parent.id.child(item.name)  # as pytest's Node makes it


@pytest.fixture(scope="session")
def schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Schema]:
    made = Schema(tmp_path_factory.mktemp("schema"))
    yield made
    if made.postgres is not None:
        made.postgres.dispose()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Each test on every database, but in a file marked `one_database` (its subject, such as
    the static files or the allowed hosts, is the same on each) on SQLite only."""
    if "database_kind" in metafunc.fixturenames:
        one = metafunc.definition.get_closest_marker("one_database")
        metafunc.parametrize("database_kind", DATABASES[:1] if one else DATABASES, indirect=True)


@pytest.fixture
def database_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database_url(database_kind: str, schema: Schema, tmp_path: Path) -> Iterator[str]:
    """A URL for an empty database (no tables): a fresh SQLite file, or the emptied PostgreSQL
    test database."""
    if database_kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite'}"
        return
    yield schema.postgres_empty()
    schema.postgres_empty()  # whatever the test made, the next one starts from the tables


def kept_database_url(kind: str, folder: Path, name: str) -> str:
    """An empty database kept for several tests: a SQLite file `<name>.sqlite` in `folder`, or
    PostgreSQL's `<test database>_<name>`."""
    if kind == "sqlite":
        return f"sqlite:///{folder / f'{name}.sqlite'}"
    assert POSTGRES_URL is not None
    return fresh_postgres_url(POSTGRES_URL, f"_{name}")


class SharedApps:
    """This worker's one app per database for the test files marked `shared_app`, served test
    after test as a running app serves request after request: made by create_app once, on a
    database of its own (a SQLite file; PostgreSQL's `<test database>_shared`), its tables
    made by create_all. Before each test its tables are emptied (every id sequence back at 1)
    and what a test may have changed in it is put back: its configuration, and the right
    passphrases it remembers. A fresh app for each of those tests cost more than the test."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.apps: dict[str, tuple[Flask, dict[str, Any], str | None]] = {}

    def app(self, kind: str) -> Flask:
        if kind not in self.apps:
            url = kept_database_url(kind, self.folder, "shared")
            app = create_app(
                {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url},
                instance_path=str(self.folder / f"instance-{kind}"),
            )
            with app.app_context():
                db.create_all()
                db.session.remove()
            self.apps[kind] = (app, dict(app.config), app.static_folder)
            return app
        app, config, static_folder = self.apps[kind]
        app.config.clear()
        app.config.update(config)
        app.static_folder = static_folder
        app.extensions[SETTINGS].verified.clear()
        with app.app_context(), db.engine.begin() as connection:
            empty_tables(connection, db.metadata.sorted_tables)
        return app

    def after(self, kind: str) -> None:
        """A test that left a connection checked out (a transaction open) leaves the app."""
        app = self.apps[kind][0]
        with app.app_context():
            db.session.remove()
            if db.engine.pool.checkedout():  # type: ignore[attr-defined]
                del self.apps[kind]
                db.engine.dispose()

    def close(self) -> None:
        for app, _config, _static in self.apps.values():
            with app.app_context():
                db.engine.dispose()


@pytest.fixture(scope="session")
def shared_apps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedApps]:
    apps = SharedApps(tmp_path_factory.mktemp("shared"))
    yield apps
    apps.close()


@pytest.fixture
def app(
    database_kind: str, schema: Schema, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Flask]:
    """The app under test, on the app's tables (create_all: migrations have tests of their
    own), holding no row: made for the test, or in a file marked `shared_app` this worker's
    app for the database, put back as it was made (SharedApps)."""
    if request.node.get_closest_marker("shared_app"):
        shared: SharedApps = request.getfixturevalue("shared_apps")
        yield shared.app(database_kind)
        shared.after(database_kind)
        return
    if database_kind == "sqlite":
        url = schema.sqlite_copy(tmp_path / "test.sqlite")
    else:
        url = schema.postgres_tables()
    app = create_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url},
        instance_path=str(tmp_path / "instance"),
    )
    yield app
    let_go(app)


@pytest.fixture(scope="module", params=DATABASES)
def module_database_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def module_app(
    module_database_kind: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Flask]:
    """One app for many tests of a module that each assert they wrote nothing (so that each
    finds what the last one left): on a database of its own, apart from `app`'s, which other
    tests empty (a SQLite file; PostgreSQL's `<test database>_module`), its tables made by
    create_all. A test that finds it changed must put it back (see tests/app/test_hostile.py)."""
    folder = tmp_path_factory.mktemp("module-app")
    url = kept_database_url(module_database_kind, folder, "module")
    app = create_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url}, instance_path=str(folder / "instance")
    )
    with with_tables(app):
        yield app


@pytest.fixture
def migrated_app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """The app on a database whose schema `flask db upgrade` made (the real migrations), for
    tests that take migrations up and down with data in the tables."""
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url},
        instance_path=str(tmp_path / "instance"),
    )
    upgrade = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert upgrade.exit_code == 0, upgrade.output
    yield app
    let_go(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client for the app."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A runner for the app's CLI commands."""
    return app.test_cli_runner()


@pytest.fixture
def make_app(app: Flask, tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """Another app on the `app` fixture's database (and tables), with extra configuration,
    e.g. `make_app(WTF_CSRF_ENABLED=True)` for the app as it runs for the family."""
    made: list[Flask] = []

    def make(**config: Any) -> Flask:
        other = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "test",
                "WTF_CSRF_ENABLED": False,
                "PASSPHRASE_HASH_METHOD": TEST_HASH_METHOD,
                "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                **config,
            },
            instance_path=str(tmp_path / f"instance-{len(made)}"),
        )
        made.append(other)
        return other

    yield make
    for other in made:
        let_go(other)
