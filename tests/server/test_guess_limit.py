"""The limit on wrong passphrases holds under a burst, on a real server over real HTTP.

Thirty wrong passphrases sent at once from one address: the server weighs (checks against the
passphrase's hash) at most ACCESS_FAILURE_LIMIT (5) of them and refuses the rest with 429,
whether they come through the sign-in form or as an API bearer token, on the server `make run`
starts (waitress, 8 threads) and on gunicorn with 2 worker processes, on SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from factories import csrf_token
from server_harness import Reply, Server, at_once, serving

PASSPHRASE = "tiles on the table"
WRONG = "jokers are wild"
BURST = 30
LIMIT = 5  # ACCESS_FAILURE_LIMIT's default

KINDS = {"make-run": {}, "gunicorn-2": {"workers": 2}}


@pytest.fixture(scope="module", params=list(KINDS))
def guess_server_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def locked_server(
    guess_server_kind: str, server_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """A server whose household passphrase is set by its configuration."""
    directory = tmp_path_factory.mktemp(f"guesses-{guess_server_kind}-{server_database}")
    kind = "gunicorn" if guess_server_kind.startswith("gunicorn") else guess_server_kind
    settings = {"SCOREKEEPER_PASSPHRASE": PASSPHRASE}
    with serving(
        kind, server_database, directory, settings=settings, **KINDS[guess_server_kind]
    ) as server:
        yield server


@pytest.fixture
def server(locked_server: Server) -> Server:
    """The locked server with no wrong guess remembered (each test starts from none)."""
    engine = sa.create_engine(locked_server.database_url)
    try:
        with engine.begin() as connection:
            connection.execute(sa.text("DELETE FROM failed_sign_ins"))
    finally:
        engine.dispose()
    return locked_server


def bearer(passphrase: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {passphrase}"}


def sign_in_form(server: Server) -> tuple[str, str]:
    """The sign-in page's CSRF token and the session cookie it belongs to."""
    page = server.request("GET", "/sign-in", headers={"Accept": "text/html"})
    assert page.status == 200
    cookie = page.headers["set-cookie"].split(";", 1)[0]
    return csrf_token(page.text), cookie


def where(server: Server) -> str:
    kind = "make run" if server.kind == "make-run" else f"gunicorn -w {server.workers}"
    return f"[{kind}/{server.database_url.split(':')[0].split('+')[0]}]"


def assert_limit_held(server: Server, replies: list[Reply], wrong_status: int) -> None:
    statuses = Counter(r.status for r in replies)
    weighed = statuses[wrong_status]
    print(f"\n{where(server)} {BURST} wrong passphrases at once: {dict(statuses)}")
    assert set(statuses) <= {wrong_status, 429}, statuses
    assert weighed == LIMIT, f"{weighed} of {BURST} wrong passphrases were weighed: {statuses}"
    for reply in replies:
        if reply.status == 429:
            assert 1 <= int(reply.headers["retry-after"]) <= 600


def test_a_burst_of_wrong_bearer_tokens_is_weighed_five_times(server: Server) -> None:
    replies = at_once(
        [
            lambda: server.request("GET", "/api/v1/sessions", headers=bearer(WRONG))
            for _ in range(BURST)
        ]
    )

    assert_limit_held(server, replies, 401)
    for reply in replies:
        code = "unauthorized" if reply.status == 401 else "too_many_attempts"
        assert [e["code"] for e in reply.body["errors"]] == [code]
    # The limit holds for the right passphrase too, now.
    assert server.request("GET", "/api/v1/sessions", headers=bearer(PASSPHRASE)).status == 429


def test_a_burst_of_wrong_sign_ins_is_weighed_five_times(server: Server) -> None:
    token, cookie = sign_in_form(server)
    form = {"csrf_token": token, "passphrase": WRONG, "next": "/"}

    replies = at_once(
        [lambda: server.request("POST", "/sign-in", form=form, cookie=cookie) for _ in range(BURST)]
    )

    assert_limit_held(server, replies, 403)
    for reply in replies:
        assert ("Too many wrong passphrases" in reply.text) == (reply.status == 429)
    right = server.request(
        "POST", "/sign-in", form=form | {"passphrase": PASSPHRASE}, cookie=cookie
    )
    assert right.status == 429


def test_wrong_sign_ins_and_bearer_tokens_at_once_share_one_limit(server: Server) -> None:
    token, cookie = sign_in_form(server)
    form = {"csrf_token": token, "passphrase": WRONG, "next": "/"}
    calls = []
    for i in range(BURST):
        if i % 2:
            calls.append(lambda: server.request("POST", "/sign-in", form=form, cookie=cookie))
        else:
            calls.append(lambda: server.request("GET", "/api/v1/sessions", headers=bearer(WRONG)))

    replies = at_once(calls)

    statuses = Counter(r.status for r in replies)
    print(f"\n{where(server)} {BURST} wrong passphrases at once, form and API: {dict(statuses)}")
    assert set(statuses) <= {401, 403, 429}, statuses
    assert statuses[401] + statuses[403] == LIMIT, statuses
