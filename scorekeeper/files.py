"""The family's files are theirs alone: the database, its backups and exports are created
readable and writable by their owner only (0600), as instance/secret_key is."""

from __future__ import annotations

import os
from pathlib import Path

import sqlalchemy as sa

PRIVATE = 0o600


def open_private(path: Path, truncate: bool = False) -> int:
    """Open `path` for writing, creating it 0600 if missing; a file passed in to be written
    over is made 0600 too, before any data is written to it. Returns the descriptor.

    os.open's mode is filtered by the umask (a umask of 077 or 022 leaves 0600, but 0o277
    would not), so the mode is also set with fchmod on the open file: exact, whatever the
    umask, and before the first byte.
    """
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if truncate else 0)
    fd = os.open(path, flags, PRIVATE)
    try:
        os.fchmod(fd, PRIVATE)
    except BaseException:
        os.close(fd)
        raise
    return fd


def create_private_sqlite(url: str, instance_path: str) -> None:
    """Create the SQLite file of `url` empty and 0600 before SQLite first opens it.

    SQLite creates a missing database file with 0644 less the umask; the -wal, -shm (and
    -journal) files next to it it creates later with the database file's own mode (its unix
    VFS copies the mode, whatever the umask). So one empty 0600 file made before the first
    connection makes every file of the database private: simpler than a connect hook, which
    runs only after SQLite made the file, and than changing the process-wide umask, which
    other threads would see. An existing file is left as it is (mode and content).
    """
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.query.get("uri"):
        return
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.is_absolute():  # as Flask-SQLAlchemy reads it: relative to the instance
        path = Path(instance_path) / path
    if path.exists() or not path.parent.is_dir():
        return
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    except FileExistsError:  # another worker made it first
        return
    try:
        os.fchmod(fd, PRIVATE)
    finally:
        os.close(fd)
