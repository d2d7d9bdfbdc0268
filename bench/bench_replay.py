"""Speed and memory of ``majiang replay`` on large records (issue 12, item 13).

For each variant, builds one majiang-record/1 of many hands played by greedy bots
(full deals, as majiang writes them) until the JSON reaches ``--mb`` megabytes,
then replays it in a fresh process the way ``majiang replay --json`` does
(``majiang.records.load`` then ``replay``) and reports MB/s of record and the
peak resident memory. It also replays the worst case the limits allow per byte:
:data:`majiang.records.MAX_HANDS` hands written as ``{"autoplay": "tsumogiri"}``
(each a few bytes, each a whole shuffled hand to play). Replay must be linear in
the record's size: a row at ``--mb / 4`` shows the scaling.

Run: ``make bench-replay`` or ``python bench/bench_replay.py [--mb 10] [--markdown FILE]``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from _common import append_markdown, git_rev, machine_facts  # noqa: E402

from majiang.bots import make_bot, play_hand  # noqa: E402
from majiang.engine.match import Match  # noqa: E402
from majiang.records import MAX_HANDS, record_json  # noqa: E402
from majiang.rules import VARIANTS  # noqa: E402

# Run in a fresh interpreter so the peak memory is the replay's own: imports and the
# hand tables first (the baseline), then load + replay, timed with the wall clock.
_CHILD = """
import gc, json, resource, sys, time, tracemalloc
from majiang.records import load, replay
from majiang.hand import is_winning
is_winning([0, 0])  # load the hand tables first
t0 = time.perf_counter()
result = replay(load(sys.argv[1]))
seconds = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:  # Linux keeps ru_maxrss across fork + exec (the parent's size); VmHWM is this process's
    with open("/proc/self/status") as status:
        peak = next(int(l.split()[1]) for l in status if l.startswith("VmHWM"))
except (OSError, StopIteration):
    pass
hands = len(result["hands"])
del result
gc.collect()
tracemalloc.start()
replay(load(sys.argv[1]))
heap = tracemalloc.get_traced_memory()[1]
print(json.dumps({"seconds": seconds, "peak_kb": peak, "heap": heap, "hands": hands}))
"""


def build_record(variant: str, megabytes: float, seed: int) -> tuple[str, int]:
    """A record of greedy-bot hands of ``variant`` of about ``megabytes`` MB; (json, hands)."""
    rng = random.Random(seed)
    bots = [make_bot("greedy", rng) for _ in range(4)]
    match = Match(variant, {}, seed)
    target = int(megabytes * 1_000_000)
    per_hand = 0
    while True:
        state = match.new_hand()
        play_hand(state, bots)
        match.finish(state)
        if match.over:
            break
        if per_hand == 0 and len(match.finished) == 20:
            per_hand = len(json.dumps(record_json(match), ensure_ascii=False)) // 20
        if per_hand and len(match.finished) * per_hand >= target:
            text = json.dumps(record_json(match), ensure_ascii=False)
            if len(text.encode()) >= target:
                return text, len(match.finished)
            per_hand = len(text.encode()) // len(match.finished)
    return json.dumps(record_json(match), ensure_ascii=False), len(match.finished)


def autoplay_record(variant: str, hands: int) -> str:
    """The most hands the limits allow, each a shuffled hand played out by tsumogiri."""
    record = {
        "format": "majiang-record/1",
        "variant": variant,
        "seed": 1,
        "hands": [{"autoplay": "tsumogiri"}] * hands,
    }
    return json.dumps(record)


def measure(text: str, workdir: Path) -> dict[str, float]:
    """Replay ``text`` in a fresh process; seconds, peak and baseline memory, hands."""
    path = workdir / "record.json"
    path.write_text(text, encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    data: dict[str, float] = json.loads(out.stdout)
    data["bytes"] = len(text.encode())
    return data


def row(label: str, hands: int, m: dict[str, float]) -> str:
    """One table row: size, hands, time, MB/s, hands/s, peak RSS, replay's heap peak."""
    mb = m["bytes"] / 1_000_000
    return (
        f"| {label} | {mb:.2f} | {hands:,} | {m['seconds']:.2f} | {mb / m['seconds']:.2f} | "
        f"{m['hands'] / m['seconds']:,.0f} | {m['peak_kb'] / 1024:.0f} | "
        f"{m['heap'] / 1e6:.0f} |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Build, replay and report every row."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0, help="record size in MB (default 10)")
    parser.add_argument("--variants", default=",".join(sorted(VARIANTS)), help="comma list")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", metavar="FILE", help="append the report to FILE")
    args = parser.parse_args(argv)
    lines = [
        "| record | MB | hands | replay s | MB/s | hands/s | peak RSS MB | heap peak MB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for variant in args.variants.split(","):
            t0 = time.perf_counter()
            text, hands = build_record(variant, args.mb, args.seed)
            built = time.perf_counter() - t0
            print(f"{variant}: built {len(text) / 1e6:.1f} MB, {hands} hands in {built:.0f} s",
                  file=sys.stderr)
            lines.append(row(f"{variant}, greedy bots", hands, measure(text, work)))
            if variant == "guangdong":
                quarter, qh = build_record(variant, args.mb / 4, args.seed)
                lines.append(row(f"{variant}, greedy bots, 1/4 size", qh, measure(quarter, work)))
        variant = args.variants.split(",")[0]
        lines.append(
            row(
                f"{variant}, {MAX_HANDS:,} autoplay hands (worst case per byte)",
                MAX_HANDS,
                measure(autoplay_record(variant, MAX_HANDS), work),
            )
        )
    body = "\n".join(lines)
    body += (
        "\n\nreplay s: `load` + `replay` (what `majiang replay --json` does before printing), "
        "wall clock, in a fresh process. Peak RSS is the process's (interpreter and hand "
        "tables included, about 100 MB by themselves); heap peak is what load + replay "
        "allocate at most (tracemalloc, a second untimed run)."
    )
    print(body)
    if args.markdown:
        facts = machine_facts(f"majiang {git_rev()}")
        append_markdown(Path(args.markdown), "bench/bench_replay.py", facts, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
