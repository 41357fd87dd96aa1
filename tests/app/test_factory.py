"""create_app: configuration layers, database URL, secret key, and the two pages it serves."""

import re
import stat
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask, request
from flask.testing import FlaskClient

from scorekeeper import create_app, sqlalchemy_url
from scorekeeper.extensions import db


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hide any database or secret settings of the shell running the tests."""
    for name in ("SCOREKEEPER_DATABASE_URL", "DATABASE_URL", "SCOREKEEPER_SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)


def test_defaults_apply(tmp_path: Path) -> None:
    app = create_app(instance_path=str(tmp_path))
    assert app.config["MAX_CONTENT_LENGTH"] == 64 * 1024
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["WTF_CSRF_TIME_LIMIT"] is None
    assert app.config["SQLALCHEMY_ENGINE_OPTIONS"] == {}
    assert app.config["TESTING"] is False


def test_instance_config_overrides_defaults(tmp_path: Path) -> None:
    (tmp_path / "config.py").write_text(
        'MAX_CONTENT_LENGTH = 1024\nSESSION_COOKIE_SAMESITE = "Strict"\n'
    )
    app = create_app(instance_path=str(tmp_path))
    assert app.config["MAX_CONTENT_LENGTH"] == 1024
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Strict"


def test_env_overrides_instance_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "config.py").write_text("MAX_CONTENT_LENGTH = 1024\n")
    monkeypatch.setenv("SCOREKEEPER_MAX_CONTENT_LENGTH", "2048")
    app = create_app(instance_path=str(tmp_path))
    assert app.config["MAX_CONTENT_LENGTH"] == 2048


def test_test_config_overrides_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_MAX_CONTENT_LENGTH", "2048")
    app = create_app({"MAX_CONTENT_LENGTH": 4096}, instance_path=str(tmp_path))
    assert app.config["MAX_CONTENT_LENGTH"] == 4096


@pytest.mark.parametrize(
    ("scorekeeper_url", "plain_url", "expected"),
    [
        ("sqlite:////tmp/a.sqlite", "sqlite:////tmp/b.sqlite", "sqlite:////tmp/a.sqlite"),
        (None, "sqlite:////tmp/b.sqlite", "sqlite:////tmp/b.sqlite"),
        (None, None, "default"),
    ],
    ids=["scorekeeper-wins", "database-url-next", "sqlite-default"],
)
def test_database_url_precedence(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    scorekeeper_url: str | None,
    plain_url: str | None,
    expected: str,
) -> None:
    if scorekeeper_url:
        monkeypatch.setenv("SCOREKEEPER_DATABASE_URL", scorekeeper_url)
    if plain_url:
        monkeypatch.setenv("DATABASE_URL", plain_url)
    app = create_app(instance_path=str(tmp_path))
    if expected == "default":
        expected = f"sqlite:///{tmp_path / 'scorekeeper.sqlite'}"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == expected


@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_postgres_urls_use_psycopg(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scheme: str
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"{scheme}://ann@db.example:5432/rummikub")
    app = create_app(instance_path=str(tmp_path))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == (
        "postgresql+psycopg://ann@db.example:5432/rummikub"
    )


def test_sqlalchemy_url_leaves_other_urls_alone() -> None:
    assert sqlalchemy_url("sqlite:///x.sqlite") == "sqlite:///x.sqlite"
    assert sqlalchemy_url("postgresql+psycopg://h/d") == "postgresql+psycopg://h/d"


def test_secret_key_generated_once_and_reused(tmp_path: Path) -> None:
    first = create_app(instance_path=str(tmp_path))
    key_file = tmp_path / "secret_key"
    assert key_file.read_text().strip() == first.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) == 64
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    second = create_app(instance_path=str(tmp_path))
    assert second.config["SECRET_KEY"] == first.config["SECRET_KEY"]
    # No draft key left behind; the empty database file is made private at start (0600).
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scorekeeper.sqlite", "secret_key"]


def test_configured_secret_key_writes_no_file(tmp_path: Path) -> None:
    app = create_app({"SECRET_KEY": "from-config"}, instance_path=str(tmp_path))
    assert app.config["SECRET_KEY"] == "from-config"
    assert not (tmp_path / "secret_key").exists()


def test_healthz(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    assert response.get_data(as_text=True) == "ok"


def test_home_page(client: FlaskClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Scorekeeper" in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert '<html lang="en">' in page
    assert re.search(r'href="/static/app\.[0-9a-f]{10}\.css"', page)


def test_sqlite_pragmas(tmp_path: Path) -> None:
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'pragmas.sqlite'}"},
        instance_path=str(tmp_path),
    )
    with app.app_context():
        assert db.session.execute(sa.text("PRAGMA foreign_keys")).scalar() == 1
        assert db.session.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(sa.text("PRAGMA busy_timeout")).scalar() == 20_000
        assert db.session.execute(sa.text("PRAGMA synchronous")).scalar() == 1  # NORMAL
        db.session.remove()
        db.engine.dispose()


def test_proxy_fix_trusts_the_proxy_only_when_asked(tmp_path: Path) -> None:
    seen = []

    def build(**config: object) -> Flask:
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'p.sqlite'}", **config},
            instance_path=str(tmp_path),
        )
        with app.app_context():
            db.create_all()

        @app.get("/whoami")
        def whoami() -> str:
            seen.append(request.remote_addr)
            return request.scheme

        return app

    headers = {"X-Forwarded-For": "192.0.2.7", "X-Forwarded-Proto": "https"}
    assert build().test_client().get("/whoami", headers=headers).text == "http"
    assert build(PROXY_FIX=1).test_client().get("/whoami", headers=headers).text == "https"
    assert seen == ["127.0.0.1", "192.0.2.7"]
