"""A small numpy policy over encoding v1, its weights file, and the bot that plays it.

The network is a two-layer perceptron: the flattened ``(PLANES, 34)`` observation, one
hidden ReLU layer, 217 logits; the mask keeps only legal actions. ``examples/rl/train.py``
trains one; ``Policy.save`` writes it as ``majiang-policy/1`` (docs/rl.md):

an ``.npz`` archive (``numpy.savez_compressed``) with the arrays ``w1`` (inputs x hidden),
``b1`` (hidden), ``w2`` (hidden x 217), ``b2`` (217), all float32, and ``meta``: a JSON
string ``{"format": "majiang-policy/1", "encoding": 1, "actions": 217, "planes": 116,
"variant": ..., "hidden": ..., "trained": ...}``.

``PolicyBot`` plays it through ``majiang.bots`` (``make_bot("rl", rng)``: the weights
shipped in ``majiang/rl/weights/``, or the file named by ``MAJIANG_RL_WEIGHTS``), so a
trained agent can sit at ``majiang serve``'s tables and in ``arena()``.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from majiang.errors import MajiangError
from majiang.observation import Observation
from majiang.rl.actions import ACTION_COUNT, index_to_action, legal_indices
from majiang.rl.features import ENCODING_VERSION, PLANES, encode
from majiang.values import Action

__all__ = ["DEFAULT_WEIGHTS", "FORMAT", "Policy", "PolicyBot", "register"]

FORMAT = "majiang-policy/1"
"""The weights file's format id (its ``meta["format"]``)."""
DEFAULT_WEIGHTS = Path(__file__).parent / "weights" / "guangdong_v1.npz"
"""The weights ``make_bot("rl", rng)`` loads unless ``MAJIANG_RL_WEIGHTS`` names others."""
INPUTS = PLANES * 34
F32 = npt.NDArray[np.float32]


class PolicyError(MajiangError):
    """A weights file that is missing, malformed or made for another encoding."""


class Policy:
    """The two-layer perceptron: ``logits = relu(x @ w1 + b1) @ w2 + b2``."""

    def __init__(self, w1: F32, b1: F32, w2: F32, b2: F32, meta: Mapping[str, Any]) -> None:
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2
        self.meta = dict(meta)

    @classmethod
    def new(cls, hidden: int, seed: int, variant: str) -> Policy:
        """Fresh weights (He-initialised, seeded)."""
        gen = np.random.default_rng(seed)
        w1 = (gen.standard_normal((INPUTS, hidden)) * np.sqrt(2.0 / INPUTS)).astype(np.float32)
        w2 = (gen.standard_normal((hidden, ACTION_COUNT)) * np.sqrt(1.0 / hidden)).astype(
            np.float32
        )
        meta = {"format": FORMAT, "encoding": ENCODING_VERSION, "actions": ACTION_COUNT,
                "planes": PLANES, "variant": variant, "hidden": hidden}
        return cls(w1, np.zeros(hidden, np.float32), w2, np.zeros(ACTION_COUNT, np.float32), meta)

    def logits(self, obs: F32) -> F32:
        """Logits for a batch ``(n, PLANES, 34)`` (or one observation)."""
        x = obs.reshape(-1, INPUTS)
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        out: F32 = h @ self.w2 + self.b2
        return out

    def choose(self, obs: F32, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        """The highest-scoring legal index per row (masks ``(n, 217)``)."""
        z = self.logits(obs)
        z = np.where(mask.reshape(z.shape) > 0, z, -np.inf)
        picked: npt.NDArray[np.int64] = np.argmax(z, axis=1)
        return picked

    def save(self, path: str | Path) -> None:
        """Write ``majiang-policy/1`` (the module docstring)."""
        np.savez_compressed(
            path, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2,
            meta=np.array(json.dumps(self.meta, ensure_ascii=False)),
        )

    @classmethod
    def load(cls, path: str | Path) -> Policy:
        """Read ``majiang-policy/1``; PolicyError naming what is wrong."""
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in ("w1", "b1", "w2", "b2", "meta")}
        except (OSError, KeyError, ValueError) as exc:
            raise PolicyError(f"cannot read policy weights {str(path)!r}: {exc}") from None
        meta = json.loads(str(arrays["meta"]))
        if meta.get("format") != FORMAT:
            raise PolicyError(f"{path}: format {meta.get('format')!r}, expected {FORMAT!r}")
        if meta.get("encoding") != ENCODING_VERSION or meta.get("actions") != ACTION_COUNT:
            raise PolicyError(
                f"{path}: made for encoding v{meta.get('encoding')} with {meta.get('actions')} "
                f"actions; this majiang has v{ENCODING_VERSION} with {ACTION_COUNT}"
            )
        w1, b1, w2, b2 = (arrays[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2"))
        hidden = w1.shape[1] if w1.ndim == 2 else -1
        if w1.shape != (INPUTS, hidden) or b1.shape != (hidden,) or w2.shape != (
            hidden, ACTION_COUNT) or b2.shape != (ACTION_COUNT,):
            raise PolicyError(f"{path}: array shapes do not fit {INPUTS} -> hidden -> "
                              f"{ACTION_COUNT}")
        return cls(w1, b1, w2, b2, meta)


_loaded: dict[str, Policy] = {}


def _policy(path: str | Path) -> Policy:
    key = str(path)
    policy = _loaded.get(key)
    if policy is None:
        policy = _loaded[key] = Policy.load(path)
    return policy


class PolicyBot:
    """A trained policy as a ``majiang.bots`` bot: encodes its observation, takes the
    legal action with the highest logit (deterministic; the rng is unused)."""

    name = "rl"

    def __init__(self, rng: random.Random, policy: Policy | None = None) -> None:
        self.rng = rng
        if policy is None:
            policy = _policy(os.environ.get("MAJIANG_RL_WEIGHTS") or DEFAULT_WEIGHTS)
        self.policy = policy

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """The policy's choice among ``legal``."""
        idx = legal_indices(legal, observation.window_tile, observation.wild)
        if len(idx) != len(legal):  # an action outside the space (never offered today)
            return legal[0]
        z = self.policy.logits(encode(observation))[0]
        best = idx[int(np.argmax(z[idx]))]
        return index_to_action(best, observation)


def register(path: str | Path, name: str = "rl") -> None:
    """Seat the policy in ``path`` as bot ``name`` in ``majiang.bots.BOTS`` (the arena,
    ``majiang simulate``, the server's tables)."""
    from majiang.bots import BOTS

    policy = Policy.load(path)
    BOTS[name] = lambda rng: PolicyBot(rng, policy)
