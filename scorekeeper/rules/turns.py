"""Turns (docs/RULES.md 5): who starts from the tiles drawn, and the order of play after them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scorekeeper.rules.errors import Problem, RulesError
from scorekeeper.rules.tiles import NUMBERS


@dataclass(frozen=True)
class StartDraw:
    """The outcome of drawing for the start: one starter, or the players who draw again."""

    starter: str | None
    tied: tuple[str, ...]
    highest: int


def who_starts(drawn: Mapping[str, int]) -> StartDraw:
    """Who starts: the highest number drawn (1-13 each, `drawn` in seating order); a tie for the
    highest draws again."""
    problems = [
        Problem("bad_draw", "%(player)s: a drawn tile is numbered 1 to 13.", {"player": p}, p)
        for p, number in drawn.items()
        if isinstance(number, bool) or not isinstance(number, int) or number not in NUMBERS
    ]
    if problems:
        raise RulesError(problems)
    if len(drawn) < 2:
        raise RulesError.one("bad_draw", "At least two players draw for the start.")
    highest = max(drawn.values())
    top = tuple(p for p, number in drawn.items() if number == highest)
    if len(top) == 1:
        return StartDraw(top[0], (), highest)
    return StartDraw(None, top, highest)


def turn_order(players: Sequence[str], starter: str) -> list[str]:
    """Clockwise from the starter: the seating order, turned so the starter comes first."""
    at = list(players).index(starter)
    return [*players[at:], *players[:at]]
