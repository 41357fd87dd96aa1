"""bench/seed.py, the history the scale benchmarks read, writes the rows the app would have
written: the app reads them back, each session's last change included (the code and params
the app stores since migration 0008)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from seed import seed  # noqa: E402

from scorekeeper import create_app  # noqa: E402


def test_the_seeded_history_reads_as_the_app_wrote_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'history.db'}"
    counts = seed(url, sessions=4, rounds_per_session=3)
    assert counts["sessions"] == 4 and counts["rounds"] == 12
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url},
        instance_path=str(tmp_path / "instance"),
    )
    client = app.test_client()
    for session_id in range(1, 5):
        document = client.get(f"/api/v1/sessions/{session_id}").get_json()
        assert len(document["rounds"]) == 3
        assert document["last_change"]["code"] == "round_added"
        assert document["last_change"]["message"] == "Round 3 added"
    assert client.get("/").status_code == 200
