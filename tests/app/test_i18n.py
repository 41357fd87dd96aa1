"""Languages: every string a person reads is marked and extracted, the catalogues are full, and
the page speaks the phone's language (its browser's, or the one picked in the footer)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.dates import format_skeleton
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from factories import new_session
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import Environment, nodes

from scorekeeper.web.forms.rounds import DeleteRoundForm
from scorekeeper.web.i18n import LANGUAGES, babel

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = [pytest.mark.shared_app, pytest.mark.one_database]

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
TEMPLATES = ROOT / "scorekeeper" / "templates"
CATALOGUE_LANGUAGES = sorted(code for code in LANGUAGES if code != "en")
YEAR = 365 * 24 * 60 * 60


def _msgids(pot: Path) -> set[tuple[str | None, object]]:
    with pot.open("rb") as handle:
        catalog = read_po(handle)
    return {(message.context, message.id) for message in catalog if message.id}


# --- (a) every string is marked, and extracted into the committed messages.pot ---------------


def test_committed_template_holds_every_marked_string(tmp_path: Path) -> None:
    """A string marked in the code but missing from messages.pot: `make messages` was not run."""
    fresh = tmp_path / "messages.pot"
    CommandLineInterface().run(
        ["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), "--no-location"]
        + ["-o", str(fresh), str(ROOT)]
    )
    extracted = _msgids(fresh)
    assert len(extracted) > 300  # the extraction really ran over the templates and the code
    missing = extracted - _msgids(TRANSLATIONS / "messages.pot")
    assert not missing, "run `make messages`; not in messages.pot: " + "; ".join(
        repr(msgid) for _, msgid in sorted(missing, key=repr)[:20]
    )


# Text that reads the same in every language: symbols, arrows, separators, numbers.
UNTRANSLATABLE = re.compile(r"^[\s\d★⚠×←→·—–…:;,.()#+\-−%/|]*$")
# Attributes a person reads (or hears, from a screen reader).
READ_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder", "aria-roledescription"}
GETTEXT_CALLS = {"_", "gettext", "ngettext", "pgettext", "npgettext", "lazy_gettext"}
# Tile and card notation (r12, k13, j, ♦A, hq) is the same in every language.
NOTATION = re.compile(r"^(?:[krbohsdc♦♥♠♣]?(?:1[0-3]|[1-9]|[ajqk])|j)$", re.IGNORECASE)
# Names in the template code, not words on the page.
CODE_NAMES = {"BooleanField"}


class _TextScanner(HTMLParser):
    """Collects the text nodes and read attributes of a page (scripts and styles skipped)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value and not UNTRANSLATABLE.match(value):
                self.found.append(f'{name}="{value}"')

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and not _is_notation(data):
            self.found.append(data.strip())


def _is_notation(text: str) -> bool:
    """Symbols and numbers only, or tiles written in notation ("r7 k13 j")."""
    if UNTRANSLATABLE.match(text):
        return True
    words = re.sub(r"[\s★⚠×←→·—–…:;,.()#+\-−%/|]+", " ", text).split()
    return all(word.isdigit() or NOTATION.match(word) for word in words)


def _page_text_outside_gettext(source: str) -> list[str]:
    """The HTML of a template with every {{ }} and {% %} replaced by a mark without letters and
    every {% trans %} block removed: any letters left are text nobody marked."""
    html: list[str] = []
    in_trans = 0
    tag: list[str] = []
    in_tag = False
    for _, kind, value in Environment(extensions=["jinja2.ext.i18n"]).lex(source):
        if kind in ("block_begin", "variable_begin"):
            in_tag, tag = True, []
            continue
        if kind == "block_end":
            name = tag[0] if tag else ""
            if name == "trans":
                in_trans += 1
            elif name == "endtrans":
                in_trans -= 1
            in_tag = False
            if not in_trans:
                html.append("\x00")
            continue
        if kind == "variable_end":
            in_tag = False
            if not in_trans:
                html.append("\x00")
            continue
        if in_tag:
            if kind == "name":
                tag.append(value)
            continue
        if kind == "data" and not in_trans:
            html.append(value)
    scanner = _TextScanner()
    scanner.feed("".join(html).replace("\x00", "0"))
    scanner.close()
    return scanner.found


def _looks_like_words(text: str) -> bool:
    """A string constant in template code that a person would read: words, not a CSS class,
    an id, an attribute value or tile notation."""
    bare = re.sub(r"<[^>]*>|%s|%\([a-z_]+\)s", " ", text)
    if text in CODE_NAMES or _is_notation(bare):
        return False
    return bool(re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", bare) or re.match(r"^[A-Z][a-z]+", bare))


def _string_constants_outside_gettext(source: str) -> list[str]:
    """String constants in {{ }} / {% %} code (button labels, hints passed to macros) that are
    not the argument of a gettext call."""
    tree = Environment(extensions=["jinja2.ext.i18n"]).parse(source)
    marked: set[int] = set()
    for call in tree.find_all(nodes.Call):
        if isinstance(call.node, nodes.Name) and call.node.name in GETTEXT_CALLS:
            marked.update(id(arg) for arg in call.args)
    return [
        const.value
        for const in tree.find_all(nodes.Const)
        if isinstance(const.value, str)
        and id(const) not in marked
        and _looks_like_words(const.value)
    ]


def _templates() -> Iterator[Path]:
    return iter(sorted(TEMPLATES.rglob("*.html")))


@pytest.mark.parametrize(
    "template", list(_templates()), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_template_shows_no_unmarked_text(template: Path) -> None:
    """Every text node and read attribute is in _() or {% trans %}; so is every string constant."""
    source = template.read_text(encoding="utf-8")
    unmarked = _page_text_outside_gettext(source) + _string_constants_outside_gettext(source)
    assert not unmarked, f"mark these for translation in {template.name}: {unmarked}"


def test_the_scanner_finds_unmarked_text() -> None:
    """The scanner itself: plain text, a title, a constant passed as a hint are all caught."""
    source = (
        "<h1>Players</h1><abbr title=\"Round\">#</abbr>{{ row(f, hint='Leave it blank.') }}"
        "<p>{{ _('Fine') }} ★ 12 · {% trans %}Also fine{% endtrans %}</p>"
        "<input placeholder=\"{{ 'j r12 r13' }}\">{{ 'secondary' if x }}"
    )
    assert _page_text_outside_gettext(source) == ["Players", 'title="Round"']
    assert _string_constants_outside_gettext(source) == ["Leave it blank."]


def test_sw_js_shows_nothing_but_the_offline_page() -> None:
    """The service worker's only words are the offline page, itself a marked template."""
    source = (TEMPLATES / "pwa" / "sw.js").read_text(encoding="utf-8")
    assert 'render_template("pwa/offline.html")' in (
        ROOT / "scorekeeper" / "web" / "pwa.py"
    ).read_text(encoding="utf-8")
    assert "OFFLINE_PAGE" in source


# --- (b) every catalogue is complete --------------------------------------------------------


@pytest.mark.parametrize("language", CATALOGUE_LANGUAGES)
def test_catalogue_translates_every_message(language: str) -> None:
    """No empty msgstr and no fuzzy entry in <language>/LC_MESSAGES/messages.po."""
    po = TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as handle:
        catalog = read_po(handle)
    untranslated = [
        message.id
        for message in catalog
        if message.id
        and (
            not message.string
            or (isinstance(message.string, tuple) and not all(message.string))
            or message.fuzzy
        )
    ]
    assert not untranslated, (
        f"{language}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    )


@pytest.mark.parametrize("language", CATALOGUE_LANGUAGES)
def test_catalogue_is_compiled_and_follows_the_template(language: str) -> None:
    """Each language has a catalogue with every msgid of messages.pot, and its compiled .mo
    (committed, so `make run` needs no extra step)."""
    folder = TRANSLATIONS / language / "LC_MESSAGES"
    assert (folder / "messages.mo").is_file()
    assert _msgids(TRANSLATIONS / "messages.pot") <= _msgids(folder / "messages.po")


# --- (c) the language of the page: browser, cookie, switcher ---------------------------------


def _lang(client: FlaskClient, **headers: str) -> str:
    page = client.get("/", headers=headers).get_data(as_text=True)
    found = re.search(r'<html lang="([^"]+)">', page)
    assert found, "no <html lang>"
    return found.group(1)


def test_html_lang_is_english_without_a_preference(client: FlaskClient) -> None:
    assert _lang(client) == "en"
    vary = {value.lower() for value in client.get("/").vary}
    assert {"accept-language", "cookie"} <= vary  # a cache keeps each language apart


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("da", "da"),
        ("da-DK,da;q=0.9,en;q=0.5", "da"),
        ("et-EE", "et"),
        ("fi", "fi"),
        ("fr-CA,fr;q=0.9", "fr"),
        ("pl,en;q=0.8", "pl"),
        ("de-DE,de;q=0.9", "en"),
        ("de,fr;q=0.5", "fr"),
        ("en-GB,da;q=0.5", "en"),
        ("fr-FR,fr;q=0.9,pl;q=0.8", "fr"),
        ("*", "en"),
    ],
)
def test_the_browser_language_picks_the_page_language(
    client: FlaskClient, accept: str, expected: str
) -> None:
    assert _lang(client, **{"Accept-Language": accept}) == expected


def test_the_cookie_overrides_the_browser(client: FlaskClient) -> None:
    client.set_cookie("lang", "pl")
    assert _lang(client, **{"Accept-Language": "da"}) == "pl"
    client.set_cookie("lang", "xx")  # not a language of the app: the browser decides again
    assert _lang(client, **{"Accept-Language": "da"}) == "da"


def test_the_switcher_remembers_the_language_for_a_year(client: FlaskClient) -> None:
    response = client.post("/language", data={"lang": "fi", "next": "/players?from=2025-01-01"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/players?from=2025-01-01"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=fi;")
    assert f"Max-Age={YEAR}" in cookie
    assert "SameSite=Lax" in cookie
    assert _lang(client, **{"Accept-Language": "da"}) == "fi"


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:x", ""]
)
def test_the_switcher_only_goes_back_to_this_site(client: FlaskClient, target: str) -> None:
    response = client.post("/language", data={"lang": "da", "next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_the_switcher_ignores_an_unknown_language(client: FlaskClient) -> None:
    response = client.post("/language", data={"lang": "de", "next": "/"})
    assert response.status_code == 303
    assert "Set-Cookie" not in response.headers
    assert _lang(client) == "en"


def test_every_page_offers_every_language_and_comes_back_to_itself(client: FlaskClient) -> None:
    for path in ("/", "/sessions/new", "/players", "/tools/check", "/nothing-here"):
        page = client.get(path).get_data(as_text=True)
        # The header's language menu: one <details> holding the switcher's form.
        header = page[page.index('<header class="site-header">') : page.index("</header>")]
        footer = header[header.index('<details class="menu" id="language-menu">') :]
        assert 'action="/language"' in footer, path
        for code, name in LANGUAGES.items():
            assert f'name="lang" value="{code}" lang="{code}"' in footer, (path, code)
            assert f">{name}</button>" in footer, (path, name)
        assert f'name="next" value="{path}"' in footer, path
    assert 'value="en" lang="en" aria-current="true"' in client.get("/").text


def test_the_switcher_needs_the_csrf_token(make_app) -> None:  # type: ignore[no-untyped-def]
    guarded = make_app(WTF_CSRF_ENABLED=True).test_client()
    assert guarded.post("/language", data={"lang": "da", "next": "/"}).status_code == 400
    page = guarded.get("/").get_data(as_text=True)
    token = re.search(
        r'id="language"[^>]*>\s*<input type="hidden" name="csrf_token" value="([^"]+)"', page
    )
    assert token
    answer = guarded.post(
        "/language", data={"lang": "da", "next": "/", "csrf_token": token.group(1)}
    )
    assert answer.status_code == 303


# --- the locale's formats, and a translated page end to end ----------------------------------


def test_session_dates_follow_the_locale(client: FlaskClient) -> None:
    new_session(client, ["Ann", "Bo"], name="Sunday")
    today = date.today()
    english = client.get("/").get_data(as_text=True)
    assert f"{today:%a} {today.day} {today:%b %Y}</time>" in english
    client.set_cookie("lang", "fr")
    french = client.get("/").get_data(as_text=True)
    assert f"{format_skeleton('yMMMEd', today, locale='fr')}</time>" in french


def test_numbers_follow_the_locale(app: Flask) -> None:
    template = "{{ 1234567|number }} {{ 2.5|number(1, signed=true) }} {{ -0.25|number(1) }}"
    for accept, expected in (
        ("en", "1,234,567 +2.5 -0.2"),
        ("fr", "1\u202f234\u202f567 +2,5 -0,2"),
        ("da", "1.234.567 +2,5 -0,2"),
    ):
        with app.test_request_context("/", headers={"Accept-Language": accept}):
            assert app.jinja_env.from_string(template).render() == expected


@pytest.fixture
def danish_catalogue(app: Flask, tmp_path: Path) -> Iterator[Path]:
    """A tiny Danish catalogue in a directory of its own, the translation cache cleared around
    the test so no other test sees it."""
    catalog = Catalog(locale="da")
    catalog.add("New session", "Ny spilleaften")
    catalog.add("Players", "Spillere")
    catalog.add("Table checker", "Bordtjek")
    folder = tmp_path / "translations" / "da" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "messages.mo").open("wb") as handle:
        write_mo(handle, catalog)
    babel.domain_instance.cache.clear()
    yield tmp_path / "translations"
    babel.domain_instance.cache.clear()


def test_a_danish_phone_reads_the_templates_in_danish(make_app, danish_catalogue: Path) -> None:  # type: ignore[no-untyped-def]
    client = make_app(BABEL_TRANSLATION_DIRECTORIES=str(danish_catalogue)).test_client()
    danish = client.get("/", headers={"Accept-Language": "da"}).get_data(as_text=True)
    assert '<html lang="da">' in danish
    assert ">Ny spilleaften</a>" in danish
    assert ">Bordtjek</a>" in danish
    english = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert ">New session</a>" in english


DANISH_SHEET_LABELS = [
    "Antal spil brikker",
    "Mindste åbningsmelding",
    "Jokere må hentes fra bordet",
    "Jokerstraf",
    "Sekunder pr. tur",
]


@pytest.mark.parametrize("language", CATALOGUE_LANGUAGES)
def test_the_new_session_page_shows_the_setting_labels_translated(
    client: FlaskClient, language: str
) -> None:
    from babel.messages.pofile import read_po

    from scorekeeper.rules import LABELS

    po = TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as handle:
        catalogue = read_po(handle)
    page = html.unescape(
        client.get("/sessions/new", headers={"Accept-Language": language}).get_data(as_text=True)
    )
    for english in LABELS.values():
        translated = catalogue[english].string
        assert translated and translated != english or language == "en", english
        assert translated in page, (language, english, translated)
    if language == "da":
        for label in DANISH_SHEET_LABELS:
            assert label in page


@pytest.mark.parametrize(("language", "required"), [("pl", "To pole jest wymagane."), ("en", "")])
def test_a_forms_own_wtforms_words_follow_the_phone(
    app: Flask, language: str, required: str
) -> None:
    """WTForms' own messages are read once a process per language (web/forms/common.py), and
    each request still gets its phone's: Polish after English after Polish."""
    for asked in (language, "en", language):
        with app.test_request_context(headers={"Accept-Language": asked}):
            words = DeleteRoundForm().meta.get_translations(DeleteRoundForm())
            said = words.gettext("This field is required.")
        assert said == (required if asked == language and required else "This field is required.")
