"""Who plays: names as the family types them, and how many may sit at one table."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.rules.errors import Problem, RulesError
from scorekeeper.rules.settings import Setting, Settings, declared

MAX_NAME = 40
MIN_PLAYERS = 2
MAX_PLAYERS_PER_SET = {1: 4, 2: 6}
# More combining marks than this on one letter draw a smear, not a name (Vietnamese stacks
# two, Devanagari and Thai one or two).
MAX_MARKS = 4
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): drawn as nothing. Most
# are also not printable (format characters); the Hangul fillers are letters that show
# nothing and the variation selectors marks that only change the character before them.
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# The variation selectors among them: kept after a character (an emoji's ❤️), never alone.
_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF), (0x180B, 0x180D), (0x180F, 0x180F))


def clean_name(name: object, field: str | None = None) -> str:
    """A display name, trimmed, inner runs of spaces folded; 1-40 characters."""
    if not isinstance(name, str):
        raise RulesError.one("bad_name", "A player's name must be text.", field)
    cleaned = unicodedata.normalize("NFC", " ".join(name.split()))
    if not cleaned:
        raise RulesError.one("bad_name", "A player needs a name.", field)
    if len(cleaned) > MAX_NAME or any(not ch.isprintable() for ch in cleaned):
        raise RulesError.one(
            "bad_name",
            "%(name)s is too long or has characters that cannot be shown: at most 40 letters.",
            field,
            name=_quoted(cleaned),
        )
    if any(_within(ch, _IGNORABLE) and not _within(ch, _SELECTORS) for ch in cleaned):
        raise RulesError.one(
            "bad_name", "A player's name cannot hold characters that show nothing.", field
        )
    if not any(_visible(ch) for ch in cleaned):
        raise RulesError.one("bad_name", "A player's name needs letters you can see.", field)
    if _longest_marks(cleaned) > MAX_MARKS:
        raise RulesError.one(
            "bad_name",
            "%(name)s has too many accents on one letter: at most %(max)d.",
            field,
            name=_quoted(cleaned),
            max=MAX_MARKS,
        )
    return cleaned


def _quoted(name: str) -> str:
    return f"“{name[:20]}…”" if len(name) > 20 else f"“{name}”"


def _within(ch: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= ord(ch) <= high for low, high in ranges)


def _visible(ch: str) -> bool:
    """A character that draws something of its own: not a space, a mark or an ignorable."""
    return not ch.isspace() and not _is_mark(ch) and not _within(ch, _IGNORABLE)


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def _longest_marks(name: str) -> int:
    """The most combining marks in a row (on one letter), variation selectors not counted."""
    longest = run = 0
    for ch in name:
        run = run + 1 if _is_mark(ch) and not _within(ch, _SELECTORS) else 0
        longest = max(longest, run)
    return longest


def name_key(name: str) -> str:
    """Names are the same player when they match ignoring case, spaces and how an accented
    letter was typed (a precomposed ë or e plus a combining diaeresis)."""
    return unicodedata.normalize("NFC", " ".join(name.split()).casefold())


def check_players(names: Sequence[object], settings: Settings | None = None) -> list[str]:
    """Clean a seating list and refuse duplicates and a table the tile sets cannot serve."""
    settings = settings or Settings()
    problems: list[Problem] = []
    cleaned: list[str] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(names):
        try:
            name = clean_name(raw, f"players.{i}")
        except RulesError as err:
            problems.extend(err.problems)
            continue
        if name_key(name) in seen:
            problems.append(
                Problem(
                    "duplicate_player",
                    "%(name)s is already playing: give each player a different name.",
                    {"name": name},
                    f"players.{i}",
                )
            )
            continue
        seen[name_key(name)] = name
        cleaned.append(name)
    if problems:
        raise RulesError(problems)
    check_player_count(len(cleaned), settings.tile_sets)
    return cleaned


def check_player_count(count: int, tile_sets: int) -> None:
    """2-4 players with one tile set, up to 6 with two."""
    if count < MIN_PLAYERS:
        raise RulesError.one("too_few_players", "Rummikub needs at least 2 players.", "players")
    if count > MAX_PLAYERS_PER_SET[2]:
        raise RulesError.one("too_many_players", "At most 6 players can share a table.", "players")
    if count > MAX_PLAYERS_PER_SET[tile_sets]:
        raise RulesError.one(
            "too_many_players",
            "%(count)d players need two tile sets: set Number of tile sets to 2.",
            "players",
            count=count,
        )


def tile_sets_for(count: int) -> int:
    """The fewest tile sets a table of `count` players needs (one up to 4, two for 5 or 6)."""
    return min(
        (sets for sets, most in MAX_PLAYERS_PER_SET.items() if count <= most),
        default=max(MAX_PLAYERS_PER_SET),
    )


def standard_for(count: int) -> Settings:
    """The standard set of rules for a table of `count` players (two tile sets for 5 or 6)."""
    return Settings(tile_sets=tile_sets_for(count))


def differing_rules(values: Mapping[str, Any], count: int = 0) -> tuple[Setting, ...]:
    """The settings whose value (by API key, as `Settings.to_dict` gives them) differs from
    the standard set for `count` players, in declaration order."""
    standard = standard_for(count).to_dict()
    return tuple(s for s in declared(Settings) if values.get(s.name) != standard[s.name])


def find_player(name: object, players: Sequence[str]) -> str | None:
    """The seated player a typed name means (case and spaces ignored), or None."""
    if not isinstance(name, str):
        return None
    key = name_key(name)
    return next((p for p in players if name_key(p) == key), None)
