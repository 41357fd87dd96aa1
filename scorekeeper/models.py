"""Database models: what was entered for every round and what the rules derived from it."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.extensions import Model


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Player(Model):
    """A person the family has played with, remembered across sessions."""

    __tablename__ = "players"

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(40))
    name_key: so.Mapped[str] = so.mapped_column(sa.String(160), unique=True)
    created_at: so.Mapped[datetime] = so.mapped_column(default=_now)

    seats: so.WriteOnlyMapped[Seat] = so.relationship(back_populates="player")


def no_standing() -> dict[str, Any]:
    """The standing of a session before its first round: nobody leads, nobody has won."""
    return {"leaders": [], "leading_total": None, "winners": []}


class GameSession(Model):
    """An evening's play: its players, its settings, and the agreed number of rounds."""

    __tablename__ = "sessions"
    # The home page lists the sessions in progress first: this small index holds only them.
    __table_args__ = (
        sa.Index(
            "ix_sessions_in_progress",
            "id",
            sqlite_where=sa.text("finished_at IS NULL"),
            postgresql_where=sa.text("finished_at IS NULL"),
        ),
        # A new-session form sent twice (a rematch tapped again, a lost answer) makes one.
        sa.Index("ix_sessions_creation_key", "creation_key", unique=True),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(80))
    played_on: so.Mapped[date] = so.mapped_column(sa.Date, index=True)
    rounds_planned: so.Mapped[int]
    rules: so.Mapped[dict[str, Any]] = so.mapped_column(sa.JSON)
    created_at: so.Mapped[datetime] = so.mapped_column(default=_now, index=True)
    updated_at: so.Mapped[datetime] = so.mapped_column(default=_now, onupdate=_now)
    finished_at: so.Mapped[datetime | None]
    # Bumped by every write to the session or its rounds: a cheap "has anything changed?".
    version: so.Mapped[int] = so.mapped_column(default=1)
    # The session's version at the last write that added, removed or renumbered rounds (an
    # add, a delete, an Undo of either): a new round typed against an older table is refused
    # when this moved past it, so a renumbering never lets the same round in twice.
    numbering_version: so.Mapped[int] = so.mapped_column(default=0, server_default="0")
    # The idempotency key of the form that made the session (the new-session page's).
    creation_key: so.Mapped[str | None] = so.mapped_column(sa.String(64))
    # What the last write did, as a code and its params ({"code": "round_added", "round": 3},
    # services/changes.py): the other phones show it in their own language.
    change: so.Mapped[dict[str, Any] | None] = so.mapped_column(sa.JSON)
    # The family's notes on the evening (who brought the cake, the house rule of the night).
    notes: so.Mapped[str] = so.mapped_column(sa.String(2000), default="", server_default="")
    # The table in brief, kept by every write (services.writes.touch), so that a list of
    # sessions reads no rounds: the rounds played and `standing`, who leads and with what
    # total, and who won once complete ({"leaders": [...], "leading_total": 85, "winners": []}).
    rounds_played: so.Mapped[int] = so.mapped_column(default=0, server_default="0")
    standing: so.Mapped[dict[str, Any]] = so.mapped_column(
        sa.JSON, default=no_standing, server_default=json.dumps(no_standing())
    )

    seats: so.Mapped[list[Seat]] = so.relationship(
        back_populates="session", order_by="Seat.position", cascade="all, delete-orphan"
    )
    rounds: so.Mapped[list[Round]] = so.relationship(
        back_populates="session", order_by="Round.number", cascade="all, delete-orphan"
    )


class Seat(Model):
    """A player's place at one session, in seating order; renaming it leaves past rounds be."""

    __tablename__ = "seats"
    __table_args__ = (
        sa.UniqueConstraint("session_id", "position"),
        sa.UniqueConstraint("session_id", "player_id"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    session_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("sessions.id", ondelete="CASCADE"))
    player_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("players.id"), index=True)
    position: so.Mapped[int]
    # The name shown in this session; a rename re-links the seat to the player of that name.
    name: so.Mapped[str] = so.mapped_column(sa.String(40))
    # The seat's line (docs/DESIGN.md, "seat line"), kept by writes.touch: its total after any
    # dropped round, a (shared) win of the complete session, rounds won, sum, best, worst score.
    total: so.Mapped[int] = so.mapped_column(default=0, server_default="0")
    won: so.Mapped[bool] = so.mapped_column(default=False, server_default="0")
    rounds_won: so.Mapped[int] = so.mapped_column(default=0, server_default="0")
    score_sum: so.Mapped[int] = so.mapped_column(default=0, server_default="0")
    best_score: so.Mapped[int | None]
    worst_score: so.Mapped[int | None]

    session: so.Mapped[GameSession] = so.relationship(back_populates="seats")
    player: so.Mapped[Player] = so.relationship(back_populates="seats")


class Round(Model):
    """One round: how it ended and who won; its number is unique within the session."""

    __tablename__ = "rounds"
    __table_args__ = (
        sa.UniqueConstraint("session_id", "number"),
        sa.UniqueConstraint("session_id", "idempotency_key"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    session_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("sessions.id", ondelete="CASCADE"))
    number: so.Mapped[int]
    ending: so.Mapped[str] = so.mapped_column(sa.String(16))
    winner_seat_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("seats.id"))
    idempotency_key: so.Mapped[str | None] = so.mapped_column(sa.String(64))
    created_at: so.Mapped[datetime] = so.mapped_column(default=_now)
    updated_at: so.Mapped[datetime] = so.mapped_column(default=_now, onupdate=_now)
    # The session's version that wrote this round last (services.rounds): no other round of
    # the session ever has it, so an edit or a delete that names it can never land on another
    # round, even after the rounds were renumbered.
    version: so.Mapped[int] = so.mapped_column(default=1)

    session: so.Mapped[GameSession] = so.relationship(back_populates="rounds")
    winner_seat: so.Mapped[Seat | None] = so.relationship()
    entries: so.Mapped[list[Entry]] = so.relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="Entry.seat_id"
    )


class Entry(Model):
    """One player's line of a round: the rack as entered (value, tiles, count) and the score."""

    __tablename__ = "entries"
    __table_args__ = (sa.UniqueConstraint("round_id", "seat_id"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    round_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("rounds.id", ondelete="CASCADE"))
    seat_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("seats.id"), index=True)
    rack_value: so.Mapped[int | None]
    tiles: so.Mapped[str | None] = so.mapped_column(sa.String(400))
    tile_count: so.Mapped[int | None]
    # True when the tile count was typed (not derived from tiles), so an edit shows it again.
    tile_count_entered: so.Mapped[bool] = so.mapped_column(default=False)
    score: so.Mapped[int]
    flagged: so.Mapped[bool] = so.mapped_column(default=False)

    round: so.Mapped[Round] = so.relationship(back_populates="entries")
    seat: so.Mapped[Seat] = so.relationship()


# The household's one row (there is one household per database).
HOUSEHOLD_ID = 1


class Household(Model):
    """The household's one row: the passphrase hash set in the app, the sign-out epoch
    (`cookie_epoch`) and the restore `generation` (docs/DESIGN.md, "Words used in the code")."""

    __tablename__ = "household"
    __table_args__ = (sa.CheckConstraint("id = 1", name="one_household"),)

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    passphrase_hash: so.Mapped[str | None] = so.mapped_column(sa.String(255))
    changed_at: so.Mapped[datetime] = so.mapped_column(default=_now)
    cookie_epoch: so.Mapped[int] = so.mapped_column(default=0)
    generation: so.Mapped[str | None] = so.mapped_column(sa.String(32))


# The household's row is made with its table (db.create_all, as migration 0009 does for a
# database made by the migrations): a missing row means a restore or a set-up is under way,
# and the gate is closed then (services/access.py), never open.
sa.event.listen(
    Household.__table__,
    "after_create",
    sa.DDL(
        "INSERT INTO household (id, passphrase_hash, changed_at, cookie_epoch)"
        " VALUES (1, NULL, CURRENT_TIMESTAMP, 0)"
    ),
)


class SignedOutCookie(Model):
    """A "remember this phone" cookie signed out, by its random id: refused, copies too, until
    `expires_at`; rows past it are deleted by the next sign-out."""

    __tablename__ = "signed_out_cookies"

    token_id: so.Mapped[str] = so.mapped_column(sa.String(32), primary_key=True)
    expires_at: so.Mapped[datetime] = so.mapped_column(index=True)


class FailedSignIn(Model):
    """A wrong passphrase from one client address: the rate limiter's memory, in the database
    so that every server process counts the same guesses."""

    __tablename__ = "failed_sign_ins"
    __table_args__ = (
        sa.Index("ix_failed_sign_ins_address_attempted_at", "address", "attempted_at"),
    )

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    address: so.Mapped[str] = so.mapped_column(sa.String(64))
    attempted_at: so.Mapped[datetime] = so.mapped_column(default=_now, index=True)
