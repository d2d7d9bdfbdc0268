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

from majiang.bots.greedy import GreedyBot, Shapes, _sh
from majiang.hand.analysis import is_sets
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


class GreedyPlusBot(GreedyBot):
    """Greedy with its variant's value and a measured defence (``PlayHints``)."""

    name = "greedy+"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self._hints: dict[str, PlayHints] = {}

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
        if first.type == "hu" and hints.wild_chain and observation.phase == Phase.TURN:
            throw = self._chain(observation, legal)
            if throw is not None:
                return throw
        return super().act(observation, legal)

    def _chain(self, obs: Observation, legal: Sequence[Action]) -> Action | None:
        """The discard of a drawn wild that leaves a hand winning on any tile (sets and one
        wild), if there is one: 飘 doubles the next self-draw (RULES.md 2.4)."""
        wild = obs.wild
        if wild is None or obs.drawn != wild or obs.live < 8:
            return None
        hand = list(obs.hand)
        if hand.count(wild) < 2:
            return None
        rest = list(hand)
        rest.remove(wild)
        rest.remove(wild)
        if not is_sets(rest, wild=wild):
            return None
        return next((a for a in legal if a.type == "discard" and a.tile == wild), None)

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
        if hints.defence <= 0 and not raw:
            return super()._turn(obs, legal, hand, wild, flags)
        discards = [a for a in legal if a.type == "discard"]
        if not discards:
            return legal[-1]
        safe = [a for a in discards if a.tile != wild] or discards
        shs: dict[int, int] = {}
        for a in safe:
            assert a.tile is not None
            if a.tile not in shs:
                rest = list(hand)
                rest.remove(a.tile)
                shs[a.tile] = _sh(rest, wild, flags)
        low = min(shs.values())
        for a in legal:
            if a.type == "kong" and not a.tiles:
                rest = [t for t in hand if t != a.tile]
                if len(rest) % 3 == 1 and _sh(rest, wild, flags) <= low:
                    return a
        unseen = self._unseen(obs, hand)
        risk = self._risks(obs, shs, unseen, hints, raw)
        seat_threat = max(threats(obs)) if hints.defence > 0 else 0.0
        if low >= 2 and seat_threat >= FOLD_THREAT:
            # far from ready against a ready-looking seat: throw the safest tile
            return min(safe, key=lambda a: (risk[a.tile or 0], shs[a.tile or 0]))
        best = [a for a in safe if shs[a.tile or 0] == low]
        pairs = []
        for a in best:
            rest = list(hand)
            rest.remove(a.tile or 0)
            pairs.append((a, rest))
        if len(pairs) > 6:
            pairs.sort(key=lambda pair: self._company(hand, pair[0].tile))
            pairs = pairs[:6]
        scored = self._gains(obs, hand, pairs, wild, flags, low)
        weight = max(hints.defence, 1.0 if raw else 0.0) * (3 if low <= 0 else 1)
        values = [(g - weight * risk[a.tile or 0], a) for g, a in scored]
        top = max(v for v, _ in values)
        choices = [a for v, a in values if v == top]
        return choices[self.rng.randrange(len(choices))]

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
