"""The words the scripts under static/ write into the page are translated on the server.

Every script looks its words up with `t("key", "English", {params})` in the `#js-messages`
JSON block that base.html renders; the English in the call is the msgid, read by pybabel and by
`scorekeeper/web/script_words.py` with Babel's JavaScript extractor. These tests read the
scripts a second way (a small reader of their own) and hold the two together, check that every
word is in the catalogue, check the block on the pages, and grep the scripts for words written
into the page without `t()`.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.assets import BUNDLES, ON_DEMAND
from scorekeeper.web.script_words import VALUES, handed, merged, words_in

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = [pytest.mark.shared_app, pytest.mark.one_database]

STATIC = Path(__file__).resolve().parents[2] / "scorekeeper" / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))
BLOCK = re.compile(r'<script type="application/json" id="js-messages">(.*?)</script>', re.S)
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
CATALOGUE = STATIC.parent / "translations" / "messages.pot"
# Every script's words, as the server reads them (key -> English, or a plural's one and other).
WORDS = merged(words_in(path.read_text(encoding="utf-8")) for path in SCRIPTS)


# ---- A small JavaScript reader: string literals apart from the code, comments dropped. ----


def unescape(raw: str) -> str:
    """A JavaScript string literal's body as the characters it stands for."""
    simple = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}
    return re.sub(
        r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)",
        lambda m: chr(int(m[1].strip("u{}x"), 16)) if len(m[1]) > 1 else simple.get(m[1], m[1]),
        raw,
        flags=re.S,
    )


@dataclass
class Literal:
    text: str  # its characters; a template literal's ${...} parts are left out
    line: int
    role: str = ""  # "key" or "fallback" when it is an argument of t()


def read_js(source: str) -> tuple[str, list[Literal]]:
    """The code with each string literal replaced by `⟦n⟧` (n its index in the list) and
    comments removed, and the literals. Regex literals are recognised by the usual rule (a `/`
    where an expression starts)."""
    out: list[str] = []
    literals: list[Literal] = []
    i = 0

    def line_at(pos: int) -> int:
        return source.count("\n", 0, pos) + 1

    def quoted(start: int, quote: str) -> int:
        j = start + 1
        chars: list[str] = []
        while source[j] != quote:
            if source[j] == "\\":
                chars.append(source[j : j + 2])
                j += 2
                continue
            chars.append(source[j])
            j += 1
        literals.append(Literal(unescape("".join(chars)), line_at(start)))
        out.append(f"⟦{len(literals) - 1}⟧")
        return j + 1

    def template(start: int) -> int:
        j = start + 1
        text: list[str] = []
        index = len(literals)
        literals.append(Literal("", line_at(start)))
        out.append(f"⟦{index}⟧")
        while source[j] != "`":
            if source[j] == "\\":
                text.append(unescape(source[j : j + 2]))
                j += 2
            elif source.startswith("${", j):
                j = code(j + 2, stop="}")  # the expression is code like any other
                text.append("\0")
            else:
                text.append(source[j])
                j += 1
        literals[index].text = "".join(text)
        return j + 1

    def code(j: int, stop: str | None = None) -> int:
        depth = 0
        while j < len(source):
            ch = source[j]
            if stop and ch == "}" and depth == 0:
                out.append(" ")
                return j + 1
            if ch in "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if source.startswith("//", j):
                j = source.find("\n", j)
                j = len(source) if j < 0 else j
            elif source.startswith("/*", j):
                j = source.index("*/", j) + 2
                out.append(" ")
            elif ch in "\"'":
                j = quoted(j, ch)
            elif ch == "`":
                j = template(j)
            elif ch == "/" and re.search(r"(^|[(,=:\[!&|?{};])\s*$", "".join(out[-40:])):
                k = j + 1
                in_class = False
                while source[k] != "/" or in_class:
                    if source[k] == "\\":
                        k += 1
                    elif source[k] == "[":
                        in_class = True
                    elif source[k] == "]":
                        in_class = False
                    k += 1
                out.append("/re/")
                j = k + 1
            else:
                out.append(ch)
                j += 1
        return j

    i = code(i)
    masked = "".join(out)
    # Mark the arguments of t(): the key, then the fallback; of tn(): the key, then two.
    for match in re.finditer(r"\bt\(\s*⟦(\d+)⟧\s*,\s*⟦(\d+)⟧", masked):
        literals[int(match[1])].role = "key"
        literals[int(match[2])].role = "fallback"
    for match in re.finditer(r"\btn\(\s*⟦(\d+)⟧\s*,\s*⟦(\d+)⟧\s*,\s*⟦(\d+)⟧", masked):
        literals[int(match[1])].role = "key"
        literals[int(match[2])].role = literals[int(match[3])].role = "fallback"
    return masked, literals


@dataclass
class Call:
    path: str
    line: int
    key: str
    fallback: str | tuple[str, str]  # a plural's (one, other)
    has_params: bool


def t_calls() -> list[Call]:
    calls: list[Call] = []
    for path in SCRIPTS:
        masked, literals = read_js(path.read_text(encoding="utf-8"))
        # Calls, not the helper's own definition (`function t(` or `const t = (`).
        for match in re.finditer(r"(?<![\w.])(?<!function )t\(", masked):
            rest = masked[match.end() :]
            args = re.match(r"\s*⟦(\d+)⟧\s*(?:,\s*⟦(\d+)⟧\s*)?(,\s*\)|,|\))", rest)
            where = f"{path.name}: t({rest[:40]}"
            assert args, f"{where}: t() takes a literal key and a literal English fallback"
            key = literals[int(args[1])]
            if args[2] is None:  # t("list_locale"): a value the server computes, no word
                assert key.text in VALUES, f"{where}: a word needs its English"
                continue
            fallback = literals[int(args[2])]
            has_params = args[3] == ","  # not a trailing comma
            calls.append(Call(path.name, key.line, key.text, fallback.text, has_params))
        # tn(key, one, other, n, params): a plural.
        for match in re.finditer(r"(?<![\w.])(?<!function )tn\(", masked):
            rest = masked[match.end() :]
            args = re.match(r"\s*⟦(\d+)⟧\s*,\s*⟦(\d+)⟧\s*,\s*⟦(\d+)⟧\s*,[^,()]+(,|\))", rest)
            where = f"{path.name}: tn({rest[:40]}"
            assert args, f"{where}: tn() takes a literal key, literal one and other, then n"
            key = literals[int(args[1])]
            plural = (literals[int(args[2])].text, literals[int(args[3])].text)
            calls.append(Call(path.name, key.line, key.text, plural, args[4] == ","))
    return calls


CALLS = t_calls()


def as_handed(app: Flask, lang: str = "en") -> dict[str, Any]:
    """The words as a page in `lang` hands them to the scripts (a plural: its forms)."""
    with app.test_request_context(headers={"Accept-Language": lang}):
        return handed(WORDS)


def texts(value: str | tuple[str, str] | dict[str, str]) -> list[str]:
    if isinstance(value, dict):
        return list(value.values())
    return list(value) if isinstance(value, tuple) else [value]


# ---- The two sides agree. ----


def test_the_scripts_use_t() -> None:
    users = {call.path for call in CALLS}
    for name in ("round.js", "keypad.js", "clock.js", "checker.js", "live.js", "offline_send.js"):
        assert name in users
    assert "tile_keys.js" in users  # the words the keypads share, once
    # The lists' locale: a value the server computes (web/script_words.py VALUES), not a word.
    assert "list_locale" in words_in((STATIC / "lists.js").read_text(encoding="utf-8"))
    assert {"awake_refused"} <= {call.key for call in CALLS if call.path == "awake.js"}
    assert len(CALLS) > 80


def test_the_server_reads_every_call_as_written() -> None:
    """Babel's extractor (web/script_words.py, and pybabel) and this file's reader find the same
    words: each key once, with one English (the served script leaves it out: web/assets.py,
    without_fallbacks)."""
    assert {call.key for call in CALLS} == set(WORDS) - set(VALUES)
    for call in CALLS:
        where = f"{call.path}:{call.line} {call.key}"
        assert call.fallback == WORDS[call.key], where
        assert call.has_params == any(PLACEHOLDER.search(t) for t in texts(call.fallback)), (
            f"{where}: placeholders and params go together"
        )


def test_every_word_is_in_the_catalogue_and_well_formed() -> None:
    with CATALOGUE.open("rb") as file:
        catalogue = read_po(file)
    for key, message in WORDS.items():
        if key in VALUES:
            continue
        found = catalogue.get(message[0] if isinstance(message, tuple) else message)
        assert found is not None, f"{key}: not in messages.pot (make messages)"
        if isinstance(message, tuple):
            assert found.id == message, f"{key}: a plural in the catalogue too"
        assert re.fullmatch(r"[a-z][a-z0-9_]*", key), key
        for text in texts(message):
            assert text.strip(), key
            # Named placeholders only: a translation may move them.
            assert "%" not in PLACEHOLDER.sub("", text), f"{key}: only %(name)s placeholders"
    # A plural is one message with every form, said with tn(): no `_one` / `_other` pairs.
    assert not [key for key in WORDS if key.endswith(("_one", "_other"))]


# ---- The block on the pages. ----


def page_urls(client: FlaskClient) -> list[str]:
    created = client.post(
        "/api/v1/sessions",
        json={"players": ["Ann", "Bo"], "rules": {"seconds_per_turn": 60}},
    )
    assert created.status_code == 201, created.get_data(as_text=True)
    sid = created.json["id"]
    client.post(
        f"/api/v1/sessions/{sid}/rounds",
        json={"ending": "went_out", "winner": "Ann", "racks": {"Bo": 7}},
    )
    client.post(  # a confirmed typo: its edit page asks again (round_typo.js)
        f"/api/v1/sessions/{sid}/rounds",
        json={"ending": "went_out", "winner": "Ann", "racks": {"Bo": 200}, "confirm": True},
    )
    return [
        "/",
        "/sessions/new",
        f"/sessions/{sid}",
        f"/sessions/{sid}/rounds/new",
        f"/sessions/{sid}/rounds/new?ending=pool_empty",
        f"/sessions/{sid}/rounds/new?ending=scores",
        f"/sessions/{sid}/rounds/2/edit",
        f"/sessions/{sid}/clock",
        f"/sessions/{sid}/summary",
        "/tools/check",
    ]


@functools.cache
def keys_in(file: str) -> frozenset[str]:
    """The keys one script looks up (read once a run: Babel's tokenizer is slow)."""
    return frozenset(words_in((STATIC / file).read_text(encoding="utf-8")))


def keys_of(scripts: set[str]) -> set[str]:
    """The keys the named scripts (or the scripts of the named bundles) look up."""
    files = {part for name in scripts for part in BUNDLES.get(name, (name,))}
    return {key for f in files for key in keys_in(f)}


def scripts_of(page: str) -> tuple[set[str], set[str]]:
    """The scripts a page loads (by their fingerprinted names, web/assets.py: app.1a2b3c4d5e.js
    is app.js), and those it fetches on demand (named in a data- attribute), with their words."""
    loaded = {f"{stem}.js" for stem in re.findall(r'<script src="/static/(\w+)\.\w+\.js"', page)}
    named = re.findall(r'data-[\w-]+="([^"]*/static/[^"]*)"', page)
    later = {
        f"{stem}.js"
        for urls in named
        for stem in re.findall(r"(?:^| )/static/(\w+)\.[0-9a-f]{10}\.js", urls)
    }
    return loaded, later


def test_pages_that_load_scripts_carry_the_messages_as_json(
    app: Flask, client: FlaskClient
) -> None:
    expected = as_handed(app)
    loaded: set[str] = set()
    for url in page_urls(client):
        response = client.get(url)
        assert response.status_code == 200, url
        page = response.get_data(as_text=True)
        scripts, later = scripts_of(page)
        assert "app.js" in scripts, url
        assert later <= set(ON_DEMAND), url
        loaded.update(part for name in scripts | later for part in BUNDLES.get(name, (name,)))
        blocks = BLOCK.findall(page)
        assert len(blocks) == 1, url
        # The words of the scripts this page loads, no more: not every page carries them all,
        # and a script fetched on demand brings its own (test_on_demand_scripts_bring_their_words).
        assert json.loads(blocks[0]) == {k: v for k, v in expected.items() if k in keys_of(scripts)}
        # The block comes after every script: each reads it when it runs, once the page is there.
        assert page.rindex("<script src=") < page.index('id="js-messages"'), url
        assert "<" not in blocks[0] and "&" not in blocks[0].replace("\\u0026", ""), url
    users = {call.path for call in CALLS}
    assert users <= loaded, users - loaded


def words_of_page(client: FlaskClient, url: str, lang: str) -> dict[str, str]:
    """The words a page in `lang` carries, and those of the scripts it fetches on demand."""
    page = client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    words = json.loads(BLOCK.search(page)[1])
    for found in re.findall(rf'"?(/static/words/{lang}/\w+\.[0-9a-f]{{10}}\.js)', page):
        script = client.get(found).get_data(as_text=True)
        prefix = "window.ScorekeeperWords=Object.assign(window.ScorekeeperWords||{},"
        assert script.startswith(prefix) and script.endswith(");"), found
        words.update(json.loads(script[len(prefix) : -2]))
    return words


def test_the_block_speaks_the_page_language(client: FlaskClient) -> None:
    sid = client.post("/api/v1/sessions", json={"players": ["Ann", "Bo"]}).json["id"]
    form = f"/sessions/{sid}/rounds/new"
    for lang in ("da", "et", "fi", "fr", "pl"):
        checker = words_of_page(client, "/tools/check", lang)
        assert set(checker) == keys_of({"checker.js", "tile_keys.js", "checker_keypad.js"})
        on_the_form = words_of_page(client, form, lang)
        assert set(on_the_form) == keys_of(
            {"round_form_went_out.js", "tile_keys.js", "keypad.js", "offline_send.js", "entry.js"}
        )
        for key, said in (checker | on_the_form).items():
            if key in VALUES:
                continue
            # A translation keeps the placeholders the script fills, and is one.
            english_text = texts(next(c.fallback for c in CALLS if c.key == key))[-1]
            for text in texts(said):
                assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(english_text)), (
                    lang,
                    key,
                )
        assert on_the_form["keypad_tap_tile"] != next(
            c.fallback for c in CALLS if c.key == "keypad_tap_tile"
        ), lang


def test_on_demand_scripts_bring_their_words(app: Flask, client: FlaskClient) -> None:
    """The tile keypad is fetched when first opened: its words are not in the page, but in a
    script of their own in the page's language, kept a year, which the service worker keeps."""
    sid = client.post("/api/v1/sessions", json={"players": ["Ann", "Bo"]}).json["id"]
    page = client.get(f"/sessions/{sid}/rounds/new", headers={"Accept-Language": "fr"})
    html = page.get_data(as_text=True)
    block = json.loads(BLOCK.search(html)[1])
    assert "keypad_tap_tile" not in block and "keypad_tiles_for" in block  # its button: now
    files = re.search(r'data-keypad="([^"]+)"', html)
    assert files
    # One script: the keys and the tiles' names (tile_keys.js, shared with the checker's
    # keypad), then the keypad; its words before it.
    words, script, styles = files[1].split(" ")
    assert re.fullmatch(r"/static/words/fr/round_keypad\.[0-9a-f]{10}\.js", words)
    assert re.fullmatch(r"/static/round_keypad\.[0-9a-f]{10}\.js", script)
    assert re.fullmatch(r"/static/keypad\.[0-9a-f]{10}\.css", styles)
    response = client.get(words)
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    french = as_handed(app, "fr")["keypad_tap_tile"]
    assert french != "Tap a tile to add it, a chosen tile to take it off."
    assert json.dumps(french, ensure_ascii=False) in response.get_data(as_text=True)
    other = words.replace("/fr/", "/da/")
    assert client.get(other).status_code == 404  # the Danish words have a digest of their own
    for lang in ("en", "da", "et", "fi", "fr", "pl"):  # the worker of a page in each language
        sw = client.get(f"/sw.js?lang={lang}").get_data(as_text=True)
        assert re.search(rf'"/static/words/{lang}/round_keypad\.[0-9a-f]{{10}}\.js"', sw), lang
    assert words in client.get("/sw.js?lang=fr").get_data(as_text=True)


# ---- No words written into the page without t(). ----

# Where a script puts text a person reads: (pattern on the masked code, which arguments).
ASSIGNED = re.compile(
    r"\.(?:textContent|innerHTML|innerText|outerHTML|title|placeholder|ariaLabel)\s*=(?!=)"
    r"|\bariaLabel\s*:"
)
CALLED = {
    # name: the arguments that are text (None: every one)
    "alert": None,
    "confirm": None,
    "prompt": None,
    "status": (0,),  # round.js
    "say": (0,),  # offline.js
    "strong": (0,),  # checker.js
    "showError": (1,),  # clock.js, checker.js
    "show": (1,),  # awake.js: show(on, message)
    "button": (0, 2),  # checker.js: button(text, className, label)
    "insertAdjacentHTML": (1,),
}
TEXT_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "aria-description")
# Literals with letters that are not words for a person: DOM and HTTP names (keys, headers).
ALLOWED = {"Enter", "Escape", "Content-Type", "Accept", "If-None-Match", "Retry-After"}


def bracketed(masked: str, start: int) -> Iterator[tuple[str, int]]:
    """The characters from `start` on, each with its bracket depth, up to the bracket that
    closes the level `start` stands at."""
    depth = 0
    for ch in masked[start:]:
        if ch in ")]}":
            if depth == 0:
                return
            depth -= 1
        yield ch, depth
        if ch in "([{":
            depth += 1


def split_args(masked: str, start: int) -> list[str]:
    """The top-level arguments of the call whose `(` is just before `start`."""
    args = [""]
    for ch, depth in bracketed(masked, start):
        if ch == "," and depth == 0:
            args.append("")
        else:
            args[-1] += ch
    return args


def expression(masked: str, start: int) -> str:
    """From `start` to the end of the expression: a `;`, `,` or closing bracket at depth 0."""
    taken = []
    for ch, depth in bracketed(masked, start):
        if ch in ";," and depth == 0:
            break
        taken.append(ch)
    return "".join(taken)


def words(text: str) -> bool:
    return bool(re.search(r"[^\W\d_]{2}", text))  # a lone letter is tile notation (J, A)


def untranslated(source: str) -> list[str]:
    """Literals with letters written into the page, or shaped like words for a person,
    that do not go through t()."""
    masked, literals = read_js(source)
    found: list[str] = []

    def check(snippet: str, why: str) -> None:
        # A t() call's own literals are fine; so is everything inside its params.
        for index in map(int, re.findall(r"⟦(\d+)⟧", snippet)):
            literal = literals[index]
            if literal.role or literal.text in ALLOWED or not words(literal.text):
                continue
            found.append(f"line {literal.line}: {literal.text!r} ({why})")

    for match in ASSIGNED.finditer(masked):
        check(expression(masked, match.end()), match[0].strip(" =:."))
    for match in re.finditer(r"\bsetAttribute\(\s*⟦(\d+)⟧\s*,", masked):
        if literals[int(match[1])].text in TEXT_ATTRIBUTES:
            check(expression(masked, match.end()), literals[int(match[1])].text)
    for match in re.finditer(r"(?<![\w$])(\w+)\(", masked):
        if match[1] not in CALLED:
            continue
        args = split_args(masked, match.end())
        wanted = CALLED[match[1]]
        for position, arg in enumerate(args):
            if wanted is None or position in wanted:
                check(arg, f"{match[1]}()")
    for match in re.finditer(
        r"\.(?:append|prepend|after|before|replaceChildren|replaceWith)\(", masked
    ):
        args = split_args(masked, match.end())
        for arg in args:
            if re.fullmatch(r"\s*⟦\d+⟧\s*", arg):  # a literal child, not one inside a call
                check(arg, "a text child")
    for match in re.finditer(r"\bel\(", masked):  # checker.js, keypad.js: el(tag, class, ...kids)
        args = split_args(masked, match.end())
        for arg in args[2:]:
            if re.fullmatch(r"\s*⟦\d+⟧\s*", arg):
                check(arg, "a text child")
    # Anywhere: a literal that reads like words (a capitalised word, or a word and a full stop).
    for literal in literals:
        if literal.role or literal.text in ALLOWED:
            continue
        if re.search(r"(?<![\w-])[A-Z][a-z]|[^\W\d_]{2}[.!?…:](\s|$)", literal.text):
            found.append(f"line {literal.line}: {literal.text!r} (reads like words)")
    return sorted(set(found))


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_no_script_writes_words_without_t(path: Path) -> None:
    assert untranslated(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "snippet",
    [
        'node.textContent = "Saved";',
        "node.textContent = `${name} starts`;",
        'node.textContent = ok ? t("a", "A") : "nope";',
        'button.setAttribute("aria-label", `Keypad for ${x}`);',
        'el("button", { ariaLabel: "Take it off" }, "×");',
        'el("p", "hint", "not valid");',
        'item.append("not valid");',
        'say("the network is gone");',
        'alert("gone");',
        'const a = "Tap who went out.";',
        'box.innerHTML = "<b>ok</b>";',
    ],
)
def test_the_grep_finds_untranslated_words(snippet: str) -> None:
    assert untranslated(snippet), snippet


@pytest.mark.parametrize(
    "snippet",
    [
        'node.textContent = t("round_saving", "Saving…");',
        'node.textContent = t("clock_turn", "%(name)s\'s turn", { name });',
        'node.setAttribute("aria-expanded", "false");',
        'el("span", { className: "mark", ariaHidden: "true" }, "×");',
        'if (event.key !== "Enter") return;',
        'const x = `${a} ${t("done", "Done")}`;',
        'root.querySelectorAll(".problems p, p.error");',
    ],
)
def test_the_grep_lets_translated_and_technical_strings_be(snippet: str) -> None:
    assert untranslated(snippet) == [], snippet
