"""Bots: each sees only its observation and its legal actions (DESIGN.md).

Write your own in a few lines::

    class TsumogiriBot:
        name = "tsumogiri"

        def act(self, observation, legal):
            drawn = observation["drawn"]
            for action in legal:
                if action.type == "discard" and action.tile == drawn:
                    return action
            return legal[-1]  # pass, or the last discard

and pass it wherever a bot is taken (``play_hand``, ``arena``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from majiang.bots.greedy import GreedyBot
from majiang.engine.state import Action, HandState

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot", "play_hand"]


class Bot(Protocol):
    """Anything that picks one of the legal actions from an observation."""

    name: str

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """The chosen action; it must be one of ``legal``."""
        ...


class RandomBot:
    """A uniformly random legal action."""

    name = "random"
    observes = False
    """It never looks at the observation, so play_hand need not build one."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Any legal action, with equal chance."""
        return legal[int(self.rng.random() * len(legal))]


BOTS: dict[str, Callable[[random.Random], Bot]] = {"random": RandomBot, "greedy": GreedyBot}
"""Bot factories by name; each takes the injected random.Random."""


def make_bot(name: str, rng: random.Random) -> Bot:
    """A bot by name; ValueError naming those that exist."""
    try:
        return BOTS[name](rng)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOTS)}") from None


def play_hand(state: HandState, bots: Sequence[Bot]) -> int:
    """Play a hand to its end with one bot per seat; returns the number of decisions.

    Every seat in ``to_act`` is asked: in a claim window each undecided seat (those
    whose only choice is pass pass without being asked, :meth:`HandState.auto_pass`),
    in a turn first the seats that may declare an instant win, then the turn's seat.
    """
    decisions = 0
    acts = [bot.act for bot in bots]
    observes = [getattr(bot, "observes", True) for bot in bots]
    empty: dict[str, Any] = {}
    while state.result_ is None:
        if state.phase != "turn":
            state.auto_pass()
            if state.phase == "turn" or state.result_ is not None:
                continue
            seats = state.to_act()
        else:
            seats = state.to_act()[-1:]  # a seat declaring before the dealer's first discard
        for seat in seats:
            legal = state.legal_actions(seat)
            state.apply(acts[seat](state.observation(seat) if observes[seat] else empty, legal))
            decisions += 1
    return decisions
