"""The language a page speaks (the phone's choice, else its browser's, else English), the
language switcher, and dates and numbers in the locale's own format."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from babel.dates import format_skeleton
from babel.support import NullTranslations, Translations
from flask import (
    Blueprint,
    Flask,
    Response,
    current_app,
    g,
    has_request_context,
    redirect,
    request,
)
from flask_babel import Babel, format_date, format_decimal, get_locale, get_translations
from werkzeug.wrappers import Response as BaseResponse

from scorekeeper.web.urls import safe_next

TRANSLATIONS_DIR = Path(__file__).resolve().parent.parent / "translations"

# Each language named in itself, as the switcher shows it. English is the source language.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "da": "Dansk",
    "et": "Eesti",
    "fi": "Suomi",
    "fr": "Français",
    "pl": "Polski",
}
DEFAULT_LOCALE = "en"
#: Config: more languages the app accepts beyond LANGUAGES, {code: name in itself} (the tests'
#: pseudo-language, tests/app/test_pseudo_language.py); its catalogue must be in
#: BABEL_TRANSLATION_DIRECTORIES.
EXTRA_LANGUAGES = "EXTRA_LANGUAGES"

babel = Babel()
bp = Blueprint("i18n", __name__)


def init_app(app: Flask) -> None:
    """Bind Flask-Babel with the locale selector, the switcher's route and the template helpers."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LOCALE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS_DIR))
    babel.init_app(app, locale_selector=select_locale)
    # The templates' _(), ngettext() and pgettext(): Flask-Babel's own, but each finds the
    # catalogue in fewer steps (catalogue()); a page calls them a score of times. (The i18n
    # extension adds the method: the type checker does not see it.)
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: catalogue().ugettext(s),
        ngettext=lambda s, p, n: catalogue().ungettext(s, p, n),
        pgettext=lambda c, s: catalogue().upgettext(c, s),
        npgettext=lambda c, s, p, n: catalogue().unpgettext(c, s, p, n),
        newstyle=True,
    )
    app.register_blueprint(bp)
    app.after_request(_vary_by_language)
    app.jinja_env.filters["local_day"] = local_day
    app.jinja_env.filters["number"] = number
    app.jinja_env.globals.update(
        languages=languages,
        current_locale=current_locale,
        format_date=format_date,
        format_decimal=format_decimal,
        language_next=language_next,
        session_title=session_title,
    )


def select_locale() -> str | None:
    """The `lang` cookie set by the switcher, else the best Accept-Language match, else English."""
    if not has_request_context():
        return None  # Flask-Babel falls back to BABEL_DEFAULT_LOCALE
    chosen = request.cookies.get(_cookie_name())
    spoken = languages()
    if chosen in spoken:
        return chosen
    # The browser's languages in its order of preference, each by its primary tag: en-GB is
    # English before a second-choice Danish (werkzeug's best_match would pick the exact "da").
    for value, quality in request.accept_languages:
        primary = value.replace("_", "-").split("-")[0].lower()
        if quality > 0 and primary in spoken:
            return primary
    return DEFAULT_LOCALE


def catalogue() -> Translations | NullTranslations:
    """Flask-Babel's catalogue of this request's language (get_translations), kept on `g` for the
    rest of the request while that language is in force (force_locale may change it)."""
    locale = get_locale()
    held = g.get(_CATALOGUE)
    if held is None or held[0] is not locale:
        held = (locale, get_translations())
        setattr(g, _CATALOGUE, held)
    found: Translations | NullTranslations = held[1]
    return found


_CATALOGUE = "scorekeeper_catalogue"


def languages() -> dict[str, str]:
    """The languages this app speaks, each named in itself: LANGUAGES and any extra ones."""
    extra = current_app.config.get(EXTRA_LANGUAGES)
    return {**LANGUAGES, **extra} if extra else LANGUAGES


def current_locale() -> str:
    """The language tag of this page, for `<html lang>`: en, da, et, fi, fr or pl."""
    locale = get_locale()
    return str(locale.language) if locale is not None else DEFAULT_LOCALE


@bp.post("/language")
def set_language() -> BaseResponse:
    """Remember the language picked in the footer on this phone for a year, then go back."""
    target = safe_next(request.form.get("next"))
    response = redirect(target, code=303)
    chosen = request.form.get("lang", "")
    if chosen in languages():
        response.set_cookie(
            _cookie_name(),
            chosen,
            max_age=int(current_app.config["LANGUAGE_COOKIE_MAX_AGE"]),
            samesite="Lax",
            secure=request.is_secure,
            httponly=True,
        )
    return response


def language_next() -> str:
    """Where the switcher sends the phone back to: this page (a GET of it) on this site."""
    if request.query_string:
        return f"{request.path}?{request.query_string.decode('utf-8', 'replace')}"
    return request.path


def local_day(played_on: date) -> str:
    """A session's date as the family reads it: `Sun 30 Nov 2025` in English, the locale's
    own abbreviated weekday-day-month-year form elsewhere (`søn. 30. nov. 2025`)."""
    locale = get_locale()
    if locale is None or locale.language == "en":
        return format_date(played_on, "EEE d MMM y")
    return format_skeleton("yMMMEd", played_on, locale=locale)


#: How a session made without a name is called: its day, "Tuesday 1 December" ("tirsdag 1
#: december"), always in the reader's language; the name is stored as "". Migration 0012
#: cleared the names stored in this form before (it keeps its own copy of the pattern).
DAY_NAME = "EEEE d MMMM"


def session_title(name: str, played_on: date) -> str:
    """A session's name, or for one made without a name its day in the reader's language."""
    return name or format_date(played_on, DAY_NAME)


def local_time(moment: datetime) -> str:
    """A stored instant (naive UTC) as this server's clock shows it: `19:30`."""
    return moment.replace(tzinfo=UTC).astimezone().strftime("%H:%M")


def number(value: float | int, fraction_digits: int | None = None, signed: bool = False) -> str:
    """A number in the locale's digits and separators (1,234.5 / 1 234,5); `signed` adds +."""
    if fraction_digits is None:
        text = format_decimal(value)
    else:
        pattern = "#,##0." + "0" * fraction_digits if fraction_digits else "#,##0"
        text = format_decimal(value, format=pattern)
    if signed and value >= 0:
        return "+" + text
    return text


def _vary_by_language(response: Response) -> Response:
    """A page (or an API answer: its messages) is in the phone's language: caches must key it
    by the header and the cookie."""
    if response.mimetype in ("text/html", "application/json"):
        # One write of the header (response.vary parses and rewrites it on every add); Flask
        # adds Cookie itself when the session was read, without repeating it.
        vary = response.headers.get("Vary")
        response.headers["Vary"] = f"{vary}, {LANGUAGE_VARY}" if vary else LANGUAGE_VARY
    return response


LANGUAGE_VARY = "Accept-Language, Cookie"


def _cookie_name() -> str:
    return str(current_app.config["LANGUAGE_COOKIE_NAME"])
