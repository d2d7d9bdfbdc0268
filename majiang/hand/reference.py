"""Slow, brute-force reference oracle for the majiang.hand API (docs/hand-api.md).

Written independently of the fast implementation and meant to be obviously
correct rather than quick: every search takes the lowest remaining natural
kind and tries every group that contains it, filling the missing places with
wilds (or, for shanten, with held wilds first and jokers after); wilds left
over form all-wild groups.  Results for one suit are cached on its count
tuple, which is what makes 50,000-hand comparisons affordable.

Conventions where the contract leaves a choice open (see also the tests):

- Inside a group, places standing for the same kind list naturals before
  wilds: a triplet of 5m with one wild is ``tiles=(5m, 5m, 5m)``,
  ``wilds=(False, False, True)``.
- Groups are sorted by ``(tiles, wilds)``: sets first, then the pair; seven
  pairs sorted the same way; thirteen orphans: the 12 singles ascending, then
  the pair.
- ``wild_pairs_natural=False`` applies to every pair: the standard pair, each
  of the seven pairs and the pair of thirteen orphans.
- ``wild_numbers_only=True`` lets a wild stand for 1m 9m 1p 9p 1s 9s in
  thirteen orphans, never for an honor.
- In seven pairs one kind appears in at most 2 pairs (quads_as_two_pairs) or
  1 pair; an all-wild pair may stand for any allowed kind within that limit.
  Readings that differ only in wild flags are distinct: two naturals and two
  wilds of one kind read as (N, N) + (W, W) and as (N, W) + (N, W).
- A shanten joker is a tile of any of the 34 kinds, one of the wild kind being
  a wild (J = the least number of tiles to exchange); see the shanten section.
- More than 4 tiles of a kind are accepted (the searches do not need the limit).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement

from majiang.tiles import Tile

__all__ = ["Decomposition", "Group", "decompositions", "is_winning", "shanten", "waits"]

_TILE: tuple[Tile, ...] = tuple(Tile)[:34]
_ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
# (first kind, end kind, is a number suit) of the four independent blocks.
_BLOCKS: tuple[tuple[int, int, bool], ...] = (
    (0, 9, True),
    (9, 18, True),
    (18, 27, True),
    (27, 34, False),
)
_WIN_LENGTHS = (2, 5, 8, 11, 14)
_WAIT_LENGTHS = (1, 4, 7, 10, 13)

# A partial group found by the searches: (kind, kinds it stands for, natural flags).
_GroupShape = tuple[str, tuple[int, ...], tuple[bool, ...]]


@dataclass(frozen=True, slots=True)
class Group:
    """One group of a reading: its kind, the kinds it stands for and where wilds sit."""

    kind: str
    tiles: tuple[Tile, ...]
    wilds: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One reading of a winning part: its shape and its sorted groups."""

    shape: str
    groups: tuple[Group, ...]


@dataclass(frozen=True, slots=True)
class _Opts:
    """The wild kind and the shape options of one call."""

    wild: int | None
    seven_pairs: bool
    thirteen_orphans: bool
    quads_as_two_pairs: bool
    wild_numbers_only: bool
    wild_pairs_natural: bool


def _parse(tiles: Sequence[int], lengths: Sequence[int], wild: int | None) -> tuple[list[int], int]:
    """Validate a call's tiles and wild; return (natural count vector, wild count)."""
    if wild is not None and (
        isinstance(wild, bool) or not isinstance(wild, int) or not 0 <= wild < 34
    ):
        raise ValueError(f"wild must be None or a tile kind 0-33, got {wild!r}")
    items = list(tiles)
    for t in items:
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < 34:
            raise ValueError(f"not a tile kind 0-33: {t!r}")
    if len(items) not in lengths:
        raise ValueError(f"a part of {len(items)} tiles; expected one of {tuple(lengths)}")
    counts = [0] * 34
    n_wild = 0
    for t in items:
        if t == wild:
            n_wild += 1
        else:
            counts[t] += 1
    return counts, n_wild


def _wild_may_be(kind: int, wild_numbers_only: bool) -> bool:
    """True if a wild may stand for this kind."""
    return kind < 27 or not wild_numbers_only


def _groups_at(counts: Sequence[int], i: int, numbers: bool) -> Iterator[_GroupShape]:
    """Every set or pair holding a natural of the lowest natural kind i; flags mark naturals."""
    # counts is one block (a suit, index = number - 1; or the honors) or the
    # full 34 vector; places not flagged natural are missing (wild or joker).
    for k in range(1, min(3, counts[i]) + 1):
        yield "triplet", (i, i, i), (True,) * k + (False,) * (3 - k)
    for k in range(1, min(2, counts[i]) + 1):
        yield "pair", (i, i), (True,) * k + (False,) * (2 - k)
    if not numbers:
        return
    base = i - i % 9
    for a in (i - 2, i - 1, i):
        if a < base or a + 2 > base + 8:
            continue
        kinds = (a, a + 1, a + 2)
        choices: list[tuple[bool, ...]] = []
        for j in kinds:
            if j == i:
                choices.append((True,))
            elif counts[j] > 0:
                choices.append((True, False))
            else:
                choices.append((False,))
        for f0 in choices[0]:
            for f1 in choices[1]:
                for f2 in choices[2]:
                    yield "sequence", kinds, (f0, f1, f2)


def _remove(
    counts: tuple[int, ...], kinds: tuple[int, ...], nat: tuple[bool, ...]
) -> tuple[int, ...]:
    """The count tuple with the natural places of a group taken out."""
    out = list(counts)
    for k, n in zip(kinds, nat, strict=True):
        if n:
            out[k] -= 1
    return tuple(out)


def _lowest(counts: Sequence[int]) -> int:
    """Index of the lowest nonzero count, or -1."""
    for k, n in enumerate(counts):
        if n:
            return k
    return -1


# ---------------------------------------------------------------- is_winning


@cache
def _win_block(
    block: tuple[int, ...], numbers: bool, wno: bool, wpn: bool
) -> frozenset[tuple[int, int]]:
    """(wilds used, pairs) of every way to put all naturals of a block into groups."""
    i = _lowest(block)
    if i < 0:
        return frozenset({(0, 0)})
    wild_ok = numbers or not wno
    out: set[tuple[int, int]] = set()
    for kind, kinds, nat in _groups_at(block, i, numbers):
        missing = nat.count(False)
        if missing and not wild_ok:
            continue
        if kind == "pair" and missing and not wpn:
            continue
        is_pair = int(kind == "pair")
        for used, pairs in _win_block(_remove(block, kinds, nat), numbers, wno, wpn):
            if pairs + is_pair <= 1:
                out.add((used + missing, pairs + is_pair))
    return frozenset(out)


def _standard_wins(counts: list[int], n_wild: int, o: _Opts) -> bool:
    """Standard shape: all naturals in groups, leftover wilds in all-wild groups."""
    states = {(0, 0)}
    for lo, hi, numbers in _BLOCKS:
        options = _win_block(
            tuple(counts[lo:hi]), numbers, o.wild_numbers_only, o.wild_pairs_natural
        )
        states = {
            (u + u2, p + p2)
            for u, p in states
            for u2, p2 in options
            if u + u2 <= n_wild and p + p2 <= 1
        }
    for used, pairs in states:
        rest = n_wild - used  # all-wild groups (number kinds are always allowed)
        if pairs == 1 and rest % 3 == 0:
            return True
        if pairs == 0 and rest >= 2 and rest % 3 == 2:
            return True
    return False


def _seven_pairs_wins(counts: list[int], n_wild: int, o: _Opts) -> bool:
    """Seven pairs of a 14-tile part."""
    limit = 2 if o.quads_as_two_pairs else 1
    used = 0
    for k, n in enumerate(counts):
        if n > 2 * limit:
            return False
        if n % 2:  # the odd natural pairs with a wild; fewest wilds is best
            if not (o.wild_pairs_natural and _wild_may_be(k, o.wild_numbers_only)):
                return False
            used += 1
    # leftover wilds (an even number) pair up on fresh number kinds
    return used <= n_wild


def _orphans_wins(counts: list[int], n_wild: int, o: _Opts) -> bool:
    """Thirteen orphans of a 14-tile part."""
    return any(True for _ in _orphans_readings(counts, n_wild, o))


def _is_winning(counts: list[int], n_wild: int, o: _Opts) -> bool:
    """is_winning on a validated count vector."""
    total = sum(counts) + n_wild
    if _standard_wins(counts, n_wild, o):
        return True
    if total == 14 and o.seven_pairs and _seven_pairs_wins(counts, n_wild, o):
        return True
    return total == 14 and o.thirteen_orphans and _orphans_wins(counts, n_wild, o)


def is_winning(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> bool:
    """True if the 3n+2 concealed part is a winning shape."""
    counts, n_wild = _parse(tiles, _WIN_LENGTHS, wild)
    o = _Opts(
        wild,
        seven_pairs,
        thirteen_orphans,
        quads_as_two_pairs,
        wild_numbers_only,
        wild_pairs_natural,
    )
    return _is_winning(counts, n_wild, o)


def waits(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> frozenset[Tile]:
    """Kinds held fewer than 4 times whose addition makes the 3n+1 part winning."""
    _parse(tiles, _WAIT_LENGTHS, wild)
    o = _Opts(
        wild,
        seven_pairs,
        thirteen_orphans,
        quads_as_two_pairs,
        wild_numbers_only,
        wild_pairs_natural,
    )
    held = list(tiles)
    out: set[Tile] = set()
    for k in range(34):
        if held.count(k) >= 4:
            continue
        counts, n_wild = _parse([*held, k], _WIN_LENGTHS, wild)
        if _is_winning(counts, n_wild, o):
            out.add(_TILE[k])
    return frozenset(out)


# ------------------------------------------------------------------ shanten
#
# Joker definition: J = least number of jokers such that a sub-multiset S of
# the tiles plus J jokers (|S| + J = 3n+2) wins.  Choose the target groups
# (n sets + 1 pair, or 7 pairs, or the orphans) and which naturals go where;
# M = missing places = 3n+2 - naturals used.  A held wild may fill a missing
# place unless the place is "joker-only": an honor place when
# wild_numbers_only, or the partner of a natural in a pair when
# wild_pairs_natural=False.  With Q joker-only places and w held wilds the
# wilds fill min(w, M - Q) places, so J = max(M - w, Q).
#
# A joker is a tile of any of the 34 kinds, a tile of the wild kind being a
# wild (so J is the least number of tiles to exchange).  The one place where
# this differs from "a joker may be a natural of any kind": with an honor
# wild and wild_numbers_only, nothing can fill that honor's place in
# thirteen orphans, so the shape is out of reach (as it is for is_winning).


def _pareto(found: set[tuple[int, int, int, int]]) -> tuple[tuple[int, int, int, int], ...]:
    """Drop entries dominated (fewer naturals used, more joker-only places) at equal (s, p)."""
    keep = [
        a
        for a in found
        if not any(
            b != a and b[0] == a[0] and b[1] == a[1] and b[2] >= a[2] and b[3] <= a[3]
            for b in found
        )
    ]
    return tuple(sorted(keep))


@cache
def _partial_block(
    block: tuple[int, ...], numbers: bool, wno: bool, wpn: bool
) -> tuple[tuple[int, int, int, int], ...]:
    """(sets, pairs, naturals used, joker-only places) of partial groups in one block."""
    i = _lowest(block)
    if i < 0:
        return ((0, 0, 0, 0),)
    found: set[tuple[int, int, int, int]] = set()
    dropped = list(block)
    dropped[i] -= 1  # this natural is not in S
    found.update(_partial_block(tuple(dropped), numbers, wno, wpn))
    for kind, kinds, nat in _groups_at(block, i, numbers):
        missing = nat.count(False)
        is_pair = int(kind == "pair")
        # an honor place under wild_numbers_only, or a natural's partner in a
        # pair under wild_pairs_natural=False, can only take a joker
        joker_only = missing if (not numbers and wno) or (is_pair and not wpn) else 0
        used = len(nat) - missing
        for s, p, u, q in _partial_block(_remove(block, kinds, nat), numbers, wno, wpn):
            s2, p2 = s + 1 - is_pair, p + is_pair
            if s2 <= 4 and p2 <= 1:
                found.add((s2, p2, u + used, q + joker_only))
    return _pareto(found)


def _standard_jokers(counts: list[int], n_wild: int, size: int, o: _Opts) -> int:
    """Least jokers for the standard shape of a part of `size` = 3n+2 tiles."""
    n_sets = size // 3
    states: set[tuple[int, int, int, int]] = {(0, 0, 0, 0)}
    for lo, hi, numbers in _BLOCKS:
        options = _partial_block(
            tuple(counts[lo:hi]), numbers, o.wild_numbers_only, o.wild_pairs_natural
        )
        states = set(
            _pareto(
                {
                    (s + s2, p + p2, u + u2, q + q2)
                    for s, p, u, q in states
                    for s2, p2, u2, q2 in options
                    if s + s2 <= n_sets and p + p2 <= 1
                }
            )
        )
    # groups not started are all-missing; their places take wilds (number kinds)
    return min(max(size - u - n_wild, q) for _, _, u, q in states)


def _seven_pairs_jokers(counts: list[int], n_wild: int, o: _Opts) -> int:
    """Least jokers for seven pairs (14 tiles)."""
    limit = 2 if o.quads_as_two_pairs else 1
    # states: pairs started with naturals -> set of (naturals used, joker-only places)
    states: dict[int, set[tuple[int, int]]] = {0: {(0, 0)}}
    for k, n in enumerate(counts):
        partner_q = int(not o.wild_pairs_natural or not _wild_may_be(k, o.wild_numbers_only))
        options = [(0, 0, 0)]  # (pairs, naturals, joker-only places) on kind k
        # each pair on k holds 1 or 2 naturals of k; pairs with none of k are
        # dominated by all-missing pairs on fresh number kinds (always available)
        for t in range(1, limit + 1):
            for ones in range(t + 1):
                nats = 2 * (t - ones) + ones
                if nats <= n:
                    options.append((t, nats, ones * partner_q))
        new: dict[int, set[tuple[int, int]]] = {}
        for t0, vals in states.items():
            for t, nats, q in options:
                if t0 + t <= 7:
                    new.setdefault(t0 + t, set()).update((u + nats, q0 + q) for u, q0 in vals)
        states = new
    return min(max(14 - u - n_wild, q) for vals in states.values() for u, q in vals)


def _orphans_jokers(counts: list[int], n_wild: int, o: _Opts) -> int:
    """Least jokers for thirteen orphans (14 tiles)."""
    if o.wild in _ORPHANS and not _wild_may_be(o.wild, o.wild_numbers_only):
        return 99  # no tile can ever fill the wild's own (honor) place
    best = 14
    for pair in _ORPHANS:
        used = 0
        joker_only = 0
        for k in _ORPHANS:
            need = 2 if k == pair else 1
            have = min(counts[k], need)
            used += have
            if not _wild_may_be(k, o.wild_numbers_only):
                joker_only += need - have
            elif k == pair and have == 1 and not o.wild_pairs_natural:
                joker_only += 1
        best = min(best, max(14 - used - n_wild, joker_only))
    return best


def shanten(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> int:
    """Least number of jokers that complete the part, minus one (-1 = complete)."""
    counts, n_wild = _parse(tiles, _WIN_LENGTHS + _WAIT_LENGTHS, wild)
    o = _Opts(
        wild,
        seven_pairs,
        thirteen_orphans,
        quads_as_two_pairs,
        wild_numbers_only,
        wild_pairs_natural,
    )
    size = len(tiles) + (1 if len(tiles) % 3 == 1 else 0)
    best = _standard_jokers(counts, n_wild, size, o)
    if size == 14 and seven_pairs:
        best = min(best, _seven_pairs_jokers(counts, n_wild, o))
    if size == 14 and thirteen_orphans:
        best = min(best, _orphans_jokers(counts, n_wild, o))
    return best - 1


# ------------------------------------------------------------ decompositions


def _group(kind: str, kinds: tuple[int, ...], nat: tuple[bool, ...]) -> Group:
    """A Group from kinds and natural flags."""
    return Group(kind, tuple(_TILE[k] for k in kinds), tuple(not n for n in nat))


def _key(g: Group) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """Sort key of a group."""
    return tuple(int(t) for t in g.tiles), g.wilds


def _allowed(o: _Opts) -> range:
    """The kinds a wild may stand for."""
    return range(27) if o.wild_numbers_only else range(34)


def _all_wild_sets(o: _Opts) -> list[Group]:
    """Every set made only of wilds."""
    out = [Group("triplet", (_TILE[k],) * 3, (True,) * 3) for k in _allowed(o)]
    out += [
        Group("sequence", (_TILE[a], _TILE[a + 1], _TILE[a + 2]), (True,) * 3)
        for a in range(27)
        if a % 9 <= 6
    ]
    return out


def _standard_readings(
    counts: list[int], n_wild: int, n_sets: int, n_pairs: int, o: _Opts
) -> Iterator[list[Group]]:
    """Every reading (groups, unsorted) of naturals plus wilds as n_sets sets and n_pairs pairs."""
    i = _lowest(counts)
    if i < 0:
        if n_wild != 3 * n_sets + 2 * n_pairs:
            return
        pairs = [[Group("pair", (_TILE[k],) * 2, (True, True))] for k in _allowed(o)]
        for sets in combinations_with_replacement(_all_wild_sets(o), n_sets):
            for pair in pairs if n_pairs else [[]]:
                yield [*sets, *pair]
        return
    for kind, kinds, nat in _groups_at(counts, i, i < 27):
        missing = nat.count(False)
        is_pair = kind == "pair"
        if (n_pairs if is_pair else n_sets) == 0 or missing > n_wild:
            continue
        if missing and not _wild_may_be(i, o.wild_numbers_only):
            continue
        if is_pair and missing and not o.wild_pairs_natural:
            continue
        rest = list(_remove(tuple(counts), kinds, nat))
        for groups in _standard_readings(
            rest, n_wild - missing, n_sets - (not is_pair), n_pairs - is_pair, o
        ):
            yield [_group(kind, kinds, nat), *groups]


def _seven_pairs_readings(
    counts: list[int], n_wild: int, per_kind: list[int], o: _Opts
) -> Iterator[list[Group]]:
    """Every reading of naturals plus wilds as pairs (per_kind: pairs already on each kind)."""
    limit = 2 if o.quads_as_two_pairs else 1
    i = _lowest(counts)
    if i < 0:
        if n_wild % 2:
            return
        for kinds in combinations_with_replacement(_allowed(o), n_wild // 2):
            if all(per_kind[k] + kinds.count(k) <= limit for k in set(kinds)):
                yield [Group("pair", (_TILE[k],) * 2, (True, True)) for k in kinds]
        return
    if per_kind[i] >= limit:
        return
    options: list[tuple[bool, ...]] = []
    if counts[i] >= 2:
        options.append((True, True))
    if n_wild and o.wild_pairs_natural and _wild_may_be(i, o.wild_numbers_only):
        options.append((True, False))
    for nat in options:
        rest = list(_remove(tuple(counts), (i, i), nat))
        per_kind[i] += 1
        for groups in _seven_pairs_readings(rest, n_wild - nat.count(False), per_kind, o):
            yield [_group("pair", (i, i), nat), *groups]
        per_kind[i] -= 1


def _orphans_readings(counts: list[int], n_wild: int, o: _Opts) -> Iterator[list[Group]]:
    """Every thirteen-orphans reading: 12 singles ascending, then the pair."""
    if any(n for k, n in enumerate(counts) if k not in _ORPHANS):
        return
    for pair in _ORPHANS:
        need = {k: 2 if k == pair else 1 for k in _ORPHANS}
        if any(counts[k] > need[k] for k in _ORPHANS):
            continue
        missing = {k: need[k] - counts[k] for k in _ORPHANS}
        if sum(missing.values()) != n_wild:
            continue
        if any(m and not _wild_may_be(k, o.wild_numbers_only) for k, m in missing.items()):
            continue
        if counts[pair] == 1 and not o.wild_pairs_natural:
            continue
        singles = [_group("single", (k,), (counts[k] == 1,)) for k in _ORPHANS if k != pair]
        pair_nat = (True,) * counts[pair] + (False,) * (2 - counts[pair])
        yield [*singles, _group("pair", (pair, pair), pair_nat)]


def decompositions(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> tuple[Decomposition, ...]:
    """Every distinct reading of a 3n+2 winning part (empty if not winning)."""
    counts, n_wild = _parse(tiles, _WIN_LENGTHS, wild)
    o = _Opts(
        wild,
        seven_pairs,
        thirteen_orphans,
        quads_as_two_pairs,
        wild_numbers_only,
        wild_pairs_natural,
    )
    found: set[Decomposition] = set()
    for groups in _standard_readings(counts, n_wild, len(tiles) // 3, 1, o):
        sets = sorted((g for g in groups if g.kind != "pair"), key=_key)
        pairs = [g for g in groups if g.kind == "pair"]
        found.add(Decomposition("standard", (*sets, *pairs)))
    if len(tiles) == 14 and seven_pairs:
        for groups in _seven_pairs_readings(counts, n_wild, [0] * 34, o):
            found.add(Decomposition("seven_pairs", tuple(sorted(groups, key=_key))))
    if len(tiles) == 14 and thirteen_orphans:
        for groups in _orphans_readings(counts, n_wild, o):
            found.add(Decomposition("thirteen_orphans", tuple(groups)))
    shapes = ("standard", "seven_pairs", "thirteen_orphans")
    return tuple(
        sorted(found, key=lambda d: (shapes.index(d.shape), [(g.kind, _key(g)) for g in d.groups]))
    )
