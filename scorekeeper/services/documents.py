"""The JSON documents of docs/DESIGN.md §3, built from the session table (for API and backups)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from scorekeeper.rules import MeldCheck, Problem, SetCheck
from scorekeeper.rules.sets import SwapCheck
from scorekeeper.services.changes import Change
from scorekeeper.services.lists import SessionSummary
from scorekeeper.services.views import RoundView, SessionView

#: How a document words a change: English by default; the web layer passes its translator.
ChangeRender = Callable[[Change], str]


def round_document(view: RoundView) -> dict[str, Any]:
    """A round as the API returns it: inputs, derived scores and confirmed flags."""
    doc: dict[str, Any] = {
        "number": view.number,
        "ending": view.ending,
        "winner": view.winner,
        "racks": {p: e.rack_value for p, e in view.entries.items() if e.rack_value is not None},
        "scores": view.scores,
        "flags": [p for p, e in view.entries.items() if e.flagged],
        "version": view.version,
    }
    counts = {p: e.tile_count for p, e in view.entries.items() if e.tile_count is not None}
    if counts:
        doc["tile_counts"] = counts
    tiles = {p: list(e.tiles) for p, e in view.entries.items() if e.tiles is not None}
    if tiles:
        doc["tiles"] = tiles
    return doc


#: How a document names a session: its name, or its day for one made without a name (the
#: stored name is then ""); English by default, the web layer passes the reader's language.
Title = Callable[[str, date], str]


def english_title(name: str, day: date) -> str:
    return name or f"{day:%A} {day.day} {day:%B}"


def session_summary(summary: SessionSummary, title: Title = english_title) -> dict[str, Any]:
    """A session in a list: enough to pick it, named by `title`."""
    return {
        "id": summary.id,
        "name": title(summary.name, summary.played_on),
        "date": summary.played_on.isoformat(),
        "players": list(summary.players),
        "rounds_planned": summary.rounds_planned,
        "rounds_played": summary.rounds_played,
        "complete": summary.complete,
        "leaders": list(summary.leaders),
    }


def change_document(change: Change | None, describe: ChangeRender) -> dict[str, Any] | None:
    """What the last write did: its code, its round (or null), its other params by name, and
    its `message` worded by `describe` (the web layer's: in the request's language)."""
    if change is None:
        return None
    others = {k: v for k, v in change.params.items() if k != "round"}
    return {"code": change.code, "round": change.round, **others, "message": describe(change)}


def english_change(change: Change) -> str:
    return change.message


def session_document(
    view: SessionView, describe: ChangeRender | None = None, title: Title = english_title
) -> dict[str, Any]:
    """A whole session: players, rules, rounds, totals after drops, and the winners; the last
    change worded by `describe` and the session named by `title` (English by default)."""
    table = view.standings
    return {
        "id": view.id,
        "name": title(view.name, view.played_on),
        "date": view.played_on.isoformat(),
        "players": list(view.players),
        "rounds_planned": view.rounds_planned,
        "rules": view.settings.to_dict(),
        "rounds": [round_document(r) for r in view.rounds],
        "totals": table.totals,
        "dropped": table.dropped,
        "complete": view.complete,
        "winners": list(table.winners),
        "version": view.version,
        "last_change": change_document(view.last_change, describe or english_change),
        "notes": view.notes,
    }


#: How a document words a problem: English by default; the web layer passes its translator.
Render = Callable[[Problem], str]
TextRender = Callable[[str], str]


def english(problem: Problem) -> str:
    return problem.message


def same_text(text: str) -> str:
    return text


def set_document(check: SetCheck, played_with: str, render: Render = english) -> dict[str, Any]:
    """The table checker's verdict on one set (`reason` worded by `render`)."""
    return {
        "valid": check.valid,
        "readings": [
            {"kind": r.kind, "as": r.notation(played_with), "points": r.points}
            for r in check.readings
        ],
        "points": check.points if check.valid else 0,
        "reason": render(check.reason) if check.reason else None,
    }


def meld_document(check: MeldCheck, played_with: str, render: Render = english) -> dict[str, Any]:
    """The verdict on an initial meld, with each set's verdict."""
    return {
        "valid": check.valid,
        "points": check.points,
        "minimum": check.minimum,
        "reason": render(check.reason) if check.reason else None,
        "sets": [set_document(s, played_with, render) for s in check.sets],
    }


def swap_document(
    check: SwapCheck,
    played_with: str,
    render: Render = english,
    render_text: TextRender = same_text,
) -> dict[str, Any]:
    """The verdict on taking a joker from the table, with the reminder once it is allowed."""
    return {
        "allowed": check.allowed,
        "stands_for": [t.notation(played_with) for t in check.stands_for],
        "reason": render(check.reason) if check.reason else None,
        "reminder": render_text(check.reminder) if check.reminder else None,
    }
