"""majiang.hand (the fast implementation) against the `mahjong` package, hands without wilds.

What mahjong 2.1 computes (read from its source, mahjong/agari.py and
mahjong/shanten.py), and how each comparison is made:

- ``Agari.is_agari(c)`` on a 34-count array of a 3n+2 concealed part: the
  standard shape (any number of sets + one pair), seven pairs of 7 *distinct*
  kinds (exactly seven counts equal to 2) and thirteen orphans.  A kind held 4
  times never counts as two pairs, so it equals ``is_winning(...,
  quads_as_two_pairs=False)`` exactly.  With the default
  quads_as_two_pairs=True the expected value is ``is_agari(c) or
  (14 tiles and every count even)`` -- the second term is seven pairs with
  quadruples as two pairs.
- ``waits`` is compared with the kinds k held fewer than 4 times for which
  the expected is_winning value of the hand plus k (as above) is True.
- ``Shanten.calculate_shanten(c)`` = min(regular, chiitoitsu, kokushi), the
  last two only for 13/14 tiles.  Chiitoitsu is ``6 - pairs + max(0, 7 -
  kinds)``, which is the joker definition of docs/hand-api.md with
  quads_as_two_pairs=False (a kind held 3 or 4 times gives one pair).
  Kokushi is ``13 - orphan kinds - (1 if an orphan pair)``: the joker
  definition exactly.  The regular part is the joker definition *except*
  that it models tile availability for kinds held 4 times: when no pair is
  formed and every isolated tile is of a kind held 4 times it adds 1, and an
  honor held 4 times makes the shanten at least (honor quads - 1 for 3n+2).
  E.g. ``1111z123m456m789m`` is 0 by the joker definition but 1 for mahjong.
  So:
    * hands where no kind is held 4 times: ``shanten(h,
      quads_as_two_pairs=False) == calculate_shanten(c)`` and ``shanten(h,
      seven_pairs=False, thirteen_orphans=False) ==
      calculate_shanten(c, use_chiitoitsu=False, use_kokushi=False)``;
    * hands with a kind held 4 times: the standard-only shanten is compared
      with majiang.hand.reference, and must not exceed mahjong's regular
      shanten; with quads_as_two_pairs=False the expected shanten is
      min(reference standard-only, mahjong chiitoitsu, mahjong kokushi).
  With the default quads_as_two_pairs=True the seven-pairs term is replaced
  by the joker definition with quadruples: each kind offers a first pair
  holding min(c, 2) naturals and a second one holding min(c - 2, 2); the 7
  best places hold U naturals and the seven-pairs shanten is 13 - U.
- mahjong's regular shanten is -1 exactly for standard-shape winners (the
  availability rules never touch a complete hand), so is_winning(h,
  seven_pairs=False, thirteen_orphans=False) is compared with it, and on a
  subset the standard-only waits too.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from majiang.hand import is_winning, shanten, waits
from majiang.hand import reference as ref
from majiang.tiles import ORPHANS, Tile, format_tiles

RNG = random.Random(20261129)
SETS = [(k, k, k) for k in range(34)] + [(a, a + 1, a + 2) for a in range(27) if a % 9 <= 6]
WALL = [k for k in range(34) for _ in range(4)]
STANDARD_ONLY = {"seven_pairs": False, "thirteen_orphans": False}
NO_QUADS = {"quads_as_two_pairs": False}


def _counts(hand: list[int]) -> list[int]:
    """34-count array."""
    c = [0] * 34
    for t in hand:
        c[t] += 1
    return c


def _ok(hand: list[int]) -> bool:
    """At most 4 of a kind."""
    return max(_counts(hand)) <= 4


def _complete(n_sets: int) -> list[int]:
    """n random sets + a pair, respecting 4 copies."""
    while True:
        hand = [t for _ in range(n_sets) for t in RNG.choice(SETS)]
        pair = RNG.randrange(34)
        hand += [pair, pair]
        if _ok(hand):
            return hand


def _swap(hand: list[int]) -> list[int]:
    """The hand with one tile exchanged for a random tile, respecting 4 copies."""
    while True:
        out = list(hand)
        out[RNG.randrange(len(out))] = RNG.randrange(34)
        if _ok(out):
            return out


def _drop(hand: list[int]) -> list[int]:
    """The hand less one random tile."""
    out = list(hand)
    del out[RNG.randrange(len(out))]
    return out


def _seven_pairs() -> list[int]:
    """Seven pairs, sometimes with a quadruple."""
    kinds = RNG.sample(range(34), 7)
    if RNG.random() < 0.3:
        kinds[6] = kinds[0]
    return [k for k in kinds for _ in range(2)]


def _orphans() -> list[int]:
    """Thirteen orphans."""
    return [*ORPHANS, RNG.choice(ORPHANS)]


Maker = Callable[[], list[int]]
CATEGORIES: dict[str, tuple[int, Maker]] = {
    "random 14": (20000, lambda: RNG.sample(WALL, 14)),
    "random 13": (20000, lambda: RNG.sample(WALL, 13)),
    "complete 14": (5000, lambda: _complete(4)),
    "near-complete 14": (15000, lambda: _swap(_complete(4))),
    "near-complete 13": (6000, lambda: _drop(_swap(_complete(4)))),
    "complete less one 13": (4000, lambda: _drop(_complete(4))),
    "parts 2/5/8/11": (16000, lambda: (lambda n: _complete(n) if RNG.random() < 0.3
                                       else _swap(_complete(n)))(RNG.randrange(4))),
    "parts 1/4/7/10": (12000, lambda: _drop(_complete(RNG.randrange(4)) if RNG.random() < 0.5
                                            else _swap(_complete(RNG.randrange(4))))),
    "near seven pairs 14": (3000, lambda: _swap(_seven_pairs())),
    "near seven pairs 13": (3000, lambda: _drop(_seven_pairs())),
    "near orphans 14": (2000, lambda: _swap(_orphans())),
    "near orphans 13": (2000, lambda: _drop(_orphans())),
}
# all hands are drawn at import time, in this fixed order, from the one seeded RNG
HANDS: dict[str, list[list[int]]] = {
    name: [RNG.sample(h, len(h)) for h in (make() for _ in range(n))]
    for name, (n, make) in CATEGORIES.items()
}


def _seven_pairs_with_quads(c: list[int]) -> bool:
    """14 tiles in pairs, a quadruple counting as two pairs."""
    return sum(c) == 14 and all(x % 2 == 0 for x in c)


def _expected_win(c: list[int], quads_as_two_pairs: bool) -> bool:
    """Winning by mahjong's Agari, plus seven pairs with quadruples if allowed."""
    return Agari.is_agari(c) or (quads_as_two_pairs and _seven_pairs_with_quads(c))


def _seven_pairs_quads_shanten(c: list[int]) -> int:
    """Joker-definition seven-pairs shanten with quadruples as two pairs."""
    places = sorted((v for x in c for v in (min(x, 2), min(max(x - 2, 0), 2))), reverse=True)
    return 13 - sum(places[:7])


def _check(hand: list[int], bad: list[str], standard_waits: bool) -> None:
    """Every comparison of the module docstring for one hand; failures go to `bad`."""
    c = _counts(hand)
    text = format_tiles(hand)
    size = len(hand)
    big = size >= 13
    quad = max(c) == 4

    def fail(what: str, got: object, expected: object) -> None:
        bad.append(f"{text}: {what}: majiang.hand {got!r}, expected {expected!r}")

    if size % 3 == 2:
        for quads in (False, True):
            got_w = is_winning(hand, quads_as_two_pairs=quads)
            if got_w != _expected_win(c, quads):
                fail(f"is_winning quads_as_two_pairs={quads}", got_w, not got_w)
    else:
        for quads in (False, True):
            got_ws = waits(hand, quads_as_two_pairs=quads)
            expected_ws = set()
            for k in range(34):
                if c[k] < 4:
                    c[k] += 1
                    if _expected_win(c, quads):
                        expected_ws.add(Tile(k))
                    c[k] -= 1
            if got_ws != expected_ws:
                fail(f"waits quads_as_two_pairs={quads}", sorted(map(str, got_ws)),
                     sorted(map(str, expected_ws)))
        if standard_waits:
            got_ws = waits(hand, **STANDARD_ONLY)
            expected_ws = set()
            for k in range(34):
                if c[k] < 4:
                    c[k] += 1
                    if Shanten.calculate_shanten_for_regular_hand(c) == -1:
                        expected_ws.add(Tile(k))
                    c[k] -= 1
            if got_ws != expected_ws:
                fail("standard-only waits", sorted(map(str, got_ws)),
                     sorted(map(str, expected_ws)))

    regular = Shanten.calculate_shanten(c, use_chiitoitsu=False, use_kokushi=False)
    if size % 3 == 2 and is_winning(hand, **STANDARD_ONLY) != (regular == -1):
        fail("standard-only is_winning", regular != -1, regular == -1)
    got_std = shanten(hand, **STANDARD_ONLY)
    if quad:
        std = ref.shanten(hand, **STANDARD_ONLY)
        if regular < std:
            bad.append(f"{text}: mahjong regular shanten {regular} below the joker bound {std}")
    else:
        std = regular
    if got_std != std:
        fail("standard-only shanten", got_std, std)
    others = []
    if big:
        others.append(Shanten.calculate_shanten_for_kokushi_hand(c))
    chiitoi = [Shanten.calculate_shanten_for_chiitoitsu_hand(c)] if big else []
    if not quad and Shanten.calculate_shanten(c) != min([std, *others, *chiitoi]):
        bad.append(f"{text}: test assumption broken (mahjong total shanten)")
    got = shanten(hand, **NO_QUADS)
    if got != min([std, *others, *chiitoi]):
        fail("shanten quads_as_two_pairs=False", got, min([std, *others, *chiitoi]))
    got = shanten(hand)
    sp = [_seven_pairs_quads_shanten(c)] if big else []
    if got != min([std, *others, *sp]):
        fail("shanten", got, min([std, *others, *sp]))


@pytest.mark.parametrize("category", list(CATEGORIES))
def test_against_mahjong(category: str) -> None:
    bad: list[str] = []
    for i, hand in enumerate(HANDS[category]):
        _check(hand, bad, standard_waits=i % 8 == 0)
    assert not bad, f"{len(bad)} disagreements, first ones:\n" + "\n".join(bad[:25])


def test_corpus_size() -> None:
    assert sum(len(v) for v in HANDS.values()) >= 100_000
    winners = sum(Agari.is_agari(_counts(h)) for v in HANDS.values() for h in v
                  if len(h) % 3 == 2)
    assert winners > 10_000
