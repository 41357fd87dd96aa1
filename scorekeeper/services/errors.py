"""Errors of the service layer, in the same shape as the rules' errors (code, message, field)."""

from __future__ import annotations

from scorekeeper.rules.errors import Problem, RulesError

# Codes answered 409: the request is sound but clashes with what is stored or needs a yes.
CONFLICT_CODES = frozenset(
    {
        "confirm_required",
        "session_complete",
        "duplicate_round",
        "stale_round",
        "stale_undo",
        "key_reused",
        "stale_session",
        "stale_notes",
    }
)


class BadRequest(RulesError):
    """The request itself is malformed: not JSON, wrong types, numbers out of any range."""


class ServiceError(Exception):
    """An error of the service layer, not a broken rule: one problem in the rules' shape."""

    def __init__(self, problem: Problem) -> None:
        self.problems = [problem]
        super().__init__(problem.message)


class NotFound(ServiceError):
    """An id that names nothing stored: web/errors.py answers it with a 404."""


def bad_request(template: str, field: str | None = None, **params: object) -> BadRequest:
    """A 400 with code bad_request; `template` must be a string literal (babel.cfg extracts
    the first argument of bad_request as the msgid)."""
    return BadRequest(Problem("bad_request", template, dict(params), field))


def not_found(what: str, ident: object) -> NotFound:
    """A 404 for a session, round, seat or player: one whole sentence each, to translate."""
    params = {"what": what, "ident": ident}
    if what == "session":
        return NotFound(Problem("not_found", "There is no session %(ident)s.", params))
    if what == "round":
        return NotFound(Problem("not_found", "There is no round %(ident)s.", params))
    if what == "seat":
        return NotFound(Problem("not_found", "There is no seat %(ident)s.", params))
    if what == "player":
        return NotFound(Problem("not_found", "There is no player %(ident)s.", params))
    return NotFound(Problem("not_found", "There is no %(what)s %(ident)s.", params))


# No tile is written in more than a few letters ("diamonds 10"); a longer token is refused


def status_for(error: RulesError) -> int:
    """The HTTP status docs/DESIGN.md 3 gives each kind of error."""
    if isinstance(error, BadRequest):
        return 400
    if error.code in CONFLICT_CODES:
        return 409
    return 422
