"""Taizhou / Jiaojiang mahjong 台州麻将 (RULES.md section 5): 得 wilds, 胡 x 2^番,
mutual settlement, 生牌 and 包三家."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from majiang.hand import decompositions, shanten
from majiang.hand.decompose import Decomposition, Group
from majiang.rules.base import (
    COMMON_NAMES,
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
    report_key,
)
from majiang.rules.view import HandView
from majiang.scoring import Item, seat_mark, tile_mark
from majiang.tiles import NOTATION, Tile, parse_tile
from majiang.values import (
    JSON,
    Action,
    Event,
    HandResult,
    Meld,
    MeldKind,
    Options,
    Phase,
    Score,
    WinInfo,
    WinType,
)

__all__ = ["FAN_VALUES", "TAIZHOU", "TaizhouState", "WinnerPoints", "meld_hu"]

# enum members as module-level aliases: CPython 3.11 looks a member up slowly (see
# majiang/engine/state.py), and on_event / filter_turn run at every step
M_CHI = MeldKind.CHI
M_KONG_ADDED = MeldKind.KONG_ADDED
M_KONG_CONCEALED = MeldKind.KONG_CONCEALED
W_DISCARD = WinType.DISCARD
W_KONG_REPLACEMENT = WinType.KONG_REPLACEMENT
W_ROB_KONG = WinType.ROB_KONG
E_DISCARD = Event.DISCARD
E_KONG = Event.KONG

WHITE, GREEN, RED = 31, 32, 33
SHENG_LIVE = 30
"""The 生牌阶段 is the part of the hand with R <= 30 (D71)."""

FAN_VALUES = {
    "four_winds": 13,
    "all_one_suit": 4,
    "half_flush": 2,
    "all_pungs": 2,
    "pang_hu": 1,
    "no_wild": 1,
    "two_wilds": 1,
    "wild_restored": 1,
    "wild_self_drawn": 1,
    "rob_kong": 1,
    "kong_replacement": 1,
    "red_pung": 1,
    "green_pung": 1,
    "seat_wind_pung": 1,
}
"""番 of RULES.md 5.4 in report order."""

FAN_ORDER = tuple(FAN_VALUES)

OPTIONS = (
    Option(
        "wild_mode",
        "choice",
        "flipped",
        "得",
        "a flipped tile: a tile turned up after the deal names the wild; White dragons: the "
        "four White dragons are the wilds",
        choices=("flipped", "fixed_white"),
        en="wild tiles",
        doc_zh="翻得：发牌后翻开一张牌决定得；白板：四张白板是得",
        choice_names=(("翻得", "a flipped tile"), ("白板作得", "White dragons")),
    ),
    Option(
        "settle_mode",
        "choice",
        "xian_half",
        "结算比例",
        "weights: non-dealers halved 1/0.5, dealer doubled 2/1, flat 1",
        choices=("xian_half", "dealer_double", "flat"),
        en="settlement weights",
        doc_zh="比例：闲家减半 1/0.5，庄家翻倍 2/1，平搓 1",
        choice_names=(
            ("闲家减半", "non-dealers halved"),
            ("庄家翻倍", "dealer doubled"),
            ("平搓", "flat"),
        ),
    ),
    Option(
        "settlement",
        "choice",
        "mutual",
        "结算方式",
        "everybody: every seat collects its hand points from every other (a non-winner's: "
        "its melds and natural concealed triplets, x2 per Red/Green/seat-wind set); the "
        "winner only: only the winner collects",
        choices=("mutual", "winner_only"),
        en="who collects",
        doc_zh="互相结算：每家都向其他各家收自己的牌点（没胡的一家：副露和自然暗刻，"
        "每个中、发、门风的刻子翻倍）；只算赢家：只有胡牌者收分",
        choice_names=(("互相结算", "everybody"), ("只算赢家", "the winner only")),
    ),
    Option(
        "baopai",
        "bool",
        True,
        "包三家",
        "the four triggers that make one seat pay for all three",
        en="pays for all three",
        doc_zh="四种包三家的情形",
    ),
    Option(
        "sheng_phase",
        "bool",
        True,
        "生牌阶段",
        "the raw-tile phase at 30 tiles left or fewer",
        en="raw-tile phase",
        doc_zh="牌墙剩 30 张或更少时进入生牌阶段",
    ),
    Option(
        "point_cap",
        "int",
        0,
        "封顶",
        "cap on every hand's points; 0 = none",
        minimum=0,
        en="points cap",
        doc_zh="每家牌点的上限；0 为不封顶",
    ),
    Option(
        "lianzhuang",
        "bool",
        True,
        "连庄",
        "the dealer stays after his own win",
        en="dealer stays on a win",
        doc_zh="庄家胡牌后继续坐庄",
    ),
    escape_option(0),
    FIRST_DEALER,
)


def _honor_or_end(kind: int) -> bool:
    return kind >= 27 or kind % 9 in (0, 8)


def meld_hu(meld: Meld) -> int:
    """胡 of a declared meld (D65): peng 2/4, exposed kong 8/16, concealed kong 16/32."""
    if meld.kind == M_CHI:
        return 0
    base = {"peng": 2, "kong_direct": 8, "kong_added": 8, "kong_concealed": 16}[meld.kind]
    return base * (2 if _honor_or_end(meld.tiles[0]) else 1)


@dataclass(frozen=True, slots=True)
class WinnerPoints:
    """A winner's 牌点 with its breakdown, for replay summaries."""

    points: int
    hu: int
    fan: int
    patterns: tuple[str, ...]
    breakdown: str
    breakdown_zh: str = ""
    """``breakdown`` for a player in Chinese (tiles and seats as ``majiang.scoring`` marks)."""
    breakdown_en: str = ""
    """``breakdown`` in English."""


class LastDiscard(NamedTuple):
    """What 包三家 needs about the last discard or added kong (RULES.md 5.5): private, since
    ``sheng_ok`` and ``shanten_after`` depend on the discarder's concealed tiles."""

    seat: int
    tile: int
    raw: bool
    sheng_ok: bool
    shanten_after: int


class TaizhouState(NamedTuple):
    """熟 kinds (5.2), seats that threw a 得 (5.1), and the last discard for 包三家 (5.5); a
    NamedTuple (a VariantState): made at every discard, so it must be cheap to build."""

    known: frozenset[int] = frozenset()
    no_win: frozenset[int] = frozenset()
    wild_thrown: frozenset[int] = frozenset()
    last: LastDiscard | None = None

    def public(self) -> dict[str, JSON]:
        """Discards are public: 熟 kinds and who threw a 得; ``last`` is not."""
        known, no_win, wild_thrown = _shown(self.known, self.no_win, self.wild_thrown)
        return {"known": list(known), "no_win": list(no_win), "wild_thrown": list(wild_thrown)}


@lru_cache(maxsize=64)
def _shown(
    known: frozenset[int], no_win: frozenset[int], wild_thrown: frozenset[int]
) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    """The public state sorted and named, made once per state (an observation asks for it
    at every decision, and the state changes only at a discard)."""
    return (
        tuple(map(NOTATION.__getitem__, sorted(known))),
        tuple(sorted(no_win)),
        tuple(sorted(wild_thrown)),
    )


_START = TaizhouState()
_FOLLOWED = (E_DISCARD, E_KONG)


def _last_discard(view: HandView, seat: int, tile: int, known: frozenset[int]) -> LastDiscard:
    """What 包三家 needs about ``seat``'s discard (or added kong) of ``tile``, just made;
    ``known`` is the 熟 kinds before it."""
    raw = tile not in known
    held = view.concealed[seat]  # the hand just before the discard is this + tile
    # 生牌 (5.2): a raw tile thrown in the last SHENG_LIVE tiles by a seat that held a
    # 熟 (already seen) one; raw means the tile itself is not 熟, so only held ones count
    wild = view.wild
    sheng_ok = raw and view.live <= SHENG_LIVE and any(held[k] for k in known if k != wild)
    shanten_after = 0
    if tile in (GREEN, RED):
        after = view.hand_tiles(seat)
        if len(after) % 3 != 0:
            shanten_after = shanten(after, wild=wild, seven_pairs=False, thirteen_orphans=False)
    return LastDiscard(seat, tile, raw, sheng_ok, shanten_after)


def _json_list(value: JSON) -> list[JSON]:
    return value if isinstance(value, list) else []


def _discarded_kinds(view: HandView, seat: int) -> tuple[set[int], list[tuple[int, ...]]]:
    """The kinds the table shows were discarded before ``seat``'s last discard (in a pile,
    or claimed by a peng or kong), and the kinds of each chi, one of which it claimed."""
    shown: set[int] = set()
    for s, pile in enumerate(view.discards):
        shown.update(pile[:-1] if s == seat else pile)
    chis: list[tuple[int, ...]] = []
    for melds in view.melds:
        for m in melds:
            if m.source is None:
                continue
            if m.kind == M_CHI:
                chis.append(tuple(sorted(set(m.tiles))))
            else:
                shown.add(m.tiles[0])
    return shown, chis


def _was_known(view: HandView, seat: int, tile: int, known: frozenset[int]) -> bool:
    """Was ``tile`` 熟 before ``seat`` just discarded it (``known``: the 熟 kinds after)?
    Yes if its kind shows in another discard or a peng or kong claimed from one. Else only
    a chi can have claimed an earlier discard of it, and a chi does not show which of its
    kinds it claimed: every chi claimed a 熟 kind and every 熟 kind not shown was claimed by
    a chi, so the kind was 熟 when ``known`` without it cannot be so explained. When both
    readings fit the table cannot tell; the discard is taken as 生, as when no chi holds it."""
    shown, chis = _discarded_kinds(view, seat)
    if tile in shown:
        return True
    return not _explained(known - {tile}, shown, chis) and _explained(known, shown, chis)


def _explained(known: frozenset[int], shown: set[int], chis: list[tuple[int, ...]]) -> bool:
    """Can ``known`` be the 熟 kinds: every chi claimed a kind of it, and every kind of it
    not ``shown`` is one a chi claimed?"""
    need = known - shown

    def fit(i: int, left: frozenset[int]) -> bool:
        if len(left) > len(chis) - i:
            return False
        if i == len(chis):
            return True
        kinds = chis[i]
        # claiming a kind still to explain, or (all alike) one explained already
        if any(k in known and k not in left for k in kinds) and fit(i + 1, left):
            return True
        return any(fit(i + 1, left - {k}) for k in kinds if k in left)

    return fit(0, frozenset(need))


def _state(view: HandView) -> TaizhouState:
    """The hand's taizhou state (the engine keeps what ``start``/``on_event`` returned)."""
    st = view.variant_state
    return st if isinstance(st, TaizhouState) else _START


class TaizhouRules(BaseRules):
    """Hooks of taizhou."""

    def reserved_counts(self, opts: Options, counters: Mapping[str, int]) -> dict[str, int]:
        """The flipped wild indicator (D62)."""
        return indicator_reserved(opts)

    def wild_kind(self, opts: Options, reserved: Mapping[str, tuple[int, ...]]) -> int | None:
        """The indicator's kind, or 白 with fixed_white."""
        return indicator_wild(opts, reserved, WHITE)

    def start(self, view: HandView) -> TaizhouState:
        """Nothing discarded yet; nobody has thrown a 得."""
        return _START

    followed_events = frozenset({E_DISCARD, E_KONG})
    """熟 kinds, 得 and 包三家 change only at a discard or an added kong."""

    def on_event(self, view: HandView, event: Event, seat: int, tile: int) -> TaizhouState:
        """Track 熟 kinds, 得 discards and what 包三家 needs about each discard (5.2, 5.5)."""
        now = view.variant_state
        if not isinstance(now, TaizhouState):  # inline: on_event runs at every step
            now = _START
        if event not in _FOLLOWED:
            return now
        if event == E_KONG and not any(
            m.kind == M_KONG_ADDED and m.tiles[0] == tile for m in view.melds[seat]
        ):
            return now
        known = now.known
        raw = tile not in known
        last = _last_discard(view, seat, tile, known)
        if event != E_DISCARD:
            return TaizhouState(now.known, now.no_win, now.wild_thrown, last)
        if raw:
            known = known | {tile}
        if tile == view.wild:  # 5.1
            return TaizhouState(known, now.no_win | {seat}, now.wild_thrown | {seat}, last)
        return TaizhouState(known, now.no_win, now.wild_thrown, last)

    def restore_state(self, view: HandView, shown: Mapping[str, JSON]) -> TaizhouState:
        """熟 kinds and the 得 throwers are shown; what 包三家 needs about the open window's
        discard (or added kong) is worked out from the world's tiles. Whether that discard
        was 生 is read from the table (``_was_known``)."""
        known = frozenset(
            int(parse_tile(t)) for t in _json_list(shown.get("known")) if isinstance(t, str)
        )
        no_win = frozenset(x for x in _json_list(shown.get("no_win")) if isinstance(x, int))
        thrown = _json_list(shown.get("wild_thrown"))
        wild_thrown = frozenset(x for x in thrown if isinstance(x, int))
        seat, tile = view.window_from, view.window_tile
        last = None
        if seat is not None and tile is not None and view.phase in (Phase.CLAIM, Phase.ROB):
            before = known
            if view.phase == Phase.CLAIM and not _was_known(view, seat, tile, known):
                before = known - {tile}
            last = _last_discard(view, seat, tile, before)
        return TaizhouState(known, no_win, wild_thrown, last)

    def restrictions_now(
        self, view: HandView, seat: int, legal: Sequence[Action]
    ) -> list[tuple[str, str]]:
        """Besides 能胡不胡 / 能碰不碰: a thrown 得 (5.1) and the 生牌阶段 (5.2)."""
        out = super().restrictions_now(view, seat, legal)
        if view.ended:
            return out
        if seat in _state(view).no_win:
            out = [r for r in out if r[0] != "no_discard_win"]
            out.insert(0, ("wild_thrown", ""))
        if view.options["sheng_phase"] and view.live <= SHENG_LIVE:
            out.append(("sheng", ""))
        return out

    def can_self_draw(self, view: HandView, seat: int) -> bool:
        """A seat that discarded a 得 cannot win (5.1)."""
        st = view.variant_state
        return not (isinstance(st, TaizhouState) and seat in st.no_win)

    def may_win_on_discard(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """A seat that discarded a 得 cannot win (5.1); checked before the shape, and all a
        discard win needs here (the default ``can_win_on_discard`` allows the rest). The
        check is written out in each of these hooks: the first runs for 3 seats a discard."""
        st = view.variant_state
        return not (isinstance(st, TaizhouState) and seat in st.no_win)

    def can_rob(self, view: HandView, seat: int, konger: int, tile: int) -> bool:
        """A seat that discarded a 得 cannot win (5.1)."""
        st = view.variant_state
        return not (isinstance(st, TaizhouState) and seat in st.no_win)

    # -- scoring ---------------------------------------------------------------------
    def winner_score(self, view: HandView, win: WinInfo) -> WinnerPoints:
        """The decomposition and winning-tile placement that maximise 牌点 (5.4)."""
        return self._best(view, win)

    def _best(self, view: HandView, win: WinInfo) -> WinnerPoints:
        seat = win.winner
        wild = view.wild
        pos = (seat - view.dealer) % 4
        seat_wind = 27 + pos
        tiles = view.hand_tiles(seat)
        self_draw = win.win_type not in (W_DISCARD, W_ROB_KONG)
        if not self_draw:
            tiles.append(win.tile)
        melds = view.melds[seat]
        wilds = tiles.count(wild) if wild is not None else 0
        drawn_wild = self_draw and win.tile == wild
        meld_sets = [(m.kind, m.tiles[0]) for m in melds]
        best: WinnerPoints | None = None
        best_key: tuple[int, tuple[int, list[int]]] = (1, (0, []))  # below every reading
        for reading in decompositions(
            tiles, wild=wild, seven_pairs=False, thirteen_orphans=False, wild_pairs_natural=False
        ):
            groups = [g for g in reading.groups if g.kind != "pair"]
            pair = reading.pairs[0]
            pair_kind = int(pair.tiles[0])
            # where the winning tile may sit: any set or the pair (index len(groups))
            places = [
                (gi, idx)
                for gi, g in enumerate([*groups, pair])
                for idx, (t, is_wild) in enumerate(zip(g.tiles, g.wilds, strict=True))
                if (is_wild and drawn_wild) or (not is_wild and t == win.tile and not drawn_wild)
            ] or [(-1, -1)]
            fans = self._fan(view, win, reading, groups, pair_kind, meld_sets, wilds, seat_wind)
            fan = sum(FAN_VALUES[f] for f in fans)
            for gi, idx in places:
                hu = 10
                parts = ["底胡 10"]
                words = [("底胡 10", "win 10")]
                for i, g in enumerate(groups):
                    k = int(g.tiles[0])
                    if g.kind == "sequence":
                        if i == gi and idx == 1:
                            hu += 2
                            parts.append("嵌档 2")
                            words.append(("嵌档 2", "middle wait 2"))
                        continue
                    exposed = i == gi and not self_draw
                    v = (2 if exposed else 4) * (2 if _honor_or_end(k) else 1)
                    hu += v
                    parts.append(f"{'明' if exposed else '暗'}刻 {v}")
                    words.append(
                        (
                            f"{'明' if exposed else '暗'}刻 {v}",
                            f"{'exposed' if exposed else 'concealed'} triplet {v}",
                        )
                    )
                for m in melds:
                    v = meld_hu(m)
                    if v:
                        hu += v
                        parts.append(f"{COMMON_NAMES[m.kind][0]} {v}")
                        words.append(
                            (f"{COMMON_NAMES[m.kind][0]} {v}", f"{COMMON_NAMES[m.kind][1]} {v}")
                        )
                if pair_kind in (seat_wind, RED, GREEN, WHITE):
                    hu += 2
                    parts.append("对 2")
                    words.append(("对 2", "pair 2"))
                if self_draw:
                    hu += 2
                    parts.append("自摸 2")
                    words.append(("自摸 2", "self-draw 2"))
                points = self._cap(view, hu << fan)
                score = WinnerPoints(
                    points,
                    hu,
                    fan,
                    tuple(fans) or ("basic_hand",),
                    f"胡 {hu} ({' + '.join(parts)}) x 2^{fan} = {points}",
                    f"胡数 {hu}（{' + '.join(z for z, _ in words)}）× 2^{fan} = {points}",
                    f"hand points {hu} ({' + '.join(e for _, e in words)}) x 2^{fan} = {points}",
                )
                # RULES.md 0.7: the highest 牌点, then the most 番, then the first in list order
                key = (-points, report_key(fans, FAN_ORDER))
                if key < best_key:
                    best, best_key = score, key
        if best is None:
            raise ValueError("the winning hand has no standard reading")
        return best

    def _fan(
        self,
        view: HandView,
        win: WinInfo,
        reading: Decomposition,
        groups: list[Group],
        pair_kind: int,
        meld_sets: Sequence[tuple[str, int]],
        wilds: int,
        seat_wind: int,
    ) -> list[str]:
        triplets = {int(g.tiles[0]) for g in groups if g.kind == "triplet"}
        triplets |= {k for kind, k in meld_sets if kind != "chi"}
        kinds = [int(t) for g in reading.groups for t in g.tiles]
        kinds += [k for _, k in meld_sets]
        suits = {k // 9 for k in kinds if k < 27}
        honors = any(k >= 27 for k in kinds)
        all_seq = all(g.kind == "sequence" for g in groups) and all(
            kind == "chi" for kind, _ in meld_sets
        )
        no_seq = all(g.kind == "triplet" for g in groups) and all(
            kind != "chi" for kind, _ in meld_sets
        )
        found = set()
        if {27, 28, 29, 30} <= triplets | {pair_kind}:
            found.add("four_winds")
        if len(suits) == 1 and not honors:
            found.add("all_one_suit")
        if len(suits) == 1 and honors:
            found.add("half_flush")
        if no_seq:
            found.add("all_pungs")
        self_draw = win.win_type not in (W_DISCARD, W_ROB_KONG)
        if all_seq and self_draw:
            found.add("pang_hu")
        if wilds == 0:
            found.add("no_wild")
        elif wilds == 2:
            found.add("two_wilds")
        elif wilds == 1:
            stands = [t for g in reading.groups for t, w in zip(g.tiles, g.wilds, strict=True) if w]
            if stands and stands[0] == view.wild:
                found.add("wild_restored")
        if self_draw and win.tile == view.wild:
            found.add("wild_self_drawn")
        if win.win_type == W_ROB_KONG:
            found.add("rob_kong")
        if win.win_type == W_KONG_REPLACEMENT:
            found.add("kong_replacement")
        if RED in triplets:
            found.add("red_pung")
        if GREEN in triplets:
            found.add("green_pung")
        if seat_wind in triplets:
            found.add("seat_wind_pung")
        return [f for f in FAN_VALUES if f in found]

    def _cap(self, view: HandView, points: int) -> int:
        cap = int(view.options["point_cap"])
        return min(points, cap) if cap > 0 else points

    def loser_points(self, view: HandView, seat: int) -> tuple[int, str]:
        """A non-winner's 牌点 and its breakdown (D66): his melds and natural concealed
        triplets x 2^(one per such set of 中, 发 or his seat wind)."""
        points, notes = self.loser_notes(view, seat)
        return points, notes[0]

    def loser_notes(self, view: HandView, seat: int) -> tuple[int, tuple[str, str, str]]:
        """``loser_points`` with its breakdown as the note, in Chinese and in English."""
        seat_wind = 27 + (seat - view.dealer) % 4
        melds = view.melds[seat]
        parts = [
            (f"{COMMON_NAMES[m.kind][0]} {Tile(m.tiles[0])}", meld_hu(m))
            for m in melds
            if meld_hu(m)
        ]
        words = [
            (
                f"{COMMON_NAMES[m.kind][0]} {tile_mark(m.tiles[0])}",
                f"{COMMON_NAMES[m.kind][1]} {tile_mark(m.tiles[0])}",
            )
            for m in melds
            if meld_hu(m)
        ]
        kinds = [m.tiles[0] for m in melds if m.kind != M_CHI]
        # D66 (corrected 2026-12-01): three (or four undeclared) natural tiles of a kind in
        # the concealed hand count as a 暗刻; 得 never make one (未胡牌时不可用财神替代).
        for k, n in enumerate(view.concealed[seat]):
            if n >= 3 and k != view.wild:
                parts.append((f"暗刻 {Tile(k)}", 4 * (2 if _honor_or_end(k) else 1)))
                words.append((f"暗刻 {tile_mark(k)}", f"concealed triplet {tile_mark(k)}"))
                kinds.append(k)
        hu = sum(v for _, v in parts)
        fan = sum(1 for k in kinds if k in (RED, GREEN, seat_wind))
        points = self._cap(view, hu << fan)
        shown = f" ({' + '.join(f'{name} {v}' for name, v in parts)})" if parts else ""
        values = [v for _, v in parts]
        zh = "（" + " + ".join(f"{z} {v}" for (z, _), v in zip(words, values, strict=True)) + "）"
        en = " (" + " + ".join(f"{e} {v}" for (_, e), v in zip(words, values, strict=True)) + ")"
        return points, (
            f"胡 {hu}{shown} x 2^{fan} = {points}",
            f"胡数 {hu}{zh if parts else ''} × 2^{fan} = {points}",
            f"hand points {hu}{en if parts else ''} x 2^{fan} = {points}",
        )

    def score(self, view: HandView, win: WinInfo | None) -> Score:
        """The winner's 番 (or basic_hand), 牌点 and the payments (RULES.md 5.4, 5.5)."""
        if win is None:
            return Score((), 0, ())  # 黄牌: nothing is settled
        mine = self.winner_score(view, win)
        return Score(mine.patterns, mine.points, tuple(self._settle(view, win, mine)))

    def liable(self, view: HandView, win: WinInfo, mine: WinnerPoints) -> tuple[int | None, str]:
        """The 包三家 seat and its trigger, if any (RULES.md 5.5, D74)."""
        if not view.options["baopai"] or win.win_type not in (W_DISCARD, W_ROB_KONG):
            return None, ""
        b, tile = win.source, win.tile
        # Triggers 1, 3 and 4 read what was recorded at B's discard; the calculator
        # (majiang score) has a position but no discards, so only trigger 2 applies there.
        last = _state(view).last
        if last is not None and (last.seat != b or last.tile != tile):
            last = None
        if last is not None and view.options["sheng_phase"] and last.sheng_ok:
            return b, "生牌"
        exposed = [m for m in view.melds[win.winner] if m.kind != M_KONG_CONCEALED]
        if (
            tile < 27
            and len(exposed) >= 3
            and all(m.tiles[0] // 9 == tile // 9 and m.tiles[0] < 27 for m in exposed)
            and "all_one_suit" in mine.patterns
        ):
            return b, "清一色"
        if last is not None and tile in (GREEN, RED) and last.shanten_after >= 2:
            return b, "中/发"
        if last is not None and last.raw and b in _state(view).wild_thrown:
            return b, "得 discarded"
        return None, ""

    def _settle(self, view: HandView, win: WinInfo, mine: WinnerPoints) -> list[Item]:
        """Weighted 牌点 rounded up to tens, mutual or winner_only, 包三家 (RULES.md 5.5)."""
        w = win.winner
        b, why = self.liable(view, win, mine)
        points = [0] * 4
        notes = [("", "", "")] * 4
        points[w] = mine.points
        notes[w] = (mine.breakdown, mine.breakdown_zh, mine.breakdown_en)
        for s in range(4):
            if s == b:
                notes[s] = ("包三家: 牌点 0", "包三家：牌点 0", "pays for all three: points 0")
            elif s != w:
                points[s], notes[s] = self.loser_notes(view, s)
        mode = view.options["settle_mode"]
        d = view.dealer

        def weight(x: int, y: int) -> Fraction:
            dealer = d in (x, y)
            if mode == "xian_half":
                return Fraction(1) if dealer else Fraction(1, 2)
            if mode == "dealer_double":
                return Fraction(2) if dealer else Fraction(1)
            return Fraction(1)

        items: list[Item] = []
        receivers = range(4) if view.options["settlement"] == "mutual" else (w,)
        for x in receivers:
            for y in range(4):
                if x == y or not points[x]:
                    continue
                v = points[x] * weight(x, y)
                amount = -((-v) // 10)  # rounded up to a multiple of 10, then / 10
                if not amount:
                    continue
                k = weight(x, y)
                how = f"{notes[x][0]}; x {k} = {v}, rounded up to tens / 10 = {amount}"
                zh = f"{notes[x][1]}；× {k} = {v}，向上取整到十位再除以 10 = {amount}"
                en = f"{notes[x][2]}; x {k} = {v}, rounded up to tens / 10 = {amount}"
                if b is not None:
                    if x != b:
                        note = f"包三家 ({why}), for S{y}: {how}"
                        reason = BAO_REASONS.get(why, "baosanjia")
                        named = NAMES.get(reason, ("包三家", "pays for all three"))
                        zh = f"包三家（{named[0]}），替 {seat_mark(y)} 付：{zh}"
                        en = f"pays for all three ({named[1]}), for {seat_mark(y)}: {en}"
                        items.append(Item("baosanjia", b, x, int(amount), note, reason, zh, en))
                    continue
                reason = win.win_type if x == w else "points"
                kind = "hu" if x == w else "points"
                items.append(Item(kind, y, x, int(amount), how, reason, zh, en))
        return items

    def next_dealer(self, view: HandView, res: HandResult) -> tuple[int, dict[str, int]]:
        """The dealer stays after his own win (lianzhuang); otherwise his next deals (D72)."""
        d = view.dealer
        if res.win is not None and res.win.winner == d and view.options["lianzhuang"]:
            return d, {}
        return (d + 1) % 4, {}  # also after an escape: as after a drawn hand (decisions.md)


BAO_REASONS = {
    "生牌": "sheng",
    "清一色": "qingyise",
    "中/发": "zhongfa",
    "得 discarded": "wild_thrown",
}
"""包三家 triggers (RULES.md 5.5) as payment reasons."""

PATTERN_NAMES = {
    "basic_hand": ("平胡", "no fan"),
    "four_winds": ("四风全齐", "all four winds"),
    "all_one_suit": ("清一色", "all one suit"),
    "half_flush": ("混一色", "half flush"),
    "all_pungs": ("对对胡", "all pungs"),
    "pang_hu": ("旁胡", "all chows, self-drawn"),
    "no_wild": ("无得", "no wild"),
    "two_wilds": ("两得", "two wilds"),
    "wild_restored": ("一得还原", "the wild as itself"),
    "wild_self_drawn": ("自摸得", "self-drawn wild"),
    "rob_kong": ("抢杠胡", "robbing a kong"),
    "kong_replacement": ("杠上开花", "win on a kong replacement"),
    "red_pung": ("红中", "red dragon pung"),
    "green_pung": ("发财", "green dragon pung"),
    "seat_wind_pung": ("门风", "seat wind pung"),
}
"""Every 番 of RULES.md 5.4, (Chinese, English)."""

NAMES = {
    "wild": ("得", "wild"),
    "sheng": ("生牌包", "fed a raw tile in the raw-tile phase"),
    "qingyise": ("清一色包", "fed the flush of a seat with three exposed melds of one suit"),
    "zhongfa": ("中发包", "fed Red or Green while two or more tiles from ready"),
    "wild_thrown": ("打得包", "threw a wild earlier, then fed a raw tile"),
}
"""Payment reasons and other ids of taizhou, (Chinese, English)."""

RESTRICTIONS = (
    Restriction(
        "wild_thrown",
        "打得",
        "wild thrown",
        "Discarding a wild costs you the win for the rest of the hand: no self-draw, no win "
        "on a discard, no robbing. A discarded wild can never be claimed.",
        "you discarded a wild: you cannot win this hand",
        now_zh="你打出过得：本局不能再胡",
        rule_zh="打出得之后本局就不能胡了：不能自摸、点炮胡或抢杠胡。打出的得谁都不能要。",
        limits=("win",),
    ),
    Restriction(
        "missed_win",
        "能胡不胡",
        "passed win",
        "If you pass on a win (on a discard or by robbing), you may not win on that tile "
        "from another seat until you next chi, peng, kong or draw; self-draw is not affected.",
        "you passed a win on {}: no win on it from another seat until you next chi, peng, "
        "kong or draw",
        now_zh="你放过了 {} 的胡（能胡不胡）：到你下次吃、碰、杠或摸牌前不能胡别人的这张",
        rule_zh="放过一次胡（点炮或抢杠）后，到自己下次吃、碰、杠或摸牌前不能胡别人的这种牌；"
        "自摸不受影响。",
        limits=("win",),
    ),
    Restriction(
        "missed_peng",
        "能碰不碰",
        "passed peng",
        "If you pass on a peng, you may not peng that tile until you next chi, peng, kong or draw.",
        "you passed a peng of {}: no peng of it until you next chi, peng, kong or draw",
        now_zh="你放过了 {} 的碰（能碰不碰）：到你下次吃、碰、杠或摸牌前不能碰这张",
        rule_zh="放过一次碰后，到自己下次吃、碰、杠或摸牌前不能再碰这种牌。",
        limits=("claim",),
    ),
    Restriction(
        "sheng",
        "生牌阶段",
        "raw-tile phase",
        "From 30 tiles left in the wall, discarding a raw tile (a kind nobody has discarded "
        "yet) while you hold known tiles makes you pay for everybody if someone wins on it.",
        "30 or fewer tiles are left: if you discard a raw tile (none of its kind discarded "
        "yet) while you hold known tiles and someone wins on it, you pay for everybody",
        now_zh="剩 30 张或更少（生牌阶段）：你手里有熟张时打出生张（还没人打过的牌）"
        "被胡，你要包三家",
        rule_zh="牌墙剩 30 张起，手里有熟张时打出生张（还没人打过的牌）被胡，你要包三家。",
        limits=(),
    ),
    Restriction(
        "no_discard_win",
        "不能胡",
        "no win here",
        "A win needs the standard shape (four sets and a pair, no seven pairs); a wild makes "
        "a pair only with another wild.",
        "your tiles with {} cannot be read as four sets and a pair here",
        now_zh="你的牌加上 {} 凑不成四组一对，这里不能胡",
        rule_zh="胡牌要标准牌型（四组一对，没有七对）；得只能和另一张得成对。",
        limits=("win",),
    ),
)
"""Taizhou's restrictions in words (RULES.md 5.1-5.3, 5.5)."""

READINGS = (
    "This is the normal mode: 136 tiles, no flowers, the standard shape only (no seven "
    "pairs, no thirteen orphans).",
    "Wilds: by default a tile is turned up after the deal and the other three of its kind "
    "are wilds (option: the four White dragons). A wild stands for any tile inside a set; "
    "two wilds make a pair of anything, but a wild and a natural tile are not a pair. "
    "Wilds never go into melds.",
    "Hand points: 10 for the winner; a peng 2 (4 for terminals and honors), a concealed "
    "triplet 4/8, an exposed kong 8/16, a concealed kong 16/32; a pair of your seat wind "
    "or a dragon 2; self-draw +2; a middle-tile wait +2. The points are then doubled once "
    "for each fan.",
    "Non-winners count too: their melds and their natural concealed triplets, doubled for "
    "each Red, Green or seat-wind set.",
    "Settlement: every seat collects its points from every other seat; between two "
    "non-dealers the amount is halved (an option); each payment is rounded up to tens and "
    "divided by 10.",
    "Paying for all three: the liable seat's points are 0 and it pays every payment of the "
    "hand. Triggers, only on a win on a discard or by robbing: a raw tile fed in the "
    "raw-tile phase while holding known tiles; the flush tile fed to a seat with three "
    "exposed melds of that suit; Red or Green fed while two or more tiles from ready; a "
    "raw tile fed by a seat that threw a wild earlier.",
    "Dead wall: the hand is drawn when an ordinary draw is due and 16 or fewer tiles are "
    "left; nothing is settled and the dealer's next seat deals.",
    "Dealer: he stays after his own win (an option); otherwise his next seat deals.",
    "White triplets give no fan.",
)
"""How this project reads the fragment where it is silent (RULES.md D61-D76), in plain
words."""

READINGS_ZH = (
    "这里是常规模式：136 张牌，没有花牌，只有标准牌型（没有七对、十三幺）。",
    "得：默认发牌后翻开一张牌，同种的另外三张是得（可选四张白板作得）。得可当一组牌中的任意一张；"
    "两张得可成任意一对，但得和真牌不能成对。得不能用于副露。",
    "胡数：胡牌者 10；碰 2（幺九和字牌 4），暗刻 4/8，明杠 8/16，暗杠 16/32；"
    "门风或箭牌作将 2；自摸 +2；嵌档 +2。牌点 = 胡数 × 2 的番数次方。",
    "没胡的人也算：他们的副露和自然暗刻，每个中、发、门风的刻子翻倍。",
    "结算：每家向其他各家收自己的牌点；两个闲家之间减半（闲家减半，可选）；"
    "每笔先向上取整到十位，再除以 10。",
    "包三家：被包的一家牌点为 0，付这一局的所有分。只在点炮胡或抢杠胡时成立："
    "生牌阶段手里有熟张时打出生张；给已有三副同花色副露的一家打出该花色的牌；"
    "离听还差两张以上时打出中或发；打过得的人又打出生张。",
    "黄牌：该正常摸牌而牌墙只剩 16 张或更少时流局；不结算，由庄家的下家坐庄。",
    "坐庄：庄家胡牌后连庄（可选）；否则由他的下家坐庄。",
    "白板的刻子不算番。",
)
"""``READINGS`` in Chinese."""

TAIZHOU = Variant(
    id="taizhou",
    name="Taizhou / Jiaojiang mahjong",
    zh="台州麻将",
    reserved=(WILD_INDICATOR,),
    tile_counts=(4,) * 34 + (0,) * 8,
    options=OPTIONS,
    counters={},
    public_state={"known": "tiles", "no_win": "seats", "wild_thrown": "seats"},
    rules=TaizhouRules(),
    claims=frozenset({"hu", "kong", "peng", "chi"}),
    kong_min_live=17,
    claim_end_live=-1,
    draw_end_live=16,
    rob_added_kong=True,
    shapes={"seven_pairs": False, "thirteen_orphans": False, "wild_pairs_natural": False},
    wild_discard_claims=frozenset(),
    missed_rules=frozenset({"win", "peng"}),
    missed_clear_on_claim=True,
    patterns=PATTERN_NAMES,
    pattern_values={p: f"{FAN_VALUES.get(p, 0)} fan" for p in PATTERN_NAMES},
    pattern_values_zh={p: f"{FAN_VALUES.get(p, 0)} 番" for p in PATTERN_NAMES},
    names=NAMES,
    summary=(
        "胡数乘番，四家互相结算；打出得就不能胡；生牌、清一色、中发点炮包三家",
        "Hand points doubled by each fan, everybody settles with everybody; throwing a wild "
        "costs your win; feeding a raw tile, a flush or Red/Green pays for all",
    ),
    restrictions=RESTRICTIONS,
    readings=READINGS,
    readings_zh=READINGS_ZH,
    play=PlayHints(flush=4, kong=1, melds=True),  # 番 of one suit; melds pay (5.4, 5.5)
)
