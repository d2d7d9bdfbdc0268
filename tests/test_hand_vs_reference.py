"""majiang.hand (fast) against majiang.hand.reference (brute force), hands with 1-4 wilds.

50,000 seeded parts of every length (2/5/8/11/14 and 1/4/7/10/13), random or
near-complete (a complete part with some tiles turned into wilds, then
perhaps one tile exchanged, or one dropped), with various wild kinds (7z as
in hongzhong, 5z as in hangzhou, any kind as a flipped indicator), cycling
through every combination of the boolean options that the variants use:
wild_numbers_only only on parts without natural honors, and
wild_pairs_natural=False only with seven_pairs=False and
thirteen_orphans=False.  is_winning, waits and shanten must agree on every
part; decompositions are compared as sets on a few thousand winning parts.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product
from typing import Any

import majiang.hand as fast
from majiang.hand import reference as ref
from majiang.tiles import ORPHANS, Tile, format_tiles

RNG = random.Random(20261131)
SETS = [(k, k, k) for k in range(34)] + [(a, a + 1, a + 2) for a in range(27) if a % 9 <= 6]
WILD_CHOICES = (int(Tile.RED), int(Tile.WHITE), None)  # None: a random kind

OPTION_SETS: list[dict[str, bool]] = [
    {"seven_pairs": sp, "thirteen_orphans": to, "quads_as_two_pairs": q,
     "wild_numbers_only": wno, "wild_pairs_natural": wpn}
    for sp, to, q, wno, wpn in product((True, False), repeat=5)
    if wpn or not (sp or to)
]


def _complete(n_sets: int) -> list[int]:
    """n random sets + a pair."""
    hand = [t for _ in range(n_sets) for t in RNG.choice(SETS)]
    pair = RNG.randrange(34)
    return [*hand, pair, pair]


def _make(size: int, wild: int, numbers_only: bool) -> list[int]:
    """One part of `size` tiles with 1-4 wilds, at most 4 of a kind."""
    while True:
        shape = RNG.random()
        if shape < 0.3:
            hand = [RNG.randrange(34) for _ in range(size)]
        elif size >= 13 and shape < 0.4:
            hand = [k for k in RNG.sample(range(34), 7) for _ in range(2)][:size]
        elif size >= 13 and shape < 0.45:
            hand = [*map(int, ORPHANS), int(RNG.choice(ORPHANS))][:size]
        else:
            hand = _complete((size + 1) // 3)[:size]
        hand = [t if t != wild else RNG.randrange(34) for t in hand]
        if numbers_only:
            hand = [t if t < 27 or t == wild else RNG.randrange(27) for t in hand]
        n_wild = RNG.randint(1, min(4, size))
        for i in RNG.sample(range(size), n_wild):
            hand[i] = wild
        if shape >= 0.3 and RNG.random() < 0.4:
            i = RNG.randrange(size)
            if hand[i] != wild:
                hand[i] = RNG.randrange(27 if numbers_only else 34)
        RNG.shuffle(hand)
        c = Counter(hand)
        if max(c.values()) <= 4 and 1 <= c[wild] <= 4:
            return hand


def _cases(n: int) -> list[tuple[list[int], dict[str, Any]]]:
    """n (hand, keyword options) cases."""
    out = []
    sizes = (2, 5, 8, 11, 14, 1, 4, 7, 10, 13)
    for i in range(n):
        kw: dict[str, Any] = dict(OPTION_SETS[i % len(OPTION_SETS)])
        choice = WILD_CHOICES[(i // len(OPTION_SETS)) % len(WILD_CHOICES)]
        kw["wild"] = RNG.randrange(34) if choice is None else choice
        size = sizes[RNG.randrange(len(sizes))] if i % 3 else RNG.choice((13, 14))
        out.append((_make(size, kw["wild"], kw["wild_numbers_only"]), kw))
    return out


CASES = _cases(50_000)


def _show(hand: list[int], kw: dict[str, Any]) -> str:
    """A failing case, readable."""
    opts = ", ".join(f"{k}={v!r}" for k, v in kw.items() if k != "wild")
    return f"{format_tiles(hand)} wild={Tile(kw['wild'])} {opts}"


def _norm(ds: tuple[Any, ...]) -> set[tuple[Any, ...]]:
    """Readings as plain tuples, comparable across the two implementations."""
    return {(d.shape, tuple((g.kind, tuple(int(t) for t in g.tiles), tuple(g.wilds))
                            for g in d.groups)) for d in ds}


def test_cases_cover_the_options() -> None:
    assert len(CASES) == 50_000
    assert len(OPTION_SETS) == 20
    sizes = Counter(len(h) for h, _ in CASES)
    assert set(sizes) == {1, 2, 4, 5, 7, 8, 10, 11, 13, 14}
    wins = sum(ref.is_winning(h, **kw) for h, kw in CASES[:5000] if len(h) % 3 == 2)
    assert wins > 500


def test_is_winning_waits_shanten() -> None:
    bad: list[str] = []
    for hand, kw in CASES:
        if len(hand) % 3 == 2:
            got_w, exp_w = fast.is_winning(hand, **kw), ref.is_winning(hand, **kw)
            if got_w != exp_w:
                bad.append(f"{_show(hand, kw)}: is_winning {got_w}, reference {exp_w}")
        else:
            got_ws, exp_ws = fast.waits(hand, **kw), ref.waits(hand, **kw)
            if got_ws != exp_ws:
                bad.append(f"{_show(hand, kw)}: waits {format_tiles(got_ws)}, "
                           f"reference {format_tiles(exp_ws)}")
        got_s, exp_s = fast.shanten(hand, **kw), ref.shanten(hand, **kw)
        if got_s != exp_s:
            bad.append(f"{_show(hand, kw)}: shanten {got_s}, reference {exp_s}")
    assert not bad, f"{len(bad)} disagreements, first ones:\n" + "\n".join(bad[:30])


def test_decompositions() -> None:
    bad: list[str] = []
    compared = 0
    for hand, kw in CASES:
        if len(hand) % 3 != 2 or not ref.is_winning(hand, **kw):
            continue
        got, expected = _norm(fast.decompositions(hand, **kw)), _norm(
            ref.decompositions(hand, **kw))
        if got != expected:
            extra = sorted(got - expected)[:2]
            missing = sorted(expected - got)[:2]
            bad.append(f"{_show(hand, kw)}: {len(got)} readings, reference {len(expected)}; "
                       f"not in reference {extra}; missing {missing}")
        compared += 1
        if compared == 4000:
            break
    assert compared == 4000
    assert not bad, f"{len(bad)} disagreements, first ones:\n" + "\n".join(bad[:20])
