"""One test per rule of RULES.md section 2 (hangzhou) that changes an outcome.

Every test builds a small majiang-record/1 in tile notation (partial deals: the
hands, draws, tail and wild indicator it needs) and replays it, or drives
HandState directly where what is *offered* matters. Expected numbers are
worked out by hand from RULES.md 2.4 / 2.5 in the comments:

    F = S x G x 2^(n+m); each payer pays b x Z x F, Z = 2^L between the dealer
    and another seat, else 1.

So a self-draw of the non-dealer S1 at L = 1, b = 1 is paid [-2F, +4F, -F, -F].

Fillers. Hangzhou claims are chi (from the previous seat), peng, kong and, at
L = 3 only, wins on discards. A filler hand of 13 different kinds whose number
tiles lie at least 3 apart in each suit (147 / 258 / 369) and which holds no
wild can never chi, peng, kong or win; every filler draw is discarded at once
and is a kind nobody else can claim. Two families:

- ``A B C`` (each number kind once, honours 1234z / 1267z / 3467z);
- ``KA KB KC`` (the "kong family"): 1m, 9m and 7z are left out entirely (four
  of each are free for kongs and quadruples); 1z 2z 3z 6z are held three
  times, 4z twice.

The dealer S0 is a filler plus a 14th tile ``6z`` that he discards first
(nobody can claim it), unless stated. Default options: fixed wilds (5z), b = 1,
chengbao on, wild_in_melds on; R at the start is 83 (82 with a flipped wild).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
import recordkit as kit
from recordkit import (
    claims_window,
    hand_entry,
    items,
    kinds,
    legal,
    match_options,
    new_state,
    partial_deal,
    record_action,
    replay_one,
    start_of,
    t,
    tsumogiri_until,
)
from recordkit import ts as tiles

from majiang.engine.match import Match
from majiang.engine.state import HandState
from majiang.engine.wall import deal_from_wall, full_set
from majiang.errors import IllegalActionError, RecordError
from majiang.hand import is_winning
from majiang.records import replay
from majiang.rules.hangzhou import HANGZHOU
from majiang.tiles import format_tiles

# -- fillers (see the module docstring) -------------------------------------------------
A = "147m147p147s1234z"
B = "258m258p258s1267z"
C = "369m369p369s3467z"
KA = "47m147p147s12346z"
KB = "258m258p258s1236z"
KC = "36m369p369s12346z"

OPEN = (0, "discard", "6z")  # the dealer's first discard: his 14th tile, claimable by nobody


# -- helpers (generic ones in recordkit) ------------------------------------------------
def hand(
    hands: Sequence[str],
    actions: Iterable[tuple[Any, ...]] = (),
    *,
    draws: str = "",
    tail: str = "",
    indicator: str | None = None,
    dealer: int | None = 0,
    autoplay: str | None = None,
) -> dict[str, Any]:
    """One hand of a record; actions are (seat, type[, tile[, tiles]]) tuples."""
    deal = partial_deal(hands, draws=draws, tail=tail, reserved={"wild_indicator": indicator})
    return hand_entry(deal, actions, dealer=dealer, autoplay=autoplay)


def record(
    *hands: dict[str, Any],
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    lao: int | None = 1,
    seed: int = 1,
) -> dict[str, Any]:
    """A hangzhou majiang-record/1 (``lao=None``: no start counters)."""
    counters = None if lao is None else {"lao": lao}
    return kit.record(
        "hangzhou", hands, options=options, dealer=dealer, counters=counters, seed=seed
    )


def play1(
    hands: Sequence[str],
    actions: Iterable[tuple[Any, ...]] = (),
    *,
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    lao: int = 1,
    **deal: Any,
) -> dict[str, Any]:
    """Replay a one-hand record; the hand's majiang-result/1 entry."""
    h = hand(hands, actions, dealer=dealer, **deal)
    return replay_one(record(h, options=options, dealer=dealer, lao=lao))


def state1(
    hands: Sequence[str],
    *,
    draws: str = "",
    tail: str = "",
    indicator: str | None = None,
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    lao: int = 1,
    seed: int = 1,
) -> HandState:
    """The start of a hand built from a partial deal, for driving HandState directly."""
    deal = partial_deal(hands, draws=draws, tail=tail, reserved={"wild_indicator": indicator})
    opts = match_options(options, first_dealer=dealer)
    start = start_of(dealer, {"lao": lao})
    return new_state("hangzhou", deal, options=opts, start=start, seed=seed)


def drive(state: HandState, actions: Iterable[tuple[Any, ...]]) -> None:
    """Apply actions as a record would: an action that is no claim of the open window
    closes it first (every undecided seat passes)."""
    kit.run(state, actions, to_action=record_action, in_window=claims_window)


def shuffled_deal(seed: int, dealer: int) -> dict[str, Any]:
    """A complete deal from a wall shuffled with ``seed``, written as a record deal."""
    w = full_set(HANGZHOU.tile_counts)
    random.Random(seed).shuffle(w)
    deal = deal_from_wall(w, dealer, {})
    hands = [
        format_tiles(h[:-1]) + " " + format_tiles(h[-1:]) if s == dealer else format_tiles(h)
        for s, h in enumerate(deal.hands)
    ]
    return {"hands": hands, "draws": " ".join(format_tiles([x]) for x in deal.wall)}


def rest_of_wall(hands: Sequence[str], draws: str, tail: str, seed: int = 1) -> str:
    """``draws`` followed by every tile the deal does not name (shuffled with ``seed``), so
    that a record names its whole live wall."""
    left = list(HANGZHOU.tile_counts)
    for x in tiles(" ".join([*hands, draws, tail])):
        left[x] -= 1
    rest = full_set(left)
    random.Random(seed).shuffle(rest)
    return " ".join([draws, *(format_tiles([x]) for x in rest)])


def s1_self_draw(f: int, lao: int = 1, b: int = 1) -> list[int]:
    """Deltas of a self-draw of the non-dealer S1 with fan F (dealer S0)."""
    zd = b * 2**lao * f
    return [-zd, zd + 2 * b * f, -b * f, -b * f]


# == 2.1 tiles and wilds =====================================================================
def test_fixed_wild_is_white_dragon() -> None:
    # S1 = 123m 456m 789p 4s 5z 77s draws 6s: the 5z stands for 5s (456s), pair 77s.
    # Not 爆头 (without the wild: 123m 456m 789p 4s 77s is no set of sets).
    # basic_hand F = 1: S0 pays 1 x 2 x 1 = 2, S2 and S3 1 each.
    hands = [A + " 6z", "123m456m789p4s5z77s", B, C]
    state = state1(hands, draws="6s")
    assert state.wild == t("5z")
    assert state.live == 83  # 136 - 53, nothing reserved
    h = play1(hands, [OPEN, (1, "hu")], draws="6s")
    assert (h["winner"], h["win_type"], h["patterns"]) == (1, "self_draw", ["basic_hand"])
    assert h["deltas"] == [-2, 4, -1, -1]


def test_flipped_wild_indicator_kind_is_wild() -> None:
    # 翻财神 with indicator 7z: the other three 7z are the wilds. S1 = 7z 123m 456m 789p
    # 234s is 爆头-ready and draws a 5z (an ordinary tile now): baotou, F = 2.
    # S0 pays 1 x 2 x 2 = 4, S2 and S3 2 each.
    opts = {"wild_mode": "flipped"}
    hands = [KA + " 6z", "7z123m456m789p234s", KB, KC]
    state = state1(hands, draws="5z", indicator="7z", options=opts)
    assert state.wild == t("7z")
    assert state.reserved["wild_indicator"] == (t("7z"),)
    assert state.live == 82  # the indicator is out of play
    h = play1(hands, [OPEN, (1, "hu")], draws="5z", indicator="7z", options=opts)
    assert h["patterns"] == ["basic_hand", "baotou"]
    assert h["deltas"] == [-4, 8, -2, -2]
    # The same S1 with a 5z instead of its 7z: 5z is no wild, so the 9s draw wins nothing.
    state = state1(
        [KA + " 6z", "5z123m456m789p234s", KB, KC], draws="9s", indicator="7z", options=opts
    )
    drive(state, [OPEN])
    assert state.current == 1 and state.drawn == t("9s")
    assert "S1 hu" not in legal(state, 1)
    # ... while with fixed wilds it is 爆头.
    state = state1([KA + " 6z", "5z123m456m789p234s", KB, KC], draws="9s")
    drive(state, [OPEN])
    assert "S1 hu" in legal(state, 1)


def test_flipped_indicator_is_reserved_and_removed_from_play() -> None:
    # The indicator is the last tile of W after dealing; the live wall is what is left.
    w = full_set(HANGZHOU.tile_counts)
    random.Random(7).shuffle(w)
    deal = deal_from_wall(w, 0, {"wild_indicator": 1})
    assert deal.reserved["wild_indicator"] == (w[-1],)
    assert deal.wall == tuple(w[53:-1]) and len(deal.wall) == 82
    # A shuffled hand: only three tiles of the wild kind are in play.
    for seed in range(4):
        match = Match("hangzhou", {"wild_mode": "flipped", "first_dealer": 0}, seed)
        state = match.new_hand()
        wild = state.reserved["wild_indicator"][0]
        assert state.wild == wild and state.live == 82
        in_play = [x for h in state.deal.hands for x in h] + list(state.deal.wall)
        assert in_play.count(wild) == 3
        if wild != t("5z"):
            assert in_play.count(t("5z")) == 4


def test_flipped_white_dragon_is_ordinary() -> None:
    # S3 = 11m 33m 55p 77p 99s 55z 8p, L = 3; the dealer S0 discards 8p.
    hands = [KA + " 8p", KB, KC, "11m33m55p77p99s55z8p"]
    flipped = {"wild_mode": "flipped"}
    # flipped (indicator 7z): 55z is a natural pair, the hand has no wild: pure_seven_pairs,
    # S = 4, F = 4, a legal discard win at 3老: S0 pays 1 x 8 x 4 = 32.
    h = play1(hands, [(0, "discard", "8p"), (3, "hu")], indicator="7z", options=flipped, lao=3)
    assert (h["winner"], h["win_type"], h["from"]) == (3, "discard", 0)
    assert h["patterns"] == ["pure_seven_pairs"]
    assert h["deltas"] == [-32, 0, 0, 32]
    # fixed: the two 5z are wilds; without one of them the rest is six pairs (七客-ready),
    # so S3 may not win on the discard (2.3 d); it is only offered pengs/kongs with its wilds.
    state = state1(hands, lao=3)
    assert is_winning([*state.hand_tiles(3), t("8p")], wild=t("5z"))
    drive(state, [(0, "discard", "8p")])
    assert "S3 hu" not in legal(state, 3)
    # flipped: a discarded 5z is an ordinary tile and may be punged.
    state = state1(
        [KA + " 5z", KB, "55z369m258p147s12z", KC],
        indicator="7z",
        options=flipped,
    )
    drive(state, [(0, "discard", "5z")])
    assert legal(state, 2) == {"S2 peng", "S2 pass"}


@pytest.mark.parametrize("on", [True, False])
def test_wild_in_melds_chi(on: bool) -> None:
    # S1 holds 4m and two wilds, no 2m / 5m. S0 discards 3m: with wild_in_melds, S1 may chi
    # with 4m + 5z (the record names the hand tiles, "4m5z") or with both wilds ("55z": the
    # claimed 3m is the meld's natural tile, RULES.md 2.1); two wilds may also peng the 3m.
    # The chi stands for the lowest sequence that fits, 234m, and its wild is no wild any
    # more.
    hands = [A + " 3m", "4m55z8m258p258s127z", C, "258m369p147s3467z"]
    state = state1(hands, options={"wild_in_melds": on})
    drive(state, [(0, "discard", "3m")])
    if not on:
        assert state.phase == "turn" and state.current == 1  # no claim window at all
        return
    assert set(state.window_options) == {1}
    assert legal(state, 1) == {"S1 chi 4m5z", "S1 chi 55z", "S1 peng 55z", "S1 pass"}
    drive(state, [(1, "chi", None, "4m5z")])
    meld = state.melds[1][0]
    assert (meld.kind, meld.tiles, meld.source, meld.wilds) == ("chi", tuple(tiles("234m")), 0, 1)
    assert state.concealed[1][t("5z")] == 1


def test_wild_in_melds_chi_wild_may_stand_for_a_tile_held() -> None:
    # "Any tile taken from the hand may be a wild standing for the tile needed" (2.1), as
    # for pengs and kongs (a peng 7z5z is offered beside the natural one). S1 holds 3m 4m
    # and a wild; S0 discards 5m. Besides the natural 34m it may take 4m + 5z (345m, the 5z
    # for 3m, keeping 3m) or 3m + 5z (345m, the 5z for 4m, keeping its 4m): three choices
    # that leave different hands.
    hands = [A + " 5m", "34m5z8m258p258s127z", C, "28m369p147s3467z"]
    state = state1(hands)
    drive(state, [(0, "discard", "5m")])
    assert legal(state, 1) == {"S1 chi 34m", "S1 chi 4m5z", "S1 chi 3m5z", "S1 pass"}
    drive(state, [(1, "chi", None, "3m5z")])
    assert state.melds[1][0].tiles == tuple(tiles("345m"))
    assert state.concealed[1][t("4m")] == 1


@pytest.mark.parametrize("on", [True, False])
def test_wild_in_melds_peng_and_direct_kong(on: bool) -> None:
    # S2 holds one 7z and two wilds. S0 discards 7z: with wild_in_melds S2 may peng with
    # 7z + 5z or 5z + 5z (the claimed tile is the natural one) or kong with 7z + 5z5z.
    hands = [A + " 7z", "4m8m258p258s126z5z", "7z55z369m369p369s4z", "258m369p147s3467z"]
    state = state1(hands, options={"wild_in_melds": on})
    drive(state, [(0, "discard", "7z")])
    if not on:
        assert state.phase == "turn" and state.current == 1
        return
    assert legal(state, 2) == {"S2 kong 7z 557z", "S2 peng 55z", "S2 peng 57z", "S2 pass"}
    won = state.clone()
    drive(won, [(2, "kong", "7z", "7z5z5z")])
    meld = won.melds[2][0]
    assert (meld.kind, meld.tiles, meld.wilds) == ("kong_direct", (t("7z"),) * 4, 2)
    drive(state, [(2, "peng", None, "7z5z")])
    meld = state.melds[2][0]
    assert (meld.kind, meld.tiles, meld.wilds) == ("peng", (t("7z"),) * 3, 1)


@pytest.mark.parametrize("on", [True, False])
def test_wild_in_melds_concealed_kong_never_four_wilds(on: bool) -> None:
    # The dealer holds 777z and all four 5z. With wild_in_melds he may declare the
    # concealed kong 7z with one wild (777z + 5z); four wilds never form a kong
    # ("the meld contains at least one natural tile", and with the option off melds use
    # natural tiles only).
    hands = ["777z5555z147m147p 1s", KA, KB, KC]
    state = state1(hands, options={"wild_in_melds": on})
    offered = legal(state, 0)
    assert ("S0 kong 7z 5777z" in offered) is on
    assert not any(a.startswith("S0 kong 5z") for a in offered)


@pytest.mark.parametrize("on", [True, False])
def test_wild_in_melds_added_kong(on: bool) -> None:
    # S1 pengs S0's 7z with its natural 77z and holds a wild: with wild_in_melds it may add
    # the wild to the peng at once (a kong is allowed right after a peng, D5).
    hands = [KA + " 7z", "77z5z147m258p369s4z", KB, KC]
    state = state1(hands, options={"wild_in_melds": on}, tail="9s 1z")
    drive(state, [(0, "discard", "7z"), (1, "peng")])
    assert ("S1 kong 7z 5z" in legal(state, 1)) is on
    if on:
        drive(state, [(1, "kong", "7z", "5z")])
        meld = state.melds[1][0]
        assert (meld.kind, meld.wilds) == ("kong_added", 1)
        assert state.drawn == t("9s")


@pytest.mark.parametrize("on", [True, False])
def test_wild_in_melds_concealed_kong_of_one_natural_and_three_wilds(on: bool) -> None:
    # 2.1: a wild may stand in a kong, which needs at least one natural tile; so with
    # wild_in_melds the dealer holding three wilds (555z) may kong any kind he holds once
    # with them (7z + 5z5z5z), and the 1s he holds twice also with two wilds. With the
    # option off melds use natural tiles only: no kong at all.
    hands = ["7z555z147m147p147s 1s", KA, KB, KC]
    state = state1(hands, options={"wild_in_melds": on})
    kongs = {a for a in legal(state, 0) if " kong " in a}
    singles = ["1m", "4m", "7m", "1p", "4p", "7p", "4s", "7s", "7z"]
    three_wilds = {f"S0 kong {x} {format_tiles(sorted([t(x), *tiles('555z')]))}" for x in singles}
    assert "S0 kong 7z 5557z" in three_wilds
    if on:
        assert kongs == three_wilds | {"S0 kong 1s 1s555z", "S0 kong 1s 11s55z"}
    else:
        assert kongs == set()


@pytest.mark.parametrize("on", [True, False])
def test_wild_in_melds_direct_kong_of_a_discard_with_three_wilds(on: bool) -> None:
    # 2.1: S2 holds three wilds (555z) and no 7z. S0 discards 7z: with wild_in_melds S2 may
    # kong it with the three wilds (the discard is the natural tile) or peng it with two;
    # with the option off nobody has a claim.
    hands = [A + " 7z", KB, "555z369m369p369s4z", "258m369p147s346z1z"]
    state = state1(hands, options={"wild_in_melds": on})
    drive(state, [(0, "discard", "7z")])
    if not on:
        assert state.phase == "turn" and state.current == 1
        return
    assert set(state.window_options) == {2}
    assert legal(state, 2) == {"S2 kong 7z 555z", "S2 peng 55z", "S2 pass"}
    drive(state, [(2, "kong", "7z", "5z5z5z")])
    meld = state.melds[2][0]
    assert (meld.kind, meld.tiles, meld.wilds) == ("kong_direct", (t("7z"),) * 4, 3)


def test_wild_in_melds_peng_with_1m_wilds_offered_to_seats_other_than_the_chi_seat() -> None:
    # 2.1 with 翻财神: the indicator 1m makes the other three 1m the wilds (the first kind,
    # index 0). S0 discards 7z; S1 (the chi seat) has no claim on it; S2 holds one 7z and one
    # wild, S3 two wilds and no 7z: each may peng it with its wilds, though neither holds two
    # 7z.
    hands = [KA + " 7z", KB, "1m36m369p369s346z7z", "11m9m58m147p258s12z"]
    state = state1(hands, indicator="1m", options={"wild_mode": "flipped"})
    assert state.wild == t("1m")
    drive(state, [(0, "discard", "7z")])
    assert set(state.window_options) == {2, 3}
    assert legal(state, 2) == {"S2 peng 1m7z", "S2 pass"}
    assert legal(state, 3) == {"S3 peng 11m", "S3 pass"}
    drive(state, [(2, "pass"), (3, "peng", None, "1m1m")])
    meld = state.melds[3][0]
    assert (meld.kind, meld.tiles, meld.source, meld.wilds) == ("peng", (t("7z"),) * 3, 0, 2)


def test_discarded_wild_is_never_claimed() -> None:
    # L = 3. The dealer discards a 5z. S3 (11m 33m 55p 77p 99s 44z 8p, no wild) would
    # complete seven pairs with it and a discard win dealer -> non-dealer is legal at 3老;
    # S2 holds 55z (peng); S1 holds a 5z and sits next (chi). Nobody may claim a wild.
    hands = [A + " 5z", "258m258p258s127z5z", "369m369p369s34z55z", "1133m5577p99s44z8p"]
    state = state1(hands, draws="9m", lao=3)
    assert is_winning([*state.hand_tiles(3), t("5z")], wild=t("5z"))
    drive(state, [(0, "discard", "5z")])
    assert state.phase == "turn" and state.current == 1 and state.drawn == t("9m")
    rec = record(hand(hands, [(0, "discard", "5z"), (3, "hu")], draws="9m"), lao=3)
    with pytest.raises(RecordError, match=r"hand 0, action 1, seat 3"):
        replay(rec)
    # The discarder of a wild starts a 抓打 period, which already bars every other seat from
    # claiming; the rule also stands on its own in the variant's data.
    assert not HANGZHOU.wild_discard_claims


# == 2.2 wall ================================================================================
def test_kong_takes_replacement_and_burns_one_tile() -> None:
    # S1 draws the 4th 7z and declares a concealed kong: the replacement is the back tile
    # (tail 9s), and one more back tile (tail 1z) is set aside unused. R: 83, S1's draw 82,
    # kong -> 80.
    hands = [KA + " 6z", "777z123m456m789p2s", KB, KC]
    state = state1(hands, draws="7z 3m", tail="9s 1z 2z")
    drive(state, [OPEN])
    assert state.live == 82
    drive(state, [(1, "kong", "7z")])
    assert state.drawn == t("9s")
    assert state.burned == [t("1z")]
    assert state.live == 80
    # the burned 1z is never drawn: the next back tile is 2z
    assert state.wall[state.hi - 1] == t("2z")


# The end of the wall (D30). Every hand tile is named; the live wall is shuffled from the
# seed except its last 21 tiles (the tail, reversed), so draw 63 -- the one leaving R = 20 --
# is tail[-1] = 5p, and it goes to S3 when nobody claims (draw k goes to seat k mod 4).
# All four 5z sit in S1 and S2, so no wild is ever discarded (no 抓打).
# L = 3. The dealer S0 = 123m 456m 789m 123p 5p waits on 5p only (no wild); S1 holds 55p
# (peng) and two concealed quadruples 1111z 2222z; S3 holds the quadruple 7777s.
END_HANDS = [
    "123m456m789m123p5p 9s",
    "55p1111z2222z55z9m",
    "8m369p369s345567z",
    "7777s258m48p2s367z",
]
END_TAIL = "9p 9p 1p 4m 6m 7m 1s 4s 5s 8s 9s 2p 4p 6p 7p 3s 4m 6m 7m 1s 5p"


def _end_state() -> HandState:
    return state1(END_HANDS, tail=END_TAIL, lao=3)


_drive_to = tsumogiri_until  # tsumogiri until a turn starts with R == live


def test_last_turn_at_R20_discard_only_won_on() -> None:
    state = _end_state()
    assert state.live == 83
    seen: dict[int, set[str]] = {}
    _drive_to(state, 20, seen)
    assert "S3 kong 7s" in seen[24]  # S3's turn before (draw 59, R = 24): the kong is offered
    # Draw 63 leaves R = 20: S3's last turn. No kong; it may discard (or self-draw win).
    assert state.current == 3 and state.drawn == t("5p")
    assert "kong" not in kinds(legal(state, 3))
    drive(state, [(3, "discard", "5p")])
    # The only claim is a win on the discard (2.3 allows it: L = 3, S3 -> the dealer S0);
    # S1's peng of 5p is not offered.
    assert state.window_options.keys() == {0}
    assert legal(state, 0) == {"S0 hu", "S0 pass"}
    assert legal(state, 1) == set()
    won = state.clone()
    drive(won, [(0, "hu")])
    # basic_hand F = 1 on a discard: S3 pays 1 x 8 x 1 = 8.
    res = won.result()
    assert res.outcome == "win" and res.win is not None and res.win.win_type == "discard"
    assert res.deltas == [8, 0, 0, -8]
    # Nobody wins: the hand is drawn and pays nothing.
    drive(state, [(0, "pass")])
    assert state.is_terminal()
    res = state.result()
    assert (res.outcome, res.win, res.items, res.deltas) == ("draw", None, (), [0, 0, 0, 0])


def test_last_turn_after_kong_replacement_and_burn() -> None:
    # Draw 61 (R = 22) goes to S1. Its kong of 1z takes the replacement (tail[0] = 9p) and
    # burns tail[1]: R = 20, so the replacement turn is the last one: no second kong
    # (2222z), the 9p discard ends the hand (nobody can win on it).
    state = _end_state()
    _drive_to(state, 22)
    assert state.current == 1
    assert {"S1 kong 1z", "S1 kong 2z"} <= legal(state, 1)
    drive(state, [(1, "kong", "1z")])
    assert state.live == 20 and state.drawn == t("9p")
    assert "kong" not in kinds(legal(state, 1))
    drive(state, [(1, "discard", "9p")])
    assert state.is_terminal() and state.result().outcome == "draw"
    assert state.result().deltas == [0, 0, 0, 0]  # a drawn hand pays nothing, kongs never


# == 2.3 claims ================================================================================
def test_chi_only_from_previous_seat() -> None:
    # S1 and S2 both hold 46m. S0's 5m may be chied by S1 (its next seat) only; when S1
    # passes, draws 5m and discards it, S2 (now the next seat) may chi it.
    hands = [A + " 5m", "469m258p258s1267z", "146m369p369s3467z", "28m147p147s12347z"]
    state = state1(hands, draws="5m")
    drive(state, [(0, "discard", "5m")])
    assert state.window_options.keys() == {1}
    assert legal(state, 1) == {"S1 chi 46m", "S1 pass"}
    drive(state, [(1, "pass"), (1, "discard", "5m")])
    assert state.window_options.keys() == {2}
    assert legal(state, 2) == {"S2 chi 46m", "S2 pass"}


# Discard wins (2.3). Seven pairs 11m 33m 55p 77p 99s 44z waiting on 8p, no wild.
PAIRS_8P = "1133m5577p99s44z8p"


@pytest.mark.parametrize("lao", [1, 2, 3])
def test_discard_win_only_at_L3_dealer_discards(lao: int) -> None:
    # S0 (dealer) discards 8p; S3 could win on it only at L = 3 (HZ-3):
    # pure_seven_pairs F = 4, S0 pays 1 x 8 x 4 = 32.
    hands = [A + " 8p", B, C, PAIRS_8P]
    state = state1(hands, lao=lao)
    drive(state, [(0, "discard", "8p")])
    if lao < 3:
        assert state.phase == "turn" and state.current == 1
        return
    assert legal(state, 3) == {"S3 hu", "S3 pass"}
    h = play1(hands, [(0, "discard", "8p"), (3, "hu")], lao=3)
    assert (h["winner"], h["from"], h["win_type"]) == (3, 0, "discard")
    assert h["patterns"] == ["pure_seven_pairs"]
    assert h["deltas"] == [-32, 0, 0, 32]
    assert h["next"] == {"dealer": 3, "counters": {"lao": 1}}


@pytest.mark.parametrize("lao", [2, 3])
def test_discard_win_dealer_on_non_dealer(lao: int) -> None:
    # The dealer S0 waits on 8p; S1 draws 3z and discards 8p. At L = 3 S0 wins:
    # pure_seven_pairs F = 4, S1 pays 1 x 8 x 4 = 32. At L = 2 there is no claim.
    hands = [PAIRS_8P + " 6z", B, C, A]
    actions = [OPEN, (1, "discard", "8p")]
    state = state1(hands, draws="3z", lao=lao)
    drive(state, actions)
    if lao < 3:
        assert state.phase == "turn" and state.current == 2
        return
    assert legal(state, 0) == {"S0 hu", "S0 pass"}
    h = play1(hands, [*actions, (0, "hu")], draws="3z", lao=3)
    assert (h["winner"], h["from"], h["win_type"]) == (0, 1, "discard")
    assert h["deltas"] == [32, -32, 0, 0]
    assert h["next"] == {"dealer": 0, "counters": {"lao": 3}}


def test_no_discard_win_between_non_dealers() -> None:
    # L = 3, S3 waits on 8p; S1 (a non-dealer) draws 3z and discards 8p: no claim.
    hands = [A + " 6z", B, C, PAIRS_8P]
    state = state1(hands, draws="3z", lao=3)
    assert is_winning([*state.hand_tiles(3), t("8p")], wild=t("5z"))
    drive(state, [OPEN, (1, "discard", "8p")])
    assert state.phase == "turn" and state.current == 2


@pytest.mark.parametrize(
    ("s3", "discard"),
    [
        ("5z123m456m789p234s", "9s"),  # minus the wild: four sets (爆头-ready)
        ("5z1133m5577p99s44z", "8p"),  # minus the wild: six pairs (七客-ready)
    ],
)
def test_no_discard_win_when_baotou_ready(s3: str, discard: str) -> None:
    # L = 3, the dealer discards a tile that completes S3, but S3 is 爆头-ready (2.3 d).
    state = state1([A + " " + discard, B, C, s3], lao=3)
    assert is_winning([*state.hand_tiles(3), t(discard)], wild=t("5z"))
    drive(state, [(0, "discard", discard)])
    assert "S3 hu" not in legal(state, 3)


def test_discard_win_with_a_wild_when_not_baotou_ready() -> None:
    # S3 = 5z 123m 456m 789p 2s 4s 6s holds a wild but without it has no four sets:
    # it may win on the dealer's 3s (234s, pair 6s + 5z). basic_hand F = 1: S0 pays 8.
    h = play1([A + " 3s", B, C, "5z123m456m789p246s"], [(0, "discard", "3s"), (3, "hu")], lao=3)
    assert (h["winner"], h["win_type"], h["patterns"]) == (3, "discard", ["basic_hand"])
    assert h["deltas"] == [-8, 0, 0, 8]


def test_claim_priority_win_over_peng_over_chi() -> None:
    # L = 3, S0 discards 8p: S1 may chi (67p), S2 may peng (88p), S3 may win (seven pairs).
    hands = [A + " 8p", "367p258m258s1267z", "288p369m369s3467z", PAIRS_8P]
    claims = [(0, "discard", "8p"), (1, "chi", None, "67p"), (2, "peng")]
    state = state1(hands, lao=3)
    drive(state, claims[:1])
    assert legal(state, 1) == {"S1 chi 67p", "S1 pass"}
    assert legal(state, 2) == {"S2 peng", "S2 pass"}
    assert legal(state, 3) == {"S3 hu", "S3 pass"}
    # The win beats both: S0 pays 1 x 8 x 4 = 32.
    h = play1(hands, [*claims, (3, "hu")], lao=3)
    assert (h["winner"], h["win_type"]) == (3, "discard")
    assert h["deltas"] == [-32, 0, 0, 32]
    # S3 passes: the peng beats the chi.
    drive(state, [*claims[1:], (3, "pass")])
    assert state.current == 2 and [m.kind for m in state.melds[2]] == ["peng"]
    assert state.melds[1] == []


def test_discard_win_tie_nearest_after_discarder() -> None:
    # L = 3, both S1 (123m 456m 789s 234s, single 8p) and S3 (seven pairs) win on the
    # dealer's 8p; S3 is listed first but S1, the discarder's next seat, wins.
    # S1: basic_hand F = 1, S0 pays 1 x 8 x 1 = 8.
    hands = [A + " 8p", "123m456m789s234s8p", C, PAIRS_8P]
    h = play1(hands, [(0, "discard", "8p"), (3, "hu"), (1, "hu")], lao=3)
    assert (h["winner"], h["from"]) == (1, 0)
    assert h["deltas"] == [-8, 8, 0, 0]


def test_no_robbing_a_kong_D26() -> None:
    # L = 3. The dealer S0 = 46m 123p 456p 789p 11s waits on 5m. He discards 5m, S1 pengs
    # it; later S1 draws the 4th 5m and adds it: S0 (dealer vs non-dealer at 3老) would be
    # complete with it, but there is no robbing: the kong stands and S1 makes its back draw.
    hands = ["46m123p456p789p11s 5m", "558m258p258s1267z", A, C]
    actions = [
        (0, "discard", "5m"),
        (1, "peng"),
        (1, "discard", "1z"),
        (2, "discard", "6z"),
        (3, "discard", "7z"),
        (0, "discard", "2z"),
        (1, "kong", "5m"),
    ]
    state = state1(hands, draws="6z 7z 2z 5m", tail="9p 8s", lao=3)
    drive(state, actions)
    assert is_winning([*state.hand_tiles(0), t("5m")], wild=t("5z"))
    assert state.phase == "turn" and state.current == 1 and state.drawn == t("9p")
    assert legal(state, 0) == set()
    with pytest.raises(IllegalActionError):
        drive(state, [(0, "hu")])


def test_missed_win_until_own_draw() -> None:
    # L = 3. The dealer S0 waits on 8p (seven pairs, no wild). S1 discards 8p and S0 passes:
    # S3's 8p (before S0 draws again) is not offered to S0 (漏胡). After S0's draw, S1's
    # next 8p may be won on: pure_seven_pairs F = 4, S1 pays 1 x 8 x 4 = 32.
    hands = [PAIRS_8P + " 6z", B, C, "147m148p147s1234z"]
    draws = "3z 1z 7z 2z 8p"
    first = [OPEN, (1, "discard", "8p"), (0, "pass"), (2, "discard", "1z")]
    state = state1(hands, draws=draws, lao=3)
    drive(state, first[:2])
    assert legal(state, 0) == {"S0 hu", "S0 pass"}
    drive(state, [*first[2:], (3, "discard", "8p")])
    assert state.phase == "turn" and state.current == 0  # no window: S0 drew
    assert state.drawn == t("2z")
    rec = record(hand(hands, [*first, (3, "discard", "8p"), (0, "hu")], draws=draws), lao=3)
    with pytest.raises(RecordError, match=r"action 5, seat 0"):
        replay(rec)
    h = play1(
        hands,
        [*first, (3, "discard", "8p"), (0, "discard", "2z"), (1, "discard", "8p"), (0, "hu")],
        draws=draws,
        lao=3,
    )
    assert (h["winner"], h["from"], h["win_type"]) == (0, 1, "discard")
    assert h["deltas"] == [32, -32, 0, 0]


# S2 holds 77s. S0 = A holds one 7s.
PENG_HANDS = [A + " 6z", C, "258m258p2s77s1267z", "369m147p58s12347z"]


def test_missed_peng_until_own_draw() -> None:
    # S0 discards 7s, S2 passes on the peng; S1 draws 7s and discards it before S2's next
    # draw: S2 may not peng it (漏碰).
    state = state1(PENG_HANDS, draws="7s")
    drive(state, [(0, "discard", "7s")])
    assert legal(state, 2) == {"S2 peng", "S2 pass"}
    drive(state, [(2, "pass"), (1, "discard", "7s")])
    assert state.phase == "turn" and state.current == 2


def test_missed_peng_lifted_by_own_draw() -> None:
    # S1 discards 7s, S2 passes; S2 draws; later S0 discards 7s: S2 may peng it again.
    state = state1(PENG_HANDS, draws="7s 1z 2z 3z")
    drive(state, [OPEN, (1, "discard", "7s")])
    assert legal(state, 2) == {"S2 peng", "S2 pass"}
    drive(state, [(2, "pass"), (2, "discard", "1z"), (3, "discard", "2z")])
    drive(state, [(0, "discard", "7s")])
    assert legal(state, 2) == {"S2 peng", "S2 pass"}


def test_missed_peng_when_choosing_chi_instead_D8() -> None:
    # S1 may chi (46m) or peng (55m) S0's 5m and chis: that passes on the peng, so S3's 5m
    # (before S1's next draw) may not be punged either.
    hands = [A + " 5m", "46m55m258p258s127z", C, "28m147p147s12347z"]
    state = state1(hands, draws="1z 5m")
    drive(state, [(0, "discard", "5m")])
    assert legal(state, 1) == {"S1 chi 46m", "S1 peng", "S1 pass"}
    drive(state, [(1, "chi", None, "46m"), (1, "discard", "7z"), (2, "discard", "1z")])
    drive(state, [(3, "discard", "5m")])
    assert state.phase == "turn" and state.current == 0


# == 摊 (claim counts) and 承包 ===============================================================
# HZ-4 (RULES.md 2.8): S1 = 234m 789p 999s 444z 5z chis S0's 1m (23m), chis S0's 6p (78p)
# and pengs S0's 9s, then self-draws 3z: 爆头 (5z + 444z), F = 2.
HZ4_HANDS = ["58m25p258s123467z 1m", "234m789p999s4445z", "258m25p258s12367z", "58m258p258s12367z"]
HZ4_DRAWS = "7s 6p 6p 7s 7s 9s 1p 1s 3p 3z"
HZ4_TO_9S = [
    (0, "discard", "1m"),
    (1, "chi", None, "23m"),
    (1, "discard", "4m"),
    (2, "discard", "7s"),
    (3, "discard", "6p"),
    (0, "discard", "6p"),
    (1, "chi", None, "78p"),
    (1, "discard", "9p"),
    (2, "discard", "7s"),
    (3, "discard", "7s"),
    (0, "discard", "9s"),
]
HZ4_REST = [
    (1, "peng"),
    (1, "discard", "9s"),
    (2, "discard", "1p"),
    (3, "discard", "1s"),
    (0, "discard", "3p"),
    (1, "hu"),
]


@pytest.mark.parametrize("lao", [1, 2, 3])
def test_tan_limit_two_claims_on_one_seat(lao: int) -> None:
    # With 承包 a third claim of S1 on S0 is allowed only at L = 3 (S0 is the dealer).
    state = state1(HZ4_HANDS, draws=HZ4_DRAWS, lao=lao)
    drive(state, HZ4_TO_9S)
    assert state.claims_count[1][0] == 2
    if lao < 3:
        assert state.phase == "turn" and state.current == 1 and state.drawn == t("1p")
    else:
        assert {"S1 peng", "S1 kong 9s"} <= legal(state, 1)


def test_tan_limit_between_two_non_dealers_even_at_L3() -> None:
    # HZ-4 moved one seat on: S2 claims S1's 1m, 6p, 9s; the dealer S0 is a filler.
    # At L = 3 the third claim is still barred: neither S1 nor S2 is the dealer.
    hands = ["58m258p258s12367z 1z", "58m25p258s123467z", "234m789p999s4445z", "258m25p258s12367z"]
    actions = [
        (0, "discard", "1z"),
        (1, "discard", "1m"),
        (2, "chi", None, "23m"),
        (2, "discard", "4m"),
        (3, "discard", "7s"),
        (0, "discard", "6p"),
        (1, "discard", "6p"),
        (2, "chi", None, "78p"),
        (2, "discard", "9p"),
        (3, "discard", "7s"),
        (0, "discard", "7s"),
        (1, "discard", "9s"),
    ]
    state = state1(hands, draws="1m 7s 6p 6p 7s 7s 9s 1p", lao=3)
    drive(state, actions)
    assert state.claims_count[2][1] == 2
    assert state.phase == "turn" and state.current == 2 and state.drawn == t("1p")


def test_direct_kong_counts_as_tan() -> None:
    # L = 1. S1 pengs S0's 7z and konges S0's 9m (direct kong): two 摊 on S0, so S0's 1m
    # (S1 holds 11m) may not be punged.
    hands = [KA + " 7z", "11m999m77z258p47s4z", KB, KC]
    actions = [
        (0, "discard", "7z"),
        (1, "peng"),
        (1, "discard", "4z"),
        (2, "discard", "2z"),
        (3, "discard", "3z"),
        (0, "discard", "9m"),
        (1, "kong", "9m"),
        (1, "discard", "1z"),
        (2, "discard", "8s"),
        (3, "discard", "5s"),
    ]
    draws = "2z 3z 9m 8s 5s 1m"
    state = state1(hands, draws=draws, tail="1z 4z", lao=1)
    drive(state, [*actions, (0, "discard", "1m")])
    assert state.claims_count[1][0] == 2
    assert [m.kind for m in state.melds[1]] == ["peng", "kong_direct"]
    assert state.phase == "turn" and state.current == 1
    # without 承包 the same peng is offered (no 摊 limit)
    state = state1(hands, draws=draws, tail="1z 4z", lao=1, options={"chengbao": False})
    drive(state, [*actions, (0, "discard", "1m")])
    assert "S1 peng" in legal(state, 1)


def test_no_tan_limit_without_chengbao_and_no_liability() -> None:
    # HZ-4 at L = 1 without 承包: the third claim is allowed and the win is paid normally.
    # 爆头 F = 2: S0 pays 1 x 2 x 2 = 4, S2 and S3 2 each; no chengbao item.
    h = play1(
        HZ4_HANDS,
        [*HZ4_TO_9S, *HZ4_REST],
        draws=HZ4_DRAWS,
        options={"chengbao": False},
        lao=1,
    )
    assert h["patterns"] == ["basic_hand", "baotou"]
    assert items(h) == [("hu", 0, 1, 4), ("hu", 2, 1, 2), ("hu", 3, 1, 2)]
    assert h["deltas"] == [-4, 8, -2, -2]


def test_at_most_two_chi_without_chengbao() -> None:
    # HZ-4 with S1 = 234m 789p 78s 99s 44z 5z and 承包 off: after two chis of S0's tiles,
    # S0's 9s may be punged (99s) but not chied (78s).
    hands = [HZ4_HANDS[0], "234m789p78s99s44z5z", HZ4_HANDS[2], HZ4_HANDS[3]]
    state = state1(hands, draws=HZ4_DRAWS, options={"chengbao": False})
    drive(state, HZ4_TO_9S)
    offered = legal(state, 1)
    assert "S1 peng" in offered
    assert "chi" not in kinds(offered)
    # the first chi was offered with the same tiles: 78s would chi a 9s
    state = state1(hands, draws=HZ4_DRAWS, options={"chengbao": False})
    drive(state, [(0, "discard", "1m")])
    assert "S1 chi 23m" in legal(state, 1)


def test_santan_chengbao_HZ4() -> None:
    # HZ-4, L = 3: normal payments S0 1 x 8 x 2 = 16, S2 2, S3 2, X = 20; S1 has 3 摊 on
    # S0, so S0 pays X = 20 and S2, S3 pay nothing.
    h = play1(HZ4_HANDS, [*HZ4_TO_9S, *HZ4_REST], draws=HZ4_DRAWS, lao=3)
    assert h["patterns"] == ["basic_hand", "baotou"]
    assert items(h) == [("chengbao", 0, 1, 20)]
    assert h["deltas"] == [-20, 20, 0, 0]
    assert h["next"] == {"dealer": 1, "counters": {"lao": 1}}


# 倒承包 and both liabilities together (L = 3). S1 chis the dealer's 1m, 4m, 7m
# (with 23m, 56m, 89m), discarding 3s, 6s, 9s; in the "together" record the dealer also
# chis S3's 1p, 4p, 7p (with 23p, 56p, 89p). The dealer ends with 444z 1s (+ melds) and
# self-draws 1s: basic_hand F = 1, each non-dealer's normal share 1 x 8 x 1 = 8, X = 24.
DAO_S1 = "23m56m89m369s1237z"
DAO_S2 = "147m147p258s1246z"
DAO_S3 = "369m258p147s1237z"


def test_dao_chengbao_alone() -> None:
    # S0 = 123p 456p 789p 444z 1s waits on 1s; he draws and discards 4m and 7m for S1.
    # S1 has 3 摊 on the winner: S1 pays 2X = 48, nobody else pays.
    hands = ["123p456p789p444z1s 1m", DAO_S1, DAO_S2, DAO_S3]
    actions = [
        (0, "discard", "1m"),
        (1, "chi", None, "23m"),
        (1, "discard", "3s"),
        (2, "discard", "3z"),
        (3, "discard", "8s"),
        (0, "discard", "4m"),
        (1, "chi", None, "56m"),
        (1, "discard", "6s"),
        (2, "discard", "7z"),
        (3, "discard", "2s"),
        (0, "discard", "7m"),
        (1, "chi", None, "89m"),
        (1, "discard", "9s"),
        (2, "discard", "6z"),
        (3, "discard", "3z"),
        (0, "hu"),
    ]
    h = play1(hands, actions, draws="3z 8s 4m 7z 2s 7m 6z 3z 1s", lao=3)
    assert (h["winner"], h["win_type"], h["patterns"]) == (0, "self_draw", ["basic_hand"])
    assert items(h) == [("chengbao", 1, 0, 48)]
    assert h["deltas"] == [48, -48, 0, 0]


def test_santan_and_dao_chengbao_together() -> None:
    # The dealer has 3 摊 on S3 (S3 pays X = 24) and S1 has 3 摊 on the dealer (S1 pays
    # 2X = 48): S0 +72, S1 -48, S2 0, S3 -24.
    hands = ["444z1s23p56p89p4m7m6z 1m", DAO_S1, DAO_S2, DAO_S3]
    actions = [
        (0, "discard", "1m"),
        (1, "chi", None, "23m"),
        (1, "discard", "3s"),
        (2, "discard", "3z"),
        (3, "discard", "1p"),
        (0, "chi", None, "23p"),
        (0, "discard", "4m"),
        (1, "chi", None, "56m"),
        (1, "discard", "6s"),
        (2, "discard", "7z"),
        (3, "discard", "4p"),
        (0, "chi", None, "56p"),
        (0, "discard", "7m"),
        (1, "chi", None, "89m"),
        (1, "discard", "9s"),
        (2, "discard", "6z"),
        (3, "discard", "7p"),
        (0, "chi", None, "89p"),
        (0, "discard", "6z"),
        (1, "discard", "9p"),
        (2, "discard", "3z"),
        (3, "discard", "8s"),
        (0, "hu"),
    ]
    h = play1(hands, actions, draws="3z 1p 7z 4p 6z 7p 9p 3z 8s 1s", lao=3)
    assert (h["winner"], h["win_type"], h["patterns"]) == (0, "self_draw", ["basic_hand"])
    assert items(h) == [("chengbao", 1, 0, 48), ("chengbao", 3, 0, 24)]
    assert h["deltas"] == [72, -48, 0, -24]


# == 抓打 (2.3, D24) ===========================================================================
# L = 1. S2 pengs the dealer's 6z (holding 666z, so one 6z stays in its hand: an added kong
# is available whenever S2 is free to make it). S1 draws a 5z and discards it: a 抓打
# period with owner S1 starts.
ZD_HANDS = ["147m147p129s1234z 6z", "33s258m258p8s1234z", "666z777z369m369p9s", "369m258p147s1234z"]
ZD_DRAWS = "5m 8p 5z 7z 3s 9p 1z 2z"
ZD_START = [
    (0, "discard", "6z"),
    (2, "peng"),
    (2, "discard", "9s"),
    (3, "discard", "5m"),
    (0, "discard", "8p"),
    (1, "discard", "5z"),
]


def _zhuada_state() -> HandState:
    state = state1(ZD_HANDS, draws=ZD_DRAWS, tail="1p 9p")
    drive(state, ZD_START)
    return state


def test_zhuada_restricted_seat_turn() -> None:
    # S2 (restricted) draws the 4th 7z: it may declare the concealed kong or discard the
    # drawn 7z -- not add its 6z to the peng, not discard another tile.
    state = _zhuada_state()
    assert state.current == 2 and state.drawn == t("7z")
    assert legal(state, 2) == {"S2 kong 7z", "S2 discard 7z"}
    # after the concealed kong only the replacement (1p) may be discarded
    drive(state, [(2, "kong", "7z")])
    assert state.drawn == t("1p")
    assert legal(state, 2) == {"S2 discard 1p"}


def test_zhuada_restricted_seats_cannot_claim_owner_can() -> None:
    # S3 (restricted) draws 3s and must discard it: S0 (its next seat, 12s) may not chi it;
    # the owner S1 (33s) may peng it.
    state = _zhuada_state()
    drive(state, [(2, "kong", "7z"), (2, "discard", "1p")])
    assert legal(state, 3) == {"S3 discard 3s"}
    drive(state, [(3, "discard", "3s")])
    assert state.window_options.keys() == {1}
    assert legal(state, 1) == {"S1 peng", "S1 pass"}
    assert legal(state, 0) == set()


def test_zhuada_ends_when_owner_claims() -> None:
    # The owner S1 pengs S3's 3s: the period is over, S2 may again add its 6z and discard
    # any tile on its next turn.
    state = _zhuada_state()
    drive(state, [(2, "kong", "7z"), (2, "discard", "1p"), (3, "discard", "3s"), (1, "peng")])
    drive(state, [(1, "discard", "8s")])
    assert state.current == 2
    assert {"S2 kong 6z", "S2 discard 3m"} <= legal(state, 2)


def test_zhuada_ends_when_owner_draws() -> None:
    # S1 passes on the 3s; S0 (restricted) may only discard its drawn 9p; then the owner
    # S1 draws: the period is over, and S2 may add its 6z again.
    state = _zhuada_state()
    drive(state, [(2, "kong", "7z"), (2, "discard", "1p"), (3, "discard", "3s"), (1, "pass")])
    assert legal(state, 0) == {"S0 discard 9p"}
    drive(state, [(0, "discard", "9p"), (1, "discard", "1z")])
    assert state.current == 2 and state.drawn == t("2z")
    assert {"S2 kong 6z", "S2 discard 3m"} <= legal(state, 2)


def test_zhuada_is_over_as_soon_as_the_owner_draws_D24() -> None:
    # D24: the period lasts until the owner's next turn begins; once S1 has drawn its 1z,
    # nobody is restricted any more, even before S1 discards (front ends show nothing).
    state = _zhuada_state()
    drive(state, [(2, "kong", "7z"), (2, "discard", "1p"), (3, "discard", "3s"), (1, "pass")])
    drive(state, [(0, "discard", "9p")])
    assert state.current == 1 and state.drawn == t("1z")
    assert [state.restrictions(s) for s in range(4)] == [[], [], [], []]


def test_zhuada_owner_is_public_in_every_observation_D24() -> None:
    # D24: everyone saw the wild discarded, so every seat's observation names the 抓打 owner
    # (docs/observation.md: {"zhuada": null} or a seat), from the deal until the owner draws.
    state = state1(ZD_HANDS, draws=ZD_DRAWS, tail="1p 9p")
    assert [dict(state.observation(s).variant_state) for s in range(4)] == [{"zhuada": None}] * 4
    drive(state, ZD_START)
    assert [dict(state.observation(s).variant_state) for s in range(4)] == [{"zhuada": 1}] * 4
    drive(state, [(2, "kong", "7z"), (2, "discard", "1p"), (3, "discard", "3s"), (1, "pass")])
    drive(state, [(0, "discard", "9p")])  # S1 draws 1z
    assert [dict(state.observation(s).variant_state) for s in range(4)] == [{"zhuada": None}] * 4


def test_zhuada_no_discard_win_for_restricted_owner_may_win() -> None:
    # L = 3. The dealer S0 waits on 8p (seven pairs). S1 draws 6s and discards its 5z
    # (owner S1; it now waits on 1s/4s with 123m 456m 789p 23s 66s, no wild).
    # S2 (restricted) draws and discards 8p: S0 may not win on it (restricted).
    # S0 (restricted) draws and discards 4s: the owner S1 wins on it: basic_hand F = 1,
    # S0 pays 1 x 8 x 1 = 8.
    hands = [PAIRS_8P + " 6z", "5z123m456m789p23s6s", C, A]
    actions = [OPEN, (1, "discard", "5z"), (2, "discard", "8p")]
    draws = "6s 8p 2z 4s"
    state = state1(hands, draws=draws, lao=3)
    drive(state, actions)
    assert state.phase == "turn" and state.current == 3  # no window for S0
    h = play1(
        hands, [*actions, (3, "discard", "2z"), (0, "discard", "4s"), (1, "hu")], draws=draws, lao=3
    )
    assert (h["winner"], h["from"], h["win_type"]) == (1, 0, "discard")
    assert h["deltas"] == [-8, 8, 0, 0]


def test_zhuada_restricted_seat_may_self_draw() -> None:
    # S1 discards a wild; S2 (restricted, 123m 456m 789p 234s waiting on 7z) draws 7z and
    # wins by self-draw: basic_hand F = 1, S0 pays 1 x 2 x 1 = 2, S1 and S3 1.
    h = play1(
        [KA + " 6z", "258m258p258s123z5z", "123m456m789p234s7z", KC],
        [OPEN, (1, "discard", "5z"), (2, "hu")],
        draws="4z 7z",
    )
    assert (h["winner"], h["win_type"]) == (2, "self_draw")
    assert h["deltas"] == [-2, -1, 4, -1]


def test_zhuada_hand_over_to_restricted_seat_discarding_a_wild() -> None:
    # S1 discards a 5z (owner S1). S3 (restricted) draws a 5z and discards it: S3 is the new
    # owner and S1 is restricted: it may not peng S0's 2p (22p) and on its own turn may
    # only discard what it drew.
    hands = [A + " 6z", "5z22p258m258s1267z", C, "258m369p147s1267z"]
    state = state1(hands, draws="9m 1z 5z 2p 4z")
    drive(state, [OPEN, (1, "discard", "5z"), (2, "discard", "1z")])
    assert legal(state, 3) == {"S3 discard 5z"}
    drive(state, [(3, "discard", "5z"), (0, "discard", "2p")])
    assert state.phase == "turn" and state.current == 1 and state.drawn == t("4z")
    assert legal(state, 1) == {"S1 discard 4z"}
    # had S3 discarded anything else, S1 (still the owner) could peng the 2p
    state = state1(hands, draws="9m 1z 2z 2p 4z")
    drive(state, [OPEN, (1, "discard", "5z"), (2, "discard", "1z"), (3, "discard", "2z")])
    drive(state, [(0, "discard", "2p")])
    assert legal(state, 1) == {"S1 peng", "S1 pass"}


# == 2.4 winning: fan F = S x G x 2^(n+m) ======================================================
# Winner S1 (kong family), self-draw on its first draw: deltas s1_self_draw(F).
@pytest.mark.parametrize(
    ("s1", "draw", "patterns", "f"),
    [
        # wild in the hand: S = 2 x 2^q
        ("1133m5577p99s4z7z5z", "4z", ["seven_pairs"], 2),
        ("1111m5577p99s4z7z5z", "4z", ["luxury_seven_pairs"], 4),
        ("1111m9999m77p4z7z5z", "4z", ["double_luxury_seven_pairs"], 8),
        ("1111m9999m7777z4z", "5z", ["triple_luxury_seven_pairs"], 16),
        # no wild: 清七对, S = 4 x 2^q (D21)
        ("1133m5577p99s77z4z", "4z", ["pure_seven_pairs"], 4),
        ("1111m5577p99s77z4z", "4z", ["luxury_pure_seven_pairs"], 8),
        ("1111m9999m77p77z4z", "4z", ["double_luxury_pure_seven_pairs"], 16),
        ("1111m9999m7777z4z", "4z", ["triple_luxury_pure_seven_pairs"], 32),
        # 七客: the 13 tiles before the draw minus the wild are six pairs: G = 2
        ("1133m5577p99s77z5z", "4z", ["seven_pairs", "qike"], 4),
        ("1111m5577p99s77z5z", "4z", ["luxury_seven_pairs", "qike"], 8),
        ("1111m9999m77p77z5z", "4z", ["double_luxury_seven_pairs", "qike"], 16),
        ("1111m9999m7777z5z", "4z", ["triple_luxury_seven_pairs", "qike"], 32),
    ],
)
def test_seven_pairs_shapes(s1: str, draw: str, patterns: list[str], f: int) -> None:
    h = play1([KA + " 6z", s1, KB, KC], [OPEN, (1, "hu")], draws=draw)
    assert (h["winner"], h["win_type"]) == (1, "self_draw")
    assert h["patterns"] == patterns
    assert h["deltas"] == s1_self_draw(f)


@pytest.mark.parametrize(
    ("quad", "patterns", "f"),
    [(False, ["seven_pairs"], 2), (True, ["luxury_seven_pairs"], 4)],
)
def test_wild_luxury_quad_D22(quad: bool, patterns: list[str], f: int) -> None:
    # 111m + a wild standing for the 4th 1m: a quadruple only with wild_luxury_quad.
    # 111m 33m 55p 77p 99s 4z 5z draws 4z (not 七客: 111m is no pair).
    h = play1(
        [KA + " 6z", "111m33m55p77p99s4z5z", KB, KC],
        [OPEN, (1, "hu")],
        draws="4z",
        options={"wild_luxury_quad": quad},
    )
    assert h["patterns"] == patterns
    assert h["deltas"] == s1_self_draw(f)


@pytest.mark.parametrize("draw", ["9s", "5z"])
def test_baotou(draw: str) -> None:
    # 5z 123m 456m 789p 234s: without the wild four sets; the drawn tile (a wild too)
    # pairs with it. G = 2, F = 2: [-4, 8, -2, -2].
    h = play1([KA + " 6z", "5z123m456m789p234s", KB, KC], [OPEN, (1, "hu")], draws=draw)
    assert h["patterns"] == ["basic_hand", "baotou"]
    assert h["deltas"] == [-4, 8, -2, -2]


def test_dealer_14th_tile_is_the_drawn_tile_D36() -> None:
    # The dealer's 13 first tiles are 5z + four sets; his 14th (6z) is the drawn tile:
    # 爆头 F = 2, each pays 1 x 2 x 2 = 4.
    h = play1(["5z123m456m789p234s 6z", KA, KB, KC], [(0, "hu")])
    assert (h["winner"], h["patterns"]) == (0, ["basic_hand", "baotou"])
    assert h["deltas"] == [12, -4, -4, -4]


def test_no_instant_win_dealer_first_turn_is_a_self_draw() -> None:
    # Hangzhou has no instant win (2.4): the dealer's first-turn win is a plain self-draw.
    h = play1(["5z123m456m789p234s 6z", KA, KB, KC], [(0, "hu")])
    assert h["win_type"] == "self_draw"


def test_no_win_right_after_peng_D5() -> None:
    # S1 = 77z 123m 456m 789p 2s 5z pengs S0's 7z: its 11 concealed tiles are complete
    # (2s + 5z pair), but no win in the action phase after a peng; a kong is offered.
    state = state1([KA + " 7z", "77z123m456m789p2s5z", KB, KC])
    drive(state, [(0, "discard", "7z"), (1, "peng")])
    assert is_winning(state.hand_tiles(1), wild=t("5z"))
    offered = legal(state, 1)
    assert "S1 hu" not in offered and "S1 kong 7z 5z" in offered


# The chain (D35) as records, for every row of the seed-name table of 2.4, kong family,
# winner S1 (non-dealer), L = 1, b = 1: deltas [-2F, 4F, -F, -F].
# After a wild discard by S1 the others are restricted (抓打) and discard their draws.
def rnd(a: str, b: str, c: str) -> list[tuple[Any, ...]]:
    """S2, S3, S0 each discard their drawn tile."""
    return [(2, "discard", a), (3, "discard", b), (0, "discard", c)]


def kong(seat: int, tile: str) -> tuple[Any, ...]:
    return (seat, "kong", tile)


P1 = (1, "discard", "5z")  # S1's 飘
K7, K9, K1 = kong(1, "7z"), kong(1, "9m"), kong(1, "1m")
R123 = rnd("1z", "2z", "3z")
R447 = rnd("4z", "4z", "7z")
HU1 = (1, "hu")
BAO = "5z123m456m789p234s"  # 爆头-ready
KBAO = "5z777z234p567p234s"  # 爆头-ready with 777z

# fmt: off
CHAIN_ROWS = [
    # name, S1, draws, tail, actions, patterns, F, win_type
    ("自摸", "123m456m789p234s7z", "7z", "", [OPEN, HU1], "basic_hand", 1, "self_draw"),
    # 杠开: each kong takes a replacement and burns one tile (tail: repl, burn, repl, ...)
    ("杠开", "777z234p567p234s6s", "7z", "6s 1z", [OPEN, K7, HU1],
     "basic_hand gang", 2, "kong_replacement"),
    ("双杠开", "777z999m234p567p6s", "7z", "9m 1z 6s 2z", [OPEN, K7, K9, HU1],
     "basic_hand gang gang", 4, "kong_replacement"),
    ("三杠开", "777z999m111m234p6p", "7z", "9m 1z 1m 2z 6p 3z", [OPEN, K7, K9, K1, HU1],
     "basic_hand gang gang gang", 8, "kong_replacement"),
    ("爆头", BAO, "9s", "", [OPEN, HU1], "basic_hand baotou", 2, "self_draw"),
    ("杠暴", KBAO, "7z", "9s 1z", [OPEN, K7, HU1],
     "basic_hand baotou gang", 4, "kong_replacement"),
    ("双杠暴", "5z777z999m234p567p", "7z", "9m 1z 9s 2z", [OPEN, K7, K9, HU1],
     "basic_hand baotou gang gang", 8, "kong_replacement"),
    ("三杠暴", "5z777z999m111m234p", "7z", "9m 1z 1m 2z 9s 3z", [OPEN, K7, K9, K1, HU1],
     "basic_hand baotou gang gang gang", 16, "kong_replacement"),
    ("财飘", BAO, "5z 1z 2z 3z 9s", "", [OPEN, P1, *R123, HU1],
     "basic_hand baotou piao", 4, "self_draw"),
    ("双财飘", BAO, "5z 1z 2z 3z 5z 4z 4z 7z 9s", "", [OPEN, P1, *R123, P1, *R447, HU1],
     "basic_hand baotou piao piao", 8, "self_draw"),
    ("三财飘", BAO, "5z 1z 2z 3z 5z 4z 4z 7z 5z 7z 7z 7z 9s", "",
     [OPEN, P1, *R123, P1, *R447, P1, *rnd("7z", "7z", "7z"), HU1],
     "basic_hand baotou piao piao piao", 16, "self_draw"),
    # 杠飘: kong (its replacement is a 5z), wild discard, then 爆头 on the next draw
    ("杠飘", KBAO, "7z 1z 2z 3z 9s", "5z 4z", [OPEN, K7, P1, *R123, HU1],
     "basic_hand baotou gang piao", 8, "self_draw"),
    # 飘杠: wild discard, then kong, 爆头 on the replacement
    ("飘杠", KBAO, "5z 1z 2z 3z 7z", "9s 4z", [OPEN, P1, *R123, K7, HU1],
     "basic_hand baotou gang piao", 8, "kong_replacement"),
    # n飘m杠 in any order: 飘, 杠 (replacement 5z), 飘, 爆头: n = 2, m = 1, F = 2^(1+3)
    ("2飘1杠", KBAO, "5z 1z 2z 3z 7z 4z 4z 9m 9s", "5z 1m",
     [OPEN, P1, *R123, K7, P1, *rnd("4z", "4z", "9m"), HU1],
     "basic_hand baotou gang piao piao", 16, "self_draw"),
    # 七客财飘 / 豪华七客财飘: S x 2 x 2^n
    ("七客财飘", "1133m5577p99s77z5z", "5z 1z 2z 3z 4z", "", [OPEN, P1, *R123, HU1],
     "seven_pairs qike piao", 8, "self_draw"),
    ("豪华七客财飘", "1111m5577p99s77z5z", "5z 1z 2z 3z 4z", "", [OPEN, P1, *R123, HU1],
     "luxury_seven_pairs qike piao", 16, "self_draw"),
    # -- how the chain is read --
    # a direct kong is a K too (杠开 on a direct kong of the dealer's 7z)
    ("直杠开", "777z234p567p234s6s", "", "6s 1z", [(0, "discard", "7z"), K7, HU1],
     "basic_hand gang", 2, "kong_replacement"),
    # a non-wild discard (X) ends the chain: the earlier 飘 is void (财飘作废)
    ("飘X爆头", BAO, "5z 1z 2z 3z 9m 4z 4z 7z 9s", "",
     [OPEN, P1, *R123, (1, "discard", "9m"), *R447, HU1],
     "basic_hand baotou", 2, "self_draw"),
    # ... and a kong of an earlier turn does not count (kong, discard 9s, later a win)
    ("杠X自摸", "777z123m456m789p2s", "7z 1z 2z 3z 2s", "9s 4z",
     [OPEN, K7, (1, "discard", "9s"), *R123, HU1],
     "basic_hand", 1, "self_draw"),
    # a chi or peng ends it too: 飘, peng of the dealer's drawn 7z, added kong, 爆头 on
    # the replacement: n = 0, m = 1
    ("飘碰杠暴", KBAO, "5z 1z 2z 7z", "9s 4z",
     [OPEN, P1, *rnd("1z", "2z", "7z"), (1, "peng"), K7, HU1],
     "basic_hand baotou gang", 4, "kong_replacement"),
    # not 爆头: a wild discard, then a plain self-draw is just 自摸 (n = 0)
    ("飘自摸", "123m456m789p23s66s", "5z 1z 2z 3z 4s", "", [OPEN, P1, *R123, HU1],
     "basic_hand", 1, "self_draw"),
    # not 爆头: only the kongs after the last 飘 count (杠, 飘, 杠, win: m = 1)
    ("杠飘杠开", "777z999m123m23s66s", "7z 1z 2z 3z 9m", "5z 4z 4s 1m",
     [OPEN, K7, P1, *R123, K9, HU1],
     "basic_hand gang", 2, "kong_replacement"),
]
# fmt: on


@pytest.mark.parametrize(
    ("s1", "draws", "tail", "actions", "patterns", "f", "win_type"),
    [pytest.param(*row[1:], id=row[0]) for row in CHAIN_ROWS],
)
def test_chain_D35(
    s1: str,
    draws: str,
    tail: str,
    actions: list[tuple[Any, ...]],
    patterns: str,
    f: int,
    win_type: str,
) -> None:
    s0 = KA + " " + str(actions[0][2])
    h = play1([s0, s1, KB, KC], actions, draws=draws, tail=tail)
    assert (h["winner"], h["win_type"]) == (1, win_type)
    assert h["patterns"] == patterns.split()
    assert h["deltas"] == s1_self_draw(f)
    assert {i["kind"] for i in h["items"]} == {"hu"}  # kongs are never paid (D27)


# == 2.5 scoring and settlement ================================================================
@pytest.mark.parametrize(
    ("lao", "base", "deltas"),
    [
        (1, 1, [-4, 8, -2, -2]),  # S0 1 x 2 x 2 = 4, S2 S3 1 x 1 x 2 = 2
        (2, 1, [-8, 12, -2, -2]),  # S0 1 x 4 x 2 = 8
        (3, 1, [-16, 20, -2, -2]),  # S0 1 x 8 x 2 = 16
        (2, 3, [-24, 36, -6, -6]),  # S0 3 x 4 x 2 = 24, S2 S3 3 x 1 x 2 = 6
        (3, 5, [-80, 100, -10, -10]),  # S0 5 x 8 x 2 = 80, S2 S3 5 x 1 x 2 = 10
    ],
)
def test_zhuangxian_score_by_level(lao: int, base: int, deltas: list[int]) -> None:
    # S1 爆头 (F = 2): each pays b x Z x F, Z = 2^L with the dealer, 1 otherwise.
    h = play1(
        [KA + " 6z", BAO, KB, KC],
        [OPEN, HU1],
        draws="9s",
        lao=lao,
        options={"base_score": base},
    )
    assert h["deltas"] == deltas


# The dealer S0 爆头 on his first draw after the deal: each non-dealer pays b x 2^L x 2.
DEALER_WIN = hand(
    [BAO + " 6z", KA, KB, KC],
    [OPEN, (1, "discard", "1z"), (2, "discard", "2z"), (3, "discard", "3z"), (0, "hu")],
    draws="1z 2z 3z 9s",
)


def test_dealer_win_paid_by_all_at_2_to_the_L() -> None:
    # L = 2: each pays 1 x 4 x 2 = 8.
    h = replay(record(DEALER_WIN, lao=2))["hands"][0]
    assert (h["winner"], h["win_type"], h["patterns"]) == (0, "self_draw", ["basic_hand", "baotou"])
    assert h["deltas"] == [24, -8, -8, -8]


@pytest.mark.parametrize(
    ("pay", "deltas"),
    [("discarder", [-32, 0, 0, 32]), ("all", [-32, -4, -4, 40])],
)
def test_discard_pay_option_D25(pay: str, deltas: list[int]) -> None:
    # HZ-3 shape: S3 wins on the dealer's 8p at L = 3, pure_seven_pairs F = 4.
    # discarder: S0 pays 1 x 8 x 4 = 32. all: as a self-draw, S0 32, S1 and S2 1 x 1 x 4 = 4.
    h = play1(
        [A + " 8p", B, C, PAIRS_8P],
        [(0, "discard", "8p"), (3, "hu")],
        lao=3,
        options={"discard_pay": pay},
    )
    assert h["win_type"] == "discard"
    assert h["deltas"] == deltas


def test_discard_pay_all_dealer_wins() -> None:
    # The dealer wins on S1's 8p (F = 4) with discard_pay = all: each non-dealer pays
    # 1 x 8 x 4 = 32.
    h = play1(
        [PAIRS_8P + " 6z", B, C, A],
        [OPEN, (1, "discard", "8p"), (0, "hu")],
        draws="3z",
        lao=3,
        options={"discard_pay": "all"},
    )
    assert h["deltas"] == [96, -32, -32, -32]


def test_kongs_never_paid_even_in_a_drawn_hand_D27() -> None:
    # S1 declares a concealed kong, then everybody discards what he draws until the wall
    # ends: a drawn hand, nothing paid (no kong items).
    hands = [KA + " 6z", "777z123m456m789p2s", KB, KC]
    h = play1(
        hands,
        [OPEN, (1, "kong", "7z")],
        draws=rest_of_wall(hands, "7z", "9s 1z"),
        tail="9s 1z",
        autoplay="tsumogiri",
        lao=2,
    )
    assert (h["outcome"], h["winner"], h["items"]) == ("draw", None, [])
    assert h["deltas"] == [0, 0, 0, 0]
    assert h["next"] == {"dealer": 0, "counters": {"lao": 3}}


# == 2.6 dealer rotation and levels ============================================================


def drawn_hand(dealer: int, seed: int) -> dict[str, Any]:
    """A shuffled hand played out by tsumogiri: it ends drawn (nobody ever wins)."""
    deal = shuffled_deal(seed, dealer)
    return {"dealer": dealer, "deal": deal, "actions": [], "autoplay": "tsumogiri"}


def test_dealer_levels() -> None:
    s2_wins = hand(
        [KA + " 6z", KB, BAO, KC],
        [OPEN, (1, "discard", "1z"), (2, "hu")],
        draws="1z 9s",
    )
    rec = record(
        DEALER_WIN,  # L 1: the dealer wins, stays, L 2 (each pays 1 x 2 x 2 = 4)
        drawn_hand(0, 1),  # L 2: drawn, the dealer stays, L 3
        drawn_hand(0, 2),  # L 3: drawn, L stays 3
        DEALER_WIN,  # L 3: the dealer wins, L stays 3 (each pays 1 x 8 x 2 = 16)
        s2_wins,  # L 3: S2 wins (爆头: S0 1 x 8 x 2 = 16, S1 S3 2), S2 deals at L 1
        drawn_hand(2, 3),  # S2's L 1: drawn, L 2
        lao=1,
    )
    res = replay(rec)
    nexts = [(h["next"]["dealer"], h["next"]["counters"]["lao"]) for h in res["hands"]]
    assert nexts == [(0, 2), (0, 3), (0, 3), (0, 3), (2, 1), (2, 2)]
    deltas = [h["deltas"] for h in res["hands"]]
    assert deltas == [
        [12, -4, -4, -4],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
        [48, -16, -16, -16],
        [-16, -2, 20, -2],
        [0, 0, 0, 0],
    ]
    assert [h["outcome"] for h in res["hands"]] == ["win", "draw", "draw", "win", "win", "draw"]
    assert res["totals"] == [44, -22, 0, -22]


def test_start_lao_option() -> None:
    # start_lao = 3 (笃三老庄), no counters given: the first hand is at L = 3, so the
    # discard win of HZ-3 is legal (S0 pays 1 x 8 x 4 = 32), and the new dealer S3 starts
    # at L = 3 too.
    rec = record(
        hand([A + " 8p", B, C, PAIRS_8P], [(0, "discard", "8p"), (3, "hu")]),
        lao=None,
        options={"start_lao": 3},
    )
    h = replay(rec)["hands"][0]
    assert h["deltas"] == [-32, 0, 0, 32]
    assert h["next"] == {"dealer": 3, "counters": {"lao": 3}}
    # start_lao = 2: S1 爆头 at L = 2 (S0 1 x 4 x 2 = 8) and becomes dealer at L = 2.
    rec = record(
        hand([KA + " 6z", BAO, KB, KC], [OPEN, HU1], draws="9s"), lao=None, options={"start_lao": 2}
    )
    h = replay(rec)["hands"][0]
    assert h["deltas"] == [-8, 12, -2, -2]
    assert h["next"] == {"dealer": 1, "counters": {"lao": 2}}
    assert Match("hangzhou", {"first_dealer": 0}).counters == {"lao": 1}  # default 平庄起


@pytest.mark.parametrize(("penalty", "deltas"), [(None, [0, 0, 0, 0]), (2, [2, -6, 2, 2])])
def test_escape_penalty_default_zero(penalty: int | None, deltas: list[int]) -> None:
    options = {} if penalty is None else {"escape_penalty": penalty}
    h = play1([A + " 6z", B, C, "147m258p369s1234z"], [(1, "escape")], options=options)
    assert (h["outcome"], h["winner"]) == ("draw", None)
    assert h["deltas"] == deltas


# == issue 14: readings, RULES.md 0.7 and 2.4 ==================================================
def test_highest_fan_reading_is_used_whatever_the_reading_order() -> None:
    # 1111m 22p 33p 44p 6s 5z 5z draws 6s. Three readings (RULES.md 2.4, 0.7):
    #   standard 111m 1m+5z+5z 234p 234p 66s, not 爆头: basic_hand, F = 1;
    #   seven pairs, the two wilds as 1m (three pairs of 1m, no quadruple), 七客: F = 2 x 2 = 4;
    #   seven pairs, the two wilds a pair, 1111m a quadruple, 七客: F = 4 x 2 = 8.
    # The highest F is used wherever it comes among the readings: F = 8, [-16, 32, -8, -8].
    h = play1([KA + " 6z", "1111m22p33p44p6s5z5z", KB, KC], [OPEN, (1, "hu")], draws="6s")
    assert (h["winner"], h["win_type"]) == (1, "self_draw")
    assert h["patterns"] == ["luxury_seven_pairs", "qike"]
    assert h["deltas"] == s1_self_draw(8) == [-16, 32, -8, -8]


def test_equal_fan_reports_the_reading_with_the_most_patterns_0_7() -> None:
    # 112233m 455667p 5z draws 4p. Standard 123m 123m 456p 567p + 4p 5z, 爆头 (the 13
    # tiles without the wild are four sets): basic_hand, baotou, F = 1 x 2 = 2. Seven pairs
    # (the wild as 7p), not 七客 (11 22 33 55 66 m/p + 4p 7p are no six pairs): F = 2.
    # Equal F: RULES.md 0.7 reports the reading with the most patterns.
    h = play1([KA + " 6z", "112233m455667p5z", KB, KC], [OPEN, (1, "hu")], draws="4p")
    assert h["patterns"] == ["basic_hand", "baotou"]
    assert h["deltas"] == s1_self_draw(2)


def test_zhuada_restricted_seat_may_concealed_kong_with_wilds_a_kind_it_has_pung() -> None:
    # RULES.md 2.3 抓打: a restricted seat may still declare a concealed kong -- also one
    # made with wilds (2.1) of a kind it has a peng of -- but not an added kong.
    # S2 pengs S0's 7z with 7z + 5z (keeping 77z 55z); S1 later discards a 5z (owner S1).
    # S2 then draws 9m: concealed kong 77z + 55z, or discard the 9m; the added kongs of 7z
    # (with its natural 7z or a wild) are barred.
    hands = [KA + " 7z", "258m258p258s123z5z", "777z555z369p369s4z", KC]
    state = state1(hands, draws="1m 9m 1m 9m")
    drive(state, [(0, "discard", "7z"), (2, "peng", None, "7z5z"), (2, "discard", "4z")])
    free = state.clone()
    drive(state, [(3, "discard", "1m"), (0, "discard", "9m"), (1, "discard", "5z")])
    assert state.current == 2 and state.drawn == t("9m")
    assert legal(state, 2) == {"S2 kong 7z 5577z", "S2 discard 9m"}
    # unrestricted, the same seat could add to its peng as well
    drive(free, [(3, "discard", "1m"), (0, "discard", "9m"), (1, "discard", "1m"), (2, "pass")])
    assert free.current == 2 and free.drawn == t("9m")
    assert {"S2 kong 7z", "S2 kong 7z 5z", "S2 kong 7z 5577z"} <= legal(free, 2)


def test_higher_fan_reading_is_not_displaced_by_one_with_more_patterns_0_7() -> None:
    # 1111m 2m 3m 22p 33p 44p 5z draws 2m. Seven pairs (the wild as 3m) with the quadruple
    # 1111m: luxury_seven_pairs, not 七客, F = 4. Standard 111m 123m 234p 234p + 2m 5z,
    # 爆头: basic_hand, baotou, F = 2. RULES.md 2.4 / 0.7: the highest F first; more
    # patterns only break a tie. [-8, 16, -4, -4].
    h = play1([KA + " 6z", "1111m23m223344p5z", KB, KC], [OPEN, (1, "hu")], draws="2m")
    assert h["patterns"] == ["luxury_seven_pairs"]
    assert h["deltas"] == s1_self_draw(4)


def test_two_claims_make_no_santan_chengbao() -> None:
    # RULES.md 2.5 三摊承包 needs claims[A][B] >= 3. At L = 1 S1 chis S0's 1m and 6p (two
    # 摊, the third -- S0's 9s -- is barred, 2.3), then draws 1p: 999s 444z + 5z 1p, 爆头
    # F = 2. Normal payments, nobody liable: S0 1 x 2 x 2 = 4, S2 and S3 2.
    h = play1(HZ4_HANDS, [*HZ4_TO_9S, (1, "hu")], draws=HZ4_DRAWS, lao=1)
    assert (h["winner"], h["win_type"], h["patterns"]) == (1, "self_draw", ["basic_hand", "baotou"])
    assert items(h, "chengbao") == []
    assert h["deltas"] == [-4, 8, -2, -2]


@pytest.mark.parametrize("k", [1, 2, 3])
def test_dao_chengbao_paid_by_any_seat_around_the_table(k: int) -> None:
    # test_dao_chengbao_alone with every seat moved k seats on (dealer S{k}): the seat
    # after the dealer, S{k+1 mod 4}, made the three claims and pays 2X = 48 alone.
    hands = ["123p456p789p444z1s 1m", DAO_S1, DAO_S2, DAO_S3]
    actions: list[tuple[Any, ...]] = [
        (0, "discard", "1m"),
        (1, "chi", None, "23m"),
        (1, "discard", "3s"),
        (2, "discard", "3z"),
        (3, "discard", "8s"),
        (0, "discard", "4m"),
        (1, "chi", None, "56m"),
        (1, "discard", "6s"),
        (2, "discard", "7z"),
        (3, "discard", "2s"),
        (0, "discard", "7m"),
        (1, "chi", None, "89m"),
        (1, "discard", "9s"),
        (2, "discard", "6z"),
        (3, "discard", "3z"),
        (0, "hu"),
    ]
    moved = [hands[(s - k) % 4] for s in range(4)]
    acts = [((a[0] + k) % 4, *a[1:]) for a in actions]
    h = play1(moved, acts, draws="3z 8s 4m 7z 2s 7m 6z 3z 1s", lao=3, dealer=k)
    liable = (k + 1) % 4
    assert (h["winner"], h["win_type"]) == (k, "self_draw")
    assert items(h) == [("chengbao", liable, k, 48)]
    assert h["deltas"] == [48 if s == k else -48 if s == liable else 0 for s in range(4)]


def test_claims_and_kongs_still_allowed_after_the_draw_leaving_R21_D30() -> None:
    # RULES.md 2.2 / D30: only a draw leaving R <= 20 starts the last turn. Draw 62 leaves
    # R = 21 and goes to S2; here it is the fourth 1s (the END_TAIL with its two 1s changed
    # and a 1s added at its end) while S1 holds 111s: S2's discard of it may be konged or
    # pung by S1; the kong's replacement and burned tile leave R = 19, the last turn: no
    # second kong.
    hands = ["123m456m789m123p5p 9s", "111s55p1111z22z55z", "8m369p369s345567z", END_HANDS[3]]
    tail = END_TAIL.replace("7m 1s 4s", "7m 8s 4s").replace("1s 5p", "2m 5p") + " 1s"
    state = state1(hands, tail=tail, lao=3)
    _drive_to(state, 21)
    assert state.current == 2 and state.drawn == t("1s")
    drive(state, [(2, "discard", "1s")])
    assert {"S1 kong 1s", "S1 peng"} <= legal(state, 1)
    drive(state, [(1, "kong", "1s")])
    state.close_window()  # the others pass
    assert state.live == 19 and state.current == 1
    assert "kong" not in kinds(legal(state, 1))


def test_two_claims_on_the_winner_make_no_dao_chengbao() -> None:
    # RULES.md 2.5 倒承包 needs claims[C][A] >= 3: S1 chis the dealer's 1m and 4m only
    # (passing on his 7m), and the dealer self-draws 1s: basic_hand F = 1 at L = 3, each
    # non-dealer pays 1 x 8 x 1 = 8.
    hands = ["123p456p789p444z1s 1m", DAO_S1, DAO_S2, DAO_S3]
    actions = [
        (0, "discard", "1m"),
        (1, "chi", None, "23m"),
        (1, "discard", "3s"),
        (2, "discard", "3z"),
        (3, "discard", "8s"),
        (0, "discard", "4m"),
        (1, "chi", None, "56m"),
        (1, "discard", "6s"),
        (2, "discard", "7z"),
        (3, "discard", "2s"),
        (0, "discard", "7m"),
        (1, "discard", "9p"),
        (2, "discard", "6z"),
        (3, "discard", "3z"),
        (0, "hu"),
    ]
    h = play1(hands, actions, draws="3z 8s 4m 7z 2s 7m 9p 6z 3z 1s", lao=3)
    assert (h["winner"], h["win_type"]) == (0, "self_draw")
    assert items(h, "chengbao") == []
    assert h["deltas"] == [24, -8, -8, -8]


@pytest.mark.parametrize("lao", [0, 4])
def test_dealer_level_outside_1_to_3_is_refused_in_a_record(lao: int) -> None:
    # RULES.md 2.6: L never exceeds 3 and starts at 1 at least.
    rec = record(hand([A + " 6z", B, C, "147m258p369s1234z"], [(1, "escape")]), lao=lao)
    with pytest.raises(RecordError, match=f"counter 'lao' must be an integer 1-3, got {lao}"):
        replay(rec)


def test_no_thirteen_orphans_in_hangzhou() -> None:
    # RULES.md 2.4 lists the standard shape and seven pairs only: a thirteen-orphans hand
    # is no win (S1 draws the pairing 1m and may only discard).
    hands = [KA + " 9m", "19m19p19s1234567z", KB, KC]
    state = state1(hands, draws="1m")
    drive(state, [(0, "discard", "9m"), (1, "pass")])
    assert state.current == 1 and state.drawn == t("1m")
    assert "hu" not in kinds(legal(state, 1))


@pytest.mark.parametrize("flower", ["1f", "8f"])
def test_no_flowers_in_hangzhou(flower: str) -> None:
    # RULES.md 2.1: 136 tiles, no flowers; a record that deals one is refused by name.
    assert len(HANGZHOU.tile_counts) == 42 and sum(HANGZHOU.tile_counts) == 136
    rec = record(hand([A + " 6z", B, C, "147m258p369s123z" + flower], [(1, "escape")]))
    with pytest.raises(RecordError, match=f"more {flower} than the set holds"):
        replay(rec)


# == what a front end shows: the restrictions in force (2.2, 2.3, D8, D24, D31) ================
def _shown(state: HandState) -> list[list[tuple[str, str]]]:
    return [state.restrictions(s) for s in range(4)]


def test_restrictions_shown_missed_win_and_missed_peng_until_own_draw_D8() -> None:
    hands = [PAIRS_8P + " 6z", B, C, "147m148p147s1234z"]
    state = state1(hands, draws="3z 1z 7z 2z 8p", lao=3)
    drive(state, [OPEN, (1, "discard", "8p")])
    assert _shown(state) == [[], [], [], []]  # the win is still on offer
    drive(state, [(0, "pass"), (2, "discard", "1z")])
    assert _shown(state) == [[("missed_win", "8p")], [], [], []]
    drive(state, [(3, "discard", "8p")])  # S0 draws: 漏胡 is over
    assert _shown(state) == [[], [], [], []]
    state = state1(PENG_HANDS, draws="7s")
    drive(state, [(0, "discard", "7s"), (2, "pass")])
    assert _shown(state)[2] == [("missed_peng", "7s")]


def test_restrictions_shown_zhuada_tan_and_two_chi_D24_D31() -> None:
    # 抓打: every seat but the owner S1; 摊: S1 has two claims on S0 below 3老; without
    # 承包 the two chis themselves are the limit (and S1 may not win on the 9s, 爆头-ready).
    zhuada = [("zhuada", "S1")]
    assert _shown(_zhuada_state()) == [zhuada, [], zhuada, zhuada]
    state = state1(HZ4_HANDS, draws=HZ4_DRAWS, lao=1)
    drive(state, HZ4_TO_9S)
    assert _shown(state) == [[], [("tan", "S0")], [], []]
    state = state1(HZ4_HANDS, draws=HZ4_DRAWS, lao=3)  # 3老, dealer pair: no limit
    drive(state, HZ4_TO_9S)
    assert _shown(state)[1] == [("no_discard_win", "9s")]
    state = state1(HZ4_HANDS, draws=HZ4_DRAWS, lao=1, options={"chengbao": False})
    drive(state, HZ4_TO_9S)
    assert _shown(state)[1] == [("no_discard_win", "9s"), ("two_chi", "")]


def test_restrictions_shown_last_turn_then_nothing_once_the_hand_is_over_D30() -> None:
    # (S1 passed a peng of 4m on the way: its 漏碰 shows until the hand is over too.)
    state = _end_state()
    _drive_to(state, 20)
    assert _shown(state) == [[], [("missed_peng", "4m")], [], [("last_turn", "")]]
    drive(state, [(3, "discard", "5p"), (0, "pass")])
    assert state.is_terminal()
    assert _shown(state) == [[], [], [], []]


def test_wild_indicator_has_no_note_beyond_its_tile() -> None:
    # What a front end shows beside a reserved tile: the flipped indicator is shown as it
    # is (2.1), with no note (guangdong's horses and hongzhong's birds have one).
    hands = [A + " 6z", B, C, "147m258p369s1234z"]
    state = state1(hands, indicator="3m", options={"wild_mode": "flipped"})
    assert state.rules.reserved_note(state, "wild_indicator", t("3m")) == ("", "")


def test_restrictions_shown_zhuada_first_and_only_while_the_hand_lasts_D24() -> None:
    # L = 3. S3 (123m 789m 456p 77s 99s) passes a win and a peng of the dealer's 7s (漏胡
    # and 漏碰 until its draw); S1 then throws a wild: S3 is told of the 抓打 first, then
    # of the rest. Once the hand is over nothing is shown.
    hands = [A + " 6z", C, B, "123m789m456p77s99s"]
    state = state1(hands, draws="5z 9m", lao=3)
    drive(state, [(0, "discard", "7s")])
    assert legal(state, 3) == {"S3 hu", "S3 peng", "S3 pass"}
    drive(state, [(3, "pass"), (1, "discard", "5z")])
    assert state.current == 2
    missed = [("missed_win", "7s"), ("missed_peng", "7s")]
    assert _shown(state)[3] == [("zhuada", "S1"), *missed]
    # S2 (restricted, 123m 456m 789p 234s waiting on 7z) self-draws: the hand is over
    h = [KA + " 6z", "258m258p258s123z5z", "123m456m789p234s7z", KC]
    state = state1(h, draws="4z 7z")
    drive(state, [OPEN, (1, "discard", "5z")])
    assert _shown(state)[0] == [("zhuada", "S1")]
    drive(state, [(2, "hu")])
    assert state.is_terminal() and _shown(state) == [[], [], [], []]


def test_restrictions_shown_tan_on_any_seat_and_two_chi_only_after_two_D31() -> None:
    # HZ-4's first two claims moved three seats on: S0 has two 摊 on the dealer S3 (L = 1).
    moved = [HZ4_HANDS[(s - 3) % 4] for s in range(4)]
    acts = [((a[0] + 3) % 4, *a[1:]) for a in HZ4_TO_9S]
    state = state1(moved, draws=HZ4_DRAWS, dealer=3)
    drive(state, acts)
    assert _shown(state)[0] == [("tan", "S3")]
    # without 承包 one chi is no limit yet
    state = state1(HZ4_HANDS, draws=HZ4_DRAWS, options={"chengbao": False})
    drive(state, HZ4_TO_9S[:4])
    assert len(state.melds[1]) == 1 and _shown(state)[1] == []
