"""schemathesis over the OpenAPI document the app serves at /api/v1/openapi.json.

Every documented operation is fed cases generated from its schema: the document's own
examples, schemathesis' coverage cases (boundaries, missing and wrong-typed values) and
Hypothesis fuzzing, both schema-valid and schema-violating. Every answer must:

- never be a 5xx (`not_a_server_error`);
- have a status the document lists for the operation (`status_code_conformance`);
- have a documented content type (`content_type_conformance`), documented headers
  (`response_headers_conformance`) and a body that fits the documented, closed schema
  (`response_schema_conformance`);
- refuse a request the schema calls invalid (`negative_data_rejection`): the document
  promises nothing it does not keep.

The run is in-process (Flask's WSGI app), on SQLite only, deterministic (`derandomize`) so CI
is reproducible, and counted: `test_enough_cases_ran` asserts at least 1000 cases ran.
Sessions 1 and 2 (Ann, Bo, Cy, Di; two of three rounds played) exist before the run, and
about two in three generated path ids are pointed at them, so rounds are really read, added,
replaced and deleted; most cases are still refused with a 4xx, which the checks are about.
"""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import hypothesis.strategies as st
import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.web.openapi import OPENAPI

API = "/api/v1"
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
SESSIONS = (1, 2)
WENT_OUT = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55, "Di": 8}}
PAPER = {"ending": "scores", "scores": {"Ann": 24, "Bo": -5, "Cy": -16, "Di": -3}}
MIN_CASES = 1000
# Fuzzing examples per operation. The examples and coverage phases add their own cases on
# top (about 100 per operation), so a run is about 1800 cases: 25 s on an idle machine.
FUZZ_EXAMPLES = 50

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]

CASES: Counter[str] = Counter()  # operation label -> cases run
STATUSES: Counter[tuple[str, int]] = Counter()


def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> Any:
    """Point a generated session id (and round number) at the sessions made before the run
    two times in three; keep it as generated otherwise (unknown ids, huge numbers, 0...).

    Deletes go to session 2 only, so the rounds of session 1 stay for reads and edits.
    """
    session_id = (path_parameters or {}).get("session_id")
    if isinstance(session_id, bool) or not isinstance(session_id, int) or session_id < 1:
        return st.just(path_parameters)  # no id, or a schema-violating one: as generated
    assert path_parameters is not None
    deleting = context.operation is not None and context.operation.method.upper() == "DELETE"

    def real(sid: int) -> dict[str, Any]:
        pinned = {**path_parameters, "session_id": sid}
        number = pinned.get("number")
        if isinstance(number, int) and not isinstance(number, bool) and number >= 1:
            pinned["number"] = 1 + number % 3
        return pinned

    targets = [real(2), real(2)] if deleting else [real(sid) for sid in SESSIONS]
    return st.sampled_from([path_parameters, *targets])


def make_app() -> Flask:
    """The app on a fresh SQLite file with sessions 1 and 2 of four players.

    Built when the module is imported, as schemathesis needs the schema to generate the tests;
    the folder goes when the interpreter exits.
    """
    folder = Path(FOLDER.name)
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "PASSPHRASE": None,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'api.sqlite'}",
        },
        instance_path=str(folder / "instance"),
    )
    with app.app_context():
        db.create_all()
    client = app.test_client()
    for sid, name in zip(SESSIONS, ("Sunday", "Monday"), strict=True):
        response = client.post(f"{API}/sessions", json={"name": name, "players": PLAYERS})
        assert response.status_code == 201, response.get_data(as_text=True)
        assert response.get_json()["id"] == sid
    for sid in SESSIONS:  # two of the three agreed rounds played: room for one more
        for body in (WENT_OUT, PAPER):
            response = client.post(f"{API}/sessions/{sid}/rounds", json=body)
            assert response.status_code == 201, response.get_data(as_text=True)
    return app


FOLDER = tempfile.TemporaryDirectory(prefix="scorekeeper-schemathesis-")
APP = make_app()
schema = schemathesis.openapi.from_wsgi(f"{API}/openapi.json", APP)
schema.hook(flatmap_path_parameters)


@schema.parametrize()
@settings(
    max_examples=FUZZ_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
def test_api_keeps_its_documented_contract(case: schemathesis.Case) -> None:
    CASES[case.operation.label] += 1
    # The contract, not the transport: answers uncompressed (compression has tests of its own,
    # tests/app/test_assets.py), since the WSGI client does not undo a zstd or br encoding.
    response = case.call(headers={"Accept-Encoding": "identity"})
    STATUSES[(case.operation.label, response.status_code)] += 1
    case.validate_response(response, checks=CHECKS)


CONTRACT = test_api_keeps_its_documented_contract.__name__


def documented_operations() -> set[str]:
    """Every operation of the document but the document itself (schemathesis skips it)."""
    return {
        f"{method.upper()} {path}"
        for path, item in OPENAPI["paths"].items()
        for method in item
        if method != "parameters" and not path.endswith("/openapi.json")
    }


def test_each_operation_has_a_test_id_of_its_own(request: pytest.FixtureRequest) -> None:
    """pytest-xdist runs a test by its id: one id for all the operations ran one of them."""
    ids = [
        item.nodeid
        for item in request.session.items
        if item.path == request.path and item.name.startswith(f"{CONTRACT}[")
    ]
    assert len(ids) == len(documented_operations()), ids
    assert len(set(ids)) == len(ids), ids


def test_enough_cases_ran() -> None:
    """At least 1000 generated cases in all, and every operation had its share."""
    if not CASES:
        pytest.skip("test_api_keeps_its_documented_contract was not selected")
    total = sum(CASES.values())
    summary = ", ".join(f"{label}: {n}" for label, n in sorted(CASES.items()))
    print(f"\nschemathesis: {total} cases ({summary})")
    assert total >= MIN_CASES, summary
    assert set(CASES) == documented_operations()
    assert min(CASES.values()) >= 8, summary
    # The real sessions were reached: rounds were read, added and replaced.
    assert STATUSES[(f"POST {API}/sessions/{{session_id}}/rounds", 201)] > 0, STATUSES
    assert STATUSES[(f"GET {API}/sessions/{{session_id}}", 200)] > 0, STATUSES
    assert STATUSES[(f"GET {API}/sessions/{{session_id}}/rounds/{{number}}", 200)] > 0, STATUSES
    assert STATUSES[(f"PUT {API}/sessions/{{session_id}}/rounds/{{number}}", 200)] > 0, STATUSES
