"""One test per rule of RULES.md section 5 (taizhou) that changes an outcome.

Every test builds a small majiang-record/1 in tile notation and replays it, or
drives HandState directly where what is *offered* matters. Expected numbers are
worked out by hand from RULES.md 5.4-5.5 in the comments:

- winner: 牌点 P = (10 + sets + pair + 自摸 2 + 嵌档 2) x 2^番;
- A(x <- y) = ceil(P_x x w(x, y) / 10) with w = 1 when the dealer is x or y, else
  0.5 (xian_half, the default);
- so with dealer S0 and non-winners without melds: a dealer winner gets
  ceil(P/10) from each seat; a non-dealer winner gets ceil(P/10) from S0 and
  ceil(P/20) from each of the two other seats.

Fillers. A hand written ``"*"`` (or ``"*9p"``: the named tiles plus filler) is
completed by ``fill_hands`` into an inert hand: tiles of kinds nobody named,
never the 得, no two of a kind and no two tiles of a suit less than three
apart where the pool allows it -- so a filler can neither chi nor peng nor
complete anything; a filler only ever discards the tile it just drew (named in
``draws``). The named tiles of a dealer filler come last: his 14th tile.

Unless a test says otherwise the wild indicator is ``5z`` (得 = the other three
白, which nobody holds), dealer S0, ``xian_half`` and ``mutual``; seat winds
S0 1z, S1 2z, S2 3z, S3 4z.
"""

from __future__ import annotations

import random
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
    offered_in_window,
    partial_deal,
    replay_one,
    start_of,
    t,
    ts,
)

from majiang.bots import GreedyBot, GreedyPlusBot
from majiang.cli.score import score
from majiang.engine.state import Action, HandState
from majiang.engine.wall import deal_from_wall, full_set
from majiang.engine.world import hidden_of, world_from_observation
from majiang.errors import RecordError
from majiang.hand import is_winning, shanten
from majiang.records import replay, replay_match
from majiang.rules.taizhou import TAIZHOU, TaizhouState
from majiang.scoring import deltas
from majiang.tiles import format_tiles

WHITE = 31


# -- helpers (generic ones in recordkit) ------------------------------------------------
# Honours first, then each suit 1 4 7 2 5 8 3 6 9 (three apart where possible).
_FILL_ORDER = tuple(range(27, 34)) + tuple(
    base + off for base in (0, 9, 18) for off in (0, 3, 6, 1, 4, 7, 2, 5, 8)
)


def _near(a: int, b: int) -> bool:
    """Same kind, or two tiles of one number suit less than three apart."""
    if a == b:
        return True
    return a < 27 and b < 27 and a // 9 == b // 9 and abs(a - b) <= 2


def fill_hands(
    hands: Sequence[str], named: Iterable[int], wild: int | None, dealer: int
) -> list[str]:
    """Complete the ``*`` hands with inert filler (module docstring)."""
    pool = [4] * 34
    for tile in named:
        pool[tile] -= 1
    for h in hands:
        for tile in ts(h.lstrip("*")):
            pool[tile] -= 1
    assert min(pool) >= 0, "a test names more copies than exist"
    out: list[str] = []
    for seat, h in enumerate(hands):
        if not h.startswith("*"):
            out.append(h)
            continue
        mine = ts(h[1:])
        want = (14 if seat == dealer else 13) - len(mine)
        chosen: list[int] = []
        for strict in (2, 1, 0, -1):
            while len(chosen) < want:
                before = len(chosen)
                for k in _FILL_ORDER:
                    if len(chosen) == want:
                        break
                    if pool[k] == 0 or (k == wild and strict >= 0):
                        continue
                    held = [x for x in mine + chosen if x != wild]
                    if strict >= 1 and k in held:
                        continue
                    if strict == 2 and any(_near(k, x) for x in held):
                        continue
                    chosen.append(k)
                    pool[k] -= 1
                if len(chosen) == before or strict > 0:
                    break
        assert len(chosen) == want, "not enough tiles left for the fillers"
        out.append(f"{format_tiles(chosen)} {h[1:]}".strip())
    return out


def act(seat: int, kind: str, tile: str | None = None) -> dict[str, Any]:
    """A record action; a chi's ``tile`` names its two hand tiles."""
    return kit.act(seat, kind, tile, chi_names_tiles=True)


def deal_of(
    hands: Sequence[str],
    *,
    draws: str | Sequence[str] = "",
    tail: str = "",
    wild: str = "5z",
    options: dict[str, Any] | None = None,
    dealer: int = 0,
) -> dict[str, Any]:
    """A partial deal: the given hands (fillers completed), draws, tail, indicator."""
    if not isinstance(draws, str):
        draws = " ".join(draws)
    fixed = (options or {}).get("wild_mode") == "fixed_white"
    named = ts(draws) + ts(tail) + ([] if fixed else [t(wild)])
    wild_kind = WHITE if fixed else t(wild)
    filled = fill_hands(hands, named, wild_kind, dealer)
    indicator = None if fixed else wild
    return partial_deal(filled, draws=draws, tail=tail, reserved={"wild_indicator": indicator})


def hand_of(
    hands: Sequence[str],
    actions: Iterable[tuple[Any, ...]] = (),
    *,
    autoplay: str | None = None,
    dealer: int = 0,
    **deal: Any,
) -> dict[str, Any]:
    deal_ = deal_of(hands, dealer=dealer, **deal)
    return hand_entry(deal_, actions, dealer=dealer, autoplay=autoplay, chi_names_tiles=True)


def record(
    *hands: dict[str, Any], options: dict[str, Any] | None = None, dealer: int = 0
) -> dict[str, Any]:
    return kit.record("taizhou", hands, options=options, dealer=dealer)


def play(
    hands: Sequence[str],
    actions: Iterable[tuple[Any, ...]] = (),
    *,
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    **deal: Any,
) -> dict[str, Any]:
    """Replay a one-hand record; the hand's majiang-result/1 entry."""
    hand = hand_of(hands, actions, dealer=dealer, options=options, **deal)
    return replay_one(record(hand, options=options, dealer=dealer))


def state(
    hands: Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    **deal: Any,
) -> HandState:
    """The start of a hand built from a partial deal, for driving HandState directly."""
    deal_ = deal_of(hands, options=options, dealer=dealer, **deal)
    opts = match_options(options, first_dealer=dealer)
    return new_state("taizhou", deal_, options=opts, start=start_of(dealer))


def run(st: HandState, actions: Iterable[tuple[Any, ...]]) -> None:
    """Apply actions as a record does: an open window closes at the first action that is
    not a claim or pass of it (FORMAT.md)."""
    kit.run(st, actions, in_window=offered_in_window)


def claims(st: HandState, seat: int) -> set[str]:
    """What ``seat`` may claim now: nothing when no claim window is open."""
    return set() if st.phase == "turn" else legal(st, seat)


def tsumogiri(first: int, tiles: Sequence[str]) -> list[tuple[Any, ...]]:
    """Seat ``first`` and the seats after it each draw the next tile and discard it."""
    return [((first + i) % 4, "discard", x) for i, x in enumerate(tiles)]


def tsumogiri_step(st: HandState) -> None:
    """One autoplay step: pass every open claim, else discard the drawn tile."""
    kit.tsumogiri_step(st, strict=True)


# S1 = 123m 456p 789s 23s 55m waits on 1s / 4s: four sequences, pair 55m.
READY = "123m456p789s23s55m"
# S1 wins by self-draw on its first draw after S0 discards ``d0`` (module docstring):
# deltas [-ceil(P/10), +, -ceil(P/20), -ceil(P/20)].


def s1_self_draw(
    w: str, draw: str, d0: str = "9p", *, wild: str = "5z", pass_first: bool = False, **kw: Any
) -> dict[str, Any]:
    """S0 discards ``d0`` (S1 passes on it if ``pass_first``), S1 draws ``draw`` and wins."""
    first = [(1, "pass")] if pass_first else []
    actions = [(0, "discard", d0), *first, (1, "hu")]
    return play([f"*{d0}", w, "*", "*"], actions, draws=draw, wild=wild, **kw)


def s1_on_discard(w: str, tile: str, *, wild: str = "5z", **kw: Any) -> dict[str, Any]:
    """S0 discards ``tile`` with his first discard and S1 wins on it."""
    return play([f"*{tile}", w, "*", "*"], [(0, "discard", tile), (1, "hu")], wild=wild, **kw)


# == 5.1 tiles and wilds ====================================================================
def test_flipped_indicator_is_reserved_and_its_other_three_copies_are_wild() -> None:
    hands = ["*1z", "123m456p789s11s3s5m", "*", "*"]
    st = state(hands, draws="4s", wild="5m")
    assert st.wild == t("5m")
    assert st.reserved == {"wild_indicator": (t("5m"),)}
    assert st.live == 136 - 53 - 1 == 82
    in_play = sum(h.count(t("5m")) for h in st.deal.hands) + st.deal.wall.count(t("5m"))
    assert in_play == 3  # the indicator itself is out of play
    # From a full wall W: the indicator is the last tile of W after dealing (RULES.md 0.3).
    w = full_set(TAIZHOU.tile_counts)
    deal = deal_from_wall(w, 0, TAIZHOU.rules.reserved_counts({"wild_mode": "flipped"}, {}))
    assert deal.reserved == {"wild_indicator": (w[-1],)} and len(deal.wall) == 82
    # S1 = 123m 456p 789s 11s 3s + 得 (a 5m) draws 4s: 3s 4s 得=5s is a set. Without the
    # 得 the hand is not complete.
    assert not is_winning(ts("123m456p789s11s3s5m4s"))
    h = play(hands, [(0, "discard", "1z"), (1, "hu")], draws="4s", wild="5m")
    # 胡 10 + 自摸 2 + 嵌档 2 (4s is the middle of 3s 4s 得=5s) = 14; 番: pang_hu 1 (all
    # sequences, self-draw); not no_wild, and the 得 stands for 5s, not for 5m
    # (no wild_restored): P = 14 x 2 = 28. S0 ceil(2.8) = 3, S2 and S3 ceil(1.4) = 2.
    assert (h["winner"], h["win_type"]) == (1, "self_draw")
    assert h["patterns"] == ["pang_hu"]
    assert h["deltas"] == [-3, 7, -2, -2]


def test_fixed_white_makes_the_four_white_dragons_wild() -> None:
    opts = {"wild_mode": "fixed_white"}
    hands = ["*1z", "123m456p789s11s3s5z", "*", "*"]
    st = state(hands, draws="4s", options=opts)
    assert st.wild == WHITE
    assert st.reserved == {}  # nothing is flipped
    assert st.live == 136 - 53 == 83
    # The 5z stands for 5s, as the 5m did above: same 28 牌点.
    h = play(hands, [(0, "discard", "1z"), (1, "hu")], draws="4s", options=opts)
    assert h["patterns"] == ["pang_hu"]
    assert h["deltas"] == [-3, 7, -2, -2]


def test_a_set_may_consist_of_wilds_only_D3() -> None:
    # Indicator 5m: S1 = 123m 456p 789s 11s 得得 draws the third 得.
    # Best reading: 得得得 as a concealed triplet of 7z (or of its seat wind 2z):
    #   胡 10 + 8 + 自摸 2 = 20; 番 wild_self_drawn 1 + red_pung 1 (or seat_wind_pung) = 2
    #   -> 80. S0 pays 8, S2 and S3 4 each.
    # Without all-wild sets the best is 11s得 (1s triplet, 8) + 得得 pair valued as a
    # dragon (2): 胡 22, 番 1 -> 44 ([-5, 11, -3, -3]); as 得得得 sequence with 嵌档:
    #   胡 14, 番 wild_self_drawn + pang_hu -> 56.
    # (S1 could win on S0's 9p as 9p得得: it passes.)
    h = s1_self_draw("123m456p789s11s5m5m", "5m", wild="5m", pass_first=True)
    assert "wild_self_drawn" in h["patterns"]
    assert not {"no_wild", "two_wilds"} & set(h["patterns"])  # three 得
    assert h["deltas"] == [-8, 16, -4, -4]


@pytest.mark.parametrize(
    ("w", "deltas"),
    [
        # 11s + 得 = a concealed triplet of 1s (terminal): 胡 10 + 8 + 自摸 2 + 嵌档 2
        # (7s in 678s) = 22, 番 0 -> 22: S0 ceil(2.2) = 3, S2/S3 ceil(1.1) = 2.
        ("123m456p68s11s5m55p", [-3, 7, -2, -2]),
        # 55s + 得 (or 22p + 得) = a concealed triplet of a simple: 4 -> 胡 18 -> 18:
        # S0 ceil(1.8) = 2, S2/S3 ceil(0.9) = 1.
        ("123m456p68s55s5m22p", [-2, 4, -1, -1]),
    ],
)
def test_wild_triplet_is_valued_by_the_kind_it_stands_for(w: str, deltas: list[int]) -> None:
    h = s1_self_draw(w, "7s", wild="5m")
    assert h["patterns"] == ["basic_hand"]
    assert h["deltas"] == deltas


def test_two_wilds_form_a_pair_of_any_kind_D63() -> None:
    # Indicator 5m: S1 = 123m 456p 789s 34s 得得 wins on S0's 5s: 345s, pair 得得.
    # The pair may be any kind: as 7z (or 6z, 5z, its seat wind 2z) it is worth 2.
    # 胡 10 + 2 = 12; 番 two_wilds 1 -> 24: S0 3, S2/S3 ceil(1.2) = 2. (Pair 0: 20.)
    h = s1_on_discard("123m456p789s34s5m5m", "5s", wild="5m")
    assert h["patterns"] == ["two_wilds"]
    assert h["deltas"] == [-3, 7, -2, -2]


def test_a_wild_and_a_natural_tile_are_not_a_pair_D63() -> None:
    # Indicator 5m: S1 = 123m 456p 789s 345s 得. With 1z (on a discard or drawn) the
    # only pair would be 得 + 1z: no win.
    w = "123m456p789s345s5m"
    assert is_winning([*ts(w), t("1z")], wild=t("5m"), wild_pairs_natural=True)
    assert not is_winning([*ts(w), t("1z")], wild=t("5m"), wild_pairs_natural=False)
    st = state(["*1z", w, "*", "*"], draws="1z", wild="5m")
    do(st, 0, "discard", "1z")
    assert st.phase == "turn" and st.current == 1  # no claim window: S1 cannot win on it
    assert st.drawn == t("1z")
    assert "S1 hu" not in legal(st, 1)  # nor by self-draw


def test_no_peng_with_a_wild_D64() -> None:
    # Indicator 5m: S1 holds 1p + 得. S0's 1p: no peng (and nothing else) is offered.
    st = state(["*1p", "*1p5m", "*", "*"], wild="5m")
    do(st, 0, "discard", "1p")
    assert claims(st, 1) == set()
    assert st.phase == "turn" and st.current == 1


def test_no_chi_with_a_wild_D64() -> None:
    # S1 (S0's next) holds 2p + 得: S0's 3p cannot be chied as 2p 3p 得.
    st = state(["*3p", "*2p5m", "*", "*"], wild="5m")
    do(st, 0, "discard", "3p")
    assert claims(st, 1) == set()


def test_no_kong_with_a_wild_D64() -> None:
    # Direct kong: S1 holds 44p + 得: S0's 4p may be penged but not konged.
    st = state(["*4p", "*44p5m", "*", "*"], wild="5m")
    do(st, 0, "discard", "4p")
    assert legal(st, 1) == {"S1 peng", "S1 pass"}
    # Concealed kong: the dealer holds 111m + 得 (and 2222p as a control).
    st = state(["*111m2222p5m", "*", "*", "*"], wild="5m")
    assert {a for a in legal(st, 0) if " kong " in a} == {"S0 kong 2p"}
    # Added kong: S1 pengs 1p and still holds a 得: no kong with it.
    st = state(["*1p", "*11p5m", "*", "*"], wild="5m")
    do(st, 0, "discard", "1p")
    do(st, 1, "peng")
    assert "kong" not in kinds(legal(st, 1))


def test_four_wilds_are_never_konged_D64() -> None:
    opts = {"wild_mode": "fixed_white"}
    st = state(["*5555z", "*", "*", "*"], options=opts)
    assert "kong" not in kinds(legal(st, 0))
    st = state(["*1111m", "*", "*", "*"], options=opts)  # control: a natural four
    assert "S0 kong 1m" in legal(st, 0)


def test_a_discarded_wild_cannot_be_claimed() -> None:
    # Indicator 5m. S1 = 123m 456p 789s 11s 34s waits on 2s / 5s and is S0's next: a 得
    # standing for 2s or 5s would complete it or make a chi. S2 holds 得得.
    st = state(["*5m", "123m456p789s11s34s", "*5m5m", "*"], wild="5m")
    do(st, 0, "discard", "5m")
    assert st.phase == "turn" and st.current == 1  # no claim window at all
    assert all(claims(st, s) == set() for s in (2, 3))


def test_a_seat_that_discarded_a_wild_cannot_win() -> None:
    # Indicator 5m. S1 = 123m 456p 789s 11s 34s waits on 2s / 5s; it draws a 得 and
    # discards it. S3 holds 22s.
    hands = ["*1z", "123m456p789s11s34s", "*2s", "*22s7z"]
    draws = "5m 9p 9m 5s 8p 2s"
    st = state(hands, draws=draws, tail="6z", wild="5m")
    run(st, [(0, "discard", "1z"), (1, "discard", "5m")])
    # S2 discards 2s: S1 would win on it, but is not offered anything.
    do(st, 2, "discard", "2s")
    assert is_winning([*st.hand_tiles(1), t("2s")])
    assert claims(st, 1) == set() and legal(st, 3) == {"S3 peng", "S3 pass"}
    run(st, [(3, "peng"), (3, "discard", "7z"), (0, "discard", "9m")])
    # S1 draws 5s: complete, but no self-draw.
    assert st.current == 1 and st.drawn == t("5s")
    assert is_winning(st.hand_tiles(1))
    assert "S1 hu" not in legal(st, 1)
    run(st, [(1, "discard", "5s"), (2, "discard", "8p")])
    # S3 draws the 4th 2s and adds it to its peng: S1 may not rob it.
    do(st, 3, "kong", "2s")
    assert st.phase == "turn" and st.current == 3 and st.drawn == t("6z")
    # Control: had S1 discarded its drawn tile and kept its hand, S2's 2s is a win.
    st = state(hands, draws="9s 9p", wild="5m")
    run(st, [(0, "discard", "1z"), (1, "discard", "9s"), (2, "discard", "2s")])
    assert "S1 hu" in legal(st, 1)


# == 5.2 wall: 黄牌, kongs ==================================================================
def test_huangpai_when_a_draw_is_due_at_R16_nothing_settled() -> None:
    # S1 pengs S0's 7z (a non-winner's 牌点 8 if anything were settled), then
    # everybody discards what he draws. The last draw is made at R = 17; when the
    # next draw is due R = 16 and the hand is drawn.
    hand = hand_of(
        ["*7z", "*77z1z", "*", "*"],
        [(0, "discard", "7z"), (1, "peng"), (1, "discard", "1z")],
        autoplay="tsumogiri",
    )
    match = replay_match(record(hand))
    st = match.finished[0].state
    assert st.live == 16
    res = replay(record(hand))["hands"][0]
    assert res["outcome"] == "draw" and res["winner"] is None
    assert res["deltas"] == [0, 0, 0, 0] and res["items"] == []
    assert res["next"]["dealer"] == 1


def test_kong_only_while_R_at_least_17() -> None:
    # S1 holds 1111m and a 3m, S2 2222m and a 4m, S3 333m 444m. Everybody discards what
    # he draws; draw k leaves R = 82 - k, and draw 65 (R = 17) is S1's, draw 66 (R = 16)
    # is S2's.
    st = state(["*", "*1111m3m", "*2222m4m", "*333m444m"], wild="7z")
    st.apply(Action(0, "discard", st.hand_tiles(0)[-1]))
    while not (st.phase == "turn" and st.current == 1 and st.live == 17):
        assert not st.is_terminal() and st.live > 17
        tsumogiri_step(st)
    assert "S1 kong 1m" in legal(st, 1)  # R = 17: a kong is allowed
    do(st, 1, "discard", "3m")
    assert {"S3 kong 3m", "S3 peng"} <= legal(st, 3)
    st.close_window()
    assert st.current == 2 and st.live == 16
    assert "kong" not in kinds(legal(st, 2))  # R = 16: no concealed kong
    do(st, 2, "discard", "4m")
    assert "S3 peng" in legal(st, 3) and "S3 kong 4m" not in legal(st, 3)
    st.close_window()  # S3's draw is due at R = 16: 黄牌
    assert st.result().outcome == "draw"


# == 5.3 claims ============================================================================
def test_chi_only_from_the_previous_seat_peng_from_any() -> None:
    st = state(["*3m", "*24m", "*33m", "*24m"])
    do(st, 0, "discard", "3m")
    assert legal(st, 1) == {"S1 chi 24m", "S1 pass"}
    assert legal(st, 2) == {"S2 peng", "S2 pass"}
    assert claims(st, 3) == set()  # 24m too, but S3 is not S0's next


@pytest.mark.parametrize(
    ("calls", "winner"),
    [
        ([(1, "chi", "46s"), (2, "peng"), (3, "hu")], 3),  # win > peng > chi
        ([(3, "hu"), (2, "hu")], 2),  # one winner: the discarder's opposite before previous
    ],
)
def test_claim_priority_and_one_winner(calls: list[tuple[Any, ...]], winner: int) -> None:
    # S0 discards 5s: S1 may chi (46s), S2 (123m 456p 789p 55s 99s) win or peng,
    # S3 (123p 456m 789m 46s 11z) win.
    hands = ["*5s", "*46s", "123m456p789p55s99s", "123p456m789m46s11z"]
    h = play(hands, [(0, "discard", "5s"), *calls])
    assert (h["winner"], h["from"], h["win_type"]) == (winner, 0, "discard")


def test_neng_hu_bu_hu_blocks_the_kind_until_the_next_draw_D8() -> None:
    # S2 = 123m 456p 789p 45s 33p waits on 3s / 6s.
    s2 = "123m456p789p45s33p"
    hands = ["*3s", "*", s2, "*"]
    st = state(hands, draws="3s 9m 3s 1z 2z 3s")
    do(st, 0, "discard", "3s")
    assert legal(st, 2) == {"S2 hu", "S2 pass"}
    do(st, 2, "pass")
    st.close_window()
    # S1 draws and discards the next 3s: S2 may not win on 3s until it draws.
    assert st.current == 1 and st.drawn == t("3s")
    do(st, 1, "discard", "3s")
    assert claims(st, 2) == {"S2 chi 45s", "S2 pass"}  # a chi, but no win
    # S2 draws (the restriction ends), discards; S3 discards a 3s: S2 may win again.
    run(st, [(2, "discard", "9m")])
    do(st, 3, "discard", "3s")
    assert legal(st, 2) == {"S2 hu", "S2 pass"}
    do(st, 2, "pass")
    # Self-draw is not affected: S2 draws the 4th 3s and may win.
    run(st, [(0, "discard", "1z"), (1, "discard", "2z")])
    assert st.current == 2 and "S2 hu" in legal(st, 2)
    do(st, 2, "hu")
    assert st.result().win is not None and st.result().win.win_type == "self_draw"
    # Only the kind passed on is blocked: S1 discards 6s instead of 3s -> S2 may win.
    st = state(hands, draws="6s")
    run(st, [(0, "discard", "3s"), (2, "pass")])
    do(st, 1, "discard", "6s")
    assert "S2 hu" in legal(st, 2)


@pytest.mark.parametrize(
    "claim", [((2, "peng"), (2, "discard", "7p")), ((2, "chi", "45p"), (2, "discard", "6p"))]
)
def test_neng_hu_bu_hu_ends_at_a_chi_or_peng_D8(claim: tuple[tuple[Any, ...], ...]) -> None:
    # S2 = 123m 456p 777p 46s 33p waits on 5s. It passes on S0's 5s, then pengs (or chis)
    # S1's 3p and discards 7p (or 6p): still waiting on 5s, and it may win on S3's 5s
    # without having drawn.
    hands = ["*5s", "*3p", "123m456p777p46s33p", "*"]
    before = [(0, "discard", "5s"), (2, "pass"), (1, "discard", "3p")]
    st = state(hands, draws="1z 5s")
    run(st, before)
    assert claims(st, 2) == {"S2 peng", "S2 chi 45p", "S2 pass"}
    run(st, claim)
    do(st, 3, "discard", "5s")
    assert legal(st, 2) == {"S2 hu", "S2 pass"}
    # Control: if instead S3 pengs S1's discard (9m) and throws 5s, S2 has neither drawn
    # nor claimed: no win is offered.
    st = state(["*5s", "*9m", "123m456p777p46s33p", "*99m5s"], draws="1z")
    run(st, [(0, "discard", "5s"), (2, "pass"), (1, "discard", "9m"), (3, "peng")])
    do(st, 3, "discard", "5s")
    assert "S2 hu" not in claims(st, 2)
    h = play(hands, [*before, *claim, (3, "discard", "5s"), (2, "hu")], draws="1z 5s")
    assert (h["winner"], h["from"]) == (2, 3)


def test_neng_hu_bu_hu_also_blocks_robbing_a_kong_D8() -> None:
    # S1 (123m 456p 789s 24s 55m) passes on S0's 3s; S2 pengs it and at once adds its
    # own 4th 3s (D5). S1 has not drawn or claimed since: it may not rob the 3s.
    st = state(["*3s", "123m456p789s24s55m", "*333s", "*"], tail="6z")
    do(st, 0, "discard", "3s")
    assert {"S1 hu", "S2 peng", "S2 kong 3s"} <= legal(st, 1) | legal(st, 2)
    run(st, [(1, "pass"), (2, "peng"), (2, "kong", "3s")])
    assert st.phase == "turn" and st.current == 2 and st.drawn == t("6z")  # the kong stood
    assert is_winning([*st.hand_tiles(1), t("3s")])


def test_neng_peng_bu_peng_blocks_the_kind_until_the_next_draw_D8() -> None:
    # S2 holds 55s and passes on S0's 5s. S1's 5s (before S2 draws): no peng.
    st = state(["*5s", "*5s", "*55s", "*"], draws="9m")
    do(st, 0, "discard", "5s")
    assert legal(st, 2) == {"S2 peng", "S2 pass"}
    run(st, [(2, "pass")])
    do(st, 1, "discard", "5s")
    assert claims(st, 2) == set()
    # After S2's own draw the peng is offered again (S3 discards the 4th 5s).
    st = state(["*5s", "*", "*55s", "*"], draws="1z 2z 5s")
    run(st, [(0, "discard", "5s"), (2, "pass"), (1, "discard", "1z"), (2, "discard", "2z")])
    do(st, 3, "discard", "5s")
    assert legal(st, 2) == {"S2 peng", "S2 pass"}


# == 5.4 winning: shape =====================================================================
def test_seven_pairs_do_not_win() -> None:
    w = "11m44m22p55p33s66s9m"
    assert is_winning([*ts(w), t("9m")], seven_pairs=True)
    st = state(["*9m", w, "*", "*"], draws="9m")
    do(st, 0, "discard", "9m")
    assert claims(st, 1) == set()
    assert st.current == 1 and st.drawn == t("9m") and "S1 hu" not in legal(st, 1)


def test_thirteen_orphans_do_not_win() -> None:
    w = "19m19p19s1234567z"
    assert is_winning([*ts(w), t("1m")], thirteen_orphans=True)
    st = state(["*2p", w, "*", "*"], draws="1m", wild="5m")
    do(st, 0, "discard", "2p")
    assert st.drawn == t("1m") and "S1 hu" not in legal(st, 1)


def test_no_instant_win_a_complete_dealer_wins_by_self_draw() -> None:
    # S0 is complete with its 14 dealt tiles (123m 456p 789s 234s 55m): RULES.md 5.4 says
    # this is a self-draw (no instant win). 胡 10 + 自摸 2 = 12; 番 pang_hu + no_wild
    # -> 48: each pays 5.
    h = play(["123m456p789s234s5m 5m", "*", "*", "*"], [(0, "hu")])
    assert h["deltas"] == [15, -5, -5, -5]
    assert h["win_type"] == "self_draw"


# == 5.4 番 ================================================================================
def test_four_winds_small_four_winds_shape_13_fan() -> None:
    # S1 = 111z 222z 333z 44z 56p draws 4p: three wind triplets and the 4z pair.
    # 胡 10 + 8 + 8 + 8 (concealed honour triplets) + 0 (pair 4z: not S1's wind)
    #   + 自摸 2 = 36 (4p is an end of 456p: no 嵌档).
    # 番 four_winds 13 + half_flush 2 + no_wild 1 + seat_wind_pung 1 (222z) = 17.
    # P = 36 x 2^17 = 4718592: S0 ceil(471859.2) = 471860, S2/S3 ceil(235929.6) = 235930.
    h = s1_self_draw("111z222z333z44z56p", "4p")
    assert h["patterns"] == ["four_winds", "half_flush", "no_wild", "seat_wind_pung"]
    assert h["deltas"] == [-471860, 943720, -235930, -235930]


def test_all_one_suit_4_fan() -> None:
    # S1 = 123m 456m 789m 22m 46m draws 5m: 胡 10 + 自摸 2 + 嵌档 2 = 14;
    # 番 all_one_suit 4 + pang_hu 1 + no_wild 1 = 6 -> 14 x 64 = 896: S0 90, S2/S3 45.
    h = s1_self_draw("123m456m789m22m46m", "5m")
    assert h["patterns"] == ["all_one_suit", "pang_hu", "no_wild"]
    assert h["deltas"] == [-90, 180, -45, -45]


def test_half_flush_2_fan() -> None:
    # S1 = 123m 456m 789m 46m 33z draws 5m: 胡 14 (pair 3z is not S1's wind: 0);
    # 番 half_flush 2 + pang_hu 1 + no_wild 1 = 4 -> 224: S0 ceil(22.4) = 23, S2/S3 12.
    h = s1_self_draw("123m456m789m46m33z", "5m")
    assert h["patterns"] == ["half_flush", "pang_hu", "no_wild"]
    assert h["deltas"] == [-23, 47, -12, -12]


def test_all_pungs_2_fan() -> None:
    # S1 = 999m 444p 111s 66m 88p draws 8p: 胡 10 + 8 + 4 + 8 + 4 (concealed triplets)
    # + 自摸 2 = 36; 番 all_pungs 2 + no_wild 1 -> 288: S0 ceil(28.8) = 29, S2/S3 15.
    h = s1_self_draw("999m444p111s66m88p", "8p", d0="7z")
    assert h["patterns"] == ["all_pungs", "no_wild"]
    assert h["deltas"] == [-29, 59, -15, -15]


def test_pang_hu_1_fan_only_on_a_self_draw() -> None:
    # READY draws 4s: 胡 10 + 自摸 2 = 12; 番 pang_hu 1 + no_wild 1 -> 48:
    # S0 5, S2/S3 ceil(2.4) = 3.
    h = s1_self_draw(READY, "4s")
    assert h["patterns"] == ["pang_hu", "no_wild"]
    assert h["deltas"] == [-5, 11, -3, -3]
    # The same hand on S0's 4s: 胡 10, 番 no_wild -> 20: S0 2, S2/S3 1.
    h = s1_on_discard(READY, "4s")
    assert h["patterns"] == ["no_wild"]
    assert h["deltas"] == [-2, 4, -1, -1]


def test_no_wild_1_fan() -> None:
    # READY on S0's 4s: 胡 10 x 2^1 = 20 (without no_wild 10: [-1, 3, -1, -1]).
    h = s1_on_discard(READY, "4s")
    assert "no_wild" in h["patterns"]
    assert h["deltas"] == [-2, 4, -1, -1]


def test_two_wilds_1_fan() -> None:
    # Indicator 5z. S1 = 123m 456p 66m 7s 23s 得得 wins on S0's 8s: 7s 8s 得=9s
    # (8s in the middle: 嵌档), 2s 3s 得 and pair 66m.
    # 胡 10 + 嵌档 2 = 12; 番 two_wilds 1 -> 24: S0 3, S2/S3 ceil(1.2) = 2.
    h = s1_on_discard("123m456p66m7s23s5z5z", "8s")
    assert h["patterns"] == ["two_wilds"]
    assert h["deltas"] == [-3, 7, -2, -2]


def test_wild_restored_1_fan() -> None:
    # Indicator 5p: S1 = 123m 4p 得 6p 789s 23s 55m wins on S0's 4s; the 得 can only be a 5p,
    # its own kind. 胡 10; 番 wild_restored 1 -> 20 (without it 10: [-1, 3, -1, -1]).
    h = s1_on_discard(READY, "4s", wild="5p")
    assert h["patterns"] == ["wild_restored"]
    assert h["deltas"] == [-2, 4, -1, -1]


def test_wild_self_drawn_1_fan() -> None:
    # Indicator 5z: READY draws a 得 (5z) standing for 1s or 4s.
    # 胡 10 + 自摸 2 = 12 (no 嵌档: 1s and 4s are ends); 番 wild_self_drawn 1 + pang_hu 1
    # -> 48: S0 5, S2/S3 3. (Without wild_self_drawn 24: [-3, 7, -2, -2].)
    h = s1_self_draw(READY, "5z")
    assert h["patterns"] == ["pang_hu", "wild_self_drawn"]
    assert h["deltas"] == [-5, 11, -3, -3]


ROB_HANDS = ["*9s", "123m456p789m78s55m", "*99s7z", "*"]
ROB_ACTIONS = [
    (0, "discard", "9s"),
    (1, "pass"),  # S1 could win (and chi): it waits
    (2, "peng"),
    (2, "discard", "7z"),
    (3, "discard", "1z"),
    (0, "discard", "2z"),
    (1, "discard", "4z"),  # S1's draw ends its 能胡不胡 on 9s
    (2, "kong", "9s"),  # S2 draws the 4th 9s and adds it
    (1, "hu"),
]


def test_rob_kong_1_fan_and_the_robbed_kong_counts_as_a_peng() -> None:
    # S1 = 123m 456p 789m 78s 55m robs S2's added 9s: 胡 10 (9s ends 789s);
    # 番 no_wild 1 + rob_kong 1 -> 40. S2's robbed kong counts as its peng 999s: 4 牌点
    # (as an exposed kong it would be 16).
    # S1 gets 4 (S0), 2 (S2), 2 (S3); S2 gets ceil(0.4) = 1 from S0, ceil(0.2) = 1 from
    # S1 and from S3 (16 would give 2, 1, 1).
    # S0 -4 -1 = -5; S1 +8 -1 = 7; S2 -2 +3 = 1; S3 -2 -1 = -3.
    h = play(ROB_HANDS, ROB_ACTIONS, draws="1z 2z 4z 9s")
    assert (h["winner"], h["from"], h["win_type"]) == (1, 2, "rob_kong")
    assert h["patterns"] == ["no_wild", "rob_kong"]
    assert h["deltas"] == [-5, 7, 1, -3]


def test_concealed_kong_cannot_be_robbed_D9() -> None:
    # S2 holds 3333s and konges it; S1 (waiting on 3s) is offered nothing.
    st = state(["*1z", "123m456p789s24s55m", "*3333s", "*"], draws="2z 4z", tail="6z")
    run(st, [(0, "discard", "1z"), (1, "discard", "2z")])
    assert is_winning([*st.hand_tiles(1), t("3s")])
    do(st, 2, "kong", "3s")
    assert st.phase == "turn" and st.current == 2 and st.drawn == t("6z")


def test_kong_replacement_1_fan() -> None:
    # S1 = 1111z 456p 789s 23s 5m draws 5m, konges 1z and wins on the replacement 4s.
    # 胡 10 + 32 (concealed honour kong) + 自摸 2 = 44; 番 kong_replacement 1 + no_wild 1
    # -> 176: S0 ceil(17.6) = 18, S2/S3 ceil(8.8) = 9.
    h = play(
        ["*9m", "1111z456p789s23s5m", "*", "*"],
        [(0, "discard", "9m"), (1, "kong", "1z"), (1, "hu")],
        draws="5m",
        tail="4s",
    )
    assert h["win_type"] == "kong_replacement"
    assert h["patterns"] == ["no_wild", "kong_replacement"]
    assert h["deltas"] == [-18, 36, -9, -9]


def test_red_pung_1_fan() -> None:
    # S1 = 777z 123m 456p 23s 55m draws 4s: 胡 10 + 8 + 自摸 2 = 20;
    # 番 no_wild 1 + red_pung 1 -> 80: S0 8, S2/S3 4.
    h = s1_self_draw("777z123m456p23s55m", "4s")
    assert h["patterns"] == ["no_wild", "red_pung"]
    assert h["deltas"] == [-8, 16, -4, -4]


def test_green_pung_1_fan_for_an_exposed_peng() -> None:
    # S1 pengs S0's 6z (discarding 9p), then wins on S2's 4s.
    # 胡 10 + 4 (exposed honour peng) = 14; 番 no_wild 1 + green_pung 1 -> 56:
    # S0 ceil(5.6) = 6, S2/S3 ceil(2.8) = 3.
    h = play(
        ["*6z", "66z123m456p23s55m9p", "*", "*"],
        [(0, "discard", "6z"), (1, "peng"), (1, "discard", "9p"), (2, "discard", "4s"), (1, "hu")],
        draws="4s",
    )
    assert (h["winner"], h["from"]) == (1, 2)
    assert h["patterns"] == ["no_wild", "green_pung"]
    assert h["deltas"] == [-6, 12, -3, -3]


def test_seat_wind_pung_1_fan_with_a_wild_in_the_triplet() -> None:
    # Indicator 5z: S1 = 22z 得 123m 456p 23s 55m draws 4s. Best: 2z 2z 得 = a concealed
    # triplet of S1's wind: 胡 10 + 8 + 自摸 2 = 20, 番 seat_wind_pung 1 -> 40:
    # S0 4, S2/S3 2. (Without the 番 the best is 20: [-2, 4, -1, -1].)
    h = s1_self_draw("22z5z123m456p23s55m", "4s")
    assert h["patterns"] == ["seat_wind_pung"]
    assert h["deltas"] == [-4, 8, -2, -2]


def test_seat_wind_follows_the_dealer() -> None:
    # Dealer S3: S0 is the dealer's next, seat wind South 2z. S0 = 222z 123m 456p 23s 55m
    # draws 4s: 胡 20, 番 no_wild + seat_wind_pung -> 80. The dealer S3 pays 8, S1 and S2
    # pay 4.
    h = play(
        ["222z123m456p23s55m", "*", "*", "*9p"],
        [(3, "discard", "9p"), (0, "hu")],
        draws="4s",
        dealer=3,
    )
    assert h["patterns"] == ["no_wild", "seat_wind_pung"]
    assert h["deltas"] == [16, -4, -4, -8]


def test_white_triplet_gives_no_fan_D76() -> None:
    # Indicator 1z: S1 = 555z 123m 456p 23s 55m draws 4s: 胡 20, 番 no_wild only -> 40.
    h = s1_self_draw("555z123m456p23s55m", "4s", wild="1z")
    assert h["patterns"] == ["no_wild"]
    assert h["deltas"] == [-4, 8, -2, -2]


# == 5.4 胡 ================================================================================
# Half-flush hands in p with the pair 44z (0 for S1): 番 half_flush 2 + no_wild 1 = 3,
# so P = 胡 x 8 and the 胡 rows show in the amounts.
def test_sequences_worth_0_base_hu_10() -> None:
    # READY on S0's 4s: four sequences (0) + 底胡 10 -> 20.
    h = s1_on_discard(READY, "4s")
    assert h["deltas"] == [-2, 4, -1, -1]


@pytest.mark.parametrize(
    ("kind", "w", "deltas"),
    [
        # peng 555p: 胡 10 + 2 = 12 -> 96: S0 ceil(9.6) = 10, S2/S3 ceil(4.8) = 5.
        ("5p", "55p123p678p23p44z9m", [-10, 20, -5, -5]),
        # peng 999p: 胡 10 + 4 = 14 -> 112: S0 ceil(11.2) = 12, S2/S3 ceil(5.6) = 6.
        ("9p", "99p123p567p23p44z9m", [-12, 24, -6, -6]),
    ],
)
def test_exposed_triplet_2_or_4(kind: str, w: str, deltas: list[int]) -> None:
    # S1 pengs S0's tile, discards 9m, wins on S2's 4p (234p).
    h = play(
        [f"*{kind}", w, "*", "*"],
        [(0, "discard", kind), (1, "peng"), (1, "discard", "9m"), (2, "discard", "4p"), (1, "hu")],
        draws="4p",
    )
    assert h["patterns"] == ["half_flush", "no_wild"]
    assert h["deltas"] == deltas


def test_triplet_completed_by_a_discard_is_exposed() -> None:
    # S1 = 123p 567p 234p 99p 44z wins on S0's 9p: 999p is exposed, 4 (not 8).
    # 胡 14 -> 112: S0 12, S2/S3 6. (As a concealed triplet: 144 -> [-15, 31, -8, -8].)
    h = s1_on_discard("123p567p234p99p44z", "9p")
    assert h["patterns"] == ["half_flush", "no_wild"]
    assert h["deltas"] == [-12, 24, -6, -6]


@pytest.mark.parametrize(
    ("w", "draw", "deltas"),
    [
        # 999p completed by the self-drawn 9p: 胡 10 + 8 + 自摸 2 = 20 -> 160: 16 / 8.
        ("123p567p234p99p44z", "9p", [-16, 32, -8, -8]),
        # 555p: 胡 10 + 4 + 2 = 16 -> 128: S0 ceil(12.8) = 13, S2/S3 ceil(6.4) = 7.
        ("123p678p234p55p44z", "5p", [-13, 27, -7, -7]),
    ],
)
def test_concealed_triplet_4_or_8(w: str, draw: str, deltas: list[int]) -> None:
    h = s1_self_draw(w, draw, d0="1z")
    assert h["patterns"] == ["half_flush", "no_wild"]
    assert h["deltas"] == deltas


@pytest.mark.parametrize(
    ("w", "actions", "draws", "tail", "deltas"),
    [
        # direct kong of 5p: 胡 10 + 8 = 18 -> 144: S0 ceil(14.4) = 15, S2/S3 ceil(7.2) = 8.
        (
            "555p123p678p23p44z",
            [(0, "discard", "5p"), (1, "kong", "5p"), (1, "discard", "9m")],
            "4p",
            "9m",
            [-15, 31, -8, -8],
        ),
        # direct kong of 9p: 胡 10 + 16 = 26 -> 208: S0 ceil(20.8) = 21, S2/S3 11.
        (
            "999p123p567p23p44z",
            [(0, "discard", "9p"), (1, "kong", "9p"), (1, "discard", "9m")],
            "4p",
            "9m",
            [-21, 43, -11, -11],
        ),
        # added kong of 5p (peng, then the 4th drawn): 8 as well -> 144.
        (
            "55p123p678p23p44z9m",
            [
                (0, "discard", "5p"),
                (1, "peng"),
                (1, "discard", "9m"),
                (2, "discard", "1z"),
                (3, "discard", "2z"),
                (0, "discard", "3z"),
                (1, "kong", "5p"),
                (1, "discard", "7z"),
            ],
            "1z 2z 3z 5p 4p",
            "7z",
            [-15, 31, -8, -8],
        ),
    ],
)
def test_exposed_kong_8_or_16(
    w: str, actions: list[tuple[Any, ...]], draws: str, tail: str, deltas: list[int]
) -> None:
    # ... then S2 discards 4p and S1 wins on it (123p 234p 678p or 567p, 44z).
    h = play(
        ["*" + actions[0][2], w, "*", "*"],
        [*actions, (2, "discard", "4p"), (1, "hu")],
        draws=draws,
        tail=tail,
    )
    assert h["patterns"] == ["half_flush", "no_wild"]
    assert h["deltas"] == deltas


@pytest.mark.parametrize(
    ("w", "kind", "deltas"),
    [
        # concealed kong 5555p: 胡 10 + 16 = 26 -> 208: 21 / 11.
        ("5555p123p678p23p4z", "5p", [-21, 43, -11, -11]),
        # concealed kong 9999p: 胡 10 + 32 = 42 -> 336: S0 ceil(33.6) = 34, S2/S3 17.
        ("9999p123p567p23p4z", "9p", [-34, 68, -17, -17]),
    ],
)
def test_concealed_kong_16_or_32(w: str, kind: str, deltas: list[int]) -> None:
    # S1 draws 4z, konges, discards the replacement 9m, wins on S2's 4p.
    h = play(
        ["*1z", w, "*", "*"],
        [
            (0, "discard", "1z"),
            (1, "kong", kind),
            (1, "discard", "9m"),
            (2, "discard", "4p"),
            (1, "hu"),
        ],
        draws="4z 4p",
        tail="9m",
    )
    assert h["patterns"] == ["half_flush", "no_wild"]
    assert h["deltas"] == deltas


@pytest.mark.parametrize(
    ("pair", "deltas"),
    [
        ("22z", [-3, 7, -2, -2]),  # S1's seat wind: 胡 12 -> 24
        ("77z", [-3, 7, -2, -2]),
        ("66z", [-3, 7, -2, -2]),
        ("55z", [-3, 7, -2, -2]),
        ("11z", [-2, 4, -1, -1]),  # another seat's wind (the dealer's): 胡 10 -> 20
        ("44z", [-2, 4, -1, -1]),
    ],
)
def test_pair_of_seat_wind_or_dragon_2(pair: str, deltas: list[int]) -> None:
    # Indicator 9p. S1 = 123m 456p 789s 23s + pair, on S0's 4s; 番 no_wild.
    h = s1_on_discard("123m456p789s23s" + pair, "4s", wild="9p")
    assert h["deltas"] == deltas


def test_self_draw_2() -> None:
    # S1 = 123m 456p 999s 55s 46m draws 5m: 胡 10 + 8 + 自摸 2 + 嵌档 2 = 22;
    # 番 no_wild -> 44: S0 ceil(4.4) = 5, S2/S3 ceil(2.2) = 3. (No 自摸: 40 -> 4 / 2.)
    h = s1_self_draw("123m456p999s55s46m", "5m", d0="1z")
    assert h["patterns"] == ["no_wild"]
    assert h["deltas"] == [-5, 11, -3, -3]


def test_middle_tile_qianda_2() -> None:
    # S1 = 123m 456p 789s 55s 46m wins on S0's 5m: 胡 10 + 嵌档 2 = 12 -> 24: 3 / 2.
    h = s1_on_discard("123m456p789s55s46m", "5m")
    assert h["deltas"] == [-3, 7, -2, -2]


def test_qianda_uses_the_placement_that_scores_best() -> None:
    # S1 = 12334m 456p 789s 55s draws 2m: 123m 234m; the 2m may be the middle of 123m.
    # 胡 10 + 自摸 2 + 嵌档 2 = 14; 番 pang_hu + no_wild -> 56: S0 6, S2/S3 3.
    # (As the end of 234m: 48 -> [-5, 11, -3, -3].)
    h = s1_self_draw("12334m456p789s55s", "2m")
    assert h["deltas"] == [-6, 12, -3, -3]


def test_decomposition_with_the_most_points_is_used() -> None:
    # S1 = 111222333m 55p 78s draws 9s. Two readings:
    #  - 111m 222m 333m 789s 55p: 胡 10 + 8 + 4 + 4 + 自摸 2 = 28, 番 no_wild -> 56;
    #  - 123m x3 789s 55p: 胡 12, 番 pang_hu + no_wild -> 48.
    # 56 is used: S0 6, S2/S3 3 (48 would give [-5, 11, -3, -3]).
    h = s1_self_draw("111222333m55p78s", "9s", d0="1z")
    assert h["patterns"] == ["no_wild"]
    assert h["deltas"] == [-6, 12, -3, -3]


def test_discarded_tile_may_complete_the_pair_leaving_a_wild_triplet_concealed() -> None:
    # Indicator 5z. S1 = 777z 得 123p 456p 789p wins on S0's 7z (baopai off, so that the
    # 中 discard does not make S0 liable). The only reading: pair 77z + triplet 77z得.
    # The discarded 7z may be one of the pair, the triplet then stays concealed (RULES.md
    # 5.4: the decomposition that maximises 牌点):
    #   胡 10 + 8 (concealed honour triplet) + 2 (7z pair) = 20;
    #   番 half_flush 2 + red_pung 1 = 3 -> 160: S0 16, S2/S3 8.
    # (With the 7z in the triplet, exposed 4: 胡 16 -> 128 -> [-13, 27, -7, -7].)
    h = s1_on_discard("777z5z123p456p789p", "7z", options={"baopai": False})
    assert h["patterns"] == ["half_flush", "red_pung"]
    assert h["deltas"] == [-16, 32, -8, -8]


# == 5.4 non-winners ========================================================================
def test_non_winners_count_declared_melds_and_their_wind_and_dragon_fan_only() -> None:
    # S2 pengs 333z (its own wind) and 999p, and holds 111s 77z concealed: the natural
    # concealed triplet 111s counts as a 暗刻 8 (D66, corrected 2026-12-01), the pair 77z
    # does not: (4 + 4 + 8) x 2^1 = 32.
    # S3 pengs 111z (the dealer's wind, not its own: no 番) and konges 9999m concealed:
    #   (4 + 32) x 2^0 = 36.
    # S1 wins by self-draw with READY + 4s: 48.
    # S1: 5 (S0) + 3 + 3; S2: ceil(3.2) = 4 (S0), ceil(1.6) = 2 (S1), 2 (S3);
    # S3: ceil(3.6) = 4 (S0), ceil(1.8) = 2 (S1), 2 (S2).
    # S0 -5-4-4 = -13; S1 11-2-2 = 7; S2 8-3-2 = 3; S3 8-3-2 = 3.
    # (Before the correction 111s was left out: S2 16 and [-11, 8, -1, 4].)
    hands = ["*3z1z9p", READY, "*33z99p111s77z6z3m", "*11z9999m"]
    actions = [
        (0, "discard", "3z"),
        (2, "peng"),
        (2, "discard", "6z"),
        (3, "kong", "9m"),  # S3 drew 2p, konges 9999m, gets 8m from the back
        (3, "discard", "2p"),
        (0, "discard", "1z"),  # S0 drew 4z
        (3, "peng"),
        (3, "discard", "8m"),
        (0, "discard", "9p"),  # S0 drew 9s
        (2, "peng"),
        (2, "discard", "3m"),
        (3, "discard", "6p"),
        (0, "discard", "2z"),
        (1, "hu"),
    ]
    h = play(hands, actions, draws="2p 4z 9s 6p 2z 4s", tail="8m")
    assert h["winner"] == 1 and h["win_type"] == "self_draw"
    assert h["deltas"] == [-13, 7, 3, 3]


def test_non_winners_count_natural_concealed_triplets_D66() -> None:
    """RULES.md 5.4 / D66 (corrected 2026-12-01): a non-winner counts his natural concealed
    triplets (three, or four undeclared, identical tiles, no 得 among them) as 暗刻, with one
    番 each for 中, 发 or his seat wind (红中发财和自家门风碰杠暗刻一番 is everybody's)."""
    # 得 = 5z (indicator 5z). S1 self-draws READY + 4s: 48 (module docstring).
    # S2 holds 777z (中): 暗刻 8 x 2^1 = 16; its pair 99s counts nothing.
    # S3 holds 8888m (four, undeclared: one 暗刻 of simples, 4) and 444z (its seat wind
    # North: 8 and 1 番): (4 + 8) x 2^1 = 24.
    # S0 (dealer) holds 555z, three 得: no natural triplet, 0.
    # S1: ceil(4.8) = 5 (S0), ceil(2.4) = 3 (S2), 3 (S3);
    # S2: ceil(1.6) = 2 (S0), ceil(0.8) = 1 (S1), 1 (S3);
    # S3: ceil(2.4) = 3 (S0), ceil(1.2) = 2 (S1), 2 (S2).
    # S0 -5-2-3 = -10; S1 11-1-2 = 8; S2 4-3-2 = -1; S3 7-3-1 = 3.
    # (The old reading gave S2 and S3 nothing: [-5, 11, -3, -3].)
    hands = ["*555z9p", READY, "*777z99s", "*8888m444z"]
    h = play(hands, [(0, "discard", "9p"), (1, "hu")], draws="4s")
    assert (h["winner"], h["win_type"]) == (1, "self_draw")
    assert items(h, "points") == [
        ("points", 0, 2, 2),
        ("points", 0, 3, 3),
        ("points", 1, 2, 1),
        ("points", 1, 3, 2),
        ("points", 2, 3, 2),
        ("points", 3, 2, 1),
    ]
    assert h["deltas"] == [-10, 8, -1, 3]


def test_non_winner_dragon_kong_gets_a_fan() -> None:
    # S2 konges S0's 7z (direct kong, replacement 9s discarded): 16 x 2^1 = 32.
    # S1 wins by self-draw with READY + 4s: 48.
    # S1: 5 (S0), 3 (S2), 3 (S3); S2: ceil(3.2) = 4 (S0), ceil(1.6) = 2 (S1), 2 (S3).
    # S0 -5-4 = -9; S1 11-2 = 9; S2 8-3 = 5; S3 -3-2 = -5. (Without the 番, 16: 2 / 1 / 1.)
    h = play(
        ["*7z", READY, "*777z", "*"],
        [
            (0, "discard", "7z"),
            (2, "kong", "7z"),
            (2, "discard", "9s"),
            (3, "discard", "1z"),
            (0, "discard", "2z"),
            (1, "hu"),
        ],
        draws="1z 2z 4s",
        tail="9s",
    )
    assert h["deltas"] == [-9, 9, 5, -5]


# == 5.5 settlement =========================================================================
# TZ-1 of RULES.md 5.8 (shared/examples/TZ-1.json): dealer S0 wins with 104 牌点;
# non-winners S1 2 (peng 222m), S2 16 (kong 1111z), S3 0.
TZ1_HAND: dict[str, Any] = {
    "dealer": 0,
    "deal": {
        "hands": [
            "111m2246p789s377z 2z",
            "2258m39p25s23456z",
            "369m39p11123456z",
            "369m39p25s234567z",
        ],
        "draws": "6s 7z 1z 2m 7s 2m 5p",
        "tail": "6s",
        "reserved": {"wild_indicator": "3s"},
    },
    "actions": [
        act(0, "discard", "2z"),
        act(1, "discard", "6s"),
        act(2, "discard", "7z"),
        act(0, "peng"),
        act(0, "discard", "3z"),
        act(1, "discard", "1z"),
        act(2, "kong", "1z"),
        act(2, "discard", "6s"),
        act(3, "discard", "2m"),
        act(1, "peng"),
        act(1, "discard", "2z"),
        act(2, "discard", "7s"),
        act(3, "discard", "2m"),
        act(0, "hu"),
    ],
}


def tz1(options: dict[str, Any] | None = None) -> dict[str, Any]:
    h: dict[str, Any] = replay(record(TZ1_HAND, options=options))["hands"][0]
    return h


def test_settle_xian_half_weights_1_and_half() -> None:
    # S0 gets ceil(104/10) = 11 x 3; S1 1 (S0) + ceil(0.1) = 1 + 1; S2 ceil(1.6) = 2 (S0) +
    # ceil(0.8) = 1 + 1. S0 33-1-2 = 30; S1 3-11-1 = -9; S2 4-11-1 = -8; S3 -11-1-1 = -13.
    h = tz1()
    assert h["deltas"] == [30, -9, -8, -13]


def test_settle_dealer_double_weights_2_and_1() -> None:
    # S0 ceil(208/10) = 21 x 3; S1 ceil(0.4) = 1, 1, 1; S2 ceil(3.2) = 4 (S0), 2, 2.
    # S0 63-1-4 = 58; S1 3-21-2 = -20; S2 8-21-1 = -14; S3 -21-1-2 = -24.
    h = tz1({"settle_mode": "dealer_double"})
    assert h["deltas"] == [58, -20, -14, -24]


def test_settle_flat_weight_1() -> None:
    # S0 11 x 3; S1 1 x 3; S2 2 x 3. S0 33-1-2 = 30; S1 3-11-2 = -10; S2 6-11-1 = -6;
    # S3 -11-1-2 = -14.
    h = tz1({"settle_mode": "flat"})
    assert h["deltas"] == [30, -10, -6, -14]


def test_amounts_round_up_to_tens_132_is_14() -> None:
    # S1 = 1111z 5555p 444s 46m draws 2p, konges 1z (replacement 2p) and 5p (replacement
    # 9s, discarded); after S2, S3, S0 discard it draws 5m.
    # 胡 10 + 32 (1z kong) + 16 (5p kong) + 4 (444s) + 0 (22p) + 自摸 2 + 嵌档 2 = 66;
    # 番 no_wild -> 132: S0 ceil(13.2) = 14 (132 counts as 140), S2/S3 ceil(6.6) = 7.
    h = play(
        ["*9p", "1111z5555p444s46m", "*", "*"],
        [
            (0, "discard", "9p"),
            (1, "kong", "1z"),
            (1, "kong", "5p"),
            (1, "discard", "9s"),
            (2, "discard", "6z"),
            (3, "discard", "7z"),
            (0, "discard", "3z"),
            (1, "hu"),
        ],
        draws="2p 6z 7z 3z 5m",
        tail="2p 9s",
    )
    assert h["win_type"] == "self_draw"
    assert h["patterns"] == ["no_wild"]
    assert h["deltas"] == [-14, 28, -7, -7]


def test_mutual_pays_non_winners_points_items() -> None:
    h = tz1()
    assert items(h, "hu") == [("hu", s, 0, 11) for s in (1, 2, 3)]
    assert items(h, "points") == sorted(
        [
            *[("points", 0, 1, 1), ("points", 2, 1, 1), ("points", 3, 1, 1)],
            *[("points", 0, 2, 2), ("points", 1, 2, 1), ("points", 3, 2, 1)],
        ]
    )


def test_winner_only_settles_the_winner_alone() -> None:
    # Only S0's 104: ceil(104/10) = 11 from each; no points items.
    h = tz1({"settlement": "winner_only"})
    assert h["deltas"] == [33, -11, -11, -11]
    assert {i["kind"] for i in h["items"]} == {"hu"}


def test_point_cap_caps_every_pai_dian_D75() -> None:
    # Cap 10: S0 min(104, 10) = 10 -> 1 from each; S1 2 -> 1, 1, 1; S2 min(16, 10) = 10 ->
    # 1 (S0), ceil(0.5) = 1 (S1), 1 (S3). S0 3-1-1 = 1; S1 3-1-1 = 1; S2 3-1-1 = 1; S3 -3.
    h = tz1({"point_cap": 10})
    assert h["deltas"] == [1, 1, 1, -3]


# == 5.5 包三家 ============================================================================
# -- trigger 1: 生牌 ------------------------------------------------------------------------
# Junk: every copy of 1z 2z 3z 4z 6z 7z 6m 7m 8m 9m 7p 8p and three 9p (51 tiles); S0's
# first discard is the 4th 9p. Nobody holds a junk kind, so they are the only 熟 kinds.
JUNK_KINDS = ("1z", "2z", "3z", "4z", "6z", "7z", "6m", "7m", "8m", "9m", "7p", "8p")
JUNK = [k for _ in range(4) for k in JUNK_KINDS] + ["9p"] * 3
# S0 (dealer) = 44m 123p 123p 66s 88s 5s + 9p: raw kinds only once the 9p is gone.
SHENG_S0 = "44m123p123p66s88s5s 9p"


def sheng_play(
    *, keep_known: bool, first: str = "1z", options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """S0 discards 9p; draws 1..51 (junk) are discarded at once, except that with
    ``keep_known`` S0 keeps his first draw (4z) and discards 5s instead; draw 52 (R = 30)
    is S0's 4s, which he discards: S1 (READY) wins on it."""
    junk = [first, *JUNK[1:]]
    actions = [(0, "discard", "9p"), *tsumogiri(1, junk)]
    if keep_known:
        actions[4] = (0, "discard", "5s")
    actions += [(0, "discard", "4s"), (1, "hu")]
    return play([SHENG_S0, READY, "*", "*"], actions, draws=[*junk, "4s"], options=options)


def test_baosanjia_sheng_pai_fires_in_the_raw_tile_phase() -> None:
    # 4s is raw, discarded at R = 30 by S0, who holds the 熟 4z. S1: 胡 10 x 2 (no_wild) = 20.
    # S0 pays everything: ceil(20/10) = 2 (his own) + ceil(10/10) = 1 (for S2) + 1 (for S3).
    h = sheng_play(keep_known=True)
    assert (h["winner"], h["from"]) == (1, 0)
    assert items(h) == [("baosanjia", 0, 1, 1), ("baosanjia", 0, 1, 1), ("baosanjia", 0, 1, 2)]
    assert h["deltas"] == [-4, 4, 0, 0]


def test_baosanjia_sheng_pai_not_when_the_discarder_held_only_raw_tiles() -> None:
    # S0 discarded his drawn 4z: he holds only raw kinds -> an ordinary discard win.
    h = sheng_play(keep_known=False)
    assert items(h, "baosanjia") == []
    assert h["deltas"] == [-2, 4, -1, -1]


def test_baosanjia_sheng_pai_not_for_a_known_tile() -> None:
    # S1 draws a 4s as its first draw and discards it (declining the self-draw): the 4s
    # S0 discards at R = 30 is 熟.
    h = sheng_play(keep_known=True, first="4s")
    assert h["deltas"] == [-2, 4, -1, -1]


def test_baosanjia_sheng_pai_not_with_sheng_phase_off() -> None:
    h = sheng_play(keep_known=True, options={"sheng_phase": False})
    assert h["deltas"] == [-2, 4, -1, -1]


def test_baosanjia_sheng_pai_not_outside_the_phase_R31() -> None:
    # Draw 51 (R = 31) is S3's raw 4s; S3 keeps its first draw 3z (熟) by discarding 9s.
    junk = JUNK[:50]
    actions = [(0, "discard", "9p"), *tsumogiri(1, junk)]
    actions[3] = (3, "discard", "9s")
    actions += [(3, "discard", "4s"), (1, "hu")]
    h = play([SHENG_S0, READY, "*", "*9s"], actions, draws=[*junk, "4s"])
    assert (h["winner"], h["from"]) == (1, 3)
    assert h["deltas"] == [-2, 4, -1, -1]


# -- trigger 2: 清一色 ----------------------------------------------------------------------
def test_baosanjia_all_one_suit_with_three_exposed_melds() -> None:
    # S1 = 11m 24m 55m 99m 78m 1z 2z 3z: chi 3m (S0), peng 5m and 9m (S2), then wins on
    # S2's 6m: chi 234m, peng 555m (2), peng 999m (4), 678m, 11m.
    # 胡 10 + 2 + 4 = 16; 番 all_one_suit 4 + no_wild 1 -> 512.
    # S2 pays S1's three amounts: ceil(51.2) = 52 + ceil(25.6) = 26 + 26 = 104.
    h = play(
        ["*3m", "11m24m55m99m78m1z2z3z", "*5m9m6m", "*"],
        [
            (0, "discard", "3m"),
            (1, "chi", "24m"),
            (1, "discard", "1z"),
            (2, "discard", "5m"),
            (1, "peng"),
            (1, "discard", "2z"),
            (2, "discard", "9m"),
            (1, "peng"),
            (1, "discard", "3z"),
            (2, "discard", "6m"),
            (1, "hu"),
        ],
        draws="4p 5p 6p",
    )
    assert (h["winner"], h["from"]) == (1, 2)
    assert "all_one_suit" in h["patterns"]
    assert {i["kind"] for i in h["items"]} == {"baosanjia"}
    assert h["deltas"] == [0, 104, -104, 0]


def test_calculator_baosanjia_all_one_suit_from_the_position_alone() -> None:
    # RULES.md 5.5 trigger 2 needs only the position, so majiang score, told S1's melds
    # (chi 234m<S0, peng 555m<S2, peng 999m<S2), 11m 78m and S2's 6m, settles it as the
    # replay above: S2 pays 52 + 26 + 26 = 104. The other triggers need the discards made
    # before (生牌, a thrown 得, B's hand after its discard), which the calculator has not:
    # TZ-2's winner without them (chi 123m<S2, 456m 67s 345p 99p on S1's 8s, 得 = 2z):
    # 胡 10 x 2^1 (no_wild) = 20, paid normally: S0 ceil(20/10) = 2, S1 and S2 ceil(10/10) = 1.
    melds = "chi 234m<S0; peng 555m<S2; peng 999m<S2"
    calc = score("taizhou", "11m78m", "6m", "discard", seat=1, source=2, melds=melds,
                 reserved={"wild_indicator": "5z"})  # fmt: skip
    assert {i.kind for i in calc.score.items} == {"baosanjia"}
    assert deltas(calc.score.items) == [0, 104, -104, 0]
    calc = score("taizhou", "456m67s345p99p", "8s", "discard", seat=3, source=1,
                 melds="chi 123m<S2", reserved={"wild_indicator": "2z"})  # fmt: skip
    assert list(calc.score.patterns) == ["no_wild"]
    assert deltas(calc.score.items) == [-2, -1, -1, 4]


def test_baosanjia_all_one_suit_not_with_two_exposed_melds() -> None:
    # S1 = 11m 55m 999m 234m 7m 1z 2z: peng 1m (S0), peng 5m (S2), wins on S2's 7m.
    # 胡 10 + 4 (111m) + 2 (555m) + 8 (999m concealed) = 24; 番 5 -> 768:
    # S0 ceil(76.8) = 77, S2/S3 ceil(38.4) = 39.
    h = play(
        ["*1m", "11m55m999m234m7m1z2z", "*5m7m", "*"],
        [
            (0, "discard", "1m"),
            (1, "peng"),
            (1, "discard", "1z"),
            (2, "discard", "5m"),
            (1, "peng"),
            (1, "discard", "2z"),
            (2, "discard", "7m"),
            (1, "hu"),
        ],
        draws="4p 5p",
    )
    assert "all_one_suit" in h["patterns"]
    assert h["deltas"] == [-77, 155, -39, -39]


def test_baosanjia_all_one_suit_on_a_robbed_kong() -> None:
    # S2 pengs S0's 6m first. S1 then chis 3m (S0), pengs 5m and 9m (S2): waiting on 6m /
    # 9m with 11m 78m. S2 draws the 4th 6m and adds it; S1 robs it: the added tile counts
    # as S2's discard.
    # 胡 10 + 2 (555m) + 4 (999m) = 16; 番 all_one_suit 4 + no_wild 1 + rob_kong 1 = 6 ->
    # 1024. S2 pays ceil(102.4) = 103 + ceil(51.2) = 52 + 52 = 207 (S2's peng: 牌点 0).
    h = play(
        ["*3m6m", "11m24m55m99m78m1z2z3z", "*66m5m9m7z", "*"],
        [
            (0, "discard", "6m"),
            (2, "peng"),
            (2, "discard", "7z"),
            (3, "discard", "4z"),
            (0, "discard", "3m"),
            (1, "chi", "24m"),
            (1, "discard", "1z"),
            (2, "discard", "5m"),
            (1, "peng"),
            (1, "discard", "2z"),
            (2, "discard", "9m"),
            (1, "peng"),
            (1, "discard", "3z"),
            (2, "kong", "6m"),
            (1, "hu"),
        ],
        draws="4z 6z 5p 6p 6m",
    )
    assert (h["winner"], h["from"], h["win_type"]) == (1, 2, "rob_kong")
    assert h["patterns"] == ["all_one_suit", "no_wild", "rob_kong"]
    assert h["deltas"] == [0, 207, -207, 0]


# -- trigger 3: 中/发 ----------------------------------------------------------------------
# S1 = 123m 456p 789s 55m + a 77z / 66z pair wins on S0's first discard of that dragon:
# 胡 10 + 4 (exposed honour triplet) = 14; 番 no_wild + red/green_pung -> 56.
# Normally S0 6, S2/S3 3; with S0 liable S0 pays 6 + 3 + 3 = 12.
SHANTEN_2 = "123m456m789m1p4p7p2s"  # after the discard: three sets and four loose tiles
SHANTEN_1 = "123m456m789m11p2p5s"  # three sets, a pair, two loose tiles: 一进一听


@pytest.mark.parametrize("dragon", ["7z", "6z"])
def test_baosanjia_dragon_discarded_at_shanten_2(dragon: str) -> None:
    assert shanten(ts(SHANTEN_2), seven_pairs=False, thirteen_orphans=False) == 2
    h = play(
        [f"{SHANTEN_2} {dragon}", "123m456p789s55m" + dragon * 2, "*", "*"],
        [(0, "discard", dragon), (1, "hu")],
    )
    assert {i["kind"] for i in h["items"]} == {"baosanjia"}
    assert h["deltas"] == [-12, 12, 0, 0]


def test_baosanjia_dragon_not_at_shanten_1() -> None:
    assert shanten(ts(SHANTEN_1), seven_pairs=False, thirteen_orphans=False) == 1
    h = play([f"{SHANTEN_1} 7z", "123m456p789s55m77z", "*", "*"], [(0, "discard", "7z"), (1, "hu")])
    assert h["deltas"] == [-6, 12, -3, -3]


def test_baosanjia_dragon_on_a_robbed_kong_at_shanten_2() -> None:
    # RULES.md 5.5 trigger 3 on a robbing win, where the added-kong tile counts as B's
    # discard: S2 pengs S0's 7z, later draws the 4th 7z and adds it, holding 147m 147p
    # 258s 3z (shanten >= 2). S1 (123m 456p 789s 11s + two 得 5z) robs it: 7z with the two
    # 得 is an exposed triplet. 胡 10 + 4 = 14; 番 two_wilds + rob_kong + red_pung = 3 ->
    # 112. S2 pays S1's ceil(11.2) = 12 (for S0) + ceil(5.6) = 6 (for S2) + 6 (for S3).
    h = play(
        ["*7z", "123m456p789s11s5z5z", "77z147m147p258s34z", "*"],
        [
            (0, "discard", "7z"),
            (2, "peng"),
            (2, "discard", "4z"),
            (3, "discard", "8p"),
            (0, "discard", "6p"),
            (1, "discard", "9m"),
            (2, "kong", "7z"),
            (1, "hu"),
        ],
        draws="8p 6p 9m 7z",
    )
    assert (h["winner"], h["from"], h["win_type"]) == (1, 2, "rob_kong")
    assert h["patterns"] == ["two_wilds", "rob_kong", "red_pung"]
    assert {i["kind"] for i in h["items"]} == {"baosanjia"}
    assert h["deltas"] == [0, 24, -24, 0]


def test_baosanjia_liable_seat_pays_every_payment() -> None:
    # S0 discards 1z, which S2 pengs (111z: 4 牌点, 1z is not S2's wind); S0 later throws
    # 7z at shanten 2. S0 is liable: 牌点 0 and pays S1's 6 + 3 + 3 and S2's
    # ceil(0.4) = 1 (for S0) + ceil(0.2) = 1 (for S1) + 1 (for S3); S1 and S3 pay nothing.
    # (Without 包三家: [-7, 11, 0, -4].)
    h = play(
        ["123m456m789m1p4p7p 1z7z", "123m456p789s55m77z", "*11z9s", "*"],
        [
            (0, "discard", "1z"),
            (2, "peng"),
            (2, "discard", "9s"),
            (3, "discard", "2z"),
            (0, "discard", "7z"),  # S0 drew 2s: 123m 456m 789m 1p 4p 7p 2s, shanten 2
            (1, "hu"),
        ],
        draws="2z 2s",
    )
    assert {i["kind"] for i in h["items"]} == {"baosanjia"}
    assert {i["from"] for i in h["items"]} == {0}
    assert h["deltas"] == [-15, 12, 3, 0]


def test_baopai_off_no_baosanjia() -> None:
    h = play(
        [f"{SHANTEN_2} 7z", "123m456p789s55m77z", "*", "*"],
        [(0, "discard", "7z"), (1, "hu")],
        options={"baopai": False},
    )
    assert h["deltas"] == [-6, 12, -3, -3]


# -- trigger 4: 得 discarded -------------------------------------------------------------
def wild_thrown_play(first: str, s1_draw: str) -> dict[str, Any]:
    """S0 (holding 4s) discards ``first``; S1 draws ``s1_draw``, S2 6z, S3 7z, S0 1z and
    each discards it; S0 then discards his 4s and S1 (READY) wins on it."""
    return play(
        [f"*4s{first}", READY, "*", "*"],
        [
            (0, "discard", first),
            *tsumogiri(1, [s1_draw, "6z", "7z"]),
            (0, "discard", "4s"),
            (1, "hu"),
        ],
        draws=[s1_draw, "6z", "7z", "1z"],
    )


def test_baosanjia_wild_discarded_earlier_and_a_raw_tile() -> None:
    # S0 threw a 得 (5z) and later the raw 4s: S0 pays 2 + 1 + 1 (R = 78: any R).
    h = wild_thrown_play("5z", "2z")
    assert h["deltas"] == [-4, 4, 0, 0]


def test_baosanjia_wild_discarded_not_for_a_known_tile() -> None:
    # S1 drew a 4s and discarded it (declining the self-draw): S0's 4s is 熟.
    h = wild_thrown_play("5z", "4s")
    assert h["deltas"] == [-2, 4, -1, -1]


def test_baosanjia_raw_tile_without_a_wild_discarded() -> None:
    h = wild_thrown_play("3z", "2z")
    assert h["deltas"] == [-2, 4, -1, -1]


# == 5.6 dealer rotation ====================================================================
# The dealer S0 (READY + 1z) discards 1z and wins on S1's 4s: 20 -> 2 from each.
DEALER_WIN = hand_of(
    [READY + " 1z", "*4s", "*", "*"],
    [(0, "discard", "1z"), (1, "discard", "4s"), (0, "hu")],
    draws="2z",
)


@pytest.mark.parametrize(("lianzhuang", "nxt"), [(True, 0), (False, 1)])
def test_dealer_win_stays_or_passes_with_lianzhuang(lianzhuang: bool, nxt: int) -> None:
    res = replay(record(DEALER_WIN, options={"lianzhuang": lianzhuang}))["hands"][0]
    assert res["deltas"] == [6, -2, -2, -2]
    assert res["next"] == {"dealer": nxt, "counters": {}}


def test_second_hand_must_be_dealt_by_the_rotation() -> None:
    second = hand_of(["*"] * 4, autoplay="tsumogiri")
    ok = replay(record(DEALER_WIN, second, options={"lianzhuang": True}))
    assert [h["dealer"] for h in ok["hands"]] == [0, 0]
    with pytest.raises(RecordError, match="rotation gives seat 1"):
        replay(record(DEALER_WIN, second, options={"lianzhuang": False}))


def test_non_dealer_win_passes_the_deal_to_the_dealers_next() -> None:
    # Dealer S2 discards 4s; S0 (READY) wins: 20 -> S2 pays 2, S1 and S3 1. Next: S3.
    h = play([READY, "*", "*4s", "*"], [(2, "discard", "4s"), (0, "hu")], dealer=2)
    assert h["deltas"] == [4, -1, -2, -1]
    assert h["next"]["dealer"] == 3


def test_huangpai_passes_the_deal_to_the_dealers_next() -> None:
    h = play(["*"] * 4, [], dealer=3, autoplay="tsumogiri")
    assert h["outcome"] == "draw"
    assert h["next"]["dealer"] == 0


# == 5.7 options ===========================================================================
@pytest.mark.parametrize(
    ("options", "deltas"), [({}, [0, 0, 0, 0]), ({"escape_penalty": 3}, [3, 3, -9, 3])]
)
def test_escape_penalty_default_0(options: dict[str, Any], deltas: list[int]) -> None:
    rec = record(
        hand_of(["*1z", "*", "*", "*"], [(0, "discard", "1z"), (2, "escape")], draws="2z"),
        options=options,
    )
    res = replay(rec)["hands"][0]
    assert res["outcome"] == "draw"
    assert res["deltas"] == deltas
    assert len(res["items"]) == (3 if options else 0)


@pytest.mark.parametrize("dealer", [0, 3])
def test_after_an_escape_next_is_what_a_drawn_hand_gives(dealer: int) -> None:
    # docs/decisions.md (escape result): the match ends, and the hand's next dealer is the
    # one a drawn hand (黄牌) would give, the dealer's next seat (RULES.md 5.6).
    hands = ["*1z" if s == dealer else "*" for s in range(4)]
    rec = record(
        hand_of(hands, [(dealer, "discard", "1z"), (2, "escape")], dealer=dealer), dealer=dealer
    )
    res = replay(rec)["hands"][0]
    assert res["outcome"] == "draw"
    assert res["next"] == {"dealer": (dealer + 1) % 4, "counters": {}}


def test_record_win_after_a_wild_discard_is_rejected() -> None:
    # Indicator 5m: S1 (waiting on 2s / 5s) draws a 得 and discards it; its "hu" on S2's
    # 2s is no claim of that window, and out of turn once S3 draws.
    hands = ["*1z", "123m456p789s11s34s", "*", "*"]
    actions = [(0, "discard", "1z"), (1, "discard", "5m"), (2, "discard", "2s"), (1, "hu")]
    rec = record(hand_of(hands, actions, draws="5m 2s", wild="5m"))
    with pytest.raises(RecordError, match=r"hand 0, action 3, seat 1"):
        replay(rec)


# == issue 14: the reported reading on a tie (RULES.md 0.7) ======================================
def test_equal_points_report_the_first_fan_in_list_order_0_7() -> None:
    # Indicator 5m: S1 = 123m 456p 789s 1m 得得得 draws 1m. 得得得 is a concealed honour
    # triplet of 7z, 6z or S1's seat wind 2z: 胡 10 + 8 + 自摸 2 = 20 and one 番 each
    # (red_pung, green_pung, seat_wind_pung) -> 40 in all three readings. (Others are
    # lower: 1m 1m 得 + 得得 pair valued 2 gives 胡 22 with no 番.) RULES.md 0.7: the most
    # patterns (one each), then the first in the list order of 5.4: red_pung.
    # S0 pays ceil(40/10) = 4, S2 and S3 ceil(20/10) = 2. (S1 could win on S0's 9p with
    # 11m 23m得 9p得得: it passes.)
    h = s1_self_draw("123m456p789s1m5m5m5m", "1m", wild="5m", pass_first=True)
    assert h["patterns"] == ["red_pung"]
    assert h["deltas"] == [-4, 8, -2, -2]


# == issue 14: readings and the 中/发 trigger at their edges =======================================
def test_a_hand_that_is_also_seven_pairs_is_read_in_the_standard_shape_only() -> None:
    # RULES.md 5.4: the standard shape only. 112233m 445566p 7s draws 7s: 123m 123m 456p
    # 456p 77s, 胡 10 + 自摸 2 = 12; 番 no_wild + pang_hu -> 48 (S0 5, S2/S3 3). Read as
    # seven pairs it would have no sets at all (and no all_pungs).
    h = s1_self_draw("112233m445566p7s", "7s")
    assert h["patterns"] == ["pang_hu", "no_wild"]
    assert h["deltas"] == [-5, 11, -3, -3]


@pytest.mark.parametrize(
    ("s0", "wild"),
    [
        # one exchange from seven pairs, but shanten 3 in the standard shape
        ("11m22m44p55p77s99s1z", "5z"),
        # ready for thirteen orphans, shanten 7 in the standard shape
        ("119m19p19s123456z", "2s"),
    ],
)
def test_baosanjia_dragon_shanten_counts_the_standard_shape_only_D73(s0: str, wild: str) -> None:
    # RULES.md 5.5 trigger 3: shanten in the standard shape only. S0 throws 7z holding a
    # hand close to seven pairs or thirteen orphans: still liable (S0 pays 6 + 3 + 3).
    hands = [f"{s0} 7z", "123m456p789s55m77z", "*", "*"]
    h = play(hands, [(0, "discard", "7z"), (1, "hu")], wild=wild)
    assert {i["kind"] for i in h["items"]} == {"baosanjia"}
    assert h["deltas"] == [-12, 12, 0, 0]


def test_baosanjia_dragon_thrown_with_one_meld_declared() -> None:
    # Trigger 3 with a meld: S0 pengs S1's 9s, then throws 7z keeping 123m 456m 1p 4p 7p 2s
    # (shanten 2 with the peng as a set). Liable: 牌点 0 (not 999s's 4) and S0 pays 12.
    h = play(
        ["123m456m1p4p7p2s99s7z 1z", "123m456p789s55m77z", "*", "*"],
        [(0, "discard", "1z"), (1, "discard", "9s"), (0, "peng"), (0, "discard", "7z"), (1, "hu")],
        draws="9s",
    )
    assert (h["winner"], h["from"]) == (1, 0)
    assert {i["kind"] for i in h["items"]} == {"baosanjia"}
    assert h["deltas"] == [-12, 12, 0, 0]


def test_all_one_suit_counts_the_melds_too() -> None:
    # RULES.md 5.4 清一色: all 14 tiles, melds included. S1 pengs S0's 9p and wins on S2's
    # 6m: 123m 456m 678m 11m + peng 999p are two suits, no flush.
    # 胡 10 + 4 (exposed terminal triplet) = 14; 番 no_wild -> 28: S0 3, S2/S3 2.
    h = play(
        ["*9p", "99p123m456m78m11m1z", "*", "*"],
        [(0, "discard", "9p"), (1, "peng"), (1, "discard", "1z"), (2, "discard", "6m"), (1, "hu")],
        draws="6m",
    )
    assert (h["winner"], h["from"]) == (1, 2)
    assert h["patterns"] == ["no_wild"]
    assert h["deltas"] == [-3, 7, -2, -2]


@pytest.mark.parametrize(
    ("w", "patterns", "deltas"),
    [
        # characters with a pair of 9s: two suits. 胡 10 + 自摸 2 + 嵌档 2 = 14, 番 2 -> 56
        ("123m456m789m46m99s", ["pang_hu", "no_wild"], [-6, 12, -3, -3]),
        # characters with a pair of East: a half flush (as test_half_flush_2_fan) -> 224
        ("123m456m789m46m11z", ["half_flush", "pang_hu", "no_wild"], [-23, 47, -12, -12]),
    ],
)
def test_flushes_at_the_suit_honour_border(w: str, patterns: list[str], deltas: list[int]) -> None:
    # RULES.md 5.4: 9s is a number tile and East an honour like any other.
    h = s1_self_draw(w, "5m")
    assert h["patterns"] == patterns
    assert h["deltas"] == deltas


@pytest.mark.parametrize("missing", ["1z", "2z", "3z", "4z"])
def test_three_winds_are_not_four_winds(missing: str) -> None:
    # RULES.md 5.4 四风全齐 needs all four winds (triplets or the pair): three wind triplets
    # + 456p + 55m have no four_winds, whichever wind is missing.
    triplets = "".join(w[0] * 3 for w in ("1z", "2z", "3z", "4z") if w != missing) + "z"
    h = s1_self_draw(f"{triplets}55m56p", "4p")
    assert h["patterns"] == ["no_wild"] + (["seat_wind_pung"] if missing != "2z" else [])


def test_point_cap_of_1() -> None:
    # RULES.md 5.4 / D75: any cap P > 0 applies, 1 included: every 牌点 is 1, so every seat
    # with points gets ceil(0.1 or 0.05) = 1 from each other seat (TZ-1: S0, S1, S2).
    assert tz1({"point_cap": 1})["deltas"] == [1, 1, 1, -3]


def test_non_winner_seat_wind_from_a_dealer_after_him() -> None:
    # Dealer S3: S0 is the dealer's next, wind South 2z, and holds a natural 222z: 8 x 2^1
    # = 16 (D66). S1 self-draws READY + 4s: 48. S1 gets 5 (S3), 3 (S0), 3 (S2); S0 gets
    # ceil(1.6) = 2 (S3), ceil(0.8) = 1 (S1), 1 (S2). [1, 10, -4, -7].
    h = play(
        ["*222z", READY, "*", "*9p"],
        [(3, "discard", "9p"), (0, "discard", "9m"), (1, "hu")],
        draws="9m 4s",
        dealer=3,
    )
    assert (h["winner"], h["win_type"]) == (1, "self_draw")
    assert h["deltas"] == [1, 10, -4, -7]


def test_non_winner_concealed_simple_triplet_is_4_D66() -> None:
    # dealer_double: S2 holds 666m and 777z: (4 + 8) x 2^1 = 24, S2 gets ceil(4.8) = 5 from
    # the dealer and ceil(2.4) = 3 from S1 and S3. S1 (READY + 4s, 48) gets 10, 5, 5.
    # [-15, 17, 6, -8].
    h = play(
        ["*9p", READY, "*666m777z", "*"],
        [(0, "discard", "9p"), (1, "hu")],
        draws="4s",
        options={"settle_mode": "dealer_double"},
    )
    assert h["deltas"] == [-15, 17, 6, -8]


def test_baosanjia_all_one_suit_won_on_a_nine() -> None:
    # Trigger 2 in bamboo, won on 9s: chi 234s (S0), peng 555s and 666s (S2), 11s 78s wins
    # on S2's 9s. 胡 10 + 2 + 2 = 14; 番 all_one_suit 4 + no_wild 1 -> 448. S2 pays S1's
    # ceil(44.8) = 45 + ceil(22.4) = 23 + 23 = 91.
    h = play(
        ["*3s", "11s24s55s66s78s1z2z3z", "*5s6s9s", "*"],
        [
            (0, "discard", "3s"),
            (1, "chi", "24s"),
            (1, "discard", "1z"),
            (2, "discard", "5s"),
            (1, "peng"),
            (1, "discard", "2z"),
            (2, "discard", "6s"),
            (1, "peng"),
            (1, "discard", "3z"),
            (2, "discard", "9s"),
            (1, "hu"),
        ],
        draws="4p 5p 6p",
    )
    assert (h["winner"], h["from"]) == (1, 2)
    assert "all_one_suit" in h["patterns"]
    assert {i["kind"] for i in h["items"]} == {"baosanjia"}
    assert h["deltas"] == [0, 91, -91, 0]


def test_pair_of_a_dragon_is_worth_2_hu() -> None:
    # RULES.md 5.4: a pair of 7z is worth 2. 123m 456m 789m 46m 77z draws 5m: 胡 10 + 2
    # (pair) + 自摸 2 + 嵌档 2 = 16; 番 half_flush 2 + pang_hu 1 + no_wild 1 -> 256:
    # S0 ceil(25.6) = 26, S2/S3 ceil(12.8) = 13. (A pair worth 1 would give 240: 24, 12.)
    h = s1_self_draw("123m456m789m46m77z", "5m")
    assert h["patterns"] == ["half_flush", "pang_hu", "no_wild"]
    assert h["deltas"] == [-26, 52, -13, -13]


# == what a front end shows: restrictions in force and the arithmetic of each payment ==========
def _shown(st: HandState) -> list[list[tuple[str, str]]]:
    return [st.restrictions(s) for s in range(4)]


def _notes(st: HandState) -> list[tuple[str, int, int, int, str, str]]:
    return [(i.kind, i.payer, i.payee, i.points, i.note, i.reason) for i in st.result().items]


def test_restrictions_shown_wild_thrown_and_the_sheng_phase_5_1_5_2() -> None:
    # S1 throws a 得 (5.1): it is told it can no longer win -- also where it holds a hand
    # complete with S2's 2s (not "no discard win" then: no win at all).
    hands = ["*1z", "123m456p789s11s34s", "*2s", "*22s7z"]
    st = state(hands, draws="5m 9p 9m 5s 8p 2s", tail="6z", wild="5m")
    run(st, [(0, "discard", "1z"), (1, "discard", "5m")])
    assert _shown(st) == [[], [("wild_thrown", "")], [], []]
    do(st, 2, "discard", "2s")
    assert is_winning([*st.hand_tiles(1), t("2s")])
    assert _shown(st) == [[], [("wild_thrown", "")], [], []]
    # 生牌阶段 (R <= 30, 5.2) is shown to every seat, and only with the option on.
    for on in (True, False):
        st = state(["*9p", "*", "*", "*"], options={"sheng_phase": on})
        kit.tsumogiri_until(st, 31)
        assert not any(("sheng", "") in r for r in _shown(st))
        kit.tsumogiri_until(st, 30)
        assert all((("sheng", "") in r) is on for r in _shown(st))


def test_payment_notes_show_each_pai_dian_and_its_weight_5_4_5_5() -> None:
    # TZ-1: the winner's 胡 row by row, x 2^番, x the weight, rounded up to tens / 10; the
    # non-winners' melds the same way.
    st = replay_match(record(TZ1_HAND)).finished[0].state
    winner = "胡 26 (底胡 10 + 暗刻 8 + 嵌档 2 + 碰 4 + 自摸 2) x 2^2 = 104"
    s1 = "胡 2 (碰 2m 2) x 2^0 = 2"
    s2 = "胡 16 (明杠 1z 16) x 2^0 = 16"
    assert _notes(st) == [
        *[("hu", p, 0, 11, f"{winner}; x 1 = 104, rounded up to tens / 10 = 11", "self_draw")
          for p in (1, 2, 3)],
        ("points", 0, 1, 1, f"{s1}; x 1 = 2, rounded up to tens / 10 = 1", "points"),
        ("points", 2, 1, 1, f"{s1}; x 1/2 = 1, rounded up to tens / 10 = 1", "points"),
        ("points", 3, 1, 1, f"{s1}; x 1/2 = 1, rounded up to tens / 10 = 1", "points"),
        ("points", 0, 2, 2, f"{s2}; x 1 = 16, rounded up to tens / 10 = 2", "points"),
        ("points", 1, 2, 1, f"{s2}; x 1/2 = 8, rounded up to tens / 10 = 1", "points"),
        ("points", 3, 2, 1, f"{s2}; x 1/2 = 8, rounded up to tens / 10 = 1", "points"),
    ]  # fmt: skip
    # A discard completing a triplet (明刻) and a pair of 中 (对 2).
    st = state(["*5m", "123m456p789s55m77z", "*", "*"])
    run(st, [(0, "discard", "5m"), (1, "hu")])
    won = "胡 14 (底胡 10 + 明刻 2 + 对 2) x 2^1 = 28"
    assert [n[4] for n in _notes(st)] == [
        f"{won}; x 1 = 28, rounded up to tens / 10 = 3",
        f"{won}; x 1/2 = 14, rounded up to tens / 10 = 2",
        f"{won}; x 1/2 = 14, rounded up to tens / 10 = 2",
    ]
    # 包三家 (trigger 3): the liable seat pays each share, named with its trigger.
    st = state([f"{SHANTEN_2} 7z", "123m456p789s55m77z", "*", "*"])
    run(st, [(0, "discard", "7z"), (1, "hu")])
    won = "胡 14 (底胡 10 + 明刻 4) x 2^2 = 56"
    dealer = "x 1 = 56, rounded up to tens / 10 = 6"
    other = "x 1/2 = 28, rounded up to tens / 10 = 3"
    assert [(i[3], i[4], i[5]) for i in _notes(st)] == [
        (6, f"包三家 (中/发), for S0: {won}; {dealer}", "zhongfa"),
        (3, f"包三家 (中/发), for S2: {won}; {other}", "zhongfa"),
        (3, f"包三家 (中/发), for S3: {won}; {other}", "zhongfa"),
    ]
    assert {(i[0], i[1], i[2]) for i in _notes(st)} == {("baosanjia", 0, 1)}


def test_baosanjia_dragon_thrown_with_three_melds_declared() -> None:
    # Trigger 3 with four concealed tiles left: the dealer S0 pengs S1's 1p, 2s and 3m
    # (discarding 9m, 9p between) and throws 7z keeping 1m 4p 7s 1z: shanten 2 with the
    # three pengs as sets. S1 (123m 456p 789s 55m 77z) wins on it: 56, all paid by S0.
    h = play(
        ["11p22s33m1m4p7s1z7z9s9m9p", "123m456p789s55m77z", "*", "*"],
        [
            (0, "discard", "9s"),
            (1, "discard", "1p"),
            (0, "peng"),
            (0, "discard", "9m"),
            (1, "discard", "2s"),
            (0, "peng"),
            (0, "discard", "9p"),
            (1, "discard", "3m"),
            (0, "peng"),
            (0, "discard", "7z"),
            (1, "hu"),
        ],
        draws="1p 2s 3m",
    )
    assert (h["winner"], h["from"]) == (1, 0)
    assert {i["kind"] for i in h["items"]} == {"baosanjia"}
    assert h["deltas"] == [-12, 12, 0, 0]


def test_wild_with_a_natural_tile_is_no_pair_even_where_it_would_score_more_D63() -> None:
    # 111m 222m 333m 5m 得 78p draws 9p. Read 111m 222m 345m(得 = 4m) 789p + 33m: 胡 10 + 8
    # + 4 + 自摸 2 = 24 (no 番). With 得 + 5m as a pair (not allowed) 333m would count 4
    # more: 28. dealer_double: S0 pays ceil(4.8) = 5, S2/S3 ceil(2.4) = 3.
    h = s1_self_draw("111m222m333m5m5z78p", "9p", d0="1z", options={"settle_mode": "dealer_double"})
    assert h["patterns"] == ["basic_hand"]
    assert h["deltas"] == [-5, 11, -3, -3]


def test_restrictions_shown_wild_thrown_not_no_discard_win_with_a_claim_open_5_1() -> None:
    # S1 throws a 得 (5.1), then S2 discards 2s: S1 (123m 456p 789s 22s 33s) may peng it,
    # and its hand is complete with it, but it can no longer win at all: it is told that,
    # not that this discard cannot be won on.
    hands = ["*1z", "123m456p789s22s33s", "*2s", "*"]
    st = state(hands, draws="5m 9p", tail="6z", wild="5m")
    run(st, [(0, "discard", "1z"), (1, "discard", "5m"), (2, "discard", "2s")])
    assert "S1 peng" in legal(st, 1)
    assert is_winning([*st.hand_tiles(1), t("2s")])
    assert _shown(st)[1] == [("wild_thrown", "")]


def test_public_state_in_every_observation_5_1_5_2() -> None:
    # What every seat sees of taizhou's own state (docs/observation.md): the 熟 kinds
    # (5.2) and the seats that threw a 得 and may no longer win (5.1), empty at the deal.
    hands = ["*1z", "123m456p789s22s33s", "*", "*"]
    st = state(hands, draws="5m 9p", tail="6z", wild="5m")
    empty = {"known": [], "no_win": [], "wild_thrown": []}
    assert [dict(st.observation(s).variant_state) for s in range(4)] == [empty] * 4
    run(st, [(0, "discard", "1z"), (1, "discard", "5m")])
    seen = {"known": ["5m", "1z"], "no_win": [1], "wild_thrown": [1]}
    assert [dict(st.observation(s).variant_state) for s in range(4)] == [seen] * 4


def test_restrictions_shown_wild_thrown_first_and_none_after_the_hand_5_1_5_2() -> None:
    # S1 throws a 得, then passes a peng of S2's 1s: told first that it can no longer win,
    # then of its 能碰不碰.
    hands = ["*1z", "123m456p789s11s34s", "*1s", "*22s7z"]
    st = state(hands, draws="5m 9p", tail="6z", wild="5m")
    run(st, [(0, "discard", "1z"), (1, "discard", "5m"), (2, "discard", "1s")])
    assert "S1 peng" in legal(st, 1)
    run(st, [(1, "pass")])
    assert _shown(st)[1] == [("wild_thrown", ""), ("missed_peng", "1s")]
    # In the 生牌阶段 to the end of the wall (黄牌): nothing is shown once it is over.
    st = state(["*9p", "*", "*", "*"])
    kit.tsumogiri_until(st, 30)
    while not st.is_terminal():
        tsumogiri_step(st)
    assert _shown(st) == [[], [], [], []]


@pytest.mark.parametrize("flower", ["1f", "8f"])
def test_no_flowers_in_taizhou(flower: str) -> None:
    # RULES.md 5.1: 136 tiles, no flowers (常规模式无花牌); a deal naming one is refused.
    assert len(TAIZHOU.tile_counts) == 42 and sum(TAIZHOU.tile_counts) == 136
    hands = ["147m147p147s1234z 9p", "258m258p258s1234z", "369m369p369s1234z"]
    deal = partial_deal([*hands, "147m258p369s123z" + flower], reserved={"wild_indicator": "5z"})
    hand = hand_entry(deal, autoplay="tsumogiri")
    with pytest.raises(RecordError, match=f"more {flower} than the set holds"):
        replay(record(hand))


@pytest.mark.parametrize(
    ("dealer_hand", "kongs"),
    [
        # 123m 456m 222p 234p + 9s 1z: one from ready; konging 2p breaks 234p (two from ready)
        ("123m456m2222p34p9s1z", True),
        # 134m 12222p 33p 478p 4z: two from ready; konging 2p leaves it four from ready
        ("134m1222233478p4z", False),
    ],
)
def test_greedy_plus_declares_a_kong_one_step_slower_since_taizhou_kongs_pay_5_4(
    dealer_hand: str, kongs: bool
) -> None:
    # RULES.md 5.4: a kong pays by itself (exposed 8/16, concealed 16/32 胡), so taizhou's
    # PlayHints(kong=1) has greedy+ declare a concealed kong that leaves the hand one step
    # (shanten) further from ready, and not one two steps further. greedy (no hints) does
    # not give up a step for it.
    st = state([dealer_hand, "*", "*", "*"])
    obs = st.observation(0)
    assert "S0 kong 2p" in legal(st, 0)
    plus = GreedyPlusBot(random.Random(0)).act(obs, obs.legal)
    assert (plus.type == "kong" and plus.tile == t("2p")) is kongs, plus
    plain = GreedyBot(random.Random(0)).act(obs, obs.legal)
    assert plain.type == "discard", plain


def test_sheng_a_discard_chied_before_makes_its_kind_known_also_in_a_rebuilt_world_5_2() -> None:
    # 5.2: a raw tile is a kind nobody has discarded yet, claimed discards included. S0
    # discards 4m and S1 chis it with 35m; S2 later draws and discards a 4m, which S0 may
    # peng: that 4m is 熟 (known), not 生. A world rebuilt from any seat's view (the search
    # bot's, majiang.engine.world) says so too, though a chi does not show which kind it
    # claimed: 3m and 5m were never discarded, so the chi must have claimed the 4m.
    st = state(["*444m", "*35m1z", "*", "*"], draws="4m")
    run(st, [(0, "discard", "4m"), (1, "chi", "35m"), (1, "discard", "1z")])
    run(st, [(2, "discard", "4m")])
    assert st.phase == "claim" and "S0 peng" in legal(st, 0)
    real = st.variant_state
    assert isinstance(real, TaizhouState) and real.last is not None
    assert real.last.tile == t("4m") and not real.last.raw
    for seat in (0, 1, 2, 3, None):
        obs = st.observation(seat) if seat is not None else st.public_observation()
        world = world_from_observation(obs, hidden_of(st, seat))
        assert world.variant_state == real, seat
