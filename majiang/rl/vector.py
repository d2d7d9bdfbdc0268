"""``VectorEnv``: n tables in one process, stepped together, numpy in and out (docs/rl.md).

For self-play learners that want thousands of steps per second without subprocesses:
every table has one deciding seat at a time (as the AEC env asks them); ``step`` takes one
action index per table, for that seat, and returns the next deciding seats' stacked
observations and masks. A table whose episode ends starts the next one in the same step
(its ``dones`` entry is True and its ``rewards`` row holds the ended hand's deltas).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from majiang.errors import MajiangError, OptionError
from majiang.observation import Observation
from majiang.rl.actions import ACTION_COUNT
from majiang.rl.aec import _check_common
from majiang.rl.features import ACCELERATED, PLANES, copies_of, encode_batch
from majiang.rl.table import Table, seed_from
from majiang.values import Action

__all__ = ["VectorEnv", "VectorStep"]


class VectorStep(NamedTuple):
    """What ``reset`` and ``step`` return, one row per table (fresh arrays each call)."""

    obs: npt.NDArray[np.float32]
    """(n, PLANES, 34): the deciding seat's encoded observation (encoding v1)."""
    mask: npt.NDArray[np.int8]
    """(n, 217): its legal action mask."""
    seat: npt.NDArray[np.int64]
    """(n,): the seat deciding at each table."""
    rewards: npt.NDArray[np.float32]
    """(n, 4): each seat's reward from this step (a hand's deltas / ``reward_scale``)."""
    dones: npt.NDArray[np.bool_]
    """(n,): the table's episode ended in this step (and the next one started)."""


class VectorEnv:
    """``n`` tables of ``variant`` under room ``options``, stepped as one batch."""

    def __init__(
        self,
        variant: str,
        n: int,
        options: Mapping[str, object] | None = None,
        *,
        seed: int | None = None,
        episode: str = "hand",
        hands: int = 4,
        reward_scale: float = 1.0,
    ) -> None:
        if type(n) is not int or n < 1:
            raise OptionError(f"n (tables) must be an integer >= 1, got {n!r}")
        _check_common(reward_scale, None, None)
        self.tables = [Table(variant, options, episode=episode, hands=hands) for _ in range(n)]
        self.num_envs = n
        self.reward_scale = float(reward_scale)
        self._rng = random.Random(seed)
        self._copies = np.broadcast_to(
            copies_of(self.tables[0].variant.id, self.tables[0].options), (n, 34)
        )

    def reset(self, seed: int | None = None) -> VectorStep:
        """Start every table (seeded from ``seed``, else from the constructor's seed)."""
        if seed is not None:
            self._rng = random.Random(seed)
        for t in self.tables:
            t.start(seed_from(self._rng))
        n = self.num_envs
        return self._batch(np.zeros((n, 4), np.float32), np.zeros(n, np.bool_))

    def observations(self) -> list[Observation]:
        """The deciding seats' engine observations (for a teacher bot, a debugger)."""
        return [t.observation() for t in self.tables]

    def _batch(
        self, rewards: npt.NDArray[np.float32], dones: npt.NDArray[np.bool_]
    ) -> VectorStep:
        tables = self.tables
        n = self.num_envs
        mask = np.zeros((n, ACTION_COUNT), dtype=np.int8)
        if ACCELERATED:
            obs = np.empty((n, PLANES, 34), dtype=np.float32)
            for i, t in enumerate(tables):
                t.write(obs, mask, i)
        else:  # the pure Python encoder is quicker over the whole batch at once
            obs = encode_batch([t.observation() for t in tables], copies=self._copies)
            for i, t in enumerate(tables):
                mask[i, t.legal()] = 1
        seats = np.array([t.seat for t in tables], dtype=np.int64)
        return VectorStep(obs, mask, seats, rewards, dones)

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer]) -> VectorStep:
        """One action index per table, for its deciding seat. Every action is checked
        before any is applied (``IllegalActionError`` naming the table; nothing changes)."""
        tables = self.tables
        n = self.num_envs
        if len(actions) != n:
            raise OptionError(f"step takes {n} actions (one per table), got {len(actions)}")
        acts = actions.tolist() if isinstance(actions, np.ndarray) else list(actions)
        chosen: list[tuple[Action, bool]] = []  # with: is it the engine's listed action?
        for i, (t, a) in enumerate(zip(tables, acts, strict=True)):
            legal = t._legal  # loaded by the last _batch, with the engine's listed actions
            listed = t._actions
            if legal is not None and listed is not None and type(a) is int:
                try:
                    chosen.append((listed[legal.index(a)], True))
                    continue
                except ValueError:
                    pass
            try:
                chosen.append((t.action(t.seat, t.check(t.seat, a)), False))
            except MajiangError as exc:
                raise type(exc)(f"table {i}: {exc}") from None
        rewards = np.zeros((n, 4), np.float32)
        dones = np.zeros(n, np.bool_)
        scale = self.reward_scale
        for i, (t, (action, is_listed)) in enumerate(zip(tables, chosen, strict=True)):
            deltas = t.apply(action, listed=is_listed)
            if deltas is not None:
                rewards[i] = [d / scale for d in deltas]
            if t.done:
                dones[i] = True
                t.start(seed_from(self._rng))
        return self._batch(rewards, dones)

    @property
    def observation_shape(self) -> tuple[int, int]:
        """One table's observation shape, ``(PLANES, 34)``."""
        return (PLANES, 34)
