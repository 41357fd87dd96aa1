"""The evening's table (docs/RULES.md 7): totals, the dropped worst rounds, completion, winners."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

DROP_FROM_ROUNDS = 2


@dataclass(frozen=True)
class Standings:
    """Where everyone stands after the rounds played so far."""

    players: tuple[str, ...]
    totals: dict[str, int]
    running: tuple[dict[str, int], ...]
    dropped: dict[str, int | None]
    dropped_scores: dict[str, int | None]
    rounds_played: int
    rounds_planned: int
    complete: bool
    leaders: tuple[str, ...]
    winners: tuple[str, ...]


def standings(
    players: Sequence[str],
    rounds: Sequence[Mapping[str, int]],
    rounds_planned: int,
    drop_worst_round: bool = False,
) -> Standings:
    """Totals over the rounds in order (round N is rounds[N-1]); negatives carry over.

    With drop-worst on and at least two rounds played, each player's lowest round (the
    earliest of equal lows) leaves their total.
    """
    running: list[dict[str, int]] = []
    sums = dict.fromkeys(players, 0)
    for scores in rounds:
        for p in players:
            sums[p] += scores.get(p, 0)
        running.append(dict(sums))
    dropped: dict[str, int | None] = dict.fromkeys(players)
    dropped_scores: dict[str, int | None] = dict.fromkeys(players)
    totals = dict(sums)
    if drop_worst_round and len(rounds) >= DROP_FROM_ROUNDS:
        for p in players:
            column = [scores.get(p, 0) for scores in rounds]
            worst = min(range(len(column)), key=lambda i: (column[i], i))
            dropped[p] = worst + 1
            dropped_scores[p] = column[worst]
            totals[p] -= column[worst]
    complete = len(rounds) >= rounds_planned
    top = max(totals.values()) if rounds and totals else None
    leaders = tuple(p for p in players if top is not None and totals[p] == top)
    return Standings(
        players=tuple(players),
        totals=totals,
        running=tuple(running),
        dropped=dropped,
        dropped_scores=dropped_scores,
        rounds_played=len(rounds),
        rounds_planned=rounds_planned,
        complete=complete,
        leaders=leaders,
        winners=leaders if complete else (),
    )
