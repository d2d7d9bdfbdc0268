"""One test per rule of RULES.md section 3 (hainan) that changes an outcome.

Every test builds a small majiang-record/1 in tile notation (partial deals:
the hands, draws and tail it needs) and replays it, or drives HandState
directly where what is *offered* matters. Expected numbers are worked out by
hand from RULES.md 3.5 in the comments (u = base_unit, s = dealer_wins).

Fillers. Hainan has chi, peng and kongs, so a filler hand holds 13 different
kinds with at least three steps between any two tiles of one suit (no chi is
possible) and no pair (no peng, no kong). ``fill(h)`` gives the three fillers
``147m147p147s+h``, ``258m258p258s+h`` and ``369m369p369s+h`` with four honours
``h``: together they hold every number kind exactly once and three copies of
each honour in ``h``, so a test knows exactly which tiles are left for it.
Fillers are far from ready, and every filler draw is discarded at once.

Unless a test says otherwise the dealer is seat 0 and s = 0; R starts at
144 - 53 = 91.
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
    legal,
    match_options,
    new_state,
    partial_deal,
    patterns_of,
    replay_one,
    run,
    start_of,
    t,
    ts,
)

from majiang.engine.match import Match
from majiang.engine.state import HandState, WinInfo
from majiang.engine.wall import full_set
from majiang.errors import IllegalActionError, RecordError
from majiang.hand import is_winning
from majiang.records import replay, replay_match
from majiang.rules.hainan import FAN, HAINAN
from majiang.tiles import Tile


def fill(h: str = "1234z") -> tuple[str, str, str]:
    """Three 13-tile fillers with the honours ``h`` (see the module docstring)."""
    return ("147m147p147s" + h, "258m258p258s" + h, "369m369p369s" + h)


F0, F2, F3 = fill()


# -- helpers (generic ones in recordkit) ------------------------------------------------
def check_sizes(hands: Sequence[str], dealer: int) -> None:
    """Every hand is given in full (nothing is filled from the seed)."""
    assert [len(ts(h)) for h in hands] == [14 if s == dealer else 13 for s in range(4)], hands


def hand(
    hands: Sequence[str],
    actions: Iterable[tuple[Any, ...]] = (),
    *,
    draws: str = "",
    tail: str = "",
    dealer: int | None = 0,
    autoplay: str | None = None,
) -> dict[str, Any]:
    """One hand of a record; actions are (seat, type[, tile]) tuples (chi: the two tiles)."""
    check_sizes(hands, 0 if dealer is None else dealer)
    deal = partial_deal(hands, draws=draws, tail=tail)
    return hand_entry(deal, actions, dealer=dealer, autoplay=autoplay, chi_names_tiles=True)


def record(
    *hands: dict[str, Any],
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    wins: int = 0,
    seed: int = 1,
) -> dict[str, Any]:
    """A hainan majiang-record/1."""
    counters = {"dealer_wins": wins}
    return kit.record("hainan", hands, options=options, dealer=dealer, counters=counters, seed=seed)


def play(
    hands: Sequence[str],
    actions: Iterable[tuple[Any, ...]] = (),
    *,
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    wins: int = 0,
    **deal: Any,
) -> dict[str, Any]:
    """Replay a one-hand record; the hand's majiang-result/1 entry."""
    h = hand(hands, actions, dealer=dealer, **deal)
    return replay_one(record(h, options=options, dealer=dealer, wins=wins))


def state1(
    hands: Sequence[str],
    *,
    draws: str = "",
    tail: str = "",
    options: dict[str, Any] | None = None,
    dealer: int = 0,
    wins: int = 0,
    seed: int = 1,
) -> HandState:
    """The start of a hand built from a partial deal, for driving HandState directly."""
    check_sizes(hands, dealer)
    deal = partial_deal(hands, draws=draws, tail=tail)
    opts = match_options(options, first_dealer=dealer)
    start = start_of(dealer, {"dealer_wins": wins})
    return new_state("hainan", deal, options=opts, start=start, seed=seed)


def after(hands: Sequence[str], actions: Iterable[tuple[Any, ...]], **kw: Any) -> HandState:
    return run(state1(hands, **kw), actions)


def tsumogiri_step(state: HandState) -> None:
    """One autoplay step: pass every open claim, else discard the drawn tile."""
    kit.tsumogiri_step(state, strict=True)


def advance(state: HandState, seat: int, live: int) -> None:
    """Autoplay until ``seat`` is in its action phase with R = ``live``."""
    for _ in range(400):
        if state.phase == "turn" and state.current == seat and state.live == live:
            return
        assert not state.is_terminal() and state.live >= live
        tsumogiri_step(state)
    raise AssertionError("not reached")


def padded_draws(
    hands: Sequence[str], fixed: dict[int, str], *, n: int = 76, avoid: str = "", tail: str = ""
) -> str:
    """``n`` ordinary draws: ``fixed[i]`` as the (i+1)-th draw and padding elsewhere.

    Padding: the tiles (no flowers) left after the hands, the fixed draws and the
    tail, in canonical order, without the kinds in ``avoid``.
    """
    left = [4] * 34
    for x in ts(" ".join([*hands, *fixed.values(), tail])):
        if x < 34:
            left[x] -= 1
    banned = set(ts(avoid))
    pad = iter([k for k in range(34) if k not in banned for _ in range(left[k])])
    tiles = []
    for i in range(n):
        if i in fixed:
            tiles.append(fixed[i])
        else:
            tiles.append(str(Tile(next(pad))))
    return " ".join(tiles)


# == 3.1 tiles ============================================================================
def test_tile_set_144_with_one_of_each_flower() -> None:
    tiles = full_set(HAINAN.tile_counts)
    assert len(tiles) == 144
    assert [tiles.count(x) for x in range(34, 42)] == [1] * 8
    assert all(tiles.count(x) == 4 for x in range(34))
    # a shuffled hand deals from all 144 tiles: 53 in hands (flowers included), 91 in the wall
    st = Match("hainan", {"first_dealer": 0}, 5).new_hand()
    dealt = [x for h in st.deal.hands for x in h]
    assert len(dealt) == 53 and len(st.deal.wall) == 91
    assert sorted(dealt + list(st.deal.wall)) == tiles
    # a deal may name 1f once, not twice
    ok = play([F0 + " 1f", F0.replace("1234z", "4567z"), F2, F3], tail="5z", autoplay="tsumogiri")
    assert ok["outcome"] == "draw"
    with pytest.raises(RecordError, match="1f"):
        replay(record(hand([F0 + " 1f", F0, F2, F3], draws="1f", autoplay="tsumogiri")))
    with pytest.raises(RecordError, match="1f"):
        replay(record(hand([F0 + " 1f", "1f" + F2[1:], F2, F3], autoplay="tsumogiri")))


# == 3.2 dealing, flowers =================================================================
def test_deal_time_flower_replacement_from_the_dealer_until_flower_free_D48() -> None:
    # Dealer S2. Dealt flowers: S2 1f; S3 3f 4f; S0 5f; S1 2f. Order S2, S3, S0, S1, each
    # seat until flower-free; back draws take the tail in order:
    #   S2 <- 1s;  S3 <- 2s, 6f (a flower: exposed, one more), 3s;  S0 <- 4s;  S1 <- 5s.
    hands = [
        "147m147p147s123z 5f",
        "258m258p258s123z 2f",
        "369m369p369s123z 1f 4z",
        "147m258p369s45z 3f4f",
    ]
    st = state1(hands, tail="1s 2s 6f 3s 4s 5s 6s", dealer=2)
    assert [sorted(f) for f in st.flowers] == [ts("5f"), ts("2f"), ts("1f"), ts("346f")]
    assert st.hand_tiles(2) == sorted(ts("369m369p369s123z4z 1s"))
    assert st.hand_tiles(3) == sorted(ts("147m258p369s45z 2s3s"))
    assert st.hand_tiles(0) == sorted(ts("147m147p147s123z 4s"))
    assert st.hand_tiles(1) == sorted(ts("258m258p258s123z 5s"))
    # R = 91 before the replacements, 91 - 6 back draws = 85 after
    assert st.live == 85
    assert st.current == 2 and "S2 discard 1s" in legal(st, 2)


def test_r_starts_at_91() -> None:
    assert state1([F0 + " 5z", F0, F2, F3]).live == 144 - 53


def test_flower_drawn_in_play_is_exposed_and_replaced_from_the_back() -> None:
    # S1 draws 2f: exposed, back draw 6f: exposed, back draw 9p. Then it konges 1z and
    # its replacement 7f is exposed and replaced by 8p.
    f0, f2, f3 = fill("2345z")
    st = state1([f0 + " 6z", "1111z147m147p147s", f2, f3], draws="2f", tail="6f 9p 7f 8p")
    do(st, 0, "discard", "6z")
    assert st.current == 1 and st.drawn == t("9p")
    assert st.flowers[1] == ts("2f6f")
    assert st.live == 91 - 3
    assert "S1 kong 1z" in legal(st, 1)
    do(st, 1, "kong", "1z")
    assert st.drawn == t("8p") and st.flowers[1] == ts("2f6f7f")
    assert st.live == 91 - 5
    assert sorted(st.hand_tiles(1)) == sorted(ts("147m147p147s 9p8p"))


# == 3.4 winning: 番 ======================================================================
# Most 番 are tested with one flow: S0 (dealer) discards y, its 14th tile; S1 claims it
# (peng, or chi with two tiles); S1 discards z; S2 draws x and discards it. The claim
# breaks `concealed`, so the hand's other 番 alone decide whether S1 may win on x.
# With 番: S2 (discarder) pays 20, S0 and S3 10 each -> deltas [-10, 40, -20, -10].
# Without: no win on x; S3 and S0 then discard two more tiles d, S1 draws the next x and
# wins by self-draw, which needs no 番: 20 from each -> [-20, 60, -20, -20].
def claim_flow(
    s1: str, claim: str, y: str, z: str, x: str, h: str = "1234z"
) -> tuple[list[str], list[tuple[Any, ...]]]:
    f0, f2, f3 = fill(h)
    c: tuple[Any, ...] = (1, "peng") if claim == "peng" else (1, "chi", claim)
    return [f"{f0} {y}", s1, f2, f3], [(0, "discard", y), c, (1, "discard", z), (2, "discard", x)]


def assert_fan_win(
    hands: list[str], acts: list[tuple[Any, ...]], x: str, patterns: list[str], **kw: Any
) -> None:
    st = after(hands, acts, draws=x, **kw)
    assert "S1 hu" in legal(st, 1)
    h = play(hands, [*acts, (1, "hu")], draws=x, **kw)
    assert (h["winner"], h["from"], h["win_type"]) == (1, 2, "discard")
    assert h["patterns"] == patterns
    assert h["deltas"] == [-10, 40, -20, -10]


def assert_no_fan(
    hands: list[str], acts: list[tuple[Any, ...]], x: str, d: str, **kw: Any
) -> dict[str, Any]:
    st = after(hands, acts, draws=x, **kw)
    assert is_winning([*st.hand_tiles(1), t(x)])  # the shape is complete ...
    assert "S1 hu" not in legal(st, 1)  # ... but without 番 there is no win on a discard
    d1, d2 = d.split()
    more = [(3, "discard", d1), (0, "discard", d2), (1, "hu")]
    h = play(hands, [*acts, *more], draws=f"{x} {d} {x}", **kw)
    assert (h["winner"], h["win_type"], h["patterns"]) == (1, "self_draw", ["self_draw"])
    return h


def no_fan_self_draw(hands: list[str], acts: list[tuple[Any, ...]], x: str, d: str) -> None:
    h = assert_no_fan(hands, acts, x, d)
    assert h["deltas"] == [-20, 60, -20, -20]


# A hand with no 番 at all: peng 555m + 123m 456p 789s 99p (pair 9p; mixed suits).
NO_FAN = "55m 1s 123m 456p 789s 9p"


def test_discard_win_needs_fan_self_draw_does_not() -> None:
    hands, acts = claim_flow(NO_FAN, "peng", "5m", "1s", "9p")
    no_fan_self_draw(hands, acts, "9p", "2z 3z")


def test_fan_only_chows() -> None:
    # chi 123m<S0 + 456p 567s 789s 99m: four sequences, pair 9m -> only_chows alone.
    hands, acts = claim_flow("12m 99m 9p 456p 67s 789s", "12m", "3m", "9p", "5s")
    assert_fan_win(hands, acts, "5s", ["only_chows"])
    # 444p instead of 456p: a triplet among the sets, no 番
    hands, acts = claim_flow("12m 99m 9p 444p 67s 789s", "12m", "3m", "9p", "5s")
    no_fan_self_draw(hands, acts, "5s", "5z 6z")


def test_fan_concealed() -> None:
    # S1 = 111z 456p 789s 56s 44p wins on S0's 4s with no meld: concealed alone
    # (111z is neither a dragon nor S1's seat wind 2z). S0 (dealer, discarder) pays 20,
    # S2 and S3 10 each.
    f0, f2, f3 = fill("4567z")
    hands = [f0 + " 4s", "111z 456p 789s 56s 44p", f2, f3]
    st = after(hands, [(0, "discard", "4s")])
    assert "S1 hu" in legal(st, 1)
    h = play(hands, [(0, "discard", "4s"), (1, "hu")])
    assert (h["winner"], h["from"], h["patterns"]) == (1, 0, ["concealed"])
    assert h["deltas"] == [-20, 40, -10, -10]
    # the same hand with 111z as a peng: no 番
    hands, acts = claim_flow("11z 9p 456p 789s 56s 44p", "peng", "1z", "9p", "4s", "4567z")
    no_fan_self_draw(hands, acts, "4s", "2z 3z")


def test_fan_concealed_broken_by_concealed_kong_D40() -> None:
    # S1 = 1111z 456p 789s 56s 4p draws 3z, konges 1111z, gets 4p from the back, discards
    # 3z. S2's 4s would complete ckong 1z + 456p 456s 789s 44p, but the kong breaks
    # `concealed`, so no win; S1 then self-draws the next 4s.
    f0, f2, f3 = fill("4567z")
    hands = [f0 + " 2z", "1111z 456p 789s 56s 4p", f2, f3]
    acts: list[tuple[Any, ...]] = [
        (0, "discard", "2z"),
        (1, "kong", "1z"),
        (1, "discard", "3z"),
        (2, "discard", "4s"),
    ]
    st = after(hands, acts, draws="3z 4s", tail="4p")
    assert st.melds[1][0].kind == "kong_concealed"
    assert is_winning([*st.hand_tiles(1), t("4s")])
    assert "S1 hu" not in legal(st, 1)
    more = [(3, "discard", "2z"), (0, "discard", "3z"), (1, "hu")]
    h = play(hands, [*acts, *more], draws="3z 4s 2z 3z 4s", tail="4p")
    assert (h["winner"], h["win_type"], h["patterns"]) == (1, "self_draw", ["self_draw"])
    # self-draw 20 from each (+60) and concealed kong 20 from each (+60): S1 +120
    assert h["deltas"] == [-40, 120, -40, -40]


def test_fan_all_pungs() -> None:
    # peng 444m<S0 + 555p 666s 111z + 99m (tanki 9m): all_pungs alone.
    hands, acts = claim_flow("44m 1s 555p 666s 111z 9m", "peng", "4m", "1s", "9m", "4567z")
    assert_fan_win(hands, acts, "9m", ["all_pungs"])
    # 456p instead of 555p: no 番
    hands, acts = claim_flow("44m 1s 456p 666s 111z 9m", "peng", "4m", "1s", "9m", "4567z")
    no_fan_self_draw(hands, acts, "9m", "2z 3z")
    # chi 123m instead of peng 444m (three concealed triplets): not all_pungs, no 番
    hands, acts = claim_flow("23m 1s 555p 666s 111z 9m", "23m", "1m", "1s", "9m", "4567z")
    no_fan_self_draw(hands, acts, "9m", "2z 3z")


def test_fan_all_one_suit() -> None:
    # peng 111m<S0 + 234m 456m 678m 99m: all characters -> all_one_suit alone.
    hands, acts = claim_flow("11m 5z 234m 456m 78m 99m", "peng", "1m", "5z", "6m")
    assert_fan_win(hands, acts, "6m", ["all_one_suit"])
    # 234p instead of 234m: no 番
    hands, acts = claim_flow("11m 5z 234p 456m 78m 99m", "peng", "1m", "5z", "6m")
    no_fan_self_draw(hands, acts, "6m", "6z 7z")
    # characters and honours (pair 55z instead of 99m): not all_one_suit, no 番
    hands, acts = claim_flow("11m 7z 234m 456m 78m 55z", "peng", "1m", "7z", "6m")
    no_fan_self_draw(hands, acts, "6m", "6z 7z")


def test_fan_pair_258() -> None:
    # peng 666m<S0 + 123p 456s 789s + 55p: pair_258 alone.
    hands, acts = claim_flow("66m 1s 123p 789s 456s 5p", "peng", "6m", "1s", "5p")
    assert_fan_win(hands, acts, "5p", ["pair_258"])
    # pair 44p instead: no 番
    hands, acts = claim_flow("66m 1s 123p 789s 456s 4p", "peng", "6m", "1s", "4p")
    no_fan_self_draw(hands, acts, "4p", "5z 6z")


@pytest.mark.parametrize("dragon", ["5z", "6z", "7z"])
def test_fan_dragon_pung_exposed(dragon: str) -> None:
    # peng of a dragon + 123m 456p 789s 99p: dragon_pung alone (NO_FAN with the peng of 5m
    # replaced by the dragon).
    n = dragon[0]
    hands, acts = claim_flow(f"{n}{n}z 1s 123m 456p 789s 9p", "peng", dragon, "1s", "9p")
    assert_fan_win(hands, acts, "9p", ["dragon_pung"])


@pytest.mark.parametrize("dragon", ["6z", "7z"])
def test_fan_dragon_pung_concealed_D39(dragon: str) -> None:
    # chi 123m<S0 + concealed 666z or 777z + 456p 789s 99p: dragon_pung alone (中 and 发:
    # 明刻暗刻均可). A concealed 555z gives none: test_fan_white_pung_only_exposed_or_kong_D39.
    n = dragon[0]
    hands, acts = claim_flow(f"23m 1s {n}{n}{n}z 456p 789s 9p", "23m", "1m", "1s", "9p")
    assert_fan_win(hands, acts, "9p", ["dragon_pung"])
    # the same with 555m: no 番 (test_discard_win_needs_fan_self_draw_does_not for the peng)
    hands, acts = claim_flow("23m 1s 555m 456p 789s 9p", "23m", "1m", "1s", "9p")
    no_fan_self_draw(hands, acts, "9p", "5z 6z")


def test_fan_white_pung_only_exposed_or_kong_D39() -> None:
    """RULES.md 3.4 / D39 (corrected 2026-12-01): 白 gives 番 only as a peng, a kong of any
    kind, or a triplet completed by the winning discard — never as a concealed triplet
    (list A names only 红中 and 发财 for 明刻暗刻均可). Legality follows (有番才能胡)."""
    # 1. chi 123m<S0 + concealed 555z + 456p 789s 9p: S2's 9p completes the shape with no
    #    番 (the old reading gave dragon_pung and the win), so S1 only self-draws the next 9p:
    #    20 from each -> [-20, 60, -20, -20].
    hands, acts = claim_flow("23m 1s 555z 456p 789s 9p", "23m", "1m", "1s", "9p")
    no_fan_self_draw(hands, acts, "9p", "6z 7z")
    # 2. chi 123m<S0 + 55z 99p 456p 789s: S2's 5z completes 555z, a peng (RULES.md 0.6):
    #    dragon_pung; S2 pays 20, S0 and S3 10 each -> [-10, 40, -20, -10].
    hands, acts = claim_flow("23m 1s 55z 99p 456p 789s", "23m", "1m", "1s", "5z")
    assert_fan_win(hands, acts, "5z", ["dragon_pung"])
    # ... while S2's 9p (999p, pair 55z) gives no 番 and no win
    hands9, acts9 = claim_flow("23m 1s 55z 99p 456p 789s", "23m", "1m", "1s", "9p")
    st = after(hands9, acts9, draws="9p")
    assert is_winning([*st.hand_tiles(1), t("9p")]) and "S1 hu" not in legal(st, 1)
    # 3. the same hand self-draws 5z: 555z is concealed, so no dragon_pung (old: it had).
    #    S2 discards 6z, S3 6z, S0 7z; S1 draws 5z: 20 from each -> [-20, 60, -20, -20].
    hands, acts = claim_flow("23m 1s 55z 99p 456p 789s", "23m", "1m", "1s", "6z")
    more = [(3, "discard", "6z"), (0, "discard", "7z"), (1, "hu")]
    h = play(hands, [*acts, *more], draws="6z 6z 7z 5z")
    assert (h["winner"], h["win_type"], h["patterns"]) == (1, "self_draw", ["self_draw"])
    assert h["deltas"] == [-20, 60, -20, -20]
    # 4. a concealed kong of 白 counts (碰或杠, 包括明杠暗杠): S1 = 5555z 123m 456p 78s 9p
    #    draws 3z, konges 5z, gets 9p from the back, discards 3z and wins on S2's 9s with
    #    dragon_pung alone. Hu: S2 20, S0 10, S3 10; kong: 20 from each of S0 S2 S3
    #    -> [-30, 100, -40, -30].
    f0, f2, f3 = fill()
    hands = [f0 + " 2z", "5555z 123m 456p 78s 9p", f2, f3]
    acts = [(0, "discard", "2z"), (1, "kong", "5z"), (1, "discard", "3z"), (2, "discard", "9s")]
    st = after(hands, acts, draws="3z 9s", tail="9p")
    assert st.melds[1][0].kind == "kong_concealed" and "S1 hu" in legal(st, 1)
    h = play(hands, [*acts, (1, "hu")], draws="3z 9s", tail="9p")
    assert (h["winner"], h["from"], h["patterns"]) == (1, 2, ["dragon_pung"])
    assert h["deltas"] == [-30, 100, -40, -30]


def test_fan_seat_wind_pung_exposed_and_concealed_D44() -> None:
    # S1 is pos 1 (South, 2z). peng 222z<S0 + 123m 456p 789s 99p: seat_wind_pung alone.
    hands, acts = claim_flow("22z 1s 123m 456p 789s 9p", "peng", "2z", "1s", "9p", "1345z")
    assert_fan_win(hands, acts, "9p", ["seat_wind_pung"])
    # concealed 222z with chi 123m<S0
    hands, acts = claim_flow("23m 1s 222z 456p 789s 9p", "23m", "1m", "1s", "9p", "1345z")
    assert_fan_win(hands, acts, "9p", ["seat_wind_pung"])
    # peng 444z (North, not S1's wind): no 番
    hands, acts = claim_flow("44z 1s 123m 456p 789s 9p", "peng", "4z", "1s", "9p", "3567z")
    no_fan_self_draw(hands, acts, "9p", "1z 3z")


# Position-general flow for S1 (pos = (1 - dealer) mod 4): the dealer discards y (S1 the
# dealer: S1 discards e, S2 draws y and discards it); S1 pengs y, discards z; S2 draws x
# and discards it.
def s1_peng_flow(
    dealer: int, s1: str, y: str, z: str, x: str, h: str, e: str
) -> tuple[list[str], list[tuple[Any, ...]], str]:
    fills = iter(fill(h))
    hands = []
    for seat in range(4):
        if seat == 1:
            hands.append(f"{s1} {e}" if dealer == 1 else s1)
        else:
            f = next(fills)
            hands.append(f"{f} {y}" if seat == dealer else f)
    tail: list[tuple[Any, ...]] = [(1, "peng"), (1, "discard", z), (2, "discard", x)]
    if dealer == 1:
        return hands, [(1, "discard", e), (2, "discard", y), *tail], f"{y} {x}"
    return hands, [(dealer, "discard", y), *tail], x


SEAT_FLOWERS = {0: "1f5f", 1: "2f6f", 2: "3f8f", 3: "4f7f"}  # RULES.md 3.1, by position


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_seat_wind_by_position_from_dealer_D44(dealer: int) -> None:
    # S1 pengs a wind W and is otherwise NO_FAN: it may win on 9p iff W is its seat wind
    # (pos 0 East 1z, 1 South 2z, 2 West 3z, 3 North 4z).
    pos = (1 - dealer) % 4
    for n in "1234":
        others = [w for w in "1234" if w != n]
        hands, acts, draws = s1_peng_flow(
            dealer,
            f"{n}{n}z 1s 123m 456p 789s 9p",
            f"{n}z",
            "1s",
            "9p",
            f"567{others[0]}z",
            f"{others[1]}z",
        )
        st = after(hands, acts, draws=draws, dealer=dealer)
        assert st.melds[1][0].tiles[0] == t(f"{n}z")
        assert ("S1 hu" in legal(st, 1)) == (int(n) == pos + 1), (dealer, n)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_fan_seat_flower_by_position_from_dealer(dealer: int) -> None:
    # S1 holds one flower (dealt; replaced by 1s from the back) and NO_FAN: it may win on
    # 9p iff the flower is one of its two seat flowers, exactly as 3.1 pairs them.
    pos = (1 - dealer) % 4
    for f in range(1, 9):
        flower = f"{f}f"
        s1 = f"55m 123m 456p 789s 9p {flower}"
        hands, acts, draws = s1_peng_flow(dealer, s1, "5m", "1s", "9p", "1234z", "5z")
        st = after(hands, acts, draws=draws, tail="1s", dealer=dealer)
        assert st.flowers[1] == ts(flower)
        seat_flower = flower in SEAT_FLOWERS[pos]
        assert ("S1 hu" in legal(st, 1)) == seat_flower, (dealer, flower)
        if seat_flower:
            h = play(hands, [*acts, (1, "hu")], draws=draws, tail="1s", dealer=dealer)
            assert (h["winner"], h["patterns"]) == (1, ["seat_flower"])


def test_fan_seat_flower_drawn_in_play() -> None:
    # S1 (pos 1) draws 2f in play: exposed, replaced by 1s. It discards 4z, pengs S2's 5m,
    # discards 1s and wins on S2's 9p with NO_FAN + 2f: seat_flower.
    s1 = "55m 123m 456p 789s 9p 4z"
    hands = [F0 + " 5z", s1, F2, F3]
    acts: list[tuple[Any, ...]] = [
        (0, "discard", "5z"),
        (1, "discard", "4z"),
        (2, "discard", "5m"),
        (1, "peng"),
        (1, "discard", "1s"),
        (2, "discard", "9p"),
        (1, "hu"),
    ]
    h = play(hands, acts, draws="2f 5m 9p", tail="1s")
    assert (h["winner"], h["from"], h["patterns"]) == (1, 2, ["seat_flower"])
    # S2 20, S0 10, S3 10
    assert h["deltas"] == [-10, 40, -20, -10]
    # with 3f (pos 2's flower) instead the same discard cannot be won
    st = after(hands, acts[:-1], draws="3f 5m 9p", tail="1s")
    assert st.flowers[1] == ts("3f") and "S1 hu" not in legal(st, 1)


def test_fan_thirteen_orphans_D45() -> None:
    hands = [F0 + " 9s", "19m19p19s1234567z", F2, F3]
    h = play(hands, [(0, "discard", "9s"), (1, "hu")])
    # no meld, so `concealed` comes with it; S0 pays 20, S2 and S3 10
    assert (h["winner"], h["patterns"]) == (1, ["concealed", "thirteen_orphans"])
    assert h["deltas"] == [-20, 40, -10, -10]
    # by self-draw too (S0 discards 5m, S1 draws 9s)
    h = play(
        [F0 + " 5m", "19m19p19s1234567z", F2, F3], [(0, "discard", "5m"), (1, "hu")], draws="9s"
    )
    assert (h["win_type"], h["patterns"]) == (
        "self_draw",
        ["concealed", "thirteen_orphans", "self_draw"],
    )
    # one orphan short (5m instead of 7z): no winning shape, nothing offered
    st = after([F0 + " 9s", "19m19p19s123456z5m", F2, F3], [(0, "discard", "9s")], draws="5p")
    assert st.phase == "turn" and st.current == 1 and st.drawn == t("5p")  # no claim window


def test_fan_seven_pairs_quadruple_counts_as_two_pairs_no_258_D47() -> None:
    # 11m 33m 22p 66p 99s + 5555z (two pairs): seven_pairs; the 22p pair gives no
    # pair_258 (standard shape only), the 5555z no dragon_pung (not a triplet here).
    hands = [F0 + " 3m", "11m 22p 66p 99s 5555z 3m", F2, F3]
    h = play(hands, [(0, "discard", "3m"), (1, "hu")])
    assert (h["winner"], h["patterns"]) == (1, ["concealed", "seven_pairs"])
    assert h["deltas"] == [-20, 40, -10, -10]
    h = play([F0 + " 3m", "11m 22p 66p 99s 55z 77z 3m", F2, F3], [(0, "discard", "3m"), (1, "hu")])
    assert h["patterns"] == ["concealed", "seven_pairs"]
    # 555z 7z: neither seven pairs nor standard
    st = after(
        [F0 + " 3m", "11m 22p 66p 99s 555z 7z 3m", F2, F3], [(0, "discard", "3m")], draws="5p"
    )
    assert st.phase == "turn" and st.current == 1 and st.drawn == t("5p")  # no claim window


# Robbing. S1 pengs S0's 5s, discards 7p; S2 pengs it and discards 1s: S2 = peng 777p +
# 234m 678m 99m 46s waits on 5s with no 番. S3 and S0 discard 5z 6z, S1 draws the 4th 5s.
ROB_HANDS = [F0 + " 5s", "148m14p7p55s9s1234z", "77p 1s 234m 678m 99m 46s", F3]
ROB_DRAWS = "5z 6z 5s"
ROB_ACTIONS: list[tuple[Any, ...]] = [
    (0, "discard", "5s"),
    (1, "peng"),
    (1, "discard", "7p"),
    (2, "peng"),
    (2, "discard", "1s"),
    (3, "discard", "5z"),
    (0, "discard", "6z"),
]


def test_fan_rob_kong_and_its_payment() -> None:
    st = after(ROB_HANDS, [*ROB_ACTIONS, (1, "kong", "5s")], draws=ROB_DRAWS)
    assert st.phase == "rob" and legal(st, 2) == {"S2 hu", "S2 pass"}
    h = play(ROB_HANDS, [*ROB_ACTIONS, (1, "kong", "5s"), (2, "hu")], draws=ROB_DRAWS)
    assert (h["winner"], h["from"], h["win_type"]) == (2, 1, "rob_kong")
    assert h["patterns"] == ["rob_kong"]
    # as a discard win by the konger: S1 20, S0 10, S3 10; the robbed kong is not paid
    assert h["deltas"] == [-10, -20, 40, -10]
    assert items(h, "kong") == []
    # the same 5s discarded instead of added: S2 (no 番) may chi it, not win
    st = after(ROB_HANDS, [*ROB_ACTIONS, (1, "discard", "5s")], draws=ROB_DRAWS)
    assert is_winning([*st.hand_tiles(2), t("5s")])
    assert legal(st, 2) == {"S2 chi 46s", "S2 pass"}


def test_rob_only_added_kong_not_concealed() -> None:
    # S2 = 777p 234m 678m 99m 46s waits on 5s (concealed: it could win on a discard).
    # S1 draws 6z and konges 5555s: no robbing window, S1 draws its replacement 7z.
    hands = [F0 + " 5z", "5555s 148m 14p 9s 123z", "777p 234m 678m 99m 46s", F3]
    st = after(hands, [(0, "discard", "5z"), (1, "kong", "5s")], draws="6z", tail="7z")
    assert st.phase == "turn" and st.current == 1 and st.drawn == t("7z")
    assert legal(st, 2) == set()


def test_rob_not_direct_kong() -> None:
    # S1 konges S0's discarded 5s (S2 passes on its win): no robbing window after it.
    hands = [F0 + " 5s", "555s 148m 14p 9s 1234z", "777p 234m 678m 99m 46s", F3]
    st = after(hands, [(0, "discard", "5s")], tail="7z")
    assert legal(st, 2) == {"S2 hu", "S2 pass"}
    assert "S1 kong 5s" in legal(st, 1)
    do(st, 2, "pass")
    do(st, 1, "kong", "5s")
    assert st.phase == "turn" and st.current == 1 and st.drawn == t("7z")
    assert legal(st, 2) == set()


# == 3.2 end of the wall ==================================================================
# With no claims and no back draws the k-th ordinary draw is made by seat k mod 4 and leaves
# R = 91 - k: S3 makes the 75th (R = 16), S0 the 76th (R = 15), S3 also the 71st (R = 20)
# and S2 the 74th (R = 17).
# Draws are padded with tiles that every seat discards at once (tsumogiri); claims offered
# on the padding are passed.
#
# Deal A: S3 will discard 5m. S0 (46m) could chi it, S1 (555m) peng or kong it, S2
# (46m 123p 456p 789s 77z, concealed) win on it.
WALL_A = ["469m147p147s1234z 5z", "555m258p258s1234z", "46m123p456p789s77z", "147m369p369s1345z"]


@pytest.mark.parametrize("live", [20, 17, 16])
def test_discard_after_draw_leaving_16_only_claimable_for_a_win(live: int) -> None:
    # the draw leaving R = live is the (91 - live)-th: S3 for 20 and 16, S2 for 17
    seat = (91 - live) % 4
    st = state1(WALL_A, draws=padded_draws(WALL_A, {90 - live: "5m"}))
    advance(st, seat, live)
    assert st.drawn == t("5m")
    do(st, seat, "discard", "5m")
    if live == 17:
        # S2's own 5m: S1 may still peng or kong it (S3, S2's next, has no chi)
        assert {"S1 kong 5m", "S1 peng"} <= legal(st, 1)
        return
    assert legal(st, 2) >= {"S2 hu", "S2 pass"}
    if live == 20:
        assert "S0 chi 46m" in legal(st, 0)
        assert {"S1 kong 5m", "S1 peng"} <= legal(st, 1)
    else:
        assert legal(st, 0) == set() and legal(st, 1) == set()
        assert legal(st, 2) == {"S2 hu", "S2 pass"}
        do(st, 2, "hu")
        res = st.result()
        assert res.win is not None and (res.win.winner, res.win.source) == (2, 3)
        # S3 discarded: 20; S0 and S1 10 each
        assert res.deltas == [-10, -10, 40, -20]


# Deal B: S0 = 1111m 23m 567p 789s 5s waits on 5s (and holds four 1m);
# S3 = 666z 234m 567p 789s 1s waits on 1s.
WALL_B = [
    "1111m 23m 567p 789s 5s 7z",
    "258m258p258s1234z",
    "369m369p369s1234z",
    "666z234m567p789s1s",
]
WALL_B_AVOID = "5s 1s 6z"


def wall_b(fixed: dict[int, str], tail: str = "2p", **kw: Any) -> HandState:
    draws = padded_draws(WALL_B, fixed, avoid=WALL_B_AVOID, tail=tail)
    return state1(WALL_B, draws=draws, tail=tail, **kw)


def test_draw_leaving_15_allows_only_a_self_draw() -> None:
    st = wall_b({75: "5s"})
    advance(st, 0, 15)
    assert st.drawn == t("5s")
    # no discard, and no kong of the four 1m either
    assert legal(st, 0) == {"S0 hu", "S0 pass"}
    with pytest.raises(IllegalActionError):
        do(st, 0, "discard", "5s")
    do(st, 0, "hu")
    res = st.result()
    assert res.win is not None and res.win.win_type == "self_draw"
    # dealer self-draw: 20 from each
    assert res.deltas == [60, -20, -20, -20]


def test_draw_leaving_15_without_a_win_draws_the_hand() -> None:
    st = wall_b({75: "9p"})
    advance(st, 0, 15)
    assert legal(st, 0) == {"S0 pass"}
    do(st, 0, "pass")
    assert st.result().outcome == "draw" and st.live == 15
    # in a record: tsumogiri passes on the last tile; no draw is made at R = 15
    draws = padded_draws(WALL_B, {75: "9p"}, avoid=WALL_B_AVOID, tail="2p")
    h = play(WALL_B, draws=draws, tail="2p", autoplay="tsumogiri")
    assert (h["outcome"], h["deltas"]) == ("draw", [0, 0, 0, 0])


def test_kong_while_r_at_least_16_then_only_self_draw() -> None:
    # S3 draws the 4th 6z leaving R = 16: it may kong; the replacement (2p) leaves R = 15,
    # so S3 may then only win or pass.
    st = wall_b({74: "6z"})
    advance(st, 3, 16)
    assert "S3 kong 6z" in legal(st, 3)
    do(st, 3, "kong", "6z")
    assert st.drawn == t("2p") and st.live == 15
    assert legal(st, 3) == {"S3 pass"}
    do(st, 3, "pass")
    assert st.result().outcome == "draw"


@pytest.mark.parametrize("pay_on_draw", [False, True])
def test_kongs_unpaid_in_a_drawn_hand_unless_kong_pay_on_draw_D42(pay_on_draw: bool) -> None:
    st = wall_b({74: "6z"}, options={"kong_pay_on_draw": pay_on_draw})
    advance(st, 3, 16)
    do(st, 3, "kong", "6z")
    do(st, 3, "pass")
    res = st.result()
    assert res.outcome == "draw"
    # concealed kong of S3: 20 from each, only with kong_pay_on_draw
    assert res.deltas == ([-20, -20, -20, 60] if pay_on_draw else [0, 0, 0, 0])


def test_flower_as_last_tile_draws_the_hand() -> None:
    # S0's draw leaving R = 15 is 8f: exposed, not replaced (R stays 15), the hand is drawn
    st = wall_b({75: "8f"})
    advance(st, 3, 16)
    tsumogiri_step(st)  # S3 discards
    if not st.is_terminal():
        st.close_window()
    assert st.is_terminal() and st.result().outcome == "draw"
    assert st.flowers[0] == ts("8f") and st.live == 15
    assert st.hand_tiles(0) == sorted(ts("1111m 23m 567p 789s 5s"))


def test_flower_drawn_leaving_16_is_replaced_then_only_self_draw() -> None:
    # S3's draw leaving R = 16 is 7f (its seat flower, pos 3): replaced by 1s from the
    # back (R = 15), which completes S3; it may only win or pass.
    st = wall_b({74: "7f"}, tail="1s")
    advance(st, 3, 15)
    assert st.flowers[3] == ts("7f") and st.drawn == t("1s")
    assert legal(st, 3) == {"S3 hu", "S3 pass"}
    do(st, 3, "hu")
    res = st.result()
    assert res.win is not None and res.win.win_type == "self_draw"
    assert res.patterns == ("concealed", "dragon_pung", "seat_flower", "self_draw")
    assert res.deltas == [-20, -20, -20, 60]


# == 3.3 claims ===========================================================================
# S1 and S2 both hold 23m. S0's 4m: only S1 (its next) may chi it. S1's 1m: only S2 may
# chi it. S3's 4m: S0 is S3's next; S1 and S2 may not chi it.
CHI_HANDS = ["17m258p369s12345z 4m", "239m147p147s4567z", "238m258p258s4567z", "147m369p369s1234z"]


def test_chi_only_from_the_previous_seat() -> None:
    st = state1(CHI_HANDS, draws="1m 5z 4m")
    do(st, 0, "discard", "4m")
    assert legal(st, 1) == {"S1 chi 23m", "S1 pass"}
    assert legal(st, 2) == set() and legal(st, 3) == set()
    do(st, 1, "pass")
    do(st, 1, "discard", "1m")
    assert legal(st, 2) == {"S2 chi 23m", "S2 pass"}
    assert legal(st, 3) == set() and legal(st, 0) == set()
    do(st, 2, "pass")
    do(st, 2, "discard", "5z")
    do(st, 3, "discard", "4m")
    assert st.phase == "turn" and st.current == 0  # nobody may claim S3's 4m
    rec = record(
        hand(
            CHI_HANDS,
            [
                (0, "discard", "4m"),
                (1, "pass"),
                (1, "discard", "1m"),
                (2, "pass"),
                (2, "discard", "5z"),
                (3, "discard", "4m"),
                (1, "chi", "23m"),
            ],
            draws="1m 5z 4m",
        )
    )
    with pytest.raises(RecordError, match=r"action 6, seat 1"):
        replay(rec)


def test_peng_has_priority_over_chi() -> None:
    # S0's 4m: S1 may chi (23m), S2 may peng (44m). Both claim, the chi listed first:
    # the peng is executed although S1 is nearer after S0.
    hands = ["17m258p369s12345z 4m", "239m147p147s4567z", "448m258p258s1567z", "147m369p369s1234z"]
    st = state1(hands)
    do(st, 0, "discard", "4m")
    do(st, 1, "chi", "23m")
    do(st, 2, "peng")
    assert st.current == 2 and [m.kind for m in st.melds[2]] == ["peng"]
    assert st.melds[1] == [] and st.hand_tiles(1) == sorted(ts("239m147p147s4567z"))
    # without the peng the chi is executed
    st = state1(hands)
    do(st, 0, "discard", "4m")
    do(st, 1, "chi", "23m")
    do(st, 2, "pass")
    assert st.current == 1 and [m.kind for m in st.melds[1]] == ["chi"]


def test_kong_has_priority_over_chi() -> None:
    hands = ["17m258p369s12345z 4m", "239m147p147s4567z", "158m258p258s1567z", "4449m369p369s123z"]
    st = state1(hands, tail="6z")
    do(st, 0, "discard", "4m")
    assert legal(st, 3) == {"S3 kong 4m", "S3 peng", "S3 pass"}
    do(st, 1, "chi", "23m")
    do(st, 3, "kong", "4m")
    assert st.current == 3 and [m.kind for m in st.melds[3]] == ["kong_direct"]
    assert st.drawn == t("6z") and st.melds[1] == []


# S2 draws and discards 5z; S3, S0 and S1 each wait on 5z (tanki, no meld: `concealed`).
JIE_HANDS = [
    "234m567p789s345s5z 7z",
    "123m456p789p111s5z",
    "147m258p369s1234z",
    "456m123p678s111z5z",
]
JIE_ACTIONS: list[tuple[Any, ...]] = [
    (0, "discard", "7z"),
    (1, "discard", "6z"),
    (2, "discard", "5z"),
]


def test_one_winner_per_discard_first_after_the_discarder() -> None:
    st = after(JIE_HANDS, JIE_ACTIONS, draws="6z 5z")
    assert {s: legal(st, s) for s in (0, 1, 3)} == {
        s: {f"S{s} hu", f"S{s} pass"} for s in (0, 1, 3)
    }
    # all three claim (listed S0, S1, S3): S3, S2's next, wins alone.
    # S2 pays 20, S0 and S1 10 each.
    h = play(JIE_HANDS, [*JIE_ACTIONS, (0, "hu"), (1, "hu"), (3, "hu")], draws="6z 5z")
    assert (h["winner"], h["from"]) == (3, 2)
    assert h["deltas"] == [-10, -10, -20, 40]
    # S3 passes: S0 (opposite of S2) before S1 (previous of S2)
    h = play(JIE_HANDS, [*JIE_ACTIONS, (1, "hu"), (3, "pass"), (0, "hu")], draws="6z 5z")
    assert (h["winner"], h["from"]) == (0, 2)
    assert h["deltas"] == [40, -10, -20, -10]


def test_no_missed_win_or_missed_peng_restriction_D46() -> None:
    # S1 = 123m 456p 789p 11s 55z waits on 1s / 5z. It passes on S2's 5z (win and peng
    # offered) and may still win on, or peng, S3's 5z before its own next draw.
    hands = [F0 + " 7z", "123m456p789p11s55z", F2, F3]
    acts: list[tuple[Any, ...]] = [
        (0, "discard", "7z"),
        (1, "discard", "6z"),
        (2, "discard", "5z"),
        (1, "pass"),
        (3, "discard", "5z"),
    ]
    st = after(hands, acts[:3], draws="6z 5z 5z")
    assert legal(st, 1) == {"S1 hu", "S1 peng", "S1 pass"}
    run(st, acts[3:])
    assert st.window_from == 3
    assert legal(st, 1) == {"S1 hu", "S1 peng", "S1 pass"}
    h = play(hands, [*acts, (1, "hu")], draws="6z 5z 5z")
    # S3 pays 20, S0 and S2 10 each
    assert (h["winner"], h["from"], h["deltas"]) == (1, 3, [-10, 40, -10, -20])


# == 3.5 scoring and settlement ===========================================================
# The only_chows win of S1 on S2's 5s (test_fan_only_chows): a discard win between two
# non-dealers.
ONLY_CHOWS = claim_flow("12m 99m 9p 456p 67s 789s", "12m", "3m", "9p", "5s")
# The concealed win of S1 on the dealer's 4s (test_fan_concealed).
CONCEALED = [fill("4567z")[0] + " 4s", "111z 456p 789s 56s 44p", *fill("4567z")[1:]]
# A dealer self-draw: S0 = 123m 456p 789s 234s 5s (+ 7z, discarded) draws 5s after the
# others discard 5z 6z 7z.
DEALER_TSUMO = ["123m456p789s234s5s 7z", F0, F2, F3]
DEALER_TSUMO_ACTS: list[tuple[Any, ...]] = [
    (0, "discard", "7z"),
    (1, "discard", "5z"),
    (2, "discard", "6z"),
    (3, "discard", "7z"),
    (0, "hu"),
]
DEALER_TSUMO_DRAWS = "5z 6z 7z 5s"


def only_chows_win(**kw: Any) -> dict[str, Any]:
    hands, acts = ONLY_CHOWS
    return play(hands, [*acts, (1, "hu")], draws="5s", **kw)


@pytest.mark.parametrize("u", [1, 3])
def test_discard_win_payment_20_10_10_times_base_unit_D49(u: int) -> None:
    # discarder 20u, the other two non-winners 10u each
    h = only_chows_win(options={"base_unit": u})
    assert h["deltas"] == [-10 * u, 40 * u, -20 * u, -10 * u]
    assert items(h) == [("hu", 0, 1, 10 * u), ("hu", 2, 1, 20 * u), ("hu", 3, 1, 10 * u)]
    h = play(CONCEALED, [(0, "discard", "4s"), (1, "hu")], options={"base_unit": u})
    assert h["deltas"] == [-20 * u, 40 * u, -10 * u, -10 * u]


@pytest.mark.parametrize("u", [1, 2])
def test_self_draw_payment_20_each_times_base_unit(u: int) -> None:
    h = play(DEALER_TSUMO, DEALER_TSUMO_ACTS, draws=DEALER_TSUMO_DRAWS, options={"base_unit": u})
    assert (h["winner"], h["win_type"]) == (0, "self_draw")
    assert h["deltas"] == [60 * u, -20 * u, -20 * u, -20 * u]


# S1 = 333z 123p 456p 789s 1z. S0 discards 3z; S1 konges it and its replacement 1z
# completes kong 3333z + 123p 456p 789s 11z (win_type kong_replacement, a self-draw).
KONG_HANDS = [fill("4567z")[0] + " 3z", "333z 123p 456p 789s 1z", *fill("4567z")[1:]]


@pytest.mark.parametrize("u", [1, 2])
def test_direct_kong_paid_10_by_each_of_the_three(u: int) -> None:
    h = play(
        KONG_HANDS,
        [(0, "discard", "3z"), (1, "kong", "3z"), (1, "hu")],
        tail="1z",
        options={"base_unit": u},
    )
    assert (h["winner"], h["win_type"]) == (1, "kong_replacement")
    assert "self_draw" in h["patterns"]
    # hu 20u from each + direct kong 10u from each (the discarder S0 pays no more)
    assert items(h, "kong") == [("kong", p, 1, 10 * u) for p in (0, 2, 3)]
    assert h["deltas"] == [-30 * u, 90 * u, -30 * u, -30 * u]


def test_added_kong_paid_10_by_each_of_the_three() -> None:
    # S1 pengs S0's 3z, discards 9p; S2 S3 S0 discard 2z; S1 draws the 4th 3z, adds it,
    # nobody robs, the replacement 1z completes the hand.
    hands = [fill("4567z")[0] + " 3z", "33z 9p 123p 456p 789s 1z", *fill("4567z")[1:]]
    acts: list[tuple[Any, ...]] = [
        (0, "discard", "3z"),
        (1, "peng"),
        (1, "discard", "9p"),
        (2, "discard", "2z"),
        (3, "discard", "2z"),
        (0, "discard", "2z"),
        (1, "kong", "3z"),
        (1, "hu"),
    ]
    h = play(hands, acts, draws="2z 2z 2z 3z", tail="1z")
    assert (h["winner"], h["win_type"]) == (1, "kong_replacement")
    assert items(h, "kong") == [("kong", p, 1, 10) for p in (0, 2, 3)]
    assert h["deltas"] == [-30, 90, -30, -30]


def test_concealed_kong_paid_20_by_each_and_kongs_of_non_winners_paid() -> None:
    # S2 draws 5z and konges 5555z (replacement 5s), discards 5s. S0 later self-draws.
    hands = ["123m456p789s234s5s 7z", F0, "5556z 258m258p258s", F3.replace("1234z", "1237z")]
    acts: list[tuple[Any, ...]] = [
        (0, "discard", "7z"),
        (1, "discard", "6z"),
        (2, "kong", "5z"),
        (2, "discard", "5s"),
        (3, "discard", "6z"),
        (0, "hu"),
    ]
    h = play(hands, acts, draws="6z 5z 6z 2s", tail="5s")
    assert (h["winner"], h["win_type"]) == (0, "self_draw")
    assert items(h, "kong") == [("kong", p, 2, 20) for p in (0, 1, 3)]
    # S0: +60 hu - 20 kong = 40; S2: -20 hu + 60 kong = 40; S1, S3: -20 - 20 = -40
    assert h["deltas"] == [40, -40, 40, -40]


@pytest.mark.parametrize("bonus", [True, False])
def test_dealer_streak_multiplies_dealer_transfers_only_D38(bonus: bool) -> None:
    # s = 2: every transfer between the dealer S0 and a non-dealer is x3 while
    # dealer_streak_bonus is on; transfers between non-dealers are not.
    m = 3 if bonus else 1
    opts = {"dealer_streak_bonus": bonus}
    # S1 wins on S2's discard: S2 20 (non-dealers), S0 10*m, S3 10
    h = only_chows_win(options=opts, wins=2)
    assert h["deltas"] == [-10 * m, 20 + 10 * m + 10, -20, -10]
    # S1 wins on the dealer's discard: S0 20*m, S2 10, S3 10
    h = play(CONCEALED, [(0, "discard", "4s"), (1, "hu")], options=opts, wins=2)
    assert h["deltas"] == [-20 * m, 20 * m + 20, -10, -10]
    # dealer self-draw: 20*m from each
    h = play(DEALER_TSUMO, DEALER_TSUMO_ACTS, draws=DEALER_TSUMO_DRAWS, options=opts, wins=2)
    assert h["deltas"] == [60 * m, -20 * m, -20 * m, -20 * m]
    # S1's direct kong and kong_replacement win: hu 20*m from S0, 20 from S2 and S3;
    # kong 10*m from S0, 10 from S2 and S3
    h = play(
        KONG_HANDS,
        [(0, "discard", "3z"), (1, "kong", "3z"), (1, "hu")],
        tail="1z",
        options=opts,
        wins=2,
    )
    assert items(h, "kong") == [("kong", 0, 1, 10 * m), ("kong", 2, 1, 10), ("kong", 3, 1, 10)]
    assert h["deltas"] == [-30 * m, 30 * m + 60, -30, -30]


def test_dealer_streak_carries_over_the_next_hand() -> None:
    # Two dealer self-draws in one match: s = 0 then 1, so the second pays 20*2 each.
    one = hand(DEALER_TSUMO, DEALER_TSUMO_ACTS, draws=DEALER_TSUMO_DRAWS)
    result = replay(record(one, one))
    assert [h["deltas"] for h in result["hands"]] == [[60, -20, -20, -20], [120, -40, -40, -40]]
    assert [h["next"] for h in result["hands"]] == [
        {"dealer": 0, "counters": {"dealer_wins": 1}},
        {"dealer": 0, "counters": {"dealer_wins": 2}},
    ]
    assert result["totals"] == [180, -60, -60, -60]


# 包牌. S1 makes chi 123m, chi 456p and chi 789s on the dealer S0's discards (S2 and S3
# discard 6z / 7z in between); S1 = 67m 55s then waits on 5m/8m. (Until 2026-12-01 the
# third claim was a peng of 777s, which no longer makes 包牌: MIXED_HANDS below.)
BAO_HANDS = [F0 + " 1m", "23m56p89s123z67m55s", F2, F3]
BAO_CLAIMS: list[tuple[Any, ...]] = [
    (0, "discard", "1m"),
    (1, "chi", "23m"),
    (1, "discard", "1z"),
    (2, "discard", "6z"),
    (3, "discard", "7z"),
    (0, "discard", "4p"),
    (1, "chi", "56p"),
    (1, "discard", "2z"),
    (2, "discard", "6z"),
    (3, "discard", "7z"),
    (0, "discard", "7s"),
    (1, "chi", "89s"),
    (1, "discard", "3z"),
    (2, "discard", "6z"),
    (3, "discard", "7z"),
]
BAO_DRAWS = "6z 7z 4p 6z 7z 7s 6z 7z"
# The same with peng 777s as the third claim: two chis and a peng on S0's discards.
MIXED_HANDS = [F0 + " 1m", "23m56p77s123z67m55s", F2, F3]
MIXED_CLAIMS: list[tuple[Any, ...]] = [*BAO_CLAIMS[:11], (1, "peng"), *BAO_CLAIMS[12:]]


@pytest.mark.parametrize(("wins", "baopai"), [(0, True), (1, True), (0, False), (1, False)])
def test_baopai_claimer_wins_on_the_liable_seats_discard_D41(wins: int, baopai: bool) -> None:
    # chis[S1][S0] = 3; S0 discards 5m and S1 wins (only_chows, pair_258).
    h = play(
        BAO_HANDS,
        [*BAO_CLAIMS, (0, "discard", "5m"), (1, "hu")],
        draws=BAO_DRAWS + " 5m",
        options={"baopai": baopai},
        wins=wins,
    )
    assert (h["winner"], h["from"], h["patterns"]) == (1, 0, ["only_chows", "pair_258"])
    m = 1 + wins  # S0 is the dealer: his own share carries the streak, S2's and S3's do not
    if baopai:
        # S0 pays alone: 20*m + 10 + 10
        assert items(h) == [("baopai", 0, 1, 20 * m + 20)]
        assert h["deltas"] == [-(20 * m + 20), 20 * m + 20, 0, 0]
    else:
        assert h["deltas"] == [-20 * m, 20 * m + 20, -10, -10]


def test_baopai_needs_three_claims_between_the_same_two_seats() -> None:
    # The peng of 7s is made on S3's discard instead: chis[S1][S0] = 2, pengs[S1][S3] = 1.
    acts = [
        *MIXED_CLAIMS[:8],
        (2, "discard", "6z"),
        (3, "discard", "7s"),
        (1, "peng"),
        (1, "discard", "3z"),
        (2, "discard", "6z"),
        (3, "discard", "7z"),
        (0, "discard", "5m"),
        (1, "hu"),
    ]
    h = play(MIXED_HANDS, acts, draws="6z 7z 4p 6z 7s 6z 7z 5m")
    assert (h["winner"], h["from"]) == (1, 0)
    assert h["deltas"] == [-20, 40, -10, -10]
    assert items(h, "baopai") == []


def test_baopai_never_on_a_self_draw() -> None:
    acts = [*BAO_CLAIMS, (0, "discard", "5z"), (1, "hu")]
    h = play(BAO_HANDS, acts, draws=BAO_DRAWS + " 5z 5m")
    assert (h["winner"], h["win_type"]) == (1, "self_draw")
    assert h["deltas"] == [-20, 60, -20, -20]
    assert items(h, "baopai") == []


@pytest.mark.parametrize("wins", [0, 1])
def test_baopai_claimer_discards_to_the_other_seat_D41(wins: int) -> None:
    # S1 chis 123m, 456p, 789s on S0's discards; S0 (dealer) = 345m 678m 789p 22s 55z
    # waits on 2s/5z and wins on S1's 5z. S1 pays all three shares alone, each with its
    # own streak multiplier (every share goes to the dealer): 20*m + 10*m + 10*m.
    hands = ["345m678m789p22s55z 1m", "23m56p89s125z9m9p9s3z", F2, F3]
    acts: list[tuple[Any, ...]] = [
        (0, "discard", "1m"),
        (1, "chi", "23m"),
        (1, "discard", "1z"),
        (2, "discard", "6z"),
        (3, "discard", "7z"),
        (0, "discard", "4p"),
        (1, "chi", "56p"),
        (1, "discard", "2z"),
        (2, "discard", "6z"),
        (3, "discard", "7z"),
        (0, "discard", "7s"),
        (1, "chi", "89s"),
        (1, "discard", "5z"),
        (0, "hu"),
    ]
    h = play(hands, acts, draws="6z 7z 4p 6z 7z 7s", wins=wins)
    assert (h["winner"], h["from"], h["win_type"]) == (0, 1, "discard")
    m = 1 + wins
    assert items(h) == [("baopai", 1, 0, 40 * m)]
    assert h["deltas"] == [40 * m, -40 * m, 0, 0]


@pytest.mark.parametrize("baopai", [True, False])
def test_baopai_chis_and_pengs_are_not_added_together_D41(baopai: bool) -> None:
    """RULES.md 3.5 / D41 (corrected 2026-12-01): 吃上家三道牌，或碰任意一家三道牌 — two chis
    and a peng by S1 on S0's discards are no 包牌, whatever the option says."""
    # chi 123m, chi 456p, peng 777s on S0's discards; S0 discards 5m and S1 wins
    # (pair_258): the ordinary 20 + 10 + 10 -> [-20, 40, -10, -10]. (The old reading added
    # the three claims and made S0 pay 40 alone: [-40, 40, 0, 0].)
    h = play(
        MIXED_HANDS,
        [*MIXED_CLAIMS, (0, "discard", "5m"), (1, "hu")],
        draws=BAO_DRAWS + " 5m",
        options={"baopai": baopai},
    )
    assert (h["winner"], h["from"], h["patterns"]) == (1, 0, ["pair_258"])
    assert items(h) == [("hu", 0, 1, 20), ("hu", 2, 1, 10), ("hu", 3, 1, 10)]
    assert h["deltas"] == [-20, 40, -10, -10]


@pytest.mark.parametrize("third", ["peng", "kong"])
def test_baopai_three_pengs_on_one_seat_a_direct_kong_counting_as_a_peng_D41(
    third: str,
) -> None:
    """RULES.md 3.5 / D41: three pengs by S1 on S2's discards (the third one a peng, or a
    direct kong) make 包牌: S1 wins on S2's 5m and S2 pays all three shares."""
    # S1 (South) pengs S2's 1z, 2z, 3z and wins with 456m 55m on S2's 5m: pair_258 and
    # seat_wind_pung (222z). 包牌: S2 pays 20 + 10 + 10 = 40 alone. With the kong, S1 is
    # also paid 10 by each of the three: [-10, 70, -50, -10]; else [0, 40, -40, 0].
    f0, f2, f3 = fill("4567z")
    kong = third == "kong"
    s1 = "11z 22z 333z 9m 9p 456m 5m" if kong else "11z 22z 33z 9m 9p 9s 456m 5m"
    third_claim: list[tuple[Any, ...]] = (
        [(1, "kong", "3z"), (1, "discard", "9s")] if kong else [(1, "peng"), (1, "discard", "9s")]
    )
    acts: list[tuple[Any, ...]] = [
        (0, "discard", "1s"),
        (1, "discard", "8s"),
        (2, "discard", "1z"),
        (1, "peng"),
        (1, "discard", "9m"),
        (2, "discard", "2z"),
        (1, "peng"),
        (1, "discard", "9p"),
        (2, "discard", "3z"),
        *third_claim,
        (2, "discard", "5m"),
        (1, "hu"),
    ]
    h = play([f0 + " 1s", s1, f2, f3], acts, draws="8s 1z 2z 3z 5m", tail="9s" if kong else "")
    assert (h["winner"], h["from"]) == (1, 2)
    assert h["patterns"] == ["pair_258", "seat_wind_pung"]
    assert items(h, "baopai") == [("baopai", 2, 1, 40)]
    assert h["deltas"] == ([-10, 70, -50, -10] if kong else [0, 40, -40, 0])


# == 3.4 no instant wins ==================================================================
def test_no_instant_win_dealer_complete_at_the_deal_wins_by_self_draw() -> None:
    # RULES.md 3.4 "No instant wins": the dealer's 14th dealt tile is his drawn tile (0.4),
    # so a complete dealt hand is an ordinary self-draw: win_type self_draw, 20 from each.
    hands = ["123m456p789s234s5s 5s", F0, F2, F3]
    st = state1(hands)
    assert "S0 hu" in legal(st, 0)
    h = play(hands, [(0, "hu")])
    assert h["winner"] == 0 and "self_draw" in h["patterns"]
    assert h["deltas"] == [60, -20, -20, -20]
    assert h["win_type"] == "self_draw"


def test_no_instant_win_dealer_first_turn_kong_replacement() -> None:
    # The dealer konges 1111z in his first turn and the replacement 5s completes
    # kong 1z + 234m 567p 789s 55s: a win on a kong's replacement tile, not an instant win.
    hands = ["1111z234m567p789s 5s", *fill("4567z")]
    h = play(hands, [(0, "kong", "1z"), (0, "hu")], tail="5s")
    assert h["winner"] == 0 and "self_draw" in h["patterns"]
    # self-draw 20 from each + concealed kong 20 from each
    assert h["deltas"] == [120, -40, -40, -40]
    assert h["win_type"] == "kong_replacement"


# == 3.6 dealer rotation ==================================================================
def win_on_dealer_discard(w: int) -> list[str]:
    """Seat w holds 111z 456p 789s 56s 44p (concealed) and wins on the dealer S0's 4s."""
    fills = iter(fill("4567z")[1:])
    return [
        fill("4567z")[0] + " 4s" if s == 0 else "111z456p789s56s44p" if s == w else next(fills)
        for s in range(4)
    ]


@pytest.mark.parametrize("w", [1, 2, 3])
@pytest.mark.parametrize("rule", ["winner_next", "dealer_next"])
def test_non_dealer_win_passes_the_deal_D37(w: int, rule: str) -> None:
    # s = 2 before; after a non-dealer win s = 0 (also when the new dealer is S0 again)
    h = play(
        win_on_dealer_discard(w),
        [(0, "discard", "4s"), (w, "hu")],
        wins=2,
        options={"dealer_after_xian_win": rule},
    )
    assert (h["winner"], h["from"]) == (w, 0)
    dealer = (w + 1) % 4 if rule == "winner_next" else 1
    assert h["next"] == {"dealer": dealer, "counters": {"dealer_wins": 0}}


def test_dealer_win_keeps_the_deal_and_counts_the_streak() -> None:
    h = play(DEALER_TSUMO, DEALER_TSUMO_ACTS, draws=DEALER_TSUMO_DRAWS, wins=1)
    assert h["next"] == {"dealer": 0, "counters": {"dealer_wins": 2}}


@pytest.mark.parametrize("dealer", [0, 2])
def test_drawn_hand_dealer_stays_streak_unchanged(dealer: int) -> None:
    hands = [F0, F0, F2, F3]
    hands[dealer] += " 5z"
    h = play(hands, dealer=dealer, wins=2, autoplay="tsumogiri")
    assert h["outcome"] == "draw"
    assert h["next"] == {"dealer": dealer, "counters": {"dealer_wins": 2}}


def test_next_hand_recomputes_seat_flowers_from_the_new_dealer() -> None:
    # Hand 1: S1 wins on S0's discard -> S2 deals hand 2, where S1 is pos 3 (flowers 4f/7f).
    first = hand(win_on_dealer_discard(1), [(0, "discard", "4s"), (1, "hu")])
    hands, acts, draws = s1_peng_flow(
        2, "55m 123m 456p 789s 9p 7f", "5m", "1s", "9p", "1234z", "5z"
    )
    second = hand(hands, [*acts, (1, "hu")], draws=draws, tail="1s", dealer=2)
    result = replay(record(first, second))
    h = result["hands"][1]
    assert (h["dealer"], h["winner"], h["patterns"]) == (2, 1, ["seat_flower"])
    # S2 (dealer, s = 0) discarded: 20; S0 and S3 10 each
    assert h["deltas"] == [-10, 40, -20, -10]
    # a record that gives hand 2 to another dealer is rejected
    second["dealer"] = 1
    with pytest.raises(RecordError, match="rotation gives seat 2"):
        replay_match(record(first, second))


# == 3.7 options ==========================================================================
@pytest.mark.parametrize(("options", "paid"), [({}, 0), ({"escape_penalty": 5}, 5)])
def test_escape_penalty_default_0(options: dict[str, Any], paid: int) -> None:
    h = play(
        [F0 + " 5z", F0, F2, F3], [(0, "discard", "5z"), (2, "escape")], options=options, draws="6z"
    )
    assert h["outcome"] == "draw"
    assert h["deltas"] == [paid, paid, -3 * paid, paid]


# The deal of RULES.md HN-3: S2 chis 123m, 456p, 789s on S1's discards (claims[S2][S1] = 3)
# and wins on S1's 7s; S0 is the dealer and neither of the two.
HN3_HANDS = ["269m258p4s234567z 1z", "36m28p14s1234567z", "2388m56p5689s123z", "259m28p4s1234567z"]
HN3_ACTIONS: list[tuple[Any, ...]] = [
    (0, "discard", "1z"),
    (1, "discard", "1m"),
    (2, "chi", "23m"),
    (2, "discard", "1z"),
    (3, "discard", "7p"),
    (0, "discard", "4p"),
    (1, "discard", "4p"),
    (2, "chi", "56p"),
    (2, "discard", "2z"),
    (3, "discard", "7s"),
    (0, "discard", "7s"),
    (1, "discard", "7s"),
    (2, "chi", "89s"),
    (2, "discard", "3z"),
    (3, "discard", "1p"),
    (0, "discard", "2s"),
    (1, "discard", "7s"),
    (2, "hu"),
]


@pytest.mark.parametrize("wins", [0, 1, 2])
def test_baopai_each_share_with_its_own_streak_multiplier(wins: int) -> None:
    # S1 pays alone: its own share 20 (two non-dealers), the dealer S0's share 10*(1+s),
    # S3's share 10. s = 0: 40 (HN-3); s = 1: 50; s = 2: 60.
    h = play(HN3_HANDS, HN3_ACTIONS, draws="1m 7p 4p 4p 7s 7s 7s 1p 2s 7s", wins=wins)
    assert (h["winner"], h["from"], h["patterns"]) == (2, 1, ["only_chows", "pair_258"])
    paid = 20 + 10 * (1 + wins) + 10
    assert items(h) == [("baopai", 1, 2, paid)]
    assert h["deltas"] == [0, -paid, paid, 0]


# == issue 14: near flushes, the deal wrapping around the table, the reported 番 ===============
def test_fan_all_one_suit_not_with_one_tile_of_another_suit() -> None:
    # RULES.md 3.4 清一色: the 14 tiles are number tiles of ONE suit. Characters with a
    # pair of 1p (the dots tile next to the characters) have no 番: peng 111m<S0 + 234m
    # 456m 78m + 11p waits on 6m/9m; S1 may not win on S2's 9m, only self-draw it.
    hands, acts = claim_flow("11m 5z 234m 456m 78m 11p", "peng", "1m", "5z", "9m")
    no_fan_self_draw(hands, acts, "9m", "6z 7z")


def test_fan_all_one_suit_not_with_an_honour() -> None:
    # RULES.md 3.4 清一色 needs number tiles only: characters plus a pair of East (not S1's
    # seat wind, and a pair is no pung) have no 番.
    hands, acts = claim_flow("11m 9p 234m 456m 78m 11z", "peng", "1m", "9p", "9m", "4567z")
    no_fan_self_draw(hands, acts, "9m", "2z 3z")


@pytest.mark.parametrize("w", [0, 1, 2])
@pytest.mark.parametrize("rule", ["winner_next", "dealer_next"])
def test_non_dealer_win_passes_the_deal_from_dealer_S3_D37(w: int, rule: str) -> None:
    # RULES.md 3.6 / D37 with the dealer S3: dealer_next gives S0 (S3's next seat), and
    # winner_next the winner's next seat; s = 0 after a non-dealer win.
    f0, f2, f3 = fill("4567z")
    others = iter([f2, f3])
    hands = [
        f0 + " 4s" if s == 3 else "111z456p789s56s44p" if s == w else next(others) for s in range(4)
    ]
    h = play(
        hands,
        [(3, "discard", "4s"), (w, "hu")],
        dealer=3,
        wins=1,
        options={"dealer_after_xian_win": rule},
    )
    assert (h["winner"], h["from"], h["dealer"]) == (w, 3, 3)
    dealer = (w + 1) % 4 if rule == "winner_next" else 0
    assert h["next"] == {"dealer": dealer, "counters": {"dealer_wins": 0}}


@pytest.mark.parametrize(
    ("s0", "patterns"),
    [
        # RULES.md 3.4 example of issue 14: 66m 223344p 112233s reads as seven pairs
        # (concealed, seven_pairs) or as four sequences with the pair 66m (only_chows,
        # concealed): two 番 each, so the first in the list order wins: only_chows first.
        ("66m223344p112233s", ["only_chows", "concealed"]),
        # 223344p 556677s 88m: only_chows, concealed, pair_258 (3) beats seven pairs (2)
        ("88m223344p556677s", ["only_chows", "concealed", "pair_258"]),
    ],
)
def test_reported_fan_most_then_first_in_list_order_0_7(s0: str, patterns: list[str]) -> None:
    # RULES.md 0.7: of the readings (all paying the same in hainan, 3.4), the one with the
    # most patterns, then the first in the pattern-list order. The dealer wins on his 14
    # dealt tiles (self-draw: 20 from each).
    h = play([s0, F0, F2, F3], [(0, "hu")])
    assert h["patterns"] == [*patterns, "self_draw"]
    assert h["deltas"] == [60, -20, -20, -20]


def test_fan_all_one_suit_with_nines() -> None:
    # RULES.md 3.4 清一色 counts 9s as a bamboo tile like any other: peng 111s + 234s 456s
    # 78s 99s wins on S2's 6s with all_one_suit ...
    hands, acts = claim_flow("11s 5z 234s 456s 78s 99s", "peng", "1s", "5z", "6s")
    assert_fan_win(hands, acts, "6s", ["all_one_suit"])
    # ... and characters with a pair of 9s are two suits: no 番.
    hands, acts = claim_flow("11m 5z 234m 456m 78m 99s", "peng", "1m", "5z", "9m")
    no_fan_self_draw(hands, acts, "9m", "6z 7z")


def test_baopai_counts_only_the_pengs_made_on_the_discarder_D41() -> None:
    # RULES.md 3.5 / D41: S1 pengs S2's 1z and 2z and S3's 3z, then wins on S2's 5m
    # (pair_258, seat_wind_pung). Two pengs on S2 and one on S3 are no 包牌: the ordinary
    # 20 from S2, 10 from S0 and S3 -> [-10, 40, -20, -10].
    f0, f2, f3 = fill("4567z")
    acts: list[tuple[Any, ...]] = [
        (0, "discard", "1s"),
        (1, "discard", "8s"),
        (2, "discard", "1z"),
        (1, "peng"),
        (1, "discard", "9m"),
        (2, "discard", "2z"),
        (1, "peng"),
        (1, "discard", "9p"),
        (2, "discard", "6z"),
        (3, "discard", "3z"),
        (1, "peng"),
        (1, "discard", "9s"),
        (2, "discard", "5m"),
        (1, "hu"),
    ]
    h = play(
        [f0 + " 1s", "11z 22z 33z 9m 9p 9s 456m 5m", f2, f3],
        acts,
        draws="8s 1z 2z 6z 3z 5m",
    )
    assert (h["winner"], h["from"]) == (1, 2)
    assert h["patterns"] == ["pair_258", "seat_wind_pung"]
    assert items(h, "baopai") == []
    assert h["deltas"] == [-10, 40, -20, -10]


@pytest.mark.parametrize("n", range(1, 10))
def test_fan_pair_258_for_each_number_of_the_pair(n: int) -> None:
    # RULES.md 3.4 二五八做将: peng 666m<S0 + 123m 789s 456s + a pair of np. Only a 2, 5 or
    # 8 pair is a 番; any other pair leaves the hand without one.
    hands, acts = claim_flow(f"66m 1s 123m 789s 456s {n}p", "peng", "6m", "1s", f"{n}p")
    if n in (2, 5, 8):
        assert_fan_win(hands, acts, f"{n}p", ["pair_258"])
    else:
        no_fan_self_draw(hands, acts, f"{n}p", "5z 6z")


def test_dealer_streak_starts_at_0_and_a_record_may_not_go_below() -> None:
    # RULES.md 3.6: s = 0 on the first hand; a record's start counter is >= 0.
    assert Match("hainan", {"first_dealer": 0}).counters == {"dealer_wins": 0}
    with pytest.raises(RecordError, match="counter 'dealer_wins' must be an integer >= 0, got -1"):
        play([F0 + " 5z", F0, F2, F3], wins=-1, autoplay="tsumogiri")


def test_patterns_do_not_change_the_payment_value_is_1() -> None:
    # RULES.md 3.4: 番 are a condition for winning, not a multiplier, so every hand's value
    # (what the calculator shows beside the patterns) is 1, with one 番 or with four.
    st = after(win_on_dealer_discard(1), [(0, "discard", "4s")])
    win = WinInfo(1, "discard", t("4s"), 0)
    assert patterns_of(st, win) == (["concealed"], 1)
    st = state1(["123m456p789s234s5s 5s", F0, F2, F3])
    four = ["only_chows", "concealed", "pair_258", "self_draw"]
    assert patterns_of(st, WinInfo(0, "self_draw", t("5s"), None)) == (four, 1)


# == what a front end shows: payment arithmetic and the last tile ==============================
def _notes(st: HandState) -> list[tuple[str, int, int, int, str, str]]:
    return [(i.kind, i.payer, i.payee, i.points, i.note, i.reason) for i in st.result().items]


def test_payment_notes_show_each_share_and_the_streak_3_5() -> None:
    # Each item says how its amount was made: the share (20 for the discarder or a
    # self-draw, 10 for the others) x 底分, x 连庄 (1 + s) when the dealer pays or is paid.
    st = after(win_on_dealer_discard(1), [(0, "discard", "4s"), (1, "hu")], wins=1)
    assert _notes(st) == [
        ("hu", 0, 1, 40, "20 x 底分 1 x 连庄 2", "discard"),
        ("hu", 2, 1, 10, "10 x 底分 1", "discard_other"),
        ("hu", 3, 1, 10, "10 x 底分 1", "discard_other"),
    ]
    st = after(DEALER_TSUMO, DEALER_TSUMO_ACTS, draws=DEALER_TSUMO_DRAWS, wins=1)
    assert _notes(st) == [("hu", p, 0, 40, "20 x 底分 1 x 连庄 2", "self_draw") for p in (1, 2, 3)]
    # 包牌 (HN-3 at s = 1): the discarder S1 pays the three shares, the dealer's with 连庄
    st = after(HN3_HANDS, HN3_ACTIONS, draws="1m 7p 4p 4p 7s 7s 7s 1p 2s 7s", wins=1)
    shares = "10 x 底分 1 x 连庄 2 + 20 x 底分 1 + 10 x 底分 1"
    assert _notes(st) == [
        ("baopai", 1, 2, 50, f"包牌: the discarder pays all three shares: {shares}", "baopai")
    ]


def test_restriction_shown_on_the_last_tile_3_2() -> None:
    # The draw leaving R = 15: that seat may only declare a self-draw (it does not discard).
    st = wall_b({75: "5s"})
    advance(st, 0, 15)
    assert [st.restrictions(s) for s in range(4)] == [[("last_tile", "")], [], [], []]


def test_pattern_values_shown_the_eleven_fan_allow_a_discard_win_3_4() -> None:
    # RULES.md 3.4: each of the first eleven patterns is a 番 that makes a discard win
    # legal; self_draw is reported but is no 番; points never change (3.5). `majiang rules
    # hainan` shows this per pattern.
    values = HAINAN.pattern_values
    assert set(values) == set(HAINAN.patterns) == {*FAN, "self_draw"}
    assert all(values[p].startswith("1 fan: allows a discard win") for p in FAN)
    assert values["self_draw"].startswith("no fan")
