"""Bots: each sees only its observation and its legal actions (DESIGN.md).

Write your own in a few lines::

    class TsumogiriBot:
        name = "tsumogiri"

        def act(self, observation, legal):
            drawn = observation.drawn
            for action in legal:
                if action.type == "discard" and action.tile == drawn:
                    return action
            return legal[-1]  # pass, or the last discard

and pass it wherever a bot is taken (``play_hand``, ``arena``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Literal, Protocol, TypeGuard

from majiang.bots.greedy import GreedyBot
from majiang.bots.plus import GreedyPlusBot
from majiang.engine.state import HandState
from majiang.observation import Observation
from majiang.values import Action, Phase

__all__ = [
    "BOTS",
    "BOT_NAMES",
    "LEVELS",
    "BlindBot",
    "Bot",
    "GreedyBot",
    "GreedyPlusBot",
    "RandomBot",
    "auto_bot",
    "bot_label",
    "bot_names",
    "is_bot",
    "make_bot",
    "play_hand",
]


class Bot(Protocol):
    """Anything that picks one of the legal actions from an observation."""

    name: str

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """The chosen action; it must be one of ``legal`` (the same as ``observation.legal``)."""
        ...


class BlindBot(Protocol):
    """A bot that never reads its observation: ``play_hand`` passes it None rather than
    build one (the random bot, for fast simulation)."""

    name: str
    observes: Literal[False]

    def act(self, observation: Observation | None, legal: Sequence[Action]) -> Action:
        """The chosen action; it must be one of ``legal``."""
        ...


def _is_blind(bot: Bot) -> TypeGuard[BlindBot]:
    return getattr(bot, "observes", True) is False


class RandomBot:
    """A uniformly random legal action."""

    name = "random"
    observes: Literal[False] = False
    """It never looks at the observation, so play_hand need not build one."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, observation: Observation | None, legal: Sequence[Action]) -> Action:
        """Any legal action, with equal chance."""
        return legal[int(self.rng.random() * len(legal))]


def _search(rng: random.Random) -> Bot:
    """The determinized Monte Carlo bot (majiang.bots.search), imported when seated."""
    from majiang.bots.search import SearchBot

    return SearchBot(rng)


BOTS: dict[str, Callable[[random.Random], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "greedy+": GreedyPlusBot,
    "search": _search,
}
"""Bot factories by name; each takes the injected random.Random."""


def _trained(rng: random.Random) -> Bot:
    """The trained policy of ``majiang.rl`` (extra ``rl``; docs/rl.md), imported only when
    a table seats it."""
    from majiang.rl.policy import PolicyBot

    return PolicyBot(rng)


def _has_numpy() -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec("numpy") is not None
    except (ImportError, ValueError):
        return False


if _has_numpy():
    BOTS["rl"] = _trained


LEVELS: dict[str, tuple[str, str, str]] = {
    "easy": ("简单", "Easy", "random"),
    "normal": ("普通", "Normal", "greedy"),
    "hard": ("困难", "Hard", "search"),
}
"""The levels players choose from (majiang play, the lobby): id -> (Chinese, English, bot)."""

BOT_NAMES: dict[str, tuple[str, str]] = {
    **{bot: (zh, en.lower()) for zh, en, bot in LEVELS.values()},
    "greedy+": ("进阶", "advanced"),
    "rl": ("训练型", "trained"),
}
"""Each bot's display name (Chinese, English): what a player reads where the API says the
bot's id (``GET /api/bots/names``; the page shows a bot seat as 东家·机器人(普通)); the
bots of the levels players choose from are named by their level."""


def bot_label(name: str) -> tuple[str, str]:
    """The display name (Chinese, English) of bot ``name`` (``search:N`` is the search bot);
    a bot without a declared one is named by its id in both languages."""
    if _fixed_search(name) is not None:
        return BOT_NAMES["search"]
    return BOT_NAMES.get(name, (name, name))


SEARCH_SECONDS = 5
"""A turn timer at least this long (or none) leaves room for ``search`` (at most ~100 ms a
decision) on a loaded server; a shorter one gets greedy+."""


def auto_bot(turn_seconds: int) -> str:
    """The strongest bot that fits a turn timer of ``turn_seconds`` (0: none), for 托管."""
    return "search" if turn_seconds == 0 or turn_seconds >= SEARCH_SECONDS else "greedy+"


FIXED_SEARCH = "search:"
"""``search:N`` names the search bot on N worlds a decision and no clock: its choices
depend only on the seed, never on the machine's speed (reproducible arenas, tests)."""


def _fixed_search(name: str) -> int | None:
    """N of a ``search:N`` name (1-1000), else None."""
    if not name.startswith(FIXED_SEARCH):
        return None
    n = name[len(FIXED_SEARCH) :]
    if not n.isdigit() or not 1 <= int(n) <= 1000:
        return None
    return int(n)


def is_bot(name: str) -> bool:
    """Does ``make_bot`` know ``name``: a registered bot, or ``search:N``?"""
    return name in BOTS or _fixed_search(name) is not None


def make_bot(name: str, rng: random.Random) -> Bot:
    """A bot by name (``BOTS``, or ``search:N``); ValueError naming those that exist."""
    n = _fixed_search(name)
    if n is not None:
        from majiang.bots.search import SearchBot

        return SearchBot(rng, samples=n, budget=None)
    try:
        return BOTS[name](rng)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {bot_names()}") from None


def bot_names() -> str:
    """The bots ``make_bot`` knows, for messages."""
    return ", ".join([*BOTS, "search:N (N worlds, no clock)"])


def _in_turn(state: HandState) -> bool:
    """A seat's turn rather than a window (read afresh: ``auto_pass`` may close one)."""
    return state.phase == Phase.TURN


def play_hand(state: HandState, bots: Sequence[Bot]) -> int:
    """Play a hand to its end with one bot per seat; returns the number of decisions.

    Every seat in ``to_act`` is asked: in a claim window each undecided seat (those
    whose only choice is pass pass without being asked, :meth:`HandState.auto_pass`),
    in a turn first the seats that may declare an instant win, then the turn's seat.
    """
    decisions = 0
    blind = [bot.act if _is_blind(bot) else None for bot in bots]
    while state.result_ is None:
        if not _in_turn(state):
            state.auto_pass()
            if _in_turn(state) or state.result_ is not None:
                continue
            seats = state.to_act()
        else:
            seats = state.to_act()[-1:]  # a seat declaring before the dealer's first discard
        for seat in seats:
            legal = state.legal_actions(seat)
            act = blind[seat]
            if act is not None:
                state.apply(act(None, legal))
            else:
                state.apply(bots[seat].act(state.observation(seat), legal))
            decisions += 1
    return decisions
