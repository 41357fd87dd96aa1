"""The OpenAPI 3.1 description of /api/v1 (docs/DESIGN.md 3), served at /api/v1/openapi.json.

Kept true by tests/app/test_openapi.py: every route is described, every example round-trips
against a fresh four-player session (Ann, Bo, Cy, Di), and every response fits its schema.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekeeper.config import Defaults
from scorekeeper.rules import RulesError, Settings
from scorekeeper.services import sessions, tools
from scorekeeper.services.bodies import body_schemas
from scorekeeper.services.documents import document_schemas
from scorekeeper.services.errors import status_for

JSON = "application/json"
PLAYERS = ["Ann", "Bo", "Cy", "Di"]


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _body(schema: str, examples: dict[str, dict[str, Any]], required: bool = True) -> dict:
    return {
        "required": required,
        "content": {
            JSON: {
                "schema": _ref(schema),
                "examples": examples,
            }
        },
    }


def _answer(
    description: str,
    schema: str,
    examples: dict[str, Any] | None = None,
    headers: dict[str, Any] | None = None,
) -> dict[str, Any]:
    content: dict[str, Any] = {"schema": _ref(schema)}
    if examples:
        content["examples"] = {name: {"value": value} for name, value in examples.items()}
    answer: dict[str, Any] = {"description": description, "content": {JSON: content}}
    if headers:
        answer["headers"] = headers
    return answer


def _errors(description: str, examples: dict[str, Any] | None = None) -> dict[str, Any]:
    return _answer(description, "Error", examples)


def _refused(error: RulesError) -> dict[str, Any]:
    """The error answer to a service's refusal, in English."""
    return {"errors": [p.as_dict() for p in error.problems]}


def _problem(code: str, message: str, field: str | None = None) -> dict[str, Any]:
    problem = {"code": code, "message": message}
    if field is not None:
        problem["field"] = field
    return {"errors": [problem]}


LOCATION = {
    "Location": {
        "description": "Where the new (or, for a replay, the first) resource can be read.",
        "schema": {"type": "string"},
    }
}
ETAG = {
    "ETag": {
        "description": "The session's weak entity tag, opaque (its parts: docs/API.md, "
        '"Polling: the session\'s ETag"): send it back whole as `If-None-Match` to ask whether '
        "anything changed.",
        "schema": {"type": "string"},
    }
}
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "The `ETag` of the session last read: when nothing changed since, the "
    "answer is a bodiless 304 (one small query), so every phone can poll cheaply.",
    "schema": {"type": "string"},
}

SESSION_ID = {
    "name": "session_id",
    "in": "path",
    "required": True,
    "description": "The session's id, as returned when it was created.",
    "schema": {"type": "integer", "minimum": 1},
}
# A page of the list of sessions; both optional: without them the list holds every session.
PAGE_LIMIT = {
    "name": "limit",
    "in": "query",
    "required": False,
    "description": "At most this many sessions (the newest first); all of them if left out.",
    "schema": {"type": "integer", "minimum": 1, "maximum": 999_999_999},
}
PAGE_OFFSET = {
    "name": "offset",
    "in": "query",
    "required": False,
    "description": "Skip this many of the newest sessions first (0 if left out).",
    "schema": {"type": "integer", "minimum": 0, "maximum": 999_999_999},
}
ROUND_NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "description": "The round's number within its session, from 1.",
    "schema": {"type": "integer", "minimum": 1},
}
ROUND_VERSION = {
    "name": "version",
    "in": "query",
    "required": False,
    "description": "The round's `version` as the client last read it: when given and the "
    "round's version differs (someone edited it, or a delete moved another round to this "
    "number, or it was deleted), nothing is removed and the answer is 409 `stale_round`. Left "
    "out, the round now at this number is removed.",
    "schema": {"type": "integer", "minimum": 1, "maximum": 999_999_999},
}

# --- The passphrase gate -------------------------------------------------------------------

SECURITY_SCHEMES = {
    "passphrase": {
        "type": "http",
        "scheme": "bearer",
        "description": "The household passphrase, once one is set (in the app or by "
        "SCOREKEEPER_PASSPHRASE): `Authorization: Bearer <passphrase>` on every call. Without "
        "a passphrase set (the default) every call is open and no credential is looked at.",
    },
    "phoneCookie": {
        "type": "apiKey",
        "in": "cookie",
        "name": Defaults.ACCESS_COOKIE_NAME,
        "description": "The cookie a phone gets when it signs in on the pages: the phone's own "
        "pages call the API with it, and need no bearer token. A wrong `Authorization` header "
        "is still refused when it comes with the cookie.",
    },
}
# Either credential opens every operation of the document; none is needed while no
# passphrase is set (the empty requirement).
SECURITY: list[dict[str, list[str]]] = [{"passphrase": []}, {"phoneCookie": []}, {}]
WWW_AUTHENTICATE = {
    "WWW-Authenticate": {
        "description": 'The challenge: `Bearer realm="Scorekeeper"`, with `error="invalid_token"` '
        'for a wrong passphrase or `error="invalid_request"` for a header that is not '
        "`Bearer <passphrase>`.",
        "schema": {"type": "string"},
    }
}
RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds until this address may guess again.",
        "schema": {"type": "integer", "minimum": 1},
    }
}


def _gate_answers() -> dict[str, Any]:
    """The 401, 429 and 503 of every operation behind the passphrase gate."""
    return {
        "401": _answer(
            "A passphrase is set and the call carries neither it (`Authorization: Bearer "
            "<passphrase>`) nor a signed-in phone's cookie, or the passphrase is wrong "
            "(`unauthorized`; the wrong guess is counted). No session is read or changed.",
            "Error",
            {"wrong_passphrase": _problem("unauthorized", "That is not the household passphrase.")},
            WWW_AUTHENTICATE,
        ),
        "429": _answer(
            "Too many wrong passphrases from this address lately (5 in 10 minutes by "
            "default): every passphrase, even the right one, waits `Retry-After` seconds "
            "(`too_many_attempts`). No session is read or changed.",
            "Error",
            {
                "too_many_attempts": _problem(
                    "too_many_attempts",
                    "Too many wrong passphrases from this device: try again in 10 minutes.",
                )
            },
            RETRY_AFTER,
        ),
        "503": _answer(
            "A restore (`flask restore`) is under way, or the database is being set up: "
            "nothing is read or changed; ask again after `Retry-After` seconds "
            "(`service_unavailable`).",
            "Error",
            {
                "restoring": _problem(
                    "service_unavailable",
                    "Scorekeeper is being restored or set up: try again in a minute.",
                )
            },
            {
                "Retry-After": {
                    "description": "Seconds to wait before asking again.",
                    "schema": {"type": "integer", "minimum": 1},
                }
            },
        ),
    }


# --- Schemas -------------------------------------------------------------------------------

# The defaults of docs/RULES.md 7, as every session document shows them when none is changed.
DEFAULT_RULES: dict[str, Any] = Settings().to_dict()

SCHEMAS: dict[str, Any] = {
    **document_schemas(),
    **body_schemas(),
    "OpenAPI": {"type": "object", "required": ["openapi", "info", "paths"]},
}

# --- Examples (docs/DESIGN.md 3) -------------------------------------------------------------

# The session of every example, as the list of sessions shows it after the went_out round.
LISTED = {
    "id": 1,
    "name": "Sunday",
    "date": "2025-06-01",
    "players": PLAYERS,
    "rounds_planned": 3,
    "rounds_played": 1,
    "complete": False,
    "leaders": ["Ann"],
}
SUNDAY = {
    "name": "Sunday",
    "players": PLAYERS,
    "rounds": 3,
    "rules": DEFAULT_RULES,
}


def _session(**changes: Any) -> dict[str, Any]:
    """A session document of the four players; `id` and `date` vary in real answers."""
    doc = {
        **{key: LISTED[key] for key in ("id", "name", "date", "players", "rounds_planned")},
        "rules": DEFAULT_RULES,
        "rounds": [],
        "totals": dict.fromkeys(PLAYERS, 0),
        "dropped": dict.fromkeys(PLAYERS),
        "complete": False,
        "winners": [],
        "version": 1,
        "last_change": None,
        "notes": "",
    }
    doc.update(changes)
    return doc


WENT_OUT = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55, "Di": 8}}
WENT_OUT_ROUND = {
    "number": 1,
    "ending": "went_out",
    "winner": "Ann",
    "racks": {"Bo": 22, "Cy": 55, "Di": 8},
    "scores": {"Ann": 85, "Bo": -22, "Cy": -55, "Di": -8},
    "flags": [],
    "version": 2,
}
TYPO = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 200, "Cy": 12, "Di": 8}}

ROUND_EXAMPLES = {
    "went_out": {"summary": "Ann went out; racks 22, 55, 8 give Ann +85.", "value": WENT_OUT},
    "went_out_tiles": {
        "summary": "A rack given as tiles: r7 + k13 + joker (30) = 50.",
        "value": {
            "ending": "went_out",
            "winner": "Ann",
            "racks": {"Bo": ["r7", "k13", "j"], "Cy": 12, "Di": 8},
        },
    },
    "pool_empty": {
        "summary": "The pool ran out: the lowest rack (Di, 8) takes the differences.",
        "value": {
            "ending": "pool_empty",
            "racks": {"Ann": 10, "Bo": 22, "Cy": 55, "Di": 8},
            "tile_counts": {"Ann": 3, "Bo": 5, "Cy": 9, "Di": 2},
            "winner": "Di",
        },
    },
    "scores": {
        "summary": "Scores as on paper (the Polish sheet's round 1): they must sum to 0.",
        "value": {"ending": "scores", "scores": {"Ann": 24, "Bo": -5, "Cy": -16, "Di": -3}},
    },
    "with_key": {
        "summary": "An idempotency key: sending this again returns the same round with 200.",
        "value": {**WENT_OUT, "key": "3f6c1a2e-round-1"},
    },
    "zero_sum": {
        "summary": "The Polish sheet's round 2 as printed (+6, -11, +22, -5) adds up to +12.",
        "value": {"ending": "scores", "scores": {"Ann": 6, "Bo": -11, "Cy": 22, "Di": -5}},
    },
    "confirm_required": {
        "summary": "A rack of 200 is below the typo threshold (-180): confirm it first.",
        "value": TYPO,
    },
    "confirmed": {
        "summary": 'The same round with "confirm": true is kept, flagged.',
        "value": {**TYPO, "confirm": True},
    },
    "tie": {
        "summary": "Ann and Bo tie for the lowest rack: name the winner or give tile counts.",
        "value": {"ending": "pool_empty", "racks": {"Ann": 10, "Bo": 10, "Cy": 55, "Di": 18}},
    },
    "bad_tile": {
        "summary": "x9 is not a tile.",
        "value": {"ending": "went_out", "winner": "Ann", "racks": {"Bo": ["r7", "x9"], "Cy": 3}},
    },
}

ROUND_ANSWERS = {
    "went_out": WENT_OUT_ROUND,
    "went_out_tiles": {
        **WENT_OUT_ROUND,
        "racks": {"Bo": 50, "Cy": 12, "Di": 8},
        "scores": {"Ann": 70, "Bo": -50, "Cy": -12, "Di": -8},
        "tile_counts": {"Bo": 3},
        "tiles": {"Bo": ["k13", "r7", "j"]},
    },
    "pool_empty": {
        **WENT_OUT_ROUND,
        "ending": "pool_empty",
        "winner": "Di",
        "racks": {"Ann": 10, "Bo": 22, "Cy": 55, "Di": 8},
        "scores": {"Ann": -2, "Bo": -14, "Cy": -47, "Di": 63},
        "tile_counts": {"Ann": 3, "Bo": 5, "Cy": 9, "Di": 2},
    },
    "scores": {
        **WENT_OUT_ROUND,
        "ending": "scores",
        "racks": {},
        "scores": {"Ann": 24, "Bo": -5, "Cy": -16, "Di": -3},
    },
    "with_key": WENT_OUT_ROUND,
    "confirmed": {
        **WENT_OUT_ROUND,
        "racks": {"Bo": 200, "Cy": 12, "Di": 8},
        "scores": {"Ann": 220, "Bo": -200, "Cy": -12, "Di": -8},
        "flags": ["Bo"],
    },
}

ROUND_REFUSALS = {
    "zero_sum": _problem("zero_sum", "Adds up to +12: someone counted a rack wrong.", "scores"),
    "confirm_required": _problem(
        "confirm_required", "Bo: 200 on the rack, more than 180. Right?", "Bo"
    ),
    "tie": _problem(
        "tie", "Ann and Bo tie for the round: enter tile counts, or say who takes it.", "winner"
    ),
    "bad_tile": _problem(
        "bad_tile",
        "Bo: “x9” is not a tile: write a colour and a number like r7 or k13, or j for a joker.",
        "Bo",
    ),
}

SESSION_EXAMPLES = {
    "sunday": {
        "summary": "Four players, three rounds, every setting spelled out.",
        "value": SUNDAY,
    },
    "too_many_players": {
        "summary": "Five players need two tile sets.",
        "value": {"players": ["Ann", "Bo", "Cy", "Di", "Ed"]},
    },
    "bad_setting": {
        "summary": "A value out of range.",
        "value": {"players": ["Ann", "Bo"], "rules": {"joker_penalty": 500}},
    },
    "unknown_setting": {
        "summary": "An unknown setting is a malformed body.",
        "value": {"players": ["Ann", "Bo"], "rules": {"jokers": 3}},
    },
}

AFTER_WENT_OUT = _session(
    rounds=[WENT_OUT_ROUND],
    totals={"Ann": 85, "Bo": -22, "Cy": -55, "Di": -8},
    version=2,
    last_change={"code": "round_added", "round": 1, "message": "Round 1 added"},
)

SET_EXAMPLES = {
    "joker_run": {
        "summary": "J r12 r13: the joker can only be r11 (it cannot be 14).",
        "value": {"tiles": ["j", "r12", "r13"]},
    },
    "repeated_colour": {
        "summary": "An invalid set is still a 200, with valid false and the reason.",
        "value": {"tiles": ["r5", "b5", "k5", "r5"]},
    },
    "run_wrap": {
        "summary": "With the run wrap setting, 1 may follow 13.",
        "value": {"tiles": ["r12", "r13", "r1"], "rules": {"run_wrap": True}},
    },
    "tile_supply": {
        "summary": "A single set has only two red 7s.",
        "value": {"tiles": ["r7", "r7", "r7"]},
    },
}

MELD_EXAMPLES = {
    "meld": {
        "summary": "r10 b10 J (30) and k1 k2 k3 (6): 36 points, the minimum is 30.",
        "value": {"sets": [["r10", "b10", "j"], ["k1", "k2", "k3"]]},
    },
    "too_few_points": {
        "summary": "6 points do not make the initial meld.",
        "value": {"sets": [["r1", "r2", "r3"]]},
    },
}

RACK_EXAMPLES = {
    "rack": {
        "summary": "7 + 13 + a joker (30) = 50.",
        "value": {"tiles": ["r7", "k13", "j"]},
    },
    "joker_penalty": {
        "summary": "The same rack where a joker costs 50.",
        "value": {"tiles": "r7 k13 j", "rules": {"joker_penalty": 50}},
    },
    "bad_tile": {"summary": "x9 is not a tile.", "value": {"tiles": ["r7", "x9"]}},
    "tile_supply": {
        "summary": "A single set has only two red 7s.",
        "value": {"tiles": ["r7", "r7", "r7"]},
    },
}

SWAP_EXAMPLES = {
    "french_sheet": {
        "summary": "Blue 3, blue 4, joker on the table: a blue 5 from a rack takes the joker.",
        "value": {"set": ["b3", "b4", "j"], "tile": "b5"},
    },
    "group": {
        "summary": "In a 3-tile group the joker stands for either missing colour.",
        "value": {"set": "r5 b5 j", "tile": "o5"},
    },
    "wrong_tile": {
        "summary": "J r12 r13: the joker is the red 11, so a black 5 cannot replace it.",
        "value": {"set": ["j", "r12", "r13"], "tile": "k5"},
    },
    "setting_off": {
        "summary": "Where jokers may not be retrieved from the table, no swap is allowed.",
        "value": {
            "set": ["b3", "b4", "j"],
            "tile": "b5",
            "rules": {"jokers_retrievable": False},
        },
    },
    "bad_tile": {"summary": "x5 is not a tile.", "value": {"set": ["b3", "b4", "j"], "tile": "x5"}},
    "tile_list": {
        "summary": "tile is one tile, not a list.",
        "value": {"set": ["b3", "b4", "j"], "tile": ["b5"]},
    },
}

# --- Shared answers --------------------------------------------------------------------------

MALFORMED = _errors(
    "Malformed body: not JSON, not an object, or a value of the wrong type (`bad_request`; "
    "`bad_setting` for an unknown setting or a setting of the wrong type).",
)
KEY_REUSED = _problem(
    "key_reused",
    "This key saved round 1 already, and that round reads otherwise: a new round needs a new "
    "key. Nothing was saved.",
    "key",
)
RENUMBERED = _problem(
    "stale_round",
    "Since this round was typed, rounds were added or deleted (on this phone or another): it "
    "would now be round 2. Check the table before saving again.",
    "version",
)
STALE_SESSION = _refused(sessions.stale_session())
STALE_ROUND = _problem(
    "stale_round",
    "Someone changed round 1 meanwhile; it now reads Ann +85, Bo -22, Cy -55, Di -8. "
    "Check it before saving again.",
    "version",
)
TOO_LARGE = _errors("The body is larger than the server accepts (64 KiB by default).")
UNKNOWN_SESSION = _errors("No such session (`not_found`).")
UNKNOWN_ROUND = _errors("No such session or round (`not_found`).")
ROUND_RULES = (
    "A rules violation: `zero_sum`, `unknown_player`, `missing_player`, `winner_has_tiles`, "
    "`negative_rack`, `empty_rack`, `impossible_rack`, `bad_tile`, `tile_supply`, "
    "`bad_tile_count`, `tie`, `wrong_winner`."
)


def _outcomes(tool: Callable[[Any], Any], requests: dict[str, Any]) -> dict[int, Any]:
    """What the tool answers each example request, by status: the examples' answers are the
    rules' own (English) verdicts and problems, so they are never written twice."""
    found: dict[int, dict[str, Any]] = {200: {}, 400: {}, 422: {}}
    for name, example in requests.items():
        try:
            found[200][name] = tool(example["value"])
        except RulesError as error:
            found[status_for(error)][name] = _refused(error)
    return found


def _tool(
    operation: str,
    summary: str,
    request: tuple[str, dict[str, Any], Callable[[Any], Any]],
    answer: tuple[str, str],
    description: str = "",
) -> dict[str, Any]:
    """A rules tool's POST: its request examples, and what the tool answers each of them."""
    schema, examples, tool = request
    found = _outcomes(tool, examples)
    return {
        "post": {
            "operationId": operation,
            "tags": ["rules"],
            "summary": summary,
            **({"description": description} if description else {}),
            "requestBody": _body(schema, examples),
            "responses": {
                "200": _answer(answer[1], answer[0], found[200]),
                "400": _errors(MALFORMED["description"], found[400]),
                "404": _errors("`session` names no session."),
                "422": _errors(
                    "`bad_tile`, `tile_supply`, or `bad_setting` (a value out of range).",
                    found[422],
                ),
            },
        }
    }


# --- The document ----------------------------------------------------------------------------

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
    "info": {
        "title": "Scorekeeper",
        "version": "1",
        "summary": "Keeps the score of Rummikub played with real tiles.",
        "description": (
            "Sessions (an evening's play), their rounds, and the rules tools. Once the "
            "household sets a passphrase, every call needs it as `Authorization: Bearer "
            "<passphrase>` (or a signed-in phone's cookie). Every error "
            'answers `{"errors": [{"code", "message", "field"?}]}` with status 400 (malformed '
            "body, wrong types; `bad_host` for a Host the server does not answer to), 401 "
            "(no or wrong passphrase), 404 (unknown id or path), 405 "
            "(wrong method), 409 (conflict: confirmation needed, session complete, duplicate "
            "round, stale round, a key used for another round or session, a stale session), "
            "422 (a rules violation) or 429 (too many wrong passphrases); nothing is written "
            "when an error is returned. See docs/API.md."
        ),
    },
    "tags": [
        {"name": "sessions", "description": "An evening's play: players, settings, rounds."},
        {"name": "rounds", "description": "How each round ended, and the derived scores."},
        {"name": "rules", "description": "Check a set, an initial meld, a rack."},
        {"name": "meta", "description": "This document."},
    ],
    "paths": {
        "/api/v1/sessions": {
            "get": {
                "operationId": "listSessions",
                "tags": ["sessions"],
                "summary": "List sessions, newest first.",
                "description": "Each session's summary is kept on it by every write, so the "
                "list reads no rounds; `limit` and `offset` read one page of it.",
                "parameters": [PAGE_LIMIT, PAGE_OFFSET],
                "responses": {
                    "200": _answer(
                        "The sessions, newest first.",
                        "SessionList",
                        {"after_went_out": {"sessions": [LISTED]}},
                    ),
                    "400": _errors(
                        "`limit` or `offset` is not a whole number, or below its minimum "
                        "(`bad_request`)."
                    ),
                },
            },
            "post": {
                "operationId": "createSession",
                "tags": ["sessions"],
                "summary": "Start a session: players in seating order, agreed rounds, settings.",
                "description": "`name`, `rounds`, `key` and every key of `rules` are optional.",
                "requestBody": _body("NewSession", SESSION_EXAMPLES),
                "responses": {
                    "200": _answer(
                        "Idempotent replay: a session made with this `key` (and these players) "
                        "exists; it is returned and nothing is added.",
                        "Session",
                        headers=LOCATION,
                    ),
                    "201": _answer("The new session.", "Session", {"sunday": _session()}, LOCATION),
                    "400": _errors(
                        MALFORMED["description"],
                        {
                            "unknown_setting": _problem(
                                "bad_setting", "jokers is not a setting.", "jokers"
                            )
                        },
                    ),
                    "409": _errors(
                        "`key_reused`: a session was made with this `key` and other players.",
                        {
                            "key_reused": _problem(
                                "key_reused",
                                "This key made session 1 already, with other players: a new "
                                "session needs a new key. Nothing was saved.",
                                "key",
                            )
                        },
                    ),
                    "422": _errors(
                        "A rules violation: `too_many_players`, `too_few_players`, "
                        "`duplicate_player`, `bad_name`, `bad_setting` (a value out of range).",
                        {
                            "too_many_players": _problem(
                                "too_many_players",
                                "5 players need two tile sets: set Number of tile sets to 2.",
                                "players",
                            ),
                            "bad_setting": _problem(
                                "bad_setting",
                                "Joker penalty must be a whole number from 0 to 100.",
                                "joker_penalty",
                            ),
                        },
                    ),
                },
            },
        },
        "/api/v1/sessions/{session_id}": {
            "parameters": [SESSION_ID],
            "get": {
                "operationId": "getSession",
                "tags": ["sessions"],
                "summary": "A session: rounds, totals after drops, dropped rounds, winners.",
                "parameters": [IF_NONE_MATCH],
                "responses": {
                    "200": _answer(
                        "The session.", "Session", {"after_went_out": AFTER_WENT_OUT}, ETAG
                    ),
                    "304": {
                        "description": "Not modified: `If-None-Match` holds the current `ETag`.",
                        "headers": ETAG,
                    },
                },
            },
        },
        "/api/v1/sessions/{session_id}/extend": {
            "parameters": [SESSION_ID],
            "post": {
                "operationId": "extendSession",
                "tags": ["sessions"],
                "summary": "Agree to play more rounds (default 1).",
                "requestBody": _body(
                    "Extend",
                    {
                        "one_more": {"summary": "One more round.", "value": {"rounds": 1}},
                        "from_version": {
                            "summary": "One more round, only while the session is at version "
                            "1 (as the phone saw it).",
                            "value": {"rounds": 1, "version": 1},
                        },
                        "stale_session": {
                            "summary": "Asked from version 0: the session changed since, so "
                            "nothing changes.",
                            "value": {"rounds": 1, "version": 0},
                        },
                    },
                ),
                "responses": {
                    "200": _answer(
                        "The session, with more rounds planned.",
                        "Session",
                        {
                            name: _session(
                                rounds_planned=4,
                                version=2,
                                last_change={
                                    "code": "rounds_agreed",
                                    "round": None,
                                    "count": 1,
                                    "message": "One more round agreed",
                                },
                            )
                            for name in ("one_more", "from_version")
                        },
                    ),
                    "409": _errors(
                        "`stale_session`: `version` is not the session's now (another phone "
                        "changed it, perhaps agreeing to a round already); nothing changes.",
                        {"stale_session": STALE_SESSION},
                    ),
                    "422": _errors("`bad_setting`: more than 100 rounds, or fewer than 1."),
                },
            },
        },
        "/api/v1/sessions/{session_id}/rounds": {
            "parameters": [SESSION_ID],
            "post": {
                "operationId": "addRound",
                "tags": ["rounds"],
                "summary": "Record the next round.",
                "requestBody": _body("RoundInput", ROUND_EXAMPLES),
                "responses": {
                    "200": _answer(
                        "Idempotent replay: a round with this `key` exists; it is returned and "
                        "nothing is added.",
                        "Round",
                        headers=LOCATION,
                    ),
                    "201": _answer(
                        "The round was added.",
                        "Round",
                        {name: ROUND_ANSWERS[name] for name in ROUND_ANSWERS},
                        LOCATION,
                    ),
                    "409": _errors(
                        "`confirm_required` (one problem per flagged player, `field` names "
                        'them; send again with "confirm": true), `session_complete` (extend '
                        "first), `duplicate_round` (`number` was taken meanwhile), "
                        "`stale_round` (rounds were added or deleted since the `version` "
                        "named) or `key_reused` (the `key` saved another round).",
                        {
                            "confirm_required": ROUND_REFUSALS["confirm_required"],
                            "stale_round": RENUMBERED,
                            "key_reused": KEY_REUSED,
                        },
                    ),
                    "422": _errors(
                        ROUND_RULES,
                        {n: ROUND_REFUSALS[n] for n in ("zero_sum", "tie", "bad_tile")},
                    ),
                },
            },
        },
        "/api/v1/sessions/{session_id}/rounds/{number}": {
            "parameters": [SESSION_ID, ROUND_NUMBER],
            "get": {
                "operationId": "getRound",
                "tags": ["rounds"],
                "summary": "One round.",
                "responses": {
                    "200": _answer("The round.", "Round", {"after_went_out": WENT_OUT_ROUND}),
                },
            },
            "put": {
                "operationId": "replaceRound",
                "tags": ["rounds"],
                "summary": "Replace a round (same body as adding); its scores are derived again.",
                "description": "`key` and `number` are ignored here.",
                "requestBody": _body(
                    "RoundInput",
                    {
                        "scores": {
                            "summary": "Round 1 replaced by scores as on paper.",
                            "value": ROUND_EXAMPLES["scores"]["value"],
                        }
                    },
                ),
                "responses": {
                    "200": _answer(
                        "The round as replaced; its `version` moved on.",
                        "Round",
                        {"scores": {**ROUND_ANSWERS["scores"], "version": 3}},
                    ),
                    "409": _errors(
                        "`confirm_required`, as when adding; `stale_round` when `version` is "
                        "not the round's current one (it was edited, or a delete moved another "
                        "round to this number): nothing changed; the message says what became "
                        "of the round.",
                        {"stale_round": STALE_ROUND},
                    ),
                    "422": _errors(ROUND_RULES),
                },
            },
            "delete": {
                "operationId": "deleteRound",
                "tags": ["rounds"],
                "summary": "Remove a round; later rounds move up one number.",
                "description": "Send `?version=N` with the round's `version` as last read, so "
                "that a delete made from an old view never removes another round.",
                "parameters": [ROUND_VERSION],
                "responses": {
                    "204": {"description": "Removed."},
                    "400": _errors("`version` is not a whole number from 1 (`bad_request`)."),
                    "409": _errors(
                        "`stale_round`: `version` is not the round's current one (it was "
                        "edited, or a delete moved another round to this number); nothing was "
                        "removed.",
                        {"stale_round": STALE_ROUND},
                    ),
                },
            },
        },
        "/api/v1/rules/set": _tool(
            "checkSet",
            "Is this one set valid, and every way to read it.",
            ("SetRequest", SET_EXAMPLES, tools.check_set_tool),
            ("SetCheck", "The verdict; `points` is the highest reading's."),
        ),
        "/api/v1/rules/meld": _tool(
            "checkMeld",
            "Do these sets, all from one rack, make the initial meld.",
            ("MeldRequest", MELD_EXAMPLES, tools.check_meld_tool),
            ("MeldCheck", "The verdict, with each set's."),
        ),
        "/api/v1/rules/rack": _tool(
            "rackValue",
            "What a rack is worth and how many tiles it holds.",
            ("RackRequest", RACK_EXAMPLES, tools.rack_tool),
            ("RackValue", "The rack's value (jokers at the joker penalty) and tile count."),
        ),
        "/api/v1/rules/swap": _tool(
            "checkJokerSwap",
            "May a rack tile take the place of a joker in a set on the table.",
            ("SwapRequest", SWAP_EXAMPLES, tools.swap_tool),
            (
                "SwapCheck",
                "The verdict, with what the joker stands for and, once allowed, the reminder "
                "that the freed joker must be played this turn.",
            ),
            "Allowed only when `jokers_retrievable` is on, the set is valid and holds a joker, "
            "and the tile is one the joker stands for in some reading (in a 3-tile group either "
            "missing colour; in a run the exact tile). A refusal is still a 200, with `allowed` "
            "false and the reason.",
        ),
        "/api/v1/openapi.json": {
            "get": {
                "operationId": "openapi",
                "tags": ["meta"],
                "summary": "This document.",
                "responses": {"200": _answer("The OpenAPI 3.1 document.", "OpenAPI")},
            },
        },
    },
    "security": SECURITY,
    "components": {"schemas": SCHEMAS, "securitySchemes": SECURITY_SCHEMES},
}


def _shared_answers(document: dict[str, Any]) -> None:
    """The answers many operations share, written once: every operation is behind the
    passphrase gate (the open /healthz is not in the API; none overrides the global
    `security`), one with a path parameter may find nothing there, and one with a body may
    find it malformed or too large."""
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            answers = operation["responses"]
            answers.update(_gate_answers())
            if "{" in path:
                answers.setdefault("404", UNKNOWN_ROUND if "{number}" in path else UNKNOWN_SESSION)
            if "requestBody" in operation:
                answers.setdefault("400", MALFORMED)
                answers.setdefault("413", TOO_LARGE)


_shared_answers(OPENAPI)
