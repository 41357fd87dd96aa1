"""Seat lines: the line each seat keeps of its session's table (total, won, rounds won, the
sum, best and worst of its round scores) stays what the whole table gives, through every kind
of write, a backup import and migration 0006; the players' statistics read nothing else."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from factories import two_evenings, went_out, wipe
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import Seat
from scorekeeper.services import backup, lists, rounds, sessions, views
from scorekeeper.services.views import SessionView
from scorekeeper.services.writes import SEAT_LINE


def line_from_table(view: SessionView, name: str) -> dict[str, Any]:
    """A seat's line worked out from the session's table as its page shows it."""
    scores = [r.entries[name].score for r in view.rounds if name in r.entries]
    return {
        "total": view.standings.totals[name],
        "won": name in view.standings.winners,
        "rounds_won": sum(r.winner == name for r in view.rounds if r.entries),
        "score_sum": sum(scores),
        "best_score": max(scores, default=None),
        "worst_score": min(scores, default=None),
    }


def stored_lines() -> dict[tuple[int, str], dict[str, Any]]:
    """Every seat's stored line, by (session id, seat name)."""
    columns = [getattr(Seat, column) for column in SEAT_LINE]
    lines = {}
    for session_id, name, *values in db.session.execute(
        sa.select(Seat.session_id, Seat.name, *columns)
    ):
        line = dict(zip(SEAT_LINE, values, strict=True))
        lines[(session_id, name)] = {**line, "won": bool(line["won"])}
    return lines


def assert_lines_true() -> None:
    """Every seat's stored line equals the one its session's whole table gives."""
    db.session.expire_all()
    stored = stored_lines()
    derived = {}
    for summary in lists.list_sessions():
        view = views.get_session(summary.id)
        for name in view.players:
            derived[(view.id, name)] = line_from_table(view, name)
    assert stored == derived


def test_every_write_keeps_the_seat_lines_true(app: Flask) -> None:
    with app.app_context():
        evening = sessions.create_session(["Ann", "Bo", "Cy"], "Evening", 2)
        dropping = sessions.create_session(
            ["Di", "Eve", "Finn", "Gus"], "Drop", 3, {"drop_worst_round": True}
        )
        assert_lines_true()
        assert stored_lines()[(evening.id, "Ann")] == {
            "total": 0,
            "won": False,
            "rounds_won": 0,
            "score_sum": 0,
            "best_score": None,
            "worst_score": None,
        }

        rounds.add_round(evening.id, went_out("Ann", Bo=22, Cy=8))
        assert_lines_true()
        rounds.add_round(evening.id, went_out("Bo", Ann=40, Cy=5))  # Bo wins: complete
        assert_lines_true()
        assert stored_lines()[(evening.id, "Bo")] == {
            "total": 23,
            "won": True,
            "rounds_won": 1,
            "score_sum": 23,
            "best_score": 45,
            "worst_score": -22,
        }
        rounds.replace_round(evening.id, 2, went_out("Cy", Ann=1, Bo=2))  # Ann wins
        assert_lines_true()
        sessions.rename_player(evening.id, 0, "Annie")
        assert_lines_true()
        assert stored_lines()[(evening.id, "Annie")]["won"]
        sessions.extend_session(evening.id, 1)  # no longer complete: nobody has won
        assert_lines_true()
        assert not any(line["won"] for line in stored_lines().values())
        body = rounds.delete_round(evening.id, 1).body
        assert_lines_true()
        version = views.get_session(evening.id).version
        rounds.undo_change(evening.id, "delete", 1, body, version)  # the Undo of the delete
        assert_lines_true()

        rounds.add_round(
            dropping.id, {"ending": "scores", "scores": {"Di": 30, "Eve": -30, "Finn": 0, "Gus": 0}}
        )
        rounds.add_round(
            dropping.id,
            {"ending": "pool_empty", "racks": {"Di": 9, "Eve": 4, "Finn": 12, "Gus": 20}},
        )
        rounds.add_round(dropping.id, went_out("Gus", Di=60, Eve=2, Finn=3))
        assert_lines_true()
        di = stored_lines()[(dropping.id, "Di")]
        assert di["total"] == di["score_sum"] - di["worst_score"]  # the worst round dropped
        added = views.get_session(dropping.id)
        rounds.undo_change(dropping.id, "add", 3, None, added.version)
        assert_lines_true()
        deleted = rounds.delete_round(dropping.id, 1).body
        rounds.undo_change(
            dropping.id, "delete", 1, deleted, views.get_session(dropping.id).version
        )
        assert_lines_true()


def _without_lines(document: dict[str, Any]) -> dict[str, Any]:
    """The export as a version from before the seat lines would have written it."""
    for row in document["tables"]["seats"]:
        for column in SEAT_LINE:
            del row[column]
    return document


def test_a_backup_from_before_the_seat_lines_imports_with_them(app: Flask) -> None:
    with app.app_context():
        sunday = two_evenings()
        expected = stored_lines()
        document = _without_lines(backup.export_everything())
        wipe()
        backup.import_everything(document)
        assert stored_lines() == expected
        assert expected[(sunday, "Ann")]["won"] and expected[(sunday, "Ann")]["total"] == 29
        assert_lines_true()


def test_migration_0006_works_out_the_seat_lines_of_sessions_played(migrated_app: Flask) -> None:
    """Seats of sessions played before migration 0006 get their lines from the rounds (and
    its downgrade keeps every seat and round)."""
    app = migrated_app
    runner = app.test_cli_runner()
    with app.app_context():
        first = sessions.create_session(["Ann", "Bo", "Cy"], "First", 2)
        rounds.add_round(first.id, went_out("Bo", Ann=5, Cy=6))
        rounds.add_round(first.id, {"ending": "scores", "scores": {"Ann": -3, "Bo": -4, "Cy": 7}})
        dropping = sessions.create_session(["Di", "Eve"], "Drop", 2, {"drop_worst_round": True})
        rounds.add_round(dropping.id, went_out("Di", Eve=40))
        rounds.add_round(dropping.id, went_out("Eve", Di=10))
        level = sessions.create_session(["Finn", "Gus"], "Level", 2)
        rounds.add_round(level.id, went_out("Finn", Gus=5))
        rounds.add_round(level.id, went_out("Gus", Finn=5))  # 0 all: a shared win
        sessions.create_session(["Hal", "Ida"], "Not started", 1)
        expected = stored_lines()
        db.session.remove()
    down = runner.invoke(args=["db", "downgrade", "0005"])
    assert down.exit_code == 0, down.output
    with app.app_context():
        counts = db.session.execute(
            sa.text("SELECT (SELECT count(*) FROM rounds), (SELECT count(*) FROM seats)")
        ).one()
        db.session.remove()
    assert tuple(counts) == (6, 9)
    up = runner.invoke(args=["db", "upgrade"])
    assert up.exit_code == 0, up.output
    with app.app_context():
        assert stored_lines() == expected
        # Di: +40 then -10, the worst round dropped: 40; Eve: -40 dropped, 10: Di wins.
        assert expected[(dropping.id, "Di")]["total"] == 40
        assert expected[(dropping.id, "Di")]["won"]
        assert expected[(dropping.id, "Eve")]["total"] == 10
        assert expected[(first.id, "Cy")]["rounds_won"] == 1  # on paper: the plus score
        assert expected[(level.id, "Finn")]["won"] and expected[(level.id, "Gus")]["won"]
        assert_lines_true()
        db.session.remove()
