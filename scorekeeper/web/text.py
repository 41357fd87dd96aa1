"""Translated text that stays text: a name typed by the family is never markup.

Flask-Babel's lazy strings tell Jinja and WTForms that they are safe HTML (`__html__` returns
them as they are), so a lazy label built with a player's name (`%(player)s: tiles left`)
wrote the name into the page as markup. Every lazy string of the app is made here instead: as
text, escaped wherever HTML is written, whatever its parameters hold.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from babel import Locale
from babel.lists import format_list
from flask_babel import get_locale, get_translations, gettext
from flask_babel.speaklater import LazyString
from markupsafe import escape


class LazyText(LazyString):
    """A string translated when it is shown, in that request's language; plain text in HTML."""

    def __html__(self) -> str:
        return str(escape(str(self)))


def lazy_text(string: str, **variables: Any) -> LazyText:
    """`_l("%(player)s: tiles left", player=name)`: translated when shown, escaped in HTML."""
    return LazyText(gettext, string, **variables)


class LazyPlural:
    """A plural message for the scripts: every form the request's language has, by CLDR
    category (`one`, `few`, `many`, `other`), each picked by the catalogue's own plural rule.

    A script picks the form with `Intl.PluralRules(lang).select(n)` (static/app.js, `tn`):
    Polish gets its "2-4" form and its "5 and more" form, not one English-shaped `_other`.
    """

    def __init__(self, singular: str, plural: str) -> None:
        self.singular = singular
        self.plural = plural

    def forms(self) -> dict[str, str]:
        locale = get_locale() or Locale.parse("en")
        samples = plural_samples(locale)
        catalogue = get_translations()  # the forms as written: the script fills %(name)s
        forms = {
            tag: catalogue.ungettext(self.singular, self.plural, n) for tag, n in samples.items()
        }
        forms.setdefault(
            "other", forms.get("many", catalogue.ungettext(self.singular, self.plural, 5))
        )
        return forms

    def __str__(self) -> str:  # the English-shaped "other" form, for a quick look
        return self.forms()["other"]


def lazy_plural(singular: str, plural: str) -> LazyPlural:
    """`lazy_plural("%(count)s round", "%(count)s rounds")`: every plural form for a script."""
    return LazyPlural(singular, plural)


def plural_samples(locale: Locale) -> dict[str, int]:
    """A whole number of each plural category of the locale (pl: one 1, few 2, many 0)."""
    samples: dict[str, int] = {}
    for n in (*range(0, 200), 1_000_000):
        samples.setdefault(locale.plural_form(n), n)
    return samples


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


def lazy_list_locale() -> LazyText:
    return LazyText(list_locale_tag)


def for_script(message: LazyText | LazyPlural) -> str | dict[str, str]:
    """A message of web/js_messages.py as the page hands it to the scripts: text, or a plural's
    forms by category."""
    return message.forms() if isinstance(message, LazyPlural) else str(message)
