"""Each setting is declared once (rules/settings.py): a setting added to the declaration is
in the rules' validation, the API's type check and JSON schema, the forms (field, bounds,
choices, label, hint) and the label table, with nothing else written.

The made-up settings below extend `Settings` exactly as a new field of it would; the app's own
artefacts are built by the same functions from `Settings`, which the last tests hold them to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import jsonschema_rs
import pytest
from babel.messages.pofile import read_po
from flask import Flask
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, IntegerField, SelectField

from scorekeeper.rules import LABELS, RulesError, Settings, declared
from scorekeeper.rules.settings import choice, switch, whole
from scorekeeper.services.bodies import given, read, rules_model, settings_schema
from scorekeeper.services.errors import BadRequest
from scorekeeper.web.forms.common import (
    BOOLEAN_SETTINGS,
    NUMBER_PAD_SETTINGS,
    SCORING_SETTINGS,
    SETTING_LABELS,
    TABLE_SETTINGS,
    add_settings,
    setting_labels,
)
from scorekeeper.web.forms.sessions import NewSessionForm
from scorekeeper.web.openapi import SCHEMAS
from scorekeeper.web.tools import TOGGLES, RulesForm

POT = Path(__file__).parents[2] / "scorekeeper" / "translations" / "messages.pot"


@dataclass(frozen=True)
class HouseSettings(Settings):
    """The settings with three house rules more, each declared as every setting is."""

    tiles_per_rack: int = whole(
        14,
        10,
        20,
        "Tiles per rack",
        "Tiles each player draws to start.",
        hint="Drawn by each player before the first turn.",
    )
    pass_to: str = choice(
        "left",
        (("left", "To the left"), ("right", "To the right")),
        "Pass the turn",
        "Which way the turn goes.",
        scoring=True,
    )
    open_racks: bool = switch(False, "Open racks", "Every rack is shown to the table.")


class HouseSessionForm(NewSessionForm):
    declaration: ClassVar[type[Settings]] = HouseSettings


add_settings(HouseSessionForm)

NEW = ("tiles_per_rack", "pass_to", "open_racks")


def problems_of(error: pytest.ExceptionInfo[RulesError]) -> list[tuple[str, str | None, str]]:
    return [(p.code, p.field, p.message) for p in error.value.problems]


def test_the_declaration_has_them_with_their_defaults() -> None:
    names = [s.name for s in declared(HouseSettings)]
    assert names == [*LABELS, *NEW]
    settings = HouseSettings()
    assert (settings.tiles_per_rack, settings.pass_to, settings.open_racks) == (14, "left", False)
    assert HouseSettings.from_dict(settings.to_dict()) == settings


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"tiles_per_rack": 21}, "Tiles per rack must be a whole number from 10 to 20."),
        ({"tiles_per_rack": 9}, "Tiles per rack must be a whole number from 10 to 20."),
        ({"tiles_per_rack": True}, "Tiles per rack must be a whole number from 10 to 20."),
        ({"pass_to": "across"}, "Pass the turn must be left or right."),
        ({"open_racks": "yes"}, "Open racks must be on or off."),
    ],
)
def test_the_rules_validate_them(values: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError) as error:
        HouseSettings.from_dict(values)
    assert problems_of(error) == [("bad_setting", next(iter(values)), message)]
    good = {"tiles_per_rack": 20, "pass_to": "right", "open_racks": True}
    assert HouseSettings.from_dict(good).to_dict() == {**HouseSettings().to_dict(), **good}


def settings_from_body(rules: object, declaration: type[Settings] = Settings) -> Settings:
    """Settings from a body's `rules` read as the API reads a new session's (services/
    sessions.py): the body's model of the declaration, then the rules' own check."""
    asked = None if rules is None else read(rules_model(declaration), rules)
    return declaration.from_dict(given(asked))


def test_the_api_checks_their_json_types_then_their_values() -> None:
    with pytest.raises(BadRequest) as error:
        settings_from_body(
            {"tiles_per_rack": "14", "pass_to": 1, "open_racks": None}, HouseSettings
        )
    assert [p.field for p in error.value.problems] == list(NEW)
    assert {p.message for p in error.value.problems} == {
        f"{name} has the wrong type." for name in NEW
    }
    with pytest.raises(RulesError) as out_of_range:
        settings_from_body({"tiles_per_rack": 30}, HouseSettings)
    assert not isinstance(out_of_range.value, BadRequest)  # a rules violation: 422
    assert settings_from_body({"pass_to": "right"}, HouseSettings) == HouseSettings(pass_to="right")
    with pytest.raises(BadRequest):  # and the app's own settings know nothing of them
        settings_from_body({"tiles_per_rack": 14})


def test_the_json_schema_describes_them() -> None:
    schema = settings_schema(HouseSettings)
    assert list(schema) == [*LABELS, *NEW]
    assert schema["tiles_per_rack"] == {
        "type": "integer",
        "minimum": 10,
        "maximum": 20,
        "default": 14,
        "description": "Tiles each player draws to start.",
    }
    assert schema["pass_to"] == {
        "type": "string",
        "enum": ["left", "right"],
        "default": "left",
        "description": "Which way the turn goes.",
    }
    assert schema["open_racks"] == {
        "type": "boolean",
        "default": False,
        "description": "Every rack is shown to the table.",
    }
    rules = {"type": "object", "properties": schema, "additionalProperties": False}
    validator = jsonschema_rs.validator_for(rules)
    assert validator.is_valid(HouseSettings().to_dict())
    for bad in ({"tiles_per_rack": 21}, {"pass_to": "across"}, {"open_racks": 1}):
        assert not validator.is_valid(bad), bad


def test_the_new_session_form_has_a_field_for_each(app: Flask) -> None:
    with app.test_request_context("/sessions/new"):
        form = HouseSessionForm(data=HouseSettings().to_dict())
        rack, pass_to, open_racks = (form[name] for name in NEW)
        assert isinstance(rack, IntegerField) and rack.data == 14
        assert (rack.label.text, str(rack.description)) == (
            "Tiles per rack",
            "Drawn by each player before the first turn.",
        )
        assert 'max="20" min="10"' in rack()
        assert isinstance(pass_to, SelectField) and pass_to.data == "left"
        assert [(c[0], str(c[1])) for c in pass_to.iter_choices()][:2] == [
            ("left", "To the left"),
            ("right", "To the right"),
        ]
        assert isinstance(open_racks, BooleanField) and open_racks.data is False
        assert str(open_racks.label.text) == "Open racks"


def test_the_new_session_form_validates_them_and_sends_them(app: Flask) -> None:
    typed = {**HouseSettings().to_dict(), "winner_bonus": "", "open_racks": "y"}
    posted = MultiDict(
        {
            "player_0": "Ann",
            "player_1": "Bo",
            "rounds": "3",
            **{key: str(value) for key, value in typed.items() if value is not False},
        }
    )
    with app.test_request_context("/sessions/new", method="POST", data=posted):
        form = HouseSessionForm()
        assert form.validate(), form.errors
        assert form.rules() == {**HouseSettings().to_dict(), "open_racks": True}
    posted["tiles_per_rack"] = "25"
    with app.test_request_context("/sessions/new", method="POST", data=posted):
        form = HouseSessionForm()
        assert not form.validate()
        assert form.errors == {
            "tiles_per_rack": ["Tiles per rack must be a whole number from 10 to 20."]
        }


def test_the_label_table_has_them() -> None:
    labels = setting_labels(HouseSettings)
    assert {key: str(label) for key, label in labels.items()} == {
        **LABELS,
        "tiles_per_rack": "Tiles per rack",
        "pass_to": "Pass the turn",
        "open_racks": "Open racks",
    }


def test_the_checker_takes_a_field_from_the_declaration(app: Flask) -> None:
    class HouseRulesForm(RulesForm):
        declaration: ClassVar[type[Settings]] = HouseSettings

    add_settings(HouseRulesForm, ["tiles_per_rack"])
    with app.test_request_context("/tools/check"):
        sent = {"rules": "chosen", "min_initial_meld": "30", "tiles_per_rack": "9"}
        form = HouseRulesForm(MultiDict(sent))
        assert not form.validate()
        assert form.errors == {
            "tiles_per_rack": ["Tiles per rack must be a whole number from 10 to 20."]
        }


# --- The app's own artefacts are these functions of `Settings` ---------------------------------


def test_the_app_derives_every_artefact_from_settings(app: Flask) -> None:
    declaration = declared(Settings)
    properties = settings_schema(Settings)
    assert SCHEMAS["Rules"]["properties"] == properties
    assert SCHEMAS["Rules"]["required"] == list(properties)
    assert SCHEMAS["RulesInput"]["properties"] == properties
    assert {key: str(label) for key, label in SETTING_LABELS.items()} == LABELS
    assert (
        tuple(
            [s.name for s in declaration if s.scoring]
            + [s.name for s in declaration if not s.scoring]
        )
        == SCORING_SETTINGS + TABLE_SETTINGS
    )
    assert tuple(s.name for s in declaration if s.kind is bool) == BOOLEAN_SETTINGS
    with app.test_request_context("/sessions/new"):
        form = NewSessionForm(data=Settings().to_dict())
        checker = RulesForm()
        for setting in declaration:
            field = form[setting.name]
            assert str(field.label.text) == setting.label
            assert field.data == setting.default
            assert str(field.description) == (setting.hint or "")
            if setting.name in TOGGLES:
                assert type(checker[setting.name]) is type(field)
                assert checker[setting.name].data == setting.default


def test_every_word_declared_is_extracted_for_the_translators() -> None:
    with POT.open("rb") as handle:
        catalogue = read_po(handle)
    for setting in declared(Settings):
        words = [setting.label, setting.hint, *(label for _, label in setting.options)]
        for word in filter(None, words):
            assert word in catalogue, (setting.name, word)


def test_the_number_pad_is_derived_from_the_declaration(client: Any) -> None:
    """The new-session page opens the number pad for a whole number that is never negative and
    not a choice (derived from the declaration, not listed by hand), and only for those."""
    page = client.get("/sessions/new").get_data(as_text=True)
    for setting in declared(Settings):
        tag = re.search(rf'<(?:input|select)[^>]*\bname="{setting.name}"[^>]*>', page)
        assert tag, setting.name
        assert ('inputmode="numeric"' in tag[0]) == (setting.name in NUMBER_PAD_SETTINGS)
    assert "typo_threshold" not in NUMBER_PAD_SETTINGS  # a pad has no minus sign
    assert {"joker_penalty", "seconds_per_turn", "penalty_tiles"} <= NUMBER_PAD_SETTINGS
