"""The chart's legend writes every name out whole (issue #25): long names wrap, never cut."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from contract import SIX_LONG_NAMES
from flask.testing import FlaskClient

pytestmark = pytest.mark.one_database

SVG = "{http://www.w3.org/2000/svg}"
API = "/api/v1"
SIX = SIX_LONG_NAMES


def _six_long_names(client: FlaskClient) -> int:
    response = client.post(
        f"{API}/sessions", json={"players": SIX, "rules": {"tile_sets": 2}, "rounds": 3}
    )
    sid = response.get_json()["id"]
    racks = {name: 10 + i for i, name in enumerate(SIX[1:])}
    body = {"ending": "went_out", "winner": SIX[0], "racks": racks}
    assert client.post(f"{API}/sessions/{sid}/rounds", json=body).status_code == 201
    return sid


def _names(svg: ET.Element) -> list[str]:
    """Each legend name as read: its lines (tspans) joined by a space."""
    return [
        " ".join(" ".join(text.itertext()).split())
        for text in svg.iter(f"{SVG}text")
        if text.get("class") == "chart-name"
    ]


def test_the_legend_writes_six_long_names_out_whole(client: FlaskClient) -> None:
    sid = _six_long_names(client)
    svg = ET.fromstring(client.get(f"/sessions/{sid}/chart.svg").get_data(as_text=True))
    assert _names(svg) == SIX
    assert "…" not in "".join(svg.itertext())
    # The accessible text names everyone whole too.
    desc = next(svg.iter(f"{SVG}desc")).text or ""
    assert all(name in desc for name in SIX)


def test_the_page_keeps_the_place_of_a_legend_that_wraps(client: FlaskClient) -> None:
    """The <img> on the page is as tall as the drawing, wrapped names and all."""
    sid = _six_long_names(client)
    svg = ET.fromstring(client.get(f"/sessions/{sid}/chart.svg").get_data(as_text=True))
    short = client.post(
        f"{API}/sessions",
        json={"players": ["A", "B", "C", "D", "E", "F"], "rules": {"tile_sets": 2}},
    )
    short_svg = ET.fromstring(
        client.get(f"/sessions/{short.get_json()['id']}/chart.svg").get_data(as_text=True)
    )
    assert int(svg.get("height")) > int(short_svg.get("height"))  # the wrapped lines
    page = client.get(f"/sessions/{sid}/summary").get_data(as_text=True)
    img = re.search(r'<img src="[^"]*chart\.svg[^"]*" width="(\d+)" height="(\d+)"', page)
    assert img and int(img.group(2)) == int(svg.get("height"))
