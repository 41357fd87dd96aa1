"""Error pages and JSON errors: API paths answer in the docs/DESIGN.md 3 shape, pages in HTML."""

from __future__ import annotations

from flask import Flask, Response, render_template, request
from flask_babel import gettext
from werkzeug.exceptions import HTTPException, InternalServerError

from scorekeeper.extensions import db
from scorekeeper.web.responses import errors_response


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def register_error_handlers(app: Flask) -> None:
    """404, 405, 413 and 500 as pages, or as JSON under /api/; a 500 rolls the session back."""

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Response | tuple[str, int, list[tuple[str, str]]]:
        db.session.rollback()
        status = error.code or 500
        # Keep what the error says beyond its body, such as a 405's Allow header.
        headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
        if _wants_json():
            code = (error.name or "error").lower().replace(" ", "_")
            response = errors_response([{"code": code, "message": error.description or ""}], status)
            response.headers.extend(headers)
            return response
        return render_template("errors/error.html", error=error), status, headers

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
                        "message": gettext("Something went wrong; nothing was saved."),
                    }
                ],
                500,
            )
        return render_template("errors/error.html", error=wrapped), 500
