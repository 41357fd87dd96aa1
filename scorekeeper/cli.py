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
import sqlalchemy as sa
from alembic import command as alembic_command
from alembic.config import Config as AlembicConfig
from alembic.script import ScriptDirectory
from flask import Flask, current_app

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
            # 0600 before pg_dump writes a byte: it writes into the file as it finds it.
            os.close(open_private(path, truncate=True))
            _run_postgres_tool(dump)
            click.echo(f"Backed up the PostgreSQL database to {path}.")
            return
        _guard(lambda: backup.backup_sqlite(source, path))
        click.echo(f"Backed up {source} to {path} (integrity check ok).")

    @app.cli.command("restore")
    @click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
    @click.option("--yes", is_flag=True, help="Replace the current scores without asking.")
    @click.option(
        "--backup-passphrase",
        is_flag=True,
        help="Take the household passphrase the backup holds (the current one is kept without).",
    )
    def restore_command(path: Path, yes: bool, backup_passphrase: bool) -> None:
        """Replace the database with the backup at PATH (SQLite file or pg_dump's), all or
        nothing; the app answers 503 meanwhile, and every phone signs in again."""
        target = backup.sqlite_path()
        where = target or "the PostgreSQL database"
        if not yes:
            click.confirm(f"Replace every score in {where} with {path}?", abort=True)
        flag = backup.restore_flag(str(app.config["SQLALCHEMY_DATABASE_URI"]), app.instance_path)
        try:
            with backup.closed_for_restore(flag) as closed:
                before = backup.current_access()
                db.engine.dispose()
                if target is None:
                    outcome = _restore_postgres(path, closed, before, backup_passphrase)
                else:
                    outcome = backup.restore_sqlite(
                        path, target, _upgrade_on, before, backup_passphrase
                    )
        except RulesError as err:
            raise click.ClickException(
                "The restore failed: "
                + "\n".join(p.message for p in err.problems)
                + "\nNothing was changed: the scores and the passphrase are as they were."
            ) from None
        except click.ClickException:
            raise
        except Exception as err:  # a migration that failed, a file that cannot be written
            raise click.ClickException(
                f"The restore failed: {type(err).__name__}: {str(err)[:300]}\n"
                "Nothing was changed: the scores and the passphrase are as they were."
            ) from None
        if outcome.backup_passphrase:
            passphrase = (
                "The household passphrase is the backup's; every phone gives it again."
                if outcome.locked
                else "There is no household passphrase: the backup holds none."
            )
        elif outcome.locked:
            passphrase = (
                "The household passphrase is the one in force before the restore (not the "
                "backup's: --backup-passphrase takes that); every phone gives it again."
            )
        else:
            passphrase = (
                "There is no household passphrase, as before the restore "
                "(--backup-passphrase takes the backup's)."
            )
        click.echo(
            f"Restored {where} from {path}. Open phones show the restored table. {passphrase}"
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


def _restore_postgres(
    path: Path, closed: backup.RestoreFlag, before: backup.Access | None, take_backup: bool
) -> backup.Restored:
    """pg_restore in one transaction, then the migrations and the new generation; a newer
    version's dump is refused first."""
    _, restore = backup.postgres_commands(str(path))
    _refuse_a_newer_backup(path)
    closed.hold()  # from here the data may be the backup's: closed even if this process dies
    try:
        _run_postgres_tool(restore)
    except click.ClickException as err:
        raise click.ClickException(
            f"The restore failed: {err.message}\npg_restore ran in one transaction: nothing "
            "was changed, the scores and the passphrase are as they were."
        ) from None
    try:
        _upgrade()  # a backup made before the newest migration is brought up to date
        return backup.restored(before, take_backup)
    except Exception as err:
        closed.keep()
        raise click.ClickException(
            f"The backup's data is in place, but bringing it up to date failed: "
            f"{type(err).__name__}: {str(err)[:300]}\nScorekeeper stays closed (503): fix the "
            f"cause and run the restore again, or remove {closed.path} to open it as it is."
        ) from None


def _refuse_a_newer_backup(path: Path) -> None:
    """Before anything changes: a dump whose migration this version does not know (made by a
    newer Scorekeeper) could not be brought up to date after pg_restore, so it is refused."""
    words = ["pg_restore", "--data-only", "--table=alembic_version", "--file=-", str(path)]
    if shutil.which(words[0]) is None:
        return  # _run_postgres_tool says what to install
    listed = subprocess.run(words, capture_output=True, text=True, check=False)
    if listed.returncode != 0:
        return  # not a dump pg_restore reads: its own run below says so and changes nothing
    lines = listed.stdout.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("COPY ")]
    revision = lines[starts[0] + 1].strip() if starts and starts[0] + 1 < len(lines) else None
    if revision is None or revision == "\\.":
        return  # a database made without the migrations: `db upgrade` stamps nothing to check
    known = {script.revision for script in _script_directory().walk_revisions()}
    if revision not in known:
        raise click.ClickException(
            f"The restore failed: this backup was made by a newer Scorekeeper (migration "
            f"{revision[:40]}): update Scorekeeper first, then restore it.\nNothing was "
            "changed: the scores and the passphrase are as they were."
        )


def _script_directory() -> ScriptDirectory:
    return ScriptDirectory.from_config(_alembic_config())


def _upgrade() -> None:
    """`flask db upgrade` in this process; a failure is an exception (not Flask-Migrate's exit)."""
    alembic_command.upgrade(_alembic_config(), "head")


def _upgrade_on(connection: sa.Connection) -> None:
    """The migrations on another database than the app's (a restore's draft), by connection."""
    config = _alembic_config()
    config.attributes["connection"] = connection
    alembic_command.upgrade(config, "head")


def _alembic_config() -> AlembicConfig:
    config: AlembicConfig = current_app.extensions["migrate"].migrate.get_config()
    return config


def _guard(action: Callable[[], T]) -> T:
    """Run an action; a rules error becomes a clean command-line error, a problem a line."""
    try:
        return action()
    except RulesError as err:
        raise click.ClickException("\n".join(p.message for p in err.problems)) from None
