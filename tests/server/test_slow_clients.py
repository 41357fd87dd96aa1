"""A trickle of slow connections cannot silence the server `make run` starts (serve.py).

45 connections each send a request line and then one header line every 2 s, never finishing,
while the family's phones hold their idle keep-alive connections (a browser keeps up to 6
open per server). A normal request must still be answered throughout. The trickle lasts 9 s
here rather than the 30 s of the attack: the mechanism is the same (every connection stays
busy, so none is closed as idle), and a timeout far above a normal answer's (10 s) tells a
silenced server from a slow machine: no duration is asserted.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from server_harness import HOST, MAKE_RUN, Server, assert_clean_log, prepare_database

SLOW_CLIENTS = 45
IDLE_KEEP_ALIVE = 60  # ten phones, six connections each
TRICKLE_S = 9.0
TRICKLE_EVERY_S = 2.0
ANSWER_TIMEOUT_S = 10.0  # a normal answer takes milliseconds; 10 s without one is silence


@pytest.fixture(scope="module")
def make_run_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("make-run")
    server = Server(MAKE_RUN, prepare_database("sqlite", directory), directory / "server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()
    assert_clean_log(server)


def _connect(server: Server) -> socket.socket:
    return socket.create_connection((HOST, server.port), timeout=ANSWER_TIMEOUT_S)


def _idle_keep_alive(server: Server) -> socket.socket:
    """A connection that asked once, was answered, and is kept open for the next request."""
    conn = _connect(server)
    conn.sendall(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
    answer = b""
    while not answer.endswith(b"ok"):
        chunk = conn.recv(4096)
        assert chunk, "the server closed a keep-alive connection at once"
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 200"), answer[:100]
    return conn


def _normal_request(server: Server) -> int:
    conn = http.client.HTTPConnection(HOST, server.port, timeout=ANSWER_TIMEOUT_S)
    try:
        conn.request("GET", "/api/v1/sessions", headers={"Accept": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_a_trickle_of_slow_connections_does_not_silence_the_server(
    make_run_server: Server,
) -> None:
    server = make_run_server
    opened: list[socket.socket] = []
    stop = threading.Event()
    try:
        opened += [_idle_keep_alive(server) for _ in range(IDLE_KEEP_ALIVE)]
        slow = [_connect(server) for _ in range(SLOW_CLIENTS)]
        opened += slow
        for conn in slow:
            conn.sendall(f"GET /api/v1/sessions HTTP/1.1\r\nHost: {HOST}\r\n".encode())

        def trickle() -> None:
            line = 0
            while not stop.wait(TRICKLE_EVERY_S):
                line += 1
                for conn in slow:
                    with contextlib.suppress(OSError):  # one the server dropped: fine too
                        conn.sendall(f"X-Trickle-{line}: still typing\r\n".encode())

        trickler = threading.Thread(target=trickle, daemon=True)
        trickler.start()
        ends = time.monotonic() + TRICKLE_S
        answered = 0
        while time.monotonic() < ends:
            try:
                status = _normal_request(server)
            except TimeoutError:
                pytest.fail(
                    f"no answer within {ANSWER_TIMEOUT_S:.0f} s while {SLOW_CLIENTS} slow "
                    f"connections trickle: the server was silenced"
                )
            assert status == 200
            answered += 1
            stop.wait(TRICKLE_EVERY_S)
        assert answered >= 2
        assert trickler.is_alive()  # the slow clients were still at it throughout
    finally:
        stop.set()
        for conn in opened:
            conn.close()
