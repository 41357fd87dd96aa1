"""CSV downloads: the services build the files (services/export.py); these views only send them."""

from __future__ import annotations

from urllib.parse import quote

from flask import Blueprint, Response, abort, stream_with_context

from scorekeeper.services import export
from scorekeeper.services.errors import NotFound
from scorekeeper.services.sessions import get_session

bp = Blueprint("export", __name__)

CSV_TYPE = "text/csv; charset=utf-8"
# RFC 5987 attr-char: what may stand unescaped in filename*=UTF-8''...
ATTR_CHARS = "!#$&+-.^_`|~"


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
    try:
        view = get_session(session_id)
    except NotFound:
        abort(404)
    response = Response(export.session_csv(view), content_type=CSV_TYPE)
    _as_attachment(
        response,
        export.session_csv_filename(view),
        export.session_csv_filename(view, ascii_only=False),
    )
    return response


@bp.get("/export.csv")
def history_csv() -> Response:
    """Every round of every session, streamed as it is read from the database."""
    response = Response(stream_with_context(export.history_csv_rows()), content_type=CSV_TYPE)
    _as_attachment(response, export.history_csv_filename())
    return response
