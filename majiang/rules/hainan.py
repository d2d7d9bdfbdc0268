"""Hainan mahjong 海南麻将 (RULES.md section 3): flowers, 有番才能胡, fixed points, 包牌."""

from __future__ import annotations

from typing import TYPE_CHECKING

from majiang.hand import decompositions
from majiang.rules.base import FIRST_DEALER, BaseRules, Option, Variant, escape_option
from majiang.scoring import Item

if TYPE_CHECKING:
    from majiang.engine.state import HandState, WinInfo

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
    Option("base_unit", "int", 1, "底分", "u, multiplies every amount (D49)", minimum=1),
    Option(
        "baopai",
        "bool",
        True,
        "包牌",
        "three chis, or three pengs (a direct kong is a peng), by one seat on another's "
        "discards, not added together: a discard win between the two is paid by the "
        "discarder alone (D41)",
    ),
    Option(
        "dealer_streak_bonus",
        "bool",
        True,
        "连庄加倍",
        "dealer transfers x (1 + s), s the dealer's consecutive wins (D38)",
    ),
    Option("kong_pay_on_draw", "bool", False, "流局算杠", "kongs are paid in a drawn hand (D42)"),
    Option(
        "dealer_after_xian_win",
        "choice",
        "winner_next",
        "闲家胡后庄家",
        "after a non-dealer wins: the winner's next seat deals, or the dealer's next (D37)",
        choices=("winner_next", "dealer_next"),
    ),
    escape_option(0),
    FIRST_DEALER,
)


def _three_claims(state: HandState, a: int, b: int) -> bool:
    """包牌's trigger (D41): three chis, or three pengs, by ``a`` on ``b``'s discards.

    吃上家三道牌，或碰任意一家三道牌: the two counts are not added together. A direct kong
    counts as a peng, and so does a peng later made an added kong (its meld keeps the source).
    """
    melds = [m for m in state.melds[a] if m.source == b and m.kind != "kong_concealed"]
    chis = sum(1 for m in melds if m.kind == "chi")
    return chis >= 3 or len(melds) - chis >= 3


class HainanRules(BaseRules):
    """Hooks of hainan."""

    def fan(
        self, state: HandState, seat: int, tiles: list[int], win_type: str, tile: int
    ) -> list[str]:
        """The 番 of a complete concealed part (14 with the winning ``tile``), best reading
        (0.7); ``tile`` tells whether a 白 triplet was completed by the discard (D39)."""
        melds = state.melds[seat]
        pos = (seat - state.dealer) % 4
        full = list(tiles) + [t for m in melds for t in m.tiles[:3]]
        common: set[str] = set()
        if not melds:
            common.add("concealed")
        suits = {t // 9 for t in full if t < 27}
        if len(suits) == 1 and all(t < 27 for t in full):
            common.add("all_one_suit")
        if win_type == "rob_kong":
            common.add("rob_kong")
        if any(f in SEAT_FLOWERS[pos] for f in state.flowers[seat]):
            common.add("seat_flower")
        meld_triplets = {m.tiles[0] for m in melds if m.kind != "chi"}
        # D39: a concealed 白 triplet gives no 番; one completed by the winning discard
        # (or robbed tile) is a peng (RULES.md 0.6).
        by_discard = win_type in ("discard", "rob_kong") and tile == WHITE
        has_chi = any(m.kind == "chi" for m in melds)
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
            if len(ordered) > len(best):
                best = ordered
        return best

    def can_win_on_discard(self, state: HandState, seat: int) -> bool:
        """有番才能胡: at least one of the eleven 番 (RULES.md 3.4)."""
        t = state.window_tile
        assert t is not None
        return bool(self.fan(state, seat, [*state.hand_tiles(seat), t], "discard", t))

    def patterns(self, state: HandState, win: WinInfo) -> tuple[list[str], int]:
        """The 番 of the win, then ``self_draw``; patterns do not change the payment."""
        tiles = state.hand_tiles(win.winner)
        if win.win_type in ("discard", "rob_kong"):
            tiles.append(win.tile)
        found = self.fan(state, win.winner, tiles, win.win_type, win.tile)
        if win.win_type not in ("discard", "rob_kong"):
            found.append("self_draw")
        return found, 1

    def settle(self, state: HandState, win: WinInfo | None) -> list[Item]:
        """Fixed points x u, kongs, the dealer streak, then 包牌 (RULES.md 3.5)."""
        u = int(state.options["base_unit"])
        s = state.counters.get("dealer_wins", 0)
        d = state.dealer
        bonus = bool(state.options["dealer_streak_bonus"])

        def times(x: int, y: int) -> int:
            return 1 + s if bonus and d in (x, y) and x != y else 1

        items: list[Item] = []
        if win is not None:
            w = win.winner
            if win.win_type in ("discard", "rob_kong"):
                src = win.source
                assert src is not None
                shares = {p: (20 if p == src else 10) * u * times(p, w) for p in range(4) if p != w}
                liable = state.options["baopai"] and (
                    _three_claims(state, w, src) or _three_claims(state, src, w)
                )
                if liable:
                    items.append(
                        Item(
                            "baopai",
                            src,
                            w,
                            sum(shares.values()),
                            "包牌: the discarder pays all three shares",
                        )
                    )
                else:
                    items += [Item("hu", p, w, v) for p, v in shares.items()]
            else:
                items += [Item("hu", p, w, 20 * u * times(p, w)) for p in range(4) if p != w]
        if win is not None or state.options["kong_pay_on_draw"]:
            for meld, konger in state.kongs:
                each = 20 if meld.kind == "kong_concealed" else 10
                items += [
                    Item("kong", p, konger, each * u * times(p, konger))
                    for p in range(4)
                    if p != konger
                ]
        return items

    def next_dealer(self, state: HandState) -> tuple[int, dict[str, int]]:
        """Dealer win: stays, s+1; draw: stays; non-dealer win: winner's next deals (D37)."""
        opts, dealer, counters = state.options, state.dealer, state.counters
        res = state.result()
        winner = res.win.winner if res.win else None
        s = counters.get("dealer_wins", 0)
        if winner is None:
            return dealer, {"dealer_wins": s}
        if winner == dealer:
            return dealer, {"dealer_wins": s + 1}
        if opts["dealer_after_xian_win"] == "dealer_next":
            return (dealer + 1) % 4, {"dealer_wins": 0}
        return (winner + 1) % 4, {"dealer_wins": 0}


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
)
