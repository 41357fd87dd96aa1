"""CSV export (docs/DESIGN.md 4): one session's table, and every round ever played (history)."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Entry, GameSession, Round, Seat
from scorekeeper.services.documents import Title, english_title
from scorekeeper.services.views import EntryView, SessionView

BOM = "\ufeff"
LINE_END = "\r\n"
HISTORY_HEADER = ("session", "date", "round", "player", "ending", "rack", "score")


@dataclass(frozen=True)
class TableLabels:
    """The words of the session CSV's first column; the web layer passes them translated
    (or these English ones, for spreadsheets shared across languages)."""

    round: str = "Round"
    dropped: str = "Dropped"
    total: str = "Total"


ENGLISH_LABELS = TableLabels()
# Rows fetched from the database at a time by the history export; memory stays flat.
HISTORY_CHUNK = 500

# A spreadsheet reads a cell starting with one of these as a formula (or strips it first).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# Latin letters NFKD does not take apart, so a plain ASCII file name still reads right.
ASCII_LETTERS = str.maketrans(
    {
        "ł": "l",
        "Ł": "L",
        "ø": "o",
        "Ø": "O",
        "đ": "d",
        "Đ": "D",
        "ð": "d",
        "Ð": "D",
        "ħ": "h",
        "Ħ": "H",
        "ı": "i",
        "ß": "ss",
        "æ": "ae",
        "Æ": "AE",
        "œ": "oe",
        "Œ": "OE",
        "þ": "th",
        "Þ": "TH",
    }
)

Cell = str | int | None


def text_cell(text: str) -> str:
    """Text as a spreadsheet will show it, never run: a formula-like start gets a leading '."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _csv_lines(rows: Iterable[Sequence[Cell]]) -> Iterator[str]:
    """Each row as one RFC 4180 line ending in CRLF; None is an empty cell."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=LINE_END)
    for row in rows:
        writer.writerow(["" if cell is None else cell for cell in row])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()


def session_table_rows(
    view: SessionView, labels: TableLabels = ENGLISH_LABELS
) -> Iterator[list[Cell]]:
    """The rows of the session CSV: header, one row per round, Dropped (if on), Total."""
    players = view.players
    yield [text_cell(labels.round), *(text_cell(p) for p in players)]
    for rnd in view.rounds:
        yield [rnd.number, *(_score(rnd.entries.get(p)) for p in players)]
    table = view.standings
    if view.settings.drop_worst_round:
        yield [text_cell(labels.dropped), *(table.dropped_scores.get(p) for p in players)]
    yield [text_cell(labels.total), *(table.totals[p] for p in players)]


def _score(entry: EntryView | None) -> int | None:
    return None if entry is None else entry.score


def session_csv(view: SessionView, labels: TableLabels = ENGLISH_LABELS) -> bytes:
    """The session table as a spreadsheet file: UTF-8 with BOM, commas, CRLF, RFC 4180."""
    return (BOM + "".join(_csv_lines(session_table_rows(view, labels)))).encode("utf-8")


def slug(text: str, ascii_only: bool = True) -> str:
    """Lower-case words joined by hyphens; in ASCII (ł→l, é→e) unless ascii_only is False."""
    if ascii_only:
        text = unicodedata.normalize("NFKD", text.translate(ASCII_LETTERS))
        text = text.encode("ascii", "ignore").decode("ascii")
        words = re.split(r"[^a-z0-9]+", text.lower())
    else:
        words = re.split(r"[\W_]+", unicodedata.normalize("NFC", text).lower())
    return "-".join(w for w in words if w)


def session_csv_filename(
    view: SessionView, ascii_only: bool = True, title: Title = english_title
) -> str:
    """`scorekeeper-2026-11-30-sunday.csv`: the date and the session's `title`, safe in a header;
    ascii_only=False keeps the name's own letters (`...-łódź.csv`) for `filename*=UTF-8''`."""
    name = title(view.name, view.played_on)
    parts = ["scorekeeper", view.played_on.isoformat(), slug(name, ascii_only)]
    return "-".join(p for p in parts if p) + ".csv"


def history_csv_filename(today: date | None = None) -> str:
    """`scorekeeper-history-2026-11-30.csv`, dated the day of the export."""
    return f"scorekeeper-history-{(today or date.today()).isoformat()}.csv"


def _history_query() -> sa.Select[str, date, int, str, str, int | None, int]:
    """Every entry of every round, in one statement, in the order of the file."""
    return (
        sa.select(
            GameSession.name,
            GameSession.played_on,
            Round.number,
            Seat.name,
            Round.ending,
            Entry.rack_value,
            Entry.score,
        )
        .select_from(Entry)
        .join(Round, Entry.round_id == Round.id)
        .join(Seat, Entry.seat_id == Seat.id)
        .join(GameSession, Round.session_id == GameSession.id)
        .order_by(GameSession.id, Round.number, Seat.position)
    )


def history_csv_rows(
    header: Sequence[str] = HISTORY_HEADER,
    endings: Mapping[str, str] | None = None,
    title: Title = english_title,
) -> Iterator[str]:
    """The history file line by line (BOM first): one row per player per round of every session,
    each ending as its code or in the words of `endings`, each session named by `title`."""
    result = db.session.execute(_history_query().execution_options(yield_per=HISTORY_CHUNK))
    try:
        lines = _csv_lines(_history_rows(result, header, endings or {}, title))
        yield BOM + next(lines)
        yield from lines
    finally:
        result.close()


def _history_rows(
    result: Iterable[sa.Row[*tuple[Any, ...]]],
    header: Sequence[str] = HISTORY_HEADER,
    endings: Mapping[str, str] | None = None,
    title: Title = english_title,
) -> Iterator[list[Cell]]:
    words = endings or {}
    yield [text_cell(h) for h in header]
    for name, played_on, number, player, ending, rack, score in result:
        yield [
            text_cell(title(name, played_on)),
            played_on.isoformat(),
            number,
            text_cell(player),
            words.get(ending, ending),
            rack,
            score,
        ]
