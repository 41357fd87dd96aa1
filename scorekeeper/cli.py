"""Command-line tools for operations: backups of the database and the JSON export."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.files import open_private
from scorekeeper.rules import RulesError
from scorekeeper.services import backup


def register_commands(app: Flask) -> None:
    """`flask backup`, `flask restore`, `flask export-json`, `flask import-json`."""

    @app.cli.command("backup")
    @click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
    def backup_command(path: Path) -> None:
        """Copy the database to PATH (SQLite), or print the pg_dump command (PostgreSQL)."""
        source = backup.sqlite_path()
        if source is None:
            dump, _ = backup.postgres_commands(str(path))
            click.echo("This database is PostgreSQL: back it up with\n  " + dump)
            return
        _guard(lambda: backup.backup_sqlite(source, path))
        click.echo(f"Backed up {source} to {path} (integrity check ok).")

    @app.cli.command("restore")
    @click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
    @click.option("--yes", is_flag=True, help="Replace the current scores without asking.")
    def restore_command(path: Path, yes: bool) -> None:
        """Replace the database with the backup at PATH (SQLite), or print pg_restore."""
        target = backup.sqlite_path()
        if target is None:
            _, restore = backup.postgres_commands(str(path))
            click.echo("This database is PostgreSQL: restore it with\n  " + restore)
            return
        if not yes:
            click.confirm(f"Replace every score in {target} with {path}?", abort=True)
        db.engine.dispose()
        _guard(lambda: backup.restore_sqlite(path, target))
        click.echo(f"Restored {target} from {path}.")

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


def _guard(action):  # type: ignore[no-untyped-def]
    """Run an action; a rules error becomes a clean command-line error, a problem a line."""
    try:
        return action()
    except RulesError as err:
        raise click.ClickException("\n".join(p.message for p in err.problems)) from None
