"""What the browser tests and bench/taps.py share: Debian's Chromium as they launch it, the app
served over real HTTP in a thread, and the thumb that counts every tap and key press."""

from __future__ import annotations

import os
import re
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.extensions import db

CHROMIUM = os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
# How often a test server's loop looks whether it is asked to stop (`serving`).
SHUTDOWN_POLL_S = 0.02


@contextmanager
def serving(folder: Path, secret: str = "browser-test") -> Iterator[str]:
    """The app on a fresh SQLite file in `folder`, served over real HTTP on a free loopback
    port; yields its base URL."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": secret,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'browser.sqlite'}",
            # A passphrase hashed cheaply, as in tests/conftest.py: no browser test or bench
            # measures the hash.
            "PASSPHRASE_HASH_METHOD": "scrypt:1024:8:1",
        },
        instance_path=str(folder / "instance"),
    )
    with app.app_context():
        db.create_all()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # shutdown() waits for the serving loop to look at its flag, which it does between waits
    # for a connection of `poll_interval` each: at socketserver's default (0.5 s) every server
    # took half a second to stop, at the end of every test that had one. A connection is
    # answered at once either way (the wait ends when one comes).
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": SHUTDOWN_POLL_S}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        with app.app_context():
            db.engine.dispose()


@contextmanager
def phone_page(browser: Any, **options: Any) -> Iterator[Any]:
    """A page in a browser context of its own (its own cookies and storage): a phone's, 390×844
    with touch, unless `options` say otherwise; the context closed at the end."""
    context = browser.new_context(
        **{"viewport": PHONE, "has_touch": True, "is_mobile": True, **options}
    )
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        yield page
    finally:
        context.close()


def starting_with(*values: str) -> list[re.Pattern[str]]:
    """What each cell of a round's row starts with: its score, the cell's one number (a rack
    typed as tiles, or "dropped", may follow it, never a second number such as a running
    total: templates/sessions/_table.html), for `expect(cells).to_have_text`."""
    return [re.compile(rf"^{re.escape(value)}(?![0-9+-])") for value in values]


def round_cells(page: Any, number: int) -> Any:
    """The scores of one round in the session table, one cell per player in seating order."""
    row = page.locator("table.scores tbody tr").filter(
        has=page.get_by_role("link", name=f"Edit round {number}", exact=True)
    )
    return row.locator("td")


class Thumb:
    """The family member's thumb: every tap and every key press goes through here and is counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.keys = 0

    def tap(self, target: Any) -> None:
        target.tap()
        self.taps += 1

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1

    def type(self, text: str) -> None:
        """Type on the keypad, one key per character."""
        for char in text:
            self.press(char)

    @property
    def total(self) -> int:
        return self.taps + self.keys


class Network:
    """The home Wi-Fi between a phone and the server, as a switch: a TCP relay on a loopback
    port of its own. Off, it drops every open connection and every new one (the phone still
    believes it is online; the server just does not answer); on, it relays again. The same for
    any engine, since it needs nothing from the browser."""

    def __init__(self, server_url: str) -> None:
        self.target = ("127.0.0.1", int(server_url.rsplit(":", 1)[1]))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.up = True
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                phone, _ = self.listener.accept()
            except OSError:
                return  # closed
            if not self.up:
                phone.close()
                continue
            try:
                server = socket.create_connection(self.target)
            except OSError:  # the server already stopped (a test's end): dropped, as off
                phone.close()
                continue
            with self.lock:
                self.open |= {phone, server}
            for source, sink in ((phone, server), (server, phone)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with self.lock:
                    self.open.discard(end)
                with suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()

    def off(self) -> None:
        self.up = False
        with self.lock:
            ends = list(self.open)
        for end in ends:
            with suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def on(self) -> None:
        self.up = True

    def close(self) -> None:
        self.off()
        self.listener.close()
