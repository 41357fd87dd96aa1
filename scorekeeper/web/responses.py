"""Answers shared by the pages and the API: the errors' JSON, a session table's ETag and 304,
and pages with forms that no browser keeps."""

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
    """The opaque part of a session's weak ETag (`W/"<this>"`) for one kind of answer ("json",
    "table") in the request's language, whose words differ."""
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
    """A page with a form that writes: `Cache-Control: no-store`, so no cache brings it back with
    a key or a version already used; Back fetches it afresh."""

    @functools.wraps(view)
    def answer(*args: Any, **kwargs: Any) -> Response:
        response = make_response(view(*args, **kwargs))
        response.headers["Cache-Control"] = "no-store"
        return response

    return answer  # type: ignore[return-value]
