"""Variants as data plus hooks (DESIGN.md): options, the Variant value, the hook protocol."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from majiang.errors import OptionError
from majiang.hand import is_winning
from majiang.tiles import Tile, format_tiles

if TYPE_CHECKING:
    from majiang.engine.state import Action, HandState, WinInfo
    from majiang.scoring import Item

__all__ = [
    "COMMON_NAMES",
    "BaseRules",
    "Option",
    "Restriction",
    "Rules",
    "Variant",
    "remember_score",
    "report_key",
    "validate_options",
]


@dataclass(frozen=True, slots=True)
class Option:
    """A room option, declared once: drives validation, CLI help and docs."""

    name: str
    kind: str  # "bool", "int" or "choice"
    default: Any
    zh: str
    doc: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None

    def validate(self, value: Any) -> Any:
        """The value if allowed, else OptionError naming the option and what it takes."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise OptionError(f"option {self.name!r} takes true or false, got {value!r}")
        if self.kind == "int":
            if isinstance(value, int) and not isinstance(value, bool):
                if self.minimum is not None and value < self.minimum:
                    raise OptionError(
                        f"option {self.name!r} takes an integer >= {self.minimum}, got {value}"
                    )
                return value
            raise OptionError(f"option {self.name!r} takes an integer, got {value!r}")
        # a look-alike of another type (True for 1, 2.0 for 2) is no choice
        if any(value == c and type(value) is type(c) for c in self.choices):
            return value
        allowed = ", ".join(map(str, self.choices))
        raise OptionError(f"option {self.name!r} takes one of {allowed}; got {value!r}")

    def describe(self) -> str:
        """Allowed values in words, for help text."""
        if self.kind == "bool":
            return "true / false"
        if self.kind == "int":
            return f"integer >= {self.minimum}" if self.minimum is not None else "integer"
        return " / ".join(map(str, self.choices))


FIRST_DEALER = Option(
    "first_dealer",
    "choice",
    "random",
    "首局庄家",
    "the first dealer: drawn with the match seed, or a seat",
    choices=("random", 0, 1, 2, 3),
)


def escape_option(default: int) -> Option:
    """The escape penalty every variant has (RULES.md 0.9)."""
    return Option(
        "escape_penalty",
        "int",
        default,
        "逃跑扣分",
        "points the escaper pays each other seat",
        minimum=0,
    )


COMMON_NAMES: Mapping[str, tuple[str, str]] = {
    # payment item kinds (RULES.md 0.8)
    "hu": ("胡", "win"),
    "kong": ("杠", "kong"),
    "horse": ("马", "horse"),
    "bird": ("抓鸟", "bird"),
    "zhuangxian": ("庄闲", "dealer point"),
    "chengbao": ("承包", "liability"),
    "baopai": ("包牌", "liability"),
    "baosanjia": ("包三家", "pays for all three"),
    "points": ("牌点", "hand points"),
    "escape": ("逃跑", "escape"),
    # win types, which are also the reasons of win payments
    "self_draw": ("自摸", "self-draw"),
    "discard": ("点炮", "win on a discard"),
    "rob_kong": ("抢杠胡", "robbing a kong"),
    "kong_replacement": ("杠上开花", "self-draw on a kong replacement"),
    "instant": ("起手胡", "instant win"),
    # melds, which are also the reasons of kong payments
    "chi": ("吃", "chi"),
    "peng": ("碰", "peng"),
    "kong_direct": ("明杠", "direct kong"),
    "kong_added": ("补杠", "added kong"),
    "kong_concealed": ("暗杠", "concealed kong"),
    # reserved tiles (FORMAT.md deal.reserved)
    "horses": ("马牌", "horses"),
    "birds": ("鸟牌", "birds"),
    "wild_indicator": ("翻牌", "wild indicator"),
    # outcomes and roles
    "win": ("胡牌", "win"),
    "draw": ("流局", "drawn hand"),
    "dealer": ("庄家", "dealer"),
    "wild": ("赖子", "wild"),
}
"""Names of the ids every variant shares, (Chinese, English); variants add their own."""


@dataclass(frozen=True, slots=True)
class Restriction:
    """A rule that takes choices away from a player, in words for front ends (抓打, 漏胡 …)."""

    id: str
    zh: str
    en: str
    rule: str
    """The rule in plain words."""
    now: str = ""
    """What it means for the seat now; ``{}`` stands for the detail (tiles, a seat)."""


T = TypeVar("T")


def remember_score(state: HandState, win: WinInfo, compute: Callable[[], T]) -> T:
    """Score a win once: patterns and settlement both need the best reading.

    Kept in the hand's private variant state, keyed by the win and the point of
    play, so a clone or a later win never sees a stale score.
    """
    key = (win, len(state.history))
    hit = state.extra.get("_score")
    if hit is not None and hit[0] == key:
        value: T = hit[1]
        return value
    value = compute()
    state.extra["_score"] = (key, value)
    return value


def report_key(patterns: Sequence[str], order: Sequence[str]) -> tuple[int, list[int]]:
    """Which equally scoring reading's patterns to report, smallest key first (RULES.md 0.7):
    the one with the most patterns, then the first in the pattern-list ``order``."""
    return -len(patterns), sorted(order.index(p) for p in patterns)


def indicator_reserved(opts: Mapping[str, Any]) -> dict[str, int]:
    """One wild indicator set aside when ``wild_mode`` is flipped (RULES.md 2.1, 5.1)."""
    return {"wild_indicator": 1} if opts["wild_mode"] == "flipped" else {}


def indicator_wild(
    opts: Mapping[str, Any], reserved: Mapping[str, tuple[int, ...]], fixed: int
) -> int:
    """The flipped indicator's kind, or the fixed wild kind (RULES.md 2.1, 5.1)."""
    if opts["wild_mode"] == "flipped":
        return int(reserved["wild_indicator"][0])
    return fixed


class Rules(Protocol):
    """What is truly code in a variant; the engine calls only these."""

    def reserved_counts(
        self, opts: Mapping[str, Any], counters: Mapping[str, int]
    ) -> dict[str, int]:
        """Reserved tiles by purpose, taken from the back after dealing (RULES.md 0.3)."""
        ...

    def wild_kind(
        self, opts: Mapping[str, Any], reserved: Mapping[str, tuple[int, ...]]
    ) -> int | None:
        """The wild kind of this hand, or None."""
        ...

    def initial_counters(self, opts: Mapping[str, Any]) -> dict[str, int]:
        """Dealer counters of a match's first hand when the record gives none."""
        ...

    def tile_set(self, opts: Mapping[str, Any]) -> tuple[int, ...] | None:
        """Copies of each of the 42 kinds when options change the set, else None."""
        ...

    def instant_win(self, state: HandState, seat: int) -> bool:
        """May ``seat`` declare an instant win now, complete or not (四红中)?"""
        ...

    def wilds_in_melds(self, opts: Mapping[str, Any]) -> bool:
        """May wilds stand in chi, peng and kongs?"""
        ...

    def on_start(self, state: HandState) -> None:
        """Set up variant state in ``state.extra`` at the deal."""
        ...

    def on_event(self, state: HandState, event: str, seat: int, tile: int) -> None:
        """Follow the hand: ``event`` is draw, discard, claim or kong."""
        ...

    def can_chi(self, state: HandState, seat: int) -> bool:
        """May ``seat`` chi the current discard (already known to be from its previous seat)?"""
        ...

    def can_self_draw(self, state: HandState, seat: int) -> bool:
        """May ``seat`` declare its complete hand now (self-draw)?"""
        ...

    def may_win_on_discard(self, state: HandState, seat: int) -> bool:
        """A cheap test made before the shape check: could ``seat`` win on a discard now?"""
        ...

    def can_win_on_discard(self, state: HandState, seat: int) -> bool:
        """May ``seat`` win on the current discard (shape already checked)?"""
        ...

    def can_rob(self, state: HandState, seat: int) -> bool:
        """May ``seat`` rob the added kong being declared (shape already checked)?"""
        ...

    def filter_turn(self, state: HandState, seat: int, actions: list[Action]) -> list[Action]:
        """The turn's actions this variant allows (e.g. 抓打 restrictions)."""
        ...

    def filter_claims(self, state: HandState, seat: int, actions: list[Action]) -> list[Action]:
        """The claims of the current discard this variant allows."""
        ...

    def patterns(self, state: HandState, win: WinInfo) -> tuple[list[str], int]:
        """Pattern ids in RULES.md order and the hand's value for the best reading."""
        ...

    def settle(self, state: HandState, win: WinInfo | None) -> list[Item]:
        """Every payment of the hand (win is None for a drawn hand)."""
        ...

    def next_dealer(self, state: HandState) -> tuple[int, dict[str, int]]:
        """Dealer and counters of the next hand, from the ended hand (RULES.md 1.6, 2.6 …)."""
        ...

    def restrictions_now(self, state: HandState, seat: int) -> list[tuple[str, str]]:
        """Restrictions in force for ``seat`` now, as (restriction id, detail)."""
        ...

    def reserved_note(self, state: HandState, purpose: str, tile: int) -> tuple[str, str]:
        """What a revealed reserved tile means, (Chinese, English): a horse's seat, a bird hit."""
        ...


class BaseRules:
    """Defaults for the hooks: no wilds, no restrictions beyond the engine's."""

    def reserved_counts(
        self, opts: Mapping[str, Any], counters: Mapping[str, int]
    ) -> dict[str, int]:
        """No reserved tiles."""
        return {}

    def wild_kind(
        self, opts: Mapping[str, Any], reserved: Mapping[str, tuple[int, ...]]
    ) -> int | None:
        """No wilds."""
        return None

    def wilds_in_melds(self, opts: Mapping[str, Any]) -> bool:
        """Melds use natural tiles only."""
        return False

    def initial_counters(self, opts: Mapping[str, Any]) -> dict[str, int]:
        """The variant's declared defaults."""
        return {}

    def tile_set(self, opts: Mapping[str, Any]) -> tuple[int, ...] | None:
        """Copies of each of the 42 kinds when options change the set (转转), else None."""
        return None

    def instant_win(self, state: HandState, seat: int) -> bool:
        """May ``seat`` declare an instant win now, complete or not (四红中)?"""
        return False

    def on_start(self, state: HandState) -> None:
        """Nothing to set up."""

    def on_event(self, state: HandState, event: str, seat: int, tile: int) -> None:
        """Nothing to follow."""

    def can_chi(self, state: HandState, seat: int) -> bool:
        """Chi allowed wherever the variant's claims list it."""
        return True

    def can_self_draw(self, state: HandState, seat: int) -> bool:
        """Self-draws always allowed."""
        return True

    def may_win_on_discard(self, state: HandState, seat: int) -> bool:
        """No cheap precondition."""
        return True

    def can_win_on_discard(self, state: HandState, seat: int) -> bool:
        """Discard wins allowed wherever the variant's claims list them."""
        return True

    def can_rob(self, state: HandState, seat: int) -> bool:
        """Robbing allowed wherever the variant allows it."""
        return True

    def filter_turn(self, state: HandState, seat: int, actions: list[Action]) -> list[Action]:
        """Everything the engine offers."""
        return actions

    def filter_claims(self, state: HandState, seat: int, actions: list[Action]) -> list[Action]:
        """Everything the engine offers."""
        return actions

    def restrictions_now(self, state: HandState, seat: int) -> list[tuple[str, str]]:
        """漏胡 / 漏碰 (D8), the wall's last turns, and a complete hand refused a discard win.

        Ids name the variant's declared ``restrictions``; the detail is tiles or a seat.
        """
        out: list[tuple[str, str]] = []
        if state.result_ is not None:
            return out
        if state.missed_win[seat]:
            out.append(("missed_win", format_tiles(sorted(state.missed_win[seat]))))
        if state.missed_peng[seat]:
            out.append(("missed_peng", format_tiles(sorted(state.missed_peng[seat]))))
        mine = state.phase == "turn" and state.current == seat
        if mine and state.final_turn:
            out.append(("last_tile", ""))
        elif mine and state.last_turn:
            out.append(("last_turn", ""))
        t = state.window_tile
        if (
            state.phase == "claim"
            and t is not None
            and seat != state.window_from
            and t not in state.missed_win[seat]
            and not any(a.type == "hu" for a in state.legal_actions(seat))
        ):
            shapes = dict(state.shapes)
            if state.melds[seat]:
                shapes.update(seven_pairs=False, thirteen_orphans=False)
            if is_winning([*state.hand_tiles(seat), t], wild=state.wild, **shapes):
                out.append(("no_discard_win", str(Tile(t))))
        return out

    def reserved_note(self, state: HandState, purpose: str, tile: int) -> tuple[str, str]:
        """Nothing to say beyond the tile."""
        return ("", "")


@dataclass(frozen=True, slots=True)
class Variant:
    """A rule set: its tables and its hooks."""

    id: str
    name: str
    zh: str
    tile_counts: tuple[int, ...]
    options: tuple[Option, ...]
    counters: Mapping[str, int]
    rules: Rules
    claims: frozenset[str] = field(default_factory=lambda: frozenset({"peng", "kong"}))
    counter_ranges: Mapping[str, tuple[int, int | None]] = field(default_factory=dict)
    """Allowed (least, most) value of each counter in a record's ``start``."""
    kong_min_live: int = 1
    """A kong needs at least this many live tiles (a replacement must exist)."""
    claim_end_live: int = 0
    """After a draw leaving R <= claim_end_live the seat's discard may only be won on
    (RULES.md 1.2, 2.2, 3.2)."""
    draw_end_live: int = 0
    """The hand is drawn when an ordinary draw is due and R <= draw_end_live."""
    final_live: int | None = None
    """After a draw leaving R <= final_live the seat may only win; else the hand is
    drawn (hainan 3.2: the last tile is not discarded)."""
    flowers: bool = False
    """Flowers are exposed and replaced from the back (RULES.md 3.1, 3.2)."""
    rob_added_kong: bool = True
    heavenly: bool = False
    """天胡: the dealer complete in his first turn wins as win_type instant (D19, 4.4)."""
    heavenly_after_kong: bool = False
    """天胡 also after the dealer's first-turn concealed kongs (guangdong D19)."""
    shapes: Mapping[str, bool] = field(default_factory=dict)
    """Keyword flags for majiang.hand (seven_pairs, thirteen_orphans, wild_... )."""
    wild_discard_claims: frozenset[str] = frozenset()
    """Claims allowed on a discarded wild (hongzhong: a win only)."""
    missed_rules: frozenset[str] = frozenset()
    """漏胡 / 漏碰 rules in force: "win", "peng" (RULES.md D8)."""
    missed_clear_on_claim: bool = False
    """The 漏 restriction also ends at the seat's own chi, peng or kong (taizhou)."""
    burn_after_kong: bool = False
    """A tile from the back is set aside after each kong replacement (RULES.md 2.2)."""
    patterns: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Every pattern id the variant reports, with its (Chinese, English) name."""
    names: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Names of the variant's own ids (payment reasons, counters, the wild …), over
    COMMON_NAMES."""
    summary: tuple[str, str] = ("", "")
    """The defining restriction(s) in one line, (Chinese, English)."""
    restrictions: tuple[Restriction, ...] = ()
    """Rules that take choices away from a player, in words, most defining first."""
    readings: tuple[str, ...] = ()
    """How this project reads the rules where the seeds leave a choice, in plain words."""

    def tiles_for(self, opts: Mapping[str, Any]) -> tuple[int, ...]:
        """The tile set under these options (RULES.md 0.2)."""
        return self.rules.tile_set(opts) or self.tile_counts

    def option(self, name: str) -> Option:
        """The declaration of one option."""
        for opt in self.options:
            if opt.name == name:
                return opt
        raise OptionError(f"variant {self.id!r} has no option {name!r}")

    def term(self, ident: str) -> tuple[str, str]:
        """(Chinese, English) name of a pattern, payment reason, counter or other id."""
        for table in (self.patterns, self.names, COMMON_NAMES):
            if ident in table:
                return table[ident]
        raise OptionError(f"variant {self.id!r} declares no name for {ident!r}")

    def restriction(self, ident: str) -> Restriction:
        """The declaration of one restriction."""
        for r in self.restrictions:
            if r.id == ident:
                return r
        raise OptionError(f"variant {self.id!r} declares no restriction {ident!r}")

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """All options with defaults filled in, each value validated."""
        return validate_options(self, given or {})


def validate_options(variant: Variant, given: Mapping[str, Any]) -> dict[str, Any]:
    """Check every given option against the declarations; fill in the defaults."""
    known = {o.name: o for o in variant.options}
    for name in given:
        if name not in known:
            raise OptionError(
                f"variant {variant.id!r} has no option {name!r}; options: {', '.join(known)}"
            )
    return {
        name: (opt.validate(given[name]) if name in given else opt.default)
        for name, opt in known.items()
    }
