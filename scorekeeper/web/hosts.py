"""Allowed hosts: the app answers only to the names and addresses it is reached by (Flask's
TRUSTED_HOSTS); a request for any other host is answered here, before any other hook."""

from __future__ import annotations

from flask import Flask, Response, render_template, request
from flask_babel import gettext
from werkzeug.exceptions import BadHost, SecurityError

from scorekeeper.network import allowed_hosts
from scorekeeper.web.responses import errors_response

BAD_HOST = "bad_host"


def register_hosts(app: Flask) -> None:
    """Compute the allowed hosts for TRUSTED_HOSTS and answer a refused one before anything."""
    configured = app.config.get("TRUSTED_HOSTS") or []
    app.config["TRUSTED_HOSTS"] = [*configured, *allowed_hosts(app.config.get("HOSTS"))]
    # First of the app's before_request hooks: the CSRF check and the passphrase gate, which
    # come after, read the host or build URLs.
    app.before_request_funcs.setdefault(None, []).insert(0, refuse_foreign_host)


def is_bad_host(error: BaseException | None) -> bool:
    """A Host not allowed (SecurityError) or one the URL map cannot encode (BadHost)."""
    return isinstance(error, SecurityError | BadHost)


def refuse_foreign_host() -> Response | None:
    if is_bad_host(request.routing_exception):
        return bad_host_response()
    return None


def bad_host_response() -> Response:
    """400: a page (or the API's JSON) saying so, in the phone's language; touches neither
    `request.host` nor `url_for`."""
    message = gettext(
        "Scorekeeper does not answer to this address. Open it by the address it showed when "
        "it started, or scan the QR code on a session's page."
    )
    if request.path.startswith("/api/"):
        return errors_response([{"code": BAD_HOST, "message": message}], 400)
    page = render_template("errors/bad_host.html", message=message)
    return Response(page, status=400, mimetype="text/html")
