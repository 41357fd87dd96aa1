"""The rules' and services' problems in the family's language.

The rules engine stays pure: a `Problem` holds an English template (the msgid, extracted through
`Problem:2` / `one:2` / `bad_request:1` / `refused:1` in babel.cfg) and its params. Here the
template is looked up with gettext and filled with params that are translated too: a `Word`
(a setting's label) as a msgid of its own, a `TileName` by its colour or suit word, a
`NameList` with the locale's "and" / "or", a nested `Problem` by `translate` itself. Player
names, numbers and quoted entries go in as they are.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext, pgettext

from scorekeeper.rules.errors import NameList, Problem, TileName, Word
from scorekeeper.rules.sets import FREED_JOKER_REMINDER
from scorekeeper.web.text import lazy_text as _l

#: The colour and suit words of tile names ("red 7", "spades Q", "joker").
TILE_WORDS = {
    "black": _l("black"),
    "red": _l("red"),
    "blue": _l("blue"),
    "orange": _l("orange"),
    "spades": _l("spades"),
    "hearts": _l("hearts"),
    "clubs": _l("clubs"),
    "diamonds": _l("diamonds"),
    "joker": _l("joker"),
}

#: Strings of the rules engine that are not problem templates, listed literally so they are
#: extracted (the rules cannot import flask_babel). A unit test keeps them equal to the rules.
RULES_TEXTS = {
    FREED_JOKER_REMINDER: _l("Play the freed joker this turn: it may never end on a rack."),
}


def _card_face(face: str) -> str:
    """A card's face letter (A, J, Q, K) as the locale writes it; numbers stay."""
    if face == "A":
        return pgettext("card face: ace", "A")
    if face == "J":
        return pgettext("card face: jack", "J")
    if face == "Q":
        return pgettext("card face: queen", "Q")
    if face == "K":
        return pgettext("card face: king", "K")
    return face


def tile_name(name: TileName) -> str:
    """`red 7` → `rouge 7` (the order is the translator's: "%(colour)s %(number)s")."""
    colour = str(TILE_WORDS[name.colour]) if name.colour in TILE_WORDS else name.colour
    if not name.number:
        return colour
    return gettext("%(colour)s %(number)s", colour=colour, number=_card_face(name.number))


def name_list(names: NameList) -> str:
    """`Ann, Bo and Cy` / `blue 2 or blue 5` / `red 1, red 2` in the locale's words."""
    items = [translate_param(i) for i in names.items]
    if names.conjunction == "," or len(items) == 1:
        return (
            pgettext("list separator", ", ").join(items) if names.conjunction == "," else items[0]
        )
    head = pgettext("list separator", ", ").join(str(i) for i in items[:-1])
    if names.conjunction == "or":
        return gettext("%(names)s or %(last)s", names=head, last=items[-1])
    return gettext("%(names)s and %(last)s", names=head, last=items[-1])


def translate_param(value: Any) -> Any:
    """One param in the request's language; anything that is not words goes in unchanged."""
    if isinstance(value, Problem):
        return translate(value)
    if isinstance(value, TileName):
        return tile_name(value)
    if isinstance(value, NameList):
        return name_list(value)
    if isinstance(value, Word):
        return gettext(str(value))
    return value


def translate(problem: Problem) -> str:
    """The problem's message in the request's language: gettext(template) % translated params.

    A translation that does not fit its params (a translator's typo in a placeholder) falls
    back to the English message rather than failing the request.
    """
    text = gettext(problem.template)
    if not problem.params:
        return text
    params = {key: translate_param(value) for key, value in problem.params.items()}
    try:
        return text % params
    except (KeyError, ValueError, TypeError):
        return problem.message


def translate_all(problems: list[Problem]) -> list[str]:
    return [translate(p) for p in problems]


def problem_dict(problem: Problem) -> dict[str, str]:
    """The API's error shape (docs/DESIGN.md 3): the same `code`, the `message` translated."""
    out = problem.as_dict()
    out["message"] = translate(problem)
    return out


def rules_text(text: str) -> str:
    """A plain string of the rules (not a problem), translated when it is one we list."""
    return str(RULES_TEXTS[text]) if text in RULES_TEXTS else text
