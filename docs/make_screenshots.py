"""Phone-size screenshots of the main screens, in Debian's Chromium: `make screenshots`.

The app is served on a fresh SQLite file (tests/browser/phone.py), an evening is played into
it through the JSON API, and each screen is taken at 390 px wide, light and dark, into
docs/screenshots/ (the README shows them). `--all` also takes every screen at 360 px, light
and dark, into the folder given by `--out`, for looking at before a change is committed.
The evening (`play`) and the screens (`SCREENS`, `open_screen`) are also what the layout check
opens (tests/browser/test_layout.py): a screen added here is checked there too.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from tests.browser.phone import CHROMIUM, CHROMIUM_ARGS, serving  # noqa: E402
from tests.factories import api  # noqa: E402

FAMILY = ["Mormor", "Peter", "Sofie", "Anders"]
SIX = ["Bedstemor Ingrid", "Onkel Frederik", "Christoffer", "Marianne", "Johanne", "Annemette"]


def went_out(players: list[str], winner: str, racks: list[object]) -> dict[str, object]:
    losers = [p for p in players if p != winner]
    return {"ending": "went_out", "winner": winner, "racks": dict(zip(losers, racks, strict=True))}


def play(base: str) -> dict[str, int]:
    """The evening the screenshots show: a family mid-evening, one finished, six long names."""
    mid = api(base, "/sessions", {"players": FAMILY, "rounds": 6, "name": "Sunday with Mormor"})
    for body in (
        went_out(FAMILY, "Sofie", [23, 8, 41]),
        went_out(FAMILY, "Peter", [12, 30, 5]),
        {"ending": "pool_empty", "racks": {"Mormor": 3, "Peter": 17, "Sofie": 9, "Anders": 26}},
    ):
        api(base, f"/sessions/{mid['id']}/rounds", body)
    done = api(base, "/sessions", {"players": FAMILY[:3], "rounds": 2})
    api(base, f"/sessions/{done['id']}/rounds", went_out(FAMILY[:3], "Mormor", [14, 22]))
    api(base, f"/sessions/{done['id']}/rounds", went_out(FAMILY[:3], "Sofie", [9, ["r7", "k13"]]))
    six = api(
        base,
        "/sessions",
        {"players": SIX, "rounds": 3, "rules": {"tile_sets": 2, "drop_worst_round": True}},
    )
    for number, winner in enumerate(SIX[:3]):
        racks = [(number * 17 + seat * 11) % 50 + 3 for seat in range(5)]
        api(base, f"/sessions/{six['id']}/rounds", went_out(SIX, winner, racks))
    clock = api(base, "/sessions", {"players": FAMILY, "rules": {"seconds_per_turn": 60}})
    cards = api(base, "/sessions", {"players": FAMILY, "rules": {"played_with": "cards"}})
    return {
        "mid": mid["id"],
        "done": done["id"],
        "six": six["id"],
        "clock": clock["id"],
        "cards": cards["id"],
    }


def open_entry(page: Page) -> None:
    """The round entry open in place under the table, one rack typed."""
    page.get_by_role("link", name="Anders", exact=True).first.click()
    page.wait_for_selector("#entry input[name^=rack]:focus")
    page.keyboard.type("17")
    page.keyboard.press("Enter")
    page.keyboard.type("6")
    page.evaluate("document.getElementById('entry').scrollIntoView()")


def open_round_keypad(page: Page, rack: str = "") -> None:
    """The round entry open in place and its keypad open under Sofie's rack: empty, or with
    `rack` typed first (a full rack, some keys used up). The toggle says tiles or cards."""
    open_entry(page)
    if rack:
        page.locator("#entry input[name^=rack]").nth(2).fill(rack)
    page.locator("#entry .tiles-toggle").nth(2).click()
    page.wait_for_selector("#keypad .key")


def open_full_keypad(page: Page) -> None:
    """A rack of fourteen tiles, both copies of four of them: their keys used up."""
    open_round_keypad(page, "r1 r1 k13 k13 b10 b10 o12 o12 j j r11 b9 o8 k10")


def open_checker_keypad(page: Page) -> None:
    """The table checker's keypad open under its sets (tiles, or cards for a cards session)."""
    page.locator("#checker .keypad-toggle").first.click()
    page.wait_for_selector("#checker-keypad .key")
    page.evaluate("document.getElementById('checker-keypad').scrollIntoView()")


def base_of(page: Page) -> str:
    return page.url.split("/sessions")[0].split("/tools")[0].rstrip("/")


def open_cards_entry(page: Page) -> None:
    """A session played with cards, its round entry open in place (made here: the screens
    before it show the evening of `play` only)."""
    base = base_of(page)
    cards = api(base, "/sessions", {"players": FAMILY, "rules": {"played_with": "cards"}})
    page.goto(f"{base}/sessions/{cards['id']}")
    open_entry(page)


def draft_back(page: Page, taken: bool = False) -> None:
    """A round typed in place, the page reloaded: the draft open again, saying so; `taken`:
    another phone saved that round meanwhile (a session of its own, made here)."""
    base = base_of(page)
    own = api(base, "/sessions", {"players": FAMILY, "rounds": 6, "name": "Sunday with Mormor"})
    api(base, f"/sessions/{own['id']}/rounds", went_out(FAMILY, "Sofie", [23, 8, 41]))
    page.goto(f"{base}/sessions/{own['id']}")
    open_entry(page)
    if taken:
        api(base, f"/sessions/{own['id']}/rounds", went_out(FAMILY, "Peter", [12, 30, 5]))
    page.reload()
    page.wait_for_selector("#offline-notice:not([hidden])")
    # Shown once its styles and scripts are in (entry.js keeps it unseen until then).
    page.wait_for_function("!document.getElementById('entry-fragment').style.visibility")
    page.evaluate("document.getElementById('entry').scrollIntoView()")


def thirty_known(page: Page) -> None:
    """Thirty players played before (made here, after the other screens)."""
    base = base_of(page)
    if page.locator("button.chip").count() >= 30:
        return
    for evening in range(4):
        players = [f"{name} {evening + 2}" for name in SIX]
        api(base, "/sessions", {"players": players, "rules": {"tile_sets": 2}})
    page.reload()


def clock_running(page: Page) -> None:
    page.get_by_role("button", name="Start the clock").click()
    page.get_by_role("button", name="Next player").click()


def clock_at_zero(page: Page) -> None:
    page.clock.install()
    page.reload()
    clock_running(page)
    page.clock.run_for(61_000)
    page.wait_for_selector("#clock.expired")


def after_six(page: Page) -> None:
    """New session after a six-player evening with two tile sets and drop-worst (the last
    session made; made here, after the screens that show the evening of `play` only)."""
    base = base_of(page)
    rules = {"tile_sets": 2, "drop_worst_round": True}
    api(base, "/sessions", {"players": SIX, "rules": rules, "name": "Saturday"})
    page.reload()
    page.evaluate("document.getElementById('rules-said').scrollIntoView({block: 'center'})")


def six_typed(page: Page) -> None:
    """Six names typed on the new-session page: two tile sets, said under the names."""
    for seat, name in enumerate(SIX):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.evaluate("document.getElementById('players-sets').scrollIntoView({block: 'center'})")


def drawn(page: Page) -> None:
    """Who starts, drawn with one tap (a tie draws again)."""
    for _ in range(20):
        page.get_by_role("button", name="Draw for us").click()
        if "starts" in (page.text_content("#draw-result") or ""):
            return


def typo_asked(page: Page) -> None:
    """The round entry open in place, Peter out, a rack of 190 typed: the typo question."""
    page.get_by_role("link", name="Peter", exact=True).first.click()
    page.wait_for_selector("#entry input[name^=rack]:focus")
    for rack in ("12", "30"):
        page.keyboard.type(rack)
        page.keyboard.press("Enter")
    page.keyboard.type("190")
    page.wait_for_selector("#typo-confirm:not([hidden])")
    page.evaluate("document.getElementById('typo-confirm').scrollIntoView({block: 'end'})")


def paper_refused(page: Page) -> None:
    """A paper round that adds up to -12, saved: the refusal, said once."""
    for name, score in zip(FAMILY, ("40", "-10", "-18", "-24"), strict=True):
        page.get_by_role("textbox", name=name, exact=True).fill(score)
    page.get_by_role("button", name="Save round").click()
    page.wait_for_selector(".problems")
    page.evaluate("document.getElementById('save').scrollIntoView({block: 'end'})")


Action = Callable[[Page], None] | None
SCREENS: list[tuple[str, str, Action, bool]] = [
    # name, path, what to do on the page, full page
    ("home", "/", None, False),
    ("session", "/sessions/{mid}", None, True),
    ("round-entry", "/sessions/{mid}", open_entry, False),
    ("evening-won", "/sessions/{done}", None, True),
    ("six-players", "/sessions/{six}", None, True),
    ("new-session", "/sessions/new", None, True),
    ("round-keypad", "/sessions/{mid}", open_round_keypad, False),
    ("round-keypad-full", "/sessions/{mid}", open_full_keypad, False),
    ("round-keypad-cards", "/sessions/{cards}", open_round_keypad, False),
    ("checker", "/tools/check", None, False),
    ("checker-keypad", "/tools/check", open_checker_keypad, False),
    ("checker-keypad-cards", "/tools/check?session={cards}", open_checker_keypad, False),
    ("clock", "/sessions/{clock}/clock", None, False),
    ("summary", "/sessions/{done}/summary", None, True),
    ("details", "/sessions/{mid}/details", None, True),
    ("players", "/players", None, False),
    ("player", "/players/1", None, True),
    ("access", "/access", None, False),
    # The states issue #25 changed; last, as two make sessions of their own.
    ("summary-six", "/sessions/{six}/summary", None, True),
    ("clock-running", "/sessions/{clock}/clock", clock_running, False),
    ("clock-zero", "/sessions/{clock}/clock", clock_at_zero, False),
    ("round-entry-cards", "/sessions/{mid}", open_cards_entry, False),
    ("new-session-known", "/sessions/new", thirty_known, True),
    # Issue #24: what a new session says of its rules; who starts.
    ("who-starts", "/sessions/{clock}/who-starts", None, False),
    ("who-starts-drawn", "/sessions/{clock}/who-starts", drawn, False),
    ("new-session-six-typed", "/sessions/new", six_typed, False),
    ("new-session-rematch", "/sessions/new?again={six}", None, True),
    # One message per problem (issue #24, item 8).
    ("round-typo", "/sessions/{mid}", typo_asked, False),
    ("round-paper-refused", "/sessions/{mid}/rounds/new?ending=scores", paper_refused, False),
    # Issue #24: a round typed in place comes back after a reload, as left or moved past.
    ("round-draft", "/", draft_back, False),
    ("round-draft-taken", "/", lambda page: draft_back(page, taken=True), False),
    # Last: it makes a session of its own.
    ("new-session-after-six", "/sessions/new", after_six, False),
]
# What the README shows (390 px): the rest are taken for looking at.
README = {
    ("session", "light"),
    ("round-entry", "light"),
    ("evening-won", "dark"),
    ("six-players", "light"),
    ("new-session", "dark"),
    ("checker", "light"),
    ("clock", "dark"),
    ("who-starts-drawn", "light"),
    ("round-typo", "light"),
}


def open_screen(page: Page, base: str, ids: dict[str, int], path: str, action: Action) -> None:
    """A screen as a family meets it: its page loaded, then what is done on it."""
    page.goto(base + path.format(**ids))
    page.wait_for_load_state("load")
    if action:
        action(page)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument(
        "--all", action="store_true", help="every screen at 360 and 390, light and dark"
    )
    parser.add_argument("--only", help="only the screens whose name contains this")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, serving(Path(folder)) as base:
        ids = play(base)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name, path, action, full in SCREENS:
                if args.only and args.only not in name:
                    continue
                for width in (360, 390) if args.all else (390,):
                    for scheme in ("light", "dark"):
                        if not args.all and (name, scheme) not in README:
                            continue
                        context = browser.new_context(
                            viewport={"width": width, "height": 800},
                            device_scale_factor=2,
                            is_mobile=True,
                            has_touch=True,
                            color_scheme=scheme,
                        )
                        page = context.new_page()
                        open_screen(page, base, ids, path, action)
                        page.wait_for_timeout(300)  # the chart image and fonts settle
                        suffix = f"-{width}" if args.all else ""
                        target = args.out / f"{name}-{scheme}{suffix}.png"
                        page.screenshot(path=str(target), full_page=full)
                        context.close()
                        print(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target)
            browser.close()


if __name__ == "__main__":
    main()
