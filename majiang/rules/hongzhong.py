"""Red Dragon mahjong 红中麻将 and Zhuanzhuan 转转 (RULES.md section 4)."""

from __future__ import annotations

from collections.abc import Mapping

from majiang.hand import decompositions
from majiang.rules.base import (
    SEAT_CHOICES,
    BaseRules,
    Option,
    PlayHints,
    Reserved,
    Restriction,
    Variant,
    escape_option,
)
from majiang.rules.view import HandView
from majiang.scoring import Item, seat_mark
from majiang.values import (
    HandResult,
    MeldKind,
    Options,
    Score,
    WinInfo,
    WinType,
)

__all__ = ["HONGZHONG", "bird_hits"]

RED = 33

BIRDS = Reserved("birds", "鸟牌", "birds")
"""抓鸟: the birds set aside at the deal, revealed when the hand is won (RULES.md 4.5)."""

OPTIONS = (
    Option(
        "no_wild",
        "bool",
        False,
        "无赖子(转转)",
        "Zhuanzhuan: no red dragons, 108 tiles, no wilds",
        en="no wilds (Zhuanzhuan)",
        doc_zh="转转：去掉红中，108 张牌，没有赖子",
    ),
    Option(
        "birds",
        "choice",
        2,
        "抓鸟",
        "bird tiles set aside at the deal",
        choices=(2, 4, 6),
        en="birds",
        doc_zh="发牌时留出的鸟牌张数",
        choice_names=(("2 只鸟", "2 birds"), ("4 只鸟", "4 birds"), ("6 只鸟", "6 birds")),
    ),
    Option(
        "bird_value",
        "choice",
        1,
        "鸟分",
        "points per hit bird per payer",
        choices=(1, 2),
        en="points per bird",
        doc_zh="每只中鸟每个付分者多付的分数",
        choice_names=(("每鸟 1 分", "1 point a bird"), ("每鸟 2 分", "2 points a bird")),
    ),
    Option(
        "golden_bird",
        "bool",
        True,
        "金鸟",
        "no hit counts as every bird hitting",
        en="golden bird",
        doc_zh="一只鸟都没中时，算全部中鸟",
    ),
    Option(
        "hongzhong_zimo",
        "bool",
        False,
        "红中自摸",
        "a seat holding a red dragon may not win on a discard",
        en="red dragon: self-draw only",
        doc_zh="手里有红中的一家不能点炮胡",
    ),
    Option(
        "no_hongzhong_rob",
        "bool",
        False,
        "无红中可抢杠",
        "a seat holding a red dragon may not rob a kong",
        en="red dragon: no robbing",
        doc_zh="手里有红中的一家不能抢杠胡",
    ),
    Option(
        "zhuang_xian",
        "bool",
        True,
        "庄闲",
        "+1 on every win payment between the dealer and another seat",
        en="dealer point",
        doc_zh="庄家与闲家之间的每笔胡牌支付加 1",
    ),
    Option(
        "rob_kong_pays_all",
        "bool",
        False,
        "抢杠胡包三家",
        "the robbed konger pays the three self-draw shares",
        en="robbed konger pays all",
        doc_zh="被抢杠的一家按自摸付三家的份",
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
        "draw_dealer",
        "choice",
        "last_drawer",
        "荒庄庄家",
        "after a drawn hand: the seat that drew the last tile deals, or the same",
        choices=("last_drawer", "same"),
        en="dealer after a drawn hand",
        doc_zh="流局后：由摸最后一张牌的一家坐庄，或原庄家连庄",
        choice_names=(
            ("摸最后一张的一家", "who drew the last tile"),
            ("原庄家", "the same dealer"),
        ),
    ),
    escape_option(0),
    Option(
        "first_dealer",
        "choice",
        0,
        "首局庄家",
        "the first dealer: seat 0, the room owner, by default",
        choices=("random", 0, 1, 2, 3),
        en="first dealer",
        doc_zh="第一局的庄家：默认是房主（0号位）",
        choice_names=(("随机", "random"), *SEAT_CHOICES),
    ),
)


def bird_hits(birds: tuple[int, ...]) -> int:
    """Birds that hit (中鸟): 1, 5 or 9 of any suit, or 红中 (RULES.md 4.5)."""
    return sum(1 for t in birds if t == RED or (t < 27 and t % 9 in (0, 4, 8)))


class HongzhongRules(BaseRules):
    """Hooks of hongzhong (and 转转 with no_wild)."""

    def tile_set(self, opts: Options) -> tuple[int, ...] | None:
        """108 tiles with no_wild (转转); otherwise the declared 112 (RULES.md 4.1)."""
        return (4,) * 27 + (0,) * 15 if opts["no_wild"] else None

    def reserved_counts(self, opts: Options, counters: Mapping[str, int]) -> dict[str, int]:
        """N birds from the back (D53)."""
        return {BIRDS.id: int(opts["birds"])}

    def wild_kind(self, opts: Options, reserved: Mapping[str, tuple[int, ...]]) -> int | None:
        """红中, unless 转转."""
        return None if opts["no_wild"] else RED

    def instant_win(self, view: HandView, seat: int) -> bool:
        """四红中: all four 红中 in the starting hand, before the dealer's first discard (D56)."""
        return view.wild == RED and list(view.deal.hands[seat]).count(RED) == 4

    def can_win_on_discard(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """红中自摸: a seat holding a 红中 only self-draws (D60)."""
        return not (
            view.options["hongzhong_zimo"]
            and view.wild is not None
            and view.concealed[seat][view.wild]
        )

    def can_rob(self, view: HandView, seat: int, konger: int, tile: int) -> bool:
        """无红中可抢杠: a seat holding a 红中 may not rob (D60)."""
        return not (
            view.options["no_hongzhong_rob"]
            and view.wild is not None
            and view.concealed[seat][view.wild]
        )

    def score(self, view: HandView, win: WinInfo | None) -> Score:
        """Patterns (they do not change the payment) and payments (RULES.md 4.4, 4.5)."""
        if win is None:
            return Score((), 0, tuple(self._settle(view, None)))
        return Score(tuple(self._patterns(view, win)), 1, tuple(self._settle(view, win)))

    def _patterns(self, view: HandView, win: WinInfo) -> list[str]:
        """basic_hand or seven_pairs, and heavenly_hand / four_red_dragons for instant wins."""
        seat = win.winner
        tiles = view.hand_tiles(seat)
        if win.win_type in (WinType.DISCARD, WinType.ROB_KONG):
            tiles.append(win.tile)
        found: list[str] = []
        if len(tiles) % 3 == 2:
            no_melds = not view.melds[seat]
            shapes = {
                d.shape
                for d in decompositions(
                    tiles,
                    wild=view.wild,
                    seven_pairs=no_melds,
                    thirteen_orphans=False,
                    wild_numbers_only=True,
                )
            }
            if "standard" in shapes:
                found.append("basic_hand")
            elif "seven_pairs" in shapes:
                found.append("seven_pairs")
        if win.win_type == WinType.INSTANT:
            if found and seat == view.dealer:
                found.append("heavenly_hand")
            if self.instant_win(view, seat):
                found.append("four_red_dragons")
        return found

    def _settle(self, view: HandView, win: WinInfo | None) -> list[Item]:
        """Hu, birds and 庄闲 on a win; kongs in every hand (RULES.md 4.5)."""
        u = int(view.options["base_score"])
        items: list[Item] = []
        if win is not None:
            w = win.winner
            birds = view.reserved.get(BIRDS.id, ())
            hits = bird_hits(birds)
            golden = hits == 0 and bool(birds) and bool(view.options["golden_bird"])
            if hits == 0 and view.options["golden_bird"]:
                hits = len(birds)  # 金鸟: no hit counts as every bird hitting
            bird = hits * int(view.options["bird_value"]) * u
            bv = view.options["bird_value"]
            bird_how = f"{hits} x 鸟分 {bv} x 底分 {u}"
            bird_zh = f"中鸟 {hits} × 鸟分 {bv} × 底分 {u}"
            bird_en = f"birds hit {hits} x bird value {bv} x base {u}"

            def share(payer: int, base: int, to_pay: int) -> list[Item]:
                """One payer's hu, bird and 庄闲 points, paid by ``to_pay``."""
                why = win.win_type if to_pay == payer else "rob_kong_all"
                note = f"{base} x 底分 {u}" + ("" if to_pay == payer else f", for S{payer}")
                zh = f"{base} × 底分 {u}"
                en = f"{base} x base {u}"
                if to_pay != payer:
                    zh += f"，替 {seat_mark(payer)} 付"
                    en += f", for {seat_mark(payer)}"
                out = [Item("hu", to_pay, w, base * u, note, why, zh, en)]
                if bird:
                    kind = "golden_bird" if golden else "bird"
                    out.append(Item("bird", to_pay, w, bird, bird_how, kind, bird_zh, bird_en))
                if view.options["zhuang_xian"] and view.dealer in (w, payer):
                    out.append(
                        Item(
                            "zhuangxian",
                            to_pay,
                            w,
                            u,
                            f"+1 x 底分 {u}",
                            "zhuangxian",
                            f"庄闲 +1 × 底分 {u}",
                            f"dealer point +1 x base {u}",
                        )
                    )
                return out

            if win.win_type == WinType.DISCARD:
                assert win.source is not None
                items += share(win.source, 1, win.source)
            elif win.win_type == WinType.ROB_KONG:
                assert win.source is not None
                if view.options["rob_kong_pays_all"]:
                    for p in range(4):
                        if p != w:
                            items += share(p, 2, win.source)
                else:
                    items += share(win.source, 1, win.source)
            else:
                for p in range(4):
                    if p != w:
                        items += share(p, 2, p)
        # 荒庄不荒杠: kongs are paid in every hand (RULES.md 4.5)
        for meld, konger in view.kongs:
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
            else:
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
        return items

    def reserved_note(self, view: HandView, purpose: str, tile: int) -> tuple[str, str]:
        """A bird hits on 1, 5, 9 or 红中 (RULES.md 4.5)."""
        if purpose != BIRDS.id:
            return ("", "")
        return ("中鸟", "hit") if bird_hits((tile,)) else ("不中", "miss")

    def next_dealer(self, view: HandView, res: HandResult) -> tuple[int, dict[str, int]]:
        """The winner deals; after a draw the last drawer (or the same dealer) deals."""
        if res.win is not None:
            return res.win.winner, {}
        if view.options["draw_dealer"] == "same":  # an escape too: as a drawn hand
            return view.dealer, {}
        return view.last_drawer, {}


PATTERN_NAMES = {
    "basic_hand": ("平胡", "basic hand"),
    "seven_pairs": ("七对", "seven pairs"),
    "heavenly_hand": ("天胡", "heavenly hand"),
    "four_red_dragons": ("四红中", "four red dragons"),
}
"""Every pattern of RULES.md 4.4, (Chinese, English)."""

NAMES = {
    "wild": ("红中赖子", "red dragon wild"),
    "golden_bird": ("金鸟", "golden bird: no bird hit, so every bird counts"),
    "rob_kong_all": ("抢杠胡包三家", "the robbed konger pays all three shares"),
}
"""Payment reasons and other ids of hongzhong, (Chinese, English)."""

RESTRICTIONS = (
    Restriction(
        "no_chi",
        "不能吃",
        "no chi",
        "Discards are claimed only for peng, kong or a win; there is no chi.",
        rule_zh="别人打出的牌只能碰、杠或胡，不能吃。",
        limits=("claim",),
    ),
    Restriction(
        "wild",
        "红中赖子",
        "red dragon wilds",
        "The four red dragons are wilds in a winning hand (any number tile). They never join "
        "a peng or kong, and a discarded red dragon can only be won on.",
        rule_zh="四张红中在胡牌时是赖子（可当任意数牌）。红中不能用于碰、杠，打出的红中只能被胡。",
        limits=("claim",),
    ),
    Restriction(
        "missed_win",
        "弃胡",
        "passed win",
        "If you pass on a win (on a discard or by robbing a kong), you may not win on that "
        "tile again until your own next draw.",
        "you passed a win on {}: no win on it until your next draw",
        now_zh="你放过了 {} 的胡（弃胡）：到你下次摸牌前不能再胡这张",
        rule_zh="放过一次胡（点炮或抢杠）后，到自己下次摸牌前不能再胡这种牌。",
        limits=("win",),
    ),
    Restriction(
        "missed_peng",
        "弃碰",
        "passed peng",
        "If you pass on a peng, you may not peng that tile until your own next draw.",
        "you passed a peng of {}: no peng of it until your next draw",
        now_zh="你放过了 {} 的碰（弃碰）：到你下次摸牌前不能碰这张",
        rule_zh="放过一次碰后，到自己下次摸牌前不能再碰这种牌。",
        limits=("claim",),
    ),
    Restriction(
        "no_discard_win",
        "红中自摸",
        "red dragon holders self-draw",
        "With the option 'red dragon: self-draw only', a seat holding a red dragon may not "
        "win on a discard (it may still win by self-draw); with 'red dragon: no robbing' it "
        "may not rob a kong either.",
        "your hand is complete with {}, but you hold a red dragon: in this room you may only "
        "win by self-draw",
        now_zh="你的牌加上 {} 已成胡，但你手里有红中：红中自摸规则下只能自摸",
        rule_zh="开了“红中自摸”时，手里有红中的一家不能点炮胡（仍可自摸）；"
        "开了“无红中可抢杠”时也不能抢杠胡。",
        limits=("win",),
    ),
    Restriction(
        "last_turn",
        "最后四张",
        "last four tiles",
        "While 4 or fewer tiles are left in the wall a discard can only be won on (no peng "
        "or kong), and no kong is possible once the wall is empty.",
        "4 or fewer tiles are left: your discard can only be won on",
        now_zh="只剩 4 张或更少：你打出的牌只能被胡",
        rule_zh="牌墙只剩 4 张或更少时，打出的牌只能被胡（不能碰、杠）；牌墙摸完后不能再杠。",
        limits=("claim", "kong"),
    ),
)
"""Hongzhong's restrictions in words (RULES.md 4.1, 4.2, 4.3)."""

READINGS = (
    "Payments: a self-draw costs each other seat 2; a win on a discard costs the discarder "
    "1; robbing a kong costs the konger 1 (with 'robbed konger pays all' he pays the three "
    "self-draw shares instead). The base score option multiplies every amount.",
    "Birds: the bird tiles are set aside at the deal and turned up when someone wins. "
    "1, 5, 9 of any suit and the red dragon hit. Everyone who pays the win pays the bird "
    "value once more for each hit.",
    "Golden bird: when no bird hits, every bird counts as a hit.",
    "Dealer point: every win payment between the dealer and another seat is 1 higher.",
    "Kongs: a direct kong costs the discarder 3, an added kong 1 from each other seat, a "
    "concealed kong 2 from each. Kongs are paid in every hand, even a drawn one; a robbed "
    "kong is not paid.",
    "Instant wins: a heavenly hand (the dealer complete with his dealt tiles) and four red "
    "dragons (all four dealt to one seat) pay as a self-draw; the dealer is asked first.",
    "Seven pairs pays like any other win; four identical tiles count as two pairs.",
    "The dealer: seat 0 (the room owner) deals first; the winner deals next; after a drawn "
    "hand the seat that drew the last tile deals.",
    "Zhuanzhuan (option 'no wilds'): the red dragons are taken out, 108 tiles, no wilds.",
)
"""How this project reads the seed where it is silent (RULES.md D50-D60), in plain words."""

READINGS_ZH = (
    "支付：自摸时其他每家付 2；点炮胡由放铳者付 1；抢杠胡由被抢杠者付 1"
    "（开了“抢杠胡包三家”则改付自摸的三份）。底分选项乘以所有分数。",
    "抓鸟：发牌时留出鸟牌，有人胡牌时翻开。任意花色的 1、5、9 和红中算中鸟。"
    "每个付胡牌分的人，每中一只鸟再多付一次鸟分。",
    "金鸟：一只鸟都没中时，每只鸟都算中。",
    "庄闲：庄家与其他家之间的每笔胡牌支付多 1 分。",
    "杠：明杠由放杠者付 3，补杠其他每家付 1，暗杠每家付 2。每局都算杠，流局也算（荒庄不荒杠）；"
    "被抢的杠不算。",
    "起手胡：天胡（庄家起手即成胡）和四红中（一家起手拿到四张红中）按自摸付；先问庄家。",
    "七对与其他胡牌付分相同；四张相同算两对。",
    "坐庄：0号位（房主）首局坐庄；谁胡谁坐庄；流局后由摸最后一张牌的一家坐庄。",
    "转转（选项“无赖子”）：去掉红中，108 张牌，没有赖子。",
)
"""``READINGS`` in Chinese."""

HONGZHONG = Variant(
    id="hongzhong",
    name="Red Dragon mahjong / Zhuanzhuan",
    zh="红中麻将 / 转转",
    reserved=(BIRDS,),
    tile_counts=(4,) * 27 + (0,) * 6 + (4,) + (0,) * 8,
    options=OPTIONS,
    counters={},
    rules=HongzhongRules(),
    claims=frozenset({"hu", "kong", "peng"}),
    kong_min_live=1,
    claim_end_live=4,
    draw_end_live=0,
    rob_added_kong=True,
    heavenly=True,
    shapes={"seven_pairs": True, "thirteen_orphans": False, "wild_numbers_only": True},
    wild_discard_claims=frozenset({"hu"}),
    missed_rules=frozenset({"win", "peng"}),
    patterns=PATTERN_NAMES,
    pattern_values={p: "named only; pays nothing extra" for p in PATTERN_NAMES},
    pattern_values_zh={p: "只记名称，不另加分" for p in PATTERN_NAMES},
    names=NAMES,
    summary=(
        "红中是赖子；可碰、杠、点炮胡，不能吃；胡牌抓鸟",
        "Red dragons are wilds; peng, kong and wins on discards, but no chi; birds on every win",
    ),
    restrictions=RESTRICTIONS,
    readings=READINGS,
    readings_zh=READINGS_ZH,
    play=PlayHints(defence=0.5, kong=1),  # a deal-in pays the whole hu; kongs pay (4.5)
)
