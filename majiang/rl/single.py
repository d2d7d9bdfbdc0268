"""Gymnasium: one seat learns, the other three are bots (``majiang/Guangdong-v1`` …).

Registered on ``import majiang.rl``; ``gymnasium.make("majiang/Hangzhou-v1",
opponents=["greedy"] * 3, seat=2)``. Works under ``gymnasium.vector.SyncVectorEnv`` and
``AsyncVectorEnv``. docs/rl.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
from gymnasium import spaces

from majiang.bots import Bot, make_bot
from majiang.errors import IllegalActionError, OptionError
from majiang.rl.actions import ACTION_COUNT
from majiang.rl.aec import Obs, _check_common, observation_space, render_table
from majiang.rl.table import Table

__all__ = ["ILLEGAL", "MajiangGymEnv"]

ILLEGAL = ("raise", "penalty")
"""What an action outside the mask does: raise ``IllegalActionError``, or (``penalty``)
return reward ``illegal_reward`` with ``info["illegal"]`` True; nothing changes either way
(the same observation comes back)."""


class MajiangGymEnv(gymnasium.Env[Obs, int]):
    """A single-agent hand (or match) of one variant: the learner sits at ``seat``.

    Each step is one of the learner's decisions; the bots named in ``opponents`` play
    every other decision in between. The reward is the learner's delta when a hand ends
    (divided by ``reward_scale``), 0 otherwise.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"]}  # noqa: RUF012

    def __init__(
        self,
        variant: str,
        options: Mapping[str, object] | None = None,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        render_mode: str | None = None,
        *,
        episode: str = "hand",
        hands: int = 4,
        reward_scale: float = 1.0,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        _check_common(reward_scale, None, render_mode)
        names = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
        if len(names) != 3 or not all(isinstance(n, str) for n in names):
            raise OptionError(f"opponents must be a bot name or three of them, got {opponents!r}")
        for n in names:
            make_bot(n, random.Random(0))  # ValueError naming the bots if unknown
        if type(seat) is not int or not 0 <= seat <= 3:
            raise OptionError(f"seat must be 0-3, got {seat!r}")
        if illegal not in ILLEGAL:
            raise OptionError(f"illegal must be one of {', '.join(ILLEGAL)}, got {illegal!r}")
        self.table = Table(variant, options, episode=episode, hands=hands)
        self.opponents = names
        self.seat = seat
        self.render_mode = render_mode
        self.reward_scale = float(reward_scale)
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.observation_space = observation_space()  # type: ignore[assignment]
        self.action_space = spaces.Discrete(ACTION_COUNT)  # type: ignore[assignment]
        self._bots: list[Bot | None] = [None] * 4

    def _obs(self) -> Obs:
        table = self.table
        obs, mask = table.view(self.seat)
        if table.seat != self.seat:  # the episode is over: the last view, nothing to decide
            mask[:] = 0
        return {"observation": obs, "action_mask": mask}

    def _play_others(self) -> float:
        """Bots decide until the learner must (or the episode ends); the learner's
        rewards on the way."""
        table = self.table
        reward = 0.0
        while table.seat >= 0 and table.seat != self.seat:
            s = table.seat
            bot = self._bots[s]
            assert bot is not None
            obs = table.observation()
            deltas = table.apply(bot.act(obs, obs.legal))
            if deltas is not None:
                reward += deltas[self.seat] / self.reward_scale
        return reward

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """A new episode from ``seed`` (deal, bots' choices and all); ``options`` unused."""
        super().reset(seed=seed)
        draws = self.np_random.integers(0, 2**63 - 1, size=5)
        rngs = [random.Random(int(x)) for x in draws[1:]]
        self._bots = [
            None if s == self.seat else make_bot(self.opponents[(s - self.seat - 1) % 4], rngs[s])
            for s in range(4)
        ]
        self.table.start(int(draws[0]))
        self._play_others()
        while self.table.done and self.table.seat < 0:
            # a hand the learner never decided in (won at once by another seat): deal again
            self.table.start(int(self.np_random.integers(0, 2**63 - 1)))
            self._play_others()
        return self._obs(), {"seat": self.seat}

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """The learner's action index; the bots then play up to its next decision."""
        table = self.table
        try:
            index = table.check(self.seat, action)
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            return self._obs(), self.illegal_reward, table.done, False, {"illegal": True}
        deltas = table.act(self.seat, index)
        reward = 0.0 if deltas is None else deltas[self.seat] / self.reward_scale
        reward += self._play_others()
        info: dict[str, Any] = {}
        if table.done:
            info["deltas"] = list(table.state.result().deltas)
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, table.done, False, info

    def render(self) -> str | None:
        """The table as text (``ansi``), or printed (``human``)."""
        text = render_table(self.table)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def gym_id(variant: str) -> str:
    """The Gymnasium id of a variant: ``majiang/Guangdong-v1``."""
    return f"majiang/{variant.capitalize()}-v1"


def register_all(variants: Sequence[str]) -> None:
    """Register ``majiang/<Variant>-v1`` for each variant (done on ``import majiang.rl``)."""
    for v in variants:
        if gym_id(v) not in gymnasium.registry:
            gymnasium.register(
                id=gym_id(v), entry_point="majiang.rl.single:MajiangGymEnv", kwargs={"variant": v}
            )
