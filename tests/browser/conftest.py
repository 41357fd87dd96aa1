"""Browser fixtures: the real app served over HTTP in a thread; Debian's Chromium via Playwright,
and WebKit (WebKitGTK's MiniBrowser under Xvfb) via Selenium for the scenarios both run.

Without a browser its tests are skipped, saying how to install it; in CI (`CI=true`) a missing
browser fails them instead, so that a lane never passes by not running."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import NoReturn

import pytest
from drive import WAIT, ChromiumPhone, Phone, webkit_missing, webkit_phone, xvfb
from phone import CHROMIUM, CHROMIUM_ARGS, Network, phone_page, serving

ENGINES = ["chromium", "webkit"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark everything here as a browser test."""
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def unavailable(reason: str) -> NoReturn:
    """Skip, saying why; in CI, fail: CI installs every browser (.ci/run)."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true and {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Debian Chromium, or a skip saying how to install it."""
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        unavailable(
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


@pytest.fixture(scope="session")
def webkit_display() -> Iterator[str]:
    """A virtual screen for WebKitGTK, or a skip saying what to install."""
    missing = webkit_missing()
    if missing:
        unavailable(missing)
    with xvfb() as display:
        yield display


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """The app on a fresh SQLite file, served over real HTTP on a free loopback port."""
    with serving(tmp_path) as url:
        yield url


@pytest.fixture
def network(live_server: str) -> Iterator[Network]:
    """The Wi-Fi between the phones and `live_server`: phones visit `network.url`."""
    wifi = Network(live_server)
    yield wifi
    wifi.close()


@pytest.fixture
def page(browser: object, live_server: str) -> Iterator[object]:
    """A phone-sized page (390x844, touch) in a fresh browser context."""
    with phone_page(browser, accept_downloads=True) as opened:
        yield opened


@pytest.fixture
def page_without_worker(browser: object, live_server: str) -> Iterator[object]:
    """A phone page whose requests Playwright can route (no service worker in between)."""
    with phone_page(browser, service_workers="block") as opened:
        yield opened


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """Each shared scenario runs once per engine: `-k webkit` picks WebKit's run."""
    return request.param


@pytest.fixture
def open_phone(engine: str, request: pytest.FixtureRequest) -> Iterator[Callable[[], Phone]]:
    """Opens phones of this engine, each with its own cookies and storage (390×844)."""
    with ExitStack() as opened:

        def open_one() -> Phone:
            if engine == "chromium":
                page = opened.enter_context(phone_page(request.getfixturevalue("browser")))
                page.set_default_timeout(WAIT * 1000)
                return ChromiumPhone(page)
            return opened.enter_context(webkit_phone(request.getfixturevalue("webkit_display")))

        yield open_one


@pytest.fixture
def phone(open_phone: Callable[[], Phone]) -> Phone:
    """One phone at the table, in the engine of this run."""
    return open_phone()
