"""The Observation value (issue 15, the seam): what one seat may know, frozen, with the JSON
a server sends (docs/observation.md); what is hidden stays out by construction."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
import random
import re
from pathlib import Path

import pytest
from recordkit import match_options, new_state, partial_deal, start_of, t, ts

from majiang.engine.match import Match
from majiang.engine.state import Action, HandState
from majiang.observation import MeldView, Observation
from majiang.rules import VARIANTS
from majiang.testing import hidden_twin, twin_step
from majiang.tiles import format_tiles
from majiang.values import MeldKind, Phase

ALL = sorted(VARIANTS)

# guangdong without horses, S0 the dealer: S0 declares a concealed kong of 1m, draws the
# replacement 8m from the back (RULES.md 0.4) and discards 4z, which nobody can claim.
S0 = "1111m258p258s123z 4z"
S1 = "39m39p39s1234567z"
S2 = "4567m4567p4567s7z"
S2_OTHER = "4566m4567p4567s6z"  # another world: only S2's tiles (and so the wall) differ
S3 = "28m28p28s1234567z"


def kong_then_discard(s2: str, horses: str | None = None) -> HandState:
    """The worked hand up to S0's discard of 4z (its claim window open)."""
    opts = match_options({"horses": horses is not None}, first_dealer=0)
    reserved = None if horses is None else {"horses": horses}
    deal = partial_deal([S0, S1, s2, S3], tail="8m", reserved=reserved)
    state = new_state("guangdong", deal, options=opts, start=start_of(0))
    state.apply(Action(0, "kong", t("1m")))
    return state


def test_turn_observations_show_the_drawn_tile_to_its_owner_only() -> None:
    state = kong_then_discard(S2)
    mine, other = state.observation(0), state.observation(1)
    assert (mine.phase, mine.current, mine.drawn) == (Phase.TURN, 0, t("8m"))
    assert other.drawn is None and other.hand == tuple(sorted(ts(S1)))
    assert (mine.window_tile, mine.window_from) == (None, None)
    assert mine.melds[0] == (MeldView(MeldKind.KONG_CONCEALED, (t("1m"),) * 4, None),)
    assert other.melds[0] == (MeldView(MeldKind.KONG_CONCEALED, (), None),)  # face down
    assert mine.hand_sizes == other.hand_sizes == (11, 13, 13, 13)
    assert list(mine.legal) == state.legal_actions(0) and other.legal == ()


def test_to_json_of_a_bystander_in_a_claim_window() -> None:
    state = kong_then_discard(S2)
    state.apply(Action(0, "discard", t("4z")))
    obs = state.observation(1)
    expected = {
        "variant": "guangdong",
        "options": dict(state.options),
        "seat": 1,
        "dealer": 0,
        "counters": {"dealer_run": 1},
        "hand": "39m39p39s1234567z",
        "drawn": None,
        "melds": [
            [{"kind": "kong_concealed", "tiles": "", "source": None, "wilds": 0}],
            [],
            [],
            [],
        ],
        "discards": [["4z"], [], [], []],
        "hand_sizes": [10, 13, 13, 13],  # S0: 14 dealt, 4 in the kong, 1 drawn, 1 thrown
        "flowers": [[], [], [], []],
        "wild": None,
        "revealed": {},
        "variant_state": {},
        "live": 136 - 53 - 1,  # the set, the deal, the replacement
        "phase": "claim",
        "current": 0,
        "window_tile": "4z",
        "window_from": 0,
        "legal": [{"seat": 1, "type": "pass"}],
    }
    data = obs.to_json()
    assert data == expected
    assert json.loads(json.dumps(data)) == expected
    assert state.observation(0).to_json()["melds"][0] == [
        {"kind": "kong_concealed", "tiles": "1111m", "source": None, "wilds": 0}
    ]


def test_observation_is_frozen() -> None:
    obs = kong_then_discard(S2).observation(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.hand = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.melds[0][0].tiles = (0, 0, 0, 0)  # type: ignore[misc]
    assert isinstance(obs.hand, tuple) and isinstance(obs.legal, tuple)
    assert all(isinstance(pile, tuple) for pile in (*obs.discards, *obs.flowers, *obs.melds))


def test_observation_shares_read_only_options_and_counters() -> None:
    # Shared with the state rather than copied per observation: neither side can change them.
    state = kong_then_discard(S2)
    obs = state.observation(1)
    with pytest.raises(TypeError):
        obs.options["horses"] = 8  # type: ignore[index]
    with pytest.raises(TypeError):
        obs.counters["lianzhuang"] = 3  # type: ignore[index]
    assert obs.options == state.options and obs.counters == state.counters
    # a worker process gets it pickled: an equal value, as read-only
    back = pickle.loads(pickle.dumps(obs))
    assert back == obs and copy.deepcopy(obs) == obs
    with pytest.raises(TypeError):
        back.options["horses"] = 8  # type: ignore[index]


def test_hidden_tiles_and_horses_are_not_in_the_observation() -> None:
    # The two worlds differ in S2's concealed tiles, the live wall and the face-down horse.
    a, b = kong_then_discard(S2, horses="6m"), kong_then_discard(S2_OTHER, horses="9p")
    assert a.reserved != b.reserved and a.concealed[2] != b.concealed[2] and a.wall != b.wall
    for moment in range(2):
        for seat in (0, 1, 3):
            assert a.observation(seat) == b.observation(seat)
            assert a.observation(seat).to_json() == b.observation(seat).to_json()
        assert a.observation(2) != b.observation(2)
        if moment == 0:
            for state in (a, b):
                state.apply(Action(0, "discard", t("4z")))


def public_facts_match(state: HandState, obs: Observation) -> None:
    """Every field of ``obs`` is the state's public fact (or ``seat``'s own)."""
    seat = obs.seat
    # observe fills the frozen value's fields directly: every field, and nothing else
    assert list(vars(obs)) == list(Observation.__dataclass_fields__)
    assert Observation(**vars(obs)) == obs
    assert obs.variant == state.variant.id and obs.options == state.options
    assert (obs.dealer, obs.live, obs.phase, obs.current) == (
        state.dealer,
        state.live,
        state.phase,
        state.current,
    )
    assert list(obs.hand) == state.hand_tiles(seat)
    assert obs.hand_sizes == tuple(sum(c) for c in state.concealed)
    assert obs.discards == tuple(tuple(d) for d in state.discards)
    assert obs.flowers == tuple(tuple(f) for f in state.flowers)
    assert obs.wild == state.wild and list(obs.legal) == state.legal_actions(seat)
    for s, melds in enumerate(state.melds):
        for m, seen in zip(melds, obs.melds[s], strict=True):
            hidden = s != seat and m.kind == MeldKind.KONG_CONCEALED
            assert (seen.kind, seen.source) == (m.kind, m.source)
            assert seen.tiles == (() if hidden else m.tiles)
            assert seen.wilds == (0 if hidden else m.wilds)
    if state.phase == Phase.TURN:
        assert obs.drawn == (state.drawn if seat == state.current else None)
        assert (obs.window_tile, obs.window_from) == (None, None)
    else:
        assert obs.drawn is None
        assert (obs.window_tile, obs.window_from) == (state.window_tile, state.window_from)


@pytest.mark.parametrize("variant", ALL)
def test_observations_of_random_games_are_public_facts_and_json(variant: str) -> None:
    # Two worlds differing only in what the observer cannot see (majiang.testing): the
    # observer's Observation and its JSON are equal in both at every step.
    kinds: set[str] = set()
    compared = 0
    for seed in range(12):
        state = Match(variant, {}, seed).new_hand()
        observer = seed % 4
        rng = random.Random(seed)
        world: HandState | None = twin_step(
            state, hidden_twin(state, observer, random.Random(seed)), [], observer
        )
        while not state.is_terminal():
            for seat in range(4):
                obs = state.observation(seat)
                public_facts_match(state, obs)
                data = obs.to_json()
                assert json.loads(json.dumps(data)) == data
                kinds.update(m.kind for ms in obs.melds for m in ms)
            if world is not None:
                compared += 1
                assert state.observation(observer) == world.observation(observer)
                assert (
                    state.observation(observer).to_json() == world.observation(observer).to_json()
                )
            seats = state.to_act()
            seat = seats[rng.randrange(len(seats))]
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            state.apply(action)
            world = twin_step(state, world, [action], observer)
    assert "peng" in kinds and compared > 100


def test_the_documented_example_is_what_the_code_produces(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # docs/observation.md shows a script and its output; if this fails, run the script
    # and paste its output there (one field per line).
    doc = (Path(__file__).resolve().parent.parent / "docs" / "observation.md").read_text()
    script = re.search(r"```python\n(.*?)```", doc, re.DOTALL)
    shown = re.search(r"```json\n(\{.*?\})\n```", doc, re.DOTALL)
    assert script is not None and shown is not None
    exec(compile(script.group(1), "docs/observation.md", "exec"), {})
    assert json.loads(capsys.readouterr().out) == json.loads(shown.group(1))


def test_a_flipped_wild_indicator_is_revealed_to_every_seat() -> None:
    # RULES.md 2.1: with wild_mode flipped, the indicator is turned face up at the deal;
    # every seat sees it (and its kind is the wild), whatever else is hidden.
    state = Match("hangzhou", {"wild_mode": "flipped"}, 11).new_hand()
    indicator = state.reserved["wild_indicator"]
    for seat in range(4):
        obs = state.observation(seat)
        assert obs.revealed == {"wild_indicator": indicator}
        assert obs.to_json()["revealed"] == {"wild_indicator": format_tiles(indicator)}
    horses = Match("guangdong", {"horses": True}, 11).new_hand()
    assert horses.reserved["horses"] and horses.observation(1).revealed == {}


@pytest.mark.parametrize("variant", ALL)
def test_the_public_observation_is_every_seats_minus_what_is_private(variant: str) -> None:
    # A spectator's observation (seat None): each seat's observation without its own tiles,
    # legal actions and face-up view of its concealed kongs; built without reading a hand.
    kongs = 0
    for seed in range(6):
        state = Match(variant, {}, seed).new_hand()
        rng = random.Random(seed)
        while not state.is_terminal():
            pub = state.public_observation()
            assert (pub.seat, pub.hand, pub.drawn, pub.legal) == (None, (), None, ())
            for s in range(4):
                own = dataclasses.replace(
                    state.observation(s), seat=None, hand=(), drawn=None, legal=(), melds=pub.melds
                )
                assert own == pub
            for ms in pub.melds:
                for m in ms:
                    if m.kind == MeldKind.KONG_CONCEALED:
                        kongs += 1
                        assert m.tiles == () and m.wilds == 0
            seats = state.to_act()
            seat = seats[rng.randrange(len(seats))]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))])
    assert kongs or variant != "guangdong"  # guangdong's random games make concealed kongs
