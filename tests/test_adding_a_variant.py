"""Proof of the seam (issue 15): a variant written outside majiang/ through the public hook
API alone (tests/example_variant.py) registers at run time, passes the conformance suite
under every option combination, replays its records, and scores a worked example as
worked out by hand. Registering a duplicate id or a broken declaration is refused."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from example_variant import EXAMPLE, ExampleRules, FollowState
from recordkit import (
    hand_entry,
    items,
    new_state,
    partial_deal,
    record,
    record_action,
    replay_one,
    run,
    t,
    tsumogiri_step,
    tsumogiri_until,
)

from majiang.engine.match import Match
from majiang.engine.state import HandState
from majiang.errors import OptionError, RecordError
from majiang.hand import shanten
from majiang.records import replay
from majiang.rules import (
    BUILT_IN,
    HOOKS,
    VARIANTS,
    get_variant,
    register,
    registered,
    unregister,
    validate_variant,
)
from majiang.rules.base import BaseRules, Option, Reserved, Restriction, Rules, Variant
from majiang.rules.view import HandView
from majiang.testing import check_variant, option_grid
from majiang.values import JSON, Action, ActionType, Event, VariantState, WinInfo, WinType

EXAMPLE_SOURCE = Path(__file__).parent / "example_variant.py"
PUBLIC_API = {
    "majiang.rules.base",
    "majiang.values",
    "majiang.rules.view",
    "majiang.hand",
    "majiang.scoring",
    "majiang.tiles",
}


@pytest.fixture
def example() -> Iterator[Variant]:
    """The example registered for one test only, so other tests see the built-in five."""
    with registered(EXAMPLE) as v:
        yield v
    assert "example" not in VARIANTS


# -- conformance ---------------------------------------------------------------------
def test_check_variant_passes_under_every_option_combination(example: Variant) -> None:
    """2 bools x 1 choice of 2 (first_dealer rotating along): 8 rooms, 100 games each;
    every game's record is replayed (check_variant does it for registered variants)."""
    grid = list(option_grid("example"))
    assert len(grid) == 8
    for n, options in enumerate(grid):
        assert check_variant("example", options, games=100, seed=n) > 0


@dataclass(frozen=True, slots=True)
class Drawn(VariantState):
    """A wrong state: the last drawn tile, made public."""

    tile: int

    def public(self) -> dict[str, JSON]:
        return {"drawn": self.tile}


class LeakyRules(ExampleRules):
    """Wrong: shows every seat the tile just drawn."""

    def on_event(self, view: HandView, event: Event, seat: int, tile: int) -> VariantState | None:
        return Drawn(tile) if event == Event.DRAW else view.variant_state


class PeekingRules(ExampleRules):
    """Wrong: offers a chi depending on the next seat's concealed tiles."""

    def can_chi(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        return sum(view.concealed[(seat + 1) % 4][:9]) < 5


@pytest.mark.parametrize(
    ("rules", "what"),
    [(LeakyRules(), "variant_state {'drawn'"), (PeekingRules(), "legal")],
)
def test_check_variant_catches_a_hook_that_leaks_hidden_tiles(
    rules: ExampleRules, what: str
) -> None:
    """The two-worlds check (docs/adding-a-variant.md) fails a variant whose public state
    or legal actions depend on tiles a seat cannot see."""
    leaky = dataclasses.replace(EXAMPLE, id="leaky", rules=rules)
    with (
        registered(leaky),
        pytest.raises(AssertionError, match=f"tells the two worlds apart: {what}"),
    ):
        check_variant("leaky", {}, games=40)


def _steered(state: HandState, seat: int, rng: random.Random) -> Action:
    """A win when offered; a discard keeping shanten lowest; any claim or pass at random."""
    legal = state.legal_actions(seat)
    if legal[0].type == "hu":
        return legal[0]
    discards = [a for a in legal if a.type == "discard"]
    if not discards:
        return legal[rng.randrange(len(legal))]
    tiles = state.hand_tiles(seat)

    def after(a: Action) -> int:
        rest = list(tiles)
        rest.remove(a.tile)  # type: ignore[arg-type]
        return shanten(rest) * 100 + rng.randrange(100)

    return min(discards, key=after)


def test_random_games_exercise_the_hooks(example: Variant) -> None:
    """Over random games: chis are made and then limited (can_chi, restrictions_now);
    every reported restriction, pattern, reason and counter has a declared name; the
    observation shows FollowState.public() and the state follows the first discards."""
    rng = random.Random(5)
    seen: dict[str, set[str]] = {"restriction": set(), "reason": set(), "pattern": set()}
    for game in range(40):
        match = Match("example", {"max_chi": 1, "first_dealer": game % 4}, seed=game)
        state = match.new_hand()
        while not state.is_terminal():
            state.auto_pass()
            if state.is_terminal():
                break
            for seat in range(4):
                chis = sum(1 for m in state.melds[seat] if m.kind == "chi")
                reported = dict(state.restrictions(seat))
                seen["restriction"] |= set(reported)
                assert (reported.get("chi_limit") == "1") == (chis == 1), (chis, reported)
                assert chis <= 1
                if chis:
                    assert all(a.type != "chi" for a in state.legal_actions(seat))
            follow = state.variant_state
            assert isinstance(follow, FollowState)
            assert state.observation(game % 4).variant_state == follow.public()
            if not follow.broken:  # the first discards, all of one kind, seat after seat
                firsts = [state.discards[(state.dealer + i) % 4][:1] for i in range(follow.count)]
                assert firsts == [[follow.tile]] * follow.count
            seats = state.to_act()
            state.apply(_steered(state, seats[-1], rng))
        res = state.result()
        seen["pattern"] |= set(res.patterns)
        seen["reason"] |= {it.reason for it in res.items}
        match.finish(state)
    assert "chi_limit" in seen["restriction"]
    assert {"self_draw", "discard"} <= seen["reason"]
    for ident in seen["pattern"] | seen["reason"] | {"streak"}:
        example.term(ident)  # OptionError if undeclared
    for ident in seen["restriction"]:
        example.restriction(ident)


# -- a worked example ----------------------------------------------------------------
# Dealer S0 (连庄 streak 1 from the start counters), base_score U = 2. Everyone holds one
# 1z and discards it first, S0, S1, S2, S3 in turn: 跟庄. S0 then draws 9p and throws it,
# S1 chis it with 78p and throws 2z, S2 draws 9m and throws it, and S0 wins on it:
# 111m 234m 567m 789m 99m, no meld, one suit.
# Patterns: concealed_hand 1 + all_one_suit 3 = 4 番; the dealer adds his streak 1: V = 5.
# discard_pay discarder: S2 pays 3 x V x U = 3 x 5 x 2 = 30.
# discard_pay all: S1, S2 and S3 pay V x U = 10 each (S2's reason discard, the others'
#   discard_other).
# 跟庄 (follow_dealer): S0 pays each other seat U = 2.
# Next hand: the dealer won, so he deals again with streak 2.
HANDS = ["1112345677899m1z", "378p147s1234567z", "14p2569s1234567z", "258p368s1234567z"]
DRAWS = "9s 1s 4p 9p 9m"
FIRST_ROUND = [
    (0, "discard", "1z"),
    (1, "discard", "1z"),
    (2, "discard", "1z"),
    (3, "discard", "1z"),
]
ACTIONS = [
    *FIRST_ROUND,
    (0, "discard", "9p"),
    (1, "chi", None, "78p"),
    (1, "discard", "2z"),
    (2, "discard", "9m"),
    (0, "hu"),
]


def worked_example(options: dict[str, Any]) -> dict[str, Any]:
    """The record of the worked example under ``options`` (U = 2, streak 1)."""
    hand = hand_entry(partial_deal(HANDS, draws=DRAWS), ACTIONS)
    return record("example", [hand], options={"base_score": 2, **options}, counters={"streak": 1})


@pytest.mark.parametrize(
    ("options", "want_items", "deltas"),
    [
        (
            {},
            [
                ("hu", 2, 0, 30),
                ("zhuangxian", 0, 1, 2),
                ("zhuangxian", 0, 2, 2),
                ("zhuangxian", 0, 3, 2),
            ],
            [24, 2, -28, 2],
        ),
        (
            {"discard_pay": "all"},
            [
                *[("hu", 1, 0, 10), ("hu", 2, 0, 10), ("hu", 3, 0, 10)],
                *[("zhuangxian", 0, 1, 2), ("zhuangxian", 0, 2, 2), ("zhuangxian", 0, 3, 2)],
            ],
            [24, -8, -8, -8],
        ),
        ({"follow_dealer": False}, [("hu", 2, 0, 30)], [30, 0, -30, 0]),
    ],
)
def test_worked_example_replays_to_the_payments_worked_by_hand(
    example: Variant, options: dict[str, Any], want_items: list[Any], deltas: list[int]
) -> None:
    h = replay_one(worked_example(options))
    assert (h["winner"], h["from"], h["win_type"]) == (0, 2, "discard")
    assert h["patterns"] == ["concealed_hand", "all_one_suit"]
    assert items(h) == sorted(want_items)
    assert h["deltas"] == deltas
    assert h["next"] == {"dealer": 0, "counters": {"streak": 2}}


def test_worked_example_state_reasons_and_chi_limit(example: Variant) -> None:
    """Mid-hand: every seat sees the follow in its observation; the win's reasons; with
    max_chi 0, S1 is not offered the chi and is told why."""
    deal = partial_deal(HANDS, draws=DRAWS)
    state = new_state(
        "example", deal, options={"base_score": 2}, start={"dealer": 0, "counters": {"streak": 1}}
    )
    run(state, FIRST_ROUND)
    for seat in range(4):
        public = state.observation(seat).variant_state
        assert public == {"follow_tile": t("1z"), "follow_count": 4, "follow_broken": False}
    run(state, ACTIONS[4:], to_action=record_action)
    reasons = {(it.kind, it.reason) for it in state.result().items}
    assert reasons == {("hu", "discard"), ("zhuangxian", "follow_dealer")}

    state = new_state("example", deal, options={"max_chi": 0}, start={"dealer": 0})
    run(state, FIRST_ROUND)
    state.apply(Action(0, ActionType.DISCARD, t("9p")))
    assert [str(a) for a in state.legal_actions(1)] == ["S1 pass"]
    assert ("chi_limit", "0") in state.restrictions(1)
    assert example.restriction("chi_limit").now.format("0").startswith("you have made 0 chis")


def test_a_seat_that_declared_hu_is_not_told_it_cannot_win(example: Variant) -> None:
    """Found by the example: S0 has declared hu on S2's 9m while S1 and S3 still decide;
    S0 must not be shown no_discard_win ("complete, but may not win") in the meantime."""
    deal = partial_deal(HANDS, draws=DRAWS)
    state = new_state("example", deal, options={}, start={"dealer": 0})
    run(state, ACTIONS[:-2], to_action=record_action)
    state.apply(Action(2, ActionType.DISCARD, t("9m")))
    assert state.to_act() == [0, 1, 3]
    state.apply(Action(0, ActionType.HU))
    assert state.to_act() == [1, 3]
    assert state.restrictions(0) == []
    state.auto_pass()
    assert state.result().win == WinInfo(0, WinType.DISCARD, t("9m"), 2)


def test_a_claim_breaks_the_follow(example: Variant) -> None:
    """S1 chis the dealer's first discard: no 跟庄 whatever is discarded after."""
    hands = ["1112345677899m9p", "378p147s1234567z", "14p2569s1234567z", "258p368s1234567z"]
    deal = partial_deal(hands, draws="9s 1s 4p")
    state = new_state("example", deal, options={}, start={"dealer": 0})
    run(state, [(0, "discard", "9p"), (1, "chi", None, "78p")], to_action=record_action)
    assert state.observation(3).variant_state == {
        "follow_tile": t("9p"),
        "follow_count": 1,
        "follow_broken": True,
    }


def test_the_wall_end_defaults(example: Variant) -> None:
    """The example keeps the defaults of docs/adding-a-variant.md: kong_min_live 1,
    claim_end_live 0, draw_end_live 0. R starts at 136 - 53 = 83; with nothing claimed,
    draw k goes to seat k mod 4: draw 82 (R = 1) to S2, draw 83 (R = 0) to S3."""
    hands = ["", "666p88s", "7777s8s", "5555m6p"]
    state = new_state("example", partial_deal(hands), options={}, start={"dealer": 0})
    assert state.live == 83
    tsumogiri_until(state, 1)
    assert state.current == 2 and "S2 kong 7s" in {str(a) for a in state.legal_actions(2)}
    trial = state.clone()
    trial.apply(Action(2, ActionType.DISCARD, t("8s")))  # R = 1: its discard may be claimed
    assert Action(1, ActionType.PENG) in trial.legal_actions(1)
    tsumogiri_step(state)  # nobody claims S2's drawn tile; S3 draws the last tile
    assert state.current == 3 and state.live == 0
    assert not any(a.type == ActionType.KONG for a in state.legal_actions(3))  # no replacement
    state.apply(Action(3, ActionType.DISCARD, t("6p")))  # only a win could claim it: none
    state.auto_pass()
    assert state.is_terminal() and state.result().win is None


class _KeepsItsState(ExampleRules):
    """The example following nothing: its on_event is BaseRules' default."""

    def on_event(self, view: HandView, event: Event, seat: int, tile: int) -> FollowState:
        """Whatever BaseRules.on_event gives (the state as it is)."""
        kept = BaseRules.on_event(self, view, event, seat, tile)
        assert isinstance(kept, FollowState)
        return kept


def test_the_default_on_event_keeps_the_state() -> None:
    """docs/adding-a-variant.md (the hook table): on_event's default returns
    ``view.variant_state``, so a variant that follows nothing keeps its state as ``start``
    made it, through discards and claims alike."""
    hands = ["1112345677899m9p", "378p147s1234567z", "14p2569s1234567z", "258p368s1234567z"]
    deal = partial_deal(hands, draws="9s 1s 4p")
    with registered(dataclasses.replace(EXAMPLE, id="keeps", rules=_KeepsItsState())):
        state = new_state("keeps", deal, options={}, start={"dealer": 0})
        run(state, [(0, "discard", "9p"), (1, "chi", None, "78p")], to_action=record_action)
        assert isinstance(state.variant_state, FollowState)
        assert state.observation(3).variant_state == FollowState().public()


# -- registering -----------------------------------------------------------------------
def test_records_of_a_registered_variant_replay_and_fail_once_unregistered() -> None:
    rec = worked_example({})
    with registered(EXAMPLE):
        assert get_variant("example") is EXAMPLE
        assert replay(rec)["hands"][0]["deltas"] == [24, 2, -28, 2]
        with pytest.raises(OptionError, match="already registered"):
            register(EXAMPLE)
        with pytest.raises(OptionError, match="already registered"):
            register(dataclasses.replace(EXAMPLE, name="Another"))
    with pytest.raises(RecordError, match="unknown variant 'example'"):
        replay(rec)
    with pytest.raises(OptionError, match="no variant 'example' is registered"):
        unregister("example")


@pytest.mark.parametrize("vid", sorted(BUILT_IN))
def test_built_in_variants_are_valid_and_stay(vid: str) -> None:
    variant = VARIANTS[vid]
    validate_variant(variant)
    with pytest.raises(OptionError, match="already registered"):
        register(variant)
    with pytest.raises(OptionError, match="built in"):
        unregister(vid)
    assert VARIANTS[vid] is variant


def _with_option(option: Option) -> dict[str, Any]:
    """EXAMPLE's options with ``option`` in place of the one of its name."""
    return {"options": tuple(option if o.name == option.name else o for o in EXAMPLE.options)}


BAD: list[tuple[dict[str, Any], str]] = [
    ({"id": "Example-2"}, "a variant id is lowercase"),
    ({"zh": ""}, r"\(zh, name\) needs a \(Chinese, English\) name"),
    ({"rules": object()}, "rules lack the hooks reserved_counts, .*score, next_dealer"),
    (
        _with_option(Option("max_chi", "int", -1, "吃牌上限", "chis", minimum=0, en="chi limit")),
        "option 'max_chi': the default",
    ),
    (
        _with_option(
            Option(
                "discard_pay",
                "choice",
                "nobody",
                "放铳付分",
                "who",
                ("discarder", "all"),
                en="who pays a discard win",
            )
        ),
        "option 'discard_pay': the default",
    ),
    (
        _with_option(Option("honors", "bool", 1, "带字牌", "honors", en="honor tiles")),
        "option 'honors': the default",
    ),
    (
        _with_option(Option("honors", "flag", True, "带字牌", "honors", en="honor tiles")),
        "kind must be bool, int or choice",
    ),
    (
        _with_option(
            Option("first_dealer", "choice", 0, "首局庄家", "who", (0, 4), en="first dealer")
        ),
        "takes 'random' or seats 0-3",
    ),
    ({"options": (*EXAMPLE.options, EXAMPLE.options[0])}, "an option is declared twice"),
    ({"patterns": {}}, "declares no patterns"),
    (
        {"patterns": {**EXAMPLE.patterns, "all_pungs": ("碰碰胡", "")}},
        "pattern 'all_pungs' needs a",
    ),
    ({"names": {}}, "counter 'streak' has no name"),
    ({"counter_ranges": {"streak": (1, None)}}, "counter 'streak' starts at 0, outside its range"),
    ({"claims": frozenset({"hu", "ron"})}, "claims are among hu, kong, peng, chi"),
    ({"missed_rules": frozenset({"win", "peng"})}, "declare the restrictions missed_peng"),
    (
        {"restrictions": (*EXAMPLE.restrictions, Restriction("chi_limit", "吃", "chi", "x"))},
        "declared twice",
    ),
    ({"tile_counts": (4,) * 34 + (0,) * 7}, "a tile set is 42 counts"),
    ({"shapes": {"seven_pair": True}}, "unknown shape flags"),
    # issue 14 (mutation survivors): each check of an option's declaration, and the summary
    (
        {"options": (*EXAMPLE.options, Option("Max-Kong", "int", 0, "杠", "kongs", minimum=0))},
        "option 'Max-Kong': a name is lowercase",
    ),
    (
        _with_option(Option("honors", "bool", True, "", "honors", en="honor tiles")),
        "needs a Chinese name",
    ),
    (
        _with_option(Option("honors", "bool", True, "带字牌", " ", en="honor tiles")),
        "needs a Chinese name",
    ),
    (_with_option(Option("honors", "bool", True, "带字牌", "honors")), "an English name"),
    (
        _with_option(
            Option(
                "discard_pay",
                "choice",
                "all",
                "放铳付分",
                "who",
                ("all", "all"),
                en="who pays a discard win",
            )
        ),
        "a choice needs at least two distinct choices",
    ),
    (
        _with_option(
            Option("honors", "bool", True, "带字牌", "honors", (True, False), en="honor tiles")
        ),
        "only a choice lists choices",
    ),
    (
        _with_option(
            Option(
                "escape_penalty", "int", 0, "逃跑扣分", "points", minimum=-1, en="escape penalty"
            )
        ),
        "option 'escape_penalty': is an int with minimum >= 0",
    ),
    (
        _with_option(
            Option("escape_penalty", "choice", 0, "逃跑扣分", "points", (0, 8), en="escape penalty")
        ),
        "option 'escape_penalty': is an int with minimum >= 0",
    ),
    ({"summary": ("只能自摸", "")}, r"summary needs a \(Chinese, English\) name"),
    # ... and of the tile set, claims, restrictions, reserved purposes and counters
    ({"tile_counts": (5,) + (4,) * 33 + (0,) * 8}, "a tile set is 42 counts of 0-4"),
    ({"tile_counts": (-1,) + (4,) * 33 + (0,) * 8}, "a tile set is 42 counts of 0-4"),
    ({"tile_counts": (4,) * 13 + (1,) + (0,) * 28}, "53 tiles are too few to deal four hands"),
    (
        {"claims": frozenset({"hu", "peng"}), "wild_discard_claims": frozenset({"chi"})},
        "wild_discard_claims must be among its claims",
    ),
    ({"missed_rules": frozenset({"chi"})}, "missed_rules are among win, peng"),
    (
        {"restrictions": (*EXAMPLE.restrictions, Restriction("odd", "", "odd", "a rule"))},
        r"restriction 'odd' needs a \(Chinese, English\) name",
    ),
    (
        {"restrictions": (*EXAMPLE.restrictions, Restriction("odd", "怪", "odd", " "))},
        "restriction 'odd' says no rule",
    ),
    (
        {
            "restrictions": (
                *EXAMPLE.restrictions,
                Restriction("odd", "怪", "odd", "a rule", limits=("draw",)),  # type: ignore[arg-type]
            )
        },
        r"restriction 'odd' limits \['draw'\]: each once, among discard, win, claim, kong",
    ),
    # claim_end_live 0 (the default) reports the last turn, final_live the last tile (D8)
    ({"restrictions": EXAMPLE.restrictions[:2]}, "declare the restrictions last_turn"),
    ({"final_live": 15}, "declare the restrictions last_tile"),
    (
        {"reserved": (Reserved("birds", "鸟牌", "birds"), Reserved("birds", "鸟", "bird"))},
        "a reserved purpose is declared twice",
    ),
    ({"counters": {"streak": -1}, "counter_ranges": {}}, "counter 'streak' starts at -1"),
    (
        {"counter_ranges": {"streak": (0, None), "round": (0, 3)}},
        "ranges for undeclared counters round",
    ),
]

ALL_SHAPES = (
    "seven_pairs",
    "thirteen_orphans",
    "quads_as_two_pairs",
    "wild_numbers_only",
    "wild_pairs_natural",
)
EDGES: list[dict[str, Any]] = [
    {"tile_counts": (4,) * 13 + (2,) + (0,) * 28},  # 54 tiles: enough to deal
    {"wild_discard_claims": EXAMPLE.claims},
    {"shapes": dict.fromkeys(ALL_SHAPES, False)},  # every shape flag there is
    {"missed_rules": frozenset(), "claim_end_live": -1, "restrictions": ()},  # none needed
    {"counter_ranges": {}},  # a counter without a range starts at 0 or more
    {"counter_ranges": {"streak": (0, 0)}},  # the start may be the highest value allowed
]


@pytest.mark.parametrize("change", EDGES)
def test_a_declaration_at_the_edge_of_each_check_is_accepted(change: dict[str, Any]) -> None:
    validate_variant(dataclasses.replace(EXAMPLE, id="edge", **change))


def test_register_and_unregister_return_the_variant() -> None:
    other = dataclasses.replace(EXAMPLE, id="example_two")
    assert register(other) is other
    assert get_variant("example_two") is other
    assert unregister("example_two") is other
    assert "example_two" not in VARIANTS


@pytest.mark.parametrize(("change", "message"), BAD)
def test_a_bad_declaration_is_refused_naming_what_is_wrong(
    change: dict[str, Any], message: str
) -> None:
    change = {"id": "broken", **change}
    bad = dataclasses.replace(EXAMPLE, **change)
    with pytest.raises(OptionError, match=message):
        register(bad)
    assert bad.id not in VARIANTS


def test_the_example_uses_the_public_hook_api_alone() -> None:
    """It imports only the modules docs/adding-a-variant.md names, never majiang.engine."""
    tree = ast.parse(EXAMPLE_SOURCE.read_text())
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
    majiang = {m for m in imported if m.split(".")[0] == "majiang"}
    assert majiang <= PUBLIC_API, majiang - PUBLIC_API
    assert not any(m.startswith("majiang.engine") for m in imported)
    assert {"majiang.rules.base", "majiang.values", "majiang.rules.view"} <= majiang


def test_the_guide_tables_every_hook_with_its_parameters() -> None:
    """docs/adding-a-variant.md lists each hook of the Rules protocol once, with the
    parameters it really has (so the guide cannot drift from the seam)."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "adding-a-variant.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| `\(([^)]*)\) ->", doc, flags=re.MULTILINE)
    names = [name for name, _ in rows]
    assert sorted(names) == sorted(HOOKS), set(names) ^ set(HOOKS)
    for name, params in rows:
        real = [p for p in inspect.signature(getattr(Rules, name)).parameters if p != "self"]
        assert params.split(", ") == real, name


def test_the_default_filters_offer_everything_the_engine_offers() -> None:
    # A variant's override may call super() for the seats it leaves alone: the defaults must
    # hand back exactly the actions they got (the engine itself skips hooks not overridden).
    state = Match("guangdong", {}, 0).new_hand()
    rules = BaseRules()
    turn = state.legal_actions(state.current)
    claims = [Action(1, ActionType.PENG), Action(1, ActionType.PASS)]
    assert rules.filter_turn(state, state.current, turn) == turn and turn
    assert rules.filter_claims(state, 1, 0, 4, claims) == claims


# -- followed events -------------------------------------------------------------------
def _following_everything(variant: Variant) -> Variant:
    """``variant`` with its own hooks, but ``on_event`` called for every event."""
    hooks = type(variant.rules)
    every = type(f"{hooks.__name__}AllEvents", (hooks,), {"followed_events": frozenset(Event)})
    return dataclasses.replace(variant, id=f"{variant.id}_all_events", rules=every())


def _step_states(variant_id: str, twin_id: str, seed: int) -> Iterator[tuple[object, object]]:
    """The variant states of two engines fed the same seeded random actions, after each."""
    rng = random.Random(seed)
    mine, theirs = Match(variant_id, {}, seed), Match(twin_id, {}, seed)
    for _ in range(2):
        a, b = mine.new_hand(), theirs.new_hand()
        while not a.is_terminal():
            a.auto_pass()
            b.auto_pass()
            if a.is_terminal():
                break
            seat = rng.choice(a.to_act())
            action = rng.choice([x for x in a.legal_actions(seat) if x.type != "escape"])
            a.apply(action)
            b.apply(action)
            yield a.variant_state, b.variant_state
        mine.finish(a)
        theirs.finish(b)


@pytest.mark.parametrize("variant_id", sorted(BUILT_IN))
def test_followed_events_skip_only_events_that_change_nothing(variant_id: str) -> None:
    """docs/adding-a-variant.md (followed_events): the engine calls ``on_event`` only for
    the events a variant names; an engine that calls it for every event, fed the same
    actions, holds the same variant state after every one of them."""
    with registered(_following_everything(VARIANTS[variant_id])) as every:
        for seed in range(30):
            for step, (mine, theirs) in enumerate(_step_states(variant_id, every.id, seed)):
                assert mine == theirs, (seed, step)


def test_a_variant_following_too_few_events_changes_its_games() -> None:
    """The check above can fail: hangzhou made to skip draws never ends a 抓打 period at
    its owner's next draw, and some seeded game then goes differently."""
    base = VARIANTS["hangzhou"]
    hooks = type(base.rules)
    blind = type("NoDraws", (hooks,), {"followed_events": frozenset({Event.DISCARD})})
    with registered(dataclasses.replace(base, id="hangzhou_no_draws", rules=blind())) as v:
        differs = any(
            mine != theirs
            for seed in range(30)
            for mine, theirs in _step_states("hangzhou", v.id, seed)
        )
    assert differs


def test_register_refuses_rules_without_followed_events() -> None:
    """validate_variant names a ``followed_events`` that is missing or not Events."""
    for bad in (None, {"draw"}, frozenset({"draw"})):
        hooks = type(EXAMPLE.rules)
        odd = type("Odd", (hooks,), {"followed_events": bad})
        with pytest.raises(OptionError, match="followed_events"):
            validate_variant(dataclasses.replace(EXAMPLE, id="odd", rules=odd()))
