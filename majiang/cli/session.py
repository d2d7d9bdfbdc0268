"""A game between one human seat and bots, independent of any screen (used by the TUI)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from majiang.bots import Bot, make_bot
from majiang.engine.match import Match
from majiang.engine.state import Action, HandState
from majiang.records import record_json
from majiang.tiles import Tile, chinese_name

__all__ = ["ACTION_WORDS", "Session", "describe"]

ACTION_WORDS = {
    "hu": ("胡", "win"),
    "kong": ("杠", "kong"),
    "peng": ("碰", "peng"),
    "chi": ("吃", "chi"),
    "pass": ("过", "pass"),
    "discard": ("打", "discard"),
}


def describe(action: Action, state: HandState, names: list[str]) -> str:
    """An action in plain words, as the event log shows it."""
    who = f"{names[action.seat]} (S{action.seat})"
    tile = state.window_tile if action.tile is None else action.tile
    label = f"{Tile(tile)} {chinese_name(tile)}" if tile is not None else ""
    if action.type == "discard":
        return f"{who} discards {label}"
    if action.type == "hu":
        return f"{who} declares a win (胡)"
    if action.type == "pass":
        return f"{who} passes"
    if action.type == "chi":
        return f"{who} chis {label} with {' '.join(str(Tile(t)) for t in action.tiles)}"
    if action.type == "peng":
        return f"{who} pengs {label}"
    if action.type == "kong":
        return f"{who} declares a kong of {label}"
    return f"{who} {action.type}"


@dataclass
class Session:
    """One human seat against three bots, hand after hand, written as a record."""

    variant: str
    options: dict[str, Any]
    human: int = 0
    bots: tuple[str, str, str, str] = ("greedy", "greedy", "greedy", "greedy")
    seed: int = 0
    names: list[str] = field(default_factory=lambda: ["You", "East bot", "South bot", "West bot"])
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.match = Match(self.variant, self.options, self.seed, players=self.names)
        rng = random.Random(self.seed ^ 0x7E57)
        self.players: list[Bot | None] = [
            None if s == self.human else make_bot(self.bots[s], rng) for s in range(4)
        ]
        self.state: HandState = self.match.new_hand()
        self.log.append(f"Hand 1: dealer S{self.state.dealer} ({self.names[self.state.dealer]})")
        self.advance()

    # -- play -------------------------------------------------------------------------
    def human_legal(self) -> list[Action]:
        """What the human may do now (empty when waiting or the hand is over)."""
        return self.state.legal_actions(self.human)

    def advance(self) -> None:
        """Let the bots act until the human must decide or the hand ends."""
        st = self.state
        while not st.is_terminal():
            bot_seats = [s for s in st.to_act() if s != self.human]
            if not bot_seats:
                return  # the human decides (or the window waits for the human only)
            seat = bot_seats[0]
            bot = self.players[seat]
            assert bot is not None
            self._apply(bot.act(st.observation(seat), st.legal_actions(seat)))

    def play(self, action: Action) -> None:
        """Apply the human's action (IllegalActionError if it is not legal), then the bots'."""
        self._apply(action)
        self.advance()

    def _apply(self, action: Action) -> None:
        text = describe(action, self.state, self.names)
        self.state.apply(action)
        if action.type != "pass" or action.seat == self.human:
            self.log.append(text)
        if self.state.is_terminal():
            self.match.finish(self.state)
            res = self.state.result()
            if res.win is not None:
                w = res.win
                self.log.append(
                    f"{self.names[w.winner]} (S{w.winner}) wins by {w.win_type}: "
                    f"{', '.join(res.patterns)}"
                )
            elif res.escaped is not None:
                self.log.append(f"{self.names[res.escaped]} left the table (escape)")
            else:
                self.log.append("The wall is exhausted: a drawn hand")

    def escape(self) -> None:
        """The human leaves mid-hand: an escape (RULES.md 0.9); the match ends."""
        if not self.state.is_terminal():
            self._apply(Action(self.human, "escape"))

    def next_hand(self) -> bool:
        """Deal the next hand with the rotation's dealer; False when the match is over."""
        if self.match.over or not self.state.is_terminal():
            return False
        self.state = self.match.new_hand()
        n = len(self.match.finished) + 1
        self.log.append(f"Hand {n}: dealer S{self.state.dealer} ({self.names[self.state.dealer]})")
        self.advance()
        return True

    def restriction(self) -> str:
        """Why options may be missing for the human, in words (抓打, 漏胡, 弃碰 …)."""
        st = self.state
        notes = []
        owner = st.extra.get("zhuada")
        if owner is not None and owner != self.human:
            notes.append(
                f"抓打: S{owner} discarded a wild — until its next turn you may only self-draw, "
                "concealed-kong or discard the tile you drew, and claim nothing"
            )
        if st.missed_win[self.human]:
            kinds = " ".join(str(Tile(t)) for t in sorted(st.missed_win[self.human]))
            notes.append(
                f"漏胡/弃胡: you passed a win on {kinds}; no discard win on it until your next draw"
            )
        if st.missed_peng[self.human]:
            kinds = " ".join(str(Tile(t)) for t in sorted(st.missed_peng[self.human]))
            notes.append(
                f"漏碰/弃碰: you passed a peng of {kinds}; no peng of it until your next draw"
            )
        if self.human in st.extra.get("no_win", frozenset()):
            notes.append("You discarded a 得: you cannot win this hand (RULES.md 5.1)")
        return "\n".join(notes)

    # -- records ----------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the finished hands as majiang-record/1 (replayable with majiang replay)."""
        target = Path(path).expanduser()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(record_json(self.match), ensure_ascii=False, indent=1))
        return target
