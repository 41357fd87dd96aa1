"""Concurrent phones against a real server over real HTTP: no round lost, none doubled.

Each test runs on waitress (8 threads) and on gunicorn (4 worker processes), on SQLite and,
when configured, on PostgreSQL (tests marked `postgres` only there). The module's server
fixture also fails on any 5xx and on any traceback in the server's log.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import sqlalchemy as sa
from factories import went_out_form
from server_harness import (
    Reply,
    Server,
    at_once,
    check_session,
    inputs_of,
    inputs_of_stored,
    open_page,
    varied_round,
)

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
POOL_THREADS = 25


def stored_inputs(document: dict[str, Any]) -> Counter[tuple[Any, ...]]:
    return Counter(inputs_of_stored(r) for r in document["rounds"])


def test_rounds_posted_at_once_without_a_number_are_all_stored_once(live_server: Server) -> None:
    wanted = 60
    session_id = live_server.new_session(PLAYERS, rounds=wanted)
    bodies = [varied_round(PLAYERS, i) for i in range(wanted)]
    assert len({inputs_of(b) for b in bodies}) == wanted  # each round recognisable once stored
    path = f"/api/v1/sessions/{session_id}/rounds"

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=POOL_THREADS) as pool:
        replies = list(pool.map(lambda b: live_server.request("POST", path, b), bodies))
    took = time.monotonic() - started

    assert [r.status for r in replies] == [201] * wanted, [r for r in replies if r.status != 201]
    assert sorted(r.body["number"] for r in replies) == list(range(1, wanted + 1))
    document = live_server.session(session_id)
    stored = check_session(document)
    assert len(stored) == wanted
    assert stored_inputs(document) == Counter(inputs_of(b) for b in bodies)
    by_number = {r["number"]: r for r in stored}
    for reply in replies:  # what each phone was told is what the table holds
        assert by_number[reply.body["number"]] == reply.body
    print(
        f"\n[{live_server.kind}] {wanted} concurrent POSTs ({POOL_THREADS} threads, {took:.2f} s):"
        f" {len(stored)} rounds stored of {wanted} expected, numbered 1..{len(stored)}"
    )


def test_ten_phones_saving_round_3_store_it_once(live_server: Server) -> None:
    session_id = live_server.new_session(PLAYERS, rounds=5)
    path = f"/api/v1/sessions/{session_id}/rounds"
    for i in range(2):
        assert (
            live_server.request("POST", path, varied_round(PLAYERS, i) | {"number": i + 1}).status
            == 201
        )
    bodies = [varied_round(PLAYERS, 10 + i) | {"number": 3} for i in range(10)]

    replies = at_once([lambda b=b: live_server.request("POST", path, b) for b in bodies])

    assert sorted(r.status for r in replies) == [201] + [409] * 9
    for reply in replies:
        if reply.status == 409:
            assert [e["code"] for e in reply.body["errors"]] == ["duplicate_round"]
    winner = next(b for b, r in zip(bodies, replies, strict=True) if r.status == 201)
    document = live_server.session(session_id)
    stored = check_session(document)
    assert [r["number"] for r in stored] == [1, 2, 3]
    assert inputs_of_stored(stored[2]) == inputs_of(winner)
    print(f"\n[{live_server.kind}] 10 phones saving round 3: 1 stored, 9 told duplicate_round")


def test_one_idempotency_key_sent_twenty_times_at_once_stores_one_round(
    live_server: Server,
) -> None:
    session_id = live_server.new_session(PLAYERS, rounds=3)
    path = f"/api/v1/sessions/{session_id}/rounds"
    # One round sent twenty times under one key (a retry storm): stored once, the rest get it.
    same = [varied_round(PLAYERS, 20) | {"key": "save-7f3a"}] * 20

    replies = at_once([lambda b=b: live_server.request("POST", path, b) for b in same])

    statuses = Counter(r.status for r in replies)
    assert statuses == Counter({201: 1, 200: 19}), statuses
    first = next(r for r in replies if r.status == 201).body
    assert all(r.body == first for r in replies)
    stored = check_session(live_server.session(session_id))
    assert stored == [first]
    assert inputs_of_stored(stored[0]) == inputs_of(same[0])

    # Different rounds under one key: whichever arrives first is the round; a key means one
    # round, so every other is refused (key_reused), none taken for the first.
    bodies = [varied_round(PLAYERS, 40 + i) | {"key": "save-9c1d"} for i in range(20)]
    replies = at_once([lambda b=b: live_server.request("POST", path, b) for b in bodies])
    statuses = Counter(r.status for r in replies)
    assert statuses == Counter({201: 1, 409: 19}), statuses
    for reply in replies:
        if reply.status == 409:
            assert [e["code"] for e in reply.body["errors"]] == ["key_reused"]
    winner = next(b for b, r in zip(bodies, replies, strict=True) if r.status == 201)
    stored = check_session(live_server.session(session_id))
    assert len(stored) == 2
    assert inputs_of_stored(stored[1]) == inputs_of(winner)
    print(f"\n[{live_server.kind}] one key 20 times at once: 1 round stored, 1x201 + 19x200")


def test_edits_from_the_same_version_at_once_let_one_through(live_server: Server) -> None:
    session_id = live_server.new_session(PLAYERS, rounds=3)
    added = live_server.request(
        "POST", f"/api/v1/sessions/{session_id}/rounds", varied_round(PLAYERS, 0)
    )
    assert added.status == 201
    seen = added.body["version"]  # the session's version that wrote the round
    path = f"/api/v1/sessions/{session_id}/rounds/1"
    bodies = [varied_round(PLAYERS, 40 + i) | {"version": seen} for i in range(10)]

    replies = at_once([lambda b=b: live_server.request("PUT", path, b) for b in bodies])

    assert sorted(r.status for r in replies) == [200] + [409] * 9
    for reply in replies:
        if reply.status == 409:
            assert [e["code"] for e in reply.body["errors"]] == ["stale_round"]
    winner = next(b for b, r in zip(bodies, replies, strict=True) if r.status == 200)
    stored = check_session(live_server.session(session_id))
    assert len(stored) == 1
    assert stored[0]["version"] == seen + 1
    assert inputs_of_stored(stored[0]) == inputs_of(winner)
    print(f"\n[{live_server.kind}] 10 edits from one version at once: 1 saved, 9 told stale_round")


def test_sessions_started_at_once_with_the_same_new_players_all_start(
    live_server: Server,
) -> None:
    """Ten phones start an evening at once with players nobody has played with before: every
    session starts, and each name is one remembered player, not a crash on a unique index."""
    newcomers = ["Zoë", "Yann", "Xu", "Wim"]
    body = {"players": newcomers, "rounds": 2}

    replies = at_once(
        [lambda: live_server.request("POST", "/api/v1/sessions", body) for _ in range(10)]
    )

    assert [r.status for r in replies] == [201] * 10, replies
    ids = {r.body["id"] for r in replies}
    assert len(ids) == 10
    listed = live_server.request("GET", "/api/v1/sessions")
    assert listed.status == 200
    assert ids <= {s["id"] for s in listed.body["sessions"]}
    for session_id in ids:
        assert live_server.session(session_id)["players"] == newcomers
    print(f"\n[{live_server.kind}] 10 sessions started at once with 4 new players: 10 started")


def test_phones_that_retry_like_the_app_lose_and_double_nothing(live_server: Server) -> None:
    """Several tables, several phones each, every phone saving its rounds the way the app does:
    read the table, send the next number and a key, and on duplicate_round or a lost answer
    look again and retry with the same key. Every round meant is stored exactly once."""
    tables, phones, rounds_each = 3, 4, 3
    per_table = phones * rounds_each
    session_ids = [live_server.new_session(PLAYERS, rounds=per_table) for _ in range(tables)]
    deadline = time.monotonic() + 60
    attempts = Counter[str]()
    lock = threading.Lock()

    def phone(table: int, phone_no: int) -> list[dict[str, Any]]:
        session_id = session_ids[table]
        path = f"/api/v1/sessions/{session_id}/rounds"
        meant = []
        for k in range(rounds_each):
            body = varied_round(PLAYERS, 100 * table + 10 * phone_no + k)
            meant.append(body)
            key = f"t{table}-p{phone_no}-r{k}"
            for _try in range(100):
                assert time.monotonic() < deadline, "phones still saving after 60 s"
                number = len(live_server.session(session_id)["rounds"]) + 1
                reply = live_server.request("POST", path, body | {"number": number, "key": key})
                with lock:
                    attempts[str(reply.status)] += 1
                if reply.status in (200, 201):
                    break
                assert reply.status == 409, reply
                assert reply.body["errors"][0]["code"] == "duplicate_round", reply
            else:
                raise AssertionError(f"{key} never saved")
        return meant

    with ThreadPoolExecutor(max_workers=tables * phones) as pool:
        futures = [pool.submit(phone, t, p) for t in range(tables) for p in range(phones)]
        meant_by_table: dict[int, list[dict[str, Any]]] = {t: [] for t in range(tables)}
        for i, future in enumerate(futures):
            meant_by_table[i // phones].extend(future.result())

    for table, session_id in enumerate(session_ids):
        document = live_server.session(session_id)
        stored = check_session(document)
        assert len(stored) == per_table
        assert stored_inputs(document) == Counter(inputs_of(b) for b in meant_by_table[table])
    print(
        f"\n[{live_server.kind}] {tables} tables x {phones} phones x {rounds_each} rounds: "
        f"{tables * per_table} rounds stored of {tables * per_table} expected; "
        f"answers {dict(attempts)}"
    )


def open_round_form(server: Server, session_id: int) -> tuple[dict[str, str], str]:
    """What a phone gets when it opens "Add round": the form's hidden fields and its cookie."""
    hidden, cookie = open_page(server, f"/sessions/{session_id}/rounds/new")
    assert {"csrf_token", "key", "number"} <= set(hidden), hidden
    return hidden, cookie


def typed_round(hidden: dict[str, str], winner: int, racks: dict[int, int]) -> dict[str, str]:
    """The form as a phone posts it: who went out (a seat) and the other racks."""
    return hidden | went_out_form(winner, {seat: str(value) for seat, value in racks.items()})


def test_round_form_double_taps_and_two_phones_store_each_round_once(live_server: Server) -> None:
    """The pages, with CSRF on: ten taps on Save of one form store one round; two phones on
    the "round 2" form at once store one round 2, and the other phone is told, its entry kept."""
    session_id = live_server.new_session(PLAYERS, rounds=3)
    path = f"/sessions/{session_id}/rounds/new"
    hidden, cookie = open_round_form(live_server, session_id)
    tapped = typed_round(hidden, 0, {1: 11, 2: 12, 3: 13})

    taps = at_once([lambda: live_server.request("POST", path, form=tapped, cookie=cookie)] * 10)

    assert [r.status for r in taps] == [302] * 10, taps
    stored = check_session(live_server.session(session_id))
    assert [(r["number"], r["racks"]) for r in stored] == [(1, {"Bo": 11, "Cy": 12, "Di": 13})]

    phones = [open_round_form(live_server, session_id) for _ in range(2)]
    assert [h["number"] for h, _ in phones] == ["2", "2"]
    entries = [
        typed_round(phones[0][0], 1, {0: 21, 2: 22, 3: 23}),
        typed_round(phones[1][0], 2, {0: 31, 1: 32, 3: 33}),
    ]
    replies = at_once(
        [
            lambda i=i: live_server.request("POST", path, form=entries[i], cookie=phones[i][1])
            for i in range(2)
        ]
    )

    assert sorted(r.status for r in replies) == [302, 409], replies
    told = next(r for r in replies if r.status == 409)
    assert "Someone just saved round 2" in told.text
    kept = entries[1] if replies[0].status == 302 else entries[0]
    assert all(
        f'value="{kept[f"rack_{seat}"]}"' in told.text
        for seat in range(4)
        if f"rack_{seat}" in kept
    )
    stored = check_session(live_server.session(session_id))
    assert len(stored) == 2
    saved = entries[0] if replies[0].status == 302 else entries[1]
    assert stored[1]["winner"] == PLAYERS[int(saved["winner"])]
    print(
        f"\n[{live_server.kind}] form: 10 taps on Save stored 1 round; "
        "2 phones on round 2: 1 stored, 1 told"
    )


@pytest.mark.postgres
def test_connections_dropped_by_postgresql_cost_no_request(live_server: Server) -> None:
    """PostgreSQL restarts (or an administrator ends every connection) while the servers hold
    pooled connections: the next saves still succeed, none answers 500."""
    session_id = live_server.new_session(PLAYERS, rounds=20)
    path = f"/api/v1/sessions/{session_id}/rounds"

    def save(i: int) -> Callable[[], Reply]:
        return lambda: live_server.request("POST", path, varied_round(PLAYERS, i))

    warm = at_once([save(i) for i in range(8)])
    assert [r.status for r in warm] == [201] * 8  # every worker now holds pooled connections
    admin = sa.create_engine(live_server.database_url)
    try:
        with admin.connect() as connection:
            ended = connection.scalar(
                sa.text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            )
    finally:
        admin.dispose()
    assert ended, "the servers held no connection to end"

    calls = [save(8 + i) for i in range(8)]
    calls += [lambda: live_server.request("GET", f"/api/v1/sessions/{session_id}")] * 8
    replies = at_once(calls)

    assert sorted(r.status for r in replies) == [200] * 8 + [201] * 8, replies
    assert len(check_session(live_server.session(session_id))) == 16
    print(f"\n[{live_server.kind}] {ended} PostgreSQL connections ended: 16 requests after, 0 5xx")
