"""The one exception the rules raise: a stable code for machines, plain words for the family."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any


class Word(str):
    """A param that is an English word or phrase a person reads (a setting's label, say),
    translated by the web layer as a msgid of its own."""

    __slots__ = ()


@dataclass(frozen=True)
class TileName:
    """A tile in plain words (`red 7`, `spades Q`, `joker`), kept apart so it can be translated;
    `str()` gives the English."""

    colour: str
    number: str = ""

    def __str__(self) -> str:
        return f"{self.colour} {self.number}" if self.number else self.colour


@dataclass(frozen=True)
class NameList:
    """Names or tiles in a sentence: `a, b and c` (`and`), `a, b or c` (`or`), `a, b, c` (`,`)."""

    items: tuple[Any, ...]
    conjunction: str = "and"

    def __str__(self) -> str:
        names = [str(i) for i in self.items]
        if self.conjunction == "," or len(names) == 1:
            return ", ".join(names)
        return ", ".join(names[:-1]) + f" {self.conjunction} " + names[-1]

    def __iter__(self) -> Iterator[str]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def name_list(items: Sequence[Any], conjunction: str = "and") -> NameList:
    return NameList(tuple(items), conjunction)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with what was entered: a stable `code`, an English `template` and its
    named `params` (`message`: the English text), and the player or setting concerned (`field`)."""

    code: str
    template: str
    params: dict[str, Any] = field(default_factory=dict)
    field: str | None = None

    @property
    def message(self) -> str:
        return self.template % self.params if self.params else self.template

    def __str__(self) -> str:
        return self.message

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
