"""Bot decisions off the server's event loop (issue 19; docs/bots.md, docs/scaling.md).

A room's driver runs on the event loop under the room's lock, so a bot that takes ~100 ms
a decision (``search``) run there would hold every other room and connection that long.
The rooms hand such decisions out instead (``Room.offload``, ``Outcome.ask``) and the hub
has them made here: the bot, its observation and legal actions go pickled to a worker
process (a pure-Python search in a thread would still hold the GIL the loop needs), and
the action comes back with the bot as it is after choosing, its rng moved on exactly as
if it had chosen in the room. The room applies it only if it is still where it asked.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import pickle
from collections.abc import Collection, Sequence
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor

from majiang.bots import Bot
from majiang.observation import Observation
from majiang.server.room import BotAsk
from majiang.values import Action

__all__ = ["OFF_LOOP", "BotPool", "default_bot_workers", "think"]

OFF_LOOP = frozenset({"search"})
"""Bots whose decisions leave the event loop; the others (random, greedy, greedy+: well
under a millisecond, bench/RESULTS.md) decide inline, where a hand-off would cost more."""


def default_bot_workers() -> int:
    """One worker per core but one, which the event loop keeps (at least one)."""
    return max(1, (os.cpu_count() or 2) - 1)


def think(payload: bytes) -> bytes:
    """A worker's job: ``pickle((bot, observation, legal))`` in, ``pickle((action, bot))``
    out, the bot as its choice left it."""
    bot: Bot
    observation: Observation
    legal: Sequence[Action]
    bot, observation, legal = pickle.loads(payload)
    action = bot.act(observation, legal)
    return pickle.dumps((action, bot), pickle.HIGHEST_PROTOCOL)


def decide_here(ask: BotAsk) -> tuple[Action, Bot]:
    """``ask`` decided in this thread, on a copy of its bot (what a worker does)."""
    payload = pickle.dumps((ask.bot, ask.observation, ask.legal), pickle.HIGHEST_PROTOCOL)
    action, bot = pickle.loads(think(payload))
    return action, bot


class BotPool:
    """The workers that make offloaded bot decisions: ``workers`` processes (started on
    the first decision, so a server whose rooms seat no such bot starts none), or threads
    with ``threads`` (bench/bench_server.py compares them); ``workers`` 0: none, every bot
    decides on the event loop as before. ``bots``: the bots whose decisions it makes."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        threads: bool = False,
        bots: Collection[str] = OFF_LOOP,
    ) -> None:
        self.workers = default_bot_workers() if workers is None else workers
        if self.workers < 0:
            raise ValueError(f"bot workers: at least 0, got {self.workers}")
        self.threads = threads
        self.offload = frozenset(bots) if self.workers > 0 else frozenset()
        """The bots rooms hand out (``Room.offload``): none without workers."""
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.threads:
                self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="majiang-bot")
            else:
                # spawn: forking a process that runs threads (the store's writers) is unsafe
                context = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._executor

    async def decide(self, ask: BotAsk) -> tuple[Action, Bot]:
        """The action ``ask``'s bot chooses, and the bot after choosing, from a worker."""
        payload = pickle.dumps((ask.bot, ask.observation, ask.legal), pickle.HIGHEST_PROTOCOL)
        loop = asyncio.get_running_loop()
        pool = self._pool()
        try:
            answer = await loop.run_in_executor(pool, think, payload)
        except BrokenExecutor:
            if self._executor is pool:  # a worker died: the next decision gets a new pool
                self._executor = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise
        action, bot = pickle.loads(answer)
        return action, bot

    def close(self) -> None:
        """Stop the workers; decisions still queued are cancelled."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
