"""Backups: a consistent copy of the SQLite file, a JSON export that imports back exactly, and
the restore, all or nothing, with the app closed while it runs."""

from __future__ import annotations

import os
import re
import secrets
import shlex
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime
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
        if table.name == Household.__tablename__:
            continue  # every database has its row (its passphrase is not scores)
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
            if typed and table.name == Household.__tablename__:
                # The export's household row takes the place of the new database's own.
                db.session.execute(table.delete())
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
    """After a restore or an import: draw the household's generation afresh and move the sign-out
    epoch on, so every phone reloads its table and signs in again."""
    row = db.session.get(Household, HOUSEHOLD_ID)
    if row is None:
        row = Household(id=HOUSEHOLD_ID, passphrase_hash=None, cookie_epoch=0)
        db.session.add(row)
    row.generation = secrets.token_hex(8)
    row.cookie_epoch += 1


@dataclass(frozen=True)
class Access:
    """The household's passphrase (its hash, or None for none) and sign-out epoch."""

    passphrase_hash: str | None
    cookie_epoch: int


@dataclass(frozen=True)
class Restored:
    """What a restore left in force: whose passphrase (the one from before, or the backup's)
    and whether there is one."""

    backup_passphrase: bool
    locked: bool


def current_access() -> Access | None:
    """The household's passphrase and epoch before a restore; None when the database has no
    household yet (no row, or no tables at all: a database never set up)."""
    try:
        row = db.session.execute(
            sa.select(Household.passphrase_hash, Household.cookie_epoch).where(
                Household.id == HOUSEHOLD_ID
            )
        ).first()
    except sa.exc.SQLAlchemyError:
        row = None
    finally:
        db.session.rollback()
        db.session.remove()
    return None if row is None else Access(row[0], int(row[1]))


def _new_household(connection: sa.Connection, before: Access | None, take_backup: bool) -> Restored:
    """In the restored database: a new generation, an epoch past both the backup's and the one
    before, and the passphrase from before unless `take_backup`; the row made if missing."""
    table = sa.Table(Household.__tablename__, db.metadata)  # the mapped table, as a Table
    row = connection.execute(
        sa.select(table.c.passphrase_hash, table.c.cookie_epoch).where(table.c.id == HOUSEHOLD_ID)
    ).first()
    backup_hash, backup_epoch = (row[0], int(row[1])) if row is not None else (None, 0)
    passphrase_hash = backup_hash if take_backup else (before.passphrase_hash if before else None)
    epoch = max(backup_epoch, before.cookie_epoch if before else 0) + 1
    values = {
        "passphrase_hash": passphrase_hash,
        "cookie_epoch": epoch,
        "generation": secrets.token_hex(8),
    }
    if row is None:
        connection.execute(
            table.insert().values(
                id=HOUSEHOLD_ID, changed_at=datetime.now(UTC).replace(tzinfo=None), **values
            )
        )
    else:
        connection.execute(table.update().where(table.c.id == HOUSEHOLD_ID).values(**values))
    return Restored(backup_passphrase=take_backup, locked=passphrase_hash is not None)


def restored(before: Access | None, take_backup: bool) -> Restored:
    """Mark the database just put in place by pg_restore as a new generation, with the
    passphrase chosen (_new_household), in one commit."""
    try:
        outcome = _new_household(db.session.connection(), before, take_backup)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return outcome


# The flag that closes the app while a restore runs --------------------------------------


def restore_flag(database_url: str, instance_path: str) -> Path:
    """Where a restore of this database puts its flag: next to the SQLite file (`.restoring`
    added to its name), else in the instance folder (`restoring-<host>-<port>-<database>`)."""
    url = sa.make_url(database_url)
    name = url.database or ""
    if url.get_backend_name() == "sqlite" and name not in ("", ":memory:"):
        path = Path(name.removeprefix("file:").split("?")[0])
        if not path.is_absolute():  # as Flask-SQLAlchemy reads it: in the instance folder
            path = Path(instance_path) / path
        return path.with_name(path.name + ".restoring")
    parts = [url.host or "local", str(url.port or ""), name]
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", "-".join(p for p in parts if p))
    return Path(instance_path) / f"restoring-{safe}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it runs
        return True
    return True


def restore_running(flag: Path) -> bool:
    """Whether a restore is under way: the flag is there and its command still runs, or the flag
    says `hold`, or it cannot be read."""
    try:
        words = flag.read_text(encoding="ascii", errors="replace").split()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    if "hold" in words[1:]:
        return True
    try:
        pid = int(words[0])
    except (IndexError, ValueError):  # being written this very moment, or spoilt
        return True
    return _alive(pid)


def _flag_owner(flag: Path) -> int | None:
    """The pid of the restore that owns the flag, if that process still runs."""
    try:
        words = flag.read_text(encoding="ascii", errors="replace").split()
        pid = int(words[0])
    except (OSError, IndexError, ValueError):
        return None
    return pid if _alive(pid) else None


def _write_flag(flag: Path, text: str) -> None:
    draft = flag.with_name(f"{flag.name}.{os.getpid()}")
    with os.fdopen(open_private(draft, truncate=True), "w", encoding="ascii") as out:
        out.write(text)
    os.replace(draft, flag)  # at once: a server reads the old text or the new


class RestoreFlag:
    """The flag of a restore under way (closed_for_restore)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.kept = False

    def hold(self) -> None:
        """Keep the app closed even if this process dies from here on (restore_running)."""
        _write_flag(self.path, f"{os.getpid()} hold\n")

    def keep(self) -> None:
        """Leave the flag (held) when the block ends: the database is not fit to open."""
        self.hold()
        self.kept = True


@contextmanager
def closed_for_restore(flag: Path) -> Iterator[RestoreFlag]:
    """Close the app for the block: the flag, with this process's pid, removed at the end
    however the block ends (unless kept). Another restore still running is refused."""
    flag.parent.mkdir(parents=True, exist_ok=True)
    owner = _flag_owner(flag)
    if owner is not None and owner != os.getpid():
        raise RulesError.one(
            "restore_running",
            "Another restore is running (process %(pid)s): wait for it to finish.",
            pid=owner,
        )
    _write_flag(flag, f"{os.getpid()}\n")
    closed = RestoreFlag(flag)
    try:
        yield closed
    finally:
        if not closed.kept:
            flag.unlink(missing_ok=True)


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


def restore_sqlite(
    backup: Path,
    target: Path,
    migrate: Callable[[sa.Connection], None],
    before: Access | None,
    take_backup: bool,
) -> Restored:
    """Put a backup file in place of the live database, all or nothing: migrated and given its
    household in a draft file, which then replaces the live database in one step."""
    try:
        with closing(sqlite3.connect(backup)) as check:
            (verdict,) = check.execute("PRAGMA integrity_check").fetchone()
    except sqlite3.DatabaseError as err:
        verdict = str(err)
    if verdict != "ok":
        raise RulesError.one(
            "bad_backup", "The backup failed its integrity check: %(v)s", v=verdict
        )
    draft = target.with_name(f".{target.name}.restore-{os.getpid()}")
    try:
        os.close(open_private(draft, truncate=True))  # 0600, as the live file
        with closing(sqlite3.connect(backup)) as src, closing(sqlite3.connect(draft)) as dst:
            src.backup(dst)
        engine = sa.create_engine(f"sqlite:///{draft}", poolclass=sa.pool.NullPool)
        try:
            with engine.begin() as connection:
                migrate(connection)
            with engine.begin() as connection:
                outcome = _new_household(connection, before, take_backup)
        finally:
            engine.dispose()
        with (
            closing(sqlite3.connect(draft)) as src,
            closing(sqlite3.connect(target, timeout=60)) as dst,
        ):
            src.backup(dst)  # every page in one step: the readers see it all at once
    finally:
        for leftover in ("", "-wal", "-shm", "-journal"):
            Path(f"{draft}{leftover}").unlink(missing_ok=True)
    return outcome


def postgres_commands(path: str) -> tuple[str, str]:
    """The pg_dump and pg_restore commands for the configured PostgreSQL database."""
    url = db.engine.url.set(drivername="postgresql")
    plain = url.render_as_string(hide_password=False)
    return (
        f"pg_dump --format=custom --file={shlex.quote(path)} {shlex.quote(plain)}",
        # One transaction: a dump that fails halfway leaves the old database as it was, and a
        # reader meanwhile waits on its locks instead of finding the tables empty.
        "pg_restore --clean --if-exists --no-owner --single-transaction --exit-on-error "
        f"--dbname={shlex.quote(plain)} {shlex.quote(path)}",
    )
