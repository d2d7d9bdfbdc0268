"""The brute-force oracle majiang.hand.reference, checked on worked cases and by itself.

Worked cases are in tile notation.  Besides them:
- without wilds, is_winning and shanten are compared with the `mahjong` package;
- with wilds (wild_pairs_natural=True, quads_as_two_pairs=False), is_winning
  is compared with "some substitution of the wilds by allowed kinds is a
  winning hand for mahjong's Agari";
- is_winning agrees with bool(decompositions), every reading is checked to be
  a valid reading of the hand;
- shanten is checked to be the exchange distance to a winning hand: -1 iff
  winning, one exchange changes it by at most 1, and some exchange lowers it
  by exactly 1 (for 3n+1: 1 + the best shanten after adding any kind).
  Together these determine shanten uniquely from is_winning.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations_with_replacement
from typing import Any

import pytest
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from majiang.hand import reference as ref
from majiang.tiles import ORPHANS, Tile, counts, format_tiles, parse_tiles

RED = int(Tile.RED)
WHITE = int(Tile.WHITE)
SETS = [(k, k, k) for k in range(34)] + [(a, a + 1, a + 2) for a in range(27) if a % 9 <= 6]
OPTION_NAMES = ("seven_pairs", "thirteen_orphans", "quads_as_two_pairs", "wild_numbers_only",
                "wild_pairs_natural")


def P(text: str) -> list[int]:
    """Tiles of a notation string."""
    return [int(t) for t in parse_tiles(text)]


def kinds(text: str) -> frozenset[Tile]:
    """The set of tile kinds in a notation string."""
    return frozenset(parse_tiles(text))


def norm(ds: tuple[Any, ...]) -> set[tuple[Any, ...]]:
    """Readings as plain tuples."""
    return {(d.shape, tuple((g.kind, tuple(int(t) for t in g.tiles), tuple(g.wilds))
                            for g in d.groups)) for d in ds}


# ------------------------------------------------------------ worked cases


def test_nine_gates() -> None:
    assert ref.is_winning(P("11123456789999m"))
    assert ref.waits(P("1112345678999m")) == kinds("123456789m")
    assert ref.shanten(P("1112345678999m")) == 0
    assert ref.shanten(P("11123456789999m")) == -1


def test_thirteen_orphans() -> None:
    hand = P("19m19p19s1234567z1m")
    assert ref.is_winning(hand)
    assert not ref.is_winning(hand, thirteen_orphans=False)
    assert ref.waits(P("19m19p19s1234567z")) == frozenset(ORPHANS)
    assert ref.waits(P("19m19p19s1234567z"), thirteen_orphans=False) == frozenset()
    assert ref.shanten(P("19m19p19s1234567z")) == 0
    assert ref.waits(P("19m19p19s123456z1m")) == kinds("7z")
    (d,) = ref.decompositions(hand)
    assert d.shape == "thirteen_orphans"
    assert [g.kind for g in d.groups] == ["single"] * 12 + ["pair"]
    assert d.groups[-1] == ref.Group("pair", (Tile.M1, Tile.M1), (False, False))
    assert [g.tiles[0] for g in d.groups[:12]] == [t for t in ORPHANS if t != Tile.M1]


def test_seven_pairs_and_quads() -> None:
    plain = P("1133557799m1155z")
    assert ref.is_winning(plain)
    assert ref.is_winning(plain, quads_as_two_pairs=False)
    assert not ref.is_winning(plain, seven_pairs=False)
    quad = P("1111335577m1155z")
    assert ref.is_winning(quad)
    assert not ref.is_winning(quad, quads_as_two_pairs=False)
    (d,) = ref.decompositions(quad)
    assert d.shape == "seven_pairs"
    assert [format_tiles(g.tiles) for g in d.groups] == [
        "11m", "11m", "33m", "55m", "77m", "11z", "55z"]
    assert ref.decompositions(quad, quads_as_two_pairs=False) == ()
    # 13 tiles: 111m and five pairs: 1m makes a quadruple = two pairs
    ready = P("111335577m1155z")
    assert ref.waits(ready) == kinds("1m")
    assert ref.shanten(ready) == 0
    assert ref.waits(ready, quads_as_two_pairs=False) == frozenset()
    assert ref.shanten(ready, quads_as_two_pairs=False) == 1
    # seven pairs only with 14 tiles
    assert not ref.is_winning(P("113355m11z"))


def test_standard_readings() -> None:
    ds = ref.decompositions(P("11122233344455m"))
    assert len(ds) == 4
    assert all(d.shape == "standard" for d in ds)
    assert ref.Decomposition("standard", (
        ref.Group("triplet", (Tile.M1,) * 3, (False,) * 3),
        ref.Group("triplet", (Tile.M2,) * 3, (False,) * 3),
        ref.Group("triplet", (Tile.M3,) * 3, (False,) * 3),
        ref.Group("triplet", (Tile.M4,) * 3, (False,) * 3),
        ref.Group("pair", (Tile.M5,) * 2, (False,) * 2),
    )) in ds
    assert ref.decompositions(P("123m456p789s1z2z")) == ()
    # a 2-tile part is just the pair
    assert norm(ref.decompositions(P("77z"))) == {
        ("standard", (("pair", (RED, RED), (False, False)),))}


def test_wild_as_fifth_copy() -> None:
    hand = P("1111m7z")
    assert ref.is_winning(hand, wild=RED)
    assert norm(ref.decompositions(hand, wild=RED)) == {
        ("standard", (("triplet", (0, 0, 0), (False, False, False)),
                      ("pair", (0, 0), (False, True)))),
        ("standard", (("triplet", (0, 0, 0), (False, False, True)),
                      ("pair", (0, 0), (False, False)))),
    }
    # without the wild the same tiles do not win
    assert not ref.is_winning(hand)


def test_three_wilds_make_a_set() -> None:
    hand = P("123m456p11s777z")
    assert ref.is_winning(hand, wild=RED)
    all_wild = [d for d in ref.decompositions(hand, wild=RED)
                if any(all(g.wilds) and g.kind != "pair" for g in d.groups)]
    assert len(all_wild) == 34 + 21  # any triplet or any sequence
    all_wild = [d for d in ref.decompositions(hand, wild=RED, wild_numbers_only=True)
                if any(all(g.wilds) and g.kind != "pair" for g in d.groups)]
    assert len(all_wild) == 27 + 21
    # a wild also stands for its own kind
    assert ("standard", (("triplet", (RED, RED, RED), (True, True, True)),
                         ("pair", (0, 0), (False, False)))) in norm(
        ref.decompositions(P("11m777z"), wild=RED))


def test_wild_pair_with_a_natural() -> None:
    assert ref.is_winning(P("123m1p7z"), wild=RED)
    assert not ref.is_winning(P("123m1p7z"), wild=RED, wild_pairs_natural=False)
    assert ref.is_winning(P("123m77z"), wild=RED, wild_pairs_natural=False)
    # the wild may still fill a set
    assert ref.is_winning(P("13m11p7z"), wild=RED, wild_pairs_natural=False)
    sp = P("1133557799m115z7z")
    assert ref.is_winning(sp, wild=RED)
    assert not ref.is_winning(sp, wild=RED, wild_pairs_natural=False)
    sp2 = P("1133557799m11z77z")
    assert ref.is_winning(sp2, wild=RED, wild_pairs_natural=False, wild_numbers_only=True)


def test_wild_numbers_only() -> None:
    assert ref.is_winning(P("123m1z7z"), wild=RED)
    assert not ref.is_winning(P("123m1z7z"), wild=RED, wild_numbers_only=True)
    assert ref.is_winning(P("11z1m77z"), wild=RED, wild_numbers_only=True)
    assert ref.is_winning(P("11z1z77z"), wild=RED, wild_numbers_only=True)  # 111z + wild pair
    assert not ref.is_winning(P("11z2z77z"), wild=RED, wild_numbers_only=True)
    assert ref.is_winning(P("11z2z77z"), wild=RED)
    # thirteen orphans: a wild may not be an honor, but may be 9m
    orphans = P("9m19p19s123456z11m7z")
    assert ref.is_winning(orphans, wild=RED)
    assert not ref.is_winning(orphans, wild=RED, wild_numbers_only=True)
    three_p = int(Tile.P3)
    assert ref.is_winning(P("1m19p19s1234567z1m3p"), wild=three_p, wild_numbers_only=True)
    assert ref.waits(P("1m19p19s1234567z1m"), wild=three_p, wild_numbers_only=True) == kinds(
        "9m3p")


def test_waits_with_wilds() -> None:
    # a lone wild waits on anything (and on another wild)
    assert ref.waits(P("7z"), wild=RED) == frozenset(Tile(k) for k in range(34))
    assert ref.waits(P("7z"), wild=RED, wild_pairs_natural=False) == kinds("7z")
    assert ref.waits(P("1m"), wild=RED) == kinds("1m7z")
    assert ref.waits(P("1m"), wild=RED, wild_pairs_natural=False) == kinds("1m")
    assert ref.waits(P("1z"), wild=RED, wild_numbers_only=True) == kinds("1z")
    # a kind held four times is not a wait; a wild may be a fifth copy
    assert ref.waits(P("1111m")) == frozenset()
    assert ref.waits(P("1111m"), wild=RED) == kinds("7z")
    assert ref.waits(P("1115m")) == kinds("5m")


def test_known_shanten() -> None:
    assert ref.shanten(P("123m456p789s111z5z")) == 0
    assert ref.shanten(P("123m456p789s11z22z")) == 0
    assert ref.shanten(P("19m19p19s1234567z")) == 0
    junk = P("147m258p369s1234z")
    assert ref.shanten(junk) == 6  # seven pairs: 13 kinds, no pair
    assert ref.shanten(junk, seven_pairs=False) == 7  # 6 orphan kinds, no orphan pair
    assert ref.shanten(junk, seven_pairs=False, thirteen_orphans=False) == 8
    c = counts(junk)
    assert Shanten.calculate_shanten(c) == 6
    assert Shanten.calculate_shanten(c, use_chiitoitsu=False) == 7
    assert Shanten.calculate_shanten(c, use_chiitoitsu=False, use_kokushi=False) == 8
    # 1- and 2-tile parts
    assert ref.shanten(P("5m")) == 0
    assert ref.shanten(P("55m")) == -1
    assert ref.shanten(P("15m")) == 0


def test_known_shanten_with_wilds() -> None:
    assert ref.shanten(P("1m7z"), wild=RED) == -1
    assert ref.shanten(P("1m7z"), wild=RED, wild_pairs_natural=False) == 0
    assert ref.shanten(P("1z7z"), wild=RED) == -1
    assert ref.shanten(P("1z7z"), wild=RED, wild_numbers_only=True) == 0
    assert ref.shanten(P("1m7777z"), wild=RED) == -1
    # 1m+2 wilds as a set and a wild pair
    assert ref.shanten(P("1m7777z"), wild=RED, wild_pairs_natural=False) == -1
    # 1m + wild + joker as a set, 9p + joker as the pair
    assert ref.shanten(P("1m5p9s7z"), wild=RED) == 1
    assert ref.shanten(P("1m5p9s7z")) == 2
    # 13 tiles, 9 isolated naturals, 4 wilds: 7 pairs of a natural and a wild or joker
    assert ref.shanten(P("147m258p369s7777z"), wild=RED) == 2
    # standard shape: at most one natural per group, so 5 used, 4 wilds, 5 jokers
    assert ref.shanten(P("147m258p369s7777z"), wild=RED, seven_pairs=False) == 4
    assert ref.shanten(P("123m456p789s7777z"), wild=RED) == 0
    # honor places take only jokers under wild_numbers_only
    assert ref.shanten(P("1234z7777z"), wild=RED, wild_numbers_only=True) == 2
    assert ref.shanten(P("1234z7777z"), wild=RED) == 0


def test_an_honor_wild_never_fills_thirteen_orphans_under_numbers_only() -> None:
    hand = P("19m19p19s123456z1m")  # 13 tiles, no 7z
    assert ref.waits(hand, wild=RED, wild_numbers_only=True) == frozenset()
    assert ref.shanten(hand, wild=RED, wild_numbers_only=True) > 0
    assert ref.shanten(hand, wild=RED) == 0


@pytest.mark.parametrize("func", [ref.is_winning, ref.decompositions])
def test_bad_input_for_winning_checks(func: Any) -> None:
    with pytest.raises(ValueError):
        func(P("123m456p789s1122z"))  # 13 tiles
    with pytest.raises(ValueError):
        func([0, 34])
    with pytest.raises(ValueError):
        func([0, -1])
    with pytest.raises(ValueError):
        func([0, 0], wild=34)


def test_bad_input_for_waits_and_shanten() -> None:
    with pytest.raises(ValueError):
        ref.waits(P("11m"))
    with pytest.raises(ValueError):
        ref.waits([])
    with pytest.raises(ValueError):
        ref.shanten(P("111m"))
    with pytest.raises(ValueError):
        ref.shanten(P("123m456p789s1122z3z4z"))  # 15 tiles
    with pytest.raises(ValueError):
        ref.shanten([40])


# ------------------------------------------------- random hands, seeded

RNG = random.Random(20261130)


def _complete(n_sets: int) -> list[int]:
    """A complete part: n sets + a pair, at most 4 of a kind."""
    while True:
        hand = [t for _ in range(n_sets) for t in RNG.choice(SETS)]
        pair = RNG.randrange(34)
        hand += [pair, pair]
        if max(Counter(hand).values()) <= 4:
            return hand


def _random_hand(size: int, wild: int | None) -> list[int]:
    """A mix of random, near-complete, near-seven-pairs and near-orphans parts."""
    kind = RNG.random()
    if kind < 0.35:
        wall = [k for k in range(34) for _ in range(4)]
        hand = RNG.sample(wall, size)
    elif kind < 0.75 or size < 13:
        hand = _complete((size + 1) // 3)[:size] if size % 3 == 1 else _complete(size // 3)
        for _ in range(RNG.choice((0, 1, 1, 2))):
            hand[RNG.randrange(size)] = RNG.randrange(34)
    elif kind < 0.9:
        hand = [k for k in RNG.sample(range(34), 7) for _ in range(2)][:size]
        hand[RNG.randrange(size)] = RNG.randrange(34)
    else:
        hand = [*map(int, ORPHANS), int(RNG.choice(ORPHANS))][:size]
        hand[RNG.randrange(size)] = RNG.randrange(34)
    if wild is not None:
        for _ in range(RNG.choice((0, 1, 1, 2, 3))):
            hand[RNG.randrange(size)] = wild
    RNG.shuffle(hand)
    if max(Counter(hand).values()) > 4:
        return _random_hand(size, wild)
    return hand


def _options() -> dict[str, Any]:
    """Random keyword options with a random wild."""
    kw: dict[str, Any] = {name: RNG.random() < 0.5 for name in OPTION_NAMES}
    kw["wild"] = RNG.choice((None, RNG.randrange(34), RED, WHITE))
    return kw


def test_no_wilds_against_mahjong() -> None:
    for _ in range(4000):
        size = RNG.choice((1, 2, 4, 5, 7, 8, 10, 11, 13, 14))
        hand = _random_hand(size, None)
        c = counts(hand)
        text = format_tiles(hand)
        if size % 3 == 2:
            assert ref.is_winning(hand, quads_as_two_pairs=False) == Agari.is_agari(c), text
        if max(c) < 4:  # the package adds availability rules for kinds held 4 times
            assert ref.shanten(hand, quads_as_two_pairs=False) == Shanten.calculate_shanten(
                c), text
            assert ref.shanten(hand, seven_pairs=False, thirteen_orphans=False) == (
                Shanten.calculate_shanten(c, use_chiitoitsu=False, use_kokushi=False)), text


def test_wilds_against_substitution() -> None:
    """With natural pairs allowed, a wild is any allowed kind: try them all."""
    checked = 0
    while checked < 1500:
        size = RNG.choice((2, 5, 8, 11, 14))
        wild = RNG.randrange(34)
        hand = _random_hand(size, wild)
        n_wild = hand.count(wild)
        if not 1 <= n_wild <= 2:
            continue
        naturals = [t for t in hand if t != wild]
        if any(naturals.count(k) == 4 for k in range(27, 34)):
            continue  # Agari rejects 5 honors of a kind, even as 111z + 11z
        wno = RNG.random() < 0.5
        allowed = range(27) if wno else range(34)
        expected = False
        for sub in combinations_with_replacement(allowed, n_wild):
            if Agari.is_agari(counts(naturals + list(sub))):
                expected = True
                break
        got = ref.is_winning(hand, wild=wild, quads_as_two_pairs=False, wild_numbers_only=wno)
        assert got == expected, (format_tiles(hand), wild, wno)
        checked += 1


def _check_reading(hand: list[int], kw: dict[str, Any], d: Any) -> None:
    """A reading uses exactly the hand's naturals and wilds, in valid sorted groups."""
    wild = kw["wild"]
    naturals = Counter(t for t in hand if t != wild)
    used: Counter[int] = Counter()
    n_wild = 0
    for g in d.groups:
        tiles = [int(t) for t in g.tiles]
        assert len(tiles) == len(g.wilds)
        assert tiles == sorted(tiles)
        for t, w in zip(tiles, g.wilds, strict=True):
            if w:
                n_wild += 1
                assert t < 27 or not kw["wild_numbers_only"]
            else:
                used[t] += 1
        if g.kind == "sequence":
            assert tiles[0] < 27 and tiles[0] % 9 <= 6
            assert tiles == [tiles[0], tiles[0] + 1, tiles[0] + 2]
        else:
            size = {"triplet": 3, "pair": 2, "single": 1}[g.kind]
            assert tiles == [tiles[0]] * size
        if g.kind == "pair" and not kw["wild_pairs_natural"]:
            assert len(set(g.wilds)) == 1
    assert used == naturals
    assert n_wild == (hand.count(wild) if wild is not None else 0)
    kinds_ = [g.kind for g in d.groups]
    if d.shape == "standard":
        assert set(kinds_[:-1]) <= {"sequence", "triplet"} and kinds_[-1] == "pair"
        key = [(tuple(int(t) for t in g.tiles), g.wilds) for g in d.groups[:-1]]
        assert key == sorted(key)
    elif d.shape == "seven_pairs":
        assert len(hand) == 14 and kw["seven_pairs"] and kinds_ == ["pair"] * 7
        key = [(tuple(int(t) for t in g.tiles), g.wilds) for g in d.groups]
        assert key == sorted(key)
        per_kind = Counter(int(g.tiles[0]) for g in d.groups)
        assert max(per_kind.values()) <= (2 if kw["quads_as_two_pairs"] else 1)
    else:
        assert d.shape == "thirteen_orphans" and kw["thirteen_orphans"]
        assert kinds_ == ["single"] * 12 + ["pair"]
        assert sorted(int(g.tiles[0]) for g in d.groups) == list(ORPHANS)


def test_is_winning_matches_decompositions() -> None:
    winners = 0
    for _ in range(2500):
        kw = _options()
        size = RNG.choice((2, 5, 8, 11, 14, 14))
        hand = _random_hand(size, kw["wild"])
        ds = ref.decompositions(hand, **kw)
        assert ref.is_winning(hand, **kw) == bool(ds), (format_tiles(hand), kw)
        assert len(set(ds)) == len(ds)
        for d in ds:
            _check_reading(hand, kw, d)
        winners += bool(ds)
    assert winners > 300


def test_shanten_is_the_exchange_distance() -> None:
    for _ in range(150):
        kw = _options()
        size = RNG.choice((1, 2, 4, 5, 7, 8, 10, 11, 13, 14))
        hand = _random_hand(size, kw["wild"])
        s = ref.shanten(hand, **kw)
        text = (format_tiles(hand), kw)
        if size % 3 == 1:
            best = min(ref.shanten([*hand, k], **kw) for k in range(34))
            assert s == best + 1, text
            assert (s == 0) == any(ref.is_winning([*hand, k], **kw) for k in range(34)), text
            continue
        assert (s == -1) == ref.is_winning(hand, **kw), text
        after = [ref.shanten([*hand[:i], k, *hand[i + 1:]], **kw)
                 for i in range(size) for k in range(34)]
        assert all(abs(a - s) <= 1 for a in after), text
        if s >= 0:
            assert min(after) == s - 1, text


def test_waits_follow_the_definition() -> None:
    for _ in range(300):
        kw = _options()
        size = RNG.choice((1, 4, 7, 10, 13))
        hand = _random_hand(size, kw["wild"])
        expected = {Tile(k) for k in range(34)
                    if hand.count(k) < 4 and ref.is_winning([*hand, k], **kw)}
        assert ref.waits(hand, **kw) == expected, (format_tiles(hand), kw)
