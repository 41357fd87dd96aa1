"""Errors of the service layer, in the same shape as the rules' errors (code, message, field)."""

from __future__ import annotations

from scorekeeper.rules.errors import Problem, RulesError

# Codes answered 409: the request is sound but clashes with what is stored or needs a yes.
CONFLICT_CODES = frozenset(
    {"confirm_required", "session_complete", "duplicate_round", "stale_round"}
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


def status_for(error: RulesError) -> int:
    """The HTTP status DESIGN.md 3 gives each kind of error."""
    if isinstance(error, BadRequest):
        return 400
    if isinstance(error, NotFound):
        return 404
    if error.code in CONFLICT_CODES:
        return 409
    return 422
