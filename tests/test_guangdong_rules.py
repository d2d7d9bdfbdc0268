"""One test per rule of RULES.md section 1 (guangdong) that changes an outcome.

Every test builds a small majiang-record/1 in tile notation (partial deals:
the hands, draws, tail and horses it needs) and replays it, or drives
HandState directly where what is *offered* matters. Expected numbers are
worked out by hand from RULES.md 1.5 in the comments (B = base_score,
M = 2 big / 1 small).

Fillers. Claims in guangdong are peng and kong only, so a filler hand made of
13 different kinds can never claim; every filler draw is discarded at once and
no seat holds a pair of it. Two families of fillers are used:

- ``F0 F2 F3`` (honours + 1/2/3/7/8/9 of each suit, one each) for winners
  built from 4-5-6 tiles and few honours;
- ``N0 N2 N3`` (number tiles only) for winners made of honours.

Both families are far from ready (shanten >= 3), so no filler completes a
hand with the tiles it draws. A few tests use their own fillers built the same way.

Unless a test is about horses it plays with ``"horses": false``, so that the
deltas show the rule alone; R at the start is then 83.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest
import recordkit as kit
from recordkit import (
    do,
    hand_entry,
    items,
    kinds,
    legal,
    match_options,
    new_state,
    partial_deal,
    patterns_of,
    replay_one,
    start_of,
    t,
    tsumogiri_step,
    tsumogiri_until,
)

from majiang.cli.score import score
from majiang.engine.match import Match
from majiang.engine.state import HandState, Meld, WinInfo
from majiang.engine.wall import deal_from_wall, full_set
from majiang.errors import IllegalActionError, MajiangError, OptionError, RecordError
from majiang.hand import is_winning
from majiang.records import replay, replay_match
from majiang.rules import VARIANTS
from majiang.rules.guangdong import GUANGDONG, horse_target
from majiang.tiles import parse_tiles

# -- fillers (see the module docstring) -------------------------------------------------
F0 = "17m17p17s1234567z"  # 13 tiles; the dealer adds a 14th
F2 = "28m28p28s1234567z"
F3 = "39m39p39s1234567z"
N0 = "124578m1258p369s"  # 13 tiles; the dealer adds a 14th
N2 = "369m1479p124578s"
N3 = "2358m369p134679s"

NO_HORSES: dict[str, Any] = {"horses": False}


# -- helpers (generic ones in recordkit) ------------------------------------------------
def hand(
    hands: Sequence[str],
    actions: Iterable[tuple[Any, ...]] = (),
    *,
    draws: str = "",
    tail: str = "",
    horses: str | None = None,
    dealer: int | None = 0,
    autoplay: str | None = None,
) -> dict[str, Any]:
    """One hand of a record; actions are (seat, type[, tile]) tuples."""
    deal = partial_deal(hands, draws=draws, tail=tail, reserved={"horses": horses})
    return hand_entry(deal, actions, dealer=dealer, autoplay=autoplay)


def record(
    *hands: dict[str, Any],
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    run: int = 1,
    seed: int = 1,
) -> dict[str, Any]:
    """A guangdong majiang-record/1; ``options`` default to horses off."""
    counters = {"dealer_run": run}
    return kit.record(
        "guangdong",
        hands,
        options=options,
        defaults=NO_HORSES,
        dealer=dealer,
        counters=counters,
        seed=seed,
    )


def play1(
    hands: Sequence[str],
    actions: Iterable[tuple[Any, ...]] = (),
    *,
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    run: int = 1,
    **deal: Any,
) -> dict[str, Any]:
    """Replay a one-hand record; the hand's majiang-result/1 entry."""
    h = hand(hands, actions, dealer=dealer, **deal)
    return replay_one(record(h, options=options, dealer=dealer, run=run))


def state1(
    hands: Sequence[str],
    *,
    draws: str = "",
    tail: str = "",
    horses: str | None = None,
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    run: int = 1,
    seed: int = 1,
) -> HandState:
    """The start of a hand built from a partial deal, for driving HandState directly."""
    deal = partial_deal(hands, draws=draws, tail=tail, reserved={"horses": horses})
    opts = match_options(options, NO_HORSES, first_dealer=dealer)
    start = start_of(dealer, {"dealer_run": run})
    return new_state("guangdong", deal, options=opts, start=start, seed=seed)


# A basic self-draw of S1 on its first draw (used by several tests):
# S0 discards 5m, S1 (123m 456p 789s 234s 6m, waiting on 6m) draws 6m.
BASIC = [F0 + " 5m", "123m456p789s234s6m", F2, F3]
BASIC_ACTIONS = [(0, "discard", "5m"), (1, "hu")]


# == 1.3 claims ============================================================================
def test_no_chi_in_guangdong() -> None:
    # S1 holds 12m and 45m (and 4m-6m around): 3m from S0, its previous seat, would be a chi.
    state = state1([F0 + " 3m", "12m45m6m456p456s45z", F2, F3], draws="7p")
    do(state, 0, "discard", "3m")
    # no claim window opened: S1 simply drew
    assert state.phase == "turn"
    assert state.current == 1
    assert state.drawn == t("7p")
    assert "chi" not in kinds(legal(state, 1))
    rec = record(
        hand(
            [F0 + " 3m", "12m45m6m456p456s45z", F2, F3],
            [(0, "discard", "3m")],
            draws="7p",
            autoplay="tsumogiri",
        )
    )
    rec["hands"][0]["actions"].append({"seat": 1, "type": "chi", "tiles": "12m"})
    with pytest.raises(RecordError, match=r"hand 0, action 1, seat 1"):
        replay(rec)


def test_no_win_on_discard() -> None:
    # S1 = 123m 456p 789s 44m 55s waits on 4m / 5s (shanpon). S0 discards 4m.
    hands = [F0 + " 4m", "123m456p789s44m55s", F2, F3]
    state = state1(hands, draws="5s")
    assert is_winning([*state.hand_tiles(1), t("4m")])
    do(state, 0, "discard", "4m")
    assert state.phase == "claim"
    assert legal(state, 1) == {"S1 peng", "S1 pass"}  # a peng, never a win on the discard
    with pytest.raises(IllegalActionError):
        do(state, 1, "hu")
    do(state, 1, "pass")
    # S1 draws 5s and may win by self-draw on the same wait
    assert state.current == 1 and state.drawn == t("5s")
    assert "S1 hu" in legal(state, 1)
    # In a record, S1's 'hu' right after the discard is not a claim of that window
    # (FORMAT.md): the window closes, S1 draws 5s and the hu is a self-draw.
    # Self-draw, small: each pays 2*B*M = 2*1*1 = 2 -> S1 +6.
    h = play1(hands, [(0, "discard", "4m"), (1, "hu")], draws="5s")
    assert (h["winner"], h["win_type"], h["from"]) == (1, "self_draw", None)
    assert h["deltas"] == [-2, 6, -2, -2]


def test_peng_and_direct_kong_from_any_seat() -> None:
    # S2 (opposite of S0) pengs S0's 5m; S1 (previous of S2) may kong S2's 6s.
    hands = [F0 + " 5m", "46m456p45666s123z", "55m6s28p28s123456z", F3]
    state = state1(hands)
    do(state, 0, "discard", "5m")
    assert legal(state, 2) == {"S2 peng", "S2 pass"}
    assert legal(state, 1) == set() and legal(state, 3) == set()
    do(state, 2, "peng")
    do(state, 2, "discard", "6s")
    assert legal(state, 1) == {"S1 kong 6s", "S1 peng", "S1 pass"}


def test_no_missed_peng_restriction() -> None:
    # S0 holds 55p, S1 holds 55p. S1 passes on S0's first 5p and may still peng the second.
    hands = ["17m17p17s123456z5p 5p", "55p123m456s789s56z", F2, F3]
    state = state1(hands, draws="4m 4p 6s 6p")
    do(state, 0, "discard", "5p")
    assert legal(state, 1) == {"S1 peng", "S1 pass"}
    do(state, 1, "pass")
    do(state, 1, "discard", "4m")
    do(state, 2, "discard", "4p")
    do(state, 3, "discard", "6s")
    do(state, 0, "discard", "5p")
    assert legal(state, 1) == {"S1 peng", "S1 pass"}


def test_win_is_optional_and_no_missed_win_restriction_D4() -> None:
    # S1 (waiting on 6m) draws 6m and discards it instead of winning; later it
    # draws the next 6m and wins. Small self-draw: each pays 2 -> S1 +6.
    h = play1(
        BASIC,
        [
            (0, "discard", "5m"),
            (1, "discard", "6m"),
            (2, "discard", "4m"),
            (3, "discard", "5p"),
            (0, "discard", "4s"),
            (1, "hu"),
        ],
        draws="6m 4m 5p 4s 6m",
    )
    assert (h["winner"], h["win_type"]) == (1, "self_draw")
    assert h["deltas"] == [-2, 6, -2, -2]


def test_no_win_right_after_peng_D5() -> None:
    # S1 = 55m 123p 456p 789p 11s pengs 5m: its 11 concealed tiles are then complete
    # (123p 456p 789p 11s), but a win right after a peng is not allowed.
    hands = [F0 + " 5m", "55m123p456p789p11s", F2, F3]
    state = state1(hands)
    do(state, 0, "discard", "5m")
    do(state, 1, "peng")
    assert is_winning(state.hand_tiles(1))
    assert state.current == 1
    assert kinds(legal(state, 1)) == {"discard"}
    with pytest.raises(IllegalActionError, match="D5"):
        do(state, 1, "hu")
    rec = record(hand(hands, [(0, "discard", "5m"), (1, "peng"), (1, "hu")]))
    with pytest.raises(RecordError, match=r"hand 0, action 2, seat 1"):
        replay(rec)


def test_kong_allowed_right_after_peng_D5() -> None:
    # S1 holds 555m and pengs S0's 5m (instead of konging it): it may add the 4th
    # at once; the replacement 1s completes kong 5555m + 123p 456p 789p 11s.
    hands = [F0 + " 5m", "555m123p456p789p1s", F2, F3]
    state = state1(hands, tail="1s")
    do(state, 0, "discard", "5m")
    assert legal(state, 1) == {"S1 kong 5m", "S1 peng", "S1 pass"}
    do(state, 1, "peng")
    assert "S1 kong 5m" in legal(state, 1)
    assert "S1 hu" not in legal(state, 1)
    do(state, 1, "kong", "5m")
    assert state.drawn == t("1s") and "S1 hu" in legal(state, 1)
    # hu: small self-draw on an added kong's replacement, 2 from each (+6);
    # added kong 1B from each (+3). S1 +9, the others -3.
    h = play1(hands, [(0, "discard", "5m"), (1, "peng"), (1, "kong", "5m"), (1, "hu")], tail="1s")
    assert (h["winner"], h["win_type"]) == (1, "kong_replacement")
    assert h["deltas"] == [-3, 9, -3, -3]


# -- robbing --------------------------------------------------------------------------------
# S2 = 34m 789p 123s 789s 11z waits on 2m / 5m: it could rob a 5m.
ROB_S2 = "34m789p123789s11z"


def test_rob_only_added_kong_not_concealed() -> None:
    # Concealed kong: S1 holds 5555m, draws 9m and konges; S2 (waiting on 5m) is offered nothing.
    state = state1([F0 + " 6m", "5555m456p456s467z", ROB_S2, F3], draws="9m", tail="1p")
    assert is_winning([*state.hand_tiles(2), t("5m")])
    do(state, 0, "discard", "6m")
    do(state, 1, "kong", "5m")
    assert state.phase == "turn" and state.to_act() == [1]
    assert state.drawn == t("1p")  # the kong stood: S1 made its back draw
    assert legal(state, 2) == set()
    # the observations follow the melds: face down to the others, face up to S1 (RULES.md 0.6)
    assert [(m.kind, m.tiles) for m in state.observation(2).melds[1]] == [("kong_concealed", ())]
    assert state.observation(1).melds[1][0].tiles == (t("5m"),) * 4
    # Added kong: S1 pengs S0's 5m, later draws the 4th 5m and adds it: S2 may rob.
    state = state1([F0 + " 5m", "55m9m1456p456s467z", ROB_S2, F3], draws="6m 6p 4s 5m", tail="1p")
    do(state, 0, "discard", "5m")
    do(state, 1, "peng")
    do(state, 1, "discard", "9m")
    do(state, 2, "discard", "6m")
    do(state, 3, "discard", "6p")
    do(state, 0, "discard", "4s")
    do(state, 1, "kong", "5m")
    assert state.phase == "rob"
    assert legal(state, 2) == {"S2 hu", "S2 pass"}
    assert [m.kind for m in state.observation(3).melds[1]] == ["kong_added"]
    do(state, 2, "hu")
    # RULES.md D9: the robbed kong is cancelled, and every seat sees the peng again
    assert [m.kind for m in state.observation(3).melds[1]] == ["peng"]


def test_rob_not_direct_kong() -> None:
    # S1 konges S0's discarded 5m (direct kong); S2, waiting on 5m, cannot rob it.
    state = state1([F0 + " 5m", "555m1456p456s467z", ROB_S2, F3], tail="9m")
    do(state, 0, "discard", "5m")
    do(state, 1, "kong", "5m")
    assert state.phase == "turn" and state.to_act() == [1]
    assert state.drawn == t("9m")
    assert legal(state, 2) == set()


# S2 (not ready yet) discards its 5m, which S1 pengs; S2 then draws 1z and is waiting
# on 2m/5m (34m 789p 123s 789s 11z), S3 on 5m/8m (67m 456p 234s 678s 33z).
# S1 draws the 4th 5m and adds it to the peng.
D17_HANDS = [F0 + " 2p", "55m19m159p159s456z", "345m789p123s789s1z", "67m456p234s678s33z"]
D17_DRAWS = "8p 6z 1z 3p 4p 5m"
D17_ACTIONS = [
    (0, "discard", "2p"),
    (1, "discard", "8p"),
    (2, "discard", "5m"),
    (1, "peng"),
    (1, "discard", "4z"),
    (2, "discard", "6z"),
    (3, "discard", "3p"),
    (0, "discard", "4p"),
    (1, "kong", "5m"),
]


def test_rob_not_own_discarded_peng_D17() -> None:
    state = state1(D17_HANDS, draws=D17_DRAWS)
    for a in D17_ACTIONS:
        do(state, a[0], a[1], *a[2:])
    assert state.phase == "rob"
    assert is_winning([*state.hand_tiles(2), t("5m")])  # S2 has the shape ...
    assert legal(state, 2) == set()  # ... but fed the peng, so it may not rob
    assert legal(state, 3) == {"S3 hu", "S3 pass"}
    with pytest.raises(RecordError, match=r"action 9, seat 2"):
        replay(record(hand(D17_HANDS, [*D17_ACTIONS, (2, "hu")], draws=D17_DRAWS)))
    # S3 robs: small, the konger S1 alone pays 3*2*B*M = 3*2*1*1 = 6.
    h = play1(D17_HANDS, [*D17_ACTIONS, (3, "hu")], draws=D17_DRAWS)
    assert (h["winner"], h["win_type"], h["from"]) == (3, "rob_kong", 1)
    assert h["deltas"] == [0, -6, 0, 6]


# S1 pengs S2's 5m, later draws the 4th 5m and adds it. Two seats can rob the 5m
# (S2 fed the peng and is no robber, D17):
#   S3 = 34m 678m 789m 222z 33z -> 345m 678m 789m 222z 33z, half_flush (big)
#   S0 = 46m 789p 123s 789s 11z -> 456m 789p 123s 789s 11z, basic_hand
ROB_HANDS = [
    "46m789p123s789s11z 2p",
    "55m19m159p159s456z",
    "58m28p28s1234567z",
    "34m678m789m222z33z",
]
ROB_DRAWS = "3p 6p 4p 1p 5p 5m 7p 2m"
ROB_TAIL = "4z"
ROB_ACTIONS = [
    (0, "discard", "2p"),
    (1, "discard", "3p"),
    (2, "discard", "5m"),
    (1, "peng"),
    (1, "discard", "4z"),
    (2, "discard", "4p"),
    (3, "discard", "1p"),
    (0, "discard", "5p"),
    (1, "kong", "5m"),
]


def rob_play(extra: list[tuple[Any, ...]], options: dict[str, Any] | None = None) -> dict[str, Any]:
    return play1(ROB_HANDS, [*ROB_ACTIONS, *extra], draws=ROB_DRAWS, tail=ROB_TAIL, options=options)


def test_nearest_robber_wins_D9() -> None:
    state = state1(ROB_HANDS, draws=ROB_DRAWS, tail=ROB_TAIL)
    for a in ROB_ACTIONS:
        do(state, a[0], a[1], *a[2:])
    assert state.phase == "rob" and set(state.window_options) == {0, 3}
    # Both rob, listed S0 first: S3 (opposite of the konger S1) is nearer after S1 than
    # S0 (previous). Big (half_flush): S1 pays 3*2*1*2 = 12.
    h = rob_play([(0, "hu"), (3, "hu")])
    assert (h["winner"], h["win_type"], h["from"]) == (3, "rob_kong", 1)
    assert h["patterns"] == ["half_flush"]
    assert h["deltas"] == [0, -12, 0, 12]
    # S3 passes: S0 robs. Small: S1 pays 3*2*1*1 = 6.
    h = rob_play([(3, "pass"), (0, "hu")])
    assert (h["winner"], h["win_type"], h["from"]) == (0, "rob_kong", 1)
    assert h["deltas"] == [6, -6, 0, 0]


@pytest.mark.parametrize(("base", "pay"), [(1, 12), (3, 36)])
def test_rob_kong_paid_by_konger_alone(base: int, pay: int) -> None:
    # S3 robs with half_flush (M = 2): the konger pays 3*2*B*M = 12*B, nobody else pays.
    h = rob_play([(3, "hu"), (0, "pass")], options={"horses": False, "base_score": base})
    assert items(h) == [("hu", 1, 3, pay)]
    assert h["deltas"] == [0, -pay, 0, pay]


def test_robbed_kong_is_not_paid() -> None:
    state = state1(ROB_HANDS, draws=ROB_DRAWS, tail=ROB_TAIL)
    for a in ROB_ACTIONS:
        do(state, a[0], a[1], *a[2:])
    do(state, 3, "hu")
    do(state, 0, "pass")
    assert state.is_terminal()
    # the kong is cancelled: S1 keeps its peng of S2's 5m
    assert state.melds[1] == [Meld("peng", (t("5m"),) * 3, 2, t("5m"))]
    res = state.result()
    assert [i.kind for i in res.items] == ["hu"]  # no kong item for S1's added kong
    assert res.deltas == [0, -12, 0, 12]  # 3*2*1*2 from S1; a paid kong would give S1 +3


def test_added_kong_pays_1B_each_when_not_robbed() -> None:
    # Both decline the rob: the kong stands, S1 draws 4z from the back and discards it,
    # S2 draws 7p and discards it, S3 draws 2m and wins (234m 678m 789m 222z 33z, big).
    # hu 2*1*2 = 4 from each of S0 S1 S2 -> S3 +12; added kong 1 from each of S0 S2 S3.
    # S0 -4-1 = -5, S1 -4+3 = -1, S2 -4-1 = -5, S3 +12-1 = +11.
    h = rob_play([(3, "pass"), (0, "pass"), (1, "discard", "4z"), (2, "discard", "7p"), (3, "hu")])
    assert (h["winner"], h["win_type"]) == (3, "self_draw")
    assert items(h, "kong") == [("kong", 0, 1, 1), ("kong", 2, 1, 1), ("kong", 3, 1, 1)]
    assert h["deltas"] == [-5, -1, -5, 11]


# == 1.2 wall ==============================================================================
_drive_to = tsumogiri_until  # tsumogiri until a turn starts with R == live


# S1 holds 666p, S2 7777s, S3 5555m and the fourth 6p; the rest is filled from the seed.
WALL_HANDS = ["", "666p", "7777s", "5555m6p"]


def test_kong_needs_live_tile() -> None:
    state = state1(WALL_HANDS)
    assert state.live == 83  # 136 - 53 - 0 horses
    # Nobody claims, so ordinary draw k goes to seat k mod 4: draw 79 (R = 4) to S3,
    # draw 82 (R = 1) to S2, draw 83 (R = 0) to S3.
    _drive_to(state, 4)
    assert state.current == 3 and "S3 kong 5m" in legal(state, 3)
    _drive_to(state, 1)
    assert state.current == 2 and "S2 kong 7s" in legal(state, 2)
    at_one = state.clone()
    _drive_to(state, 0)
    assert state.current == 3
    assert "kong" not in kinds(legal(state, 3))  # R = 0: no replacement tile exists
    # A kong at R = 1 takes the last tile as its replacement; no kong after it.
    last = at_one.wall[at_one.hi - 1]
    do(at_one, 2, "kong", "7s")
    assert at_one.live == 0 and at_one.drawn == last
    assert "kong" not in kinds(legal(at_one, 2))


def test_exhaustive_draw_at_R0_and_last_discard_unclaimable_D15() -> None:
    state = state1(WALL_HANDS)
    _drive_to(state, 4)
    # with R = 4, S3's 6p would give S1 (666p) a kong or a peng
    trial = state.clone()
    do(trial, 3, "discard", "6p")
    assert legal(trial, 1) == {"S1 kong 6p", "S1 peng", "S1 pass"}
    _drive_to(state, 0)
    assert state.current == 3
    do(state, 3, "discard", "6p")  # the discard after the last tile: nobody may claim it
    assert state.is_terminal()
    res = state.result()
    assert res.outcome == "draw" and res.win is None
    assert res.deltas == [0, 0, 0, 0]
    # After a kong at R = 1 the konger's discard ends the hand too.
    state = state1(WALL_HANDS)
    _drive_to(state, 1)
    do(state, 2, "kong", "7s")
    tsumogiri_step(state)
    assert state.is_terminal() and state.result().outcome == "draw"
    assert state.result().deltas == [0, 0, 0, 0]  # kongs unpaid in a drawn hand (D16)


# == 1.4 winning: patterns ===================================================================
# Winner S1, self-draw on its first draw unless stated. Big hand: each pays
# 2*B*M = 2*1*2 = 4 -> [-4, 12, -4, -4]; small: 2 each -> [-2, 6, -2, -2].
BIG = [-4, 12, -4, -4]
SMALL = [-2, 6, -2, -2]


def test_basic_hand() -> None:
    h = play1(BASIC, BASIC_ACTIONS, draws="6m")
    assert (h["outcome"], h["winner"], h["win_type"], h["from"]) == ("win", 1, "self_draw", None)
    assert h["patterns"] == ["basic_hand"]
    assert items(h) == [("hu", 0, 1, 2), ("hu", 2, 1, 2), ("hu", 3, 1, 2)]
    assert h["deltas"] == SMALL


def test_all_one_suit() -> None:
    # 123m 456m 789m 11m + 55m, draws 5m: 123m 456m 789m 555m 11m
    h = play1(
        [F0 + " 5p", "123456789m11m55m", F2, F3], [(0, "discard", "5p"), (1, "hu")], draws="5m"
    )
    assert h["patterns"] == ["all_one_suit"]
    assert h["deltas"] == BIG


def test_all_honors() -> None:
    # S1 pengs 1z, then draws 5z: peng 111z, 222z 333z 555z 66z (the peng rules out 4 concealed).
    h = play1(
        [N0 + " 1z", "11z222z333z55z66z7z", N2, N3],
        [
            (0, "discard", "1z"),
            (1, "peng"),
            (1, "discard", "7z"),
            (2, "discard", "9p"),
            (3, "discard", "4z"),
            (0, "discard", "1s"),
            (1, "hu"),
        ],
        draws="9p 4z 1s 5z",
    )
    assert h["patterns"] == ["all_honors"]
    assert h["deltas"] == BIG


@pytest.mark.parametrize(
    ("hunyise_big", "patterns", "deltas"),
    [(True, ["half_flush"], BIG), (False, ["basic_hand"], SMALL)],
)
def test_half_flush(hunyise_big: bool, patterns: list[str], deltas: list[int]) -> None:
    # 123m 456m 789m 22z + draws 1z: 111z -> characters and honours only (D11)
    h = play1(
        [N0 + " 5s", "123m456m789m11z22z", N2, N3],
        [(0, "discard", "5s"), (1, "hu")],
        draws="1z",
        options={"horses": False, "hunyise_big": hunyise_big},
    )
    assert h["patterns"] == patterns
    assert h["deltas"] == deltas


def test_seven_pairs_with_a_quadruple_counting_as_two_pairs() -> None:
    # 4444m 55m 66p 44s 55s 66s: 4444m counts as two pairs; no standard reading exists.
    hands = [F0 + " 5p", "4444m55m66p44s55s6s", F2, F3]
    h = play1(hands, [(0, "discard", "5p"), (1, "hu")], draws="6s")
    assert h["patterns"] == ["seven_pairs"]
    assert h["deltas"] == BIG


def test_four_concealed_triplets() -> None:
    # 444m 555p 666s 44s 55s, draws 4s: the self-drawn tile completes 444s.
    h = play1(
        [F0 + " 5m", "444m555p666s44s55s", F2, F3], [(0, "discard", "5m"), (1, "hu")], draws="4s"
    )
    assert h["patterns"] == ["four_concealed_triplets"]
    assert h["deltas"] == BIG


def test_four_concealed_triplets_counts_a_concealed_kong() -> None:
    # S1 draws 5s, konges 5555m (concealed); the replacement 4s completes 444s:
    # ckong 5555m, 444p 666s 444s, 55s. hu big 4 from each (+12), concealed kong 2 from
    # each (+6): S1 +18, the others -6.
    h = play1(
        [F0 + " 6m", "5555m444p666s44s5s", F2, F3],
        [(0, "discard", "6m"), (1, "kong", "5m"), (1, "hu")],
        draws="5s",
        tail="4s",
    )
    assert (h["winner"], h["win_type"]) == (1, "kong_replacement")
    assert h["patterns"] == ["four_concealed_triplets"]
    assert h["deltas"] == [-6, 18, -6, -6]


def test_all_pungs_with_a_peng_is_not_big_D12() -> None:
    # The same four triplets, but 444m is a peng: no 4 concealed triplets, and 碰碰胡
    # is no big hand -> small.
    h = play1(
        [F0 + " 4m", "44m555p666s44s55s9m", F2, F3],
        [
            (0, "discard", "4m"),
            (1, "peng"),
            (1, "discard", "9m"),
            (2, "discard", "6m"),
            (3, "discard", "6p"),
            (0, "discard", "4p"),
            (1, "hu"),
        ],
        draws="6m 6p 4p 4s",
    )
    assert h["patterns"] == ["basic_hand"]
    assert h["deltas"] == SMALL


def test_four_kongs() -> None:
    # S1: direct kong 4m (S0's discard), concealed kongs 5p, 6s and 1z (replacements
    # 1z 1z 1z), then the replacement 7z pairs its 7z.
    # hu (kong replacement after a concealed kong = ordinary self-draw, big): 4 from each
    # -> +12; direct kong S0 -> S1 3; three concealed kongs 2 from each -> 6 from each.
    # S1 12+3+18 = 33; S0 -4-3-6 = -13; S2 -4-6 = -10; S3 -10.
    h = play1(
        ["1289m19p19s23456z 4m", "444m5555p6666s1z7z", "37m2378p2378s234z", "1289m1289p1289s5z"],
        [
            (0, "discard", "4m"),
            (1, "kong", "4m"),
            (1, "kong", "5p"),
            (1, "kong", "6s"),
            (1, "kong", "1z"),
            (1, "hu"),
        ],
        tail="1z 1z 1z 7z",
    )
    assert h["win_type"] == "kong_replacement"
    assert h["patterns"] == ["four_kongs"]
    assert h["deltas"] == [-13, 33, -10, -10]


def test_big_three_dragons() -> None:
    # 555z 666z 77z 123m 99p, draws 7z: 555z 666z 777z 123m 99p
    h = play1(
        [N0 + " 5s", "555z666z77z123m99p", N2, N3], [(0, "discard", "5s"), (1, "hu")], draws="7z"
    )
    assert h["patterns"] == ["big_three_dragons"]
    assert h["deltas"] == BIG


def test_big_four_winds() -> None:
    # peng 111z, 222z 333z 44z 99m, draws 4z. hunyise_big is off because such a hand is
    # always a half flush too; the peng rules out four concealed triplets.
    h = play1(
        [N0 + " 1z", "11z222z333z44z99m7m", N2, N3],
        [
            (0, "discard", "1z"),
            (1, "peng"),
            (1, "discard", "7m"),
            (2, "discard", "9s"),
            (3, "discard", "9p"),
            (0, "discard", "5z"),
            (1, "hu"),
        ],
        draws="9s 9p 5z 4z",
        options={"horses": False, "hunyise_big": False},
    )
    assert h["patterns"] == ["big_four_winds"]
    assert h["deltas"] == BIG


def test_little_four_winds() -> None:
    # 111z 222z 333z 123m + 4z, draws 4z (pair). hunyise_big off as above.
    h = play1(
        [N0 + " 5s", "111z222z333z4z123m", N2, N3],
        [(0, "discard", "5s"), (1, "hu")],
        draws="4z",
        options={"horses": False, "hunyise_big": False},
    )
    assert h["patterns"] == ["little_four_winds"]
    assert h["deltas"] == BIG


def test_thirteen_orphans() -> None:
    h = play1(
        [N0 + " 5s", "19m19p19s1234567z", N2, N3], [(0, "discard", "5s"), (1, "hu")], draws="1m"
    )
    assert h["patterns"] == ["thirteen_orphans"]
    assert h["deltas"] == BIG


def test_big_patterns_do_not_stack_D12() -> None:
    # Seven pairs of honours: all_honors and seven_pairs, still M = 2 (not 4).
    h = play1(
        [N0 + " 5s", "11z22z33z44z55z66z7z", N2, N3], [(0, "discard", "5s"), (1, "hu")], draws="7z"
    )
    assert h["patterns"] == ["all_honors", "seven_pairs"]
    assert h["deltas"] == BIG


HEAVENLY = ["123m456p789s234s 6m6m", F0, F2, F3]


def test_heavenly_hand() -> None:
    # The dealer's 14 dealt tiles 123m 456p 789s 234s 66m are complete.
    # Big self-draw: 4 from each -> S0 +12.
    h = play1(HEAVENLY, [(0, "hu")])
    assert (h["winner"], h["win_type"]) == (0, "instant")
    assert h["patterns"] == ["heavenly_hand"]
    assert h["deltas"] == [12, -4, -4, -4]


def test_heavenly_hand_after_concealed_kong_D19() -> None:
    # Dealer: 5555m 123p 456p 789s 6s; concealed kong 5m, replacement 6s completes.
    # hu big 4 from each (+12) and concealed kong 2 from each (+6): S0 +18.
    h = play1(["5555m123p456p789s 6s", F0, F2, F3], [(0, "kong", "5m"), (0, "hu")], tail="6s")
    assert (h["winner"], h["win_type"]) == (0, "instant")
    assert h["patterns"] == ["heavenly_hand"]
    assert h["deltas"] == [18, -6, -6, -6]


def test_dealer_win_after_a_discard_is_not_heavenly() -> None:
    # The dealer discards 5z first, then self-draws 6m: an ordinary small self-draw.
    h = play1(
        ["123m456p789s234s6m 5z", F0, F2, F3],
        [
            (0, "discard", "5z"),
            (1, "discard", "4m"),
            (2, "discard", "5m"),
            (3, "discard", "4p"),
            (0, "hu"),
        ],
        draws="4m 5m 4p 6m",
    )
    assert (h["winner"], h["win_type"]) == (0, "self_draw")
    assert h["patterns"] == ["basic_hand"]
    assert h["deltas"] == [6, -2, -2, -2]


# == 1.5 scoring ===============================================================================
def test_self_draw_pays_2BM_each() -> None:
    # B = 2, small: each pays 2*2*1 = 4 -> S1 +12
    h = play1(BASIC, BASIC_ACTIONS, draws="6m", options={"horses": False, "base_score": 2})
    assert items(h) == [("hu", 0, 1, 4), ("hu", 2, 1, 4), ("hu", 3, 1, 4)]
    assert h["deltas"] == [-4, 12, -4, -4]


# S3 discards 5m, S1 (555m 123p 789p 456s 4m) konges it; the replacement 4m completes.
GSKH_HANDS = [F0 + " 6p", "555m123p789p456s4m", F2, "35m37p37s1234567z"]
GSKH_ACTIONS = [
    (0, "discard", "6p"),
    (1, "discard", "9s"),
    (2, "discard", "6p"),
    (3, "discard", "5m"),
    (1, "kong", "5m"),
]


@pytest.mark.parametrize(("base", "deltas"), [(1, [0, 9, 0, -9]), (2, [0, 18, 0, -18])])
def test_kong_replacement_after_direct_kong_paid_by_feeder_alone_D18(
    base: int, deltas: list[int]
) -> None:
    # hu: S3 alone pays 3*2*B*M = 6B (small); direct kong: S3 pays 3B. S1 +9B, S3 -9B.
    h = play1(
        GSKH_HANDS,
        [*GSKH_ACTIONS, (1, "hu")],
        draws="9s 6p 6s",
        tail="4m",
        options={"horses": False, "base_score": base},
    )
    assert (h["winner"], h["win_type"], h["from"]) == (1, "kong_replacement", None)
    assert h["patterns"] == ["basic_hand"]
    assert items(h) == [("hu", 3, 1, 6 * base), ("kong", 3, 1, 3 * base)]
    assert h["deltas"] == deltas


def test_kong_replacement_last_kong_decides_D18() -> None:
    # As above, but the replacement 4s gives S1 4444s; it konges it and wins on the next
    # replacement 4m: the last kong is concealed, so an ordinary self-draw.
    # hu 2 from each (+6); direct kong S3 -> S1 3; concealed kong 2 from each (+6).
    # S1 +15, S0 -4, S2 -4, S3 -2-3-2 = -7.
    hands = [F0 + " 6p", "555m123p789p444s4m", F2, "35m37p37s1234567z"]
    h = play1(
        hands,
        [*GSKH_ACTIONS, (1, "kong", "4s"), (1, "hu")],
        draws="9s 6p 6s",
        tail="4s 4m",
    )
    assert (h["winner"], h["win_type"]) == (1, "kong_replacement")
    assert items(h, "hu") == [("hu", 0, 1, 2), ("hu", 2, 1, 2), ("hu", 3, 1, 2)]
    assert h["deltas"] == [-4, 15, -4, -7]


def test_kong_replacement_after_concealed_kong_is_ordinary_self_draw() -> None:
    # S1 draws 4m, konges 5555m, the replacement 4m completes 123p 789p 456s 44m.
    # hu 2 from each (+6), concealed kong 2 from each (+6): S1 +12, others -4.
    h = play1(
        [F0 + " 6p", "5555m123p789p456s", F2, F3],
        [(0, "discard", "6p"), (1, "kong", "5m"), (1, "hu")],
        draws="4m",
        tail="4m",
    )
    assert (h["winner"], h["win_type"]) == (1, "kong_replacement")
    assert h["patterns"] == ["basic_hand"]
    assert h["deltas"] == [-4, 12, -4, -4]


def test_kong_replacement_after_added_kong_is_ordinary_self_draw() -> None:
    # S1 pengs 5m, later draws the 4th 5m, adds it, and the replacement 4m completes.
    # hu 2 from each (+6), added kong 1 from each (+3): S1 +9, others -3.
    h = play1(
        [F0 + " 5m", "55m123p789p456s4m9m", F2, F3],
        [
            (0, "discard", "5m"),
            (1, "peng"),
            (1, "discard", "9m"),
            (2, "discard", "6m"),
            (3, "discard", "6s"),
            (0, "discard", "6p"),
            (1, "kong", "5m"),
            (1, "hu"),
        ],
        draws="6m 6s 6p 5m",
        tail="4m",
    )
    assert (h["winner"], h["win_type"]) == (1, "kong_replacement")
    assert h["deltas"] == [-3, 9, -3, -3]


def test_direct_kong_pays_3B_by_feeder() -> None:
    # S1 konges S0's 5m; S2 then self-draws 6m (small).
    # kong S0 -> S1 3; hu 2 from each to S2. S0 -5, S1 +3-2 = +1, S2 +6, S3 -2.
    h = play1(
        [F0 + " 5m", "555m28m28p28s1234z", "123m456p789s234s6m", F3],
        [(0, "discard", "5m"), (1, "kong", "5m"), (1, "discard", "6z"), (2, "hu")],
        draws="6m",
        tail="6z",
    )
    assert h["winner"] == 2
    assert items(h, "kong") == [("kong", 0, 1, 3)]
    assert h["deltas"] == [-5, 1, 6, -2]


# S1 draws 7z, konges 5555m, draws 6z from the back and discards it; S2 self-draws 6m.
CKONG_HANDS = [F0 + " 6p", "5555m28m28p28s123z", "123m456p789s234s6m", F3]
CKONG_ACTIONS = [(0, "discard", "6p"), (1, "kong", "5m"), (1, "discard", "6z")]


@pytest.mark.parametrize("base", [1, 2, 5])
def test_concealed_kong_pays_2B_each_and_base_score_scales(base: int) -> None:
    # concealed kong 2B from each of S0 S2 S3; hu 2*B*1 from each of S0 S1 S3.
    # S0 -2B-2B = -4B; S1 +6B-2B = +4B; S2 +6B-2B = +4B; S3 -4B.
    h = play1(
        CKONG_HANDS,
        [*CKONG_ACTIONS, (2, "hu")],
        draws="7z 6m",
        tail="6z",
        options={"horses": False, "base_score": base},
    )
    kb = 2 * base
    assert items(h, "kong") == [("kong", 0, 1, kb), ("kong", 2, 1, kb), ("kong", 3, 1, kb)]
    assert h["deltas"] == [-4 * base, 4 * base, 4 * base, -4 * base]


@pytest.mark.parametrize(
    ("pay_on_draw", "deltas"), [(False, [0, 0, 0, 0]), (True, [-2, 6, -2, -2])]
)
def test_kongs_unpaid_in_drawn_hand_unless_kong_pay_on_draw_D16(
    pay_on_draw: bool, deltas: list[int]
) -> None:
    # S1's concealed kong, then nobody wins (tsumogiri to the end of the wall).
    h = play1(
        CKONG_HANDS,
        CKONG_ACTIONS,
        draws="7z",
        tail="6z",
        autoplay="tsumogiri",
        options={"horses": False, "kong_pay_on_draw": pay_on_draw},
    )
    assert h["outcome"] == "draw" and h["winner"] is None
    assert {i["kind"] for i in h["items"]} <= {"kong"}
    assert h["deltas"] == deltas


# == 1.5 horses ===============================================================================
def test_horse_target_table() -> None:
    # RULES.md 1.5: 1/5/9, East, Red -> 0; 2/6, South, Green -> 1; 3/7, West, White -> 2;
    # 4/8, North -> 3.
    want = {n: (n - 1) % 4 for n in range(1, 10)}
    for suit in "mps":
        for n in range(1, 10):
            assert horse_target(t(f"{n}{suit}")) == want[n], f"{n}{suit}"
    honours = {"1z": 0, "2z": 1, "3z": 2, "4z": 3, "5z": 2, "6z": 1, "7z": 0}
    for tile, pos in honours.items():
        assert horse_target(t(tile)) == pos, tile


@pytest.mark.parametrize(("run", "h"), [(1, 1), (2, 2), (3, 3), (4, 4), (5, 4), (9, 4)])
def test_horse_count_is_min_4_dealer_run(run: int, h: int) -> None:
    state = Match(
        "guangdong", {"first_dealer": 0}, 3, {"dealer": 0, "counters": {"dealer_run": run}}
    ).new_hand()
    assert len(state.reserved["horses"]) == h
    assert state.live == 83 - h  # R at the start = 136 - 53 - h
    # a record may not name more horses than the hand reserves
    too_many = " ".join(["1m", "2m", "3m", "4m", "5m"][: h + 1])
    rec = record(hand(["", "", "", ""], horses=too_many, autoplay="tsumogiri"), options={}, run=run)
    with pytest.raises(RecordError, match="horses"):
        replay(rec)


def test_first_hand_buys_one_horse() -> None:
    state = Match("guangdong", {"first_dealer": 1}, 4).new_hand()
    assert len(state.reserved["horses"]) == 1 and state.live == 82


def test_horses_taken_from_the_back_and_kong_replacement_in_front_of_them() -> None:
    # W: the canonical order with 6s 3z 2s 9p moved to the very end (9p last).
    w = full_set(GUANGDONG.tile_counts)
    for tile in ("6s", "3z", "2s", "9p"):
        w.remove(t(tile))
        w.append(t(tile))
    deal = deal_from_wall(w, 0, {"horses": 3})
    # horse 1 is the last tile of W, horse 2 the one before it, ...
    assert deal.reserved["horses"] == (t("9p"), t("2s"), t("3z"))
    assert list(deal.wall) == w[53:-3]
    # the dealer got W[0:4] W[16:20] W[32:36] W[48] W[52] = 1111m 5555m 9999m 4p 5p
    assert sorted(deal.hands[0]) == sorted(parse_tiles("1111m5555m9999m45p"))
    options = GUANGDONG.resolve_options({"first_dealer": 0})
    state = HandState(GUANGDONG, options, 0, {"dealer_run": 3}, deal)
    assert state.live == 80
    do(state, 0, "kong", "1m")
    assert state.drawn == t("6s")  # the kong replacement comes just in front of the horses


# S3 direct-konges S2's 5s, S1 then self-draws 6m (small). Base list:
#   hu S0->S1 2, S2->S1 2, S3->S1 2; kong S2->S3 3.   Base deltas [-2, 6, -5, 1].
# Mirrors (D = S0), per target T:
#   T=S0: S0->S1 2 duplicated                       -> [-4, 8, -5, 1]
#   T=S1: S2->S1 gives S2->S0 2; S3->S1 gives S3->S0 2 -> [2, 6, -7, -1]
#   T=S2: S2->S1 gives S0->S1 2; S2->S3 gives S0->S3 3 -> [-7, 8, -5, 4]
#   T=S3: S2->S3 gives S2->S0 3; S3->S1 gives S0->S1 2 -> [-1, 8, -8, 1]
HORSE_HANDS = [F0 + " 6p", "123m456p789s234s6m", "28m28p25s1234567z", "555s37m37p37s1234z"]
HORSE_ACTIONS = [
    (0, "discard", "6p"),
    (1, "discard", "9m"),
    (2, "discard", "5s"),
    (3, "kong", "5s"),
    (3, "discard", "5z"),
    (0, "discard", "4m"),
    (1, "hu"),
]
HORSE_DELTAS = {0: [-4, 8, -5, 1], 1: [2, 6, -7, -1], 2: [-7, 8, -5, 4], 3: [-1, 8, -8, 1]}


@pytest.mark.parametrize(
    ("horse", "target"),
    [
        ("5m", 0), ("9p", 0), ("1z", 0), ("7z", 0),
        ("2p", 1), ("6s", 1), ("2z", 1), ("6z", 1),
        ("3p", 2), ("7m", 2), ("3z", 2), ("5z", 2),
        ("4s", 3), ("8m", 3), ("4z", 3),
    ],
)  # fmt: skip
def test_horse_mirror_rule_D13(horse: str, target: int) -> None:
    h = play1(
        HORSE_HANDS,
        HORSE_ACTIONS,
        draws="9m 4p 4m 6m",
        tail="5z",
        horses=horse,
        options={},
    )
    assert h["winner"] == 1
    assert h["deltas"] == HORSE_DELTAS[target]
    horse_items = items(h, "horse")
    expected = {
        0: [("horse", 0, 1, 2)],
        1: [("horse", 2, 0, 2), ("horse", 3, 0, 2)],
        2: [("horse", 0, 1, 2), ("horse", 0, 3, 3)],
        3: [("horse", 0, 1, 2), ("horse", 2, 0, 3)],
    }[target]
    assert horse_items == expected


def test_horse_on_dealer_doubles_dealer_win() -> None:
    # Heavenly hand (4 from each); horse 9s -> T = dealer: every transfer to the dealer
    # is paid again: 8 from each -> [24, -8, -8, -8].
    h = play1(HEAVENLY, [(0, "hu")], horses="9s", options={})
    assert items(h, "horse") == [("horse", 1, 0, 4), ("horse", 2, 0, 4), ("horse", 3, 0, 4)]
    assert h["deltas"] == [24, -8, -8, -8]


def test_horse_target_is_relative_to_the_dealer() -> None:
    # Dealer S2; S3 self-draws (small). Horse 2m -> position 1 = S3 (the winner).
    # Base S0->S3 2, S1->S3 2, S2->S3 2; mirrors S0->S2 2, S1->S2 2 (S2->S3 not mirrored).
    # [-4, -4, -2+4, 6] = [-4, -4, 2, 6]. (Read as seat 1 it would be [-2, -2, -4, 8].)
    h = play1(
        [F2, F3, F0 + " 6p", "123m456p789s234s6m"],
        [(2, "discard", "6p"), (3, "hu")],
        draws="6m",
        horses="2m",
        dealer=2,
        options={},
    )
    assert h["dealer"] == 2 and h["winner"] == 3
    assert h["deltas"] == [-4, -4, 2, 6]
    assert h["next"] == {"dealer": 3, "counters": {"dealer_run": 1}}


@pytest.mark.parametrize(
    ("horses", "n_items", "deltas"),
    [
        # four horses on the winner S1: each gives S2->S0 2 and S3->S0 2
        # base [-2, 6, -2, -2] + 4 x [4, 0, -2, -2] = [14, 6, -10, -10]
        ("2m 6p 2z 6z", 8, [14, 6, -10, -10]),
        # one horse on each position: T0 S0->S1 2; T1 S2->S0 2, S3->S0 2; T2 S0->S1 2;
        # T3 S0->S1 2. Horses [-2, 6, -2, -2], total [-4, 12, -4, -4]
        ("1m 2m 3m 4m", 5, [-4, 12, -4, -4]),
    ],
)
def test_each_horse_settles_independently(horses: str, n_items: int, deltas: list[int]) -> None:
    h = play1(BASIC, BASIC_ACTIONS, draws="6m", horses=horses, run=4, options={})
    assert len(items(h, "horse")) == n_items
    assert h["deltas"] == deltas


def test_no_horse_items_in_a_drawn_hand() -> None:
    # Kongs paid on a draw (+6 to S1 for its concealed kong); the horse 2m points at S1
    # but a drawn hand settles no horse. (Mirrored, it would give [2, 6, -4, -4].)
    h = play1(
        CKONG_HANDS,
        CKONG_ACTIONS,
        draws="7z",
        tail="6z",
        horses="2m",
        autoplay="tsumogiri",
        options={"kong_pay_on_draw": True},
    )
    assert h["outcome"] == "draw"
    assert items(h, "horse") == []
    assert h["deltas"] == [-2, 6, -2, -2]


def test_no_horses_when_option_off() -> None:
    state = Match("guangdong", {"horses": False, "first_dealer": 0}, 5).new_hand()
    assert "horses" not in state.reserved and state.live == 83
    h = play1(BASIC, BASIC_ACTIONS, draws="6m", run=3)
    assert {i["kind"] for i in h["items"]} == {"hu"}
    assert h["deltas"] == SMALL
    with pytest.raises(RecordError, match="horses"):
        play1(BASIC, BASIC_ACTIONS, draws="6m", horses="2m")


# == 1.6 dealer rotation =======================================================================
def test_winner_deals_next_hand_with_run_reset() -> None:
    # Dealer S0 on his 3rd hand; S1 wins: S1 deals next with c = 1.
    rec = record(
        hand(BASIC, BASIC_ACTIONS, draws="6m"),
        hand(["", "", "", ""], dealer=1, autoplay="tsumogiri"),
        run=3,
    )
    res = replay(rec)
    assert res["hands"][0]["next"] == {"dealer": 1, "counters": {"dealer_run": 1}}
    assert res["hands"][1]["dealer"] == 1


def test_dealer_run_increments_on_dealer_win() -> None:
    # Dealer S0 with c = 2 wins (heavenly hand): he deals again with c = 3 and buys 3 horses.
    rec = record(
        hand(HEAVENLY, [(0, "hu")], horses="4m 8p"),
        hand(["", "", "", ""], dealer=0, autoplay="tsumogiri"),
        run=2,
        options={},
    )
    match = replay_match(rec)
    first = match.finished[0]
    assert (first.next_dealer, first.next_counters) == (0, {"dealer_run": 3})
    assert len(match.finished[1].state.reserved["horses"]) == 3
    # horses 4m 8p both point at S3, who pays the dealer only: nothing is mirrored
    res = replay(rec)
    assert res["hands"][0]["deltas"] == [12, -4, -4, -4]


def test_draw_passes_deal_to_dealers_next() -> None:
    # Dealer S3 with c = 3; the hand is drawn: S0 (S3's next) deals with c = 1.
    rec = record(
        hand(["", "", "", ""], dealer=3, autoplay="tsumogiri"),
        hand(["", "", "", ""], dealer=0, autoplay="tsumogiri"),
        dealer=3,
        run=3,
        options={},
    )
    res = replay(rec)
    assert res["hands"][0]["outcome"] == "draw"
    assert res["hands"][0]["next"] == {"dealer": 0, "counters": {"dealer_run": 1}}
    assert res["hands"][1]["dealer"] == 0


# == 0.9 escape ===============================================================================
@pytest.mark.parametrize(
    ("options", "pen"), [({"horses": False}, 8), ({"horses": False, "escape_penalty": 3}, 3)]
)
def test_escape_pays_each_other_seat_and_ends_match(options: dict[str, Any], pen: int) -> None:
    # S2 leaves after S1's concealed kong: only escape items, no kong payment.
    escape = hand(
        CKONG_HANDS, [(0, "discard", "6p"), (1, "kong", "5m"), (2, "escape")], draws="7z", tail="6z"
    )
    res = replay(record(escape, options=options))
    h = res["hands"][0]
    assert (h["outcome"], h["winner"]) == ("draw", None)
    assert items(h) == [("escape", 2, 0, pen), ("escape", 2, 1, pen), ("escape", 2, 3, pen)]
    assert h["deltas"] == [pen, pen, -3 * pen, pen]
    later = hand(["", "", "", ""], dealer=1, autoplay="tsumogiri")
    with pytest.raises(RecordError, match="hand 1"):
        replay(record(escape, later, options=options))


# == 0.8 first_dealer and record errors ==========================================================
def test_first_dealer_option() -> None:
    rec = record(
        hand(["", "", "", ""], dealer=2, autoplay="tsumogiri"), options={"first_dealer": 2}
    )
    del rec["start"]
    assert replay(rec)["hands"][0]["dealer"] == 2
    # random: drawn with the match seed, reproducibly
    dealers = [Match("guangdong", {}, seed).dealer for seed in range(40)]
    assert set(dealers) == {0, 1, 2, 3}
    assert dealers == [Match("guangdong", {"first_dealer": "random"}, s).dealer for s in range(40)]


def test_wrong_dealer_for_hand_2_is_rejected() -> None:
    # S1 wins hand 1, so hand 2 must be dealt by S1; the record says S0.
    rec = record(
        hand(BASIC, BASIC_ACTIONS, draws="6m"),
        hand(["", "", "", ""], dealer=0, autoplay="tsumogiri"),
    )
    with pytest.raises(RecordError, match=r"hand 1.*seat 1"):
        replay(rec)


def test_illegal_action_names_hand_action_and_seat() -> None:
    # S1 (who drew 6m) discards 7z, which it does not hold.
    rec = record(hand(BASIC, [(0, "discard", "5m"), (1, "discard", "7z")], draws="6m"))
    with pytest.raises(RecordError) as err:
        replay(rec)
    msg = str(err.value)
    assert "hand 0" in msg and "action 1" in msg and "seat 1" in msg
    assert isinstance(err.value, MajiangError)


def test_unlisted_robber_is_deemed_to_pass_at_the_end_of_the_actions() -> None:
    # FORMAT.md: "A seat that could claim and is not listed is deemed to pass."
    # S3 robs; S0 (who could rob too) is not listed: S3 wins, and the hand is over.
    h = rob_play([(3, "hu")])
    assert (h["winner"], h["win_type"]) == (3, "rob_kong")
    assert h["deltas"] == [0, -12, 0, 12]


def test_guangdong_is_registered() -> None:
    assert VARIANTS["guangdong"] is GUANGDONG


# == 1.7 room options ===========================================================================
def test_room_options_defaults() -> None:
    assert Match("guangdong").options == {
        "base_score": 1,
        "horses": True,
        "hunyise_big": True,
        "kong_pay_on_draw": False,
        "escape_penalty": 8,
        "first_dealer": "random",
    }


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"base_score": 0}, "base_score"),
        ({"horses": "yes"}, "horses"),
        ({"hunyise_big": 1}, "hunyise_big"),
        ({"kong_pay_on_draw": None}, "kong_pay_on_draw"),
        ({"escape_penalty": -1}, "escape_penalty"),
        ({"first_dealer": 4}, "first_dealer"),
        ({"chi": True}, "chi"),
    ],
)
def test_room_option_values_are_checked(options: dict[str, Any], name: str) -> None:
    rec = record(hand(BASIC, BASIC_ACTIONS, draws="6m"), options={"horses": False, **options})
    with pytest.raises(RecordError, match=name):
        replay(rec)


# == 1.5 horses: a target that nets 0 (corrected 2026-12-01) ==================================
# S0 (dealer) declares ckong 5555m in his first turn, S1 declares ckong 2222p, S2 self-draws
# 123s 456s 789s 666s 44s: all_one_suit, big (M = 2). Base list (B = 1):
#   hu    S0->S2 4, S1->S2 4, S3->S2 4
#   kong  S1->S0 2, S2->S0 2, S3->S0 2 (S0's ckong); S0->S1 2, S2->S1 2, S3->S1 2 (S1's)
# Nets: S0 +6-4-2 = 0, S1 +6-4-2 = 0, S2 +12-4 = +8, S3 -4-2-2 = -8.
NET0_HANDS = ["5555m17p17s123456z", "2222p39m39s34567z", "123s456s789s666s4s", F3]
NET0_ACTIONS = [
    (0, "kong", "5m"),
    (0, "discard", "8m"),
    (1, "kong", "2p"),
    (1, "discard", "8p"),
    (2, "hu"),
]


@pytest.mark.parametrize(
    ("horses", "run", "horse_items", "deltas"),
    [
        # T = S0 (the dealer) nets 0: nothing. (The old mirrors duplicated the dealer's
        # transfers: S1->S0 2, S2->S0 2, S3->S0 2, S0->S1 2, S0->S2 4 -> [0, 0, 10, -10].)
        ("1m", 1, [], [0, 0, 8, -8]),
        # T = S1 nets 0: nothing. (Old: S2->S0 2, S3->S0 2 for what S1 received from them,
        # S0->S2 4 for S1's hu payment -> [0, 0, 10, -10].)
        ("2m", 1, [], [0, 0, 8, -8]),
        # T = S2 (+8) mirrors: S1->S2 4 gives S1->S0 4, S3->S2 4 gives S3->S0 4, S2->S1 2
        # gives S0->S1 2 -> horses [+6, -2, 0, -4] -> [6, -2, 8, -12].
        ("3p", 1, [("horse", 0, 1, 2), ("horse", 1, 0, 4), ("horse", 3, 0, 4)], [6, -2, 8, -12]),
        # T = S3 (-8) mirrors: S3->S1 2 gives S0->S1 2, S3->S2 4 gives S0->S2 4
        # -> horses [-6, +2, +4, 0] -> [-6, 2, 12, -8].
        ("4m", 1, [("horse", 0, 1, 2), ("horse", 0, 2, 4)], [-6, 2, 12, -8]),
        # four horses, each alone: the two net-0 targets add nothing, S2's and S3's add
        # [6, -2, 0, -4] + [-6, 2, 4, 0] -> [0, 0, 12, -12].
        ("1m 2m 3p 4m", 4, None, [0, 0, 12, -12]),
    ],
)
def test_horse_on_a_target_that_nets_zero_moves_nothing_D13(
    horses: str, run: int, horse_items: list[tuple[str, int, int, int]] | None, deltas: list[int]
) -> None:
    """RULES.md 1.5 / D13 (corrected 2026-12-01): 如果是平则不用计算输赢 — a horse whose
    target's hu and kong transfers net 0 moves nothing, although the target has transfers."""
    h = play1(
        NET0_HANDS,
        NET0_ACTIONS,
        draws="6m 4s",
        tail="8m 8p",
        horses=horses,
        run=run,
        options={},
    )
    assert (h["winner"], h["win_type"], h["patterns"]) == (2, "self_draw", ["all_one_suit"])
    assert items(h, "kong") == [
        ("kong", 0, 1, 2),
        ("kong", 1, 0, 2),
        ("kong", 2, 0, 2),
        ("kong", 2, 1, 2),
        ("kong", 3, 0, 2),
        ("kong", 3, 1, 2),
    ]
    if horse_items is not None:
        assert items(h, "horse") == horse_items
    assert h["deltas"] == deltas


# == issue 14: seats that wrap around the table, East as the pair, the end of the wall ==========
def _rotated(k: int) -> tuple[list[str], list[tuple[Any, ...]]]:
    """HORSE_HANDS and HORSE_ACTIONS with every seat moved k seats on (dealer S{k})."""
    hands = [HORSE_HANDS[(s - k) % 4] for s in range(4)]
    acts = [((a[0] + k) % 4, *a[1:]) for a in HORSE_ACTIONS]
    return hands, acts


@pytest.mark.parametrize("dealer", [1, 2, 3])
@pytest.mark.parametrize(("horse", "target"), [("5m", 0), ("2p", 1), ("3p", 2), ("4s", 3)])
def test_horse_target_wraps_around_the_table(dealer: int, horse: str, target: int) -> None:
    # RULES.md 1.5: the target is the seat at position pos from the dealer, (dealer + pos)
    # mod 4, so with dealer S3 a position-1 horse points at S0. The HORSE_HANDS hand moved
    # `dealer` seats on settles as before, with the deltas moved the same seats on.
    hands, acts = _rotated(dealer)
    h = play1(hands, acts, draws="9m 4p 4m 6m", tail="5z", horses=horse, dealer=dealer, options={})
    assert h["winner"] == (1 + dealer) % 4
    want = HORSE_DELTAS[target]
    assert h["deltas"] == [want[(s - dealer) % 4] for s in range(4)]
    assert len(items(h, "horse")) == (1 if target == 0 else 2)


def test_little_four_winds_with_east_as_the_pair() -> None:
    # RULES.md 1.4 小四喜: triplets of three winds and a pair of the fourth, East included:
    # 222z 333z 444z 123m + 1z, draws 1z (pair). hunyise_big off as in test_little_four_winds.
    h = play1(
        [N0 + " 5s", "222z333z444z1z123m", N2, N3],
        [(0, "discard", "5s"), (1, "hu")],
        draws="1z",
        options={"horses": False, "hunyise_big": False},
    )
    assert h["patterns"] == ["little_four_winds"]
    assert h["deltas"] == BIG


def test_discard_after_the_draw_leaving_one_tile_may_be_claimed_D15() -> None:
    # RULES.md 1.2 / D15: only the discard made after the last tile (R = 0) is unclaimable.
    # S2 draws at R = 1 and discards 6p: S1 (666p) may peng it or kong it (the kong's
    # replacement is the last live tile).
    state = state1(["", "666p", "7777s6p", "5555m"])
    _drive_to(state, 1)
    assert state.current == 2
    trial = state.clone()
    do(state, 2, "discard", "6p")
    assert legal(state, 1) == {"S1 kong 6p", "S1 peng", "S1 pass"}
    do(state, 1, "peng")
    assert (state.phase, state.current, state.live) == ("turn", 1, 1)
    do(trial, 2, "discard", "6p")
    do(trial, 1, "kong", "6p")
    assert (trial.current, trial.live) == (1, 0)


def test_reported_patterns_of_the_reading_with_the_most_patterns_0_7() -> None:
    # RULES.md 0.7: 111m 222m 333m 444p 5s draws 5s reads as four concealed triplets (big)
    # or as 123m 123m 123m 444p 55s (small): the reading that scores highest is used.
    h = play1(
        [F0 + " 5m", "111222333m444p5s", F2, F3], [(0, "discard", "5m"), (1, "hu")], draws="5s"
    )
    assert h["patterns"] == ["four_concealed_triplets"]
    assert h["deltas"] == BIG


def test_each_win_is_scored_for_itself_not_from_an_earlier_one() -> None:
    # Scoring is a function of the state and the win (DESIGN.md, the rules seam): two
    # wins scored one after the other on the same state, as a calculator or a hint would,
    # each get their own patterns and M, though the best reading is computed once per win.
    state = state1(BASIC, draws="6m")
    do(state, 0, "discard", "5m")
    plain = WinInfo(1, "self_draw", t("6m"), None)
    heavenly = WinInfo(1, "instant", t("6m"), None)
    for win, want in [(plain, (["basic_hand"], 1)), (heavenly, (["heavenly_hand"], 2))] * 2:
        assert patterns_of(state, win) == want


@pytest.mark.parametrize(
    ("s1", "draw", "patterns"),
    [
        # the honours are East alone: 123m 456m 789m 99m + 11z, draws 1z (111z)
        ("123m456m789m99m11z", "1z", ["half_flush"]),
        # the number tiles are 9s alone: 111z 222z 555z 66z + 99s, draws 6z (all concealed)
        ("111z222z555z66z99s", "6z", ["half_flush", "four_concealed_triplets"]),
    ],
)
def test_half_flush_at_the_edges_of_the_honours_and_the_suits(
    s1: str, draw: str, patterns: list[str]
) -> None:
    # RULES.md 1.4 混一色: number tiles of exactly one suit plus honours. East (1z) is an
    # honour and 9s a number tile, the two kinds on either side of the suit/honour border.
    h = play1([N0 + " 5s", s1, N2, N3], [(0, "discard", "5s"), (1, "hu")], draws=draw)
    assert h["patterns"] == patterns
    assert h["deltas"] == BIG


@pytest.mark.parametrize("pair", ["1z", "2z", "3z", "4z"])
def test_little_four_winds_with_each_wind_as_the_pair(pair: str) -> None:
    # RULES.md 1.4 小四喜: triplets of three winds and a pair of the fourth, whichever wind
    # that is. hunyise_big off, so the pattern is alone.
    triplets = "".join(w[0] * 3 for w in ("1z", "2z", "3z", "4z") if w != pair) + "z"
    h = play1(
        [N0 + " 5s", f"{triplets}{pair}123m", N2, N3],
        [(0, "discard", "5s"), (1, "hu")],
        draws=pair,
        options={"horses": False, "hunyise_big": False},
    )
    assert h["patterns"] == ["little_four_winds"]
    assert h["deltas"] == BIG


@pytest.mark.parametrize(
    ("s1", "draw"),
    [("555z777z6z123m456p", "6z"), ("555z666z7z123m456p", "7z"), ("666z777z5z123m456p", "5z")],
)
def test_two_dragon_triplets_and_a_dragon_pair_are_no_big_three_dragons(s1: str, draw: str) -> None:
    # RULES.md 1.4 大三元 needs triplets of all three dragons; two triplets and the third
    # dragon as the pair (小三元) is no big hand in guangdong: small, 2 from each.
    h = play1([N0 + " 5s", s1, N2, N3], [(0, "discard", "5s"), (1, "hu")], draws=draw)
    assert h["patterns"] == ["basic_hand"]
    assert h["deltas"] == SMALL


@pytest.mark.parametrize(
    ("dealer", "horse", "seat"),
    [(0, "1m", 0), (1, "4s", 0), (2, "3p", 0), (3, "2m", 0), (3, "5z", 1), (2, "4z", 1)],
)
def test_horse_note_names_the_target_seat_around_the_table(
    dealer: int, horse: str, seat: int
) -> None:
    # RULES.md 1.5: what a front end shows beside a horse is its target seat,
    # (dealer + position) mod 4; other reserved purposes have no note.
    state = state1(["", "", "", ""], horses=horse, dealer=dealer, options={})
    mark = f"{{S{seat}}}"  # the page names the seat (majiang.scoring.seat_mark)
    assert state.rules.reserved_note(state, "horses", t(horse)) == (f"马中{mark}", f"on {mark}")
    assert state.rules.reserved_note(state, "birds", t(horse)) == ("", "")


@pytest.mark.parametrize("flower", ["1f", "8f"])
def test_no_flowers_in_guangdong(flower: str) -> None:
    # RULES.md 1.1: 136 tiles, no flowers; a record that deals one is refused by name, and
    # so is a winner's exposed flower given to the calculator (majiang score --flowers).
    assert len(GUANGDONG.tile_counts) == 42 and sum(GUANGDONG.tile_counts) == 136
    rec = record(hand([F0 + " 5m", "123m456p789s234s" + flower, F2, F3], autoplay="tsumogiri"))
    with pytest.raises(RecordError, match=f"more {flower} than the set holds"):
        replay(rec)
    with pytest.raises(MajiangError, match="guangdong is played without flowers"):
        score("guangdong", "123m456m789p234s11z", "4s", "self", seat=2, flowers=flower)


def test_dealer_run_starts_at_1_and_a_record_may_not_say_0() -> None:
    # RULES.md 1.6: c = 1 on a first hand as dealer, so a record's start counter is >= 1.
    assert Match("guangdong", {"first_dealer": 0}).counters == {"dealer_run": 1}
    with pytest.raises(RecordError, match="counter 'dealer_run' must be an integer >= 1, got 0"):
        replay(record(hand(BASIC, BASIC_ACTIONS, draws="6m"), run=0))


# == what a front end shows: restrictions in force and the declared names ======================
def test_restrictions_shown_no_discard_win_and_last_turn_D15() -> None:
    # A complete hand offered only a peng of the discard sees why it may not win on it
    # (RULES.md 1.3: self-draw and robbing only); the discarder and the others see nothing.
    state = state1([F0 + " 4m", "123m456p789s44m55s", F2, F3], draws="5s")
    do(state, 0, "discard", "4m")
    shown = [state.restrictions(s) for s in range(4)]
    assert shown == [[], [("no_discard_win", "4m")], [], []]
    do(state, 1, "pass")
    assert state.restrictions(1) == []  # S1 drew: a self-draw is on offer
    # The seat that drew the last tile (R = 0) sees its last turn; nobody sees anything
    # once the hand is over.
    state = state1(WALL_HANDS)
    _drive_to(state, 0)
    shown = [state.restrictions(s) for s in range(4)]
    assert shown == [[], [], [], [("last_turn", "")]]
    do(state, 3, "discard", "6p")
    assert state.is_terminal()
    assert [state.restrictions(s) for s in range(4)] == [[], [], [], []]


def test_restrictions_shown_no_discard_win_for_a_seven_pairs_wait() -> None:
    # RULES.md 1.3, 1.4: a concealed hand complete only as seven pairs with the discard
    # (11m 33m 55m 77p 99p 444m + 4m, four 4m counting as two pairs) may peng or kong it
    # but not win on it, and sees why.
    state = state1([F0 + " 4m", "11m33m55m77p99p444m", F2, F3])
    do(state, 0, "discard", "4m")
    assert [state.restrictions(s) for s in range(4)] == [
        [],
        [("no_discard_win", "4m")],
        [],
        [],
    ]


def test_pattern_values_shown_small_hand_m1_big_hands_m2_D10() -> None:
    # RULES.md 1.4, 1.5 (D10): basic_hand is the small hand (M = 1); every other pattern
    # makes a big hand (M = 2). `majiang rules guangdong` shows this value per pattern.
    values = GUANGDONG.pattern_values
    assert set(values) == set(GUANGDONG.patterns)
    assert values["basic_hand"].endswith("M = 1")
    assert all(v.endswith("M = 2") for p, v in values.items() if p != "basic_hand")


def test_declared_names_are_found_and_unknown_ids_refused() -> None:
    # Front ends read names from the declarations (patterns, the variant's own names, the
    # names common to all variants) and the restrictions by id; an unknown id is an error.
    assert GUANGDONG.term("little_four_winds") == GUANGDONG.patterns["little_four_winds"]
    for ident in ("hu", "horse", "kong_direct"):
        assert GUANGDONG.term(ident)[0] and GUANGDONG.term(ident)[1]
    with pytest.raises(OptionError, match="declares no name for 'nope'"):
        GUANGDONG.term("nope")
    # the reserved horses (RULES.md 1.2) are named and declared too
    horses = GUANGDONG.reserved_purpose("horses")
    assert (horses.id, horses.shown) == ("horses", "win")  # face down until settlement
    assert GUANGDONG.term("horses") == (horses.zh, horses.en) == ("马牌", "horses")
    with pytest.raises(OptionError, match="sets no tiles aside for 'birds'"):
        GUANGDONG.reserved_purpose("birds")
    for r in GUANGDONG.restrictions:
        assert GUANGDONG.restriction(r.id) is r
    with pytest.raises(OptionError, match="declares no restriction 'nope'"):
        GUANGDONG.restriction("nope")
