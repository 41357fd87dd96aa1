"""Each seat's identity, the one mapping every screen uses: a colour and the player's initials.

The seat in the seating order gives the colour (`s1`..`s6`, the custom properties `--s1`..
`--s6` of static/app.css, light and dark); the name gives the initials, made unique within
the session. The table header, the round entry, the player buttons and the chart all take
them from here, so a player looks the same everywhere. The chart reads the colours out of
app.css, where they are written once.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

STYLESHEET = Path(__file__).resolve().parent.parent / "static" / "app.css"
SEATS = 6  # the most players a session has (rules/settings.py)


@dataclass(frozen=True)
class Mark:
    name: str
    initials: str
    seat: int  # 1..6

    @property
    def css(self) -> str:
        return f"s{self.seat}"


def _letters(name: str) -> list[str]:
    return [word[0].upper() for word in name.split() if word]


def initials(players: Sequence[str]) -> list[str]:
    """One or two letters per player, unique in the session: the first letter, or the first
    letters of the first two words; where two players would share them, the first two letters
    of the name; where those clash too, the first letter and the seat number."""
    first = ["".join(_letters(p)[:2]) or "?" for p in players]
    count = Counter(first)
    second = [
        mark if count[mark] == 1 else (p.strip()[:1].upper() + p.strip()[1:2].lower())
        for mark, p in zip(first, players, strict=True)
    ]
    count = Counter(second)
    return [
        mark if count[mark] == 1 else f"{mark[:1]}{seat}"
        for seat, mark in enumerate(second, start=1)
    ]


def marks(players: Sequence[str]) -> list[Mark]:
    """Each player's mark, in seating order."""
    return [
        Mark(name, mark, (seat % SEATS) + 1)
        for seat, (name, mark) in enumerate(zip(players, initials(players), strict=True))
    ]


@cache
def colours() -> dict[str, tuple[str, ...]]:
    """The seat colours of each theme, as app.css writes them: {"light": (...), "dark": (...)}.
    The first block of --s1.. is the light theme's, the next the dark theme's."""
    found = re.findall(r"--s([1-6]):\s*(#[0-9a-fA-F]{6})", STYLESHEET.read_text(encoding="utf-8"))
    values = [value for _, value in found]
    return {"light": tuple(values[:SEATS]), "dark": tuple(values[SEATS : 2 * SEATS])}


def names_fit(players: Sequence[str]) -> bool:
    """Whether every word of every name fits its column of the score table on a 360 px phone
    (about 300 px shared by the players, at 7 px a letter); where one does not, the table's
    header shows the initials and a list above it the whole names, so no name is cut."""
    letters = 300 // (7 * max(len(players), 1))
    return all(len(word) <= letters for name in players for word in name.split())
