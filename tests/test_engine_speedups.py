"""The engine's C accelerator ``majiang.engine._speedups`` (issue 18's AEC speed): the
turn's legal list, and a discard from it with its claim window and, when nobody can
claim, the next draw, in one call. The pure Python methods are the reference: every
attribute of the state must be the same after every step of seeded random hands of every
variant, both ways."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import majiang.engine.state as state_module
from majiang.engine.match import Match
from majiang.engine.state import HandState
from majiang.errors import IllegalActionError
from majiang.rules import VARIANTS, get_variant
from majiang.testing import _steered_action
from majiang.values import Action, ActionType, Phase

ALL = sorted(VARIANTS)


def _everything(state: HandState) -> dict[str, object]:
    """Every attribute of the state, copied (lists of lists, sets and dicts by value), but
    the turn list's cache, which C builds at the draw and Python when asked (the lists
    themselves are compared at every turn)."""
    out: dict[str, object] = {}
    for name, value in vars(state).items():
        if name == "_turn_cache":
            continue
        if isinstance(value, list):
            value = [list(v) if isinstance(v, list) else set(v) if isinstance(v, set) else v
                     for v in value]
        elif isinstance(value, dict | set):
            value = value.copy()
        out[name] = value
    return out


def _play_both(
    variant: str, seed: int, choices: random.Random, steer: bool = False
) -> tuple[int, int, int]:
    """One hand played twice from the same deal: ``a`` by ``apply`` then ``auto_pass`` (the
    Python reference), ``b`` by ``play_listed`` for the turn's listed action (the C path
    for discards); compared after every step. Returns the discards
    taken by C with the window closed at once and with it left open, and the turn lists
    holding hu. ``steer``: discards
    keep shanten low and wins are taken (majiang.testing), so that turn lists with hu,
    kongs and instant wins come up."""
    v = get_variant(variant)
    a = Match(v, v.resolve_options(None), seed).new_hand()
    b = a.clone()
    closed = opened = wins = 0
    while a.result_ is None:
        a.auto_pass()
        b.auto_pass()
        assert _everything(b) == _everything(a)
        if a.result_ is not None:
            break
        if a.phase is Phase.TURN and a._turn_cache is None:
            reference = a._py_turn_actions(a.current)  # a's list, kept: legal_actions reads it
            assert b._turn_actions(b.current) == reference  # b's, built by C when accelerated
            assert b._turn_cache == reference
            wins += any(x.type is ActionType.HU for x in reference)
        if steer:
            action = _steered_action(a, choices)  # towards wins: hu, kongs, the wall's end
            seat = action.seat
        else:
            seat = a.to_act()[0]
            legal = a.legal_actions(seat)
            action = legal[choices.randrange(len(legal))]
        legal = a.legal_actions(seat)
        if a.phase is Phase.TURN and seat == a.current:
            own = b._turn_actions(seat)
            state_module.play_listed(b, own[legal.index(action)])
            if action.type is ActionType.DISCARD:
                if b.phase is Phase.TURN:
                    closed += 1
                else:
                    opened += 1
            a.apply(action)
            a.auto_pass()
        else:
            a.apply(action)
            b.apply(action)
        assert _everything(b) == _everything(a), (variant, seed, action)
    return closed, opened, wins


def test_the_engine_accelerator_is_built_and_in_use() -> None:
    """CI builds the extension: the fast path must be the one the other tests exercise."""
    assert state_module.ACCELERATED
    assert state_module._FAST is not None


@pytest.mark.parametrize("variant", ALL)
def test_c_discard_and_draw_make_the_same_hand_as_python(variant: str) -> None:
    choices = random.Random(7)
    closed = opened = wins = 0
    for seed in range(40):
        c, o, w = _play_both(variant, seed, choices, steer=seed % 2 == 1)
        closed += c
        opened += o
        wins += w
    assert closed > 200  # the C path ran to the next draw (and to the wall's end)
    assert opened > 5  # and left a window open where a seat could claim
    assert wins >= 2  # and turn lists with a win were built both ways


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(ALL), seed=st.integers(0, 2**32), pick=st.integers(0, 2**32))
def test_c_discard_matches_python_on_any_deal(variant: str, seed: int, pick: int) -> None:
    _play_both(variant, seed, random.Random(pick), steer=pick % 2 == 1)


@pytest.mark.parametrize("variant", ALL)
def test_then_pass_without_the_accelerator_is_apply_then_auto_pass(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(state_module, "_FAST", None)
    monkeypatch.setattr(state_module, "play_listed", state_module._py_play_listed)
    choices = random.Random(11)
    closed = 0
    for seed in range(8):
        closed += _play_both(variant, seed, choices)[0]
    assert closed > 40


def test_majiang_engine_pure_turns_the_accelerator_off() -> None:
    code = ("import majiang.engine.state as s; "
            "print(s.ACCELERATED, s._FAST, s.play_listed is s._py_play_listed)")
    env = {**os.environ, "MAJIANG_ENGINE_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.split() == ["False", "None", "True"]


def test_play_listed_sends_what_is_not_its_discard_to_the_python_method() -> None:
    """A pass, a kong, a discard read before the turn list, another seat's discard: each
    goes through apply_listed (and so through apply's checks), changing nothing if refused."""
    v = get_variant("guangdong")
    state = Match(v, v.resolve_options(None), 5).new_hand()
    other = (state.current + 1) % 4
    before = _everything(state)
    with pytest.raises(IllegalActionError):
        state_module.play_listed(state, Action(other, ActionType.DISCARD, 0))  # not its turn
    assert _everything(state) == before
    with pytest.raises(IllegalActionError):
        state_module.play_listed(state, Action(state.current, ActionType.CHI, None, (1, 2)))
    assert _everything(state) == before


def test_bad_arguments_are_refused_by_name() -> None:
    v = get_variant("guangdong")
    state = Match(v, v.resolve_options(None), 1).new_hand()
    fast = state_module._FAST
    assert fast is not None
    before = _everything(state)
    with pytest.raises(TypeError, match=r"play_listed\(state, action\)"):
        fast.play_listed(state)  # type: ignore[call-arg]
    with pytest.raises(IllegalActionError):  # a seat 4, a flower: apply's checks refuse them
        fast.play_listed(state, Action(4, ActionType.DISCARD, 0))
    with pytest.raises(IllegalActionError):
        fast.play_listed(state, Action(state.current, ActionType.DISCARD, 34))
    assert _everything(state) == before
    with pytest.raises(ValueError, match="seat 0-3"):
        fast.turn_actions(state, -1)
    with pytest.raises(TypeError):
        fast.turn_actions(state, "east")


def _table_game(variant: str, seed: int) -> list[object]:
    """One seeded hand through the RL table (play_listed's C path), random legal indexes:
    every index played and the hand's deltas."""
    from majiang.rl.table import Table

    table = Table(variant)
    table.start(seed)
    rng = random.Random(seed)
    out: list[object] = []
    while not table.done:
        legal = table.legal()
        index = legal[rng.randrange(len(legal))]
        out.append(index)
        deltas = table.play(index)
        if deltas is not None:
            out.append(tuple(deltas))
    return out


def test_threads_calling_into_the_accelerator_get_the_hands_one_thread_gets() -> None:
    """A variant's hooks run Python from inside the C calls, and Python lets other threads
    in (the server decides for bots in threads): four threads playing hangzhou and
    taizhou hands (followed events, turn filters) with a tiny switch interval get every
    hand exactly as one thread alone does."""
    import threading

    jobs = [(v, seed) for v in ("hangzhou", "taizhou", "guangdong", "hainan") for seed in range(6)]
    alone = {job: _table_game(*job) for job in jobs}
    together: dict[tuple[str, int], list[object]] = {}
    failures: list[BaseException] = []

    def work(mine: list[tuple[str, int]]) -> None:
        try:
            for job in mine:
                together[job] = _table_game(*job)
        except BaseException as exc:  # reported below, not lost in the thread
            failures.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(jobs[i::4],)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not failures, failures
    assert together == alone
