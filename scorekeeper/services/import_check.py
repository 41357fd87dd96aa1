"""What a JSON export must hold before any of it is imported (services.backup): every problem,
each named by its record ("Session 3, round 2: ...")."""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

import sqlalchemy as sa

from scorekeeper.rules import (
    Problem,
    Rack,
    RoundEntry,
    RulesError,
    Settings,
    check_players,
    clean_name,
    score_round,
)
from scorekeeper.rules.players import name_key
from scorekeeper.services.bodies import MAX_ROUNDS

Rows = dict[str, list[dict[str, Any]]]
# The largest number PostgreSQL's integer holds (SQLite would take more, and lose it later).
LARGEST_INTEGER = 2**31 - 1
# The passphrase hashes werkzeug writes (services.access._hash), "scrypt:N:r:p$salt$hex" and
# "pbkdf2:name:iterations$salt$hex", with bounds that keep one check of a guess affordable.
_SCRYPT = re.compile(r"scrypt:(?P<n>[0-9]{1,8}):(?P<r>[0-9]{1,2}):(?P<p>[0-9]{1,2})")
_PBKDF2 = re.compile(r"pbkdf2:(?P<name>[a-z0-9_]{1,16}):(?P<iterations>[0-9]{1,8})")
_SALT = re.compile(r"[A-Za-z0-9]{1,64}")
_HEX = re.compile(r"[0-9a-f]+")
MAX_SCRYPT_MEMORY = 256 * 1024 * 1024
MAX_PBKDF2_ITERATIONS = 10_000_000
# A clock set a little differently on the phone that made the export is no harm.
CLOCK_SKEW = timedelta(minutes=5)


def check_export(tables: Mapping[str, Any], schema: Sequence[sa.Table]) -> None:
    """Raise a RulesError (code bad_backup) naming every bad record of the export's tables."""
    problems: list[Problem] = []
    rows = _shaped(tables, schema, problems)
    if not problems:
        _references(rows, schema, problems)
    if not problems:
        _players(rows, problems)
        _household(rows, problems)
        _sessions(rows, problems)
    if problems:
        raise RulesError(problems)


def _bad(message: str, **params: Any) -> Problem:
    """A problem with code bad_backup; `message` must be a string literal (babel.cfg extracts
    the first argument of _bad as the msgid)."""
    return Problem("bad_backup", message, params)


def _bad_row(table: str, row: Mapping[str, Any], message: str, **params: Any) -> Problem:
    """A bad_backup problem naming its row: `message` (the third argument, extracted as the
    msgid) starts "%(table)s row with id %(id)s: "."""
    return _bad(message, table=table, id=_shown(row.get("id")), **params)


def _in_row(table: str, row: Mapping[str, Any], problem: Problem) -> Problem:
    """One line naming the row (`players row with id 2: ...`)."""
    return _bad_row(table, row, "%(table)s row with id %(id)s: %(problem)s", problem=problem)


def _players(rows: Rows, problems: list[Problem]) -> None:
    """Each remembered player's name as the rules keep one, and its key derived from it."""
    for player in rows["players"]:
        name = player["name"]
        try:
            if clean_name(name) != name:
                raise RulesError.one("bad_name", "The name is not trimmed as the app keeps it.")
        except RulesError as err:
            problems.append(_in_row("players", player, err.problems[0]))
            continue
        if player["name_key"] != name_key(name):
            problem = _bad(
                "name_key %(key)s is not the key of the name %(name)s.",
                key=_shown(player["name_key"]),
                name=_shown(name),
            )
            problems.append(_in_row("players", player, problem))


def _household(rows: Rows, problems: list[Problem]) -> None:
    """A passphrase hash of a form the app writes, and no sign-in failure yet to come (a
    failure dated 2999 would lock the household out for good)."""
    for household in rows["household"]:
        hashed = household.get("passphrase_hash")
        if hashed is not None and not passphrase_hash_written_by_app(hashed):
            problem = _bad("passphrase_hash is not a hash Scorekeeper writes.")
            problems.append(_in_row("household", household, problem))
    now = datetime.now(UTC).replace(tzinfo=None)
    for failure in rows["failed_sign_ins"]:
        when = datetime.fromisoformat(failure["attempted_at"])
        if when.replace(tzinfo=None) > now + CLOCK_SKEW:
            problem = _bad("attempted_at %(when)s is in the future.", when=when.isoformat())
            problems.append(_in_row("failed_sign_ins", failure, problem))


def passphrase_hash_written_by_app(hashed: str) -> bool:
    """Whether werkzeug's generate_password_hash could have written this, with parameters
    that keep a check affordable."""
    method, _, rest = hashed.partition("$")
    salt, _, digest = rest.partition("$")
    if not _SALT.fullmatch(salt) or not _HEX.fullmatch(digest):
        return False
    if scrypt := _SCRYPT.fullmatch(method):
        n, r, p = (int(scrypt[k]) for k in ("n", "r", "p"))
        power_of_two = n > 1 and n & (n - 1) == 0
        affordable = 128 * n * r <= MAX_SCRYPT_MEMORY and r >= 1 and 1 <= p <= 16
        return power_of_two and affordable and len(digest) == 128
    if pbkdf2 := _PBKDF2.fullmatch(method):
        name = pbkdf2["name"]
        if name not in hashlib.algorithms_guaranteed or name.startswith("shake"):
            return False
        iterations = int(pbkdf2["iterations"])
        size = hashlib.new(name).digest_size
        return 1 <= iterations <= MAX_PBKDF2_ITERATIONS and len(digest) == 2 * size
    return False


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:39] + "…"


def _shaped(tables: Mapping[str, Any], schema: Sequence[sa.Table], problems: list[Problem]) -> Rows:
    """Each table a list of rows, each row an object whose values fit their columns."""
    rows: Rows = {}
    for table in schema:
        given = tables.get(table.name, [])
        if not isinstance(given, list):
            problems.append(_bad("The export's %(table)s is not a list of rows.", table=table.name))
            continue
        rows[table.name] = []
        for row in given:
            if not isinstance(row, dict):
                problems.append(
                    _bad(
                        "The export's %(table)s holds %(value)s, which is not a row.",
                        table=table.name,
                        value=_shown(row),
                    )
                )
                continue
            for column in table.columns:
                if not _fits(column, row.get(column.name)):
                    problems.append(
                        _bad_row(
                            table.name,
                            row,
                            "%(table)s row with id %(id)s: %(column)s cannot hold %(value)s.",
                            column=column.name,
                            value=_shown(row.get(column.name)),
                        )
                    )
            rows[table.name].append(row)
        _unique(table, rows[table.name], problems)
    return rows


def _fits(column: sa.Column[Any], value: Any) -> bool:
    """A value this column can hold as the app writes it (None only where the app leaves
    it empty, or where the column's default fills it)."""
    if value is None:
        return column.nullable or column.default is not None or column.server_default is not None
    kind = column.type
    if isinstance(kind, sa.Boolean):
        return isinstance(value, bool)
    if isinstance(kind, sa.Integer):
        return (
            isinstance(value, int) and not isinstance(value, bool) and abs(value) <= LARGEST_INTEGER
        )
    if isinstance(kind, sa.String):
        return isinstance(value, str) and (kind.length is None or len(value) <= kind.length)
    if isinstance(kind, sa.DateTime | sa.Date):
        parse = datetime.fromisoformat if isinstance(kind, sa.DateTime) else date.fromisoformat
        try:
            parse(value)
        except (TypeError, ValueError):
            return False
        return True
    return True  # JSON: the sessions' rules are the rules' to check (_sessions)


def _unique(table: sa.Table, rows: list[dict[str, Any]], problems: list[Problem]) -> None:
    """No two rows with one primary key, or with the values of one unique constraint."""
    keys = [tuple(c.name for c in table.primary_key.columns)] + [
        tuple(c.name for c in constraint.columns)
        for constraint in table.constraints
        if isinstance(constraint, sa.UniqueConstraint)
    ]
    keys += [(c.name,) for c in table.columns if c.unique]
    for names in keys:
        seen: set[str] = set()
        for row in rows:
            if any(row.get(n) is None for n in names):
                continue  # NULLs never clash (idempotency keys of rounds without one)
            value = json.dumps([row.get(n) for n in names], default=str)
            if value in seen:
                problems.append(
                    _bad_row(
                        table.name,
                        row,
                        "%(table)s row with id %(id)s: the same %(columns)s as another row.",
                        columns=", ".join(names),
                    )
                )
            seen.add(value)


def _references(rows: Rows, schema: Sequence[sa.Table], problems: list[Problem]) -> None:
    """Every foreign key points at a row the export holds."""
    for table in schema:
        for key in table.foreign_keys:
            target = key.column
            present = {r.get(target.name) for r in rows.get(target.table.name, [])}
            for row in rows.get(table.name, []):
                value = row.get(key.parent.name)
                if value is not None and value not in present:
                    problems.append(
                        _bad_row(
                            table.name,
                            row,
                            "%(table)s row with id %(id)s: %(column)s %(value)s is in no row "
                            "of %(target)s.",
                            column=key.parent.name,
                            value=_shown(value),
                            target=target.table.name,
                        )
                    )


def _in_session(session_id: int, problems: Sequence[Problem]) -> list[Problem]:
    return [
        _bad("Session %(session)d: %(problem)s", session=session_id, problem=p) for p in problems
    ]


def _in_round(session_id: int, number: int, problem: Problem) -> Problem:
    return _bad(
        "Session %(session)d, round %(round)d: %(problem)s",
        session=session_id,
        round=number,
        problem=problem,
    )


def _sessions(rows: Rows, problems: list[Problem]) -> None:
    """Each session's settings, players and agreed rounds, then each of its rounds."""
    seats: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for seat in rows["seats"]:
        seats[seat["session_id"]].append(seat)
    rounds: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for rnd in rows["rounds"]:
        rounds[rnd["session_id"]].append(rnd)
    entries: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for entry in rows["entries"]:
        entries[entry["round_id"]].append(entry)
    for session in rows["sessions"]:
        sid = session["id"]
        found: list[Problem] = []
        settings = None
        try:
            settings = Settings.from_dict(session["rules"])
        except RulesError as err:
            found += err.problems
        if not 1 <= session["rounds_planned"] <= MAX_ROUNDS:
            found.append(
                Problem("bad_setting", "Rounds must be from 1 to %(max)d.", {"max": MAX_ROUNDS})
            )
        found += _session_text(session)
        seated = sorted(seats[sid], key=lambda s: s["position"])
        names: dict[int, str] = {s["id"]: s["name"] for s in seated}
        if settings is not None:
            try:
                check_players(list(names.values()), settings)
            except RulesError as err:
                found += err.problems
        played = sorted(rounds[sid], key=lambda r: r["number"])
        numbers = [r["number"] for r in played]
        if numbers != list(range(1, len(played) + 1)):
            found.append(
                _bad(
                    "Its rounds are numbered %(numbers)s, not 1 to %(count)d.",
                    numbers=", ".join(str(n) for n in numbers),
                    count=len(played),
                )
            )
        if len(played) > session["rounds_planned"]:
            found.append(
                _bad(
                    "%(count)d rounds are stored, but %(planned)d were agreed.",
                    count=len(played),
                    planned=session["rounds_planned"],
                )
            )
        if session["version"] < 1:
            found.append(_bad("Its version %(version)d is below 1.", version=session["version"]))
        else:
            for bad, problem in _round_versions(session["version"], played):
                problems.append(_in_round(sid, bad["number"], problem))
        problems += _in_session(sid, found)
        if settings is None or found:
            continue  # its rounds cannot be scored without its settings and players
        every_seat = {s["id"]: s["name"] for s in rows["seats"]}
        for rnd in played:
            mine = entries[rnd["id"]]
            found = _round(list(names.values()), names, every_seat, rnd, mine, settings)
            problems += [_in_round(sid, rnd["number"], p) for p in found]


def _session_text(session: Mapping[str, Any]) -> list[Problem]:
    """The session's name and notes as services.sessions keeps them: no control or bidi
    characters (notes keep their line breaks)."""
    found = []
    name = session["name"]
    if " ".join(name.split()) != name or not name.isprintable():
        found.append(
            Problem("bad_name", "A session name cannot hold control characters.", {}, "name")
        )
    if any(not (ch.isprintable() or ch == "\n") for ch in session["notes"] or ""):
        found.append(Problem("bad_notes", "Notes cannot hold control characters.", {}, "notes"))
    return found


def _round_versions(
    version: int, played: Sequence[Mapping[str, Any]]
) -> list[tuple[Mapping[str, Any], Problem]]:
    """Each round's version is the session's version that last wrote it: from 1 to the
    session's, and no two rounds alike (an edit naming one version lands on one round)."""
    found = []
    owner: dict[int, int] = {}
    for rnd in played:
        mine = rnd["version"]
        if not 1 <= mine <= version:
            problem = _bad(
                "Its version %(version)d is not from 1 to the session's version "
                "%(session_version)d.",
                version=mine,
                session_version=version,
            )
            found.append((rnd, problem))
        elif mine in owner:
            problem = _bad(
                "Its version %(version)d is also the version of round %(other)d.",
                version=mine,
                other=owner[mine],
            )
            found.append((rnd, problem))
        else:
            owner[mine] = rnd["number"]
    return found


def _round(
    players: list[str],
    names: Mapping[int, str],
    every_seat: Mapping[int, str],
    rnd: Mapping[str, Any],
    entries: Sequence[Mapping[str, Any]],
    settings: Settings,
) -> list[Problem]:
    """Score the round again from its stored inputs (as services.rounds.round_body reads
    them) and compare with the stored scores, racks and winner."""
    strangers = [e["seat_id"] for e in entries if e["seat_id"] not in names]
    if rnd["winner_seat_id"] is not None and rnd["winner_seat_id"] not in names:
        strangers.append(rnd["winner_seat_id"])
    if strangers:
        return [
            Problem(
                "unknown_player",
                "%(name)s is not playing in this session.",
                {"name": every_seat[seat]},
                every_seat[seat],
            )
            for seat in strangers
        ]
    by_player = {names[e["seat_id"]]: e for e in entries}
    racks: dict[str, Any] = {}
    counts: dict[str, int] = {}
    scores: dict[str, int] = {}
    for player, entry in by_player.items():
        scores[player] = entry["score"]
        if entry["tiles"]:
            racks[player] = entry["tiles"].split()
        elif entry["rack_value"] is not None:
            racks[player] = entry["rack_value"]
            if entry["tile_count"] is not None:
                counts[player] = entry["tile_count"]
    winner = names.get(rnd["winner_seat_id"]) if rnd["winner_seat_id"] else None
    try:
        parsed = {p: Rack.from_entry(v, settings, p) for p, v in racks.items()}
        if rnd["ending"] == "scores":
            typed = RoundEntry("scores", scores=scores)
        else:
            typed = RoundEntry(rnd["ending"], winner, parsed, counts)
        scored = score_round(players, typed, settings, confirm=True)
    except RulesError as err:
        return err.problems
    found = []
    for player in players:
        stored = by_player.get(player)
        if stored is None:
            found.append(
                Problem("missing_player", "%(player)s: enter what is left.", {"player": player})
            )
            continue
        derived = {
            "score": scored.scores[player],
            "rack_value": scored.racks[player].value if player in scored.racks else None,
        }
        found += [
            _bad(
                "%(player)s: %(column)s is stored as %(stored)s, the rules give %(derived)s.",
                player=player,
                column=column,
                stored=_shown(stored[column]),
                derived=_shown(value),
            )
            for column, value in derived.items()
            if stored[column] != value
        ]
    if scored.winner != winner:
        found.append(_bad("The stored winner is not the one the rules give."))
    return found
