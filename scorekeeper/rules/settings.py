"""Every setting of docs/RULES.md §7, declared once as a field of the frozen `Settings`, and
the presets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from scorekeeper.rules.errors import Problem, RulesError, Word, name_list
from scorekeeper.rules.numbers import digits_for

_SETTING = "setting"  # the key of a field's metadata that holds its declaration


def N_(text: str) -> str:  # noqa: N802  (the usual name of gettext's no-op marker)
    """Mark English text a person reads as a msgid (babel.cfg extracts `N_`) without
    translating it here: the rules cannot import Flask-Babel; the web layer translates it."""
    return text


@dataclass(frozen=True)
class Setting:
    """One setting as `Settings` declares it."""

    name: str
    kind: type  # bool, int (a whole number, never a bool) or str (one of the choices)
    default: Any
    label: str  # a msgid, as docs/RULES.md §7 names the setting
    about: str  # the API document's description (English, not translated)
    low: int | None = None  # inclusive bounds of a whole number
    high: int | None = None
    options: tuple[tuple[Any, str], ...] = ()  # the values a form offers, each with its label
    optional: bool = False  # None (JSON null) is a value too: the setting is off
    scoring: bool = False  # changes the scores: shown at once, not under "More rules"
    hint: str | None = None  # a line under the field on the new-session page (a msgid)

    @property
    def digits(self) -> int:
        """The most digits a whole number of this setting is typed in (its bounds')."""
        assert self.low is not None and self.high is not None
        return digits_for(self.low, self.high)

    @property
    def choices(self) -> tuple[Any, ...]:
        """The values a form offers (a choice setting takes no other)."""
        return tuple(value for value, _ in self.options)

    def problem(self, value: object) -> Problem | None:
        """Why the value is not one of this setting's, in the family's words; None if it is."""
        label = Word(self.label)
        if self.kind is bool:
            if isinstance(value, bool):
                return None
            return Problem(
                "bad_setting", "%(label)s must be on or off.", {"label": label}, self.name
            )
        if self.kind is str:
            if isinstance(value, str) and value in self.choices:
                return None
            return Problem(
                "bad_setting",
                "%(label)s must be %(choices)s.",
                {"label": label, "choices": name_list(self.choices, "or")},
                self.name,
            )
        if value is None and self.optional:
            return None
        assert self.low is not None and self.high is not None
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        ):
            return None
        return self.out_of_range()

    def out_of_range(self) -> Problem:
        """What a whole number outside the bounds is told (the forms show the same words)."""
        return Problem(
            "bad_setting",
            "%(label)s must be a whole number from %(low)d to %(high)d.",
            {"label": Word(self.label), "low": self.low, "high": self.high},
            self.name,
        )


def _declare(kind: type, default: Any, label: str, about: str, **spec: Any) -> Any:
    """A field of `Settings` carrying its declaration (completed with its name by `declared`)."""
    setting = Setting("", kind, default, label, about, **spec)
    return field(default=default, metadata={_SETTING: setting})


def whole(default: int | None, low: int, high: int, label: str, about: str, **spec: Any) -> Any:
    """A whole number from `low` to `high` (`optional=True`: or None, which is off)."""
    return _declare(int, default, label, about, low=low, high=high, **spec)


def switch(default: bool, label: str, about: str, **spec: Any) -> Any:
    """On or off."""
    return _declare(bool, default, label, about, **spec)


def choice(
    default: str, options: tuple[tuple[str, str], ...], label: str, about: str, **spec: Any
) -> Any:
    """One of a few words (`options`: each value with the label a form shows for it)."""
    return _declare(str, default, label, about, options=options, **spec)


_DECLARED: dict[type, tuple[Setting, ...]] = {}


def declared(cls: type[Settings]) -> tuple[Setting, ...]:
    """Every setting of `cls` (Settings, or a class that extends it), in declaration order."""
    if cls not in _DECLARED:
        _DECLARED[cls] = tuple(replace(f.metadata[_SETTING], name=f.name) for f in fields(cls))
    return _DECLARED[cls]


@dataclass(frozen=True)
class Settings:
    """A session's rules; the defaults are the Standard preset. One field per setting."""

    tile_sets: int = whole(
        1,
        1,
        2,
        N_("Number of tile sets"),
        "Number of tile sets: 2 for 5-6 players; changes the supply check.",
        options=((1, N_("1 (2-4 players)")), (2, N_("2 (5-6 players)"))),
        scoring=True,
    )
    min_initial_meld: int = whole(
        30,
        0,
        200,
        N_("Minimum initial meld"),
        "Minimum initial meld: points needed in the first play.",
        hint=N_("Points needed in the first play."),
    )
    jokers_retrievable: bool = switch(
        True,
        N_("Jokers may be retrieved from the table"),
        "Jokers may be retrieved from the table.",
    )
    joker_penalty: int = whole(
        30,
        0,
        100,
        N_("Joker penalty"),
        "What a joker left on a rack costs.",
        scoring=True,
        hint=N_("What a joker left on a rack costs."),
    )
    seconds_per_turn: int = whole(
        0,
        0,
        3600,
        N_("Seconds per turn"),
        "The turn clock; 0 is off.",
        hint=N_("0 means no clock."),
    )
    penalty_tiles: int = whole(
        3,
        0,
        10,
        N_("Penalty tiles"),
        "Tiles drawn after a timeout or an invalid table.",
        hint=N_("Drawn after a timeout or an invalid table."),
    )
    run_wrap: bool = switch(False, N_("Run wrap (1 after 13)"), "Run wrap (1 after 13).")
    empty_pool: str = choice(
        "difference",
        (("difference", N_("Difference")), ("fewest_tiles", N_("Fewest tiles"))),
        N_("Empty pool"),
        "Who takes a round when the pool ran out.",
        scoring=True,
    )
    drop_worst_round: bool = switch(
        False,
        N_("Drop each player's worst round"),
        "Drop each player's worst round from their total.",
        scoring=True,
    )
    winner_bonus: int | None = whole(
        None,
        1,
        1000,
        N_("Winner bonus"),
        "A fixed winner's score replacing the losers' sum; null is off.",
        optional=True,
        scoring=True,
        hint=N_("Leave blank for the usual: the winner scores what the others lose."),
    )
    typo_threshold: int = whole(
        -180,
        -2000,
        -1,
        N_("Typo flag below"),
        "Typo flag below: entries under it need `confirm`.",
        scoring=True,
        hint=N_("An entry below this asks “is that right?” before it is kept."),
    )
    played_with: str = choice(
        "tiles",
        (("tiles", N_("Tiles")), ("cards", N_("Two card decks"))),
        N_("Played with"),
        "Tiles, or two card decks (suit letters s, h, d, c for the colours).",
    )

    def __post_init__(self) -> None:
        problems = [
            p for s in declared(type(self)) if (p := s.problem(getattr(self, s.name))) is not None
        ]
        if problems:
            raise RulesError(problems)

    @classmethod
    def from_dict(cls, values: Mapping[str, Any] | None, base: Settings | None = None) -> Settings:
        """Build settings from a plain mapping (API body, form), defaults for missing keys."""
        if values is None:
            return base or cls()
        if not isinstance(values, Mapping):
            raise RulesError.one("bad_setting", "The rules must be an object of settings.", "rules")
        known = {s.name for s in declared(cls)}
        unknown = [
            Problem("bad_setting", "%(name)s is not a setting.", {"name": str(k)}, str(k))
            for k in values
            if k not in known
        ]
        if unknown:
            raise RulesError(unknown)
        if base is None:  # one check of the values, not one of the defaults first
            return cls(**dict(values))
        return replace(base, **dict(values))

    def to_dict(self) -> dict[str, Any]:
        """Every setting by its API key."""
        return asdict(self)

    @property
    def jokers_in_game(self) -> int:
        return 2 * self.tile_sets


#: The labels the app shows, exactly as docs/RULES.md names them (English msgids).
LABELS: dict[str, str] = {s.name: s.label for s in declared(Settings)}

PRESETS: dict[str, Settings] = {
    "standard": Settings(),
    "tournament": Settings(seconds_per_turn=60),
}
