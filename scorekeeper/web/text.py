"""Translated text that stays text: the app's lazy strings, escaped wherever HTML is written,
so a name typed by the family is never markup."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from babel import Locale
from babel.lists import format_list
from flask_babel import get_locale, gettext
from flask_babel.speaklater import LazyString
from markupsafe import escape


class LazyText(LazyString):
    """A string translated when it is shown, in that request's language; plain text in HTML."""

    def __html__(self) -> str:
        return str(escape(str(self)))


def lazy_text(string: str, **variables: Any) -> LazyText:
    """`_l("%(player)s: tiles left", player=name)`: translated when shown, escaped in HTML."""
    return LazyText(gettext, string, **variables)


#: The locale whose list patterns a language uses: the app's English is British ("Ann, Bo and
#: Cy", no serial comma), every other language its own.
LIST_LOCALES = {"en": "en_GB"}


def list_locale() -> Locale:
    locale = get_locale() or Locale.parse("en")
    return Locale.parse(LIST_LOCALES.get(str(locale), str(locale)))


ListStyle = Literal["standard", "or"]


def names_list(names: Iterable[Any], style: ListStyle = "standard") -> str:
    """Names in a sentence by the language's own rules: "Ann, Bo and Cy", "Tomek i Zosia",
    "Ann, Bo eller Cy" (style "or")."""
    return format_list([str(n) for n in names], style=style, locale=list_locale())


def list_locale_tag() -> str:
    """The locale of the language's lists as a browser names it ("en-GB", "pl"), for the
    scripts' Intl.ListFormat (static/lists.js): the same CLDR patterns as `names_list`."""
    return str(list_locale()).replace("_", "-")
