"""Signing out ends that phone's cookie on the server too, and an unticked "Remember this
phone" is valid on the server only for a short while (renewed while the phone is used): a
copy of the cookie, taken before, gets nobody in."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from factories import sql_sent
from flask import Flask
from flask.testing import FlaskClient
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from test_access import PASSPHRASE, cookie_header, set_passphrase, sign_in, signs_in_page

from scorekeeper.config import Defaults
from scorekeeper.extensions import db
from scorekeeper.models import SignedOutCookie
from scorekeeper.services import access
from scorekeeper.web.access import here

pytestmark = pytest.mark.shared_app

COOKIE = "scorekeeper_access"
HOUR = 60 * 60


@pytest.fixture
def locked(client: FlaskClient) -> FlaskClient:
    assert set_passphrase(client).status_code == 303
    return client


def copy_of(app: Flask, client: FlaskClient) -> FlaskClient:
    """Another client holding a copy of `client`'s cookie (taken off the phone, say)."""
    cookie = client.get_cookie(COOKIE)
    assert cookie is not None
    other = app.test_client()
    other.set_cookie(COOKIE, cookie.value)
    return other


def signed_at(app: Flask, payload: Any, seconds_ago: int) -> str:
    """A cookie value signed as the app signs it, but `seconds_ago` earlier."""

    class EarlierSigner(TimestampSigner):
        def get_timestamp(self) -> int:
            return int(time.time()) - seconds_ago

    with app.test_request_context():
        current = access._serializer(here().settings, access.access_state(here()))
        earlier = URLSafeTimedSerializer(
            app.secret_key or "", salt=current.salt, signer=EarlierSigner
        )
        return earlier.dumps(payload)


def with_cookie(app: Flask, value: str) -> FlaskClient:
    phone = app.test_client()
    phone.set_cookie(COOKIE, value)
    return phone


def signed_in(phone: FlaskClient) -> bool:
    page = phone.get("/")
    if signs_in_page(page):
        return False
    assert page.status_code == 200
    return phone.get("/api/v1/sessions").status_code == 200


@pytest.mark.parametrize("remember", [True, False])
def test_a_copy_of_a_signed_out_cookie_is_refused(
    app: Flask, locked: FlaskClient, remember: bool
) -> None:
    sign_in(locked, remember=remember)
    copy = copy_of(app, locked)
    assert signed_in(copy)
    assert locked.post("/sign-out").status_code == 303
    assert not signed_in(locked)
    assert not signed_in(copy)
    # Signing out with the copy as well (a second tap, the other device) changes nothing.
    assert copy.post("/sign-out").status_code == 303


def test_signing_out_one_phone_leaves_the_others_signed_in(app: Flask, locked: FlaskClient) -> None:
    other = app.test_client()
    sign_in(locked)
    sign_in(other)
    locked.post("/sign-out")
    assert not signed_in(locked)
    assert signed_in(other)


def unremembered_claims(app: Flask, phone: FlaskClient) -> access.CookieClaims:
    """Sign `phone` in without "Remember this phone" and read what its cookie says."""
    sign_in(phone, remember=False)
    cookie = phone.get_cookie(COOKIE)
    assert cookie is not None
    with app.test_request_context():
        claims = access.read_cookie(here(), cookie.value)
    assert claims is not None
    return claims


def test_an_unremembered_cookie_is_refused_after_the_short_limit(
    app: Flask, locked: FlaskClient
) -> None:
    claims = unremembered_claims(app, locked)
    limit = Defaults.ACCESS_COOKIE_UNREMEMBERED_MAX_AGE
    assert limit == 12 * HOUR
    payload = {"remember": False, "id": claims.token_id}
    assert signed_in(with_cookie(app, signed_at(app, payload, limit - HOUR)))
    assert not signed_in(with_cookie(app, signed_at(app, payload, limit + 60)))
    # A remembered one of that age, or of most of a year, still gets in; one over a year not.
    for age in (limit + 60, 300 * 24 * HOUR):
        assert signed_in(with_cookie(app, signed_at(app, {**payload, "remember": True}, age)))
    year_and_a_day = Defaults.ACCESS_COOKIE_MAX_AGE + 24 * HOUR
    assert not signed_in(
        with_cookie(app, signed_at(app, {**payload, "remember": True}, year_and_a_day))
    )


def test_an_unremembered_cookie_is_renewed_while_the_phone_is_used(
    app: Flask, locked: FlaskClient
) -> None:
    claims = unremembered_claims(app, locked)
    old = signed_at(app, {"remember": False, "id": claims.token_id}, 2 * HOUR)
    phone = with_cookie(app, old)
    response = phone.get("/")
    assert response.status_code == 200
    renewed = cookie_header(response)
    assert "Max-Age" not in renewed and "Expires" not in renewed  # still the browser's session
    assert "HttpOnly" in renewed
    fresh = phone.get_cookie(COOKIE)
    assert fresh is not None and fresh.value != old
    with app.test_request_context():
        again = access.read_cookie(here(), fresh.value)
    assert again is not None and again.token_id == claims.token_id and not again.remember
    assert again.issued_at > datetime.now() - timedelta(minutes=5)
    # A fresh one is not renewed on every request.
    assert COOKIE not in str(phone.get("/").headers.getlist("Set-Cookie"))
    # Signing out with the renewed cookie ends the older copy too.
    phone.post("/sign-out")
    assert not signed_in(with_cookie(app, old))
    assert not signed_in(locked)


def test_a_cookie_from_before_sign_outs_were_kept_is_refused(
    app: Flask, locked: FlaskClient
) -> None:
    """A cookie with no id cannot be signed out: it signs in once more."""
    assert not signed_in(with_cookie(app, signed_at(app, {"remember": True}, 60)))
    assert not signed_in(with_cookie(app, signed_at(app, {"remember": True, "id": 7}, 60)))
    assert not signed_in(with_cookie(app, signed_at(app, {"remember": True, "id": "x" * 40}, 60)))


def test_a_sign_out_is_kept_until_the_cookie_would_expire_and_then_forgotten(
    app: Flask, locked: FlaskClient
) -> None:
    with app.app_context():
        db.session.add(SignedOutCookie(token_id="long-gone", expires_at=datetime(2000, 1, 1)))
        db.session.commit()
    sign_in(locked, remember=False)
    locked.post("/sign-out")
    other = app.test_client()
    sign_in(other, remember=True)
    other.post("/sign-out")
    with app.app_context():
        rows = db.session.execute(sa.select(SignedOutCookie)).scalars().all()
        now = datetime.now()
        kept = sorted(row.expires_at - now for row in rows)
    assert len(kept) == 2  # the expired one went with the next sign-out
    assert timedelta(hours=11) < kept[0] < timedelta(hours=13)
    assert timedelta(days=364) < kept[1] < timedelta(days=366)


def test_without_a_passphrase_signing_out_stores_nothing(app: Flask, client: FlaskClient) -> None:
    assert client.post("/sign-out").status_code == 303
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(SignedOutCookie)) == 0


def test_a_signed_in_phones_poll_costs_one_more_lookup(app: Flask, locked: FlaskClient) -> None:
    """A 304 poll of a signed-in phone: the household's state with the session's stamp, then
    whether its cookie was signed out (by primary key); both outside any transaction."""
    sign_in(locked)
    made = locked.post("/api/v1/sessions", json={"players": ["Ann", "Bo"]})
    sid = made.get_json()["id"]
    for url in (f"/api/v1/sessions/{sid}", f"/sessions/{sid}/table"):
        etag = locked.get(url).headers["ETag"]
        with sql_sent(app) as sent:
            response = locked.get(url, headers={"If-None-Match": etag})
        statements = [" ".join(s.split()).lower() for s in sent]
        assert response.status_code == 304, url
        assert len(statements) == 2, statements
        assert "household" in statements[0]
        assert "signed_out_cookies" in statements[1]
        assert "signed_out_cookies.token_id =" in statements[1]


def test_the_bearer_passphrase_is_unchanged(locked: FlaskClient) -> None:
    """The API's passphrase header is not a cookie: nothing to sign out."""
    headers = {"Authorization": f"Bearer {PASSPHRASE}"}
    assert locked.get("/api/v1/sessions", headers=headers).status_code == 200
