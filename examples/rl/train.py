"""Train a small numpy policy on majiang.rl, then show it beats random in the duplicate arena.

    .venv/bin/pip install -e '.[rl]'
    .venv/bin/python examples/rl/train.py                      # guangdong, ~6 minutes
    .venv/bin/python examples/rl/train.py --minutes 1 --deals 100   # a quick look

How it learns (docs/rl.md, "The example"): ``VectorEnv`` plays n tables of self-play;
at every decision the greedy bot's choice is the label (imitation with DAgger: the tables
follow the policy itself more and more, so it learns from the positions it reaches), and a
two-layer perceptron (``majiang.rl.policy.Policy``) is fitted by Adam on masked softmax
cross-entropy. Then ``register`` seats the weights as bot ``rl`` and
``majiang.bots.arena.arena`` plays every deal in all four seat rotations against three
random bots; the 95% confidence interval of the per-hand difference (rl minus the random
seats' mean) must lie above zero. The weights are written as ``majiang-policy/1``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

from majiang.bots import GreedyBot
from majiang.bots.arena import arena
from majiang.rl import ACTION_COUNT, PLANES, VectorEnv, action_to_index
from majiang.rl.policy import DEFAULT_WEIGHTS, Policy, register

INPUTS = PLANES * 34


class Adam:
    """Adam over a list of arrays, in place."""

    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.params, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1**self.t)
            vh = v / (1 - b2**self.t)
            p -= self.lr * mh / (np.sqrt(vh) + 1e-8)


def fit(policy: Policy, opt: Adam, x: np.ndarray, mask: np.ndarray, y: np.ndarray) -> float:
    """One Adam step of masked softmax cross-entropy on a minibatch; the loss."""
    x = x.reshape(len(x), INPUTS).astype(np.float32)
    pre = x @ policy.w1 + policy.b1
    h = np.maximum(pre, 0.0)
    z = h @ policy.w2 + policy.b2
    z = np.where(mask > 0, z, -1e9)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    n = len(y)
    loss = float(-np.log(p[np.arange(n), y] + 1e-12).mean())
    dz = p
    dz[np.arange(n), y] -= 1.0
    dz /= n
    gw2 = h.T @ dz
    gb2 = dz.sum(axis=0)
    dh = (dz @ policy.w2.T) * (pre > 0)
    gw1 = x.T @ dh
    gb1 = dh.sum(axis=0)
    opt.step([gw1, gb1, gw2, gb2])
    return loss


def train(args: argparse.Namespace) -> tuple[Policy, dict[str, float]]:
    """DAgger from the greedy bot on ``VectorEnv`` self-play, for ``args.minutes``."""
    venv = VectorEnv(args.variant, args.tables, seed=args.seed)
    policy = Policy.new(args.hidden, args.seed, args.variant)
    opt = Adam([policy.w1, policy.b1, policy.w2, policy.b2], args.lr)
    teacher = GreedyBot(random.Random(args.seed))
    rng = np.random.default_rng(args.seed)
    cap = args.buffer
    bx = np.zeros((cap, PLANES, 34), np.float16)
    bm = np.zeros((cap, ACTION_COUNT), np.int8)
    by = np.zeros(cap, np.int64)
    filled = write = 0
    out = venv.reset(seed=args.seed)
    start = time.perf_counter()
    budget = args.minutes * 60.0
    it = samples = 0
    losses: list[float] = []
    agree: list[float] = []
    while time.perf_counter() - start < budget:
        frac = (time.perf_counter() - start) / budget
        beta = max(0.0, 1.0 - 1.5 * frac)  # the teacher drives less and less
        observations = venv.observations()
        labels = np.array(
            [action_to_index(teacher.act(o, o.legal), o) for o in observations], np.int64
        )
        mine = policy.choose(out.obs, out.mask)
        agree.append(float((mine == labels).mean()))
        k = len(labels)
        idx = (np.arange(k) + write) % cap
        bx[idx], bm[idx], by[idx] = out.obs, out.mask, labels
        write = (write + k) % cap
        filled = min(cap, filled + k)
        samples += k
        follow = rng.random(k) < beta
        out = venv.step(np.where(follow, labels, mine))
        for _ in range(args.updates):
            pick = rng.integers(0, filled, size=args.batch)
            losses.append(fit(policy, opt, bx[pick], bm[pick], by[pick]))
        it += 1
        if it % 200 == 0:
            print(f"[{time.perf_counter() - start:6.0f} s] samples {samples:,}  "
                  f"loss {np.mean(losses[-200:]):.3f}  agreement with greedy "
                  f"{np.mean(agree[-200:]):.3f}  teacher share {beta:.2f}", flush=True)
    stats = {"seconds": time.perf_counter() - start, "samples": float(samples),
             "loss": float(np.mean(losses[-200:])), "agreement": float(np.mean(agree[-200:]))}
    policy.meta["trained"] = {
        "method": "DAgger imitation of the greedy bot, masked softmax cross-entropy, Adam",
        "tables": args.tables, "minutes": round(stats["seconds"] / 60, 2),
        "samples": samples, "seed": args.seed, "final_agreement": round(stats["agreement"], 3),
    }
    return policy, stats


def evaluate(path: Path, args: argparse.Namespace) -> dict[str, float]:
    """Duplicate arena, the policy against three random bots; the per-hand difference."""
    register(path, "rl")
    t0 = time.perf_counter()
    result = arena(args.variant, ["rl", "random", "random", "random"], args.deals,
                   seed=args.seed + 1)
    # the arena pools the three random seats into one score; its paired difference is the
    # policy's mean per hand less theirs, deal by deal (the hands of a deal are not
    # independent: the same tiles in four rotations), and its CI is over the deals
    mean, half = result.diff
    print(result.table())
    print(f"difference rl - random per hand: {mean:.2f}, 95% CI [{mean - half:.2f}, "
          f"{mean + half:.2f}] over {result.deals} deals, {result.hands} hands "
          f"({time.perf_counter() - t0:.0f} s)")
    return {"hands": result.hands, "rl_mean": result.scores[0].mean,
            "random_mean": result.scores[1].mean, "diff": mean, "ci_low": mean - half,
            "ci_high": mean + half}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="guangdong", help="variant to train on (guangdong)")
    p.add_argument("--minutes", type=float, default=5.0, help="training time (default 5)")
    p.add_argument("--tables", type=int, default=64, help="VectorEnv tables (default 64)")
    p.add_argument("--hidden", type=int, default=64, help="hidden units (default 64)")
    p.add_argument("--lr", type=float, default=1e-3, help="Adam step size (default 0.001)")
    p.add_argument("--batch", type=int, default=256, help="minibatch size (default 256)")
    p.add_argument("--updates", type=int, default=2, help="Adam steps per env step (2)")
    p.add_argument("--buffer", type=int, default=40_000, help="replay samples (40000)")
    p.add_argument("--deals", type=int, default=300,
                   help="arena deals, each in 4 seat rotations (default 300)")
    p.add_argument("--seed", type=int, default=0, help="seed of everything (default 0)")
    p.add_argument("--out", type=Path, default=Path("policy_guangdong_v1.npz"),
                   help="weights file to write (default ./policy_guangdong_v1.npz)")
    p.add_argument("--install", action="store_true",
                   help=f"also copy the weights to {DEFAULT_WEIGHTS} (make_bot('rl'))")
    args = p.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.2f}; training {args.variant} for "
          f"{args.minutes:g} min on {args.tables} tables", flush=True)
    t0 = time.perf_counter()
    policy, stats = train(args)
    policy.save(args.out)
    print(f"weights: {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    figures = evaluate(args.out, args)
    figures.update(stats)
    figures["total_seconds"] = time.perf_counter() - t0
    figures["load_average_after"] = os.getloadavg()[0]
    print(json.dumps(figures, indent=1))
    if args.install:
        DEFAULT_WEIGHTS.parent.mkdir(parents=True, exist_ok=True)
        policy.save(DEFAULT_WEIGHTS)
        print(f"installed as {DEFAULT_WEIGHTS}")
    clear = figures["ci_low"] > 0
    print("the policy beats random: 95% CI of the difference clear of zero" if clear
          else "NOT clear of zero")
    return 0 if clear else 1


if __name__ == "__main__":
    sys.exit(main())
