"""The household passphrase: open without one; with one, every page and API call needs it."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
import sqlalchemy as sa
from factories import csrf_token
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.security import check_password_hash
from werkzeug.test import TestResponse

from scorekeeper.config import Defaults
from scorekeeper.extensions import db
from scorekeeper.models import FailedSignIn, Household
from scorekeeper.web.access import SETTINGS

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

PASSPHRASE = "tiles on the table"
NEW_PASSPHRASE = "jokers are wild"
YEAR = 365 * 24 * 60 * 60
SCORES = {"ending": "scores", "scores": {"Ann": 5, "Bo": -5}}


def bearer(passphrase: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {passphrase}"}


def set_passphrase(client: FlaskClient, passphrase: str = PASSPHRASE) -> TestResponse:
    return client.post("/access", data={"passphrase": passphrase, "confirm": passphrase})


def sign_in(
    client: FlaskClient, passphrase: str = PASSPHRASE, remember: bool = True, next_: str = ""
) -> TestResponse:
    form = {"passphrase": passphrase, "next": next_}
    if remember:
        form["remember"] = "y"
    return client.post("/sign-in", data=form)


def cookie_header(response: TestResponse, name: str = "scorekeeper_access") -> str:
    found = [c for c in response.headers.getlist("Set-Cookie") if c.startswith(name + "=")]
    assert len(found) == 1, response.headers.getlist("Set-Cookie")
    return found[0]


def sign_in_target(response: TestResponse) -> str:
    """Where a redirect to the sign-in page will go on afterwards."""
    location = urlsplit(response.headers["Location"])
    assert location.path == "/sign-in"
    return parse_qs(location.query)["next"][0]


def signs_in_page(response: TestResponse) -> bool:
    return response.status_code == 302 and "/sign-in" in response.headers["Location"]


@pytest.fixture
def locked(client: FlaskClient) -> FlaskClient:
    """A client of an app whose household passphrase was set in the app (not signed in)."""
    assert set_passphrase(client).status_code == 303
    return client


# No passphrase: nothing changes ------------------------------------------------------------


def test_without_a_passphrase_anyone_on_the_network_can_use_it(client: FlaskClient) -> None:
    home = client.get("/")
    assert home.status_code == 200
    page = home.get_data(as_text=True)
    assert "Anyone on this network can use Scorekeeper." in page
    assert re.search(r'<a href="/access">Set a household passphrase</a>', page)
    assert 'id="sign-out"' not in page
    assert client.get("/sessions/new").status_code == 200
    assert client.post("/api/v1/sessions", json={"players": ["Ann", "Bo"]}).status_code == 201
    assert client.get("/api/v1/sessions").status_code == 200
    assert client.get("/sessions/1").status_code == 200
    access = client.get("/access").get_data(as_text=True)
    assert "Set a household passphrase" in access
    # Nothing to sign in to: the sign-in page sends you home.
    assert client.get("/sign-in").headers["Location"] == "/"


# A passphrase set in the app ---------------------------------------------------------------


def test_setting_the_passphrase_locks_pages_and_the_api(client: FlaskClient) -> None:
    client.post("/api/v1/sessions", json={"players": ["Ann", "Bo"]})
    response = set_passphrase(client)
    assert response.status_code == 303
    assert response.headers["Location"] == "/sign-in"

    home = client.get("/")
    assert home.status_code == 302
    assert sign_in_target(home) == "/"
    assert sign_in_target(client.get("/sessions/1?tab=x")) == "/sessions/1?tab=x"
    assert signs_in_page(client.get("/access"))
    assert signs_in_page(client.get("/sessions/1/export.csv"))
    assert signs_in_page(client.get("/no/such/page"))

    for method, path in [
        ("GET", "/api/v1/sessions"),
        ("GET", "/api/v1/sessions/1"),
        ("POST", "/api/v1/sessions/1/rounds"),
        ("GET", "/api/v1/openapi.json"),
        ("GET", "/api/v1/no-such-thing"),
    ]:
        refused = client.open(path, method=method, json=SCORES)
        assert refused.status_code == 401, path
        assert refused.headers["WWW-Authenticate"].startswith("Bearer")
        assert refused.json is not None
        assert [e["code"] for e in refused.json["errors"]] == ["unauthorized"]
        assert refused.json["errors"][0]["message"]

    assert client.get("/api/v1/sessions", headers=bearer(PASSPHRASE)).status_code == 200
    added = client.post("/api/v1/sessions/1/rounds", json=SCORES, headers=bearer(PASSPHRASE))
    assert added.status_code == 201
    wrong = client.get("/api/v1/sessions", headers=bearer("not the one at all"))
    assert wrong.status_code == 401
    assert wrong.headers["WWW-Authenticate"] == 'Bearer realm="Scorekeeper", error="invalid_token"'
    assert wrong.json is not None and wrong.json["errors"][0]["code"] == "unauthorized"
    basic = client.get("/api/v1/sessions", headers={"Authorization": "Basic dXNlcjpwdw=="})
    assert basic.status_code == 401


def test_health_check_static_files_and_sign_in_stay_open(locked: FlaskClient) -> None:
    assert locked.get("/healthz").status_code == 200
    assert locked.get("/healthz").get_data(as_text=True) == "ok"
    assert locked.get("/static/app.css").status_code == 200
    sign_in_page = locked.get("/sign-in")
    assert sign_in_page.status_code == 200
    page = sign_in_page.get_data(as_text=True)
    assert 'type="password"' in page
    remember = re.search(r'<input [^>]*id="remember"[^>]*>', page)
    assert remember and " checked " in remember[0] and 'type="checkbox"' in remember[0]


def test_the_stored_passphrase_is_a_hash(app: Flask, locked: FlaskClient) -> None:
    with app.app_context():
        row = db.session.get(Household, 1)
        assert row is not None and row.passphrase_hash is not None
        assert PASSPHRASE not in row.passphrase_hash
        assert row.passphrase_hash.split(":")[0] in ("scrypt", "pbkdf2")
        assert check_password_hash(row.passphrase_hash, PASSPHRASE)
        assert row.cookie_epoch == 1


def test_as_deployed_a_passphrase_is_hashed_with_full_cost_scrypt(
    app: Flask, make_app: Callable[..., Flask]
) -> None:
    """The tests hash with a cheap scrypt (tests/conftest.py); the app's default is werkzeug's
    scrypt at its full cost (n=2**15, r=8, p=1), set in the app or by its configuration."""
    assert Defaults.PASSPHRASE_HASH_METHOD == "scrypt"
    deployed = make_app(PASSPHRASE_HASH_METHOD=Defaults.PASSPHRASE_HASH_METHOD)
    assert set_passphrase(deployed.test_client()).status_code == 303
    with app.app_context():
        row = db.session.get(Household, 1)
        assert row is not None and row.passphrase_hash is not None
        assert row.passphrase_hash.startswith("scrypt:32768:8:1$")
        assert check_password_hash(row.passphrase_hash, PASSPHRASE)
    configured = make_app(
        PASSPHRASE_HASH_METHOD=Defaults.PASSPHRASE_HASH_METHOD, PASSPHRASE=NEW_PASSPHRASE
    )
    hashed = configured.extensions[SETTINGS].configured.passphrase_hash
    assert hashed.startswith("scrypt:32768:8:1$")
    assert check_password_hash(hashed, NEW_PASSPHRASE)


def test_a_short_or_mismatched_passphrase_is_refused(app: Flask, client: FlaskClient) -> None:
    short = set_passphrase(client, "seven77")
    assert short.status_code == 422
    assert "at least 8 characters" in short.get_data(as_text=True)
    differ = client.post("/access", data={"passphrase": PASSPHRASE, "confirm": PASSPHRASE + "!"})
    assert differ.status_code == 422
    assert "not the same" in differ.get_data(as_text=True)
    assert client.get("/").status_code == 200
    with app.app_context():
        assert db.session.get(Household, 1).passphrase_hash is None  # type: ignore[union-attr]
    # Once set, the first-run form cannot set another one over it.
    set_passphrase(client)
    sign_in(client)
    again = set_passphrase(client, NEW_PASSPHRASE)
    assert again.status_code == 422
    assert client.get("/api/v1/sessions", headers=bearer(PASSPHRASE)).status_code == 200


# Signing in and out ------------------------------------------------------------------------


def test_signing_in_remembers_this_phone_for_a_year(locked: FlaskClient) -> None:
    response = sign_in(locked, next_="/sessions/new")
    assert response.status_code == 303
    assert response.headers["Location"] == "/sessions/new"
    cookie = cookie_header(response)
    max_age = re.search(r"Max-Age=(\d+)", cookie)
    assert max_age and abs(int(max_age[1]) - YEAR) <= 60
    assert "Expires=" in cookie
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "Secure" not in cookie  # plain http on the home network
    assert PASSPHRASE not in cookie

    home = locked.get("/")
    assert home.status_code == 200
    page = home.get_data(as_text=True)
    assert 'id="sign-out"' in page
    assert "Anyone on this network" not in page
    assert locked.get("/sessions/new").status_code == 200
    # A signed-in phone going to the sign-in page goes home instead.
    assert locked.get("/sign-in").headers["Location"] == "/"


def test_an_unremembered_phone_gets_a_browser_session_cookie(locked: FlaskClient) -> None:
    cookie = cookie_header(sign_in(locked, remember=False))
    assert "Max-Age" not in cookie and "Expires" not in cookie
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert locked.get("/").status_code == 200


def test_cookies_are_secure_over_https(app: Flask, locked: FlaskClient) -> None:
    https = app.test_client()
    response = https.post(
        "/sign-in",
        data={"passphrase": PASSPHRASE, "remember": "y"},
        base_url="https://localhost",
    )
    assert response.status_code == 303
    assert "Secure" in cookie_header(response)
    undo = https.post(
        "/api/v1/sessions",
        json={"players": ["Ann", "Bo"]},
        base_url="https://localhost",
        headers=bearer(PASSPHRASE),
    )
    assert undo.status_code == 201
    https.post("/api/v1/sessions/1/rounds", json=SCORES, base_url="https://localhost")
    deleted = https.post("/sessions/1/rounds/1/delete", base_url="https://localhost")
    assert "Secure" in cookie_header(deleted, "session")


def test_wrong_passphrase_on_the_sign_in_page(locked: FlaskClient) -> None:
    response = sign_in(locked, "guess guess guess")
    assert response.status_code == 403
    assert "That is not the household passphrase." in response.get_data(as_text=True)
    assert "scorekeeper_access=" not in ";".join(response.headers.getlist("Set-Cookie"))
    assert signs_in_page(locked.get("/"))


@pytest.mark.parametrize(
    "target",
    ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", ""],
)
def test_sign_in_only_goes_on_to_this_site(locked: FlaskClient, target: str) -> None:
    response = sign_in(locked, next_=target)
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_signing_out_locks_this_phone_again(locked: FlaskClient) -> None:
    sign_in(locked)
    assert locked.get("/").status_code == 200
    response = locked.post("/sign-out")
    assert response.status_code == 303
    assert response.headers["Location"] == "/sign-in"
    cookie = cookie_header(response)
    assert "Max-Age=0" in cookie or "Expires=Thu, 01 Jan 1970" in cookie
    assert signs_in_page(locked.get("/"))
    assert locked.get("/api/v1/sessions").status_code == 401


def test_the_api_accepts_a_signed_in_pages_cookie(locked: FlaskClient) -> None:
    """Decided: the pages' own scripts may call the API with the cookie (see web/access.py)."""
    sign_in(locked)
    assert locked.get("/api/v1/sessions").status_code == 200
    # An Authorization header, when sent, decides on its own.
    assert locked.get("/api/v1/sessions", headers=bearer("not the one at all")).status_code == 401


# Wrong guesses ---------------------------------------------------------------------------


def test_wrong_guesses_are_rate_limited_until_the_window_passes(
    app: Flask, locked: FlaskClient
) -> None:
    for _ in range(3):
        assert sign_in(locked, "wrong wrong").status_code == 403
    for _ in range(2):
        assert locked.get("/api/v1/sessions", headers=bearer("wrong wrong")).status_code == 401

    # Five wrong guesses: now even the right passphrase waits, on the page and the API.
    refused = sign_in(locked)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 600
    assert "Too many wrong passphrases" in refused.get_data(as_text=True)
    api = locked.get("/api/v1/sessions", headers=bearer(PASSPHRASE))
    assert api.status_code == 429
    assert 1 <= int(api.headers["Retry-After"]) <= 600
    assert api.json is not None and api.json["errors"][0]["code"] == "too_many_attempts"
    assert signs_in_page(locked.get("/"))

    # Another address is not held back by this one's guesses.
    other = app.test_client()
    elsewhere = {"REMOTE_ADDR": "192.168.1.77"}
    allowed = other.get("/api/v1/sessions", headers=bearer(PASSPHRASE), environ_base=elsewhere)
    assert allowed.status_code == 200

    # Time travel: the window passes.
    with app.app_context():
        for failure in db.session.scalars(sa.select(FailedSignIn)):
            failure.attempted_at -= timedelta(seconds=app.config["ACCESS_FAILURE_WINDOW"])
        db.session.commit()
    assert locked.get("/api/v1/sessions", headers=bearer(PASSPHRASE)).status_code == 200
    assert sign_in(locked).status_code == 303

    # A new typo counts again (and prunes the old rows); the right passphrase then forgets it.
    assert sign_in(locked, "wrong wrong").status_code == 403
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(FailedSignIn)) == 1
    assert sign_in(locked).status_code == 303
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(FailedSignIn)) == 0


def test_the_window_is_configurable_and_old_failures_are_pruned(
    make_app: Callable[..., Flask],
) -> None:
    app = make_app(ACCESS_FAILURE_LIMIT=2, ACCESS_FAILURE_WINDOW=60)
    client = app.test_client()
    set_passphrase(client)
    assert sign_in(client, "wrong wrong").status_code == 403
    assert sign_in(client, "wrong wrong").status_code == 403
    held = sign_in(client)
    assert held.status_code == 429
    assert 1 <= int(held.headers["Retry-After"]) <= 60
    with app.app_context():
        for failure in db.session.scalars(sa.select(FailedSignIn)):
            failure.attempted_at -= timedelta(seconds=61)
        db.session.commit()
    # A new wrong guess prunes the old rows: only itself is left.
    assert sign_in(client, "wrong again").status_code == 403
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(FailedSignIn)) == 1
    assert sign_in(client).status_code == 303


# Changing, removing, signing every phone out ---------------------------------------------


def test_changing_the_passphrase_signs_every_other_phone_out(
    app: Flask, locked: FlaskClient
) -> None:
    sign_in(locked)
    kitchen = app.test_client()
    sign_in(kitchen)
    assert kitchen.get("/").status_code == 200
    old_cookie = kitchen.get_cookie("scorekeeper_access")
    assert old_cookie is not None

    wrong = locked.post(
        "/access/change",
        data={
            "change-current": "not the current one",
            "change-passphrase": NEW_PASSPHRASE,
            "change-confirm": NEW_PASSPHRASE,
        },
    )
    assert wrong.status_code == 403
    assert kitchen.get("/").status_code == 200

    changed = locked.post(
        "/access/change",
        data={
            "change-current": PASSPHRASE,
            "change-passphrase": NEW_PASSPHRASE,
            "change-confirm": NEW_PASSPHRASE,
        },
    )
    assert changed.status_code == 303
    assert locked.get("/").status_code == 200  # this phone got a new cookie
    assert signs_in_page(kitchen.get("/"))  # the other's cookie is worthless now
    # Even a copy of the old cookie, sent again, opens nothing.
    replay = app.test_client()
    replay.set_cookie("scorekeeper_access", old_cookie.value)
    assert signs_in_page(replay.get("/"))
    assert replay.get("/api/v1/sessions").status_code == 401
    assert locked.get("/api/v1/sessions", headers=bearer(PASSPHRASE)).status_code == 401
    assert kitchen.get("/api/v1/sessions", headers=bearer(NEW_PASSPHRASE)).status_code == 200
    assert sign_in(kitchen, NEW_PASSPHRASE).status_code == 303
    with app.app_context():
        row = db.session.get(Household, 1)
        assert row is not None and row.passphrase_hash is not None
        assert check_password_hash(row.passphrase_hash, NEW_PASSPHRASE)
        assert row.cookie_epoch == 2


def test_removing_the_passphrase_needs_the_current_one(locked: FlaskClient) -> None:
    sign_in(locked)
    wrong = locked.post("/access/remove", data={"remove-current": "not the current one"})
    assert wrong.status_code == 403
    assert locked.get("/api/v1/sessions").status_code == 200
    removed = locked.post("/access/remove", data={"remove-current": PASSPHRASE})
    assert removed.status_code == 303
    fresh = locked.application.test_client()
    assert "Anyone on this network can use Scorekeeper." in fresh.get("/").get_data(as_text=True)
    assert fresh.get("/api/v1/sessions").status_code == 200


def test_sign_out_every_phone(app: Flask, locked: FlaskClient) -> None:
    sign_in(locked)
    kitchen = app.test_client()
    sign_in(kitchen)
    response = locked.post("/access/sign-out-everywhere")
    assert response.status_code == 303
    assert signs_in_page(locked.get("/"))
    assert signs_in_page(kitchen.get("/"))
    assert kitchen.get("/api/v1/sessions", headers=bearer(PASSPHRASE)).status_code == 200


# SCOREKEEPER_PASSPHRASE ------------------------------------------------------------------


def test_the_configured_passphrase_needs_no_database_row(make_app: Callable[..., Flask]) -> None:
    app = make_app(PASSPHRASE=PASSPHRASE)
    client = app.test_client()
    with app.app_context():
        assert db.session.scalar(sa.select(Household.passphrase_hash)) is None
    assert signs_in_page(client.get("/"))
    assert client.get("/api/v1/sessions").status_code == 401
    assert client.get("/api/v1/sessions", headers=bearer(PASSPHRASE)).status_code == 200
    assert client.get("/api/v1/sessions", headers=bearer("wrong wrong")).status_code == 401
    assert sign_in(client).status_code == 303
    settings = client.get("/access").get_data(as_text=True)
    assert "set by the server's configuration" in settings
    assert 'id="change-passphrase"' not in settings
    # The in-app setting cannot override or remove it.
    assert set_passphrase(client, NEW_PASSPHRASE).status_code == 422
    assert client.post("/access/remove", data={"remove-current": PASSPHRASE}).status_code == 422
    with app.app_context():
        assert db.session.scalar(sa.select(Household.passphrase_hash)) is None
    # Signing every phone out works for it too (the epoch lives in a row of its own).
    client.post("/access/sign-out-everywhere")
    assert signs_in_page(client.get("/"))


def test_the_configuration_wins_over_the_passphrase_set_in_the_app(
    locked: FlaskClient, make_app: Callable[..., Flask]
) -> None:
    configured = make_app(PASSPHRASE=NEW_PASSPHRASE).test_client()
    assert configured.get("/api/v1/sessions", headers=bearer(NEW_PASSPHRASE)).status_code == 200
    assert configured.get("/api/v1/sessions", headers=bearer(PASSPHRASE)).status_code == 401


def test_a_cookie_for_one_configured_passphrase_fails_for_the_next(
    make_app: Callable[..., Flask],
) -> None:
    before = make_app(PASSPHRASE=PASSPHRASE).test_client()
    sign_in(before)
    cookie = before.get_cookie("scorekeeper_access")
    assert cookie is not None
    after = make_app(PASSPHRASE=NEW_PASSPHRASE).test_client()
    after.set_cookie("scorekeeper_access", cookie.value)
    assert signs_in_page(after.get("/"))
    same = make_app(PASSPHRASE=PASSPHRASE).test_client()  # a restart, another worker
    same.set_cookie("scorekeeper_access", cookie.value)
    assert same.get("/").status_code == 200


def test_the_environment_variable_is_taken_as_typed(
    make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCOREKEEPER_PASSPHRASE", "12345678")
    app = make_app()
    assert app.config["PASSPHRASE"] == "12345678"
    client = app.test_client()
    assert client.get("/api/v1/sessions").status_code == 401
    assert client.get("/api/v1/sessions", headers=bearer("12345678")).status_code == 200


def test_a_blank_configured_passphrase_means_none(make_app: Callable[..., Flask]) -> None:
    client = make_app(PASSPHRASE="  ").test_client()
    assert client.get("/api/v1/sessions").status_code == 200


# CSRF ------------------------------------------------------------------------------------


def test_sign_in_and_sign_out_need_the_csrf_token(make_app: Callable[..., Flask]) -> None:
    app = make_app(WTF_CSRF_ENABLED=True, PASSPHRASE=PASSPHRASE)
    client = app.test_client()
    assert client.post("/sign-in", data={"passphrase": PASSPHRASE}).status_code == 400
    page = client.get("/sign-in").get_data(as_text=True)
    signed_in = client.post(
        "/sign-in", data={"passphrase": PASSPHRASE, "csrf_token": csrf_token(page)}
    )
    assert signed_in.status_code == 303
    assert client.post("/sign-out").status_code == 400
    assert client.get("/").status_code == 200  # still signed in
    home = client.get("/").get_data(as_text=True)
    assert client.post("/sign-out", data={"csrf_token": csrf_token(home)}).status_code == 303
    assert signs_in_page(client.get("/"))
    # The API stays exempt from CSRF: the bearer token is its proof.
    created = client.post(
        "/api/v1/sessions", json={"players": ["Ann", "Bo"]}, headers=bearer(PASSPHRASE)
    )
    assert created.status_code == 201


def test_setting_the_passphrase_needs_the_csrf_token(make_app: Callable[..., Flask]) -> None:
    client = make_app(WTF_CSRF_ENABLED=True).test_client()
    assert set_passphrase(client).status_code == 400
    assert client.get("/").status_code == 200
