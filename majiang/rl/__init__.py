"""Reinforcement-learning environments for the five variants (extra ``rl``; docs/rl.md).

- PettingZoo: ``env(variant)`` (AEC, one seat at a time), ``raw_env``, ``parallel_env``;
  the same per variant as modules ``majiang.rl.majiang_guangdong_v1`` and so on.
- Gymnasium: ``majiang/Guangdong-v1``, ``majiang/Hangzhou-v1``, ``majiang/Hainan-v1``,
  ``majiang/Hongzhong-v1``, ``majiang/Taizhou-v1``, registered on import (the other seats
  played by bots).
- ``VectorEnv(variant, n)``: n tables in one process, stacked numpy arrays.
- The action space (``ACTION_COUNT`` = 217 indexes, ``index_to_action`` /
  ``action_to_index``) and observation encoding v1 (``encode``, ``PLANES`` x 34).

Everything an agent receives is built from the engine's ``Observation`` of its seat,
so it holds nothing that seat may not know.
"""

from __future__ import annotations

from majiang.rl.actions import (
    ACTION_COUNT,
    ACTION_NAMES,
    action_to_index,
    index_to_action,
    legal_indices,
)
from majiang.rl.aec import AGENTS, MajiangAECEnv, MajiangParallelEnv, env, parallel_env, raw_env
from majiang.rl.features import BUILTIN, ENCODING_VERSION, PLANE_NAMES, PLANES, encode, encode_batch
from majiang.rl.single import MajiangGymEnv, gym_id, register_all
from majiang.rl.vector import VectorEnv, VectorStep

__all__ = [
    "ACTION_COUNT",
    "ACTION_NAMES",
    "AGENTS",
    "ENCODING_VERSION",
    "GYM_IDS",
    "PLANES",
    "PLANE_NAMES",
    "VARIANTS",
    "MajiangAECEnv",
    "MajiangGymEnv",
    "MajiangParallelEnv",
    "VectorEnv",
    "VectorStep",
    "action_to_index",
    "encode",
    "encode_batch",
    "env",
    "index_to_action",
    "legal_indices",
    "parallel_env",
    "raw_env",
]

VARIANTS = BUILTIN
"""The variants with environments (each has ``majiang_<variant>_v1`` and a Gymnasium id)."""
GYM_IDS = tuple(gym_id(v) for v in VARIANTS)
"""``majiang/Guangdong-v1`` …, registered with Gymnasium on import."""

register_all(VARIANTS)
