"""A sound efficiency bot for every variant (issue: bots and simulate).

It always takes a legal win; discards to lower shanten, then to widen the
tiles that would improve the hand (counting only unseen copies); claims only
when a claim lowers shanten (kongs also when they keep it); and knows its
variant's wilds: it never throws a wild while another discard exists, which
in taizhou would cost the right to win (RULES.md 5.1) and in hangzhou would
hand the others a 抓打 period (2.3).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from majiang.hand import discard_shanten as all_discards
from majiang.hand import draw_shanten as all_draws
from majiang.hand import shanten
from majiang.observation import Observation
from majiang.rules import get_variant
from majiang.values import Action, OptionValue, Phase

__all__ = [
    "GreedyBot",
    "Shapes",
    "claim_choice",
    "company",
    "discard_shanten",
    "kong_now",
    "variant_shapes",
]


class Shapes(NamedTuple):
    """The shape flags shanten is asked with, passed to it as explicit keywords (a
    ``**flags`` call costs twice a shanten of a 13-tile hand)."""

    seven_pairs: bool = True
    thirteen_orphans: bool = True
    quads_as_two_pairs: bool = True
    wild_numbers_only: bool = False


def _sh(tiles: list[int], wild: int | None, f: Shapes) -> int:
    """Shanten of ``tiles`` (-1 for none) under the shape flags ``f``."""
    if not tiles:
        return -1
    return shanten(
        tiles,
        wild=wild,
        seven_pairs=f.seven_pairs,
        thirteen_orphans=f.thirteen_orphans,
        quads_as_two_pairs=f.quads_as_two_pairs,
        wild_numbers_only=f.wild_numbers_only,
    )


def variant_shapes(variant: str, _cache: dict[str, Shapes] = {}) -> Shapes:  # noqa: B006
    """The variant's winning shapes as shanten flags (cached: one per variant). A fast
    estimate: taizhou's "a 得 pairs only with a 得" is left to the win check."""
    flags = _cache.get(variant)
    if flags is None:
        shapes = get_variant(variant).shapes
        flags = Shapes(**{k: v for k, v in shapes.items() if k in Shapes._fields})
        _cache[variant] = flags
    return flags


def company(hand: Sequence[int], tile: int | None) -> int:
    """How many held tiles sit within two of ``tile`` in its suit (itself counted; an
    honor counts its copies twice): the lonelier a tile, the sooner it goes."""
    if tile is None:
        return 99
    if tile >= 27:
        return 2 * hand.count(tile)
    return sum(1 for t in hand if t // 9 == tile // 9 and t < 27 and abs(t - tile) <= 2)


def discards_per_tile(hand: Sequence[int], wild: int | None, f: Shapes) -> list[int]:
    """``each_discard`` one hand at a time: ``_sh`` of ``hand`` less each held kind."""
    out = [-2] * 34
    for t in set(hand):
        rest = list(hand)
        rest.remove(t)
        out[t] = _sh(rest, wild, f)
    return out


def draws_per_tile(
    hand: Sequence[int], wild: int | None, f: Shapes, kinds: Sequence[int]
) -> list[int]:
    """``each_draw`` one hand at a time: ``_sh`` of ``hand`` plus each of ``kinds``."""
    out = [-2] * 34
    other = list(hand)
    for t in kinds:  # the caller asks only kinds with a copy left to draw
        other.append(t)
        out[t] = _sh(other, wild, f)
        other.pop()
    return out


def each_discard(hand: Sequence[int], wild: int | None, f: Shapes) -> Sequence[int]:
    """The shanten left by discarding one tile of each kind, by kind (-2 where ``hand``
    holds none): ``majiang.hand.discard_shanten`` under the flags ``f`` for 3n+2 tiles,
    ``discards_per_tile`` for any other count."""
    if len(hand) % 3 != 2 or len(hand) > 14:
        return discards_per_tile(hand, wild, f)
    return all_discards(
        hand,
        wild=wild,
        seven_pairs=f.seven_pairs,
        thirteen_orphans=f.thirteen_orphans,
        quads_as_two_pairs=f.quads_as_two_pairs,
        wild_numbers_only=f.wild_numbers_only,
    )


def each_draw(
    hand: Sequence[int], wild: int | None, f: Shapes, kinds: Sequence[int]
) -> Sequence[int]:
    """The shanten after drawing one tile of each kind, by kind, for at least the
    ``kinds`` asked, each with a copy left to draw (-2 for a kind not asked, or held four
    times):
    ``majiang.hand.draw_shanten`` under the flags ``f`` for 3n+1 tiles, which computes all
    34 in C at once; ``draws_per_tile`` for the asked kinds alone with a wild that stands
    only for numbers (a drawn honor makes that hand the Python shanten's: not to be asked
    of kinds not in play) or for any other count."""
    if len(hand) % 3 != 1 or len(hand) > 13 or (f.wild_numbers_only and wild is not None):
        return draws_per_tile(hand, wild, f, kinds)
    return all_draws(
        hand,
        wild=wild,
        seven_pairs=f.seven_pairs,
        thirteen_orphans=f.thirteen_orphans,
        quads_as_two_pairs=f.quads_as_two_pairs,
        wild_numbers_only=f.wild_numbers_only,
    )


def discard_shanten(
    hand: Sequence[int], tiles: Sequence[int], wild: int | None, flags: Shapes
) -> dict[int, int]:
    """The shanten left by discarding each distinct kind of ``tiles`` from ``hand``."""
    every = each_discard(hand, wild, flags)
    return {t: every[t] for t in tiles}


def kong_now(
    legal: Sequence[Action], hand: Sequence[int], wild: int | None, flags: Shapes, most: int
) -> Action | None:
    """A natural concealed or added kong of ``legal`` that leaves the hand at most
    ``most`` shanten, if there is one."""
    for a in legal:
        if a.type == "kong" and not a.tiles:
            rest = [t for t in hand if t != a.tile]
            if len(rest) % 3 == 1 and _sh(rest, wild, flags) <= most:
                return a
    return None


def claim_choice(
    tile: int,
    legal: Sequence[Action],
    hand: list[int],
    wild: int | None,
    flags: Shapes,
    kong_slack: int = 0,
    peng_keeps: bool = False,
) -> Action:
    """Greedy's answer to a discard: a claim that lowers shanten (a natural kong also
    one that leaves it at most ``kong_slack`` higher, a peng with ``peng_keeps`` also one
    that leaves it as it is), else the pass."""
    now = _sh(hand, wild, flags)
    best = legal[-1]  # pass
    best_sh = now
    slack_kong: Action | None = None
    kept_peng: Action | None = None
    for a in legal:
        if a.type not in ("peng", "kong", "chi"):
            continue
        used = list(a.tiles) if a.tiles else [tile] * (3 if a.type == "kong" else 2)
        rest = list(hand)
        try:
            for t in used:
                rest.remove(t)
        except ValueError:
            continue
        if a.type == "kong":
            sh = _sh(rest, wild, flags)
            if sh <= best_sh:
                best, best_sh = a, sh
            elif sh <= now + kong_slack and not a.tiles:
                slack_kong = a
            continue
        after = min((x for x in each_discard(rest, wild, flags) if x != -2), default=99)
        if after < best_sh:
            best, best_sh = a, after
        elif peng_keeps and after <= now and a.type == "peng":
            kept_peng = a
    if best is legal[-1]:
        return slack_kong or kept_peng or best
    return best


class GreedyBot:
    """Shanten-and-acceptance discards, claims that help, every legal win."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._kind_cache: dict[tuple[str, tuple[tuple[str, OptionValue], ...]], list[int]] = {}
        self._last_kinds: tuple[str, dict[str, OptionValue], list[int]] | None = None

    def _kinds(self, obs: Observation) -> list[int]:
        """The kinds in play under the room's options (转转 has no 红中, RULES.md 0.2)."""
        last = self._last_kinds
        if last is not None and last[0] == obs.variant and last[1] == obs.options:
            return last[2]  # the same room as the last decision: no key to build
        key = (obs.variant, tuple(sorted(obs.options.items())))
        kinds = self._kind_cache.get(key)
        if kinds is None:
            v = get_variant(obs.variant)
            counts = v.tiles_for(v.resolve_options(obs.options))
            kinds = self._kind_cache[key] = [k for k in range(34) if counts[k]]
        self._last_kinds = (obs.variant, dict(obs.options), kinds)
        return kinds

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """The greedy choice among ``legal``."""
        first = legal[0]
        if first.type == "hu":
            return first
        if len(legal) == 1:
            return first
        wild = observation.wild
        flags = variant_shapes(observation.variant)
        seat = observation.seat
        if seat is not None and observation.melds[seat]:
            flags = flags._replace(seven_pairs=False, thirteen_orphans=False)
        hand = list(observation.hand)
        tile = observation.window_tile
        if observation.phase == Phase.TURN or tile is None:
            return self._turn(observation, legal, hand, wild, flags)
        return self._claim(tile, legal, hand, wild, flags)

    def _turn(
        self,
        obs: Observation,
        legal: Sequence[Action],
        hand: list[int],
        wild: int | None,
        flags: Shapes,
    ) -> Action:
        discards = [a for a in legal if a.type == "discard"]
        if not discards:
            return legal[-1]
        safe = [a for a in discards if a.tile != wild] or discards
        best: list[tuple[Action, list[int]]] = []
        low = 99
        every = each_discard(hand, wild, flags)
        for a in safe:
            rest = list(hand)
            rest.remove(a.tile)  # type: ignore[arg-type]
            sh = every[a.tile]  # type: ignore[index]
            if sh < low:
                low, best = sh, [(a, rest)]
            elif sh == low:
                best.append((a, rest))
        kong = kong_now(legal, hand, wild, flags, low)
        if kong is not None:
            return kong
        if len(best) == 1:
            return best[0][0]
        if len(best) > 4:
            # many ties: weigh acceptance only for the four loneliest tiles
            best.sort(key=lambda pair: company(hand, pair[0].tile))
            best = best[:4]
        scored = self._gains(obs, hand, best, wild, flags, low)
        top = max(g for g, _ in scored)
        choices = [a for g, a in scored if g == top]
        return choices[self.rng.randrange(len(choices))]

    def _gains(
        self,
        obs: Observation,
        hand: list[int],
        best: list[tuple[Action, list[int]]],
        wild: int | None,
        flags: Shapes,
        low: int,
    ) -> list[tuple[int, Action]]:
        """Each discard of ``best`` with its acceptance: the unseen tiles that would
        lower its shanten ``low``."""
        unseen = self._unseen(obs, hand)
        candidates = self._near(obs, hand, wild, unseen)
        scored = []
        for a, rest in best:
            after = each_draw(rest, wild, flags, candidates)
            gain = sum(unseen[k] for k in candidates if -2 < after[k] < low)
            scored.append((gain, a))
        return scored

    def _near(
        self, obs: Observation, hand: list[int], wild: int | None, unseen: list[int]
    ) -> list[int]:
        """The unseen kinds in play that can be worth drawing: next to a held tile (within
        two in its suit), a held honor, or the wild."""
        allowed = set(self._kinds(obs))
        near = {wild} if wild is not None else set()
        for t in set(hand):
            if t < 27:
                near.update(x for x in range(t - 2, t + 3) if x // 9 == t // 9 and x >= 0)
            else:
                near.add(t)
        return [k for k in sorted(near & allowed) if unseen[k]]

    def _claim(
        self,
        tile: int,
        legal: Sequence[Action],
        hand: list[int],
        wild: int | None,
        flags: Shapes,
    ) -> Action:
        return claim_choice(tile, legal, hand, wild, flags)

    @staticmethod
    def _unseen(obs: Observation, hand: list[int]) -> list[int]:
        seen = [0] * 34
        for t in hand:
            seen[t] += 1
        for pile in obs.discards:
            for t in pile:
                seen[t] += 1
        for melds in obs.melds:
            for m in melds:
                for t in m.tiles[:4]:
                    if t < 34:
                        seen[t] += 1
        return [max(0, 4 - n) for n in seen]
