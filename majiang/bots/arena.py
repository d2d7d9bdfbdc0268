"""A fair arena: duplicate deals, every bot in every seat with the same tiles.

A deal is one seeded hand played four times, the seating rotated one seat each time, so
every bot sits in every seat on the same tiles. Bots are compared per deal (the mean of
what a bot scored over the seats it sat in), which cancels most of the luck of the deal;
the paired difference of the first two bots, deal by deal, is what makes small edges
visible. Deals are independent and seeded by their index, so the arena runs as a pure
function ``play_deals(config, chunk)`` over chunks of deals whose results merge in deal
order: the same for any number of workers (``majiang arena``, docs/bots.md).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from majiang.bots import bot_names, is_bot, make_bot, play_hand
from majiang.engine.match import Match
from majiang.errors import MajiangError
from majiang.rules import get_variant

__all__ = [
    "ArenaConfig",
    "ArenaResult",
    "BotScore",
    "DealResult",
    "arena",
    "mean_ci",
    "play_deals",
    "run_arena",
    "seating_for",
]


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


def seating_for(bots: Sequence[str]) -> tuple[str, ...]:
    """The first rotation's seating: four names as given, else the first bot then the
    others in turn (``a,b`` -> a b b b; ``a,b,c`` -> a b c b); MajiangError if not 2-4."""
    if not 2 <= len(bots) <= 4:
        raise MajiangError(f"--bots names two to four bots, got {len(bots)}")
    if len(bots) == 4:
        return tuple(bots)
    rest = list(bots[1:])
    return (bots[0], *[rest[i % len(rest)] for i in range(3)])


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: ``seating`` is the first rotation's four bots by seat."""

    variant: str
    seating: tuple[str, ...]
    deals: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The distinct bots, in seating order."""
        return list(dict.fromkeys(self.seating))

    def validate(self) -> None:
        """OptionError / MajiangError naming what is wrong; nothing runs before this."""
        get_variant(self.variant).resolve_options(dict(self.options))
        if len(self.seating) != 4:
            raise MajiangError(f"the arena seats four bots, got {len(self.seating)}")
        for b in self.seating:
            if not is_bot(b):
                raise MajiangError(f"unknown bot {b!r}; bots: {bot_names()}")
        if self.deals < 1:
            raise MajiangError(f"--hands must be at least 1, got {self.deals}")


@dataclass
class DealResult:
    """One deal (four rotations) by bot name: points of each seat-hand it played, and
    its wins, self-draws and deal-ins over them."""

    points: dict[str, list[int]]
    wins: dict[str, int]
    self_draws: dict[str, int]
    deal_ins: dict[str, int]

    def score(self, name: str) -> float:
        """The bot's mean points per hand in this deal."""
        pts = self.points[name]
        return sum(pts) / len(pts)


def _deal_seed(config: ArenaConfig, deal: int) -> int:
    return config.seed * 1_000_003 + deal


def _seat_seed(config: ArenaConfig, deal: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of a deal, the same in its four rotations (common
    random numbers): where the seated bots decide alike, the rotations play the same game,
    so only real differences of play move the paired difference (docs/bots.md)."""
    return _deal_seed(config, deal) * 4 + seat


def play_deals(config: ArenaConfig, chunk: tuple[int, int]) -> list[DealResult]:
    """Play deals ``start .. start+count-1`` of ``chunk``, each in its four rotations; a
    pure function of its arguments (each deal and rotation seeded by its index)."""
    start, count = chunk
    out = []
    for d in range(start, start + count):
        names = config.names
        res = DealResult(
            {n: [] for n in names},
            dict.fromkeys(names, 0),
            dict.fromkeys(names, 0),
            dict.fromkeys(names, 0),
        )
        for r in range(4):
            seating = [config.seating[(s + r) % 4] for s in range(4)]
            match = Match(config.variant, dict(config.options), _deal_seed(config, d))
            state = match.new_hand()
            bots = [
                make_bot(n, random.Random(_seat_seed(config, d, s))) for s, n in enumerate(seating)
            ]
            play_hand(state, bots)
            match.finish(state)
            result = state.result()
            for s, delta in enumerate(result.deltas):
                res.points[seating[s]].append(delta)
            win = result.win
            if win is not None:
                res.wins[seating[win.winner]] += 1
                if win.win_type in ("discard", "rob_kong"):
                    if win.source is not None:
                        res.deal_ins[seating[win.source]] += 1
                else:
                    res.self_draws[seating[win.winner]] += 1
        out.append(res)
    return out


@dataclass
class BotScore:
    """One bot over the arena: its mean points per hand by deal, and its rates."""

    name: str
    points: list[float] = field(default_factory=list)
    """Points of every seat-hand it played, in deal and rotation order."""
    per_deal: list[float] = field(default_factory=list)
    """Its mean points per hand in each deal."""
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0

    @property
    def mean(self) -> float:
        """Mean points per hand."""
        return mean_ci(self.per_deal)[0]

    @property
    def ci(self) -> float:
        """Half-width of the 95% confidence interval of the mean (deals are the samples)."""
        return mean_ci(self.per_deal)[1]

    def rate(self, count: int) -> float:
        """``count`` per seat-hand played."""
        return count / len(self.points) if self.points else 0.0


@dataclass
class ArenaResult:
    """Scores by bot (in seating order), the deals and the hands played."""

    scores: list[BotScore]
    hands: int
    deals: int = 0
    paired: list[float] = field(default_factory=list)
    """The first bot's mean per hand less the second's, deal by deal."""

    @property
    def diff(self) -> tuple[float, float]:
        """The paired difference of the first two bots: mean and 95% CI half-width."""
        return mean_ci(self.paired)

    def table(self) -> str:
        """A plain-text summary."""
        lines = [f"{'bot':<12} {'hands':>6} {'mean/hand':>10} {'95% CI':>18}"]
        for s in self.scores:
            lo, hi = s.mean - s.ci, s.mean + s.ci
            lines.append(
                f"{s.name:<12} {len(s.points):>6} {s.mean:>10.2f}   [{lo:>7.2f}, {hi:>7.2f}]"
            )
        if self.paired:
            m, c = self.diff
            a, b = self.scores[0].name, self.scores[1].name
            lines.append(f"{a} - {b}: {m:+.2f} per hand, 95% CI [{m - c:+.2f}, {m + c:+.2f}]")
        return "\n".join(lines)


def merge(config: ArenaConfig, deals: Sequence[DealResult]) -> ArenaResult:
    """The arena's result from its deals in deal order."""
    names = config.names
    scores = {n: BotScore(n) for n in names}
    paired = []
    for deal in deals:
        for n in names:
            sc = scores[n]
            sc.points.extend(deal.points[n])
            sc.per_deal.append(deal.score(n))
            sc.wins += deal.wins[n]
            sc.self_draws += deal.self_draws[n]
            sc.deal_ins += deal.deal_ins[n]
        if len(names) >= 2:
            paired.append(deal.score(names[0]) - deal.score(names[1]))
    return ArenaResult([scores[n] for n in names], 4 * len(deals), len(deals), paired)


def run_arena(config: ArenaConfig, chunk: int = 1) -> ArenaResult:
    """Play the arena inline, ``chunk`` deals at a time."""
    config.validate()
    deals: list[DealResult] = []
    for start in range(0, config.deals, chunk):
        deals += play_deals(config, (start, min(chunk, config.deals - start)))
    return merge(config, deals)


def arena(
    variant: str,
    bots: Sequence[str],
    deals: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> ArenaResult:
    """Play every seeded deal once per seat rotation (duplicate), one hand each.

    ``bots`` names four bots by seat (repeat a name to field it twice), or two or three
    (``seating_for``); a bot's score pools every seat it sat in.
    """
    config = ArenaConfig(variant, seating_for(bots), deals, seed, dict(options or {}))
    return run_arena(config)
