"""Per-suit analysis of a count vector: the quantities the hand tables store.

A suit is a tuple of counts (9 for m/p/s, 7 for honors, where only triplets
and pairs exist). Wilds are unlimited and may stand for any kind of the suit
(RULES.md 0.7, D3). These functions are exact and memoized; the generator in
tools/gen_tables.py tabulates them, and restricted modes call them directly.
"""

from __future__ import annotations

from functools import cache

INF = 99
"""Stands for 'impossible' in every table (fits in a byte)."""

Counts = tuple[int, ...]


def _groups_with_lowest(c: Counts, honors: bool) -> list[tuple[Counts, int]]:
    """Every set containing a natural tile of the lowest kind: (rest, wilds used)."""
    i = next(k for k, n in enumerate(c) if n)
    out: list[tuple[Counts, int]] = []
    for k in range(1, min(c[i], 3) + 1):
        rest = list(c)
        rest[i] -= k
        out.append((tuple(rest), 3 - k))
    if not honors:
        for start in (i - 2, i - 1, i):
            if start < 0 or start + 2 > 8:
                continue
            above = [j for j in range(start, start + 3) if j > i]
            below = sum(1 for j in range(start, start + 3) if j < i)
            for mask in range(1 << len(above)):
                rest = list(c)
                rest[i] -= 1
                wilds = below
                ok = True
                for b, j in enumerate(above):
                    if mask >> b & 1:
                        if rest[j] == 0:
                            ok = False
                            break
                        rest[j] -= 1
                    else:
                        wilds += 1
                if ok:
                    out.append((tuple(rest), wilds))
    return out


def _pairs_with_lowest(c: Counts) -> list[tuple[Counts, int]]:
    """Pairs containing a natural tile of the lowest kind: (rest, wilds used)."""
    i = next(k for k, n in enumerate(c) if n)
    out: list[tuple[Counts, int]] = []
    for k in range(1, min(c[i], 2) + 1):
        rest = list(c)
        rest[i] -= k
        out.append((tuple(rest), 2 - k))
    return out


@cache
def need_sets(c: Counts, honors: bool) -> int:
    """Least wilds that make all of ``c`` into sets (no pair)."""
    if not any(c):
        return 0
    return min(w + need_sets(rest, honors) for rest, w in _groups_with_lowest(c, honors))


@cache
def need_pair(c: Counts, honors: bool, natural: bool) -> int:
    """Least wilds that make ``c`` into sets plus one pair inside this suit.

    With ``natural`` the pair must be two natural tiles (taizhou, RULES.md 5.1);
    otherwise it may be natural+wild or two wilds.
    """
    if not any(c):
        return INF if natural else 2
    best = min(w + need_pair(rest, honors, natural) for rest, w in _groups_with_lowest(c, honors))
    for rest, w in _pairs_with_lowest(c):
        if natural and w:
            continue
        best = min(best, w + need_sets(rest, honors))
    return min(best, INF)


def _partials_with_lowest(c: Counts, honors: bool) -> list[tuple[Counts, int]]:
    """Sub-multisets of a set whose lowest tile is the lowest kind: (rest, size)."""
    i = next(k for k, n in enumerate(c) if n)
    out: list[tuple[Counts, int]] = []
    for k in range(1, min(c[i], 3) + 1):
        rest = list(c)
        rest[i] -= k
        out.append((tuple(rest), k))
    if not honors:
        for shape in ((1,), (2,), (1, 2)):
            if i + max(shape) > 8:
                continue
            rest = list(c)
            rest[i] -= 1
            if all(rest[i + d] > 0 for d in shape):
                for d in shape:
                    rest[i + d] -= 1
                out.append((tuple(rest), 1 + len(shape)))
    return out


@cache
def kept(c: Counts, honors: bool) -> tuple[int, ...]:
    """Most natural tiles keepable in at most g set-groups and a pair slot.

    Returns 15 values indexed ``g + 5 * p`` for g = 0..4 and p = 0 (no pair
    slot), 1 (exactly one natural tile in the pair slot), 2 (exactly two);
    -INF where impossible. Tiles not kept are discarded; used for shanten.
    """
    if not any(c):
        return (0,) * 5 + (-INF,) * 10
    i = next(k for k, n in enumerate(c) if n)
    drop = list(c)
    drop[i] -= 1
    best = list(kept(tuple(drop), honors))
    for rest, size in _partials_with_lowest(c, honors):
        sub = kept(rest, honors)
        for p in range(3):
            for g in range(1, 5):
                v = sub[g - 1 + 5 * p] + size
                if v > best[g + 5 * p]:
                    best[g + 5 * p] = v
    for k in range(1, min(c[i], 2) + 1):
        take = list(c)
        take[i] -= k
        sub = kept(tuple(take), honors)
        for g in range(5):
            v = sub[g] + k
            if v > best[g + 5 * k]:
                best[g + 5 * k] = v
    return tuple(best)


def kept_any_pair(c: Counts, honors: bool) -> tuple[int, ...]:
    """``kept`` with p = 1 meaning a pair slot of up to two tiles (10 values)."""
    k = kept(c, honors)
    return k[:5] + tuple(max(k[g], k[g + 5], k[g + 10]) for g in range(5))
