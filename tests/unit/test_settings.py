"""Settings: docs/RULES.md section 7 table, validation, presets."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from contract import DEFAULT_RULES

from scorekeeper.rules import LABELS, PRESETS, RulesError, Settings, declared

# docs/RULES.md section 7, label -> default, as printed.
RULES_TABLE = {
    "Number of tile sets": 1,
    "Minimum initial meld": 30,
    "Jokers may be retrieved from the table": True,
    "Joker penalty": 30,
    "Seconds per turn": 0,
    "Penalty tiles": 3,
    "Run wrap (1 after 13)": False,
    "Empty pool": "difference",
    "Drop each player's worst round": False,
    "Winner bonus": None,
    "Typo flag below": -180,
    "Rounds": 3,
    "Played with": "tiles",
}


def test_defaults_match_rules_table() -> None:
    defaults = Settings().to_dict()
    by_label = {LABELS[key]: value for key, value in defaults.items()}
    assert by_label == {k: v for k, v in RULES_TABLE.items() if k != "Rounds"}


def test_defaults_by_key() -> None:
    assert Settings().to_dict() == DEFAULT_RULES


def test_labels_cover_every_field_with_rules_wording() -> None:
    keys = [f.name for f in dataclasses.fields(Settings)]
    assert sorted(LABELS) == sorted(keys)
    assert set(LABELS.values()) <= set(RULES_TABLE)
    # docs/RULES.md lists "Rounds" (default 3) as a setting; the rules code keeps the agreed
    # number of rounds outside Settings (standings() takes rounds_planned). See docs/RULES.md §7.
    assert set(RULES_TABLE) - set(LABELS.values()) == {"Rounds"}


def test_rounds_is_not_a_setting_key() -> None:
    with pytest.raises(RulesError) as err:
        Settings.from_dict({"rounds": 3})
    assert err.value.code == "bad_setting"


def test_from_dict_none_and_empty() -> None:
    assert Settings.from_dict(None) == Settings()
    assert Settings.from_dict({}) == Settings()


def test_from_dict_partial() -> None:
    settings = Settings.from_dict({"tile_sets": 2, "run_wrap": True})
    assert settings.tile_sets == 2
    assert settings.run_wrap is True
    assert settings.min_initial_meld == 30
    assert settings.jokers_in_game == 4
    assert Settings().jokers_in_game == 2


def test_from_dict_on_a_base() -> None:
    base = Settings(joker_penalty=50, run_wrap=True)
    settings = Settings.from_dict({"run_wrap": False}, base)
    assert settings == Settings(joker_penalty=50)
    assert Settings.from_dict(None, base) is base


def test_from_dict_unknown_keys() -> None:
    with pytest.raises(RulesError) as err:
        Settings.from_dict({"colour_blind": True, "tile_sets": 2, "speed": 3})
    assert [(p.code, p.field) for p in err.value.problems] == [
        ("bad_setting", "colour_blind"),
        ("bad_setting", "speed"),
    ]
    assert "colour_blind is not a setting" in err.value.message


def test_from_dict_not_a_mapping() -> None:
    with pytest.raises(RulesError) as err:
        Settings.from_dict([("tile_sets", 2)])  # type: ignore[arg-type]
    assert (err.value.code, err.value.problems[0].field) == ("bad_setting", "rules")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("tile_sets", True),
        ("tile_sets", "2"),
        ("tile_sets", 2.0),
        ("min_initial_meld", "30"),
        ("joker_penalty", None),
        ("seconds_per_turn", False),
        ("typo_threshold", -180.5),
        ("winner_bonus", "50"),
        ("winner_bonus", True),
        ("run_wrap", 1),
        ("run_wrap", "on"),
        ("jokers_retrievable", 3),
        ("drop_worst_round", None),
        ("empty_pool", "lowest"),
        ("empty_pool", True),
        ("played_with", "dominoes"),
        ("played_with", None),
    ],
)
def test_wrong_types(key: str, value: Any) -> None:
    with pytest.raises(RulesError) as err:
        Settings.from_dict({key: value})
    assert [(p.code, p.field) for p in err.value.problems] == [("bad_setting", key)]
    assert LABELS[key] in err.value.message


@pytest.mark.parametrize(
    ("key", "bad", "good"),
    [
        ("tile_sets", 0, 1),
        ("tile_sets", 3, 2),
        ("min_initial_meld", -1, 0),
        ("min_initial_meld", 201, 200),
        ("joker_penalty", -1, 0),
        ("joker_penalty", 101, 100),
        ("seconds_per_turn", -1, 3600),
        ("seconds_per_turn", 3601, 60),
        ("penalty_tiles", -1, 0),
        ("penalty_tiles", 11, 10),
        ("winner_bonus", 0, 1),
        ("winner_bonus", 1001, 1000),
        ("typo_threshold", 0, -1),
        ("typo_threshold", -2001, -2000),
    ],
)
def test_ranges(key: str, bad: int, good: int) -> None:
    with pytest.raises(RulesError) as err:
        Settings.from_dict({key: bad})
    assert [(p.code, p.field) for p in err.value.problems] == [("bad_setting", key)]
    assert getattr(Settings.from_dict({key: good}), key) == good


def test_all_bad_values_reported_at_once() -> None:
    with pytest.raises(RulesError) as err:
        Settings.from_dict({"tile_sets": 5, "run_wrap": "yes", "empty_pool": "x"})
    assert sorted(p.field for p in err.value.problems) == ["empty_pool", "run_wrap", "tile_sets"]


def test_constructor_validates_too() -> None:
    with pytest.raises(RulesError) as err:
        Settings(tile_sets=3)
    assert err.value.code == "bad_setting"


def test_choices_accepted() -> None:
    assert Settings.from_dict({"empty_pool": "fewest_tiles"}).empty_pool == "fewest_tiles"
    assert Settings.from_dict({"played_with": "cards"}).played_with == "cards"
    assert Settings.from_dict({"winner_bonus": None}).winner_bonus is None
    assert Settings.from_dict({"winner_bonus": 50}).winner_bonus == 50


def test_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().tile_sets = 2  # type: ignore[misc]


def test_presets() -> None:
    assert set(PRESETS) >= {"standard", "tournament"}
    assert PRESETS["standard"] == Settings()
    assert PRESETS["tournament"].seconds_per_turn == 60
    assert dataclasses.replace(PRESETS["tournament"], seconds_per_turn=0) == Settings()


def test_to_dict_round_trips() -> None:
    for settings in [
        Settings(),
        PRESETS["tournament"],
        Settings(
            tile_sets=2,
            min_initial_meld=50,
            jokers_retrievable=False,
            joker_penalty=25,
            seconds_per_turn=120,
            penalty_tiles=1,
            run_wrap=True,
            empty_pool="fewest_tiles",
            drop_worst_round=True,
            winner_bonus=100,
            typo_threshold=-300,
            played_with="cards",
        ),
    ]:
        assert Settings.from_dict(settings.to_dict()) == settings


@pytest.mark.parametrize(
    ("key", "label"),
    [
        ("tile_sets", "Number of tile sets"),
        ("min_initial_meld", "Minimum initial meld"),
        ("jokers_retrievable", "Jokers may be retrieved from the table"),
        ("joker_penalty", "Joker penalty"),
        ("seconds_per_turn", "Seconds per turn"),
        ("penalty_tiles", "Penalty tiles"),
        ("run_wrap", "Run wrap (1 after 13)"),
        ("empty_pool", "Empty pool"),
        ("drop_worst_round", "Drop each player's worst round"),
        ("winner_bonus", "Winner bonus"),
        ("typo_threshold", "Typo flag below"),
        ("played_with", "Played with"),
    ],
)
def test_label(key: str, label: str) -> None:
    assert LABELS[key] == label


# --- The docs' settings tables say what the declaration says ----------------------------------

DOCS = Path(__file__).parents[2] / "docs"


def table_rows(path: Path, first_header: str) -> list[list[str]]:
    """The rows of the markdown table whose first header cell is `first_header`."""
    rows: list[list[str]] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def number(value: int) -> str:
    return str(value).replace("-", "−")  # the docs write a minus sign


def test_rules_md_settings_table_says_what_is_declared() -> None:
    rows = {row[1].split("`")[1]: row for row in table_rows(DOCS / "RULES.md", "label")}
    assert list(rows) == [*LABELS, "rounds"]  # Rounds: the session's own number
    for setting in declared(Settings):
        label, _, default, values, _ = rows[setting.name]
        assert label == setting.label
        if setting.kind is bool:
            assert (default, values) == ("on" if setting.default else "off", "on/off")
            continue
        shown = "off" if setting.default is None else number(setting.default)
        assert default.startswith(shown), (setting.name, default)
        if setting.kind is str:
            assert values == ", ".join(f"`{c}`" for c in setting.choices)
        else:
            assert number(setting.low) in values and number(setting.high) in values


def test_api_md_settings_table_says_what_is_declared() -> None:
    rows = {row[0].strip("`"): row for row in table_rows(DOCS / "API.md", "Setting")}
    assert list(rows) == list(LABELS)
    for setting in declared(Settings):
        _, default, values = rows[setting.name]
        if setting.kind is bool:
            assert (default, values) == (str(setting.default).lower(), "boolean")
        elif setting.kind is str:
            assert default == f'`"{setting.default}"`'
            assert values == " or ".join(f'`"{c}"`' for c in setting.choices)
        else:
            assert default == ("null" if setting.default is None else number(setting.default))
            assert number(setting.low) in values and number(setting.high) in values
            assert values.startswith("null or ") == setting.optional
