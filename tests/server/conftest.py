"""Real servers for the tests in this folder: waitress and gunicorn (4 workers), each on a
fresh SQLite file and, when SCOREKEEPER_TEST_DATABASE_URL is set, on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_harness import DATABASES, RUN_TALLY, SERVER_KINDS, Server, serving


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test of this folder marked `postgres` runs only with the PostgreSQL server: leave out
    its SQLite variants instead of skipping them."""
    here = Path(__file__).parent
    kept, left_out = [], []
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_sqlite = callspec is not None and callspec.params.get("server_database") == "sqlite"
        if on_sqlite and item.get_closest_marker("postgres") and here in item.path.parents:
            left_out.append(item)
        else:
            kept.append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept


@pytest.fixture(scope="module", params=SERVER_KINDS)
def server_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module", params=DATABASES)
def server_database(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def live_server(
    server_kind: str, server_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """One running server for a module's tests, stopped (process group) at the end; its log
    must be free of tracebacks."""
    directory = tmp_path_factory.mktemp(f"{server_kind}-{server_database}")
    with serving(server_kind, server_database, directory) as server:
        yield server
    tally = server.tally
    print(
        f"\n[{server_kind}/{server_database}] requests fired {tally.fired}, "
        f"by status {dict(sorted(tally.statuses.items()))}, 5xx {tally.server_errors}"
    )


@pytest.fixture(scope="session", autouse=True)
def run_figures() -> Iterator[None]:
    """Print every request the real-server tests fired and how many got a 5xx."""
    yield
    if RUN_TALLY.fired:
        print(
            f"\n[real servers, whole run] requests fired {RUN_TALLY.fired}, "
            f"5xx {RUN_TALLY.server_errors}, by status {dict(sorted(RUN_TALLY.statuses.items()))}"
        )
