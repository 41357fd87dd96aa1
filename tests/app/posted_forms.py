"""What the pages' forms post, shared by the page tests (imported like tests/server's harness)."""

from __future__ import annotations


def new_session_form(players: list[str], **changes: str) -> dict[str, str]:
    """What the new-session page posts with the Standard settings."""
    form = {
        "name": "",
        "rounds": "3",
        "tile_sets": "1",
        "min_initial_meld": "30",
        "jokers_retrievable": "y",
        "joker_penalty": "30",
        "seconds_per_turn": "0",
        "penalty_tiles": "3",
        "empty_pool": "difference",
        "winner_bonus": "",
        "typo_threshold": "-180",
        "played_with": "tiles",
        "preset": "standard",
    }
    form.update({f"player_{i}": name for i, name in enumerate(players)})
    form.update(changes)
    return form
