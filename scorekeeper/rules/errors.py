"""The one exception the rules raise: a stable code for machines, plain words for the family."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any


class Word(str):
    """A param that is an English word or phrase a person reads (a setting's label, say).

    It renders as itself, so English messages are unchanged; the web layer translates it as a
    msgid of its own (marked with `N_` where it is declared, so it is extracted).
    """

    __slots__ = ()


@dataclass(frozen=True)
class TileName:
    """A tile in plain words: `red 7`, `spades Q`, `joker`, kept apart so it can be translated.

    `colour` is the colour or suit word (or "joker"), `number` the number or card face ("" for
    a joker); `str()` gives the English the messages have always shown.
    """

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
    """One thing wrong with what was entered; `field` names the player or setting concerned.

    `template` is the untranslated message with %(name)s placeholders, so a web layer can
    translate it; `message` is the English text. A param a person reads as words is a `Word`,
    a `TileName`, a `NameList` or another `Problem` (a reason inside a reason), never a
    ready-made English fragment, so the web layer can translate it too.
    """

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
