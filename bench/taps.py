"""The hot path for a person: the taps and keys to record a 4-player went-out round with
two-digit racks, counted from the session page in Debian's Chromium at a phone viewport, and
the time from the last key (the Enter that saves) to the saved table.

Goal (issue 6): one tap for the winner, the digits, one tap to save, an Enter to move between
fields counting as a key: at most 2 taps + 6 digits + 2 Enters (10 actions) for 4 players.
The app is served, and Chromium launched, as the browser tests do (tests/browser/phone.py: a
threaded Werkzeug server on a fresh SQLite file). `python bench/taps.py [--quick]` prints the
section.
"""

from __future__ import annotations

import logging
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))

from common import median, table, version_of  # noqa: E402
from phone import CHROMIUM, CHROMIUM_ARGS, PHONE, Thumb, serving  # noqa: E402

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
RACKS = {"Bo": "22", "Cy": "55", "Di": "18"}
SCORES = ["+95", "-22", "-55", "-18"]
GOAL_TAPS = 2
GOAL_ACTIONS = 10  # 2 taps + 6 digits + 2 Enters
SESSION_URL = re.compile(r"/sessions/(\d+)$")


@contextmanager
def served_app() -> Iterator[str]:
    """The app on a fresh SQLite file over real HTTP, as the browser tests' `live_server`."""
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as scratch, serving(Path(scratch), "bench-taps") as url:
        yield url


# Every page notes when its last Enter went down, on the clock all pages share (epoch ms).
NOTE_ENTER = """
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter") {
    sessionStorage.setItem("bench-enter", String(performance.timeOrigin + performance.now()));
  }
}, true);
"""
# The saved page's own timing: its navigation (the form's POST, the redirect, the GET) and its
# first paint, against the Enter noted on the page before.
SAVED_PAGE_TIMING = """
async () => {
  const paint = await new Promise((done) => {
    const found = performance.getEntriesByName("first-contentful-paint")[0];
    if (found) return done(found.startTime);
    new PerformanceObserver((list) => done(list.getEntries()[0].startTime))
      .observe({ type: "paint", buffered: true });
    setTimeout(() => done(null), 2000);
  });
  const nav = performance.getEntriesByType("navigation")[0];
  return {
    enter: Number(sessionStorage.getItem("bench-enter")) - performance.timeOrigin,
    redirectStart: nav.redirectStart, redirectEnd: nav.redirectEnd,
    fetchStart: nav.fetchStart, responseEnd: nav.responseEnd,
    domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, paint,
  };
}
"""


@dataclass
class Recorded:
    """One round recorded: the counts, and the milliseconds from the last Enter to each step
    of the saved table's arrival, as Chromium timed them."""

    thumb: Thumb
    steps: dict[str, float]


def record_round(page: Any, session_url: str, number: int, via: str) -> Recorded:
    """Record one round from the session page, the way a person does, counting as it goes."""
    from playwright.sync_api import expect

    page.goto(session_url)
    thumb = Thumb(page)
    if via == "winner":
        picker = page.get_by_role("region", name="Who went out?")
        thumb.tap(picker.get_by_role("link", name="Ann", exact=True))
    else:
        thumb.tap(page.get_by_role("link", name="Add round"))
        thumb.tap(page.get_by_role("group", name="Who went out?").get_by_text("Ann", exact=True))
    expect(page.get_by_role("textbox", name="Bo", exact=True)).to_be_focused()
    racks = list(RACKS.values())
    for rack in racks[:-1]:
        thumb.type(rack)
        thumb.press("Enter")
    thumb.type(racks[-1])
    expect(page.locator("#preview")).to_have_text("Ann +95: adds up to 0.")
    thumb.press("Enter")  # the last Enter saves
    page.wait_for_url(SESSION_URL, wait_until="load")
    expect(page.get_by_text(f"Round {number} saved.")).to_be_visible()
    row = page.locator("table.scores tbody tr").filter(
        has=page.get_by_role("link", name=f"Edit round {number}", exact=True)
    )
    expect(row).to_contain_text(SCORES[0])
    timing = page.evaluate(SAVED_PAGE_TIMING)
    enter = timing["enter"]  # negative: before this page's navigation began
    steps = {
        "sent": -enter,
        "post": timing["redirectEnd"] - timing["redirectStart"],
        "get": timing["responseEnd"] - timing["fetchStart"],
        "dom": timing["domContentLoaded"] - enter,
        "paint": (timing["paint"] if timing["paint"] is not None else float("nan")) - enter,
        "load": timing["load"] - enter,
    }
    return Recorded(thumb, steps)


def measure(quick: bool) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    repeats = 3 if quick else 15
    with served_app() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        context.add_init_script(NOTE_ENTER)
        page = context.new_page()
        page.set_default_timeout(15_000)
        created = page.request.post(
            f"{base}/api/v1/sessions",
            data={"name": "Taps", "players": PLAYERS, "rounds": repeats + 2},
        )
        assert created.ok, created.text()
        session_id = created.json()["id"]
        session_url = f"{base}/sessions/{session_id}"
        old = record_round(page, session_url, 1, via="add").thumb
        rounds = [
            record_round(page, session_url, number, via="winner")
            for number in range(2, repeats + 2)
        ]
        stored = page.request.get(f"{base}/api/v1/sessions/{session_id}").json()
        context.close()
        browser.close()
    counts = {(r.thumb.taps, r.thumb.keys) for r in rounds}
    assert len(counts) == 1, f"the count changed between rounds: {counts}"
    expected = {"Ann": 95, "Bo": -22, "Cy": -55, "Di": -18}
    assert [r["scores"] for r in stored["rounds"]] == [expected] * (repeats + 1)
    return {
        "winner": counts.pop(),
        "add": (old.taps, old.keys),
        "rounds": rounds,
        "repeats": repeats,
        "chromium": version_of([CHROMIUM, "--version"]),
    }


def run(quick: bool = False) -> str:
    found = measure(quick)
    taps, keys = found["winner"]
    met = taps <= GOAL_TAPS and taps + keys <= GOAL_ACTIONS
    add_taps, add_keys = found["add"]
    rounds: list[Recorded] = found["rounds"]
    rows = [
        (
            "**Who went out?** on the session page → the round form (winner chosen, focus in "
            "the first other rack)",
            taps,
            keys,
            taps + keys,
            "met" if met else "NOT met",
        ),
        (
            "**Add round** → tap the winner on the round form",
            add_taps,
            add_keys,
            add_taps + add_keys,
            "met" if add_taps <= GOAL_TAPS and add_taps + add_keys <= GOAL_ACTIONS else "NOT met",
        ),
    ]
    labels = {
        "paint": "last Enter → the saved table painted (first contentful paint)",
        "dom": "last Enter → the saved page's DOMContentLoaded (deferred scripts run)",
        "load": "last Enter → the saved page's `load` (the chart image too)",
        "sent": "on the way: last Enter → the form sent (round.js, offline.js's `/healthz` check)",
        "post": "on the way: the `POST` of the round, to its redirect",
        "get": "on the way: the `GET` of the session page, to its last byte",
    }
    intervals = {  # a paint Chromium did not report (NaN) is left out
        label: [r.steps[key] for r in rounds if r.steps[key] == r.steps[key]]
        for key, label in labels.items()
    }
    times = [
        (name, f"{median(ms):.0f}", f"{min(ms):.0f}", f"{max(ms):.0f}")
        for name, ms in intervals.items()
        if ms
    ]
    return "\n".join(
        [
            "## The hot path for a person",
            "",
            "A 4-player went-out round with two-digit racks (Ann went out; Bo 22, Cy 55, Di 18), "
            "recorded from the session page in headless Chromium at a 390×844 touch viewport "
            f"({found['chromium']}), the app served on 127.0.0.1 by a threaded Werkzeug server "
            "on SQLite as in the browser tests. Every tap and key goes through one counter; "
            "the digits of each rack, then Enter, which moves to the next rack and on the last "
            "one saves. tests/browser/test_evening.py asserts the same count.",
            "",
            f"**Goal: at most {GOAL_TAPS} taps + 6 digits + 2 Enters ({GOAL_ACTIONS} actions), "
            "counted from the session page.** "
            f"**Result: {taps} tap{'' if taps == 1 else 's'} + {keys} keys = {taps + keys} — "
            f"{'met' if met else 'NOT met'} in Chromium; on a touch-only phone one tap more "
            "(see below).**",
            "",
            table(("path from the session page", "taps", "keys", "actions", "goal"), rows),
            "",
            "On a phone's on-screen keyboard: a browser opens the keypad only for a focus that "
            "follows a tap on the same page, not for the focus a page takes as it loads. A "
            "touch-only phone therefore needs one tap on Bo's rack after the winner "
            "(2 taps + 9 keys = 11, as many as the Add round path, where the tap on the winner "
            "opens the keypad); a hardware keyboard, or a desktop browser, types at once.",
            "",
            f"Time from the last key to the saved table, timed by Chromium itself (the Enter "
            "noted on the form's clock, the saved page's navigation and paint timing), "
            f"{found['repeats']} rounds recorded one after another into one session (the saved "
            f"table holds 2 to {found['repeats'] + 1} rounds):",
            "",
            table(("interval", "median ms", "min ms", "max ms"), times),
            "",
        ]
    )


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
