"""Installable and resilient: the web app manifest and the service worker, both at the root.

The service worker must be served from `/sw.js` (not /static/) so that its scope is the whole
app; it is rendered with the list of app-shell files and a version made of their contents, so
a changed stylesheet or script installs a new worker that caches the new files.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, url_for

bp = Blueprint("pwa", __name__)

THEME_COLOUR = "#0b57d0"
BACKGROUND_COLOUR = "#ffffff"
# The app shell: what a phone keeps so an open session survives a Wi-Fi blip.
SHELL_SUFFIXES = (".css", ".js", ".png", ".svg")
# Vendored test tools (axe-core) are never part of the shell.
NOT_SHELL = ("vendor",)


def manifest() -> dict[str, object]:
    """The manifest as a dict: names, start URL, standalone display, colours, icons."""
    icon = "icons/icon-{}.png"
    return {
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": "Keeps the score of Rummikub played with real tiles.",
        "start_url": url_for("sessions.home"),
        "scope": url_for("sessions.home"),
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            *(
                {
                    "src": url_for("static", filename=icon.format(size)),
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": "any maskable",
                }
                for size in (192, 512)
            ),
            {
                "src": url_for("static", filename="icons/icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
            },
        ],
    }


@bp.get("/manifest.webmanifest")
def web_manifest() -> Response:
    """The web app manifest, so the phone can add Scorekeeper to its home screen."""
    response = Response(json.dumps(manifest(), indent=2), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


def shell_files() -> list[Path]:
    """The static files of the app shell, in a stable order."""
    static = Path(current_app.static_folder or "")
    return sorted(
        path
        for path in static.rglob("*")
        if path.is_file()
        and path.suffix in SHELL_SUFFIXES
        and not any(part in NOT_SHELL for part in path.relative_to(static).parts)
    )


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker: caches the shell, serves pages network-first with the last good
    copy as fallback. Never cached itself, so a new version is picked up at once."""
    static = Path(current_app.static_folder or "")
    files = shell_files()
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(static).as_posix().encode())
        digest.update(path.read_bytes())
    script = render_template(
        "pwa/sw.js",
        version=digest.hexdigest()[:16],
        shell=[url_for("static", filename=p.relative_to(static).as_posix()) for p in files],
        static_prefix=url_for("static", filename=""),
        sign_out=url_for("access.sign_out"),
        offline_page=render_template("pwa/offline.html"),
    )
    response = Response(script, mimetype="application/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response
