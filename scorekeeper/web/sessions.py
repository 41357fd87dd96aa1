"""Session pages: the list of evenings, a new session, the score table (kept live on every
phone), extend, rename, notes, the undo of this phone's last change, the summary and chart."""

from __future__ import annotations

import json
import uuid
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import format_number, gettext, ngettext, pgettext
from werkzeug.wrappers import Response

from scorekeeper.network import home_network_url, qr_svg
from scorekeeper.rules import PRESETS, RulesError, Setting, Settings
from scorekeeper.rules.numbers import whole_number
from scorekeeper.rules.players import differing_rules, tile_sets_for
from scorekeeper.services import lists, sessions, stamps, views
from scorekeeper.services.errors import NotFound, status_for
from scorekeeper.services.views import SessionView
from scorekeeper.web.access import session_stamp
from scorekeeper.web.chart import ChartWords, running_chart
from scorekeeper.web.forms.common import (
    ID_DIGITS,
    MAX_PLAYERS,
    NUMBER_PAD_SETTINGS,
    PAGE_DIGITS,
    SCORING_SETTINGS,
    TABLE_SETTINGS,
    SelectChoice,
    add_error,
)
from scorekeeper.web.forms.sessions import (
    NewSessionForm,
    NotesForm,
    RenameForm,
    matching_preset,
    preset_values,
    with_preset,
)
from scorekeeper.web.i18n import local_day, number, session_title
from scorekeeper.web.messages import translate
from scorekeeper.web.responses import conditional, etag_of, no_store
from scorekeeper.web.seats import THEMES
from scorekeeper.web.text import lazy_text as _l
from scorekeeper.web.undo import forget_undo, pending_undo

bp = Blueprint("sessions", __name__)

# Whether this phone draws who starts right after Start (the new-session page's choice).
DRAW_FIRST_KEY = "draw_first"


@bp.get("/")
def home() -> str:
    """Sessions in progress first, then the finished ones, a page at a time (`?page=2`);
    a big button to start one."""
    number = whole_number(request.args.get("page"), PAGE_DIGITS) or 1
    return render_template("sessions/home.html", page=lists.home_page(number))


@bp.route("/sessions/new", methods=["GET", "POST"])
@no_store
def new_session() -> str | Response | tuple[str, int]:
    """Who plays and with which rules: the family's last settings are the defaults, those of the
    session repeated for a rematch (`?again=<id>`)."""
    again = _session_or_none(whole_number(request.args.get("again"), ID_DIGITS))
    carried = again.settings if again else lists.last_rules()
    defaults = {**carried.to_dict(), "preset": matching_preset(carried) or ""}
    page = NewSessionPage(carried, again)
    if request.method == "POST" and "use_preset" in request.form:
        # The preset chosen, or with "" the rules carried over ("Our last settings").
        chosen = PRESETS.get(request.form.get("preset", "standard"), carried)
        form = NewSessionForm(formdata=with_preset(request.form, chosen), data=defaults)
        return page.render(form, [])
    if request.method == "GET" and again is not None:
        defaults.update({f"player_{i}": name for i, name in enumerate(again.players)})
    if request.method == "GET":
        defaults["key"] = uuid.uuid4().hex  # sent twice, the form makes one session
        defaults["draw_first"] = bool(session.get(DRAW_FIRST_KEY))
    form = NewSessionForm(data=defaults)
    if not form.is_submitted():
        return page.render(form, [])
    players = form.players()
    form.fit_tile_sets(len(players))
    if not form.validate():
        return page.render(form, []), 422
    try:
        view = sessions.create_session(
            players,
            form.name.data,
            form.rounds.data,
            form.rules(),
            key=form.key.data or None,
        )
    except RulesError as error:
        if error.code == "key_reused":  # another session was made with this form: a new one
            form.key.data = uuid.uuid4().hex
        general = form.show_problems(error.problems)
        return page.render(form, general), status_for(error)
    if tile_sets_for(len(players)) > 1:  # switched here, by the page's script or by hand
        flash(two_sets_words(len(players)), "success")
    session[DRAW_FIRST_KEY] = bool(form.draw_first.data)
    if form.draw_first.data:
        return redirect(url_for("who_starts.who_starts_page", session_id=view.id))
    return redirect(url_for("sessions.show", session_id=view.id))


def _session_or_none(session_id: int | None) -> SessionView | None:
    """The session a rematch repeats, or None (no number, or no such session)."""
    if session_id is None:
        return None
    try:
        return views.get_session(session_id)
    except NotFound:
        return None


def two_sets_words(count: int) -> str:
    """What a table of five or six says of its tile sets (switched to two by itself)."""
    return gettext("%(count)s players: two tile sets.", count=format_number(count))


class NewSessionPage:
    """The new-session page for the rules it starts from (`carried`: the last session's, or
    those of the session a rematch repeats)."""

    def __init__(self, carried: Settings, again: SessionView | None) -> None:
        self.carried = carried
        self.again = again

    def render(self, form: NewSessionForm, general: list[str]) -> str:
        form.preset.choices = [
            SelectChoice("standard", _l("Standard")),
            SelectChoice("tournament", _l("Tournament")),
        ]
        if form.preset.data not in ("standard", "tournament"):
            carried = (
                gettext("Rules of %(name)s", name=self.title())
                if self.again
                else gettext("Our last settings")
            )
            form.preset.choices.insert(0, SelectChoice("", carried))
        count = len(form.players())
        action = url_for("sessions.new_session", again=self.again.id if self.again else None)
        return render_template(
            "sessions/new.html",
            form=form,
            action=action,
            errors=general,
            known_names=lists.known_player_names(),
            presets=json.dumps({"": self.carried.to_dict(), **preset_values()}),
            scoring_settings=SCORING_SETTINGS,
            number_pad_settings=NUMBER_PAD_SETTINGS,
            table_settings=TABLE_SETTINGS,
            more_rules_open=any(form[key].errors for key in TABLE_SETTINGS),
            scoring_open=any(form[key].errors for key in (*SCORING_SETTINGS, *TABLE_SETTINGS)),
            rules=self.rules_said(form, count),
            tile_sets_for=[tile_sets_for(n) for n in range(MAX_PLAYERS + 1)],
            sets_said=two_sets_words(count) if tile_sets_for(count) > 1 else "",
        )

    def title(self) -> str:
        """The name of the session a rematch repeats, as its pages show it."""
        assert self.again is not None
        return session_title(self.again.name, self.again.played_on)

    def rules_said(self, form: NewSessionForm, count: int) -> dict[str, Any]:
        """The rules apart from the standard set, each as (field id, words), and what the line
        says first: as last time, as in the session repeated, or that they are changed."""
        typed = form.rules()
        differing = differing_rules(typed, count)
        carried = self.carried.to_dict()
        if self.again is not None:
            as_carried = gettext("As in %(name)s:", name=self.title())
        else:
            as_carried = gettext("As last time:")
        changed = gettext("Not the printed rules:")
        same = all(typed[s.name] == carried[s.name] for s in differing)
        return {
            "items": [(form[s.name].id, s.name, rule_words(form, s)) for s in differing],
            "first": as_carried if same else changed,
            "as_carried": as_carried,
            "changed": changed,
            "standard": list(Settings().to_dict().items()),  # in declaration order
            "carried": carried,
            "off": pgettext("a setting switched", "off"),
        }


def rule_words(form: NewSessionForm, declared_setting: Setting) -> str:
    """One rule as the line above Start says it: a switch on by its label, anything else as
    `Label: value` in the words the form shows for it (the script says it the same way)."""
    field = form[declared_setting.name]
    label = str(field.label.text)
    value = field.data
    if value is True:
        return label
    if declared_setting.options:
        shown = next((gettext(text) for v, text in declared_setting.options if v == value), "")
    elif value is None or value is False:
        shown = pgettext("a setting switched", "off")
    else:
        shown = str(value)
    return gettext("%(setting)s: %(value)s", setting=label, value=shown)


@bp.get("/sessions/<int:session_id>")
def show(session_id: int) -> str:
    """The score table of the evening, kept live on every phone by static/live.js."""
    # The stamp first: a round saved in between gives a newer table under an older tag, which
    # the next poll fetches again.
    stamp = session_stamp(session_id)
    view = views.get_session(session_id)
    return render_template("sessions/show.html", **_live_context(view, stamp))


@bp.get("/sessions/<int:session_id>/details")
@no_store
def details(session_id: int) -> str:
    """The notes, renaming a player and the rules: linked from the session page."""
    return _details_page(views.get_session(session_id))


def _details_page(
    view: SessionView,
    rename_form: RenameForm | None = None,
    notes_form: NotesForm | None = None,
    stored_notes: bool = False,
) -> str:
    """The details page; `stored_notes`: show the notes stored now above the field (a Save
    typed over other notes, kept in the field)."""
    if rename_form is None:
        rename_form = RenameForm(formdata=None)
    rename_form.position.choices = [SelectChoice(i, p) for i, p in enumerate(view.players)]
    if notes_form is None:
        notes_form = NotesForm(formdata=None, data={"notes": view.notes})
    # The notes as this page shows them: a Save typed over other notes is refused.
    notes_form.notes_seen.data = stamps.notes_tag(view.notes)
    return render_template(
        "sessions/details.html",
        view=view,
        rename_form=rename_form,
        notes_form=notes_form,
        stored_notes=stored_notes,
    )


def _live_context(view: SessionView, stamp: stamps.Stamp) -> dict[str, Any]:
    """What the live part of the session page (sessions/_live.html) is drawn from."""
    return {
        "view": view,
        "table": view.standings,
        "undo": pending_undo(stamp),
        "etag": f'W/"{etag_of(stamp, "table")}"',
        "stamp": stamp,
    }


def live_part(
    view: SessionView, stamp: stamps.Stamp, message: str | None = None, error: bool = False
) -> Response:
    """The live part as a round saved in place left it (static/entry.js swaps it in), drawn from
    what the save wrote; `message` when no Undo says it (`error`: what could not be done)."""
    context = _live_context(view, stamp)
    response = make_response(
        render_template("sessions/_live.html", **context, message=message, message_error=error)
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/sessions/<int:session_id>/table")
def live_table(session_id: int) -> Response:
    """The live part of the session page alone, polled by static/live.js with its ETag: a bodiless
    304 while nothing changed, else the part as the server draws it."""
    stamp = session_stamp(session_id)

    def draw() -> str:
        view = views.get_session(session_id)
        return render_template("sessions/_live.html", **_live_context(view, stamp))

    return conditional(stamp, "table", draw)


@bp.post("/sessions/<int:session_id>/notes")
@no_store
def notes(session_id: int) -> Response | tuple[str, int]:
    """Keep the notes typed on the session page (escaped wherever they are shown), unless
    they were typed over other notes than those stored now: then the page shows both."""
    form = NotesForm()
    if not form.validate():  # only the CSRF token can fail here
        abort(400)
    try:
        view = sessions.save_notes(session_id, form.notes.data or "", form.notes_seen.data or None)
    except RulesError as error:
        for problem in error.problems:
            add_error(form.notes, translate(problem))
        current = views.get_session(session_id)
        page = _details_page(current, notes_form=form, stored_notes=error.code == "stale_notes")
        return page, status_for(error)
    forget_undo()
    flash(gettext("Notes saved.") if view.notes else gettext("Notes cleared."), "success")
    return redirect(url_for("sessions.show", session_id=session_id, _anchor="notes-section"))


@bp.get("/sessions/<int:session_id>/summary")
def summary(session_id: int) -> str:
    """The evening at a glance: winners, totals, the chart and the table; prints on a page."""
    stamp = session_stamp(session_id)
    view = views.get_session(session_id)
    table = view.standings
    ranking = sorted(view.players, key=lambda p: (-table.totals[p], view.players.index(p)))
    return render_template(
        "sessions/summary.html",
        view=view,
        table=table,
        ranking=ranking,
        file_stem=_file_stem(view),
        stamp=stamp,
    )


@bp.get("/sessions/<int:session_id>/chart.svg")
def chart_svg(session_id: int) -> Response:
    """The chart as an image file of its own, light or `?theme=dark` (another theme is a 400);
    asked for with the version it shows (`?v=`), the phone may keep it for good."""
    theme = request.args.get("theme", "light")
    if theme not in THEMES:
        abort(400)
    stamp = session_stamp(session_id)
    view = views.get_session(session_id)
    chart = running_chart(view, standalone=True, words=chart_words(), theme=theme)
    response = make_response(str(chart))
    response.mimetype = "image/svg+xml"
    if request.args.get("v") == stamp.tag and stamp.version == view.version:
        response.headers["Cache-Control"] = "private, max-age=31536000, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    name = f"{_file_stem(view)}-chart{'' if theme == 'light' else '-' + theme}.svg"
    response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    return response


def chart_words() -> ChartWords:
    """The chart's words, dates and numbers in the request's language."""
    return ChartWords(
        signed=lambda value: number(value, 0, signed=True) if value else number(0),
        day=local_day,
        title=lambda name: gettext("Running totals · %(name)s", name=name),
        session=session_title,
        subtitle=lambda day: gettext("%(day)s · running totals", day=day),
        described=lambda rounds, after: ngettext(
            "Running totals after round %(rounds)s: %(after)s.",
            "Running totals after each of %(rounds)s rounds; after round %(rounds)s: %(after)s.",
            rounds,
            rounds=format_number(rounds),
            after=after,
        ),
        nothing_yet=gettext("No rounds played yet: every total is 0."),
        no_rounds=gettext("No rounds yet"),
        start=pgettext("the chart's first mark, before round 1", "start"),
        number=format_number,
        separator=pgettext("list separator", ", "),
    )


@bp.get("/sessions/<int:session_id>/qr.svg")
def qr_code(session_id: int) -> Response:
    """The QR code of the session page's address as the other phones on the Wi-Fi reach it
    (this machine's home-network address, even when this page was opened as localhost)."""
    session_stamp(session_id)
    url = home_network_url(url_for("sessions.show", session_id=session_id, _external=True))
    response = make_response(qr_svg(url, gettext("QR code of %(address)s", address=url)))
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "no-cache"
    return response


def _file_stem(view: SessionView) -> str:
    """An ASCII file name for the session: its name's letters and digits, and the date."""
    title = session_title(view.name, view.played_on).lower()
    letters = "".join(c if c.isascii() and c.isalnum() else "-" for c in title)
    stem = "-".join(part for part in letters.split("-") if part)[:40] or "session"
    return f"{stem}-{view.played_on.isoformat()}"


@bp.post("/sessions/<int:session_id>/extend")
def extend(session_id: int) -> Response:
    """The family agrees to play one more round (CSRFProtect has checked the token), from the
    table as the page showed it (its version): two phones tapping it add one round."""
    seen = request.form.get("version", "")
    version = int(seen) if seen.isascii() and seen.isdigit() and len(seen) < 13 else None
    try:
        view = sessions.extend_session(session_id, 1, version)
    except RulesError as error:
        for problem in error.problems:
            flash(translate(problem), "error")
        return redirect(url_for("sessions.show", session_id=session_id))
    forget_undo()
    flash(
        gettext(
            "One more round: %(rounds)s rounds in all.",
            rounds=format_number(view.rounds_planned),
        ),
        "success",
    )
    return redirect(url_for("sessions.show", session_id=session_id))


@bp.post("/sessions/<int:session_id>/rename")
@no_store
def rename_seat(session_id: int) -> Response | tuple[str, int]:
    """The session page's rename form: the seat is chosen in the form."""
    form = RenameForm()
    if form.position.data is None:
        abort(400)
    return _rename(session_id, form.position.data, form)


@bp.post("/sessions/<int:session_id>/players/<int:position>/rename")
@no_store
def rename(session_id: int, position: int) -> Response | tuple[str, int]:
    """Rename the player in one seat; their past rounds keep their scores."""
    form = RenameForm()
    form.position.data = position
    return _rename(session_id, position, form)


def _rename(session_id: int, position: int, form: RenameForm) -> Response | tuple[str, int]:
    try:
        view = sessions.rename_player(session_id, position, form.name.data or "")
    except RulesError as error:
        for problem in error.problems:
            add_error(form.name, translate(problem))
        view = views.get_session(session_id)
        if not 0 <= position < len(view.players):
            abort(404)
        return _details_page(view, form), status_for(error)
    forget_undo()
    flash(gettext("Renamed to %(name)s.", name=view.players[position]), "success")
    return redirect(url_for("sessions.show", session_id=session_id))
