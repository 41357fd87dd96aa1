"""Browser fixtures: the real app served over HTTP in a thread, Debian's Chromium via Playwright."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from phone import CHROMIUM, CHROMIUM_ARGS, PHONE, serving


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark everything here as a browser test."""
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium, or a skip saying how to install it."""
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(
            f"no Chromium at {CHROMIUM}: install Debian's package with "
            "`apt-get install chromium` (CI does this in .ci/run)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """The app on a fresh SQLite file, served over real HTTP on a free loopback port."""
    with serving(tmp_path) as url:
        yield url


@pytest.fixture
def page(browser: object, live_server: str) -> Iterator[object]:
    """A phone-sized page (390x844, touch) in a fresh browser context."""
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport=PHONE, has_touch=True, is_mobile=True, accept_downloads=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
