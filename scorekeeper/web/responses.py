"""Answers shared by the pages and the API: the errors' JSON shape, and the conditional answer
of a session's table (its ETag, a bodiless 304 when the phone has it already)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Response, jsonify, make_response, request

from scorekeeper.services.sessions import Stamp
from scorekeeper.web.i18n import current_locale


def errors_response(problems: list[dict[str, str]], status: int) -> Response:
    """`{"errors": [{"code", "message", "field"?}]}` with the given status."""
    response = jsonify({"errors": problems})
    response.status_code = status
    return response


def etag_of(stamp: Stamp, kind: str) -> str:
    """The opaque part of a session's weak ETag for one kind of answer ("json", "table") in
    the request's language (the words differ, so do the tags): sent as `W/"<this>"`, and sent
    back by the phone in If-None-Match."""
    return f"{kind}-{current_locale()}-{stamp.tag}"


def conditional(stamp: Stamp, kind: str, draw: Callable[[], Response | str]) -> Response:
    """A 304 when the phone's If-None-Match names the session's stamp, else `draw()`'s answer;
    both carry the ETag and ask the phone to check again before using what it kept."""
    tag = etag_of(stamp, kind)
    if request.if_none_match and request.if_none_match.contains_weak(tag):
        response = Response(status=304)
    else:
        response = make_response(draw())
    response.set_etag(tag, weak=True)
    response.headers["Cache-Control"] = "private, no-cache"  # the household's own scores
    return response
