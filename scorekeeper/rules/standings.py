"""The evening's table (docs/RULES.md 7): totals, the dropped worst rounds, completion, winners."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

DROP_FROM_ROUNDS = 2


@dataclass(frozen=True)
class Standings:
    """Where everyone stands after the rounds played so far; `running` holds each round's sums so
    far, `counted` the same without the dropped rounds (its last row is the totals)."""

    players: tuple[str, ...]
    totals: dict[str, int]
    running: tuple[dict[str, int], ...]
    counted: tuple[dict[str, int], ...]
    dropped: dict[str, int | None]
    dropped_scores: dict[str, int | None]
    rounds_played: int
    rounds_planned: int
    complete: bool
    leaders: tuple[str, ...]
    winners: tuple[str, ...]
    places: dict[str, int]
    lead: Lead | None


@dataclass(frozen=True)
class Lead:
    """Who is ahead and by how much: the one leader over the next place (`behind`, all who
    share it), or, with no `behind`, the leaders level on the top total."""

    ahead: tuple[str, ...]
    behind: tuple[str, ...]
    by: int


def places(totals: Mapping[str, int]) -> dict[str, int]:
    """Each player's place by total: 1 and one more for each player with a higher total, so
    players level share a place (1, 1, 3)."""
    return {p: 1 + sum(other > total for other in totals.values()) for p, total in totals.items()}


def lead(players: Sequence[str], totals: Mapping[str, int]) -> Lead | None:
    """The lead in the totals (None for fewer than two players)."""
    if len(players) < 2:
        return None
    top = max(totals[p] for p in players)
    ahead = tuple(p for p in players if totals[p] == top)
    if len(ahead) > 1:
        return Lead(ahead=ahead, behind=(), by=0)
    second = max(totals[p] for p in players if p not in ahead)
    behind = tuple(p for p in players if totals[p] == second)
    return Lead(ahead=ahead, behind=behind, by=top - second)


def _left_out(dropped: int | None, score: int | None, after: int) -> int:
    """What a player's dropped round takes off their running total after round `after`."""
    return score if dropped is not None and score is not None and dropped <= after else 0


def standings(
    players: Sequence[str],
    rounds: Sequence[Mapping[str, int]],
    rounds_planned: int,
    drop_worst_round: bool = False,
) -> Standings:
    """Totals over the rounds in order (round N is rounds[N-1]); negatives carry over. With
    drop-worst, from two rounds, each player's lowest (the earliest of equal lows) is left out."""
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
    counted = tuple(
        {p: row[p] - _left_out(dropped[p], dropped_scores[p], after) for p in players}
        for after, row in enumerate(running, start=1)
    )
    complete = len(rounds) >= rounds_planned
    top = max(totals.values()) if rounds and totals else None
    leaders = tuple(p for p in players if top is not None and totals[p] == top)
    return Standings(
        players=tuple(players),
        totals=totals,
        running=tuple(running),
        counted=counted,
        dropped=dropped,
        dropped_scores=dropped_scores,
        rounds_played=len(rounds),
        rounds_planned=rounds_planned,
        complete=complete,
        leaders=leaders,
        winners=leaders if complete else (),
        places=places(totals) if rounds else {},
        lead=lead(players, totals) if rounds else None,
    )
