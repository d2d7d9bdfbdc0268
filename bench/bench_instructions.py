"""Instructions per hand of the engine, counted by valgrind (callgrind): a figure that does
not move with the machine's load, for comparing two trees of majiang on a shared machine.

    python bench/bench_instructions.py --tree OLD_CHECKOUT --variant guangdong --hands 100

runs, under ``valgrind --tool=callgrind``, the same loop as bench_engine.py's majiang row
(random legal actions, ``auto_pass()`` in claim windows) for 0 and for ``--hands`` hands
with the tree on ``PYTHONPATH`` (the working tree when ``--tree`` is left out), and prints
(instructions(N) - instructions(0)) / N. Every tree plays the same seeded hands.
``--loop greedy`` times four greedy bots instead (``play_hand``, an observation per
decision: what ``majiang simulate`` runs).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

LOOP = """
import random, sys
from majiang.engine.match import Match
hands, variant = int(sys.argv[1]), sys.argv[2]
for i in range(hands):
    rng = random.Random(i)
    st = Match(variant, {}, i).new_hand()
    while not st.is_terminal():
        if st.phase != "turn":
            st.auto_pass()
            if st.is_terminal():
                break
        seat = rng.choice(st.to_act())
        st.apply(rng.choice([a for a in st.legal_actions(seat) if a.type != "escape"]))
"""

GREEDY = """
import random, sys
from majiang.bots import play_hand
from majiang.bots.greedy import GreedyBot
from majiang.engine.match import Match
hands, variant = int(sys.argv[1]), sys.argv[2]
for i in range(hands):
    bots = [GreedyBot(random.Random(i * 4 + s)) for s in range(4)]
    play_hand(Match(variant, {}, i).new_hand(), bots)
"""
"""The loop of ``majiang simulate`` in one process: four greedy bots, an observation for
every decision."""

LOOPS = {"random": LOOP, "greedy": GREEDY}


def instructions(tree: Path, variant: str, hands: int, loop: str = "random") -> int:
    """Instructions valgrind counts for the loop over ``hands`` hands with ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "loop.py"
        script.write_text(LOOPS[loop])
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
        out = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={tmp}/cg.out",
                sys.executable,
                str(script),
                str(hands),
                variant,
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp,
        ).stderr
    m = re.search(r"Collected : (\d+)", out)
    if m is None:
        raise SystemExit(f"valgrind printed no count:\n{out[-2000:]}")
    return int(m.group(1))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1])
    p.add_argument("--variant", default="guangdong")
    p.add_argument("--hands", type=int, default=100)
    p.add_argument(
        "--loop",
        choices=sorted(LOOPS),
        default="random",
        help="random legal actions (the engine alone) or four greedy bots (simulate)",
    )
    a = p.parse_args()
    base = instructions(a.tree, a.variant, 0, a.loop)
    full = instructions(a.tree, a.variant, a.hands, a.loop)
    per = (full - base) / a.hands / 1e6
    print(f"{a.variant}\t{a.loop}\t{a.tree}\t{per:.2f} M instructions/hand")


if __name__ == "__main__":
    main()
