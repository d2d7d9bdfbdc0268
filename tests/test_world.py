"""Worlds behind an observation (majiang.engine.world, issue 19): a world built from a
seat's observation and any filling of the places it hides shows that seat the very same
observation, and a filling that does not fit is refused by name."""

from __future__ import annotations

import dataclasses
import itertools
import random
import re
from collections.abc import Iterator, Mapping

import pytest

from majiang.bots import GreedyBot, RandomBot, play_hand
from majiang.engine import HandState, Match
from majiang.engine.world import (
    Hidden,
    hidden_of,
    sample_hidden,
    unseen_counts,
    world_from_observation,
)
from majiang.errors import DealError, MajiangError
from majiang.observation import Observation
from majiang.values import Action, MeldKind, Phase

CASES: list[tuple[str, dict[str, object]]] = [
    ("guangdong", {}),
    ("hangzhou", {}),
    ("hangzhou", {"wild_mode": "flipped", "start_lao": 3}),
    ("hainan", {}),
    ("hongzhong", {}),
    ("hongzhong", {"no_wild": True, "birds": 6}),
    ("taizhou", {}),
    ("taizhou", {"wild_mode": "fixed_white"}),
]


def _moments(variant: str, options: Mapping[str, object], seed: int) -> Iterator[HandState]:
    """Every moment of a seeded hand between random and greedy bots, one decision apart
    (so windows are seen with some seats decided and others not)."""
    rng = random.Random(seed)
    state = Match(variant, options, seed).new_hand()
    bots = [GreedyBot(rng) if (seed + s) % 2 else RandomBot(rng) for s in range(4)]
    while state.result_ is None:
        if state.phase is not Phase.TURN:
            state.auto_pass()
            if state.result_ is not None:
                return
        yield state
        seats = state.to_act()
        seat = seats[0] if state.phase is not Phase.TURN else seats[-1]
        obs = state.observation(seat)
        state.apply(bots[seat].act(obs, obs.legal))


def _view(state: HandState, seat: int | None) -> Observation:
    return state.observation(seat) if seat is not None else state.public_observation()


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_a_world_shows_the_observation_it_was_built_from(
    variant: str, options: dict[str, object]
) -> None:
    """For every seat (and a spectator) at every moment of three hands: the world from the
    true hidden tiles and a sampled world both give back the observation exactly, and a
    sampled world plays on to an end."""
    checked = 0
    for seed in range(3):
        for state in _moments(variant, options, seed):
            for seat in (0, 1, 2, 3, None):
                obs = _view(state, seat)
                true = world_from_observation(obs, hidden_of(state, seat))
                assert _view(true, seat) == obs
                sampled = HandState.from_observation(
                    obs, sample_hidden(obs, random.Random(checked))
                )
                assert _view(sampled, seat) == obs
                checked += 1
            if checked % 37 == 0:
                world = HandState.from_observation(
                    state.observation(state.current),
                    sample_hidden(state.observation(state.current), random.Random(checked)),
                )
                play_hand(world, [RandomBot(random.Random(s)) for s in range(4)])
                assert sum(world.returns()) == 0
    assert checked > 100


def test_sampled_worlds_differ_only_in_hidden_tiles() -> None:
    """Two samples of one observation hold the same tiles in all (the unseen ones) in
    different places, and the observer's hand is never among them."""
    state = Match("guangdong", {}, 3).new_hand()
    obs = state.observation(2)
    a = sample_hidden(obs, random.Random(1))
    b = sample_hidden(obs, random.Random(2))
    assert a != b
    for h in (a, b):
        assert h.hands[2] == ()
        tiles = sorted(
            [t for hand in h.hands for t in hand]
            + list(h.wall)
            + [t for ts in h.reserved.values() for t in ts]
        )
        unseen = unseen_counts(obs)
        assert tiles == [t for t in range(42) for _ in range(unseen[t])]
    assert sample_hidden(obs, random.Random(1)) == a  # its randomness is the rng's alone


def test_a_face_down_kong_is_filled_with_four_of_a_kind() -> None:
    """Another seat's concealed kong shows no tiles; a sample gives it four unseen tiles
    of one kind, and the world's observation still shows it face down."""
    state = Match("guangdong", {}, 0).new_hand()
    dealer = state.dealer
    state.concealed[dealer] = [0] * 34
    for t in (0, 0, 0, 0, 9, 10, 11, 12, 13, 14, 18, 19, 20, 27):
        state.concealed[dealer][t] += 1
    state.drawn = 27
    state.apply(Action(dealer, "kong", 0))  # type: ignore[arg-type]
    seat = (dealer + 1) % 4
    obs = state.observation(seat)
    assert obs.melds[dealer][0].tiles == ()
    hidden = sample_hidden(obs, random.Random(5))
    ((kind, wilds),) = hidden.kongs[dealer]
    assert wilds == 0 and unseen_counts(obs)[kind] >= 4
    world = HandState.from_observation(obs, hidden)
    assert world.melds[dealer][0].tiles == (kind,) * 4
    assert world.observation(seat) == obs


def test_fillings_that_do_not_fit_are_refused_by_name() -> None:
    state = Match("hongzhong", {}, 4).new_hand()
    obs = state.observation(1)
    good = hidden_of(state, 1)
    HandState.from_observation(obs, good)
    bad = {
        "hidden.hands[0] has": dataclasses.replace(
            good, hands=(good.hands[0][1:], (), good.hands[2], good.hands[3])
        ),
        "hidden.hands[1] has": dataclasses.replace(
            good, hands=(good.hands[0], obs.hand, good.hands[2], good.hands[3])
        ),
        "hidden.wall has": dataclasses.replace(good, wall=good.wall[1:]),
        "hidden.reserved must": dataclasses.replace(good, reserved={}),
        "burns no tiles": dataclasses.replace(good, burned=(good.wall[0],)),
        "unseen": dataclasses.replace(good, wall=(good.wall[1], *good.wall[1:])),
        "list four seats": dataclasses.replace(good, hands=good.hands[:3]),
    }
    for words, hidden in bad.items():
        with pytest.raises(DealError, match=re.escape(words)):
            HandState.from_observation(obs, hidden)
    assert issubclass(DealError, MajiangError)


def test_no_world_for_an_ended_hand() -> None:
    state = Match("guangdong", {}, 1).new_hand()
    play_hand(state, [GreedyBot(random.Random(s)) for s in range(4)])
    obs = state.observation(0)
    with pytest.raises(DealError, match="ended"):
        HandState.from_observation(obs, Hidden(((),) * 4, ()))


def test_the_observer_passes_it_made_are_read_from_its_legal_actions() -> None:
    """A seat not offered a win it could make passed on it before (漏胡, D8): the world
    marks that kind, so its legal actions are those it was shown."""
    found = 0
    for seed in range(40):
        for state in _moments("hongzhong", {}, seed):
            for seat in range(4):
                if state.window_tile is not None and state.window_tile in state.missed_win[seat]:
                    obs = state.observation(seat)
                    world = HandState.from_observation(obs, sample_hidden(obs, random.Random(0)))
                    assert list(world.legal_actions(seat)) == list(obs.legal)
                    found += 1
        if found >= 3:
            break
    assert found >= 1


def _fits(known: frozenset[int], shown: set[int], chis: list[tuple[int, ...]]) -> bool:
    """Brute force: is there a choice of claimed kind per chi, each 熟, with every 熟 kind
    not shown among them (so ``known`` can be the 熟 kinds the table shows)?"""
    return any(
        all(k in known for k in pick) and known - shown <= set(pick)
        for pick in itertools.product(*chis)
    )


def _table_tells_raw(state: HandState) -> bool:
    """Can a taizhou claim window's discard be told 生 or 熟 from the table alone? Not when
    a chi (which does not show which kind it claimed) may have claimed an earlier discard
    of its kind and both readings fit the 熟 kinds shown."""
    seat, tile = state.window_from, state.window_tile
    assert seat is not None and tile is not None
    shown = {t for s, pile in enumerate(state.discards) for t in (pile[:-1] if s == seat else pile)}
    chis = []
    for melds in state.melds:
        for m in melds:
            if m.source is not None and m.kind is MeldKind.CHI:
                chis.append(tuple(m.tiles))
            elif m.source is not None:
                shown.add(m.tiles[0])
    known = state.variant_state.known  # type: ignore[union-attr]
    return tile in shown or not (_fits(known - {tile}, shown, chis) and _fits(known, shown, chis))


RESTORE_CASES = [
    *CASES,
    ("taizhou", {"sheng_phase": False}),
    ("taizhou", {"wild_mode": "fixed_white", "sheng_phase": False}),
]


@pytest.mark.parametrize(("variant", "options"), RESTORE_CASES)
def test_a_rebuilt_world_keeps_the_variant_state_and_taizhou_sheng_of_every_window(
    variant: str, options: dict[str, object]
) -> None:
    """生牌 (docs/rules/taizhou.md, 包三家): at every claim window of seeded hands, the world
    rebuilt from any seat's view has the real variant state, the window discard's 生 flag
    included, also after a chi took an earlier discard of its kind (a chi's claimed tile is
    not shown, but the 熟 kinds shown tell it). Only where both readings fit the table may
    the flag differ, and those windows are few."""
    windows = untold = 0
    for seed in range(40):
        for state in _moments(variant, options, seed):
            if state.phase not in (Phase.CLAIM, Phase.ROB):
                continue
            windows += 1
            tells = variant != "taizhou" or state.phase is Phase.ROB or _table_tells_raw(state)
            untold += not tells
            for seat in (0, 1, 2, 3, None):
                obs = _view(state, seat)
                got = world_from_observation(obs, hidden_of(state, seat)).variant_state
                if tells:
                    assert got == state.variant_state, (seed, seat)
                else:
                    real = state.variant_state
                    assert got._replace(last=None) == real._replace(last=None)  # type: ignore[union-attr]
    assert windows > 100
    assert untold * 50 <= windows
