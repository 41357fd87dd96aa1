"""`make bench`: run every benchmark module under bench/ and write docs/PERFORMANCE.md.

Each module has `run(quick: bool = False) -> str`, one Markdown section starting with `## `;
a section states its goal in bold as `**Goal: ...**` and, where it can say it in a line, its
result as `**Result: ...**` (otherwise the met / NOT met or pass / fail cells of its tables are
counted for the summary at the top).

    python bench/run.py [--quick] [--only rules_engine,taps] [--output docs/PERFORMANCE.md]
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
import time
import traceback
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from common import ROOT, machine, table, version_of  # noqa: E402

SECTIONS = ("rules_engine", "taps", "post_profile", "live", "page_weight", "throughput", "scale")
OUTPUT = ROOT / "docs" / "PERFORMANCE.md"
GOAL = re.compile(r"\*\*Goal:\s*(.+?)\*\*", re.S)
RESULT = re.compile(r"\*\*Result:\s*(.+?)\*\*", re.S)
VERDICT = re.compile(r"\|\s*\**(met|NOT met|pass|fail)\**\s*\|")


def summary_of(section: str) -> tuple[str, str, str]:
    """The section's title, its goal and its result, as its own text says them."""
    title = section.splitlines()[0].removeprefix("## ").strip() if section else "?"
    goal = GOAL.search(section)
    result = RESULT.search(section)
    if result:
        said = result[1]
    else:
        verdicts = VERDICT.findall(section)
        met = sum(v in ("met", "pass") for v in verdicts)
        said = f"{met} of {len(verdicts)} met (see below)" if verdicts else "see below"
    return title, _one_line(goal[1]) if goal else "—", _one_line(said)


def _one_line(text: str) -> str:
    return " ".join(text.split()).rstrip(".").replace("|", "\\|")


def run_section(name: str, quick: bool) -> tuple[str, float, str]:
    """One module's section, the seconds it took, and `ran`, `skipped` (no module) or
    `failed`: a missing or failing module says so in its section."""
    started = time.monotonic()
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return f"## {name}\n\n_Skipped: bench/{name}.py does not exist yet._\n", 0.0, "skipped"
    try:
        section = module.run(quick=quick).rstrip() + "\n"
    except Exception:  # noqa: BLE001 - one broken benchmark must not hide the others
        failure = traceback.format_exc()
        print(failure, file=sys.stderr)
        section = f"## {name}\n\n_Failed:_\n\n```\n{failure.rstrip()}\n```\n"
        return section, time.monotonic() - started, "failed"
    return section, time.monotonic() - started, "ran"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs: to try the benches")
    parser.add_argument("--only", default="", help="comma-separated sections, e.g. taps,scale")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="where to write the page")
    args = parser.parse_args(argv)
    chosen = [n.strip() for n in args.only.split(",") if n.strip()] or list(SECTIONS)
    unknown = [n for n in chosen if n not in SECTIONS]
    if unknown:
        parser.error(f"no section {', '.join(unknown)}; the sections are {', '.join(SECTIONS)}")

    started = time.monotonic()
    sections = []
    rows = []
    all_ran = True
    for name in SECTIONS:
        if name not in chosen:
            continue
        print(f"bench: {name}…", file=sys.stderr, flush=True)
        section, seconds, status = run_section(name, args.quick)
        all_ran = all_ran and status == "ran"
        sections.append(section)
        title, goal, result = summary_of(section) if status == "ran" else (name, "—", status)
        rows.append((title, goal, result, f"{seconds:.0f} s"))
        print(f"bench: {name} took {seconds:.0f} s", file=sys.stderr, flush=True)
    took = time.monotonic() - started

    flags = [f for f, on in (("--quick", args.quick), (f"--only {args.only}", args.only)) if on]
    command = "make bench" + (f" BENCH_ARGS='{' '.join(flags)}'" if flags else "")
    lines = [
        "# Performance",
        "",
        f"- Measured: {datetime.now().astimezone():%Y-%m-%d %H:%M %Z}, "
        f"commit {version_of(['git', '-C', str(ROOT), 'rev-parse', '--short', 'HEAD'])}",
        f"- Machine: {machine()}",
        f"- Command: `{command}` (took {took / 60:.1f} min)",
    ]
    if args.quick:
        lines.append("- Quick mode: fewer runs, to try the benchmarks; not the figures to quote.")
    lines += [
        "",
        "Every figure is the median of several runs; how each was measured is in its section. "
        "`make bench` writes this page again; tests never assert a timing. Measurements made "
        "by hand, before and after a change, are in [PERFORMANCE_HISTORY.md]"
        "(PERFORMANCE_HISTORY.md), which it leaves alone.",
        "",
        "## Goals and results",
        "",
        table(("section", "goal", "result", "took"), rows),
        "",
        *sections,
    ]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    print(f"bench: wrote {args.output} in {took:.0f} s", file=sys.stderr)
    return 0 if all_ran else 1


if __name__ == "__main__":
    sys.exit(main())
