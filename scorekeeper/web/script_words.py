"""The words the scripts under static/ show: read from their t() and tn() calls with the
extractor pybabel uses, translated on the server, handed to a page in its language."""

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
