"""The JSON documents the API answers (docs/DESIGN.md §3): each declared once as a TypedDict,
whose JSON Schema (`document_schemas`) is the OpenAPI's, and built from the services' views."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Annotated, Any, NotRequired, cast

from pydantic import ConfigDict, Field, TypeAdapter, WithJsonSchema, with_config
from typing_extensions import TypeAliasType, TypedDict

from scorekeeper import rules
from scorekeeper.rules import sets
from scorekeeper.rules.scoring import ENDINGS
from scorekeeper.services import changes, lists
from scorekeeper.services.bodies import Untitled, settings_schema
from scorekeeper.services.views import RoundView, SessionView

# Every document is closed: a key not declared here is never answered.
CLOSED = ConfigDict(extra="forbid")


def _about(description: str, **bounds: Any) -> Any:
    return Field(description=description, **bounds)


ByPlayer = dict[str, int]
Names = list[str]
SessionName = Annotated[
    str,
    _about(
        "The name to show: for a session made without one, its day in the asking phone's "
        "language (Accept-Language), e.g. Sunday 1 June."
    ),
]
Day = Annotated[str, Field(json_schema_extra={"format": "date"})]
_SETTINGS = settings_schema()
Rules = TypeAliasType(
    "Rules",
    Annotated[
        dict[str, Any],
        WithJsonSchema(
            {
                "type": "object",
                "required": list(_SETTINGS),
                "properties": _SETTINGS,
                "additionalProperties": False,
                "description": "Every setting, defaults filled in.",
            }
        ),
    ],
)


@with_config(CLOSED)
class Change(TypedDict):
    """What a write did: its code and params, and the same in words."""

    code: Annotated[
        str,
        _about(
            "What the write did, stable for machines (services/changes.py).",
            json_schema_extra={"enum": list(changes.CHANGES)},
        ),
    ]
    round: Annotated[int | None, _about("The round it was about (`round_*` codes), else null.")]
    count: NotRequired[Annotated[int, _about("`rounds_agreed`: how many more.")]]
    seconds: NotRequired[Annotated[int, _about("`clock_set`: seconds per turn.")]]
    before: NotRequired[Annotated[str, _about("`player_renamed`: the old name.")]]
    after: NotRequired[Annotated[str, _about("`player_renamed`: the new name.")]]
    message: Annotated[
        str,
        _about(
            "The same in words, in the asking phone's language (Accept-Language, or the "
            "language cookie): `Round 3 added`, `Runde 3 tilføjet`."
        ),
    ]


@with_config(CLOSED)
class Round(TypedDict):
    """A round: how it ended, what was entered, the derived scores."""

    number: Annotated[int, Field(ge=1)]
    ending: Annotated[str, Field(json_schema_extra={"enum": list(ENDINGS)})]
    winner: str | None
    racks: Annotated[ByPlayer, _about("Rack values as entered or counted from tiles.")]
    scores: Annotated[ByPlayer, _about("Every player's derived score; they sum to 0.")]
    flags: Annotated[Names, _about("Players whose typo-flagged entry was confirmed.")]
    version: Annotated[int, _about("Moves on with every replacement.")]
    tile_counts: NotRequired[
        Annotated[ByPlayer, _about("Tile counts, entered or counted from tiles.")]
    ]
    tiles: NotRequired[Annotated[dict[str, Names], _about("The tiles entered, sorted.")]]


@with_config(CLOSED)
class Session(TypedDict):
    """A whole session: players, rules, rounds, totals after drops, winners."""

    id: int
    name: SessionName
    date: Day
    players: Annotated[Names, _about("Display names in seating order.")]
    rounds_planned: Annotated[int, Field(ge=1)]
    rules: Rules
    rounds: list[Round]
    totals: Annotated[ByPlayer, _about("Totals, with dropped rounds already removed.")]
    dropped: Annotated[
        dict[str, int | None],
        _about("The round number dropped from each player's total, or null."),
    ]
    complete: Annotated[bool, _about("The agreed rounds are played.")]
    winners: Annotated[Names, _about("The highest totals, once complete.")]
    version: Annotated[int, _about("Moves on with every change to the session or its rounds.")]
    last_change: Annotated[
        Change | None,
        _about(
            "What the last change did: a code and its params, and the message in the asking "
            "phone's language; null before the first change."
        ),
    ]
    notes: Annotated[
        str,
        _about(
            "The family's notes on the evening (plain text, may be empty); written on the "
            "session page.",
            max_length=2000,
        ),
    ]


@with_config(CLOSED)
class SessionSummary(TypedDict):
    """A session in a list: enough to pick it."""

    id: int
    name: SessionName
    date: Day
    players: Names
    rounds_planned: Annotated[int, Field(ge=1)]
    rounds_played: Annotated[int, Field(ge=0)]
    complete: bool
    leaders: Annotated[Names, _about("The highest totals so far.")]


@with_config(CLOSED)
class SessionList(TypedDict):
    """Newest first."""

    sessions: list[SessionSummary]


# One way to read a set ("as" is a Python keyword, hence the functional form).
Reading = TypedDict(
    "Reading",
    {
        "kind": Annotated[str, Field(json_schema_extra={"enum": ["group", "run"]})],
        "as": Annotated[
            Names, _about("The tiles with each joker replaced by the tile it stands for.")
        ],
        "points": int,
    },
)
with_config(CLOSED)(Reading)


@with_config(CLOSED)
class SetCheck(TypedDict):
    """The verdict on one set."""

    valid: bool
    readings: list[Reading]
    points: Annotated[int, _about("The highest reading's points.")]
    reason: Annotated[str | None, _about("Why the set is invalid.")]


@with_config(CLOSED)
class MeldCheck(TypedDict):
    """The verdict on an initial meld, with each set's."""

    valid: bool
    points: int
    minimum: int
    reason: str | None
    sets: list[SetCheck]


@with_config(CLOSED)
class RackValue(TypedDict):
    """A rack's value (jokers at the joker penalty) and its tile count."""

    value: int
    count: int


@with_config(CLOSED)
class SwapCheck(TypedDict):
    """The verdict on taking a joker from the table."""

    allowed: bool
    stands_for: Annotated[
        Names,
        _about(
            "Every tile the set's jokers stand for in some reading; any of them may replace "
            "one (in a 3-tile group, either missing colour)."
        ),
    ]
    reason: Annotated[str | None, _about("Why the swap is refused.")]
    reminder: Annotated[
        str | None, _about("Once allowed: the freed joker must be played this turn.")
    ]


@with_config(CLOSED)
class Problem(TypedDict):
    """One thing wrong with a request."""

    code: Annotated[str, _about("Stable, for machines: see docs/API.md.")]
    message: Annotated[str, _about("Plain words for the family.")]
    field: NotRequired[
        Annotated[str, _about("The player, setting or body key concerned, when there is one.")]
    ]


@with_config(CLOSED)
class Error(TypedDict):
    """Every error answer: the problems, at least one."""

    errors: Annotated[list[Problem], Field(min_length=1)]


DOCUMENTS = (Session, SessionList, Round, SetCheck, MeldCheck, RackValue, SwapCheck, Error)


def document_schemas(ref_template: str = "#/components/schemas/{model}") -> dict[str, Any]:
    """The JSON Schema of every document and of the types they share, by name."""
    _, top = TypeAdapter.json_schemas(
        [(doc, "serialization", TypeAdapter(doc)) for doc in DOCUMENTS],
        ref_template=ref_template,
        schema_generator=Untitled,
    )
    return dict(top["$defs"])


#: How a document words a change: English by default; the web layer passes its translator.
ChangeRender = Callable[[changes.Change], str]


def round_document(view: RoundView) -> Round:
    """A round as the API returns it: inputs, derived scores and confirmed flags."""
    doc: Round = {
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


def session_summary(summary: lists.SessionSummary, title: Title = english_title) -> SessionSummary:
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


def change_document(change: changes.Change | None, describe: ChangeRender) -> Change | None:
    """What the last write did: its code, its round (or null), its other params by name, and
    its `message` worded by `describe` (the web layer's: in the request's language)."""
    if change is None:
        return None
    others = {k: v for k, v in change.params.items() if k != "round"}
    doc = {"code": change.code, "round": change.round, **others, "message": describe(change)}
    return cast(Change, doc)


def english_change(change: changes.Change) -> str:
    return change.message


def session_document(
    view: SessionView, describe: ChangeRender | None = None, title: Title = english_title
) -> Session:
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
Render = Callable[[rules.Problem], str]
TextRender = Callable[[str], str]


def english(problem: rules.Problem) -> str:
    return problem.message


def same_text(text: str) -> str:
    return text


def set_document(check: rules.SetCheck, played_with: str, render: Render = english) -> SetCheck:
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


def meld_document(check: rules.MeldCheck, played_with: str, render: Render = english) -> MeldCheck:
    """The verdict on an initial meld, with each set's verdict."""
    return {
        "valid": check.valid,
        "points": check.points,
        "minimum": check.minimum,
        "reason": render(check.reason) if check.reason else None,
        "sets": [set_document(s, played_with, render) for s in check.sets],
    }


def swap_document(
    check: sets.SwapCheck,
    played_with: str,
    render: Render = english,
    render_text: TextRender = same_text,
) -> SwapCheck:
    """The verdict on taking a joker from the table, with the reminder once it is allowed."""
    return {
        "allowed": check.allowed,
        "stands_for": [t.notation(played_with) for t in check.stands_for],
        "reason": render(check.reason) if check.reason else None,
        "reminder": render_text(check.reminder) if check.reminder else None,
    }
