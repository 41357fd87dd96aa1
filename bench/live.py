"""Every phone live: how long a round saved by one phone takes to show on another phone's open
session page, without a reload, in Chromium and (where WebKitGTK is installed) in WebKit.

The app is served as the browser tests serve it (tests/browser/phone.py: a threaded Werkzeug
server on a fresh SQLite file); the watching phone is driven as the tests drive it
(tests/browser/drive.py). Each round is added through the JSON API, as another phone would;
the watching page notes, on the machine's clock, the moment its "Round N added." appears. The
rounds are spread at random moments, so that whatever the page waits for between its looks at
the server, every phase of it is met. tests/browser/test_every_phone.py and
test_live_browser.py check that the round arrives (and give up only after a long guard);
this section says how soon. `python bench/live.py [--quick]` prints the section.
"""

from __future__ import annotations

import logging
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "browser"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from common import median, table, version_of  # noqa: E402
from drive import WAIT, ChromiumPhone, Phone, webkit_missing, webkit_phone, xvfb  # noqa: E402
from factories import api  # noqa: E402
from phone import CHROMIUM, CHROMIUM_ARGS, PHONE, serving  # noqa: E402

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
ROUND = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55, "Di": 8}}
GOAL_MS = 2000  # the other phones follow within 2 s (median), as a family sees it

# On the watching page: the moment (epoch ms) each "Round N added." appeared.
WATCH = """
window.benchSeen = {};
const notice = document.getElementById("live-change");
new MutationObserver(() => {
  const said = notice.textContent.match(/^Round (\\d+) added\\.$/);
  if (said && !(said[1] in window.benchSeen)) {
    window.benchSeen[said[1]] = performance.timeOrigin + performance.now();
  }
}).observe(notice, { childList: true, characterData: true, subtree: true });
return true;
"""


@contextmanager
def chromium_phone() -> Iterator[Phone]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.set_default_timeout(WAIT * 1000)
        try:
            yield ChromiumPhone(page)
        finally:
            context.close()
            browser.close()


def lags(phone: Phone, base: str, repeats: int, seed: int) -> list[float]:
    """Milliseconds from each round's API answer to its message on the watching phone."""
    choose = random.Random(seed)
    session_id = api(base, "/sessions", {"players": PLAYERS, "rounds": repeats + 1})["id"]
    phone.visit(f"{base}/sessions/{session_id}")
    phone.expect_shown("td.empty", "No rounds yet.")
    phone.run(WATCH)
    found = []
    for number in range(1, repeats + 1):
        time.sleep(choose.uniform(0.5, 2.5))
        api(base, f"/sessions/{session_id}/rounds", ROUND)
        stored = time.time() * 1000
        seen = phone.wait_for(
            lambda n=number: phone.run("return window.benchSeen[arguments[0]];", str(n)),
            f"round {number} on the watching phone",
        )
        found.append(seen - stored)
    return found


def measure(quick: bool) -> dict[str, Any]:
    repeats = 5 if quick else 25
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    found: dict[str, Any] = {"repeats": repeats, "engines": {}}
    with tempfile.TemporaryDirectory() as scratch, serving(Path(scratch), "bench-live") as base:
        with chromium_phone() as phone:
            found["engines"][f"Chromium ({version_of([CHROMIUM, '--version'])})"] = lags(
                phone, base, repeats, seed=1
            )
        missing = webkit_missing()
        if missing:
            found["webkit_missing"] = missing
            return found
        with ExitStack() as stack:
            display = stack.enter_context(xvfb())
            phone = stack.enter_context(webkit_phone(display))
            version = phone.driver.capabilities.get("browserVersion", "?")  # type: ignore[attr-defined]
            found["engines"][f"WebKit (WebKitGTK {version})"] = lags(phone, base, repeats, seed=2)
    return found


def run(quick: bool = False) -> str:
    found = measure(quick)
    rows = []
    for engine, ms in found["engines"].items():
        middle = median(ms)
        rows.append(
            (
                engine,
                f"{middle:.0f}",
                f"{min(ms):.0f}",
                f"{max(ms):.0f}",
                "met" if middle <= GOAL_MS else "NOT met",
            )
        )
    lines = [
        "## Every phone live",
        "",
        "How long a round saved on one phone takes to show on another phone's open session "
        "page, without a reload: from the JSON API's answer to the round (another phone saving "
        "it) to the moment the watching page says “Round N added.”, both on the machine's "
        f"clock; {found['repeats']} rounds a browser, each at a random moment 0.5–2.5 s after "
        "the last, into one session, the app served on 127.0.0.1 by a threaded Werkzeug server "
        "on SQLite as in the browser tests, the watching phone at 390×844.",
        "",
        f"**Goal: the other phones show a round within {GOAL_MS / 1000:.0f} s (median).**",
        "",
        table(("watching browser", "median ms", "min ms", "max ms", "goal"), rows),
        "",
    ]
    if "webkit_missing" in found:
        lines += [f"_WebKit not measured: {found['webkit_missing']}._", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv))
