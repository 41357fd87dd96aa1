"""The turn clock's forms: the seconds per turn, and the draw of who starts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from wtforms import HiddenField, StringField
from wtforms.validators import InputRequired

from scorekeeper.rules import Settings, declared
from scorekeeper.rules.numbers import whole_number
from scorekeeper.rules.tiles import NUMBERS
from scorekeeper.web.forms.common import (
    DRAWN_DIGITS,
    ID_DIGITS,
    SETTING_LABELS,
    PageForm,
    add_error,
    stripped,
)
from scorekeeper.web.text import lazy_text as _l

SECONDS_DIGITS = next(s.digits for s in declared(Settings) if s.name == "seconds_per_turn")


class SecondsForm(PageForm):
    """The turn clock's Seconds per turn: a preset button (30, 60, 120) or a number typed."""

    seconds = StringField(
        SETTING_LABELS["seconds_per_turn"],
        filters=[stripped],
        validators=[
            InputRequired(_l("Enter the seconds per turn, like 60 (0 turns the clock off)."))
        ],
        render_kw={"inputmode": "numeric", "autocomplete": "off", "maxlength": 5},
    )

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        valid = super().validate(extra_validators)
        if valid and self.value() is None:
            add_error(self.seconds, _("Seconds per turn is a whole number, like 60."))
            valid = False
        return valid

    def value(self) -> int | None:
        """The seconds typed: ASCII digits, no more than the setting's bounds are written in."""
        return whole_number(self.seconds.data, SECONDS_DIGITS)


class DrawForm(PageForm):
    """Who starts: the number of the tile each player drew; `drawing` names the seats still
    drawing after a tie (blank: everyone)."""

    drawing = HiddenField()
    players: tuple[str, ...] = ()

    def seats_drawing(self) -> list[int]:
        """The seats whose draw counts: everyone, or only the players who tied last time."""
        raw = (self.drawing.data or "").split(",")
        seats = (whole_number(s, ID_DIGITS) for s in raw)
        chosen = sorted({i for i in seats if i is not None and i < len(self.players)})
        return chosen if len(chosen) > 1 else list(range(len(self.players)))

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        valid = super().validate(extra_validators)
        for i in self.seats_drawing():
            field = self[f"drawn_{i}"]
            if not field.data:
                add_error(
                    field,
                    _("%(player)s: enter the number of the tile drawn.", player=self.players[i]),
                )
                valid = False
            elif whole_number(field.data, DRAWN_DIGITS) not in NUMBERS:
                add_error(
                    field,
                    _("%(player)s: a drawn tile is numbered 1 to 13.", player=self.players[i]),
                )
                valid = False
        return valid

    def drawn(self) -> dict[str, int]:
        """Each drawing player's number, in seating order (after `validate`)."""
        drawn = {
            i: whole_number(self[f"drawn_{i}"].data, DRAWN_DIGITS) for i in self.seats_drawing()
        }
        return {self.players[i]: number for i, number in drawn.items() if number is not None}


def draw_form(players: Sequence[str], **kwargs: Any) -> DrawForm:
    """A who-starts form for these seats: one drawn number per player (kwargs: FlaskForm's)."""

    class SeatedDrawForm(DrawForm):
        pass

    for i, name in enumerate(players):
        setattr(SeatedDrawForm, f"drawn_{i}", StringField(name, filters=[stripped]))
    form = SeatedDrawForm(**kwargs)
    form.players = tuple(players)
    return form
