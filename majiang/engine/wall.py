"""Building deals: the physical dealing of RULES.md 0.3 and FORMAT.md's partial deals."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from majiang.engine.state import Deal
from majiang.errors import DealError
from majiang.tiles import Tile, parse_tiles

__all__ = ["deal_from_wall", "fill_deal", "full_set"]


def full_set(tile_counts: Sequence[int]) -> list[int]:
    """Every tile of a variant's set, in canonical order."""
    return [t for t, n in enumerate(tile_counts) for _ in range(n)]


def deal_from_wall(w: Sequence[int], dealer: int, reserved: Mapping[str, int]) -> Deal:
    """Deal 4-4-4 by seat from the dealer, then 1 each, then 1 more to the dealer (D1);
    then set aside ``reserved`` tiles from the back, purpose by purpose in its order."""
    seq = list(w)
    hands: list[list[int]] = [[] for _ in range(4)]
    pos = 0
    order = [(dealer + i) % 4 for i in range(4)]
    for _ in range(3):
        for s in order:
            hands[s].extend(seq[pos : pos + 4])
            pos += 4
    for s in order:
        hands[s].append(seq[pos])
        pos += 1
    hands[dealer].append(seq[pos])
    pos += 1
    rest = seq[pos:]
    taken: dict[str, tuple[int, ...]] = {}
    for purpose, n in reserved.items():
        if n:
            # the first reserved tile is the last tile of what is left, and so on
            taken[purpose] = tuple(reversed(rest[len(rest) - n :]))
            del rest[len(rest) - n :]
    return Deal(tuple(tuple(h) for h in hands), tuple(rest), taken)


def _tiles(text: object, where: str) -> list[int]:
    if not isinstance(text, str):
        raise DealError(f"{where} must be tile notation, got {text!r}")
    return [int(t) for t in parse_tiles(text)]


def fill_deal(
    spec: Mapping[str, object],
    tile_counts: Sequence[int],
    dealer: int,
    reserved: Mapping[str, int],
    rng: random.Random,
    purposes: Sequence[str] = (),
) -> Deal:
    """A record's (possibly partial) deal completed from the seed, as FORMAT.md says.

    The rest of the set is shuffled with ``rng``; short hands are filled from
    its front in seat order, missing reserved tiles from its back; the live
    wall is then draws + rest + reversed(tail). ``purposes`` are those the variant
    declares (a record naming another is refused); ``reserved`` counts this hand's.
    """
    hands_spec = spec.get("hands", ["", "", "", ""])
    if not isinstance(hands_spec, list) or len(hands_spec) != 4:
        raise DealError("deal.hands must list four hands in seat order")
    hands = [_tiles(h, f"deal.hands[{i}]") for i, h in enumerate(hands_spec)]
    draws = _tiles(spec.get("draws", ""), "deal.draws")
    tail = _tiles(spec.get("tail", ""), "deal.tail")
    res_spec = spec.get("reserved", {})
    if not isinstance(res_spec, Mapping):
        raise DealError("deal.reserved must be an object")
    given_res: dict[str, list[int]] = {}
    for purpose, text in res_spec.items():
        if purpose not in purposes and purpose not in reserved:
            known = ", ".join(purposes) or "none in this variant"
            raise DealError(f"unknown reserved purpose {purpose!r}; {known}")
        given_res[purpose] = _tiles(text, f"deal.reserved.{purpose}")
        if len(given_res[purpose]) > reserved.get(purpose, 0):
            raise DealError(
                f"deal.reserved.{purpose} names {len(given_res[purpose])} tiles; "
                f"this hand reserves {reserved.get(purpose, 0)}"
            )
    for seat, h in enumerate(hands):
        want = 14 if seat == dealer else 13
        if len(h) > want:
            raise DealError(f"deal.hands[{seat}] has {len(h)} tiles; seat {seat} is dealt {want}")
    remaining = list(tile_counts)
    named = [t for h in hands for t in h] + draws + tail
    named += [t for ts in given_res.values() for t in ts]
    for t in named:
        if t >= len(remaining) or remaining[t] == 0:
            raise DealError(f"the deal names more {Tile(t)} than the set holds ({tile_counts[t]})")
        remaining[t] -= 1
    rest = full_set(remaining)
    rng.shuffle(rest)
    for seat, h in enumerate(hands):
        want = 14 if seat == dealer else 13
        while len(h) < want:
            if not rest:
                raise DealError("not enough tiles to fill the hands")
            h.append(rest.pop(0))
    taken: dict[str, tuple[int, ...]] = {}
    for purpose, n in reserved.items():
        if not n:
            continue
        got = given_res.get(purpose, [])
        if len(rest) < n - len(got):
            raise DealError(
                f"deal.reserved.{purpose}: {n} tiles are set aside but the deal leaves "
                f"{len(rest)} unnamed to take them from"
            )
        while len(got) < n:
            got.append(rest.pop())
        taken[purpose] = tuple(got)
    wall = draws + rest + tail[::-1]
    return Deal(tuple(tuple(h) for h in hands), tuple(wall), taken)
