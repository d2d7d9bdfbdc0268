"""Full-hand simulation speed: majiang's engine against rlcard's and riichienv's.

What it measures, in one process and one run: how fast each library plays whole
hands of mahjong with four bots that pick a uniformly random legal action.
Throughput is reported as hands/s and decisions/s (a decision is one action
that one player chose and the library applied):

* ``majiang (C hand tables)``: ``Match(variant, {}, seed).new_hand()``, then
  ``seats = st.to_act()``, a random seat of those, ``st.legal_actions(seat)``,
  ``st.apply(random legal action)`` until ``st.is_terminal()``; in a claim window
  ``st.auto_pass()`` first (seats whose only choice is pass, not counted as
  decisions: every other seat is in every window since issue 15). One ``apply()``
  = one decision. The C accelerator ``majiang.hand._speedups`` is used if built.
* ``majiang (pure Python)``: the same hands, with every majiang binding of the
  accelerated ``is_winning`` / ``waits`` / ``shanten`` (``majiang.hand``,
  ``majiang.hand.analysis``, ``majiang.engine.state``, ...) set back to the
  ``_py_*`` functions of ``majiang.hand.analysis`` for the duration of the row.
* ``rlcard env``: ``rlcard.make("mahjong")`` with four ``rlcard.agents.RandomAgent``
  and ``env.run(is_training=False)``, one call per hand (this includes rlcard's
  observation encoding and trajectories). One ``env.step`` = one decision,
  counted afterwards as the actions stored in the trajectories.
* ``rlcard raw game``: ``rlcard.games.mahjong.Game``: ``init_game()``, then
  ``legal = game.get_legal_actions(state)`` and ``game.step(random legal)``
  until ``game.is_over()``. One ``game.step`` = one decision.
* ``riichienv``: ``RiichiEnv(seed=s)`` (default game mode: one 4-player hand,
  kyoku) with ``riichienv.agents.RandomAgent``:
  ``obs = env.reset()``, then ``env.step({pid: agent.act(obs[pid]) for pid in sorted(obs)})``
  until ``env.done()`` (seats sorted: ``obs`` order varies from run to run, which
  would make the shared agent's draws, and so the games, irreproducible). Every
  entry of the dict passed to ``step`` = one decision (several seats may decide
  at once on a claim). Timed twice: as constructed by default (MJAI event log
  on) and with ``skip_mjai_logging=True``.

How it is timed: per hand, the clock runs from the deal (``new_hand()``,
``env.reset()``, ``init_game()``, or ``env.run()`` which deals itself) to the end
of the hand. Constructing matches, environments, agents and random generators,
seeding, imports, table loading (one untimed warm-up hand per row) and counting
decisions are outside the clock. The garbage collector stays on, as in real use
(``gc.collect()`` before each row). Every row plays the same seeded hands in
each of ``--repeats`` rounds (rows take turns inside a round) and the round with
the smallest total time is kept: "best of N rounds, total over the hands".

Hands: ``--hands`` for majiang and riichienv; rlcard is 20-50x slower, so it
plays ``--rlcard-hands``. A default run (5 rounds) takes about 2 minutes on 2 cores.

Run it on demand (it is not part of the test suite)::

    .venv/bin/pip install rlcard riichienv       # peers (rlcard pulls numpy)
    .venv/bin/python bench/bench_engine.py
    .venv/bin/python bench/bench_engine.py --hands 300 --rlcard-hands 50   # quicker
    .venv/bin/python bench/bench_engine.py --markdown bench/RESULTS.md
    .venv/bin/python bench/bench_engine.py --profile 15 --libs majiang

The Markdown table goes to stdout; ``--markdown FILE`` also appends a dated
section with the machine facts and the exact command to FILE.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import io
import pstats
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # measure this tree's majiang, installed or not
if str(REPO / "bench") not in sys.path:
    sys.path.insert(0, str(REPO / "bench"))  # _common, also when loaded from elsewhere

import _common  # noqa: E402
from _common import git_rev, version  # noqa: E402

# Targets of the engine-speed issue (pure Python majiang against the peers).
TARGET_VS_RLCARD = 10.0
TARGET_VS_RIICHIENV = 0.5
# The reference figures, measured on this kind of machine (for context only).
REFERENCE = "riichienv ≈ 620 hands/s (55k decisions/s); rlcard ≈ 30 hands/s env, 78 raw game"

LIBS = ("majiang", "rlcard", "riichienv")

# A runner plays the hands of the given seeds and returns
# (seconds on the clock, decisions, hands won).
Runner = Callable[[Sequence[int]], tuple[float, int, int]]


@dataclass
class Row:
    """One timed configuration of one library."""

    label: str
    lib: str
    loop: str  # the timed calls, for the table
    runner: Runner | None
    seeds: Sequence[int]
    error: str | None = None
    context: Callable[[], contextlib.AbstractContextManager[Any]] = contextlib.nullcontext
    times: list[float] = field(default_factory=list)
    decisions: int = 0
    wins: int = 0
    decision_totals: set[int] = field(default_factory=set)

    @property
    def best(self) -> float | None:
        return min(self.times) if self.times else None

    def hands_per_s(self) -> float | None:
        b = self.best
        return len(self.seeds) / b if b else None

    def decisions_per_s(self) -> float | None:
        b = self.best
        return self.decisions / b if b else None


# ---------------------------------------------------------------------------
# majiang
# ---------------------------------------------------------------------------


def majiang_runner(variant: str) -> Runner:
    from majiang.engine.match import Match

    def run(seeds: Sequence[int]) -> tuple[float, int, int]:
        clock = time.perf_counter
        total = 0.0
        decisions = 0
        wins = 0
        for seed in seeds:
            match = Match(variant, {}, seed)
            rng = random.Random(seed)
            randrange = rng.randrange
            n = 0
            t0 = clock()
            st = match.new_hand()
            while not st.is_terminal():
                if st.phase != "turn":
                    st.auto_pass()
                    if st.is_terminal():
                        break
                seats = st.to_act()
                seat = seats[randrange(len(seats))]
                legal = st.legal_actions(seat)
                st.apply(legal[randrange(len(legal))])
                n += 1
            total += clock() - t0
            decisions += n
            wins += st.result().win is not None
        return total, decisions, wins

    return run


@contextlib.contextmanager
def pure_python_hand() -> Iterator[list[str]]:
    """Point every loaded majiang binding of a C-accelerated hand function back
    to its ``_py_*`` version; yields the patched ``module.name`` list; restores."""
    import majiang.engine.state  # noqa: F401 - make sure its binding is there to patch
    from majiang.hand import analysis

    try:
        from majiang.hand import _speedups
    except ImportError:
        yield []
        return
    swap = {
        id(_speedups.is_winning): analysis._py_is_winning,
        id(_speedups.is_winning_counts): analysis._py_is_winning_counts,
        id(_speedups.waits): analysis._py_waits,
        id(_speedups.shanten): analysis._py_shanten,
    }
    undo: list[tuple[Any, str, Any]] = []
    for name, mod in list(sys.modules.items()):
        if mod is None or not (name == "majiang" or name.startswith("majiang.")):
            continue
        if name == "majiang.hand._speedups":
            continue
        for attr, value in list(vars(mod).items()):
            if id(value) in swap:
                undo.append((mod, attr, value))
                setattr(mod, attr, swap[id(value)])
    try:
        yield [f"{m.__name__}.{a}" for m, a, _ in undo]
    finally:
        for mod, attr, value in undo:
            setattr(mod, attr, value)


def accelerated() -> bool:
    from majiang.hand import analysis

    return bool(getattr(analysis, "ACCELERATED", False))


# ---------------------------------------------------------------------------
# rlcard
# ---------------------------------------------------------------------------


def rlcard_env_runner() -> Runner:
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("mahjong", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])

    def run(seeds: Sequence[int]) -> tuple[float, int, int]:
        clock = time.perf_counter
        total = 0.0
        decisions = 0
        wins = 0
        for seed in seeds:
            env.seed(seed)  # the deal
            np.random.seed(seed)  # RandomAgent draws from numpy's global generator
            t0 = clock()
            trajectories, _payoffs = env.run(is_training=False)
            total += clock() - t0
            # trajectories[p] = state, action, state, action, ..., final state
            decisions += sum(1 for tr in trajectories for x in tr if not isinstance(x, dict))
            wins += env.game.winner not in (-1, None)
        return total, decisions, wins

    return run


def rlcard_raw_runner() -> Runner:
    import numpy as np
    from rlcard.games.mahjong import Game

    def run(seeds: Sequence[int]) -> tuple[float, int, int]:
        clock = time.perf_counter
        total = 0.0
        decisions = 0
        wins = 0
        for seed in seeds:
            game = Game()
            game.np_random = np.random.RandomState(seed)
            rng = random.Random(seed)
            randrange = rng.randrange
            n = 0
            t0 = clock()
            state, _player = game.init_game()
            while not game.is_over():
                legal = game.get_legal_actions(state)
                state, _player = game.step(legal[randrange(len(legal))])
                n += 1
            total += clock() - t0
            decisions += n
            wins += game.winner != -1
        return total, decisions, wins

    return run


# ---------------------------------------------------------------------------
# riichienv
# ---------------------------------------------------------------------------


def riichienv_runner(skip_log: bool) -> Runner:
    from riichienv import RiichiEnv
    from riichienv.agents import RandomAgent

    def run(seeds: Sequence[int]) -> tuple[float, int, int]:
        clock = time.perf_counter
        total = 0.0
        decisions = 0
        wins = 0
        for seed in seeds:
            env = RiichiEnv(seed=seed, skip_mjai_logging=skip_log)
            agent = RandomAgent(seed=seed)
            act = agent.act
            n = 0
            t0 = clock()
            obs = env.reset()
            while not env.done():
                # seats in order: obs comes from a Rust HashMap whose order varies,
                # and the shared agent's random draws must not depend on it
                actions = {pid: act(obs[pid]) for pid in sorted(obs)}
                n += len(actions)
                obs = env.step(actions)
            total += clock() - t0
            decisions += n
            wins += bool(env.win_results)
        return total, decisions, wins

    return run


# ---------------------------------------------------------------------------
# Rows, timing
# ---------------------------------------------------------------------------


def _short(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return text[:120]


def _make(factory: Callable[[], Runner]) -> tuple[Runner | None, str | None]:
    try:
        return factory(), None
    except ImportError as exc:
        return None, f"not installed ({_short(exc)})"
    except Exception as exc:  # a peer's API changed: report, do not crash
        return None, _short(exc)


def build_rows(args: argparse.Namespace) -> list[Row]:
    fast = range(args.seed, args.seed + args.hands)
    slow = range(args.seed, args.seed + args.rlcard_hands)
    rows: list[Row] = []
    if "majiang" in args.libs:
        mj_loop = (
            "`new_hand()`; `auto_pass()` in a claim window; `to_act()`, `legal_actions(seat)`,"
            " `apply(a)` per decision"
        )
        run, err = _make(lambda: majiang_runner(args.variant))
        c_label = "majiang (C hand tables)" if accelerated() else "majiang (C not built)"
        rows.append(Row(c_label, "majiang", mj_loop, run, fast, err))
        rows.append(Row("majiang (pure Python)", "majiang", mj_loop, run, fast, err,
                        context=pure_python_hand))
    if "rlcard" in args.libs:
        run, err = _make(rlcard_env_runner)
        rows.append(Row("rlcard env", "rlcard",
                        "`env.run(is_training=False)`, 4 × `RandomAgent`", run, slow, err))
        run, err = _make(rlcard_raw_runner)
        rows.append(Row("rlcard raw game", "rlcard",
                        "`init_game()`; `get_legal_actions(state)`, `step(a)` per decision",
                        run, slow, err))
    if "riichienv" in args.libs:
        rii_loop = "`reset()`; `step({pid: agent.act(obs[pid])})` per step"
        run, err = _make(lambda: riichienv_runner(False))
        rows.append(Row("riichienv (default env)", "riichienv", rii_loop, run, fast, err))
        run, err = _make(lambda: riichienv_runner(True))
        rows.append(Row("riichienv (skip_mjai_logging)", "riichienv", rii_loop, run, fast, err))
    return rows


def time_rows(rows: list[Row], repeats: int) -> list[str]:
    """Warm up each row, then ``repeats`` rounds (rows alternate inside a round)."""
    notes: list[str] = []
    live = [r for r in rows if r.runner is not None]
    for row in live:
        assert row.runner is not None
        try:
            with row.context() as patched:
                if patched:
                    notes.append(f"{row.label}: patched {', '.join(patched)}")
                row.runner(row.seeds[:1])
        except Exception as exc:
            row.error = f"failed: {_short(exc)}"
    for rnd in range(repeats):
        for row in live:
            if row.error is not None or row.runner is None:
                continue
            gc.collect()
            t0 = time.perf_counter()
            try:
                with row.context():
                    seconds, decisions, wins = row.runner(row.seeds)
            except Exception as exc:
                row.error = f"failed: {_short(exc)}"
                continue
            row.times.append(seconds)
            row.decisions, row.wins = decisions, wins
            row.decision_totals.add(decisions)
            print(f"[round {rnd + 1}/{repeats} {row.label}: {len(row.seeds)} hands, "
                  f"{seconds:.2f} s timed, {time.perf_counter() - t0:.2f} s wall]",
                  file=sys.stderr)
    for row in live:
        if len(row.decision_totals) > 1:
            notes.append(f"{row.label}: decision totals differ between rounds "
                         f"{sorted(row.decision_totals)} (not reproducible from the seeds)")
    mj = [r for r in rows if r.lib == "majiang" and r.times]
    if len(mj) == 2:
        same = mj[0].decisions == mj[1].decisions and mj[0].wins == mj[1].wins
        notes.append("majiang C and pure Python rows played "
                     + ("the same games (same decisions and wins)." if same
                        else f"DIFFERENT games: {mj[0].decisions} vs {mj[1].decisions} "
                             "decisions — the two hand paths disagree somewhere."))
    return notes


def profile_majiang(args: argparse.Namespace, lines: int) -> str:
    """cProfile of the majiang loop (C tables as installed), top ``lines`` by own time."""
    run = majiang_runner(args.variant)
    seeds = range(args.seed, args.seed + args.hands)
    run(seeds[:1])
    prof = cProfile.Profile()
    prof.enable()
    run(seeds)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(lines)
    return out.getvalue()


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def _fmt_rate(rate: float | None) -> str:
    if rate is None:
        return "—"
    if rate >= 100:
        return f"{rate:,.0f}"
    return f"{rate:,.1f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def _find(rows: list[Row], label: str) -> Row | None:
    for r in rows:
        if r.label == label and r.times:
            return r
    return None


def ratio_rows(rows: list[Row]) -> list[tuple[str, str, str, str]]:
    out: list[tuple[str, str, str, str]] = []
    mine = [r for r in rows if r.lib == "majiang" and r.times]
    peers = [
        ("rlcard env", TARGET_VS_RLCARD),
        ("rlcard raw game", TARGET_VS_RLCARD),
        ("riichienv (default env)", TARGET_VS_RIICHIENV),
        ("riichienv (skip_mjai_logging)", TARGET_VS_RIICHIENV),
    ]
    for m in mine:
        for label, target in peers:
            peer = _find(rows, label)
            a, b = m.hands_per_s(), peer.hands_per_s() if peer else None
            if a is None or b is None:
                continue
            ratio = a / b
            status = "met" if ratio >= target else "NOT met"
            out.append((f"{m.label} / {label}", f"{ratio:.2f}×", f"≥ {target:g}×", status))
    return out


def verdict(rows: list[Row]) -> str:
    """One line: the issue's targets, for pure Python majiang against the strictest peer row."""
    pure = _find(rows, "majiang (pure Python)")
    if pure is None:
        return "Targets: not evaluated (pure Python majiang row missing)."
    rl = [r for r in (_find(rows, "rlcard env"), _find(rows, "rlcard raw game")) if r]
    rii = [r for r in (_find(rows, "riichienv (default env)"),
                       _find(rows, "riichienv (skip_mjai_logging)")) if r]
    parts = []
    rate = pure.hands_per_s() or 0.0
    if rl:
        best = max(rl, key=lambda r: r.hands_per_s() or 0.0)
        ok = rate >= TARGET_VS_RLCARD * (best.hands_per_s() or 0.0)
        parts.append(f"≥ {TARGET_VS_RLCARD:g}× rlcard (vs its faster row, {best.label}): "
                     + ("met" if ok else "NOT met"))
    if rii:
        best = max(rii, key=lambda r: r.hands_per_s() or 0.0)
        ok = rate >= TARGET_VS_RIICHIENV * (best.hands_per_s() or 0.0)
        parts.append(f"≥ {TARGET_VS_RIICHIENV:g}× riichienv (vs its faster row, {best.label}): "
                     + ("met" if ok else "NOT met"))
    if not parts:
        return "Targets: not evaluated (no peer measured)."
    return "Targets for majiang (pure Python), hands/s: " + "; ".join(parts) + "."


def render(rows: list[Row], notes: list[str], args: argparse.Namespace) -> str:
    lines = [
        f"Variant `{args.variant}` for majiang; seeds {args.seed}..; best of {args.repeats} "
        "rounds, each the total time over the row's hands; random legal actions, one process.",
        "",
    ]
    table = []
    for r in rows:
        hps, dps = r.hands_per_s(), r.decisions_per_s()
        n = len(r.seeds)
        if r.error is not None:
            table.append((r.label, r.loop, f"{n:,}", r.error, "—", "—", "—", "—"))
            continue
        per_hand = f"{r.decisions / n:.1f}" if r.times else "—"
        us = f"{1e6 / dps:.1f}" if dps else "—"
        table.append((r.label, r.loop, f"{n:,}", _fmt_rate(hps), _fmt_rate(dps), per_hand, us,
                      f"{r.wins}/{n}" if r.times else "—"))
    lines += _table(("library", "timed loop", "hands", "hands/s", "decisions/s",
                     "decisions/hand", "µs/decision", "hands won"), table)
    lines.append("")
    rr = ratio_rows(rows)
    if rr:
        lines.append("Ratios of hands/s (target: majiang ≥ 10× rlcard and ≥ 0.5× riichienv):")
        lines.append("")
        lines += _table(("comparison", "ratio", "target", "status"), rr)
        lines.append("")
    lines.append(verdict(rows))
    lines.append("")
    lines.append("Decisions: majiang one `apply()`; rlcard one `step()` (env: actions in the "
                 "trajectories); riichienv one entry of the action dict given to `env.step`.")
    lines.append(f"Issue's reference figures (same kind of machine, for context): {REFERENCE}.")
    for note in notes:
        lines.append(f"Note: {note}")
    return "\n".join(lines) + "\n"


def machine_facts() -> list[str]:
    """Machine facts for a report: the host, the libraries measured, the command."""
    return _common.machine_facts(
        f"majiang {version('majiang')} (git {git_rev()}, C accelerator "
        f"{'built' if accelerated() else 'not built'}), rlcard {version('rlcard')}, "
        f"numpy {version('numpy')}, riichienv {version('riichienv')}"
    )


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Full-hand simulation speed (random legal-action bots) of majiang's "
        "engine vs rlcard's mahjong and riichienv (on demand; not part of the test suite).",
    )
    p.add_argument("--hands", type=int, default=1000,
                   help="hands per round for majiang and riichienv (default 1000)")
    p.add_argument("--rlcard-hands", type=int, default=200,
                   help="hands per round for rlcard, which is much slower (default 200)")
    p.add_argument("--repeats", type=int, default=5,
                   help="timed rounds; the fastest round is kept (default 5)")
    p.add_argument("--seed", type=int, default=1,
                   help="first seed; hand i uses seed+i for deal and bots (default 1)")
    p.add_argument("--variant", default="guangdong", help="majiang variant (default guangdong)")
    p.add_argument("--libs", default=",".join(LIBS),
                   help=f"comma-separated subset of {','.join(LIBS)} (default: all)")
    p.add_argument("--profile", type=int, metavar="LINES", default=0,
                   help="also cProfile the majiang loop (C tables, --hands hands) and print "
                   "the top LINES functions by own time to stderr")
    p.add_argument("--markdown", metavar="FILE", type=Path,
                   help="also append a dated section (machine facts, command, table) to FILE")
    args = p.parse_args(argv)
    args.libs = {s.strip() for s in args.libs.split(",") if s.strip()}
    unknown = args.libs - set(LIBS)
    if unknown:
        p.error(f"unknown --libs item(s): {', '.join(sorted(unknown))}")
    if min(args.hands, args.rlcard_hands, args.repeats) < 1:
        p.error("--hands, --rlcard-hands and --repeats must be >= 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    t_start = time.perf_counter()
    rows = build_rows(args)
    for r in rows:
        if r.error:
            print(f"warning: {r.label}: {r.error}", file=sys.stderr)
    notes = time_rows(rows, args.repeats)
    print(f"[total: {time.perf_counter() - t_start:.1f} s]", file=sys.stderr)
    body = render(rows, notes, args)
    print(body)
    if args.profile > 0:
        print(profile_majiang(args, args.profile), file=sys.stderr)
    if args.markdown is not None:
        _common.append_markdown(args.markdown, "bench/bench_engine.py", machine_facts(), body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
