"""Hangzhou mahjong 杭州麻将 (RULES.md section 2): 财神 wilds, 爆头, 财飘, 老庄, 摊 and 承包."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from majiang.hand import any_tile_shape, decompositions, is_pairs, is_sets
from majiang.hand.decompose import Decomposition, Group
from majiang.rules.base import (
    FIRST_DEALER,
    WILD_INDICATOR,
    BaseRules,
    Option,
    PlayHints,
    Restriction,
    Variant,
    escape_option,
    indicator_reserved,
    indicator_wild,
)
from majiang.rules.view import HandView
from majiang.scoring import Item, seat_mark
from majiang.values import (
    JSON,
    Action,
    ActionType,
    Event,
    HandResult,
    MeldKind,
    Options,
    Score,
    WinInfo,
    WinType,
)

__all__ = ["HANGZHOU", "chain", "fan"]

# enum members as module-level aliases: CPython 3.11 looks a member up slowly (see
# majiang/engine/state.py), and on_event / filter_turn run at every step
A_CHI = ActionType.CHI
A_DISCARD = ActionType.DISCARD
A_HU = ActionType.HU
A_KONG = ActionType.KONG
M_CHI = MeldKind.CHI
M_PENG = MeldKind.PENG
W_DISCARD = WinType.DISCARD
E_CLAIM = Event.CLAIM
E_DISCARD = Event.DISCARD
E_DRAW = Event.DRAW

WHITE = 31

OPTIONS = (
    Option(
        "wild_mode",
        "choice",
        "fixed",
        "财神",
        "White dragons: the four White dragons are the wilds; a flipped tile: a tile turned "
        "up after the deal names the wild",
        choices=("fixed", "flipped"),
        en="wild tiles",
        doc_zh="固定：四张白板是财神；翻财神：发牌后翻开一张牌，决定财神",
        choice_names=(("白板财神", "White dragons"), ("翻财神", "a flipped tile")),
    ),
    Option(
        "base_score",
        "choice",
        1,
        "底分",
        "b, the base of every payment",
        choices=(1, 2, 3, 5),
        en="base score",
        doc_zh="每笔支付的基数",
        choice_names=(
            ("1 分", "1 point"),
            ("2 分", "2 points"),
            ("3 分", "3 points"),
            ("5 分", "5 points"),
        ),
    ),
    Option(
        "chengbao",
        "bool",
        True,
        "带承包",
        "claim limits (at most two claims on one seat) and liability for three",
        en="claim limits and liability",
        doc_zh="摊的限制（同一家最多吃碰杠两次）和三摊承包",
    ),
    Option(
        "wild_in_melds",
        "bool",
        True,
        "财神可吃碰杠",
        "wilds may stand in chi, peng and kongs",
        en="wilds in melds",
        doc_zh="财神可以当作吃、碰、杠中的牌",
    ),
    Option(
        "wild_luxury_quad",
        "bool",
        False,
        "财神替豪七杠子",
        "a kind made four with wilds counts as a quadruple in luxury seven pairs",
        en="wild quads in luxury seven pairs",
        doc_zh="豪华七对子中，用财神凑成的四张算一个杠子",
    ),
    Option(
        "discard_pay",
        "choice",
        "discarder",
        "放铳付分",
        "who pays a discard win: the discarder, or all three",
        choices=("discarder", "all"),
        en="who pays a discard win",
        doc_zh="点炮胡由谁付：放铳者一家，还是三家都付",
        choice_names=(("放铳者付", "the discarder"), ("三家都付", "all three")),
    ),
    Option(
        "start_lao",
        "choice",
        1,
        "起庄",
        "the level L of a new dealer: plain 1, second level 2, third level 3",
        choices=(1, 2, 3),
        en="new dealer's level",
        doc_zh="新庄家的老庄等级：平庄起 1、笃二老庄 2、笃三老庄 3",
        choice_names=(
            ("平庄起", "plain (level 1)"),
            ("笃二老庄", "level 2"),
            ("笃三老庄", "level 3"),
        ),
    ),
    escape_option(0),
    FIRST_DEALER,
)

SHAPE_IDS = {
    (False, 0): "seven_pairs",
    (False, 1): "luxury_seven_pairs",
    (False, 2): "double_luxury_seven_pairs",
    (False, 3): "triple_luxury_seven_pairs",
    (True, 0): "pure_seven_pairs",
    (True, 1): "luxury_pure_seven_pairs",
    (True, 2): "double_luxury_pure_seven_pairs",
    (True, 3): "triple_luxury_pure_seven_pairs",
}


def chain(log: Sequence[str]) -> tuple[int, int, int]:
    """(n 飘 in the chain, m 杠 in it, m after its last 飘) read back from the last draw (D35)."""
    n = m = m_after = 0
    seen_piao = False
    for code in reversed(log):
        if code in ("X", "C"):
            break
        if code == "P":
            n += 1
            seen_piao = True
        elif code == "K":
            m += 1
            if not seen_piao:
                m_after += 1
    return n, m, m_after


def fan(shape: int, baotou: bool, n: int, m: int) -> int:
    """F = S x G x 2^(n+m) (RULES.md 2.4, D20)."""
    return shape * (2 if baotou else 1) << (n + m)


class HangzhouState(NamedTuple):
    """抓打 (D24): the seat whose wild discard restricts the others until its next turn."""

    zhuada: int | None = None

    def public(self) -> dict[str, JSON]:
        """The 抓打 owner is public: everyone saw the wild discarded."""
        return {"zhuada": self.zhuada}


_NO_ZHUADA = HangzhouState()


def _state(view: HandView) -> HangzhouState:
    """The hand's hangzhou state (the engine keeps what ``start``/``on_event`` returned)."""
    st = view.variant_state
    return st if isinstance(st, HangzhouState) else _NO_ZHUADA


class HangzhouRules(BaseRules):
    """Hooks of hangzhou."""

    def reserved_counts(self, opts: Options, counters: Mapping[str, int]) -> dict[str, int]:
        """The flipped wild indicator, when 翻财神 (RULES.md 2.1)."""
        return indicator_reserved(opts)

    def wild_kind(self, opts: Options, reserved: Mapping[str, tuple[int, ...]]) -> int | None:
        """白板 (fixed) or the indicator's kind (flipped, D33)."""
        return indicator_wild(opts, reserved, WHITE)

    def wilds_in_melds(self, opts: Options) -> bool:
        """Option wild_in_melds (D28)."""
        return bool(opts["wild_in_melds"])

    def initial_counters(self, opts: Options) -> dict[str, int]:
        """L starts at start_lao (D23)."""
        return {"lao": int(opts["start_lao"])}

    def start(self, view: HandView) -> HangzhouState:
        """No 抓打 period at the deal."""
        return _NO_ZHUADA

    followed_events = frozenset({E_DISCARD, E_DRAW, E_CLAIM})
    """抓打 starts at a wild discard and ends at its owner's next draw or claim."""

    def on_event(self, view: HandView, event: Event, seat: int, tile: int) -> HangzhouState:
        """抓打 (D24): a wild discard starts a period; its owner's next turn ends it."""
        now = view.variant_state
        if not isinstance(now, HangzhouState):  # inline: on_event runs at every step
            now = _NO_ZHUADA
        if event == E_DISCARD and tile == view.wild:
            return HangzhouState(seat)
        if event in (E_DRAW, E_CLAIM) and seat == now.zhuada:
            return _NO_ZHUADA
        return now

    def restore_state(self, view: HandView, shown: Mapping[str, JSON]) -> HangzhouState:
        """The 抓打 owner is all the state there is, and it is shown."""
        owner = shown.get("zhuada")
        return HangzhouState(owner) if isinstance(owner, int) else _NO_ZHUADA

    def _restricted(self, view: HandView, seat: int) -> bool:
        st = view.variant_state
        owner = st.zhuada if isinstance(st, HangzhouState) else None
        return owner is not None and owner != seat

    def filter_turn(self, view: HandView, seat: int, actions: list[Action]) -> list[Action]:
        """A restricted seat may only self-draw, concealed-kong, or discard its drawn tile."""
        if not self._restricted(view, seat):
            return actions
        pengs = {m.tiles[0] for m in view.melds[seat] if m.kind == M_PENG}
        keep = []
        for a in actions:
            if (
                a.type == A_HU
                or (a.type == A_KONG and (a.tile not in pengs or len(a.tiles) == 4))
                or (a.type == A_DISCARD and a.tile == view.drawn)
            ):
                keep.append(a)
        return keep

    def filter_claims(
        self, view: HandView, seat: int, discarder: int, tile: int, actions: list[Action]
    ) -> list[Action]:
        """抓打 bars every claim; 摊 limits (D31) or at most two chi without 承包."""
        if self._restricted(view, seat):
            return []
        source = discarder
        lao = view.counters.get("lao", 1)
        if view.options["chengbao"]:
            if view.claims_count[seat][source] >= 2 and not (
                lao == 3 and view.dealer in (seat, source)
            ):
                return [a for a in actions if a.type == A_HU]
            return actions
        chis = sum(1 for m in view.melds[seat] if m.kind == M_CHI)
        if chis >= 2:
            return [a for a in actions if a.type != A_CHI]
        return actions

    def restrictions_now(
        self, view: HandView, seat: int, legal: Sequence[Action]
    ) -> list[tuple[str, str]]:
        """Besides 漏胡 / 漏碰: 抓打 (D24) and the 摊 limit (D31) in force for ``seat``."""
        out = super().restrictions_now(view, seat, legal)
        if view.ended:
            return out
        if self._restricted(view, seat):
            out.insert(0, ("zhuada", f"S{_state(view).zhuada}"))
        lao = view.counters.get("lao", 1)
        if view.options["chengbao"]:
            full = [
                f"S{p}"
                for p in range(4)
                if p != seat
                and view.claims_count[seat][p] >= 2
                and not (lao == 3 and view.dealer in (seat, p))
            ]
            if full:
                out.append(("tan", " ".join(full)))
        elif sum(1 for m in view.melds[seat] if m.kind == M_CHI) >= 2:
            out.append(("two_chi", ""))
        return out

    def may_win_on_discard(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """3老 and exactly one of discarder and claimer the dealer (2.3 (a), (b))."""
        return view.counters.get("lao", 1) == 3 and (discarder == view.dealer) != (
            seat == view.dealer
        )

    def can_win_on_discard(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """Only at 3老, between dealer and non-dealer, and never when 爆头-ready (2.3)."""
        source = discarder
        if view.counters.get("lao", 1) != 3:
            return False
        if (source == view.dealer) == (seat == view.dealer):
            return False
        if self._restricted(view, seat):
            return False
        return not self._baotou_ready(view, view.hand_tiles(seat), seat)

    def _baotou_ready(self, view: HandView, tiles: list[int], seat: int) -> bool:
        """Taking one wild out leaves only sets, or (no melds) six pairs (D34)."""
        return any_tile_shape(tiles, view.wild, not view.melds[seat]) > 0

    def score(self, view: HandView, win: WinInfo | None) -> Score:
        """The shape, baotou/qike, then gang x m and piao x n, for the highest F; payments."""
        if win is None:
            return Score((), 0, ())  # RULES.md 2.5: a draw pays nothing
        ids, f, why = self._best(view, win)
        return Score(ids, f, tuple(self._settle(view, win, f, why)))

    def _best(
        self, view: HandView, win: WinInfo
    ) -> tuple[tuple[str, ...], int, tuple[str, str, str]]:
        seat = win.winner
        wild = view.wild
        concealed = view.hand_tiles(seat)
        if win.win_type == W_DISCARD:
            concealed.append(win.tile)
        self_draw = win.win_type != W_DISCARD
        before = list(concealed)
        if self_draw:
            before.remove(win.tile)
        n, m, m_after = chain(view.seat_log[seat]) if self_draw else (0, 0, 0)
        best: tuple[int, list[str], tuple[str, str, str]] = (0, [], ("", "", ""))
        no_melds = not view.melds[seat]
        readings = decompositions(
            concealed, wild=wild, seven_pairs=no_melds, thirteen_orphans=False
        )
        for reading in readings:
            if reading.shape == "standard":
                shape_id, s = "basic_hand", 1
                g = (
                    self_draw
                    and wild is not None
                    and wild in before
                    and self._sets_after_wild(before, wild)
                )
                tag = "baotou"
            else:
                has_wild = wild is not None and wild in concealed
                q = self._quads(reading, bool(view.options["wild_luxury_quad"]))
                q = min(q, 3)
                shape_id = SHAPE_IDS[(not has_wild, q)]
                s = (4 if not has_wild else 2) * 2**q
                g = (
                    self_draw
                    and wild is not None
                    and wild in before
                    and self._pairs_after_wild(before, wild)
                )
                tag = "qike"
            nn, mm = (n, m) if g else (0, m_after)
            f = fan(s, g, nn, mm)
            ids = [shape_id] + ([tag] if g else []) + ["gang"] * mm + ["piao"] * nn
            if f > best[0] or (f == best[0] and len(ids) > len(best[1])):
                gg, power = 2 if g else 1, f"2^({nn}+{mm})"
                why = (
                    f"F = S {s} x G {gg} x {power} = {f}",
                    f"番 = 牌型 {s} × 爆头 {gg} × {power} = {f}",
                    f"F = shape {s} x wild pair head {gg} x {power} = {f}",
                )
                best = (f, ids, why)
        return tuple(best[1]), best[0], best[2]

    @staticmethod
    def _sets_after_wild(before: list[int], wild: int) -> bool:
        rest = list(before)
        rest.remove(wild)
        return is_sets(rest, wild=wild)

    @staticmethod
    def _pairs_after_wild(before: list[int], wild: int) -> bool:
        rest = list(before)
        rest.remove(wild)
        return len(rest) == 12 and is_pairs(rest, wild=wild)

    @staticmethod
    def _quads(reading: Decomposition, wild_quads: bool) -> int:
        """Quadruples of a seven-pairs reading: physically identical four, or with wilds (D22)."""
        per_kind: dict[int, list[Group]] = {}
        for g in reading.groups:
            per_kind.setdefault(int(g.tiles[0]), []).append(g)
        q = 0
        for groups in per_kind.values():
            if len(groups) == 2 and (wild_quads or not any(g.wild_count for g in groups)):
                q += 1
        return q

    def _settle(
        self, view: HandView, win: WinInfo, f: int, why: tuple[str, str, str]
    ) -> list[Item]:
        """b x 庄闲分 x F, then 承包 (RULES.md 2.5). Kongs are never paid."""
        b = int(view.options["base_score"])
        lao = view.counters.get("lao", 1)
        w = win.winner

        def z(x: int, y: int) -> int:
            return 2**lao if view.dealer in (x, y) else 1

        def pay(p: int) -> Item:
            zx = z(w, p)
            note = f"底分 {b} x 庄闲分 {zx} x 番 ({why[0]})"
            zh = f"底分 {b} × 庄闲分 {zx} × 番数（{why[1]}）"
            en = f"base {b} x dealer points {zx} x F ({why[2]})"
            return Item("hu", p, w, b * zx * f, note, win.win_type, zh, en)

        if win.win_type == W_DISCARD and view.options["discard_pay"] == "discarder":
            assert win.source is not None
            normal = [pay(win.source)]
        else:
            normal = [pay(p) for p in range(4) if p != w]
        if not view.options["chengbao"]:
            return normal
        x = sum(it.points for it in normal)
        liable = [
            Item(
                "chengbao",
                p,
                w,
                x,
                f"三摊承包: S{w} claimed 3 times from S{p}; pays X = {x}",
                "santan",
                f"三摊承包：{seat_mark(w)} 吃碰杠了 {seat_mark(p)} 三次；"
                f"{seat_mark(p)} 付三家的份 {x}",
                f"liability: {seat_mark(w)} claimed 3 times from {seat_mark(p)}, who pays "
                f"all three shares, {x}",
            )
            for p in range(4)
            if p != w and view.claims_count[w][p] >= 3
        ]
        liable += [
            Item(
                "chengbao",
                p,
                w,
                2 * x,
                f"倒承包: S{p} claimed 3 times from S{w}; pays 2X",
                "dao_chengbao",
                f"倒承包：{seat_mark(p)} 吃碰杠了 {seat_mark(w)} 三次；付三家的份的两倍 {2 * x}",
                f"reverse liability: {seat_mark(p)} claimed 3 times from {seat_mark(w)}; pays "
                f"all three shares twice, {2 * x}",
            )
            for p in range(4)
            if p != w and view.claims_count[p][w] >= 3
        ]
        return liable or normal

    def next_dealer(self, view: HandView, res: HandResult) -> tuple[int, dict[str, int]]:
        """The dealer stays and rises a level on his win or a draw; another winner deals (2.6)."""
        opts, dealer, counters = view.options, view.dealer, view.counters
        winner = res.win.winner if res.win else None
        lao = counters.get("lao", 1)
        if winner is None or winner == dealer:
            return dealer, {"lao": min(3, lao + 1)}
        return winner, {"lao": int(opts["start_lao"])}


PATTERN_NAMES = {
    "basic_hand": ("平胡", "basic hand"),
    "seven_pairs": ("七对子", "seven pairs"),
    "luxury_seven_pairs": ("豪华七对子", "luxury seven pairs"),
    "double_luxury_seven_pairs": ("双豪华七对子", "double luxury seven pairs"),
    "triple_luxury_seven_pairs": ("三豪华七对子", "triple luxury seven pairs"),
    "pure_seven_pairs": ("清七对", "seven pairs without a wild"),
    "luxury_pure_seven_pairs": ("豪华清七对", "luxury seven pairs without a wild"),
    "double_luxury_pure_seven_pairs": ("双豪华清七对", "double luxury seven pairs, no wild"),
    "triple_luxury_pure_seven_pairs": ("三豪华清七对", "triple luxury seven pairs, no wild"),
    "baotou": ("爆头", "wild pair head"),
    "qike": ("七客", "seven pairs with a wild pair head"),
    "gang": ("杠", "a kong in the chain"),
    "piao": ("飘", "a wild thrown in the chain"),
}
"""Every pattern of RULES.md 2.4, (Chinese, English)."""

NAMES = {
    "lao": ("老庄", "dealer level"),
    "wild": ("财神", "wild"),
    "santan": ("三摊承包", "the winner claimed 3 times from this seat: it pays for all"),
    "dao_chengbao": ("倒承包", "this seat claimed 3 times from the winner: it pays double"),
}
"""Payment reasons, the counter and other ids of hangzhou, (Chinese, English)."""

RESTRICTIONS = (
    Restriction(
        "no_discard_win",
        "放铳限制",
        "discard wins limited",
        "Wins are by self-draw. A win on a discard is allowed only while the dealer is at "
        "level 3, only between the dealer and a non-dealer, never on a discarded wild, and "
        "never when your hand is wild-pair ready (a wild waiting to pair with any tile).",
        "your hand is complete with {}, but a win on a discard needs the dealer at level 3, "
        "the dealer on one side, no wild discarded and a hand that is not wild-pair ready",
        now_zh="你的牌加上 {} 已成胡，但点炮胡需三老庄、庄闲之间、打出的不是财神、你也不是爆头听",
        rule_zh="以自摸为主。只有庄家到三老庄时，庄家与闲家之间才能点炮胡；财神打出不能胡，"
        "爆头听（财神单吊任意牌）时也不能点炮胡。",
        limits=("win",),
    ),
    Restriction(
        "zhuada",
        "抓打",
        "wild thrown",
        "When a seat discards a wild, until that seat's next turn every other seat may not "
        "chi, peng, kong a discard, add a kong or win on a discard; in its own turn it may "
        "only win by self-draw, declare a concealed kong or discard the tile it just drew.",
        "{} discarded a wild: until its next turn you may only self-draw, declare a "
        "concealed kong or discard the tile you drew, and you may claim nothing",
        now_zh="{} 打出了财神（抓打）：到其下一轮前你不能吃、碰、杠或点炮胡；"
        "轮到你时只能自摸、暗杠或打出刚摸的牌",
        rule_zh="有人打出财神后，到他下一轮之前，其他各家不能吃、碰、明杠、补杠或点炮胡；"
        "轮到自己时只能自摸、暗杠或打出刚摸到的牌。",
        limits=("discard", "win", "claim", "kong"),
    ),
    Restriction(
        "missed_win",
        "漏胡",
        "passed win",
        "If you pass on a win on a discard, you may not win on a discard of that tile until "
        "your own next draw.",
        "you passed a win on {}: no discard win on it until your next draw",
        now_zh="你放过了 {} 的胡（漏胡）：到你下次摸牌前不能再胡别人打的这张",
        rule_zh="放过别人打出的一张可胡的牌后，到自己下次摸牌前不能再胡别人打出的这种牌。",
        limits=("win",),
    ),
    Restriction(
        "missed_peng",
        "漏碰",
        "passed peng",
        "If you pass on a peng, you may not peng that tile until your own next draw.",
        "you passed a peng of {}: no peng of it until your next draw",
        now_zh="你放过了 {} 的碰（漏碰）：到你下次摸牌前不能碰这张",
        rule_zh="放过一次碰后，到自己下次摸牌前不能再碰这种牌。",
        limits=("claim",),
    ),
    Restriction(
        "tan",
        "摊",
        "claim limit",
        "With liability on, you may claim (chi, peng or kong) at most twice from the same "
        "seat in a hand; a third claim is allowed only when the dealer is at level 3, "
        "between the dealer and a non-dealer.",
        "you have claimed twice from {}: no more claims from there this hand",
        now_zh="你已从 {} 吃碰杠两次（摊）：本局不能再要他打的牌",
        rule_zh="带承包时，一局中同一家打出的牌最多吃、碰、杠两次；"
        "只有三老庄时庄闲之间才能要第三次。",
        limits=("claim",),
    ),
    Restriction(
        "two_chi",
        "最多吃两次",
        "two chis at most",
        "With liability off, each seat may chi at most twice in a hand.",
        "you have made two chis: no more chi this hand",
        now_zh="你已吃了两次：本局不能再吃",
        rule_zh="不带承包时，每家一局最多吃两次。",
        limits=("claim",),
    ),
    Restriction(
        "last_turn",
        "最后一轮",
        "last turn",
        "When a draw leaves 20 or fewer tiles in the wall, that turn is the last: no kong, "
        "and its discard may only be won on; if nobody wins, the hand is drawn.",
        "this is the last turn: no kong, and your discard can only be won on",
        now_zh="最后一轮：不能杠，你打出的牌只能被胡",
        rule_zh="摸牌后牌墙只剩 20 张或更少时，这一轮是最后一轮：不能杠，打出的牌只能被胡；"
        "没人胡就流局。",
        limits=("kong", "claim"),
    ),
    Restriction(
        "wild_claim",
        "财神不能放铳",
        "a thrown wild is dead",
        "A discarded wild can never be claimed: no chi, peng, kong or win on it. Robbing a "
        "kong is not played.",
        rule_zh="打出的财神谁都不能要：不能吃、碰、杠，也不能胡。不玩抢杠胡。",
        limits=("claim", "win"),
    ),
)
"""Hangzhou's restrictions in words (RULES.md 2.1-2.4)."""

READINGS = (
    "Wilds: by default the four White dragons are wilds; with a flipped wild a tile is "
    "turned up after the deal and the other three of its kind are the wilds (White is then "
    "ordinary). A wild may stand for any tile in a winning hand, and (option) in a chi, "
    "peng or kong, which then needs at least one natural tile; a wild in a meld stays "
    "that tile.",
    "Value F = shape x wild pair head x 2 for every kong and thrown wild of the chain: "
    "basic hand 1, seven pairs 2, each luxury quadruple doubles, seven pairs without a "
    "wild doubles again; a wild pair head (and seven pairs with one) doubles.",
    "Wild pair head: you win by self-draw with a hand that was complete except for a wild "
    "waiting for any tile to pair with. Seven pairs with a wild pair head is the same for "
    "seven pairs.",
    "The chain: the kongs you declared and the wilds you discarded since your last "
    "ordinary discard, chi or peng. All of it counts for a wild-pair-head win; for another "
    "self-draw only the kongs of this turn count (a wild thrown and then a plain self-draw "
    "is just a self-draw).",
    "Payment: each other seat pays base x dealer points x F; dealer points are 2, 4 or 8 "
    "(dealer level 1, 2, 3) between the dealer and a non-dealer, 1 between non-dealers. A "
    "win on a discard is paid by the discarder alone (option: by all three).",
    "Liability: if the winner made three claims on one seat, that seat pays what all three "
    "would have paid; a seat that made three claims on the winner pays double that; they "
    "replace the normal payers.",
    "Kongs are never paid, a drawn hand pays nothing, and an added kong cannot be robbed.",
    "After a kong's replacement draw one more tile is taken from the back of the wall and "
    "set aside.",
    "Dealer level: a new dealer starts at level 1 (option: 2 or 3), and rises by one each "
    "time he wins or the hand is drawn, up to 3; whoever wins becomes the dealer.",
    "In the dealer's first turn his 14th dealt tile counts as his drawn tile (for a wild "
    "pair head).",
)
"""How this project reads the seed where it is silent (RULES.md D20-D36), in plain words."""

READINGS_ZH = (
    "财神：默认四张白板是财神；翻财神时，发牌后翻开一张牌，同种的另外三张是财神（白板此时是普通牌）。"
    "胡牌时财神可当任意牌；开了选项还可用于吃、碰、杠，但至少要有一张真牌；"
    "副露中的财神就一直当那张牌。",
    "番数 = 牌型 × 爆头 × 连串中每个杠和飘各乘 2：平胡 1，七对子 2，每个豪华杠子再翻倍，"
    "不带财神的七对子（清七对）再翻倍；爆头和七客翻倍。",
    "爆头：除一张财神等着与任意牌成对之外已成胡，再自摸。七客是七对子的爆头。",
    "连串：自上次普通打牌、吃或碰以来自己开的杠和打出的财神（飘）。爆头胡时全部都算；"
    "其他自摸只算本轮的杠（飘了财神再普通自摸只算自摸）。",
    "支付：其他每家付 底分 × 庄闲分 × 番数；庄闲之间庄闲分为 2、4、8（老庄 1、2、3 级），"
    "闲家之间为 1。点炮胡由放铳者一家付（可选三家都付）。",
    "承包：赢家吃碰杠同一家三次，这家替三家付；有人吃碰杠赢家三次，这家付双倍；"
    "承包时其他人不再付。",
    "杠不算分，流局不付分，补杠不能被抢。",
    "杠后补牌之后，再从牌墙尾部拿一张放在一边。",
    "老庄：新庄家从 1 级起（起庄选项可为 2 或 3），每胡一次或流局升一级，最高 3 级；谁胡谁坐庄。",
    "庄家第一轮时，起手第 14 张算作他摸到的牌（用于判断爆头）。",
)
"""``READINGS`` in Chinese."""

HANGZHOU = Variant(
    id="hangzhou",
    name="Hangzhou mahjong",
    zh="杭州麻将",
    reserved=(WILD_INDICATOR,),
    tile_counts=(4,) * 34 + (0,) * 8,
    options=OPTIONS,
    counters={"lao": 1},
    counter_ranges={"lao": (1, 3)},
    public_state={"zhuada": "seat"},
    rules=HangzhouRules(),
    claims=frozenset({"hu", "kong", "peng", "chi"}),
    kong_min_live=21,  # no kong in the last turn (RULES.md 2.2)
    claim_end_live=20,
    draw_end_live=20,
    rob_added_kong=False,
    shapes={"seven_pairs": True, "thirteen_orphans": False},
    wild_discard_claims=frozenset(),
    missed_rules=frozenset({"win", "peng"}),
    burn_after_kong=True,
    patterns=PATTERN_NAMES,
    pattern_values={
        "basic_hand": "S = 1",
        "seven_pairs": "S = 2 (with a wild)",
        "luxury_seven_pairs": "S = 4",
        "double_luxury_seven_pairs": "S = 8",
        "triple_luxury_seven_pairs": "S = 16",
        "pure_seven_pairs": "S = 4 (no wild)",
        "luxury_pure_seven_pairs": "S = 8",
        "double_luxury_pure_seven_pairs": "S = 16",
        "triple_luxury_pure_seven_pairs": "S = 32",
        "baotou": "G = 2",
        "qike": "G = 2",
        "gang": "x 2 each",
        "piao": "x 2 each",
    },
    pattern_values_zh={
        "basic_hand": "牌型 1",
        "seven_pairs": "牌型 2（带财神）",
        "luxury_seven_pairs": "牌型 4",
        "double_luxury_seven_pairs": "牌型 8",
        "triple_luxury_seven_pairs": "牌型 16",
        "pure_seven_pairs": "牌型 4（不带财神）",
        "luxury_pure_seven_pairs": "牌型 8",
        "double_luxury_pure_seven_pairs": "牌型 16",
        "triple_luxury_pure_seven_pairs": "牌型 32",
        "baotou": "×2",
        "qike": "×2",
        "gang": "每个 ×2",
        "piao": "每个 ×2",
    },
    names=NAMES,
    summary=(
        "自摸为主：只有三老庄时，庄家与闲家之间才能放铳",
        "Self-draw wins; a win on a discard only with the dealer at level 3, between the "
        "dealer and a non-dealer",
    ),
    restrictions=RESTRICTIONS,
    readings=READINGS,
    readings_zh=READINGS_ZH,
    play=PlayHints(wild_chain=True),  # 财飘 doubles the next 爆头 (2.4)
)
