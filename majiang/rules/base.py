"""Variants as data plus hooks (DESIGN.md): options, the Variant value, the hook protocol."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, get_args

from majiang.errors import OptionError
from majiang.hand import is_winning
from majiang.rules.view import HandView
from majiang.tiles import Tile, format_tiles
from majiang.values import (
    JSON,
    Action,
    ActionType,
    Event,
    HandResult,
    Options,
    OptionValue,
    Phase,
    Score,
    VariantState,
    WinInfo,
)

__all__ = [
    "COMMON_NAMES",
    "SEAT_CHOICES",
    "BaseRules",
    "Option",
    "PlayHints",
    "Reserved",
    "Restriction",
    "Rules",
    "Variant",
    "report_key",
    "score_position",
    "validate_options",
]


@dataclass(frozen=True, slots=True)
class Option:
    """A room option, declared once: drives validation, CLI help and docs."""

    name: str
    kind: str  # "bool", "int" or "choice"
    default: OptionValue
    zh: str
    doc: str
    choices: tuple[OptionValue, ...] = ()
    minimum: int | None = None
    en: str = ""
    """The English name front ends show beside ``zh`` (the lobby form, help text)."""
    doc_zh: str = ""
    """``doc`` in Chinese: the hint the Chinese page shows (``doc`` is the English one)."""
    choice_names: tuple[tuple[str, str], ...] = ()
    """A choice option's (Chinese, English) name of each choice, in the order of
    ``choices``: what a player reads instead of the value (validate_variant checks it)."""

    def choice_name(self, value: OptionValue) -> tuple[str, str]:
        """(Chinese, English) words for a value of this option: a choice's declared name,
        是/否 for a bool, the number itself for an int."""
        if self.kind == "bool":
            return ("是", "yes") if value else ("否", "no")
        for c, pair in zip(self.choices, self.choice_names, strict=False):
            if value == c and type(value) is type(c):
                return pair
        return (str(value), str(value))

    def validate(self, value: object) -> OptionValue:
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
        for c in self.choices:
            if value == c and type(value) is type(c):
                return c
        allowed = ", ".join(map(str, self.choices))
        raise OptionError(f"option {self.name!r} takes one of {allowed}; got {value!r}")

    def describe(self) -> str:
        """Allowed values in words, for help text."""
        if self.kind == "bool":
            return "true / false"
        if self.kind == "int":
            return f"integer >= {self.minimum}" if self.minimum is not None else "integer"
        return " / ".join(map(str, self.choices))


SEAT_CHOICES: tuple[tuple[str, str], ...] = (
    ("房主（0号位）", "the room owner (seat 0)"),
    ("房主下家（1号位）", "seat 1, after the owner"),
    ("房主对家（2号位）", "seat 2, opposite the owner"),
    ("房主上家（3号位）", "seat 3, before the owner"),
)
"""Names of the seats 0-3 as 首局庄家 choices: by the room owner, who holds seat 0."""

FIRST_DEALER = Option(
    "first_dealer",
    "choice",
    "random",
    "首局庄家",
    "the first dealer: drawn at random (from the match seed), or a seat",
    choices=("random", 0, 1, 2, 3),
    en="first dealer",
    doc_zh="第一局的庄家：随机抽取（由对局种子决定），或指定座位",
    choice_names=(("随机", "random"), *SEAT_CHOICES),
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
        en="escape penalty",
        doc_zh="逃跑的一方付给其他每家的分数",
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
    # outcomes and roles
    "win": ("胡牌", "win"),
    "draw": ("流局", "drawn hand"),
    "dealer": ("庄家", "dealer"),
    "wild": ("赖子", "wild"),
}
"""Names of the ids every variant shares, (Chinese, English); variants add their own."""


@dataclass(frozen=True, slots=True)
class Reserved:
    """A purpose tiles are set aside for at the deal (FORMAT.md deal.reserved), and how a
    front end shows them: at the deal (a flipped wild indicator) or once the hand is won."""

    id: str
    zh: str
    en: str
    shown: str = "win"
    """``deal``: public from the start; ``win``: hidden until a hand is won (horses, birds)."""


WILD_INDICATOR = Reserved("wild_indicator", "翻牌", "wild indicator", "deal")
"""The flipped tile that names the wild kind (RULES.md 2.1, 5.1)."""


Limit = Literal["discard", "win", "claim", "kong"]
"""What a restriction may take from a seat (``Restriction.limits``)."""


@dataclass(frozen=True, slots=True)
class Restriction:
    """A rule that takes choices away from a player, in words for front ends (抓打, 漏胡 …)."""

    id: str
    zh: str
    en: str
    rule: str
    """The rule in plain English words."""
    now: str = ""
    """What it means for the seat now; ``{}`` stands for the detail (tiles, a seat)."""
    now_zh: str = ""
    """``now`` in Chinese, for front ends that show both languages (the browser game)."""
    limits: tuple[Limit, ...] = ()
    """What it takes from the seat it is in force for, among ``RESTRICTION_LIMITS``, so a
    front end can say why a tile may not be discarded or a win or claim is not offered;
    () for a rule that limits no choice (a liability, a warning)."""
    rule_zh: str = ""
    """``rule`` in Chinese (validate_variant requires it)."""


RESTRICTION_LIMITS: tuple[Limit, ...] = get_args(Limit)
"""What a restriction may limit: the seat's discards, its wins (on a discard, self-draw,
robbing), its claims of discards (chi, peng, kong), its kongs in its own turn."""


def report_key(patterns: Sequence[str], order: Sequence[str]) -> tuple[int, list[int]]:
    """Which equally scoring reading's patterns to report, smallest key first (RULES.md 0.7):
    the one with the most patterns, then the first in the pattern-list ``order``."""
    return -len(patterns), sorted(order.index(p) for p in patterns)


def indicator_reserved(opts: Options) -> dict[str, int]:
    """One wild indicator set aside when ``wild_mode`` is flipped (RULES.md 2.1, 5.1)."""
    return {WILD_INDICATOR.id: 1} if opts["wild_mode"] == "flipped" else {}


def indicator_wild(opts: Options, reserved: Mapping[str, tuple[int, ...]], fixed: int) -> int:
    """The flipped indicator's kind, or the fixed wild kind (RULES.md 2.1, 5.1)."""
    if opts["wild_mode"] == "flipped":
        return int(reserved[WILD_INDICATOR.id][0])
    return fixed


class Rules(Protocol):
    """What is truly code in a variant; the engine calls only these (DESIGN.md, the seam).

    Hooks read the hand through ``HandView`` and never change it; what they need about the
    moment of the call comes as arguments. A variant's own state is an immutable value:
    ``start`` makes it at the deal and ``on_event`` returns the next one.
    """

    def reserved_counts(self, opts: Options, counters: Mapping[str, int]) -> dict[str, int]:
        """Reserved tiles by purpose, taken from the back after dealing (RULES.md 0.3)."""
        ...

    def wild_kind(self, opts: Options, reserved: Mapping[str, tuple[int, ...]]) -> int | None:
        """The wild kind of this hand, or None."""
        ...

    def initial_counters(self, opts: Options) -> dict[str, int]:
        """Dealer counters of a match's first hand when the record gives none."""
        ...

    def tile_set(self, opts: Options) -> tuple[int, ...] | None:
        """Copies of each of the 42 kinds when options change the set, else None."""
        ...

    def wilds_in_melds(self, opts: Options) -> bool:
        """May wilds stand in chi, peng and kongs?"""
        ...

    def start(self, view: HandView) -> VariantState | None:
        """The variant's own state at the deal (an immutable value; None if it has none)."""
        ...

    @property
    def followed_events(self) -> frozenset[Event]:
        """The events ``on_event`` is called for (the engine skips the others)."""
        ...

    def on_event(self, view: HandView, event: Event, seat: int, tile: int) -> VariantState | None:
        """The variant's state after ``seat``'s draw, discard, claim or kong of ``tile``."""
        ...

    def restore_state(self, view: HandView, shown: Mapping[str, JSON]) -> VariantState | None:
        """The variant's state rebuilt from what an observation shows of it (``shown``, a
        ``public()`` value) in a world filled in around that observation (a bot's sampled
        world, ``majiang.engine.world``): it must give back ``shown`` as its ``public()``."""
        ...

    def instant_win(self, view: HandView, seat: int) -> bool:
        """May ``seat`` declare an instant win now, complete or not (四红中)?"""
        ...

    def can_chi(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """May ``seat`` chi ``tile``, discarded by its previous seat ``discarder``?"""
        ...

    def can_self_draw(self, view: HandView, seat: int) -> bool:
        """May ``seat`` declare its complete hand now (self-draw)?"""
        ...

    def may_win_on_discard(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """A cheap test made before the shape check: could ``seat`` win on this discard?"""
        ...

    def can_win_on_discard(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """May ``seat`` win on ``discarder``'s ``tile`` (its shape already checked)?"""
        ...

    def can_rob(self, view: HandView, seat: int, konger: int, tile: int) -> bool:
        """May ``seat`` rob ``konger``'s added kong of ``tile`` (shape already checked)?"""
        ...

    def filter_turn(self, view: HandView, seat: int, actions: list[Action]) -> list[Action]:
        """The turn's actions this variant allows (e.g. 抓打 restrictions)."""
        ...

    def filter_claims(
        self, view: HandView, seat: int, discarder: int, tile: int, actions: list[Action]
    ) -> list[Action]:
        """The claims of ``discarder``'s ``tile`` this variant allows ``seat``."""
        ...

    def score(self, view: HandView, win: WinInfo | None) -> Score:
        """Patterns, value and every payment of the ended hand (win None: a drawn hand).

        Called once per hand through ``score_position``: by the engine on its own state
        at the end, by the calculator on a ``Position``, so play and ``majiang score``
        cannot disagree (tests/test_values.py scores both ways).
        """
        ...

    def next_dealer(self, view: HandView, result: HandResult) -> tuple[int, dict[str, int]]:
        """Dealer and counters of the next hand, from the ended hand (RULES.md 1.6, 2.6 …)."""
        ...

    def restrictions_now(
        self, view: HandView, seat: int, legal: Sequence[Action]
    ) -> list[tuple[str, str]]:
        """Restrictions in force for ``seat`` now, as (restriction id, detail); ``legal``
        is the seat's legal actions now."""
        ...

    def reserved_note(self, view: HandView, purpose: str, tile: int) -> tuple[str, str]:
        """What a revealed reserved tile means, (Chinese, English): a horse's seat, a bird hit."""
        ...


class BaseRules:
    """Defaults for the hooks: no wilds, no variant state, no restrictions beyond the engine's."""

    def reserved_counts(self, opts: Options, counters: Mapping[str, int]) -> dict[str, int]:
        """No reserved tiles."""
        return {}

    def wild_kind(self, opts: Options, reserved: Mapping[str, tuple[int, ...]]) -> int | None:
        """No wilds."""
        return None

    def wilds_in_melds(self, opts: Options) -> bool:
        """Melds use natural tiles only."""
        return False

    def initial_counters(self, opts: Options) -> dict[str, int]:
        """The variant's declared defaults."""
        return {}

    def tile_set(self, opts: Options) -> tuple[int, ...] | None:
        """Copies of each of the 42 kinds when options change the set (转转), else None."""
        return None

    def start(self, view: HandView) -> VariantState | None:
        """No variant state."""
        return None

    followed_events: frozenset[Event] = frozenset(Event)
    """Every event, unless a variant that overrides ``on_event`` names fewer."""

    def on_event(self, view: HandView, event: Event, seat: int, tile: int) -> VariantState | None:
        """Nothing to follow: the state stays as it is."""
        return view.variant_state

    def restore_state(self, view: HandView, shown: Mapping[str, JSON]) -> VariantState | None:
        """The state at the deal: right for a variant that keeps none, or whose ``public()``
        shows nothing; a variant that shows its state overrides this."""
        return self.start(view)

    def instant_win(self, view: HandView, seat: int) -> bool:
        """May ``seat`` declare an instant win now, complete or not (四红中)?"""
        return False

    def can_chi(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """Chi allowed wherever the variant's claims list it."""
        return True

    def can_self_draw(self, view: HandView, seat: int) -> bool:
        """Self-draws always allowed."""
        return True

    def may_win_on_discard(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """No cheap precondition."""
        return True

    def can_win_on_discard(self, view: HandView, seat: int, discarder: int, tile: int) -> bool:
        """Discard wins allowed wherever the variant's claims list them."""
        return True

    def can_rob(self, view: HandView, seat: int, konger: int, tile: int) -> bool:
        """Robbing allowed wherever the variant allows it."""
        return True

    def filter_turn(self, view: HandView, seat: int, actions: list[Action]) -> list[Action]:
        """Everything the engine offers."""
        return actions

    def filter_claims(
        self, view: HandView, seat: int, discarder: int, tile: int, actions: list[Action]
    ) -> list[Action]:
        """Everything the engine offers."""
        return actions

    def restrictions_now(
        self, view: HandView, seat: int, legal: Sequence[Action]
    ) -> list[tuple[str, str]]:
        """漏胡 / 漏碰 (D8), the wall's last turns, and a complete hand refused a discard win.

        Ids name the variant's declared ``restrictions``; the detail is tiles or a seat.
        """
        out: list[tuple[str, str]] = []
        if view.ended:
            return out
        if view.missed_win[seat]:
            out.append(("missed_win", format_tiles(sorted(view.missed_win[seat]))))
        if view.missed_peng[seat]:
            out.append(("missed_peng", format_tiles(sorted(view.missed_peng[seat]))))
        mine = view.phase == Phase.TURN and view.current == seat
        if mine and view.final_turn:
            out.append(("last_tile", ""))
        elif mine and view.last_turn:
            out.append(("last_turn", ""))
        t = view.window_tile
        if (
            view.phase == Phase.CLAIM
            and t is not None
            and seat != view.window_from
            and legal  # a seat that has decided (a hu among them) has nothing left to explain
            and t not in view.missed_win[seat]
            and not any(a.type == ActionType.HU for a in legal)
        ):
            shapes = dict(view.shapes)
            if view.melds[seat]:
                shapes.update(seven_pairs=False, thirteen_orphans=False)
            if is_winning([*view.hand_tiles(seat), t], wild=view.wild, **shapes):
                out.append(("no_discard_win", str(Tile(t))))
        return out

    def reserved_note(self, view: HandView, purpose: str, tile: int) -> tuple[str, str]:
        """Nothing to say beyond the tile."""
        return ("", "")


@dataclass(frozen=True, slots=True)
class PlayHints:
    """What a variant pays and punishes, in the terms a bot that weighs more than shanten
    needs (greedy+, docs/bots.md); the defaults change nothing from greedy."""

    defence: float = 0.0
    """How much a discard that may feed a ready-looking seat costs against hand progress
    (0: discard wins are rare or cheap, never weigh them)."""
    raw_tile_live: int | None = None
    """From this live count on, discarding a kind nobody has discarded makes the
    discarder liable for a win on it: prefer known kinds."""
    wild_chain: bool = False
    """Throwing a drawn wild from a hand ready on any tile multiplies the next
    self-draw (财飘): do so rather than win at once."""
    kong: int = 0
    """Kongs pay by themselves: declare one even when it leaves the hand this many
    steps (shanten) further from ready."""
    melds: bool = False
    """A declared meld scores by itself (a non-winner's pengs are paid): claim a peng
    that leaves shanten as it is, not only one that lowers it."""
    flush: int = 0
    """A one-suit hand (with or without honors) multiplies the win: a hand holding at
    most this many tiles outside its main suit and honors throws them first, even one
    step slower (0: never chase one)."""


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
    public_state: Mapping[str, str] = field(default_factory=dict)
    """The keys of ``VariantState.public()`` and what each holds: ``tiles`` (a list of
    tiles), ``seat`` (a seat or null) or ``seats`` (a list of seats); RL encoders read it."""
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
    pattern_values: Mapping[str, str] = field(default_factory=dict)
    """What each pattern is worth, in the variant's own terms, in English (M = 2, 2 fan,
    S = 8 …)."""
    pattern_values_zh: Mapping[str, str] = field(default_factory=dict)
    """``pattern_values`` in Chinese (大胡 倍数 2, 2 番 …), for the same patterns."""
    names: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    """Names of the variant's own ids (payment reasons, counters, the wild …), over
    COMMON_NAMES."""
    summary: tuple[str, str] = ("", "")
    """The defining restriction(s) in one line, (Chinese, English)."""
    restrictions: tuple[Restriction, ...] = ()
    """Rules that take choices away from a player, in words, most defining first."""
    readings: tuple[str, ...] = ()
    """How this project reads the rules where the seeds leave a choice, in plain English."""
    readings_zh: tuple[str, ...] = ()
    """``readings`` in Chinese, one for one (validate_variant checks the count)."""
    play: PlayHints = PlayHints()
    """What the variant pays and punishes, for bots (greedy+)."""
    reserved: tuple[Reserved, ...] = ()
    """Purposes tiles may be set aside for, in the order they are taken from the back
    (RULES.md 0.3); ``reserved_counts`` says how many of each a hand takes."""

    def tiles_for(self, opts: Options) -> tuple[int, ...]:
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
        for r in self.reserved:
            if r.id == ident:
                return (r.zh, r.en)
        raise OptionError(f"variant {self.id!r} declares no name for {ident!r}")

    def reserved_purpose(self, ident: str) -> Reserved:
        """The declaration of one reserved purpose."""
        for r in self.reserved:
            if r.id == ident:
                return r
        raise OptionError(f"variant {self.id!r} sets no tiles aside for {ident!r}")

    def restriction(self, ident: str) -> Restriction:
        """The declaration of one restriction."""
        for r in self.restrictions:
            if r.id == ident:
                return r
        raise OptionError(f"variant {self.id!r} declares no restriction {ident!r}")

    def resolve_options(self, given: Mapping[str, object] | None) -> dict[str, OptionValue]:
        """All options with defaults filled in, each value validated."""
        return validate_options(self, given or {})


def score_position(
    variant: Variant, options: Options, position: HandView, win: WinInfo | None
) -> Score:
    """Score a hand in ``position`` (win None: a drawn hand) under ``options``: the one
    path of both the engine's settlement and the calculator (``majiang score``)."""
    if dict(position.options) != dict(options):
        raise OptionError("the position was built under other options than those given")
    return variant.rules.score(position, win)


def validate_options(variant: Variant, given: Mapping[str, object]) -> dict[str, OptionValue]:
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
