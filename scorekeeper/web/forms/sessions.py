"""The forms of a session: a new one (players, rounds, rules and presets), a rename, notes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, ClassVar

from flask import has_request_context, request
from werkzeug.datastructures import MultiDict
from wtforms import BooleanField, Field, HiddenField, SelectField, StringField, TextAreaField
from wtforms.validators import InputRequired

from scorekeeper.rules import PRESETS, Problem, Settings, declared
from scorekeeper.rules.players import tile_sets_for
from scorekeeper.services.bodies import MAX_ROUNDS
from scorekeeper.web.forms.common import (
    BOOLEAN_SETTINGS,
    MAX_PLAYERS,
    PageForm,
    SelectChoice,
    WholeNumberField,
    add_error,
    add_settings,
    seat_position,
    stripped,
)
from scorekeeper.web.messages import translate
from scorekeeper.web.text import lazy_text as _l


class RenameForm(PageForm):
    """A player's new name; past rounds stay theirs (`position`: the seat, when the page's one
    rename form names it rather than the address)."""

    position = SelectField(
        _l("Player"), coerce=lambda text: seat_position(text), validate_choice=False
    )
    name = StringField(
        _l("New name"),
        filters=[stripped],
        render_kw={"maxlength": 40, "autocomplete": "off", "autocapitalize": "words"},
    )


class NotesForm(PageForm):
    """The family's notes on the evening; the service checks the length and keeps the text."""

    notes = TextAreaField(_l("Notes on this evening"), render_kw={"maxlength": 2000, "rows": 4})
    # The fingerprint of the notes the text was typed over (services.stamps.notes_tag).
    notes_seen = HiddenField()


EXTRA_PLAYER = re.compile(r"player_[0-9]{1,3}")


class NewSessionForm(PageForm):
    """Who plays (in seating order), how many rounds, and every setting of docs/RULES.md 7
    (a field each, added from the declaration by `add_settings` below)."""

    declaration: ClassVar[type[Settings]] = Settings

    name = StringField(
        _l("Session name (optional)"), filters=[stripped], render_kw={"maxlength": 80}
    )
    # The form's idempotency key: sent twice (a rematch tapped again), it makes one session.
    key = HiddenField()
    player_0 = StringField(_l("Player %(n)s", n=1), filters=[stripped])
    player_1 = StringField(_l("Player %(n)s", n=2), filters=[stripped])
    player_2 = StringField(_l("Player %(n)s", n=3), filters=[stripped])
    player_3 = StringField(_l("Player %(n)s", n=4), filters=[stripped])
    player_4 = StringField(_l("Player %(n)s", n=5), filters=[stripped])
    player_5 = StringField(_l("Player %(n)s", n=6), filters=[stripped])
    rounds = WholeNumberField(
        _l("Rounds"),
        1,
        MAX_ROUNDS,
        _l("Rounds must be from 1 to %(max)d.", max=MAX_ROUNDS),
        default=3,
        validators=[InputRequired(_l("How many rounds will you play?"))],
    )

    preset = SelectField(
        _l("Preset"),
        choices=[
            SelectChoice("standard", _l("Standard")),
            SelectChoice("tournament", _l("Tournament")),
        ],
        validate_choice=False,
    )

    # Who starts drawn first, right after Start (this phone remembers the choice).
    draw_first = BooleanField(_l("Draw who starts first"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seating_errors: list[str] = []

    @property
    def player_fields(self) -> list[Field]:
        return [self[f"player_{i}"] for i in range(MAX_PLAYERS)]

    def players(self) -> list[str]:
        """The names typed, in seating order, blanks skipped; names past the sixth field
        (a crafted form) are kept so the rules refuse them instead of dropping them."""
        typed = [f.data for f in self.player_fields if f.data]
        posted = request.form if has_request_context() else {}
        extra = [
            value.strip()
            for key, value in posted.items()
            if EXTRA_PLAYER.fullmatch(key) and int(key[7:]) >= MAX_PLAYERS and value.strip()
        ]
        return typed + extra

    def fit_tile_sets(self, count: int) -> None:
        """Give a table of `count` players the tile sets it needs (two for 5 or 6) when fewer
        are set."""
        needed, field = tile_sets_for(count), self["tile_sets"]
        if isinstance(field.data, int) and field.data < needed:
            field.data = needed

    def rules(self) -> dict[str, Any]:
        """The settings as the API's `rules` object."""
        return {s.name: self[s.name].data for s in declared(self.declaration)}

    def _setting_names(self) -> set[str]:
        return {s.name for s in declared(self.declaration)}

    def show_problems(self, problems: Iterable[Problem]) -> list[str]:
        """Put each problem next to its field (the seating's as a whole in `seating_errors`, above
        the names); return the ones that belong to no field."""
        filled = [f for f in self.player_fields if f.data]
        general = []
        for problem in problems:
            target = problem.field or ""
            field: Field | None = None
            if target == "players":
                self.seating_errors.append(translate(problem))
                continue
            if target.startswith("players.") and target[8:].isdigit():
                index = int(target[8:])
                field = filled[index] if index < len(filled) else None
            elif target in self._setting_names() or target in ("name", "rounds"):
                field = self[target]
            if field is None:
                general.append(translate(problem))
            else:
                add_error(field, translate(problem))
        return general


add_settings(NewSessionForm)


def with_preset(formdata: MultiDict[str, str], chosen: Settings) -> MultiDict[str, str]:
    """The submitted form with a preset's settings in place of the typed ones (no-JS path)."""
    updated = formdata.copy()
    for key, value in chosen.to_dict().items():
        updated.poplist(key)
        if key in BOOLEAN_SETTINGS:
            if value:
                updated[key] = "y"
        elif value is not None:
            updated[key] = str(value)
    return updated


def preset_values() -> dict[str, dict[str, Any]]:
    """Each preset's settings, for the page script that fills the fields on a pick."""
    return {name: settings.to_dict() for name, settings in PRESETS.items()}


def matching_preset(settings: Settings) -> str | None:
    """The preset these settings equal, if any."""
    return next((name for name, s in PRESETS.items() if s == settings), None)
