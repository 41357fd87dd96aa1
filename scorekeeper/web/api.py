"""The JSON API of docs/DESIGN.md 3: the same services as the pages, errors in one shape."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper.extensions import csrf, db
from scorekeeper.rules import RulesError
from scorekeeper.rules.numbers import whole_number
from scorekeeper.services import lists, rounds, sessions, tools, views
from scorekeeper.services.bodies import Extend, read
from scorekeeper.services.documents import round_document, session_document, session_summary
from scorekeeper.services.errors import bad_request, status_for
from scorekeeper.web.access import session_stamp
from scorekeeper.web.i18n import session_title
from scorekeeper.web.messages import change_text, problem_dict, rules_text, translate
from scorekeeper.web.responses import conditional, errors_response

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


@bp.errorhandler(RulesError)
def rules_error(error: RulesError) -> Response:
    db.session.rollback()
    # `code` stays the same in every language; `message` is in the request's language.
    return errors_response([problem_dict(p) for p in error.problems], status_for(error))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of the body, refused when it gives a key twice: {"Bo": 22, "Bo": 23}."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            shown = key if len(key) <= 40 else key[:40] + "…"
            raise bad_request("The body gives “%(key)s” twice in one object.", key=shown)
        found[key] = value
    return found


def _no_constant(constant: str) -> Any:
    raise bad_request("%(constant)s is not a JSON number.", constant=constant)


def json_body() -> Any:
    """The request's JSON, or a bad request that says the body is not JSON; NaN, Infinity and
    a key given twice ({"Bo": 22, "Bo": 23}) are refused too."""
    if not request.is_json:
        raise bad_request("The body must be JSON (Content-Type: application/json).")
    data = request.get_data(cache=True)  # a Content-Length over MAX_CONTENT_LENGTH: a 413
    limit = request.max_content_length
    if limit is not None and len(data) >= limit and request.stream.read(1):
        # A streamed (chunked) body is cut at the limit rather than refused: refuse it here,
        # so what was sent beyond 64 KiB is never silently dropped.
        raise RequestEntityTooLarge()
    try:
        body = json.loads(data, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except RecursionError:  # "[[[[..." deeper than the parser goes: bad input, not a 500
        raise bad_request("The body is nested too deeply to be read.") from None
    except ValueError:  # not JSON, not UTF-8/16/32, or a number of thousands of digits
        body = None
    if body is None:
        raise bad_request("The body must be JSON (Content-Type: application/json).")
    return body


@bp.post("/sessions")
def create_session() -> tuple[Response, int, dict[str, str]]:
    """A new session; a `key` that made one already answers that session (200)."""
    made = sessions.make_session(json_body())
    location = url_for("api.get_session", session_id=made.session.id)
    status = 201 if made.created else 200
    return (
        jsonify(session_document(made.session, change_text, session_title)),
        status,
        {"Location": location},
    )


def _query_count(name: str, least: int) -> int | None:
    """An optional whole-number query parameter (`?limit=20`), or a bad request."""
    text = request.args.get(name)
    if text is None:
        return None
    number = whole_number(text, 9)
    if number is None or number < least:
        raise bad_request(
            "%(name)s must be a whole number of at least %(least)d.", name, name=name, least=least
        )
    return number


@bp.get("/sessions")
def list_sessions() -> Response:
    """Sessions newest first, from the summary kept on each session (no rounds are read);
    `?limit=20&offset=40` reads one page of them."""
    found = lists.list_sessions(_query_count("limit", 1), _query_count("offset", 0) or 0)
    return jsonify({"sessions": [session_summary(s, session_title) for s in found]})


@bp.get("/sessions/<int:session_id>")
def get_session(session_id: int) -> Response:
    """The session; an `If-None-Match` of its current ETag is answered 304 after one small
    query of its stamp, so every phone at the table can poll it every second or two."""
    stamp = session_stamp(session_id)
    # (A round saved between the stamp and the drawing gives a newer body under the older tag:
    # the next poll then fetches it again, never the other way round.)
    return conditional(
        stamp,
        "json",
        lambda: jsonify(
            session_document(views.get_session(session_id), change_text, session_title)
        ),
    )


@bp.post("/sessions/<int:session_id>/extend")
def extend_session(session_id: int) -> Response:
    """More rounds; with the session's `version` it was asked from, only while it is at it."""
    asked = read(Extend, json_body())
    view = sessions.extend_session(session_id, asked.rounds, asked.version)
    return jsonify(session_document(view, change_text, session_title))


@bp.post("/sessions/<int:session_id>/rounds")
def add_round(session_id: int) -> tuple[Response, int, dict[str, str]]:
    written = rounds.add_round(session_id, json_body())
    location = url_for("api.get_round", session_id=session_id, number=written.round.number)
    return (
        jsonify(round_document(written.round)),
        201 if written.created else 200,
        {"Location": location},
    )


@bp.get("/sessions/<int:session_id>/rounds/<int:number>")
def get_round(session_id: int, number: int) -> Response:
    return jsonify(round_document(rounds.get_round(session_id, number)))


@bp.put("/sessions/<int:session_id>/rounds/<int:number>")
def replace_round(session_id: int, number: int) -> Response:
    return jsonify(round_document(rounds.replace_round(session_id, number, json_body()).round))


@bp.delete("/sessions/<int:session_id>/rounds/<int:number>")
def delete_round(session_id: int, number: int) -> tuple[str, int]:
    """Remove a round; `?version=N` removes it only while it is the round of that version."""
    rounds.delete_round(session_id, number, _query_count("version", 1))
    return "", 204


@bp.post("/rules/set")
def check_set() -> Response:
    return jsonify(tools.check_set_tool(json_body(), translate))


@bp.post("/rules/meld")
def check_meld() -> Response:
    return jsonify(tools.check_meld_tool(json_body(), translate))


@bp.post("/rules/rack")
def check_rack() -> Response:
    return jsonify(tools.rack_tool(json_body()))


@bp.post("/rules/swap")
def check_swap() -> Response:
    return jsonify(tools.swap_tool(json_body(), translate, rules_text))


@bp.get("/openapi.json")
def openapi() -> Response:
    from scorekeeper.web.openapi import OPENAPI

    return jsonify(OPENAPI)
