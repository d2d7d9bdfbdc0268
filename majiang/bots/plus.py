"""greedy+: the greedy bot told what its variant pays and punishes (issue 19).

Greedy plays for the fastest complete hand. greedy+ reads the variant's ``PlayHints``
(``majiang.rules.base``) and changes only the decisions where that speed costs points:

- defence, where discard wins are worth weighing: a discard that may be the winning
  tile of a seat that looks ready (many melds, many discards) costs in proportion to
  how ready that seat looks; hand progress still comes first unless the bot is far from
  ready and a seat looks ready, when it throws the safest tile it can;
- known kinds thrown in the raw-tile phase, where feeding a win with a kind nobody has
  discarded makes the discarder pay for everybody (taizhou 生牌, 5.5);
- a drawn wild thrown from a hand that wins on any tile, where the next self-draw is
  then worth twice as much (hangzhou 财飘, 2.4).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from majiang.bots.greedy import (
    GreedyBot,
    Shapes,
    claim_choice,
    company,
    discard_shanten,
    each_draw,
    kong_now,
)
from majiang.hand.analysis import any_tile_shape, is_pairs, waits
from majiang.observation import Observation
from majiang.rules import get_variant
from majiang.rules.base import PlayHints
from majiang.values import Action, MeldKind, Phase

__all__ = ["GreedyPlusBot", "threats", "tile_danger"]

FOLD_THREAT = 0.75
"""A seat looking at least this ready makes a hand two or more tiles from ready fold."""


RAW_COST = 6.0
"""What throwing a kind nobody has discarded costs in the raw-tile phase, in unseen
tiles of acceptance, before the readiness of the table is weighed."""


def threats(obs: Observation) -> list[float]:
    """How ready each other seat looks, 0-1, from what the table shows: its melds
    (each a set it no longer needs) and how long it has played (its discards)."""
    out = []
    for s in range(4):
        if s == obs.seat:
            out.append(0.0)
            continue
        turns = len(obs.discards[s]) + len(obs.melds[s])
        t = max(0.0, (turns - 4) / 10) + 0.2 * len(obs.melds[s])
        out.append(min(1.0, t))
    return out


def tile_danger(obs: Observation, tile: int, seat: int, unseen: Sequence[int]) -> float:
    """How likely ``tile`` completes a ready hand of ``seat``, 0-1, by shape: honors only
    by pairs (so by their unseen copies), middle numbers by the most sequences; a kind
    the seat threw itself is less likely a kind it waits on."""
    if tile >= 27:
        base = 0.15 * min(unseen[tile], 3)
    else:
        rank = tile % 9
        base = (0.6, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.6)[rank]
    if obs.wild is not None and base == 0.0:
        base = 0.1  # a wild pairs with anything
    if tile in obs.discards[seat]:
        base *= 0.3
    return base


FLUSH_LIVE = 20
"""A one-suit hand is chased only while at least this many tiles are live."""

TWO_STEP_SCALE = 4.0
"""A 1-shanten hand's two-step worth (draws times waits) over this is in the units of
acceptance, against which a discard's danger is weighed."""


CHAIN_LIVE = 6
"""A win is given up for a sure 爆头 only while this many tiles beyond the wall's end are
live: the other three seats draw, then this one must draw once more (RULES.md 2.2 D30)."""

CHAIN_SURVIVE = 0.7
"""The chance, guessed low, that nobody else wins before this seat's next draw: a win is
given up only for a sure next one worth more than this many times less."""


class GreedyPlusBot(GreedyBot):
    """Greedy with its variant's value and a measured defence (``PlayHints``)."""

    name = "greedy+"
    lookahead = True
    dead_first = True
    """At one from ready, weigh each discard by the waits its ready hands would keep."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self._hints: dict[str, PlayHints] = {}
        self._slack = 0
        self._melds = False

    def hints(self, variant: str) -> PlayHints:
        """The variant's ``PlayHints``, cached."""
        h = self._hints.get(variant)
        if h is None:
            h = self._hints[variant] = get_variant(variant).play
        return h

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """greedy's choice, changed where the variant's hints say it costs points."""
        first = legal[0]
        hints = self.hints(observation.variant)
        self._slack = hints.kong
        self._melds = hints.melds
        if first.type == "hu" and hints.wild_chain and observation.phase == Phase.TURN:
            throw = self._chain(observation, legal)
            if throw is not None:
                return throw
        return super().act(observation, legal)

    def _chain(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        """A hand that can win now: the discard that leaves it winning on any next tile
        (爆头 / 七客-ready: one wild and sets or pairs) when that sure win would pay at least
        twice this one: a plain win given up for 爆头 (G = 2), a 爆头 win for a 飘 (a wild
        thrown doubles it again); RULES.md 2.4."""
        wild = obs.wild
        seat = obs.seat
        if wild is None or seat is None or wild not in obs.hand:
            return None
        if obs.live < get_variant(obs.variant).draw_end_live + CHAIN_LIVE:
            return None
        hand = list(obs.hand)
        concealed = not obs.melds[seat]
        before = list(hand)
        if obs.drawn is not None:
            before.remove(obs.drawn)
        piao = 0  # the 飘 of the chain so far: wilds this seat threw since its last other tile
        for t in reversed(obs.discards[seat]):
            if t != wild:
                break
            piao += 1
        shape_now = 2 if concealed and is_pairs(hand, wild=wild) else 1
        g_now = any_tile_shape(before, wild, concealed)
        fan_now = max(shape_now, g_now * 2 << piao) if g_now else shape_now
        best: tuple[int, int] | None = None
        for a in legal:
            if a.type != "discard" or a.tile is None:
                continue
            rest = list(hand)
            rest.remove(a.tile)
            shape = any_tile_shape(rest, wild, concealed)
            if not shape:
                continue
            fan = shape * 2 << (piao + 1 if a.tile == wild else 0)
            if best is None or fan > best[0]:
                best = (fan, a.tile)
        if best is None or CHAIN_SURVIVE * best[0] <= fan_now:
            return None
        return next(a for a in legal if a.type == "discard" and a.tile == best[1])

    def _turn(
        self,
        obs: Observation,
        legal: Sequence[Action],
        hand: list[int],
        wild: int | None,
        flags: Shapes,
    ) -> Action:
        hints = self.hints(obs.variant)
        raw = hints.raw_tile_live is not None and obs.live <= hints.raw_tile_live
        discards = [a for a in legal if a.type == "discard"]
        if not discards:
            return legal[-1]
        safe = [a for a in discards if a.tile != wild] or discards
        shs = discard_shanten(hand, [a.tile or 0 for a in safe], wild, flags)
        low = min(shs.values())
        kong = kong_now(legal, hand, wild, flags, low + hints.kong)
        if kong is not None:
            return kong
        unseen = self._unseen(obs, hand)
        defend = hints.defence > 0 or raw
        risk = self._risks(obs, shs, unseen, hints, raw) if defend else dict.fromkeys(shs, 0.0)
        seat_threat = max(threats(obs)) if hints.defence > 0 else 0.0
        if low >= 2 and seat_threat >= FOLD_THREAT:
            # far from ready against a ready-looking seat: throw the safest tile
            return min(safe, key=lambda a: (risk[a.tile or 0], shs[a.tile or 0]))
        if hints.flush and obs.live >= FLUSH_LIVE:
            off = self._off_suit(obs, hand, wild, hints.flush)
            if off:
                throw = [a for a in safe if a.tile in off and shs[a.tile or 0] <= low + 1]
                if throw:
                    return min(
                        throw,
                        key=lambda a: (
                            shs[a.tile or 0],
                            risk[a.tile or 0],
                            company(hand, a.tile),
                        ),
                    )
        tiles = sorted({a.tile or 0 for a in safe if shs[a.tile or 0] == low})
        if len(tiles) == 1:
            return next(a for a in safe if a.tile == tiles[0])
        if len(tiles) > 6:
            tiles.sort(key=lambda t: company(hand, t))
            tiles = tiles[:6]
        pairs = []
        for t in tiles:
            rest = list(hand)
            rest.remove(t)
            pairs.append((t, rest))
        if low == 1 and self.lookahead:
            scored = [
                (self._two_step(obs, rest, wild, flags, unseen) / TWO_STEP_SCALE, t)
                for t, rest in pairs
            ]
        else:
            acts = [(next(a for a in safe if a.tile == t), rest) for t, rest in pairs]
            scored = [
                (float(g), a.tile or 0) for g, a in self._gains(obs, hand, acts, wild, flags, low)
            ]
        weight = max(hints.defence, 1.0 if raw else 0.0) * (3 if low <= 0 else 1)
        values = [(g - weight * risk[t], t) for g, t in scored]
        top = max(v for v, _ in values)
        choices = [t for v, t in values if v == top]
        if self.dead_first and len(choices) > 1:
            # of equal discards, the kind with the fewest unseen copies: the least likely
            # to complete another seat's pair, peng or kong
            fewest = min(unseen[t] for t in choices)
            choices = [t for t in choices if unseen[t] == fewest]
        pick = choices[self.rng.randrange(len(choices))]
        return next(a for a in safe if a.tile == pick)

    def _claim(
        self,
        tile: int,
        legal: Sequence[Action],
        hand: list[int],
        wild: int | None,
        flags: Shapes,
    ) -> Action:
        return claim_choice(tile, legal, hand, wild, flags, self._slack, self._melds)

    @staticmethod
    def _off_suit(obs: Observation, hand: list[int], wild: int | None, most: int) -> set[int]:
        """The held kinds outside the hand's main number suit, when a one-suit hand is
        still open (every meld in that suit or honors) and at most ``most`` tiles stand in
        its way; else nothing."""
        seat = obs.seat
        melds = obs.melds[seat] if seat is not None else ()
        count = [0, 0, 0]
        for t in hand:
            if t < 27 and t != wild:
                count[t // 9] += 1
        for m in melds:
            t = m.tiles[0]
            if t < 27:
                count[t // 9] += 3
        main = max(range(3), key=lambda s: count[s])
        if any(m.tiles[0] < 27 and m.tiles[0] // 9 != main for m in melds):
            return set()
        off = [t for t in hand if t < 27 and t != wild and t // 9 != main]
        if not off or len(off) > most:
            return set()
        return set(off)

    def _two_step(
        self,
        obs: Observation,
        rest: list[int],
        wild: int | None,
        flags: Shapes,
        unseen: list[int],
    ) -> float:
        """A 1-shanten hand's worth: over the unseen draws that make it ready, their
        copies times the widest wait (unseen winning tiles) the best discard then keeps."""
        total = 0.0
        sp, to, quads, numbers = flags
        near = self._near(obs, rest, wild, unseen)
        after = each_draw(rest, wild, flags, near)
        for k in near:
            rest.append(k)
            if -2 < after[k] <= 0:
                unseen[k] -= 1
                best = 0
                for e in set(rest):
                    if e == wild and len(set(rest)) > 1:
                        continue
                    rest.remove(e)
                    ws = waits(
                        rest,
                        wild=wild,
                        seven_pairs=sp,
                        thirteen_orphans=to,
                        quads_as_two_pairs=quads,
                        wild_numbers_only=numbers,
                    )
                    rest.append(e)
                    w = sum(unseen[x] for x in ws)
                    if w > best:
                        best = w
                unseen[k] += 1
                total += (unseen[k]) * best
            rest.remove(k)
        return total

    def _risks(
        self,
        obs: Observation,
        shs: dict[int, int],
        unseen: Sequence[int],
        hints: PlayHints,
        raw: bool,
    ) -> dict[int, float]:
        """Each candidate kind's expected cost in acceptance units: the chance it feeds a
        ready-looking seat, and in the raw-tile phase a large cost for a kind nobody has
        discarded (RULES.md 5.5 生牌)."""
        th = threats(obs) if hints.defence > 0 else [0.0] * 4
        known: set[int] = set()
        if raw:
            for pile in obs.discards:
                known.update(pile)
            for melds in obs.melds:
                for m in melds:
                    if m.source is not None and m.tiles:
                        known.add(m.tiles[0] if m.kind != MeldKind.CHI else -1)
        out = {}
        for t in shs:
            r = sum(th[s] * tile_danger(obs, t, s, unseen) for s in range(4) if th[s] > 0)
            if raw and t not in known:
                r += RAW_COST * (0.3 + max(th))
            out[t] = r
        return out
