"""Backups: a consistent copy of the SQLite file, and a JSON export that imports back exactly."""

from __future__ import annotations

import os
import secrets
import shlex
import sqlite3
from datetime import date, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.files import open_private
from scorekeeper.models import HOUSEHOLD_ID, Household
from scorekeeper.rules import RulesError
from scorekeeper.services.import_check import check_export
from scorekeeper.services.summaries import summarise_every_session

FORMAT = "scorekeeper-backup"
FORMAT_VERSION = 1


def _tables() -> list[sa.Table]:
    return list(db.metadata.sorted_tables)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def export_everything() -> dict[str, Any]:
    """Every row of every table, as plain JSON values, parents before children."""
    tables: dict[str, list[dict[str, Any]]] = {}
    for table in _tables():
        rows = db.session.execute(sa.select(table).order_by(*table.primary_key.columns))
        tables[table.name] = [{k: _plain(v) for k, v in row._mapping.items()} for row in rows]
    return {"format": FORMAT, "version": FORMAT_VERSION, "tables": tables}


def _typed(column: sa.Column[Any], value: Any) -> Any:
    if value is None:
        return None
    if isinstance(column.type, sa.DateTime):
        return datetime.fromisoformat(value)
    if isinstance(column.type, sa.Date):
        return date.fromisoformat(value)
    return value


def import_everything(document: Any) -> dict[str, int]:
    """Load an export into an empty database, keeping every id; refuses a non-empty one."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise RulesError.one("bad_backup", "This file is not a Scorekeeper JSON export.")
    if document.get("version") != FORMAT_VERSION:
        raise RulesError.one("bad_backup", "This export's format version is not supported.")
    tables = document.get("tables")
    if not isinstance(tables, dict):
        raise RulesError.one("bad_backup", "This export holds no tables.")
    for table in _tables():
        if db.session.scalar(sa.select(sa.func.count()).select_from(table)):
            raise RulesError.one(
                "bad_backup", "The database already holds scores: import into an empty one."
            )
    # Every record is checked before the first is written: a bad one names itself, and
    # nothing of the export lands (the inserts below are one transaction too).
    check_export(tables, _tables())
    counts: dict[str, int] = {}
    try:
        for table in _tables():
            rows = tables.get(table.name, [])
            columns = {c.name: c for c in table.columns}
            typed = [
                {k: _typed(columns[k], v) for k, v in row.items() if k in columns} for row in rows
            ]
            if typed:
                db.session.execute(table.insert(), typed)
            counts[table.name] = len(typed)
        # The sessions' summaries are derived: an export from before they existed has none,
        # and any other is made true to the rounds it holds.
        summarise_every_session()
        _reset_sequences()
        new_generation()
        db.session.commit()
    except (sa.exc.SQLAlchemyError, KeyError, TypeError, ValueError) as err:
        db.session.rollback()
        raise RulesError.one(
            "bad_backup", "The export could not be loaded: %(why)s", why=str(err)[:200]
        ) from None
    return counts


def new_generation() -> None:
    """After a restore or an import: draw the household's generation afresh and move the
    sign-out epoch on. Every ETag and every "remember this phone" cookie carries the
    generation, so no phone keeps showing a table from before, and every phone gives the
    passphrase again (the restored database may hold an older epoch that let phones in)."""
    row = db.session.get(Household, HOUSEHOLD_ID)
    if row is None:
        row = Household(id=HOUSEHOLD_ID, passphrase_hash=None, cookie_epoch=0)
        db.session.add(row)
    row.generation = secrets.token_hex(8)
    row.cookie_epoch += 1


def restored() -> None:
    """Mark the database just put in place by a restore as a new generation (one commit)."""
    try:
        new_generation()
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


def _reset_sequences() -> None:
    """After inserting explicit ids, PostgreSQL's sequences must move past them."""
    if db.engine.dialect.name != "postgresql":
        return
    for table in _tables():
        for column in table.primary_key.columns:
            if isinstance(column.type, sa.Integer) and column.autoincrement:
                db.session.execute(
                    sa.text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'), "
                        f"COALESCE((SELECT MAX({column.name}) FROM {table.name}), 0) + 1, false)"
                    )
                )


def sqlite_path() -> Path | None:
    """The SQLite file in use, or None on another database."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database)


def backup_sqlite(source: Path, target: Path) -> None:
    """Copy a live SQLite database consistently (the online backup API), writers or not."""
    target.parent.mkdir(parents=True, exist_ok=True)
    os.close(open_private(target))  # 0600 before SQLite writes a byte (its journal follows)
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    with sqlite3.connect(target) as check:
        (verdict,) = check.execute("PRAGMA integrity_check").fetchone()
    if verdict != "ok":
        raise RulesError.one("bad_backup", "The copy failed its integrity check: %(v)s", v=verdict)


def restore_sqlite(backup: Path, target: Path) -> None:
    """Put a backup file in place of the live database (online, through the backup API)."""
    with sqlite3.connect(backup) as check:
        (verdict,) = check.execute("PRAGMA integrity_check").fetchone()
    if verdict != "ok":
        raise RulesError.one(
            "bad_backup", "The backup failed its integrity check: %(v)s", v=verdict
        )
    with sqlite3.connect(backup) as src, sqlite3.connect(target) as dst:
        src.backup(dst)


def postgres_commands(path: str) -> tuple[str, str]:
    """The pg_dump and pg_restore commands for the configured PostgreSQL database."""
    url = db.engine.url.set(drivername="postgresql")
    plain = url.render_as_string(hide_password=False)
    return (
        f"pg_dump --format=custom --file={shlex.quote(path)} {shlex.quote(plain)}",
        f"pg_restore --clean --if-exists --no-owner --dbname={shlex.quote(plain)} "
        f"{shlex.quote(path)}",
    )
