"""A fair arena: duplicate deals, every bot in every seat with the same tiles."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from majiang.bots import make_bot, play_hand
from majiang.engine.match import Match

__all__ = ["ArenaResult", "BotScore", "arena", "mean_ci"]


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, math.inf
    mean = sum(values) / n
    if n == 1:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


@dataclass
class BotScore:
    """One bot's points per hand over the arena."""

    name: str
    points: list[float] = field(default_factory=list)

    @property
    def mean(self) -> float:
        """Mean points per hand."""
        return mean_ci(self.points)[0]

    @property
    def ci(self) -> float:
        """Half-width of the 95% confidence interval of the mean."""
        return mean_ci(self.points)[1]


@dataclass
class ArenaResult:
    """Scores by bot (in the order given) and the number of hands played."""

    scores: list[BotScore]
    hands: int

    def table(self) -> str:
        """A plain-text summary."""
        lines = [f"{'bot':<12} {'hands':>6} {'mean/hand':>10} {'95% CI':>16}"]
        for s in self.scores:
            lo, hi = s.mean - s.ci, s.mean + s.ci
            lines.append(
                f"{s.name:<12} {len(s.points):>6} {s.mean:>10.2f}   [{lo:>6.2f}, {hi:>6.2f}]"
            )
        return "\n".join(lines)


def arena(
    variant: str,
    bots: Sequence[str],
    deals: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> ArenaResult:
    """Play every seeded deal once per seat rotation (duplicate), one hand each.

    ``bots`` names four bots (repeat a name to field it twice); a bot's score
    pools every seat it sat in.
    """
    if len(bots) != 4:
        raise ValueError(f"the arena seats four bots, got {len(bots)}")
    names = list(dict.fromkeys(bots))
    scores = {n: BotScore(n) for n in names}
    hands = 0
    for d in range(deals):
        for r in range(4):
            rng = random.Random((seed * 1_000_003 + d) * 4 + r)
            seating = [bots[(s + r) % 4] for s in range(4)]
            match = Match(variant, options or {}, seed * 1_000_003 + d)
            state = match.new_hand()
            play_hand(state, [make_bot(n, rng) for n in seating])
            match.finish(state)
            per_name: dict[str, int] = {}
            for s, delta in enumerate(state.result().deltas):
                per_name[seating[s]] = per_name.get(seating[s], 0) + delta
            for n, total in per_name.items():
                # a bot fielded k times scores its seats' mean, so names compare fairly
                scores[n].points.append(total / seating.count(n))
            hands += 1
    return ArenaResult([scores[n] for n in names], hands)
