"""What the pages' forms post, shared by the page tests (imported like tests/server's harness)."""

from __future__ import annotations

from scorekeeper.rules import Settings


def typed(value: object) -> str | None:
    """A setting's value as the form posts it: a ticked box is "y", an unticked one is not
    sent (None), a setting that is off (None) is a blank."""
    if isinstance(value, bool):
        return "y" if value else None
    return "" if value is None else str(value)


def new_session_form(players: list[str], **changes: str) -> dict[str, str]:
    """What the new-session page posts with the Standard settings (every declared setting)."""
    form = {"name": "", "rounds": "3", "preset": "standard"}
    for key, value in Settings().to_dict().items():
        if (text := typed(value)) is not None:
            form[key] = text
    form.update({f"player_{i}": name for i, name in enumerate(players)})
    form.update(changes)
    return form
