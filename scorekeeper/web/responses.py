"""Answers shared by the pages and the API: the errors' JSON shape, the conditional answer
of a session's table (its ETag, a bodiless 304 when the phone has it already), and pages with
forms that no browser keeps."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Response, jsonify, make_response, request

from scorekeeper.services.stamps import Stamp
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


View = TypeVar("View", bound=Callable[..., Any])


def no_store(view: View) -> View:
    """A page with a form that writes (a round, an edit, a delete, the notes, a new session):
    `Cache-Control: no-store`, so neither the browser's cache, nor its back-forward cache, nor
    the service worker's copies (templates/pwa/sw.js keeps no such page) ever bring it back
    with a key or a version already used; Back fetches it afresh."""

    @functools.wraps(view)
    def answer(*args: Any, **kwargs: Any) -> Response:
        response = make_response(view(*args, **kwargs))
        response.headers["Cache-Control"] = "no-store"
        return response

    return answer  # type: ignore[return-value]
