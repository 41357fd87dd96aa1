"""Whole numbers typed as text (forms, racks written as text, query strings): ASCII digits
only, with a sign where one is allowed, and at most a few of them.

Python's int() reads far more than a person types: Arabic-Indic or full-width digits
(`int("١٢") == 12`), underscores (`1_0`), spaces; and str.isdigit() is true of `²`, which
int() refuses. A text of more than 4,300 digits makes int() raise. Every number read from
text goes through `whole_number`, with a number of digits derived from what it may hold.
"""

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
