"""Whole numbers typed as text (forms, racks, query strings): ASCII digits, a sign where one
is allowed, and at most a few digits."""

from __future__ import annotations

import re

_UNSIGNED = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"[+-]?[0-9]+")


def digits_for(*bounds: int) -> int:
    """How many digits the largest of these bounds is written in (`digits_for(-2000, -1)`: 4)."""
    return max(len(str(abs(bound))) for bound in bounds)


def whole_number(text: object, digits: int, signed: bool = False) -> int | None:
    """The whole number an ASCII text writes (a leading + or - when `signed`), of at most
    `digits` digits; None for anything else (other digits, other signs, spaces, too long)."""
    if not isinstance(text, str) or len(text) > digits + 1:
        return None
    if not (_SIGNED if signed else _UNSIGNED).fullmatch(text) or len(text.lstrip("+-")) > digits:
        return None
    return int(text)


def looks_whole(text: str) -> bool:
    """Whether a text is ASCII digits with at most a sign, however many: a number, maybe too
    long, rather than tiles."""
    return _SIGNED.fullmatch(text) is not None
