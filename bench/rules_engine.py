"""The rules engine per call: runs bench/test_rules_engine.py under pytest-benchmark in a
subprocess and turns its JSON into the section of docs/PERFORMANCE.md.

Goal: every check the server makes while a person waits (the table checker, the supply check,
scoring a round, the standings) under 10 ms a call at 6 players, a tenth of the 100 ms a person
notices, so the rules are never what the page waits for.
`python bench/rules_engine.py [--quick]` prints the section.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import PYTHON, ROOT, table  # noqa: E402

TESTS = Path(__file__).resolve().parent / "test_rules_engine.py"
GOAL_MS = 10
OPERATIONS = {
    "test_table_of_40_sets": "Table checker: 40 sets (two tile sets, 4 jokers, 7 invalid)",
    "test_supply_of_6_racks": "Supply check: 6 racks typed tile by tile (50 tiles)",
    "test_score_a_6_player_round": "Score a 6-player went-out round (from the form's strings)",
    "test_standings_of_30_rounds_with_drop_worst": "Standings: 6 players, 30 rounds, drop-worst",
}


def measure(quick: bool) -> dict[str, dict[str, float]]:
    """pytest-benchmark's statistics per test, in seconds; the tests' assertions must pass."""
    rounds = (
        ["--benchmark-min-rounds=5", "--benchmark-max-time=0.05"]
        if quick
        else [
            "--benchmark-min-rounds=50",
            "--benchmark-max-time=2.0",
        ]
    )
    with tempfile.TemporaryDirectory() as scratch:
        report = Path(scratch) / "benchmark.json"
        done = subprocess.run(
            [
                PYTHON,
                "-m",
                "pytest",
                str(TESTS),
                "-q",
                "-p",
                "no:cacheprovider",
                "--benchmark-only",
                "--benchmark-warmup=on",
                f"--benchmark-json={report}",
                *rounds,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"the rules engine benchmarks failed:\n{done.stdout}{done.stderr}")
        found = json.loads(report.read_text())
    return {b["name"]: b["stats"] for b in found["benchmarks"]}


def run(quick: bool = False) -> str:
    stats = measure(quick)
    rows = []
    slowest = 0.0
    for name, label in OPERATIONS.items():
        s = stats[name]
        slowest = max(slowest, s["median"])
        rows.append(
            (
                label,
                f"{s['median'] * 1e6:,.1f}",
                f"{s['min'] * 1e6:,.1f}",
                s["rounds"],
                f"{1 / s['median']:,.0f}",
            )
        )
    verdict = "met" if slowest * 1000 < GOAL_MS else "NOT met"
    return "\n".join(
        [
            "## Rules engine",
            "",
            "The pure rules (`scorekeeper/rules`) called the way the pages call them, one call "
            "per round of pytest-benchmark (`bench/test_rules_engine.py`, which also asserts "
            "every answer); one process, warm-up on, "
            f"pytest-benchmark {version('pytest-benchmark')}.",
            "",
            f"**Goal: every operation under {GOAL_MS} ms a call (a tenth of what a person "
            "notices).**"
            f" **Result: slowest median {slowest * 1000:.2f} ms — {verdict}.**",
            "",
            table(("operation", "median µs/call", "min µs", "rounds", "ops/s"), rows),
            "",
        ]
    )


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
