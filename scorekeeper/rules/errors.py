"""The one exception the rules raise: a stable code for machines, plain words for the family."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Problem:
    """One thing wrong with what was entered; `field` names the player or setting concerned.

    `template` is the untranslated message with %(name)s placeholders, so a web layer can
    translate it; `message` is the English text.
    """

    code: str
    template: str
    params: dict[str, Any] = field(default_factory=dict)
    field: str | None = None

    @property
    def message(self) -> str:
        return self.template % self.params if self.params else self.template

    def as_dict(self) -> dict[str, str]:
        out = {"code": self.code, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        return out


class RulesError(Exception):
    """Raised when input breaks a rule; carries one or more problems with stable codes."""

    def __init__(self, problems: Problem | list[Problem]) -> None:
        self.problems: list[Problem] = [problems] if isinstance(problems, Problem) else problems
        if not self.problems:
            raise ValueError("RulesError needs at least one problem")
        super().__init__("; ".join(p.message for p in self.problems))

    @classmethod
    def one(cls, code: str, template: str, field: str | None = None, **params: Any) -> RulesError:
        """Build an error with a single problem."""
        return cls(Problem(code, template, params, field))

    @property
    def code(self) -> str:
        """The code of the first problem (they usually share one)."""
        return self.problems[0].code

    @property
    def message(self) -> str:
        return str(self)
