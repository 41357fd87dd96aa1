"""Every page and document reads the database in a fixed number of SQL statements, however
many rounds the session has and however many sessions the history holds: no N+1 queries.

Each count is of the first request to the URL in a fresh app. Counted: the statements the
app's engine sends (an SQLAlchemy `before_cursor_execute` listener), transaction control
(BEGIN, SAVEPOINT...) left out, since SQLite sends its BEGIN as a statement and PostgreSQL does
not. To check another URL, add it to URLS with its count.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from factories import sql_sent, went_out
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player
from scorekeeper.services import rounds, sessions

PLAYERS = ["Ann", "Bo", "Cy", "Di"]

# URL (with {session} and {player} for the ids of the session and player looked at) ->
# the statements its first request sends, whatever the size of the history.
URLS = {
    # Every request also reads the household's passphrase state (the gate): + 1.
    "/": 3,  # the page's sessions with their summaries, then their players
    # + the session's stamp (its ETag), then the session, its rounds, seats and entries.
    "/sessions/{session}": 6,
    # A poll's document: the household's state and the stamp in one read, then the session.
    "/api/v1/sessions/{session}": 5,
    "/sessions/{session}/export.csv": 5,
    "/export.csv": 2,  # every entry, in one statement read in chunks
    "/api/v1/sessions": 3,
    "/players": 2,  # + one aggregate over the seats' lines (services/stats.py)
    # + the player's name, their figures and streak, a page of their sessions, the
    # head-to-head, and where their best and worst rounds were (services/stats.py).
    "/players/{player}": 6,
}

# Histories of different sizes: (sessions, rounds in the session looked at).
SIZES = {
    "1 session of 1 round": (1, 1),
    "1 session of 50 rounds": (1, 50),
    "200 sessions": (200, 1),
}


def nth_round(number: int) -> dict[str, object]:
    """The number-th of a run of went-out rounds, each won by the next player in turn."""
    winner = PLAYERS[number % len(PLAYERS)]
    racks = {p: 5 + (number * 7 + i) % 40 for i, p in enumerate(PLAYERS) if p != winner}
    return went_out(winner, **racks)


def seed(app: Flask, sessions_count: int, rounds_count: int) -> dict[str, int]:
    """A history of `sessions_count` sessions: two evenings made by the services (one
    finished, one still in play) copied row for row to make up the number, then the session
    looked at, which has `rounds_count` rounds; returns the ids the URLs need."""
    with app.app_context():
        if sessions_count > 1:
            finished = sessions.create_session(PLAYERS, "Finished", 2)
            playing = sessions.create_session(PLAYERS, "Still in play", 3)
            for number in (1, 2):
                rounds.add_round(finished.id, nth_round(number))
                rounds.add_round(playing.id, nth_round(number))
            copies = sessions_count - 3
            copy_sessions([finished.id, playing.id] * (copies // 2) + [finished.id] * (copies % 2))
        looked_at = sessions.create_session(PLAYERS, "Looked at", rounds_count + 1)
        for number in range(1, rounds_count + 1):
            rounds.add_round(looked_at.id, nth_round(number))
        player = db.session.scalar(sa.select(Player.id).where(Player.name == "Bo"))
        assert player is not None
        return {"session": looked_at.id, "player": player}


def copy_sessions(originals: list[int]) -> None:
    """Insert a copy of each session named (its row, seats, rounds and entries; new ids),
    one executemany a table; PostgreSQL's id sequences are then moved past the new ids."""
    table = {name: db.metadata.tables[name] for name in ("sessions", "seats", "rounds", "entries")}
    next_id = {
        name: (db.session.scalar(sa.select(sa.func.max(t.c.id))) or 0) + 1
        for name, t in table.items()
    }
    made: dict[str, list[dict[str, object]]] = {name: [] for name in table}
    for original in originals:
        new: dict[str, dict[int, int]] = {name: {} for name in table}
        copying = (
            ("sessions", table["sessions"].c.id == original, {}),
            ("seats", table["seats"].c.session_id == original, {"session_id": "sessions"}),
            (
                "rounds",
                table["rounds"].c.session_id == original,
                {"session_id": "sessions", "winner_seat_id": "seats"},
            ),
            ("entries", None, {"round_id": "rounds", "seat_id": "seats"}),
        )
        for name, where, links in copying:
            if where is None:  # the entries of the rounds just copied
                where = table[name].c.round_id.in_(list(new["rounds"]))
            for row in db.session.execute(sa.select(table[name]).where(where)).mappings():
                new[name][row["id"]] = next_id[name]
                next_id[name] += 1
                linked = {column: new[to].get(row[column]) for column, to in links.items()}
                made[name].append({**row, "id": new[name][row["id"]], **linked})
    for name, rows in made.items():
        db.session.execute(table[name].insert(), rows)
    if db.engine.dialect.name == "postgresql":
        for name in table:
            db.session.execute(
                sa.text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), :last)"),
                {"last": next_id[name] - 1},
            )
    db.session.commit()


def first_request_statements(make_app: Callable[..., Flask], url: str) -> list[str]:
    """The statements of the first request to `url` in a fresh app, its body read whole."""
    fresh = make_app()
    client = fresh.test_client()
    with sql_sent(fresh, transactions=False) as sent:
        response = client.get(url)
        response.get_data()  # a streamed body runs its queries as it is read
    assert response.status_code == 200, url
    return sent


@pytest.mark.parametrize("size", list(SIZES))
def test_each_page_sends_a_fixed_number_of_statements(
    app: Flask, make_app: Callable[..., Flask], size: str
) -> None:
    ids = seed(app, *SIZES[size])
    with app.app_context():
        held = db.session.scalar(sa.select(sa.func.count()).select_from(GameSession))
        assert held == SIZES[size][0]
    counts = {}
    for url in URLS:
        sent = first_request_statements(make_app, url.format(**ids))
        counts[url] = len(sent)
    assert counts == URLS


# A round added, changed or deleted in place on the session page (the POST answered with the
# new live table, drawn from what the write left, not read again). Each: the household's state
# (the gate); for an add or a change, the seats (for the form's fields); then the write: the
# session's row locked (FOR UPDATE OF sessions on PostgreSQL; SQLite's write lock is taken by
# its BEGIN IMMEDIATE) and read with the household's generation (the stamp of its answer and
# its Undo), its seats, its rounds with their entries in one statement, the session's row and
# the seats' lines written once each, and then the round:
IN_PLACE = {
    "add": 9,  # + the round, and its entries in one statement
    "change": 10,  # + its entries deleted, the round, its new entries in one statement
    "delete the last round": 7,  # + the round (its entries go with it)
    "delete the first round": 9,  # + the round, and the later rounds renumbered in two steps
}
# What the session page's script sends with a POST in place (static/entry.js).
IN_PLACE_HEADERS = {"X-Requested-With": "fetch"}


def hidden(page: str) -> dict[str, str]:
    """The hidden fields of a page's form (the round's key, number, version)."""
    return dict(
        re.findall(r'<input[^>]*?name="(\w+)"[^>]*?type="hidden"[^>]*?value="([^"]*)"', page)
        + re.findall(r'<input[^>]*?type="hidden"[^>]*?name="(\w+)"[^>]*?value="([^"]*)"', page)
    )


@pytest.mark.parametrize("rounds_before", [2, 50])
@pytest.mark.parametrize("step", list(IN_PLACE))
def test_a_round_changed_in_place_reads_the_session_once(
    app: Flask, make_app: Callable[..., Flask], rounds_before: int, step: str
) -> None:
    """Adding, changing or deleting a round from the session page (the POST in place,
    answered with the new live table): a fixed number of statements whatever the number of
    rounds, and the session's rounds read once, by the write, whose table the answer draws."""
    session_id = seed(app, 1, rounds_before)["session"]
    fresh = make_app()
    client = fresh.test_client()
    racks = {"ending": "went_out", "winner": "0", "rack_1": "22", "rack_2": "55", "rack_3": "8"}
    last = rounds_before
    url, form, said = {
        "add": ("rounds/new", racks, f"Round {last + 1} saved."),
        "change": (f"rounds/{last}/edit", racks, f"Round {last} changed."),
        "delete the last round": (f"rounds/{last}/delete", {}, f"Round {last} deleted."),
        "delete the first round": ("rounds/1/delete", {}, "Round 1 deleted."),
    }[step]
    path = f"/sessions/{session_id}/{url}"
    page = client.get(path + ("?fragment=1" if "delete" not in step else ""))
    assert page.status_code == 200
    with sql_sent(fresh, transactions=False) as sent:
        response = client.post(
            path, data={**hidden(page.get_data(as_text=True)), **form}, headers=IN_PLACE_HEADERS
        )
    assert response.status_code == 200
    text = response.get_data(as_text=True)
    assert 'id="live"' in text and said in text, text
    whole_reads = [s for s in sent if s.lstrip().startswith("SELECT") and "FROM rounds" in s]
    assert len(whole_reads) == 1, whole_reads
    assert len(sent) == IN_PLACE[step], "\n".join(sent)
    with fresh.app_context():
        locks = {"postgresql": 1, "sqlite": 0}[db.engine.dialect.name]
    assert [s for s in sent if "FOR UPDATE" in s] == [
        s for s in sent if "FOR UPDATE OF sessions" in s
    ]
    assert len([s for s in sent if "FOR UPDATE" in s]) == locks
