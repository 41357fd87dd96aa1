"""The household passphrase's forms: sign in, set, change, remove."""

from __future__ import annotations

from typing import Any

from wtforms import BooleanField, HiddenField, PasswordField
from wtforms.validators import EqualTo, InputRequired

from scorekeeper.web.forms.common import PageForm
from scorekeeper.web.text import lazy_text as _l

# Passphrase fields: no capital letter or correction slipped in by a phone's keyboard.
_PASSPHRASE_FIELD = {"autocapitalize": "none", "autocorrect": "off", "spellcheck": "false"}


def _passphrase(label: Any, required: Any, autocomplete: str) -> PasswordField:
    return PasswordField(
        label,
        validators=[InputRequired(required)],
        render_kw={**_PASSPHRASE_FIELD, "autocomplete": autocomplete},
    )


class SignInForm(PageForm):
    """The household passphrase, and whether this phone keeps it for a year."""

    passphrase = _passphrase(
        _l("Household passphrase"), _l("Type the household passphrase."), "current-password"
    )
    remember = BooleanField(_l("Remember this phone"), default=True)
    next = HiddenField()


class SetPassphraseForm(PageForm):
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


class RemovePassphraseForm(PageForm):
    """The current passphrase: removing it opens Scorekeeper to the whole network."""

    current = _passphrase(
        _l("Current passphrase"), _l("Type the current passphrase."), "current-password"
    )
