"""Built-in defaults: the first configuration layer, overridden by instance/config.py and env."""

from typing import Any


class Defaults:
    """Settings every Scorekeeper starts from; none of them is a secret."""

    SQLALCHEMY_ENGINE_OPTIONS: dict[str, Any] = {}
    WTF_CSRF_TIME_LIMIT: int | None = None
    MAX_CONTENT_LENGTH: int = 64 * 1024
    SESSION_COOKIE_SAMESITE: str = "Lax"
    SESSION_COOKIE_HTTPONLY: bool = True
