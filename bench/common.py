"""What every benchmark shares: the machine it ran on, medians, and the section format.

Each benchmark module under bench/ has `run(quick: bool = False) -> str`, returning one
Markdown section of docs/PERFORMANCE.md (starting with `## `); `python bench/<name>.py`
prints its section alone, `make bench` (bench/run.py) runs them all and writes the file.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def machine() -> str:
    """One line on what the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                memory = f", {int(line.split()[1]) / 1024 / 1024:.0f} GiB memory"
                break
    except OSError:
        pass
    return (
        f"{os.cpu_count()} cores ({cpu}){memory}, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def median(values: Iterable[float]) -> float:
    return statistics.median(list(values))


def table(headings: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(headings) + " |", "|" + "|".join("---" for _ in headings) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def version_of(command: Sequence[str]) -> str:
    """The first line a tool prints of its version, or `not found`."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "not found"
    text = (done.stdout or done.stderr).strip().splitlines()
    return text[0] if text else "unknown"
