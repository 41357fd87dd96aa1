"""The rules engine is pure Python: no Flask, no SQL, nothing from the web or storage layers.

`import scorekeeper.rules` runs scorekeeper/__init__.py first, and that module imports Flask
(it holds create_app), so a plain import cannot show the rules are pure. Two checks instead:

1. an AST scan of every module under scorekeeper/rules: no import of a web or database
   library, and no import of any scorekeeper module outside scorekeeper.rules;
2. a subprocess that loads scorekeeper.rules under a stub `scorekeeper` parent package (an
   empty module whose __path__ is the real package directory), so scorekeeper/__init__.py
   never runs, and prints which web/database modules ended up in sys.modules: none may.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

# find_spec locates the package without running scorekeeper/__init__.py.
_SPEC = importlib.util.find_spec("scorekeeper")
assert _SPEC is not None and _SPEC.origin is not None
PACKAGE_DIR = Path(_SPEC.origin).resolve().parent
RULES_DIR = PACKAGE_DIR / "rules"

FORBIDDEN_TOP = {
    "flask",
    "flask_sqlalchemy",
    "flask_migrate",
    "flask_wtf",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "werkzeug",
    "wtforms",
}
EXPECTED_MODULES = {
    "__init__.py",
    "errors.py",
    "settings.py",
    "tiles.py",
    "sets.py",
    "players.py",
    "scoring.py",
    "standings.py",
}


def _imports(path: Path) -> list[str]:
    """Every module a file imports, relative imports resolved against scorekeeper.rules."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ["scorekeeper", "rules"]
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append(module)
            # `from scorekeeper import models` imports scorekeeper.models
            found.extend(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call):
            func = node.func
            name = getattr(func, "id", None) or getattr(func, "attr", None)
            if name in ("__import__", "import_module") and node.args:
                arg = node.args[0]
                found.append(arg.value if isinstance(arg, ast.Constant) else "<dynamic>")
    return found


def _offending(module: str) -> bool:
    top = module.split(".")[0]
    if top in FORBIDDEN_TOP or module == "<dynamic>":
        return True
    if top == "scorekeeper":
        parts = module.split(".")
        # `from scorekeeper.rules.x import Name` yields "scorekeeper.rules.x.Name": fine.
        return len(parts) < 2 or parts[1] != "rules"
    return False


def test_scan_covers_every_rules_module() -> None:
    names = {p.name for p in RULES_DIR.glob("*.py")}
    assert names >= EXPECTED_MODULES


def test_no_rules_module_imports_web_or_storage_code() -> None:
    offenders = {
        path.name: bad
        for path in sorted(RULES_DIR.rglob("*.py"))
        if (bad := [m for m in _imports(path) if _offending(m)])
    }
    assert offenders == {}


def test_scanner_would_catch_forbidden_imports(tmp_path: Path) -> None:
    """The scan itself must be able to fail."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import flask\n"
        "from sqlalchemy import orm\n"
        "from scorekeeper import models\n"
        "from scorekeeper.web import x\n"
        "from .. import services\n"
        "from . import tiles\n"
        "from scorekeeper.rules.tiles import Tile\n",
        encoding="utf-8",
    )
    bad = [m for m in _imports(sample) if _offending(m)]
    assert "flask" in bad
    assert "sqlalchemy" in bad
    assert "scorekeeper.models" in bad
    assert "scorekeeper.web" in bad
    assert "scorekeeper.services" in bad
    assert "scorekeeper.rules.tiles" not in bad
    assert "scorekeeper.rules.tiles.Tile" not in bad


STUB_LOADER = """
import sys, types
pkg = types.ModuleType("scorekeeper")
pkg.__path__ = [{package_dir!r}]
sys.modules["scorekeeper"] = pkg
import scorekeeper.rules
from scorekeeper.rules import errors, players, scoring, sets, settings, standings, tiles
assert scorekeeper.rules.__file__.startswith({package_dir!r}), scorekeeper.rules.__file__
web = ('flask', 'sqlalchemy', 'flask_sqlalchemy', 'werkzeug', 'wtforms')
print(sorted(m for m in sys.modules if m.split('.')[0] in web))
print(sorted(m for m in sys.modules
             if m.startswith('scorekeeper.') and not m.startswith('scorekeeper.rules')))
"""


def test_rules_package_loads_without_flask_or_sqlalchemy() -> None:
    code = STUB_LOADER.format(package_dir=str(PACKAGE_DIR))
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=str(PACKAGE_DIR.parent),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["[]", "[]"]
