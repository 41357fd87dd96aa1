"""Installable and resilient: the web app manifest and the service worker, both at the root."""

from __future__ import annotations

import hashlib
import json

from flask import Blueprint, Response, render_template, request, url_for
from flask_babel import force_locale, gettext

from scorekeeper.web.assets import ON_DEMAND, Asset, shelf, words_of
from scorekeeper.web.i18n import LANGUAGE_VARY, current_locale, languages

bp = Blueprint("pwa", __name__)

THEME_COLOUR = "#0d5c75"  # static/app.css --accent
BACKGROUND_COLOUR = "#f3eee4"  # --paper
# The app shell: what a phone keeps so an open session survives a Wi-Fi blip. Vendored test
# tools (axe-core) are never part of it (web/assets.py leaves them out).
SHELL_SUFFIXES = (".css", ".js", ".png", ".svg")


def manifest() -> dict[str, object]:
    """The manifest as a dict: names, start URL, standalone display, colours, icons."""
    icon = "icons/icon-{}.png"
    return {
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": gettext("Keeps the score of Rummikub played with real tiles."),
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
    body = json.dumps(manifest(), indent=2, ensure_ascii=False)
    response = Response(body, mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Vary"] = LANGUAGE_VARY  # its description is in the phone's language
    return response


def shell_files(lang: str) -> list[Asset]:
    """The app shell's static files, in a stable order, and the words in `lang` of each script
    fetched on demand (docs/DESIGN.md: the worker keeps the pages' language)."""
    assets = shelf().assets
    files = [found for name, found in sorted(assets.items()) if name.endswith(SHELL_SUFFIXES)]
    return files + [words_of(name, lang) for name in ON_DEMAND if name in assets]


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker (never cached itself), in the language a page registers it with
    (`?lang=`), else the phone's: docs/DESIGN.md says what it keeps and serves."""
    lang = request.args.get("lang", "")
    if lang not in languages():
        lang = current_locale()
    with force_locale(lang):
        script = _worker_script(lang)
    response = Response(script, mimetype="application/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Vary"] = LANGUAGE_VARY  # without `?lang=`, the phone's language's
    return response


def _worker_script(lang: str) -> str:
    files = shell_files(lang)
    digest = hashlib.sha256()
    for found in files:
        digest.update(f"{found.name}:{found.digest}\n".encode())
    current = {
        url_for("static", filename=found.name): url_for("static", filename=found.fingerprinted)
        for found in files
    }
    return render_template(
        "pwa/sw.js",
        version=digest.hexdigest()[:16],
        shell=list(current.values()),
        current=current,
        static_prefix=url_for("static", filename=""),
        sign_out=url_for("access.sign_out"),
        sessions=url_for("sessions.show", session_id=0).removesuffix("0") + "*",
        offline_page=render_template("pwa/offline.html"),
    )
