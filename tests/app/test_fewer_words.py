"""Fewer words (issue #25): one line of help over the racks, the notation folded under it,
distinct names for typing and tapping tiles, plain names for the downloads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from factories import new_session
from flask.testing import FlaskClient

from scorekeeper.web.script_words import merged, words_in

pytestmark = pytest.mark.one_database

API = "/api/v1"


def _racks(page: str) -> str:
    start = page.index('<fieldset class="racks">')
    return page[start : page.index("</fieldset>", start)]


def test_the_rack_help_is_one_line_and_the_notation_folds(client: FlaskClient) -> None:
    sid = new_session(client, ["Ann", "Bo", "Cy"])
    for url in (f"/sessions/{sid}/rounds/new", f"/sessions/{sid}/rounds/new?fragment=1"):
        racks = _racks(client.get(url).get_data(as_text=True))
        assert "typed in letters" not in racks
        shown = re.sub(r"<details.*</details>", "", racks, flags=re.S)
        assert re.findall(r'<p class="hint">([^<]*)</p>', shown) == ["Leave the winner's blank."]
        folded = re.search(r'<details class="hint"><summary>([^<]*)</summary>\s*([^<]*)', racks)
        assert folded and folded.group(1) == "Tiles in letters"
        assert folded.group(2).startswith("r7 k13 j (k black, r red, b blue, o orange, j joker)")
        assert "Type tiles with the letter keyboard" in racks  # without scripts: a link


def test_cards_fold_their_own_notation(client: FlaskClient) -> None:
    sid = new_session(client, ["Ann", "Bo", "Cy"], rules={"played_with": "cards"})
    racks = _racks(client.get(f"/sessions/{sid}/rounds/new").get_data(as_text=True))
    folded = re.search(r"<summary>([^<]*)</summary>\s*([^<]*)", racks)
    assert folded and folded.group(1) == "Cards in letters"
    assert folded.group(2).startswith("h7 sK dA j (s spades, h hearts")


def test_typing_and_tapping_tiles_have_names_of_their_own() -> None:
    static = Path(__file__).resolve().parents[2] / "scorekeeper" / "static"
    words = merged(words_in(path.read_text(encoding="utf-8")) for path in static.glob("*.js"))
    typing = words["round_type_tiles"]
    tapping = [words[key] for key in ("keypad_tiles", "keypad_cards")]
    assert typing == "Type letters (abc)"
    assert tapping == ["Tap tiles", "Tap cards"]
    assert str(words["keypad_tiles_for"]).startswith("Tap tiles")


def test_the_downloads_say_what_they_are(client: FlaskClient) -> None:
    sid = new_session(client, ["Ann", "Bo", "Cy"])
    body = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 5, "Cy": 9}}
    assert client.post(f"{API}/sessions/{sid}/rounds", json=body).status_code == 201
    summary = client.get(f"/sessions/{sid}/summary").get_data(as_text=True)
    assert "Chart as a picture (SVG)</a>" in summary and "Download the chart" not in summary
    page = client.get(f"/sessions/{sid}").get_data(as_text=True)
    assert "Table for a spreadsheet (CSV)</a>" in page and "Download CSV" not in page
    home = client.get("/").get_data(as_text=True)
    assert "Every round for a spreadsheet (CSV)</a>" in home
