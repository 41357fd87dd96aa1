"""One phone, two engines: the few things a scenario does with a phone (visit, tap, fill, press a
key, read the page, wait for something), once for Chromium through Playwright and once for
WebKit (WebKitGTK's MiniBrowser under Xvfb) through Selenium's WebKitWebDriver.

Elements are found the same way in both: a CSS selector, and optionally the element's name as a
person reads it (its `aria-label`, or else its text, whitespace squeezed), among the elements
that are shown. Every read that waits goes through `wait_for`, which polls with a generous
timeout: a guard against a hang, never a measure of speed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

WAIT = 20.0  # seconds: long enough for a loaded machine, short enough to end a hang

WEBKIT_DRIVER = os.environ.get("SCOREKEEPER_WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver")
MINIBROWSER_PLACES = (
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/libexec/webkit2gtk-4.1/MiniBrowser",
)
XVFB = "Xvfb"
# The MiniBrowser's toolbar is wider than a phone, and GTK keeps a window at least as wide as
# its widgets: shrunk to nothing, the window (and so the page) can be 390 px wide. Web content
# is drawn by WebKit itself, not by GTK's theme, so the page does not change.
GTK_CSS = (
    "* { min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0; font-size: 1px;"
    " -gtk-icon-transform: scale(0.01); }\n"
)

# The element named `name` (aria-label, else its text, leaving out what is hidden from a screen
# reader, such as a seat's mark) among those `css` finds that are shown and not hidden.
FIND = """
const [css, name] = arguments;
const squeeze = (s) => (s || "").replace(/\\s+/g, " ").trim();
const spoken = (e) => {
  const c = e.cloneNode(true);
  c.querySelectorAll("[aria-hidden=true]").forEach((h) => h.remove());
  return squeeze(c.textContent);
};
const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
const all = Array.from(document.querySelectorAll(css))
  .filter((e) => (shown(e) || e.type === "radio") && !e.closest("[aria-hidden=true]"));
return all.find((e) => name === null || squeeze(e.getAttribute("aria-label")) === name
  || spoken(e) === name) || null;
"""
# The field (not a radio or a checkbox: those are tapped) a <label> with exactly this text is for.
LABELLED = """
const [text] = arguments;
const squeeze = (s) => (s || "").replace(/\\s+/g, " ").trim();
const spoken = (e) => {
  const c = e.cloneNode(true);
  c.querySelectorAll("[aria-hidden=true]").forEach((h) => h.remove());
  return squeeze(c.textContent);
};
const label = Array.from(document.querySelectorAll("label")).find((l) =>
  spoken(l) === text && l.control && !["radio", "checkbox"].includes(l.control.type)
  && l.control.getClientRects().length > 0);
return label ? "#" + CSS.escape(label.control.id) : null;
"""
TEXTS = """
const [css] = arguments;
const squeeze = (s) => (s || "").replace(/\\s+/g, " ").trim();
return Array.from(document.querySelectorAll(css)).map((e) => squeeze(e.textContent));
"""

# Each score table cell's first line: the round's score, before the block (a rack's tiles,
# "dropped") that may follow it (templates/sessions/_table.html).
FIRST_LINES = """
const [css] = arguments;
const squeeze = (s) => (s || "").replace(/\\s+/g, " ").trim();
const first = (e) => {
  let text = "";
  for (const node of e.childNodes) {
    if (["BR", "DETAILS", "SMALL"].includes(node.nodeName)) break;
    text += node.textContent;
  }
  return squeeze(text);
};
return Array.from(document.querySelectorAll(css)).map(first);
"""


def minibrowser() -> str | None:
    """WebKitGTK's MiniBrowser, where Debian's libwebkit2gtk-4.1-0 puts it."""
    chosen = os.environ.get("SCOREKEEPER_MINIBROWSER")
    for place in (chosen, *MINIBROWSER_PLACES) if chosen else MINIBROWSER_PLACES:
        if place and Path(place).exists():
            return place
    return None


def webkit_missing() -> str | None:
    """Why the WebKit lane cannot run here, or None when it can."""
    wanted = []
    if not Path(WEBKIT_DRIVER).exists():
        wanted.append(f"no WebKitWebDriver at {WEBKIT_DRIVER}")
    if minibrowser() is None:
        wanted.append("no WebKitGTK MiniBrowser")
    if shutil.which(XVFB) is None:
        wanted.append("no Xvfb")
    try:
        import selenium  # noqa: F401
    except ImportError:
        wanted.append("no selenium (pip install -e '.[test]')")
    if not wanted:
        return None
    return (
        "; ".join(wanted) + ": install Debian's packages with "
        "`apt-get install webkit2gtk-driver xvfb` (CI does this in .ci/run)"
    )


class Phone:
    """What a scenario does with a phone; each engine provides the primitives."""

    engine = "?"

    # --- primitives, per engine ---
    def visit(self, url: str) -> None:
        raise NotImplementedError

    @property
    def url(self) -> str:
        raise NotImplementedError

    def run(self, script: str, *args: Any) -> Any:
        """Run a function body (`arguments` are `args`) in the page; return what it returns."""
        raise NotImplementedError

    def _tap(self, css: str, name: str | None) -> None:
        raise NotImplementedError

    def _fill(self, css: str, value: str) -> None:
        raise NotImplementedError

    def press(self, key: str) -> None:
        """One key on the focused element: a character, "Enter" or "Escape"."""
        raise NotImplementedError

    def _transient(self) -> tuple[type[BaseException], ...]:
        """Errors a read can meet while a page is replaced by the next one."""
        raise NotImplementedError

    # --- built on them, the same in both engines ---
    def wait_for(
        self,
        check: Callable[[], Any],
        what: str,
        timeout: float = WAIT,
        seen: Callable[[], Any] | None = None,
    ) -> Any:
        """Wait until `check` gives something truthy (Selenium's WebDriverWait polls it, in either
        engine); fail saying `what`, and what `seen` (else `check`) reads then, after `timeout`."""
        from selenium.common.exceptions import TimeoutException
        from selenium.webdriver.support.wait import WebDriverWait

        transient = self._transient()
        waiting = WebDriverWait(self, timeout, poll_frequency=0.05, ignored_exceptions=transient)
        try:
            return waiting.until(lambda _phone: check())
        except TimeoutException:
            last: Any = None
            with suppress(*transient):
                last = (seen or check)()
            raise AssertionError(
                f"{self.engine}: waited {timeout:.0f} s for {what}; saw {last!r}"
            ) from None

    def find(self, css: str, name: str | None = None) -> Any:
        return self.run(FIND, css, name)

    def tap(self, css: str, name: str | None = None) -> None:
        """Tap the element (waiting for it to be there)."""
        self.wait_for(lambda: self.find(css, name), f"{css} named {name!r}")
        self._tap(css, name)

    def field(self, label: str) -> str:
        """The CSS selector of the shown field labelled exactly `label`."""
        return self.wait_for(lambda: self.run(LABELLED, label), f"a field labelled {label!r}")

    def fill(self, label: str, value: str) -> None:
        """Type `value` into the field labelled `label`, replacing what was there."""
        self._fill(self.field(label), value)

    def type(self, text: str) -> None:
        for char in text:
            self.press(char)

    def texts(self, css: str) -> list[str]:
        return self.run(TEXTS, css)

    def text(self, css: str) -> str:
        found = self.texts(css)
        return found[0] if found else ""

    def value(self, label: str) -> str:
        return self.run("return document.querySelector(arguments[0]).value;", self.field(label))

    def focused(self) -> str:
        """The label of the focused field."""
        return self.run(
            "const e = document.activeElement;"
            " if (!e || !e.labels || !e.labels[0]) return null;"
            " const c = e.labels[0].cloneNode(true);"
            ' c.querySelectorAll("[aria-hidden=true]").forEach((h) => h.remove());'
            " return c.textContent.trim();"
        )

    def type_racks(self, racks: tuple[tuple[str, str], ...]) -> None:
        """Type each rack and Enter, then wait for the focus in the next player's rack (named):
        the next rack's digits go in only once the focus is there."""
        for rack, then in racks:
            self.type(rack)
            self.press("Enter")
            self.wait_for(lambda then=then: self.focused() == then, f"the focus in {then}'s rack")

    def expect_text(self, css: str, text: str, timeout: float = WAIT) -> None:
        self.wait_for(
            lambda: self.text(css) == text,
            f"{css} to read {text!r}",
            timeout,
            lambda: self.text(css),
        )

    def expect_first_lines(self, css: str, texts: list[str]) -> None:
        """Wait until the cells `css` finds start with `texts` (their first lines)."""
        self.wait_for(
            lambda: self.run(FIRST_LINES, css) == texts,
            f"{css} to start with {texts!r}",
            seen=lambda: self.run(FIRST_LINES, css),
        )

    def expect_texts(self, css: str, texts: list[str]) -> None:
        self.wait_for(
            lambda: self.texts(css) == texts,
            f"{css} to read {texts!r}",
            seen=lambda: self.texts(css),
        )

    def expect_shown(self, css: str, name: str | None = None) -> None:
        self.wait_for(lambda: self.find(css, name), f"{css} named {name!r} to be shown")

    def expect_page(self, ending: str) -> None:
        self.wait_for(lambda: self.url.endswith(ending), f"the page {ending}")

    def overflow(self) -> int:
        """How many CSS pixels the page is wider than the screen (0 or less: no sideways
        scroll); the screen's width is the window's, which the page cannot widen."""
        return self.run("return document.documentElement.scrollWidth - window.innerWidth;")


class ChromiumPhone(Phone):
    """A Playwright page in a touch context of its own (its own cookies and storage)."""

    engine = "chromium"

    def __init__(self, page: Any) -> None:
        self.page = page

    def visit(self, url: str) -> None:
        self.page.goto(url)

    @property
    def url(self) -> str:
        # The page's own location: Playwright's `page.url` is only brought up to date when
        # its event loop runs, which a polling loop of plain reads may never let it do.
        return self.page.evaluate("location.href")

    def run(self, script: str, *args: Any) -> Any:
        return self.page.evaluate(f"(arguments) => {{ {script} }}", list(args))

    def _tap(self, css: str, name: str | None) -> None:
        self.page.evaluate_handle(f"(arguments) => {{ {FIND} }}", [css, name]).as_element().tap()

    def _fill(self, css: str, value: str) -> None:
        self.page.locator(css).fill(value)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def _transient(self) -> tuple[type[BaseException], ...]:
        from playwright.sync_api import Error

        return (Error,)


class WebKitPhone(Phone):
    """WebKitGTK's MiniBrowser driven by WebKitWebDriver: clicks and key presses as WebDriver
    sends them (no touch events: WebKitGTK's driver has none)."""

    engine = "webkit"

    def __init__(self, driver: Any) -> None:
        self.driver = driver

    def visit(self, url: str) -> None:
        self.driver.get(url)

    @property
    def url(self) -> str:
        return self.driver.current_url

    def run(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def _tap(self, css: str, name: str | None) -> None:
        self.find(css, name).click()

    def _fill(self, css: str, value: str) -> None:
        from selenium.webdriver.common.by import By
        from selenium.webdriver.common.keys import Keys

        element = self.driver.find_element(By.CSS_SELECTOR, css)
        element.click()
        element.send_keys(Keys.CONTROL, "a")
        element.send_keys(Keys.BACKSPACE)
        if value:
            element.send_keys(value)

    def press(self, key: str) -> None:
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys

        named = {"Enter": Keys.ENTER, "Escape": Keys.ESCAPE}
        ActionChains(self.driver).send_keys(named.get(key, key)).perform()

    def _transient(self) -> tuple[type[BaseException], ...]:
        from selenium.common.exceptions import WebDriverException

        return (WebDriverException,)


@contextmanager
def xvfb() -> Iterator[str]:
    """A virtual screen of its own (a display number Xvfb picks free); yields its DISPLAY."""
    read, write = os.pipe()
    screen = subprocess.Popen(
        [XVFB, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as announced:
            number = announced.readline().strip()
        if not number:
            raise RuntimeError(f"Xvfb did not start (exit status {screen.poll()})")
        yield f":{number}"
    finally:
        screen.terminate()
        screen.wait(timeout=10)


PHONE_WINDOW = (390, 844)


@contextmanager
def webkit_phone(display: str) -> Iterator[WebKitPhone]:
    """A fresh MiniBrowser (its own cookies, storage and caches) in a 390×844 window."""
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    # The browser's web process may still be writing its shader cache as the driver returns
    # from quit(): a file left in the folder then is no failure of the test.
    with tempfile.TemporaryDirectory(
        prefix="scorekeeper-webkit-", ignore_cleanup_errors=True
    ) as home:
        config = Path(home) / "config" / "gtk-3.0"
        config.mkdir(parents=True)
        (config / "gtk.css").write_text(GTK_CSS)
        env = {
            **os.environ,
            "DISPLAY": display,
            "HOME": home,
            "XDG_CONFIG_HOME": str(Path(home) / "config"),
            "XDG_DATA_HOME": str(Path(home) / "data"),
            "XDG_CACHE_HOME": str(Path(home) / "cache"),
            "GTK_CSD": "0",
            "NO_AT_BRIDGE": "1",
        }
        options = Options()
        options.binary_location = minibrowser()
        options.add_argument("--automation")
        service = Service(executable_path=WEBKIT_DRIVER, env=env, log_output=subprocess.DEVNULL)
        driver = webdriver.WebKitGTK(options=options, service=service)
        try:
            width, height = PHONE_WINDOW
            driver.set_window_size(width, height)
            # What is left of the toolbar takes a few pixels: the page itself gets 390×844.
            inner = driver.execute_script("return [innerWidth, innerHeight];")
            driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
            yield WebKitPhone(driver)
        finally:
            driver.quit()
