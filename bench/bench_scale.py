"""``majiang simulate`` on a process pool versus Ray, in one run (issue 20).

Rows: hands/s with four random and four greedy bots, 1 and 2 workers, the process backend
(one process at 1 worker) beside Ray (a local runtime with that many CPUs, started before the
timing: its start-up is reported on its own). Then Ray's overhead per chunk: the same greedy
hands on one Ray CPU against one plain process, for several chunk sizes, and the smallest chunk
size that keeps the overhead under 5%; and the round trip of an empty task.

Run: ``make bench-scale`` or ``python bench/bench_scale.py [--markdown FILE]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
for path in (REPO, REPO / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

from _common import append_markdown, git_rev, machine_facts, version  # noqa: E402

from majiang.cli.backends import Backend, run_chunks  # noqa: E402
from majiang.cli.simulate import SimConfig, run_simulation  # noqa: E402

VARIANT = "guangdong"


def rate(config: SimConfig, backend: Backend, chunk: int, repeats: int) -> float:
    """Best hands/s of ``repeats`` runs (wall clock of run_simulation)."""
    best = 0.0
    for _ in range(repeats):
        stats, seconds = run_simulation(config, progress=False, backend=backend, chunk=chunk)
        best = max(best, stats.hands / seconds)
    return best


def _noop(config: Any, chunk: int) -> int:
    return chunk


def start_ray(cpus: int) -> float:
    """Start a local runtime with ``cpus`` CPUs; seconds it took."""
    import ray

    t0 = time.perf_counter()
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    ray.get([ray.remote(_noop).remote(None, i) for i in range(cpus)])  # workers up
    return time.perf_counter() - t0


def main(argv: Sequence[str] | None = None) -> int:
    """Run every row and print (and append) a Markdown report."""
    import ray

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-hands", type=int, default=4000, help="hands per random row")
    parser.add_argument("--greedy-hands", type=int, default=1500, help="hands per greedy row")
    parser.add_argument("--chunk", type=int, default=25, help="chunk size of the first table")
    parser.add_argument("--repeats", type=int, default=2, help="runs per row (best kept)")
    parser.add_argument("--markdown", metavar="FILE", help="append the report to FILE")
    args = parser.parse_args(argv)
    load_before = os.getloadavg()
    run_simulation(SimConfig(VARIANT, {}, ("greedy",) * 4, hands=4), 1, False)  # warm tables
    rows: list[tuple[str, int, float, float]] = []
    startup: dict[int, float] = {}
    sweep: list[tuple[int, float, float]] = []
    empty = 0.0
    for workers in (1, 2):
        startup[workers] = start_ray(workers)
        try:
            for bot, hands in (("random", args.random_hands), ("greedy", args.greedy_hands)):
                config = SimConfig(VARIANT, {}, (bot,) * 4, seed=1, hands=hands)
                proc = rate(config, Backend("process", workers), args.chunk, args.repeats)
                on_ray = rate(config, Backend("ray", workers), args.chunk, args.repeats)
                rows.append((bot, workers, proc, on_ray))
                print(f"[{bot} x{workers}: process {proc:,.0f}, ray {on_ray:,.0f} hands/s]",
                      file=sys.stderr)
            if workers == 1:
                config = SimConfig(VARIANT, {}, ("greedy",) * 4, seed=2, hands=args.greedy_hands)
                for chunk in (1, 2, 5, 10, 25, 100):
                    proc = rate(config, Backend("process", 1), chunk, args.repeats)
                    on_ray = rate(config, Backend("ray", 1), chunk, args.repeats)
                    sweep.append((chunk, proc, on_ray))
                    print(f"[chunk {chunk}: process {proc:,.0f}, ray {on_ray:,.0f}]",
                          file=sys.stderr)
                n = 2000
                t0 = time.perf_counter()
                run_chunks(_noop, None, list(range(n)), Backend("ray", 1))
                empty = (time.perf_counter() - t0) / n
        finally:
            ray.shutdown()
    load_after = os.getloadavg()
    facts = [
        *machine_facts(f"majiang 0.1.0 (git {git_rev()}), ray {version('ray')}"),
        f"load average (1, 5, 15 min) before: {', '.join(f'{x:.1f}' for x in load_before)}; "
        f"after: {', '.join(f'{x:.1f}' for x in load_after)}",
    ]
    lines = [
        f"`run_simulation` (what `majiang simulate` runs), {VARIANT}, one-hand matches, "
        f"chunks of {args.chunk}, best of {args.repeats}; wall clock including the process "
        "pool's start-up; Ray's runtime started before the timing "
        f"({startup[1]:.1f} s with 1 CPU, {startup[2]:.1f} s with 2).",
        "",
        "| bots | workers | process (hands/s) | ray (hands/s) | ray / process |",
        "|---|---|---|---|---|",
    ]
    for bot, workers, proc, on_ray in rows:
        lines.append(
            f"| 4 x {bot} | {workers} | {proc:,.0f} | {on_ray:,.0f} | {on_ray / proc:.2f} |"
        )
    lines += [
        "",
        f"Ray's overhead per chunk: 4 x greedy, {args.greedy_hands} hands, one Ray CPU against "
        "one plain process (no pool), by chunk size:",
        "",
        "| chunk (hands) | process (hands/s) | ray (hands/s) | overhead | per chunk |",
        "|---|---|---|---|---|",
    ]
    ok = None
    for chunk, proc, on_ray in sweep:
        overhead = proc / on_ray - 1
        per_chunk = (1 / on_ray - 1 / proc) * chunk * 1000
        if ok is None and overhead < 0.05:
            ok = chunk
        lines.append(
            f"| {chunk} | {proc:,.0f} | {on_ray:,.0f} | {overhead:+.1%} | {per_chunk:.2f} ms |"
        )
    lines += [
        "",
        f"An empty task's round trip through `run_chunks` on Ray: {empty * 1000:.2f} ms. "
        + (
            f"Smallest chunk with the overhead under 5%: {ok} hands."
            if ok is not None
            else "No chunk size measured kept the overhead under 5%."
        ),
    ]
    body = "\n".join(lines)
    print("\n".join(f"- {fact}" for fact in facts) + "\n" + body)
    if args.markdown:
        append_markdown(Path(args.markdown), "bench/bench_scale.py", facts, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
