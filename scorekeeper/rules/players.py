"""Who plays: names as the family types them, and how many may sit at one table."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from scorekeeper.rules.errors import Problem, RulesError
from scorekeeper.rules.settings import Settings

MAX_NAME = 40
MIN_PLAYERS = 2
MAX_PLAYERS_PER_SET = {1: 4, 2: 6}


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
            name=f"“{cleaned[:20]}…”" if len(cleaned) > 20 else f"“{cleaned}”",
        )
    return cleaned


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


def find_player(name: object, players: Sequence[str]) -> str | None:
    """The seated player a typed name means (case and spaces ignored), or None."""
    if not isinstance(name, str):
        return None
    key = name_key(name)
    return next((p for p in players if name_key(p) == key), None)
