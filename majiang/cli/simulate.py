"""``majiang simulate``: many seeded hands or matches between bots, in parallel."""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from majiang.bots import bot_names, is_bot, make_bot, play_hand
from majiang.bots.arena import mean_ci
from majiang.cli.backends import Backend, add_backend_arguments, run_chunks
from majiang.engine.match import Match
from majiang.errors import MajiangError, OptionError
from majiang.records import record_json
from majiang.rules import VARIANTS, get_variant

__all__ = ["SimConfig", "SimStats", "parse_option", "run_simulation"]

CHUNK = 25
"""Matches per chunk of work sent to a worker (``--chunk``); the progress bar moves by chunks.
Results never depend on it: every match's seed comes from its index."""


def parse_option(text: str) -> tuple[str, Any]:
    """``k=v`` with v read as true/false, an integer, or text."""
    if "=" not in text:
        raise OptionError(f"--option takes name=value, got {text!r}")
    name, raw = text.split("=", 1)
    value: Any = raw
    if raw.lower() in ("true", "false"):
        value = raw.lower() == "true"
    else:
        try:
            value = int(raw)
        except ValueError:
            value = raw
    return name.strip(), value


@dataclass(frozen=True)
class SimConfig:
    """What to simulate; validated before anything runs."""

    variant: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    seed: int = 0
    hands: int = 0
    matches: int = 0
    match_hands: int = 8
    records: str | None = None

    def validate(self) -> None:
        """OptionError / MajiangError naming what is wrong."""
        variant = get_variant(self.variant)
        variant.resolve_options(self.options)
        if len(self.bots) != 4:
            raise MajiangError(f"--bots names four bots (one per seat), got {len(self.bots)}")
        for b in self.bots:
            if not is_bot(b):
                raise MajiangError(f"unknown bot {b!r}; bots: {bot_names()}")
        if self.hands < 0 or self.matches < 0 or (self.hands > 0) == (self.matches > 0):
            raise MajiangError(
                f"give either --hands N or --matches N with N >= 1 "
                f"(got --hands {self.hands}, --matches {self.matches})"
            )
        if self.match_hands < 1:
            raise MajiangError(f"--match-hands must be at least 1, got {self.match_hands}")

    @property
    def units(self) -> int:
        """Matches to play (a --hands run plays one-hand matches)."""
        return self.hands or self.matches

    @property
    def per_unit(self) -> int:
        """Hands per match."""
        return 1 if self.hands else self.match_hands


@dataclass
class SimStats:
    """Totals over the simulated hands, mergeable across workers."""

    hands: int = 0
    decisions: int = 0
    draws: int = 0
    points: list[list[int]] = field(default_factory=lambda: [[], [], [], []])
    wins: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    self_draws: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    deal_ins: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    patterns: Counter[str] = field(default_factory=Counter)
    records: list[tuple[str, str]] = field(default_factory=list)
    """(file name, majiang-record/1 JSON) per match with --records, written by the driver as
    each chunk arrives, so that workers on other machines need no shared disk."""

    def merge(self, other: SimStats) -> None:
        """Add another worker's totals."""
        self.hands += other.hands
        self.decisions += other.decisions
        self.draws += other.draws
        for s in range(4):
            self.points[s].extend(other.points[s])
            self.wins[s] += other.wins[s]
            self.self_draws[s] += other.self_draws[s]
            self.deal_ins[s] += other.deal_ins[s]
        self.patterns.update(other.patterns)
        self.records.extend(other.records)


def _play_units(config: SimConfig, chunk: tuple[int, int]) -> SimStats:
    """Play matches ``start`` .. ``start+count-1``; the seed of each is derived from its index."""
    start, count = chunk
    stats = SimStats()
    for unit in range(start, start + count):
        seed = config.seed * 1_000_003 + unit
        rng = random.Random(seed ^ 0xB07)
        bots = [make_bot(name, rng) for name in config.bots]
        match = Match(config.variant, config.options, seed)
        for _ in range(config.per_unit):
            if match.over:
                break
            state = match.new_hand()
            stats.decisions += play_hand(state, bots)
            match.finish(state)
            res = state.result()
            stats.hands += 1
            for s, d in enumerate(res.deltas):
                stats.points[s].append(d)
            if res.win is None:
                stats.draws += 1
            else:
                stats.wins[res.win.winner] += 1
                if res.win.win_type in ("discard", "rob_kong") and res.win.source is not None:
                    stats.deal_ins[res.win.source] += 1
                elif res.win.win_type != "discard":
                    stats.self_draws[res.win.winner] += 1
                stats.patterns.update(res.patterns)
        if config.records:
            name = f"{config.variant}-{config.seed}-{unit:07d}.json"
            stats.records.append((name, json.dumps(record_json(match), ensure_ascii=False)))
    return stats


def _chunks(total: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, total, size):
        yield start, min(size, total - start)


def run_simulation(
    config: SimConfig,
    workers: int | None = None,
    progress: bool = True,
    backend: Backend | None = None,
    chunk: int = CHUNK,
) -> tuple[SimStats, float]:
    """Run the simulation on the backend (default: ``workers`` processes); returns the
    totals, merged in match order whatever the backend, and the wall time in seconds."""
    config.validate()
    backend = backend or Backend("process", workers)
    if chunk < 1:
        raise MajiangError(f"--chunk must be at least 1, got {chunk}")
    backend.check()
    if config.records:
        _records_dir(config.records)
    stats = SimStats()
    t0 = time.perf_counter()
    chunks = list(_chunks(config.units, chunk))
    bar = _progress(progress)
    with bar:
        task = bar.add_task("hands", total=config.units * config.per_unit)

        def arrived(part: SimStats) -> None:
            if config.records:
                _write_records(Path(config.records), part.records)
                part.records = []
            bar.update(task, advance=part.hands)

        parts = run_chunks(_play_units, config, chunks, backend, arrived)
    for part in parts:
        stats.merge(part)
    return stats, time.perf_counter() - t0


def _write_records(directory: Path, records: list[tuple[str, str]]) -> None:
    """Write a chunk's records as it arrives (their names come from the match indices)."""
    for name, text in records:
        path = directory / name
        try:
            path.write_text(text)
        except OSError as err:
            raise MajiangError(f"--records: cannot write {str(path)!r}: {err.strerror}") from None


def _records_dir(name: str) -> None:
    """Make the --records directory, or say in one line why it cannot be one."""
    path = Path(name)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise MajiangError(f"--records {name!r} is a file, not a directory") from None
    except OSError as err:
        raise MajiangError(
            f"--records {name!r}: cannot make the directory: {err.strerror}"
        ) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise MajiangError(f"--records {name!r}: the directory is not writable")


def _progress(enabled: bool, label: str = "simulating") -> Any:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    class Rate(TextColumn):
        def render(self, task: Any) -> Any:
            from rich.text import Text

            speed = task.finished_speed or task.speed
            return Text(f"{speed:,.0f} hands/s" if speed else "")

    return Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        Rate(""),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        disable=not enabled,
        transient=False,
    )


def summary_json(config: SimConfig, stats: SimStats) -> dict[str, Any]:
    """The totals as a JSON document (``--json``): a function of the configuration alone, the
    same bytes for one process, N processes or Ray (so it carries no timing)."""
    seats = []
    for s in range(4):
        mean, ci = mean_ci(stats.points[s])
        seats.append(
            {
                "seat": s,
                "bot": config.bots[s],
                "wins": stats.wins[s],
                "self_draws": stats.self_draws[s],
                "deal_ins": stats.deal_ins[s],
                "mean_points": mean,
                "ci95": ci,
            }
        )
    return {
        "variant": config.variant,
        "options": get_variant(config.variant).resolve_options(config.options),
        "seed": config.seed,
        "hands": stats.hands,
        "decisions": stats.decisions,
        "draw_rate": stats.draws / stats.hands if stats.hands else 0.0,
        "seats": seats,
        "patterns": dict(_patterns(stats)),
    }


def _patterns(stats: SimStats) -> list[tuple[str, int]]:
    """Patterns by count, ties by name (an order that no merge order can change)."""
    return sorted(stats.patterns.items(), key=lambda kv: (-kv[1], kv[0]))


def print_summary(config: SimConfig, stats: SimStats, seconds: float) -> None:
    """Rich tables: per seat, then patterns."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"{config.variant}: {stats.hands:,} hands, seed {config.seed}")
    for col in ("seat", "bot", "wins", "self-draws", "deal-ins", "points/hand", "95% CI"):
        table.add_column(col, justify="right" if col not in ("bot",) else "left")
    for s in range(4):
        mean, ci = mean_ci(stats.points[s])
        table.add_row(
            f"S{s}",
            config.bots[s],
            f"{stats.wins[s]:,}",
            f"{stats.self_draws[s]:,}",
            f"{stats.deal_ins[s]:,}",
            f"{mean:+.2f}",
            f"±{ci:.2f}",
        )
    console.print(table)
    rate = stats.hands / seconds if seconds else 0.0
    dec = stats.decisions / seconds if seconds else 0.0
    draw_rate = stats.draws / stats.hands if stats.hands else 0.0
    console.print(
        f"draw rate {draw_rate:.1%}   {rate:,.0f} hands/s   {dec:,.0f} decisions/s   "
        f"{seconds:.1f} s"
    )
    if stats.patterns:
        pt = Table(title="patterns")
        pt.add_column("pattern")
        pt.add_column("wins", justify="right")
        pt.add_column("share of wins", justify="right")
        won = max(1, stats.hands - stats.draws)
        for name, n in _patterns(stats):
            pt.add_row(name, f"{n:,}", f"{n / won:.1%}")
        console.print(pt)


def main(args: Any) -> int:
    """Entry point from majiang.cli with parsed arguments."""
    options = dict(parse_option(o) for o in args.option or [])
    config = SimConfig(
        variant=args.variant,
        options=options,
        bots=tuple(b.strip() for b in args.bots.split(",")),
        seed=args.seed,
        hands=1000 if args.hands is None and args.matches is None else args.hands or 0,
        matches=args.matches or 0,
        match_hands=args.match_hands,
        records=args.records,
    )
    config.validate()
    backend = Backend.of(args)
    stats, seconds = run_simulation(
        config, progress=not args.json, backend=backend, chunk=args.chunk
    )
    if args.json:
        print(json.dumps(summary_json(config, stats), ensure_ascii=False, indent=2))
        rate = stats.hands / seconds if seconds else 0.0
        print(
            f"{stats.hands:,} hands in {seconds:.1f} s ({rate:,.0f} hands/s) on "
            f"{backend.describe()}",
            file=sys.stderr,
        )
    else:
        print_summary(config, stats, seconds)
    return 0


def add_parser(sub: Any) -> None:
    """The ``simulate`` subcommand's arguments."""
    p = sub.add_parser("simulate", help="play many seeded hands between bots, in parallel")
    first = next(iter(VARIANTS))
    p.add_argument("--variant", default=first, help=f"variant id (default {first})")
    p.add_argument(
        "--option",
        action="append",
        metavar="K=V",
        help="a room option, repeatable, e.g. --option horses=false",
    )
    p.add_argument("--hands", type=int, help="one-hand matches to play (default 1000)")
    p.add_argument("--matches", type=int, help="matches of --match-hands hands to play")
    p.add_argument("--match-hands", type=int, default=8, help="hands per match (default 8)")
    p.add_argument(
        "--bots",
        default="greedy,greedy,greedy,greedy",
        help=f"four bots by seat, from: {bot_names()} (default greedy x4)",
    )
    p.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    add_backend_arguments(p, "matches", CHUNK)
    p.add_argument("--records", metavar="DIR", help="write every match as majiang-record/1")
    p.add_argument("--json", action="store_true", help="print the totals as JSON")
