"""Where a page may send the phone next: only to a path on this site, never elsewhere."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import url_for


def safe_next(target: str | None) -> str:
    """A relative path on this site to go to, or the home page: never an open redirect."""
    home = url_for("sessions.home")
    if not target or not target.startswith("/") or target.startswith("//"):
        return home
    if "\\" in target or any(ord(c) < 33 or ord(c) == 127 for c in target):
        return home
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or parts.path.startswith(url_for("access.sign_in")):
        return home
    return target
