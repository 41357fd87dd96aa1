"""Flask extensions, created unbound here and initialised in create_app."""

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"

# column_0_N_name joins every column, so two multi-column constraints never share a name.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base whose constraints get stable names, so migrations can drop them."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# pool_pre_ping: a pooled connection the database has dropped (PostgreSQL restarted, a
# connection killed by an administrator or a firewall) is replaced before use, instead of
# failing the next request with a 500. SQLALCHEMY_ENGINE_OPTIONS can still override it.
db = SQLAlchemy(model_class=Base, engine_options={"pool_pre_ping": True})
# The models' base class: Flask-SQLAlchemy's db.Model, which a type checker sees as Base (it
# is a subclass of Base made at run time, so it cannot be named statically).
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
migrate = Migrate()
csrf = CSRFProtect()


# How long a SQLite writer waits for another to finish before giving up, in milliseconds.
SQLITE_BUSY_TIMEOUT_MS = 20_000
# The execution option a write use-case sets so its SQLite transaction starts IMMEDIATE.
WRITE_OPTION = "scorekeeper_write"
# The execution option of a read made at once, outside any transaction (read_at_once).
READ_OPTION = "scorekeeper_read_at_once"


def read_at_once(statement: Any, params: dict[str, Any] | None = None) -> Any:
    """The first row of one small read on a pooled connection of its own, outside any transaction
    (no BEGIN, no ROLLBACK); it sees the last commit of any process."""
    options: dict[str, Any] = {READ_OPTION: True}
    if db.engine.dialect.name != "sqlite":
        options["isolation_level"] = "AUTOCOMMIT"
    with db.engine.connect().execution_options(**options) as connection:
        return connection.execute(statement, params).first()


@event.listens_for(Engine, "connect")
def _tune_sqlite(dbapi_connection: Any, _connection_record: Any) -> None:
    """WAL, foreign keys and a busy timeout for every SQLite connection; SQLAlchemy, not the
    driver, begins transactions (see _begin_sqlite), so a write can begin IMMEDIATE."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=NORMAL")
    finally:
        cursor.close()


@event.listens_for(Engine, "begin")
def _begin_sqlite(connection: Any) -> None:
    """A write takes SQLite's write lock when it begins (BEGIN IMMEDIATE), so two writers queue
    on the busy timeout instead of one failing with "database is locked" halfway through."""
    if connection.dialect.name != "sqlite":
        return
    if connection.get_execution_options().get(READ_OPTION):
        return  # one read, outside any transaction (read_at_once)
    immediate = connection.get_execution_options().get(WRITE_OPTION)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")
