"""The hot path for a person: a round recorded in place on the session page (static/entry.js),
in Debian's Chromium at a phone's viewport. The taps and keys of each ending, and the time from
the last Enter (the one that saves) to the new table painted, on this machine's CPU and with
Chromium's CPU slowed 4× (a mid-range phone); a full load of the session page in the same run,
for the ratio.

Goals: went out is 1 tap + the digits + one Enter per rack (issue 15); a round added, changed
and deleted in place, each from the last Enter (or the tap on Delete) to the new table painted
in at most 30 ms (median) here, at most 80 ms at 4× CPU (issue 24).
The app is served as `make run` serves it (scorekeeper/serve.py: waitress, in a process of its
own, started by tests/server/server_harness.py) on a fresh SQLite file; Chromium is launched as
the browser tests do (tests/browser/phone.py). `python bench/taps.py [--quick]` prints the
section.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from common import median, table, version_of  # noqa: E402
from phone import CHROMIUM, CHROMIUM_ARGS, PHONE, Thumb  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from server_harness import HOST, MAKE_RUN, serving  # noqa: E402

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
GOAL_MS = 30
GOAL_SLOW_MS = 80
SLOWDOWN = 4
# What each ending is given, seat by seat (the winner's rack left out), and the round it makes.
ENDINGS: dict[str, dict[str, Any]] = {
    "went_out": {
        "tap": ("Who went out?", "Ann"),
        "typed": {"Bo": "22", "Cy": "55", "Di": "18"},
        "scores": {"Ann": 95, "Bo": -22, "Cy": -55, "Di": -18},
    },
    "pool_empty": {
        "tap": (None, "The pool ran out"),
        "typed": {"Ann": "10", "Bo": "22", "Cy": "55", "Di": "8"},
        "scores": {"Ann": -2, "Bo": -14, "Cy": -47, "Di": 63},
    },
    "scores": {
        "tap": (None, "Scores as on paper"),
        "typed": {"Ann": "63", "Bo": "-22", "Cy": "-33", "Di": "-8"},
        "scores": {"Ann": 63, "Bo": -22, "Cy": -33, "Di": -8},
    },
}
# A went-out round changed in place: Di's rack typed again.
CHANGED_RACK = "19"
CHANGED = {"Ann": 96, "Bo": -22, "Cy": -55, "Di": -19}
TITLES = {
    "went_out": "**Someone went out** (tap the winner under *Who went out?*)",
    "pool_empty": "**The pool ran out**",
    "scores": "**Scores as on paper**",
}


@contextmanager
def served_app() -> Iterator[str]:
    """The app as `make run` serves it (scorekeeper/serve.py: waitress, in a process of its
    own) on a fresh SQLite file made by `flask db upgrade`, on 127.0.0.1."""
    with (
        tempfile.TemporaryDirectory() as scratch,
        serving(MAKE_RUN, "sqlite", Path(scratch)) as server,
    ):
        yield f"http://{HOST}:{server.port}"


# In every page, on the page's own clock: the last Enter, the new live part put in its place
# (#live's data-version changed: a MutationObserver), the frame that draws it (a task after its
# requestAnimationFrame, when that frame has been rendered) and the start of the frame after
# (a second requestAnimationFrame: the "double frame"), and the resource timing of the POST.
WATCH = """
window.__bench = { enter: null, swapped: null, painted: null, nextFrame: null };
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter") window.__bench.enter = performance.now();
}, true);
document.addEventListener("submit", (event) => {
  if (event.target.matches("[data-delete-ask]")) window.__bench.enter = performance.now();
}, true);
new MutationObserver((records) => {
  const bench = window.__bench;
  if (bench.enter === null || bench.swapped !== null) return;
  const changed = records.some((r) => (r.type === "attributes" && r.target.id === "live")
    || Array.from(r.addedNodes).some((n) => n.id === "live"));
  if (!changed) return;
  bench.swapped = performance.now();
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { bench.painted = performance.now(); };
    channel.port2.postMessage(null);
    requestAnimationFrame(() => { bench.nextFrame = performance.now(); });
  });
}).observe(document, {
  childList: true, subtree: true, attributes: true, attributeFilter: ["data-version"],
});
"""
READ = """
(path) => {
  const bench = window.__bench;
  const posts = performance.getEntriesByType("resource")
    .filter((e) => e.initiatorType === "fetch" && e.name.includes(path)
      && !e.name.includes("fragment=") && e.startTime >= bench.enter);
  const post = posts[0]; // the next round's form, fetched after, asks for a fragment
  const chart = performance.getEntriesByType("resource")
    .filter((e) => e.name.includes("/chart.svg") && e.startTime >= bench.enter)[0];
  return {
    enter: bench.enter, swapped: bench.swapped, painted: bench.painted,
    nextFrame: bench.nextFrame,
    fetchStart: post ? post.startTime : null, requestStart: post ? post.requestStart : null,
    responseStart: post ? post.responseStart : null, responseEnd: post ? post.responseEnd : null,
    chart: chart ? chart.responseEnd : null,
  };
}
"""
# The round page (the way without the entry in place, as before it): the Enter noted on the
# clock every page shares, read by the session page the form's POST lands on, with its paint.
NOTE_ENTER = """
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter") {
    sessionStorage.setItem("bench-enter", String(performance.timeOrigin + performance.now()));
  }
}, true);
"""
# The page's first contentful paint (waiting for it if it has not come yet), as `paint`.
FIRST_PAINT = """  const paint = await new Promise((done) => {
    const found = performance.getEntriesByName("first-contentful-paint")[0];
    if (found) return done(found.startTime);
    new PerformanceObserver((list) => done(list.getEntries()[0].startTime))
      .observe({ type: "paint", buffered: true });
    setTimeout(() => done(null), 5000);
  });
"""
LANDED = (
    """
async () => {
"""
    + FIRST_PAINT
    + """  return paint - (Number(sessionStorage.getItem("bench-enter")) - performance.timeOrigin);
}
"""
)
CHART_LOADED = """
() => { const img = document.querySelector("#chart img");
  return !img || (img.complete && img.naturalWidth > 0); }
"""
RESET = """
() => Object.assign(window.__bench, { enter: null, swapped: null, painted: null, nextFrame: null })
"""
LOAD = (
    """
async () => {
"""
    + FIRST_PAINT
    + """  const nav = performance.getEntriesByType("navigation")[0];
  return { paint, load: nav.loadEventEnd, dom: nav.domContentLoadedEventEnd };
}
"""
)


@dataclass
class Run:
    """What one condition (a CPU speed) measured."""

    counts: dict[str, tuple[int, int]] = field(default_factory=dict)
    saves: list[dict[str, float]] = field(default_factory=list)
    changes: list[dict[str, float]] = field(default_factory=list)
    deletes: list[dict[str, float]] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    loads: list[dict[str, float]] = field(default_factory=list)
    rounds_at_load: int = 0


def record(page: Any, ending: str, number: int) -> tuple[Thumb, dict[str, float]]:
    """Record one round in place from the session page as it stands, the way a person does,
    counting as it goes; the milliseconds from the last Enter to each step."""
    from playwright.sync_api import expect

    spec = ENDINGS[ending]
    region, name = spec["tap"]
    page.evaluate(RESET)
    thumb = Thumb(page)
    where = page.get_by_role("region", name=region) if region else page.locator("#live")
    thumb.tap(where.get_by_role("link", name=name, exact=True))
    typed = list(spec["typed"].items())
    expect(page.get_by_role("textbox", name=typed[0][0], exact=True)).to_be_focused()
    for seat, (_, text) in enumerate(typed):
        thumb.type(text)
        if seat + 1 < len(typed):
            thumb.press("Enter")
            after = typed[seat + 1][0]
            expect(page.get_by_role("textbox", name=after, exact=True)).to_be_focused()
    thumb.press("Enter")  # the last Enter saves
    return thumb, timed(page, "/rounds/new", f"Round {number} saved.")


def timed(page: Any, path: str, message: str) -> dict[str, float]:
    """The milliseconds from the last Enter (or the tap on Delete) to each step of the change
    just sent to `path`, once its table is in place and `message` says it."""
    from playwright.sync_api import expect

    # Waited for with a look every 100 ms: checks in the page meanwhile would take its time.
    page.wait_for_function("() => window.__bench.nextFrame !== null", polling=100)
    expect(page.locator("#undo-what")).to_have_text(message)
    with suppress(PlaywrightError):  # a chart too far below the screen is not fetched yet
        page.wait_for_function(CHART_LOADED, polling=100, timeout=5_000)
    found = page.evaluate(READ, path)
    enter = found["enter"]
    return {
        "painted": found["painted"] - enter,
        "next_frame": found["nextFrame"] - enter,
        "to_fetch": found["fetchStart"] - enter,
        "server": found["responseStart"] - found["requestStart"],
        "body": found["responseEnd"] - found["responseStart"],
        "swap": found["swapped"] - found["responseEnd"],
        "draw": found["painted"] - found["swapped"],
        "chart": (found["chart"] - enter) if found["chart"] is not None else float("nan"),
    }


def change(page: Any, number: int, rack: str) -> dict[str, float]:
    """Change a went-out round in place: its number in the table opens it under the table,
    Di's rack typed again, Enter (the last rack) saves; timed from that Enter."""
    from playwright.sync_api import expect

    page.evaluate(RESET)
    page.locator("#scores-table").get_by_role("link", name=f"Edit round {number}").tap()
    expect(page.locator("#entry #entry-title")).to_have_text(f"Edit round {number}")
    last = page.get_by_role("textbox", name="Di", exact=True)
    last.fill(rack)
    last.press("Enter")
    return timed(page, f"/rounds/{number}/edit", f"Round {number} changed.")


def delete(page: Any, number: int) -> dict[str, float]:
    """Delete a round in place: its number, Delete round N…, then Delete where it asks once;
    timed from that last tap."""
    page.evaluate(RESET)
    page.locator("#scores-table").get_by_role("link", name=f"Edit round {number}").tap()
    entry = page.locator("#entry")
    entry.get_by_role("link", name=f"Delete round {number}…").tap()
    entry.locator("[data-delete-ask]").get_by_role("button", name="Delete", exact=True).tap()
    return timed(page, f"/rounds/{number}/delete", f"Round {number} deleted.")


def by_round_page(page: Any, session_url: str, number: int) -> float:
    """Record a went-out round on the round page, as without the entry in place: its last
    Enter posts the page, which lands on the session page again; the milliseconds from that
    Enter to the session page's first paint."""
    from playwright.sync_api import expect

    page.goto(f"{session_url}/rounds/new?winner=0")
    expect(page.get_by_role("textbox", name="Bo", exact=True)).to_be_focused()
    racks = list(ENDINGS["went_out"]["typed"].values())
    for rack in racks[:-1]:
        page.keyboard.type(rack)
        page.keyboard.press("Enter")
    page.keyboard.type(racks[-1])
    expect(page.locator("#preview")).to_have_text("Ann +95: adds up to 0.")
    page.keyboard.press("Enter")
    page.wait_for_url(session_url, wait_until="load")
    expect(page.locator("#undo-what")).to_have_text(f"Round {number} saved.")
    return float(page.evaluate(LANDED))


def stored_scores(page: Any, base: str, session_id: int) -> list[dict[str, int]]:
    """Each stored round's scores, in order, through the API."""
    found = page.request.get(f"{base}/api/v1/sessions/{session_id}").json()
    return [stored["scores"] for stored in found["rounds"]]


def measure_one(browser: Any, base: str, repeats: int, slowdown: int) -> Run:
    """One phone at this CPU slowdown: a round of each ending (counted), then `repeats`
    went-out rounds back to back (timed), then `repeats` full loads of the session page."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.add_init_script(WATCH)
    context.add_init_script(NOTE_ENTER)
    page = context.new_page()
    page.set_default_timeout(30_000)
    if slowdown > 1:
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    planned = 2 * repeats + len(ENDINGS)
    created = page.request.post(
        f"{base}/api/v1/sessions",
        data={"name": "Taps", "players": PLAYERS, "rounds": planned},
    )
    assert created.ok, created.text()
    session_id = created.json()["id"]
    session_url = f"{base}/sessions/{session_id}"
    run = Run()
    page.goto(session_url)
    number = 0
    for ending in ("scores", "pool_empty", "went_out"):  # went out last: the next opens it
        number += 1
        thumb, _ = record(page, ending, number)
        run.counts[ending] = (thumb.taps, thumb.keys)
    for _ in range(repeats - 1):
        number += 1
        thumb, steps = record(page, "went_out", number)
        assert (thumb.taps, thumb.keys) == run.counts["went_out"]
        run.saves.append(steps)
    changed = range(len(ENDINGS) + 1, number + 1)  # the went-out rounds just timed
    for each in changed:
        run.changes.append(change(page, each, CHANGED_RACK))
    for _ in range(repeats - 1):
        number += 1
        run.pages.append(by_round_page(page, session_url, number))
    went_out = ENDINGS["went_out"]["scores"]
    wanted = [ENDINGS[e]["scores"] for e in ("scores", "pool_empty", "went_out")]
    wanted += [CHANGED] * len(changed) + [went_out] * (repeats - 1)
    assert stored_scores(page, base, session_id) == wanted, "a round was not stored as typed"
    run.rounds_at_load = len(wanted)
    for _ in range(repeats):
        page.goto(session_url, wait_until="load")
        run.loads.append(page.evaluate(LOAD))
    for _ in range(repeats - 1):  # the round page's rounds, the last first
        run.deletes.append(delete(page, number))
        number -= 1
    wanted = wanted[: -(repeats - 1)]
    assert stored_scores(page, base, session_id) == wanted, "a round deleted is still stored"
    context.close()
    return run


def measure(quick: bool) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    repeats = 4 if quick else 16
    with served_app() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        runs = {speed: measure_one(browser, base, repeats, speed) for speed in (1, SLOWDOWN)}
        browser.close()
    return {"runs": runs, "repeats": repeats, "chromium": version_of([CHROMIUM, "--version"])}


def spread(values: list[float]) -> tuple[str, str, str]:
    values = [v for v in values if v == v]  # a step Chromium did not time (NaN) left out
    if not values:
        return ("—", "—", "—")
    return (f"{median(values):.0f}", f"{min(values):.0f}", f"{max(values):.0f}")


def run(quick: bool = False) -> str:
    found = measure(quick)
    runs: dict[int, Run] = found["runs"]
    here, slow = runs[1], runs[SLOWDOWN]
    counts = here.counts
    assert counts == slow.counts, f"the counts differ with the CPU slowed: {slow.counts}"
    went_taps, went_keys = counts["went_out"]
    racks = len(ENDINGS["went_out"]["typed"])
    digits = sum(len(t) for t in ENDINGS["went_out"]["typed"].values())
    count_met = (went_taps, went_keys) == (1, digits + racks)
    rows = []
    for ending, (taps, keys) in counts.items():
        typed = ENDINGS[ending]["typed"]
        chars = sum(len(t) for t in typed.values())
        goal = ("met" if count_met else "NOT met") if ending == "went_out" else "—"
        rows.append(
            (
                TITLES[ending],
                " ".join(typed.values()),
                taps,
                f"{keys} ({chars} typed + {keys - chars} Enter)",
                taps + keys,
                goal,
            )
        )
    paint_here = median(s["painted"] for s in here.saves)
    paint_slow = median(s["painted"] for s in slow.saves)
    kinds = {"added": "saves", "changed": "changes", "deleted": "deletes"}
    painted = {
        kind: [median(s["painted"] for s in getattr(r, name)) for r in (here, slow)]
        for kind, name in kinds.items()
    }
    met_here = all(at_1 <= GOAL_MS for at_1, _ in painted.values())
    met_slow = all(at_4 <= GOAL_SLOW_MS for _, at_4 in painted.values())
    each = [
        (
            f"a round {kind} in place",
            *spread([s["painted"] for s in getattr(here, name)]),
            f"{median(s['server'] for s in getattr(here, name)):.0f}",
            *spread([s["painted"] for s in getattr(slow, name)]),
            f"{median(s['server'] for s in getattr(slow, name)):.0f}",
        )
        for kind, name in kinds.items()
    ]
    result = ", ".join(
        f"{kind} {at_1:.0f} / {at_4:.0f} ms" for kind, (at_1, at_4) in painted.items()
    )
    labels = {
        "painted": "**last Enter → the new table painted** (the frame that draws it rendered)",
        "next_frame": "last Enter → the next frame begins (a double requestAnimationFrame)",
        "to_fetch": "on the way: last Enter → the round sent (round.js, offline.js, entry.js)",
        "server": "on the way: the `POST` at the server (request sent → first byte back)",
        "body": "on the way: the answer's body (the live part of the page)",
        "swap": "on the way: the answer read → the new table in place (parse, swap)",
        "draw": "on the way: in place → painted (style, layout, paint)",
        "chart": "after: last Enter → the new chart image loaded (fetched after the table)",
    }
    times = [
        (label, *spread([s[key] for s in here.saves]), *spread([s[key] for s in slow.saves]))
        for key, label in labels.items()
    ]
    loads = [
        (
            "the same round on the round page: last Enter → the session page's first paint "
            "(the `POST`, its redirect, the page loaded)",
            *spread(here.pages),
            *spread(slow.pages),
        ),
        (
            "a full load of the session page: navigation → first contentful paint",
            *spread([load["paint"] for load in here.loads]),
            *spread([load["paint"] for load in slow.loads]),
        ),
        (
            "a full load of the session page: navigation → `load`",
            *spread([load["load"] for load in here.loads]),
            *spread([load["load"] for load in slow.loads]),
        ),
    ]
    page_here, page_slow = median(here.pages), median(slow.pages)
    parts = ("to_fetch", "body", "swap", "draw")
    work_here = [median(s[p] for s in here.saves) for p in parts]
    work_slow = [median(s[p] for s in slow.saves) for p in parts]
    page_work_here, page_work_slow = sum(work_here), sum(work_slow)
    server_here = median(s["server"] for s in here.saves)
    server_slow = median(s["server"] for s in slow.saves)
    fcp_here = median(load["paint"] for load in here.loads)
    fcp_slow = median(load["paint"] for load in slow.loads)
    load_here = median(load["load"] for load in here.loads)
    load_slow = median(load["load"] for load in slow.loads)

    def verdict(met: bool) -> str:
        return "met" if met else "NOT met"

    return "\n".join(
        [
            "## The hot path for a person",
            "",
            "A 4-player round recorded in place on the session page (the round form fetched "
            "under the table, posted in the background, the new table swapped in: "
            "static/entry.js, live.js), in headless Chromium at a 390×844 touch viewport "
            f"({found['chromium']}), the app served on 127.0.0.1 as `make run` serves it "
            "(waitress, a process of its own) on SQLite. Every tap and key goes through one "
            "counter; each rack's digits, then Enter, which moves to the next field and on the "
            "last one saves. tests/browser/test_evening.py asserts the went-out count.",
            "",
            "**Goal: went out is 1 tap + the digits + one Enter per rack; a round added, "
            "changed and deleted in place, each from the last Enter (or the tap on Delete) to "
            f"the new table painted in at most {GOAL_MS} ms (median) on this machine and at "
            f"most {GOAL_SLOW_MS} ms with Chromium's CPU slowed {SLOWDOWN}×.** "
            f"**Result: {went_taps} tap + {went_keys} keys = {went_taps + went_keys}; "
            f"{result} here / at {SLOWDOWN}× CPU: {verdict(met_here)} here, "
            f"{verdict(met_slow)} at {SLOWDOWN}×.**",
            "",
            table(("ending", "typed", "taps", "keys", "actions", "goal"), rows),
            "",
            f"Each change in place, {found['repeats'] - 1} of each kind: a went-out round "
            "added (its last Enter), the same rounds changed (a round's number in the table "
            "opens it under the table; Di's rack typed again, and Enter), and rounds deleted "
            "(its number, *Delete round N…*, then *Delete* where it asks; timed from that "
            "tap), from the action to the new table painted; and the server's share of its "
            "`POST` (request sent → first byte back, here with Chromium on the same cores):",
            "",
            table(
                (
                    "change",
                    "median ms",
                    "min",
                    "max",
                    "server ms",
                    f"{SLOWDOWN}× CPU: median ms",
                    "min",
                    "max",
                    "server ms",
                ),
                each,
            ),
            "",
            "Each ending's tap opens its round in place with the focus in the first field to "
            "type (the winner's rack left out). On a phone's on-screen keyboard: a browser may "
            "open the keypad only for a focus inside the tap's own handler (Safari on iOS), "
            "not for one that follows the fetch of the form; there one tap on the first rack "
            "is added (docs/BROWSERS.md). A hardware keyboard, or a desktop browser, types at "
            "once.",
            "",
            "Time from the last Enter to the new table, timed in the page on its own clock "
            "(the Enter, a MutationObserver seeing the new live part in place, then the frame "
            "after it: a task posted from its requestAnimationFrame, and the next "
            "requestAnimationFrame; the POST's resource timing): "
            f"{found['repeats'] - 1} went-out rounds one after another into one session (the "
            f"table then holds 4 to {found['repeats'] + 2} rounds), on this machine's CPU and "
            f"with `Emulation.setCPUThrottlingRate` {SLOWDOWN} (the phone slowed, not the "
            f"server). Then, in the same run, {found['repeats'] - 1} more rounds the way "
            "without the entry in place (on the round page, whose Save loads the session "
            f"page), and {found['repeats']} full loads of the session page "
            f"({here.rounds_at_load} rounds), for the ratio:",
            "",
            table(
                (
                    "interval",
                    "median ms",
                    "min",
                    "max",
                    f"{SLOWDOWN}× CPU: median ms",
                    "min",
                    "max",
                ),
                [*times, *loads],
            ),
            "",
            f"A full load of the session page takes {fcp_here / paint_here:.1f}× as long to "
            f"its first paint as a round saved in place to its new table ({fcp_here:.0f} / "
            f"{paint_here:.0f} ms), {load_here / paint_here:.1f}× to its `load`; at "
            f"{SLOWDOWN}× CPU {fcp_slow / paint_slow:.1f}× and {load_slow / paint_slow:.1f}× "
            f"({fcp_slow:.0f} / {paint_slow:.0f} ms). The round page's way takes "
            f"{page_here / paint_here:.1f}× as long ({SLOWDOWN}× CPU: "
            f"{page_slow / paint_slow:.1f}×).",
            "",
            f"Where the time goes (medians): here, the `POST` at the server {server_here:.0f} ms "
            f"and the page's own work {page_work_here:.0f} ms (sending {work_here[0]:.0f}, "
            f"reading the answer {work_here[1]:.0f}, putting it in place {work_here[2]:.0f}, "
            f"drawing it {work_here[3]:.0f}); at {SLOWDOWN}× CPU the server {server_slow:.0f} "
            f"ms and the page {page_work_slow:.0f} ms ({work_slow[0]:.0f}, {work_slow[1]:.0f}, "
            f"{work_slow[2]:.0f}, {work_slow[3]:.0f}). The chart image is fetched after the "
            "table is drawn (lazily), so it is in neither.",
            "",
            "Before: when a round was recorded on the round page (commit c10d2c9, "
            "2026-11-30, this section's last run of the old path), the last Enter to the saved "
            "table's first paint took 229 ms median (204 min, 270 max), 185 ms to its "
            "DOMContentLoaded, 224 ms to its `load`; issue 15 puts it over 600 ms at 4× CPU. "
            "The count was the same from the session page (1 tap + 9 keys), 2 taps + 9 keys by "
            "**Add round**.",
            "",
        ]
    )


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
