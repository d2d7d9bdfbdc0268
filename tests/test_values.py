"""The seam's values (issue 15): typed kinds equal to FORMAT.md's strings, per-step rewards
that sum to the returns, a hand's result with room for several wins, and one scoring path
(``score_position``) for play and the calculator."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from recordkit import new_state, partial_deal

from majiang.bots import GreedyBot, play_hand
from majiang.engine.match import Match
from majiang.engine.state import HandState
from majiang.errors import IllegalActionError, OptionError
from majiang.rules import VARIANTS
from majiang.rules.base import score_position
from majiang.rules.view import HandView, Position
from majiang.values import (
    ACTION_TYPES,
    Action,
    ActionType,
    HandResult,
    MeldKind,
    Outcome,
    Phase,
    WinInfo,
    WinType,
)

ALL = sorted(VARIANTS)


def play(variant: str, seed: int) -> tuple[HandState, list[list[int]]]:
    """One random hand; the rewards seen after every ``apply`` and ``auto_pass``."""
    rng = random.Random(seed)
    state = Match(variant, {}, seed).new_hand()
    seen: list[list[int]] = []
    while not state.is_terminal():
        if state.phase != Phase.TURN:
            state.auto_pass()
            seen.append(state.rewards())
            if state.is_terminal():
                break
        seat = rng.choice(state.to_act())
        legal = [a for a in state.legal_actions(seat) if a.type != ActionType.ESCAPE]
        state.apply(rng.choice(legal))
        seen.append(state.rewards())
    return state, seen


def test_kinds_are_the_strings_format_md_writes() -> None:
    assert [str(t) for t in ACTION_TYPES] == [
        "hu",
        "kong",
        "peng",
        "chi",
        "discard",
        "pass",
        "escape",
    ]
    assert ActionType.HU == "hu" and MeldKind.KONG_DIRECT == "kong_direct"
    assert WinType.ROB_KONG == "rob_kong" and Outcome.DRAW == "draw" and Phase.DECLARE == "declare"
    # a record's action parses to the typed kind, and writes back the same string
    act = Action.from_json({"seat": 2, "type": "peng", "tiles": "55m"})
    assert act.type is ActionType.PENG and act.to_json() == {
        "seat": 2,
        "type": "peng",
        "tiles": "55m",
    }
    with pytest.raises(IllegalActionError, match="unknown action type 'kong_drect'"):
        Action.from_json({"seat": 0, "type": "kong_drect", "tile": "5m"})


@pytest.mark.parametrize("variant", ALL)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_rewards_are_zero_until_the_end_and_sum_to_the_returns(variant: str, seed: int) -> None:
    state, seen = play(variant, seed)
    assert all(r == [0, 0, 0, 0] for r in seen[:-1])
    assert seen[-1] == state.returns()
    assert [sum(col) for col in zip(*seen, strict=True)] == state.returns()


@pytest.mark.parametrize("variant", ALL)
def test_the_result_is_what_score_position_gives_for_the_final_position(variant: str) -> None:
    # One scoring path: the engine settles by score_position on a frozen copy of itself,
    # so scoring that copy again gives the same patterns and payments.
    wins = 0
    for seed in range(30):
        state = Match(variant, {}, seed).new_hand()
        play_hand(state, [GreedyBot(random.Random(seed + s)) for s in range(4)])
        res = state.result()
        assert isinstance(res, HandResult) and len(res.wins) <= 1
        assert res.win == (res.wins[0] if res.wins else None)
        assert (res.outcome == Outcome.WIN) == bool(res.wins)
        again = score_position(state.variant, state.options, Position.of(state), res.win)
        assert again.items == res.items and again.patterns == res.patterns
        wins += bool(res.wins)
    assert wins, "no hand was won: the check above settled only draws"


def test_score_position_refuses_a_position_built_under_other_options() -> None:
    state = Match("guangdong", {"horses": True}, 3).new_hand()
    pos = Position.of(state)
    win = WinInfo(0, WinType.SELF_DRAW, 0, None)
    with pytest.raises(OptionError, match="other options"):
        score_position(state.variant, {**state.options, "horses": False}, pos, win)


def test_a_position_counts_declared_melds_in_full_hand() -> None:
    # S1 konges S0's 5m: its full hand is its 11 concealed tiles (10 + the replacement) plus
    # the kong counted as three 5m, as the engine counts it (issue 14: a position that
    # dropped or miscounted its melds would score a different hand).
    hands = ["17m17p17s1234567z 5m", "555m123p456p789s", "", ""]
    state = new_state("guangdong", partial_deal(hands), options={"horses": False},
                      start={"dealer": 0})  # fmt: skip
    state.apply(Action(0, ActionType.DISCARD, 4))
    state.apply(Action(1, ActionType.KONG, 4))
    state.auto_pass()
    assert state.melds[1][0].kind == MeldKind.KONG_DIRECT
    pos = Position.of(state)
    assert pos.full_hand(1) == state.full_hand(1)
    assert sorted(pos.full_hand(1, 27)) == sorted([*pos.hand_tiles(1), 4, 4, 4, 27])


def test_a_position_is_a_frozen_copy_of_the_hand_view() -> None:
    state = Match("taizhou", {}, 5).new_hand()
    view: HandView = state  # the engine's state satisfies the protocol hooks read
    pos = Position.of(view)
    for seat in range(4):
        assert pos.hand_tiles(seat) == state.hand_tiles(seat)
        assert pos.full_hand(seat, 3) == state.full_hand(seat, 3)
    assert pos.variant_state == state.variant_state and pos.live == state.live
    with pytest.raises(AttributeError):
        pos.dealer = 2  # type: ignore[misc]


@pytest.mark.parametrize("tile", [-1, 42, 99])
def test_an_action_with_no_such_tile_is_not_written(tile: int) -> None:
    # to_json names tiles from a table; an index outside it is refused, never wrapped around
    with pytest.raises(ValueError):
        Action(0, ActionType.DISCARD, tile).to_json()
    assert Action(0, ActionType.DISCARD, 41).to_json()["tile"] == "8f"


def bare_position(variant: str = "guangdong") -> Position:
    """A Position given only its required fields, as an outside caller may build one."""
    state = Match(variant, {}, 2).new_hand()
    return Position(
        options=dict(state.options), dealer=state.dealer, counters=dict(state.counters),
        wild=state.wild, shapes=dict(state.shapes), deal=state.deal,
        reserved=dict(state.reserved),
        concealed=tuple(tuple(c) for c in state.concealed),
        melds=((), (), (), ()),
    )  # fmt: skip


def test_a_bare_position_is_a_quiet_moment_of_play() -> None:
    # Position's documented defaults (majiang/rules/view.py): nothing discarded, melded,
    # claimed, logged or missed; R = 0; seat 0's turn, no last or final turn; not ended.
    pos = bare_position()
    assert pos.claims_count == ((0, 0, 0, 0),) * 4 and pos.seat_log == ((),) * 4
    assert pos.missed_win == (frozenset(),) * 4 and pos.missed_peng == (frozenset(),) * 4
    assert (pos.live, pos.current, pos.last_drawer, pos.phase) == (0, 0, 0, Phase.TURN)
    assert not (pos.last_turn or pos.final_turn or pos.ended)
    rules = VARIANTS["guangdong"].rules
    # so no seat is under a restriction, and one added for seat 3 shows for seat 3 alone
    assert all(rules.restrictions_now(pos, s, []) == [] for s in range(4))
    missed = dataclasses.replace(pos, missed_win=(*pos.missed_win[:3], frozenset({4})))
    assert [rules.restrictions_now(missed, s, []) for s in range(4)] == [
        [],
        [],
        [],
        [("missed_win", "5m")],
    ]
    last = dataclasses.replace(pos, last_turn=True)
    assert rules.restrictions_now(last, 0, []) == [("last_turn", "")]
    assert rules.restrictions_now(dataclasses.replace(last, ended=True), 0, []) == []
