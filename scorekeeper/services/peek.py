"""The two reads every request of a phone at the table makes, at next to no cost: a session's
stamp (has anything changed?) and the household's passphrase state (may this phone in?).

Through the ORM each would cost a pool checkout, a transaction and its rollback, several
times the work of the answer when the answer is a kept page. So each thread holds one
connection of its own, taken out of the pool, in autocommit: every read sees the last commit
of any worker, exactly like a fresh transaction would. Nothing is written through it.
"""

from __future__ import annotations

import contextlib
import os
import threading
from datetime import datetime
from typing import Any

from scorekeeper.extensions import db

_held = threading.local()

SESSION_STAMP = "SELECT created_at, version FROM sessions WHERE id = ?"
HOUSEHOLD = "SELECT passphrase_hash, cookie_epoch FROM household WHERE id = ?"


def _connection() -> tuple[Any, bool]:
    """This thread's own connection to the app's database (and whether it is SQLite)."""
    engine = db.engine
    held = getattr(_held, "connection", None)
    if held is not None and held[0] is engine and held[1] == os.getpid():
        return held[2], held[3]
    pooled = engine.raw_connection()
    pooled.detach()  # ours for good: never handed to the ORM, closed when the thread ends
    connection = pooled.dbapi_connection
    sqlite = engine.dialect.name == "sqlite"
    if not sqlite:
        connection.rollback()
        connection.autocommit = True
    _held.connection = (engine, os.getpid(), connection, sqlite)
    return connection, sqlite


def reads() -> int:
    """How many reads this thread has made here: the ORM's statement events do not see them,
    so whoever counts statements per request adds these."""
    return getattr(_held, "reads", 0)  # type: ignore[no-any-return]


def one_row(statement: str, *params: object) -> tuple[Any, ...] | None:
    """The first row of a read (`?` placeholders), or None; a connection the database has
    dropped (a restarted PostgreSQL) is replaced once, as the pool's pre-ping would."""
    _held.reads = reads() + 1
    for attempt in (1, 2):
        connection, sqlite = _connection()
        try:
            cursor = connection.cursor()
            try:
                cursor.execute(statement if sqlite else statement.replace("?", "%s"), params)
                return cursor.fetchone()  # type: ignore[no-any-return]
            finally:
                cursor.close()
        except db.engine.dialect.loaded_dbapi.OperationalError:
            _held.connection = None
            with contextlib.suppress(db.engine.dialect.loaded_dbapi.Error):
                connection.close()
            if attempt == 2:
                raise
    return None


def moment(value: datetime | str | None) -> str:
    """A stored time as the same text whichever way it was read (SQLite hands the driver's
    text, the ORM and PostgreSQL a datetime)."""
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S.%f")
    return value or ""
