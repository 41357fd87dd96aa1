"""The HTML forms: a new session, a round (built per session), a rename, POST buttons, and
the household passphrase (sign in, set, change, remove).

Forms only turn what was typed into the bodies the services take (the API's shapes) and put
the services' problems back next to the fields they concern; the rules decide everything else.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from flask import has_request_context, request
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from wtforms import (
    BooleanField,
    Field,
    Form,
    HiddenField,
    IntegerField,
    PasswordField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import EqualTo, InputRequired, Optional, ValidationError
from wtforms.widgets import html_params

from scorekeeper.rules import (
    PRESETS,
    Problem,
    RulesError,
    Setting,
    Settings,
    declared,
    parse_tile,
    parse_tiles,
)
from scorekeeper.rules.numbers import digits_for, whole_number
from scorekeeper.rules.players import tile_sets_for
from scorekeeper.rules.scoring import RACK_DIGITS, TILES_PER_SET
from scorekeeper.rules.tiles import NUMBERS
from scorekeeper.services.bodies import LARGEST_NUMBER, MAX_ROUNDS
from scorekeeper.web.messages import translate
from scorekeeper.web.text import LazyText
from scorekeeper.web.text import lazy_text as _l

try:  # WTForms 3.3+ declares options as SelectChoice; plain tuples are deprecated there
    from wtforms.fields.choices import SelectChoice
except ImportError:  # pragma: no cover - older WTForms take (value, label) tuples

    def SelectChoice(value: Any, label: str) -> Any:  # noqa: N802
        return (value, label)


MAX_PLAYERS = 6
# The most digits each number typed on a round form may have: a paper score, a tile count.
SCORE_DIGITS = digits_for(LARGEST_NUMBER)
COUNT_DIGITS = digits_for(2 * TILES_PER_SET)
DRAWN_DIGITS = digits_for(max(NUMBERS))
# A hidden number the pages write (a round's number or version, a seat): never longer.
ID_DIGITS = 12
# A page number of a list: one past every page is an empty page, however it is written.
PAGE_DIGITS = 30
ENDING_CHOICES = ("went_out", "pool_empty", "scores")


def add_error(field: Field, message: str) -> None:
    """Show a message next to a field (WTForms keeps errors as a tuple until validated)."""
    field.errors = [*field.errors, message]


class WholeNumberField(IntegerField):
    """A whole number typed in ASCII digits (a sign only when `low` is below 0), of no more
    digits than its bounds are written in, from `low` to `high`; anything else (`²`, `١٢`,
    `1_0`, 4,400 digits) is said by `message`, once."""

    def __init__(self, label: Any, low: int, high: int, message: Any, **kwargs: Any) -> None:
        kwargs["render_kw"] = {"min": low, "max": high, **kwargs.get("render_kw", {})}
        super().__init__(label, **kwargs)
        self.low, self.high, self.message = low, high, message

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist or not str(valuelist[0]).strip():
            self.data = None
            return
        digits = digits_for(self.low, self.high)
        self.data = whole_number(str(valuelist[0]).strip(), digits, signed=self.low < 0)
        if self.data is None:
            raise ValueError(self.message)

    def pre_validate(self, form: Form) -> None:
        if self.data is not None and not self.low <= self.data <= self.high:
            raise ValidationError(self.message)


def setting_field(setting: Setting, required: Any = None) -> Any:
    """A setting's form field, from its declaration (rules/settings.py): a box for on/off,
    a list for choices, a whole number within the bounds otherwise (a blank is off when the
    setting may be off); the label and the hint (`description`) translated when shown."""
    label = _l(setting.label)
    hint = _l(setting.hint) if setting.hint else ""
    if setting.kind is bool:
        return BooleanField(label, default=setting.default, description=hint)
    if setting.options:
        return SelectField(
            label,
            choices=[SelectChoice(value, _l(text)) for value, text in setting.options],
            coerce=(lambda text: _seat(text)) if setting.kind is int else setting.kind,
            default=setting.default,
            description=hint,
        )
    given = (
        Optional() if setting.optional else InputRequired(required or _l("Enter a whole number."))
    )
    assert setting.low is not None and setting.high is not None
    return WholeNumberField(
        label,
        setting.low,
        setting.high,
        LazyText(translate, setting.out_of_range()),
        default=setting.default,
        description=hint,
        validators=[given],
    )


def add_settings(
    form_class: type[Form], names: Iterable[str] | None = None, required: Any = None
) -> None:
    """Give a form class a field for each setting of its `declaration` (or for those named)."""
    declaration: type[Settings] = getattr(form_class, "declaration", Settings)
    chosen = None if names is None else set(names)
    for setting in declared(declaration):
        if chosen is None or setting.name in chosen:
            setattr(form_class, setting.name, setting_field(setting, required))


def setting_labels(declaration: type[Settings] = Settings) -> dict[str, LazyText]:
    """Each setting's label, in the request's language when shown (the pages' label table)."""
    return {s.name: _l(s.label) for s in declared(declaration)}


SETTING_LABELS = setting_labels()
# The settings shown at once (they change the scores) and those under "More rules".
SCORING_SETTINGS = tuple(s.name for s in declared(Settings) if s.scoring)
TABLE_SETTINGS = tuple(s.name for s in declared(Settings) if not s.scoring)
BOOLEAN_SETTINGS = tuple(s.name for s in declared(Settings) if s.kind is bool)
# Typed on the phone's number pad: a whole number that is never negative and not a choice (a
# pad has no minus sign on every phone: the typo threshold keeps the keyboard).
NUMBER_PAD_SETTINGS = frozenset(
    s.name
    for s in declared(Settings)
    if s.kind is int and not s.options and s.low is not None and s.low >= 0
)


def _strip(value: object) -> object:
    return value.strip() if isinstance(value, str) else value


class ButtonForm(FlaskForm):
    """Only a CSRF token: the form behind every POST button (extend, undo)."""


class DeleteRoundForm(FlaskForm):
    """Delete a round: the version of the round the page showed, so that a delete asked for
    on a page left open never removes another round (services.rounds.delete_round)."""

    version = HiddenField()

    def round_version(self) -> int | None:
        return whole_number(self.version.data, ID_DIGITS)


# Passphrase fields: no capital letter or correction slipped in by a phone's keyboard.
_PASSPHRASE_FIELD = {"autocapitalize": "none", "autocorrect": "off", "spellcheck": "false"}


def _passphrase(label: Any, required: Any, autocomplete: str) -> PasswordField:
    return PasswordField(
        label,
        validators=[InputRequired(required)],
        render_kw={**_PASSPHRASE_FIELD, "autocomplete": autocomplete},
    )


class SignInForm(FlaskForm):
    """The household passphrase, and whether this phone keeps it for a year."""

    passphrase = _passphrase(
        _l("Household passphrase"), _l("Type the household passphrase."), "current-password"
    )
    remember = BooleanField(_l("Remember this phone"), default=True)
    next = HiddenField()


class SetPassphraseForm(FlaskForm):
    """A new passphrase, typed twice (the length rule is the access service's)."""

    passphrase = _passphrase(_l("New passphrase"), _l("Choose a passphrase."), "new-password")
    confirm = PasswordField(
        _l("The same passphrase again"),
        validators=[
            InputRequired(_l("Type the passphrase a second time.")),
            EqualTo("passphrase", _l("The two passphrases are not the same.")),
        ],
        render_kw={**_PASSPHRASE_FIELD, "autocomplete": "new-password"},
    )


class ChangePassphraseForm(SetPassphraseForm):
    """The current passphrase, then the new one twice."""

    current = _passphrase(
        _l("Current passphrase"), _l("Type the current passphrase."), "current-password"
    )


class RemovePassphraseForm(FlaskForm):
    """The current passphrase: removing it opens Scorekeeper to the whole network."""

    current = _passphrase(
        _l("Current passphrase"), _l("Type the current passphrase."), "current-password"
    )


class RenameForm(FlaskForm):
    """A player's new name; past rounds stay theirs (`position`: the seat, when the page's one
    rename form names it rather than the address)."""

    position = SelectField(_l("Player"), coerce=lambda text: _seat(text), validate_choice=False)
    name = StringField(
        _l("New name"),
        filters=[_strip],
        render_kw={"maxlength": 40, "autocomplete": "off", "autocapitalize": "words"},
    )


class NotesForm(FlaskForm):
    """The family's notes on the evening; the service checks the length and keeps the text."""

    notes = TextAreaField(_l("Notes on this evening"), render_kw={"maxlength": 2000, "rows": 4})
    # The fingerprint of the notes the text was typed over (services.sessions.notes_tag).
    notes_seen = HiddenField()


EXTRA_PLAYER = re.compile(r"player_[0-9]{1,3}")


class NewSessionForm(FlaskForm):
    """Who plays (in seating order), how many rounds, and every setting of docs/RULES.md 7
    (a field each, added from the declaration by `add_settings` below)."""

    declaration: ClassVar[type[Settings]] = Settings

    name = StringField(_l("Session name (optional)"), filters=[_strip], render_kw={"maxlength": 80})
    # The form's idempotency key: sent twice (a rematch tapped again), it makes one session.
    key = HiddenField()
    player_0 = StringField(_l("Player %(n)s", n=1), filters=[_strip])
    player_1 = StringField(_l("Player %(n)s", n=2), filters=[_strip])
    player_2 = StringField(_l("Player %(n)s", n=3), filters=[_strip])
    player_3 = StringField(_l("Player %(n)s", n=4), filters=[_strip])
    player_4 = StringField(_l("Player %(n)s", n=5), filters=[_strip])
    player_5 = StringField(_l("Player %(n)s", n=6), filters=[_strip])
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
        """Put each problem next to its field; return the ones that belong to no field.

        Problems about the seating as a whole (too many players for one tile set) go to
        `seating_errors`, shown above the names.
        """
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


def with_preset(formdata: MultiDict[str, str], preset: str) -> MultiDict[str, str]:
    """The submitted form with a preset's settings in place of the typed ones (no-JS path)."""
    chosen = PRESETS.get(preset, PRESETS["standard"])
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


class RoundForm(FlaskForm):
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
        """Put each problem next to its field, or its group (the racks, the scores), a typo's
        question with the confirmation; return the ones that belong to none, for the top of
        the page (`played_with`: the session's notation, in which the racks were typed)."""
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


def _seat(text: object) -> int:
    """A seat's position as a form names it; a ValueError (the field's error) otherwise."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    position = whole_number(text, ID_DIGITS)
    if position is None:
        raise ValueError(text)
    return position


class SeatInput:
    """A seat's field (a rack, a tile count, a paper score: up to eighteen on a round page) as
    short as HTML allows: text is an input's default type, and a blank value no attribute."""

    def __call__(self, field: Field, **kwargs: Any) -> Markup:
        value = field._value()
        if value:
            kwargs.setdefault("value", value)
        return Markup(f"<input {html_params(id=field.id, name=field.name, **kwargs)}>")


def _seat_field(label: Any) -> StringField:
    return StringField(label, filters=[_strip], widget=SeatInput())


def round_form(
    players: Sequence[str], data: Mapping[str, Any] | None = None, fresh_key: bool = True
) -> RoundForm:
    """A round form for these seats: a rack, a tile count and a paper score per player."""

    class SeatedRoundForm(RoundForm):
        pass

    for i, name in enumerate(players):
        setattr(SeatedRoundForm, f"rack_{i}", _seat_field(name))
        counted = _seat_field(_l("%(player)s: tiles left", player=name))
        setattr(SeatedRoundForm, f"count_{i}", counted)
        setattr(SeatedRoundForm, f"score_{i}", _seat_field(name))
    form = SeatedRoundForm(data=dict(data or {}))
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


SECONDS_DIGITS = next(s.digits for s in declared(Settings) if s.name == "seconds_per_turn")


class SecondsForm(FlaskForm):
    """The turn clock's Seconds per turn: a preset button (30, 60, 120) or a number typed."""

    seconds = StringField(
        SETTING_LABELS["seconds_per_turn"],
        filters=[_strip],
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


class DrawForm(FlaskForm):
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
        setattr(SeatedDrawForm, f"drawn_{i}", StringField(name, filters=[_strip]))
    form = SeatedDrawForm(**kwargs)
    form.players = tuple(players)
    return form
