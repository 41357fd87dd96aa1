"""The rules' and services' problems in the family's language: the English template looked
up with gettext, its params translated too (a `Word`, a `TileName`, a `NameList`)."""

from __future__ import annotations

from typing import Any

from flask_babel import format_number, gettext, ngettext, pgettext

from scorekeeper.rules.errors import NameList, Problem, TileName, Word
from scorekeeper.rules.sets import FREED_JOKER_REMINDER
from scorekeeper.services.changes import Change
from scorekeeper.web.text import lazy_text as _l
from scorekeeper.web.text import names_list

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
    """`Ann, Bo and Cy` / `blue 2 or blue 5` / `red 1, red 2`: joined by the language's own
    list rules (Babel's, from CLDR: `Tomek i Zosia`, `blå 2 eller blå 5`)."""
    items = [str(translate_param(i)) for i in names.items]
    if names.conjunction == ",":
        return pgettext("list separator", ", ").join(items)
    return names_list(items, "or" if names.conjunction == "or" else "standard")


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
    """The problem's message in the request's language: gettext(template) % translated params;
    the English message where a translation does not fit its params."""
    text = gettext(problem.template)
    if not problem.params:
        return text
    params = {key: translate_param(value) for key, value in problem.params.items()}
    try:
        return text % params
    except (KeyError, ValueError, TypeError):
        return problem.message


def problem_dict(problem: Problem) -> dict[str, str]:
    """The API's error shape (docs/DESIGN.md 3): the same `code`, the `message` translated."""
    out = problem.as_dict()
    out["message"] = translate(problem)
    return out


def rules_text(text: str) -> str:
    """A plain string of the rules (not a problem), translated when it is one we list."""
    return str(RULES_TEXTS[text]) if text in RULES_TEXTS else text


#: The words of each change (services/changes.py, CHANGES), listed literally so they are
#: extracted; a unit test keeps them equal to the services' English. A plural is (one, other).
CHANGE_TEXTS: dict[str, str | tuple[str, str]] = {
    "round_added": _l("Round %(round)s added"),
    "round_changed": _l("Round %(round)s changed"),
    "round_deleted": _l("Round %(round)s deleted"),
    "round_put_back": _l("Round %(round)s put back"),
    "round_taken_back": _l("Round %(round)s taken back"),
    "round_changed_back": _l("Round %(round)s changed back"),
    "rounds_agreed": ("One more round agreed", "%(count)s more rounds agreed"),  # ngettext below
    "clock_set": _l("Turn clock set to %(seconds)s s"),
    "clock_off": _l("Turn clock turned off"),
    "player_renamed": _l("%(before)s renamed to %(after)s"),
    "notes_changed": _l("Notes changed"),
    "notes_cleared": _l("Notes cleared"),
    "session_changed": _l("Session changed"),
}


def change_text(change: Change | None) -> str:
    """What a write did, in the request's language ("Runde 3 tilføjet"); "" before any."""
    if change is None:
        return ""
    params = {k: format_number(v) if isinstance(v, int) else v for k, v in change.params.items()}
    try:
        if change.code == "rounds_agreed":
            count = change.params["count"]
            return ngettext(
                "One more round agreed", "%(count)s more rounds agreed", count, **params
            )
        text = str(CHANGE_TEXTS[change.code])
        return text % params if params else text
    except (KeyError, ValueError, TypeError):
        return change.message
