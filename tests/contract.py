"""The API contract's default rules, written out once for the tests (docs/DESIGN.md, the
`rules` of a session created without them; docs/RULES.md §7). A plain copy on purpose, not
derived from scorekeeper.rules: it catches a default changed by mistake."""

DEFAULT_RULES = {
    "tile_sets": 1,
    "min_initial_meld": 30,
    "jokers_retrievable": True,
    "joker_penalty": 30,
    "seconds_per_turn": 0,
    "penalty_tiles": 3,
    "run_wrap": False,
    "empty_pool": "difference",
    "drop_worst_round": False,
    "winner_bonus": None,
    "typo_threshold": -180,
    "played_with": "tiles",
}


# Six players with long names, the longest past any one line of the chart's legend.
SIX_LONG_NAMES = [
    "Bedstemor Ingrid",
    "Onkel Frederik",
    "Christoffer",
    "Marianne",
    "Johanne",
    "Oldemor Margrethe Vilhelmine Andersen",
]

# Long names as families write them: a double first name, a full name, letters beyond ASCII.
LONG_NAMES = [
    "Anna-Katharina",
    "Maximilian Hohenberg",
    "Przemysław",
    "Bartholomew",
    "Konstantinopoulos",
    "Wilhelmina Józefa",
]
