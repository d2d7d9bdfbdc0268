"""Every reading of a winning hand: sets, pair and what each wild stands for.

Used for scoring, where RULES.md 0.7 asks for the reading that scores best;
this enumerates them all, so it is slower than ``is_winning``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from majiang.hand.analysis import is_winning
from majiang.tiles import KINDS, NUMBER_TILES, ORPHANS, Tile

__all__ = ["Decomposition", "Group", "decompositions"]

_KIND_ORDER = {"sequence": 0, "triplet": 0, "pair": 1, "single": 0}


@dataclass(frozen=True, slots=True, order=True)
class Group:
    """One set, pair or single of a reading (``wilds[i]``: position i is a wild)."""

    kind: str
    tiles: tuple[Tile, ...]
    wilds: tuple[bool, ...]

    @property
    def wild_count(self) -> int:
        """How many wild tiles stand in this group."""
        return sum(self.wilds)


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One way to read a winning concealed part (RULES.md 0.7)."""

    shape: str
    groups: tuple[Group, ...]

    @property
    def sets(self) -> tuple[Group, ...]:
        """Sequences and triplets, in ascending order."""
        return tuple(g for g in self.groups if g.kind in ("sequence", "triplet"))

    @property
    def pairs(self) -> tuple[Group, ...]:
        """The pair (standard shape, thirteen orphans) or the seven pairs."""
        return tuple(g for g in self.groups if g.kind == "pair")


def _group(kind: str, members: Sequence[tuple[int, bool]]) -> Group:
    ordered = sorted(members)
    return Group(kind, tuple(KINDS[t] for t, _ in ordered), tuple(w for _, w in ordered))


def _sort(groups: list[Group]) -> tuple[Group, ...]:
    return tuple(sorted(groups, key=lambda g: (_KIND_ORDER[g.kind], g.tiles, g.kind, g.wilds)))


@cache
def _sets_of(kind_pool: tuple[int, ...]) -> list[tuple[str, tuple[int, int, int]]]:
    """Every set whose kinds are all in the pool: triplets, then sequences."""
    out: list[tuple[str, tuple[int, int, int]]] = [("triplet", (t, t, t)) for t in kind_pool]
    out += [
        ("sequence", (t, t + 1, t + 2))
        for t in kind_pool
        if t < 27 and t % 9 <= 6 and t + 2 in kind_pool
    ]
    return out


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
    """Every distinct reading of a 3n+2 winning part; empty if it does not win."""
    flags = {
        "wild": wild,
        "seven_pairs": seven_pairs,
        "thirteen_orphans": thirteen_orphans,
        "quads_as_two_pairs": quads_as_two_pairs,
        "wild_numbers_only": wild_numbers_only,
        "wild_pairs_natural": wild_pairs_natural,
    }
    if not is_winning(tiles, **flags):  # type: ignore[arg-type]
        return ()
    counts = [0] * 34
    w = 0
    for t in tiles:
        if t == wild:
            w += 1
        else:
            counts[t] += 1
    pool = tuple(NUMBER_TILES) if wild_numbers_only else tuple(KINDS)
    found: set[Decomposition] = set()
    for groups in _standard(counts, w, True, pool, wild_pairs_natural):
        found.add(Decomposition("standard", _sort(groups)))
    if len(tiles) == 14 and seven_pairs:
        for groups in _pairs7(counts, w, pool, quads_as_two_pairs, wild_pairs_natural):
            found.add(Decomposition("seven_pairs", _sort(groups)))
    if len(tiles) == 14 and thirteen_orphans:
        for groups in _orphans(counts, w, pool, wild_pairs_natural):
            found.add(Decomposition("thirteen_orphans", _sort(groups)))
    return tuple(sorted(found, key=lambda d: (d.shape, d.groups)))


def _standard(
    c: list[int], w: int, need_pair: bool, pool: tuple[int, ...], pairs_natural: bool
) -> Iterator[list[Group]]:
    """Sets (and one pair) covering every natural tile, wilds filling gaps."""
    i = next((k for k in range(34) if c[k]), -1)
    if i < 0:
        yield from _wild_only(w, need_pair, pool)
        return
    if need_pair:
        for k in (2, 1):
            if c[i] >= k and (k == 2 or (w >= 1 and pairs_natural and i in pool)):
                c[i] -= k
                for rest in _standard(c, w - (2 - k), False, pool, pairs_natural):
                    yield [_group("pair", [(i, False)] * k + [(i, True)] * (2 - k)), *rest]
                c[i] += k
    for kind, members in _sets_of(pool):
        if i not in members:
            continue
        yield from _fill_set(c, w, kind, members, i, need_pair, pool, pairs_natural)
    if c[i] >= 3 and i not in pool:
        c[i] -= 3
        for rest in _standard(c, w, need_pair, pool, pairs_natural):
            yield [_group("triplet", [(i, False)] * 3), *rest]
        c[i] += 3


def _fill_set(
    c: list[int],
    w: int,
    kind: str,
    members: tuple[int, int, int],
    low: int,
    need_pair: bool,
    pool: tuple[int, ...],
    pairs_natural: bool,
) -> Iterator[list[Group]]:
    """Place one set holding a natural ``low``; other positions natural or wild."""
    positions = list(members)
    positions.remove(low)
    for mask in range(4):
        used: list[tuple[int, bool]] = [(low, False)]
        take: list[int] = []
        wilds = 0
        ok = True
        for b, t in enumerate(positions):
            natural = bool(mask >> b & 1)
            if natural:
                if t < low or c[t] - take.count(t) - (t == low) <= 0:
                    ok = False
                    break
                take.append(t)
            else:
                if t not in pool:
                    ok = False
                    break
                wilds += 1
            used.append((t, not natural))
        if not ok or wilds > w:
            continue
        if kind == "triplet" and mask not in (0, 1, 3):
            continue  # triplet positions are interchangeable: count each once
        c[low] -= 1
        for t in take:
            c[t] -= 1
        for rest in _standard(c, w - wilds, need_pair, pool, pairs_natural):
            yield [_group(kind, used), *rest]
        c[low] += 1
        for t in take:
            c[t] += 1


def _wild_only(w: int, need_pair: bool, pool: tuple[int, ...]) -> Iterator[list[Group]]:
    """Leftover wilds as all-wild sets (and pair), every kind they could be."""
    if need_pair:
        if w < 2:
            return
        for t in pool:
            for rest in _wild_sets(w - 2, pool, 0):
                yield [_group("pair", [(t, True), (t, True)]), *rest]
        return
    yield from _wild_sets(w, pool, 0)


def _wild_sets(w: int, pool: tuple[int, ...], start: int) -> Iterator[list[Group]]:
    if w == 0:
        yield []
        return
    if w % 3:
        return
    options = _sets_of(pool)
    for idx in range(start, len(options)):
        kind, members = options[idx]
        for rest in _wild_sets(w - 3, pool, idx):
            yield [_group(kind, [(t, True) for t in members]), *rest]


def _pairs7(
    c: list[int], w: int, pool: tuple[int, ...], quads: bool, pairs_natural: bool
) -> Iterator[list[Group]]:
    """Seven pairs: per kind, pairs of two naturals, a natural and a wild, or two wilds.

    At most two pairs of one kind (a quadruple, RULES.md 0.7), one without quads.
    """
    most = 2 if quads else 1
    options: list[list[tuple[int, list[Group]]]] = []
    for t in range(34):
        n = c[t]
        if n > 2 * most:
            return
        wildable = t in pool
        choices: list[tuple[int, list[Group]]] = []
        for a in range(n // 2 + 1):
            b = n - 2 * a
            if b and (not pairs_natural or not wildable):
                continue
            for extra in range(most + 1 - a - b):
                if extra and not wildable:
                    continue
                groups = [_group("pair", [(t, False), (t, False)])] * a
                groups += [_group("pair", [(t, False), (t, True)])] * b
                groups += [_group("pair", [(t, True), (t, True)])] * extra
                choices.append((b + 2 * extra, groups))
        if not choices:
            return
        options.append(choices)
    yield from _choose_pairs(options, 0, w, 7, [])


def _choose_pairs(
    options: list[list[tuple[int, list[Group]]]], i: int, w: int, left: int, acc: list[Group]
) -> Iterator[list[Group]]:
    """Pick one choice per kind so that exactly ``w`` wilds make ``left`` more pairs."""
    if i == len(options):
        if w == 0 and left == 0:
            yield list(acc)
        return
    for wilds, groups in options[i]:
        if wilds <= w and len(groups) <= left:
            acc.extend(groups)
            yield from _choose_pairs(options, i + 1, w - wilds, left - len(groups), acc)
            del acc[len(acc) - len(groups) :]


def _orphans(
    c: list[int], w: int, pool: tuple[int, ...], pairs_natural: bool
) -> Iterator[list[Group]]:
    """Thirteen orphans: each orphan once, one of them twice; wilds fill gaps."""
    if any(c[t] for t in range(34) if t not in ORPHANS):
        return
    for dup in ORPHANS:
        groups: list[Group] = []
        wilds = 0
        ok = True
        for t in ORPHANS:
            want = 2 if t == dup else 1
            have = c[t]
            if have > want or (have < want and t not in pool):
                ok = False
                break
            wilds += want - have
            members = [(t, False)] * have + [(t, True)] * (want - have)
            if want == 2 and have == 1 and not pairs_natural:
                ok = False
                break
            groups.append(_group("pair" if want == 2 else "single", members))
        if ok and wilds == w:
            yield groups
