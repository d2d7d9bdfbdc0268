"""An escape at any point of a hand, open claim windows included (issue 35, E1): the
engine's own record replays to the same result, deltas and next dealer and counters.

FORMAT.md (docs/format.md, escape): an escape ends the hand at once; a window still
open is not resolved and nothing more is drawn. The engine lists the passes of a window
it resolved without listing them before an escape, so the reader sees it resolved too.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.engine.match import Match
from majiang.engine.state import Action, HandState
from majiang.records import record_json, replay
from majiang.values import ActionType

VARIANTS = ("guangdong", "hangzhou", "hainan", "hongzhong", "taizhou")


def _discard_drawn(state: HandState) -> None:
    seat = state.current
    tile = state.drawn if state.drawn is not None else state.hand_tiles(seat)[-1]
    state.apply(Action(seat, ActionType.DISCARD, tile))


def _pass_window(state: HandState) -> None:
    """Every seat of the open window passes (those with a claim listed, as a bot would)."""
    state.auto_pass()
    while not state.is_terminal() and state.phase != "turn":
        seat = next(s for s in state.window_seats if s not in state.decisions)
        state.apply(Action(seat, ActionType.PASS))
        state.auto_pass()


def _engine_and_replay(match: Match) -> tuple[dict[str, object], dict[str, object]]:
    """The engine's view of the match's one hand and the replay of its record."""
    done = match.finished[0]
    res = done.state.result()
    engine = {
        "outcome": res.outcome,
        "deltas": list(res.deltas),
        "next": {"dealer": done.next_dealer, "counters": dict(done.next_counters)},
    }
    hand = replay(record_json(match))["hands"][0]
    return engine, {k: hand[k] for k in engine}


def test_escape_in_the_last_discards_window_replays() -> None:
    """Guangdong: seat 0 escapes in the window of the discard at R = 0 (today the reader
    resolved it, drew the hand and refused the escape: 'the hand has already ended')."""
    match = Match("guangdong", {"first_dealer": 0}, 1)
    state = match.new_hand()
    while True:
        _discard_drawn(state)
        if state.live == 0:
            break
        _pass_window(state)
    assert state.phase == "claim" and not state.is_terminal()
    state.apply(Action(0, ActionType.ESCAPE))
    match.finish(state)
    engine, replayed = _engine_and_replay(match)
    assert replayed == engine
    assert engine["outcome"] == "draw"


def test_escape_in_the_second_discards_window_keeps_the_next_dealer() -> None:
    """Hongzhong: seat 0 escapes in the window of the second discard; the reader used to
    resolve it and draw first, so it gave another next dealer than the engine."""
    match = Match("hongzhong", {"first_dealer": 0}, 1)
    state = match.new_hand()
    _discard_drawn(state)
    _pass_window(state)
    _discard_drawn(state)
    state.apply(Action(0, ActionType.ESCAPE))
    done = match.finish(state)
    engine, replayed = _engine_and_replay(match)
    assert replayed == engine
    assert done.next_dealer == 1


def test_escape_after_an_unlisted_window_lists_its_passes() -> None:
    """An escape on the turn after a window the engine resolved unlisted (auto_pass):
    the window's passes are listed before it, so the reader draws as the engine did."""
    match = Match("hongzhong", {"first_dealer": 0}, 1)
    state = match.new_hand()
    _discard_drawn(state)
    state.auto_pass()
    assert state.phase == "turn" and state.current == 1
    state.apply(Action(0, ActionType.ESCAPE))
    match.finish(state)
    tail = [(a.seat, a.type) for a in state.history[-4:]]
    assert tail == [(1, "pass"), (2, "pass"), (3, "pass"), (0, "escape")]
    engine, replayed = _engine_and_replay(match)
    assert replayed == engine


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32 - 1),
    at=st.integers(0, 300),
    escaper=st.integers(0, 3),
    options=st.fixed_dictionaries({"escape_penalty": st.integers(0, 9)}),
)
def test_escape_anywhere_replays_identically(
    variant: str, seed: int, at: int, escaper: int, options: dict[str, int]
) -> None:
    """Random legal play (windows left open or auto-passed at random); at step ``at``, or
    before an action that would end the hand, a seat escapes: the record replays alike."""
    rng = random.Random(seed)
    match = Match(variant, options, seed)
    state = match.new_hand()
    step = 0
    while True:
        if state.phase != "turn" and rng.random() < 0.5 and not _auto_ends(state):
            state.auto_pass()
        if state.phase == "turn":
            choices = state.legal_actions(state.current)
        else:
            undecided = [s for s in state.window_seats if s not in state.decisions]
            choices = state.legal_actions(rng.choice(undecided))
        if step >= at:
            break
        probe = state.clone()
        action = rng.choice(choices)
        probe.apply(action)
        if probe.is_terminal():
            break  # keep the hand live for the escape
        state.apply(action)
        step += 1
    assert not state.is_terminal()
    state.apply(Action(escaper, ActionType.ESCAPE))
    match.finish(state)
    engine, replayed = _engine_and_replay(match)
    assert replayed == engine


def _auto_ends(state: HandState) -> bool:
    """Would auto_pass end the hand (a window resolving into the drawn end)?"""
    probe = state.clone()
    probe.auto_pass()
    return probe.is_terminal()
