"""The app's structure, read from its source: no import circle among its modules (imports made
inside functions included), no transaction committed outside `scorekeeper/services/`, and no
Flask inside it."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"
OUTSIDE = "../" + "shared"  # the folder beside the project that its docs were first drawn from


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The app's modules that `path` imports by name, at the top or inside a function."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in known:  # `from scorekeeper.services import x`
                    found.add(f"{source}.{alias.name}")
                elif source in known:
                    found.add(source)
    found.discard(here)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_among_the_apps_modules() -> None:
    known = modules()
    graph = {name: imports_of(path, set(known)) for name, path in known.items()}
    assert graph["scorekeeper.web.access"], "the scan reads imports"
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_only_services_commit() -> None:
    """Services own the transactions: no view, form, command or model commits one."""
    services = PACKAGE / "services"
    committing = []
    for path in PACKAGE.rglob("*.py"):
        if services in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            call = node.func if isinstance(node, ast.Call) else None
            if isinstance(call, ast.Attribute) and call.attr == "commit":
                committing.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert committing == []


def test_the_project_cites_only_its_own_docs() -> None:
    """The rules and the design are the project's own (docs/RULES.md, docs/DESIGN.md): no file
    of the project points outside it."""
    root = PACKAGE.parent
    assert (root / "docs" / "RULES.md").is_file() and (root / "docs" / "DESIGN.md").is_file()
    outside = []
    for folder in ("scorekeeper", "tests", "bench", "migrations", "docs"):
        for path in (root / folder).rglob("*"):
            text_file = path.suffix in {".py", ".md", ".html", ".js", ".css"}
            if not text_file or "vendor" in path.parts:
                continue
            if OUTSIDE in path.read_text(encoding="utf-8", errors="replace"):
                outside.append(str(path.relative_to(root)))
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert OUTSIDE not in readme
    assert outside == []


def test_services_know_no_web_framework() -> None:
    """Services take what they need from the web layer as arguments: no `flask` import there."""
    services = PACKAGE / "services"
    importing = []
    for path in services.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            if any(name == "flask" or name.startswith("flask.") for name in names):
                importing.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert importing == []
