"""The words the scripts under static/ show: read from the scripts, translated on the server.

A script says a word with `t("key", "English", params)`, a plural with
`tn("key", "one", "other", n, params)` (static/app.js). The English in the call is the msgid,
written once: pybabel extracts it like any other string (babel.cfg's `[javascript]` section,
`t:2 tn:2,3`), and this module reads the same calls with the same extractor to learn which
words each script looks up (web/assets.py keeps them with the script, `Asset.words`). A page
hands its scripts their words in its language, in the #js-messages block (`handed`); a script
fetched on demand brings its own (`words_of` in web/assets.py). The key is a stable name for
the script to look the word up by; the served script leaves the English out
(`without_fallbacks`), since the page always has the words.

A plural is handed over as every form of the page's language by CLDR category (Polish: one,
few, many), each picked with the catalogue's own plural rule; the script picks the form with
`Intl.PluralRules`. A few keys are not words but values (`VALUES`): `list_locale` is the
locale whose CLDR list patterns the server's lists use, for the scripts' Intl.ListFormat
(static/lists.js); a script asks for them with `t("key")` alone, so nothing is extracted.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from babel import Locale
from babel.messages.extract import extract_javascript
from flask_babel import get_locale, get_translations

from scorekeeper.web.text import list_locale_tag

if TYPE_CHECKING:
    from babel.messages.extract import _JSOptions

#: A word's English: its text, or a plural's (one, other).
English = str | tuple[str, str]
#: As a page hands it to its scripts: text, or a plural's forms by category.
Handed = str | dict[str, str]

#: What a script asks for with `t("key")` and the server computes, in the page's language.
VALUES: dict[str, Callable[[], str]] = {"list_locale": list_locale_tag}

# The same extraction as babel.cfg's: the calls' string arguments (None for any other).
_KEYWORDS = {"t": None, "tn": None}
_OPTIONS: _JSOptions = {"parse_template_string": True}


def words_in(source: str) -> dict[str, English]:
    """The words a script's t() and tn() calls look up: key -> English. A key said twice
    must be said alike."""
    words: dict[str, English] = {}
    found = extract_javascript(io.BytesIO(source.encode()), _KEYWORDS, [], _OPTIONS)
    for line, name, arguments, _comments in found:
        if isinstance(arguments, str):
            arguments = (arguments,)  # a call with one argument: t("list_locale")
        if not arguments or not isinstance(arguments[0], str):
            continue  # the helpers' own definitions, or a key that is not a literal
        key = arguments[0]
        english: English | None
        if key in VALUES:
            english = None
        elif name == "t" and len(arguments) >= 2 and isinstance(arguments[1], str):
            english = arguments[1]
        elif (
            name == "tn"
            and len(arguments) >= 3
            and isinstance(arguments[1], str)
            and isinstance(arguments[2], str)
        ):
            english = (arguments[1], arguments[2])
        else:
            raise ValueError(f"line {line}: {name}({key!r}, ...) needs its English as a literal")
        if english is None:
            words[key] = key  # a value: nothing to translate
            continue
        if words.setdefault(key, english) != english:
            raise ValueError(f"line {line}: {key!r} said two ways")
    return words


def merged(lists: Iterable[Mapping[str, English]]) -> dict[str, English]:
    """Several scripts' words as one (a bundle's, a page's); a key means one thing everywhere."""
    words: dict[str, English] = {}
    for each in lists:
        for key, english in each.items():
            if words.setdefault(key, english) != english:
                raise ValueError(f"{key!r} said two ways: {words[key]!r} and {english!r}")
    return words


def plural_samples(locale: Locale) -> dict[str, int]:
    """A whole number of each plural category of the locale (pl: one 1, few 2, many 0)."""
    samples: dict[str, int] = {}
    for n in (*range(0, 200), 1_000_000):
        samples.setdefault(locale.plural_form(n), n)
    return samples


def plural_forms(one: str, other: str) -> dict[str, str]:
    """Every form of a plural in the request's language, by CLDR category, as written (the
    script fills %(name)s)."""
    locale = get_locale() or Locale.parse("en")
    catalogue = get_translations()
    forms = {
        category: catalogue.ngettext(one, other, n)
        for category, n in plural_samples(locale).items()
    }
    forms.setdefault("other", forms.get("many", catalogue.ngettext(one, other, 5)))
    return forms


def handed(words: Mapping[str, English]) -> dict[str, Handed]:
    """The words as the request's page hands them to its scripts: translated text, a plural's
    forms, or a value."""
    catalogue = get_translations()
    out: dict[str, Handed] = {}
    for key, english in words.items():
        if key in VALUES:
            out[key] = VALUES[key]()
        elif isinstance(english, tuple):
            out[key] = plural_forms(*english)
        else:
            out[key] = catalogue.gettext(english)
    return out
