"""The event loop's lag while tables of search bots play, with their decisions made on the
loop, in a thread pool, or in a process pool (``majiang.server.thinking``, issue 19).

Each table is a server room (three ``search`` bots and the creator on 托管, no turn timer,
so four search bots) driven as the server drives it: a room asks, the decision is made
(on the loop, or by ``BotPool``) and answered. Meanwhile a probe coroutine sleeps 5 ms at
a time and records how late it wakes: what every other room and WebSocket of the process
would wait. Run: ``.venv/bin/python bench/bench_bot_loop.py [--tables 2] [--seconds 20]
[--markdown bench/RESULTS.md]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from datetime import datetime
from pathlib import Path

from majiang.server.models import client_message
from majiang.server.room import BotAsk, Room
from majiang.server.thinking import BotPool, decide_here
from majiang.store import RoomRow, SeatRow

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import git_rev, machine_facts, report, version

PROBE = 0.005
"""The probe's sleep (s)."""


def table(seed: int, offload: frozenset[str]) -> Room:
    row = RoomRow(
        seed, str(seed), "guangdong", {}, 100, 0, seed, "waiting", "x", datetime.now(), None
    )
    seats = [SeatRow(0, "P0", None, "h0")] + [
        SeatRow(s, "search", "search", None) for s in (1, 2, 3)
    ]
    return Room(row, seats, offload=offload)


async def run(mode: str, tables: int, seconds: float, workers: int) -> tuple[list[float], int]:
    """Lags (ms) of the probe and decisions made, for ``tables`` tables over ``seconds``."""
    pool = BotPool(workers, threads=mode == "thread") if mode != "loop" else BotPool(0)
    offload = frozenset({"search"})
    stop = time.monotonic() + seconds
    decisions = 0

    async def drive(seed: int) -> None:
        nonlocal decisions
        room = table(seed, offload)
        out = room.handle(0, client_message.validate_python({"type": "auto", "on": True}))
        ask: BotAsk | None = out.ask
        while ask is not None and time.monotonic() < stop:
            if mode == "loop":
                action, bot = decide_here(ask)  # what Room would do inline, on the loop
                await asyncio.sleep(0)  # the server's loop turns between messages
            else:
                action, bot = await pool.decide(ask)
            decisions += 1
            answered = room.answer(ask, action, bot)
            ask = answered.ask if answered is not None else None

    lags: list[float] = []

    async def probe() -> None:
        while time.monotonic() < stop:
            t = time.perf_counter()
            await asyncio.sleep(PROBE)
            lags.append((time.perf_counter() - t - PROBE) * 1000)

    if mode == "process":  # start the workers (a spawn imports majiang) before measuring
        warm = table(999, offload)
        ask = warm.handle(0, client_message.validate_python({"type": "auto", "on": True})).ask
        assert ask is not None
        await pool.decide(ask)
        stop = time.monotonic() + seconds
    await asyncio.gather(probe(), *(drive(s) for s in range(tables)))
    pool.close()
    return lags, decisions


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--markdown", default=None)
    args = ap.parse_args()
    start = os.getloadavg()[0]
    lines = [
        f"Loop lag while {args.tables} tables of four search bots play (guangdong, "
        f"{args.seconds:g} s each; probe: a {PROBE * 1000:g} ms sleep, how late it wakes; "
        f"pools of {args.workers} worker(s)).",
        "",
        "| where decisions run | probe wakes | lag p50 ms | p99 ms | max ms | decisions/s |",
        "|---|---|---|---|---|---|",
    ]
    rows: dict[str, tuple[float, float]] = {}
    for mode in ("loop", "thread", "process"):
        lags, n = asyncio.run(run(mode, args.tables, args.seconds, args.workers))
        p99, worst = pct(lags, 0.99), max(lags)
        rows[mode] = (p99, worst)
        lines.append(
            f"| {mode} | {len(lags):,} | {statistics.median(lags):.2f} | {p99:.1f} | "
            f"{worst:.1f} | {n / args.seconds:.1f} |"
        )
        print(lines[-1], file=sys.stderr, flush=True)
    lines += [
        "",
        f"p99 lag, loop / process: {rows['loop'][0] / rows['process'][0]:.1f}x; "
        f"thread / process: {rows['thread'][0] / rows['process'][0]:.1f}x.",
    ]
    end = os.getloadavg()[0]
    facts = [
        *machine_facts(f"majiang {version('majiang')} at {git_rev()}"),
        f"load average (1 min) {start:.1f} at the start, {end:.1f} at the end (shared machine)",
    ]
    report("bench/bench_bot_loop.py", facts, lines, args.markdown)


if __name__ == "__main__":
    main()
