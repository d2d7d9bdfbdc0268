"""One table driven for learning: the engine's hand asked one seat at a time (docs/rl.md).

Every environment here (AEC, parallel, Gymnasium, ``VectorEnv``) steps a ``Table``. It asks
seats in the engine's order: in a turn the seat to act (before the dealer's first discard,
first each seat that may declare an instant win); in a claim window every seat that has a
claim on offer, one at a time in turn order from the discarder. A seat whose only choice
is pass passes without being asked (``HandState.auto_pass``), as FORMAT.md deems it to.
No seat's observation shows another's decision in the window: the engine collects them
and resolves the window by priority once all are in.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from majiang.engine.match import Match
from majiang.engine.state import HandState, play_listed
from majiang.errors import IllegalActionError, OptionError
from majiang.observation import Observation
from majiang.rl.actions import ACTION_COUNT, action_of, legal_indices, legal_mask, names
from majiang.rl.features import FILL, PLANES, HandContext, encode_state
from majiang.rules import get_variant
from majiang.values import Action, Phase

__all__ = ["EPISODES", "Table"]

EPISODES = ("hand", "match")
"""What one episode is: one hand (the default), or ``hands`` hands of a match."""

_TURN = Phase.TURN
_empty = np.empty
_SHAPE = (PLANES, 34)
_F32 = np.dtype(np.float32)
_NO_MASK = np.zeros(ACTION_COUNT, dtype=np.int8)
"""An all-zero mask, copied for each view (a copy is quicker than ``np.zeros``)."""
_NO_MASK.flags.writeable = False


class Table:
    """A match of one variant, its current hand, and the seat that decides now."""

    def __init__(
        self,
        variant: str,
        options: Mapping[str, object] | None = None,
        *,
        episode: str = "hand",
        hands: int = 4,
    ) -> None:
        self.variant = get_variant(variant)
        self.options = self.variant.resolve_options(options)
        if episode not in EPISODES:
            raise OptionError(f"episode must be one of {', '.join(EPISODES)}, got {episode!r}")
        if type(hands) is not int or hands < 1:
            raise OptionError(f"hands must be an integer >= 1, got {hands!r}")
        self.episode = episode
        self.hands = hands if episode == "match" else 1
        self.match: Match | None = None
        self._state: HandState | None = None
        self.seat = -1
        """The seat that decides now; -1 once the episode is over."""
        self.moments = 0
        """Decision moments completed: a turn's action, or a whole claim window."""
        self.steps = 0
        self.played = 0
        """Hands finished in this episode."""
        self.done = True
        self._obs: Observation | None = None
        self._legal: list[int] | None = None
        self._actions: list[Action] | None = None
        """The engine's legal list that ``_legal`` indexes, position for position."""
        self._context: HandContext | None = None

    @property
    def state(self) -> HandState:
        """The hand being played (after ``start``)."""
        if self._state is None:
            raise IllegalActionError("the table has not started: call reset() first")
        return self._state

    def start(self, seed: int) -> None:
        """A new episode: a match seeded with ``seed`` and its first hand."""
        self.match = Match(self.variant, self.options, seed)
        self._state = self.match.new_hand()
        self.moments = self.steps = self.played = 0
        self.done = False
        self._advance()

    def _advance(self) -> None:
        """Pass for the seats with nothing but pass, and find the seat to ask."""
        self._obs = None
        self._legal = self._actions = None
        state = self._state
        assert state is not None
        while state.result_ is None:
            if state.phase is _TURN:  # an instant declarer first, then the turn's seat
                self.seat = state.to_act()[-1] if state.first_turn else state.current
                return
            state.auto_pass()
            if state.phase is _TURN or state.result_ is not None:  # auto_pass may end it
                continue
            waiting = state.to_act()
            if len(waiting) == 1:
                self.seat = waiting[0]
            else:
                source = state.window_from if state.window_from is not None else 0
                self.seat = min(waiting, key=lambda s: (s - source) % 4)
            return
        self.seat = -1

    def waiting(self) -> list[int]:
        """The seats that decide at this moment, in the order they are asked: the turn's
        seat, or the window's undecided seats with a claim on offer."""
        state = self.state
        if self.seat < 0:
            return []
        if state.phase is _TURN:
            return [self.seat]
        source = state.window_from if state.window_from is not None else 0
        return sorted(state.to_act(), key=lambda s: (s - source) % 4)

    def observation(self) -> Observation:
        """The deciding seat's observation (built once per decision)."""
        obs = self._obs
        if obs is None:
            obs = self._obs = self.state.observation(self.seat)
        return obs

    def encode(self, seat: int, out: npt.NDArray[np.float32], row: int) -> None:
        """Write ``seat``'s encoded observation now as ``out[row]`` (encoding v1, the
        values of ``encode(state.observation(seat))``; ``features.encode_state``)."""
        state = self.state
        context = self._context
        if context is None or context.state is not state:
            context = self._context = HandContext(state)
        encode_state(state, seat, out, row, context)

    def view(self, seat: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """``seat``'s encoded observation ``(PLANES, 34)`` and legal mask ``(217,)`` now,
        as fresh arrays (``encode`` and ``mask`` in one call, for an env's ``observe``)."""
        fill = FILL
        if fill is None:
            planes = np.empty((1, PLANES, 34), dtype=np.float32)
            self.encode(seat, planes, 0)
            return planes[0], self.mask(seat)
        state = self._state or self.state  # the property raises before start()
        context = self._context
        if context is None or context.state is not state:
            context = self._context = HandContext(state)
        if state.variant_state is not context.variant_state:
            context.load(state.variant_state)
        obs = _empty(_SHAPE, _F32)  # the C paths write one row of each
        fill(obs, 0, state, seat, context.fixed, context.extra)  # encode_state, inline
        mask = _NO_MASK.copy()
        if seat == self.seat:
            actions = state._turn_cache  # the turn's list, built at the draw: _load, inline
            if self._legal is not None:
                mask[self._legal] = 1
            elif (
                actions is not None
                and state.phase is _TURN
                and seat == state.current
                and state.result_ is None
            ):
                legal = self._legal = legal_mask(actions, None, state.wild, mask, 0)
                self._actions = actions if len(actions) == len(legal) else None
            else:
                self._load(mask, 0)
        elif self.seat >= 0:
            mask[self._indices(seat)] = 1
        return obs, mask

    def _indices(self, seat: int) -> list[int]:
        """``seat``'s legal action indexes, from the engine's legal list (what its
        observation's ``legal`` holds, read against the same window tile and wild)."""
        state = self.state
        window = None if state.phase is _TURN else state.window_tile
        return legal_indices(state.legal_actions(seat), window, state.wild)

    def _load(self, mask: npt.NDArray[np.int8] | None, row: int) -> list[int]:
        """The deciding seat's legal indexes and engine actions, kept for ``act``; with
        ``mask``, its ones written into ``mask[row]`` in the same pass."""
        state = self._state or self.state  # the property raises before start()
        seat = self.seat
        if state.phase is _TURN and seat == state.current and state.result_ is None:
            # the engine's own turn list (what legal_actions copies), read, never changed
            actions = state._turn_cache or state._turn_actions(seat)  # (built at the draw)
            window = None
        else:
            actions = state.legal_actions(seat)
            window = None if state.phase is _TURN else state.window_tile
        if mask is None:
            legal = legal_indices(actions, window, state.wild)
        else:
            legal = legal_mask(actions, window, state.wild, mask, row)
        self._legal = legal
        self._actions = actions if len(actions) == len(legal) else None  # no escape listed
        return legal

    def legal(self) -> list[int]:
        """The deciding seat's legal action indexes (the mask's ones)."""
        legal = self._legal
        if legal is None:
            legal = self._load(None, 0)
        return legal

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """``seat``'s legal action mask now (all zeros when it has no decision)."""
        out = np.zeros((1, ACTION_COUNT), dtype=np.int8)
        if seat == self.seat:
            if self._legal is None:
                self._load(out, 0)
            else:
                out[0, self._legal] = 1
        elif self.seat >= 0:
            out[0, self._indices(seat)] = 1
        row: npt.NDArray[np.int8] = out[0]
        return row

    def write(
        self, obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8], row: int
    ) -> None:
        """Write the deciding seat's encoded observation as ``obs[row]`` and its legal
        mask's ones into ``mask[row]`` (a zeroed row): one call per table of a batch."""
        state = self._state
        context = self._context
        if context is None or context.state is not state:
            context = self._context = HandContext(self.state)
        fill = FILL
        if fill is None:
            encode_state(context.state, self.seat, obs, row, context)
        else:  # encode_state, inline
            if context.state.variant_state is not context.variant_state:
                context.load(context.state.variant_state)
            fill(obs, row, context.state, self.seat, context.fixed, context.extra)
        if self._legal is None:
            self._load(mask, row)
        else:
            mask[row, self._legal] = 1

    def check(self, seat: int, index: object) -> int:
        """``index`` as an int if it is legal for ``seat`` now; IllegalActionError naming
        the legal indexes otherwise (nothing changes)."""
        if self.done:
            raise IllegalActionError("the episode is over: call reset()")
        try:
            value = int(index)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            value = -1
        if value < 0 or value != index or isinstance(index, bool):
            raise IllegalActionError(f"an action is an index 0-{ACTION_COUNT - 1}, got {index!r}")
        legal = self.legal() if seat == self.seat else self._indices(seat)
        if value not in legal:
            raise IllegalActionError(
                f"action {names([value])} is not legal for seat {seat} now; legal: {names(legal)}"
            )
        return int(value)

    def act(self, seat: int, index: int) -> list[int] | None:
        """Apply ``seat``'s legal action ``index`` (``check`` it first); the hand's deltas
        if it ended, else None. Starts the match's next hand in a match episode."""
        return self.apply(self.action(seat, index))

    def action(self, seat: int, index: int) -> Action:
        """The engine action of ``seat``'s legal index ``index`` (``check`` it first): the
        engine's own listed action for the deciding seat, else built from the index."""
        actions = self._actions
        if actions is not None and seat == self.seat:
            legal = self._legal
            assert legal is not None
            try:
                return actions[legal.index(index)]
            except ValueError:
                pass
        state = self.state
        window = None if state.phase is _TURN else state.window_tile
        return action_of(index, seat, window, state.wild)

    def play(self, index: object) -> list[int] | None:
        """``check`` then ``act`` for the deciding seat, in one look-up of the index in the
        legal list when it is a legal int (IllegalActionError, nothing changed, if not)."""
        legal = self._legal
        actions = self._actions
        if legal is not None and actions is not None and type(index) is int:
            try:
                k = legal.index(index)
            except ValueError:
                k = -1
            if k >= 0:
                return self.apply(actions[k], listed=True)
        seat = self.seat
        return self.apply(self.action(seat, self.check(seat, index)))

    def apply(self, action: Action, *, listed: bool = False) -> list[int] | None:
        """Apply a legal engine action (a bot's); as ``act``. ``listed``: the action is an
        element of the engine's own legal list of this moment (``HandState.apply_listed``)."""
        state = self._state
        if state is None:
            raise IllegalActionError("the table has not started: call reset() first")
        turn = state.phase is _TURN
        if listed:  # _advance's auto_pass comes next: the engine may take it at once
            play_listed(state, action)
        else:
            state.apply(action)
        self.steps += 1
        if turn or not state.decisions:
            self.moments += 1
        if turn and state.phase is _TURN and state.result_ is None and not state.first_turn:
            # a turn passed to the next turn (a discard nobody claimed, a kong): _advance's
            # first step, inline
            self._obs = None
            self._legal = self._actions = None
            self.seat = state.current
            return None
        self._advance()  # passing seats may close the window onto an exhausted wall
        if state.result_ is None:
            return None
        deltas = list(state.result_.deltas)
        match = self.match
        assert match is not None
        match.finish(state)
        self.played += 1
        if self.played < self.hands and not match.over:
            self._state = match.new_hand()
            self._advance()
        else:
            self.done = True
        return deltas


def seed_from(rng: random.Random) -> int:
    """A fresh match seed from an environment's own generator."""
    return rng.getrandbits(63)
