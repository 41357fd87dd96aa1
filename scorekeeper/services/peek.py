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

from flask import g

from scorekeeper.extensions import db

_held = threading.local()

SESSION_STAMP = "SELECT created_at, version FROM sessions WHERE id = ?"
HOUSEHOLD = "SELECT passphrase_hash, cookie_epoch FROM household WHERE id = ?"
# Both in one statement, for a request that will need both (a session's page or document).
HOUSEHOLD_AND_SESSION = (
    "SELECT h.passphrase_hash, h.cookie_epoch, s.created_at, s.version"
    " FROM (SELECT ? AS asked) AS q"
    " LEFT JOIN household h ON h.id = ?"
    " LEFT JOIN sessions s ON s.id = q.asked"
)


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


def household_and_session(household_id: int, session_id: int) -> None:
    """Read the household's passphrase state and a session's stamp in one statement, kept for
    this request only: household() and session() below hand them out once each."""
    row = one_row(HOUSEHOLD_AND_SESSION, session_id, household_id)
    assert row is not None  # the outer select always yields its one row
    g.peeked_household = (row[0], row[1]) if row[1] is not None else None
    g.peeked_session = (session_id, (row[2], row[3]) if row[3] is not None else None)


def household(household_id: int) -> tuple[Any, ...] | None:
    """The household's (passphrase_hash, cookie_epoch), or None when it has no row yet."""
    if "peeked_household" in g:
        return g.pop("peeked_household")  # type: ignore[no-any-return]
    return one_row(HOUSEHOLD, household_id)


def session(session_id: int) -> tuple[Any, ...] | None:
    """The session's (created_at, version), or None when there is no such session."""
    peeked = g.pop("peeked_session", None)
    if peeked is not None and peeked[0] == session_id:
        return peeked[1]  # type: ignore[no-any-return]
    return one_row(SESSION_STAMP, session_id)
