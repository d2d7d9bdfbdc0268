"""Speed of ``majiang simulate`` per variant, beside rlcard and riichienv, in one run.

Measures hands/s and decisions/s of the simulation (the same code path as the
command: ``majiang.cli.simulate.run_simulation``) with four random bots and
with four greedy bots, in one process and on all cores, for every variant;
then rlcard's mahjong (through its env and its raw game) and riichienv, with
random agents, in one process (their runners come from bench_engine.py).
Targets (issue: bots and simulate): with random bots majiang >= 10x rlcard and
>= half of riichienv, per core.

Run: ``make bench-simulate`` or ``python bench/bench_simulate.py [--markdown FILE]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from majiang.cli.simulate import SimConfig, run_simulation  # noqa: E402
from majiang.rules import VARIANTS  # noqa: E402


def _engine_bench() -> object:
    spec = importlib.util.spec_from_file_location(
        "bench_engine", REPO / "bench" / "bench_engine.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_engine"] = module
    spec.loader.exec_module(module)
    return module


def simulate_rate(variant: str, bot: str, hands: int, workers: int) -> tuple[float, float]:
    """(hands/s, decisions/s) of run_simulation, wall clock, tables loaded beforehand."""
    config = SimConfig(variant, {}, (bot,) * 4, seed=1, hands=hands)
    stats, seconds = run_simulation(config, workers=workers, progress=False)
    return stats.hands / seconds, stats.decisions / seconds


def peer_rate(factory: object, seeds: Sequence[int]) -> tuple[float, float] | str:
    """(hands/s, decisions/s) of a bench_engine runner, or why it could not run."""
    try:
        run = factory()  # type: ignore[operator]
        run(seeds[:2])
        t0 = time.perf_counter()
        seconds, decisions, _ = run(seeds)
        del t0
    except Exception as exc:  # a peer that is not installed or fails is reported
        return f"not run: {type(exc).__name__}: {exc}"
    return len(seeds) / seconds, decisions / seconds


def main(argv: Sequence[str] | None = None) -> int:
    """Run every row and print a Markdown report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-hands", type=int, default=600, help="hands per random row")
    parser.add_argument("--greedy-hands", type=int, default=200, help="hands per greedy row")
    parser.add_argument("--peer-hands", type=int, default=200, help="hands per peer row")
    parser.add_argument("--markdown", metavar="FILE", help="append the report to FILE")
    args = parser.parse_args(argv)
    cores = os.cpu_count() or 1
    eb = _engine_bench()
    rows = []
    # warm the tables in this process; workers load their own (part of their time)
    run_simulation(SimConfig("guangdong", {}, ("random",) * 4, hands=2), 1, False)
    for variant in sorted(VARIANTS):
        for bot, n in (("random", args.random_hands), ("greedy", args.greedy_hands)):
            one = simulate_rate(variant, bot, n, 1)
            allc = simulate_rate(variant, bot, n * cores, cores)
            rows.append((variant, bot, one, allc))
            print(
                f"[{variant} {bot}: {one[0]:.0f} hands/s in 1 process, {allc[0]:.0f} on {cores}]",
                file=sys.stderr,
            )
    seeds = list(range(1000, 1000 + args.peer_hands))
    peers = {
        "rlcard env (random agents)": peer_rate(
            eb.rlcard_env_runner, seeds[: args.peer_hands // 2]
        ),  # type: ignore[attr-defined]
        "rlcard raw game (random)": peer_rate(eb.rlcard_raw_runner, seeds),  # type: ignore[attr-defined]
        "riichienv (random agents)": peer_rate(lambda: eb.riichienv_runner(True), seeds * 3),  # type: ignore[attr-defined]
    }
    lines = [f"## {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC — bench/bench_simulate.py", ""]
    lines += [f"- {fact}" for fact in eb.machine_facts()]  # type: ignore[attr-defined]
    lines += [
        "",
        "majiang: `run_simulation` (what `majiang simulate` runs), one-hand matches, "
        "seed 1, wall clock including worker start-up.",
        "",
        "| variant | bots | hands/s, 1 process | decisions/s, 1 process | "
        f"hands/s, {cores} processes | decisions/s, {cores} processes |",
        "|---|---|---|---|---|---|",
    ]
    for variant, bot, one, allc in rows:
        lines.append(
            f"| {variant} | 4 x {bot} | {one[0]:,.0f} | {one[1]:,.0f} | "
            f"{allc[0]:,.0f} | {allc[1]:,.0f} |"
        )
    lines += ["", "| peer (one process) | hands/s | decisions/s |", "|---|---|---|"]
    for name, rate in peers.items():
        if isinstance(rate, str):
            lines.append(f"| {name} | {rate} | |")
        else:
            lines.append(f"| {name} | {rate[0]:,.1f} | {rate[1]:,.0f} |")
    best_rl = max(
        (r[0] for k, r in peers.items() if "rlcard" in k and not isinstance(r, str)), default=None
    )
    rii = peers["riichienv (random agents)"]
    lines += [
        "",
        "Random bots, per core (1 process) against the peers' faster row:",
        "",
        "| variant | x rlcard (target >= 10) | x riichienv (target >= 0.5) |",
        "|---|---|---|",
    ]
    for variant, bot, one, _ in rows:
        if bot != "random":
            continue
        a = (
            f"{one[0] / best_rl:.1f}x {'met' if one[0] >= 10 * best_rl else 'NOT met'}"
            if best_rl
            else "n/a"
        )
        b = (
            f"{one[0] / rii[0]:.2f}x {'met' if one[0] >= 0.5 * rii[0] else 'NOT met'}"
            if not isinstance(rii, str)
            else "n/a"
        )
        lines.append(f"| {variant} | {a} | {b} |")
    report = "\n".join(lines) + "\n"
    print(report)
    if args.markdown:
        with open(args.markdown, "a", encoding="utf-8") as fh:
            fh.write("\n" + report)
        print(f"appended to {args.markdown}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
