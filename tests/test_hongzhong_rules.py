"""One test per rule of RULES.md section 4 (hongzhong / 转转) that changes an outcome.

Every test builds a small majiang-record/1 in tile notation (a partial deal
naming the hands, draws, tail and birds it needs) and replays it, or drives
HandState directly where what is *offered* matters. Expected numbers are worked
out by hand from RULES.md 4.5 in the comments (U = base_score, H = bird hits).

Fillers. Claims in hongzhong are peng, kong and wins only (no chi, D52), so a
filler hand of 13 different number kinds can never claim; every filler draw
is discarded at once and nobody holds a pair of it. The four fillers below
are far from ready (shanten >= 3) and hold no 2m-6m, 5p or 5s, which are
left for the hands a test is about. Seat assignment of fillers is free.

Unless a test is about birds or 庄闲 it plays with ``PLAIN`` options
(``golden_bird`` and ``zhuang_xian`` off) and two missing birds (``MISS``),
so that the deltas show the rule alone; R at the start is then 112-53-2 = 57.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain
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
    ts,
    tsumogiri_until,
)

from majiang.engine.match import Match
from majiang.engine.state import Action, Deal, HandState, WinInfo
from majiang.engine.wall import deal_from_wall, full_set
from majiang.errors import IllegalActionError, RecordError
from majiang.hand import is_winning
from majiang.records import replay
from majiang.rules.hongzhong import HONGZHONG

# -- fillers (see the module docstring) -------------------------------------------------
F0 = "179m12468p13689s"  # 13 tiles; the dealer adds a 14th
F1 = "79m34689p134679s"
F2 = "189m13679p12479s"
F3 = "178m12478p24678s"

PLAIN: dict[str, Any] = {"golden_bird": False, "zhuang_xian": False}
MISS = "3p 2s"  # two birds, neither a 1, 5, 9 nor 7z
RED = 33  # 7z

# The winner used by most tests: 234m 345m 456m 555p + 5s, waiting on 5s (tanki) or a 7z.
WA = "234m345m456m555p5s"


# -- helpers (generic ones in recordkit) ------------------------------------------------
def hand(
    hands: Sequence[str],
    actions: Iterable[tuple[Any, ...]] = (),
    *,
    draws: str = "",
    tail: str = "",
    birds: str | None = MISS,
    dealer: int | None = 0,
    autoplay: str | None = None,
) -> dict[str, Any]:
    """One hand of a record; actions are (seat, type[, tile]) tuples."""
    deal = partial_deal(hands, draws=draws, tail=tail, reserved={"birds": birds})
    return hand_entry(deal, actions, dealer=dealer, autoplay=autoplay)


def record(
    *hands: dict[str, Any],
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    seed: int = 1,
) -> dict[str, Any]:
    """A hongzhong majiang-record/1; ``options`` default to PLAIN."""
    return kit.record(
        "hongzhong",
        hands,
        options=options,
        defaults=PLAIN,
        first_dealer=False,
        dealer=dealer,
        seed=seed,
    )


def play1(
    hands: Sequence[str],
    actions: Iterable[tuple[Any, ...]] = (),
    *,
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    **deal: Any,
) -> dict[str, Any]:
    """Replay a one-hand record; the hand's majiang-result/1 entry."""
    return replay_one(
        record(hand(hands, actions, dealer=dealer, **deal), options=options, dealer=dealer)
    )


def state1(
    hands: Sequence[str],
    *,
    draws: str = "",
    tail: str = "",
    birds: str | None = MISS,
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    seed: int = 1,
) -> HandState:
    """The start of a hand built from a partial deal, for driving HandState directly."""
    deal = partial_deal(hands, draws=draws, tail=tail, reserved={"birds": birds})
    opts = match_options(options, PLAIN)
    return new_state(
        "hongzhong", deal, options=opts, start=start_of(dealer), seed=seed, players=None
    )


def run(state: HandState, actions: Iterable[tuple[Any, ...]]) -> None:
    """Apply (seat, type[, tile]) actions; a window nobody decides on is closed first."""
    kit.run(state, actions)


def tsumogiri_step(state: HandState) -> None:
    """One autoplay step: pass every open claim, else discard the drawn tile (never a 红中
    when the drawn tile is not in hand)."""
    kit.tsumogiri_step(state, keep=RED)


def drive_to(state: HandState, live: int) -> None:
    """Tsumogiri (passing every claim) until a turn starts with R == live."""
    tsumogiri_until(state, live, step=tsumogiri_step)


def wins(tiles: str, **kw: Any) -> bool:
    """is_winning with hongzhong's shapes and the 红中 wild unless overridden."""
    args: dict[str, Any] = {**HONGZHONG.shapes, "wild": RED, **kw}
    return is_winning(ts(tiles), **args)


# A self-draw of S1 on its first draw: S0 discards 8m, S1 (WA) draws 5s.
BASIC = [F0 + " 8m", WA, F2, F3]
BASIC_ACTIONS = [(0, "discard", "8m"), (1, "hu")]


# == 4.1 tiles and wilds ===================================================================
def test_tile_set_112_with_four_red_dragons() -> None:
    state = Match("hongzhong", {}, 5).new_hand()
    deal = state.deal
    tiles = [*chain(*deal.hands), *deal.wall, *chain(*deal.reserved.values())]
    # 1-9 m/p/s x4 (108) + 7z x4 = 112; no other honor, no flower
    assert len(tiles) == 112
    assert Counter(tiles) == {k: 4 for k in [*range(27), RED]}
    assert state.wild == RED
    assert state.live == 57  # 112 - 53 dealt - 2 birds
    # a deal naming any other honor, or a fifth 红中, is rejected
    with pytest.raises(RecordError, match="1z"):
        replay(record(hand([F0 + " 8m", F1, F2, "1z"], autoplay="tsumogiri")))
    with pytest.raises(RecordError, match="7z"):
        replay(record(hand([F0 + " 8m", F1, F2, "7777z"], draws="7z", autoplay="tsumogiri")))


def test_no_wild_108_tiles_no_red_dragons_no_wilds() -> None:
    state = Match("hongzhong", {"no_wild": True}, 5).new_hand()
    deal = state.deal
    tiles = [*chain(*deal.hands), *deal.wall, *chain(*deal.reserved.values())]
    assert len(tiles) == 108
    assert Counter(tiles) == {k: 4 for k in range(27)}
    assert state.wild is None
    assert state.live == 53  # 108 - 53 - 2 = 55 - N
    # a deal naming a 7z under no_wild is rejected (转转 has no 红中, so no seat can ever
    # hold four of them: no 四红中 either)
    rec = record(hand([F0 + " 8m", F1, F2, "7z"], autoplay="tsumogiri"), options={"no_wild": True})
    with pytest.raises(RecordError, match="7z"):
        replay(rec)


@pytest.mark.parametrize(
    ("s1", "draw", "pattern"),
    [
        # HO-1 shape: 234m 456m 78p 23s 55p 7z + 9p: the 7z stands for 1s or 4s
        ("234m456m78p23s55p7z", "9p", "basic_hand"),
        # WA + a drawn 7z: the wild pairs with the natural 5s
        (WA, "7z", "basic_hand"),
        # seven pairs with a wild: 22m 44m 66m 55p 55s 3m+7z + 9s 9s (no standard reading)
        ("22m44m66m55p55s3m7z9s", "9s", "seven_pairs"),
    ],
)
def test_red_dragon_is_a_wild_in_the_winning_hand(s1: str, draw: str, pattern: str) -> None:
    full = s1 + draw
    assert wins(full)
    assert not wins(full, wild=None)  # without the wild rule the hand is not complete
    # Self-draw, PLAIN: each of the other three pays 2 -> S1 +6.
    h = play1([F0 + " 8m", s1, F2, F3], BASIC_ACTIONS, draws=draw)
    assert (h["winner"], h["win_type"]) == (1, "self_draw")
    assert h["patterns"] == [pattern]
    assert h["deltas"] == [-2, 6, -2, -2]


def test_two_red_dragons_form_the_pair() -> None:
    # 234m 456m 555p 345s 7z waits on anything (the 7z pairs with any tile), so S1 is
    # offered a win on S0's 9p and passes first (FORMAT.md); it then draws the second
    # 7z: 234m 456m 555p 345s + 7z7z as the pair. PLAIN self-draw: S1 +6.
    s1 = "234m456m555p345s7z"
    state = state1([F0 + " 9p", s1, F2, F3], draws="7z")
    do(state, 0, "discard", "9p")
    assert legal(state, 1) == {"S1 hu", "S1 pass"}
    h = play1([F0 + " 9p", s1, F2, F3], [(0, "discard", "9p"), (1, "pass"), (1, "hu")], draws="7z")
    assert (h["winner"], h["win_type"], h["patterns"]) == (1, "self_draw", ["basic_hand"])
    assert h["deltas"] == [-2, 6, -2, -2]


def test_red_dragon_stands_for_number_tiles_only() -> None:
    # 123m 456m 789p 555p + 1z 7z is complete only if the 7z may be the honor 1z.
    tiles = "123m456m789p555p1z7z"
    assert wins(tiles, wild_numbers_only=False)
    assert not wins(tiles)
    # No record can hold a 1z in hongzhong, so the engine is driven on a built deal:
    # the dealer holding these 14 tiles is offered no win (天胡) and must discard.
    opts = HONGZHONG.resolve_options(PLAIN)
    hands = (tuple(ts(tiles)), tuple(ts(F1)), tuple(ts(F2)), tuple(ts(F3)))
    deal = Deal(hands, tuple(ts("5m6m")), {"birds": tuple(ts(MISS))})
    state = HandState(HONGZHONG, opts, 0, {}, deal)
    assert state.wild == RED
    assert "hu" not in kinds(legal(state, 0))


def test_discarded_red_dragon_cannot_be_pung_but_can_be_won_on_D58() -> None:
    # S0 discards a 7z. S3 holds 777z: no peng, no kong of a 红中. S1 (WA, waiting on
    # 5s or a 红中) wins on it, the 7z standing for 5s as a wild in its hand.
    s3 = "777z178m12478p24s"
    hands = [F0 + " 7z", WA, F2, s3]
    state = state1(hands)
    do(state, 0, "discard", "7z")  # discarding a 红中 is allowed
    assert state.phase == "claim"
    assert legal(state, 1) == {"S1 hu", "S1 pass"}
    assert legal(state, 3) == set()
    assert legal(state, 2) == set()
    for claim in ("peng", "kong"):
        rec = record(
            hand(hands, [(0, "discard", "7z"), (3, claim, "7z" if claim == "kong" else None)])
        )
        with pytest.raises(RecordError, match=r"action 1, seat 3"):
            replay(rec)
    # Discard win, PLAIN: the discarder S0 pays 1.
    h = play1(hands, [(0, "discard", "7z"), (1, "hu")])
    assert (h["winner"], h["win_type"], h["from"]) == (1, "discard", 0)
    assert h["patterns"] == ["basic_hand"]
    assert h["deltas"] == [-1, 1, 0, 0]


def test_four_red_dragons_are_never_konged() -> None:
    # The dealer is dealt 7777z: he may declare 四红中 (4.4) but never kong them.
    dealer = "7777z1m4m7m2p5p8p3s6s9s 1p"
    state = state1([dealer, F1, F2, F3])
    assert "S0 hu" in legal(state, 0)
    assert "kong" not in kinds(legal(state, 0))
    # S2 is dealt 777z and draws the fourth on its first turn: no kong (and no win).
    s2 = "777z1m4m7m2p5p8p3s6s9s1p"
    state = state1([F0 + " 8m", F1, s2, F3], draws="2p 7z")
    run(state, [(0, "discard", "8m"), (1, "discard", "2p")])
    assert state.current == 2 and state.drawn == RED
    assert state.concealed[2][RED] == 4
    assert kinds(legal(state, 2)) == {"discard"}


def test_no_peng_or_kong_with_a_red_dragon_standing_in() -> None:
    # S0 discards 5m. S1 holds 5m + 7z: a 红中 cannot make up the pair, no peng.
    # S2 holds 55m + 7z: a peng of natural tiles only, no kong with the 红中.
    hands = [F0 + " 5m", "5m7z34689p134679s", "55m7z13679p12479s", F3]
    state = state1(hands)
    do(state, 0, "discard", "5m")
    assert legal(state, 1) == set()
    assert legal(state, 2) == {"S2 peng", "S2 pass"}
    do(state, 2, "peng")
    # S2 now has peng 555m and a 7z: no added kong with the 红中 standing for the 4th 5m
    assert state.current == 2
    assert kinds(legal(state, 2)) == {"discard"}
    with pytest.raises(IllegalActionError):
        state.apply(Action(2, "kong", t("5m"), (RED,)))


def test_no_chi_D52() -> None:
    # S1 holds 34m; S0 (its previous seat) discards 5m: no chi, no claim window at all.
    hands = [F0 + " 5m", "34m34689p134679s", F2, F3]
    state = state1(hands, draws="2m")
    do(state, 0, "discard", "5m")
    assert state.phase == "turn" and state.current == 1 and state.drawn == t("2m")
    rec = record(hand(hands, [(0, "discard", "5m")], draws="2m", autoplay="tsumogiri"))
    rec["hands"][0]["actions"].append({"seat": 1, "type": "chi", "tiles": "34m"})
    with pytest.raises(RecordError, match=r"hand 0, action 1, seat 1"):
        replay(rec)


def test_peng_and_direct_kong_from_any_seat() -> None:
    # S2 (opposite of S0) pengs S0's 5m; S1 (previous of S2) may kong S2's 6m.
    hands = [F0 + " 5m", "666m4689p134679s", "55m6m13679p12479s", F3]
    state = state1(hands, tail="8m")
    do(state, 0, "discard", "5m")
    assert legal(state, 2) == {"S2 peng", "S2 pass"}
    assert legal(state, 1) == set() and legal(state, 3) == set()
    do(state, 2, "peng")
    do(state, 2, "discard", "6m")
    assert legal(state, 1) == {"S1 kong 6m", "S1 peng", "S1 pass"}
    do(state, 1, "kong", "6m")
    assert state.current == 1 and state.drawn == t("8m")  # replacement from the back


# == 4.2 seats, dealing, wall ==============================================================
def test_birds_reserved_from_the_back_of_the_wall_D53() -> None:
    # W = the shuffled 112 tiles; after dealing 53, bird 1 is W's last tile, bird 2 the
    # one before, ...; they are not part of the live wall.
    w = full_set(HONGZHONG.tiles_for(HONGZHONG.resolve_options({})))
    random.Random(7).shuffle(w)
    deal = deal_from_wall(w, 0, {"birds": 4})
    assert deal.reserved == {"birds": (w[-1], w[-2], w[-3], w[-4])}
    assert deal.wall == tuple(w[53:-4])
    # A match shuffles the same way (first_dealer 0 draws nothing from the seed).
    state = Match("hongzhong", {"birds": 4}, 7).new_hand()
    assert state.deal == deal
    assert state.live == 55


@pytest.mark.parametrize("no_wild", [False, True])
@pytest.mark.parametrize("birds", [2, 4, 6])
def test_bird_count_and_live_wall(birds: int, no_wild: bool) -> None:
    # R at the start = 112 - 53 - N = 59 - N, or 55 - N in 转转.
    opts = {"birds": birds, "no_wild": no_wild}
    state = Match("hongzhong", opts, 3).new_hand()
    assert len(state.reserved["birds"]) == birds
    assert state.live == (55 if no_wild else 59) - birds
    # a deal naming more birds than the option sets aside is rejected
    rec = record(
        hand([F0 + " 8m", F1, F2, F3], birds="3p " * (birds + 1), autoplay="tsumogiri"),
        options=opts,
    )
    with pytest.raises(RecordError, match="birds"):
        replay(rec)


# -- end of the wall (D54) ------------------------------------------------------------------
# Without claims, ordinary draw k goes to seat k mod 4 and leaves R = 57 - k:
# R = 5 after S0's draw 52, R = 4 after S1's draw 53, R = 1 after S0's draw 56 and
# R = 0 after S1's draw 57. No hand in these deals holds a pair that a draw could
# complete, and every copy of the tiles the tests are about is dealt, so tsumogiri
# (passing every claim) reaches those turns with no claim made.
def test_no_peng_or_kong_of_a_discard_while_R_at_most_4_D54() -> None:
    # S3 holds 55m 222m 666m; S0 holds 5m 6m, S1 holds 2m 5m.
    hands = ["56m179m12468p136s 8s", "25m34689p134679s", F2, "55m222m666m148p27s"]
    state = state1(hands)
    drive_to(state, 5)
    assert state.current == 0
    for tile, offered in (
        ("5m", {"S3 peng", "S3 pass"}),
        ("6m", {"S3 kong 6m", "S3 peng", "S3 pass"}),
    ):
        trial = state.clone()
        do(trial, 0, "discard", tile)  # a discard made with R = 5 can be pung / konged
        assert legal(trial, 3) == offered
    drive_to(state, 4)
    assert state.current == 1
    for tile in ("5m", "2m"):
        trial = state.clone()
        do(trial, 1, "discard", tile)  # with R = 4: no peng, no kong (and no window)
        assert legal(trial, 3) == set()
        assert trial.phase == "turn" and trial.current == 2


def test_kong_only_while_R_at_least_1_D54() -> None:
    # S0 holds 4444m, S1 3333m (concealed).
    hands = ["4444m17m1468p136s 8s", "3333m689p134679s", F2, F3]
    state = state1(hands)
    drive_to(state, 4)
    assert state.current == 1 and "S1 kong 3m" in legal(state, 1)  # R = 4: a kong is fine
    drive_to(state, 1)
    assert state.current == 0 and "S0 kong 4m" in legal(state, 0)
    at_one = state.clone()
    drive_to(state, 0)
    assert state.current == 1
    assert "kong" not in kinds(legal(state, 1))  # R = 0: no replacement tile exists
    # The kong at R = 1 takes the last tile as its replacement; S0's discard then ends
    # the hand (drawn). The concealed kong is paid even so: 2 from each, S0 +6; S0 drew
    # the last tile and deals next (D55).
    last = at_one.wall[at_one.hi - 1]
    do(at_one, 0, "kong", "4m")
    assert at_one.live == 0 and at_one.drawn == last
    tsumogiri_step(at_one)
    assert at_one.is_terminal()
    res = at_one.result()
    assert res.outcome == "draw"
    assert res.deltas == [6, -2, -2, -2]
    assert HONGZHONG.rules.next_dealer(at_one, at_one.result()) == (0, {})


def test_last_drawer_may_self_draw_D54() -> None:
    # S1 (WA, waiting on 5s) draws the last tile, the 5s of the tail, with R = 0.
    state = state1([F0 + " 8m", WA, F2, F3], tail="5s")
    drive_to(state, 0)
    assert state.current == 1 and state.drawn == t("5s")
    assert "S1 hu" in legal(state, 1)
    do(state, 1, "hu")
    res = state.result()
    assert res.win is not None and (res.win.winner, res.win.win_type) == (1, "self_draw")
    assert res.deltas == [-2, 6, -2, -2]  # PLAIN self-draw: 2 from each


def test_last_discard_only_won_on_else_drawn_hand_D54() -> None:
    # S1 draws the last tile (5s) and discards it. S2 (WA) may win on it; S3 holds 55s
    # but may not peng it.
    hands = [F0 + " 8m", F1, WA, "55s178m12478p246s"]
    state = state1(hands, tail="5s")
    drive_to(state, 0)
    assert state.current == 1
    do(state, 1, "discard", "5s")
    assert legal(state, 2) == {"S2 hu", "S2 pass"}
    assert legal(state, 3) == set()
    drawn = state.clone()
    do(state, 2, "hu")
    res = state.result()
    assert res.win is not None and (res.win.winner, res.win.win_type) == (2, "discard")
    assert res.deltas == [0, -1, 1, 0]  # PLAIN discard win: the discarder pays 1
    do(drawn, 2, "pass")  # nobody wins: the hand is drawn, nothing is paid
    assert drawn.is_terminal()
    assert drawn.result().outcome == "draw"
    assert drawn.result().deltas == [0, 0, 0, 0]


# == 4.3 claims ============================================================================
# Robbers: R2 = 34m 666m 555p 555s 22m waits on 2m / 5m; R7 = 34m 666m 555p 22m 55s 7z
# holds a 红中 and waits on 1m-5m, 5s (or a 7z); R3 = 46m 234m 33m 123p 678s waits on 5m.
R2 = "34m666m555p555s22m"
R7 = "34m666m555p22m55s7z"
R3 = "46m234m33m123p678s"

# S1 pengs S0's 5m, and three turns later draws the fourth 5m and adds it. S2 (a robber)
# could win on S0's 5m too and is deemed to pass (弃胡), but draws again before the kong.
ROB_DRAWS = "9p 3p 7s 5m"
ROB_ACTIONS = [
    (0, "discard", "5m"),
    (1, "peng"),
    (1, "discard", "9m"),
    (2, "discard", "9p"),
    (3, "discard", "3p"),
    (0, "discard", "7s"),
    (1, "kong", "5m"),
]


def rob_hands(robber: str = R2) -> list[str]:
    return [F0 + " 5m", "55m9m13679p12479s", robber, F3]


def rob_state(robber: str = R2, options: dict[str, Any] | None = None) -> HandState:
    state = state1(rob_hands(robber), draws=ROB_DRAWS, options=options)
    run(state, ROB_ACTIONS)
    return state


def rob_play(
    extra: list[tuple[Any, ...]],
    robber: str = R2,
    options: dict[str, Any] | None = None,
    **deal: Any,
) -> dict[str, Any]:
    return play1(
        rob_hands(robber), [*ROB_ACTIONS, *extra], draws=ROB_DRAWS, options=options, **deal
    )


def test_win_by_robbing_an_added_kong() -> None:
    state = rob_state()
    assert state.phase == "rob" and legal(state, 2) == {"S2 hu", "S2 pass"}
    # PLAIN: the konger S1 pays the robber 1. The robbed kong is not paid.
    h = rob_play([(2, "hu")])
    assert (h["winner"], h["win_type"], h["from"]) == (2, "rob_kong", 1)
    assert h["patterns"] == ["basic_hand"]
    assert items(h) == [("hu", 1, 2, 1)]
    assert h["deltas"] == [0, -1, 1, 0]


def test_no_robbing_a_concealed_kong_D9() -> None:
    # S1 draws 9p and konges 5555m; S2 (R2, waiting on 5m) is offered nothing.
    state = state1([F0 + " 8m", "5555m3679p12479s", R2, F3], draws="9p", tail="8s")
    assert is_winning([*state.hand_tiles(2), t("5m")], wild=RED)
    run(state, [(0, "discard", "8m"), (1, "kong", "5m")])
    assert state.phase == "turn" and state.current == 1 and state.drawn == t("8s")
    assert legal(state, 2) == set()


def test_no_robbing_a_direct_kong_D9() -> None:
    # With hongzhong_zimo, S2 (R7, holding a 红中) may not win on S0's 5m, but it could
    # rob (D60). S1 konges the 5m directly: that kong cannot be robbed.
    opts = {**PLAIN, "hongzhong_zimo": True}
    hands = [F0 + " 5m", "555m9m3679p12479s", R7, F3]
    state = state1(hands, tail="8s", options=opts)
    do(state, 0, "discard", "5m")
    assert legal(state, 1) == {"S1 kong 5m", "S1 peng", "S1 pass"}
    assert legal(state, 2) == set()
    do(state, 1, "kong", "5m")
    assert state.phase == "turn" and state.current == 1 and state.drawn == t("8s")
    assert legal(state, 2) == set()


def test_one_winner_nearest_after_the_discarder() -> None:
    # S2 discards 5m; S1 (R2) and S3 (R3) both win on it. After S2 come S3, S0, S1:
    # S3 wins even though S1 is listed first. PLAIN: the discarder pays 1.
    hands = [F0 + " 8m", R2, F2, R3]
    base = [(0, "discard", "8m"), (1, "discard", "9p"), (2, "discard", "5m")]
    state = state1(hands, draws="9p 5m")
    run(state, base)
    assert set(state.window_options) == {1, 3}
    h = play1(hands, [*base, (1, "hu"), (3, "hu")], draws="9p 5m")
    assert (h["winner"], h["from"], h["win_type"]) == (3, 2, "discard")
    assert h["deltas"] == [0, 0, -1, 1]
    h = play1(hands, [*base, (3, "pass"), (1, "hu")], draws="9p 5m")
    assert (h["winner"], h["from"]) == (1, 2)
    assert h["deltas"] == [0, 1, -1, 0]


def test_one_winner_nearest_after_the_konger() -> None:
    # S2 pengs S0's 5m and later adds the fourth; S1 (R2) and S3 (R3) may both rob.
    # After the konger S2 come S3, S0, S1: S3 wins. PLAIN: the konger pays 1.
    hands = [F0 + " 5m", R2, "55m9m13679p12479s", R3]
    draws = "9p 7p 3p 5m"
    actions = [
        (0, "discard", "5m"),
        (2, "peng"),
        (2, "discard", "9m"),
        (3, "discard", "9p"),
        (0, "discard", "7p"),
        (1, "discard", "3p"),
        (2, "kong", "5m"),
    ]
    state = state1(hands, draws=draws)
    run(state, actions)
    assert state.phase == "rob" and set(state.window_options) == {1, 3}
    h = play1(hands, [*actions, (1, "hu"), (3, "hu")], draws=draws)
    assert (h["winner"], h["from"], h["win_type"]) == (3, 2, "rob_kong")
    assert h["deltas"] == [0, 0, -1, 1]


# -- 弃碰 / 弃胡 (D8) ---------------------------------------------------------------------------
QP_HANDS = [F0 + " 5p", F1, "55p9m13679p12479s", F3]


def test_qi_peng_no_peng_of_the_same_kind_before_own_draw() -> None:
    # S2 passes on S0's 5p; S1 draws the fourth 5p and discards it: S2 may not peng it.
    state = state1(QP_HANDS, draws="5p 2p")
    do(state, 0, "discard", "5p")
    assert legal(state, 2) == {"S2 peng", "S2 pass"}
    do(state, 2, "pass")
    do(state, 1, "discard", "5p")
    assert state.phase == "turn" and state.current == 2  # no window: S2 drew
    acts = [(0, "discard", "5p"), (2, "pass"), (1, "discard", "5p"), (2, "peng")]
    with pytest.raises(RecordError, match=r"action 3, seat 2"):
        replay(record(hand(QP_HANDS, acts, draws="5p 2p")))


def test_qi_peng_ends_at_own_draw() -> None:
    # Same pass, but S2 draws (2p) before S3 discards the fourth 5p: S2 may peng it.
    state = state1(QP_HANDS, draws="8m 2p 5p")
    run(state, [(0, "discard", "5p"), (2, "pass"), (1, "discard", "8m"), (2, "discard", "2p")])
    do(state, 3, "discard", "5p")
    assert legal(state, 2) == {"S2 peng", "S2 pass"}


def test_qi_peng_not_lifted_by_a_claim() -> None:
    # S2 (55p 22m) passes on S0's 5p, then pengs S1's 2m and discards 9m: a claim is not
    # a draw, so S3's 5p still may not be pung by S2.
    hands = [F0 + " 5p", F1, "55p22m9m679p12479s", F3]
    acts = [
        (0, "discard", "5p"),
        (2, "pass"),
        (1, "discard", "2m"),
        (2, "peng"),
        (2, "discard", "9m"),
    ]
    state = state1(hands, draws="2m 5p")
    run(state, acts)
    assert state.current == 3 and state.drawn == t("5p")
    do(state, 3, "discard", "5p")
    assert "S2 peng" not in legal(state, 2)


QH_HANDS = [F0 + " 5m", F1, R2, F3]


def test_qi_hu_no_win_on_the_same_kind_before_own_draw() -> None:
    # S2 (R2, waiting on 2m / 5m) passes on S0's 5m. S1 then discards a 5m: no win for
    # S2; a 2m instead (another kind of the same wait) may be won on.
    state = state1(QH_HANDS, draws="5m")
    do(state, 0, "discard", "5m")
    assert legal(state, 2) == {"S2 hu", "S2 pass"}
    do(state, 2, "pass")
    do(state, 1, "discard", "5m")
    assert state.phase == "turn" and state.current == 2
    acts = [(0, "discard", "5m"), (2, "pass"), (1, "discard", "5m"), (2, "hu")]
    # in a record S2's hu is then its own turn's self-draw attempt, not a claim: illegal
    with pytest.raises(RecordError, match=r"action 3, seat 2"):
        replay(record(hand(QH_HANDS, acts, draws="5m 8s")))
    other = state1(QH_HANDS, draws="2m")
    run(other, [(0, "discard", "5m"), (2, "pass"), (1, "discard", "2m")])
    assert legal(other, 2) == {"S2 hu", "S2 peng", "S2 pass"}  # R2 holds 22m


def test_qi_hu_ends_at_own_draw() -> None:
    # S2 passes on S0's 5m, draws 9p and discards it; S3 then discards a 5m: S2 wins on
    # it. PLAIN discard win: S3 pays 1.
    acts = [
        (0, "discard", "5m"),
        (2, "pass"),
        (1, "discard", "8m"),
        (2, "discard", "9p"),
        (3, "discard", "5m"),
        (2, "hu"),
    ]
    h = play1(QH_HANDS, acts, draws="8m 9p 5m")
    assert (h["winner"], h["from"], h["win_type"]) == (2, 3, "discard")
    assert h["deltas"] == [0, 0, 1, -1]


def test_qi_hu_blocks_robbing_the_same_kind_before_own_draw() -> None:
    # S2 (R2) passes on S0's 5m; S1 (555m) pengs it and at once adds its own fourth 5m.
    # S2 may not rob that 5m: it has not drawn since. The kong stands (back draw 8s).
    hands = [F0 + " 5m", "555m9m3679p12479s", R2, F3]
    state = state1(hands, tail="8s")
    do(state, 0, "discard", "5m")
    assert legal(state, 2) == {"S2 hu", "S2 pass"}
    run(state, [(2, "pass"), (1, "peng")])
    assert "S1 kong 5m" in legal(state, 1)
    do(state, 1, "kong", "5m")
    assert state.phase == "turn" and state.current == 1 and state.drawn == t("8s")
    acts = [(0, "discard", "5m"), (2, "pass"), (1, "peng"), (1, "kong", "5m"), (2, "hu")]
    with pytest.raises(RecordError, match=r"action 4, seat 2"):
        replay(record(hand(hands, acts, tail="8s")))


def test_declining_a_self_draw_is_not_qi_hu() -> None:
    # S1 (WA) draws 5s and discards it instead of winning; S2 then discards another 5s:
    # S1 may win on it (only passes on discard wins and robbing restrict, D8).
    # PLAIN discard win: S2 pays 1.
    hands = [F0 + " 8m", WA, F2, F3]
    acts = [(0, "discard", "8m"), (1, "discard", "5s"), (2, "discard", "5s"), (1, "hu")]
    h = play1(hands, acts, draws="5s 5s")
    assert (h["winner"], h["from"], h["win_type"]) == (1, 2, "discard")
    assert h["deltas"] == [0, 1, -1, 0]


# -- 红中自摸 / 无红中可抢杠 (D60) ----------------------------------------------------------
# S1 = 234m 456m 78p 23s 55p 7z waits on 6p, 9p, 1s, 4s (or a 7z); S0 discards 9p, S1's
# first draw is 6p.
ZM_HANDS = [F0 + " 9p", "234m456m78p23s55p7z", F2, F3]


@pytest.mark.parametrize(
    ("zimo", "win_type", "deltas"),
    [
        (False, "discard", [-1, 1, 0, 0]),  # S0 pays 1
        (True, "self_draw", [-2, 6, -2, -2]),  # no win on the 9p; self-draw on 6p, 2 each
    ],
)
def test_hongzhong_zimo(zimo: bool, win_type: str, deltas: list[int]) -> None:
    opts = {**PLAIN, "hongzhong_zimo": zimo}
    state = state1(ZM_HANDS, draws="6p", options=opts)
    do(state, 0, "discard", "9p")
    if zimo:
        assert state.phase == "turn" and state.current == 1 and "S1 hu" in legal(state, 1)
    else:
        assert legal(state, 1) == {"S1 hu", "S1 pass"}
    h = play1(ZM_HANDS, [(0, "discard", "9p"), (1, "hu")], draws="6p", options=opts)
    assert (h["winner"], h["win_type"]) == (1, win_type)
    assert h["deltas"] == deltas


def test_hongzhong_zimo_only_restricts_seats_holding_a_red_dragon() -> None:
    # S1 (WA, no 红中) wins on S0's 5s with hongzhong_zimo on. PLAIN: S0 pays 1.
    opts = {**PLAIN, "hongzhong_zimo": True}
    h = play1([F0 + " 5s", WA, F2, F3], [(0, "discard", "5s"), (1, "hu")], options=opts)
    assert (h["winner"], h["win_type"], h["deltas"]) == (1, "discard", [-1, 1, 0, 0])


@pytest.mark.parametrize("zimo", [False, True])
@pytest.mark.parametrize("no_rob", [False, True])
def test_no_hongzhong_rob(no_rob: bool, zimo: bool) -> None:
    # S2 = R7 holds a 红中. no_hongzhong_rob forbids its robbing S1's added 5m;
    # hongzhong_zimo does not (D60).
    opts = {**PLAIN, "no_hongzhong_rob": no_rob, "hongzhong_zimo": zimo}
    state = rob_state(R7, opts)
    if no_rob:
        assert state.phase == "turn" and state.current == 1  # the kong stood
        assert legal(state, 2) == set()
    else:
        assert state.phase == "rob" and legal(state, 2) == {"S2 hu", "S2 pass"}
        h = rob_play([(2, "hu")], R7, opts)
        assert (h["winner"], h["win_type"], h["deltas"]) == (2, "rob_kong", [0, -1, 1, 0])
    # a robber without a 红中 robs whatever the options
    state = rob_state(R2, opts)
    assert state.phase == "rob" and legal(state, 2) == {"S2 hu", "S2 pass"}


def test_no_hongzhong_rob_does_not_stop_discard_wins_D60() -> None:
    # R7 (holding a 红中) wins on S0's 5m with no_hongzhong_rob on. PLAIN: S0 pays 1.
    opts = {**PLAIN, "no_hongzhong_rob": True}
    h = play1(rob_hands(R7), [(0, "discard", "5m"), (2, "hu")], options=opts)
    assert (h["winner"], h["win_type"], h["deltas"]) == (2, "discard", [-1, 0, 1, 0])


# == 4.4 winning ===========================================================================
HEAVENLY = "234m345m456m555p5s 5s"  # the dealer's 14 dealt tiles, complete
FOUR_RED = "7777z1m4m7m2p5p8p3s6s9s"  # 13 tiles, far from complete even with 4 wilds


@pytest.mark.parametrize(
    ("options", "deltas"),
    [
        # PLAIN: each of the others pays 2 -> S0 +6
        (PLAIN, [6, -2, -2, -2]),
        # defaults: no bird hits -> golden bird H = N = 2; the dealer wins, so every
        # payment gets 庄闲 +1: each pays 2 + 2 + 1 = 5 -> S0 +15
        ({}, [15, -5, -5, -5]),
        # 转转: 天胡 does not mention 红中 and stays
        ({**PLAIN, "no_wild": True}, [6, -2, -2, -2]),
    ],
)
def test_heavenly_hand(options: dict[str, Any], deltas: list[int]) -> None:
    hands = [HEAVENLY, F1, F2, F3]
    assert "S0 hu" in legal(state1(hands, options=options), 0)
    h = play1(hands, [(0, "hu")], options=options)
    assert (h["winner"], h["win_type"], h["from"]) == (0, "instant", None)
    assert h["patterns"] == ["basic_hand", "heavenly_hand"]
    assert h["deltas"] == deltas
    assert h["next"]["dealer"] == 0


def test_heavenly_hand_offered_first_before_four_red_dragons_D56() -> None:
    # The dealer's 14 tiles are complete and S2 was dealt four 红中. Each decides on its
    # own tiles (S2 cannot see that the dealer is complete, so it is offered 四红中 as in
    # any other deal); the dealer's 天胡 takes precedence (天胡优先): after S2 declares,
    # the dealer is asked, and his 天胡 is the win. PLAIN: each pays 2 -> S0 +6.
    hands = [HEAVENLY, F1, FOUR_RED, F3]
    state = state1(hands)
    assert state.to_act() == [0, 2]
    assert "S0 hu" in legal(state, 0)
    assert legal(state, 2) == {"S2 hu", "S2 pass"}
    do(state, 2, "hu")
    assert state.to_act() == [0] and legal(state, 0) == {"S0 hu", "S0 pass"}
    do(state, 0, "hu")
    win = state.result().win
    assert win is not None and (win.winner, win.win_type) == (0, "instant")
    h = play1(hands, [(0, "hu")])
    assert (h["winner"], h["win_type"]) == (0, "instant")
    assert h["patterns"] == ["basic_hand", "heavenly_hand"]
    assert h["deltas"] == [6, -2, -2, -2]


def test_four_red_dragons_cannot_preempt_the_dealers_heavenly_hand_D56() -> None:
    # 天胡优先级高于起手四红中: with both declared, the dealer's 天胡 wins, whatever order
    # the record lists them in. Either S2's 四红中 waits for the dealer's decision (and
    # the dealer's hu wins), or S2 may not declare before the dealer has been asked.
    hands = [HEAVENLY, F1, FOUR_RED, F3]
    try:
        h = play1(hands, [(2, "hu"), (0, "hu")])
    except RecordError as err:
        assert "action 0, seat 2" in str(err), str(err)
    else:
        assert (h["winner"], h["win_type"]) == (0, "instant")
        assert h["deltas"] == [6, -2, -2, -2]


def test_dealer_four_red_dragons() -> None:
    # The dealer holds 7777z and ten scattered tiles (not complete): 四红中, an instant
    # self-draw. PLAIN: each pays 2 -> S0 +6.
    hands = ["7777z1m4m7m2p5p8p3s6s9s 1p", F1, F2, F3]
    assert not wins("7777z1m4m7m2p5p8p3s6s9s1p")
    h = play1(hands, [(0, "hu")])
    assert (h["winner"], h["win_type"]) == (0, "instant")
    assert h["patterns"] == ["four_red_dragons"]
    assert h["deltas"] == [6, -2, -2, -2]


@pytest.mark.parametrize(
    ("options", "deltas"),
    [
        (PLAIN, [-2, -2, 6, -2]),  # 2 from each
        # defaults: golden bird H = 2; the dealer S0 pays 庄闲 +1: S0 2+2+1 = 5, S1 and
        # S3 2+2 = 4 -> S2 +13
        ({}, [-5, -4, 13, -4]),
    ],
)
def test_non_dealer_four_red_dragons_before_dealers_first_discard(
    options: dict[str, Any], deltas: list[int]
) -> None:
    hands = [F0 + " 8m", F1, FOUR_RED, F3]
    state = state1(hands, options=options)
    assert state.to_act() == [0, 2] and legal(state, 2) == {"S2 hu", "S2 pass"}
    h = play1(hands, [(2, "hu")], options=options)
    assert (h["winner"], h["win_type"], h["from"]) == (2, "instant", None)
    assert h["patterns"] == ["four_red_dragons"]
    assert h["deltas"] == deltas


def test_no_four_red_dragons_after_dealers_first_discard() -> None:
    hands = [F0 + " 8m", F1, FOUR_RED, F3]
    state = state1(hands, draws="2p 9p")
    do(state, 0, "discard", "8m")
    assert legal(state, 2) == set()
    do(state, 1, "discard", "2p")
    assert state.current == 2 and kinds(legal(state, 2)) == {"discard"}  # no hu, no kong
    with pytest.raises(RecordError, match=r"action 1, seat 2"):
        replay(record(hand(hands, [(0, "discard", "8m"), (2, "hu")], draws="2p 9p")))


def test_four_red_dragons_collected_later_give_no_instant_win() -> None:
    # S2 is dealt 777z and draws the fourth 红中 on its first turn: no 四红中.
    hands = [F0 + " 8m", F1, "777z1m4m7m2p5p8p3s6s9s1p", F3]
    acts = [(0, "discard", "8m"), (1, "discard", "2p")]
    state = state1(hands, draws="2p 7z")
    run(state, acts)
    assert state.concealed[2][RED] == 4
    assert "hu" not in kinds(legal(state, 2))
    with pytest.raises(RecordError, match=r"action 2, seat 2"):
        replay(record(hand(hands, [*acts, (2, "hu")], draws="2p 7z")))


def test_win_after_dealers_first_turn_kong_is_not_heavenly() -> None:
    # The dealer's 14 tiles 5555m 234m 666m 55p 55s are not complete. He konges 5555m
    # and the replacement 5p completes 234m 666m 555p 55s: a self-draw on a kong's
    # replacement (kong_replacement), not 天胡 (his 14 dealt tiles were not complete).
    # PLAIN: hu 2 from each (+6), concealed kong 2 from each (+6): S0 +12.
    hands = ["5555m234m666m55p5s 5s", F1, F2, F3]
    assert not wins("5555m234m666m55p55s")
    h = play1(hands, [(0, "kong", "5m"), (0, "hu")], tail="5p")
    assert (h["winner"], h["win_type"]) == (0, "kong_replacement")
    assert h["patterns"] == ["basic_hand"]
    assert h["deltas"] == [12, -4, -4, -4]


def test_seven_pairs_quadruple_counts_as_two_pairs_pays_as_basic_D57() -> None:
    # 2222m 33m 44m 55p 55s 6m + 6m: 2222m counts as two pairs (no standard reading:
    # 234m 234m leaves 22m and a 55p 55s 66m pairs). PLAIN self-draw: 2 each, as 平胡.
    hands = [F0 + " 8m", "2222m33m44m55p55s6m", F2, F3]
    assert not wins("2222m33m44m55p55s66m", seven_pairs=False)
    h = play1(hands, BASIC_ACTIONS, draws="6m")
    assert h["patterns"] == ["seven_pairs"]
    assert h["deltas"] == [-2, 6, -2, -2]


# == 4.5 scoring and settlement ==============================================================
@pytest.mark.parametrize("u", [1, 3])
def test_self_draw_pays_2_from_each(u: int) -> None:
    # S1 self-draws (BASIC): each of the other three pays 2U.
    h = play1(BASIC, BASIC_ACTIONS, draws="5s", options={**PLAIN, "base_score": u})
    assert (h["winner"], h["win_type"]) == (1, "self_draw")
    assert items(h) == [("hu", 0, 1, 2 * u), ("hu", 2, 1, 2 * u), ("hu", 3, 1, 2 * u)]
    assert h["deltas"] == [-2 * u, 6 * u, -2 * u, -2 * u]


# S1 (WA) draws 9p and discards it, S2 draws 3s and discards it, S3 draws 5s and
# discards it: S1 wins on it.
DISCARD_ACTIONS = [
    (0, "discard", "8m"),
    (1, "discard", "9p"),
    (2, "discard", "3s"),
    (3, "discard", "5s"),
    (1, "hu"),
]


@pytest.mark.parametrize("u", [1, 3])
def test_discard_win_pays_1_from_the_discarder(u: int) -> None:
    h = play1(BASIC, DISCARD_ACTIONS, draws="9p 3s 5s", options={**PLAIN, "base_score": u})
    assert (h["winner"], h["win_type"], h["from"]) == (1, "discard", 3)
    assert items(h) == [("hu", 3, 1, u)]
    assert h["deltas"] == [0, u, 0, -u]


@pytest.mark.parametrize("u", [1, 2])
def test_robbing_pays_1_from_the_konger(u: int) -> None:
    # PLAIN: only the konger S1 pays, U.
    h = rob_play([(2, "hu")], options={**PLAIN, "base_score": u})
    assert items(h) == [("hu", 1, 2, u)]
    assert h["deltas"] == [0, -u, u, 0]


@pytest.mark.parametrize(
    ("pays_all", "u", "deltas"),
    [
        # default: the konger pays 1 + H = 1 + 1 = 2; no 庄闲 (neither S1 nor S2 deals)
        (False, 1, [0, -2, 2, 0]),
        # 抢杠胡包三家: the three self-draw shares, all from S1:
        # S0 (the dealer) 2 + 1 + 1 = 4, S1 2 + 1 = 3, S3 2 + 1 = 3 -> 10
        (True, 1, [0, -10, 10, 0]),
        (True, 2, [0, -20, 20, 0]),
    ],
)
def test_rob_kong_pays_all(pays_all: bool, u: int, deltas: list[int]) -> None:
    # defaults otherwise (庄闲 on); birds 5p (hit) and 3p: H = 1
    opts = {"rob_kong_pays_all": pays_all, "base_score": u}
    h = rob_play([(2, "hu")], options=opts, birds="5p 3p")
    assert (h["winner"], h["win_type"]) == (2, "rob_kong")
    assert {i[1] for i in items(h)} == {1}  # every payment comes from the konger
    if pays_all:
        assert items(h, "hu") == [("hu", 1, 2, 2 * u)] * 3
        assert items(h, "bird") == [("bird", 1, 2, u)] * 3
        assert items(h, "zhuangxian") == [("zhuangxian", 1, 2, u)]
    assert h["deltas"] == deltas


ALL_KINDS = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["7z"]


@pytest.mark.parametrize("bird", ALL_KINDS)
def test_bird_hits_on_1_5_9_and_red_dragon(bird: str) -> None:
    # BASIC self-draw, PLAIN (golden bird off), birds: the tested tile and 2s (a miss).
    # A hit adds H x bird_value = 1 per payer: each pays 2 + H.
    hit = bird == "7z" or bird[0] in "159"
    h = play1(BASIC, BASIC_ACTIONS, draws="5s", birds=f"{bird} 2s")
    pay = 2 + hit
    assert h["deltas"] == [-pay, 3 * pay, -pay, -pay]
    assert items(h, "bird") == ([("bird", p, 1, 1) for p in (0, 2, 3)] if hit else [])


@pytest.mark.parametrize(
    ("n", "birds", "bird_value", "golden", "per_payer"),
    [
        (2, "1m 2s", 1, False, 2 + 1),  # H = 1
        (2, "1m 9s", 2, False, 2 + 2 * 2),  # H = 2, bird_value 2
        (4, "1m 5p 9s 7z", 1, False, 2 + 4),  # H = 4
        (6, "1m 5p 9s 7z 2m 3p", 1, False, 2 + 4),  # H = 4 of 6
        (2, "3p 2s", 1, True, 2 + 2),  # no hit, golden bird: H = N = 2
        (4, "2m 3p 4s 6m", 1, True, 2 + 4),  # golden: H = 4
        (6, "2m 3p 4s 6m 7m 8s", 1, True, 2 + 6),  # golden: H = 6
        (6, "2m 3p 4s 6m 7m 8s", 2, True, 2 + 6 * 2),  # golden, bird_value 2
        (6, "2m 3p 4s 6m 7m 8s", 1, False, 2),  # no hit, golden off: no bird points
        (6, "2m 3p 4s 6m 7m 1s", 1, True, 2 + 1),  # one hit: golden does not apply
    ],
)
def test_birds_count_value_and_golden_bird(
    n: int, birds: str, bird_value: int, golden: bool, per_payer: int
) -> None:
    # BASIC self-draw without 庄闲: each of the three payers pays 2 + H x bird_value.
    opts = {"birds": n, "bird_value": bird_value, "golden_bird": golden, "zhuang_xian": False}
    h = play1(BASIC, BASIC_ACTIONS, draws="5s", birds=birds, options=opts)
    assert h["deltas"] == [-per_payer, 3 * per_payer, -per_payer, -per_payer]


def test_birds_paid_only_by_the_hu_payer_and_times_base_score() -> None:
    # Discard win of S1 on S3's 5s; birds 1m, 9s: H = 2, bird_value 2, U = 3, no 庄闲:
    # S3 alone pays 1x3 + 2x2x3 = 15.
    opts = {"bird_value": 2, "base_score": 3, "zhuang_xian": False}
    h = play1(BASIC, DISCARD_ACTIONS, draws="9p 3s 5s", birds="1m 9s", options=opts)
    assert items(h) == [("bird", 3, 1, 12), ("hu", 3, 1, 3)]
    assert h["deltas"] == [0, 15, 0, -15]


# The dealer S0 (WA) discards 8m; S1 (2p), S2 (8s) and S3 (3p) discard their draws; S0
# draws 5s and wins.
DEALER_HANDS = [WA + " 8m", F1, F2, F3]
DEALER_DRAWS = "2p 8s 3p 5s"
DEALER_ACTIONS = [
    (0, "discard", "8m"),
    (1, "discard", "2p"),
    (2, "discard", "8s"),
    (3, "discard", "3p"),
    (0, "hu"),
]


@pytest.mark.parametrize(
    ("zx", "case", "deltas", "plus_ones"),
    [
        # S1 self-draws: only the dealer's payment gets +1: S0 2 + 1, S2 and S3 2
        (True, "s1_self_draw", [-3, 7, -2, -2], 1),
        (False, "s1_self_draw", [-2, 6, -2, -2], 0),
        # the dealer self-draws: every payment is his: each pays 2 + 1
        (True, "dealer_self_draw", [9, -3, -3, -3], 3),
        (False, "dealer_self_draw", [6, -2, -2, -2], 0),
        # S3 discards to S1: no dealer involved, no +1
        (True, "s3_to_s1", [0, 1, 0, -1], 0),
        # the dealer discards to S1: 1 + 1
        (True, "dealer_to_s1", [-2, 2, 0, 0], 1),
        (False, "dealer_to_s1", [-1, 1, 0, 0], 0),
        # S1 discards to the dealer: 1 + 1
        (True, "s1_to_dealer", [2, -2, 0, 0], 1),
    ],
)
def test_zhuang_xian_plus_1_on_hu_payments_with_the_dealer_D51(
    zx: bool, case: str, deltas: list[int], plus_ones: int
) -> None:
    opts = {**PLAIN, "zhuang_xian": zx}
    if case == "s1_self_draw":
        h = play1(BASIC, BASIC_ACTIONS, draws="5s", options=opts)
    elif case == "dealer_self_draw":
        h = play1(DEALER_HANDS, DEALER_ACTIONS, draws=DEALER_DRAWS, options=opts)
    elif case == "s3_to_s1":
        h = play1(BASIC, DISCARD_ACTIONS, draws="9p 3s 5s", options=opts)
    elif case == "dealer_to_s1":
        h = play1([F0 + " 5s", WA, F2, F3], [(0, "discard", "5s"), (1, "hu")], options=opts)
    else:
        acts = [(0, "discard", "8m"), (1, "discard", "5s"), (0, "hu")]
        h = play1(DEALER_HANDS, acts, draws="5s", options=opts)
    assert h["deltas"] == deltas
    assert len(items(h, "zhuangxian")) == plus_ones


def test_zhuang_xian_not_on_birds() -> None:
    # The dealer self-draws with birds 1m (hit) and 2s: H = 1. Each payer: hu 2, bird 1,
    # 庄闲 1 (once per payment, not per bird) -> 4 each, S0 +12.
    h = play1(
        DEALER_HANDS,
        DEALER_ACTIONS,
        draws=DEALER_DRAWS,
        birds="1m 2s",
        options={"golden_bird": False},
    )
    for p in (1, 2, 3):
        assert [i for i in items(h) if i[1] == p] == [
            ("bird", p, 0, 1),
            ("hu", p, 0, 2),
            ("zhuangxian", p, 0, 1),
        ]
    assert h["deltas"] == [12, -4, -4, -4]


# -- kongs: paid in every hand, won or drawn (荒庄不荒杠) ---------------------------------------
@pytest.mark.parametrize("u", [1, 2])
def test_direct_kong_pays_3_from_the_discarder(u: int) -> None:
    # S1 konges the dealer's 5m, discards the replacement 8s; the hand then plays out to
    # a draw. Kong: S0 pays 3U; no 庄闲 on kongs (defaults, 庄闲 on).
    hands = [F0 + " 5m", "555m9m3679p12479s", F1, F3]
    acts = [(0, "discard", "5m"), (1, "kong", "5m"), (1, "discard", "8s")]
    h = play1(hands, acts, tail="8s", autoplay="tsumogiri", options={"base_score": u})
    assert h["outcome"] == "draw"
    assert items(h) == [("kong", 0, 1, 3 * u)]
    assert h["deltas"] == [-3 * u, 3 * u, 0, 0]


@pytest.mark.parametrize("u", [1, 2])
def test_added_kong_pays_1_from_each(u: int) -> None:
    # S2 declines to rob S1's added 5m; the kong stands and the hand plays out to a draw.
    h = rob_play([(2, "pass")], options={"base_score": u}, autoplay="tsumogiri")
    assert h["outcome"] == "draw"
    assert items(h) == [("kong", p, 1, u) for p in (0, 2, 3)]
    assert h["deltas"] == [-u, 3 * u, -u, -u]


@pytest.mark.parametrize("u", [1, 2])
def test_concealed_kong_pays_2_from_each(u: int) -> None:
    hands = [F0 + " 8m", "5555m3679p12479s", F2, F3]
    acts = [(0, "discard", "8m"), (1, "kong", "5m")]
    h = play1(hands, acts, draws="9p", autoplay="tsumogiri", options={"base_score": u})
    assert h["outcome"] == "draw"
    assert items(h) == [("kong", p, 1, 2 * u) for p in (0, 2, 3)]
    assert h["deltas"] == [-2 * u, 6 * u, -2 * u, -2 * u]


def test_dealer_concealed_kong_has_no_zhuang_xian() -> None:
    # The dealer konges 4444m on his first turn; drawn hand: 2 from each (not 3).
    hands = ["4444m17m1468p136s 8s", F1, F2, F3]
    h = play1(hands, [(0, "kong", "4m")], autoplay="tsumogiri", options={})
    assert h["outcome"] == "draw"
    assert h["deltas"] == [6, -2, -2, -2]


def test_kong_and_win_on_its_replacement() -> None:
    # S1 draws 5s, konges 5555m and wins on the replacement 5p (234m 666m 555p 55s):
    # kong_replacement is a self-draw. PLAIN: hu 2 from each (+6), kong 2 from each (+6).
    hands = [F0 + " 8m", "5555m234m666m55p5s", F2, F3]
    h = play1(hands, [(0, "discard", "8m"), (1, "kong", "5m"), (1, "hu")], draws="5s", tail="5p")
    assert (h["winner"], h["win_type"]) == (1, "kong_replacement")
    assert h["deltas"] == [-4, 12, -4, -4]


# == 4.6 dealer rotation ===================================================================
def full_deal(dealer: int) -> list[str]:
    """A complete deal of fillers with ``dealer`` holding the 14 tiles."""
    others = iter([F1, F2, F3])
    return [F0 + " 8m" if s == dealer else next(others) for s in range(4)]


def two_hands(first: dict[str, Any], dealer: int, options: dict[str, Any] | None = None) -> Any:
    """Replay ``first`` and a second hand (played out by autoplay) dealt by ``dealer``."""
    second = hand(full_deal(dealer), dealer=dealer, autoplay="tsumogiri")
    return replay(record(first, second, options=options))


def test_winner_deals_next() -> None:
    first = hand(BASIC, BASIC_ACTIONS, draws="5s")  # S1 wins
    result = two_hands(first, 1)
    assert result["hands"][0]["next"] == {"dealer": 1, "counters": {}}
    assert result["hands"][1]["dealer"] == 1
    with pytest.raises(RecordError, match="seat 1"):
        two_hands(first, 0)


def test_dealer_who_wins_stays() -> None:
    first = hand([HEAVENLY, F1, F2, F3], [(0, "hu")])
    assert two_hands(first, 0)["hands"][1]["dealer"] == 0


@pytest.mark.parametrize(("draw_dealer", "nxt"), [("last_drawer", 3), ("same", 0)])
def test_drawn_hand_last_drawer_deals_D55(draw_dealer: str, nxt: int) -> None:
    # S2 pengs the dealer's 5p and discards; then nobody claims: the 57 draws go to
    # S3, S0, S1, S2, ... and draw 57 (the last tile) to S3.
    first = hand(
        QP_HANDS, [(0, "discard", "5p"), (2, "peng"), (2, "discard", "9m")], autoplay="tsumogiri"
    )
    result = two_hands(first, nxt, {**PLAIN, "draw_dealer": draw_dealer})
    h = result["hands"][0]
    assert h["outcome"] == "draw" and h["deltas"] == [0, 0, 0, 0]
    assert h["next"]["dealer"] == nxt
    assert result["hands"][1]["dealer"] == nxt


# == 4.7 room options ======================================================================
def test_option_defaults() -> None:
    assert HONGZHONG.resolve_options({}) == {
        "no_wild": False,
        "birds": 2,
        "bird_value": 1,
        "golden_bird": True,
        "hongzhong_zimo": False,
        "no_hongzhong_rob": False,
        "zhuang_xian": True,
        "rob_kong_pays_all": False,
        "base_score": 1,
        "draw_dealer": "last_drawer",
        "escape_penalty": 0,
        "first_dealer": 0,
    }


def test_first_dealer_defaults_to_seat_0_D7() -> None:
    assert {Match("hongzhong", {}, seed).dealer for seed in range(20)} == {0}
    # (with first_dealer random the seed decides)
    assert len({Match("hongzhong", {"first_dealer": "random"}, s).dealer for s in range(20)}) > 1
    # a record with no start and no first_dealer: its first hand must be dealt by S0
    rec = record(hand(full_deal(0), autoplay="tsumogiri"), options={})
    del rec["start"]
    assert replay(rec)["hands"][0]["dealer"] == 0


@pytest.mark.parametrize(("penalty", "deltas"), [(None, [0, 0, 0, 0]), (3, [3, 3, -9, 3])])
def test_escape_penalty_defaults_to_0(penalty: int | None, deltas: list[int]) -> None:
    # S1 konges 5555m, then S2 escapes: no kong payment, only the escape penalty.
    opts = {} if penalty is None else {"escape_penalty": penalty}
    hands = [F0 + " 8m", "5555m3679p12479s", F1, F3]
    acts = [(0, "discard", "8m"), (1, "kong", "5m"), (2, "escape")]
    h = play1(hands, acts, draws="9p", tail="8s", options=opts)
    assert h["outcome"] == "draw"
    assert h["deltas"] == deltas
    assert {i[0] for i in items(h)} <= {"escape"}


@pytest.mark.parametrize(("draw_dealer", "after"), [("last_drawer", 1), ("same", 0)])
def test_after_an_escape_next_is_what_a_drawn_hand_gives(draw_dealer: str, after: int) -> None:
    # docs/decisions.md (escape result): the match ends, and the hand's next dealer is the
    # one a drawn hand would give (RULES.md 4.6, D55): S1, who drew last (its kong's
    # replacement 8s), or the same dealer S0 with draw_dealer = same.
    hands = [F0 + " 8m", "5555m3679p12479s", F1, F3]
    acts = [(0, "discard", "8m"), (1, "kong", "5m"), (2, "escape")]
    h = play1(hands, acts, draws="9p", tail="8s", options={"draw_dealer": draw_dealer})
    assert h["next"] == {"dealer": after, "counters": {}}


# == issue 14: the reported reading on a tie (RULES.md 0.7) ======================================
def test_standard_and_seven_pairs_reading_reports_basic_hand_first_0_7() -> None:
    # 223344m 445566p 5m draws 5m: seven pairs, or 234m 234m 456p 456p 55m. Both pay the
    # same (4.4) and give one pattern, so RULES.md 0.7 takes the first in the list order of
    # 4.4: basic_hand. PLAIN self-draw: S1 +6.
    h = play1([F0 + " 8m", "223344m445566p5m", F2, F3], BASIC_ACTIONS, draws="5m")
    assert (h["winner"], h["win_type"]) == (1, "self_draw")
    assert h["patterns"] == ["basic_hand"]
    assert h["deltas"] == [-2, 6, -2, -2]


def test_every_hand_pattern_has_the_value_1() -> None:
    # RULES.md 4.4: every hand pattern pays the same, so a hand's value (what the
    # calculator shows beside the patterns) is 1 for basic_hand and for seven_pairs.
    state = state1([F0 + " 8m", WA, F2, F3], draws="5s")
    run(state, [(0, "discard", "8m")])
    win = WinInfo(1, "self_draw", t("5s"), None)
    assert patterns_of(state, win) == (["basic_hand"], 1)
    state = state1([F0 + " 8m", "2222m33m44m55p55s6m", F2, F3], draws="6m")
    run(state, [(0, "discard", "8m")])
    win = WinInfo(1, "self_draw", t("6m"), None)
    assert patterns_of(state, win) == (["seven_pairs"], 1)


@pytest.mark.parametrize("flower", ["1f", "8f"])
def test_no_flowers_in_hongzhong(flower: str) -> None:
    # RULES.md 4.1: 112 tiles (108 with no_wild), no flowers; a deal naming one is refused.
    for no_wild in (False, True):
        counts = HONGZHONG.tiles_for(HONGZHONG.resolve_options({"no_wild": no_wild}))
        assert len(counts) == 42 and sum(counts) == (108 if no_wild else 112)
        rec = record(
            hand([F0 + " 8m", F1, F2, "124578m12p369s" + flower], autoplay="tsumogiri"),
            options={**PLAIN, "no_wild": no_wild},
        )
        with pytest.raises(RecordError, match=f"more {flower} than the set holds"):
            replay(rec)


# == what a front end shows: payment reasons and the birds =====================================
def _notes(state: HandState) -> list[tuple[str, int, int, int, str, str]]:
    return [(i.kind, i.payer, i.payee, i.points, i.note, i.reason) for i in state.result().items]


def test_payment_notes_name_golden_bird_and_the_shares_paid_for_others_4_5() -> None:
    # 金鸟 (no hit among 2m 4p, golden_bird on) is named as such; the 庄闲 point shows.
    state = state1(BASIC, draws="5s", birds="2m 4p", options={"zhuang_xian": True})
    run(state, BASIC_ACTIONS)
    gold = [
        ("hu", 0, 1, 2, "2 x 底分 1", "self_draw"),
        ("bird", 0, 1, 2, "2 x 鸟分 1 x 底分 1", "golden_bird"),
        ("zhuangxian", 0, 1, 1, "+1 x 底分 1", "zhuangxian"),
    ]
    for p in (2, 3):
        gold += [
            ("hu", p, 1, 2, "2 x 底分 1", "self_draw"),
            ("bird", p, 1, 2, "2 x 鸟分 1 x 底分 1", "golden_bird"),
        ]
    assert _notes(state) == gold
    # 抢杠胡包三家: the konger S1 pays every share, each other seat's marked as paid for it.
    state = state1(rob_hands(), draws=ROB_DRAWS, birds="5p 3p", options={"rob_kong_pays_all": True})
    run(state, [*ROB_ACTIONS, (2, "hu")])
    bird = ("bird", 1, 2, 1, "1 x 鸟分 1 x 底分 1", "bird")
    assert _notes(state) == [
        ("hu", 1, 2, 2, "2 x 底分 1, for S0", "rob_kong_all"),
        bird,
        ("zhuangxian", 1, 2, 1, "+1 x 底分 1", "zhuangxian"),
        ("hu", 1, 2, 2, "2 x 底分 1", "rob_kong"),
        bird,
        ("hu", 1, 2, 2, "2 x 底分 1, for S3", "rob_kong_all"),
        bird,
    ]


@pytest.mark.parametrize(
    ("tile", "note"), [("1m", ("中鸟", "hit")), ("7z", ("中鸟", "hit")), ("2s", ("不中", "miss"))]
)
def test_bird_note_says_hit_or_miss_4_5(tile: str, note: tuple[str, str]) -> None:
    state = state1(BASIC)
    assert state.rules.reserved_note(state, "birds", t(tile)) == note
    assert state.rules.reserved_note(state, "horses", t(tile)) == ("", "")
