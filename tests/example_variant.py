"""示例麻将 Example mahjong: a small test-only variant written through the public hook API
alone (docs/adding-a-variant.md walks through it; tests/test_adding_a_variant.py plays it).

The rules, in plain words (U = base_score):
- 136 tiles, or 108 without honors (option ``honors``); no flowers, no wilds.
- Claims: win, kong, peng, and chi from the previous seat, at most ``max_chi`` chis a hand.
- A hand's value V is the sum of its patterns' 番 (平胡 1 when no other applies), plus the
  dealer's run ``streak`` when the dealer wins (连庄).
- Self-draw: each other seat pays V x U. Win on a discard or by robbing a kong: the
  discarder pays 3 x V x U, or each other seat V x U with ``discard_pay`` = all.
- Kongs are paid in a won hand only: concealed 2U from each other seat, added 1U from
  each, direct 3U from the discarder.
- 跟庄: if the first four discards are one kind, before any claim or kong, the dealer pays
  each other seat U (option ``follow_dealer``), won hand or drawn.
- The dealer keeps the deal after his own win or a drawn hand (streak + 1); otherwise his
  next seat deals and the streak is 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from majiang.hand import decompositions
from majiang.rules.base import SEAT_CHOICES, BaseRules, Option, Restriction, Variant, report_key
from majiang.rules.view import HandView
from majiang.scoring import Item
from majiang.values import (
    JSON,
    Action,
    Event,
    HandResult,
    MeldKind,
    Options,
    Score,
    VariantState,
    WinInfo,
    WinType,
)

__all__ = ["EXAMPLE", "FAN", "ExampleRules", "FollowState"]

OPTIONS = (
    Option(
        "honors",
        "bool",
        True,
        "带字牌",
        "play with winds and dragons (136 tiles) or not (108)",
        en="honor tiles",
        doc_zh="带风牌和箭牌（136 张）或不带（108 张）",
    ),
    Option(
        "follow_dealer",
        "bool",
        True,
        "跟庄",
        "the dealer pays U to each seat that followed",
        en="follow the dealer",
        doc_zh="庄家付给每个跟庄的一家 1 个底分",
    ),
    Option(
        "discard_pay",
        "choice",
        "discarder",
        "放铳付分",
        "who pays a discard win: the discarder 3 x V x U, or all three V x U",
        choices=("discarder", "all"),
        en="who pays a discard win",
        doc_zh="点炮胡由谁付：放铳者付 3 × 番 × 底分，或三家各付 番 × 底分",
        choice_names=(("放铳者付", "the discarder"), ("三家都付", "all three")),
    ),
    Option(
        "max_chi",
        "int",
        2,
        "吃牌上限",
        "chis a seat may make in one hand",
        minimum=0,
        en="chi limit",
        doc_zh="每家一局最多吃几次",
    ),
    Option(
        "base_score",
        "int",
        1,
        "底分",
        "U, multiplies every amount",
        minimum=1,
        en="base score",
        doc_zh="所有分数都乘以它",
    ),
    Option(
        "escape_penalty",
        "int",
        0,
        "逃跑扣分",
        "points the escaper pays each other seat",
        minimum=0,
        en="escape penalty",
        doc_zh="逃跑的一方付给其他每家的分数",
    ),
    Option(
        "first_dealer",
        "choice",
        "random",
        "首局庄家",
        "the first dealer: drawn with the match seed, or a seat",
        choices=("random", 0, 1, 2, 3),
        en="first dealer",
        doc_zh="第一局的庄家：随机，或指定座位",
        choice_names=(("随机", "random"), *SEAT_CHOICES),
    ),
)

FAN = {"basic_hand": 1, "concealed_hand": 1, "seven_pairs": 2, "all_pungs": 2, "all_one_suit": 3}
"""番 of each pattern, in the order results report them."""
ORDER = tuple(FAN)


@dataclass(frozen=True, slots=True)
class FollowState(VariantState):
    """跟庄: the kind of the first discards and how many seats discarded it in turn so far;
    ``broken`` once another kind, a claim or a kong came first. Discards are public."""

    tile: int | None = None
    count: int = 0
    broken: bool = False

    @property
    def followed(self) -> bool:
        """All four first discards were one kind."""
        return self.count == 4

    def public(self) -> dict[str, JSON]:
        """Everything: it is made of discards and claims every seat saw."""
        return {"follow_tile": self.tile, "follow_count": self.count, "follow_broken": self.broken}


_START = FollowState()


def _follow(view: HandView) -> FollowState:
    """The hand's FollowState (the engine keeps what ``start`` / ``on_event`` returned)."""
    st = view.variant_state
    return st if isinstance(st, FollowState) else _START


def _chis(view: HandView, seat: int) -> int:
    return sum(1 for m in view.melds[seat] if m.kind == MeldKind.CHI)


class ExampleRules(BaseRules):
    """Hooks of the example; BaseRules gives the rest (no wilds, no reserved tiles …)."""

    def tile_set(self, opts: Options) -> tuple[int, ...] | None:
        """Without honors: the 108 number tiles."""
        return None if opts["honors"] else (4,) * 27 + (0,) * 15

    def initial_counters(self, opts: Options) -> dict[str, int]:
        """A new match starts with no dealer run."""
        return {"streak": 0}

    def start(self, view: HandView) -> FollowState:
        """Nothing discarded yet."""
        return _START

    def on_event(self, view: HandView, event: Event, seat: int, tile: int) -> FollowState:
        """Count the first go-round's discards of the dealer's kind; a claim or kong ends it.
        A draw's ``tile`` is private and never enters the state."""
        now = _follow(view)
        if now.broken or now.followed or event == Event.DRAW:
            return now
        if event != Event.DISCARD:
            return FollowState(now.tile, now.count, True)
        if seat != (view.dealer + now.count) % 4 or now.tile not in (None, tile):
            return FollowState(now.tile, now.count, True)
        return FollowState(tile, now.count + 1)

    def restore_state(self, view: HandView, shown: Mapping[str, JSON]) -> FollowState:
        """Everything is shown, so the state is read back from ``public()``'s fields."""
        tile, count = shown.get("follow_tile"), shown.get("follow_count")
        return FollowState(
            tile if isinstance(tile, int) else None,
            count if isinstance(count, int) else 0,
            shown.get("follow_broken") is True,
        )

    def can_chi(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """At most ``max_chi`` chis a hand."""
        return _chis(view, seat) < int(view.options["max_chi"])

    def restrictions_now(
        self, view: HandView, seat: int, legal: Sequence[Action]
    ) -> list[tuple[str, str]]:
        """漏胡 and the empty wall (BaseRules), and the chi limit once reached."""
        out = super().restrictions_now(view, seat, legal)
        if not view.ended and _chis(view, seat) >= int(view.options["max_chi"]):
            out.append(("chi_limit", str(_chis(view, seat))))
        return out

    def score(self, view: HandView, win: WinInfo | None) -> Score:
        """Patterns of the best reading, V, and every payment (the module docstring)."""
        u = int(view.options["base_score"])
        items = self._follow_items(view, u)
        if win is None:
            return Score((), 0, tuple(items))
        patterns = self._patterns(view, win)
        w = win.winner
        value = sum(FAN[p] for p in patterns)
        if w == view.dealer:
            value += view.counters["streak"]  # 连庄
        how = f"{value} x 底分 {u}"
        zh, en = f"{value} × 底分 {u}", f"{value} x base {u}"
        others = [p for p in range(4) if p != w]
        if win.win_type in (WinType.DISCARD, WinType.ROB_KONG):
            assert win.source is not None
            if view.options["discard_pay"] == "all":
                for p in others:
                    why = win.win_type if p == win.source else "discard_other"
                    items.append(Item("hu", p, w, value * u, how, why, zh, en))
            else:
                items.append(
                    Item(
                        "hu",
                        win.source,
                        w,
                        3 * value * u,
                        f"3 x {how}",
                        win.win_type,
                        f"3 × {zh}",
                        f"3 x {en}",
                    )
                )
        else:
            items += [Item("hu", p, w, value * u, how, win.win_type, zh, en) for p in others]
        for meld, konger in view.kongs:  # 荒庄荒杠: kongs are paid in a won hand only
            if meld.kind == MeldKind.KONG_DIRECT:
                assert meld.source is not None
                items.append(
                    Item(
                        "kong",
                        meld.source,
                        konger,
                        3 * u,
                        f"3 x {u}",
                        meld.kind,
                        f"3 × 底分 {u}",
                        f"3 x base {u}",
                    )
                )
                continue
            each = 2 if meld.kind == MeldKind.KONG_CONCEALED else 1
            items += [
                Item(
                    "kong",
                    p,
                    konger,
                    each * u,
                    f"{each} x {u}",
                    meld.kind,
                    f"{each} × 底分 {u}",
                    f"{each} x base {u}",
                )
                for p in range(4)
                if p != konger
            ]
        return Score(patterns, value, tuple(items))

    def _follow_items(self, view: HandView, u: int) -> list[Item]:
        """跟庄: the dealer pays each other seat U."""
        if not (view.options["follow_dealer"] and _follow(view).followed):
            return []
        d = view.dealer
        return [
            Item(
                "zhuangxian",
                d,
                p,
                u,
                f"1 x 底分 {u}",
                "follow_dealer",
                f"跟庄 1 × 底分 {u}",
                f"followed the dealer: 1 x base {u}",
            )
            for p in range(4)
            if p != d
        ]

    def _patterns(self, view: HandView, win: WinInfo) -> tuple[str, ...]:
        """The reading with the most 番; among equals, report_key's (RULES.md 0.7)."""
        seat = win.winner
        melds = view.melds[seat]
        extra = win.tile if win.win_type in (WinType.DISCARD, WinType.ROB_KONG) else None
        tiles = view.hand_tiles(seat) + ([] if extra is None else [extra])
        whole = view.full_hand(seat, extra)
        common: list[str] = []
        if all(m.kind == MeldKind.KONG_CONCEALED for m in melds):
            common.append("concealed_hand")
        if max(whole) < 27 and len({t // 9 for t in whole}) == 1:
            common.append("all_one_suit")
        shapes = dict(view.shapes)
        if melds:
            shapes["seven_pairs"] = False
        readings: list[tuple[str, ...]] = []
        for d in decompositions(tiles, **shapes):
            found = list(common)
            if d.shape == "seven_pairs":
                found.append("seven_pairs")
            elif all(g.kind == "triplet" for g in d.sets) and MeldKind.CHI not in {
                m.kind for m in melds
            }:
                found.append("all_pungs")
            readings.append(tuple(sorted(found, key=ORDER.index)) or ("basic_hand",))
        return min(readings, key=lambda r: (-sum(FAN[p] for p in r), report_key(r, ORDER)))

    def next_dealer(self, view: HandView, result: HandResult) -> tuple[int, dict[str, int]]:
        """The dealer keeps the deal after his win or a drawn hand (连庄), else his next seat."""
        streak = view.counters["streak"]
        if result.escaped is not None:
            return view.dealer, {"streak": streak}
        if result.win is None or result.win.winner == view.dealer:
            return view.dealer, {"streak": streak + 1}
        return (view.dealer + 1) % 4, {"streak": 0}


RESTRICTIONS = (
    Restriction(
        "chi_limit",
        "吃牌上限",
        "chi limit",
        "A seat may chi at most max_chi times in one hand (2 by default).",
        "you have made {} chis: no more chi this hand",
        now_zh="你已吃了 {} 次：本局不能再吃",
        rule_zh="每家一局最多吃的次数由吃牌上限决定（默认 2 次）。",
        limits=("claim",),
    ),
    Restriction(
        "missed_win",
        "漏胡",
        "passed win",
        "If you pass on a win, you may not win on that tile until your own next draw.",
        "you passed a win on {}: no win on it until your next draw",
        now_zh="你放过了 {} 的胡：到你下次摸牌前不能再胡这张",
        rule_zh="放过一次胡后，到自己下次摸牌前不能再胡这种牌。",
        limits=("win",),
    ),
    Restriction(
        "last_turn",
        "海底",
        "last tile",
        "Once the wall is empty the last discard can only be won on.",
        "the wall is empty: your discard can only be won on",
        now_zh="牌墙已空：你打出的牌只能被胡",
        rule_zh="牌墙摸完后，最后打出的牌只能被胡。",
        limits=("claim",),
    ),
)

EXAMPLE = Variant(
    id="example",
    name="Example mahjong (test-only)",
    zh="示例麻将",
    tile_counts=(4,) * 34 + (0,) * 8,
    options=OPTIONS,
    counters={"streak": 0},
    counter_ranges={"streak": (0, None)},
    rules=ExampleRules(),
    claims=frozenset({"hu", "kong", "peng", "chi"}),
    shapes={"seven_pairs": True, "thirteen_orphans": False},
    missed_rules=frozenset({"win"}),
    patterns={
        "basic_hand": ("平胡", "basic hand"),
        "concealed_hand": ("门前清", "concealed hand"),
        "seven_pairs": ("七对", "seven pairs"),
        "all_pungs": ("碰碰胡", "all pungs"),
        "all_one_suit": ("清一色", "all one suit"),
    },
    names={
        "streak": ("连庄", "hands the dealer has kept"),
        "follow_dealer": ("跟庄", "the first four discards followed the dealer's"),
        "discard_other": ("陪付", "a share of a discard win paid by a seat that did not discard"),
    },
    summary=("可吃碰杠，点炮胡；跟庄庄家赔", "Chi, peng, kong and discard wins; follow the dealer"),
    restrictions=RESTRICTIONS,
    readings=("Kongs are paid only when the hand is won.",),
    readings_zh=("只有胡牌才算杠（荒庄荒杠）。",),
)
