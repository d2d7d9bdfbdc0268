"""PettingZoo environments: the AEC game (one seat at a time) and its parallel form.

``env("guangdong")`` is the AEC environment wrapped in PettingZoo's order-enforcing
wrapper (as PettingZoo's own ``env()`` functions do); ``raw_env`` is the class itself;
``parallel_env`` asks every seat of a moment at once (a claim window's claimants decide
together; the others' masks hold only ``pass``, which changes nothing). docs/rl.md.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from majiang.errors import IllegalActionError, OptionError
from majiang.rl.actions import ACTION_COUNT, PASS
from majiang.rl.features import (
    ACCELERATED,
    ENCODING_VERSION,
    PLANES,
    copies_of,
    encode_batch,
)
from majiang.rl.table import Table, seed_from

__all__ = ["AGENTS", "MajiangAECEnv", "MajiangParallelEnv", "env", "parallel_env", "raw_env"]

AGENTS = ("player_0", "player_1", "player_2", "player_3")
"""The agents, seat 0 to seat 3 (seat 0 is East of the match's seating, not the dealer)."""

_SEATS = {a: s for s, a in enumerate(AGENTS)}

Obs = dict[str, npt.NDArray[Any]]


def observation_space() -> spaces.Dict:
    """The observation of one agent: ``observation`` (encoding v1) and ``action_mask``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (PLANES, 34), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), dtype=np.int8),
        }
    )


def _check_common(reward_scale: float, max_cycles: int | None, render_mode: str | None) -> None:
    if isinstance(reward_scale, bool) or not isinstance(reward_scale, int | float) or not (
        reward_scale > 0
    ):
        raise OptionError(f"reward_scale must be a number > 0, got {reward_scale!r}")
    if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
        raise OptionError(f"max_cycles must be None or an integer >= 1, got {max_cycles!r}")
    if render_mode not in (None, "ansi", "human"):
        raise OptionError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")


def render_table(table: Table) -> str:
    """The table as text, as a spectator sees it (no concealed tile), for ``render``."""
    if table.match is None:
        return "(not started)"
    obs = table.state.public_observation()
    from majiang.tiles import NOTATION

    lines = [f"{obs.variant} hand {table.played + 1}, dealer seat {obs.dealer}, "
             f"{obs.live} tiles left, phase {obs.phase}"]
    for s in range(4):
        melds = " ".join("".join(NOTATION[t] for t in m.tiles) or "[kong]" for m in obs.melds[s])
        river = " ".join(NOTATION[t] for t in obs.discards[s])
        mark = "*" if s == table.seat else " "
        lines.append(f"{mark}seat {s}: {obs.hand_sizes[s]:2d} tiles | {melds} | {river}")
    if table.state.result_ is not None:
        lines.append(f"result: deltas {table.state.result_.deltas}")
    return "\n".join(lines)


class MajiangAECEnv(AECEnv):  # type: ignore[misc]
    """A variant's hand (or match) as a PettingZoo AEC game, one deciding seat at a time.

    Rewards are the engine's per-step ``rewards()`` divided by ``reward_scale``: zero on
    every step but the one that ends a hand, which pays each seat its delta. Illegal
    actions raise ``IllegalActionError`` and change nothing.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's convention; names per variant)
        "render_modes": ["ansi", "human"],
        "name": "majiang_v1",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str,
        options: Mapping[str, object] | None = None,
        render_mode: str | None = None,
        *,
        episode: str = "hand",
        hands: int = 4,
        reward_scale: float = 1.0,
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        _check_common(reward_scale, max_cycles, render_mode)
        self.table = Table(variant, options, episode=episode, hands=hands)
        self.metadata = {**self.metadata, "name": f"majiang_{variant}_v{ENCODING_VERSION}"}
        self.render_mode = render_mode
        self.reward_scale = float(reward_scale)
        self.max_cycles = max_cycles
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        space = observation_space()
        self.observation_spaces = dict.fromkeys(AGENTS, space)
        self.action_spaces = dict.fromkeys(AGENTS, spaces.Discrete(ACTION_COUNT))
        self._rng = random.Random()
        self._rewarded = False
        """Does ``rewards`` hold a paying step's values (else every entry is zero)?"""
        self._plain = max_cycles is None and render_mode != "human"
        """No step truncates and none renders: ``step`` may take its short path."""
        self.agent_selection = AGENTS[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space for every agent (``observation_space()``)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(217)`` for every agent and variant (docs/rl.md, the action table)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode, dealt from ``seed`` (the same seed, the same deal and play);
        ``options`` is accepted for the API and unused (room options are fixed at
        construction)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.table.start(seed_from(self._rng))
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self._rewarded = False
        self.agent_selection = AGENTS[self.table.seat]

    def observe(self, agent: str) -> Obs | None:
        """``agent``'s observation: its encoded view and its legal action mask (all zeros
        while it has nothing to decide); fresh arrays on every call."""
        table = self.table
        if table.match is None:
            return None
        obs, mask = table.view(_SEATS[agent])
        return {"observation": obs, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (as ``observe``), cumulative reward, flags and
        info: AECEnv's ``last`` with ``observe`` read inline (one call less per step)."""
        agent = self.agent_selection
        obs: Obs | None = None
        if observe and self.table.match is not None:
            planes, mask = self.table.view(_SEATS[agent])
            obs = {"observation": planes, "action_mask": mask}
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        """The selected agent's action (an index of the action space)."""
        agent = self.agent_selection
        table = self.table
        if self._plain and not self._rewarded and not table.done:
            # the common step: no agent is done (nothing ends before the table does
            # without max_cycles), the last step paid nothing, and nothing is rendered
            deltas = table.play(action)  # checked first: an illegal action changes nothing
            self._cumulative_rewards[agent] = 0.0
            if deltas is None and not table.done:  # nothing paid; the next seat decides
                self.agent_selection = AGENTS[table.seat]
                return
            self._after_play(agent, deltas)
            return
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        deltas = table.play(action)  # checked first: an illegal action changes nothing
        self._cumulative_rewards[agent] = 0.0
        self._after_play(agent, deltas)

    def _after_play(self, agent: str, deltas: list[int] | None) -> None:
        """A step's rewards, flags and next agent, once the table has played it."""
        table = self.table
        rewards = self.rewards
        if deltas is not None:
            scale = self.reward_scale
            for s, d in enumerate(deltas):
                rewards[AGENTS[s]] = d / scale
            for a in AGENTS:
                self.infos[a] = {"deltas": deltas}
            self._rewarded = True
        elif self._rewarded:  # the last step paid: this one pays nothing
            self._clear_rewards()
            self._rewarded = False
        if table.done:
            for a in AGENTS:
                self.terminations[a] = True
        elif self.max_cycles is not None and table.moments >= self.max_cycles:
            for a in AGENTS:
                self.truncations[a] = True
        if self._rewarded:  # rewards are zero on every other step: nothing to add
            self._accumulate_rewards()
        if table.seat >= 0 and not self.truncations[agent]:
            self.agent_selection = AGENTS[table.seat]
        else:
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``ansi``), or printed (``human``)."""
        text = render_table(self.table)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class MajiangParallelEnv(ParallelEnv):  # type: ignore[misc]
    """The same game as a parallel environment: each step is one decision moment.

    The seats that decide at the moment (the turn's seat; a window's claimants) act
    together; every other agent's mask holds only ``pass`` and its action is ignored.
    ``infos[agent]["deciding"]`` says which agents decide. The episode truncates after
    ``max_cycles`` steps (with legal actions, the moments the AEC env counts). An illegal
    action raises, or with ``illegal="penalty"`` the step applies nothing and the
    refused agents get ``illegal_reward`` (``infos[agent]["illegal"]``).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's convention)
        "render_modes": ["ansi", "human"],
        "name": "majiang_v1",
    }

    def __init__(
        self,
        variant: str,
        options: Mapping[str, object] | None = None,
        render_mode: str | None = None,
        *,
        episode: str = "hand",
        hands: int = 4,
        reward_scale: float = 1.0,
        max_cycles: int | None = None,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        _check_common(reward_scale, max_cycles, render_mode)
        if illegal not in ("raise", "penalty"):
            raise OptionError(f"illegal must be 'raise' or 'penalty', got {illegal!r}")
        self.table = Table(variant, options, episode=episode, hands=hands)
        self.metadata = {**self.metadata, "name": f"majiang_{variant}_v{ENCODING_VERSION}"}
        self.render_mode = render_mode
        self.reward_scale = float(reward_scale)
        self.max_cycles = max_cycles
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.cycles = 0
        """Steps taken in this episode (``max_cycles`` counts them)."""
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self._space = observation_space()
        self._action = spaces.Discrete(ACTION_COUNT)
        self._rng = random.Random()
        self._copies = copies_of(self.table.variant.id, self.table.options)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same Dict space for every agent."""
        return self._space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """``Discrete(217)`` for every agent."""
        return self._action

    def _observe(self) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        table = self.table
        state = table.state
        deciding = set(table.waiting())
        if ACCELERATED:
            planes = np.empty((4, PLANES, 34), dtype=np.float32)
            for s in range(4):
                table.encode(s, planes, s)
        else:  # the pure Python encoder is quicker over the four views at once
            views = [state.observation(s) for s in range(4)]
            planes = encode_batch(views, copies=np.broadcast_to(self._copies, (4, 34)))
        obs: dict[str, Obs] = {}
        infos: dict[str, dict[str, Any]] = {}
        for s, a in enumerate(AGENTS):
            if s in deciding:
                mask = table.mask(s)
            else:
                mask = np.zeros(ACTION_COUNT, dtype=np.int8)
                mask[PASS] = 1
            obs[a] = {"observation": planes[s], "action_mask": mask}
            infos[a] = {"deciding": s in deciding}
        return obs, infos

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        """A new episode dealt from ``seed``; ``options`` accepted and unused."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.table.start(seed_from(self._rng))
        self.agents = list(AGENTS)
        self.cycles = 0
        return self._observe()

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Every deciding agent's action (others' are ignored); all are checked before
        any is applied, so a rejected step changes nothing."""
        table = self.table
        group = table.waiting()
        chosen = []
        refused = []
        for s in group:
            agent = AGENTS[s]
            if agent not in actions:
                raise OptionError(f"{agent} decides now and has no action in the step")
            try:
                chosen.append((s, table.check(s, actions[agent])))
            except IllegalActionError:
                if self.illegal == "raise":
                    raise
                refused.append(agent)
        rewards = dict.fromkeys(AGENTS, 0.0)
        self.cycles += 1
        if refused:  # nothing is applied; the refused agents pay the penalty
            for agent in refused:
                rewards[agent] = self.illegal_reward
            chosen = []
        for s, index in chosen:
            deltas = table.act(s, index)
            if deltas is not None:
                for seat, d in enumerate(deltas):
                    rewards[AGENTS[seat]] += d / self.reward_scale
                if table.done or table.seat < 0:
                    break
        if table.done:
            obs, infos = self._observe()
            for a in AGENTS:
                obs[a]["action_mask"][:] = 0
            terminations = dict.fromkeys(AGENTS, True)
            truncations = dict.fromkeys(AGENTS, False)
            self.agents = []
        else:
            obs, infos = self._observe()
            for agent in refused:
                infos[agent]["illegal"] = True
            terminations = dict.fromkeys(AGENTS, False)
            cut = self.max_cycles is not None and self.cycles >= self.max_cycles
            truncations = dict.fromkeys(AGENTS, cut)
            if cut:
                self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The table as text (``ansi``), or printed (``human``)."""
        text = render_table(self.table)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


_BEFORE_RESET = frozenset(
    {"rewards", "terminations", "truncations", "infos", "agent_selection", "agents"}
)


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper with the reads of every step (``last``,
    ``agent_iter``, ``step``, ``agent_selection`` …) going straight to the environment
    instead of through two ``__getattr__`` forwards each; the same checks and errors."""

    def __getattr__(self, name: str) -> Any:
        """The environment's attribute; AttributeError for per-episode data before reset."""
        if name in _BEFORE_RESET and not self.__dict__.get("_has_reset", False):
            raise AttributeError(f"{name} cannot be accessed before reset")
        if name.startswith("_") and name != "_cumulative_rewards":
            raise AttributeError(f"accessing private attribute '{name}' is prohibited")
        env = self.__dict__.get("env")
        if env is None:  # not wrapped yet (mid-construction, mid-unpickling)
            raise AttributeError(name)
        return getattr(env, name)

    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation, cumulative reward, flags and info (before the
        first reset only: ``reset`` binds the environment's own ``last`` in its place)."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """PettingZoo's reset; from then on ``last`` is the environment's own (an instance
        attribute shadows the method: one call less on every step, the same result)."""
        super().reset(seed=seed, options=options)
        self.__dict__["last"] = self.env.last

    def step(self, action: int | None) -> None:
        """The selected agent's action (PettingZoo's checks: reset first; a warning once
        every agent is done)."""
        env = self.env
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        """The selected agent, step after step (``step`` or ``reset`` between)."""
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _Iterable(self, max_iter)


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing iterator, reading the environment directly."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection  # type: ignore[no-any-return]


def raw_env(variant: str, options: Mapping[str, object] | None = None,
            render_mode: str | None = None, **kwargs: Any) -> MajiangAECEnv:
    """The unwrapped AEC environment (``MajiangAECEnv``)."""
    return MajiangAECEnv(variant, options, render_mode, **kwargs)


def env(variant: str, options: Mapping[str, object] | None = None,
        render_mode: str | None = None, **kwargs: Any) -> AECEnv:
    """The AEC environment of ``variant`` under room ``options``, in PettingZoo's
    order-enforcing wrapper. Keywords: ``episode`` ("hand" or "match"), ``hands`` (per
    match episode), ``reward_scale``, ``max_cycles``."""
    return OrderEnforcing(raw_env(variant, options, render_mode, **kwargs))


def parallel_env(variant: str, options: Mapping[str, object] | None = None,
                 render_mode: str | None = None, **kwargs: Any) -> MajiangParallelEnv:
    """The parallel environment of ``variant`` (the same keywords as ``env``)."""
    return MajiangParallelEnv(variant, options, render_mode, **kwargs)


def variant_functions(
    variant: str,
) -> tuple[Callable[..., AECEnv], Callable[..., MajiangAECEnv],
           Callable[..., MajiangParallelEnv]]:
    """``env``, ``raw_env`` and ``parallel_env`` of one variant, for the versioned
    modules (``majiang.rl.majiang_guangdong_v1``)."""
    return (
        functools.partial(env, variant),
        functools.partial(raw_env, variant),
        functools.partial(parallel_env, variant),
    )
