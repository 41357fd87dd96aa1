"""Translated text that stays text: a name typed by the family is never markup.

Flask-Babel's lazy strings tell Jinja and WTForms that they are safe HTML (`__html__` returns
them as they are), so a lazy label built with a player's name (`%(player)s: tiles left`)
wrote the name into the page as markup. Every lazy string of the app is made here instead: as
text, escaped wherever HTML is written, whatever its parameters hold.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext
from flask_babel.speaklater import LazyString
from markupsafe import escape


class LazyText(LazyString):
    """A string translated when it is shown, in that request's language; plain text in HTML."""

    def __html__(self) -> str:
        return str(escape(str(self)))


def lazy_text(string: str, **variables: Any) -> LazyText:
    """`_l("%(player)s: tiles left", player=name)`: translated when shown, escaped in HTML."""
    return LazyText(gettext, string, **variables)
