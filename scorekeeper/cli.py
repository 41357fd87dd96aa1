"""Command-line tools for operations: backups of the database, the JSON export, and the
sessions' summaries worked out again from their rounds."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click
from flask import Flask
from flask_migrate import upgrade

from scorekeeper.extensions import db
from scorekeeper.files import open_private
from scorekeeper.rules import RulesError
from scorekeeper.services import backup, summaries

T = TypeVar("T")


def register_commands(app: Flask) -> None:
    """`flask backup`, `flask restore`, `flask export-json`, `flask import-json`,
    `flask resummarise`."""

    @app.cli.command("backup")
    @click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
    def backup_command(path: Path) -> None:
        """Copy the database to PATH (SQLite, or pg_dump's file for PostgreSQL)."""
        source = backup.sqlite_path()
        if source is None:
            dump, _ = backup.postgres_commands(str(path))
            path.parent.mkdir(parents=True, exist_ok=True)
            _run_postgres_tool(dump)
            click.echo(f"Backed up the PostgreSQL database to {path}.")
            return
        _guard(lambda: backup.backup_sqlite(source, path))
        click.echo(f"Backed up {source} to {path} (integrity check ok).")

    @app.cli.command("restore")
    @click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
    @click.option("--yes", is_flag=True, help="Replace the current scores without asking.")
    def restore_command(path: Path, yes: bool) -> None:
        """Replace the database with the backup at PATH (SQLite file, or pg_dump's file)."""
        target = backup.sqlite_path()
        if not yes:
            where = target or "the PostgreSQL database"
            click.confirm(f"Replace every score in {where} with {path}?", abort=True)
        db.session.remove()
        db.engine.dispose()
        if target is None:
            _, restore = backup.postgres_commands(str(path))
            _run_postgres_tool(restore)
        else:
            _guard(lambda: backup.restore_sqlite(path, target))
        upgrade()  # a backup made before the newest migration is brought up to date
        backup.restored()
        click.echo(
            f"Restored {target or 'the PostgreSQL database'} from {path}. Open phones show the "
            "restored table; with a household passphrase, every phone gives it again."
        )

    @app.cli.command("export-json")
    @click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
    def export_json_command(path: Path) -> None:
        """Write every session, round and player to PATH as JSON."""
        document = backup.export_everything()
        text = json.dumps(document, ensure_ascii=False, indent=1)
        with os.fdopen(open_private(path, truncate=True), "w", encoding="utf-8") as out:
            out.write(text)  # 0600: every score and name of the family
        sizes = ", ".join(f"{len(rows)} {name}" for name, rows in document["tables"].items())
        click.echo(f"Exported {sizes} to {path}.")

    @app.cli.command("import-json")
    @click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
    def import_json_command(path: Path) -> None:
        """Load a JSON export into an empty database (run `flask db upgrade` first)."""
        try:
            document = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise click.ClickException(f"{path} is not JSON: {err}") from None
        counts = _guard(lambda: backup.import_everything(document))
        click.echo("Imported " + ", ".join(f"{n} {name}" for name, n in counts.items()) + ".")

    @app.cli.command("resummarise")
    @click.option(
        "--batch",
        default=summaries.BATCH,
        show_default=True,
        type=click.IntRange(1, 100_000),
        help="Sessions worked out per transaction.",
    )
    def resummarise_command(batch: int) -> None:
        """Work every session's summary and every seat's line out again from the rounds, with
        the rules of this version (run it after a change of the standings rules)."""
        done = summaries.resummarise(batch)
        click.echo(
            f"Worked out {done.sessions} sessions again from their rounds: "
            f"{done.changed} of them had a summary or a seat's line that changed."
        )


def _run_postgres_tool(command: str) -> None:
    """Run pg_dump or pg_restore (PostgreSQL's client tools) as printed by postgres_commands."""
    words = shlex.split(command)
    if shutil.which(words[0]) is None:
        raise click.ClickException(
            f"{words[0]} is not installed (Debian: apt install postgresql-client). Run:\n  "
            + command
        )
    finished = subprocess.run(words, capture_output=True, text=True, check=False)
    if finished.returncode != 0:
        raise click.ClickException(f"{words[0]} failed: {finished.stderr.strip()[:500]}")


def _guard(action: Callable[[], T]) -> T:
    """Run an action; a rules error becomes a clean command-line error, a problem a line."""
    try:
        return action()
    except RulesError as err:
        raise click.ClickException("\n".join(p.message for p in err.problems)) from None
