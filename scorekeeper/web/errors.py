"""Error pages and JSON errors: API paths answer in the docs/DESIGN.md 3 shape, pages in HTML."""

from __future__ import annotations

from flask import Flask, Response, render_template, request
from werkzeug import exceptions
from werkzeug.exceptions import HTTPException, InternalServerError

from scorekeeper.extensions import db
from scorekeeper.services.errors import NotFound
from scorekeeper.web.hosts import bad_host_response, is_bad_host
from scorekeeper.web.messages import problem_dict
from scorekeeper.web.responses import errors_response
from scorekeeper.web.text import lazy_text as _l

#: What an HTTP error means, in the family's words (werkzeug's own are English only).
DESCRIPTIONS = {
    400: _l("The request could not be read: nothing was changed."),
    401: _l("Sign in with the household passphrase first."),
    403: _l("That is not allowed here."),
    404: _l("There is nothing at this address. The session or round may have been deleted."),
    405: _l("This address does not take that kind of request."),
    413: _l("That is too much to send at once: nothing was saved."),
    415: _l("Send the request as JSON."),
    429: _l("Too many tries: wait a little, then try again."),
    500: _l("Something went wrong; nothing was saved."),
    503: _l("Scorekeeper is being restored or set up: try again in a minute."),
}


def description(error: HTTPException) -> str:
    """The error's meaning in the request's language (an unlisted one keeps werkzeug's)."""
    known = DESCRIPTIONS.get(error.code or 500)
    return str(known) if known is not None else error.description or ""


def http_problem(error: HTTPException) -> dict[str, str]:
    """An HTTP error as the API answers it: its name as the code, its meaning in words."""
    return {
        "code": (error.name or "error").lower().replace(" ", "_"),
        "message": description(error),
    }


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def register_error_handlers(app: Flask) -> None:
    """404, 405, 413 and 500 as pages, or as JSON under /api/; a 500 rolls the session back.
    A service's NotFound is the one way to a 404 for a missing session, round, seat or player."""

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response | tuple[str, int, list[tuple[str, str]]]:
        db.session.rollback()
        if is_bad_host(error):  # its page must not build URLs from the refused host
            return bad_host_response()
        status = error.code or 500
        # Keep what the error says beyond its body, such as a 405's Allow header.
        headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
        if _wants_json():
            response = errors_response([http_problem(error)], status)
            response.headers.extend(headers)
            return response
        page = render_template("errors/error.html", error=error, description=description(error))
        return page, status, headers

    @app.errorhandler(NotFound)
    def not_found(error: NotFound) -> Response | tuple[str, int, list[tuple[str, str]]]:
        if not _wants_json():
            return http_error(exceptions.NotFound())
        db.session.rollback()
        return errors_response([problem_dict(p) for p in error.problems], 404)

    @app.errorhandler(Exception)
    def unexpected(error: Exception) -> Response | tuple[str, int]:
        db.session.rollback()
        app.logger.exception("unexpected error", exc_info=error)
        wrapped = InternalServerError()
        if _wants_json():
            return errors_response(
                [
                    {
                        "code": "internal_error",
                        "message": str(DESCRIPTIONS[500]),
                    }
                ],
                500,
            )
        return render_template("errors/error.html", error=wrapped), 500
