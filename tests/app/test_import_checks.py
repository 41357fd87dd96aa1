"""`flask import-json` checks everything it imports before writing any of it: each row's
shape, every reference, each session's settings and players, and every round scored again by
the rules. A bad record is named ("Session 1, round 2: ..."), the command fails, and the
database stays empty. On SQLite and on PostgreSQL."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from factories import wipe
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.services import backup, rounds, sessions

# The tests share this worker's app per database (tests/conftest.py SharedApps).
pytestmark = pytest.mark.shared_app

Document = dict[str, Any]


@pytest.fixture
def export(app: Flask) -> Iterator[Document]:
    """An export of two evenings (every ending, tiles, a confirmed flag), then an empty
    database to import into."""
    with app.app_context():
        sunday = sessions.create_session(["Ann", "Bo", "Cy"], "Sunday", 3)
        for body in (
            {"ending": "went_out", "winner": "Ann", "racks": {"Bo": 22, "Cy": ["r7", "k13", "j"]}},
            {"ending": "pool_empty", "racks": {"Ann": 10, "Bo": 4, "Cy": 30}},
            {"ending": "scores", "scores": {"Ann": -6, "Bo": 11, "Cy": -5}},
        ):
            rounds.add_round(sunday.id, body)
        monday = sessions.create_session(["Ann", "Di"], "Monday", 2)
        rounds.add_round(
            monday.id,
            {"ending": "went_out", "winner": "Di", "racks": {"Ann": 200}, "confirm": True},
        )
        document = backup.export_everything()
        wipe()
    yield json.loads(json.dumps(document))


def _row(document: Document, table: str, **match: Any) -> dict[str, Any]:
    found = [r for r in document["tables"][table] if all(r[k] == v for k, v in match.items())]
    assert len(found) == 1, (table, match)
    return found[0]


def _round(document: Document, session: int, number: int) -> dict[str, Any]:
    return _row(document, "rounds", session_id=session, number=number)


def _entry(document: Document, session: int, number: int, name: str) -> dict[str, Any]:
    seat = _row(document, "seats", session_id=session, name=name)
    return _row(
        document, "entries", round_id=_round(document, session, number)["id"], seat_id=seat["id"]
    )


def _rules_not_an_object(d: Document) -> None:
    _row(d, "sessions", id=2)["rules"] = "not an object"


def _setting_out_of_range(d: Document) -> None:
    _row(d, "sessions", id=2)["rules"]["joker_penalty"] = 500


def _unknown_setting(d: Document) -> None:
    _row(d, "sessions", id=1)["rules"]["house_rule"] = True


def _five_players_one_set(d: Document) -> None:
    tables = d["tables"]
    for i, name in enumerate(["Eve", "Fay", "Gus"]):
        tables["players"].append(
            {**tables["players"][0], "id": 90 + i, "name": name, "name_key": name.lower()}
        )
        tables["seats"].append(
            {
                **tables["seats"][0],
                "id": 90 + i,
                "player_id": 90 + i,
                "position": 3 + i,
                "name": name,
            }
        )


def _duplicate_names(d: Document) -> None:
    _row(d, "seats", session_id=1, name="Cy")["name"] = "bo"


def _entry_of_a_stranger(d: Document) -> None:
    # Di plays on Monday only: her seat in Sunday's round 1 is no player of Sunday.
    _entry(d, 1, 1, "Bo")["seat_id"] = _row(d, "seats", session_id=2, name="Di")["id"]


def _winner_from_nowhere(d: Document) -> None:
    _round(d, 1, 1)["winner_seat_id"] = 999


def _paper_round_does_not_add_up(d: Document) -> None:
    _entry(d, 1, 3, "Bo")["score"] = 23


def _stored_score_not_derived(d: Document) -> None:
    _entry(d, 1, 1, "Ann")["score"] = 80  # the losers' racks make 22 + 50


def _missing_entry(d: Document) -> None:
    d["tables"]["entries"].remove(_entry(d, 2, 1, "Ann"))


def _bad_ending(d: Document) -> None:
    _round(d, 1, 2)["ending"] = "gave_up"


def _rounds_not_numbered_in_order(d: Document) -> None:
    _round(d, 1, 3)["number"] = 5


def _more_rounds_than_agreed(d: Document) -> None:
    _row(d, "sessions", id=1)["rounds_planned"] = 2


def _wrong_type(d: Document) -> None:
    _row(d, "sessions", id=1)["rounds_planned"] = "three"


def _not_a_row(d: Document) -> None:
    d["tables"]["rounds"].append("round 4")


def _repeated_id(d: Document) -> None:
    d["tables"]["entries"].append(dict(d["tables"]["entries"][0]))


# Issue 23, finding 10: what the app never writes.
HOUSEHOLD = {"id": 1, "changed_at": "2026-01-01T00:00:00", "cookie_epoch": 0, "generation": "g1"}


def _one_version_two_rounds(d: Document) -> None:
    _round(d, 1, 2)["version"] = _round(d, 1, 1)["version"]


def _negative_round_version(d: Document) -> None:
    _round(d, 1, 1)["version"] = -1


def _round_version_past_its_session(d: Document) -> None:
    _round(d, 2, 1)["version"] = _row(d, "sessions", id=2)["version"] + 1


def _negative_session_version(d: Document) -> None:
    _row(d, "sessions", id=2)["version"] = -5


def _name_key_not_its_name(d: Document) -> None:
    _row(d, "players", name="Bo")["name_key"] = "ann2"


def _bidi_in_a_player_name(d: Document) -> None:
    player = _row(d, "players", name="Cy")
    player["name"], player["name_key"] = "Cy\u202e", "cy\u202e"


def _filler_as_a_player_name(d: Document) -> None:
    player = _row(d, "players", name="Cy")
    player["name"], player["name_key"] = "\u3164", "\u3164"


def _control_in_a_session_name(d: Document) -> None:
    _row(d, "sessions", id=1)["name"] = "Sunday\x1b[2J"


def _bidi_in_notes(d: Document) -> None:
    _row(d, "sessions", id=2)["notes"] = "Di won \u2066again\u2069"


def _absurd_hash(d: Document) -> None:
    d["tables"]["household"] = [{**HOUSEHOLD, "passphrase_hash": "scrypt:4294967296:8:1$ab$cd"}]


def _not_a_hash(d: Document) -> None:
    d["tables"]["household"] = [{**HOUSEHOLD, "passphrase_hash": "hunter2"}]


def _sign_in_failure_in_2999(d: Document) -> None:
    d["tables"]["failed_sign_ins"] = [
        {"id": 7, "address": "192.168.1.9", "attempted_at": "2999-01-01T00:00:00"}
    ]


CASES: dict[str, tuple[Callable[[Document], None], list[str]]] = {
    "one-version-two-rounds": (
        _one_version_two_rounds,
        ["Session 1, round 2: Its version 2 is also the version of round 1."],
    ),
    "negative-round-version": (
        _negative_round_version,
        ["Session 1, round 1: Its version -1 is not from 1 to the session's version 4."],
    ),
    "round-version-past-its-session": (
        _round_version_past_its_session,
        ["Session 2, round 1: Its version 3 is not from 1 to the session's version 2."],
    ),
    "negative-session-version": (
        _negative_session_version,
        ["Session 2: Its version -5 is below 1."],
    ),
    "name-key-not-its-name": (
        _name_key_not_its_name,
        ['players row with id 2: name_key "ann2" is not the key of the name "Bo".'],
    ),
    "bidi-in-a-player-name": (
        _bidi_in_a_player_name,
        ["players row with id 3: “Cy\u202e” is too long or has characters that cannot be shown"],
    ),
    "filler-as-a-player-name": (
        _filler_as_a_player_name,
        ["players row with id 3: A player's name cannot hold characters that show nothing."],
    ),
    "control-in-a-session-name": (
        _control_in_a_session_name,
        ["Session 1: A session name cannot hold control characters."],
    ),
    "bidi-in-notes": (_bidi_in_notes, ["Session 2: Notes cannot hold control characters."]),
    "absurd-hash": (
        _absurd_hash,
        ["household row with id 1: passphrase_hash is not a hash Scorekeeper writes."],
    ),
    "not-a-hash": (
        _not_a_hash,
        ["household row with id 1: passphrase_hash is not a hash Scorekeeper writes."],
    ),
    "sign-in-failure-in-2999": (
        _sign_in_failure_in_2999,
        ["failed_sign_ins row with id 7: attempted_at 2999-01-01T00:00:00 is in the future."],
    ),
    "rules-not-an-object": (
        _rules_not_an_object,
        ["Session 2: The rules must be an object of settings."],
    ),
    "setting-out-of-range": (
        _setting_out_of_range,
        ["Session 2: Joker penalty must be a whole number from 0 to 100."],
    ),
    "unknown-setting": (_unknown_setting, ["Session 1: house_rule is not a setting."]),
    "five-players-one-set": (_five_players_one_set, ["Session 1: 6 players need two tile sets"]),
    "duplicate-names": (_duplicate_names, ["Session 1: bo is already playing"]),
    "entry-of-a-stranger": (
        _entry_of_a_stranger,
        ["Session 1, round 1: Di is not playing in this session."],
    ),
    "winner-from-nowhere": (
        _winner_from_nowhere,
        ["rounds row with id 1: winner_seat_id 999 is in no row of seats."],
    ),
    "paper-round-does-not-add-up": (
        _paper_round_does_not_add_up,
        ["Session 1, round 3: Adds up to +12: someone counted a rack wrong."],
    ),
    "stored-score-not-derived": (
        _stored_score_not_derived,
        ["Session 1, round 1: Ann: score is stored as 80, the rules give 72."],
    ),
    "missing-entry": (_missing_entry, ["Session 2, round 1: Ann: enter what is left."]),
    "bad-ending": (
        _bad_ending,
        ["Session 1, round 2: A round ends with went_out, pool_empty or scores."],
    ),
    "rounds-not-numbered-in-order": (
        _rounds_not_numbered_in_order,
        ["Session 1: Its rounds are numbered 1, 2, 5, not 1 to 3."],
    ),
    "more-rounds-than-agreed": (
        _more_rounds_than_agreed,
        ["Session 1: 3 rounds are stored, but 2 were agreed."],
    ),
    "wrong-type": (_wrong_type, ['sessions row with id 1: rounds_planned cannot hold "three".']),
    "not-a-row": (_not_a_row, ['The export\'s rounds holds "round 4", which is not a row.']),
    "repeated-id": (_repeated_id, ["entries row with id 1: the same id as another row."]),
}


def _empty(app: Flask) -> bool:
    with app.app_context():
        return all(
            not db.session.scalar(sa.select(sa.func.count()).select_from(table))
            for table in db.metadata.sorted_tables
            if table.name != "household"  # every database has its row (models.py)
        )


@pytest.mark.parametrize("case", list(CASES))
def test_import_refuses_a_bad_record_and_writes_nothing(
    app: Flask, export: Document, tmp_path: Path, case: str
) -> None:
    spoil, said = CASES[case]
    document = copy.deepcopy(export)
    spoil(document)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["import-json", str(path)])
    assert result.exit_code != 0, result.output
    for words in said:
        assert words in result.output
    assert "Traceback" not in result.output
    assert _empty(app)


def test_the_unspoilt_export_imports(app: Flask, export: Document, tmp_path: Path) -> None:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["import-json", str(path)])
    assert result.exit_code == 0, result.output
    with app.app_context():
        imported = backup.export_everything()
    # The same rows; the household's generation is drawn afresh by the import.
    assert imported["tables"].pop("household")[0]["generation"]
    export["tables"].pop("household")
    assert imported == export


def test_every_bad_record_is_named_at_once(app: Flask, export: Document, tmp_path: Path) -> None:
    _rules_not_an_object(export)
    _paper_round_does_not_add_up(export)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["import-json", str(path)])
    assert result.exit_code != 0
    assert "Session 2: The rules must be an object of settings." in result.output
    assert "Session 1, round 3: Adds up to +12" in result.output
    assert _empty(app)


@pytest.mark.parametrize(
    "method", ["scrypt", "scrypt:1024:8:1", "pbkdf2:sha256", "pbkdf2:sha256:600000"]
)
def test_a_passphrase_hash_the_app_writes_imports(
    app: Flask, export: Document, tmp_path: Path, method: str
) -> None:
    from werkzeug.security import generate_password_hash

    hashed = generate_password_hash("correct horse", method=method)
    export["tables"]["household"] = [{**HOUSEHOLD, "passphrase_hash": hashed}]
    export["tables"]["failed_sign_ins"] = [
        {"id": 1, "address": "192.168.1.9", "attempted_at": "2026-01-01T00:00:00"}
    ]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["import-json", str(path)])
    assert result.exit_code == 0, result.output
