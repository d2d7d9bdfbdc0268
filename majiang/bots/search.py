"""search: determinized Monte Carlo from the seat's observation (issue 19).

At a decision the prior (greedy+) cannot settle by itself, the bot draws worlds behind
its observation (``majiang.engine.world``: the other hands and the wall from the tiles
it cannot see, consistent with everything it has seen), plays each candidate action out
to the end of the hand in every world with a fast policy, and scores the outcome with
the variant's own settlement (the hand's ``result().deltas``, so every pattern,
multiplier and liability of RULES.md counts). Every candidate meets the same worlds and
the same rollout seeds (common random numbers), so their difference is measured with the
luck of the deal taken out. It leaves the prior's choice only for a candidate whose mean
beats it by more than the noise of the paired differences.

It never reads hidden state: everything comes from ``observation`` and the bot's own
``random.Random``, so it is deterministic for a seed whenever the sample budget, not the
time budget, ends a search (docs/bots.md).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Literal

from majiang.bots.greedy import Shapes, claim_choice, company, each_discard, variant_shapes
from majiang.bots.plus import GreedyPlusBot, threats, tile_danger
from majiang.engine.state import HandState
from majiang.engine.world import sample_hidden, world_from_observation
from majiang.errors import MajiangError
from majiang.observation import Observation
from majiang.values import Action, Phase

__all__ = ["RolloutBot", "SearchBot", "rollout"]

SAMPLES = 12
"""Worlds drawn per searched decision at most."""
BUDGET = 0.08
"""Seconds a search may take before it stops drawing worlds (the default keeps a
decision within 100 ms on a 2-core machine)."""
MIN_SWITCH = 6
"""Worlds a search must have played to leave the prior's choice: with fewer, two
standard errors of a handful of rollouts are no evidence, and the prior is kept."""
NEAR = 1
"""A turn is searched only when the prior's discard leaves the hand this close to ready
(shanten): farther away, the rollouts cannot tell discards apart."""
TOP = 3
"""Discards searched at most: the prior's choice and the next best by shanten."""


class RolloutBot:
    """The fast policy of rollouts: every legal win, the discard that lowers shanten the
    most (the loneliest tile first), greedy's claims (those that lower shanten; without
    them the rollouts' other seats would play a slower game than real ones). It plays
    inside a world the searcher drew, so it reads that world's hands directly (blind:
    no observation is built)."""

    name = "rollout"
    observes: Literal[False] = False

    def __init__(self, state: HandState, flags: Shapes, claims: bool = True) -> None:
        self.state = state
        self.flags = flags
        self.claims = claims

    def act(self, observation: Observation | None, legal: Sequence[Action]) -> Action:
        """The rollout choice among ``legal``."""
        first = legal[0]
        if first.type == "hu" or len(legal) == 1:
            return first
        st = self.state
        hand = st.hand_tiles(first.seat)
        wild = st.wild
        if st.phase != Phase.TURN:
            tile = st.window_tile
            if not self.claims or tile is None:
                return legal[-1]  # pass
            return claim_choice(tile, legal, hand, wild, self.flags)
        low = 99
        ties: list[int] = []
        every = each_discard(hand, wild, self.flags)
        for t in set(hand):
            if t == wild:
                continue
            sh = every[t]
            if sh < low:
                low, ties = sh, [t]
            elif sh == low:
                ties.append(t)
        if ties:
            pick = min(ties, key=lambda t: (company(hand, t), t)) if len(ties) > 1 else ties[0]
            for a in legal:
                if a.type == "discard" and a.tile == pick:
                    return a
        return next((a for a in legal if a.type == "discard"), legal[-1])


def rollout(world: HandState, flags: Shapes, seat: int | None = None, seed: int = 0) -> None:
    """Play ``world`` to its end with the fast policy in every seat but ``seat``, which
    plays greedy+ (seeded by ``seed``): the searcher's own plan (a one-suit hand, its
    defence) goes on in the rollouts as it would at the table."""
    from majiang.bots import Bot, play_hand

    bots: list[Bot] = [RolloutBot(world, flags) for _ in range(4)]
    if seat is not None:
        own = GreedyPlusBot(random.Random(seed))
        own.lookahead = False  # its two-step worth costs ~10x a rollout decision
        bots[seat] = own
    play_hand(world, bots)


class SearchBot:
    """Determinized Monte Carlo over the prior's few best actions."""

    name = "search"

    def __init__(
        self,
        rng: random.Random,
        samples: int = SAMPLES,
        budget: float | None = BUDGET,
        own_plan: bool = True,
    ) -> None:
        self.rng = rng
        self.samples = samples
        self.budget = budget
        self.prior = GreedyPlusBot(rng)
        self.own_plan = own_plan
        self.searched = 0
        """Decisions that were searched (the rest were the prior's alone)."""
        self.changed = 0
        """Searched decisions where the search left the prior's choice."""
        self.worlds = 0
        """Worlds played out over all searched decisions (the budget's yield)."""

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """The searched choice among ``legal``, or the prior's where there is nothing to
        search."""
        start = time.perf_counter()
        choice = self.prior.act(observation, legal)
        if len(legal) == 1 or choice.type == "hu":
            return choice
        cands = self.candidates(observation, legal, choice)
        if len(cands) < 2:
            return choice
        seed = self.rng.getrandbits(63)
        try:
            best = self._search(observation, cands, seed, start)
        except MajiangError:
            return choice  # a world the observation does not pin down: keep the prior
        self.searched += 1
        if best is not choice:
            self.changed += 1
        return best

    def candidates(self, obs: Observation, legal: Sequence[Action], choice: Action) -> list[Action]:
        """The actions worth searching, the prior's first: every choice of a claim window
        (its wins, claims and the pass); in a turn, up to ``TOP`` discards tied with the
        prior's on shanten, and a kong."""
        if obs.phase != Phase.TURN:
            return [choice, *[a for a in legal if a != choice]]
        wild = obs.wild
        flags = variant_shapes(obs.variant)
        seat = obs.seat
        if seat is not None and obs.melds[seat]:
            flags = flags._replace(seven_pairs=False, thirteen_orphans=False)
        hand = list(obs.hand)
        scored: list[tuple[int, int, Action]] = []
        seen: set[int | None] = {choice.tile} if choice.type == "discard" else set()
        low = 99
        every = each_discard(hand, wild, flags)
        for a in legal:
            if a.type != "discard" or a.tile in seen or a.tile == wild or a.tile is None:
                continue
            seen.add(a.tile)
            sh = every[a.tile]
            low = min(low, sh)
            scored.append((sh, company(hand, a.tile), a))
        mine = every[choice.tile] if choice.type == "discard" and choice.tile is not None else low
        if mine > NEAR or mine > low:
            # far from ready, or the prior chose a slower tile on purpose (a one-suit
            # hand, a fold): a plan the rollouts' fast policy would not follow
            return [choice]
        if self.prior.hints(obs.variant).defence > 0 and choice.tile is not None:
            # the rollouts' other hands are drawn at random, blind to what a seat's
            # discards say of its waits: search only discards no more dangerous than the
            # prior's (greedy+'s defence)
            th = threats(obs)
            unseen = self.prior._unseen(obs, hand)

            def danger(t: int) -> float:
                return sum(th[s] * tile_danger(obs, t, s, unseen) for s in range(4) if th[s] > 0)

            limit = danger(choice.tile) + 1e-9
            scored = [x for x in scored if x[2].tile is not None and danger(x[2].tile) <= limit]
        scored.sort(key=lambda x: (x[0], x[1]))
        out = [choice]
        out += [a for sh, _, a in scored if sh <= mine][: TOP - 1]
        out += [a for a in legal if a.type == "kong" and a != choice][:1]
        return out

    def _search(self, obs: Observation, cands: list[Action], seed: int, start: float) -> Action:
        """Mean final points of each candidate over common worlds; the prior's (first)
        unless another beats it by more than two standard errors of the paired
        difference."""
        seat = obs.seat
        assert seat is not None
        flags = variant_shapes(obs.variant)
        outcomes: list[list[int]] = [[] for _ in cands]
        for i in range(self.samples):
            if self.budget is not None and i >= 1:
                spent = time.perf_counter() - start
                if spent + spent / i > self.budget:
                    break  # the next world would end past the budget
                if i == 1 and spent * MIN_SWITCH > self.budget:
                    break  # too few worlds fit to leave the prior: keep it, save the time
            srng = random.Random(seed + i)
            hidden = sample_hidden(obs, srng)
            for j, action in enumerate(cands):
                late = i == 0 and j and self.budget is not None
                if late and time.perf_counter() - start > (self.budget or 0.0):
                    return cands[0]  # not even one world fits: the prior's choice
                world = world_from_observation(obs, hidden)
                world.apply(action)
                rollout(world, flags, seat if self.own_plan else None, seed + i)
                outcomes[j].append(world.result().deltas[seat])
        base = outcomes[0]
        self.worlds += len(base)
        best, best_gain = cands[0], 0.0
        if len(base) < MIN_SWITCH:
            return best
        for j in range(1, len(cands)):
            diffs = [x - y for x, y in zip(outcomes[j], base, strict=True)]
            n = len(diffs)
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else math.inf
            se = math.sqrt(var / n)
            if mean > 2 * se and mean > best_gain:
                best, best_gain = cands[j], mean
        return best
