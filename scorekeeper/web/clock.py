"""Who starts, a page of its own, and the turn clock page of a session: set Seconds per turn,
draw for the start, the countdown."""

from __future__ import annotations

import secrets

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_babel import format_number, gettext
from werkzeug.wrappers import Response

from scorekeeper.rules import RulesError
from scorekeeper.rules.tiles import NUMBERS
from scorekeeper.rules.turns import StartDraw, turn_order, who_starts
from scorekeeper.services import sessions
from scorekeeper.services.errors import status_for
from scorekeeper.services.views import SessionView, get_session
from scorekeeper.web.forms.clock import DrawForm, SecondsForm, draw_form
from scorekeeper.web.forms.common import add_error
from scorekeeper.web.messages import translate
from scorekeeper.web.templating import and_list
from scorekeeper.web.undo import forget_undo

bp = Blueprint("clock", __name__, url_prefix="/sessions/<int:session_id>/clock")
starts_bp = Blueprint("who_starts", __name__, url_prefix="/sessions/<int:session_id>/who-starts")

#: The seconds offered with one tap; any other number can be typed.
SECONDS_CHOICES = (30, 60, 120)


@bp.get("")
def show(session_id: int) -> str:
    """The clock when the session has one; otherwise the choice of seconds to turn it on."""
    view = get_session(session_id)
    return _clock_page(view, SecondsForm(formdata=None), draw_form(view.players, formdata=None))


@bp.post("/seconds")
def set_seconds(session_id: int) -> Response | tuple[str, int]:
    """Set the session's Seconds per turn (a preset button or the number typed)."""
    view = get_session(session_id)
    form = SecondsForm()
    if form.validate() and (seconds := form.value()) is not None:
        try:
            view = sessions.set_seconds_per_turn(session_id, seconds)
        except RulesError as error:
            for problem in error.problems:
                add_error(form.seconds, translate(problem))
            page = _clock_page(view, form, draw_form(view.players, formdata=None))
            return page, status_for(error)
        forget_undo()
        seconds = view.settings.seconds_per_turn
        flash(
            gettext("Seconds per turn: %(seconds)s.", seconds=format_number(seconds))
            if seconds
            else gettext("The turn clock is off."),
            "success",
        )
        return redirect(url_for("clock.show", session_id=session_id))
    return _clock_page(view, form, draw_form(view.players, formdata=None)), 422


@bp.post("/start")
def start(session_id: int) -> str | tuple[str, int]:
    """Who starts: the highest tile drawn; a tie for the highest draws again."""
    view = get_session(session_id)
    form, outcome, status = read_draw(view)
    return _clock_page(view, SecondsForm(formdata=None), form, outcome), status


@starts_bp.get("")
def who_starts_page(session_id: int) -> str:
    """Who starts the evening: a draw for everyone with one tap, or the tiles drawn typed."""
    view = get_session(session_id)
    return _who_starts_page(view, draw_form(view.players, formdata=None))


@starts_bp.post("")
def draw(session_id: int) -> tuple[str, int]:
    """Who starts, drawn or read from the tiles typed (a tie draws again)."""
    view = get_session(session_id)
    form, outcome, status = read_draw(view)
    return _who_starts_page(view, form, outcome), status


def read_draw(view: SessionView) -> tuple[DrawForm, StartDraw | None, int]:
    """The draw posted for the start (`draw=for_us`: a tile drawn here for each player still
    drawing): the form, the outcome (None when refused) and the status to answer."""
    form = draw_form(view.players)
    if request.form.get("draw") == "for_us":
        for i in form.seats_drawing():
            form[f"drawn_{i}"].data = str(1 + secrets.randbelow(max(NUMBERS)))
    if not form.validate():
        return form, None, 422
    try:
        outcome = who_starts(form.drawn())
    except RulesError as error:
        for problem in error.problems:
            if problem.field in view.players:
                add_error(form[f"drawn_{view.players.index(problem.field)}"], translate(problem))
        return form, None, status_for(error)
    if outcome.tied:
        seats = [view.players.index(p) for p in outcome.tied]
        form.drawing.data = ",".join(str(i) for i in seats)
        for i in seats:
            form[f"drawn_{i}"].data = ""
    return form, outcome, 200


def draw_message(outcome: StartDraw) -> str:
    """`Bo starts (drew 12).` or `Ann and Cy draw again (both drew 12).`"""
    number = format_number(outcome.highest)
    if outcome.starter:
        return gettext("%(name)s starts (drew %(number)s).", name=outcome.starter, number=number)
    names = and_list(outcome.tied)
    if len(outcome.tied) == 2:
        return gettext("%(names)s draw again (both drew %(number)s).", names=names, number=number)
    return gettext("%(names)s draw again (all drew %(number)s).", names=names, number=number)


def _who_starts_page(view: SessionView, draw: DrawForm, outcome: StartDraw | None = None) -> str:
    return render_template("sessions/who_starts.html", **_draw_context(view, draw, outcome))


def _draw_context(
    view: SessionView, draw: DrawForm, outcome: StartDraw | None
) -> dict[str, object]:
    """What the draw (sessions/_draw.html) shows: the seats still drawing, the outcome."""
    order = turn_order(view.players, outcome.starter) if outcome and outcome.starter else []
    return {
        "view": view,
        "draw": draw,
        "drawing": draw.seats_drawing(),
        "outcome": outcome,
        "message": draw_message(outcome) if outcome else "",
        "order": order,
    }


def _clock_page(
    view: SessionView, seconds_form: SecondsForm, draw: DrawForm, outcome: StartDraw | None = None
) -> str:
    return render_template(
        "sessions/clock.html",
        seconds_form=seconds_form,
        seconds_choices=SECONDS_CHOICES,
        **_draw_context(view, draw, outcome),
    )


@bp.app_template_global()
def checker_url(session_id: int) -> str | None:
    """The table checker for a session, once the app has one at /tools/check (else None)."""
    for rule in current_app.url_map.iter_rules():
        if rule.rule == "/tools/check" and "GET" in (rule.methods or ()):
            return url_for(rule.endpoint, session=session_id)
    return None


@bp.app_template_filter("mm_ss")
def mm_ss(seconds: int) -> str:
    """Seconds as the clock shows them: 01:00, 02:00, 00:30."""
    return f"{seconds // 60:02d}:{seconds % 60:02d}"
