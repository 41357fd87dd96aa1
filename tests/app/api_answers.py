"""Reading the API's error answers, shared by the API and hostile-input tests."""

from __future__ import annotations

from werkzeug.test import TestResponse


def problems(response: TestResponse, status: int) -> list[dict[str, str]]:
    """The problems of an error answer, after checking its status and the docs/DESIGN.md 3 shape."""
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert set(body) == {"errors"}
    assert isinstance(body["errors"], list) and body["errors"]
    for problem in body["errors"]:
        assert {"code", "message"} <= set(problem) <= {"code", "message", "field"}
        assert isinstance(problem["code"], str) and problem["code"]
        assert isinstance(problem["message"], str) and problem["message"]
        assert isinstance(problem.get("field", ""), str)
    return body["errors"]
