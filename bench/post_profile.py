"""The server's share of a round saved in place: the CPU the server spends on each POST of an
add, a change and a delete made in place (the live table as its answer), and the time from the
request sent to the answer's first byte, over real HTTP against the app served as `make run`
serves it (waitress, a process of its own) on a fresh SQLite file.

Each cycle adds a round, changes it, and deletes it, so the table holds the same rounds at each
step. The server's CPU is read from /proc (every thread's `schedstat`, in nanoseconds) before
and after each request; nothing else talks to the server meanwhile. `python
bench/post_profile.py [--quick]` prints the section.
"""

from __future__ import annotations

import http.client
import json
import os
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from common import median, table  # noqa: E402
from server_harness import HOST, MAKE_RUN, Server, hidden_fields, serving  # noqa: E402

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
ROUNDS_BEFORE = 12  # the table the family looks at mid-evening
GOAL_MS = 10
STEPS = ("add", "change", "delete")
LABELS = {
    "add": "add a round in place",
    "change": "change a round in place",
    "delete": "delete a round in place",
}
IN_PLACE = {"X-Requested-With": "fetch"}


def server_cpu_ns(pid: int) -> int:
    """The CPU time every thread of the process has used so far (nanoseconds)."""
    total = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            total += int(stat.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended meanwhile
    return total


@dataclass
class Phone:
    """One phone's keep-alive connection and cookie, as a browser keeps them."""

    port: int
    cookie: str = ""
    conn: http.client.HTTPConnection = field(init=False)

    def __post_init__(self) -> None:
        self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)

    def send(
        self,
        method: str,
        path: str,
        form: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        json_body: bytes | None = None,
    ) -> tuple[int, str, float, dict[str, str]]:
        """Status, text, milliseconds from the request sent to its first byte, headers."""
        sent = {"Accept": "text/html", **(headers or {})}
        payload = json_body
        if form is not None:
            payload = urllib.parse.urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if json_body is not None:
            sent["Content-Type"] = "application/json"
        if self.cookie:
            sent["Cookie"] = self.cookie
        started = time.perf_counter()
        self.conn.request(method, path, body=payload, headers=sent)
        response = self.conn.getresponse()
        first_byte = (time.perf_counter() - started) * 1000
        raw = response.read()
        found = {k.lower(): v for k, v in response.getheaders()}
        if "set-cookie" in found:
            self.cookie = found["set-cookie"].split(";", 1)[0]
        return response.status, raw.decode("utf-8", "replace"), first_byte, found


@contextmanager
def served_app() -> Iterator[Server]:
    with (
        tempfile.TemporaryDirectory() as scratch,
        serving(MAKE_RUN, "sqlite", Path(scratch)) as server,
    ):
        yield server


def racks(seed: int) -> dict[str, str]:
    """A went-out round's form fields: Ann out, the others' racks."""
    return {"rack_1": str(10 + seed % 30), "rack_2": str(20 + seed % 17), "rack_3": "8"}


def measure(quick: bool) -> dict[str, object]:
    cycles = 8 if quick else 40
    load_before = os.getloadavg()[0]
    found: dict[str, list[tuple[float, float]]] = {step: [] for step in STEPS}
    answers: dict[str, set[str]] = {step: set() for step in STEPS}
    with served_app() as server:
        assert server.process is not None
        pid = server.process.pid
        phone = Phone(server.port)
        created = phone.send(
            "POST",
            "/api/v1/sessions",
            json_body=json.dumps({"players": PLAYERS, "rounds": 100, "name": "Profile"}).encode(),
            headers={"Accept": "application/json"},
        )
        assert created[0] == 201, created
        session = f"/sessions/{json.loads(created[1])['id']}"
        phone.send("GET", session)  # the phone's cookie
        for number in range(1, ROUNDS_BEFORE + 1):
            fields = hidden_fields(phone.send("GET", f"{session}/rounds/new?fragment=1")[1])
            status = phone.send(
                "POST",
                f"{session}/rounds/new",
                form={**fields, "ending": "went_out", "winner": "0", **racks(number)},
                headers=IN_PLACE,
            )[0]
            assert status == 200, status
        number = ROUNDS_BEFORE + 1
        for cycle in range(cycles + 1):  # the first cycle warms up
            steps = {
                "add": (
                    f"{session}/rounds/new?fragment=1&ending=went_out&winner=0",
                    f"{session}/rounds/new",
                    {"ending": "went_out", "winner": "0", **racks(cycle)},
                ),
                "change": (
                    f"{session}/rounds/{number}/edit?fragment=1",
                    f"{session}/rounds/{number}/edit",
                    {"ending": "went_out", "winner": "0", **racks(cycle + 7)},
                ),
                "delete": (
                    f"{session}/rounds/{number}/delete",
                    f"{session}/rounds/{number}/delete",
                    {},
                ),
            }
            for step, (form_path, post_path, typed) in steps.items():
                fields = hidden_fields(phone.send("GET", form_path)[1])
                before = server_cpu_ns(pid)
                status, text, first_byte, headers = phone.send(
                    "POST", post_path, form={**fields, **typed}, headers=IN_PLACE
                )
                cpu = (server_cpu_ns(pid) - before) / 1e6
                assert status in (200, 302, 303), (step, status, text[:500])
                answers[step].add("the live table" if 'id="live"' in text else f"{status}")
                if status in (302, 303):  # not in place yet: the page the phone then loads
                    phone.send("GET", headers["location"])
                if cycle:
                    found[step].append((cpu, first_byte))
    load = (load_before, os.getloadavg()[0])
    return {"found": found, "answers": answers, "cycles": cycles, "load": load}


def calls_per_post() -> dict[str, int]:
    """The Python function calls (and calls into C) each POST in place makes, through Flask's
    test client in this process on a fresh SQLite file, the same steps as above: a count that
    does not move with the machine's load."""
    from scorekeeper import create_app
    from scorekeeper.extensions import db

    counted: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as scratch:
        app = create_app(
            {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{scratch}/calls.db"},
            instance_path=scratch,
        )
        with app.app_context():
            db.create_all()
        client = app.test_client()
        made = client.post("/api/v1/sessions", json={"players": PLAYERS, "rounds": 100})
        session = f"/sessions/{made.get_json()['id']}"
        calls = [0]

        def count(_frame: object, event: str, _arg: object) -> None:
            if event in ("call", "c_call"):
                calls[0] += 1

        for cycle in range(ROUNDS_BEFORE + 2):
            number = ROUNDS_BEFORE + 1 if cycle >= ROUNDS_BEFORE else cycle + 1
            steps = {
                "add": (f"{session}/rounds/new?fragment=1", f"{session}/rounds/new", racks(cycle)),
                "change": (
                    f"{session}/rounds/{number}/edit?fragment=1",
                    f"{session}/rounds/{number}/edit",
                    racks(cycle + 7),
                ),
                "delete": (
                    f"{session}/rounds/{number}/delete",
                    f"{session}/rounds/{number}/delete",
                    {},
                ),
            }
            chosen = STEPS if cycle >= ROUNDS_BEFORE else ("add",)
            for step in chosen:
                form_path, post_path, typed = steps[step]
                fields = hidden_fields(client.get(form_path).get_data(as_text=True))
                if step != "delete":
                    typed = {"ending": "went_out", "winner": "0", **typed}
                calls[0] = 0
                sys.setprofile(count)
                answer = client.post(post_path, data={**fields, **typed}, headers=IN_PLACE)
                sys.setprofile(None)
                assert answer.status_code in (200, 302), (step, answer.status_code)
                counted[step] = calls[0]  # the last cycle's: the first warms up
    return counted


def run(quick: bool = False) -> str:
    measured = measure(quick)
    calls = calls_per_post()
    found: dict[str, list[tuple[float, float]]] = measured["found"]  # type: ignore[assignment]
    answers: dict[str, set[str]] = measured["answers"]  # type: ignore[assignment]
    rows = []
    said = []
    for step in STEPS:
        cpu = [c for c, _ in found[step]]
        first = [f for _, f in found[step]]
        said.append(f"{step} {median(first):.1f} ms ({median(cpu):.1f} ms of CPU)")
        rows.append(
            (
                LABELS[step],
                ", ".join(sorted(answers[step])),
                f"{median(cpu):.1f}",
                f"{min(cpu):.1f}",
                f"{median(first):.1f}",
                f"{min(first):.1f}",
                f"{max(first):.1f}",
                "met" if median(first) <= GOAL_MS else "NOT met",
            )
        )
    return "\n".join(
        [
            "## The server's share of a change in place",
            "",
            "The `POST` of a round added, changed and deleted from the session page, each "
            "answered with the new live table (what static/entry.js swaps in), over real HTTP "
            "on one keep-alive connection with the phone's cookie and CSRF token, against the "
            "app served as `make run` serves it (waitress, a process of its own) on a fresh "
            f"SQLite file. A 4-player session of {ROUNDS_BEFORE} went-out rounds; each cycle "
            "adds round "
            f"{ROUNDS_BEFORE + 1}, changes it and deletes it (the form of each fetched first, "
            f"untimed), {measured['cycles']} cycles after one to warm up. The server's CPU: "
            "the sum of its threads' `/proc/<pid>/task/*/schedstat` before and after the "
            "request (waitress reading the request and writing the answer included); first "
            "byte: on the client's clock, from the request sent to the answer's status line. "
            "`python bench/post_profile.py` prints this section. The machine's load average "
            f"(1 min) was {measured['load'][0]:.1f} as the run began and "  # type: ignore[index]
            f"{measured['load'][1]:.1f} at its end: "  # type: ignore[index]
            "on a machine shared with other work the medians move with it; the minimums "
            "less.",
            "",
            f"**Goal: the server's share of each POST in place at most {GOAL_MS} ms "
            "(request sent → first byte back, median).** "
            f"**Result: {', '.join(said)}; "
            f"{sum(r[-1] == 'met' for r in rows)} of {len(rows)} met.**",
            "",
            table(
                (
                    "POST",
                    "answered with",
                    "server CPU ms (median)",
                    "min",
                    "first byte ms (median)",
                    "min",
                    "max",
                    "goal",
                ),
                rows,
            ),
            "",
            "The same POSTs counted in Python function calls (`sys.setprofile`, calls into C "
            "included), through Flask's test client in the bench's own process: a count that "
            "does not move with the machine's load. "
            + ", ".join(f"{LABELS[step]}: {calls[step]:,}" for step in STEPS)
            + ". tests/app/test_statement_counts.py pins the SQL statements each of these "
            "sends.",
        ]
    )


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
