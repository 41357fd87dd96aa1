"""The test folders have no __init__.py, so pytest imports test files by their base name:
two files with one name in different folders break collection of the whole suite."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent


def test_every_test_file_name_is_unique() -> None:
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [name for name, count in names.items() if count > 1] == []


# What tests/factories.py builds (a session, a round body, a form) is built there only.
FACTORIES = {
    "new_session",
    "new_session_by_form",
    "new_session_form",
    "add_round",
    "session_doc",
    "stored_rounds",
    "went_out",
    "pool_empty",
    "paper",
    "went_out_form",
    "hidden_fields",
    "csrf_token",
}


def test_no_test_file_writes_a_factory_of_its_own() -> None:
    defined = {
        f"{path.relative_to(TESTS)}: {node.name}"
        for path in TESTS.rglob("*.py")
        if path.name != "factories.py"
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef) and node.name in FACTORIES
    }
    assert not defined, sorted(defined)


def test_the_factories_module_defines_each_factory() -> None:
    tree = ast.parse((TESTS / "factories.py").read_text(encoding="utf-8"))
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert defined >= FACTORIES, sorted(FACTORIES - defined)
