"""The rules of Rummikub as this app applies them (docs/RULES.md): pure Python, no Flask or SQL."""

from scorekeeper.rules.errors import Problem, RulesError
from scorekeeper.rules.players import check_player_count, check_players, clean_name, find_player
from scorekeeper.rules.scoring import ENDINGS, Rack, RoundEntry, ScoredRound, score_round
from scorekeeper.rules.sets import MeldCheck, Reading, SetCheck, check_meld, check_set
from scorekeeper.rules.settings import LABELS, PRESETS, Setting, Settings, declared
from scorekeeper.rules.standings import Standings, standings
from scorekeeper.rules.tiles import (
    JOKER,
    Colour,
    Tile,
    check_supply,
    format_tiles,
    parse_tile,
    parse_tiles,
    rack_value,
)

__all__ = [
    "ENDINGS",
    "JOKER",
    "LABELS",
    "PRESETS",
    "Colour",
    "MeldCheck",
    "Problem",
    "Rack",
    "Reading",
    "RoundEntry",
    "RulesError",
    "ScoredRound",
    "SetCheck",
    "Setting",
    "Settings",
    "Standings",
    "Tile",
    "check_meld",
    "check_player_count",
    "check_players",
    "check_set",
    "check_supply",
    "clean_name",
    "declared",
    "find_player",
    "format_tiles",
    "parse_tile",
    "parse_tiles",
    "rack_value",
    "score_round",
    "standings",
]
