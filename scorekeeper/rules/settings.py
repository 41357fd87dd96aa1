"""Every setting of docs/RULES.md §7 in one frozen value, validated once, with the presets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from scorekeeper.rules.errors import Problem, RulesError, Word

EMPTY_POOL_CHOICES = ("difference", "fewest_tiles")
PLAYED_WITH_CHOICES = ("tiles", "cards")

#: The labels the app shows, exactly as docs/RULES.md names them. Each is a msgid of its own: the
#: web layer lists them literally (forms.SETTING_LABELS) so that they are extracted.
LABELS: dict[str, str] = {
    "tile_sets": "Number of tile sets",
    "min_initial_meld": "Minimum initial meld",
    "jokers_retrievable": "Jokers may be retrieved from the table",
    "joker_penalty": "Joker penalty",
    "seconds_per_turn": "Seconds per turn",
    "penalty_tiles": "Penalty tiles",
    "run_wrap": "Run wrap (1 after 13)",
    "empty_pool": "Empty pool",
    "drop_worst_round": "Drop each player's worst round",
    "winner_bonus": "Winner bonus",
    "typo_threshold": "Typo flag below",
    "played_with": "Played with",
}

# Inclusive bounds for the whole-number settings: wide enough for any house rule,
# narrow enough that a typo cannot make the game meaningless.
_INT_BOUNDS: dict[str, tuple[int, int]] = {
    "tile_sets": (1, 2),
    "min_initial_meld": (0, 200),
    "joker_penalty": (0, 100),
    "seconds_per_turn": (0, 3600),
    "penalty_tiles": (0, 10),
    "winner_bonus": (1, 1000),
    "typo_threshold": (-2000, -1),
}


@dataclass(frozen=True)
class Settings:
    """A session's rules; the defaults are the Standard preset."""

    tile_sets: int = 1
    min_initial_meld: int = 30
    jokers_retrievable: bool = True
    joker_penalty: int = 30
    seconds_per_turn: int = 0
    penalty_tiles: int = 3
    run_wrap: bool = False
    empty_pool: str = "difference"
    drop_worst_round: bool = False
    winner_bonus: int | None = None
    typo_threshold: int = -180
    played_with: str = "tiles"

    def __post_init__(self) -> None:
        problems = [p for f in fields(self) if (p := _check(f.name, getattr(self, f.name)))]
        if problems:
            raise RulesError(problems)

    @classmethod
    def from_dict(cls, values: Mapping[str, Any] | None, base: Settings | None = None) -> Settings:
        """Build settings from a plain mapping (API body, form), defaults for missing keys."""
        if values is None:
            return base or cls()
        if not isinstance(values, Mapping):
            raise RulesError.one("bad_setting", "The rules must be an object of settings.", "rules")
        known = {f.name for f in fields(cls)}
        unknown = [
            Problem("bad_setting", "%(name)s is not a setting.", {"name": str(k)}, str(k))
            for k in values
            if k not in known
        ]
        if unknown:
            raise RulesError(unknown)
        return replace(base or cls(), **dict(values))

    def to_dict(self) -> dict[str, Any]:
        """Every setting by its API key."""
        return asdict(self)

    @property
    def jokers_in_game(self) -> int:
        return 2 * self.tile_sets


def _check(name: str, value: Any) -> Problem | None:
    label = Word(LABELS[name])
    if name in ("jokers_retrievable", "run_wrap", "drop_worst_round"):
        if not isinstance(value, bool):
            return Problem("bad_setting", "%(label)s must be on or off.", {"label": label}, name)
        return None
    if name == "empty_pool" and value not in EMPTY_POOL_CHOICES:
        return Problem(
            "bad_setting", "%(label)s must be difference or fewest_tiles.", {"label": label}, name
        )
    if name == "played_with" and value not in PLAYED_WITH_CHOICES:
        return Problem("bad_setting", "%(label)s must be tiles or cards.", {"label": label}, name)
    if name in _INT_BOUNDS:
        if name == "winner_bonus" and value is None:
            return None
        low, high = _INT_BOUNDS[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return Problem(
                "bad_setting",
                "%(label)s must be a whole number from %(low)d to %(high)d.",
                {"label": label, "low": low, "high": high},
                name,
            )
    return None


PRESETS: dict[str, Settings] = {
    "standard": Settings(),
    "tournament": Settings(seconds_per_turn=60),
}
