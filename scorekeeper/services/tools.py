"""The rules tools: check a set, an initial meld, a rack, with or without a session's rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.rules import (
    Settings,
    Tile,
    check_meld,
    check_set,
    check_supply,
    parse_tile,
    parse_tiles,
    rack_value,
)
from scorekeeper.rules.sets import check_joker_swap
from scorekeeper.services.documents import (
    Render,
    TextRender,
    english,
    meld_document,
    same_text,
    set_document,
    swap_document,
)
from scorekeeper.services.errors import bad_request
from scorekeeper.services.sessions import settings_from_body
from scorekeeper.services.views import load_session

MAX_TILES = 212


def tool_settings(body: Mapping[str, Any]) -> Settings:
    """The rules to check against: a session's (`session`), then any `rules` given."""
    base = None
    session_id = body.get("session")
    if session_id is not None:
        if isinstance(session_id, bool) or not isinstance(session_id, int):
            raise bad_request("session must be a session id.", "session")
        base = Settings.from_dict(load_session(session_id).rules)
    rules = body.get("rules")
    settings_from_body(rules)  # unknown keys and wrong types are a 400, as for a new session
    return Settings.from_dict(rules, base)


def _tiles(value: object, field: str, settings: Settings) -> list[Tile]:
    """Tiles in the notation of the rules' Played with (a card in a game of tiles is named)."""
    if isinstance(value, str) and len(value) <= 2000:
        return parse_tiles(value, settings.played_with)
    if (
        isinstance(value, list)
        and len(value) <= MAX_TILES
        and all(isinstance(t, str) for t in value)
    ):
        return parse_tiles(value, settings.played_with)
    raise bad_request('%(name)s must be a list of tiles like ["r7", "j"].', field, name=field)


def _body(body: object) -> Mapping[str, Any]:
    if not isinstance(body, Mapping):
        raise bad_request("The body must be a JSON object.")
    return body


def check_set_tool(body: object, render: Render = english) -> dict[str, Any]:
    """Is this one set valid, and every way to read it."""
    body = _body(body)
    settings = tool_settings(body)
    check = check_set(_tiles(body.get("tiles"), "tiles", settings), settings)
    return set_document(check, settings.played_with, render)


def check_meld_tool(body: object, render: Render = english) -> dict[str, Any]:
    """Do these sets from one rack make the initial meld."""
    body = _body(body)
    settings = tool_settings(body)
    sets = body.get("sets")
    if not isinstance(sets, list) or len(sets) > 40:
        raise bad_request("sets must be a list of sets, each a list of tiles.", "sets")
    parsed = [_tiles(s, f"sets.{i}", settings) for i, s in enumerate(sets)]
    return meld_document(check_meld(parsed, settings), settings.played_with, render)


def rack_tool(body: object) -> dict[str, Any]:
    """What a rack is worth and how many tiles it holds."""
    body = _body(body)
    settings = tool_settings(body)
    tiles = _tiles(body.get("tiles"), "tiles", settings)
    check_supply([tiles], settings.tile_sets, settings.played_with)
    return {"value": rack_value(tiles, settings.joker_penalty), "count": len(tiles)}


def swap_tool(
    body: object, render: Render = english, render_text: TextRender = same_text
) -> dict[str, Any]:
    """May a tile from a rack take the place of a joker in this set on the table."""
    body = _body(body)
    settings = tool_settings(body)
    table_set = _tiles(body.get("set"), "set", settings)
    tile = body.get("tile")
    if not isinstance(tile, str):
        raise bad_request('tile must be one tile like "b5".', "tile")
    check = check_joker_swap(table_set, parse_tile(tile, settings.played_with), settings)
    return swap_document(check, settings.played_with, render, render_text)
