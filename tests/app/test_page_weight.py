"""Page weight: each page's HTML plus the stylesheets and scripts it loads stays within 30 KB,
and within 10 KB as sent to a browser that accepts gzip. Sizes, not timings: exact and steady.

bench/page_weight.py reports the same figures in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from factories import PAGE_BUDGET, fullest_pages
from flask import Flask
from flask.testing import FlaskClient

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = [pytest.mark.shared_app, pytest.mark.one_database]

GZIP = {"Accept-Encoding": "gzip"}


@dataclass
class Weight:
    raw: int  # HTML + CSS + JS, uncompressed
    sent: int  # the same, as sent (gzip where the response is compressed)
    files: list[str]


def fetch(client: FlaskClient, url: str) -> tuple[bytes, int]:
    """A response's body uncompressed, and how many bytes it took as sent."""
    response = client.get(url, headers=GZIP)
    assert response.status_code in (200, 404), url
    body = response.get_data()
    if response.headers.get("Content-Encoding") == "gzip":
        return gzip.decompress(body), len(body)
    return body, len(body)


def weigh(client: FlaskClient, url: str) -> Weight:
    html, sent = fetch(client, url)
    page = html.decode()
    files = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page)
    files += re.findall(r'<script src="([^"]+)"', page)
    raw = len(html)
    for file in files:
        body, size = fetch(client, file)
        raw += len(body)
        sent += size
    return Weight(raw, sent, files)


@pytest.fixture
def pages(app: Flask) -> dict[str, str]:
    return fullest_pages(app.test_client())


@pytest.fixture
def weights(app: Flask, pages: dict[str, str], make_app: Callable[..., Flask]) -> dict[str, Weight]:
    client = app.test_client()
    found = {name: weigh(client, url) for name, url in pages.items()}
    locked = make_app(PASSPHRASE="tiles on the table").test_client()
    found["Sign in (passphrase set)"] = weigh(locked, "/sign-in")
    return found


def test_every_page_is_within_its_budget(weights: dict[str, Weight]) -> None:
    for name, weight in weights.items():
        raw, sent = PAGE_BUDGET
        assert weight.raw <= raw, f"{name}: {weight.raw} bytes, over {raw} ({weight.files})"
        assert weight.sent <= sent, f"{name}: {weight.sent} bytes sent, over {sent}"
        assert any("/app." in file and file.endswith(".css") for file in weight.files), name
        if name != "Not found (404)":  # Flask-Compress compresses 2xx answers only
            assert weight.sent < weight.raw / 2, name  # sent compressed
