"""No English the app writes itself reaches a phone in another language: every page, the chart,
the API's errors, the live notice, the CSV and the scripts' words, read in a pseudo-language.

The pseudo-language's catalogue is built here from messages.pot: each msgstr is its msgid with
every letter made full-width (`Round %(n)s` → `⟦Ｒｏｕｎｄ %(n)s⟧`), so translated text keeps no
plain Latin letter. It takes the code of a language whose own dates, numbers and lists (CLDR,
through Babel) are written in another script (Russian: "вс, 30 нояб. 2025 г.", "А, Б и В";
three plural forms), and the players have Greek names. Any plain Latin letter left on what a
person reads is then English that no catalogue saw: a word built in Python, a date formatted
by hand, a list joined with " and ". The template test (test_i18n.py) reads the templates'
source; this one reads what the app answers, so it also sees the text built in Python.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from factories import let_go, new_session_form, went_out_form, with_tables
from flask import Flask, render_template, request
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.web.i18n import babel

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "scorekeeper" / "translations" / "messages.pot"
PSEUDO = "ru"  # a locale Babel knows, written in Cyrillic, with three plural forms
PSEUDO_NAME = "⟦псевдо⟧"
# The players and what the family types, in Greek: they may appear anywhere.
PLAYERS = ["Άννα", "Βύρων", "Γιάννης", "Δανάη"]
SESSION = "Κυριακή"
NOTES = "Τούρτα από τη Δανάη"
# Tile and card notation reads the same in every language (r12, k13, j, ♦A, hq).
NOTATION = re.compile(r"(?:[krbohsdc]?(?:1[0-3]|[1-9]|[ajqk])|j)", re.IGNORECASE)
# The app's own name, the same in every language.
NAMES = {"Scorekeeper", "Rummikub"}
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9]*")
URL = re.compile(r"https?://[^\s<>\"']+")
PLACEHOLDER = re.compile(
    r"%\([a-z_]+\)[-+ #0-9.]*[sdif]|%[sd%]|<[^>]*>|&[a-z#0-9]+;|\{[^}]*\}|`[^`]*`"
)
# Code is the same in every language: `Authorization: Bearer <passphrase>` in a message.
CODE = re.compile(r"`[^`]*`")
# What this test types that is not a name, shown back as typed in the messages about it, and
# the API's own parameter names ("limit must be a whole number").
TYPED = {"x9", "x1", "nonsense", "nope", "limit"}
READ_ATTRIBUTES = {
    "title",
    "aria-label",
    "alt",
    "placeholder",
    "aria-roledescription",
    "aria-description",
    "data-change",  # the live notice (static/live.js says it)
    "data-title",  # the title a shared summary carries
}


def full_width(text: str) -> str:
    """Every ASCII letter as its full-width twin: Ｒｏｕｎｄ."""
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalpha() else c for c in text)


def pseudo(msgid: str) -> str:
    """The msgid marked and unreadable as English, its placeholders and markup kept."""
    parts: list[str] = []
    at = 0
    for found in PLACEHOLDER.finditer(msgid):
        parts.append(full_width(msgid[at : found.start()]))
        parts.append(found.group())
        at = found.end()
    parts.append(full_width(msgid[at:]))
    return "⟦" + "".join(parts) + "⟧"


@pytest.fixture(scope="module")
def pseudo_translations(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pseudo-language's compiled catalogue, in a translations folder of its own."""
    with POT.open("rb") as handle:
        template = read_po(handle)
    catalogue = Catalog(locale=PSEUDO)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            one, other = message.id
            string: Any = tuple(
                pseudo(one if i == 0 else other) for i in range(catalogue.num_plurals)
            )
        else:
            string = pseudo(message.id)
        catalogue.add(message.id, string, context=message.context)
    folder = tmp_path_factory.mktemp("pseudo") / "translations"
    (folder / PSEUDO / "LC_MESSAGES").mkdir(parents=True)
    with (folder / PSEUDO / "LC_MESSAGES" / "messages.mo").open("wb") as handle:
        write_mo(handle, catalogue)
    return folder


def forget_translations(app: Flask) -> None:
    """Flask-Babel keeps catalogues by language across apps: the pseudo app's (for every
    language: the service worker's words) must not be what another test reads."""
    with app.app_context():
        babel.domain_instance.cache.clear()


def make_pseudo_app(translations: Path, database: Path, **config: Any) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "PASSPHRASE": None,
            "PASSPHRASE_HASH_METHOD": "scrypt:1024:8:1",  # cheap, as in tests/conftest.py
            "BABEL_TRANSLATION_DIRECTORIES": str(translations),
            "EXTRA_LANGUAGES": {PSEUDO: PSEUDO_NAME},
            **config,
        },
        instance_path=str(database.parent / "instance"),
    )


@pytest.fixture
def pseudo_app(pseudo_translations: Path, tmp_path: Path) -> Iterator[Flask]:
    """The app speaking the pseudo-language (and recording every endpoint it answered)."""
    app = make_pseudo_app(pseudo_translations, tmp_path / "pseudo.sqlite")
    forget_translations(app)
    app.config["ANSWERED"] = set()

    @app.after_request
    def note(response: Any) -> Any:
        app.config["ANSWERED"].add(request.endpoint)
        return response

    with with_tables(app):
        yield app
    forget_translations(app)


@pytest.fixture
def phone(pseudo_app: Flask) -> FlaskClient:
    client = pseudo_app.test_client()
    client.set_cookie("lang", PSEUDO)
    return client


# --- Reading what a person reads ------------------------------------------------------------


class Reader(HTMLParser):
    """The text nodes and read attributes of a page or an SVG (styles and scripts skipped, the
    scripts' words block read as JSON); text in an element marked as another language (the
    language switcher's names) is left out: it is that language's on purpose."""

    def __init__(self, page_lang: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_lang = page_lang
        self.found: list[str] = []
        self.words_blocks: list[str] = []
        self._stack: list[tuple[str, bool, bool]] = []  # tag, foreign, skipped

    def _foreign(self) -> bool:
        return any(foreign for _, foreign, _ in self._stack)

    def _skipped(self) -> bool:
        return any(skipped for _, _, skipped in self._stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        lang = values.get("lang")
        foreign = bool(lang) and lang != self.page_lang and tag != "html"
        skipped = tag in ("script", "style", "code")  # code reads the same in any language
        if tag == "script" and values.get("id") == "js-messages":
            skipped = False
            self._in_words = True
        if not (foreign or self._foreign()):
            for name, value in attrs:
                if value and name in READ_ATTRIBUTES:
                    self.found.append(value)
            if tag == "input" and values.get("type") in ("submit", "button", "reset"):
                self.found.append(values.get("value") or "")
            if tag == "meta" and values.get("name") in ("description", "application-name"):
                self.found.append(values.get("content") or "")
        if tag not in ("input", "meta", "link", "br", "img", "hr", "source", "path", "line"):
            self._stack.append((tag, foreign, skipped))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self._stack and self._stack[-1][0] == tag:
            self._stack.pop()

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                break

    def handle_data(self, data: str) -> None:
        if self._stack and self._stack[-1][0] == "script" and getattr(self, "_in_words", False):
            self.words_blocks.append(data)
            self._in_words = False
            return
        if not self._skipped() and not self._foreign() and data.strip():
            self.found.append(data.strip())


def english_in(text: str, allowed: set[str] = frozenset()) -> list[str]:  # type: ignore[assignment]
    """The plain Latin words of a text that are neither notation nor the app's name."""
    text = URL.sub(" ", CODE.sub(" ", text))  # an address (the QR code's) is data, not words
    for data in (*allowed, *TYPED):
        text = text.replace(data, " ")
    return [
        word for word in LATIN.findall(text) if word not in NAMES and not NOTATION.fullmatch(word)
    ]


# A scripts' words block's entries that are data, not words: the locale whose lists the scripts
# join with (web/script_words.py, list_locale: "ru", "en-GB").
DATA_KEYS = {"list_locale"}


def script_words(value: Any) -> list[str]:
    """The texts of a scripts' words block: strings, and each plural's forms (their
    placeholders, which the script fills, left out)."""
    if isinstance(value, dict):
        return [t for k, v in value.items() if k not in DATA_KEYS for t in script_words(v)]
    return [PLACEHOLDER.sub(" ", value)] if isinstance(value, str) else []


class Findings:
    """English found, by where it was found."""

    def __init__(self) -> None:
        self.found: dict[str, list[str]] = {}

    def check(self, where: str, texts: list[str], allowed: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        words = [w for t in texts for w in english_in(t, allowed)]
        if words:
            self.found.setdefault(where, []).extend(words)

    def page(self, where: str, html: str) -> None:
        lang = re.search(r'<html lang="([^"]+)"', html)
        fragment = "<html" not in html  # the live part of the session page
        assert fragment or (lang and lang[1] == PSEUDO), f"{where}: not in the pseudo-language"
        reader = Reader(PSEUDO)
        reader.feed(html)
        reader.close()
        self.check(where, reader.found)
        for block in reader.words_blocks:
            words = json.loads(block)
            self.check(f"{where} (scripts' words)", script_words(words))

    def svg(self, where: str, svg: str) -> None:
        reader = Reader(PSEUDO)
        reader.feed(svg)
        reader.close()
        self.check(where, reader.found)

    def json_messages(self, where: str, body: Any) -> None:
        """Every `message`, `reason` and `reminder` of a JSON answer (codes are for machines)."""
        texts: list[str] = []

        def walk(value: Any) -> None:
            if isinstance(value, dict):
                for key, item in value.items():
                    if key in ("message", "reason", "reminder", "description") and isinstance(
                        item, str
                    ):
                        texts.append(item)
                    else:
                        walk(item)
            elif isinstance(value, list):
                for item in value:
                    walk(item)

        walk(body)
        self.check(where, texts)

    def report(self) -> str:
        return "\n".join(f"{where}: {sorted(set(words))}" for where, words in self.found.items())


# --- Driving the app as a family would -----------------------------------------------------


def form_of(players: list[str], **changes: str) -> dict[str, str]:
    """The new-session form of this evening: named, 2 rounds, a 60-second turn."""
    evening = {"name": SESSION, "rounds": "2", "seconds_per_turn": "60"}
    return new_session_form(players, **(evening | changes))


class Visit:
    """Every answer read, and what it says checked."""

    def __init__(self, phone: FlaskClient, findings: Findings) -> None:
        self.phone = phone
        self.findings = findings
        self.unexpected: list[tuple[str, str, int, int]] = []

    def status(self, method: str, url: str, expected: int | None, got: int) -> None:
        assert got < 500, (method, url, got)
        if expected is not None and got != expected:
            self.unexpected.append((method, url, expected, got, len(self.unexpected)))

    def page(self, method: str, url: str, status: int | None = None, **kw: Any) -> str:
        response = self.phone.open(url, method=method, follow_redirects=True, **kw)
        self.status(method, url, status, response.status_code)
        html = response.get_data(as_text=True)
        self.findings.page(f"{method} {url} → {response.status_code}", html)
        return html

    def api(self, method: str, url: str, status: int, **kw: Any) -> Any:
        response = self.phone.open(url, method=method, **kw)
        self.status(method, url, status, response.status_code)
        body = response.get_json(silent=True)
        if body is not None:
            self.findings.json_messages(f"{method} {url} → {status}", body)
        return body


def test_a_phone_in_another_language_reads_no_english(
    pseudo_app: Flask, phone: FlaskClient
) -> None:
    findings = Findings()
    visit = Visit(phone, findings)
    api = "/api/v1"

    # The first page, a new session refused, then made.
    visit.page("GET", "/", 200)
    visit.page("GET", "/sessions/new", 200)
    visit.page("POST", "/sessions/new", data={"use_preset": "1", **form_of(PLAYERS[:2])})
    visit.page("POST", "/sessions/new", 422, data=form_of([PLAYERS[0], PLAYERS[0]]))
    # Seven names: more than two tile sets seat (six switch to two sets by themselves).
    visit.page("POST", "/sessions/new", 422, data=form_of([*PLAYERS, "Ε", "Ζ", "Η"]))
    created = phone.post("/sessions/new", data=form_of(PLAYERS))
    sid = int(created.headers["Location"].rsplit("/", 1)[1])
    show = f"/sessions/{sid}"

    # Rounds: each way of ending one, refused and saved; a typo to confirm; edit, delete, undo.
    for ending in ("went_out", "pool_empty", "scores"):
        visit.page("GET", f"{show}/rounds/new?ending={ending}", 200)
    visit.page("POST", f"{show}/rounds/new", 422, data=went_out_form(0, {1: "", 2: "x9", 3: "-4"}))
    visit.page("POST", f"{show}/rounds/new", 409, data=went_out_form(0, {1: "200", 2: "5", 3: "5"}))
    visit.page(
        "POST",
        f"{show}/rounds/new",
        422,
        data={
            "ending": "pool_empty",
            "rack_0": "10",
            "rack_1": "10",
            "rack_2": "55",
            "rack_3": "18",
        },
    )
    visit.page(
        "POST",
        f"{show}/rounds/new",
        422,
        data={"ending": "scores", "score_0": "5", "score_1": "5", "score_2": "5", "score_3": "3"},
    )
    visit.page(
        "POST", f"{show}/rounds/new", 200, data=went_out_form(0, {1: "r7 k13 j", 2: "55", 3: "8"})
    )
    visit.page("GET", f"{show}/rounds/1/edit", 200)
    visit.page(
        "POST", f"{show}/rounds/1/edit", 200, data=went_out_form(1, {0: "10", 2: "5", 3: "3"})
    )
    visit.page("POST", f"{show}/rounds/restore", 200)
    visit.page("GET", f"{show}/rounds/1/delete", 200)
    visit.page("POST", f"{show}/rounds/1/delete", 200)
    visit.page("POST", f"{show}/rounds/restore", 200)
    visit.page("POST", f"{show}/rounds/restore", 200)  # nothing left to undo: too late
    visit.page("POST", f"{show}/rounds/new", 200, data=went_out_form(1, {0: "10", 2: "5", 3: "3"}))
    visit.page("GET", show, 200)  # finished: the winners
    visit.page("POST", f"{show}/extend", 200)
    visit.page("GET", f"{show}/table", 200)  # the live part, with what changed

    # The session's other pages: details, rename, notes, the clock, the summary and chart.
    visit.page("GET", f"{show}/details", 200)
    visit.page("POST", f"{show}/rename", 422, data={"position": "1", "name": PLAYERS[0]})
    visit.page("POST", f"{show}/players/1/rename", 200, data={"name": "Βύρωνας"})
    visit.page("POST", f"{show}/notes", 422, data={"notes": "ξ" * 2001})
    visit.page("POST", f"{show}/notes", 200, data={"notes": NOTES})
    visit.page("GET", f"{show}/table", 200)
    visit.page("GET", f"{show}/clock", 200)
    visit.page("POST", f"{show}/clock/seconds", 422, data={"seconds": "99999"})
    visit.page("POST", f"{show}/clock/seconds", 200, data={"seconds": "30"})
    draws = {"drawn_0": "12", "drawn_1": "9", "drawn_2": "12", "drawn_3": "2"}
    visit.page("POST", f"{show}/clock/start", 200, data=draws)
    visit.page(
        "POST", f"{show}/clock/start", 200, data={"drawing": "0,2", "drawn_0": "3", "drawn_2": "5"}
    )
    visit.page("POST", f"{show}/clock/start", 422, data={"drawn_0": "14", "drawn_1": "x"})
    # Who starts, a page of its own: drawn here, and a tile typed wrong.
    visit.page("GET", f"{show}/who-starts", 200)
    visit.page("POST", f"{show}/who-starts", 200, data={**draws, "draw": "for_us"})
    visit.page("POST", f"{show}/who-starts", 422, data={"drawn_0": "14", "drawn_1": "x"})
    visit.page("GET", f"{show}/summary", 200)
    chart = phone.get(f"{show}/chart.svg")
    assert chart.status_code == 200
    findings.svg("chart.svg", chart.get_data(as_text=True))
    empty = phone.post("/sessions/new", data=form_of(PLAYERS[:2], name=""))
    empty_chart = phone.get(empty.headers["Location"] + "/chart.svg").get_data(as_text=True)
    findings.svg("chart.svg of a session with no rounds", empty_chart)
    qr = phone.get(f"{show}/qr.svg")
    assert qr.status_code == 200
    findings.svg("qr.svg", qr.get_data(as_text=True))
    visit.page("GET", empty.headers["Location"], 200)  # named after its day

    # The table checker, the players and their history.
    visit.page("GET", "/tools/check", 200)
    visit.page("GET", f"/tools/check?session={sid}", 200)
    for check, fields in (
        ("set", {"tiles": "r1 r2 b3"}),
        ("set", {"tiles": "r1 r2 x"}),
        ("meld", {"sets": "r10 b10 j\nk1 k2"}),
        ("swap", {"set": "r5 b5 j", "tile": "k5"}),
        ("swap", {"set": "r5 b5 j", "tile": "k9"}),
    ):
        visit.page("POST", "/tools/check", data={"check": check, **fields})
    visit.page("GET", "/", 200)  # the sessions, their players and winners
    visit.page("GET", "/players", 200)
    visit.page("GET", "/players?from=2020-01-01&to=2099-12-31", 200)
    visit.page("GET", "/players?from=nonsense", 400)
    visit.page("GET", "/players/1", 200)
    visit.page("GET", "/access", 200)
    visit.page("POST", "/access", 422, data={"passphrase": "short", "confirm": "other"})

    # Error pages.
    visit.page("GET", "/nothing-here", 404)
    visit.page("POST", "/players", 405)
    visit.page("GET", "/sessions/999", 404)

    # The CSVs: headings, endings and dates in the language.
    for url in (f"{show}/export.csv", "/export.csv"):
        response = phone.get(url)
        assert response.status_code == 200
        rows = list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
        cells = [cell for row in rows for cell in row]
        findings.check(url, cells, allowed={SESSION, NOTES})

    # The API: the live notice's message, and every kind of error.
    doc = visit.api("GET", f"{api}/sessions/{sid}", 200)
    assert doc["last_change"]["message"].startswith("⟦")
    visit.api("GET", f"{api}/sessions", 200)
    body = {"ending": "went_out", "winner": PLAYERS[0], "racks": {p: 5 for p in PLAYERS[1:]}}
    other = visit.api("POST", f"{api}/sessions", 201, json={"players": PLAYERS[:3], "rounds": 1})
    oid = other["id"]
    for status, method, url, kw in (
        (400, "POST", f"{api}/sessions", {"data": "nope", "content_type": "application/json"}),
        (400, "POST", f"{api}/sessions", {"json": [1]}),
        (422, "POST", f"{api}/sessions", {"json": {"players": [PLAYERS[0]]}}),
        (400, "POST", f"{api}/sessions", {"json": {"players": PLAYERS, "rules": {"nope": 1}}}),
        (422, "POST", f"{api}/sessions", {"json": {"players": PLAYERS, "rules": {"tile_sets": 3}}}),
        (422, "POST", f"{api}/sessions", {"json": {"players": [*PLAYERS, "Ε"]}}),
        (404, "GET", f"{api}/sessions/999", {}),
        (404, "GET", f"{api}/nothing", {}),
        (405, "DELETE", f"{api}/sessions", {}),
        (400, "GET", f"{api}/sessions?limit=x", {}),
        (413, "POST", f"{api}/sessions", {"json": {"name": "x" * 70000}}),
        (422, "POST", f"{api}/sessions/{oid}/rounds", {"json": {**body, "racks": {"Βύρων": 5}}}),
        (422, "POST", f"{api}/sessions/{oid}/rounds", {"json": {**body, "winner": "Ω"}}),
        (
            422,
            "POST",
            f"{api}/sessions/{oid}/rounds",
            {"json": {**body, "racks": {"Βύρων": -5, "Γιάννης": 1}}},
        ),
        (
            422,
            "POST",
            f"{api}/sessions/{oid}/rounds",
            {"json": {**body, "racks": {"Βύρων": ["x1"], "Γιάννης": 1}}},
        ),
        (
            422,
            "POST",
            f"{api}/sessions/{oid}/rounds",
            {"json": {**body, "racks": {"Βύρων": ["j", "j", "j"], "Γιάννης": 1}}},
        ),
        (
            409,
            "POST",
            f"{api}/sessions/{oid}/rounds",
            {"json": {**body, "racks": {"Βύρων": 500, "Γιάννης": 1}}},
        ),
        (
            422,
            "POST",
            f"{api}/sessions/{oid}/rounds",
            {"json": {"ending": "scores", "scores": {"Άννα": 5, "Βύρων": 1, "Γιάννης": 1}}},
        ),
        (
            422,
            "POST",
            f"{api}/sessions/{oid}/rounds",
            {"json": {"ending": "pool_empty", "racks": {"Άννα": 5, "Βύρων": 5, "Γιάννης": 9}}},
        ),
        (400, "POST", f"{api}/sessions/{oid}/rounds", {"json": {"ending": "sideways"}}),
        (
            201,
            "POST",
            f"{api}/sessions/{oid}/rounds",
            {"json": {**body, "racks": {"Βύρων": 5, "Γιάννης": 1}}},
        ),
        (
            409,
            "POST",
            f"{api}/sessions/{oid}/rounds",
            {"json": {**body, "racks": {"Βύρων": 5, "Γιάννης": 1}}},
        ),
        (
            409,
            "PUT",
            f"{api}/sessions/{oid}/rounds/1",
            {"json": {**body, "racks": {"Βύρων": 5, "Γιάννης": 1}, "version": 999}},
        ),
        (409, "DELETE", f"{api}/sessions/{oid}/rounds/1?version=999", {}),
        (404, "GET", f"{api}/sessions/{oid}/rounds/9", {}),
        (422, "POST", f"{api}/sessions/{oid}/extend", {"json": {"rounds": 0}}),
        (400, "POST", f"{api}/sessions/{oid}/extend", {"json": {"rounds": "two"}}),
        (200, "POST", f"{api}/rules/set", {"json": {"tiles": ["r1", "b2", "k9"]}}),
        (422, "POST", f"{api}/rules/set", {"json": {"tiles": ["x1"]}}),
        (200, "POST", f"{api}/rules/meld", {"json": {"sets": [["r1", "r2", "r3"]]}}),
        (200, "POST", f"{api}/rules/rack", {"json": {"tiles": ["r7", "j"]}}),
        (422, "POST", f"{api}/rules/rack", {"json": {"tiles": ["j", "j", "j"]}}),
        (200, "POST", f"{api}/rules/swap", {"json": {"set": ["r5", "b5", "j"], "tile": "k5"}}),
        (200, "POST", f"{api}/rules/swap", {"json": {"set": ["r5", "b5", "j"], "tile": "k7"}}),
    ):
        visit.api(method, url, status, **kw)
    visit.api("GET", f"{api}/sessions/{oid}", 200)
    visit.api("GET", f"{api}/sessions/{oid}/rounds/1", 200)
    visit.api("DELETE", f"{api}/sessions/{oid}/rounds/1", 204)

    # What the phone keeps: the manifest, the service worker's offline page, the scripts' words.
    manifest = phone.get("/manifest.webmanifest").get_json()
    findings.check("manifest", [manifest["description"]])
    sw = phone.get("/sw.js").get_data(as_text=True)
    for words in re.findall(rf'"(/static/words/{PSEUDO}/\w+\.[0-9a-f]{{10}}\.js)"', sw):
        script = phone.get(words).get_data(as_text=True)
        prefix = "window.ScorekeeperWords=Object.assign(window.ScorekeeperWords||{},"
        listed = json.loads(script[len(prefix) : -2])
        findings.check(words, script_words(listed))
    with pseudo_app.test_request_context("/", headers={"Cookie": f"lang={PSEUDO}"}):
        findings.page("the offline page", render_template("pwa/offline.html"))
    phone.get("/healthz")
    phone.get("/api/v1/openapi.json")  # the developers' document: English on purpose
    phone.get(f"/static/{'app.css'}")

    assert not visit.unexpected, visit.unexpected
    assert not findings.found, "English on a page of another language:\n" + findings.report()
    # Every page the app has was read (a new page is read here too, or named as exempt).
    answered = pseudo_app.config["ANSWERED"]
    endpoints = {rule.endpoint for rule in pseudo_app.url_map.iter_rules()}
    unread = endpoints - answered - GATE_ENDPOINTS
    assert not unread, f"pages this test never read: {sorted(unread)}"


#: Read by the test of the household gate below.
GATE_ENDPOINTS = {
    "access.sign_in",
    "access.sign_out",
    "access.change",
    "access.remove",
    "access.sign_out_everywhere",
    "i18n.set_language",
}


def test_the_household_gate_speaks_the_phones_language(
    pseudo_translations: Path, tmp_path: Path
) -> None:
    """Signing in, the API's 401 and 429, changing and removing the passphrase."""
    app = make_pseudo_app(pseudo_translations, tmp_path / "gate.sqlite", PASSPHRASE=None)
    forget_translations(app)
    with app.app_context():
        db.create_all()
    try:
        phone = app.test_client()
        phone.set_cookie("lang", PSEUDO)
        findings = Findings()
        visit = Visit(phone, findings)
        secret = "κωδικός-οικογένειας"
        visit.page("POST", "/access", 200, data={"passphrase": secret, "confirm": secret})
        visit.page("POST", "/sign-out", 200)
        visit.page("GET", "/", 200)  # the sign-in page
        visit.page("POST", "/sign-in", 403, data={"passphrase": "λάθος"})
        visit.api("GET", "/api/v1/sessions", 401)
        visit.api("GET", "/api/v1/sessions", 401, headers={"Authorization": "Basic x"})
        visit.api("GET", "/api/v1/sessions", 401, headers={"Authorization": "Bearer λάθος"})
        visit.page("POST", "/sign-in", 200, data={"passphrase": secret, "remember": "y"})
        visit.page("GET", "/access", 200)
        visit.page("POST", "/access/change", 422, data={"current": "λάθος", "passphrase": "x"})
        visit.page("POST", "/access/remove", 422, data={"current": "λάθος"})
        visit.page("POST", "/access/sign-out-everywhere", 200)
        for _ in range(30):
            answer = phone.post("/sign-in", data={"passphrase": "λάθος"})
            if answer.status_code == 429:
                findings.page("POST /sign-in → 429", answer.get_data(as_text=True))
                break
        else:
            pytest.fail("the guess limit never answered 429")
        visit.api("GET", "/api/v1/sessions", 429, headers={"Authorization": "Bearer λάθος"})
        visit.page("POST", "/language", 200, data={"lang": PSEUDO, "next": "/sign-in"})
        assert not visit.unexpected, visit.unexpected
        assert not findings.found, "English on a page of another language:\n" + findings.report()
    finally:
        let_go(app)
        forget_translations(app)


def test_the_reader_finds_english_and_lets_the_rest_be() -> None:
    """The check itself: English words are found, marked text, notation, Greek names and
    another language's own name are not."""
    html = (
        '<html lang="ru"><p title="Round">⟦Ｒｏｕｎｄ 3⟧ r7 k13 j Άννα и Βύρων</p>'
        '<button lang="da">Dansk</button><p>Ann and Bo</p>'
        '<script>var English = 1;</script><div data-change="Notes changed"></div></html>'
    )
    findings = Findings()
    findings.page("sample", html)
    assert findings.found == {"sample": ["Round", "Ann", "and", "Bo", "Notes", "changed"]}
    assert pseudo("Round %(n)s of <b>%(m)s</b>") == "⟦Ｒｏｕｎｄ %(n)s ｏｆ <b>%(m)s</b>⟧"
