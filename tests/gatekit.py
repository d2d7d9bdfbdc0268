"""A bot that thinks until the test lets it: it runs in a worker process of the server
(``majiang.server.thinking``), so the gate is a file both processes see."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from pathlib import Path

from majiang.bots import GreedyBot
from majiang.observation import Observation
from majiang.values import Action

WAIT_SECONDS = 60.0
"""How long a gated decision waits at most: a server that never lets it go (it runs on
the event loop the test's gate-opener needs) fails the test rather than hang it."""


class GateBot:
    """Greedy, but its N-th decision (counted over every gate bot of the test, one worker
    at a time) first writes ``asked-N`` into ``where`` (the seat that asks), waits until
    the file ``open-N`` exists there, and writes ``done-N`` as it answers."""

    name = "gate"

    def __init__(self, rng: random.Random, where: Path) -> None:
        self.where = where
        self.greedy = GreedyBot(rng)

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """Greedy's choice, once the gate is open."""
        n = len(list(self.where.glob("asked-*")))
        (self.where / f"asked-{n}").write_text(f"{observation.seat}")
        deadline = time.monotonic() + WAIT_SECONDS
        while not (self.where / f"open-{n}").exists() and time.monotonic() < deadline:
            time.sleep(0.005)
        action = self.greedy.act(observation, legal)
        (self.where / f"done-{n}").write_text("")
        return action
