"""Shared fixtures: an app on a clean database (SQLite always, PostgreSQL when configured)."""

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import create_app, sqlalchemy_url
from scorekeeper.extensions import db

POSTGRES_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")

DATABASES = [pytest.param("sqlite", id="sqlite")]
if POSTGRES_URL:
    DATABASES.append(pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres))


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


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL for an empty database: a fresh SQLite file, or the cleared PostgreSQL test database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'test.sqlite'}"
        return
    assert POSTGRES_URL is not None
    url = sqlalchemy_url(POSTGRES_URL)
    _drop_everything(url)
    yield url
    _drop_everything(url)


@pytest.fixture
def app(database_url: str, tmp_path: Path) -> Iterator[Flask]:
    """The app under test, with its tables created by create_all (migrations have own tests)."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "PASSPHRASE": None,  # a passphrase exported in the shell must not gate the tests
        },
        instance_path=str(tmp_path / "instance"),
    )
    with app.app_context():
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


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
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


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
                "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                **config,
            },
            instance_path=str(tmp_path / f"instance-{len(made)}"),
        )
        made.append(other)
        return other

    yield make
    for other in made:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()
