"""What a phone downloads: static files under fingerprinted names, minified, and compressed
responses; a script fetched on demand brings its own words (/static/words/<lang>/)."""

from __future__ import annotations

import hashlib
import json
import mimetypes
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import rcssmin
import rjsmin
from flask import Flask, Response, abort, current_app, g, request, url_for
from flask_babel import force_locale
from flask_compress import Compress
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.web.i18n import current_locale, languages
from scorekeeper.web.script_words import English, handed, merged, words_in

#: A year, the longest a cache is asked to keep anything: the name changes with the bytes.
FOREVER = "public, max-age=31536000, immutable"
DIGEST_LENGTH = 10
FINGERPRINTED = re.compile(
    rf"(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})(?P<suffix>\.\w+)"
)
# A number's leading zero in a stylesheet ("0.5rem" -> ".5rem"), after a separator.
LEADING_ZERO = re.compile(r"(?<=[\s:,(/-])0\.(?=\d)")
# Vendored test tools (axe-core) are never part of a page: served as they are, not listed.
NOT_ASSETS = ("vendor",)
# In a minified script, a t() call's key and English fallback, or a tn() call's key and its
# English one and other: the fallbacks are left out of what is served (`without_fallbacks`).
_LITERAL = r"(?:\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*')"
# (Spaces too: rjsmin leaves the code inside a template literal's ${...} as written.)
FALLBACK = re.compile(rf"(?<![\w.$])(t\(\s*\"[a-z][a-z0-9_]*\"\s*,\s*){_LITERAL}")
PLURAL_FALLBACK = re.compile(
    rf"(?<![\w.$])(tn\(\s*\"[a-z][a-z0-9_]*\"\s*,\s*){_LITERAL}\s*,\s*{_LITERAL}"
)
# Files that always go together on a page, served as one: the bundle's name -> its files, in
# order (lists.js before the scripts using it; tiles.js is fetched on demand, at the first tile).
BUNDLES: dict[str, tuple[str, ...]] = {
    f"round_form_{ending}.js": (
        "fetch_files.js",
        "lists.js",
        "round.js",
        f"round_{ending}.js",
        "offline.js",
    )
    for ending in ("went_out", "pool_empty", "scores")
}
# The styles of the round page and of every page with a form: every page's, then the fields'
# and the round form's (which the session page fetches only with a round entered in place).
BUNDLES["app.form.css"] = ("app.css", "entry.css")
# The other pages with a form: the fields, then what those pages have of their own.
BUNDLES["app.pages.css"] = ("app.css", "entry.css", "table.css", "pages.css")
# The session page's and the summary's: every page's, then the table's (one gzip stream).
BUNDLES["app.live.css"] = ("app.css", "table.css", "live.css")
# What the session page fetches to show a round entered in place: the fields, then its card.
BUNDLES["entry_in_place.css"] = ("entry.css", "in_place.css")
# The table checker: what it fetches on demand, the tile notation its keypad writes, then the
# checker itself.
BUNDLES["checker_page.js"] = ("fetch_files.js", "tiles.js", "checker.js")
# Who starts: the list joining (who draws again), then the draw; the turn clock adds itself.
BUNDLES["who_starts_page.js"] = ("lists.js", "who_starts.js")
BUNDLES["clock_page.js"] = ("lists.js", "who_starts.js", "clock.js")
# The round entry in place on the session page, fetched at the first tap on a round (or at
# once when this phone keeps a draft of the session's next round): the entry, then the drafts.
BUNDLES["entry_in_place.js"] = ("entry.js", "draft.js")
# Each tile keypad, fetched at its first opening: the keys of a tile keypad and the tiles'
# names (tile_keys.js), then the round form's keypad or the checker's.
BUNDLES["round_keypad.js"] = ("tile_keys.js", "keypad.js")
BUNDLES["checker_keypad_page.js"] = ("tile_keys.js", "checker_keypad.js")
# Scripts pages fetch only when first needed, by `on_demand` (the round entry in place, the
# keypads, the typo question...): their words are served per language, /static/words/<lang>/.
ON_DEMAND = (
    "entry.js",
    "entry_in_place.js",
    "tiles.js",
    "round_keypad.js",
    "checker_keypad_page.js",
    "offline_send.js",
    "awake.js",
    "round_typo.js",
    *(name for name in BUNDLES if name.startswith("round_form_")),
)
WORDS = re.compile(
    rf"words/(?P<lang>[a-z]{{2}})/(?P<stem>[\w-]+)\.(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})\.js"
)
# Compressed: pages, JSON, stylesheets, scripts, SVG and CSV; not images already compressed.
EXTRA_MIMETYPES = ("text/csv",)


@dataclass(frozen=True)
class Asset:
    """One static file as served: its bytes (minified for CSS and JS) and their digest."""

    name: str  # relative to static/, e.g. "icons/icon.svg"
    body: bytes
    digest: str
    mimetype: str
    words: Mapping[str, English]  # the words a script looks up (web/script_words.py)

    @property
    def fingerprinted(self) -> str:
        """The name with the digest before the suffix: `app.css` -> `app.<digest>.css`."""
        stem, dot, suffix = self.name.rpartition(".")
        return f"{stem}.{self.digest}.{suffix}" if dot else f"{self.name}.{self.digest}"


def without_fallbacks(script: str) -> str:
    """A minified script's t() and tn() calls with their keys only: `t("key","English",...)`
    becomes `t("key","",...)`."""
    script = FALLBACK.sub(r'\1""', script)
    return PLURAL_FALLBACK.sub(r'\1"",""', script)


def served_bytes(path: Path) -> bytes:
    """The file as a browser gets it: stylesheets and scripts minified, the rest as is."""
    if path.suffix == ".css":
        # rcssmin keeps the zero of 0.5rem; a number's leading zero is one byte of every few.
        css = rcssmin.cssmin(path.read_text(encoding="utf-8"))
        return LEADING_ZERO.sub(".", css).encode()
    if path.suffix == ".js":
        return without_fallbacks(rjsmin.jsmin(path.read_text(encoding="utf-8"))).encode()
    return path.read_bytes()


def read_asset(static: Path, path: Path) -> Asset:
    body = served_bytes(path)
    words = words_in(path.read_text(encoding="utf-8")) if path.suffix == ".js" else {}
    return Asset(
        name=path.relative_to(static).as_posix(),
        body=body,
        digest=hashlib.sha256(body).hexdigest()[:DIGEST_LENGTH],
        mimetype=mimetypes.guess_type(path.name)[0] or "application/octet-stream",
        words=words,
    )


def joiner(name: str) -> bytes:
    """What goes between the parts of a bundle: a stylesheet's rules follow on, a script ends."""
    return b"\n" if name.endswith(".css") else b";\n"


def bundle(name: str, parts: list[Asset]) -> Asset:
    """Scripts (or stylesheets) joined into one, in order; each part is a whole script (its own
    closure) or a whole stylesheet."""
    body = joiner(name).join(part.body for part in parts)
    return Asset(
        name=name,
        body=body,
        digest=hashlib.sha256(body).hexdigest()[:DIGEST_LENGTH],
        mimetype=parts[0].mimetype,
        words=merged(part.words for part in parts),
    )


@dataclass(frozen=True)
class Shelf:
    """Every asset of one static folder, read once per process (again in debug mode when a
    file changes, so an edited stylesheet shows on reload)."""

    folder: str
    signature: tuple[tuple[str, int, int], ...]
    assets: dict[str, Asset]


# The shelf last read of each static folder: an app made later in the process (a test's, or a
# server's second app) takes it while its files are unchanged, instead of reading and
# tokenizing every script again (a quarter of a second).
_READ: dict[str, Shelf] = {}


def _files(static: Path) -> list[Path]:
    return sorted(
        path
        for path in static.rglob("*")
        if path.is_file() and not any(p in NOT_ASSETS for p in path.relative_to(static).parts)
    )


def _signature(files: list[Path]) -> tuple[tuple[str, int, int], ...]:
    return tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in files)


def shelf(app: Flask | None = None) -> Shelf:
    """The assets of the app's static folder."""
    # (a LocalProxy method its type hints leave out)
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    folder = app.static_folder or ""
    kept: Shelf | None = app.extensions.get("scorekeeper.assets")
    if kept is not None and kept.folder == folder and not app.debug:
        return kept
    files = _files(Path(folder))
    signature = _signature(files)
    if kept is None or kept.folder != folder or kept.signature != signature:
        kept = _READ.get(folder)
    if kept is None or kept.signature != signature:
        assets = {asset.name: asset for asset in (read_asset(Path(folder), p) for p in files)}
        for name, parts in BUNDLES.items():
            if name not in assets and all(part in assets for part in parts):
                assets[name] = bundle(name, [assets[part] for part in parts])
        kept = _READ[folder] = Shelf(folder, signature, assets)
    app.extensions["scorekeeper.assets"] = kept
    return kept


def asset(name: str) -> str:
    """The fingerprinted URL of a static file (a template global); a script is also noted as
    one this page loads, so the page carries the words it shows (`page_messages`)."""
    found = shelf().assets.get(name)
    if found is None:
        raise LookupError(f"no static file {name!r}")
    if name.endswith(".js"):
        g.setdefault("page_scripts", set()).add(name)
    return url_for("static", filename=found.fingerprinted)


def page_messages() -> dict[str, str | dict[str, str]]:
    """The words the scripts this page loaded look up, in the page's language: the page's
    #js-messages block, rendered after its scripts (see web/script_words.py)."""
    assets = shelf().assets
    return handed(merged(assets[name].words for name in sorted(g.get("page_scripts", ()))))


def page_messages_json() -> Markup:
    """page_messages() as the #js-messages block holds it: JSON safe inside <script>, letters
    such as é as they are (not \\u escapes), no spaces after its commas and colons."""
    return htmlsafe_json_dumps(
        page_messages(), ensure_ascii=False, sort_keys=True, separators=(",", ":")
    )


def words_of(name: str, lang: str) -> Asset:
    """The words an on-demand script looks up, in `lang`, as a script that adds them to
    `window.ScorekeeperWords`, where t() (static/app.js) finds them; kept per process."""
    script = shelf().assets[name]
    kept: dict[tuple[str, str, str], Asset] = current_app.extensions.setdefault(
        "scorekeeper.words", {}
    )
    key = (name, script.digest, lang)
    if key not in kept:
        with force_locale(lang):
            words = handed(script.words)
        listed = json.dumps(words, ensure_ascii=False, sort_keys=True)
        body = f"window.ScorekeeperWords=Object.assign(window.ScorekeeperWords||{{}},{listed});"
        data = body.encode()
        kept[key] = Asset(
            name=f"words/{lang}/{name}",
            body=data,
            digest=hashlib.sha256(data).hexdigest()[:DIGEST_LENGTH],
            mimetype="text/javascript",
            words={},
        )
    return kept[key]


def on_demand(*names: str) -> str:
    """The fingerprinted URLs of files a page fetches only when first needed, for a data-
    attribute (space-separated, in order): each script after its words in the page's language."""
    urls = []
    for name in names:
        found = shelf().assets.get(name)
        if found is None:
            raise LookupError(f"no static file {name!r}")
        if found.words:
            if name not in ON_DEMAND:
                raise LookupError(f"{name!r} is not in ON_DEMAND (the service worker keeps those)")
            words = words_of(name, current_locale())
            urls.append(url_for("static", filename=words.fingerprinted))
        urls.append(url_for("static", filename=found.fingerprinted))
    return " ".join(urls)


def kept_a_year(found: Asset) -> BaseResponse:
    """An asset's bytes under its fingerprinted name: they never change, so kept a year."""
    response = Response(found.body, mimetype=found.mimetype)
    response.headers["Cache-Control"] = FOREVER
    response.set_etag(found.digest)
    return response.make_conditional(request)


def static_file(filename: str) -> BaseResponse:
    """The `static` endpoint: a fingerprinted name is the asset (or an on-demand script's words),
    kept a year; a wrong digest is 404; a plain name is the file as written, no-cache."""
    words = WORDS.fullmatch(filename)
    if words and words["lang"] in languages():
        name = f"{words['stem']}.js"
        if name in ON_DEMAND and name in shelf().assets:
            found = words_of(name, words["lang"])
            if found.digest != words["digest"]:
                abort(404)
            return kept_a_year(found)
    named = FINGERPRINTED.fullmatch(filename)
    if named:
        asset = shelf().assets.get(named["stem"] + named["suffix"])
        if asset is not None:
            if asset.digest != named["digest"]:
                abort(404)
            return kept_a_year(asset)
    response = current_app.send_static_file(filename)
    response.headers["Cache-Control"] = "no-cache"
    return response


def init_app(app: Flask) -> None:
    """Serve static files through `static_file`, give templates `asset()`, `on_demand()` and
    `page_messages()`, and compress responses as the client accepts."""
    app.view_functions["static"] = static_file
    app.jinja_env.globals.update(
        asset=asset,
        on_demand=on_demand,
        page_messages=page_messages,
        page_messages_json=page_messages_json,
    )
    app.config.setdefault(
        "COMPRESS_MIMETYPES",
        [
            "text/html",
            "text/css",
            "text/plain",
            "text/javascript",
            "application/javascript",
            "application/json",
            "application/manifest+json",
            "image/svg+xml",
            *EXTRA_MIMETYPES,
        ],
    )
    # Streamed responses (the history CSV, files under their plain names): chunk by chunk, gzip
    # included, which Flask-Compress leaves out by default (docs/DESIGN.md 1).
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["zstd", "br", "gzip", "deflate"])
    # Registered before the other after-request hooks, so it runs after them, on the final body.
    app.extensions["compress"] = Compress(app)
