"""The turn clock page of a session: set Seconds per turn, draw for the start, the countdown.

The countdown itself runs in the browser (static/clock.js) so it keeps going offline; the
server sets the session's clock and answers who starts, which also works without JavaScript.
"""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, url_for
from flask_babel import format_number, gettext
from werkzeug.wrappers import Response

from scorekeeper.rules import RulesError
from scorekeeper.rules.turns import StartDraw, turn_order, who_starts
from scorekeeper.services import sessions
from scorekeeper.services.errors import status_for
from scorekeeper.services.sessions import SessionView, get_session
from scorekeeper.web.forms import DrawForm, SecondsForm, add_error, draw_form
from scorekeeper.web.messages import translate
from scorekeeper.web.sessions import and_list, forget_undo

bp = Blueprint("clock", __name__, url_prefix="/sessions/<int:session_id>/clock")

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
    form = draw_form(view.players)
    if not form.validate():
        return _clock_page(view, SecondsForm(formdata=None), form), 422
    try:
        outcome = who_starts(form.drawn())
    except RulesError as error:
        for problem in error.problems:
            if problem.field in view.players:
                add_error(form[f"drawn_{view.players.index(problem.field)}"], translate(problem))
        return _clock_page(view, SecondsForm(formdata=None), form), status_for(error)
    if outcome.tied:
        seats = [view.players.index(p) for p in outcome.tied]
        form.drawing.data = ",".join(str(i) for i in seats)
        for i in seats:
            form[f"drawn_{i}"].data = ""
    return _clock_page(view, SecondsForm(formdata=None), form, outcome)


def draw_message(outcome: StartDraw) -> str:
    """`Bo starts (drew 12).` or `Ann and Cy draw again (both drew 12).`"""
    number = format_number(outcome.highest)
    if outcome.starter:
        return gettext("%(name)s starts (drew %(number)s).", name=outcome.starter, number=number)
    names = and_list(outcome.tied)
    if len(outcome.tied) == 2:
        return gettext("%(names)s draw again (both drew %(number)s).", names=names, number=number)
    return gettext("%(names)s draw again (all drew %(number)s).", names=names, number=number)


def _clock_page(
    view: SessionView, seconds_form: SecondsForm, draw: DrawForm, outcome: StartDraw | None = None
) -> str:
    order = turn_order(view.players, outcome.starter) if outcome and outcome.starter else []
    return render_template(
        "sessions/clock.html",
        view=view,
        seconds_form=seconds_form,
        draw=draw,
        drawing=draw.seats_drawing(),
        outcome=outcome,
        message=draw_message(outcome) if outcome else "",
        order=order,
        seconds_choices=SECONDS_CHOICES,
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
