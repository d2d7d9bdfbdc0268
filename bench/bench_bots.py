"""Decisions per second of greedy, greedy+ and search (at its default budget), per variant.

Each bot sits in seat 0 of seeded hands against three greedy bots; only seat 0's
decisions are timed (every one it is asked, searched or not), and for search also the
slowest decision and the share that were searched. Run: ``.venv/bin/python
bench/bench_bots.py [--hands N]``; append the printed section to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import random
import time
from collections.abc import Sequence

from majiang.bots import Bot, GreedyBot, make_bot, play_hand
from majiang.bots.search import SearchBot
from majiang.engine.match import Match
from majiang.observation import Observation
from majiang.rules import VARIANTS
from majiang.values import Action


class Timed:
    """Wraps a bot and times each of its decisions."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """The wrapped bot's choice, timed."""
        t0 = time.perf_counter()
        action = self.bot.act(observation, legal)
        self.times.append(time.perf_counter() - t0)
        return action


def measure(variant: str, name: str, hands: int) -> tuple[float, float, float]:
    """Decisions per second, slowest decision (ms), share searched."""
    timed: list[Timed] = []
    for h in range(hands):
        rng = random.Random(h)
        bot = Timed(make_bot(name, rng))
        timed.append(bot)
        state = Match(variant, {}, 1000 + h).new_hand()
        play_hand(state, [bot, *[GreedyBot(random.Random(h * 4 + s)) for s in range(1, 4)]])
    times = [t for b in timed for t in b.times]
    searched = sum(b.bot.searched for b in timed if isinstance(b.bot, SearchBot))
    return len(times) / sum(times), 1000 * max(times), searched / len(times)


def main() -> None:
    """Print a RESULTS.md section."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20, help="hands per bot and variant")
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"## bench_bots ({dt.date.today().isoformat()}, issue 19)\n")
    print(
        f"{args.hands} seeded hands per bot and variant, the bot in seat 0 against three "
        f"greedy bots; load average at the start {load[0]:.1f} (the 2-core machine is shared "
        "with other engineers' runs, so the figures are slowed alike).\n"
    )
    print(
        "| variant | greedy dec/s | greedy+ dec/s | search dec/s | search slowest ms | searched |"
    )
    print("|---|---|---|---|---|---|")
    for variant in VARIANTS:
        g, _, _ = measure(variant, "greedy", args.hands)
        p, _, _ = measure(variant, "greedy+", args.hands)
        s, worst, share = measure(variant, "search", args.hands)
        print(
            f"| {variant} | {g:,.0f} | {p:,.0f} | {s:,.1f} | {worst:.0f} | {share:.0%} |",
            flush=True,
        )
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
