"""Migrations build the schema on an empty database and match the models, import none of
the app's code, and take a database down and up with its rounds kept."""

import ast
import sys
from pathlib import Path

import sqlalchemy as sa
from alembic.script import ScriptDirectory
from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import MIGRATIONS_DIR, db

# What a migration may import: the standard library, Alembic and SQLAlchemy (and, for env.py,
# the Flask app Flask-Migrate hands it). Never the app's own modules: a migration computes
# what it computed when it was written, whatever the rules become, and survives any rename.
# Babel too: 0012 recognises the day names the app stored by formatting them again.
MAY_IMPORT = set(sys.stdlib_module_names) | {
    "alembic",
    "sqlalchemy",
    "flask",
    "flask_migrate",
    "babel",
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in a Python file: at the top, inside functions (lazy),
    relative ones, and importlib.import_module("...") or __import__("...") with a literal."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.lineno, "." * node.level + (node.module or "")))
        elif isinstance(node, ast.Call) and node.args:
            called = node.func
            name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
            first = node.args[0]
            if name in {"import_module", "__import__"}:
                module = first.value if isinstance(first, ast.Constant) else "<computed>"
                found.append((node.lineno, str(module)))
    return sorted(found)


def test_no_migration_imports_the_apps_code() -> None:
    files = sorted(MIGRATIONS_DIR.rglob("*.py"))
    assert len(files) >= 7  # env.py and the versions: the scan reads the files it means to
    wrong = [
        f"{path.relative_to(MIGRATIONS_DIR)}:{line} imports {module}"
        for path in files
        for line, module in imports_of(path)
        if module.split(".")[0] not in MAY_IMPORT
    ]
    assert wrong == []


def test_the_import_scan_sees_lazy_and_dynamic_imports(tmp_path: Path) -> None:
    """The scan itself: an import inside a function, a relative one and importlib's are seen."""
    source = tmp_path / "0099_example.py"
    source.write_text(
        "import sqlalchemy as sa\n"
        "def upgrade():\n"
        "    from scorekeeper.rules import standings\n"
        "    import importlib\n"
        "    importlib.import_module('scorekeeper.services')\n"
        "    from . import helpers\n",
        encoding="utf-8",
    )
    assert sorted(imports_of(source)) == [
        (1, "sqlalchemy"),
        (3, "scorekeeper.rules"),
        (4, "importlib"),
        (5, "scorekeeper.services"),
        (6, "."),
    ]


def test_upgrade_reaches_head_and_matches_models(database_url: str, tmp_path: Path) -> None:
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": database_url},
        instance_path=str(tmp_path / "instance"),
    )
    runner = app.test_cli_runner()

    upgrade = runner.invoke(args=["db", "upgrade"])
    assert upgrade.exit_code == 0, upgrade.output

    head = ScriptDirectory(str(MIGRATIONS_DIR)).get_current_head()
    with app.app_context():
        assert sa.inspect(db.engine).has_table("alembic_version")
        assert db.session.scalar(sa.text("SELECT version_num FROM alembic_version")) == head
        db.session.remove()

    check = runner.invoke(args=["db", "check"])
    assert check.exit_code == 0, check.output

    with app.app_context():
        db.engine.dispose()


def test_each_downgrade_step_keeps_every_round(migrated_app: Flask) -> None:
    """Taking a release back must not take the scores with it: on SQLite a downgrade that
    copies the `sessions` table (Alembic's batch mode) would cascade-delete every seat and
    round, so each step down to the first schema with rounds is checked with rounds stored."""
    from scorekeeper.services import rounds, sessions

    app = migrated_app
    runner = app.test_cli_runner()
    with app.app_context():
        view = sessions.create_session(["Ann", "Bo"], "Kept", 3)
        body = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 12}}
        rounds.add_round(view.id, body)
        rounds.add_round(view.id, {**body, "winner": "Bo", "racks": {"Ann": 7}})
        db.session.remove()
    script = ScriptDirectory(str(MIGRATIONS_DIR))
    steps = [rev.down_revision for rev in script.walk_revisions() if rev.down_revision]
    for target in steps:
        if target == "0001":  # 0002 made the tables: taking it back drops them
            break
        done = runner.invoke(args=["db", "downgrade", str(target)])
        assert done.exit_code == 0, done.output
        with app.app_context():
            counts = db.session.execute(
                sa.text("SELECT (SELECT count(*) FROM rounds), (SELECT count(*) FROM seats)")
            ).one()
            db.session.remove()
        assert tuple(counts) == (2, 2), target


def test_day_names_become_no_name_and_real_names_stay(migrated_app: Flask) -> None:
    """0012: a name that is the session's day in one of the app's languages (as the app
    stored it for a session made without a name) becomes "", any other name stays."""
    from datetime import date

    from babel.dates import format_date

    from scorekeeper.services import sessions

    app = migrated_app
    runner = app.test_cli_runner()
    day = date(2026, 12, 1)
    today_fi = format_date(date.today(), "EEEE d MMMM", locale="fi")
    names = {
        "tirsdag 1 december": "",
        "Tuesday 1 December": "",
        "wtorek 1 grudnia": "",
        "mardi 1 décembre": "",
        "teisipäev 1 detsember": "",
        today_fi: "",  # the day it was created
        "Monday 30 November": "Monday 30 November",  # another day's name: the family's
        "Tuesday": "Tuesday",
        "Tirsdag 1 december": "Tirsdag 1 december",
        "Christmas at Mormor's": "Christmas at Mormor's",
    }
    with app.app_context():
        made = {
            sessions.create_session(["Ann", "Bo"], name, 3, played_on=day).id: name
            for name in names
        }
        db.session.remove()
    assert runner.invoke(args=["db", "downgrade", "0011"]).exit_code == 0
    upgrade = runner.invoke(args=["db", "upgrade"])
    assert upgrade.exit_code == 0, upgrade.output
    with app.app_context():
        stored = dict(db.session.execute(sa.text("SELECT id, name FROM sessions")).all())
        assert {made[i]: stored[i] for i in made} == names
        db.session.remove()
    # back down, an unnamed session is named after its day in English, as before
    assert runner.invoke(args=["db", "downgrade", "0011"]).exit_code == 0
    with app.app_context():
        name = db.session.scalar(
            sa.text("SELECT name FROM sessions WHERE id = :id"), {"id": min(made)}
        )
        assert name == "Tuesday 1 December"
        db.session.remove()
        db.engine.dispose()
