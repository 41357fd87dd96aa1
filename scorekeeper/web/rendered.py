"""Rendered session pages and documents, kept per session version.

Every phone at the table polls and reloads the same session; between two rounds nothing in it
changes. So each worker process keeps what it last rendered, keyed by the session's stamp (its
id, when it was created and its version: every write moves the version on, in the same
transaction). A request reads the stamp (one small query) and, when the key is known, answers
with the kept text: correct across workers and processes, because the stamp comes from the
database, never from memory. What differs per phone is kept out of the key or out of the text:
the CSRF token is put back per request, the language and the sign-in state are part of the key,
and a page with a flash message or an Undo is rendered afresh.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

from flask import current_app, g, session
from flask_wtf.csrf import generate_csrf

# Stands for the phone's CSRF token in a kept page; never appears in a page of its own.
CSRF_MARK = "\x00csrf-token\x00"
# Pages and documents kept per worker: a few evenings' worth (a page is 10-60 KB).
KEPT = 256
EXTENSION = "scorekeeper.rendered"


class Kept:
    """A small least-recently-used store, safe across a worker's threads."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, object] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> object | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: Hashable, value: object) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


def kept() -> Kept:
    """This app's store (one per app: tests with their own app start empty)."""
    store = current_app.extensions.get(EXTENSION)
    if store is None:
        store = current_app.extensions.setdefault(EXTENSION, Kept())
    return store  # type: ignore[no-any-return]


def kept_document(key: Hashable, build: Callable[[], tuple[Hashable, bytes]]) -> bytes:
    """The document kept under `key`, or `build()`'s (its own key, its bytes), kept."""
    store = kept()
    found = store.get(key)
    if isinstance(found, bytes):
        return found
    own_key, body = build()
    store.put(own_key, body)
    return body


def personal() -> bool:
    """Whether this request's page shows something for this phone only (a flash message)."""
    return bool(session.get("_flashes"))


def kept_page(key: Hashable, render: Callable[[], tuple[Hashable, str]]) -> str:
    """The page kept under `key` with this phone's CSRF token put in, or `render()`'s page
    (with its own key: the version it was drawn from), kept without the token."""
    store = kept()
    found = None if personal() else store.get(key)
    if isinstance(found, str):
        return found.replace(CSRF_MARK, phone_token()) if CSRF_MARK in found else found
    shareable = not personal()  # asked first: drawing the page takes its flash messages
    phone_token()  # the token the page is drawn with: the one the kept page will be given
    own_key, page = render()
    token = g.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
    if shareable:
        store.put(own_key, page.replace(token, CSRF_MARK) if token else page)
    return page


# How long a worker reuses a phone's signed CSRF token. Signing it (an HMAC over a timestamp)
# is the dearest part of answering with a kept page; the app's tokens carry no time limit
# (WTF_CSRF_TIME_LIMIT is None), so one signed a minute ago is as good as a new one.
TOKEN_REUSE_S = 60.0
SIGNED = "scorekeeper.signed_tokens"


def phone_token() -> str:
    """This phone's CSRF token (Flask-WTF's), signed at most a minute ago by this worker."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    signed: dict[str, tuple[float, str]] = current_app.extensions.setdefault(SIGNED, {})
    raw = session.get(field)
    now = time.monotonic()
    found = signed.get(raw) if isinstance(raw, str) else None
    if found is not None and now - found[0] < TOKEN_REUSE_S:
        setattr(g, field, found[1])  # where generate_csrf looks first, for the rest of the request
        return found[1]
    token = generate_csrf()
    if len(signed) >= KEPT * 16:  # phones come and go: start again rather than grow
        signed.clear()
    signed[session[field]] = (now, token)
    return token
