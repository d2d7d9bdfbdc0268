"""Defects of issue 15 ("Defects to fix first", items 1, 2 and 5), each with a test that
failed before the fix.

1. A ``pass`` from a seat with nothing to claim is that seat's decision (FORMAT.md, claim
   windows), also when nobody can claim the discard.
2. ``apply`` validates types and ranges of every field before anything changes; bad seats
   are refused by ``apply``, ``observation`` and ``legal_actions``; a seat decides once
   per window.
5. Records with wilds in melds (FORMAT.md: ``tile`` names the meld's kind, ``tiles`` the
   tiles taken from the hand) are read, written and replayed.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from recordkit import hand_entry, match_options, new_state, partial_deal, record, start_of

from majiang.engine.match import Match
from majiang.engine.state import Action, HandState
from majiang.errors import IllegalActionError, RecordError
from majiang.records import record_json, replay, replay_match, result_json
from majiang.rules import VARIANTS
from majiang.testing import option_grid, play_random_match
from majiang.tiles import parse_tile, parse_tiles

ALL = sorted(VARIANTS)


def t(text: str) -> int:
    return int(parse_tile(text))


# guangdong, no horses. S0 discards 5m first; S2 holds 55m and may peng it; S1 and S3
# can claim nothing (guangdong has no chi and no discard wins).
PENG_HANDS = ["17m17p17s1234567z 5m", "39m39p39s1234567z", "55m469m2468p2468s", "28m28p28s1234567z"]


def peng_window() -> HandState:
    """The claim window of S0's first discard 5m, which S2 may peng."""
    deal = partial_deal(PENG_HANDS)
    opts = match_options({"horses": False}, first_dealer=0)
    state = new_state("guangdong", deal, options=opts, start=start_of(0, {"dealer_run": 1}))
    state.apply(Action(0, "discard", t("5m")))
    assert state.legal_actions(2) == [Action(2, "peng"), Action(2, "pass")]
    return state


def snapshot(state: HandState) -> tuple[Any, ...]:
    """Everything apply may change."""
    return (
        [list(c) for c in state.concealed],
        [list(m) for m in state.melds],
        [list(d) for d in state.discards],
        list(state.history),
        state.phase,
        state.current,
        state.drawn,
        state.lo,
        state.hi,
        state.window_from,
        state.window_tile,
        dict(state.window_options),
        dict(state.decisions),
        state.result_,
    )


def refused(state: HandState, action: Any) -> None:
    """``action`` raises IllegalActionError and changes nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert snapshot(state) == before


# -- 1. passes of seats with nothing to claim -------------------------------------------
def with_passes_after_unclaimed_discards(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An engine-written hand's actions with a pass of every other seat after each discard
    that nobody claimed or passed (the next listed action is the next seat's discard):
    what a client that sends a pass for every seat after every discard lists."""
    out: list[dict[str, Any]] = []
    for i, a in enumerate(actions):
        out.append(a)
        after = actions[i + 1] if i + 1 < len(actions) else None
        if a["type"] == "discard" and after is not None and after["type"] == "discard":
            out += [{"seat": (a["seat"] + k) % 4, "type": "pass"} for k in (1, 2, 3)]
    return out


@pytest.mark.parametrize("variant", ALL)
def test_a_pass_by_a_seat_with_nothing_to_claim_is_its_decision(variant: str) -> None:
    # FORMAT.md claim windows: "A pass by a seat that has nothing to claim is allowed and
    # changes nothing (it is still that seat's decision)" -- also when nobody can claim.
    for seed in range(4):
        match = play_random_match(variant, {}, seed, hands=2)
        rec = record_json(match)
        inserted = 0
        for hand in rec["hands"]:
            padded = with_passes_after_unclaimed_discards(hand["actions"])
            inserted += len(padded) - len(hand["actions"])
            hand["actions"] = padded
        assert inserted > 0
        assert replay(rec) == result_json(match)
        # the engine writes them back, and that record replays the same
        again = record_json(replay_match(rec))
        assert again["hands"][0]["actions"] == rec["hands"][0]["actions"]
        assert replay(again) == result_json(match)


def test_a_seat_with_nothing_to_claim_decides_in_the_window() -> None:
    state = peng_window()
    assert state.to_act() == [1, 2, 3]
    assert state.legal_actions(1) == [Action(1, "pass")]
    state.apply(Action(1, "pass"))
    refused(state, Action(1, "pass"))  # a second decision in the same window
    state.apply(Action(3, "pass"))
    assert state.to_act() == [2] and state.phase == "claim"
    state.apply(Action(2, "peng"))
    assert state.current == 2 and state.melds[2][0].kind == "peng"


def test_a_second_pass_in_one_window_is_refused_and_written_records_replay() -> None:
    # Before, a seat with nothing to claim could pass twice; the record the engine then
    # wrote did not replay.
    deal = partial_deal(PENG_HANDS)
    opts = match_options({"horses": False}, first_dealer=0)
    match = Match("guangdong", opts, 1, start_of(0, {"dealer_run": 1}))
    state = match.new_hand(deal)
    state.apply(Action(0, "discard", t("5m")))
    state.apply(Action(3, "pass"))
    refused(state, Action(3, "pass"))
    rng = random.Random(3)
    while not state.is_terminal():
        state.auto_pass()
        if not state.is_terminal():
            seat = state.to_act()[-1]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.randrange(len(legal))])
    match.finish(state)
    assert replay(record_json(match)) == result_json(match)


# -- 2. validate before anything changes --------------------------------------------------
@pytest.mark.parametrize("seat", [7, 4, -1, True, 0.0, None, "0"])
def test_escape_from_a_bad_seat_is_refused(seat: Any) -> None:
    # Before: Action(7, "escape") was accepted and returns() raised IndexError;
    # Action(-1, "escape") charged seat 3, who paid himself.
    state = peng_window()
    refused(state, Action(seat, "escape"))
    assert not state.is_terminal()
    state.apply(Action(3, "escape"))
    assert state.result().escaped == 3


@pytest.mark.parametrize(
    "bad",
    [
        Action(7, "pass"),
        Action(-1, "pass"),
        Action(1, "pass", 5),
        Action(1, "pass", None, (5,)),
        Action(2, "pass", t("5m")),
        Action(1, "escape", 0),
        Action(0, "pass"),  # the discarder
        Action(1, "peng"),
        Action(2, "discard", t("5m")),
    ],
)
def test_junk_in_a_claim_window_is_refused(bad: Action) -> None:
    refused(peng_window(), bad)


@pytest.mark.parametrize(
    "bad",
    [
        Action(0, "discard", 34),
        Action(0, "discard", -1),
        Action(0, "discard", 99),
        Action(0, "kong", 40),
        Action(0, "chi", None, (0, 34)),
        Action(0, "kong", t("1m"), (-1, 0, 0, 0)),
        Action(0, "hu", t("5m")),
        Action(0, "flower"),
    ],
)
def test_tiles_out_of_range_and_unknown_types_are_refused(bad: Action) -> None:
    deal = partial_deal(PENG_HANDS)
    opts = match_options({"horses": False}, first_dealer=0)
    state = new_state("guangdong", deal, options=opts, start=start_of(0, {"dealer_run": 1}))
    refused(state, bad)


def test_an_ill_typed_action_equal_to_a_legal_one_is_refused_before_anything_changes() -> None:
    # Before: Action(0.0, "discard", 5) == a legal action passed the check, then raised
    # TypeError halfway through the commit with history, phase and discards changed.
    deal = partial_deal(PENG_HANDS)
    opts = match_options({"horses": False}, first_dealer=0)
    state = new_state("guangdong", deal, options=opts, start=start_of(0, {"dealer_run": 1}))
    five = t("5m")
    make: Any = Action
    for bad in [
        make(0.0, "discard", five),
        make(0, "discard", float(five)),
        make(0, "discard", True),
        (0, "discard", five, ()),
    ]:
        refused(state, bad)
    state.apply(Action(0, "discard", five))
    for bad in [make(2.0, "peng"), make(2, "peng", None, [five, five]), make(1.0, "pass")]:
        refused(state, bad)


@pytest.mark.parametrize("seat", [-1, 4, True, 1.0, None])
def test_observation_and_legal_actions_refuse_bad_seats(seat: Any) -> None:
    # Before: observation(-1) returned seat 3's view.
    state = peng_window()
    with pytest.raises(IllegalActionError):
        state.observation(seat)
    with pytest.raises(IllegalActionError):
        state.legal_actions(seat)


def test_nothing_is_accepted_after_the_end() -> None:
    state = peng_window()
    state.apply(Action(2, "escape"))
    for bad in [Action(2, "escape"), Action(1, "pass"), Action(2, "peng"), Action(3, "escape")]:
        refused(state, bad)


# -- 5. wilds in melds in records ------------------------------------------------------------
def _wild_melds_options(variant: str) -> dict[str, Any] | None:
    """The first option combination with wilds in melds, if the variant has one."""
    v = VARIANTS[variant]
    return next(
        (o for o in option_grid(variant) if v.rules.wilds_in_melds(v.resolve_options(o))), None
    )


WILD_VARIANTS = [(v, o) for v in ALL if (o := _wild_melds_options(v)) is not None]


def wild_forms(rec: dict[str, Any], wild: dict[int, int | None]) -> set[str]:
    """Which FORMAT.md wild-meld forms a record lists: chi / peng with a wild, and kongs
    with ``tiles`` of 1 (added), 3 (direct) or 4 (concealed) tiles."""
    found = set()
    for index, hand in enumerate(rec["hands"]):
        w = wild[index]
        for a in hand["actions"]:
            if "tiles" not in a or w is None:
                continue
            tiles = [int(x) for x in parse_tiles(a["tiles"])]
            if w not in tiles:
                continue
            found.add(a["type"] if a["type"] != "kong" else f"kong{len(tiles)}")
    return found


def test_some_variant_has_wilds_in_melds() -> None:
    assert [v for v, _ in WILD_VARIANTS] == ["hangzhou"]


@pytest.mark.parametrize(("variant", "options"), WILD_VARIANTS)
def test_records_with_wilds_in_melds_are_read_written_and_replayed(
    variant: str, options: dict[str, Any]
) -> None:
    # FORMAT.md: a chi with a wild is {"type": "chi", "tiles": "4m5z"}; a kong with a wild
    # {"type": "kong", "tile": "6s", "tiles": "666s5z"} (concealed) or {"type": "kong",
    # "tile": "7z", "tiles": "5z"} (a wild added onto a 7z peng).
    seen: set[str] = set()
    for seed in range(400):
        match = play_random_match(variant, options, seed, hands=3)
        rec = json.loads(json.dumps(record_json(match)))
        forms = wild_forms(rec, {i: d.state.wild for i, d in enumerate(match.finished)})
        if not forms - seen:
            continue
        seen |= forms
        assert replay(rec) == result_json(match)
        assert record_json(replay_match(rec)) == rec
        if seen >= {"chi", "peng", "kong1", "kong3", "kong4"}:
            break
    assert seen >= {"chi", "peng", "kong1", "kong3", "kong4"}, seen


KA = "47m147p147s12346z"
KB = "258m258p258s1236z"
KC = "36m369p369s12346z"
A = "147m147p147s1234z"
C = "369m369p369s3467z"


@pytest.mark.parametrize(
    ("hands", "tail", "actions", "kind", "wilds"),
    [
        # chi 234m with 4m + the wild 5z for the claimed 3m
        ([A + " 3m", "4m55z8m258p258s127z", C, "258m369p147s3467z"], "",
         [(0, "discard", "3m"), (1, "chi", None, "4m5z")], "chi", 1),
        # peng 7z with 7z + 5z
        ([A + " 7z", "4m8m258p258s126z5z", "7z55z369m369p369s4z", "258m369p147s3467z"], "",
         [(0, "discard", "7z"), (2, "peng", None, "57z")], "peng", 1),
        # direct kong 7z with 7z + 5z5z
        ([A + " 7z", "4m8m258p258s126z5z", "7z55z369m369p369s4z", "258m369p147s3467z"], "",
         [(0, "discard", "7z"), (2, "kong", "7z", "557z")], "kong_direct", 2),
        # concealed kong 7z with 777z + 5z
        (["777z5555z147m147p 1s", KA, KB, KC], "", [(0, "kong", "7z", "5777z")],
         "kong_concealed", 1),
        # a wild added onto a 7z peng
        ([KA + " 7z", "77z5z147m258p369s4z", KB, KC], "9s 1z",
         [(0, "discard", "7z"), (1, "peng"), (1, "kong", "7z", "5z")], "kong_added", 1),
    ],
)
def test_hangzhou_wild_melds_in_format_notation(
    hands: list[str], tail: str, actions: list[tuple[Any, ...]], kind: str, wilds: int
) -> None:
    rec = record(
        "hangzhou",
        [hand_entry(partial_deal(hands, tail=tail), actions, autoplay="tsumogiri")],
        options={"wild_in_melds": True},
        counters={"lao": 1},
    )
    match = replay_match(rec)
    state = match.finished[0].state
    melds = [m for ms in state.melds for m in ms if m.kind == kind]
    assert melds and melds[0].wilds == wilds
    written = record_json(match)
    listed = written["hands"][0]["actions"][: len(actions)]
    assert listed == rec["hands"][0]["actions"]  # written back in the same notation
    assert replay(written) == replay(rec)
    assert record_json(replay_match(written)) == written


def test_a_wild_meld_the_hand_cannot_make_is_refused() -> None:
    # Two wilds named where the hand holds one: refused, saying where.
    hands = [A + " 7z", "4m8m258p258s126z5z", "7z5z369m369p369s4z1p", "258m369p147s3467z"]
    rec = record(
        "hangzhou",
        [hand_entry(partial_deal(hands), [(0, "discard", "7z"), (2, "kong", "7z", "557z")])],
        options={"wild_in_melds": True},
        counters={"lao": 1},
    )
    with pytest.raises(RecordError, match="action 1, seat 2"):
        replay(rec)
