"""CSV export (docs/DESIGN.md 4) at byte level: BOM, CRLF, RFC 4180, formula-injection quoting."""

from __future__ import annotations

import csv
import io
import re
from datetime import date
from typing import Any

import pytest
import sqlalchemy as sa
from factories import paper, sql_sent, went_out
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.models import Seat
from scorekeeper.rules import RulesError
from scorekeeper.services import export
from scorekeeper.services.rounds import add_round
from scorekeeper.services.sessions import create_session
from scorekeeper.services.views import get_session

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

BOM = b"\xef\xbb\xbf"
PLAYED_ON = date(2026, 11, 30)
FOUR = ["Ann", "Bo", "Cy", "Di"]
ANN_WENT_OUT = went_out("Ann", Bo=22, Cy=55, Di=8)


def recorded_session(
    app: Flask,
    players: list[str],
    rounds: list[dict[str, Any]],
    name: str | None = "Sunday",
    rules: dict[str, Any] | None = None,
    planned: int = 3,
) -> int:
    """A session made through the services, with its rounds recorded; returns its id."""
    with app.app_context():
        view = create_session(players, name, planned, rules, played_on=PLAYED_ON)
        for body in rounds:
            add_round(view.id, body)
        return view.id


def rename_seat(app: Flask, session_id: int, position: int, name: str) -> None:
    """Store a name the services would refuse (tab, CR), as an older or hand-edited row might."""
    with app.app_context():
        db.session.execute(
            sa.update(Seat)
            .where(Seat.session_id == session_id, Seat.position == position)
            .values(name=name)
        )
        db.session.commit()


def download(client: FlaskClient, session_id: int) -> bytes:
    response = client.get(f"/sessions/{session_id}/export.csv")
    assert response.status_code == 200
    return response.data


def csv_rows(body: bytes) -> list[list[str]]:
    """The file as a spreadsheet reads it."""
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))


def assert_crlf_lines(body: bytes) -> None:
    """Every line ends in CRLF: no bare LF, and the file ends with one."""
    assert body.endswith(b"\r\n")
    assert b"\n" not in body.replace(b"\r\n", b"")


# --- one session -------------------------------------------------------------------------


def test_session_csv_exact_bytes(app: Flask, client: FlaskClient) -> None:
    session_id = recorded_session(app, FOUR, [ANN_WENT_OUT])

    body = download(client, session_id)

    assert body == (b"\xef\xbb\xbfRound,Ann,Bo,Cy,Di\r\n1,85,-22,-55,-8\r\nTotal,85,-22,-55,-8\r\n")
    assert body.startswith(BOM)
    assert_crlf_lines(body)


def test_session_with_no_rounds_has_header_and_zero_totals(app: Flask, client: FlaskClient) -> None:
    session_id = recorded_session(app, ["Ann", "Bo"], [])

    assert download(client, session_id) == BOM + b"Round,Ann,Bo\r\nTotal,0,0\r\n"


def test_headers_content_type_and_file_name(app: Flask, client: FlaskClient) -> None:
    session_id = recorded_session(app, FOUR, [ANN_WENT_OUT], name="Sunday")

    response = client.get(f"/sessions/{session_id}/export.csv")

    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=scorekeeper-2026-11-30-sunday.csv"
    )


def test_file_name_keeps_the_real_name_in_filename_star(app: Flask, client: FlaskClient) -> None:
    session_id = recorded_session(app, FOUR, [], name='Łódź "after" Søren\'s / party')

    response = client.get(f"/sessions/{session_id}/export.csv")

    disposition = response.headers["Content-Disposition"]
    assert disposition == (
        "attachment; filename=scorekeeper-2026-11-30-lodz-after-soren-s-party.csv; "
        "filename*=UTF-8''scorekeeper-2026-11-30-%C5%82%C3%B3d%C5%BA-after-s%C3%B8ren-s-party.csv"
    )
    assert disposition.isascii()


def test_file_name_without_letters_keeps_the_date() -> None:
    class Named:
        name = "!!!"
        played_on = PLAYED_ON

    assert export.session_csv_filename(Named()) == "scorekeeper-2026-11-30.csv"  # type: ignore[arg-type]


def test_unknown_session_is_404(app: Flask, client: FlaskClient) -> None:
    recorded_session(app, FOUR, [ANN_WENT_OUT])

    assert client.get("/sessions/999/export.csv").status_code == 404
    assert client.get("/sessions/abc/export.csv").status_code == 404
    assert client.get(f"/sessions/{2**63}/export.csv").status_code == 404  # no driver overflow


def test_names_with_polish_estonian_and_danish_letters_survive(
    app: Flask, client: FlaskClient
) -> None:
    players = ["Łucja", "Põld", "Søren", "Zoë"]
    session_id = recorded_session(
        app,
        players,
        [{"ending": "scores", "scores": dict(zip(players, [30, -10, -15, -5], strict=True))}],
    )

    body = download(client, session_id)

    assert body.startswith(BOM)
    assert "Round,Łucja,Põld,Søren,Zoë\r\n".encode() in body
    assert csv_rows(body) == [
        ["Round", *players],
        ["1", "30", "-10", "-15", "-5"],
        ["Total", "30", "-10", "-15", "-5"],
    ]


def test_formula_like_names_get_a_leading_quote_but_numbers_never(
    app: Flask, client: FlaskClient
) -> None:
    players = ["=cmd", "+one", "-Bo", "@sum", "Tab", "Cr"]
    session_id = recorded_session(
        app,
        players,
        [
            {
                "ending": "went_out",
                "winner": "=cmd",
                "racks": {"+one": 5, "-Bo": 22, "@sum": 3, "Tab": 1, "Cr": 2},
            }
        ],
        rules={"tile_sets": 2},
    )
    rename_seat(app, session_id, 4, "\tTab")
    rename_seat(app, session_id, 5, "\rCr")

    body = download(client, session_id)

    assert body == BOM + (
        b"Round,'=cmd,'+one,'-Bo,'@sum,'\tTab,\"'\rCr\"\r\n"
        b"1,33,-5,-22,-3,-1,-2\r\n"
        b"Total,33,-5,-22,-3,-1,-2\r\n"
    )
    header, first, _total = csv_rows(body)
    assert header[1:] == ["'=cmd", "'+one", "'-Bo", "'@sum", "'\tTab", "'\rCr"]
    assert first[3] == "-22"


def test_comma_and_double_quote_are_rfc_4180_quoted(app: Flask, client: FlaskClient) -> None:
    players = ['Bo "the Bear", Jr', "=SUM(A1,B1)", "Cy"]
    session_id = recorded_session(
        app,
        players,
        [{"ending": "went_out", "winner": "Cy", "racks": {players[0]: 4, players[1]: 6}}],
    )

    body = download(client, session_id)

    assert body.startswith(BOM + b'Round,"Bo ""the Bear"", Jr","\'=SUM(A1,B1)",Cy\r\n')
    assert csv_rows(body)[0] == ["Round", 'Bo "the Bear", Jr', "'=SUM(A1,B1)", "Cy"]


def test_drop_worst_round_adds_dropped_row_and_totals_after_the_drop(
    app: Flask, client: FlaskClient
) -> None:
    second = {"ending": "scores", "scores": {"Ann": -10, "Bo": 30, "Cy": -5, "Di": -15}}
    session_id = recorded_session(
        app, FOUR, [ANN_WENT_OUT, second], rules={"drop_worst_round": True}
    )

    body = download(client, session_id)

    assert body == BOM + (
        b"Round,Ann,Bo,Cy,Di\r\n"
        b"1,85,-22,-55,-8\r\n"
        b"2,-10,30,-5,-15\r\n"
        b"Dropped,-10,-22,-55,-15\r\n"
        b"Total,85,30,-5,-8\r\n"
    )
    with app.app_context():
        assert get_session(session_id).standings.totals == {"Ann": 85, "Bo": 30, "Cy": -5, "Di": -8}


def test_drop_worst_round_with_one_round_leaves_the_dropped_cells_empty(
    app: Flask, client: FlaskClient
) -> None:
    session_id = recorded_session(app, FOUR, [ANN_WENT_OUT], rules={"drop_worst_round": True})

    assert download(client, session_id) == BOM + (
        b"Round,Ann,Bo,Cy,Di\r\n1,85,-22,-55,-8\r\nDropped,,,,\r\nTotal,85,-22,-55,-8\r\n"
    )


def test_no_dropped_row_when_drop_worst_round_is_off(app: Flask, client: FlaskClient) -> None:
    second = {"ending": "scores", "scores": {"Ann": -10, "Bo": 30, "Cy": -5, "Di": -15}}
    session_id = recorded_session(app, FOUR, [ANN_WENT_OUT, second])

    body = download(client, session_id)

    assert b"Dropped" not in body
    assert body.endswith(b"\r\n2,-10,30,-5,-15\r\nTotal,75,8,-60,-23\r\n")


# --- the Polish score sheet (seeds/001): "Przykład zapisu" -------------------------------

SHEET_PLAYERS = ["Gracz A", "Gracz B", "Gracz C", "Gracz D"]
SHEET_ROUNDS = [[24, -5, -16, -3], [6, -11, 22, -5], [-32, -13, -2, 47]]


def sheet(scores: list[int]) -> dict[str, Any]:
    """A row of the score sheet as a round body."""
    return paper(**dict(zip(SHEET_PLAYERS, scores, strict=True)))


def test_polish_score_sheet_as_paper_scores(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        view = create_session(SHEET_PLAYERS, "Przykład zapisu", 3, None, played_on=PLAYED_ON)
        add_round(view.id, sheet(SHEET_ROUNDS[0]))
        with pytest.raises(RulesError) as refused:
            add_round(view.id, sheet(SHEET_ROUNDS[1]))  # as printed: adds up to +12
        assert refused.value.code == "zero_sum"
        add_round(view.id, sheet([-6, -11, 22, -5]))  # A lost 6: the sign was missing
        add_round(view.id, sheet(SHEET_ROUNDS[2]))
        session_id = view.id

    response = client.get(f"/sessions/{session_id}/export.csv")

    assert response.data == BOM + (
        b"Round,Gracz A,Gracz B,Gracz C,Gracz D\r\n"
        b"1,24,-5,-16,-3\r\n"
        b"2,-6,-11,22,-5\r\n"
        b"3,-32,-13,-2,47\r\n"
        b"Total,-14,-29,4,39\r\n"
    )
    assert response.headers["Content-Disposition"] == (
        "attachment; filename=scorekeeper-2026-11-30-przyklad-zapisu.csv; "
        "filename*=UTF-8''scorekeeper-2026-11-30-przyk%C5%82ad-zapisu.csv"
    )


# --- the history -------------------------------------------------------------------------


def two_sessions(app: Flask) -> tuple[int, int]:
    first = recorded_session(
        app,
        FOUR,
        [
            ANN_WENT_OUT,
            {
                "ending": "pool_empty",
                "racks": {"Ann": 10, "Bo": 22, "Cy": 55, "Di": 8},
                "tile_counts": {"Ann": 3, "Bo": 5, "Cy": 9, "Di": 2},
            },
        ],
        name='=HYPERLINK("http://evil")',
    )
    second = recorded_session(
        app,
        ["<script>alert(1)</script>", "=cmd", "Łucja"],
        [
            {
                "ending": "went_out",
                "winner": "Łucja",
                "racks": {"<script>alert(1)</script>": 7, "=cmd": 12},
            }
        ],
        name="Łódź, Monday",
    )
    return first, second


def test_history_has_one_row_per_player_per_round(app: Flask, client: FlaskClient) -> None:
    two_sessions(app)

    response = client.get("/export.csv")

    assert response.is_streamed
    body = response.data
    assert body.startswith(BOM + b"session,date,round,player,ending,rack,score\r\n")
    assert_crlf_lines(body)
    evil = '\'=HYPERLINK("http://evil")'
    assert csv_rows(body) == [
        ["session", "date", "round", "player", "ending", "rack", "score"],
        [evil, "2026-11-30", "1", "Ann", "went_out", "", "85"],
        [evil, "2026-11-30", "1", "Bo", "went_out", "22", "-22"],
        [evil, "2026-11-30", "1", "Cy", "went_out", "55", "-55"],
        [evil, "2026-11-30", "1", "Di", "went_out", "8", "-8"],
        [evil, "2026-11-30", "2", "Ann", "pool_empty", "10", "-2"],
        [evil, "2026-11-30", "2", "Bo", "pool_empty", "22", "-14"],
        [evil, "2026-11-30", "2", "Cy", "pool_empty", "55", "-47"],
        [evil, "2026-11-30", "2", "Di", "pool_empty", "8", "63"],
        ["Łódź, Monday", "2026-11-30", "1", "<script>alert(1)</script>", "went_out", "7", "-7"],
        ["Łódź, Monday", "2026-11-30", "1", "'=cmd", "went_out", "12", "-12"],
        ["Łódź, Monday", "2026-11-30", "1", "Łucja", "went_out", "", "19"],
    ]


def test_history_is_harmless_to_browsers_and_spreadsheets(app: Flask, client: FlaskClient) -> None:
    two_sessions(app)

    response = client.get("/export.csv")

    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    disposition = response.headers["Content-Disposition"]
    assert re.fullmatch(
        r"attachment; filename=scorekeeper-history-\d{4}-\d{2}-\d{2}\.csv", disposition
    )
    for row in csv_rows(response.data)[1:]:
        assert not row[0].startswith(export.FORMULA_STARTS)
        assert not row[3].startswith(export.FORMULA_STARTS)
    assert b'"\'=HYPERLINK(""http://evil"")"' in response.data


def test_history_file_name_is_dated() -> None:
    assert export.history_csv_filename(PLAYED_ON) == "scorekeeper-history-2026-11-30.csv"


def test_history_of_no_sessions_is_just_the_header(client: FlaskClient) -> None:
    response = client.get("/export.csv")

    assert response.data == BOM + b"session,date,round,player,ending,rack,score\r\n"


def test_history_reads_in_chunks_with_the_same_statements_for_any_history(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(export, "HISTORY_CHUNK", 3)  # several chunks even for a small history
    two_sessions(app)
    with sql_sent(app) as small, app.app_context():
        small_lines = list(export.history_csv_rows())
    for _ in range(3):
        two_sessions(app)
    with sql_sent(app) as large, app.app_context():
        large_lines = list(export.history_csv_rows())

    assert len(small_lines) == 1 + 11
    assert len(large_lines) == 1 + 4 * 11
    assert all(line.endswith("\r\n") and line.count("\r\n") == 1 for line in large_lines)
    selects = [s for s in large if s.lstrip().upper().startswith("SELECT")]
    assert len(selects) == 1
    assert len(large) == len(small)


def test_history_is_a_lazy_generator(app: Flask) -> None:
    two_sessions(app)
    with sql_sent(app) as statements, app.app_context():
        lines = export.history_csv_rows()
        assert statements == []  # nothing read until the response is sent
        assert next(lines).startswith("\ufeffsession,")
        assert next(lines).startswith('"\'=HYPERLINK(""http://evil"")",2026-11-30,1,Ann,')
        lines.close()
