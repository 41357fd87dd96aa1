"""Static files under fingerprinted names kept a year, compressed responses (web/assets.py)."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_script_words import read_js

from scorekeeper.web.assets import BUNDLES, FOREVER, joiner, on_demand, shelf
from scorekeeper.web.security import HEADERS

pytestmark = pytest.mark.one_database

STATIC = Path(__file__).resolve().parents[2] / "scorekeeper" / "static"
FINGERPRINTED = re.compile(r"/static/[\w/.-]+\.[0-9a-f]{10}\.\w+(#[\w-]+)?")  # an icon: #its-symbol
GZIP = {"Accept-Encoding": "gzip"}
# Absolute URLs that name no place to fetch: XML namespaces.
NAMESPACES = ("http://www.w3.org/",)


def create(client: FlaskClient) -> int:
    """A session with a round of tiles, so every page has something on it."""
    created = client.post(
        "/api/v1/sessions",
        json={"players": ["Ann", "Bo", "Cy"], "rules": {"seconds_per_turn": 60}},
    )
    sid = created.json["id"]
    added = client.post(
        f"/api/v1/sessions/{sid}/rounds",
        json={"ending": "went_out", "winner": "Ann", "racks": {"Bo": ["r7", "j"], "Cy": 12}},
    )
    assert added.status_code == 201, added.json
    return sid


def page_urls(sid: int) -> list[str]:
    return [
        "/",
        "/sessions/new",
        f"/sessions/{sid}",
        f"/sessions/{sid}/rounds/new",
        f"/sessions/{sid}/rounds/1/edit",
        f"/sessions/{sid}/rounds/1/delete",
        f"/sessions/{sid}/summary",
        f"/sessions/{sid}/clock",
        "/tools/check",
        "/players",
        "/access",
    ]


def static_references(page: str) -> list[str]:
    """Every /static/ URL a page names in an attribute."""
    return re.findall(r'(?:src|href)="(/static/[^"]*)"', page)


# ---- Fingerprinted names, kept a year. -----------------------------------------------------


def test_pages_name_static_files_only_by_fingerprint(client: FlaskClient) -> None:
    sid = create(client)
    seen: set[str] = set()
    for url in page_urls(sid):
        page = client.get(url).get_data(as_text=True)
        references = static_references(page)
        assert any("/static/app." in ref and ref.endswith(".css") for ref in references), url
        for ref in references:
            assert FINGERPRINTED.fullmatch(ref), (url, ref)
        seen.update(references)
    for ref in seen:
        response = client.get(ref)
        assert response.status_code == 200, ref
        assert response.headers["Cache-Control"] == FOREVER, ref
    assert "vendor" not in " ".join(seen)  # axe-core is for the tests, never a page's


def test_a_fingerprinted_file_is_kept_a_year_and_an_unknown_digest_is_404(
    client: FlaskClient,
) -> None:
    page = client.get("/").get_data(as_text=True)
    url = re.search(r'href="(/static/app\.([0-9a-f]{10})\.css)"', page)
    assert url
    response = client.get(url[1])
    assert response.status_code == 200
    assert response.mimetype == "text/css"
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert response.headers["ETag"] == f'"{url[2]}"'
    for header, value in HEADERS.items():  # the security headers stay
        assert response.headers[header] == value
    other = "0" * 10 if url[2] != "0" * 10 else "1" * 10
    assert client.get(f"/static/app.{other}.css").status_code == 404
    assert client.get("/static/nothing.0123456789.css").status_code == 404
    again = client.get(url[1], headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_the_plain_name_is_the_file_as_written_never_kept(client: FlaskClient) -> None:
    for name in ("app.css", "app.js", "icons/icon-192.png", "vendor/axe/axe.min.js"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200, name
        assert response.headers["Cache-Control"] == "no-cache", name
        assert response.get_data() == (STATIC / name).read_bytes(), name
    assert client.get("/static/no-such-file.css").status_code == 404


def test_stylesheets_and_scripts_are_served_minified_with_every_string_kept(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        assets = shelf(app).assets
    scripts = [name for name in assets if name.endswith(".js") and name not in BUNDLES]
    assert "app.js" in scripts and "round.js" in scripts
    for name, found in assets.items():
        served = client.get(f"/static/{found.fingerprinted}").get_data()
        assert served == found.body, name
        if name in BUNDLES:  # the scripts of a page that go together, served as one file
            parts = [assets[part].body for part in BUNDLES[name]]
            assert served == joiner(name).join(parts), name
            continue
        source = (STATIC / name).read_bytes()
        if name.endswith((".css", ".js")):
            assert len(served) < len(source) * 0.95, name  # comments and spaces are gone
            assert b"/*" not in served, name
        else:
            assert served == source, name
    for name in scripts:
        # The minifier takes out spaces and comments and the English fallbacks of t() and tn()
        # (the page's words are in its block, or come before a script fetched on demand),
        # nothing else: the same strings (every key looked up, every other string), and the
        # same code token for token.
        written_code, written = read_js((STATIC / name).read_text(encoding="utf-8"))
        served_code, served = read_js(assets[name].body.decode())
        expected = ["" if lit.role == "fallback" else lit.text for lit in written]
        assert [lit.text for lit in served] == expected, name
        assert re.sub(r"\s+", "", served_code) == re.sub(r"\s+", "", written_code), name
    assert b'round_saving",""' in assets["round.js"].body  # "Saving…" is the page's word


def test_a_changed_file_gets_a_new_fingerprint(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    before = re.search(r"/static/app\.\w+\.css", client.get("/").get_data(as_text=True))
    static = tmp_path / "static"
    (static / "icons").mkdir(parents=True)
    for name in ("app.js", "icons/icon.svg", "icons/icon-192.png", "icons/sprite.svg"):
        (static / name).write_bytes((STATIC / name).read_bytes())
    (static / "app.css").write_text("body { color: red; }")
    app.static_folder = str(static)
    after = re.search(r"/static/app\.\w+\.css", client.get("/").get_data(as_text=True))
    assert before and after and before[0] != after[0]
    assert client.get(after[0]).get_data() == b"body{color:red}"
    assert client.get(before[0]).status_code == 404


def test_a_second_app_takes_the_shelf_read_by_the_first_until_a_file_changes(
    make_app: Callable[..., Flask], tmp_path: Path
) -> None:
    """An app made later in the process (a test's, or a server's) neither reads nor tokenizes
    the scripts again, nor compiles the templates again, while they are as they were; a file
    changed since is read again."""
    static = tmp_path / "static"
    static.mkdir()
    (static / "app.css").write_text("body { color: red; }")
    first, second, third = make_app(), make_app(), make_app()
    for made in (first, second, third):
        made.static_folder = str(static)
    with first.app_context():
        read = shelf()
    with second.app_context():
        assert shelf() is read
    # Templates too are compiled once a process (Jinja compiles a changed one again).
    assert second.jinja_env.bytecode_cache is first.jinja_env.bytecode_cache is not None
    (static / "app.css").write_text("body { color: blue; }")
    with third.app_context():
        again = shelf()
    assert again is not read
    assert again.assets["app.css"].body == b"body{color:blue}"


def test_each_page_carries_only_the_words_its_scripts_show(client: FlaskClient) -> None:
    sid = create(client)

    def words(url: str) -> dict[str, str]:
        page = client.get(url).get_data(as_text=True)
        block = re.search(r'<script type="application/json" id="js-messages">(.*?)</script>', page)
        assert block, url
        return json.loads(block[1])

    assert words("/") == {}  # app.js looks up no words
    on_the_form = words(f"/sessions/{sid}/rounds/new")
    assert "round_saving" in on_the_form and "keypad_tiles" in on_the_form
    assert "offline_saved" in on_the_form and "checker_valid" not in on_the_form
    # "Keep the screen on" brings its words with its script, at its first tap (awake.js).
    assert set(words(f"/sessions/{sid}")) == {"live_change"}


# ---- Compressed responses. -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "mimetype"),
    [
        ("/sessions/{sid}", "text/html"),
        ("/api/v1/openapi.json", "application/json"),
        ("/sessions/{sid}/chart.svg", "image/svg+xml"),
        ("/manifest.webmanifest", "application/manifest+json"),
        ("/sw.js", "application/javascript"),
        ("/static/app.css", "text/css"),
    ],
)
def test_a_gzip_accepting_client_gets_gzip(client: FlaskClient, path: str, mimetype: str) -> None:
    url = path.format(sid=create(client))
    plain = client.get(url)
    packed = client.get(url, headers=GZIP)
    assert plain.status_code == packed.status_code == 200, url
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert packed.mimetype == mimetype
    assert "Accept-Encoding" in packed.headers["Vary"]
    body = gzip.decompress(packed.get_data())
    if mimetype == "text/html":  # a form's CSRF token is signed afresh on each page
        body, plain_body = (
            re.sub(rb'name="csrf_token" value="[^"]*"', b"", b) for b in (body, plain.get_data())
        )
    else:
        plain_body = plain.get_data()
    assert body == plain_body
    assert len(packed.get_data()) < len(plain_body) * 0.6
    assert int(packed.headers["Content-Length"]) == len(packed.get_data())
    for header, value in HEADERS.items():
        assert packed.headers[header] == value, header


def test_the_fingerprinted_files_are_compressed(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    for url in re.findall(r'(?:src|href)="(/static/[^"]+\.(?:css|js))"', page):
        response = client.get(url, headers=GZIP)
        assert response.headers["Content-Encoding"] == "gzip", url
        assert response.headers["Cache-Control"] == FOREVER, url
        assert gzip.decompress(response.get_data()) == client.get(url).get_data(), url


def test_small_answers_and_other_encodings_are_left_alone(client: FlaskClient) -> None:
    assert "Content-Encoding" not in client.get("/healthz", headers=GZIP).headers
    png = client.get("/static/icons/icon-192.png", headers=GZIP)
    assert "Content-Encoding" not in png.headers  # a PNG is compressed already
    asked = client.get("/api/v1/openapi.json", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in asked.headers


def test_the_session_etag_and_304_hold_when_compressed(client: FlaskClient) -> None:
    sid = create(client)
    first = client.get(f"/api/v1/sessions/{sid}", headers=GZIP)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert etag.startswith('W/"')  # weak: the same tag whatever the encoding
    assert json.loads(gzip.decompress(first.get_data()))["id"] == sid
    again = client.get(f"/api/v1/sessions/{sid}", headers={**GZIP, "If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == etag
    plain = client.get(f"/api/v1/sessions/{sid}", headers={"If-None-Match": etag})
    assert plain.status_code == 304


def test_the_history_export_still_streams_when_compressed(client: FlaskClient) -> None:
    create(client)
    plain = client.get("/export.csv").get_data()
    # As a browser asks over plain http: gzip, chunk by chunk, a stream any client reads.
    asked = {"Accept-Encoding": "gzip, deflate"}
    streamed = client.get("/export.csv", headers=asked, buffered=False)
    assert streamed.is_streamed
    assert streamed.headers["Content-Encoding"] == "gzip"
    assert "Content-Length" not in streamed.headers
    chunks = list(streamed.response)
    streamed.close()
    assert gzip.decompress(b"".join(chunks)) == plain  # text/csv: compressed too
    assert plain.startswith("\ufeff".encode())


# ---- Nothing from another host. -------------------------------------------------------------


def test_no_page_names_another_host(client: FlaskClient) -> None:
    sid = create(client)
    for url in page_urls(sid):
        page = client.get(url).get_data(as_text=True)
        texts = [page] + [
            client.get(ref).get_data(as_text=True)
            for ref in static_references(page)
            if ref.endswith((".css", ".js"))
        ]
        for text in texts:
            for found in re.finditer(r"""["'(=]\s*((?:https?:)?//[^"'\s)]+)""", text):
                absolute = found[1]
                assert absolute.startswith(("http://localhost/", *NAMESPACES)), (url, absolute)


def test_only_scripts_the_worker_keeps_words_for_are_fetched_on_demand(app: Flask) -> None:
    """A script named by `on_demand` must be in ON_DEMAND, or a phone offline would open it
    without its words (the service worker keeps those of ON_DEMAND only)."""
    with app.test_request_context(headers={"Accept-Language": "pl"}):
        urls = on_demand("round_keypad.js", "keypad.css").split(" ")
        assert len(urls) == 3  # the keypad's words in the page's language, then the files
        assert re.fullmatch(r"/static/words/pl/round_keypad\.[0-9a-f]{10}\.js", urls[0])
        assert re.fullmatch(r"/static/round_keypad\.[0-9a-f]{10}\.js", urls[1])
        assert re.fullmatch(r"/static/keypad\.[0-9a-f]{10}\.css", urls[2])
        with pytest.raises(LookupError):
            on_demand("round.js")  # a script with words, not kept for every language
