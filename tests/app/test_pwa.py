"""Installable and resilient: the manifest, its icons, the service worker and offline.js."""

from __future__ import annotations

import json
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.assets import BUNDLES

pytestmark = pytest.mark.one_database

STATIC = Path(__file__).resolve().parents[2] / "scorekeeper" / "static"
TEMPLATES = STATIC.parent / "templates"


def fingerprinted(name: str) -> str:
    """A pattern for the fingerprinted URL of a static file (web/assets.py)."""
    stem, suffix = name.rsplit(".", 1)
    return rf"/static/{re.escape(stem)}\.[0-9a-f]{{10}}\.{suffix}"


def png_size(body: bytes) -> tuple[int, int]:
    """Width and height of a PNG, after checking its signature and its header's checksum."""
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", body[8:16])
    assert kind == b"IHDR" and length == 13
    header = body[16:29]
    (crc,) = struct.unpack(">I", body[29:33])
    assert crc == zlib.crc32(kind + header)
    width, height = struct.unpack(">II", header[:8])
    return width, height


def test_the_manifest_describes_an_installable_app(client: FlaskClient) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    # Its description is in the phone's language, which the language cookie chooses too.
    assert {"Accept-Language", "Cookie"} <= set(re.split(r",\s*", response.headers["Vary"]))
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] == "Scorekeeper"
    assert manifest["short_name"] == "Scorekeeper"
    assert manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    for colour in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest[colour])

    sizes = {}
    for icon in manifest["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200, icon["src"]
        body = got.get_data()
        if icon["type"] == "image/png":
            width, height = png_size(body)
            assert icon["sizes"] == f"{width}x{height}"
            sizes[width] = icon["src"]
        else:
            assert icon["type"] == "image/svg+xml" and icon["sizes"] == "any"
            assert ET.fromstring(body).tag == "{http://www.w3.org/2000/svg}svg"
            sizes["svg"] = icon["src"]
    assert set(sizes) == {192, 512, "svg"}


def test_the_icons_are_committed_files() -> None:
    assert png_size((STATIC / "icons" / "icon-192.png").read_bytes()) == (192, 192)
    assert png_size((STATIC / "icons" / "icon-512.png").read_bytes()) == (512, 512)


def test_the_service_worker_is_served_at_the_root(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "application/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    script = response.get_data(as_text=True)
    assert "<" not in script.split("const OFFLINE_PAGE")[0]  # no HTML leaked into the code

    shell = json.loads(re.search(r"const SHELL_FILES = (\[.*?\]);", script)[1])
    for wanted in (
        "app.css",
        "app.js",
        "round_form_went_out.js",
        "round_keypad.js",
        "keypad.css",
        "offline_send.js",
        "words/en/round_keypad.js",
        "icons/icon-192.png",
    ):
        assert any(re.fullmatch(fingerprinted(wanted), url) for url in shell), wanted
    assert any(re.fullmatch(fingerprinted("icons/icon.svg"), url) for url in shell)
    assert not any("vendor" in url for url in shell)  # axe-core is for the tests only
    for url in shell:
        assert client.get(url).status_code == 200, url
    # An older page's fingerprint finds the file's current one through its plain URL.
    current = json.loads(re.search(r"const CURRENT = (\{.*?\});", script)[1])
    assert sorted(current.values()) == sorted(shell)
    assert all(
        re.fullmatch(fingerprinted(plain.removeprefix("/static/")), url)
        for plain, url in current.items()
    )

    offline_page = json.loads(re.search(r"const OFFLINE_PAGE = (\".*?\");\n", script)[1])
    assert "<h1>No network</h1>" in offline_page
    assert "<script" not in offline_page


def test_the_worker_keeps_the_words_of_the_pages_language(client: FlaskClient) -> None:
    """The words of the scripts fetched on demand, in the language of the pages only: a page
    registers the worker with its language, and a French page's worker keeps French words (its
    offline page in French) and no other language's; another worker than an English page's (a
    language picked in the footer installs it at the next page). Without one, the phone's."""
    french_page = client.get("/", headers={"Accept-Language": "fr"}).text
    assert 'data-sw="/sw.js?lang=fr"' in french_page
    words = re.compile(r"/static/words/(\w+)/")
    version = re.compile(r'const VERSION = "([0-9a-f]+)";')
    kept, versions = {}, {}
    for asked, headers in (
        ("/sw.js?lang=en", {}),
        ("/sw.js?lang=fr", {}),
        ("/sw.js", {"Accept-Language": "fr"}),
        ("/sw.js?lang=xx", {}),
    ):
        script = client.get(asked, headers=headers).text
        shell = re.search(r"const SHELL_FILES = (\[.*?\]);", script)[1]
        kept[asked] = set(words.findall(shell))
        offline_page = json.loads(re.search(r"const OFFLINE_PAGE = (\".*?\");\n", script)[1])
        assert f'<html lang="{min(kept[asked])}">' in offline_page, asked
        versions[asked] = version.search(script)[1]
    assert kept == {
        "/sw.js?lang=en": {"en"},
        "/sw.js?lang=fr": {"fr"},
        "/sw.js": {"fr"},
        "/sw.js?lang=xx": {"en"},
    }
    assert versions["/sw.js?lang=en"] != versions["/sw.js?lang=fr"]
    vary = client.get("/sw.js").headers["Vary"]
    assert "Accept-Language" in vary and "Cookie" in vary


def test_the_worker_changes_when_the_shell_does(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    first = client.get("/sw.js").get_data(as_text=True)
    assert first == client.get("/sw.js").get_data(as_text=True)
    static = tmp_path / "static"
    static.mkdir()
    (static / "app.css").write_text("body { color: red; }")
    app.static_folder = str(static)
    changed = client.get("/sw.js").get_data(as_text=True)
    version = re.compile(r'const VERSION = "([0-9a-f]+)";')
    assert version.search(first)[1] != version.search(changed)[1]


def test_pages_link_the_manifest_and_register_the_worker(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert re.search(rf'<script src="{fingerprinted("app.js")}" data-sw="/sw.js\?lang=en">', page)
    assert '<meta name="theme-color"' in page
    base = (TEMPLATES / "base.html").read_text(encoding="utf-8")
    assert "pwa.web_manifest" in base


def test_the_round_form_loads_offline_js(client: FlaskClient) -> None:
    created = client.post("/api/v1/sessions", json={"players": ["Ann", "Bo"]})
    page = client.get(f"/sessions/{created.json['id']}/rounds/new").get_data(as_text=True)
    # offline.js comes with round.js and the ending's preview, as one file (BUNDLES); it
    # fetches offline_send.js (after its words) once rounds are kept on this phone.
    assert BUNDLES["round_form_went_out.js"][-1] == "offline.js"
    sending = rf"{fingerprinted('words/en/offline_send.js')} {fingerprinted('offline_send.js')}"
    assert re.search(
        rf'<script src="{fingerprinted("round_form_went_out.js")}" data-probe="/healthz" '
        rf'data-send="{sending}" defer></script>',
        page,
    )
    # No inline script anywhere (the CSP forbids it): every script tag has a src, but for the
    # JSON data block of the scripts' messages (data, never run).
    assert all(
        "src=" in tag or tag == '<script type="application/json" id="js-messages">'
        for tag in re.findall(r"<script[^>]*>", page)
    )
    assert 'name="key"' in page  # the idempotency key that makes a resend harmless


def test_axe_is_vendored_with_its_licence_and_never_served_to_pages(client: FlaskClient) -> None:
    axe = STATIC / "vendor" / "axe"
    assert (axe / "axe.min.js").stat().st_size > 100_000
    assert "Mozilla Public License" in (axe / "LICENSE").read_text(encoding="utf-8")
    readme = (axe / "README.md").read_text(encoding="utf-8")
    version = re.search(r"axe-core (\d+\.\d+\.\d+)", readme)
    assert (
        version and f"axe v{version[1]}" in (axe / "axe.min.js").read_text(encoding="utf-8")[:300]
    )
    for template in TEMPLATES.rglob("*.html"):
        assert "vendor" not in template.read_text(encoding="utf-8"), template


def test_the_manifest_and_worker_are_open_behind_a_passphrase(
    make_app: Callable[..., Flask],
) -> None:
    locked = make_app(PASSPHRASE="tiles on the table").test_client()
    assert locked.get("/").status_code == 302  # the pages need the passphrase
    assert locked.get("/manifest.webmanifest").status_code == 200
    assert locked.get("/sw.js").status_code == 200
    assert locked.get("/static/icons/icon-512.png").status_code == 200
