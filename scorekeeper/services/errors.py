"""Errors of the service layer, in the same shape as the rules' errors (code, message, field)."""

from __future__ import annotations

from scorekeeper.rules.errors import Problem, RulesError

# Codes answered 409: the request is sound but clashes with what is stored or needs a yes.
CONFLICT_CODES = frozenset(
    {"confirm_required", "session_complete", "duplicate_round", "stale_round", "stale_undo"}
)


class BadRequest(RulesError):
    """The request itself is malformed: not JSON, wrong types, numbers out of any range."""


class NotFound(RulesError):
    """An id that names nothing stored."""


def bad_request(template: str, field: str | None = None, **params: object) -> BadRequest:
    return BadRequest(Problem("bad_request", template, dict(params), field))


def not_found(what: str, ident: object) -> NotFound:
    return NotFound(
        Problem("not_found", "There is no %(what)s %(ident)s.", {"what": what, "ident": ident})
    )


# No tile is written in more than a few letters ("diamonds 10"); a longer token is refused
# before the rules read it, since int() of its thousands of digits would raise a ValueError.
MAX_TILE_TEXT = 40


def check_tile_tokens(tokens: list[str], player: str | None = None) -> None:
    """Refuse a token far too long to be a tile as the rules refuse "x9" (bad_tile)."""
    for token in tokens:
        if len(token) > MAX_TILE_TEXT:
            template = (
                "%(token)s is not a tile: write a colour and a number like r7 or k13, "
                "or j for a joker."
            )
            params: dict[str, object] = {"token": f"“{token[:20]}…”"}
            if player:
                template = "%(player)s: " + template
                params["player"] = player
            raise RulesError(Problem("bad_tile", template, params, player))


def status_for(error: RulesError) -> int:
    """The HTTP status DESIGN.md 3 gives each kind of error."""
    if isinstance(error, BadRequest):
        return 400
    if isinstance(error, NotFound):
        return 404
    if error.code in CONFLICT_CODES:
        return 409
    return 422
