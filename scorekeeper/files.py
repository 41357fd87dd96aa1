"""The family's files are theirs alone: the database, its backups and exports are created
readable and writable by their owner only (0600), as instance/secret_key is."""

from __future__ import annotations

import os
from pathlib import Path

import sqlalchemy as sa

PRIVATE = 0o600


def open_private(path: Path, truncate: bool = False) -> int:
    """Open `path` for writing, 0600 whatever the umask (created so, or made so before any data
    when it is written over); returns the descriptor."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if truncate else 0)
    fd = os.open(path, flags, PRIVATE)
    try:
        os.fchmod(fd, PRIVATE)
    except BaseException:
        os.close(fd)
        raise
    return fd


def create_private_sqlite(url: str, instance_path: str) -> None:
    """Create the SQLite file of `url` empty and 0600 before SQLite first opens it, so its -wal and
    -shm files are 0600 too; an existing file is left as it is."""
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
