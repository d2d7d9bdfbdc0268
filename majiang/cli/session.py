"""A game between one human seat and bots, independent of any screen (used by the TUI)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from majiang.bots import Bot, make_bot
from majiang.engine.match import Match
from majiang.engine.state import Action, HandState, Meld
from majiang.records import record_json
from majiang.rules import Variant, get_variant
from majiang.tiles import Tile, chinese_name
from majiang.values import ActionType

__all__ = ["ACTION_WORDS", "Session", "describe", "meld_tiles"]

ACTION_WORDS = {
    "hu": ("胡", "win"),
    "kong": ("杠", "kong"),
    "peng": ("碰", "peng"),
    "chi": ("吃", "chi"),
    "pass": ("过", "pass"),
    "discard": ("打", "discard"),
}


def tile_words(tile: int) -> str:
    """A tile in notation and Chinese, e.g. ``4m 四万``."""
    return f"{Tile(tile)} {chinese_name(tile)}"


def describe(action: Action, state: HandState, names: Sequence[str]) -> str:
    """An action in plain words, as the event log shows it (before it is applied)."""
    who = f"{names[action.seat]} (S{action.seat})"
    tile = state.window_tile if action.tile is None else action.tile
    label = tile_words(tile) if tile is not None else ""
    if action.type == "discard":
        return f"{who} discards {label}"
    if action.type == "hu":
        return f"{who} declares 胡 win"
    if action.type == "pass":
        return f"{who} passes 过"
    if action.type == "chi":
        return f"{who} 吃 chis {label} with {' '.join(str(Tile(t)) for t in action.tiles)}"
    if action.type == "peng":
        return f"{who} 碰 pengs {label}"
    if action.type == "kong":
        return f"{who} 杠 declares a kong of {label}"
    if action.type == "escape":
        return f"{who} leaves the table: 逃跑 escape"
    return f"{who} {action.type}"


def meld_tiles(meld: Meld, wild: int | None, chi_used: tuple[int, ...] = ()) -> list[str]:
    """The meld's tiles in notation, a wild standing in written as ``5z=6s`` (wild=kind).

    ``chi_used`` names the two tiles a chi took from the hand, which tells which kind a
    single wild stands for (RULES.md 2.1).
    """
    kinds = list(meld.tiles)
    if not meld.wilds or wild is None:
        return [str(Tile(t)) for t in kinds]
    if meld.kind == "chi":
        naturals = [t for t in chi_used if t != wild]
        stands = list(kinds)
        if meld.claimed is not None and meld.claimed in stands:
            stands.remove(meld.claimed)
        for t in naturals:
            if t in stands:
                stands.remove(t)
        out = []
        for t in kinds:
            if t in stands:
                stands.remove(t)
                out.append(f"{Tile(wild)}={Tile(t)}")
            else:
                out.append(str(Tile(t)))
        return out
    natural = len(kinds) - meld.wilds
    return [str(Tile(t)) for t in kinds[:natural]] + [
        f"{Tile(wild)}={Tile(t)}" for t in kinds[natural:]
    ]


@dataclass
class Session:
    """One human seat against three bots, hand after hand, written as a record.

    ``bots`` are bot names or bot objects (anything with ``act``); ``deals`` and ``start``
    optionally give the first hands' deals and the match state before them as a record
    does (FORMAT.md ``deal``, ``start``), e.g. to practise a position.
    """

    variant: str
    options: dict[str, Any]
    human: int = 0
    bots: Sequence[str | Bot] = ("greedy", "greedy", "greedy", "greedy")
    seed: int = 0
    names: list[str] = field(default_factory=lambda: ["You", "East bot", "South bot", "West bot"])
    log: list[str] = field(default_factory=list)
    deals: Sequence[Mapping[str, Any]] = ()
    start: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        self.spec: Variant = get_variant(self.variant)
        """The variant's declarations (names, restrictions) and hooks."""
        self.match = Match(
            self.variant, self.options, self.seed, start=self.start, players=self.names
        )
        rng = random.Random(self.seed ^ 0x7E57)
        self.players: list[Bot | None] = [
            None if s == self.human else self._bot(self.bots[s], rng) for s in range(4)
        ]
        self.chi_used: dict[tuple[int, int], tuple[int, ...]] = {}
        """The hand tiles of each chi with a wild, by (seat, meld index)."""
        self._claimed: dict[int, Action] = {}
        self.state: HandState = self._deal()
        self.advance()

    @staticmethod
    def _bot(bot: str | Bot, rng: random.Random) -> Bot:
        return make_bot(bot, rng) if isinstance(bot, str) else bot

    def _deal(self) -> HandState:
        index = len(self.match.finished)
        deal = self.deals[index] if index < len(self.deals) else None
        state = self.match.new_hand(deal)
        self.chi_used = {}
        self._claimed = {}
        n = index + 1
        self.log.append(f"第{n}局 hand {n}: 庄 dealer S{state.dealer} ({self.names[state.dealer]})")
        return state

    @property
    def hand_number(self) -> int:
        """The current hand, counted from 1 (第1局)."""
        return len(self.match.finished) + (0 if self.state.is_terminal() else 1)

    # -- play -------------------------------------------------------------------------
    def human_legal(self) -> list[Action]:
        """What the human may do now (empty when waiting or the hand is over)."""
        return self.state.legal_actions(self.human)

    def advance(self) -> None:
        """Let the bots act until the human must decide or the hand ends."""
        st = self.state
        while not st.is_terminal():
            if st.phase != "turn":
                st.auto_pass()  # seats (the human too) whose only choice is pass are not asked
                if st.is_terminal():
                    self._finished()
                    return
            to_act = st.to_act()
            if st.phase == "turn" and self.human in to_act and st.current != self.human:
                return  # an instant win (四红中) is declared before the dealer acts (D56)
            bot_seats = [s for s in to_act if s != self.human]
            if not bot_seats:
                return  # the human decides (or the window waits for the human only)
            # seats offered an instant win decide before the dealer's first discard
            seat = next((s for s in bot_seats if s != st.current), bot_seats[0])
            bot = self.players[seat]
            assert bot is not None
            self._apply(bot.act(st.observation(seat), st.legal_actions(seat)))

    def play(self, action: Action) -> None:
        """Apply the human's action (IllegalActionError if it is not legal), then the bots'."""
        self._apply(action)
        self.advance()

    def _apply(self, action: Action) -> None:
        st = self.state
        text = describe(action, st, self.names)
        before = [list(m) for m in st.melds]
        if action.type in ("chi", "peng", "kong") and st.phase != "turn":
            self._claimed[action.seat] = action
        st.apply(action)
        if action.type != "pass" or action.seat == self.human:
            self.log.append(text)
        self._note_chis(before)
        if st.is_terminal():
            self._finished()

    def _finished(self) -> None:
        """Book the ended hand on the match and say how it ended."""
        self.match.finish(self.state)
        self.log.append(self.outcome_words())

    def _note_chis(self, before: list[list[Meld]]) -> None:
        """Remember which hand tiles made a new chi with a wild (to show what it stands for)."""
        for seat, melds in enumerate(self.state.melds):
            for i, meld in enumerate(melds):
                if meld.kind != "chi" or not meld.wilds:
                    continue
                if i < len(before[seat]) and before[seat][i] is meld:
                    continue
                claim = self._claimed.get(seat)
                if claim is not None and claim.type == "chi":
                    self.chi_used[(seat, i)] = claim.tiles

    def outcome_words(self) -> str:
        """How the ended hand ended, in words (names from the variant's declarations)."""
        res = self.state.result()
        v = self.spec
        if res.win is not None:
            w = res.win
            how = " ".join(v.term(w.win_type))
            patterns = ", ".join(" ".join(v.term(p)) for p in res.patterns)
            return f"{self.names[w.winner]} (S{w.winner}) wins, {how}: {patterns}"
        if res.escaped is not None:
            pen = int(self.match.options.get("escape_penalty", 0))
            return (
                f"{self.names[res.escaped]} (S{res.escaped}) left the table: 逃跑 escape, "
                f"pays {pen} to each other seat; the match ends"
            )
        return "流局 drawn hand: nobody won"

    def escape(self) -> None:
        """The human leaves mid-hand: an escape (RULES.md 0.9); the match ends."""
        if not self.state.is_terminal():
            self._apply(Action(self.human, ActionType.ESCAPE))

    def next_hand(self) -> bool:
        """Deal the next hand with the rotation's dealer; False when the match is over."""
        if self.match.over or not self.state.is_terminal():
            return False
        self.state = self._deal()
        self.advance()
        return True

    def restrictions(self) -> list[str]:
        """The restrictions in force for the human now, in words (抓打, 漏胡, 弃碰 …)."""
        out = []
        for ident, detail in self.state.restrictions(self.human):
            r = self.spec.restriction(ident)
            words = r.now.format(detail) if r.now else r.rule
            out.append(f"{r.zh} {r.en}: {words}")
        return out

    def restriction(self) -> str:
        """The restrictions in force for the human now, one per line."""
        return "\n".join(self.restrictions())

    # -- records ----------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Write the finished hands as majiang-record/1 (replayable with majiang replay).

        OSError if the path cannot be written; nothing else is changed then.
        """
        target = Path(path).expanduser()
        text = json.dumps(record_json(self.match), ensure_ascii=False, indent=1)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        return target
