"""Every id a variant can show a player has a name in both languages, from its declarations
(issue 12 item 5): patterns, payment kinds and reasons, win types, melds, reserved tiles,
counters and restrictions, collected from many random and greedy games of every variant."""

from __future__ import annotations

import random
import re
import unicodedata
from collections import defaultdict

import pytest

from majiang.bots import GreedyBot, RandomBot
from majiang.engine.match import Match
from majiang.engine.state import Action
from majiang.rules import VARIANTS, Variant

ALL = sorted(VARIANTS)

ROOMS: dict[str, list[dict[str, object]]] = {
    "guangdong": [{}, {"kong_pay_on_draw": True, "hunyise_big": False}],
    "hangzhou": [
        {"start_lao": 3},
        {"start_lao": 3, "discard_pay": "all", "wild_mode": "flipped"},
        {"chengbao": False},
    ],
    "hainan": [{}, {"kong_pay_on_draw": True, "dealer_after_xian_win": "dealer_next"}],
    "hongzhong": [
        {},
        {"rob_kong_pays_all": True, "birds": 6, "bird_value": 2},
        {"no_wild": True, "golden_bird": False, "hongzhong_zimo": True},
    ],
    "taizhou": [{}, {"settlement": "winner_only", "wild_mode": "fixed_white"}],
}

RARE_REASONS = {
    "guangdong": ["kong_after_direct", "rob_kong"],
    "hangzhou": ["santan", "dao_chengbao", "discard"],
    "hainan": ["discard_other", "baopai", "rob_kong"],
    "hongzhong": ["golden_bird", "rob_kong_all", "zhuangxian"],
    "taizhou": ["sheng", "qingyise", "zhongfa", "wild_thrown", "points"],
}
"""Reasons the settle hooks give on paths random games seldom reach (read from the code)."""


def collect(variant: str) -> dict[str, set[str]]:
    """Ids seen in games of the variant, by what they are."""
    seen: dict[str, set[str]] = defaultdict(set)
    rng = random.Random(12)
    for r, options in enumerate(ROOMS[variant]):
        for game in range(16):
            match = Match(variant, dict(options), seed=1000 * r + game)
            for hand in range(3):
                if match.over:
                    break
                state = match.new_hand()
                greedy = game % 2 == 0
                bots = [GreedyBot(rng) if greedy else RandomBot(rng) for _ in range(4)]
                steps = 0
                while not state.is_terminal():
                    seats = state.to_act()
                    for seat in seats:
                        for ident, _ in state.restrictions(seat):
                            seen["restriction"].add(ident)
                    seat = seats[0]
                    if game == 15 and hand == 0 and steps == 20:
                        state.apply(Action(seat, "escape"))
                        break
                    state.apply(bots[seat].act(state.observation(seat), state.legal_actions(seat)))
                    steps += 1
                res = state.result()
                seen["pattern"].update(res.patterns)
                if res.win is not None:
                    seen["term"].add(res.win.win_type)
                for it in res.items:
                    seen["term"].add(it.kind)
                    if it.kind != "escape":
                        assert it.reason, f"{variant}: a {it.kind} item without a reason"
                        seen["term"].add(it.reason)
                for melds in state.melds:
                    seen["term"].update(m.kind for m in melds)
                seen["term"].update(state.reserved)
                seen["term"].update(state.counters)
                match.finish(state)
    return seen


def is_chinese(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)


def is_english(text: str) -> bool:
    return bool(re.search(r"[A-Za-z]{2}", text))


@pytest.mark.parametrize("variant", ALL)
def test_every_id_in_play_has_both_names(variant: str) -> None:
    v = VARIANTS[variant]
    seen = collect(variant)
    assert seen["pattern"] and seen["term"]  # the games did reach settlements
    for ident in sorted(seen["pattern"] | seen["term"] | set(RARE_REASONS[variant])):
        zh, en = v.term(ident)
        assert is_chinese(zh) and is_english(en), (variant, ident, zh, en)
    for ident in sorted(seen["restriction"]):
        r = v.restriction(ident)
        assert is_chinese(r.zh) and is_english(r.en) and r.rule, (variant, ident)
    # every pattern the variant declares is named, and vice versa for what it reports
    assert seen["pattern"] <= set(v.patterns)


@pytest.mark.parametrize("variant", ALL)
def test_declared_texts_are_plain_words(variant: str) -> None:
    """No section numbers a user cannot look up, no characters terminals draw at odd widths."""
    v: Variant = VARIANTS[variant]
    texts = [*v.summary, *v.readings]
    for r in v.restrictions:
        texts += [r.zh, r.en, r.rule, r.now]
    for zh, en in [*v.patterns.values(), *v.names.values()]:
        texts += [zh, en]
    assert v.summary[0] and v.summary[1] and v.readings and v.restrictions
    for text in texts:
        assert not re.search(r"\bD\d+\b|RULES\.md|\.\./shared", text), text
        odd = [c for c in text if unicodedata.east_asian_width(c) == "A"]
        assert not odd, (text, odd)


def test_every_reportable_pattern_is_named() -> None:
    """The pattern lists the rule modules report from (RULES.md 1.4, 2.4, 3.4, 4.4, 5.4)."""
    from majiang.rules import guangdong, hainan, hangzhou, taizhou

    reportable = {
        "guangdong": {*guangdong.PATTERNS, "basic_hand"},
        "hangzhou": {*hangzhou.SHAPE_IDS.values(), "basic_hand", "baotou", "qike", "gang", "piao"},
        "hainan": {*hainan.FAN, "self_draw"},
        "hongzhong": {"basic_hand", "seven_pairs", "heavenly_hand", "four_red_dragons"},
        "taizhou": {*taizhou.FAN_VALUES, "basic_hand"},
    }
    for variant, ids in reportable.items():
        assert set(VARIANTS[variant].patterns) == ids, variant
