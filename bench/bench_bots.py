"""Decisions per second of greedy, greedy+ and search (at its default budget), per variant.

Each bot sits in seat 0 of seeded hands against three greedy bots; only seat 0's
decisions are timed (every one it is asked, searched or not), and for search also the
slowest decision and the share that were searched. Run: ``make bench-bots`` or
``.venv/bin/python bench/bench_bots.py [--hands N] [--markdown bench/RESULTS.md]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from majiang.bots import Bot, GreedyBot, make_bot, play_hand
from majiang.bots.search import SearchBot
from majiang.engine.match import Match
from majiang.observation import Observation
from majiang.rules import VARIANTS
from majiang.values import Action

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import git_rev, machine_facts, report, version


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


def per_tile() -> None:
    """The bots' shanten of each discard and each draw one hand at a time, as they were
    computed before majiang.hand.discard_shanten / draw_shanten (for ``--per-tile``: the
    same numbers, so the same decisions, by the slower road)."""
    import majiang.bots.greedy as greedy
    import majiang.bots.plus as plus
    import majiang.bots.search as search

    greedy.each_discard = search.each_discard = greedy.discards_per_tile  # type: ignore[assignment]
    greedy.each_draw = plus.each_draw = greedy.draws_per_tile  # type: ignore[assignment]


def measure(variant: str, name: str, hands: int) -> tuple[float, float, float, float]:
    """Decisions per second, slowest decision (ms), share searched, worlds per searched
    decision."""
    timed: list[Timed] = []
    for h in range(hands):
        rng = random.Random(h)
        bot = Timed(make_bot(name, rng))
        timed.append(bot)
        state = Match(variant, {}, 1000 + h).new_hand()
        play_hand(state, [bot, *[GreedyBot(random.Random(h * 4 + s)) for s in range(1, 4)]])
    times = [t for b in timed for t in b.times]
    searched = sum(b.bot.searched for b in timed if isinstance(b.bot, SearchBot))
    worlds = sum(b.bot.worlds for b in timed if isinstance(b.bot, SearchBot))
    return (len(times) / sum(times), 1000 * max(times), searched / len(times),
            worlds / searched if searched else 0.0)


def main() -> None:
    """Print the report; with ``--markdown FILE`` append it to FILE as a dated section."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20, help="hands per bot and variant")
    parser.add_argument("--markdown", metavar="FILE", help="append the report to FILE")
    parser.add_argument(
        "--per-tile",
        action="store_true",
        help="compute each discard's and each draw's shanten one hand at a time, as the "
        "bots did before 2026-12-04 (the same decisions, for comparison)",
    )
    args = parser.parse_args()
    if args.per_tile:
        per_tile()
    start = os.getloadavg()[0]
    how = ("one hand at a time (--per-tile)" if args.per_tile
           else "every discard's and every draw's in one call")
    lines = [
        f"{args.hands} seeded hands per bot and variant, the bot in seat 0 against three "
        "greedy bots; every decision of seat 0 timed. search at its default budget (at most "
        f"12 worlds and 0.08 s a decision). The bots' shanten: {how}.",
        "",
        "| variant | greedy dec/s | greedy+ dec/s | search dec/s | search slowest ms | searched "
        "| worlds per search |",
        "|---|---|---|---|---|---|---|",
    ]
    for variant in VARIANTS:
        g, _, _, _ = measure(variant, "greedy", args.hands)
        p, _, _, _ = measure(variant, "greedy+", args.hands)
        s, worst, share, worlds = measure(variant, "search", args.hands)
        lines.append(f"| {variant} | {g:,.0f} | {p:,.0f} | {s:,.1f} | {worst:.0f} | {share:.0%} "
                     f"| {worlds:.1f} |")
        print(lines[-1], file=sys.stderr, flush=True)
    end = os.getloadavg()[0]
    facts = [
        *machine_facts(f"majiang {version('majiang')} at {git_rev()}"),
        f"load average (1 min) {start:.1f} at the start, {end:.1f} at the end (the 2-core "
        "machine is shared with other runs, which slow every bot alike)",
    ]
    report("bench/bench_bots.py", facts, lines, args.markdown)


if __name__ == "__main__":
    main()
