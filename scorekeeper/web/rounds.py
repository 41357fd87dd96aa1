"""Round pages: record how a round ended, edit it, delete it, and undo the last of these."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import format_number, gettext
from werkzeug.wrappers import Response

from scorekeeper.rules import Problem, RulesError
from scorekeeper.services import rounds
from scorekeeper.services.errors import status_for
from scorekeeper.services.views import RoundView, SessionView, get_session, seating
from scorekeeper.web.access import session_stamp
from scorekeeper.web.forms.common import ENDING_CHOICES
from scorekeeper.web.forms.rounds import DeleteRoundForm, RoundForm, round_form, round_form_data
from scorekeeper.web.messages import translate
from scorekeeper.web.responses import no_store
from scorekeeper.web.sessions import live_part
from scorekeeper.web.text import lazy_text as _l
from scorekeeper.web.undo import (
    TOO_LATE,
    UNDO_KEY,
    UNDONE,
    forget_undo,
    pending_undo,
    remember_undo,
)

bp = Blueprint("rounds", __name__, url_prefix="/sessions/<int:session_id>")

# The answers after which the round form comes back naming the table as it is now.
TABLE_MOVED = ("duplicate_round", "stale_round", "key_reused")

ENDING_TITLES = {
    "went_out": _l("Someone went out"),
    "pool_empty": _l("The pool ran out"),
    "scores": _l("Scores as on paper"),
}


def wants_fragment() -> bool:
    """The session page's script asks for the round form (or, after a save, the live table) as
    a fragment of a page, to put in place: `?fragment=1` on a GET, the header on a POST."""
    return request.args.get("fragment") == "1" or request.headers.get("X-Requested-With") == "fetch"


def _ending_asked(default: str = "went_out") -> str:
    asked = request.args.get("ending", default)
    return asked if asked in ENDING_CHOICES else default


def _winner_asked(view: SessionView, ending: str) -> int | None:
    """The seat tapped under "Who went out?" on the session page (`?winner=2`), if any."""
    asked = request.args.get("winner")
    seats = [str(i) for i in range(len(view.players))]
    return seats.index(asked) if ending == "went_out" and asked in seats else None


def _first_rack_after(winner: int | None) -> int | None:
    """With the winner chosen on the session page, typing starts at the first other rack."""
    return None if winner is None else (1 if winner == 0 else 0)


def _round_or_404(view: SessionView, number: int) -> RoundView:
    found = next((r for r in view.rounds if r.number == number), None)
    if found is None:
        abort(404)
    return found


@bp.route("/rounds/new", methods=["GET", "POST"])
@no_store
def new(session_id: int) -> str | Response | tuple[str, int]:
    """Record the next round: who went out, the pool ran out, or scores as on paper."""
    if request.method == "GET":
        view = get_session(session_id)
        if view.complete:
            flash(
                gettext(
                    "All %(rounds)s rounds are played: "
                    "play another round first if the family agrees.",
                    rounds=format_number(view.rounds_planned),
                ),
                "error",
            )
            return redirect(url_for("sessions.show", session_id=session_id))
        # The round's number and the table's version it is typed against (a renumbering
        # since is refused: services.rounds.add_round).
        next_number = str(view.standings.rounds_played + 1)
        fields = {"ending": _ending_asked(), "number": next_number, "version": str(view.version)}
        winner = _winner_asked(view, fields["ending"])
        if winner is not None:
            fields["winner"] = str(winner)
        form = round_form(view.players, fields)
        return _round_page(view, form, focus=_first_rack_after(winner))

    def save(body: dict[str, Any]) -> rounds.Written:
        written = rounds.add_round(session_id, body)
        if written.created:
            remember_undo("add", written.stamp, written.round.number)
        else:
            forget_undo()  # a repeated Save: the round was there already
        return written

    # A save reads the session itself: before it, only the seats (for the form's fields).
    return _record(session_id, round_form(seating(session_id)), save, None)


@bp.route("/rounds/<int:number>/edit", methods=["GET", "POST"])
@no_store
def edit(session_id: int, number: int) -> str | Response | tuple[str, int]:
    """Change a round: the same form, filled with what was typed; scores are derived again."""
    if request.method == "GET":
        view = get_session(session_id)
        stored = _round_or_404(view, number)
        data = round_form_data(rounds.round_body(stored), view.players)
        data["ending"] = _ending_asked(stored.ending)
        data["version"] = str(stored.version)
        if data["ending"] == "pool_empty":
            data.pop("winner", None)  # the racks decide again; a tie asks
        form = round_form(view.players, data, fresh_key=False)
        flagged = {p for p, e in stored.entries.items() if e.flagged}
        return _round_page(view, form, number=number, flagged=flagged)

    def save(body: dict[str, Any]) -> rounds.Written:
        body.pop("key", None)
        body.pop("number", None)
        written = rounds.replace_round(session_id, number, body)
        remember_undo("edit", written.stamp, number, written.before)
        return written

    # A Save from a page left open names its round by version: that round may have moved to
    # another number or gone (the service then says stale_round). The save reads the session
    # itself; before it, only the seats (for the form's fields).
    return _record(session_id, round_form(seating(session_id), fresh_key=False), save, number)


def _record(
    session_id: int,
    form: RoundForm,
    save: Callable[[dict[str, Any]], rounds.Written],
    number: int | None,
    view: SessionView | None = None,
) -> Response | tuple[str, int]:
    """Save the round, or show the form again with every typed value and the problems (beside
    `view`, the session as read before the save, else as it is then)."""
    if not form.validate():
        return _round_page(view or get_session(session_id), form, number=number), 422
    body = form.to_body()
    try:
        written = save(body)
    except RulesError as error:
        if error.code in TABLE_MOVED or any(p.field == "number" for p in error.problems):
            # Keep what was typed, beside the table as it is now, so a second Save after a look
            # goes through; a deleted round keeps its version, so no Save lands on another round.
            view = get_session(session_id)
            if number is None:
                form.number.data = str(view.standings.rounds_played + 1)
                form.version.data = str(view.version)
                if error.code == "key_reused":
                    form.key.data = uuid.uuid4().hex
            else:
                number = _number_now(view, number, error, form)
        elif view is None:
            view = get_session(session_id)
        general = form.show_problems(error.problems, body, view.settings.played_with)
        if error.code == "key_reused":  # the key is the form's own business: say it plainly
            used = error.problems[0].params.get("number", 0)
            general = [
                gettext(
                    "This form saved round %(number)s already, so the round typed here was not "
                    "saved: check it below and save again.",
                    number=format_number(used),
                )
            ]
        page = _round_page(view, form, number=number, problems=error.problems, general=general)
        return page, status_for(error)
    said = format_number(written.round.number)
    message = None
    if session.get(UNDO_KEY) is None:  # else the Undo offer says it: one message per change
        if number is None:
            message = gettext("Round %(number)s saved.", number=said)
        else:
            message = gettext("Round %(number)s changed.", number=said)
        if not wants_fragment():
            flash(message, "success")
    if wants_fragment():  # the table as this save left it, not read again
        return live_part(written.session, written.stamp, message)
    return redirect(url_for("sessions.show", session_id=session_id))


def _number_now(view: SessionView, number: int, error: RulesError, form: RoundForm) -> int:
    """Where the round being edited is now, after a stale_round: its new number when it moved, its
    number with the current version when changed there; a deleted one keeps its version."""
    stale = stale_round(view, number, error)
    if stale is not None and stale.number == number:
        form.version.data = str(stale.version)
    return stale.number if stale is not None else number


def stale_round(view: SessionView, number: int, error: RulesError) -> RoundView | None:
    """The round a stale_round was about, as it is now: moved, changed, or None when gone."""
    params = error.problems[0].params
    if params.get("gone"):
        return None
    now = params.get("now", number)
    return next((r for r in view.rounds if r.number == now), None)


def _typo_yes(typed: list[int]) -> str | None:
    """The one tap that confirms the flagged entries, in their numbers: "Yes, 190 is right"."""
    if len(typed) == 1:
        return gettext("Yes, %(number)s is right", number=typed[0])
    return gettext("Yes, they are right") if typed else None


def _round_page(
    view: SessionView,
    form: RoundForm,
    number: int | None = None,
    problems: list[Problem] | None = None,
    general: list[str] | None = None,
    flagged: set[str] | None = None,
    focus: int | None = None,
) -> str:
    problems = problems or []
    ending = form.ending.data if form.ending.data in ENDING_CHOICES else "went_out"
    flagged = set(flagged or ()) | {
        p.field for p in problems if p.code == "confirm_required" and p.field
    }
    typed = [
        p.params.get("rack", p.params["value"]) for p in problems if p.code == "confirm_required"
    ]
    tie = next((p for p in problems if p.code == "tie"), None)
    tied = list(tie.params.get("tied") or view.players) if tie else []
    wrong_winner = any(p.field == "winner" for p in problems)
    if number is None:
        tabs = {"endpoint": "rounds.new", "args": {"session_id": view.id}}
        title = gettext(
            "Round %(number)s of %(planned)s",
            number=format_number(view.standings.rounds_played + 1),
            planned=format_number(view.rounds_planned),
        )
    else:
        tabs = {"endpoint": "rounds.edit", "args": {"session_id": view.id, "number": number}}
        title = gettext("Edit round %(number)s", number=format_number(number))
    seats = range(len(view.players))
    counts_typed = any(
        form.seat_field("count", i).data or form.seat_field("count", i).errors for i in seats
    )
    return render_template(
        "rounds/_entry.html" if wants_fragment() else "rounds/form.html",
        fragment=wants_fragment(),
        view=view,
        form=form,
        ending=ending,
        endings=ENDING_TITLES,
        tabs=tabs,
        title=title,
        number=number,
        errors=general or [],
        flagged=flagged,
        confirm_asked=bool(flagged) or bool(form.confirm.data),
        typo_yes=_typo_yes(typed),
        winner_choice=tied or (list(view.players) if wrong_winner or form.winner_name() else []),
        counts_open=view.settings.empty_pool == "fewest_tiles" or bool(tie) or counts_typed,
        focus=focus,
    )


@bp.route("/rounds/<int:number>/delete", methods=["GET", "POST"])
@no_store
def delete(session_id: int, number: int) -> str | Response | tuple[str, int]:
    """Ask first, then delete the round of the version the page shows, or none; the session page
    offers an Undo. Asked in place, the answer is the new live table."""
    form = DeleteRoundForm()
    if request.method == "GET" or not form.validate_on_submit():
        view = get_session(session_id)
        stored = _round_or_404(view, number)
        form.version.data = str(stored.version)
        return render_template("rounds/delete.html", view=view, round=stored, form=form)
    try:
        deleted = rounds.delete_round(session_id, number, form.round_version())
    except RulesError as error:  # stale_round: show the round as it is now, and ask again
        current = get_session(session_id)
        shown = stale_round(current, number, error)
        form.version.data = str(shown.version) if shown else form.version.data
        page = render_template(
            "rounds/delete.html",
            view=current,
            round=shown,
            form=form,
            errors=[translate(p) for p in error.problems],
        )
        return page, status_for(error)
    remember_undo("delete", deleted.stamp, number, deleted.body)
    if wants_fragment():  # the table as this delete left it, not read again
        return live_part(deleted.session, deleted.stamp)
    return redirect(url_for("sessions.show", session_id=session_id))


@bp.post("/rounds/restore")
def restore(session_id: int) -> Response:
    """Undo this phone's last add, edit or delete of a round unless the table changed since (on any
    phone); asked in place (static/live.js), the answer is the live table saying what was done."""
    undo = pending_undo(session_stamp(session_id))
    kind = str((undo or session.get(UNDO_KEY) or {}).get("kind", "delete"))
    forget_undo()
    said: list[str] = []
    failed = True
    if undo is None:
        said.append(str(TOO_LATE.get(kind, TOO_LATE["delete"])))
    else:
        number = int(undo["number"])
        try:
            rounds.undo_change(session_id, kind, number, undo.get("body"), int(undo["version"]))
        except RulesError as error:
            late = TOO_LATE.get(kind) if error.code == "stale_undo" else None
            said.extend(str(late) if late is not None else translate(p) for p in error.problems)
        else:
            said.append(str(UNDONE[kind]) % {"number": format_number(number)})
            failed = False
    if wants_fragment():
        view = get_session(session_id)
        return live_part(view, session_stamp(session_id), " ".join(said), error=failed)
    for message in dict.fromkeys(said):
        flash(message, "error" if failed else "success")
    return redirect(url_for("sessions.show", session_id=session_id))
