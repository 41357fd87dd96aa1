"""The round form (built per session: a rack, a score or a tile count a seat) and Delete."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup
from wtforms import BooleanField, Field, HiddenField, RadioField, StringField
from wtforms.widgets import html_params

from scorekeeper.rules import Problem, RulesError, parse_tile, parse_tiles
from scorekeeper.rules.numbers import whole_number
from scorekeeper.rules.scoring import RACK_DIGITS
from scorekeeper.web.forms.common import (
    COUNT_DIGITS,
    ID_DIGITS,
    SCORE_DIGITS,
    PageForm,
    SelectChoice,
    add_error,
    stripped,
)
from scorekeeper.web.messages import translate
from scorekeeper.web.text import lazy_text as _l


class DeleteRoundForm(PageForm):
    """Delete a round: the version of the round the page showed, so that a delete asked for
    on a page left open never removes another round (services.rounds.delete_round)."""

    version = HiddenField()

    def round_version(self) -> int | None:
        return whole_number(self.version.data, ID_DIGITS)


class RoundForm(PageForm):
    """How one round ended; the per-seat fields are added by `round_form`."""

    ending = HiddenField(default="went_out")
    winner = RadioField(_l("Who went out?"), choices=[], validate_choice=False)
    key = HiddenField()
    # Which round a new round means, and which version of a round an edit was made from:
    # two phones saving "round 3" at once, or editing one round, are told rather than lost.
    number = HiddenField()
    version = HiddenField()
    confirm = BooleanField(_l("Yes, keep these entries"))

    players: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.racks_errors: list[str] = []
        self.scores_errors: list[str] = []
        self.typo_questions: list[str] = []  # "Bo: 190 on the rack, more than 180. Right?"

    def seat_field(self, kind: str, index: int) -> Field:
        return self[f"{kind}_{index}"]

    def winner_name(self) -> str | None:
        index = whole_number(self.winner.data, ID_DIGITS)
        return self.players[index] if index is not None and index < len(self.players) else None

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        """The CSRF token, plus whole numbers where only whole numbers make sense."""
        valid = super().validate(extra_validators)
        kinds = ("score",) if self.ending.data == "scores" else ("count",)
        for i in range(len(self.players)):
            for kind in kinds:
                field = self.seat_field(kind, i)
                if field.data and _typed_number(field.data, kind) is None:
                    add_error(
                        field,
                        _(
                            "%(player)s: a score is a whole number, like -12 or 24.",
                            player=self.players[i],
                        )
                        if kind == "score"
                        else _(
                            "%(player)s: a tile count is a whole number.", player=self.players[i]
                        ),
                    )
                    valid = False
        return valid

    def to_body(self) -> dict[str, Any]:
        """The round as the API's body; a blank is left out, so the rules call it missing."""
        ending = self.ending.data or "went_out"
        body: dict[str, Any] = {"ending": ending, "confirm": bool(self.confirm.data)}
        if self.key.data:
            body["key"] = self.key.data
        for name in ("number", "version"):
            if (value := whole_number(self[name].data, ID_DIGITS)) is not None:
                body[name] = value
        if ending == "scores":
            body["scores"] = {
                name: _typed_number(self.seat_field("score", i).data, "score")
                for i, name in enumerate(self.players)
                if self.seat_field("score", i).data
            }
            return body
        winner = self.winner_name()
        if winner is not None or (ending == "went_out" and self.winner.data):
            body["winner"] = winner or self.winner.data
        racks: dict[str, int | str] = {}
        counts: dict[str, int] = {}
        for i, name in enumerate(self.players):
            rack = self.seat_field("rack", i).data
            if rack:
                # A number is the rack's value; any other text (tiles, or more digits than a
                # rack is worth) is the rules' to read and to refuse.
                value = whole_number(_minus(rack), RACK_DIGITS, signed=True)
                racks[name] = rack if value is None else value
            count = _typed_number(self.seat_field("count", i).data, "count")
            if count is not None and ending == "pool_empty":
                counts[name] = count
        body["racks"] = racks
        if counts:
            body["tile_counts"] = counts
        return body

    def show_problems(
        self, problems: Iterable[Problem], body: Mapping[str, Any], played_with: str = "tiles"
    ) -> list[str]:
        """Put each problem next to its field or group (the racks, the scores), a typo's question
        with the confirmation; return the ones that belong to none, for the top of the page."""
        general = []
        ending = body.get("ending")
        racks = body.get("racks") or {}
        for problem in problems:
            if problem.code == "confirm_required":
                self.typo_questions.append(translate(problem))
                continue
            field = self._field_for(problem, ending, racks)
            holders = self._racks_holding(problem, racks, played_with)
            if field is not None:
                add_error(field, translate(problem))
            elif holders:
                for holder in holders:
                    add_error(holder, translate(problem))
            elif problem.field == "scores" and ending == "scores":
                self.scores_errors.append(translate(problem))
            elif problem.field == "racks" or problem.code in ("tile_supply", "bad_tile"):
                self.racks_errors.append(translate(problem))
            else:
                general.append(translate(problem))
        return general

    def _racks_holding(
        self, problem: Problem, racks: Mapping[str, Any], played_with: str
    ) -> list[Field]:
        """The rack fields holding the tile a supply problem names (`r7`, `j`: its field is
        in tile notation, whatever the session plays with)."""
        if problem.code != "tile_supply" or not problem.field:
            return []
        try:
            wanted = parse_tile(problem.field)
        except RulesError:
            return []
        holders = []
        for i, name in enumerate(self.players):
            try:
                tiles = (
                    parse_tiles(racks[name], played_with)
                    if isinstance(racks.get(name), str)
                    else []
                )
            except RulesError:
                continue
            if wanted in tiles:
                holders.append(self.seat_field("rack", i))
        return holders

    def racks_in_letters(self) -> bool:
        """Whether a rack holds tiles in letters: then the phone's keyboard must offer letters."""
        return any(
            re.search(r"[^\d\s+\-\u2212\u2013]", self.seat_field("rack", i).data or "")
            for i in range(len(self.players))
        )

    def _field_for(
        self, problem: Problem, ending: object, racks: Mapping[str, Any]
    ) -> Field | None:
        target = problem.field
        if target == "winner":
            return self.winner
        if target in self.players:
            index = self.players.index(target)
            if ending == "scores":
                return self.seat_field("score", index)
            if problem.code == "bad_tile_count" or (
                problem.code == "missing_player" and target in racks
            ):
                return self.seat_field("count", index)
            return self.seat_field("rack", index)
        return None


def _minus(text: str) -> str:
    """Phones type the minus sign in many ways: a typographic minus, a dash, spaces."""
    return text.replace("\u2212", "-").replace("\u2013", "-").replace(" ", "")


def _typed_number(text: str | None, kind: str) -> int | None:
    """A paper score or a tile count as typed (a sign allowed: the rules refuse a count below
    0 in their words), or None."""
    digits = SCORE_DIGITS if kind == "score" else COUNT_DIGITS
    return whole_number(_minus(text or ""), digits, signed=True)


class SeatInput:
    """A seat's field (a rack, a tile count, a paper score: up to eighteen on a round page) as
    short as HTML allows: text is an input's default type, and a blank value no attribute."""

    def __call__(self, field: Field, **kwargs: Any) -> Markup:
        value = field._value()
        if value:
            kwargs.setdefault("value", value)
        return Markup(f"<input {html_params(id=field.id, name=field.name, **kwargs)}>")


def _seat_field(label: Any) -> StringField:
    return StringField(label, filters=[stripped], widget=SeatInput())


@lru_cache(maxsize=256)
def _seated(players: tuple[str, ...]) -> type[RoundForm]:
    """The form class of these seats, made once a process (its labels are lazy, so one class
    serves every language)."""

    class SeatedRoundForm(RoundForm):
        pass

    for i, name in enumerate(players):
        setattr(SeatedRoundForm, f"rack_{i}", _seat_field(name))
        counted = _seat_field(_l("%(player)s: tiles left", player=name))
        setattr(SeatedRoundForm, f"count_{i}", counted)
        setattr(SeatedRoundForm, f"score_{i}", _seat_field(name))
    return SeatedRoundForm


def round_form(
    players: Sequence[str], data: Mapping[str, Any] | None = None, fresh_key: bool = True
) -> RoundForm:
    """A round form for these seats: a rack, a tile count and a paper score per player."""
    form = _seated(tuple(players))(data=dict(data or {}))
    form.players = tuple(players)
    form.winner.choices = [SelectChoice(str(i), name) for i, name in enumerate(players)]
    if fresh_key and not form.key.data:
        form.key.data = uuid.uuid4().hex
    return form


def round_form_data(body: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """A stored round's body as the form's values, so an edit shows what was typed."""
    data: dict[str, Any] = {"ending": body.get("ending", "went_out")}
    if body.get("winner") in players:
        data["winner"] = str(players.index(body["winner"]))
    for kind, key in (("rack", "racks"), ("count", "tile_counts"), ("score", "scores")):
        for name, value in (body.get(key) or {}).items():
            if name in players:
                shown = " ".join(value) if isinstance(value, list) else str(value)
                data[f"{kind}_{players.index(name)}"] = shown
    data["confirm"] = bool(body.get("confirm"))
    return data
