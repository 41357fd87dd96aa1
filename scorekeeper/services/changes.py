"""What a write did to a session: a stable code and its params, stored in `sessions.change`
and worded only when shown (web/messages.py, `change_text`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Each code with its English words (the msgids web/messages.py lists literally, so they are
#: extracted; a unit test keeps the two equal). `rounds_agreed` is a plural: (one, other).
CHANGES: dict[str, str | tuple[str, str]] = {
    "round_added": "Round %(round)s added",
    "round_changed": "Round %(round)s changed",
    "round_deleted": "Round %(round)s deleted",
    "round_put_back": "Round %(round)s put back",
    "round_taken_back": "Round %(round)s taken back",
    "round_changed_back": "Round %(round)s changed back",
    "rounds_agreed": ("One more round agreed", "%(count)s more rounds agreed"),
    "clock_set": "Turn clock set to %(seconds)s s",
    "clock_off": "Turn clock turned off",
    "player_renamed": "%(before)s renamed to %(after)s",
    "notes_changed": "Notes changed",
    "notes_cleared": "Notes cleared",
    "session_changed": "Session changed",
}

#: The params each code carries (ints but for the names of a rename).
PARAMS: dict[str, tuple[str, ...]] = {
    "round_added": ("round",),
    "round_changed": ("round",),
    "round_deleted": ("round",),
    "round_put_back": ("round",),
    "round_taken_back": ("round",),
    "round_changed_back": ("round",),
    "rounds_agreed": ("count",),
    "clock_set": ("seconds",),
    "player_renamed": ("before", "after"),
}

GENERIC = "session_changed"

#: The changes that add, remove or renumber rounds: each moves `sessions.numbering_version`.
RENUMBERING = frozenset({"round_added", "round_deleted", "round_put_back", "round_taken_back"})


@dataclass(frozen=True)
class Change:
    """One write's code and params; `message` is its English wording."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def round(self) -> int | None:
        """The round the change was about, if it was about one."""
        number = self.params.get("round")
        return number if isinstance(number, int) else None

    @property
    def template(self) -> str:
        words = CHANGES[self.code]
        if isinstance(words, tuple):
            return words[0] if self.params.get("count") == 1 else words[1]
        return words

    @property
    def message(self) -> str:
        return self.template % self.params if self.params else self.template

    def stored(self) -> dict[str, Any]:
        """As the `sessions.change` column keeps it."""
        return {"code": self.code, **self.params}

    @classmethod
    def from_stored(cls, value: object) -> Change | None:
        """The change a row keeps (None before the first one); anything unreadable (a code of
        a later version, params missing) is the generic "session changed"."""
        if value is None:
            return None
        if not isinstance(value, dict) or value.get("code") not in CHANGES:
            return cls(GENERIC)
        code = value["code"]
        names = PARAMS.get(code, ())
        params = {name: value.get(name) for name in names}
        if any(params[n] is None for n in names):
            return cls(GENERIC)
        return cls(code, params)


def round_change(code: str, number: int) -> Change:
    return Change(code, {"round": number})


def rounds_agreed(count: int) -> Change:
    return Change("rounds_agreed", {"count": count})


def clock_set(seconds: int) -> Change:
    return Change("clock_set", {"seconds": seconds}) if seconds else Change("clock_off")


def player_renamed(before: str, after: str) -> Change:
    return Change("player_renamed", {"before": before, "after": after})


def notes_changed(notes: str) -> Change:
    return Change("notes_changed" if notes else "notes_cleared")
