"""Guangdong push-down win 广东推倒胡 (RULES.md section 1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from majiang.hand import decompositions
from majiang.hand.decompose import Group
from majiang.rules.base import (
    FIRST_DEALER,
    BaseRules,
    Option,
    Reserved,
    Restriction,
    Variant,
    escape_option,
)
from majiang.rules.view import HandView
from majiang.scoring import Item, seat_mark, tile_mark
from majiang.tiles import Tile
from majiang.values import (
    HandResult,
    MeldKind,
    Options,
    Score,
    WinInfo,
    WinType,
)

__all__ = ["GUANGDONG", "PATTERNS", "horse_target"]

HORSES = Reserved("horses", "马牌", "horses")
"""买马: the horses set aside at the deal, revealed when the hand is won (RULES.md 1.5)."""

PATTERNS = (
    "heavenly_hand",
    "all_one_suit",
    "all_honors",
    "half_flush",
    "seven_pairs",
    "four_concealed_triplets",
    "four_kongs",
    "big_three_dragons",
    "big_four_winds",
    "little_four_winds",
    "thirteen_orphans",
)
"""Big-hand patterns in RULES.md 1.4 order; ``basic_hand`` when none applies."""

OPTIONS = (
    Option(
        "base_score",
        "int",
        1,
        "基础分",
        "B, the base of every payment",
        minimum=1,
        en="base score",
        doc_zh="每笔支付的基数",
    ),
    Option(
        "horses",
        "bool",
        True,
        "买马",
        "the dealer buys horses: he wins and loses with each horse's target seat; "
        "a target that nets 0 moves nothing",
        en="buy horses",
        doc_zh="庄家买马：马指向的那家赢多少、输多少，庄家跟着赢、跟着输；净得为 0 的那家不动分",
    ),
    Option(
        "hunyise_big",
        "bool",
        True,
        "混一色算大胡",
        "a half flush (one suit and honors) counts as a big hand",
        en="half flush is a big hand",
        doc_zh="混一色（一门花色加字牌）算大胡",
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
    escape_option(8),
    FIRST_DEALER,
)


def horse_target(tile: int) -> int:
    """Target position of a horse tile (RULES.md 1.5): 1/5/9 東 中 -> 0, and so on."""
    if tile < 27:
        return (tile % 9) % 4
    return (0, 1, 2, 3, 2, 1, 0)[tile - 27]


def _net(items: list[Item], seat: int) -> int:
    """What ``seat`` receives minus what it pays over ``items``."""
    return sum(it.points for it in items if it.payee == seat) - sum(
        it.points for it in items if it.payer == seat
    )


class GuangdongRules(BaseRules):
    """Hooks of guangdong: self-draw and robbing only, horses, big and small hands."""

    def reserved_counts(self, opts: Options, counters: Mapping[str, int]) -> dict[str, int]:
        """h = min(4, c) horses when the option is on (RULES.md 1.2)."""
        if not opts["horses"]:
            return {}
        return {HORSES.id: min(4, counters.get("dealer_run", 1))}

    def can_win_on_discard(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """Wins are by self-draw or robbing only (RULES.md 1.3)."""
        return False

    def can_rob(self, view: HandView, seat: int, konger: int, tile: int) -> bool:
        """Not a kong whose peng was claimed from the robber's own discard (D17)."""
        meld = view.pending_kong
        return meld is not None and meld.source != seat

    def score(self, view: HandView, win: WinInfo | None) -> Score:
        """Big patterns of the best reading, M = 2 for big, 1 for small (D10); payments."""
        if win is None:
            return Score((), 0, tuple(self._settle(view, None, 0)))
        ids, m = self._best(view, win)
        return Score(ids, m, tuple(self._settle(view, win, m)))

    def _best(self, view: HandView, win: WinInfo) -> tuple[tuple[str, ...], int]:
        seat = win.winner
        concealed = view.hand_tiles(seat)
        if win.win_type in (WinType.ROB_KONG, WinType.DISCARD):
            concealed.append(win.tile)
        melds = view.melds[seat]
        full = list(concealed)
        for m in melds:
            full.extend(m.tiles[:3])
        suits = {t // 9 for t in full if t < 27}
        honors = any(t >= 27 for t in full)
        common: list[str] = []
        if win.win_type == WinType.INSTANT:
            common.append("heavenly_hand")
        if len(suits) == 1 and not honors:
            common.append("all_one_suit")
        if not suits:
            common.append("all_honors")
        if len(suits) == 1 and honors and view.options["hunyise_big"]:
            common.append("half_flush")
        best: list[str] = []
        no_melds = not melds
        readings = decompositions(concealed, seven_pairs=no_melds, thirteen_orphans=no_melds)
        for reading in readings:
            found = set(common)
            if reading.shape == "seven_pairs":
                found.add("seven_pairs")
            elif reading.shape == "thirteen_orphans":
                found.add("thirteen_orphans")
            else:
                found |= self._standard_patterns(view, win, reading.groups, concealed)
            ordered = [p for p in PATTERNS if p in found]
            if len(ordered) > len(best):
                best = ordered
        if not best:
            return ("basic_hand",), 1
        return tuple(best), 2

    def _standard_patterns(
        self, view: HandView, win: WinInfo, groups: Sequence[Group], concealed: list[int]
    ) -> set[str]:
        seat = win.winner
        melds = view.melds[seat]
        triplets: list[tuple[int, bool]] = []  # (kind, concealed?)
        pair = -1
        has_sequence = any(m.kind == MeldKind.CHI for m in melds)
        for g in groups:
            if g.kind == "pair":
                pair = int(g.tiles[0])
            elif g.kind == "sequence":
                has_sequence = True
            else:
                triplets.append((int(g.tiles[0]), True))
        for m in melds:
            if m.kind != MeldKind.CHI:
                triplets.append((m.tiles[0], m.kind == MeldKind.KONG_CONCEALED))
        found: set[str] = set()
        kinds = {k for k, _ in triplets}
        # RULES.md 1.4: a triplet completed by a claimed or robbed tile is not concealed.
        if not has_sequence and len(triplets) == 4 and all(c for _, c in triplets):
            completes_pair = win.tile == pair
            if win.win_type != WinType.ROB_KONG or completes_pair:
                found.add("four_concealed_triplets")
        if sum(1 for m in melds if m.is_kong) == 4:
            found.add("four_kongs")
        if {31, 32, 33} <= kinds:
            found.add("big_three_dragons")
        winds = kinds & {27, 28, 29, 30}
        if len(winds) == 4:
            found.add("big_four_winds")
        elif len(winds) == 3 and pair in {27, 28, 29, 30} - winds:
            found.add("little_four_winds")
        return found

    def _settle(self, view: HandView, win: WinInfo | None, m: int) -> list[Item]:
        """Win and kong payments, then horse mirrors for each target that does not net 0
        over them (RULES.md 1.5, D13)."""
        b = int(view.options["base_score"])
        base: list[Item] = []
        if win is not None:
            w = win.winner
            share = 2 * b * m
            how = f"2 x 基础分 {b} x {'大胡 2' if m == 2 else '小胡 1'}"
            zh = f"2 × 基础分 {b} × {'大胡 2' if m == 2 else '小胡 1'}"
            en = f"2 x base {b} x {'big hand 2' if m == 2 else 'small hand 1'}"
            if win.win_type == WinType.ROB_KONG:
                assert win.source is not None
                base.append(
                    Item(
                        "hu",
                        win.source,
                        w,
                        3 * share,
                        f"3 x {how}",
                        "rob_kong",
                        f"3 × {zh}",
                        f"3 x {en}",
                    )
                )
            elif win.win_type == WinType.KONG_REPLACEMENT and win.kong_source is not None:
                base.append(
                    Item(
                        "hu",
                        win.kong_source,
                        w,
                        3 * share,
                        f"3 x {how}",
                        "kong_after_direct",
                        f"3 × {zh}",
                        f"3 x {en}",
                    )
                )
            else:
                base += [
                    Item("hu", s, w, share, how, win.win_type, zh, en) for s in range(4) if s != w
                ]
        if win is not None or view.options["kong_pay_on_draw"]:
            for meld, konger in view.kongs:
                if meld.kind == MeldKind.KONG_DIRECT:
                    assert meld.source is not None
                    base.append(
                        Item(
                            "kong",
                            meld.source,
                            konger,
                            3 * b,
                            f"3 x {b}",
                            meld.kind,
                            f"3 × 基础分 {b}",
                            f"3 x base {b}",
                        )
                    )
                else:
                    each = 2 * b if meld.kind == MeldKind.KONG_CONCEALED else b
                    how = f"{each // b} x {b}"
                    zh, en = f"{each // b} × 基础分 {b}", f"{each // b} x base {b}"
                    base += [
                        Item("kong", s, konger, each, how, meld.kind, zh, en)
                        for s in range(4)
                        if s != konger
                    ]
        items = list(base)
        if win is not None:
            d = view.dealer
            for horse in view.reserved.get(HORSES.id, ()):
                target = (d + horse_target(horse)) % 4
                if not _net(base, target):
                    continue  # RULES.md 1.5 (D13): a target that nets 0 moves nothing
                on = f"马 {Tile(horse)} on S{target}"
                t, h, dm = seat_mark(target), tile_mark(horse), seat_mark(d)
                for it in base:
                    n = it.points
                    if it.payee == target and it.payer != d:
                        why = f"{on}, who gets {n} from S{it.payer}"
                        p = seat_mark(it.payer)
                        zh = f"马 {h} 中 {t}：{p} 付给 {t} {n}，也付给庄家 {dm} {n}"
                        en = (
                            f"horse {h} on {t}, who gets {n} from {p}: {p} pays the dealer {dm} too"
                        )
                        items.append(Item("horse", it.payer, d, n, why, "horse", zh, en))
                    if it.payer == target and it.payee != d:
                        why = f"{on}, who pays S{it.payee} {n}"
                        q = seat_mark(it.payee)
                        zh = f"马 {h} 中 {t}：{t} 付给 {q} {n}，庄家 {dm} 也付 {n}"
                        en = f"horse {h} on {t}, who pays {q} {n}: the dealer {dm} pays too"
                        items.append(Item("horse", d, it.payee, n, why, "horse", zh, en))
        return items

    def reserved_note(self, view: HandView, purpose: str, tile: int) -> tuple[str, str]:
        """The seat a horse points at (RULES.md 1.5)."""
        if purpose != HORSES.id:
            return ("", "")
        seat = seat_mark((view.dealer + horse_target(tile)) % 4)
        return (f"马中{seat}", f"on {seat}")

    def next_dealer(self, view: HandView, res: HandResult) -> tuple[int, dict[str, int]]:
        """Winner deals; the dealer's run grows while he wins; a draw passes the deal on."""
        dealer, counters = view.dealer, view.counters
        winner = res.win.winner if res.win else None
        if winner is None:
            return (dealer + 1) % 4, {"dealer_run": 1}
        if winner == dealer:
            return dealer, {"dealer_run": counters.get("dealer_run", 1) + 1}
        return winner, {"dealer_run": 1}


PATTERN_NAMES = {
    "basic_hand": ("小胡", "small hand"),
    "heavenly_hand": ("天胡", "heavenly hand"),
    "all_one_suit": ("清一色", "all one suit"),
    "all_honors": ("字一色", "all honors"),
    "half_flush": ("混一色", "half flush"),
    "seven_pairs": ("七对子", "seven pairs"),
    "four_concealed_triplets": ("四暗刻", "four concealed triplets"),
    "four_kongs": ("十八罗汉", "four kongs"),
    "big_three_dragons": ("大三元", "big three dragons"),
    "big_four_winds": ("大四喜", "big four winds"),
    "little_four_winds": ("小四喜", "little four winds"),
    "thirteen_orphans": ("十三幺", "thirteen orphans"),
}
"""Every pattern of RULES.md 1.4, (Chinese, English)."""

NAMES = {
    "dealer_run": ("连庄", "dealer's hands in a row"),
    "instant": ("天胡", "heavenly hand"),
    "kong_after_direct": (
        "放杠杠上开花",
        "self-draw on the replacement of a direct kong: the discarder pays all",
    ),
}
"""Payment reasons, the counter and other ids of guangdong, (Chinese, English)."""

RESTRICTIONS = (
    Restriction(
        "no_discard_win",
        "只能自摸",
        "self-draw only",
        "A hand is won only by drawing the winning tile yourself (self-draw) or by robbing "
        "an added kong; nobody wins on a discard.",
        "your hand is complete with {}, but here you win only by self-draw",
        now_zh="你的牌加上 {} 已成胡，但这里只能自摸胡（只能自摸）",
        rule_zh="只能自己摸到胡牌（自摸）或抢杠胡；谁都不能胡别人打出的牌。",
        limits=("win",),
    ),
    Restriction(
        "no_chi",
        "不能吃",
        "no chi",
        "Discards are claimed only by peng or kong; there is no chi.",
        rule_zh="别人打出的牌只能碰或杠，不能吃。",
        limits=("claim",),
    ),
    Restriction(
        "rob_own",
        "不能抢自己打的牌",
        "no robbing your own tile",
        "You may not rob an added kong made on a peng of your own discard; concealed and "
        "direct kongs cannot be robbed at all.",
        rule_zh="别人碰了你打出的牌再补杠，你不能抢这个杠；暗杠和明杠都不能抢。",
        limits=("win",),
    ),
    Restriction(
        "last_turn",
        "最后一张",
        "last tile",
        "The discard after the last tile is drawn cannot be claimed; the hand is drawn.",
        "the wall is empty: nobody can claim your discard and the hand ends with it",
        now_zh="牌墙已空：你打出的牌无人能要，打出后流局",
        rule_zh="摸完最后一张后打出的牌谁都不能要，本局流局。",
        limits=("claim",),
    ),
)
"""Guangdong's restrictions in words (RULES.md 1.2, 1.3)."""

READINGS = (
    "Payments: a self-draw costs each other seat 2 x the base score, doubled for a big "
    "hand. Robbing a kong: the konger alone pays three such shares. A self-draw on the "
    "replacement tile of a direct kong: the seat that fed the kong pays all three shares.",
    "Big hands do not add up: one big pattern or several double the payment once. All "
    "pungs and a self-draw on a kong replacement are not big hands; a half flush is big "
    "by default (an option).",
    "Kongs: a direct kong costs the discarder 3 x base, an added kong 1 x base and a "
    "concealed kong 2 x base from each other seat. They are paid only when the hand is "
    "won (unless the option 'kongs paid in a drawn hand' is on); a robbed kong is never "
    "paid.",
    "Horses: the dealer sets aside one horse tile per hand he has dealt in a row, up "
    "to four. Each points at a seat counted from the dealer: 1, 5, 9, East and Red the "
    "dealer himself; 2, 6, South and Green his next seat; 3, 7, West and White the seat "
    "opposite; 4, 8 and North his previous seat.",
    "The dealer wins and loses together with each horse's seat: whatever that seat "
    "receives in win and kong payments, its payer also pays the dealer, and whatever it "
    "pays, the dealer pays too. A seat that nets 0 moves nothing.",
    "Heavenly hand: the dealer complete with his 14 dealt tiles wins at once, also after "
    "concealed kongs in his first turn.",
    "Dealer: the winner deals next; after a drawn hand the dealer's next seat deals.",
    "Escape: whoever leaves mid-hand pays the escape penalty (8 by default) to each "
    "other seat, and the match ends.",
)
"""How this project reads the seed where it is silent (RULES.md D10-D19), in plain words."""

READINGS_ZH = (
    "支付：自摸时其他每家付 2 × 基础分，大胡翻倍。抢杠胡：由被抢杠的一家独付三份。"
    "明杠的补牌自摸（杠上开花）：由放杠的一家付全部三份。",
    "大胡不累加：一个或几个大胡牌型都只翻一倍。碰碰胡和杠上开花不算大胡；"
    "混一色默认算大胡（可在选项中改）。",
    "杠：明杠由放杠者付 3 × 基础分，补杠每家付 1 × 基础分，暗杠每家付 2 × 基础分。"
    "只有胡牌才算杠（除非开了“流局算杠”）；被抢的杠不算。",
    "买马：庄家连庄几局就留几张马牌，最多四张。每张马按点数从庄家数起指向一家："
    "1、5、9、东、中指庄家自己；2、6、南、发指庄家下家；3、7、西、白指对家；4、8、北指上家。",
    "庄家跟每张马指向的那家同输同赢：那家从胡和杠中收多少，付给它的人也付庄家多少；"
    "那家付多少，庄家也付多少。净得为 0 的那家不动分。",
    "天胡：庄家起手 14 张已成胡即胡，首轮暗杠之后也算。",
    "坐庄：谁胡谁坐庄；流局后由庄家的下家坐庄。",
    "逃跑：牌局中离开的一方付给其他每家逃跑扣分（默认 8 分），整场对局结束。",
)
"""``READINGS`` in Chinese."""

GUANGDONG = Variant(
    id="guangdong",
    name="Guangdong push-down win",
    zh="广东推倒胡",
    reserved=(HORSES,),
    tile_counts=(4,) * 34 + (0,) * 8,
    options=OPTIONS,
    counters={"dealer_run": 1},
    counter_ranges={"dealer_run": (1, None)},
    rules=GuangdongRules(),
    claims=frozenset({"peng", "kong"}),
    kong_min_live=1,
    claim_end_live=0,
    draw_end_live=0,
    heavenly=True,
    heavenly_after_kong=True,
    patterns=PATTERN_NAMES,
    pattern_values={
        p: "small hand: M = 1" if p == "basic_hand" else "big hand: M = 2" for p in PATTERN_NAMES
    },
    pattern_values_zh={
        p: "小胡：倍数 1" if p == "basic_hand" else "大胡：倍数 2" for p in PATTERN_NAMES
    },
    names=NAMES,
    summary=(
        "只能自摸（或抢杠胡），不能点炮胡，不能吃；庄家买马",
        "Self-draw only (or robbing an added kong): no win on a discard, no chi; the "
        "dealer buys horses",
    ),
    restrictions=RESTRICTIONS,
    readings=READINGS,
    readings_zh=READINGS_ZH,
)
