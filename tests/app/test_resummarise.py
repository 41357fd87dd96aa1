"""`flask resummarise`: every session's summary (rounds played, standing, finish) and every
seat's line worked out again from the rounds, a batch of sessions at a time, as the writes
of the rounds left them; what is already true stays untouched."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from factories import went_out
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Seat
from scorekeeper.services import lists, rounds, sessions, views
from scorekeeper.services.writes import SEAT_LINE

SESSIONS = GameSession.__table__
SEATS = Seat.__table__


def stored() -> dict[str, Any]:
    """Everything a session's row and its seats keep of its rounds, and what must not move
    when it is worked out again (the version, updated_at): by session id and seat id."""
    db.session.expire_all()
    rows = {
        row.id: row._asdict()
        for row in db.session.execute(
            sa.select(
                SESSIONS.c.id,
                SESSIONS.c.rounds_played,
                SESSIONS.c.standing,
                SESSIONS.c.finished_at,
                SESSIONS.c.updated_at,
                SESSIONS.c.version,
            )
        )
    }
    seats = {
        seat_id: dict(zip(SEAT_LINE, line, strict=True))
        for seat_id, *line in db.session.execute(
            sa.select(SEATS.c.id, *(SEATS.c[column] for column in SEAT_LINE))
        )
    }
    return {"sessions": rows, "seats": seats}


def history() -> dict[str, int]:
    """Seven sessions of every kind, written as the phones write them, with a gap in the ids
    (a session deleted)."""
    made = {}
    first = sessions.create_session(["Ann", "Bo", "Cy"], "Done", 2)
    rounds.add_round(first.id, went_out("Bo", Ann=5, Cy=6))
    rounds.add_round(first.id, {"ending": "scores", "scores": {"Ann": -3, "Bo": -4, "Cy": 7}})
    made["done"] = first.id
    dropping = sessions.create_session(["Di", "Eve"], "Drop", 3, {"drop_worst_round": True})
    rounds.add_round(dropping.id, went_out("Di", Eve=40))
    rounds.add_round(dropping.id, went_out("Eve", Di=10))
    made["dropping"] = dropping.id
    gone = sessions.create_session(["Gone", "Away"], "Deleted", 1)
    level = sessions.create_session(["Finn", "Gus"], "Level", 2)
    rounds.add_round(level.id, went_out("Finn", Gus=5))
    rounds.add_round(level.id, went_out("Gus", Finn=5))  # 0 all: a shared win
    made["level"] = level.id
    made["empty"] = sessions.create_session(["Hal", "Ida"], "Not started", 1).id
    playing = sessions.create_session(["Jo", "Kim", "Lu", "Max"], "Playing", 4)
    rounds.add_round(playing.id, went_out("Kim", Jo=12, Lu=3, Max=30))
    made["playing"] = playing.id
    for name in ("Eight", "Nine"):
        view = sessions.create_session(["Ann", "Bo"], name, 1)
        rounds.add_round(view.id, went_out("Ann", Bo=9))
    db.session.execute(sa.delete(SESSIONS).where(SESSIONS.c.id == gone.id))
    db.session.commit()
    return made


def corrupt(made: dict[str, int]) -> None:
    """Summaries and lines wrong in every way a stale one can be (direct UPDATEs)."""
    wrong = {"leaders": ["Nobody"], "leading_total": 999, "winners": ["Nobody"]}
    db.session.execute(
        sa.update(SESSIONS)
        .where(SESSIONS.c.id.in_([made["dropping"], made["empty"]]))
        .values(rounds_played=7, standing=wrong, updated_at=SESSIONS.c.updated_at)
    )
    db.session.execute(  # finished while rounds remain; and complete without a finish
        sa.update(SESSIONS)
        .where(SESSIONS.c.id == made["playing"])
        .values(finished_at=datetime(2020, 1, 1), updated_at=SESSIONS.c.updated_at)
    )
    db.session.execute(
        sa.update(SESSIONS)
        .where(SESSIONS.c.id == made["level"])
        .values(finished_at=None, updated_at=SESSIONS.c.updated_at)
    )
    db.session.execute(
        sa.update(SEATS)
        .where(SEATS.c.session_id.in_([made["done"], made["dropping"]]))
        .values(total=-1, won=True, rounds_won=5, score_sum=3, best_score=None, worst_score=99)
    )
    db.session.commit()


def test_resummarise_puts_back_what_the_writes_of_the_rounds_left(migrated_app: Flask) -> None:
    app = migrated_app
    runner = app.test_cli_runner()
    with app.app_context():
        made = history()
        reference = stored()
        corrupt(made)
        broken = stored()
        assert broken["sessions"][made["dropping"]]["rounds_played"] == 7
        assert broken["sessions"][made["level"]]["finished_at"] is None
        db.session.remove()

    done = runner.invoke(args=["resummarise", "--batch", "2"])  # four batches, the last of one
    assert done.exit_code == 0, done.output
    assert done.output == (
        "Worked out 7 sessions again from their rounds: "
        "5 of them had a summary or a seat's line that changed.\n"
    )
    with app.app_context():
        now = stored()
        level = now["sessions"][made["level"]]
        # Complete without a finish: finished now, as the write that completed it would have.
        assert level["finished_at"] is not None
        level["finished_at"] = reference["sessions"][made["level"]]["finished_at"]
        assert now == reference
        for summary in lists.list_sessions():  # and what the whole table gives
            assert summary == lists.summary_of(views.get_session(summary.id))
        assert reference["sessions"][made["dropping"]]["standing"] == {
            "leaders": ["Di"],
            "leading_total": 40,
            "winners": [],
        }
        db.session.remove()

    again = runner.invoke(args=["resummarise"])
    assert again.exit_code == 0, again.output
    assert "7 sessions" in again.output and ": 0 of them" in again.output


def test_resummarise_on_an_empty_database_and_with_a_bad_batch(app: Flask) -> None:
    runner = app.test_cli_runner()
    done = runner.invoke(args=["resummarise"])
    assert done.exit_code == 0, done.output
    assert done.output.startswith("Worked out 0 sessions again")
    with app.app_context():
        view = sessions.create_session(["Ann", "Bo"], "Kept", 1)
        rounds.add_round(view.id, went_out("Ann", Bo=9))
        db.session.execute(sa.update(SEATS).values(total=0))
        db.session.commit()
        broken = stored()
        db.session.remove()
    bad = runner.invoke(args=["resummarise", "--batch", "0"])
    assert bad.exit_code == 2 and "--batch" in bad.output
    with app.app_context():
        assert stored() == broken  # a bad option changes nothing
