"""The home page and the health check."""

from flask import Blueprint, Response, render_template

bp = Blueprint("main", __name__)


@bp.get("/healthz")
def healthz() -> Response:
    """Answer `ok` so a supervisor or a person can see the server is up."""
    return Response("ok", status=200, mimetype="text/plain")


@bp.get("/")
def home() -> str:
    """Say what Scorekeeper is."""
    return render_template("main/home.html")
