"""Hainan mahjong 海南麻将 (RULES.md section 3): flowers, 有番才能胡, fixed points, 包牌."""

from __future__ import annotations

from majiang.hand import decompositions
from majiang.rules.base import (
    FIRST_DEALER,
    BaseRules,
    Option,
    PlayHints,
    Restriction,
    Variant,
    escape_option,
    report_key,
)
from majiang.rules.view import HandView
from majiang.scoring import Item
from majiang.values import (
    HandResult,
    MeldKind,
    Score,
    WinInfo,
    WinType,
)

__all__ = ["FAN", "HAINAN", "SEAT_FLOWERS"]

FAN = (
    "only_chows",
    "concealed",
    "all_pungs",
    "all_one_suit",
    "pair_258",
    "rob_kong",
    "dragon_pung",
    "seat_flower",
    "seat_wind_pung",
    "thirteen_orphans",
    "seven_pairs",
)
"""The eleven 番 that allow a discard win, in report order; ``self_draw`` follows."""

WHITE, GREEN, RED = 31, 32, 33

SEAT_FLOWERS = ((34, 38), (35, 39), (36, 41), (37, 40))
"""By position from the dealer: 春/梅, 夏/兰, 秋/菊, 冬/竹 (RULES.md 3.1)."""

OPTIONS = (
    Option(
        "base_unit",
        "int",
        1,
        "底分",
        "u, multiplies every amount",
        minimum=1,
        en="base unit",
        doc_zh="所有分数都乘以它",
    ),
    Option(
        "baopai",
        "bool",
        True,
        "包牌",
        "three chis, or three pengs (a direct kong is a peng), by one seat on another's "
        "discards, not added together: a discard win between the two is paid by the "
        "discarder alone",
        en="liability",
        doc_zh="一家吃另一家三道牌，或碰另一家三道牌（明杠算碰，吃和碰不合计）："
        "两家之间的点炮胡由放铳者一家全付",
    ),
    Option(
        "dealer_streak_bonus",
        "bool",
        True,
        "连庄加倍",
        "dealer transfers x (1 + s), s the dealer's consecutive wins",
        en="dealer streak bonus",
        doc_zh="庄家收付的分数乘以（1 + 连庄次数）",
    ),
    Option(
        "kong_pay_on_draw",
        "bool",
        False,
        "流局算杠",
        "kongs are paid in a drawn hand",
        en="kongs paid in a drawn hand",
        doc_zh="流局时杠也照付",
    ),
    Option(
        "dealer_after_xian_win",
        "choice",
        "winner_next",
        "闲家胡后庄家",
        "after a non-dealer wins: the winner's next seat deals, or the dealer's next",
        choices=("winner_next", "dealer_next"),
        en="dealer after a non-dealer wins",
        doc_zh="闲家胡牌后：由胡牌者的下家坐庄，或由庄家的下家坐庄",
        choice_names=(
            ("胡牌者的下家", "the winner's next seat"),
            ("庄家的下家", "the dealer's next seat"),
        ),
    ),
    escape_option(0),
    FIRST_DEALER,
)


def _three_claims(view: HandView, a: int, b: int) -> bool:
    """包牌's trigger (D41): three chis, or three pengs, by ``a`` on ``b``'s discards.

    吃上家三道牌，或碰任意一家三道牌: the two counts are not added together. A direct kong
    counts as a peng, and so does a peng later made an added kong (its meld keeps the source).
    """
    melds = [m for m in view.melds[a] if m.source == b and m.kind != MeldKind.KONG_CONCEALED]
    chis = sum(1 for m in melds if m.kind == MeldKind.CHI)
    return chis >= 3 or len(melds) - chis >= 3


class HainanRules(BaseRules):
    """Hooks of hainan."""

    def fan(
        self, view: HandView, seat: int, tiles: list[int], win_type: str, tile: int
    ) -> list[str]:
        """The 番 of a complete concealed part (14 with the winning ``tile``), best reading
        (0.7); ``tile`` tells whether a 白 triplet was completed by the discard (D39)."""
        melds = view.melds[seat]
        pos = (seat - view.dealer) % 4
        full = list(tiles) + [t for m in melds for t in m.tiles[:3]]
        common: set[str] = set()
        if not melds:
            common.add("concealed")
        suits = {t // 9 for t in full if t < 27}
        if len(suits) == 1 and all(t < 27 for t in full):
            common.add("all_one_suit")
        if win_type == WinType.ROB_KONG:
            common.add("rob_kong")
        if any(f in SEAT_FLOWERS[pos] for f in view.flowers[seat]):
            common.add("seat_flower")
        meld_triplets = {m.tiles[0] for m in melds if m.kind != MeldKind.CHI}
        # D39: a concealed 白 triplet gives no 番; one completed by the winning discard
        # (or robbed tile) is a peng (RULES.md 0.6).
        by_discard = win_type in (WinType.DISCARD, WinType.ROB_KONG) and tile == WHITE
        has_chi = any(m.kind == MeldKind.CHI for m in melds)
        best: list[str] = []
        no_melds = not melds
        for reading in decompositions(tiles, seven_pairs=no_melds, thirteen_orphans=no_melds):
            found = set(common)
            if reading.shape == "seven_pairs":
                found.add("seven_pairs")
            elif reading.shape == "thirteen_orphans":
                found.add("thirteen_orphans")
            else:
                kinds = [g.kind for g in reading.groups if g.kind != "pair"]
                triplets = {int(g.tiles[0]) for g in reading.groups if g.kind == "triplet"}
                triplets |= meld_triplets
                pair = int(reading.pairs[0].tiles[0])
                if not meld_triplets and all(k == "sequence" for k in kinds):
                    found.add("only_chows")
                if not has_chi and all(k == "triplet" for k in kinds):
                    found.add("all_pungs")
                if pair < 27 and pair % 9 in (1, 4, 7):
                    found.add("pair_258")
                dragons = triplets & {GREEN, RED}
                if WHITE in meld_triplets or (by_discard and WHITE in triplets):
                    dragons.add(WHITE)
                if dragons:
                    found.add("dragon_pung")
                if 27 + pos in triplets:
                    found.add("seat_wind_pung")
            ordered = [p for p in FAN if p in found]
            if report_key(ordered, FAN) < report_key(best, FAN):  # RULES.md 0.7
                best = ordered
        return best

    def can_win_on_discard(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """有番才能胡: at least one of the eleven 番 (RULES.md 3.4)."""
        return bool(self.fan(view, seat, [*view.hand_tiles(seat), tile], "discard", tile))

    def score(self, view: HandView, win: WinInfo | None) -> Score:
        """The 番 of the win, then ``self_draw`` (they do not change the payment); payments."""
        if win is None:
            return Score((), 0, tuple(self._settle(view, None)))
        return Score(tuple(self._patterns(view, win)), 1, tuple(self._settle(view, win)))

    def _patterns(self, view: HandView, win: WinInfo) -> list[str]:
        tiles = view.hand_tiles(win.winner)
        if win.win_type in (WinType.DISCARD, WinType.ROB_KONG):
            tiles.append(win.tile)
        found = self.fan(view, win.winner, tiles, win.win_type, win.tile)
        if win.win_type not in (WinType.DISCARD, WinType.ROB_KONG):
            found.append("self_draw")
        return found

    def _settle(self, view: HandView, win: WinInfo | None) -> list[Item]:
        """Fixed points x u, kongs, the dealer streak, then 包牌 (RULES.md 3.5)."""
        u = int(view.options["base_unit"])
        s = view.counters.get("dealer_wins", 0)
        d = view.dealer
        bonus = bool(view.options["dealer_streak_bonus"])

        def times(x: int, y: int) -> int:
            return 1 + s if bonus and d in (x, y) and x != y else 1

        def how(points: int, x: int, y: int) -> tuple[str, str, str]:
            """The arithmetic of one transfer: points x 底分 (x 连庄 1 + s), as the note,
            in Chinese and in English."""
            k = times(x, y)
            return (
                f"{points} x 底分 {u}" + (f" x 连庄 {k}" if k > 1 else ""),
                f"{points} × 底分 {u}" + (f" × 连庄 {k}" if k > 1 else ""),
                f"{points} x base {u}" + (f" x dealer streak {k}" if k > 1 else ""),
            )

        def item(
            kind: str, x: int, y: int, points: int, hows: tuple[str, str, str], why: str
        ) -> Item:
            return Item(kind, x, y, points, hows[0], why, hows[1], hows[2])

        items: list[Item] = []
        if win is not None:
            w = win.winner
            if win.win_type in (WinType.DISCARD, WinType.ROB_KONG):
                src = win.source
                assert src is not None
                shares = {p: (20 if p == src else 10) * u * times(p, w) for p in range(4) if p != w}
                liable = view.options["baopai"] and (
                    _three_claims(view, w, src) or _three_claims(view, src, w)
                )
                if liable:
                    parts = [how(20 if p == src else 10, p, w) for p in shares]
                    hows = (
                        "包牌: the discarder pays all three shares: "
                        + " + ".join(h[0] for h in parts),
                        "包牌：放铳者付三家的份：" + " + ".join(h[1] for h in parts),
                        "liability: the discarder pays all three shares: "
                        + " + ".join(h[2] for h in parts),
                    )
                    items.append(item("baopai", src, w, sum(shares.values()), hows, "baopai"))
                else:
                    items += [
                        item(
                            "hu",
                            p,
                            w,
                            v,
                            how(20 if p == src else 10, p, w),
                            win.win_type if p == src else "discard_other",
                        )
                        for p, v in shares.items()
                    ]
            else:
                items += [
                    item("hu", p, w, 20 * u * times(p, w), how(20, p, w), win.win_type)
                    for p in range(4)
                    if p != w
                ]
        if win is not None or view.options["kong_pay_on_draw"]:
            for meld, konger in view.kongs:
                each = 20 if meld.kind == MeldKind.KONG_CONCEALED else 10
                items += [
                    item(
                        "kong",
                        p,
                        konger,
                        each * u * times(p, konger),
                        how(each, p, konger),
                        meld.kind,
                    )
                    for p in range(4)
                    if p != konger
                ]
        return items

    def next_dealer(self, view: HandView, res: HandResult) -> tuple[int, dict[str, int]]:
        """Dealer win: stays, s+1; draw: stays; non-dealer win: winner's next deals (D37)."""
        opts, dealer, counters = view.options, view.dealer, view.counters
        winner = res.win.winner if res.win else None
        s = counters.get("dealer_wins", 0)
        if winner is None:
            return dealer, {"dealer_wins": s}
        if winner == dealer:
            return dealer, {"dealer_wins": s + 1}
        if opts["dealer_after_xian_win"] == "dealer_next":
            return (dealer + 1) % 4, {"dealer_wins": 0}
        return (winner + 1) % 4, {"dealer_wins": 0}


PATTERN_NAMES = {
    "only_chows": ("只吃不碰", "all chows"),
    "concealed": ("门前清", "concealed hand"),
    "all_pungs": ("碰碰胡", "all pungs"),
    "all_one_suit": ("清一色", "all one suit"),
    "pair_258": ("二五八做将", "pair of 2, 5 or 8"),
    "rob_kong": ("抢杠", "robbing a kong"),
    "dragon_pung": ("中发白", "dragon pung"),
    "seat_flower": ("位置花", "own seat flower"),
    "seat_wind_pung": ("门风", "seat wind pung"),
    "thirteen_orphans": ("十三幺", "thirteen orphans"),
    "seven_pairs": ("七对", "seven pairs"),
    "self_draw": ("自摸", "self-draw"),
}
"""Every 番 of RULES.md 3.4, (Chinese, English)."""

NAMES = {
    "dealer_wins": ("连庄", "dealer's wins in a row"),
    "discard_other": ("闲家陪付", "share of a non-winner who did not discard"),
}
"""Payment reasons, the counter and other ids of hainan, (Chinese, English)."""

RESTRICTIONS = (
    Restriction(
        "no_discard_win",
        "有番才能胡",
        "a discard win needs a fan",
        "A win on a discard (or by robbing a kong) needs at least one fan of the first "
        "eleven (only chows, concealed, all pungs, all one suit, 2-5-8 pair, robbing, a "
        "dragon pung, your seat flower, your seat wind, thirteen orphans, seven pairs). A "
        "self-draw needs none.",
        "your hand is complete with {}, but has no fan: a win on a discard needs one; "
        "you may still win by self-draw",
        now_zh="你的牌加上 {} 已成胡，但没有番：点炮胡至少要一番（有番才能胡）；自摸仍可胡",
        rule_zh="点炮胡（或抢杠胡）至少要有前十一种番中的一种（只吃不碰、门前清、碰碰胡、"
        "清一色、二五八做将、抢杠、中发白、位置花、门风、十三幺、七对）。自摸不需要番。",
        limits=("win",),
    ),
    Restriction(
        "last_turn",
        "倒数第二张",
        "second-to-last tile",
        "Fifteen tiles stay in the wall. The discard made after the draw that leaves 16 "
        "tiles may only be won on: no chi, peng or kong.",
        "16 tiles are left: your discard can only be won on",
        now_zh="只剩 16 张：你打出的牌只能被胡",
        rule_zh="牌墙留 15 张（七墩半）。摸牌后剩 16 张时打出的牌只能被胡：不能吃、碰、杠。",
        limits=("claim",),
    ),
    Restriction(
        "last_tile",
        "最后一张",
        "last tile",
        "The seat that draws the last tile (leaving 15) may only win by self-draw; it does "
        "not discard, and if it does not win the hand is drawn.",
        "this is the last tile: win by self-draw or pass and the hand is drawn",
        now_zh="最后一张：只能自摸胡，或者过（流局）",
        rule_zh="摸到最后一张（剩 15 张）的一家只能自摸胡；他不打牌，不胡就流局。",
        limits=("discard", "claim"),
    ),
)
"""Hainan's restrictions in words (RULES.md 3.2-3.4)."""

READINGS = (
    "A fan is a condition for winning, not a multiplier: payments are fixed.",
    "Payments: on a win on a discard the discarder pays 20 and the other two 10 each; on a "
    "self-draw each other seat pays 20. Robbing a kong is paid like a discard win, with the "
    "konger as the discarder. The base unit option multiplies every amount.",
    "Kongs: a direct or added kong costs each other seat 10, a concealed kong 20. They are "
    "paid only when the hand is won (unless the option 'kongs paid in a drawn hand' is "
    "on); a robbed kong is not paid.",
    "Dealer streak: while the dealer keeps winning, every payment between him and a "
    "non-dealer is multiplied by 1 + the number of his wins in a row.",
    "Liability: three chis by one seat on another's discards, or three pengs (a direct "
    "kong counts as a peng) - chis and pengs are not added together - bind the two seats: "
    "a win on a discard between them, either way, is paid entirely by the discarder. A "
    "self-draw is never bound.",
    "Dragon pung: a triplet or kong of Red or Green counts, exposed or concealed; White "
    "counts only as a peng or a kong, or a triplet completed by the winning discard.",
    "Flowers: a flower is shown at once and replaced from the back of the wall. Your seat "
    "flowers: dealer Spring/Plum, next Summer/Orchid, opposite Autumn/Chrysanthemum, "
    "previous Winter/Bamboo.",
    "Seat winds: dealer East, next South, opposite West, previous North. Four identical "
    "tiles count as two pairs in seven pairs; the 2-5-8 pair needs the standard shape.",
    "Dealer: he stays after his win or a drawn hand; after another seat wins, the winner's "
    "next seat deals (option: the dealer's next seat).",
    "No passed-win rule: passing a win does not stop you winning on the next discard.",
)
"""How this project reads the seed where it is silent (RULES.md D37-D49), in plain words."""

READINGS_ZH = (
    "番是胡牌的条件，不是倍数：分数是固定的。",
    "支付：点炮胡时放铳者付 20，另外两家各付 10；自摸时其他每家付 20。"
    "抢杠胡按点炮胡付，被抢杠者算放铳者。底分选项乘以所有分数。",
    "杠：明杠和补杠其他每家付 10，暗杠付 20。只有胡牌才算杠（除非开了“流局算杠”）；被抢的杠不算。",
    "连庄：庄家连续胡牌时，庄家与闲家之间的每笔支付乘以（1 + 连胡次数）。",
    "包牌：一家吃另一家三道牌，或碰另一家三道牌（明杠算碰，吃和碰不合计），两家就绑在一起："
    "两家之间无论谁点炮，都由放铳者全付。自摸不包。",
    "中发白：中或发的刻子、杠，明暗都算；白只有碰、杠或由胡的那张牌凑成的刻子才算。",
    "花牌：摸到花牌立即亮出，从牌墙尾部补牌。位置花：庄家春/梅，下家夏/兰，对家秋/菊，上家冬/竹。",
    "门风：庄家东，下家南，对家西，上家北。七对中四张相同算两对；二五八做将需是标准牌型。",
    "坐庄：庄家胡牌或流局时连庄；闲家胡牌后由胡牌者的下家坐庄（可选庄家的下家）。",
    "没有漏胡：放过一次胡，下一张打出的牌照样可以胡。",
)
"""``READINGS`` in Chinese."""

HAINAN = Variant(
    id="hainan",
    name="Hainan mahjong",
    zh="海南麻将",
    tile_counts=(4,) * 34 + (1,) * 8,
    options=OPTIONS,
    counters={"dealer_wins": 0},
    counter_ranges={"dealer_wins": (0, None)},
    rules=HainanRules(),
    claims=frozenset({"hu", "kong", "peng", "chi"}),
    kong_min_live=16,
    claim_end_live=16,
    draw_end_live=15,
    final_live=15,
    rob_added_kong=True,
    flowers=True,
    patterns=PATTERN_NAMES,
    pattern_values={
        p: "1 fan: allows a discard win; points are fixed"
        if p != "self_draw"
        else "no fan; points are fixed"
        for p in PATTERN_NAMES
    },
    pattern_values_zh={
        p: "1 番：可以点炮胡；分数固定" if p != "self_draw" else "不算番；分数固定"
        for p in PATTERN_NAMES
    },
    names=NAMES,
    summary=(
        "有番才能胡：点炮胡至少要一番，自摸不用",
        "A win on a discard needs at least one fan; a self-draw needs none",
    ),
    restrictions=RESTRICTIONS,
    readings=READINGS,
    readings_zh=READINGS_ZH,
    play=PlayHints(defence=1.0, kong=1),  # a deal-in pays 20 (3.5); a concealed kong 60
)
