"""The household gate: once a passphrase is set, every page and API call needs it: the pages
the sign-in cookie, the API `Authorization: Bearer <passphrase>` or that cookie."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    current_app,
    flash,
    g,
    has_request_context,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext
from werkzeug.exceptions import ServiceUnavailable
from werkzeug.wrappers import Response

from scorekeeper.services import access, backup, stamps
from scorekeeper.services.access import (
    AccessError,
    PassphraseRefused,
    TooManyAttempts,
    WrongPassphrase,
)
from scorekeeper.web.forms.access import (
    ChangePassphraseForm,
    RemovePassphraseForm,
    SetPassphraseForm,
    SignInForm,
)
from scorekeeper.web.forms.common import ButtonForm, add_error
from scorekeeper.web.messages import translate
from scorekeeper.web.responses import errors_response
from scorekeeper.web.urls import safe_next

bp = Blueprint("access", __name__)

# Answered without reading the database at all.
ALWAYS_OPEN = frozenset({"static", "main.healthz", "pwa.web_manifest", "pwa.service_worker"})
# A phone's poll of a session: the passphrase state read with the session's stamp, in one go.
POLLS = frozenset({"sessions.live_table", "api.get_session"})
# Answered to anyone, but they need to know whether this phone is signed in.
SIGN_IN_PAGES = frozenset({"access.sign_in", "access.sign_out"})
API_PREFIX = "/api/"
# Where create_app keeps the path of a restore's flag file; what a 503 asks a client to wait.
RESTORE_FLAG = "scorekeeper.restore_flag"
# Where register_access keeps the passphrase checks' settings (services.access.AccessSettings).
SETTINGS = "scorekeeper.access"
RETRY_AFTER_S = 5
REALM = 'Bearer realm="Scorekeeper"'


@dataclass(frozen=True)
class Gate:
    """What the gate found for this request, for the templates (sign-out button, notices)."""

    locked: bool
    configured: bool
    signed_in: bool
    remember: bool = False


def register_access(app: Flask) -> None:
    """The gate before every request (after the check for a restore under way), its pages,
    and session cookies marked Secure on https."""
    app.register_blueprint(bp)
    app.extensions[SETTINGS] = access.settings_of(app.config)  # hashes a configured passphrase
    app.extensions[RESTORE_FLAG] = backup.restore_flag(
        str(app.config["SQLALCHEMY_DATABASE_URI"]), app.instance_path
    )
    app.before_request(closed_while_restoring)
    app.before_request(gate)
    app.after_request(renew_cookie)
    app.session_interface = HttpsAwareSessionInterface()


class HttpsAwareSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, marked Secure whenever the request came over https."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return super().get_cookie_secure(app) or (has_request_context() and request.is_secure)


def here() -> access.RequestAccess:
    """This request's passphrase checks (the state in force read once per request)."""
    if "access" not in g:
        g.access = access.RequestAccess(current_app.extensions[SETTINGS])
    found: access.RequestAccess = g.access
    return found


def session_stamp(session_id: int) -> stamps.Stamp:
    """The session's stamp, as this request's poll read it already if it did (once)."""
    peeked, here().peeked = here().peeked, None
    return stamps.session_stamp(session_id, peeked)


def client_address() -> str:
    """Who is guessing, for the limit on wrong passphrases (the proxy's, behind a proxy)."""
    return (request.remote_addr or "unknown")[:64]


def _restoring() -> bool:
    return backup.restore_running(current_app.extensions[RESTORE_FLAG])


def closed_while_restoring() -> None:
    """While `flask restore` runs (its flag file is there, services/backup.py), every request
    but /healthz, the static files and the PWA's files is a 503: nothing is read or written."""
    if request.endpoint not in ALWAYS_OPEN and _restoring():
        raise ServiceUnavailable(retry_after=RETRY_AFTER_S)


def gate() -> Response | None:
    """Let the request through, or answer it: a redirect to sign in, a 401, a 429, or a 503
    while the household's row is missing or a restore began since the request came in."""
    if request.endpoint in ALWAYS_OPEN:
        return None
    session_id = (request.view_args or {}).get("session_id")
    if request.method == "GET" and request.endpoint in POLLS and isinstance(session_id, int):
        access.read_for_poll(here(), session_id)
    state = access.access_state(here())
    # Looked for again after the read: a request let in just before a restore began may have
    # waited on its locks and read the backup's rows before their new generation.
    if not state.ready or _restoring():
        raise ServiceUnavailable(retry_after=RETRY_AFTER_S)
    claims = access.read_cookie(here(), request.cookies.get(_cookie_name()))
    g.access_cookie = claims  # for renew_cookie and sign_out
    g.gate = Gate(
        locked=state.locked,
        configured=state.configured,
        signed_in=claims is not None,
        remember=claims is not None and claims.remember,
    )
    if not state.locked or request.endpoint in SIGN_IN_PAGES:
        return None
    if request.path.startswith(API_PREFIX) or request.path == API_PREFIX.rstrip("/"):
        return _api_gate(signed_in=claims is not None)
    if claims is not None:
        return None
    return redirect(url_for("access.sign_in", next=_here()))


def _api_gate(signed_in: bool) -> Response | None:
    header = request.headers.get("Authorization", "").strip()
    if not header:
        if signed_in:
            return None
        return _unauthorized(
            gettext(
                "This Scorekeeper has a household passphrase: send it as "
                "`Authorization: Bearer <passphrase>`."
            )
        )
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        return _unauthorized(
            gettext("Send the household passphrase as `Authorization: Bearer <passphrase>`."),
            "invalid_request",
        )
    try:
        access.check_passphrase(here(), client_address(), _header_text(credentials))
    except TooManyAttempts as error:
        response = errors_response([{"code": error.code, "message": translate(error.problem)}], 429)
        response.headers["Retry-After"] = str(error.retry_after)
        return response
    except WrongPassphrase as error:
        return _unauthorized(translate(error.problem), "invalid_token")
    return None


def _unauthorized(message: str, error: str | None = None) -> Response:
    response = errors_response([{"code": "unauthorized", "message": message}], 401)
    response.headers["WWW-Authenticate"] = REALM + (f', error="{error}"' if error else "")
    return response


def _header_text(value: str) -> str:
    """A header as the client typed it: WSGI hands over UTF-8 bytes decoded as Latin-1."""
    try:
        return value.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return value


def _here() -> str | None:
    """Where to come back to after signing in: this page, or (after a POST) the page it was
    sent from; never another site."""
    if request.method in ("GET", "HEAD"):
        return request.script_root + request.full_path.rstrip("?")
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc == request.host and referrer.path:
        return referrer.path + (f"?{referrer.query}" if referrer.query else "")
    return None


def _cookie_name() -> str:
    return str(current_app.config["ACCESS_COOKIE_NAME"])


def _secure() -> bool:
    """Secure on https (or always, with SESSION_COOKIE_SECURE, e.g. behind a TLS proxy)."""
    return request.is_secure or bool(current_app.config.get("SESSION_COOKIE_SECURE"))


def _set_cookie(response: Response, remember: bool, token_id: str | None = None) -> None:
    response.set_cookie(
        _cookie_name(),
        access.cookie_token(here(), remember, token_id),
        max_age=int(current_app.config["ACCESS_COOKIE_MAX_AGE"]) if remember else None,
        path="/",
        secure=_secure(),
        httponly=True,
        samesite="Lax",
    )


def _clear_cookie(response: Response) -> None:
    response.delete_cookie(
        _cookie_name(), path="/", secure=_secure(), httponly=True, samesite="Lax"
    )


def renew_cookie(response: Response) -> Response:
    """An unticked "Remember this phone" is taken by the server for a few hours only: while
    the phone is used, its cookie is signed again (same id) every hour or so."""
    claims: access.CookieClaims | None = g.get("access_cookie")
    if claims is None or not access.needs_renewal(here().settings, claims):
        return response
    name = _cookie_name() + "="
    if any(c.startswith(name) for c in response.headers.getlist("Set-Cookie")):
        return response  # this answer signs in, out or anew already
    _set_cookie(response, remember=False, token_id=claims.token_id)
    return response


def _gate() -> Gate:
    found: Gate | None = g.get("gate")
    return found if found is not None else Gate(False, False, False)


@bp.app_context_processor
def gate_context() -> dict[str, Any]:
    """`gate` in every template: whether a passphrase is set and this phone is signed in."""
    return {"gate": g.get("gate")}


def _refused(error: AccessError) -> tuple[int, dict[str, str]]:
    """The status and headers for a refused passphrase on a page."""
    if isinstance(error, TooManyAttempts):
        return 429, {"Retry-After": str(error.retry_after)}
    if isinstance(error, WrongPassphrase):
        return 403, {}
    return 422, {}


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in() -> Response | tuple[str, int, dict[str, str]]:
    """The household passphrase, with "Remember this phone" (a year) checked by default."""
    target = safe_next(request.values.get("next"))
    current = _gate()
    if not current.locked or (current.signed_in and request.method == "GET"):
        return redirect(target)
    form = SignInForm()
    if not form.is_submitted():
        form.next.data = target
        return _sign_in_page(form), 200, {}
    if not form.validate():
        return _sign_in_page(form), 422, {}
    try:
        access.check_passphrase(here(), client_address(), form.passphrase.data)
    except AccessError as error:
        add_error(form.passphrase, translate(error.problem))
        status, headers = _refused(error)
        return _sign_in_page(form), status, headers
    response = redirect(target, 303)
    _set_cookie(response, remember=bool(form.remember.data))
    return response


def _sign_in_page(form: SignInForm) -> str:
    return render_template("access/sign_in.html", form=form)


@bp.post("/sign-out")
def sign_out() -> Response:
    """Forget the passphrase on this phone, and end its cookie on the server, copies of it
    too (CSRFProtect has checked the token)."""
    locked = _gate().locked
    claims: access.CookieClaims | None = g.get("access_cookie")
    if claims is not None:
        access.sign_out_cookie(here().settings, claims)
    response = redirect(url_for("access.sign_in" if locked else "sessions.home"), 303)
    _clear_cookie(response)
    if locked:
        flash(gettext("Signed out: this phone needs the passphrase again."), "success")
    return response


@bp.route("/access", methods=["GET", "POST"])
def settings() -> Response | tuple[str, int, dict[str, str]]:
    """The household passphrase: set the first one here (a POST), or see how to change it."""
    set_form = SetPassphraseForm()
    if request.method == "GET":
        return _settings_page(set_form=set_form), 200, {}
    if not set_form.validate():
        return _settings_page(set_form=set_form), 422, {}
    try:
        access.set_passphrase(here(), set_form.passphrase.data)
    except AccessError as error:
        add_error(set_form.passphrase, translate(error.problem))
        status, headers = _refused(error)
        return _settings_page(set_form=set_form), status, headers
    flash(gettext("The household passphrase is set. Sign in with it on this phone too."), "success")
    return redirect(url_for("access.sign_in"), 303)


@bp.post("/access/change")
def change() -> Response | tuple[str, int, dict[str, str]]:
    """A new passphrase for the one in force: every other phone must sign in again."""
    form = ChangePassphraseForm(prefix="change")
    if not form.validate():
        return _settings_page(change_form=form), 422, {}
    try:
        access.change_passphrase(here(), client_address(), form.current.data, form.passphrase.data)
    except AccessError as error:
        target = form.passphrase if isinstance(error, PassphraseRefused) else form.current
        add_error(target, translate(error.problem))
        status, headers = _refused(error)
        return _settings_page(change_form=form), status, headers
    flash(
        gettext("Passphrase changed. Every other phone must sign in again with the new one."),
        "success",
    )
    response = redirect(url_for("access.settings"), 303)
    _set_cookie(response, remember=_gate().remember)
    return response


@bp.post("/access/remove")
def remove() -> Response | tuple[str, int, dict[str, str]]:
    """Open Scorekeeper to everyone on the network again."""
    form = RemovePassphraseForm(prefix="remove")
    if not form.validate():
        return _settings_page(remove_form=form), 422, {}
    try:
        access.remove_passphrase(here(), client_address(), form.current.data)
    except AccessError as error:
        add_error(form.current, translate(error.problem))
        status, headers = _refused(error)
        return _settings_page(remove_form=form), status, headers
    flash(
        gettext("The passphrase is removed: anyone on this network can use Scorekeeper."),
        "success",
    )
    response = redirect(url_for("sessions.home"), 303)
    _clear_cookie(response)
    return response


@bp.post("/access/sign-out-everywhere")
def sign_out_everywhere() -> Response:
    """Every phone, this one too, needs the passphrase again (a lost phone, a guest gone)."""
    access.sign_out_every_phone(here())
    flash(gettext("Every phone is signed out, this one too."), "success")
    response = redirect(url_for("access.sign_in"), 303)
    _clear_cookie(response)
    return response


def _settings_page(
    set_form: SetPassphraseForm | None = None,
    change_form: ChangePassphraseForm | None = None,
    remove_form: RemovePassphraseForm | None = None,
) -> str:
    return render_template(
        "access/settings.html",
        state=_gate(),
        set_form=set_form or SetPassphraseForm(formdata=None),
        change_form=change_form or ChangePassphraseForm(formdata=None, prefix="change"),
        remove_form=remove_form or RemovePassphraseForm(formdata=None, prefix="remove"),
        button=ButtonForm(formdata=None),
    )
