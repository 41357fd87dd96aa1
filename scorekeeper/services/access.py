"""The household passphrase: hashing, checking, the limit on wrong guesses, cookie tokens."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import logging
import math
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from itsdangerous import BadData, URLSafeTimedSerializer
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.extensions import db, read_at_once
from scorekeeper.models import HOUSEHOLD_ID, FailedSignIn, Household, SignedOutCookie
from scorekeeper.rules.errors import Problem
from scorekeeper.services.stamps import Stamp, household_and_stamp
from scorekeeper.services.views import MAX_ID
from scorekeeper.services.writes import begin_write

MIN_PASSPHRASE = 8
MAX_PASSPHRASE = 200
MAX_VERIFIED = 256
_COOKIE_SALT = "scorekeeper.household-access"
# A cookie's random id (URL-safe base64 of 16 bytes: 22 characters; stored up to 32).
TOKEN_ID_BYTES = 16
MAX_TOKEN_ID = 32
_SIGNED_OUT = sa.select(SignedOutCookie.token_id).where(
    SignedOutCookie.token_id == sa.bindparam("token_id")
)


WRONG_PASSPHRASE = Problem("unauthorized", "That is not the household passphrase.")
NOT_READY = Problem(
    "unavailable", "Scorekeeper is being restored or set up: try again in a minute."
)
CHANGED_MEANWHILE = Problem(
    "passphrase_refused", "The passphrase was changed a moment ago, perhaps on another phone."
)


class AccessError(Exception):
    """A passphrase refused: `code` as the API names it, a `problem` for the web layer to
    translate, and `message`, the English text."""

    code = "access_denied"

    def __init__(self, problem: Problem | str) -> None:
        if isinstance(problem, str):
            problem = Problem(self.code, problem)
        super().__init__(problem.message)
        self.problem = problem
        self.message = problem.message


class WrongPassphrase(AccessError):
    """The guess is not the household passphrase (and was counted)."""

    code = "unauthorized"


class TooManyAttempts(AccessError):
    """This address guessed wrong too often lately; even the right passphrase waits."""

    code = "too_many_attempts"

    def __init__(self, retry_after: int) -> None:
        minutes = math.ceil(retry_after / 60)
        if retry_after > 60:
            problem = Problem(
                "too_many_attempts",
                "Too many wrong passphrases from this device: try again in %(minutes)d minutes.",
                {"minutes": minutes},
            )
        else:
            problem = Problem(
                "too_many_attempts",
                "Too many wrong passphrases from this device: try again in a minute.",
            )
        super().__init__(problem)
        self.retry_after = retry_after


class PassphraseRefused(AccessError):
    """A new passphrase that cannot be used, or cannot be set from the app."""

    code = "passphrase_refused"


@dataclass(frozen=True)
class ConfiguredPassphrase:
    """SCOREKEEPER_PASSPHRASE as the app keeps it: a hash, and a keyed digest for cookies."""

    passphrase_hash: str
    fingerprint: str


@dataclass(frozen=True)
class AccessState:
    """The passphrase in force for one request, where it comes from, and what signs cookies."""

    passphrase_hash: str | None
    configured: bool
    # The sign-out epoch: the household's cookie_epoch and its restore generation.
    epoch: str
    fingerprint: str
    # False when the household's row is missing: a restore or a set-up is under way, and the
    # gate is closed (never read as "no passphrase").
    ready: bool = True

    @property
    def locked(self) -> bool:
        return self.passphrase_hash is not None


@dataclass(frozen=True)
class CookieClaims:
    """What a valid "remember this phone" cookie says: whether it was ticked, the cookie's
    random id (what signing out records), and when it was signed (UTC, naive)."""

    remember: bool
    token_id: str
    issued_at: datetime


@dataclass(frozen=True)
class AccessSettings:
    """What the passphrase checks take from the app's configuration, read once at start, and
    the right guesses this process has weighed already (`verified`)."""

    secret: bytes
    hash_method: str
    failure_window: timedelta
    failure_limit: int
    cookie_max_age: int
    unremembered_max_age: int
    configured: ConfiguredPassphrase | None = None
    verified: set[bytes] = field(default_factory=set)


@dataclass
class RequestAccess:
    """One request's passphrase checks: the settings, the state in force once read, and the
    session's stamp a poll read with it (the web layer keeps one per request)."""

    settings: AccessSettings
    state: AccessState | None = None
    peeked: tuple[int, Stamp | None] | None = None


def settings_of(config: Mapping[str, Any]) -> AccessSettings:
    """The settings from the app's configuration; the configured passphrase (blank means none)
    hashed once, at start: no plain text is kept."""
    key = config.get("SECRET_KEY") or ""
    settings = AccessSettings(
        key if isinstance(key, bytes) else str(key).encode(),
        str(config.get("PASSPHRASE_HASH_METHOD") or "scrypt"),
        timedelta(seconds=int(config["ACCESS_FAILURE_WINDOW"])),
        int(config["ACCESS_FAILURE_LIMIT"]),
        int(config["ACCESS_COOKIE_MAX_AGE"]),
        int(config["ACCESS_COOKIE_UNREMEMBERED_MAX_AGE"]),
    )
    plain = config.get("PASSPHRASE")
    text = clean(str(plain)) if plain is not None else ""
    if not text:
        return settings
    if len(text) < MIN_PASSPHRASE:
        logging.getLogger(__name__).warning(
            "SCOREKEEPER_PASSPHRASE is shorter than %d characters: easy to guess.", MIN_PASSPHRASE
        )
    fingerprint = hmac.new(settings.secret, b"configured\0" + text.encode(), hashlib.sha256)
    configured = ConfiguredPassphrase(_hash(settings, text), fingerprint.hexdigest())
    return dataclasses.replace(settings, configured=configured)


def clean(passphrase: str) -> str:
    """A passphrase as compared: spaces at either end (a phone's autocomplete) do not count."""
    return passphrase.strip()


def _hash(settings: AccessSettings, text: str) -> str:
    """The passphrase's salted hash, by the configured method (PASSPHRASE_HASH_METHOD)."""
    return generate_password_hash(text, method=settings.hash_method)


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def read_for_poll(here: RequestAccess, session_id: int) -> None:
    """A poll of a session (its live table, its JSON): the passphrase state and the session's
    stamp in one read outside any transaction (stamps.household_and_stamp)."""
    if here.state is None and 1 <= session_id <= MAX_ID:
        row, stamp = household_and_stamp(session_id)
        here.state, here.peeked = _state_of(here.settings, row), (session_id, stamp)


# The household's passphrase state, as every request reads it (made once).
_HOUSEHOLD_STATE = sa.select(
    Household.passphrase_hash, Household.cookie_epoch, Household.generation
).where(Household.id == HOUSEHOLD_ID)


def access_state(here: RequestAccess) -> AccessState:
    """The passphrase in force: read once per request and kept in `here` for that request."""
    if here.state is not None:
        return here.state
    row = db.session.connection().execute(_HOUSEHOLD_STATE).first()
    here.state = _state_of(here.settings, None if row is None else (row[0], row[1], row[2]))
    return here.state


def _state_of(
    settings: AccessSettings, row: tuple[str | None, int, str | None] | None
) -> AccessState:
    """The passphrase in force, from the household's row and the configuration; with no row
    (a restore or a set-up under way) a state that is not ready: the gate stays closed."""
    if row is None:
        return AccessState(None, False, "", "", ready=False)
    passphrase_hash, cookie_epoch, generation = row
    epoch = f"{cookie_epoch}.{generation or ''}"  # a restore moves it on (services/backup.py)
    configured = settings.configured
    if configured is not None:
        state = AccessState(configured.passphrase_hash, True, epoch, configured.fingerprint)
    elif passphrase_hash:
        digest = hashlib.sha256(passphrase_hash.encode()).hexdigest()
        state = AccessState(passphrase_hash, False, epoch, digest)
    else:
        state = AccessState(None, False, epoch, "")
    return state


# Wrong guesses ---------------------------------------------------------------------------


def _recent_failures(settings: AccessSettings, address: str) -> list[datetime]:
    """This address's wrong guesses inside the window, newest first, at most the limit."""
    return list(
        db.session.scalars(
            sa.select(FailedSignIn.attempted_at)
            .where(
                FailedSignIn.address == address,
                FailedSignIn.attempted_at > _now() - settings.failure_window,
            )
            .order_by(FailedSignIn.attempted_at.desc())
            .limit(settings.failure_limit)
        )
    )


def _wait(settings: AccessSettings, failures: list[datetime]) -> int | None:
    """Seconds before the next guess, given the recent failures; None when it may guess now."""
    if len(failures) < settings.failure_limit:
        return None
    # Free again when the oldest of the last `limit` failures leaves the window.
    free_at = failures[-1] + settings.failure_window
    return max(1, math.ceil((free_at - _now()).total_seconds()))


def _serialise_guesses() -> None:
    """Inside a write transaction, wait for every other one that counts or forgets guesses
    (SQLite: begin_write's IMMEDIATE does; PostgreSQL: the table of guesses is locked)."""
    if db.engine.dialect.name == "postgresql":
        db.session.execute(sa.text("LOCK TABLE failed_sign_ins IN SHARE ROW EXCLUSIVE MODE"))


def _take_a_guess(settings: AccessSettings, address: str) -> None:
    """Count a guess before it is weighed, or refuse it at the limit, and forget the guesses older
    than the window: one transaction, under _serialise_guesses."""
    begin_write()
    try:
        _serialise_guesses()
        wait = _wait(settings, _recent_failures(settings, address))
        if wait is not None:
            raise TooManyAttempts(wait)
        now = _now()
        db.session.execute(
            sa.delete(FailedSignIn).where(
                FailedSignIn.attempted_at <= now - settings.failure_window
            )
        )
        db.session.add(FailedSignIn(address=address[:64], attempted_at=now))
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


def _forget_failures(address: str) -> None:
    begin_write()
    try:
        _serialise_guesses()
        db.session.execute(sa.delete(FailedSignIn).where(FailedSignIn.address == address[:64]))
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise


def _digest(settings: AccessSettings, passphrase_hash: str, text: str) -> bytes:
    """A right guess as `verified` keeps it (keyed: an API client sending its bearer token on
    every call pays for the slow hash only once)."""
    message = passphrase_hash.encode() + b"\0" + text.encode()
    return hmac.new(settings.secret, message, hashlib.sha256).digest()


def _matches(settings: AccessSettings, passphrase_hash: str, text: str) -> bool:
    """check_password_hash (constant-time), remembering a right guess."""
    if not check_password_hash(passphrase_hash, text):
        return False
    seen = settings.verified
    if len(seen) >= MAX_VERIFIED:
        seen.clear()
    seen.add(_digest(settings, passphrase_hash, text))
    return True


def check_passphrase(here: RequestAccess, address: str, guess: str | None) -> None:
    """Let the right passphrase through and count a wrong one against the client's address:
    WrongPassphrase, or TooManyAttempts (even for the right one) while over the limit."""
    state, settings = access_state(here), here.settings
    if state.passphrase_hash is None:
        return
    failures = _recent_failures(settings, address)
    wait = _wait(settings, failures)
    if wait is not None:
        raise TooManyAttempts(wait)
    text = clean(guess or "")
    if text and _digest(settings, state.passphrase_hash, text) in settings.verified:
        if failures:
            _forget_failures(address)
        return
    _take_a_guess(settings, address)
    if text and _matches(settings, state.passphrase_hash, text):
        _forget_failures(address)
        return
    raise WrongPassphrase(WRONG_PASSPHRASE)


# Cookies ---------------------------------------------------------------------------------


def _serializer(settings: AccessSettings, state: AccessState) -> URLSafeTimedSerializer:
    # The passphrase's fingerprint and the epoch are part of the signing key: a new passphrase,
    # or "sign out every phone", leaves every cookie signed before unreadable.
    salt = f"{_COOKIE_SALT}.{state.fingerprint}.{state.epoch}"
    return URLSafeTimedSerializer(settings.secret, salt=salt)


def cookie_token(here: RequestAccess, remember: bool, token_id: str | None = None) -> str:
    """The signed value of a "remember this phone" cookie for the passphrase in force: a new
    random id, or `token_id` when a phone's cookie is renewed (renew_cookie)."""
    token_id = token_id or secrets.token_urlsafe(TOKEN_ID_BYTES)
    claims = {"remember": bool(remember), "id": token_id}
    return _serializer(here.settings, access_state(here)).dumps(claims)


def _max_age(settings: AccessSettings, remember: bool) -> int:
    """How long the server takes a cookie: a year ticked, a few hours unticked."""
    return settings.cookie_max_age if remember else settings.unremembered_max_age


def read_cookie(here: RequestAccess, token: str | None) -> CookieClaims | None:
    """What a cookie says, if it was signed for the passphrase in force, is younger than its kind's
    limit and was not signed out; else None."""
    state, settings = access_state(here), here.settings
    if not token or not state.locked:
        return None
    try:
        claims, signed = _serializer(settings, state).loads(
            token, max_age=_max_age(settings, remember=True), return_timestamp=True
        )
    except BadData:
        return None
    if not isinstance(claims, dict):
        return None
    token_id = claims.get("id")
    if not isinstance(token_id, str) or not 0 < len(token_id) <= MAX_TOKEN_ID:
        return None  # signed before cookies carried an id: it could not be signed out
    remember = bool(claims.get("remember"))
    issued_at = signed.astimezone(UTC).replace(tzinfo=None)
    if not remember and _now() - issued_at > timedelta(seconds=_max_age(settings, False)):
        return None
    if read_at_once(_SIGNED_OUT, {"token_id": token_id}) is not None:
        return None
    return CookieClaims(remember=remember, token_id=token_id, issued_at=issued_at)


def needs_renewal(settings: AccessSettings, claims: CookieClaims) -> bool:
    """An unticked cookie is signed again, with its id, once it is older than a twelfth of its
    limit (an hour of twelve), so a phone in use stays signed in and one put away does not."""
    if claims.remember:
        return False
    age = _now() - claims.issued_at
    return age > timedelta(seconds=_max_age(settings, remember=False) / 12)


def sign_out_cookie(settings: AccessSettings, claims: CookieClaims) -> None:
    """Refuse this cookie, and every copy of it, from now until it would have expired anyway;
    forget the sign-outs whose cookies have expired. One transaction of its own."""
    now = _now()
    # Every token with this id was signed by now; a minute more for a renewal signed by a
    # request running at this very moment.
    expires_at = now + timedelta(seconds=_max_age(settings, claims.remember) + 60)
    begin_write()
    try:
        db.session.execute(sa.delete(SignedOutCookie).where(SignedOutCookie.expires_at <= now))
        if db.session.get(SignedOutCookie, claims.token_id) is None:
            db.session.add(SignedOutCookie(token_id=claims.token_id, expires_at=expires_at))
        db.session.commit()
    except IntegrityError:  # signed out at the same moment through another request: done
        db.session.rollback()
    except BaseException:
        db.session.rollback()
        raise


# Setting, changing and removing the passphrase -------------------------------------------


def _refused(template: str, **params: object) -> PassphraseRefused:
    """A passphrase refused; babel.cfg extracts the first argument of _refused as the msgid."""
    return PassphraseRefused(Problem("passphrase_refused", template, dict(params)))


def _new_passphrase(passphrase: str | None) -> str:
    text = clean(passphrase or "")
    if len(text) < MIN_PASSPHRASE:
        raise _refused("A passphrase needs at least %(min)d characters.", min=MIN_PASSPHRASE)
    if len(text) > MAX_PASSPHRASE:
        raise _refused("A passphrase can have at most %(max)d characters.", max=MAX_PASSPHRASE)
    return text


def _not_configured(state: AccessState) -> None:
    if state.configured:
        raise _refused(
            "The passphrase is set by the server's configuration (SCOREKEEPER_PASSPHRASE): "
            "change it there."
        )


def _write_household(
    here: RequestAccess, expected_hash: str | None, new_hash: str | None, moved: Problem
) -> None:
    """Store a new hash (or none) and bump the cookie epoch, if the stored hash is still the
    one the request saw; `moved` says what to tell the family when it is not."""
    begin_write()
    try:
        row = db.session.get(Household, HOUSEHOLD_ID, with_for_update=True)
        if row is None:  # a restore or a set-up under way: never a first passphrase then
            raise PassphraseRefused(NOT_READY)
        if row.passphrase_hash != expected_hash:
            raise PassphraseRefused(moved)
        row.passphrase_hash = new_hash
        row.changed_at = _now()
        row.cookie_epoch += 1
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise PassphraseRefused(moved) from None
    except BaseException:
        db.session.rollback()
        raise
    finally:
        here.state = None


def set_passphrase(here: RequestAccess, passphrase: str | None) -> None:
    """Set the first passphrase: from then on every page and API call needs it."""
    state = access_state(here)
    _not_configured(state)
    if state.locked:
        raise _refused("A passphrase is already set: change it with the current one.")
    new_hash = _hash(here.settings, _new_passphrase(passphrase))
    _write_household(
        here,
        None,
        new_hash,
        Problem(
            "passphrase_refused",
            "A passphrase was set a moment ago, perhaps on another phone: sign in.",
        ),
    )


def change_passphrase(
    here: RequestAccess, address: str, current: str | None, passphrase: str | None
) -> None:
    """Replace the passphrase; needs the current one, and signs every phone out."""
    state = access_state(here)
    _not_configured(state)
    if not state.locked:
        raise _refused("No passphrase is set yet.")
    text = _new_passphrase(passphrase)
    check_passphrase(here, address, current)
    _write_household(here, state.passphrase_hash, _hash(here.settings, text), CHANGED_MEANWHILE)


def remove_passphrase(here: RequestAccess, address: str, current: str | None) -> None:
    """Open Scorekeeper to everyone on the network again; needs the current passphrase."""
    state = access_state(here)
    _not_configured(state)
    if not state.locked:
        return
    check_passphrase(here, address, current)
    _write_household(here, state.passphrase_hash, None, CHANGED_MEANWHILE)


def sign_out_every_phone(here: RequestAccess) -> None:
    """Make every "remember this phone" cookie worthless, whatever the passphrase's source."""
    state = access_state(here)
    stored = None if state.configured else state.passphrase_hash
    if state.configured:
        # The row, if any, may hold an older in-app hash that the configuration overrides.
        stored = db.session.scalar(
            sa.select(Household.passphrase_hash).where(Household.id == HOUSEHOLD_ID)
        )
    _write_household(
        here,
        stored,
        stored,
        Problem("passphrase_refused", "The passphrase was changed a moment ago: sign in again."),
    )
