"""Scorekeeper: keeps the score of Rummikub played with real tiles."""

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.middleware.proxy_fix import ProxyFix

from scorekeeper.config import Defaults
from scorekeeper.extensions import MIGRATIONS_DIR, csrf, db, migrate
from scorekeeper.files import create_private_sqlite


class CompiledTemplates(BytecodeCache):
    """Each template compiled once a process, for every app made in it (they share create_app's
    Jinja options), and again when its source changes."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


COMPILED = CompiledTemplates()


def create_app(
    test_config: Mapping[str, Any] | None = None, *, instance_path: str | None = None
) -> Flask:
    """Build the app; config: defaults, instance/config.py, SCOREKEEPER_* env, test_config."""
    app = Flask(__name__, instance_relative_config=True, instance_path=instance_path)
    # Template tags leave no blank lines and indentation behind: pages stay small.
    app.jinja_options = {
        **app.jinja_options,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "bytecode_cache": COMPILED,
    }
    app.config.from_object(Defaults)
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env("SCOREKEEPER")
    if "SCOREKEEPER_PASSPHRASE" in os.environ:  # as typed: "12345678" must not become a number
        app.config["PASSPHRASE"] = os.environ["SCOREKEEPER_PASSPHRASE"]
    if test_config is not None:
        app.config.from_mapping(test_config)

    os.makedirs(app.instance_path, exist_ok=True)
    if test_config is None or "SQLALCHEMY_DATABASE_URI" not in test_config:
        app.config["SQLALCHEMY_DATABASE_URI"] = _configured_database_url(app)
    app.config["SQLALCHEMY_DATABASE_URI"] = sqlalchemy_url(app.config["SQLALCHEMY_DATABASE_URI"])
    # The scores are the family's: a new SQLite file (and so its -wal and -shm) is 0600.
    create_private_sqlite(app.config["SQLALCHEMY_DATABASE_URI"], app.instance_path)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret_key(Path(app.instance_path))

    db.init_app(app)
    migrate.init_app(app, db, render_as_batch=True, directory=str(MIGRATIONS_DIR))
    csrf.init_app(app)

    from scorekeeper.web import assets

    assets.init_app(app)  # fingerprinted static files kept a year; compressed responses

    from scorekeeper.web import i18n

    i18n.init_app(app)  # Flask-Babel: the locale per phone, the /language switcher, formats

    from scorekeeper import models  # noqa: F401  (registers the tables with db.metadata)
    from scorekeeper.web import register_blueprints

    register_blueprints(app)

    from scorekeeper.cli import register_commands

    register_commands(app)
    proxies = app.config.get("PROXY_FIX")
    if proxies:  # SCOREKEEPER_PROXY_FIX=1 behind one reverse proxy: trust its X-Forwarded-*
        # (wrapping wsgi_app is Flask's documented way; mypy takes it for a method's reassignment)
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=int(proxies), x_proto=int(proxies), x_host=int(proxies)
        )
    return app


def sqlalchemy_url(url: str) -> str:
    """Point postgres:// and postgresql:// URLs at the psycopg 3 driver; leave others alone."""
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url.removeprefix(scheme)
    return url


def _configured_database_url(app: Flask) -> str:
    """SCOREKEEPER_DATABASE_URL (config DATABASE_URL), else DATABASE_URL, else instance SQLite."""
    url = app.config.get("DATABASE_URL") or os.environ.get("DATABASE_URL")
    if url:
        return str(url)
    return "sqlite:///" + os.path.join(app.instance_path, "scorekeeper.sqlite")


def _instance_secret_key(instance: Path) -> str:
    """Read instance/secret_key, creating it (mode 0600) first, so sessions survive restarts."""
    key_file = instance / "secret_key"
    if not key_file.exists():
        draft = instance / f".secret_key.{os.getpid()}"
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secrets.token_hex(32) + "\n")
        try:
            os.link(draft, key_file)  # atomic: if two workers race, the first key wins
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return key_file.read_text(encoding="ascii").strip()
