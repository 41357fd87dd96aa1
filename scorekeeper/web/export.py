"""CSV downloads: the services build the files (services/export.py); these views only send them."""

from __future__ import annotations

from urllib.parse import quote

from flask import Blueprint, Response, request, stream_with_context
from flask_babel import gettext, pgettext

from scorekeeper.services import export
from scorekeeper.services.views import get_session
from scorekeeper.web.i18n import current_locale, session_title

bp = Blueprint("export", __name__)

CSV_TYPE = "text/csv; charset=utf-8"
# RFC 5987 attr-char: what may stand unescaped in filename*=UTF-8''...
ATTR_CHARS = "!#$&+-.^_`|~"


def english_labels() -> bool:
    """`?labels=en` keeps the header row in English, for spreadsheets shared across languages."""
    return request.args.get("labels", "").strip().lower() == "en"


def table_labels() -> export.TableLabels:
    """The first column's words in the request's language (or English with `?labels=en`)."""
    if english_labels():
        return export.ENGLISH_LABELS
    return export.TableLabels(
        round=gettext("Round"), dropped=gettext("Dropped"), total=gettext("Total")
    )


def history_header() -> tuple[str, ...]:
    """The history file's header row in the request's language (or English, `?labels=en`)."""
    if english_labels():
        return export.HISTORY_HEADER
    return (
        pgettext("history CSV heading", "session"),
        pgettext("history CSV heading", "date"),
        pgettext("history CSV heading", "round"),
        pgettext("history CSV heading", "player"),
        pgettext("history CSV heading", "ending"),
        pgettext("history CSV heading", "rack"),
        pgettext("history CSV heading", "score"),
    )


def history_endings() -> dict[str, str]:
    """How each round ended, in the request's language; in English (and with `?labels=en`)
    the file keeps the codes it always had (went_out, pool_empty, scores)."""
    if english_labels() or current_locale() == "en":
        return {}
    return {
        "went_out": pgettext("history CSV ending", "went out"),
        "pool_empty": pgettext("history CSV ending", "pool empty"),
        "scores": pgettext("history CSV ending", "scores as on paper"),
    }


def _as_attachment(response: Response, filename: str, unicode_filename: str | None = None) -> None:
    """Content-Disposition: attachment with an ASCII filename, plus filename* when it differs."""
    names: dict[str, str] = {"filename": filename}
    if unicode_filename and unicode_filename != filename:
        names["filename*"] = "UTF-8''" + quote(unicode_filename, safe=ATTR_CHARS)
    response.headers.set("Content-Disposition", "attachment", **names)
    response.headers["X-Content-Type-Options"] = "nosniff"  # a file to save, never a page


@bp.get("/sessions/<int:session_id>/export.csv")
def session_csv(session_id: int) -> Response:
    """One session's table as a spreadsheet file."""
    view = get_session(session_id)
    response = Response(export.session_csv(view, table_labels()), content_type=CSV_TYPE)
    _as_attachment(
        response,
        export.session_csv_filename(view, title=session_title),
        export.session_csv_filename(view, ascii_only=False, title=session_title),
    )
    return response


@bp.get("/export.csv")
def history_csv() -> Response:
    """Every round of every session, streamed as it is read from the database."""
    rows = export.history_csv_rows(history_header(), history_endings(), session_title)
    response = Response(stream_with_context(rows), content_type=CSV_TYPE)
    _as_attachment(response, export.history_csv_filename())
    return response
