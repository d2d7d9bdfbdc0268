"""Helpers for the RL tests: what the environments return over a fixed play, hashed."""

from __future__ import annotations

import hashlib

import gymnasium
import numpy as np

import majiang.rl as rl


def digests() -> dict[str, str]:
    """Hashes of what the environments return over a fixed random play: VectorEnv,
    the AEC env, the parallel env and the Gymnasium env."""
    out: dict[str, str] = {}
    h = hashlib.sha256()
    venv = rl.VectorEnv("taizhou", 6, seed=4)
    step = venv.reset()
    gen = np.random.default_rng(4)
    for _ in range(150):
        for arr in step:
            h.update(np.ascontiguousarray(arr).tobytes())
        step = venv.step(np.argmax(gen.random(step.mask.shape) * step.mask, axis=1))
    out["vector"] = h.hexdigest()
    h = hashlib.sha256()
    env = rl.env("hangzhou")
    env.reset(seed=5)
    for agent in env.agent_iter(max_iter=400):
        obs, reward, term, trunc, _ = env.last()
        h.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        h.update(repr((agent, reward)).encode())
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
    out["aec"] = h.hexdigest()
    h = hashlib.sha256()
    par = rl.parallel_env("hongzhong")
    pobs, _ = par.reset(seed=6)
    for _ in range(60):
        if not par.agents:
            break
        for a in sorted(pobs):
            h.update(pobs[a]["observation"].tobytes() + pobs[a]["action_mask"].tobytes())
        acts = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in pobs.items()}
        pobs, *_ = par.step(acts)
    out["parallel"] = h.hexdigest()
    h = hashlib.sha256()
    genv = gymnasium.make("majiang/Guangdong-v1")
    gobs, _ = genv.reset(seed=7)
    for _ in range(80):
        h.update(gobs["observation"].tobytes() + gobs["action_mask"].tobytes())
        gobs, _r, term, trunc, _ = genv.step(int(np.flatnonzero(gobs["action_mask"])[0]))
        if term or trunc:
            gobs, _ = genv.reset()
    out["gym"] = h.hexdigest()
    return out
