"""Fast wild-aware win detection, waits and shanten over per-suit tables.

A hand's concealed part becomes one int: each suit's counts in base 5 in its
own 21-bit field (m, p, s, then honors), so a sum over the tiles gives every
suit's table key at once. See docs/hand-api.md for the exact contract.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import mul
from typing import Any

from majiang.hand import _tables
from majiang.hand._suit import INF, kept
from majiang.tiles import KINDS, ORPHANS, Tile

__all__ = ["any_tile_shape", "is_pairs", "is_sets", "is_winning", "shanten", "waits"]

_MASK = (1 << 21) - 1
_W: dict[int, int] = {t: 5 ** (t % 9) << (21 * (t // 9)) for t in range(27)}
_W.update({t: 5 ** (t - 27) << 63 for t in range(27, 34)})
_ORPHAN_BASE = sum(_W[t] for t in ORPHANS)
_ORPHAN_PLUS_ONE = frozenset(_ORPHAN_BASE + _W[t] for t in ORPHANS)


def _key(tiles: Sequence[int]) -> int:
    """The packed key of a hand, after checking every tile and count."""
    try:
        k = sum(map(_W.__getitem__, tiles))
    except (KeyError, TypeError):
        bad = next((t for t in tiles if t not in _W), None)
        raise ValueError(f"not a tile kind 0-33 (flowers excluded): {bad!r}") from None
    if len(tiles) > 4 and max(map(tiles.count, set(tiles))) > 4:
        bad = next(t for t in set(tiles) if tiles.count(t) > 4)
        raise ValueError(f"more than four tiles of kind {int(bad)} in the hand")
    return k


def _length_error(tiles: Sequence[int], what: str) -> ValueError:
    return ValueError(f"{what} takes {len(tiles)} tiles; expected {_EXPECT[what]}")


_EXPECT = {
    "is_winning": "3n+2 tiles (2, 5, 8, 11 or 14)",
    "waits": "3n+1 tiles (1, 4, 7, 10 or 13)",
    "shanten": "1 to 14 tiles, not a multiple of 3",
    "discard_shanten": "3n+2 tiles (2, 5, 8, 11 or 14)",
    "draw_shanten": "3n+1 tiles (1, 4, 7, 10 or 13)",
}


def _digits(key: int, width: int) -> tuple[int, ...]:
    out = []
    for _ in range(width):
        key, r = divmod(key, 5)
        out.append(r)
    return tuple(out)


def _py_is_winning(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> bool:
    """True if the concealed part (3n+2 tiles, melds removed) is a complete hand."""
    n = len(tiles)
    if n % 3 != 2 or n > 14:
        raise _length_error(tiles, "is_winning")
    k = _key(tiles)
    num, hon = _tables.load()
    w = 0
    if wild is not None:
        w = tiles.count(wild)
        k -= w * _W[wild]
    m = k & _MASK
    p = k >> 21 & _MASK
    s = k >> 42 & _MASK
    z = k >> 63
    if not w:
        c = num.complete
        # each suit complete (1 = sets, 2 = sets and the pair), exactly one pair
        if c[m] + c[p] + c[s] + hon.complete[z] == 5 and c[m] and c[p] and c[s] and hon.complete[z]:
            return True
        if n != 14:
            return False
        if seven_pairs:
            if quads_as_two_pairs:
                o = num.odd
                if not (o[m] or o[p] or o[s] or hon.odd[z]):
                    return True
            else:
                o = num.single
                if not (o[m] or o[p] or o[s] or hon.single[z]):
                    return True
        return thirteen_orphans and k in _ORPHAN_PLUS_ONE
    return _wild_win(
        wild,
        k,
        m,
        p,
        s,
        z,
        w,
        n,
        seven_pairs,
        thirteen_orphans,
        quads_as_two_pairs,
        wild_numbers_only,
        wild_pairs_natural,
    )


_SINGLES = tuple((t,) for t in range(34))


def _py_is_winning_counts(
    counts: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> bool:
    """``is_winning`` of a hand given as 34 counts (an engine's concealed counts), so a
    caller holding counts builds no tile list."""
    if len(counts) != 34:
        raise ValueError("counts must hold 34 counts, one per kind")
    try:
        fits = min(counts) >= 0 and max(counts) <= 4
        tiles = list(chain.from_iterable(map(mul, _SINGLES, counts)))
    except TypeError:
        fits = False
    if not fits:
        t, c = next((t, c) for t, c in enumerate(counts) if type(c) is not int or not 0 <= c <= 4)
        raise ValueError(f"a count is an int 0-4, got {c!r} for kind {t}")
    return is_winning(
        tiles,
        wild=wild,
        seven_pairs=seven_pairs,
        thirteen_orphans=thirteen_orphans,
        quads_as_two_pairs=quads_as_two_pairs,
        wild_numbers_only=wild_numbers_only,
        wild_pairs_natural=wild_pairs_natural,
    )


def _wild_win(
    wild: int | None,
    k: int,
    m: int,
    p: int,
    s: int,
    z: int,
    w: int,
    n: int,
    seven_pairs: bool,
    thirteen_orphans: bool,
    quads_as_two_pairs: bool,
    wild_numbers_only: bool,
    wild_pairs_natural: bool,
) -> bool:
    num, hon = _tables.load()
    n0 = num.need0
    n2 = num.need2 if wild_pairs_natural else num.need2n
    if wild_numbers_only:
        z0 = hon.need0nw[z]
        z2 = hon.need2nw[z]
    else:
        z0 = hon.need0[z]
        z2 = (hon.need2 if wild_pairs_natural else hon.need2n)[z]
    a0, b0, c0 = n0[m], n0[p], n0[s]
    a = a0 + b0 + c0 + z0
    if a + min(n2[m] - a0, n2[p] - b0, n2[s] - c0, z2 - z0, 2) <= w:
        return True
    if n != 14:
        return False
    if (
        seven_pairs
        and _seven_pairs_cost(
            m, p, s, z, w, quads_as_two_pairs, wild_numbers_only, wild_pairs_natural
        )
        == 0
    ):
        return True
    return (
        thirteen_orphans and _orphans_cost(k, w, wild_numbers_only, wild_pairs_natural, wild) == 0
    )


def _seven_pairs_cost(
    m: int,
    p: int,
    s: int,
    z: int,
    w: int,
    quads: bool,
    numbers_only: bool,
    pairs_natural: bool,
) -> int:
    """Jokers missing for seven pairs (14 tiles; RULES.md 0.7)."""
    num, hon = _tables.load()
    if quads:
        pairs = num.pairsq[m] + num.pairsq[p] + num.pairsq[s] + hon.pairsq[z]
        ns, hs = num.odd[m] + num.odd[p] + num.odd[s], hon.odd[z]
    else:
        # without quadruples a third or fourth tile of a kind is dead
        pairs = num.pairsn[m] + num.pairsn[p] + num.pairsn[s] + hon.pairsn[z]
        ns, hs = num.ones[m] + num.ones[p] + num.ones[s], hon.ones[z]
    if not pairs_natural:
        wildable, fixed = 0, ns + hs  # singles only a joker may pair with
    elif numbers_only:
        wildable, fixed = ns, hs
    else:
        wildable, fixed = ns + hs, 0
    r = 7 - min(pairs, 7)
    # A wild is worth most beside a single, then beside another wild; every other
    # open pair still takes one held tile (a single or a lone wild) and a joker.
    x = min(wildable, w, r)
    y = min((w - x) // 2, r - x)
    left = r - x - y
    return 2 * r - 2 * x - 2 * y - min(left, wildable - x + fixed + (w - x - 2 * y))


def _orphans_cost(k: int, w: int, numbers_only: bool, pairs_natural: bool, wild: int | None) -> int:
    """Jokers missing for thirteen orphans (14 tiles; RULES.md 0.7)."""
    if numbers_only and wild is not None and wild >= 27:
        return INF  # the wild's own honor kind can never be held as a natural tile
    num, hon = _tables.load()
    vals = (num.orph[k & _MASK], num.orph[k >> 21 & _MASK], num.orph[k >> 42 & _MASK])
    hv = hon.orph[k >> 63]
    present_num = (vals[0] >> 1) + (vals[1] >> 1) + (vals[2] >> 1)
    present = present_num + (hv >> 1)
    dup = (vals[0] | vals[1] | vals[2] | hv) & 1
    fill = 6 - present_num if numbers_only else 13 - present
    if dup or pairs_natural:
        used = present + dup + min(w, fill + 1 - dup)
    elif fill and w >= 2:
        used = present + min(w, fill + 1)  # the pair is two wilds on a missing kind
    else:
        used = present + min(w, fill)
    return 14 - used


def _py_waits(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> frozenset[Tile]:
    """Kinds that complete a 3n+1 part, excluding kinds the hand holds all four of."""
    n = len(tiles)
    if n % 3 != 1 or n > 13:
        raise _length_error(tiles, "waits")
    _key(tiles)
    hand = list(tiles)
    out = []
    for t in KINDS:
        if hand.count(t) < 4:
            hand.append(t)
            if _py_is_winning(
                hand,
                wild=wild,
                seven_pairs=seven_pairs,
                thirteen_orphans=thirteen_orphans,
                quads_as_two_pairs=quads_as_two_pairs,
                wild_numbers_only=wild_numbers_only,
                wild_pairs_natural=wild_pairs_natural,
            ):
                out.append(t)
            hand.pop()
    return frozenset(out)


def _merge(a: Sequence[int], b: Sequence[int], top: int) -> list[int]:
    """Max-plus merge of two suits' kept vectors (g = 0..top, p = 0..1)."""
    out = [0] * 10
    for g in range(top + 1):
        best0 = 0
        best1 = 0
        for i in range(g + 1):
            j = g - i
            v = a[i] + b[j]
            if v > best0:
                best0 = v
            v = a[5 + i] + b[j]
            if v > best1:
                best1 = v
            v = a[i] + b[5 + j]
            if v > best1:
                best1 = v
        out[g] = best0
        out[5 + g] = best1
    return out


def _py_shanten(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> int:
    """Tile exchanges from complete, minus one: -1 complete, 0 ready (docs/hand-api.md)."""
    n = len(tiles)
    if n % 3 == 0 or n > 14:
        raise _length_error(tiles, "shanten")
    k = _key(tiles)
    w = 0
    if wild is not None:
        w = tiles.count(wild)
        k -= w * _W[wild]
    sets = n // 3
    target = 3 * sets + 2
    m = k & _MASK
    p = k >> 21 & _MASK
    s = k >> 42 & _MASK
    z = k >> 63
    if (wild_numbers_only and z) or (w and not wild_pairs_natural):
        best = _restricted_standard(m, p, s, z, w, sets, wild_numbers_only, wild_pairs_natural)
    else:
        num, hon = _tables.load()
        kn = num.kept
        v = _merge(kn[10 * m : 10 * m + 10], kn[10 * p : 10 * p + 10], sets)
        v = _merge(v, kn[10 * s : 10 * s + 10], sets)
        hk = hon.kept[10 * z : 10 * z + 10]
        most = 0
        for i in range(sets + 1):
            j = sets - i
            x = v[5 + i] + hk[j]
            if x > most:
                most = x
            x = v[i] + hk[5 + j]
            if x > most:
                most = x
        best = max(0, target - most - w)
    if target == 14:
        if seven_pairs:
            best = min(
                best,
                _seven_pairs_cost(
                    m, p, s, z, w, quads_as_two_pairs, wild_numbers_only, wild_pairs_natural
                ),
            )
        if thirteen_orphans:
            best = min(best, _orphans_cost(k, w, wild_numbers_only, wild_pairs_natural, wild))
    return best - 1


def _restricted_standard(
    m: int,
    p: int,
    s: int,
    z: int,
    w: int,
    sets: int,
    numbers_only: bool,
    pairs_natural: bool,
) -> int:
    """Jokers missing for the standard shape when wilds cannot fill every slot.

    Under wild_numbers_only a wild never stands for an honor (RULES.md 4.1);
    without wild_pairs_natural a wild pairs only with a wild (RULES.md 5.1).
    """
    acc = list(kept(_digits(m, 9), False))
    for key in (p, s):
        acc = _merge3(acc, kept(_digits(key, 9), False), sets)
    hon = kept(_digits(z, 7), True)
    best = INF
    for gh in range(sets + 1):
        gn = sets - gh
        for where, kp in (("", 0), ("n", 1), ("n", 2), ("h", 1), ("h", 2)):
            kn = acc[gn + 5 * kp * (where == "n")]
            kh = hon[gh + 5 * kp * (where == "h")]
            if kn < 0 or kh < 0:
                continue
            miss_n = 3 * gn - kn + kp * (where == "n")
            miss_h = 3 * gh - kh + kp * (where == "h")
            wildable = miss_n + (0 if numbers_only else miss_h)
            fixed = miss_h if numbers_only else 0
            if kp == 0:
                cost = min(
                    max(0, wildable - (w - wp)) + 2 - wp + fixed for wp in range(min(w, 2) + 1)
                )
            else:
                if pairs_natural and not (where == "h" and numbers_only):
                    wildable += 2 - kp
                else:
                    fixed += 2 - kp
                cost = max(0, wildable - w) + fixed
            best = min(best, cost)
    return best


def _merge3(a: Sequence[int], b: Sequence[int], top: int) -> list[int]:
    """Merge exact kept vectors (pair slot with 0, 1 or 2 natural tiles)."""
    out = [-INF] * 15
    for g in range(top + 1):
        for i in range(g + 1):
            j = g - i
            for pa, pb in ((0, 0), (1, 0), (0, 1), (2, 0), (0, 2)):
                x, y = a[i + 5 * pa], b[j + 5 * pb]
                if x >= 0 and y >= 0 and x + y > out[g + 5 * (pa + pb)]:
                    out[g + 5 * (pa + pb)] = x + y
    return out


def _shanten_each(tiles: Sequence[int], what: str, delta: int, **flags: Any) -> tuple[int, ...]:
    """The shanten of ``tiles`` changed by one tile of each kind in turn (``delta`` -1: one
    fewer, of each held kind; +1: one more, of each kind held fewer than four times), by
    kind, -2 where there is no such hand."""
    if len(tiles) % 3 != (2 if delta < 0 else 1) or len(tiles) > (14 if delta < 0 else 13):
        raise _length_error(tiles, what)
    out = [-2] * 34
    for t in range(34):
        held = tiles.count(t)
        if (held if delta < 0 else 4 - held) <= 0:
            continue
        other = list(tiles)
        if delta < 0:
            other.remove(t)
        else:
            other.append(t)
        out[t] = _py_shanten(other, **flags)
    return tuple(out)


def _py_discard_shanten(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> tuple[int, ...]:
    """The shanten of a 3n+2 hand less one tile of each kind it holds, by kind (-2 for a
    kind it does not hold): every discard's shanten in one call (docs/hand-api.md)."""
    return _shanten_each(
        tiles, "discard_shanten", -1, wild=wild, seven_pairs=seven_pairs,
        thirteen_orphans=thirteen_orphans, quads_as_two_pairs=quads_as_two_pairs,
        wild_numbers_only=wild_numbers_only, wild_pairs_natural=wild_pairs_natural,
    )


def _py_draw_shanten(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> tuple[int, ...]:
    """The shanten of a 3n+1 hand with one more tile of each kind, by kind (-2 where it
    holds four): every draw's shanten in one call (docs/hand-api.md)."""
    return _shanten_each(
        tiles, "draw_shanten", +1, wild=wild, seven_pairs=seven_pairs,
        thirteen_orphans=thirteen_orphans, quads_as_two_pairs=quads_as_two_pairs,
        wild_numbers_only=wild_numbers_only, wild_pairs_natural=wild_pairs_natural,
    )


is_winning = _py_is_winning
is_winning_counts = _py_is_winning_counts
waits = _py_waits
shanten = _py_shanten
discard_shanten = _py_discard_shanten
draw_shanten = _py_draw_shanten
ACCELERATED = False
"""True when the C accelerator majiang.hand._speedups is in use."""

try:
    from majiang.hand import _speedups
except ImportError:  # pragma: no cover - the pure Python path is the fallback
    pass
else:

    def _flat_tables() -> tuple[bytes, ...]:
        num, hon = _tables.load()
        return tuple(num) + tuple(hon)

    _speedups.init(_flat_tables, KINDS, _py_shanten)
    is_winning = _speedups.is_winning
    is_winning_counts = _speedups.is_winning_counts
    waits = _speedups.waits
    shanten = _speedups.shanten
    discard_shanten = _speedups.discard_shanten
    draw_shanten = _speedups.draw_shanten
    ACCELERATED = True


def is_sets(tiles: Sequence[int], *, wild: int | None = None) -> bool:
    """True if 3n concealed tiles (wilds standing in anywhere) are n complete sets.

    Used for 爆头 readiness (RULES.md 2.3 (d), 2.4): the tiles left after taking
    one wild out.
    """
    if len(tiles) % 3:
        return False
    k = _key(tiles)
    w = 0
    if wild is not None:
        w = list(tiles).count(wild)
        k -= w * _W[wild]
    num, hon = _tables.load()
    n0 = num.need0
    need = n0[k & _MASK] + n0[k >> 21 & _MASK] + n0[k >> 42 & _MASK] + hon.need0[k >> 63]
    return need <= w


def is_pairs(tiles: Sequence[int], *, wild: int | None = None, quads: bool = True) -> bool:
    """True if the tiles are all pairs, a wild pairing with anything (七客 readiness, 2.4)."""
    if len(tiles) % 2:
        return False
    counts = [0] * 34
    w = 0
    for t in tiles:
        if t == wild:
            w += 1
        else:
            counts[t] += 1
    if not quads and max(counts) > 2:
        return False
    return sum(n & 1 for n in counts) <= w


def any_tile_shape(tiles: Sequence[int], wild: int | None, concealed: bool) -> int:
    """The shape factor of the win any next tile makes of 3n+1 tiles (RULES.md 2.3 (d),
    2.4): 2 when, with no melds, taking one wild out leaves six pairs (七客), 1 when it
    leaves only sets (爆头), 0 when some tile does not win that way."""
    if wild is None or wild not in tiles:
        return 0
    rest = list(tiles)
    rest.remove(wild)
    if concealed and len(rest) == 12 and is_pairs(rest, wild=wild):
        return 2
    return 1 if is_sets(rest, wild=wild) else 0
