"""The OpenAPI 3.1 description of /api/v1 (docs/DESIGN.md 3), served at /api/v1/openapi.json:
the paths, example requests and prose; the schemas and example answers come from the code."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from datetime import date
from typing import Any

from flask_babel import force_locale
from werkzeug.exceptions import ServiceUnavailable

from scorekeeper.config import Defaults
from scorekeeper.rules import Problem, RulesError, Settings, score_round, standings
from scorekeeper.services import access, changes, documents, lists, rounds, sessions, tools
from scorekeeper.services.bodies import MAX_ROUNDS, Extend, body_schemas, read
from scorekeeper.services.documents import round_document, session_document
from scorekeeper.services.errors import status_for
from scorekeeper.services.views import RoundView, SessionView, round_view
from scorekeeper.web.access import REALM
from scorekeeper.web.errors import http_problem

JSON = "application/json"
REF = "#/components/schemas/"
Named = dict[int, dict[str, Any]]  # by status: example answers (or headers), each by its name


def _param(name: str, where: str, about: str, **schema: Any) -> dict[str, Any]:
    """A parameter in the path (so required), the query or a header; by default an integer."""
    required, schema = where == "path", {"type": "integer", **schema}
    return {"name": name, "in": where, "required": required, "description": about, "schema": schema}


def _header(name: str, about: str, **schema: Any) -> dict[str, Any]:
    return {name: {"description": about, "schema": {"type": "string", **schema}}}


def _answers(
    schema: str, meanings: dict[int, str], found: Named | None = None, headers: Named | None = None
) -> dict[str, Any]:
    """Each status's answer, with its examples (`found`) and headers; a refusal's is an Error."""
    found, headers = found or {}, headers or {}
    answers: dict[str, Any] = {}
    for status, meaning in meanings.items():
        answer = answers[str(status)] = {"description": meaning}
        if status not in (204, 304):
            kind = schema if status < 400 else "Error"
            content: dict[str, Any] = {"schema": {"$ref": REF + kind}}
            if found.get(status):
                content["examples"] = {name: {"value": v} for name, v in found[status].items()}
            answer["content"] = {JSON: content}
        if status in headers:
            answer["headers"] = headers[status]
    return answers


def _refused(error: RulesError | Problem) -> dict[str, Any]:
    """The error answer to a refusal, in English."""
    problems = error.problems if isinstance(error, RulesError) else [error]
    return {"errors": [p.as_dict() for p in problems]}


def _examples(**named: Any) -> dict[str, dict[str, Any]]:
    """Request examples: (summary, value), or a refused value, summed up by `_takes`."""
    found: dict[str, dict[str, Any]] = {}
    for name, given in named.items():
        summary, value = given if isinstance(given, tuple) else ("", given)
        found[name] = {"summary": summary, "value": value} if summary else {"value": value}
    return found


def _takes(
    operation: str,
    summary: str,
    body: tuple[str, dict[str, Any], Callable[[Any], Any]],
    schema: str,
    meanings: dict[int, str],
    more: Named | None = None,
) -> dict[str, Any]:
    """An operation that takes a body (its schema, examples and the code that answers them), each
    example's answer that code's; `more`: the answers no example request leads to."""
    found: Named = {}
    ok = 201 if 201 in meanings else 200
    for name, example in body[1].items():
        try:
            status, value = ok, body[2](example["value"])
        except RulesError as error:
            status, value = status_for(error), _refused(error)
            example.setdefault("summary", error.problems[0].message)
        found.setdefault(status, {})[name] = value
    for status, named in (more or {}).items():
        found.setdefault(status, {}).update(named)
    request = {"schema": {"$ref": REF + body[0]}, "examples": body[1]}
    return {
        "operationId": operation,
        "summary": summary,
        "requestBody": {"required": True, "content": {JSON: request}},
        "responses": _answers(schema, {400: MALFORMED, **meanings, 413: TOO_LARGE}, found),
    }


NINE_DIGITS = 10**9 - 1  # the most a query parameter holds (web/api.py `_query_count`)
IDS = {"session_id": "The session's id.", "number": "The round's number in its session."}
PAGE = [
    _param("limit", "query", "At most this many (default: all).", minimum=1, maximum=NINE_DIGITS),
    _param("offset", "query", "Skip this many, newest first.", minimum=0, maximum=NINE_DIGITS),
]
ROUND_VERSION = _param(
    "version", "query", "The round's `version` as last read.", minimum=1, maximum=NINE_DIGITS
)
IF_NONE_MATCH = _param("If-None-Match", "header", "The `ETag` last read.", type="string")
ETAG = _header("ETag", "The session's weak, opaque entity tag: send it back as `If-None-Match`.")

# --- The passphrase gate -------------------------------------------------------------------

SECURITY_SCHEMES = {
    "passphrase": {
        "type": "http",
        "scheme": "bearer",
        "description": "The household passphrase, once one is set (until then every call is open).",
    },
    "phoneCookie": {
        "type": "apiKey",
        "in": "cookie",
        "name": Defaults.ACCESS_COOKIE_NAME,
        "description": "A signed-in phone's cookie (a wrong `Authorization` header still fails).",
    },
}
# Either credential opens every operation; none is needed while no passphrase is set.
SECURITY: list[dict[str, list[str]]] = [{"passphrase": []}, {"phoneCookie": []}, {}]


def _gate_answers() -> dict[str, Any]:
    """The gate's 401, 429 and 503, with its problems (services/access.py, web/errors.py)."""
    limit, window = Defaults.ACCESS_FAILURE_LIMIT, Defaults.ACCESS_FAILURE_WINDOW
    with force_locale("en"):  # the document is built in whichever request first asks for it
        restoring = {"errors": [http_problem(ServiceUnavailable())]}
    retry = _header("Retry-After", "Seconds to wait.", type="integer", minimum=1)
    challenge = (
        f'The challenge: `{REALM}`, with `error="invalid_token"` for a wrong passphrase or '
        '`error="invalid_request"` for a header that is not `Bearer <passphrase>`.'
    )
    return _answers(
        "Error",
        {
            401: "A passphrase is set, and the call carries neither it nor a signed-in "
            "phone's cookie, or a wrong one (`unauthorized`; it is counted).",
            429: f"Too many wrong passphrases from this address ({limit} in {window // 60} "
            "minutes by default): even the right one must wait (`too_many_attempts`).",
            503: "A restore (`flask restore`) or the database's setup is under way "
            "(`service_unavailable`).",
        },
        {
            401: {"wrong_passphrase": _refused(access.WRONG_PASSPHRASE)},
            429: {"too_many_attempts": _refused(access.TooManyAttempts(window).problem)},
            503: {"restoring": restoring},
        },
        {401: _header("WWW-Authenticate", challenge), 429: retry, 503: retry},
    )


# --- Examples (docs/DESIGN.md 3): the requests, and the example session's answers ------------

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
SUNDAY = {"name": "Sunday", "players": PLAYERS, "rounds": 3, "rules": Settings().to_dict()}
NEW = sessions.plan_session(SUNDAY)  # the example session (id 1), as its body is read
SEATS = {name: position for position, name in enumerate(NEW.players, 1)}


def _round(body: object, version: int = 2) -> RoundView:
    """Round 1 of the example session as a save of `body` stores it (seat ids: positions)."""
    request = rounds.parse_body(body, NEW.settings)
    scored = score_round(NEW.players, request.entry, NEW.settings, request.confirm)
    stored = rounds.stored_round(scored, SEATS, NEW.settings.played_with, 1, request.key)
    stored.version = version
    return round_view(stored, {position: name for name, position in SEATS.items()})


def _session(body: Any = SUNDAY, played: Any = (), change: Any = None, **plan: Any) -> SessionView:
    """The example session (id 1) as the new-session `body` makes it on 1 June 2025 (`plan`:
    what changed since), after the `played` rounds and one `change` (its version then 2)."""
    made = sessions.plan_session(body)._replace(**plan)
    drop = made.settings.drop_worst_round
    table = standings(made.players, [r.scores for r in played], made.rounds, drop)
    view = (1, made.name, date(2025, 6, 1), tuple(made.players), made.rounds, made.settings)
    return SessionView(*view, played, table, 1 if change is None else 2, None, change)


def _extended(body: object) -> documents.Session:
    """The fresh example session once the Extend `body` was agreed to it."""
    asked = read(Extend, body)
    planned = sessions.agreed(NEW.rounds, 1, asked.rounds, asked.version)
    agreed = changes.rounds_agreed(asked.rounds)
    return session_document(_session(change=agreed, rounds=planned))


WENT_OUT = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55, "Di": 8}}
TYPO = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 200, "Cy": 12, "Di": 8}}
PAPER = {"ending": "scores", "scores": {"Ann": 24, "Bo": -5, "Cy": -16, "Di": -3}}
WENT_OUT_ROUND = _round(WENT_OUT)
AFTER_WENT_OUT = _session(played=(WENT_OUT_ROUND,), change=changes.round_change("round_added", 1))
LISTED = documents.session_summary(lists.summary_of(AFTER_WENT_OUT))
CHANGED_MEANWHILE = {409: {"stale_round": _refused(rounds.changed_meanwhile(WENT_OUT_ROUND))}}

ROUND_EXAMPLES = _examples(
    went_out=("Ann went out; racks 22, 55, 8 give Ann +85.", WENT_OUT),
    went_out_tiles=(
        "A rack given as tiles: r7 + k13 + joker (30) = 50.",
        {**WENT_OUT, "racks": {"Bo": ["r7", "k13", "j"], "Cy": 12, "Di": 8}},
    ),
    pool_empty=(
        "The pool ran out: the lowest rack (Di, 8) takes the differences.",
        {
            "ending": "pool_empty",
            "racks": {"Ann": 10, "Bo": 22, "Cy": 55, "Di": 8},
            "tile_counts": {"Ann": 3, "Bo": 5, "Cy": 9, "Di": 2},
            "winner": "Di",
        },
    ),
    scores=("Scores as on paper (the Polish sheet's round 1): they sum to 0.", PAPER),
    with_key=("An idempotency key: sent again, 200.", {**WENT_OUT, "key": "3f6c1a2e-round-1"}),
    zero_sum=(
        "The Polish sheet's round 2 as printed (+6, -11, +22, -5) adds up to +12.",
        {"ending": "scores", "scores": {"Ann": 6, "Bo": -11, "Cy": 22, "Di": -5}},
    ),
    confirm_required=TYPO,
    confirmed=('The same round with "confirm": true is kept, flagged.', {**TYPO, "confirm": True}),
    tie={"ending": "pool_empty", "racks": {"Ann": 10, "Bo": 10, "Cy": 55, "Di": 18}},
    bad_tile={"ending": "went_out", "winner": "Ann", "racks": {"Bo": ["r7", "x9"], "Cy": 3}},
)
REPLACED = _examples(scores=("Round 1 replaced by scores as on paper.", PAPER))
SESSION_EXAMPLES = _examples(
    sunday=("Four players, three rounds, every setting spelled out.", SUNDAY),
    too_many_players={"players": [*PLAYERS, "Ed"]},
    bad_setting={"players": ["Ann", "Bo"], "rules": {"joker_penalty": 500}},
    unknown_setting={"players": ["Ann", "Bo"], "rules": {"jokers": 3}},
)
EXTEND_EXAMPLES = _examples(
    one_more=("One more round.", {"rounds": 1}),
    from_version=("One more, while the session is at version 1.", {"rounds": 1, "version": 1}),
    stale_session={"rounds": 1, "version": 0},
)
SUPPLY = {"tiles": ["r7", "r7", "r7"]}  # one tile set has two red 7s
SET_EXAMPLES = _examples(
    joker_run=("J r12 r13: the joker can only be r11 (not 14).", {"tiles": ["j", "r12", "r13"]}),
    repeated_colour=("Invalid: still a 200, with the reason.", {"tiles": ["r5", "b5", "k5", "r5"]}),
    run_wrap=(
        "1 may follow 13 with run wrap.",
        {"tiles": ["r12", "r13", "r1"], "rules": {"run_wrap": True}},
    ),
    tile_supply=SUPPLY,
)
MELD_EXAMPLES = _examples(
    meld=("30 + 6: the minimum is 30.", {"sets": [["r10", "b10", "j"], ["k1", "k2", "k3"]]}),
    too_few_points=("6 points do not make the initial meld.", {"sets": [["r1", "r2", "r3"]]}),
)
RACK_EXAMPLES = _examples(
    rack=("7 + 13 + a joker (30) = 50.", {"tiles": ["r7", "k13", "j"]}),
    joker_penalty=(
        "Where a joker costs 50.",
        {"tiles": "r7 k13 j", "rules": {"joker_penalty": 50}},
    ),
    bad_tile={"tiles": ["r7", "x9"]},
    tile_supply=SUPPLY,
)
SWAP_EXAMPLES = _examples(
    french_sheet=("A blue 5 takes the joker of b3 b4 J.", {"set": ["b3", "b4", "j"], "tile": "b5"}),
    group=("In a 3-tile group, either missing colour.", {"set": "r5 b5 j", "tile": "o5"}),
    wrong_tile=("The joker is r11 here, not k5.", {"set": ["j", "r12", "r13"], "tile": "k5"}),
    setting_off=(
        "Where jokers may not be retrieved from the table, no swap is allowed.",
        {"set": ["b3", "b4", "j"], "tile": "b5", "rules": {"jokers_retrievable": False}},
    ),
    bad_tile={"set": ["b3", "b4", "j"], "tile": "x5"},
    tile_list={"set": ["b3", "b4", "j"], "tile": ["b5"]},
)

MALFORMED = (
    "Malformed body: not JSON, not an object, or a value of the wrong type (`bad_request`; "
    "`bad_setting` for an unknown setting or a setting of the wrong type)."
)
TOO_LARGE = f"The body is over the limit ({Defaults.MAX_CONTENT_LENGTH // 1024} KiB by default)."
ROUND_RULES = (
    "A rules violation: `zero_sum`, `unknown_player`, `missing_player`, `winner_has_tiles`, "
    "`negative_rack`, `empty_rack`, `impossible_rack`, `bad_tile`, `tile_supply`, "
    "`bad_tile_count`, `tie`, `wrong_winner`."
)
STALE_ROUND = (
    "`stale_round`: `version` is not the round's now (it was edited, or a delete moved another "
    "round to this number); nothing changed, the message says what became of the round."
)
# The rules tools by path: the operation, its request's schema, its examples, the tool.
TOOLS: dict[str, tuple[str, str, Any, Callable[..., Any]]] = {
    "set": ("checkSet", "SetRequest", SET_EXAMPLES, tools.check_set_tool),
    "meld": ("checkMeld", "MeldRequest", MELD_EXAMPLES, tools.check_meld_tool),
    "rack": ("rackValue", "RackRequest", RACK_EXAMPLES, tools.rack_tool),
    "swap": ("checkJokerSwap", "SwapRequest", SWAP_EXAMPLES, tools.swap_tool),
}
TOOL_REFUSALS = {
    404: "`session` names no session.",
    422: "`bad_tile`, `tile_supply`, or `bad_setting` (a value out of range).",
}


def _tool(operation: str, schema: str, examples: Any, tool: Callable[..., Any]) -> dict[str, Any]:
    """A rules tool's POST: its docstring tells it, its return annotation names its answer."""
    summary, _, description = inspect.cleandoc(tool.__doc__ or "").partition("\n\n")
    answer = tool.__annotations__["return"]
    meanings = {200: getattr(documents, answer).__doc__, **TOOL_REFUSALS}
    post = _takes(operation, summary, (schema, examples, tool), answer, meanings)
    return {"post": post | ({"description": " ".join(description.split())} if description else {})}


# --- The document ----------------------------------------------------------------------------

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
    "info": {
        "title": "Scorekeeper",
        "version": "1",
        "summary": "Keeps the score of Rummikub played with real tiles.",
        "description": "Sessions (an evening's play), their rounds, and the rules tools. Every "
        'error answers `{"errors": [{"code", "message", "field"?}]}` with a status and codes '
        "given below (and in docs/API.md); nothing is written when an error is returned.",
    },
    "tags": [
        {"name": "sessions", "description": "An evening's play: players, settings, rounds."},
        {"name": "rounds", "description": "How each round ended, and the derived scores."},
        {"name": "rules", "description": "Check a set, an initial meld, a rack, a joker swap."},
        {"name": "meta", "description": "This document."},
    ],
    "paths": {
        "/api/v1/sessions": {
            "get": {
                "operationId": "listSessions",
                "summary": "List sessions, newest first (`limit` and `offset`: one page).",
                "parameters": PAGE,
                "responses": _answers(
                    "SessionList",
                    {
                        200: "The sessions, newest first.",
                        400: "`limit` or `offset` is not a whole number, or below its minimum "
                        "(`bad_request`).",
                    },
                    {200: {"after_went_out": {"sessions": [LISTED]}}},
                ),
            },
            "post": _takes(
                "createSession",
                "Start a session (`name`, `rounds`, `key` and every setting optional).",
                ("NewSession", SESSION_EXAMPLES, lambda body: session_document(_session(body))),
                "Session",
                {
                    200: "Idempotent replay: the session this `key` made (with these players); "
                    "nothing is added.",
                    201: "The new session.",
                    409: "`key_reused`: the `key` made a session with other players.",
                    422: "A rules violation: `too_many_players`, `too_few_players`, "
                    "`duplicate_player`, `bad_name`, `bad_setting` (a value out of range).",
                },
                {409: {"key_reused": _refused(sessions.key_reused(1))}},
            ),
        },
        "/api/v1/sessions/{session_id}": {
            "get": {
                "operationId": "getSession",
                "summary": "A session: rounds, totals after drops, dropped rounds, winners.",
                "parameters": [IF_NONE_MATCH],
                "responses": _answers(
                    "Session",
                    {200: "The session.", 304: "Not modified since the `If-None-Match` `ETag`."},
                    {200: {"after_went_out": session_document(AFTER_WENT_OUT)}},
                    {200: ETAG, 304: ETAG},
                ),
            },
        },
        "/api/v1/sessions/{session_id}/extend": {
            "post": _takes(
                "extendSession",
                "Agree to play more rounds (default 1).",
                ("Extend", EXTEND_EXAMPLES, _extended),
                "Session",
                {
                    200: "The session, with more rounds planned.",
                    409: "`stale_session`: `version` is not the session's now; nothing changes.",
                    422: f"`bad_setting`: fewer than 1, or over {MAX_ROUNDS} rounds in all.",
                },
            ),
        },
        "/api/v1/sessions/{session_id}/rounds": {
            "post": _takes(
                "addRound",
                "Record the next round.",
                ("RoundInput", ROUND_EXAMPLES, lambda body: round_document(_round(body))),
                "Round",
                {
                    200: "Idempotent replay: the round this `key` saved; nothing is added.",
                    201: "The round was added.",
                    409: "`confirm_required` (send it again with `confirm`), `session_complete`, "
                    "`duplicate_round`, `stale_round` (rounds were added or deleted since "
                    "`version`) or `key_reused`.",
                    422: ROUND_RULES,
                },
                {
                    409: {
                        "stale_round": _refused(rounds.renumbered(2)),
                        "key_reused": _refused(rounds.key_reused(1)),
                    }
                },
            ),
        },
        "/api/v1/sessions/{session_id}/rounds/{number}": {
            "get": {
                "operationId": "getRound",
                "summary": "One round.",
                "responses": _answers(
                    "Round",
                    {200: "The round."},
                    {200: {"after_went_out": round_document(WENT_OUT_ROUND)}},
                ),
            },
            "put": _takes(
                "replaceRound",
                "Replace a round, scored again (as added, but `key` and `number` are ignored).",
                ("RoundInput", REPLACED, lambda body: round_document(_round(body, version=3))),
                "Round",
                {
                    200: "The round as replaced; its `version` moved on.",
                    409: f"`confirm_required`, as when adding; {STALE_ROUND}",
                    422: ROUND_RULES,
                },
                more=CHANGED_MEANWHILE,
            ),
            "delete": {
                "operationId": "deleteRound",
                "summary": "Remove a round (only at `version`, if given); later ones move up one.",
                "parameters": [ROUND_VERSION],
                "responses": _answers(
                    "Error",
                    {
                        204: "Removed.",
                        400: "`version` is not a whole number from 1 (`bad_request`).",
                        409: STALE_ROUND,
                    },
                    CHANGED_MEANWHILE,
                ),
            },
        },
        **{f"/api/v1/rules/{name}": _tool(*spec) for name, spec in TOOLS.items()},
        "/api/v1/openapi.json": {
            "get": {
                "operationId": "openapi",
                "summary": "This document.",
                "responses": _answers("OpenAPI", {200: "The OpenAPI 3.1 document."}),
            },
        },
    },
    "security": SECURITY,
    "components": {
        "schemas": {
            **documents.document_schemas(),
            **body_schemas(),
            "OpenAPI": {"type": "object", "required": ["openapi", "info", "paths"]},
        },
        "securitySchemes": SECURITY_SCHEMES,
    },
}
SCHEMAS: dict[str, Any] = OPENAPI["components"]["schemas"]


def _shared(document: dict[str, Any]) -> None:
    """What the operations share: the tag and parameters their path names, the gate's answers, a
    404 under a path parameter, the Location of what a POST made (201) or had made (200)."""
    gate = _gate_answers()
    location = _header("Location", "Where the new (or, for a replay, the first) resource is.")
    for path, item in document["paths"].items():
        if names := re.findall(r"{(\w+)}", path):
            item["parameters"] = [_param(name, "path", IDS[name], minimum=1) for name in names]
        part = "rounds" if "/rounds" in path else path.split("/")[3]
        for operation in (op for method, op in item.items() if method != "parameters"):
            operation["tags"] = [{"openapi.json": "meta"}.get(part, part)]
            what = "session or round" if "number" in names else "session"
            missing = {404: f"No such {what} (`not_found`)."} if names else {}
            answers = _answers("Error", missing) | operation["responses"] | gate
            if "201" in answers:
                answers["200"]["headers"] = answers["201"]["headers"] = location
            operation["responses"] = dict(sorted(answers.items()))


_shared(OPENAPI)
