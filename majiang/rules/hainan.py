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
    Option("base_unit", "int", 1, "底分", "u, multiplies every amount", minimum=1, en="base unit"),
    Option(
        "baopai",
        "bool",
        True,
        "包牌",
        "three chis, or three pengs (a direct kong is a peng), by one seat on another's "
        "discards, not added together: a discard win between the two is paid by the "
        "discarder alone",
        en="liability",
    ),
    Option(
        "dealer_streak_bonus",
        "bool",
        True,
        "连庄加倍",
        "dealer transfers x (1 + s), s the dealer's consecutive wins",
        en="dealer streak bonus",
    ),
    Option(
        "kong_pay_on_draw",
        "bool",
        False,
        "流局算杠",
        "kongs are paid in a drawn hand",
        en="kongs paid in a drawn hand",
    ),
    Option(
        "dealer_after_xian_win",
        "choice",
        "winner_next",
        "闲家胡后庄家",
        "after a non-dealer wins: the winner's next seat deals, or the dealer's next",
        choices=("winner_next", "dealer_next"),
        en="dealer after a non-dealer wins",
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

        def how(points: int, x: int, y: int) -> str:
            """The arithmetic of one transfer: points x 底分 (x 连庄 1 + s)."""
            streak = f" x 连庄 {times(x, y)}" if times(x, y) > 1 else ""
            return f"{points} x 底分 {u}{streak}"

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
                    items.append(
                        Item(
                            "baopai",
                            src,
                            w,
                            sum(shares.values()),
                            "包牌: the discarder pays all three shares: "
                            + " + ".join(how(20 if p == src else 10, p, w) for p in shares),
                            "baopai",
                        )
                    )
                else:
                    items += [
                        Item(
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
                    Item("hu", p, w, 20 * u * times(p, w), how(20, p, w), win.win_type)
                    for p in range(4)
                    if p != w
                ]
        if win is not None or view.options["kong_pay_on_draw"]:
            for meld, konger in view.kongs:
                each = 20 if meld.kind == MeldKind.KONG_CONCEALED else 10
                items += [
                    Item(
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
        "a discard win needs 番",
        "A win on a discard (or by robbing a kong) needs at least one 番 of the first "
        "eleven (only chows, concealed, all pungs, all one suit, 2-5-8 pair, robbing, a "
        "dragon pung, your seat flower, your seat wind, thirteen orphans, seven pairs). A "
        "self-draw needs none.",
        "your hand is complete with {}, but has no 番: a win on a discard needs one "
        "(有番才能胡); you may still win by self-draw",
        now_zh="你的牌加上 {} 已成胡，但没有番：点炮胡至少要一番（有番才能胡）；自摸仍可胡",
        limits=("win",),
    ),
    Restriction(
        "last_turn",
        "倒数第二张",
        "second-to-last tile",
        "Fifteen tiles stay in the wall (七墩半). The discard made after the draw that leaves "
        "16 tiles may only be won on: no chi, peng or kong.",
        "16 tiles are left: your discard can only be won on",
        now_zh="只剩 16 张：你打出的牌只能被胡",
        limits=("claim",),
    ),
    Restriction(
        "last_tile",
        "最后一张",
        "last tile",
        "The seat that draws the last tile (leaving 15) may only win by self-draw; it does "
        "not discard, and if it does not win the hand is drawn.",
        "this is the last tile: win by self-draw (h) or pass (x) and the hand is drawn",
        now_zh="最后一张：只能自摸胡，或者过（流局）",
        limits=("discard", "claim"),
    ),
)
"""Hainan's restrictions in words (RULES.md 3.2-3.4)."""

READINGS = (
    "番 are a condition for winning, not a multiplier: payments are fixed.",
    "Payments: on a win on a discard the discarder pays 20 and the other two 10 each; on a "
    "self-draw each other seat pays 20. Robbing a kong is paid like a discard win, with the "
    "konger as the discarder. The 底分 option multiplies every amount.",
    "Kongs: a direct or added kong costs each other seat 10, a concealed kong 20. They are "
    "paid only when the hand is won (unless 流局算杠 is on); a robbed kong is not paid.",
    "连庄: while the dealer keeps winning, every payment between him and a non-dealer is "
    "multiplied by 1 + the number of his wins in a row.",
    "包牌: three chis by one seat on another's discards, or three pengs (a direct kong "
    "counts as a peng) - chis and pengs are not added together - bind the two seats: a win "
    "on a discard between them, either way, is paid entirely by the discarder. A self-draw "
    "is never 包.",
    "中发白: a triplet or kong of 中 or 发 counts, exposed or concealed; 白 counts only as "
    "a peng or a kong, or a triplet completed by the winning discard.",
    "Flowers: a flower is shown at once and replaced from the back of the wall. Your seat "
    "flowers: dealer 春/梅, next 夏/兰, opposite 秋/菊, previous 冬/竹.",
    "Seat winds: dealer East, next South, opposite West, previous North. Four identical "
    "tiles count as two pairs in seven pairs; the 2-5-8 pair needs the standard shape.",
    "Dealer: he stays after his win or a drawn hand; after another seat wins, the winner's "
    "next seat deals (option: the dealer's next seat).",
    "No 漏胡 rule: passing a win does not stop you winning on the next discard.",
)
"""How this project reads the seed where it is silent (RULES.md D37-D49), in plain words."""

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
        p: "1 番: allows a discard win; points are fixed"
        if p != "self_draw"
        else "no 番; points are fixed"
        for p in PATTERN_NAMES
    },
    names=NAMES,
    summary=(
        "有番才能胡：点炮胡至少要一番，自摸不用",
        "A win on a discard needs at least one 番 (有番才能胡); a self-draw needs none",
    ),
    restrictions=RESTRICTIONS,
    readings=READINGS,
    play=PlayHints(defence=1.0, kong=1),  # a deal-in pays 20 (3.5); a concealed kong 60
)
