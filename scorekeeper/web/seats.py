"""Each seat's identity, the one mapping every screen uses: the seat's colour and the player's
initials, unique in the session (`Mark`); a player's own page has its `player_mark`."""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from scorekeeper.rules.players import name_key

STYLESHEET = Path(__file__).resolve().parent.parent / "static" / "app.css"
SEATS = 6  # the most players a session has (rules/settings.py)
THEMES = ("light", "dark")
# Where app.css writes each theme's tokens: the light ones in the first `:root {` block, the
# dark ones in `:root[data-theme="dark"] {` (static/app.js sets it, for the system's dark too).
_BLOCKS = {"light": r":root \{", "dark": r':root\[data-theme="dark"\] \{'}
_TOKEN = re.compile(r"--([a-z0-9-]+):\s*(#[0-9a-fA-F]{6})\b")


@dataclass(frozen=True)
class Mark:
    name: str
    initials: str
    seat: int  # 1..6

    @property
    def css(self) -> str:
        return f"s{self.seat}"


def _glyphs(text: str) -> list[str]:
    """The characters of `text` as a reader sees them, near enough: a letter with its
    combining accents, an emoji with its variation selector or skin tone, a flag's pair."""
    glyphs: list[str] = []
    for char in text:
        code = ord(char)
        joins = glyphs and (
            unicodedata.combining(char)
            or unicodedata.category(char) in ("Mn", "Mc", "Me")
            or 0x1F3FB <= code <= 0x1F3FF  # skin tones
            or glyphs[-1].endswith("\u200d")
            or char == "\u200d"
            or (_regional(char) and len(glyphs[-1]) == 1 and _regional(glyphs[-1]))
        )
        if joins:
            glyphs[-1] += char
        else:
            glyphs.append(char)
    return glyphs


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def _upper(glyph: str) -> str:
    """A glyph in capitals, where it has one of the same length (not ß -> SS)."""
    upper = glyph.upper()
    return upper if len(upper) == len(glyph) else glyph


def _letters(name: str) -> list[str]:
    """The glyphs of a name without its spaces and punctuation ("Ann-Marie" A n n M a r i e)."""
    return [g for g in _glyphs(name) if unicodedata.category(g[0])[0] not in "PZ"]


def _first_letters(name: str) -> str:
    """The first letter of the first two words, in capitals: "Anna Berg" -> "AB"."""
    words = [_letters(word) or _glyphs(word) for word in name.split()]
    return "".join(_upper(word[0]) for word in words[:2]) or "?"


def _telling(head: str, name: str, others: Sequence[str]) -> str | None:
    """`head` and the first letter after it that no other name has at that place (in capitals,
    letters only): Mormor MM, Morfar MF; None where no letter tells the name apart."""

    def letters(text: str) -> list[str]:
        return _letters(unicodedata.normalize("NFC", text.casefold()))

    mine = letters(name)
    theirs = [letters(other) for other in others]
    for place in range(1, len(mine)):
        if all(len(other) <= place or other[place] != mine[place] for other in theirs):
            return head + _upper(mine[place])
    return None


def initials(players: Sequence[str]) -> list[str]:
    """One or two letters per player, unique in the session: the first letters of the first two
    words ("Anna Berg" AB), else letters that tell them apart (Mormor MM), else the seat (A1)."""
    first = [_first_letters(p) for p in players]
    count = Counter(first)
    twice = Counter(name_key(p) for p in players)
    chosen: list[str | None] = [mark if count[mark] == 1 else None for mark in first]
    used = {mark for mark in chosen if mark}
    for index, player in enumerate(players):
        if chosen[index] or twice[name_key(player)] > 1:
            continue
        others = [p for i, p in enumerate(players) if i != index and first[i] == first[index]]
        head = _glyphs(first[index])[0]
        candidates = [_telling(head, player, others)]
        candidates += [head + _upper(letter) for letter in _letters(player)[1:]]
        mark = next((c for c in candidates if c and c not in used), None)
        if mark:
            chosen[index] = mark
            used.add(mark)
    result = []
    for seat, (mark, player, fallback) in enumerate(zip(chosen, players, first, strict=True), 1):
        if mark is None:
            mark, primes = fallback, 0
            if twice[name_key(player)] > 1 or mark in used:
                mark = f"{_glyphs(fallback)[0]}{seat}"
            while mark in used:  # a player named "A 2" beside two Anns
                primes += 1
                mark = f"{_glyphs(fallback)[0]}{seat}{'′' * primes}"
            used.add(mark)
        result.append(mark)
    return result


def marks(players: Sequence[str]) -> list[Mark]:
    """Each player's mark, in seating order."""
    return list(_marks(tuple(players)))


@lru_cache(maxsize=64)
def _marks(players: tuple[str, ...]) -> tuple[Mark, ...]:
    """marks, worked out once for each seating a process meets (a page draws them twice)."""
    return tuple(
        Mark(name, mark, (seat % SEATS) + 1)
        for seat, (name, mark) in enumerate(zip(players, initials(players), strict=True))
    )


def player_mark(name: str, seat: int | None) -> Mark:
    """A player's mark on their own page: `seat` the seat (0-based) they sat at in every session
    they played, else None and a seat by a checksum of the name."""
    if seat is None:
        seat = zlib.crc32(name_key(name).encode("utf-8")) % SEATS
    return Mark(name, _first_letters(name), (seat % SEATS) + 1)


@cache
def palette() -> dict[str, dict[str, str]]:
    """Every colour token of each theme as app.css writes it, without the dashes:
    {"light": {"card": "#fffcf5", "s1": ..., ...}, "dark": {...}}."""
    css = STYLESHEET.read_text(encoding="utf-8")
    themes = {}
    for theme, opening in _BLOCKS.items():
        block = re.search(opening + r"(.*?)\}", css, re.DOTALL)
        if block is None:
            raise LookupError(f"static/app.css has no {opening!r} block")
        themes[theme] = {name: value.lower() for name, value in _TOKEN.findall(block[1])}
    return themes


@cache
def colours() -> dict[str, tuple[str, ...]]:
    """The seat colours of each theme, --s1..--s6 of app.css: {"light": (...), "dark": (...)}."""
    return {
        theme: tuple(tokens[f"s{seat}"] for seat in range(1, SEATS + 1))
        for theme, tokens in palette().items()
    }


def names_fit(players: Sequence[str]) -> bool:
    """Whether every word of every name fits its column of the score table on a 360 px phone
    (about 300 px shared by the players, at 7 px a letter)."""
    letters = 300 // (7 * max(len(players), 1))
    return all(len(word) <= letters for name in players for word in name.split())
