"""The table checker at /tools/check: is this set valid, does this meld make the minimum, may
this joker be taken (docs/RULES.md 2-4), by the rules tools of services/tools.py."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from flask import Blueprint, abort, render_template, request, url_for
from flask_babel import format_number, gettext
from wtforms import Form, HiddenField, StringField, TextAreaField

from scorekeeper.rules import RulesError, Settings
from scorekeeper.rules.numbers import whole_number
from scorekeeper.services import tools
from scorekeeper.services.documents import MeldCheck, SetCheck, SwapCheck
from scorekeeper.services.views import SessionView, get_session
from scorekeeper.web.forms.common import ID_DIGITS, add_error, add_settings
from scorekeeper.web.messages import rules_text, translate
from scorekeeper.web.text import lazy_text as _l

bp = Blueprint("tools", __name__, url_prefix="/tools")

#: At most this many sets (lines) in one check, as the meld API takes.
MAX_SETS = 40
#: No set is written in more characters than the API reads as one (a set has 13 tiles at most).
MAX_LINE = 2000
#: The settings a check without a session may change, in the order they are shown.
TOGGLES = ("run_wrap", "jokers_retrievable", "tile_sets", "min_initial_meld", "played_with")


class RulesForm(Form):
    """The settings that change a verdict, for a check without a session (sent by GET); their
    fields, defaults and labels come from the settings' declaration (`add_settings` below)."""

    rules = HiddenField(default="chosen")  # marks the toggles as sent: an unticked box is off

    def chosen(self) -> dict[str, Any]:
        """The settings as the rules tools take them (`rules` of the API body)."""
        return {name: self[name].data for name in TOGGLES}


add_settings(RulesForm, TOGGLES, required=_l("Enter a whole number, like 30."))


class SetsForm(Form):
    """One set or several, one per line."""

    sets = TextAreaField(_l("Sets, one per line"))


class MeldForm(Form):
    """The sets of one player's first play, one per line."""

    meld = TextAreaField(_l("Sets from one rack, one per line"))


class SwapForm(Form):
    """A set on the table with a joker, and the tile that would take the joker's place."""

    swap_set = StringField(_l("Set on the table"))
    swap_tile = StringField(_l("Tile from the rack"))


@dataclass
class SetAnswer:
    """One line of the set check: the API's verdict, or why the line could not be read."""

    line: str
    verdict: SetCheck | None = None
    problems: list[str] = field(default_factory=list)


@dataclass
class Answers:
    """What the page says under each section after a check (empty before one)."""

    sets: list[SetAnswer] = field(default_factory=list)
    together: list[str] = field(default_factory=list)  # supply across all the sets
    meld: MeldCheck | None = None
    meld_lines: list[str] = field(default_factory=list)
    swap: SwapCheck | None = None
    problems: dict[str, list[str]] = field(default_factory=dict)  # per section

    @property
    def failed(self) -> bool:
        return bool(self.together or any(self.problems.values())) or any(
            a.problems for a in self.sets
        )


def lines_of(text: str | None) -> list[str]:
    """The non-empty lines of a text area, each one set."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def _problems(error: RulesError) -> list[str]:
    return [translate(p) for p in error.problems]


@bp.route("/check", methods=["GET", "POST"])
def check() -> tuple[str, int]:
    """The checker page; a POST answers the section whose form was sent."""
    view, rules_form = _context()
    base: dict[str, Any] = {"session": view.id} if view else {}
    rules_ok = rules_form is None or "rules" not in request.args or rules_form.validate()
    if rules_form is not None and rules_ok:
        base["rules"] = rules_form.chosen()
    settings = Settings()
    try:
        settings = tools.tool_settings(base)
    except RulesError as error:  # a number out of range (bad_setting): said by its field
        assert rules_form is not None
        rules_ok = False
        base.pop("rules")
        for problem in error.problems:
            add_error(rules_form[problem.field or "min_initial_meld"], translate(problem))
    posted = request.form.get("check") if request.method == "POST" else None
    data = request.form if posted else None
    forms: dict[str, Form] = {
        "set": SetsForm(data if posted == "set" else None),
        "meld": MeldForm(data if posted == "meld" else None),
        "swap": SwapForm(data if posted == "swap" else None),
    }
    if settings.played_with == "cards":
        forms["swap"]["swap_tile"].label.text = gettext("Card from the hand")
    answers = Answers()
    if posted in forms and rules_ok:
        _answer(posted, forms[posted], base, answers)
    failed = not rules_ok or answers.failed or any(f.errors for f in forms.values())
    page = render_template(
        "tools/check.html",
        view=view,
        rules_form=rules_form,
        settings=settings,
        forms=forms,
        answers=answers,
        posted=posted,
        action=url_for("tools.check", **cast(dict[str, Any], request.args.to_dict())),
        toggles=TOGGLES,
    )
    return page, 422 if failed else 200


def _context() -> tuple[SessionView | None, RulesForm | None]:
    """The session whose rules apply, or the toggles of a check without a session."""
    if "session" in request.args:
        session_id = whole_number(request.args.get("session"), ID_DIGITS)
        if session_id is None or session_id < 1:
            abort(404)
        return get_session(session_id), None
    return None, RulesForm(request.args if "rules" in request.args else None)


def _answer(section: str, form: Form, base: dict[str, Any], answers: Answers) -> None:
    """Ask the rules tools about what was typed in one section."""
    if section == "set":
        _answer_sets(form, base, answers)
    elif section == "meld":
        _answer_meld(form, base, answers)
    else:
        _answer_swap(form, base, answers)


def _lines_or_error(form_field: Any, empty: str) -> list[str]:
    lines = lines_of(form_field.data)
    if not lines:
        add_error(form_field, empty)
    elif len(lines) > MAX_SETS:
        add_error(
            form_field,
            gettext("Check at most %(count)s sets at once.", count=format_number(MAX_SETS)),
        )
    elif long := [i for i, line in enumerate(lines, 1) if len(line) > MAX_LINE]:
        add_error(
            form_field,
            gettext("Line %(number)s is too long to be a set.", number=format_number(long[0])),
        )
    return [] if form_field.errors else lines


def _answer_sets(form: Form, base: dict[str, Any], answers: Answers) -> None:
    lines = _lines_or_error(form["sets"], gettext("Type a set, like r5 b5 j."))
    for line in lines:
        answer = SetAnswer(line)
        try:
            answer.verdict = tools.check_set_tool({**base, "tiles": line}, translate)
        except RulesError as error:
            answer.problems = _problems(error)
        answers.sets.append(answer)
    if len(lines) > 1 and not any(a.problems for a in answers.sets):
        # Sets on one table share the tiles: the meld tool checks the supply across its sets.
        try:
            tools.check_meld_tool({**base, "sets": lines}, translate)
        except RulesError as error:
            answers.together = _problems(error)


def _answer_meld(form: Form, base: dict[str, Any], answers: Answers) -> None:
    lines = _lines_or_error(
        form["meld"], gettext("Type the sets of the first play, like r10 b10 j.")
    )
    if lines:
        try:
            answers.meld = tools.check_meld_tool({**base, "sets": lines}, translate)
            answers.meld_lines = lines
        except RulesError as error:
            answers.problems["meld"] = _problems(error)


def _answer_swap(form: Form, base: dict[str, Any], answers: Answers) -> None:
    table_set, tile = ((form[name].data or "").strip() for name in ("swap_set", "swap_tile"))
    if not table_set:
        add_error(form["swap_set"], gettext("Type the set on the table, like b3 b4 j."))
    elif len(table_set) > MAX_LINE:
        add_error(form["swap_set"], gettext("This is too long to be a set."))
        table_set = ""
    if not tile:
        add_error(form["swap_tile"], gettext("Type the tile from the rack, like b5."))
    if table_set and tile:
        try:
            answers.swap = tools.swap_tool(
                {**base, "set": table_set, "tile": tile}, translate, rules_text
            )
        except RulesError as error:
            answers.problems["swap"] = _problems(error)


@bp.app_template_filter("tile_class")
def tile_class(code: str) -> str:
    """The colour class of a tile or card in notation (`r11`, `hQ`): c-k, c-r, c-b, c-o."""
    letter = code[:1].lower()
    return "c-" + {"s": "k", "h": "r", "c": "b", "d": "o"}.get(letter, letter)
