"""``majiang arena``: bots compared on duplicate deals, with confidence intervals.

The arena is ``majiang.bots.arena.play_deals`` run over seeded chunks of deals, inline or
in a process pool, the chunks' results merged in deal order; so ``--json`` is the same
for a seed whatever ``--workers`` (docs/bots.md).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from majiang.bots import bot_names
from majiang.bots.arena import ArenaConfig, ArenaResult, DealResult, merge, play_deals, seating_for
from majiang.cli.backends import Backend, add_backend_arguments, run_chunks
from majiang.cli.simulate import parse_option
from majiang.errors import MajiangError
from majiang.rules import VARIANTS, get_variant

__all__ = ["arena_json", "main", "run"]

CHUNK = 5
"""Deals per task sent to a worker; the progress bar moves by chunks."""


def _chunks(total: int, size: int) -> list[tuple[int, int]]:
    return [(s, min(size, total - s)) for s in range(0, total, size)]


def run(
    config: ArenaConfig,
    backend: Backend | None = None,
    progress: bool = False,
    chunk: int = CHUNK,
) -> ArenaResult:
    """Play the arena over chunks of ``chunk`` deals on the backend (default: this
    process), merged in deal order whatever the backend."""
    config.validate()
    backend = backend or Backend("process", 1)
    if chunk < 1:
        raise MajiangError(f"--chunk must be at least 1, got {chunk}")
    backend.check()
    chunks = _chunks(config.deals, chunk)
    from majiang.cli.simulate import _progress

    bar = _progress(progress, "arena")
    with bar:
        task = bar.add_task("hands", total=config.deals * 4)

        def arrived(part: list[DealResult]) -> None:
            bar.update(task, advance=4 * len(part))

        parts = run_chunks(play_deals, config, chunks, backend, arrived)
    return merge(config, [deal for part in parts for deal in part])


def arena_json(config: ArenaConfig, result: ArenaResult) -> dict[str, Any]:
    """The result as a JSON document (``--json``): nothing in it depends on the machine."""
    bots = []
    for s in result.scores:
        bots.append(
            {
                "bot": s.name,
                "hands": len(s.points),
                "mean_points": s.mean,
                "ci95": s.ci,
                "win_rate": s.rate(s.wins),
                "self_draw_rate": s.rate(s.self_draws),
                "deal_in_rate": s.rate(s.deal_ins),
            }
        )
    a, b = result.scores[0].name, result.scores[1].name
    mean, ci = result.diff
    return {
        "variant": config.variant,
        "options": get_variant(config.variant).resolve_options(dict(config.options)),
        "seed": config.seed,
        "deals": result.deals,
        "hands": result.hands,
        "seating": list(config.seating),
        "bots": bots,
        "paired": {"bots": [a, b], "mean": mean, "ci95": ci, "clear_of_zero": abs(mean) > ci},
    }


def print_table(config: ArenaConfig, result: ArenaResult) -> None:
    """Rich table per bot, then the paired difference."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(
        title=f"{config.variant}: {result.deals:,} deals x 4 seatings, seed {config.seed}"
    )
    for col in ("bot", "hands", "points/hand", "95% CI", "win", "self-draw", "deal-in"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for s in result.scores:
        table.add_row(
            s.name,
            f"{len(s.points):,}",
            f"{s.mean:+.3f}",
            f"±{s.ci:.3f}",
            f"{s.rate(s.wins):.1%}",
            f"{s.rate(s.self_draws):.1%}",
            f"{s.rate(s.deal_ins):.1%}",
        )
    console.print(table)
    mean, ci = result.diff
    a, b = result.scores[0].name, result.scores[1].name
    verdict = "clear of zero" if abs(mean) > ci else "not clear of zero"
    console.print(
        f"{a} - {b}: {mean:+.3f} points per hand, 95% CI [{mean - ci:+.3f}, {mean + ci:+.3f}]"
        f" ({verdict})"
    )


def plot(config: ArenaConfig, result: ArenaResult, path: str) -> None:
    """Means with their CIs, and the distribution of points per hand, as a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise MajiangError("--plot needs matplotlib: pip install 'majiang[plot]'") from None
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    names = [s.name for s in result.scores]
    means = [s.mean for s in result.scores]
    cis = [s.ci for s in result.scores]
    left.bar(names, means, yerr=cis, capsize=6, color="#4c72b0")
    left.axhline(0, color="black", linewidth=0.8)
    mean, ci = result.diff
    left.set_title(
        f"{config.variant}: mean points per hand (95% CI)\n"
        f"{names[0]} - {names[1]}: {mean:+.2f} [{mean - ci:+.2f}, {mean + ci:+.2f}]",
        fontsize=9,
    )
    lo = min(min(s.points) for s in result.scores)
    hi = max(max(s.points) for s in result.scores)
    bins = max(1, min(60, hi - lo + 1))
    for s in result.scores:
        # density: a bot seated three times per rotation has three times the hands
        right.hist(
            s.points, bins=bins, range=(lo, hi + 1), alpha=0.5, label=s.name, density=True
        )
    right.set_yscale("log")
    right.set_ylabel("share of its hands")
    right.set_title(f"points per hand ({result.deals} deals x 4 seatings)", fontsize=9)
    right.legend()
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=90)
    except OSError as err:
        raise MajiangError(f"--plot: cannot write {path!r}: {err.strerror}") from None
    finally:
        plt.close(fig)


def main(args: Any) -> int:
    """Entry point from majiang.cli with parsed arguments."""
    options = dict(parse_option(o) for o in args.option or [])
    names = [b.strip() for b in args.bots.split(",")]
    config = ArenaConfig(args.variant, seating_for(names), args.hands, args.seed, options)
    config.validate()
    if len(set(names)) != len(names) and len(names) < 4:
        raise MajiangError(f"--bots names each bot once, got {args.bots!r}")
    if args.plot:
        parent = Path(args.plot).resolve().parent
        if not parent.is_dir():
            raise MajiangError(f"--plot: no directory {str(parent)!r}")
    backend = Backend.of(args)
    t0 = time.perf_counter()
    result = run(config, backend, progress=not args.json, chunk=args.chunk)
    seconds = time.perf_counter() - t0
    if args.json:
        print(json.dumps(arena_json(config, result), ensure_ascii=False, indent=2))
        print(f"{result.hands:,} hands in {seconds:.1f} s on {backend.describe()}", file=sys.stderr)
    else:
        print_table(config, result)
    if args.plot:
        plot(config, result, args.plot)
    return 0


def add_parser(sub: Any) -> None:
    """The ``arena`` subcommand's arguments."""
    p = sub.add_parser(
        "arena", help="compare bots on duplicate deals (every bot in every seat), with 95% CIs"
    )
    first = next(iter(VARIANTS))
    p.add_argument("--variant", default=first, help=f"variant id (default {first})")
    p.add_argument("--option", action="append", metavar="K=V", help="a room option, repeatable")
    p.add_argument(
        "--bots",
        default="greedy+,greedy",
        help=f"two to four bots, the first two compared, from: {bot_names()} "
        "(default greedy+,greedy)",
    )
    p.add_argument(
        "--hands", type=int, default=100, help="deals, each played in 4 seatings (default 100)"
    )
    p.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    add_backend_arguments(p, "deals", CHUNK)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--plot", metavar="FILE.png", help="draw means, CIs and points per hand")
