"""Information sets (DESIGN.md; issue 15, defect 3): a seat's observation and legal
actions are functions of what that seat may know -- its own tiles and everything public.

Two worlds that differ only in what a seat cannot see must look the same to it:
(a) D56, hongzhong's instant wins: a non-dealer holding four 红中 is offered its 四红中
    whatever the dealer's concealed hand; the dealer's declaration still stands.
(b) after a discard, a bystander sees the same pending window whoever can claim it.
The conformance suite (majiang.testing.check_variant) plays every game in such a twin
world too; a variant whose hooks leak is caught there.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

import pytest
from recordkit import hand_entry, match_options, new_state, partial_deal, record, start_of

from majiang.bots import GreedyBot, play_hand
from majiang.engine.match import Match
from majiang.engine.state import Action, HandState
from majiang.errors import IllegalActionError, RecordError
from majiang.observation import Observation
from majiang.records import replay
from majiang.rules import VARIANTS
from majiang.rules.base import Variant
from majiang.rules.guangdong import GUANGDONG, GuangdongRules
from majiang.rules.view import HandView
from majiang.testing import ConformanceError, check_variant, hidden_twin, twin_step
from majiang.tiles import parse_tile

ALL = sorted(VARIANTS)


def t(text: str) -> int:
    return int(parse_tile(text))


def same_view(a: HandState, b: HandState, seat: int) -> None:
    """``seat`` cannot tell the two worlds apart."""
    assert a.observation(seat) == b.observation(seat)
    assert a.legal_actions(seat) == b.legal_actions(seat)


# -- (b) a pending window looks the same whoever can claim -------------------------------
# guangdong, no horses: S0 discards 5m. In world A, S2 holds 55m and may peng it; in
# world B it holds a single 5m and nobody can claim. S3 and S1 see neither S2's tiles
# nor whether it can claim.
BASE = ["17m17p17s1234567z 5m", "39m39p39s1234567z", None, "28m28p28s1234567z"]
S2_CAN_PENG = "55m469m2468p2468s"
S2_CANNOT = "35m469m2468p2468s"


def guangdong_world(s2: str) -> HandState:
    hands = [s2 if h is None else h for h in BASE]
    opts = match_options({"horses": False}, first_dealer=0)
    deal = partial_deal(hands, draws="1s 2s 3s")
    return new_state("guangdong", deal, options=opts, start=start_of(0, {"dealer_run": 1}))


def test_a_bystander_sees_the_same_window_whoever_can_claim() -> None:
    a, b = guangdong_world(S2_CAN_PENG), guangdong_world(S2_CANNOT)
    for state in (a, b):
        state.apply(Action(0, "discard", t("5m")))
    for seat in (1, 3):
        same_view(a, b, seat)
        assert a.legal_actions(seat) == [Action(seat, "pass")]
    assert a.observation(3).phase == "claim" and a.to_act() == [1, 2, 3] == b.to_act()
    assert a.legal_actions(2) == [Action(2, "peng"), Action(2, "pass")]
    assert b.legal_actions(2) == [Action(2, "pass")]
    for state in (a, b):
        state.apply(Action(3, "pass"))
        state.apply(Action(1, "pass"))
    same_view(a, b, 3)
    same_view(a, b, 1)
    # S2 passes in both: the worlds go on alike (S1 draws 1s)
    for state in (a, b):
        state.apply(Action(2, "pass"))
        assert (state.phase, state.current, state.drawn) == ("turn", 1, t("1s"))
    same_view(a, b, 3)


def test_a_window_nobody_can_claim_resolves_when_every_seat_passed() -> None:
    b = guangdong_world(S2_CANNOT)
    b.apply(Action(0, "discard", t("5m")))
    assert b.phase == "claim" and b.window_options == {}
    b.auto_pass()  # every seat's only choice was pass: decided unasked, nothing listed
    assert (b.phase, b.current, b.drawn) == ("turn", 1, t("1s"))
    assert b.history == [Action(0, "discard", t("5m"))]


@pytest.mark.parametrize("variant", ALL)
def test_bystanders_cannot_tell_who_may_claim_in_random_games(variant: str) -> None:
    # Two worlds differing only in tiles hidden from the observer, the same actions in
    # both while legal in both (majiang.testing.check_variant does this for every game).
    checked = 0
    for seed in range(30):
        match = Match(variant, {}, seed)
        state = match.new_hand()
        observer = seed % 4
        twin = hidden_twin(state, observer, random.Random(seed))
        rng = random.Random(seed)
        world: HandState | None = twin_step(state, twin, [], observer)
        while world is not None:
            same_view(state, world, observer)
            checked += 1
            seats = state.to_act()
            seat = seats[rng.randrange(len(seats))]
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            state.apply(action)
            world = twin_step(state, world, [action], observer)
    assert checked > 300


# -- (a) D56: instant wins decided on each seat's own tiles -------------------------------
HEAVENLY = "234m345m456m555p5s 5s"  # the dealer's 14 dealt tiles, complete (天胡)
NOT_COMPLETE = "179m12468p13689s 8m"
F1 = "79m34689p134679s"
FOUR_RED = "7777z1m4m7m2p5p8p3s6s9s"  # S2: four 红中
F3 = "178m12478p24678s"
PLAIN: dict[str, Any] = {"golden_bird": False, "zhuang_xian": False}


def hongzhong_world(dealer_hand: str) -> HandState:
    opts = match_options(PLAIN, first_dealer=0)
    deal = partial_deal([dealer_hand, F1, FOUR_RED, F3], draws="2p 9p")
    return new_state("hongzhong", deal, options=opts, start=start_of(0))


def test_a_non_dealer_is_offered_four_red_dragons_whatever_the_dealers_hand_D56() -> None:
    # Before: S2 was offered nothing while the dealer could declare 天胡.
    a, b = hongzhong_world(HEAVENLY), hongzhong_world(NOT_COMPLETE)
    for seat in (1, 2, 3):
        same_view(a, b, seat)
    assert a.legal_actions(2) == [Action(2, "hu"), Action(2, "pass")]
    assert a.to_act() == [0, 2] == b.to_act()
    for state in (a, b):
        state.apply(Action(2, "hu"))
    for seat in (1, 2, 3):
        same_view(a, b, seat)  # both wait for the dealer
    assert a.observation(2).phase == "declare" and a.to_act() == [0] == b.to_act()
    assert a.legal_actions(0) == [Action(0, "hu"), Action(0, "pass")]
    assert b.legal_actions(0) == [Action(0, "pass")]
    a.apply(Action(0, "hu"))
    b.auto_pass()
    win_a, win_b = a.result().win, b.result().win
    assert win_a is not None and (win_a.winner, win_a.win_type) == (0, "instant")
    assert win_b is not None and (win_b.winner, win_b.win_type) == (2, "instant")


def test_a_declaration_with_junk_fields_is_refused_D56() -> None:
    state = hongzhong_world(NOT_COMPLETE)
    history = list(state.history)
    for bad in [Action(2, "hu", t("7z")), Action(2, "pass", None, (t("7z"),)), Action(1, "hu")]:
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert state.history == history and state.to_act() == [0, 2] and state.phase == "turn"


def one_hand(dealer_hand: str, actions: list[tuple[Any, ...]]) -> dict[str, Any]:
    rec = record(
        "hongzhong",
        [hand_entry(partial_deal([dealer_hand, F1, FOUR_RED, F3], draws="2p 9p"), actions)],
        options=PLAIN,
    )
    hand: dict[str, Any] = replay(rec)["hands"][0]
    return hand


@pytest.mark.parametrize(
    ("dealer_hand", "actions", "winner"),
    [
        # FORMAT.md: the dealer's declaration stands, whichever is listed first
        (HEAVENLY, [(2, "hu"), (0, "hu")], 0),
        (HEAVENLY, [(0, "hu"), (2, "hu")], 0),
        (HEAVENLY, [(0, "hu")], 0),
        # the dealer declines (or is not listed): the non-dealer's 四红中 stands
        (HEAVENLY, [(2, "hu"), (0, "pass")], 2),
        (HEAVENLY, [(2, "hu")], 2),
        (NOT_COMPLETE, [(2, "hu")], 2),
        (NOT_COMPLETE, [(2, "hu"), (0, "pass")], 2),
    ],
)
def test_instant_declarations_in_records_D56(
    dealer_hand: str, actions: list[tuple[Any, ...]], winner: int
) -> None:
    h = one_hand(dealer_hand, actions)
    assert (h["winner"], h["win_type"], h["from"]) == (winner, "instant", None)


def test_the_dealer_may_not_answer_a_declaration_he_cannot_top_D56() -> None:
    # Without an instant win of his own the dealer's only answer is pass: a listed hu
    # closes the declaration (S2 wins) and is then an action after the end.
    with pytest.raises(RecordError, match="action 1, seat 0"):
        one_hand(NOT_COMPLETE, [(2, "hu"), (0, "hu")])
    with pytest.raises(RecordError, match="action 1, seat 0"):
        one_hand(NOT_COMPLETE, [(2, "hu"), (0, "discard", "8m")])


class Offers:
    """A bot that notes what it is offered and takes an instant win."""

    name = "offers"

    def __init__(self) -> None:
        self.offered: list[list[Action]] = []

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        self.offered.append(list(legal))
        return legal[0]


def test_play_hand_offers_a_non_dealers_four_red_dragons_to_its_bot_D56() -> None:
    # Before: play_hand asked only to_act()[0], the dealer, so S2 was never asked.
    state = hongzhong_world(NOT_COMPLETE)
    s2 = Offers()
    rng = random.Random(1)
    play_hand(state, [GreedyBot(rng), GreedyBot(rng), s2, GreedyBot(rng)])
    assert s2.offered[0] == [Action(2, "hu"), Action(2, "pass")]
    win = state.result().win
    assert win is not None and (win.winner, win.win_type) == (2, "instant")


# -- the conformance suite catches a leak --------------------------------------------------
class PeekingRules(GuangdongRules):
    """guangdong, except that a seat may claim only while the next seat holds no 1m:
    its legal actions then depend on another seat's concealed tiles (a leak)."""

    def filter_claims(
        self, view: HandView, seat: int, discarder: int, tile: int, actions: list[Action]
    ) -> list[Action]:
        if view.concealed[(seat + 1) % 4][0]:
            return []
        return actions


def test_check_variant_catches_a_variant_that_leaks_hidden_tiles() -> None:
    leaky: Variant = dataclasses.replace(GUANGDONG, rules=PeekingRules())
    with pytest.raises(ConformanceError, match="tells the two worlds apart"):
        check_variant(leaky, {"horses": False}, games=40, seed=1)
    assert check_variant(GUANGDONG, {"horses": False}, games=8, seed=1) > 0


@pytest.mark.parametrize(("dealer_hand", "winner"), [(HEAVENLY, 0), (NOT_COMPLETE, 2)])
def test_the_terminal_game_lets_the_human_dealer_answer_a_declaration_D56(
    dealer_hand: str, winner: int
) -> None:
    # The greedy bot S2 declares its 四红中. With 天胡 the human dealer is asked (hu or
    # pass) and his declaration stands; without an instant win his only answer is pass,
    # taken unasked, and S2's 四红中 is the win.
    from majiang.cli.session import Session

    deal = partial_deal([dealer_hand, F1, FOUR_RED, F3], draws="2p 9p")
    session = Session("hongzhong", dict(PLAIN), human=0, deals=[deal], start={"dealer": 0})
    st = session.state
    if winner == 0:
        assert st.phase == "declare" and st.window_from == 2
        assert session.human_legal() == [Action(0, "hu"), Action(0, "pass")]
        session.play(Action(0, "hu"))
    win = st.result().win
    assert win is not None and (win.winner, win.win_type) == (winner, "instant")
    assert len(session.match.finished) == 1 and "wins" in session.log[-1]


def test_check_variant_catches_a_window_opened_only_when_some_seat_can_claim(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The engine before issue 15: no window when nobody can claim, so a bystander's phase
    # told whether another seat could claim. The two-worlds test finds it.
    def old_after_discard(self: HandState, seat: int, tile: int) -> None:
        self.first_turn = False
        self.after_kong = None
        self.drawn = None
        self.rules.on_event(self, "discard", seat, tile)
        options = self._claim_options(seat, tile)
        if options:
            self._open_window("claim", seat, tile, options)
        else:
            self._next_draw(seat)

    monkeypatch.setattr(HandState, "_after_discard", old_after_discard)
    with pytest.raises(ConformanceError, match="tells the two worlds apart"):
        check_variant("guangdong", {"horses": False}, games=20, seed=1)
