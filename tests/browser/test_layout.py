"""The layout check: every screen a family meets, as `make screenshots` takes them (the evening
and the screens of docs/make_screenshots.py, a round open in place and each keypad open among
them), at 360×640 and 390×844, light and dark, in Chromium: one load a screen, opened at
360×640 (the narrowest, where a screen is tightest), then the phone's theme switched and its
window widened to 390×844 in place. No service worker: it has no part in a layout, and its
install would fetch the app shell once a screen. A screen fails on sideways scroll,
on text wider than its box (cut, or spilling out of it), on a control over another, and on
text under a badge; every problem of a screen is said in its one assertion message."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from phone import phone_page, serving
from playwright.sync_api import Browser

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from docs.make_screenshots import SCREENS, open_screen, play  # noqa: E402

SIZES = [(360, 640), (390, 844)]
THEMES = ["light", "dark"]

# What a screen may still show, each allowance narrow (a selector matched by the element itself
# or an ancestor, with `closest`; the kind: "cut" for text out of its box, "over" for controls
# on top of each other) and saying why; keyed by the screen's name in SCREENS.
ALLOWED: dict[str, list[tuple[str, str]]] = {}

# The check, run in the page: tests/browser/layout_check.js.
CHECK = (Path(__file__).parent / "layout_check.js").read_text()


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, int]]]:
    """The app served once for the module, with the evening the screenshots show."""
    with serving(tmp_path_factory.mktemp("layout")) as base:
        yield base, play(base)


@pytest.mark.parametrize("screen", SCREENS, ids=[screen[0] for screen in SCREENS])
def test_layout(
    browser: Browser, evening: tuple[str, dict[str, int]], screen: tuple[str, str, Any, bool]
) -> None:
    """The screen opened once at the first size in the light theme and checked, then checked
    again with the phone switched to dark, and so at each size after (the page follows the
    phone's theme and window as they change: no second load)."""
    base, ids = evening
    name, path, action, _ = screen
    width, height = SIZES[0]
    problems: list[str] = []
    with phone_page(
        browser,
        viewport={"width": width, "height": height},
        color_scheme="light",
        service_workers="block",
    ) as page:
        open_screen(page, base, ids, path, action)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            for theme in THEMES:
                page.emulate_media(color_scheme=theme)  # type: ignore[arg-type]
                dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
                assert dark == (theme == "dark"), f"{name}: the page did not switch to {theme}"
                problems += [
                    f"{width}×{height}, {theme}: {problem}"
                    for problem in page.evaluate(CHECK, ALLOWED.get(name, []))
                ]
    assert not problems, f"{name}:\n" + "\n".join(problems)
