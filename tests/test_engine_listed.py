"""``HandState.apply_listed`` (the turn list's own action, not searched for again) makes
the same transitions as ``apply``: checked step by step over seeded random hands of every
variant; anything that is not the turn's listed action goes through ``apply``'s checks."""

from __future__ import annotations

import random

import pytest

from majiang.engine.match import Match
from majiang.engine.state import Action, HandState
from majiang.errors import IllegalActionError
from majiang.rules import VARIANTS, get_variant
from majiang.values import ActionType, Phase

ALL = sorted(VARIANTS)


def _snapshot(state: HandState) -> tuple[object, ...]:
    return (
        list(state.history), [list(c) for c in state.concealed],
        [list(d) for d in state.discards], [list(m) for m in state.melds], state.phase,
        state.current, state.lo, state.hi, state.result_, state.variant_state,
    )


@pytest.mark.parametrize("variant", ALL)
def test_apply_listed_makes_the_same_hand_as_apply(variant: str) -> None:
    v = get_variant(variant)
    rng = random.Random(3)
    listed_steps = 0
    for seed in range(12):
        a = Match(v, v.resolve_options(None), seed).new_hand()
        b = a.clone()
        while a.result_ is None:
            a.auto_pass()
            b.auto_pass()
            if a.result_ is not None:
                break
            seat = a.to_act()[0]
            legal = a.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            if a.phase is Phase.TURN and seat == a.current:
                own = b._turn_actions(seat)
                b.apply_listed(own[legal.index(action)])  # the list's own element
                listed_steps += 1
            else:
                b.apply_listed(action)  # not a turn action: apply's path
            a.apply(action)
            assert _snapshot(b) == _snapshot(a)
    assert listed_steps > 100


def test_apply_listed_checks_what_is_not_the_turns_listed_action() -> None:
    v = get_variant("guangdong")
    state = Match(v, v.resolve_options(None), 5).new_hand()
    other = (state.current + 1) % 4
    with pytest.raises(IllegalActionError):
        state.apply_listed(Action(other, ActionType.DISCARD, 0))  # not its turn
    before = _snapshot(state)
    assert state._turn_cache is None  # nothing read yet: apply checks it
    with pytest.raises(IllegalActionError):
        state.apply_listed(Action(state.current, ActionType.CHI, None, (1, 2)))
    assert _snapshot(state) == before
