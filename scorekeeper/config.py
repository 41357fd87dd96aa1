"""Built-in defaults: the first configuration layer, overridden by instance/config.py and env."""

from pathlib import Path
from typing import Any


class Defaults:
    """Settings every Scorekeeper starts from; none of them is a secret."""

    SQLALCHEMY_ENGINE_OPTIONS: dict[str, Any] = {}
    WTF_CSRF_TIME_LIMIT: int | None = None
    MAX_CONTENT_LENGTH: int = 64 * 1024
    SESSION_COOKIE_SAMESITE: str = "Lax"
    SESSION_COOKIE_HTTPONLY: bool = True

    # The household passphrase (SCOREKEEPER_PASSPHRASE). When set it wins over the one set in
    # the app; it is hashed at start and the plain text is kept nowhere else.
    PASSPHRASE: str | None = None
    # How a passphrase is hashed (werkzeug's method: "scrypt" is scrypt with n=2**15, r=8,
    # p=1). The test suite sets a cheaper scrypt (tests/conftest.py): hashing is not what it
    # tests, and the default's 0.16 s of CPU a hash was a tenth of the suite's time.
    PASSPHRASE_HASH_METHOD: str = "scrypt"
    # The "remember this phone" cookie, and how long it lasts (a year). Unticked, the browser
    # keeps it until it closes, and the server takes it for 12 hours, signed again (renewed)
    # every hour the phone is used; signing out ends it on the server (services/access.py).
    ACCESS_COOKIE_NAME: str = "scorekeeper_access"
    ACCESS_COOKIE_MAX_AGE: int = 365 * 24 * 60 * 60
    ACCESS_COOKIE_UNREMEMBERED_MAX_AGE: int = 12 * 60 * 60
    # Wrong passphrases allowed per client address within the window (seconds), then 429.
    ACCESS_FAILURE_LIMIT: int = 5
    ACCESS_FAILURE_WINDOW: int = 10 * 60
    # How many reverse proxies stand in front (SCOREKEEPER_PROXY_FIX=1 behind one nginx): their
    # X-Forwarded-For/-Proto/-Host are trusted, so the client's address and https are known.
    PROXY_FIX: int = 0

    # Languages (Flask-Babel): the catalogues shipped compiled in scorekeeper/translations, and
    # the cookie the footer's language switcher sets, remembered on that phone for a year.
    BABEL_DEFAULT_LOCALE: str = "en"
    BABEL_TRANSLATION_DIRECTORIES: str = str(Path(__file__).resolve().parent / "translations")
    LANGUAGE_COOKIE_NAME: str = "lang"
    LANGUAGE_COOKIE_MAX_AGE: int = 365 * 24 * 60 * 60
