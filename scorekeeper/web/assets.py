"""What a phone downloads: static files under fingerprinted names, and compressed responses.

Pages name each stylesheet, script and icon by `asset('app.css')`, a URL carrying a hash of the
bytes served (`/static/app.1a2b3c4d5e.css`), so a phone keeps it for a year and asks again only
when the file changes. Stylesheets and scripts are served minified (comments and spaces out);
the files under static/ stay as written, and their plain URLs still answer, uncached
(`no-cache`), for anything that names them so (the manifest's icons, old bookmarks).
Responses are compressed (Flask-Compress) for clients that accept it.
"""

from __future__ import annotations

import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

import rcssmin
import rjsmin
from flask import Flask, Response, abort, current_app, g, request, url_for
from flask_compress import Compress

#: A year, the longest a cache is asked to keep anything: the name changes with the bytes.
FOREVER = "public, max-age=31536000, immutable"
DIGEST_LENGTH = 10
FINGERPRINTED = re.compile(
    rf"(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})(?P<suffix>\.\w+)"
)
# Vendored test tools (axe-core) are never part of a page: served as they are, not listed.
NOT_ASSETS = ("vendor",)
# A script's words: every t("key", ...) call (see web/js_messages.py).
MESSAGE_KEY = re.compile(r"(?<![\w.$])t\(\s*[\"']([a-z][a-z0-9_]*)[\"']")
# Compressed: pages, JSON, stylesheets, scripts, SVG and CSV; not images already compressed.
EXTRA_MIMETYPES = ("text/csv",)


@dataclass(frozen=True)
class Asset:
    """One static file as served: its bytes (minified for CSS and JS) and their digest."""

    name: str  # relative to static/, e.g. "icons/icon.svg"
    body: bytes
    digest: str
    mimetype: str
    message_keys: frozenset[str]  # the js_messages a script looks up

    @property
    def fingerprinted(self) -> str:
        """The name with the digest before the suffix: `app.css` -> `app.<digest>.css`."""
        stem, dot, suffix = self.name.rpartition(".")
        return f"{stem}.{self.digest}.{suffix}" if dot else f"{self.name}.{self.digest}"


def served_bytes(path: Path) -> bytes:
    """The file as a browser gets it: stylesheets and scripts minified, the rest as is."""
    if path.suffix == ".css":
        return rcssmin.cssmin(path.read_text(encoding="utf-8")).encode()
    if path.suffix == ".js":
        return rjsmin.jsmin(path.read_text(encoding="utf-8")).encode()
    return path.read_bytes()


def read_asset(static: Path, path: Path) -> Asset:
    body = served_bytes(path)
    keys = MESSAGE_KEY.findall(path.read_text(encoding="utf-8")) if path.suffix == ".js" else []
    return Asset(
        name=path.relative_to(static).as_posix(),
        body=body,
        digest=hashlib.sha256(body).hexdigest()[:DIGEST_LENGTH],
        mimetype=mimetypes.guess_type(path.name)[0] or "application/octet-stream",
        message_keys=frozenset(keys),
    )


@dataclass(frozen=True)
class Shelf:
    """Every asset of one static folder, read once per process (again in debug mode when a
    file changes, so an edited stylesheet shows on reload)."""

    folder: str
    signature: tuple[tuple[str, int, int], ...]
    assets: dict[str, Asset]


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
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    folder = app.static_folder or ""
    kept: Shelf | None = app.extensions.get("scorekeeper.assets")
    if kept is not None and kept.folder == folder and not app.debug:
        return kept
    files = _files(Path(folder))
    signature = _signature(files)
    if kept is not None and kept.folder == folder and kept.signature == signature:
        return kept
    assets = {asset.name: asset for asset in (read_asset(Path(folder), p) for p in files)}
    kept = Shelf(folder, signature, assets)
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


def page_messages() -> dict[str, str]:
    """The words the scripts this page loaded look up, in the page's language: the page's
    #js-messages block, rendered after its scripts (see web/js_messages.py)."""
    from scorekeeper.web.js_messages import JS_MESSAGES

    assets = shelf().assets
    keys = set().union(*(assets[name].message_keys for name in g.get("page_scripts", ())))
    return {key: str(text) for key, text in JS_MESSAGES.items() if key in keys}


def static_file(filename: str) -> Response:
    """The `static` endpoint: a fingerprinted name is the asset's bytes, kept a year; a known
    file under an old or wrong digest is 404; a plain name is the file as written, no-cache."""
    named = FINGERPRINTED.fullmatch(filename)
    if named:
        found = shelf().assets.get(named["stem"] + named["suffix"])
        if found is not None:
            if found.digest != named["digest"]:
                abort(404)
            response = Response(found.body, mimetype=found.mimetype)
            response.headers["Cache-Control"] = FOREVER
            response.set_etag(found.digest)
            return response.make_conditional(request)
    response = current_app.send_static_file(filename)
    response.headers["Cache-Control"] = "no-cache"
    return response


def init_app(app: Flask) -> None:
    """Serve static files through `static_file`, give templates `asset()` and
    `page_messages()`, and compress responses: zstd, br, gzip or deflate, as the client
    accepts; a streamed one (the history CSV) chunk by chunk."""
    app.view_functions["static"] = static_file
    app.jinja_env.globals.update(asset=asset, page_messages=page_messages)
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
    # Streamed responses (the history CSV, files under their plain names) are compressed chunk
    # by chunk. Flask-Compress offers gzip for those too (a zlib stream with the gzip header)
    # but leaves it out by default; a browser over plain http accepts only gzip and deflate,
    # and gzip is the one every client reads the same way.
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["zstd", "br", "gzip", "deflate"])
    # Registered before the other after-request hooks, so it runs after them, on the final body.
    app.extensions["compress"] = Compress(app)
