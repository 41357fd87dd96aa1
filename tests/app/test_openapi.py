"""The OpenAPI document stays true: every /api/v1 route is in it, every example round-trips,
and every answer the API gives fits the schema documented for its status.

`jsonschema` is not a dependency, so `violations` below checks the subset of JSON Schema the
document uses; a test makes sure the document uses no keyword outside that subset.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from datetime import date
from typing import Any

import pytest
from contract import DEFAULT_RULES
from factories import new_session
from flask import Flask, Response
from flask.testing import FlaskClient
from werkzeug.exceptions import ServiceUnavailable

from scorekeeper.config import Defaults
from scorekeeper.web import openapi
from scorekeeper.web.access import RESTORE_FLAG
from scorekeeper.web.errors import http_problem
from scorekeeper.web.openapi import OPENAPI

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

API = "/api/v1"
JSON = "application/json"
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
WENT_OUT = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": 55, "Di": 8}}
HTTP_METHODS = ("get", "put", "post", "delete", "patch")
PASSPHRASE = "tiles on the table"
RESTORING = "Scorekeeper is being restored or set up: try again in a minute."
SCHEMAS = OPENAPI["components"]["schemas"]

# --- A small JSON Schema checker for the keywords the document uses ---------------------------

CHECKED_KEYWORDS = {
    "$ref",
    "type",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "maxProperties",
    "items",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "oneOf",
    "anyOf",
    "format",
}
ANNOTATIONS = {"description", "default", "title"}


def resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = SCHEMAS[schema["$ref"].removeprefix("#/components/schemas/")]
    return schema


def is_type(value: object, kind: str) -> bool:
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    python = {"string": str, "boolean": bool, "array": list, "object": dict}
    return value is None if kind == "null" else isinstance(value, python[kind])


def violations(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """Where `value` breaks `schema`, as readable lines; empty when it fits."""
    schema = resolve(schema)
    if "oneOf" in schema:
        fits = [s for s in schema["oneOf"] if not violations(value, s, where)]
        if len(fits) != 1:
            return [f"{where}: fits {len(fits)} of the oneOf schemas, not exactly 1"]
    if "anyOf" in schema and all(violations(value, s, where) for s in schema["anyOf"]):
        return [f"{where}: fits none of the anyOf schemas"]
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(is_type(value, k) for k in kinds):
            return [f"{where}: {value!r} is not {' or '.join(kinds)}"]
    found: list[str] = []
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if is_type(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            found.append(f"{where}: {value} < {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            found.append(f"{where}: {value} > {schema['maximum']}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            found.append(f"{where}: shorter than {schema['minLength']}")
        if len(value) > schema.get("maxLength", len(value)):
            found.append(f"{where}: longer than {schema['maxLength']}")
        if schema.get("format") == "date":
            try:
                date.fromisoformat(value)
            except ValueError:
                found.append(f"{where}: {value!r} is not a date")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            found.append(f"{where}: fewer than {schema['minItems']} items")
        if len(value) > schema.get("maxItems", len(value)):
            found.append(f"{where}: more than {schema['maxItems']} items")
        if "items" in schema:
            for i, item in enumerate(value):
                found += violations(item, schema["items"], f"{where}[{i}]")
    if isinstance(value, dict):
        required = schema.get("required", ())
        found += [f"{where}: {key} is missing" for key in required if key not in value]
        if len(value) > schema.get("maxProperties", len(value)):
            found.append(f"{where}: more than {schema['maxProperties']} keys")
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                found += violations(item, properties[key], f"{where}.{key}")
            elif extra is False:
                found.append(f"{where}: {key} is not documented")
            elif isinstance(extra, dict):
                found += violations(item, extra, f"{where}.{key}")
    return found


def test_checker_catches_what_it_should() -> None:
    """The checker itself: a test that cannot fail is a defect, so show it fails."""
    round_schema = {"$ref": "#/components/schemas/Round"}
    good = {
        "number": 1,
        "ending": "went_out",
        "winner": "Ann",
        "racks": {"Bo": 5},
        "scores": {"Ann": 5, "Bo": -5},
        "flags": [],
        "version": 1,
    }
    assert violations(good, round_schema) == []
    assert violations({**good, "extra": 1}, round_schema) == ["$: extra is not documented"]
    assert violations({**good, "ending": "won"}, round_schema)
    assert violations({**good, "racks": {"Bo": "5"}}, round_schema)
    assert violations({**good, "version": True}, round_schema)
    without_flags = {k: v for k, v in good.items() if k != "flags"}
    assert violations(without_flags, round_schema) == ["$: flags is missing"]
    rack = {"$ref": "#/components/schemas/Rack"}
    assert violations(["r7", "j"], rack) == violations(12, rack) == []
    assert violations(1.5, rack) and violations(True, rack) and violations({"r": 7}, rack)
    assert violations({"errors": []}, {"$ref": "#/components/schemas/Error"})
    assert violations("2025-13-01", {"type": "string", "format": "date"})


# --- Walking the document ---------------------------------------------------------------------


def operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in OPENAPI["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                yield path, method, item[method]


def all_schemas() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object in the document, nested ones included, with where it is."""

    def nested(schema: dict[str, Any], where: str) -> Iterator[tuple[str, dict[str, Any]]]:
        yield where, schema
        for key, sub in schema.get("properties", {}).items():
            yield from nested(sub, f"{where}.properties.{key}")
        for key in ("items", "additionalProperties"):
            if isinstance(schema.get(key), dict):
                yield from nested(schema[key], f"{where}.{key}")
        for union in ("oneOf", "anyOf"):
            for i, sub in enumerate(schema.get(union, [])):
                yield from nested(sub, f"{where}.{union}[{i}]")

    for name, schema in SCHEMAS.items():
        yield from nested(schema, f"components.{name}")
    for path, method, op in operations():
        where = f"{method.upper()} {path}"
        for param in OPENAPI["paths"][path].get("parameters", []) + op.get("parameters", []):
            yield from nested(param["schema"], f"{where} {param['name']}")
        if "requestBody" in op:
            yield from nested(op["requestBody"]["content"][JSON]["schema"], f"{where} body")
        for status, answer in op["responses"].items():
            for header, spec in answer.get("headers", {}).items():
                yield from nested(spec["schema"], f"{where} {status} {header}")
            if "content" in answer:
                yield from nested(answer["content"][JSON]["schema"], f"{where} {status}")


def app_operations(app: Flask) -> set[tuple[str, str]]:
    """(path, METHOD) of every route under /api/v1, `<int:x>` written `{x}`."""
    found = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith(API + "/"):
            path = re.sub(r"<(?:[^<>:]+:)?([^<>]+)>", r"{\1}", rule.rule)
            found |= {(path, m) for m in (rule.methods or set()) - {"HEAD", "OPTIONS"}}
    return found


def documented_operations() -> set[tuple[str, str]]:
    return {(path, method.upper()) for path, method, _ in operations()}


def test_every_api_route_is_documented(app: Flask) -> None:
    assert app_operations(app) - documented_operations() == set()


def test_every_documented_operation_exists(app: Flask) -> None:
    assert documented_operations() - app_operations(app) == set()


def test_a_new_route_would_be_noticed(make_app: Callable[..., Flask]) -> None:
    app = make_app()  # an app of its own: the route added is no other test's
    assert ("/api/v1/sessions/{session_id}/rounds/{number}", "DELETE") in app_operations(app)
    app.add_url_rule(f"{API}/sessions/<int:session_id>/notes", "notes", lambda session_id: "")
    missing = app_operations(app) - documented_operations()
    assert missing == {("/api/v1/sessions/{session_id}/notes", "GET")}


def test_document_is_openapi_3_1_with_unique_operation_ids() -> None:
    assert OPENAPI["openapi"] == "3.1.0"
    ids = [op["operationId"] for _, _, op in operations()]
    assert len(ids) == len(set(ids))


def test_schemas_use_only_checked_keywords_and_refs_resolve() -> None:
    for where, schema in all_schemas():
        unknown = set(schema) - CHECKED_KEYWORDS - ANNOTATIONS
        assert not unknown, f"{where} uses {unknown}, which the tests cannot check"
        if "$ref" in schema:
            assert schema["$ref"].removeprefix("#/components/schemas/") in SCHEMAS, where
        kinds = schema.get("type", [])
        for kind in [kinds] if isinstance(kinds, str) else kinds:
            assert kind in {"integer", "number", "string", "boolean", "array", "object", "null"}


def test_every_operation_documents_its_statuses() -> None:
    for path, method, op in operations():
        statuses = set(op["responses"])
        where = f"{method.upper()} {path}"
        assert statuses & {"200", "201", "204"}, where
        if "{" in path:
            assert "404" in statuses, f"{where} has a path parameter but no 404"
        if "requestBody" in op:
            assert {"400", "413"} <= statuses, f"{where} takes a body but documents no 400/413"
            assert op["requestBody"]["content"][JSON]["examples"], f"{where} has no example"
        for status, answer in op["responses"].items():
            if status.startswith(("4", "5")):
                schema = answer["content"][JSON]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, where
            if status == "201":
                assert "Location" in answer["headers"], where


def test_examples_fit_their_schemas() -> None:
    for path, method, op in operations():
        where = f"{method.upper()} {path}"
        if "requestBody" in op:
            media = op["requestBody"]["content"][JSON]
            for name, example in media["examples"].items():
                # Accepted bodies fit the schema; malformed ones (400) must not.
                status, _ = documented_answer(op, name)
                found = violations(example["value"], media["schema"])
                if status < 300:
                    assert found == [], f"{where} {name}"
                elif status == 400:
                    assert found, f"{where} {name} is refused as malformed but fits the schema"
        for status, answer in op["responses"].items():
            media = answer.get("content", {}).get(JSON, {})
            for name, example in media.get("examples", {}).items():
                found = violations(example["value"], media["schema"])
                assert found == [], f"{where} {status} {name}"


def test_design_examples_are_documented() -> None:
    """The example bodies of docs/DESIGN.md 3 appear in the document exactly as written there."""
    rounds = OPENAPI["paths"]["/api/v1/sessions/{session_id}/rounds"]["post"]
    bodies = [e["value"] for e in rounds["requestBody"]["content"][JSON]["examples"].values()]
    assert WENT_OUT in bodies
    assert {
        "ending": "went_out",
        "winner": "Ann",
        "racks": {"Bo": ["r7", "k13", "j"], "Cy": 12, "Di": 8},
    } in bodies
    assert {
        "ending": "pool_empty",
        "racks": {"Ann": 10, "Bo": 22, "Cy": 55, "Di": 8},
        "tile_counts": {"Ann": 3, "Bo": 5, "Cy": 9, "Di": 2},
        "winner": "Di",
    } in bodies
    assert {"ending": "scores", "scores": {"Ann": 24, "Bo": -5, "Cy": -16, "Di": -3}} in bodies
    sessions = OPENAPI["paths"]["/api/v1/sessions"]["post"]["requestBody"]["content"][JSON]
    assert sessions["examples"]["sunday"]["value"] == {
        "name": "Sunday",
        "players": PLAYERS,
        "rounds": 3,
        "rules": DEFAULT_RULES,
    }
    tools = {
        "set": {"tiles": ["j", "r12", "r13"]},
        "meld": {"sets": [["r10", "b10", "j"], ["k1", "k2", "k3"]]},
        "rack": {"tiles": ["r7", "k13", "j"]},
    }
    for tool, body in tools.items():
        op = OPENAPI["paths"][f"/api/v1/rules/{tool}"]["post"]
        assert body in [e["value"] for e in op["requestBody"]["content"][JSON]["examples"].values()]


def test_document_is_served_as_json(client: FlaskClient) -> None:
    response = client.get(f"{API}/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == JSON
    assert json.loads(response.get_data(as_text=True)) == json.loads(json.dumps(OPENAPI))
    json.dumps(OPENAPI, allow_nan=False)  # strict JSON: no NaN, no non-string keys


def test_the_document_is_english_whichever_request_builds_it(app: Flask) -> None:
    """The document is built in the first request that asks for it: the gate's answers, the
    one part worded through gettext, stay English in a request of another language."""
    with app.test_request_context("/", headers={"Accept-Language": "pl"}):
        restoring = {"errors": [http_problem(ServiceUnavailable())]}
        assert restoring["errors"][0]["message"] != RESTORING  # the request is in Polish
        answers = openapi._gate_answers()
    assert answers["503"]["content"][JSON]["examples"]["restoring"]["value"]["errors"] == [
        {"code": "service_unavailable", "message": RESTORING}
    ]


# --- Examples round-trip ----------------------------------------------------------------------


def documented_answer(op: dict[str, Any], name: str) -> tuple[int, Any]:
    """The one status whose response holds an example of this name, and that example."""
    found = [
        (int(status), answer["content"][JSON]["examples"][name]["value"])
        for status, answer in op["responses"].items()
        if name in answer.get("content", {}).get(JSON, {}).get("examples", {})
    ]
    assert len(found) == 1, f"request example {name} needs exactly one response example"
    return found[0]


def comparable(actual: Any, expected: Any) -> Any:
    """`actual` with each session's id and date taken from `expected` (they vary per run)."""
    if isinstance(actual, dict) and isinstance(expected, dict):
        out = {key: comparable(value, expected.get(key)) for key, value in actual.items()}
        if "rounds_planned" in actual:
            date.fromisoformat(actual["date"])
            assert isinstance(actual["id"], int)
            out["id"], out["date"] = expected.get("id"), expected.get("date")
        return out
    if isinstance(actual, list) and isinstance(expected, list) and len(actual) == len(expected):
        return [comparable(a, e) for a, e in zip(actual, expected, strict=True)]
    return actual


def check_answer(path: str, method: str, response: Response) -> None:
    """The status is documented for the operation and the body fits its schema."""
    op = OPENAPI["paths"][path][method]
    answer = op["responses"].get(str(response.status_code))
    assert answer is not None, f"{method.upper()} {path}: undocumented {response.status_code}"
    for header in answer.get("headers", {}):
        assert response.headers.get(header), f"{method.upper()} {path}: no {header} header"
    if "content" not in answer:
        assert response.get_data() == b""
        return
    assert response.mimetype == JSON
    schema = answer["content"][JSON]["schema"]
    assert violations(response.get_json(), schema) == []


def request_examples() -> Iterator[Any]:
    for path, method, op in operations():
        for name in op.get("requestBody", {}).get("content", {}).get(JSON, {}).get("examples", {}):
            yield pytest.param(path, method, name, id=f"{op['operationId']}-{name}")


@pytest.mark.parametrize(("path", "method", "name"), list(request_examples()))
def test_request_example_round_trips(
    client: FlaskClient, path: str, method: str, name: str
) -> None:
    op = OPENAPI["paths"][path][method]
    body = op["requestBody"]["content"][JSON]["examples"][name]["value"]
    status, expected = documented_answer(op, name)
    session_id = new_session(client, PLAYERS, name="Sunday")
    if "{number}" in path:
        assert client.post(f"{API}/sessions/{session_id}/rounds", json=WENT_OUT).status_code == 201
    response = client.open(
        path.format(session_id=session_id, number=1), method=method.upper(), json=body
    )
    assert response.status_code == status, response.get_json()
    check_answer(path, method, response)
    assert comparable(response.get_json(), expected) == expected
    if status == 201:
        created = response.get_json()
        number = created.get("number")
        location = (
            f"{API}/sessions/{session_id}/rounds/{number}"
            if number
            else f"{API}/sessions/{created['id']}"
        )
        assert response.headers["Location"] == location


def get_examples() -> Iterator[Any]:
    for path, method, op in operations():
        media = op["responses"].get("200", {}).get("content", {}).get(JSON, {})
        if method == "get" and media.get("examples"):
            yield pytest.param(path, id=op["operationId"])


@pytest.mark.parametrize("path", list(get_examples()))
def test_read_examples_match(client: FlaskClient, path: str) -> None:
    """The GET examples show the fresh session after the went_out round of docs/DESIGN.md 3."""
    session_id = new_session(client, PLAYERS, name="Sunday")
    assert client.post(f"{API}/sessions/{session_id}/rounds", json=WENT_OUT).status_code == 201
    response = client.get(path.format(session_id=session_id, number=1))
    assert response.status_code == 200
    check_answer(path, "get", response)
    examples = OPENAPI["paths"][path]["get"]["responses"]["200"]["content"][JSON]["examples"]
    for example in examples.values():
        assert comparable(response.get_json(), example["value"]) == example["value"]


# --- Every documented status happens, and every answer fits ----------------------------------

SESSIONS = "/api/v1/sessions"
SESSION = "/api/v1/sessions/{session_id}"
EXTEND = "/api/v1/sessions/{session_id}/extend"
ROUNDS = "/api/v1/sessions/{session_id}/rounds"
ROUND = "/api/v1/sessions/{session_id}/rounds/{number}"
TOOLS = ["/api/v1/rules/set", "/api/v1/rules/meld", "/api/v1/rules/rack", "/api/v1/rules/swap"]
TYPO = {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 200, "Cy": 12, "Di": 8}}
BIG = "x" * (65 * 1024)


def tour(session_id: int) -> list[tuple[str, str, dict[str, Any], Any, int]]:
    """(path, method, path values (and a "query" string), body, expected status): every
    operation, every outcome."""
    here = {"session_id": session_id}
    gone = {"session_id": 999_999}
    first = {**here, "number": 1}
    tool_bodies = {
        "/api/v1/rules/set": {"tiles": ["r5", "b5", "k5"]},
        "/api/v1/rules/meld": {"sets": [["r10", "b10", "j"]]},
        "/api/v1/rules/rack": {"tiles": ["r7"]},
        "/api/v1/rules/swap": {"set": ["b3", "b4", "j"], "tile": "b5"},
    }
    steps: list[tuple[str, str, dict[str, Any], Any, int]] = [
        (SESSIONS, "get", {}, None, 200),
        (SESSIONS, "get", {"query": "?limit=2&offset=1"}, None, 200),
        (SESSIONS, "get", {"query": "?limit=0"}, None, 400),
        (SESSIONS, "post", {}, {"players": ["Ann", "Bo"]}, 201),
        (SESSIONS, "post", {}, "not json", 400),
        (SESSIONS, "post", {}, {"players": "Ann, Bo"}, 400),
        (SESSIONS, "post", {}, {"players": ["Ann", "Bo"], "rules": {"run_wrap": "yes"}}, 400),
        (SESSIONS, "post", {}, {"players": ["Ann", "ann"]}, 422),
        (SESSIONS, "post", {}, {"players": ["Ann", "Bo"], "rounds": 0}, 422),
        (SESSIONS, "post", {}, BIG, 413),
        (SESSIONS, "post", {}, {"players": ["Ann", "Bo"], "key": "evening"}, 201),
        (SESSIONS, "post", {}, {"players": ["Ann", "Bo"], "key": "evening"}, 200),
        (SESSIONS, "post", {}, {"players": ["Cy", "Di"], "key": "evening"}, 409),  # key_reused
        (SESSION, "get", here, None, 200),
        (SESSION, "get", here, None, 304),  # If-None-Match: the ETag just read
        (SESSION, "get", gone, None, 404),
        (SESSION, "get", {"session_id": 10**30}, None, 404),
        (EXTEND, "post", here, {}, 200),
        (EXTEND, "post", here, "not json", 400),
        (EXTEND, "post", here, {"rounds": 1.5}, 400),
        (EXTEND, "post", here, {"rounds": 0}, 422),
        (EXTEND, "post", gone, {"rounds": 1}, 404),
        (EXTEND, "post", here, BIG, 413),
        (EXTEND, "post", here, {"rounds": 1, "version": 1}, 409),  # stale_session
        (ROUNDS, "post", here, {**WENT_OUT, "key": "once"}, 201),
        (ROUNDS, "post", here, {**WENT_OUT, "key": "once"}, 200),
        (
            ROUNDS,
            "post",
            here,
            {"ending": "scores", "scores": {"Ann": 5, "Bo": -5}, "key": "once"},
            409,
        ),
        (ROUNDS, "post", here, {**WENT_OUT, "version": 1}, 409),  # stale_round: renumbered
        (ROUNDS, "post", here, {**WENT_OUT, "racks": {"Bo": 1.5, "Cy": 1, "Di": 1}}, 400),
        (ROUNDS, "post", here, {**WENT_OUT, "racks": [22, 55, 8]}, 400),
        (ROUNDS, "post", here, {"ending": "won"}, 400),
        (ROUNDS, "post", gone, WENT_OUT, 404),
        (ROUNDS, "post", here, TYPO, 409),
        (ROUNDS, "post", here, {**WENT_OUT, "winner": "Ed"}, 422),
        (ROUNDS, "post", here, {**WENT_OUT, "racks": {"Bo": -1, "Cy": 1, "Di": 1}}, 422),
        (ROUNDS, "post", here, BIG, 413),
        (ROUND, "get", first, None, 200),
        (ROUND, "get", {**here, "number": 9}, None, 404),
        (
            ROUND,
            "put",
            first,
            {**WENT_OUT, "winner": "bo", "racks": {"Ann": 5, "Cy": 5, "Di": 5}},
            200,
        ),
        (ROUND, "put", first, "not json", 400),
        (ROUND, "put", {**here, "number": 9}, WENT_OUT, 404),
        (ROUND, "put", first, TYPO, 409),
        (ROUND, "put", first, {**WENT_OUT, "version": 999_999}, 409),  # stale_round
        (ROUND, "put", first, {"ending": "scores", "scores": {"Ann": 1}}, 422),
        (ROUND, "put", first, BIG, 413),
        (ROUND, "delete", {**here, "number": 9}, None, 404),
        (ROUND, "delete", {**first, "query": "?version=0"}, None, 400),
        (ROUND, "delete", {**first, "query": "?version=999999"}, None, 409),  # stale_round
        (ROUND, "delete", first, None, 204),
        (ROUNDS, "post", here, {"ending": "scores", "scores": {"Ann": 5, "Bo": 0}}, 422),
    ]
    for tool, body in tool_bodies.items():
        steps += [
            (tool, "post", {}, body, 200),
            (tool, "post", {}, {**body, "session": session_id, "rules": {"tile_sets": 2}}, 200),
            (tool, "post", {}, [body], 400),
            (tool, "post", {}, {**body, "rules": {"colour_blind": True}}, 400),
            (tool, "post", {}, {**body, "session": 999_999}, 404),
            (tool, "post", {}, {**body, "rules": {"tile_sets": 3}}, 422),
            (tool, "post", {}, BIG, 413),
        ]
    steps.append(("/api/v1/openapi.json", "get", {}, None, 200))
    return steps


def gate_tour(app: Flask) -> set[tuple[str, str, str]]:
    """Every operation behind a passphrase: 401 without it, 429 once too many were wrong, 503
    while a restore runs. The gate answers before the route, so no session needs to exist."""
    client = app.test_client()
    seen: set[tuple[str, str, str]] = set()
    for path, method, _ in operations():
        response = client.open(path.format(session_id=1, number=1), method=method.upper())
        assert response.status_code == 401, (method, path, response.get_json())
        check_answer(path, method, response)
        seen.add((path, method, "401"))
    for _ in range(app.config["ACCESS_FAILURE_LIMIT"]):
        wrong = client.get(f"{API}/sessions", headers={"Authorization": "Bearer wrong wrong"})
        assert wrong.status_code == 401
        check_answer(SESSIONS, "get", wrong)
    for path, method, _ in operations():
        response = client.open(
            path.format(session_id=1, number=1),
            method=method.upper(),
            headers={"Authorization": f"Bearer {PASSPHRASE}"},
        )
        assert response.status_code == 429, (method, path, response.get_json())
        check_answer(path, method, response)
        seen.add((path, method, "429"))
    flag = app.extensions[RESTORE_FLAG]  # a restore under way (`flask restore`'s flag)
    flag.write_text(f"{os.getpid()}\n", encoding="ascii")
    try:
        for path, method, _ in operations():
            response = client.open(path.format(session_id=1, number=1), method=method.upper())
            assert response.status_code == 503, (method, path, response.get_json())
            check_answer(path, method, response)
            seen.add((path, method, "503"))
    finally:
        flag.unlink()
    return seen


def test_every_documented_status_happens_and_fits(
    client: FlaskClient, make_app: Callable[..., Flask]
) -> None:
    session_id = new_session(client, PLAYERS, name="Sunday")
    seen: set[tuple[str, str, str]] = set()
    for path, method, values, body, status in tour(session_id):
        url = path.format(**values) + values.get("query", "")
        if status == 304:
            etag = client.get(url).headers["ETag"]
            response = client.open(url, method="GET", headers={"If-None-Match": etag})
        elif body is None:
            response = client.open(url, method=method.upper())
        elif isinstance(body, str):
            response = client.open(url, method=method.upper(), data=body, content_type=JSON)
        else:
            response = client.open(url, method=method.upper(), json=body)
        assert response.status_code == status, (method, url, body, response.get_json())
        check_answer(path, method, response)
        seen.add((path, method, str(status)))
    seen |= gate_tour(make_app(PASSPHRASE=PASSPHRASE))
    documented = {
        (path, method, status) for path, method, op in operations() for status in op["responses"]
    }
    assert documented - seen == set(), "documented statuses the tour never saw"


def test_session_complete_and_replay_fit(client: FlaskClient) -> None:
    """409 session_complete is documented for adding a round, and so is the 200 replay."""
    session_id = new_session(client, PLAYERS, name="Sunday")
    url = f"{API}/sessions/{session_id}/rounds"
    for key in ("r1", "r2", "r3"):
        assert client.post(url, json={**WENT_OUT, "key": key}).status_code == 201
    refused = client.post(url, json=WENT_OUT)
    assert refused.status_code == 409
    check_answer(ROUNDS, "post", refused)
    replay = client.post(url, json={**WENT_OUT, "key": "r2"})
    assert replay.status_code == 200
    check_answer(ROUNDS, "post", replay)
    assert replay.get_json()["number"] == 2


# --- The passphrase gate ----------------------------------------------------------------------


def test_the_gate_is_documented_on_every_operation() -> None:
    """The bearer scheme and the phone's cookie, either of which opens every operation (or
    nothing while no passphrase is set), and the gate's 401 and 429 on each."""
    schemes = OPENAPI["components"]["securitySchemes"]
    assert schemes["passphrase"] == {**schemes["passphrase"], "type": "http", "scheme": "bearer"}
    cookie = schemes["phoneCookie"]
    assert (cookie["type"], cookie["in"]) == ("apiKey", "cookie")
    assert cookie["name"] == Defaults.ACCESS_COOKIE_NAME
    assert OPENAPI["security"] == [{"passphrase": []}, {"phoneCookie": []}, {}]
    for path, method, op in operations():
        assert "security" not in op, f"{method.upper()} {path} is behind the gate like the rest"
        assert {"401", "429"} <= set(op["responses"]), f"{method.upper()} {path}"
        assert "WWW-Authenticate" in op["responses"]["401"]["headers"]
        assert "Retry-After" in op["responses"]["429"]["headers"]


def test_a_signed_in_phones_cookie_opens_the_api(make_app: Callable[..., Flask]) -> None:
    """The cookie scheme as documented: signed in on the pages, no bearer token needed."""
    app = make_app(PASSPHRASE=PASSPHRASE)
    client = app.test_client()
    assert client.get(f"{API}/sessions").status_code == 401
    signed_in = client.post("/sign-in", data={"passphrase": PASSPHRASE, "next": "/"})
    assert signed_in.status_code == 303
    assert client.get_cookie(OPENAPI["components"]["securitySchemes"]["phoneCookie"]["name"])
    response = client.get(f"{API}/sessions")
    assert response.status_code == 200
    check_answer(SESSIONS, "get", response)


def test_version_and_stale_round_are_documented_on_put_and_delete() -> None:
    put = OPENAPI["paths"][ROUND]["put"]
    delete = OPENAPI["paths"][ROUND]["delete"]
    assert "version" in SCHEMAS["RoundInput"]["properties"]
    assert resolve(put["requestBody"]["content"][JSON]["schema"]) is SCHEMAS["RoundInput"]
    [version] = [p for p in delete["parameters"] if p["name"] == "version"]
    assert (version["in"], version["required"]) == ("query", False)
    assert version["schema"]["type"] == "integer"
    for op in (put, delete):
        examples = op["responses"]["409"]["content"][JSON]["examples"]
        assert examples["stale_round"]["value"]["errors"][0]["code"] == "stale_round"
