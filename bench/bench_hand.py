"""Hand-analysis speed: majiang.hand against the ``mahjong`` package and riichienv.

What it measures, in one run on the same seeded hands:

* ``is_winning`` on near-complete 14-tile hands (a random complete hand of 4 sets
  and a pair, then one tile swapped for a random one), against
  ``mahjong.agari.Agari.is_agari`` and riichienv's ``calculate_shanten(...) == -1``;
* ``is_winning`` with 1-4 wild tiles (majiang only: no peer supports wilds);
* ``waits`` on near-ready 13-tile hands (a complete hand minus one tile, then one
  tile swapped), against riichienv's ``HandEvaluator(tiles).get_waits_u8()`` (and,
  for information, the same call on evaluators built in advance, and a
  34 x ``Agari.is_agari`` loop for ``mahjong``, which has no waits function);
* ``shanten`` on random 13- and 14-tile hands, against
  ``mahjong.shanten.Shanten.calculate_shanten`` and riichienv's ``calculate_shanten``;
* start-up cost: ``python -c "import majiang"`` and the first call of each
  ``majiang.hand`` function in a fresh interpreter (table load / build).

Every library gets the hands already converted to its own native input (majiang:
sorted list of 34-index ints; mahjong: list of 34 counts; riichienv: sorted list
of 136-format tile ids); only the call is timed, in a plain
``for h in hands: f(h)`` loop, garbage collector off, best of ``--repeats``
rounds (the libraries of one operation alternate inside each round). The results
of the timed calls are then recomputed outside the clock and compared across
libraries; disagreements are counted and reported, never fatal.

Run it on demand (it is not part of the test suite)::

    make bench                       # = .venv/bin/python bench/bench_hand.py
    .venv/bin/python bench/bench_hand.py --hands 50000          # quicker
    .venv/bin/python bench/bench_hand.py --markdown bench/RESULTS.md

The Markdown tables go to stdout; ``--markdown FILE`` also appends a dated
section with the machine facts and the exact command to FILE.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))  # measure this tree's majiang, installed or not
if str(REPO / "bench") not in sys.path:
    sys.path.insert(0, str(REPO / "bench"))  # _common, also when loaded from elsewhere

import _common  # noqa: E402
from _common import version  # noqa: E402

N_KINDS = 34
SEQUENCE_PROB = 0.5  # chance that a random set of a generated complete hand is a sequence

# Targets of the hand-analysis issue.
TARGET_WILD_RATE = 1_000_000.0
TARGET_SHANTEN_VS_MAHJONG = 10.0

Hand = list[int]

# ---------------------------------------------------------------------------
# Hand generation (seeded) and conversion to each library's native input
# ---------------------------------------------------------------------------


def _counts(tiles: Sequence[int]) -> list[int]:
    """``mahjong`` input: 34 counts."""
    counts = [0] * N_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def _to136(tiles: Sequence[int]) -> list[int]:
    """riichienv input: sorted 136-format ids (kind * 4 + copy), distinct like real tiles."""
    used = [0] * N_KINDS
    ids = []
    for t in tiles:
        ids.append(t * 4 + used[t])
        used[t] += 1
    return sorted(ids)


def complete_hand(rng: random.Random) -> Hand:
    """4 random sets (sequence with probability SEQUENCE_PROB, else triplet) + a pair."""
    counts = [0] * N_KINDS
    tiles: Hand = []
    while len(tiles) < 12:
        if rng.random() < SEQUENCE_PROB:
            start = 9 * rng.randrange(3) + rng.randrange(7)
            group = [start, start + 1, start + 2]
        else:
            group = [rng.randrange(N_KINDS)] * 3
        if all(counts[t] + group.count(t) <= 4 for t in group):
            for t in group:
                counts[t] += 1
            tiles.extend(group)
    pair = rng.choice([k for k in range(N_KINDS) if counts[k] <= 2])
    tiles += [pair, pair]
    return tiles


def swap_one(rng: random.Random, tiles: Hand) -> Hand:
    """Replace one random tile by a random kind (keeping at most 4 of a kind)."""
    out = list(tiles)
    del out[rng.randrange(len(out))]
    counts = _counts(out)
    out.append(rng.choice([k for k in range(N_KINDS) if counts[k] < 4]))
    return sorted(out)


def near_complete_14(rng: random.Random) -> Hand:
    return swap_one(rng, complete_hand(rng))


def near_ready_13(rng: random.Random) -> Hand:
    tiles = complete_hand(rng)
    del tiles[rng.randrange(len(tiles))]
    return swap_one(rng, tiles)


def random_hand(rng: random.Random, size: int) -> Hand:
    return sorted(t // 4 for t in rng.sample(range(4 * N_KINDS), size))


def wild_hand(rng: random.Random) -> tuple[Hand, int]:
    """A near-complete hand in which 1-4 tiles were replaced by a random wild kind."""
    tiles = near_complete_14(rng)
    n_replace = rng.randint(1, 4)
    counts = _counts(tiles)
    wild = rng.choice([k for k in range(N_KINDS) if counts[k] + n_replace <= 4])
    others = [i for i, t in enumerate(tiles) if t != wild]
    for i in rng.sample(others, n_replace):
        tiles[i] = wild
    return sorted(tiles), wild


# ---------------------------------------------------------------------------
# Timed loops: the loop body is the call only
# ---------------------------------------------------------------------------


def _loop_call(f: Callable[[Any], object], data: Sequence[Any]) -> None:
    for x in data:
        f(x)


def _loop_is_minus1(f: Callable[[Any], int], data: Sequence[Any]) -> None:
    for x in data:
        _ = f(x) == -1


def _loop_wild(f: Callable[..., object], data: Sequence[tuple[Hand, int]]) -> None:
    for x, w in data:
        f(x, wild=w)


def _loop_construct_call(
    cls: Callable[[Any], Any], meth: Callable[[Any], object], data: Sequence[Any]
) -> None:
    for x in data:
        meth(cls(x))


def _mahjong_waits(is_agari: Callable[[list[int]], bool], counts: list[int]) -> list[int]:
    """Waits with the ``mahjong`` package, which has no waits function: 34 x is_agari."""
    out = []
    for k in range(N_KINDS):
        if counts[k] < 4:
            counts[k] += 1
            if is_agari(counts):
                out.append(k)
            counts[k] -= 1
    return out


def _loop_mahjong_waits(is_agari: Callable[[list[int]], bool], data: Sequence[list[int]]) -> None:
    for counts in data:
        for k in range(N_KINDS):
            if counts[k] < 4:
                counts[k] += 1
                is_agari(counts)
                counts[k] -= 1


WARM_UP = 64  # hands per case run untimed first (one-time table loads are measured apart)


@dataclass(frozen=True)
class Loop:
    """``loop(*args)`` as a no-argument callable; ``warm()`` runs it on a few hands."""

    loop: Callable[..., None]
    args: tuple[Any, ...]

    def __call__(self) -> None:
        self.loop(*self.args)

    def warm(self) -> None:
        self.loop(*(a[:WARM_UP] if isinstance(a, list) else a for a in self.args))


def _runner(loop: Callable[..., None], f: Any, *data: Any) -> Loop | None:
    """A timed loop over ``data`` calling ``f``, or None if the library is missing."""
    if f is None:
        return None
    return Loop(loop, (f, *data))


@dataclass
class Case:
    """One timed (operation, library) pair."""

    op: str
    lib: str
    call: str  # the exact call timed, as shown in the report
    run: Loop | None  # None: library unavailable
    n: int
    info: bool = False  # shown for information only (not the headline peer figure)
    rate: float | None = None
    error: str | None = None


def _time_once(run: Loop) -> float:
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter()
        run()
        return time.perf_counter() - t0
    finally:
        if was_enabled:
            gc.enable()


def _short(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return text[:120]


def time_cases(cases: list[Case], repeats: int) -> None:
    """Best of ``repeats``; the cases alternate inside each round."""
    best: dict[int, float] = {}
    for case in cases:  # warm up: first-call costs (table loads) stay out of the figures
        if case.run is not None and case.error is None:
            try:
                case.run.warm()
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as exc:
                case.error = _short(exc)
    for _ in range(repeats):
        for i, case in enumerate(cases):
            if case.run is None or case.error is not None:
                continue
            try:
                dt = _time_once(case.run)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as exc:  # incl. pyo3 PanicException
                case.error = _short(exc)
                continue
            best[i] = min(dt, best.get(i, float("inf")))
    for i, case in enumerate(cases):
        if i in best and case.error is None:
            case.rate = case.n / best[i] if best[i] > 0 else float("inf")


# ---------------------------------------------------------------------------
# Libraries
# ---------------------------------------------------------------------------


@dataclass
class Libs:
    impl_name: str
    hand: Any = None  # majiang.hand (or --impl)
    hand_error: str | None = None
    agari: Callable[[list[int]], bool] | None = None
    mj_shanten: Callable[[list[int]], int] | None = None
    mahjong_error: str | None = None
    re_shanten: Callable[[list[int]], int] | None = None
    re_evaluator: Any = None
    riichienv_error: str | None = None


def load_libs(impl_name: str) -> Libs:
    libs = Libs(impl_name)
    try:
        libs.hand = importlib.import_module(impl_name)
    except Exception as exc:
        libs.hand_error = f"import {impl_name} failed: {_short(exc)}"
    try:
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten

        libs.agari = Agari.is_agari
        libs.mj_shanten = Shanten.calculate_shanten
    except Exception as exc:
        libs.mahjong_error = f"import mahjong failed: {_short(exc)}"
    try:
        from riichienv import _riichienv as rc

        libs.re_shanten = rc.calculate_shanten
        libs.re_evaluator = rc.HandEvaluator
    except Exception as exc:
        libs.riichienv_error = f"import riichienv failed: {_short(exc)}"
    return libs


def _majiang_fn(libs: Libs, name: str) -> tuple[Callable[..., Any] | None, str | None]:
    if libs.hand is None:
        return None, libs.hand_error
    fn = getattr(libs.hand, name, None)
    if fn is None:
        return None, f"{libs.impl_name}.{name} missing"
    return fn, None


def _results(f: Callable[[Any], Any], data: Sequence[Any]) -> tuple[list[Any] | None, str | None]:
    """Recompute the timed calls' results outside the clock."""
    try:
        return [f(x) for x in data], None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:
        return None, _short(exc)


# ---------------------------------------------------------------------------
# Operations
# ---------------------------------------------------------------------------


@dataclass
class Agreement:
    op: str
    pair: str
    differ: int | None
    n: int
    note: str = ""


@dataclass
class OpReport:
    op: str
    inputs: str
    cases: list[Case]
    facts: list[str] = field(default_factory=list)
    agreements: list[Agreement] = field(default_factory=list)


def _fmt_hand(tiles: Sequence[int]) -> str:
    try:
        from majiang.tiles import format_tiles

        return str(format_tiles(list(tiles)))
    except Exception:
        return str(list(tiles))


def _compare(
    op: str,
    pair: str,
    a: list[Any] | None,
    b: list[Any] | None,
    hands: Sequence[Hand],
    why: str = "",
) -> Agreement:
    """Count the hands whose results differ; ``why`` is shown only if some do."""
    if a is None or b is None:
        return Agreement(op, pair, None, len(hands), "not compared (missing results)")
    bad = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    note = ""
    if bad:
        i = bad[0]
        note = f"e.g. {_fmt_hand(hands[i])}: {a[i]!r} vs {b[i]!r}"
        if why:
            note = f"{why}; {note}"
    return Agreement(op, pair, len(bad), len(hands), note)


ALT = "quads_as_two_pairs=False"
QUAD_NOTE = "peers count 4 of a kind as one pair in seven pairs"


def _maybe_alt(
    f: Callable[..., Any] | None, data: Sequence[Any], **kw: Any
) -> list[Any] | None:
    """majiang results with peer-matching options (untimed), to explain disagreements."""
    if f is None:
        return None
    res, _ = _results(lambda h: f(h, **kw), data)
    return res


def bench_is_winning(libs: Libs, n: int, seed: int, repeats: int) -> OpReport:
    rng = random.Random(seed * 1000 + 1)
    hands = [near_complete_14(rng) for _ in range(n)]
    counts = [_counts(h) for h in hands]
    ids = [_to136(h) for h in hands]
    fn, err = _majiang_fn(libs, "is_winning")
    cases = [
        Case("is_winning", "majiang", "is_winning(tiles34)",
             _runner(_loop_call, fn, hands), n, error=err),
        Case("is_winning", "mahjong", "Agari.is_agari(counts34)",
             _runner(_loop_call, libs.agari, counts), n,
             error=libs.mahjong_error),
        Case("is_winning", "riichienv", "calculate_shanten(ids136) == -1",
             _runner(_loop_is_minus1, libs.re_shanten, ids), n,
             error=libs.riichienv_error),
    ]
    time_cases(cases, repeats)
    rep = OpReport("is_winning", f"{n:,} near-complete 14-tile hands", cases)
    r_mj, _ = _results(fn, hands) if fn else (None, None)
    r_ma = [bool(x) for x in r_mj] if r_mj is not None else None
    r_ag = _results(libs.agari, counts)[0] if libs.agari else None
    sh_re = _results(libs.re_shanten, ids)[0] if libs.re_shanten else None
    r_re = [x == -1 for x in sh_re] if sh_re is not None else None
    ref = r_ma or r_ag or r_re
    if ref:
        rep.facts.append(f"winning: {sum(ref) / len(ref):.1%} of the hands")
    alt = _maybe_alt(fn, hands, quads_as_two_pairs=False)
    a_ma = [bool(x) for x in alt] if alt is not None else None
    rep.agreements += [
        _compare("is_winning", "majiang vs mahjong", r_ma, r_ag, hands, QUAD_NOTE),
        _compare("is_winning", "majiang vs riichienv", r_ma, r_re, hands, QUAD_NOTE),
        _compare("is_winning", f"majiang ({ALT}) vs mahjong", a_ma, r_ag, hands),
        _compare("is_winning", f"majiang ({ALT}) vs riichienv", a_ma, r_re, hands),
        _compare("is_winning", "mahjong vs riichienv", r_ag, r_re, hands),
    ]
    return rep


def bench_wild(libs: Libs, n: int, seed: int, repeats: int) -> OpReport:
    rng = random.Random(seed * 1000 + 2)
    pairs = [wild_hand(rng) for _ in range(n)]
    fn, err = _majiang_fn(libs, "is_winning")
    cases = [
        Case("is_winning + wild", "majiang", "is_winning(tiles34, wild=w)",
             _runner(_loop_wild, fn, pairs), n, error=err),
    ]
    time_cases(cases, repeats)
    rep = OpReport("is_winning + wild", f"{n:,} near-complete 14-tile hands, 1-4 wilds", cases)
    hist = [0] * 5
    for h, w in pairs:
        hist[h.count(w)] += 1
    rep.facts.append(
        "wild tiles per hand: " + ", ".join(f"{k}: {hist[k] / n:.0%}" for k in range(1, 5))
    )
    if fn:
        res, e = _results(lambda p: fn(p[0], wild=p[1]), pairs)
        if res is not None:
            rep.facts.append(f"winning: {sum(map(bool, res)) / n:.1%} of the hands")
            # Sanity check (no peer supports wilds): a wild may stand for its own
            # kind, so a hand that wins without wilds must also win with them.
            plain, _ = _results(lambda p: fn(p[0]), pairs)
            if plain is not None:
                wins = [i for i, x in enumerate(plain) if x]
                rep.agreements.append(_compare(
                    "is_winning + wild", "majiang: wins without wild => wins with wild",
                    [True] * len(wins), [bool(res[i]) for i in wins],
                    [pairs[i][0] for i in wins]))
        else:
            rep.facts.append(f"results not computed: {e}")
    return rep


def bench_waits(
    libs: Libs, n: int, seed: int, repeats: int, mahjong_waits: bool
) -> OpReport:
    rng = random.Random(seed * 1000 + 3)
    hands = [near_ready_13(rng) for _ in range(n)]
    counts = [_counts(h) for h in hands]
    ids = [_to136(h) for h in hands]
    fn, err = _majiang_fn(libs, "waits")
    ev_cls = libs.re_evaluator
    get_waits = ev_cls.get_waits_u8 if ev_cls is not None else None
    evaluators = [ev_cls(x) for x in ids] if ev_cls is not None else []
    cases = [
        Case("waits", "majiang", "waits(tiles34)",
             _runner(_loop_call, fn, hands), n, error=err),
        Case("waits", "riichienv", "HandEvaluator(ids136).get_waits_u8()",
             _runner(_loop_construct_call, ev_cls, get_waits, ids), n,
             error=libs.riichienv_error),
        Case("waits", "riichienv", "ev.get_waits_u8() (evaluators built before timing)",
             _runner(_loop_call, get_waits, evaluators), n, info=True,
             error=libs.riichienv_error),
    ]
    if mahjong_waits:
        cases.append(
            Case("waits", "mahjong", "34 x Agari.is_agari(counts34) (no waits API)",
                 _runner(_loop_mahjong_waits, libs.agari, counts),
                 n, info=True, error=libs.mahjong_error)
        )
    time_cases(cases, repeats)
    rep = OpReport("waits", f"{n:,} near-ready 13-tile hands", cases)
    r_mj, _ = _results(fn, hands) if fn else (None, None)
    s_mj = [frozenset(int(t) for t in x) for x in r_mj] if r_mj is not None else None
    s_re = None
    if ev_cls is not None:
        res, _ = _results(lambda x: ev_cls(x).get_waits_u8(), ids)
        s_re = [frozenset(x) for x in res] if res is not None else None
    s_ag = None
    if libs.agari is not None and mahjong_waits:
        s_ag = [frozenset(_mahjong_waits(libs.agari, c)) for c in counts]
    ref = s_mj or s_re or s_ag
    if ref:
        ready = sum(1 for s in ref if s)
        rep.facts.append(
            f"ready (non-empty waits): {ready / n:.1%}; "
            f"mean waits per ready hand: {sum(map(len, ref)) / max(ready, 1):.2f}"
        )
    alt = _maybe_alt(fn, hands, quads_as_two_pairs=False)
    a_mj = [frozenset(int(t) for t in x) for x in alt] if alt is not None else None
    rep.agreements += [
        _compare("waits", "majiang vs riichienv", s_mj, s_re, hands, QUAD_NOTE),
        _compare("waits", f"majiang ({ALT}) vs riichienv", a_mj, s_re, hands),
    ]
    if mahjong_waits:
        rep.agreements += [
            _compare("waits", "majiang vs mahjong (34 x is_agari)", s_mj, s_ag, hands),
            _compare("waits", "riichienv vs mahjong (34 x is_agari)", s_re, s_ag, hands),
        ]
    return rep


def bench_shanten(libs: Libs, n: int, seed: int, repeats: int) -> OpReport:
    rng = random.Random(seed * 1000 + 4)
    hands = [random_hand(rng, 13 + (i & 1)) for i in range(n)]
    counts = [_counts(h) for h in hands]
    ids = [_to136(h) for h in hands]
    fn, err = _majiang_fn(libs, "shanten")
    cases = [
        Case("shanten", "majiang", "shanten(tiles34)",
             _runner(_loop_call, fn, hands), n, error=err),
        Case("shanten", "mahjong", "Shanten.calculate_shanten(counts34)",
             _runner(_loop_call, libs.mj_shanten, counts), n,
             error=libs.mahjong_error),
        Case("shanten", "riichienv", "calculate_shanten(ids136)",
             _runner(_loop_call, libs.re_shanten, ids), n,
             error=libs.riichienv_error),
    ]
    time_cases(cases, repeats)
    rep = OpReport("shanten", f"{n:,} random hands (half 13, half 14 tiles)", cases)
    r_mj = _results(fn, hands)[0] if fn else None
    r_ma = [int(x) for x in r_mj] if r_mj is not None else None
    r_sh = _results(libs.mj_shanten, counts)[0] if libs.mj_shanten else None
    r_re = _results(libs.re_shanten, ids)[0] if libs.re_shanten else None
    ref = r_ma or r_sh or r_re
    if ref:
        dist: dict[int, int] = {}
        for s in ref:
            dist[s] = dist.get(s, 0) + 1
        rep.facts.append(
            "shanten distribution: "
            + ", ".join(f"{k}: {v / n:.1%}" for k, v in sorted(dist.items()))
        )
    alt = _maybe_alt(fn, hands, quads_as_two_pairs=False)
    a_ma = [int(x) for x in alt] if alt is not None else None
    rep.agreements += [
        _compare("shanten", "majiang vs mahjong", r_ma, r_sh, hands, QUAD_NOTE),
        _compare("shanten", "majiang vs riichienv", r_ma, r_re, hands, QUAD_NOTE),
        _compare("shanten", f"majiang ({ALT}) vs mahjong", a_ma, r_sh, hands),
        _compare("shanten", f"majiang ({ALT}) vs riichienv", a_ma, r_re, hands),
        _compare("shanten", "mahjong vs riichienv", r_sh, r_re, hands),
    ]
    return rep


# ---------------------------------------------------------------------------
# Start-up cost (fresh interpreters)
# ---------------------------------------------------------------------------

_FIRST_CALL = """
import time, json
t0 = time.perf_counter()
import {impl} as m
t1 = time.perf_counter()
m.{call}
t2 = time.perf_counter()
m.{call2}
t3 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t1, t3 - t2]))
"""

_FIRST_CALLS = {
    # a winning hand 123m 456p 789s 111z 22z and a second, different winning hand
    "is_winning": (
        "is_winning([0,1,2,12,13,14,24,25,26,27,27,27,28,28])",
        "is_winning([1,2,3,3,4,5,9,9,9,18,19,20,33,33])",
    ),
    "is_winning + wild": (
        "is_winning([0,1,2,12,13,14,24,25,26,27,27,31,31,28], wild=31)",
        "is_winning([1,2,3,3,4,5,9,9,9,18,19,20,30,30], wild=30)",
    ),
    "waits": (
        "waits([0,1,2,12,13,14,24,25,26,27,27,28,28])",
        "waits([0,0,0,1,2,3,4,5,6,7,8,8,8])",
    ),
    "shanten": (
        "shanten([0,4,8,10,13,16,20,22,27,29,30,31,33])",
        "shanten([1,5,9,12,13,17,19,22,25,28,29,32,33])",
    ),
}


def _run_py(code: str) -> tuple[float, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False
    )
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        raise RuntimeError(last[:120])
    return dt, proc.stdout


def bench_startup(impl: str, runs: int) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []

    def wall(label: str, code: str) -> None:
        try:
            best = min(_run_py(code)[0] for _ in range(runs))
            rows.append((label, f"{best * 1e3:.1f} ms"))
        except RuntimeError as exc:
            rows.append((label, f"error: {exc}"))

    wall('python -c "pass" (baseline)', "pass")
    wall('python -c "import majiang"', "import majiang")
    wall(f'python -c "import {impl}"', f"import {impl}")
    mj = "import mahjong.agari, mahjong.shanten"
    wall(f'python -c "{mj}"', mj)
    wall('python -c "import riichienv"', "import riichienv")
    for label, (call, call2) in _FIRST_CALLS.items():
        code = _FIRST_CALL.format(impl=impl, call=call, call2=call2)
        try:
            samples = [json.loads(_run_py(code)[1]) for _ in range(runs)]
        except (RuntimeError, ValueError) as exc:
            rows.append((f"first {label} call in a fresh process", f"error: {exc}"))
            continue
        imp, first, second = (min(s[i] for s in samples) for i in range(3))
        rows.append((
            f"`import {impl}` + first {label} call (fresh process)",
            f"import {imp * 1e3:.1f} ms + first call {first * 1e3:.1f} ms "
            f"(next call {second * 1e6:.1f} µs)",
        ))
    return rows


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def _fmt_rate(rate: float | None) -> str:
    if rate is None:
        return "—"
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M/s"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f} k/s"
    return f"{rate:.0f} /s"


def _fmt_us(rate: float | None) -> str:
    if not rate:
        return "—"
    us = 1e6 / rate
    return f"{us:.3g}"


def _find(reports: list[OpReport], op: str, lib: str, info: bool = False) -> Case | None:
    for rep in reports:
        for c in rep.cases:
            if c.op == op and c.lib == lib and c.info == info:
                return c
    return None


def _ratio_row(
    label: str, mine: Case | None, peer: Case | None, target: float | None
) -> tuple[str, str, str, str] | None:
    """None when the operation was not run (``--only``) or the peer row is absent."""
    if mine is None or peer is None:
        return None
    tgt = f"≥ {target:g}x" if target is not None else "(info)"
    if mine.rate is None or peer.rate is None:
        return (label, "—", tgt, "not measured" if target is not None else "")
    ratio = mine.rate / peer.rate
    status = "" if target is None else ("met" if ratio >= target else "**NOT met**")
    return (label, f"{ratio:.2f}x", tgt, status)


def ratio_rows(reports: list[OpReport]) -> list[tuple[str, str, str, str]]:
    rows: list[tuple[str, str, str, str] | None] = [
        _ratio_row("is_winning: majiang / riichienv", _find(reports, "is_winning", "majiang"),
                   _find(reports, "is_winning", "riichienv"), 1.0),
        _ratio_row("is_winning: majiang / mahjong", _find(reports, "is_winning", "majiang"),
                   _find(reports, "is_winning", "mahjong"), None),
    ]
    wild = _find(reports, "is_winning + wild", "majiang")
    if wild is not None:
        if wild.rate is None:
            rows.append(("is_winning with 1-4 wilds: majiang hands/s", "—", "≥ 1 M/s",
                         "not measured"))
        else:
            met = "met" if wild.rate >= TARGET_WILD_RATE else "**NOT met**"
            rows.append(("is_winning with 1-4 wilds: majiang hands/s", _fmt_rate(wild.rate),
                         "≥ 1 M/s", met))
    rows += [
        _ratio_row("waits: majiang / riichienv (construct + get_waits_u8)",
                   _find(reports, "waits", "majiang"), _find(reports, "waits", "riichienv"), 1.0),
        _ratio_row("waits: majiang / riichienv (prebuilt evaluator, call only)",
                   _find(reports, "waits", "majiang"),
                   _find(reports, "waits", "riichienv", info=True), None),
        _ratio_row("waits: majiang / mahjong (34 x is_agari)",
                   _find(reports, "waits", "majiang"),
                   _find(reports, "waits", "mahjong", info=True), None),
        _ratio_row("shanten: majiang / mahjong", _find(reports, "shanten", "majiang"),
                   _find(reports, "shanten", "mahjong"), TARGET_SHANTEN_VS_MAHJONG),
        _ratio_row("shanten: majiang / riichienv", _find(reports, "shanten", "majiang"),
                   _find(reports, "shanten", "riichienv"), None),
    ]
    return [r for r in rows if r is not None and not (r[1] == "—" and r[3] == "")]


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def render(
    reports: list[OpReport], startup: list[tuple[str, str]], args: argparse.Namespace
) -> str:
    lines: list[str] = []
    lines.append(f"Seed {args.seed}, best of {args.repeats}; hands/s = calls per second "
                 "(one hand per call, input pre-converted).")
    compiled = compiled_modules()
    lines.append(f"majiang implementation: `{args.impl}`; compiled modules loaded: "
                 + (", ".join(f"`{m}`" for m in compiled) if compiled else "none (pure Python)")
                 + ".")
    lines.append("")
    rows = []
    for rep in reports:
        for c in rep.cases:
            rate = _fmt_rate(c.rate) if c.error is None else f"error: {c.error}"
            if c.run is None and c.error is None:
                rate = "not available"
            rows.append((rep.op, c.lib, f"`{c.call}`", rate, _fmt_us(c.rate)))
    lines += _table(("operation", "library", "timed call", "hands/s", "µs/call"), rows)
    lines.append("")
    lines.append("Inputs:")
    for rep in reports:
        facts = "; ".join(rep.facts)
        lines.append(f"- {rep.op}: {rep.inputs}" + (f" — {facts}" if facts else ""))
    lines.append("")
    rr = ratio_rows(reports)
    if rr:
        lines += _table(("comparison", "ratio / rate", "target", "status"), rr)
        lines.append("")
    agreements = [a for rep in reports for a in rep.agreements]
    if agreements:
        arows = []
        for a in agreements:
            differ = "—" if a.differ is None else f"{a.differ:,} / {a.n:,}"
            arows.append((a.op, a.pair, differ, a.note))
        lines.append("Agreement on the timed inputs (hands whose results differ):")
        lines.append("")
        lines += _table(("operation", "libraries", "differ", "note"), arows)
        lines.append("")
    if startup:
        lines.append(f"Start-up (best of {args.startup_runs} fresh processes):")
        lines.append("")
        lines += _table(("measure", "time"), startup)
        lines.append("")
    return "\n".join(lines)


def compiled_modules(prefix: str = "majiang") -> list[str]:
    """Compiled extension modules loaded from the package (e.g. a C accelerator)."""
    found = []
    for name, mod in list(sys.modules.items()):
        path = getattr(mod, "__file__", None) or ""
        if (name == prefix or name.startswith(prefix + ".")) and path.endswith((".so", ".pyd")):
            found.append(name)
    return sorted(found)


def machine_facts() -> list[str]:
    """Machine facts for a report: the host, the libraries measured, the command."""
    return _common.machine_facts(
        f"majiang {version('majiang')}, mahjong {version('mahjong')}, "
        f"riichienv {version('riichienv')}"
    )


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

OPS = ("is_winning", "wild", "waits", "shanten", "startup")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Hand-analysis speed of majiang.hand vs mahjong and riichienv "
        "(on demand; not part of the test suite).",
    )
    p.add_argument("--hands", type=int, default=200_000,
                   help="hands for is_winning and is_winning with wilds (default 200000)")
    p.add_argument("--waits-hands", type=int, default=None,
                   help="hands for waits (default: --hands / 4)")
    p.add_argument("--shanten-hands", type=int, default=None,
                   help="hands for shanten (default: --hands / 2)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--repeats", type=int, default=3, help="timed rounds, best kept (default 3)")
    p.add_argument("--startup-runs", type=int, default=5,
                   help="fresh processes per start-up measure, best kept (default 5)")
    p.add_argument("--only", default=",".join(OPS),
                   help=f"comma-separated subset of {','.join(OPS)} (default: all)")
    p.add_argument("--no-mahjong-waits", action="store_true",
                   help="skip the slow 34 x Agari.is_agari waits loop of the mahjong package")
    p.add_argument("--impl", default="majiang.hand",
                   help="module implementing the majiang.hand contract (default majiang.hand)")
    p.add_argument("--markdown", metavar="FILE", type=Path,
                   help="also append a dated section (machine facts, command, tables) to FILE")
    args = p.parse_args(argv)
    args.waits_hands = args.waits_hands or max(1, args.hands // 4)
    args.shanten_hands = args.shanten_hands or max(1, args.hands // 2)
    args.only = {s.strip() for s in args.only.split(",") if s.strip()}
    unknown = args.only - set(OPS)
    if unknown:
        p.error(f"unknown --only item(s): {', '.join(sorted(unknown))}")
    if min(args.hands, args.repeats, args.startup_runs) < 1:
        p.error("--hands, --repeats and --startup-runs must be >= 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    libs = load_libs(args.impl)
    for err in (libs.hand_error, libs.mahjong_error, libs.riichienv_error):
        if err:
            print(f"warning: {err}", file=sys.stderr)
    reports: list[OpReport] = []
    t_start = time.perf_counter()

    def step(name: str, fn: Callable[[], OpReport]) -> None:
        if name in args.only:
            t0 = time.perf_counter()
            reports.append(fn())
            print(f"[{name}: {time.perf_counter() - t0:.1f} s]", file=sys.stderr)

    step("is_winning", lambda: bench_is_winning(libs, args.hands, args.seed, args.repeats))
    step("wild", lambda: bench_wild(libs, args.hands, args.seed, args.repeats))
    step("waits", lambda: bench_waits(libs, args.waits_hands, args.seed, args.repeats,
                                      not args.no_mahjong_waits))
    step("shanten", lambda: bench_shanten(libs, args.shanten_hands, args.seed, args.repeats))
    startup: list[tuple[str, str]] = []
    if "startup" in args.only:
        t0 = time.perf_counter()
        startup = bench_startup(args.impl, args.startup_runs)
        print(f"[startup: {time.perf_counter() - t0:.1f} s]", file=sys.stderr)
    print(f"[total: {time.perf_counter() - t_start:.1f} s]", file=sys.stderr)

    body = render(reports, startup, args)
    print(body)
    if args.markdown is not None:
        _common.append_markdown(args.markdown, "bench/bench_hand.py", machine_facts(), body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
