"""The rules tools: check a set, an initial meld, a rack, with or without a session's rules."""

from __future__ import annotations

from scorekeeper.rules import (
    Settings,
    check_meld,
    check_set,
    check_supply,
    parse_tile,
    parse_tiles,
    rack_value,
)
from scorekeeper.rules.sets import check_joker_swap
from scorekeeper.services.bodies import (
    MeldRequest,
    RackRequest,
    SetRequest,
    SwapRequest,
    ToolRequest,
    given,
    read,
)
from scorekeeper.services.documents import (
    MeldCheck,
    RackValue,
    Render,
    SetCheck,
    SwapCheck,
    TextRender,
    english,
    meld_document,
    same_text,
    set_document,
    swap_document,
)
from scorekeeper.services.views import load_session


def tool_settings(body: object) -> Settings:
    """The rules a tool's body asks to check against: a session's (`session`), then its
    `rules` on top."""
    return _settings(read(ToolRequest, body))


def _settings(asked: ToolRequest) -> Settings:
    base = None
    if asked.session is not None:
        base = Settings.from_dict(load_session(asked.session).rules)
    return Settings.from_dict(given(asked.rules), base)


def check_set_tool(body: object, render: Render = english) -> SetCheck:
    """Is this one set valid, and every way to read it."""
    asked = read(SetRequest, body)
    settings = _settings(asked)
    check = check_set(parse_tiles(asked.tiles, settings.played_with), settings)
    return set_document(check, settings.played_with, render)


def check_meld_tool(body: object, render: Render = english) -> MeldCheck:
    """Do these sets from one rack make the initial meld."""
    asked = read(MeldRequest, body)
    settings = _settings(asked)
    parsed = [parse_tiles(tiles, settings.played_with) for tiles in asked.sets]
    return meld_document(check_meld(parsed, settings), settings.played_with, render)


def rack_tool(body: object) -> RackValue:
    """What a rack is worth and how many tiles it holds."""
    asked = read(RackRequest, body)
    settings = _settings(asked)
    tiles = parse_tiles(asked.tiles, settings.played_with)
    check_supply([tiles], settings.tile_sets, settings.played_with)
    return {"value": rack_value(tiles, settings.joker_penalty), "count": len(tiles)}


def swap_tool(
    body: object, render: Render = english, render_text: TextRender = same_text
) -> SwapCheck:
    """May a tile from a rack take the place of a joker in this set on the table.

    Only when `jokers_retrievable` is on, the set is valid and holds a joker, and the tile is
    one the joker stands for in some reading (in a 3-tile group either missing colour; in a
    run the exact tile). A refusal is still an answer, with `allowed` false and the reason.
    """
    asked = read(SwapRequest, body)
    settings = _settings(asked)
    table_set = parse_tiles(asked.set, settings.played_with)
    tile = parse_tile(asked.tile, settings.played_with)
    check = check_joker_swap(table_set, tile, settings)
    return swap_document(check, settings.played_with, render, render_text)
