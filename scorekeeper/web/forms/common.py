"""What the forms share: the digits a number may have, whole-number fields, the fields of the
settings (from their declaration), problems put back beside their fields, the POST button."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from babel.support import Translations
from flask_babel import get_locale
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, Form, IntegerField, SelectField
from wtforms.i18n import messages_path
from wtforms.validators import InputRequired, Optional, ValidationError

from scorekeeper.rules import Setting, Settings, declared
from scorekeeper.rules.numbers import digits_for, whole_number
from scorekeeper.rules.scoring import TILES_PER_SET
from scorekeeper.rules.tiles import NUMBERS
from scorekeeper.services.bodies import LARGEST_NUMBER
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


@lru_cache(maxsize=32)
def _wtforms_words(locale: str) -> Translations:
    """WTForms' own messages in a language ("This field is required."), read once a process."""
    words = Translations.load(messages_path(), [locale], domain="wtforms")
    return words if isinstance(words, Translations) else Translations()  # none: the English


class PageForm(FlaskForm):
    """A form of the pages: Flask-WTF's (the CSRF token), WTForms' own messages in the
    phone's language."""

    class Meta:
        def get_translations(self, form: Form) -> Translations:
            return _wtforms_words(str(get_locale()))


def add_error(field: Field, message: str) -> None:
    """Show a message next to a field (WTForms keeps errors as a tuple until validated)."""
    field.errors = [*field.errors, message]


class WholeNumberField(IntegerField):
    """A whole number from `low` to `high` in ASCII digits, no more digits than its bounds have (a
    sign only when `low` is below 0); anything else is said by `message`, once."""

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
    """A setting's form field, from its declaration (rules/settings.py): a box for on/off, a list
    for choices, else a whole number within its bounds (a blank is off when it may be off)."""
    label = _l(setting.label)
    hint = _l(setting.hint) if setting.hint else ""
    if setting.kind is bool:
        return BooleanField(label, default=setting.default, description=hint)
    if setting.options:
        return SelectField(
            label,
            choices=[SelectChoice(value, _l(text)) for value, text in setting.options],
            coerce=(lambda text: seat_position(text)) if setting.kind is int else setting.kind,
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


def stripped(value: object) -> object:
    return value.strip() if isinstance(value, str) else value


def seat_position(text: object) -> int:
    """A seat's position as a form names it; a ValueError (the field's error) otherwise."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    position = whole_number(text, ID_DIGITS)
    if position is None:
        raise ValueError(text)
    return position


class ButtonForm(PageForm):
    """Only a CSRF token: the form behind every POST button (extend, undo)."""
