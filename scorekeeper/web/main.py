"""The health check (the home page is the sessions list, in web/sessions.py)."""

from flask import Blueprint, Response

bp = Blueprint("main", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    """Answer `ok` so a supervisor or a person can see the server is up."""
    return Response("ok", status=200, mimetype="text/plain")
