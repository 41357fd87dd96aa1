"""The API's request bodies, declared once as pydantic models with strict JSON types, and `read`
(docs/DESIGN.md 3)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.json_schema import GenerateJsonSchema, models_json_schema
from pydantic_core import ErrorDetails
from typing_extensions import TypeAliasType

from scorekeeper.rules import Problem, Setting, Settings, declared
from scorekeeper.rules.scoring import Ending
from scorekeeper.rules.settings import N_
from scorekeeper.services.errors import BadRequest

# No entry of a real game comes near this; it keeps every number inside a database integer.
LARGEST_NUMBER = 1_000_000
# The longest idempotency key (of a round, of a new session's form): a UUID fits with room.
MAX_KEY = 64
MAX_ROUNDS = 100
DEFAULT_ROUNDS = 3
MAX_TILES = 212  # every tile of two sets
# A body names at most this many players in one object (racks, tile counts, scores).
MAX_KEYED = 12

Model = TypeVar("Model", bound=BaseModel)
T = TypeVar("T")


def _printable(key: str) -> str:
    if not key.isprintable():
        raise ValueError("not printable")
    return key


Number = Annotated[int, Field(ge=-LARGEST_NUMBER, le=LARGEST_NUMBER)]
Key = Annotated[str, Field(min_length=1, max_length=MAX_KEY), AfterValidator(_printable)]
ByPlayer = Annotated[dict[str, T], Field(max_length=MAX_KEYED)]
Tiles = TypeAliasType(
    "Tiles",
    Annotated[
        Annotated[list[str], Field(max_length=MAX_TILES)] | Annotated[str, Field(max_length=2000)],
        Field(description='Tiles (docs/RULES.md §1), e.g. ["r7", "k13", "j"], or "r7 k13 j".'),
    ],
)
Rack = TypeAliasType(
    "Rack",
    Annotated[Number, Field(description="The rack value: the numbers plus the joker penalty.")]
    | Annotated[
        list[str],
        Field(max_length=MAX_TILES, description="Tiles left (at most 100): they give the count."),
    ]
    | Annotated[
        str, Field(max_length=1000, description='The tiles as one string ("r7 k13 j") or a value.')
    ],
)


class Body(BaseModel):
    """A request body: JSON types only, keys it does not know ignored."""

    model_config = ConfigDict(strict=True, extra="ignore", defer_build=True)
    # What a body that is not a JSON object is told, and the field it names.
    not_an_object: ClassVar[tuple[str, str | None]] = (N_("The body must be a JSON object."), None)


_RULES: dict[type[Settings], type[BaseModel]] = {}


def rules_model(declaration: type[Settings] = Settings) -> type[BaseModel]:
    """The `rules` of a body: each setting of the declaration with its JSON type (the rules
    check its bounds and choices), no other key."""
    if declaration not in _RULES:
        fields: dict[str, Any] = {s.name: _setting_field(s) for s in declared(declaration)}
        _RULES[declaration] = create_model(
            "RulesInput",
            __config__=ConfigDict(strict=True, extra="forbid", defer_build=True),
            __doc__="Any settings; the rest take their defaults (docs/RULES.md 7).",
            **fields,
        )
    return _RULES[declaration]


def _setting_field(setting: Setting) -> tuple[Any, Any]:
    kind: Any = setting.kind | None if setting.optional else setting.kind
    bounds: dict[str, Any] = {}
    if setting.kind is str:
        bounds = {"enum": list(setting.choices)}
    elif setting.kind is int:
        bounds = {"minimum": setting.low, "maximum": setting.high}
    return kind, Field(setting.default, description=setting.about, json_schema_extra=bounds)


RulesInput = rules_model()


def given(rules: BaseModel | None) -> dict[str, Any] | None:
    """The settings a body's `rules` names: the others keep their defaults (or a session's)."""
    return None if rules is None else rules.model_dump(exclude_unset=True)


class NewSession(Body):
    """A new session (POST /sessions)."""

    name: str | None = Field(
        None,
        description="At most 80 characters; without one the session is called by its day, in "
        "the reading phone's language (Sunday 1 June).",
    )
    players: list[str] = Field(
        description="2-6 unique display names (1-40 characters), in seating order."
    )
    rounds: int | None = Field(
        DEFAULT_ROUNDS,
        description="The agreed number of rounds.",
        json_schema_extra={"minimum": 1, "maximum": MAX_ROUNDS},
    )
    rules: RulesInput | None = None  # type: ignore[valid-type]
    key: Key | None = Field(
        None,
        description="Idempotency key: a repeat with the same players answers the session it "
        "made (200); with other players, 409 `key_reused`.",
    )


class Extend(Body):
    """More rounds for a session (POST /sessions/<id>/extend)."""

    not_an_object: ClassVar[tuple[str, str | None]] = (
        N_("rounds must be a whole number."),
        "rounds",
    )
    rounds: int = Field(
        1,
        description=f"How many more rounds; a session has at most {MAX_ROUNDS}.",
        json_schema_extra={"minimum": 1},
    )
    version: int | None = Field(
        None,
        description="The session's `version` this was asked from: when the session has changed "
        "since (another phone agreed to a round already), 409 `stale_session` and nothing "
        "changes. Left out, the rounds are added.",
    )


class RoundInput(Body):
    """A round: how it ended and what each player entered. Three endings. went_out: `winner`
    and a rack for every other player. pool_empty: a rack for every player; `tile_counts` and
    `winner` only settle ties (or are needed for the fewest-tiles variant). scores: every
    player's signed score, summing to 0 with one positive. Players are named
    case-insensitively. A rack is a value or a list of tiles."""

    not_an_object: ClassVar[tuple[str, str | None]] = (
        N_("The round must be a JSON object."),
        None,
    )
    ending: Ending
    winner: str | None = Field(
        None, description="Who went out (went_out); who takes a tied pool_empty round."
    )
    racks: ByPlayer[Rack] | None = Field(
        None, description="By player: went_out, every loser; pool_empty, everyone."
    )
    tile_counts: ByPlayer[Number] | None = Field(
        None, description="By player, pool_empty: tiles left, to settle ties."
    )
    scores: ByPlayer[Number] | None = Field(
        None, description="By player, scores: each signed score, as on paper."
    )
    confirm: bool = Field(False, description="Accept entries below the typo threshold.")
    key: Key | None = Field(
        None,
        description="Idempotency key: a repeat of the same round returns the first (200); "
        "another round under a key used already is 409 `key_reused`.",
    )
    number: int | None = Field(
        None, description="POST only: the number the client expects the round to get."
    )
    version: int | None = Field(
        None,
        description="PUT: the round's `version` the edit was made from; if the round's "
        "version differs now (someone edited it, or a delete moved another round to this "
        "number), 409 `stale_round` and nothing changes. Left out, the round now at this "
        "number is replaced. POST: the session's `version` the round was typed against; if "
        "rounds were added or deleted since, 409 `stale_round` (never a second copy of a round "
        "renumbered meanwhile). Left out, only `number` is checked.",
    )


class ToolRequest(Body):
    """What every rules tool takes besides its tiles: the rules to check against."""

    rules: RulesInput | None = None  # type: ignore[valid-type]
    session: int | None = Field(
        None, description="Check against this session's rules (then `rules` on top of them)."
    )


class SetRequest(ToolRequest):
    """Is this one set valid (POST /rules/set)."""

    tiles: Tiles


class MeldRequest(ToolRequest):
    """Do these sets make the initial meld (POST /rules/meld)."""

    sets: list[Tiles] = Field(max_length=40)


class RackRequest(ToolRequest):
    """What a rack is worth (POST /rules/rack)."""

    tiles: Tiles


class SwapRequest(ToolRequest):
    """May this tile take the joker's place (POST /rules/swap)."""

    set: Tiles = Field(description="The set on the table, with at least one joker.")
    tile: str = Field(description='The rack tile that would take the joker\'s place, e.g. "b5".')


BODIES: tuple[type[Body], ...] = (
    NewSession,
    Extend,
    RoundInput,
    SetRequest,
    MeldRequest,
    RackRequest,
    SwapRequest,
)

# What a field of the wrong type or size is told (bad_request), by its name: a name means one
# thing in every body. %(name)s is the field.
WRONG = {
    "ending": N_("ending must be one of went_out, pool_empty, scores."),
    "winner": N_("winner must be a player's name."),
    "racks": N_("%(name)s must be an object keyed by player."),
    "tile_counts": N_("%(name)s must be an object keyed by player."),
    "scores": N_("%(name)s must be an object keyed by player."),
    "confirm": N_("confirm must be true or false."),
    "key": N_("key must be printable text of 1 to 64 characters."),
    "number": N_("number must be a whole number."),
    "version": N_("version must be a whole number."),
    "rounds": N_("rounds must be a whole number."),
    "name": N_("name must be text."),
    "players": N_("players must be a list of names."),
    "session": N_("session must be a session id."),
    "tiles": N_('%(name)s must be a list of tiles like ["r7", "j"].'),
    "set": N_('%(name)s must be a list of tiles like ["r7", "j"].'),
    "sets": N_("sets must be a list of sets, each a list of tiles."),
    "tile": N_('tile must be one tile like "b5".'),
}


def read(model: type[Model], body: object) -> Model:
    """The body as `model` declares it, or a bad request: one problem per field wrong, the most
    telling of a union's errors (the deepest, else a size rather than a type)."""
    try:
        return model.model_validate(body)
    except ValidationError as error:
        best: dict[str, tuple[tuple[int, bool], Problem]] = {}
        for detail in error.errors():
            problem = _problem(model, detail)
            rank = (-len(detail["loc"]), detail["type"].endswith("_type"))
            field = problem.field or ""
            if field not in best or rank < best[field][0]:
                best[field] = (rank, problem)
        raise BadRequest([problem for _, problem in best.values()]) from None


def _problem(model: type[BaseModel], detail: ErrorDetails) -> Problem:
    """The problem the API answers for one of pydantic's errors."""
    loc = [str(part) for part in detail["loc"]]
    if model.__name__ == "RulesInput":
        loc = ["rules", *loc]
    if not loc:  # not an object (the rules' own are told as the rules of a body)
        assert issubclass(model, Body)
        template, field = model.not_an_object
        return Problem("bad_request", template, {}, field)
    name, at, kind = loc[0], loc[1] if len(loc) > 1 else None, detail["type"]
    if name == "rules":
        if at is None:
            return Problem("bad_setting", N_("rules must be an object of settings."), {}, name)
        if kind == "extra_forbidden":
            return Problem("bad_setting", N_("%(key)s is not a setting."), {"key": at}, at)
        return Problem("bad_setting", N_("%(key)s has the wrong type."), {"key": at}, at)
    if at is None or name in ("tiles", "set"):
        return Problem("bad_request", WRONG[name], {"name": name}, name)
    if name == "players":
        template = N_("players.%(i)d must be a name (text).")
        return Problem("bad_request", template, {"i": int(at)}, f"players.{at}")
    if name == "sets":
        return Problem("bad_request", WRONG["tiles"], {"name": f"sets.{at}"}, f"sets.{at}")
    params: dict[str, Any] = {"player": at, "name": name}
    if kind in ("greater_than_equal", "less_than_equal"):
        template = N_("%(player)s: numbers beyond %(largest)d either way are out of range.")
        params["largest"] = LARGEST_NUMBER
    elif name != "racks":
        template = N_("%(player)s: %(name)s holds whole numbers.")
    elif len(loc) > 3 or kind == "too_long":  # an item of the list, or too many of them
        template = N_("%(player)s: tiles must be a list of tile names.")
    else:
        template = N_("%(player)s: a rack is a whole number or a list of tiles.")
    return Problem("bad_request", template, params, at)


class Untitled(GenerateJsonSchema):
    """JSON Schema without the titles pydantic makes up from field names."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def body_schemas(ref_template: str = "#/components/schemas/{model}") -> dict[str, Any]:
    """The JSON Schema of every body and of the types they share, by name."""
    _, top = models_json_schema(
        [(model, "validation") for model in BODIES],
        ref_template=ref_template,
        schema_generator=Untitled,
    )
    return dict(top["$defs"])


def settings_schema(declaration: type[Settings] = Settings) -> dict[str, dict[str, Any]]:
    """Every setting's JSON schema by its key (the properties of `RulesInput`)."""
    schema = rules_model(declaration).model_json_schema(schema_generator=Untitled)
    return dict(schema["properties"])
