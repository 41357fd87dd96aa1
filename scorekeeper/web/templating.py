"""The template helpers every page may use: filters, globals and the labels of the settings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import date
from typing import Any

from flask import Blueprint, url_for
from flask_babel import format_number, gettext, ngettext, pgettext
from markupsafe import Markup, escape

from scorekeeper.network import home_network_url
from scorekeeper.rules import Standings
from scorekeeper.services.lists import SessionSummary
from scorekeeper.services.views import SessionView
from scorekeeper.web.chart import WIDTH, chart_height
from scorekeeper.web.forms.common import SETTING_LABELS
from scorekeeper.web.i18n import local_time
from scorekeeper.web.messages import change_text
from scorekeeper.web.seats import marks, names_fit
from scorekeeper.web.text import lazy_text as _l
from scorekeeper.web.text import names_list

bp = Blueprint("templating", __name__)


@bp.app_template_filter("signed")
def signed(score: int) -> str:
    """A score as the table shows it: +85, -22, 0."""
    return f"{score:+d}" if score else "0"


@bp.app_template_filter("tone")
def tone(total: int) -> str:
    """The one colour rule of scores and totals (static/table.css): `pos` (the winners' green)
    above zero, `neg` (the losers' red) below, `zero` (the text's colour) at zero."""
    return "pos" if total > 0 else "neg" if total < 0 else "zero"


@bp.app_template_filter()
def on_session_page(url: str) -> str:
    """A link of the session page (/sessions/<id>) relative to it ("1/summary"): ten bytes less
    for each of its many links; unchanged where the app is served under a prefix."""
    return url.removeprefix("/sessions/")


@bp.app_template_global()
def score_rows(
    view: SessionView, table: Standings, edit_href: Markup | None, edit_label: Markup | None
) -> Markup:
    """The rows of the score table's body (sessions/_table.html); `edit_href` ("%d") and
    `edit_label` ("%(n)s") make each round's number a link. Why in Python: docs/DESIGN.md."""
    cards = view.settings.played_with == "cards"
    flag = dropped_words = ""
    parts: list[str] = []
    for r in view.rounds:
        number = r.number
        if edit_href is None or edit_label is None:
            parts.append(f"<tr><th>{number}")
        else:
            href, label = edit_href % (number,), edit_label % {"n": number}
            parts.append(f'<tr><th><a href="{href}" aria-label="{label}">{number}</a>')
        for p in view.players:
            e = r.entries.get(p)
            dropped = table.dropped[p] == number
            # The body is `neg`: only the other cells say their tone.
            cls = "dropped" if dropped else tone(e.score) if e else "neg"
            parts.append("<td>" if cls == "neg" else f'<td class="{cls}">')
            if not e:
                continue
            shown = signed(e.score)
            parts.append(f"<s>{shown}</s>" if dropped else shown)
            if e.flagged:
                flag = flag or Markup(
                    '<span class="flag" role="img" title="{0}" aria-label="{0}">⚠</span>'
                ).format(Markup(gettext("confirmed unusual entry")))
                parts.append(flag)
            if dropped:
                dropped_words = dropped_words or Markup(
                    '<span class="visually-hidden"> {}</span>'
                ).format(Markup(gettext("dropped")))
                parts.append(dropped_words)
            if e.tiles:
                if cards:
                    count = ngettext("%(num)s card", "%(num)s cards", e.tile_count or 0)
                else:
                    count = ngettext("%(num)s tile", "%(num)s tiles", e.tile_count or 0)
                parts.append(
                    f"<details><summary>{count}</summary>"
                    f"<span>{escape(' '.join(e.tiles))}</span></details>"
                )
    return Markup("".join(parts))


#: A place in the standings, shown under each total (six players at most).
PLACES = (
    _l("1st"),
    _l("2nd"),
    _l("3rd"),
    _l("4th"),
    _l("5th"),
    _l("6th"),
)


@bp.app_template_filter("place")
def place(number: int) -> str:
    """A place in the standings in the language's short way: 1st, 2nd (1er, 2e; 1., 2.)."""
    return str(PLACES[number - 1])


@bp.app_template_global()
def lead_words(table: Standings) -> str:
    """The lead in words under the table: who leads whom by how much, who are level, and at
    the end who won by how much (the banner says who share a win)."""
    lead = table.lead
    if lead is None or (table.complete and not lead.behind):
        return ""
    if not lead.behind:
        return gettext("%(names)s are level", names=names_list(lead.ahead))
    if table.complete:
        return ngettext(
            "%(name)s won by %(points)s point",
            "%(name)s won by %(points)s points",
            lead.by,
            name=lead.ahead[0],
            points=format_number(lead.by),
        )
    return ngettext(
        "%(name)s leads %(names)s by %(points)s point",
        "%(name)s leads %(names)s by %(points)s points",
        lead.by,
        name=lead.ahead[0],
        names=names_list(lead.behind),
        points=format_number(lead.by),
    )


@bp.app_template_global()
def told_apart(found: Sequence[SessionSummary]) -> dict[int, str]:
    """For sessions of one day that look alike (one name, or none), when each was started:
    "Started 19:30", and "Started 19:30 (2)" for the second of one minute."""
    alike: dict[tuple[str, date], list[SessionSummary]] = {}
    for summary in found:
        alike.setdefault((summary.name, summary.played_on), []).append(summary)
    words: dict[int, str] = {}
    for group in alike.values():
        if len(group) < 2:
            continue
        times = {s.id: local_time(s.started) if s.started else "" for s in group}
        per_minute = Counter(times.values())
        seen: Counter[str] = Counter()
        for summary in sorted(group, key=lambda s: s.id):
            time = times[summary.id]
            seen[time] += 1
            if per_minute[time] > 1:
                words[summary.id] = gettext("Started %(time)s (%(n)s)", time=time, n=seen[time])
            else:
                words[summary.id] = gettext("Started %(time)s", time=time)
    return words


@bp.app_template_filter("and_list")
def and_list(names: Iterable[str]) -> str:
    """`Ann`, `Ann and Bo`, `Ann, Bo and Cy`: joined by the language's own rules (`Tomek i
    Zosia`, `Ann, Bo og Cy`)."""
    return names_list(names)


bp.add_app_template_filter(change_text, "change_text")

#: The words of a setting's value that is a choice (forms.py offers the same words).
SETTING_WORDS = {
    "difference": _l("Difference"),
    "fewest_tiles": _l("Fewest tiles"),
    "tiles": _l("Tiles"),
    "cards": _l("Two card decks"),
}


@bp.app_template_filter("setting")
def setting(value: object) -> str:
    """A setting's value in words: on/off for switches, off for no winner bonus, a choice in
    its own words, a number in the language's digits."""
    if value is True:
        return pgettext("a setting switched", "on")
    if value is False or value is None:
        return pgettext("a setting switched", "off")
    if isinstance(value, int):
        return format_number(value)
    word = SETTING_WORDS.get(str(value))
    return str(word) if word is not None else str(value).replace("_", " ")


@bp.app_template_global()
def round_of(view: SessionView | SessionSummary) -> str:
    """Where the evening stands: the round being played now, or that all are played."""
    played, planned = view.rounds_played, view.rounds_planned
    if view.complete:
        if played == planned:
            return gettext("All %(planned)s rounds played", planned=format_number(planned))
        return gettext("%(played)s rounds played", played=format_number(played))
    return gettext(
        "Round %(number)s of %(planned)s",
        number=format_number(played + 1),
        planned=format_number(planned),
    )


@bp.app_context_processor
def setting_labels() -> dict[str, Any]:
    """The setting labels in the request's language (lazy: each renders when shown)."""
    return {"labels": SETTING_LABELS}


bp.add_app_template_global(marks, "seat_marks")
bp.add_app_template_global(names_fit, "names_fit")


@bp.app_template_global()
def chart_size(players: Sequence[str]) -> tuple[int, int]:
    """The chart image's width and height, so the page keeps its place before it arrives."""
    return WIDTH, chart_height(players)


@bp.app_template_global()
def join_address(session_id: int) -> str:
    """The session page's address for the other phones (the QR code's text, shown under it)."""
    return home_network_url(url_for("sessions.show", session_id=session_id, _external=True))
