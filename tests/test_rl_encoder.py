"""majiang.rl's fast path (issue 18): the C encoder and C action indexes against the pure
Python reference, cell for cell, for every variant; no leak through the fast path; the
environments without the accelerator give the same arrays."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import rlkit
from hypothesis import given, settings
from hypothesis import strategies as st

import majiang.rl as rl
from majiang.engine import Match
from majiang.engine.state import HandState
from majiang.rl import _encode, features
from majiang.rl.actions import _py_legal_indices, _py_legal_mask
from majiang.rl.features import PLANES, HandContext, encode_state
from majiang.rules import get_variant
from majiang.testing import hidden_permuted
from majiang.values import Action, ActionType, MeldKind

VARIANTS = rl.VARIANTS


def random_options(variant: str, rng: random.Random) -> dict[str, object]:
    """A random choice for every bool and choice option of ``variant`` (ints at default)."""
    out: dict[str, object] = {}
    for opt in get_variant(variant).options:
        if opt.kind == "bool":
            out[opt.name] = rng.random() < 0.5
        elif opt.kind == "choice":
            out[opt.name] = rng.choice(opt.choices)
    return out


def positions(
    variant: str, seed: int, hands: int, *, kongs: bool = False
) -> Iterator[HandState]:
    """Every decision point (and each hand's end) of ``hands`` hands of a match of random
    legal play under random options: the states the environments encode. ``kongs``:
    a kong is taken whenever one is legal (random play seldom makes concealed kongs)."""
    rng = random.Random(seed)
    match = Match(variant, random_options(variant, rng), seed=seed)
    for _ in range(hands):
        if match.over:
            return
        state = match.new_hand()
        while not state.is_terminal():
            if state.phase != "turn":
                state.auto_pass()
                if state.phase == "turn" or state.is_terminal():
                    continue
            yield state
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if kongs:
                legal = [a for a in legal if a.type == "kong"] or legal
            state.apply(legal[rng.randrange(len(legal))])
        yield state
        match.finish(state)


def fast(state: HandState, seat: int, context: HandContext | None = None) -> np.ndarray:
    out = np.full((2, PLANES, 34), np.nan, dtype=np.float32)  # every cell must be written
    encode_state(state, seat, out, 1, context or HandContext(state))
    assert np.isnan(out[0]).all()
    return out[1]


def test_the_accelerator_is_built_and_in_use() -> None:
    assert features.ACCELERATED and features._c is _encode
    assert rl.legal_indices is _encode.legal_indices


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_c_encoder_equals_the_reference_bit_for_bit(variant: str) -> None:
    """Over random matches under random options, every seat at every decision point: the
    row ``encode_state`` writes from the hand is the reference's ``encode`` of the seat's
    Observation, byte for byte; the C action indexes are the reference's too."""
    seen: set[str] = set()
    checked = 0
    for seed in range(12):
        context: HandContext | None = None
        for state in positions(variant, seed, hands=3):
            if context is None or context.state is not state:
                context = HandContext(state)
            for seat in range(4):
                obs = state.observation(seat)
                ref = rl.encode(obs)
                got = fast(state, seat, context)
                assert got.tobytes() == ref.tobytes(), (variant, seed, seat, state.phase)
                assert _encode.legal_indices(obs.legal, obs.window_tile, obs.wild) == (
                    _py_legal_indices(obs.legal, obs.window_tile, obs.wild)
                )
                checked += 1
            for ms in state.melds:
                seen.update(str(m.kind) for m in ms)
            seen.add(str(state.phase))
    assert checked > 2000
    # the cases that matter were met: melds (the concealed kongs random play rarely makes
    # have their own test below), claim windows and the end
    assert {"peng", "kong_direct", "claim", "end"} <= seen, seen
    assert "chi" in seen or "chi" not in get_variant(variant).claims, seen


def test_the_c_action_indexes_equal_the_reference_on_unusual_lists() -> None:
    """Actions with no index (escape, a kong or peng whose wilds fit no block, a chi off
    every shape), and each wild case, index as the reference does."""
    a = ActionType
    legal = [
        Action(0, a.ESCAPE),
        Action(0, a.KONG, 5, (5, 5, 5, 5, 5)),
        Action(0, a.KONG, 5, (33,)),
        Action(0, a.KONG, 5, (5,)),
        Action(0, a.KONG, 5, (5, 33, 33)),
        Action(0, a.KONG, 5, (5, 5, 5)),
        Action(0, a.PENG, None, (5, 33)),
        Action(0, a.PENG, None, (33, 33)),
        Action(0, a.PENG, None, (5, 5)),
        Action(0, a.CHI, None, (33, 33)),
        Action(0, a.CHI, None, (3, 33)),
        Action(0, a.CHI, None, (7, 33)),
        Action(0, a.CHI, None, (1, 9)),
        Action(0, a.CHI, None, (3, 4)),
        Action(0, a.CHI, None, (6, 7)),
        Action(0, a.CHI, None, (4, 6)),
        Action(0, a.DISCARD, 12),
        Action(0, a.HU),
        Action(0, a.PASS),
    ]
    for window in (None, 5):
        for wild in (None, 33, 5):
            assert _encode.legal_indices(legal, window, wild) == _py_legal_indices(
                legal, window, wild
            )
    with pytest.raises(TypeError):
        _encode.legal_indices([("not", "an action")], None, None)


def test_legal_mask_writes_ones_at_the_indexes_and_leaves_the_rest() -> None:
    """``legal_mask`` (C and Python) returns ``legal_indices`` and sets exactly those cells
    of its row to 1, on every decision of random hands; other rows and cells untouched."""
    for variant in VARIANTS:
        for state in positions(variant, 3, 2):
            if state.is_terminal():
                continue
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            window = None if state.phase == "turn" else state.window_tile
            want = _py_legal_indices(legal, window, state.wild)
            for f in (_encode.legal_mask, _py_legal_mask):
                out = np.full((3, rl.ACTION_COUNT), 7, dtype=np.int8)
                assert f(legal, window, state.wild, out, 1) == want
                expect = np.full(rl.ACTION_COUNT, 7, dtype=np.int8)
                expect[want] = 1
                assert (out[1] == expect).all() and (out[[0, 2]] == 7).all()


def test_legal_mask_refuses_bad_buffers_and_writes_nothing() -> None:
    legal = [Action(0, ActionType.DISCARD, 3), Action(0, ActionType.PASS)]
    out = np.zeros((1, rl.ACTION_COUNT), dtype=np.int8)
    with pytest.raises(IndexError, match="row 1"):
        _encode.legal_mask(legal, None, None, out, 1)
    with pytest.raises(TypeError, match="int8"):
        _encode.legal_mask(legal, None, None, np.zeros((1, rl.ACTION_COUNT)), 0)
    with pytest.raises(ValueError, match="outside the space"):
        _encode.legal_mask([Action(0, ActionType.DISCARD, 300)], None, None, out, 0)
    assert not out.any()


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 150),
    shuffle=st.integers(0, 2**32 - 1),
)
def test_no_leak_through_the_fast_path(variant: str, seed: int, steps: int, shuffle: int) -> None:
    """The C encoder reads the hand itself, not an Observation: permuting every tile
    hidden from a seat (others' concealed tiles, the live wall) changes none of its rows."""
    state = None
    for i, position in enumerate(positions(variant, seed, hands=1)):
        state = position
        if i >= steps:
            break
    assert state is not None
    for seat in range(4):
        twin = hidden_permuted(state, seat, random.Random(shuffle))
        assert fast(state, seat).tobytes() == fast(twin, seat).tobytes()


def test_another_seats_concealed_kong_stays_face_down_in_the_fast_path() -> None:
    """Changing the tiles of seat s's concealed kong changes s's own row and no other
    seat's (RULES.md 0.6: its tiles stay face down)."""
    for variant in VARIANTS:
        found = 0
        for seed in range(300):
            for state in positions(variant, seed, hands=1, kongs=True):
                owners = [s for s in range(4)
                          if any(m.kind is MeldKind.KONG_CONCEALED for m in state.melds[s])]
                if not owners:
                    continue
                s = owners[0]
                twin = state.clone()
                i = next(i for i, m in enumerate(twin.melds[s])
                         if m.kind is MeldKind.KONG_CONCEALED)
                old = twin.melds[s][i]
                kind = (old.tiles[0] + 1) % 34
                twin.melds[s][i] = dataclasses.replace(old, tiles=(kind,) * len(old.tiles))
                for seat in range(4):
                    same = fast(state, seat).tobytes() == fast(twin, seat).tobytes()
                    assert same == (seat != s), (variant, seed, seat, s)
                found += 1
                break
            if found >= 2:
                break
        assert found >= 2, variant


def test_bad_buffers_get_errors_and_write_nothing() -> None:
    state = Match("guangdong", {}, seed=1).new_hand()
    context = HandContext(state)
    small = np.zeros((1, PLANES, 34), dtype=np.float32)
    with pytest.raises(IndexError, match="row 1"):
        encode_state(state, 0, small, 1, context)
    with pytest.raises(TypeError, match="float32"):
        encode_state(state, 0, np.zeros((1, PLANES, 34), dtype=np.float64), 0, context)
    with pytest.raises(ValueError, match="seat 4"):
        encode_state(state, 4, small, 0, context)
    assert not small.any()


_FALLBACK = """
import json, sys
sys.modules["majiang.rl._encode"] = None  # as if the extension were not built
sys.path.insert(0, sys.argv[1])
import majiang.rl as rl
from majiang.rl import features
import rlkit
assert not features.ACCELERATED and rl.legal_indices is rl.actions._py_legal_indices
print(json.dumps(rlkit.digests()))
"""


def test_without_the_accelerator_the_environments_return_the_same_arrays() -> None:
    """The pure Python fallback (the extension absent) and the C path agree on every
    observation, mask and reward the environments return."""
    run = subprocess.run(
        [sys.executable, "-c", _FALLBACK, str(Path(__file__).parent)],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == rlkit.digests()
