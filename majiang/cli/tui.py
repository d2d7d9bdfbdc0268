"""``majiang play``: the terminal game against bots (Textual).

Everything shown about a variant (pattern and payment names, restrictions, the summary,
the readings taken) comes from the variant's declarations (``Variant.term`` and friends),
so this module never names a variant.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any, ClassVar

from rich.markup import escape
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Header, Input, Label, RichLog, Select, Static, Switch

from majiang.bots import LEVELS
from majiang.cli.session import ACTION_WORDS, Session, meld_tiles
from majiang.engine.state import Action, Meld
from majiang.errors import MajiangError
from majiang.rules import VARIANTS, Variant, get_variant
from majiang.rules.base import Option
from majiang.scoring import Item
from majiang.tiles import Tile, chinese_name, glyph
from majiang.values import ActionType

__all__ = [
    "MajiangApp",
    "default_save_path",
    "plain",
    "rules_lines",
    "settlement_lines",
    "terminal_unsafe",
]

WINDS = (("东", "East"), ("南", "South"), ("西", "West"), ("北", "North"))
KEYS = {"hu": "h", "kong": "k", "peng": "p", "chi": "c", "pass": "x"}
TILE_KEYS = "1234567890-=[]"
"""The key of each hand position, left to right (the drawn tile is last)."""
TILE_KEY_NAMES = (
    *"1234567890",
    "minus",
    "equals_sign",
    "left_square_bracket",
    "right_square_bracket",
)
KEY_NAMES = {"question_mark": "?"}
WIDE = 120
"""From this many columns the table shows tile glyphs beside their notation."""

_REFERENCE = re.compile(r"\s*\([^()]*\b(?:D\d+|RULES\.md)\b[^()]*\)")


def plain(text: str) -> str:
    """Declared text without references to the spec's sections (``(D11)``, ``(RULES.md 1.2)``),
    which a user of the package cannot look up."""
    return _REFERENCE.sub("", text)


def terminal_unsafe(text: str) -> list[str]:
    """Characters whose width terminals disagree on (East Asian ambiguous, tile glyphs):
    inside a bordered box they push the border out of line."""
    return sorted(
        {c for c in text if unicodedata.east_asian_width(c) == "A" or 0x1F000 <= ord(c) <= 0x1F0FF}
    )


def default_save_path(variant: str) -> Path:
    """Where a match is saved unless --save says otherwise."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path.home() / ".majiang" / "records" / f"{variant}-{stamp}.json"


def named(v: Variant, ident: str) -> str:
    """An id's Chinese and English names, e.g. ``自摸 self-draw``."""
    zh, en = v.term(ident)
    return f"{zh} {en}"


def tile_text(t: int, wide: bool) -> str:
    """A tile: glyph and notation on wide screens, notation otherwise."""
    return f"{glyph(t)}{Tile(t)}" if wide else str(Tile(t))


def option_value(opt: Option, widget: Any) -> Any:
    """The value a start-screen widget holds for an option."""
    if opt.kind == "bool":
        return bool(widget.value)
    if opt.kind == "int":
        try:
            return int(widget.value)
        except ValueError:
            raise MajiangError(
                f"option {opt.name!r} takes an integer, got {widget.value!r}"
            ) from None
    value = widget.value
    return next((c for c in opt.choices if str(c) == str(value)), value)


# -- texts (plain strings; the screens escape them) ----------------------------------------
def meld_words(v: Variant, meld: Meld, wild: int | None, chi_used: tuple[int, ...]) -> str:
    """A meld with its kind's names, a wild written as wild=kind, and where it came from."""
    tiles = " ".join(meld_tiles(meld, wild, chi_used))
    source = f" <S{meld.source}" if meld.source is not None else ""
    return f"{named(v, meld.kind)} {tiles}{source}"


def hand_words(session: Session, seat: int, extra: int | None = None) -> list[str]:
    """The seat's whole hand, for the settlement: concealed tiles (wilds marked), melds,
    flowers."""
    st = session.state
    v = session.spec
    wild_zh = v.term("wild")[0]
    tiles = st.hand_tiles(seat)
    if extra is not None:
        tiles.remove(extra)
    concealed = " ".join(
        f"{Tile(t)}({wild_zh} wild)" if t == st.wild else str(Tile(t)) for t in tiles
    )
    lines = [f"Concealed 手牌: {concealed}"]
    if extra is not None:
        lines[0] += f"  + {Tile(extra)}"
    for i, m in enumerate(st.melds[seat]):
        lines.append("  " + meld_words(v, m, st.wild, session.chi_used.get((seat, i), ())))
    if st.flowers[seat]:
        flowers = " ".join(f"{Tile(t)} {chinese_name(t)}" for t in st.flowers[seat])
        lines.append(f"Flowers 花: {flowers}")
    return lines


def item_words(v: Variant, it: Item) -> str:
    """One payment line: who pays whom, why (declared names) and the arithmetic."""
    why = named(v, it.kind)
    if it.reason and it.reason != it.kind:
        why += f", {named(v, it.reason)}"
    note = f": {it.note}" if it.note else ""
    return f"S{it.payer} pays S{it.payee} {it.points:>3}  {why}{note}"


def settlement_lines(session: Session) -> list[str]:
    """The end of a hand in words: who won how, the whole winning hand, the patterns, the
    revealed tiles, every payment with its reason, the deltas and totals."""
    st = session.state
    v = session.spec
    res = st.result()
    n = session.hand_number
    lines = [f"第{n}局 Hand {n}, 庄 dealer S{st.dealer}"]
    if res.win is not None:
        w = res.win
        who = f"{session.names[w.winner]} (S{w.winner})"
        how = named(v, w.win_type)
        if w.source is not None:
            how += f" from S{w.source}"
        lines.append(f"{who} wins: {how}, winning tile {Tile(w.tile)} {chinese_name(w.tile)}")
        drawn = w.tile if w.source is None else None
        lines += hand_words(session, w.winner, drawn)
        if st.wild is not None:
            lines.append(f"{named(v, 'wild')}: {Tile(st.wild)} {chinese_name(st.wild)}")
        lines.append("Patterns 牌型: " + ", ".join(named(v, p) for p in res.patterns))
    elif res.escaped is not None:
        pen = int(session.match.options.get("escape_penalty", 0))
        who = f"{session.names[res.escaped]} (S{res.escaped})"
        lines.append(
            f"{who} left the table: {named(v, 'escape')}. The hand is aborted and the match "
            f"ends; the escape penalty 逃跑扣分 is {pen} to each other seat."
        )
    else:
        lines.append(f"{named(v, 'draw')}: nobody won.")
    for purpose, tiles in st.reserved.items():
        shown = []
        for t in tiles:
            zh, en = v.rules.reserved_note(st, purpose, t)
            shown.append(f"{Tile(t)} {zh} {en}".strip())
        if res.win is not None or v.reserved_purpose(purpose).shown == "deal":
            lines.append(f"{named(v, purpose)}: " + ", ".join(shown))
    lines.append("Payments 结算:" if res.items else "Payments 结算: none")
    lines += ["  " + item_words(v, it) for it in res.items]
    lines.append("Deltas 本局: " + "  ".join(f"S{i} {d:+d}" for i, d in enumerate(res.deltas)))
    lines.append(
        "Totals 总分: " + "  ".join(f"S{i} {d:+d}" for i, d in enumerate(session.match.totals))
    )
    if not session.match.over:
        lines.append(f"Next hand: 庄 dealer S{session.match.dealer}")
    return lines


def rules_lines(session: Session) -> list[str]:
    """The ``?`` screen: the defining restrictions first, then the active options, then the
    readings this project took, in words, and where the full rules are."""
    v = session.spec
    opts = session.match.options
    zh, en = v.summary
    lines = [f"{v.zh} {v.id}: {v.name}", "", zh, en, "", "Restrictions 限制:"]
    for r in v.restrictions:
        lines.append(f"- {r.zh} {r.en}: {r.rule}")
    order = [c for c in ("hu", "kong", "peng", "chi") if c in v.claims]
    claims = [named(v, c) if c != "hu" else "胡 win on a discard" for c in order]
    lines.append(
        "- Claims on a discard: "
        + ", ".join(claims)
        + "; robbing an added kong: "
        + ("yes" if v.rob_added_kong else "no")
    )
    lines += ["", "Options of this room 本局选项:"]
    for o in v.options:
        value = opts[o.name]
        shown = str(value).lower() if isinstance(value, bool) else str(value)
        if o.kind == "choice":
            shown += " ({} {})".format(*o.choice_name(value))
        lines.append(f"- {o.zh} {o.name} = {shown}: {plain(o.doc)}")
    lines += ["", "How these rules are read 规则解读:"]
    lines += [f"- {plain(r)}" for r in v.readings]
    chi = ", c 吃 chi" if "chi" in v.claims else ""
    lines += [
        "",
        f"Keys 按键: h 胡 win, k 杠 kong, p 碰 peng{chi}, x 过 pass, d discard the drawn "
        "tile, 1-9 0 - = [ ] discard by position (or choose a claim), ? these rules, q leave "
        "(mid-hand that is an escape). The bar at the bottom shows the keys that mean "
        "something now.",
        f"Full rules with worked examples: docs/rules/{v.id}.md in the majiang source; "
        f"'majiang rules {v.id}' lists the room options.",
    ]
    return lines


# -- screens ---------------------------------------------------------------------------------
class StartScreen(Screen[None]):
    """Pick the variant, its room options, your seat and the bots."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+s", "start", "start the game 开始")]

    def __init__(self, variant: str, seed: int) -> None:
        super().__init__()
        self.variant = variant
        self.seed = seed
        self.option_widgets: dict[str, tuple[Option, Any]] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="start"):
            yield Label("Variant 规则")
            yield Select(
                [(f"{v.zh} {v.id}", v.id) for v in VARIANTS.values()],
                value=self.variant,
                allow_blank=False,
                id="variant",
            )
            yield Static(id="summary")
            yield Vertical(id="options")
            yield Label("Your seat 座位 (seat 0 is the room owner)")
            yield Select([(f"S{s}", s) for s in range(4)], value=0, allow_blank=False, id="seat")
            yield Label("Bots 机器人")
            yield Select(
                [(f"{zh} {en} ({bot})", bot) for zh, en, bot in LEVELS.values()],
                value="greedy",
                allow_blank=False,
                id="bots",
            )
            yield Label("Seed 种子 (the same seed deals the same tiles)")
            yield Input(str(self.seed), id="seed")
            yield Static("", id="error")
            yield Button("Start 开始", id="start-button", variant="primary")
        yield Footer()

    async def on_mount(self) -> None:
        await self.build_options(self.variant)
        self.query_one("#variant", Select).focus()

    async def build_options(self, variant_id: str) -> None:
        """One labelled widget per declared option; the old ones are gone before the new
        ones are mounted, so changing the variant never clashes."""
        v = get_variant(variant_id)
        zh, en = v.summary
        self.query_one("#summary", Static).update(escape(f"{zh}\n{en}"))
        box = self.query_one("#options", Vertical)
        await box.remove_children()
        widgets: dict[str, tuple[Option, Any]] = {}
        mounted: list[Any] = []
        for opt in v.options:
            label = Static(
                escape(f"{opt.zh} {opt.en} ({opt.name}): {plain(opt.doc)}"), classes="opt-label"
            )
            widget: Any
            if opt.kind == "bool":
                widget = Switch(value=bool(opt.default), classes="opt")
            elif opt.kind == "int":
                widget = Input(str(opt.default), classes="opt")
            else:
                widget = Select(
                    [(" ".join(opt.choice_name(c)), str(c)) for c in opt.choices],
                    value=str(opt.default),
                    allow_blank=False,
                    classes="opt",
                )
            widget.option_name = opt.name
            mounted += [label, widget]
            widgets[opt.name] = (opt, widget)
        await box.mount_all(mounted)
        self.option_widgets = widgets

    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "variant" and event.value != self.variant:
            self.variant = str(event.value)
            await self.build_options(self.variant)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start-button":
            self.start()

    def action_start(self) -> None:
        self.start()

    def start(self) -> None:
        """Check the form and sit down at the table; a bad value is shown, nothing starts."""
        error = self.query_one("#error", Static)
        try:
            options = {n: option_value(o, w) for n, (o, w) in self.option_widgets.items()}
            get_variant(self.variant).resolve_options(options)
            seed_text = self.query_one("#seed", Input).value
            if not seed_text.strip().lstrip("-").isdigit():
                raise MajiangError(f"the seed must be an integer, got {seed_text!r}")
            seat = int(self.query_one("#seat", Select).value)  # type: ignore[arg-type]
            bot = str(self.query_one("#bots", Select).value)
        except MajiangError as err:
            error.update(f"[red]{escape(str(err))}[/red]")
            return
        app = self.app
        assert isinstance(app, MajiangApp)
        app.begin(
            Session(
                self.variant,
                options,
                human=seat,
                bots=(bot,) * 4,
                seed=int(seed_text),
                names=_names(seat),
            )
        )


def _names(human: int) -> list[str]:
    names = [f"Bot {i}" for i in range(4)]
    names[human] = "You"
    return names


class TableScreen(Screen[None]):
    """The table: your hand, everybody's discards and melds, your choices, the log.

    The footer shows only the keys that mean something now; any other key says why it
    does nothing.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(k, f"act('{t}')", " ".join(ACTION_WORDS[t])) for t, k in KEYS.items()),
        Binding("d", "discard_drawn", "打 discard drawn"),
        Binding("question_mark", "rules", "规则 rules"),
        Binding("q", "leave", "离开 leave"),
        *(
            Binding(k, f"discard({i})", "打 discard", show=i == 0, key_display="1-]")
            for i, k in enumerate(TILE_KEY_NAMES)
        ),
        *(
            Binding(k, f"choose({i})", "选 choose", show=i == 0, key_display="1-9")
            for i, k in enumerate(TILE_KEY_NAMES)
        ),
        # reached only when the binding above is off: say why the key does nothing
        *(Binding(k, f"why('{t}')", show=False) for t, k in KEYS.items()),
        Binding("d", "why('drawn')", show=False),
        *(Binding(k, f"why('{i}')", show=False) for i, k in enumerate(TILE_KEY_NAMES)),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.shown_log = 0

    def compose(self) -> ComposeResult:
        yield Static(id="info")
        yield Static(id="others")
        yield Static(id="mine")
        with Horizontal(id="hand"):
            for _ in TILE_KEYS:
                yield Button("", classes="tile")
        with Horizontal(id="actions"):
            for _ in range(8):
                yield Button("", classes="act")
        yield Static(id="why")
        yield RichLog(id="log", wrap=True, max_lines=500)
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.refresh_table()
        self.query_one("#log", RichLog).focus()

    def on_resize(self) -> None:
        self.draw_text()

    @property
    def wide(self) -> bool:
        """Room for tile glyphs beside the notation."""
        return self.app.size.width >= WIDE

    # -- drawing --------------------------------------------------------------------------
    def refresh_table(self) -> None:
        """Redraw everything from the session; show the settlement when the hand ended."""
        s = self.session
        self.draw_text()
        self.draw_hand()
        self.draw_actions()
        self.query_one("#why", Static).update(escape(s.restriction()))
        log = self.query_one("#log", RichLog)
        for line in s.log[self.shown_log :]:
            log.write(escape(line))
        self.shown_log = len(s.log)
        self.query_one("#keys", Static).update(
            "  ".join(f"[b]{escape(k)}[/b] {escape(d)}" for k, d in self.shown_keys())
        )
        if s.state.is_terminal() and not isinstance(self.app.screen, SettlementScreen):
            self.app.push_screen(SettlementScreen(s))

    def draw_text(self) -> None:
        s = self.session
        self.query_one("#info", Static).update(escape(self.info_line()))
        rows = [self.seat_lines(seat) for seat in range(4) if seat != s.human]
        self.query_one("#others", Static).update(escape("\n".join(rows)))
        self.query_one("#mine", Static).update(escape(self.seat_lines(s.human)))

    def info_line(self) -> str:
        s = self.session
        st = s.state
        v = s.spec
        n = s.hand_number
        parts = [f"{v.zh} {v.id}", f"第{n}局 hand {n}", f"庄 dealer S{st.dealer}"]
        parts += [f"{named(v, k)} {val}" for k, val in st.counters.items()]
        parts.append(f"wall R {st.live}")
        if st.wild is not None:
            parts.append(f"{named(v, 'wild')} {Tile(st.wild)} {chinese_name(st.wild)}")
        for purpose, tiles in st.reserved.items():
            if v.reserved_purpose(purpose).shown != "deal":
                parts.append(f"{named(v, purpose)} {len(tiles)}")
        totals = " ".join(f"S{i} {t:+d}" for i, t in enumerate(s.match.totals))
        return "  ".join(parts) + f"  totals {totals}"

    def seat_lines(self, seat: int) -> str:
        """Two lines: the seat, its flowers and melds; its discards."""
        s = self.session
        st = s.state
        v = s.spec
        wide = self.wide
        zh, en = WINDS[(seat - st.dealer) % 4]
        head = f"S{seat} {zh} {en} {s.names[seat]}"
        if seat == st.dealer:
            head += " 庄"
        if seat != s.human:
            head += f"  {sum(st.concealed[seat])} tiles"
        if st.flowers[seat]:
            head += "  花 " + " ".join(tile_text(t, wide) for t in st.flowers[seat])
        melds = []
        for i, m in enumerate(st.melds[seat]):
            if m.exposed or seat == s.human:
                melds.append(meld_words(v, m, st.wild, s.chi_used.get((seat, i), ())))
            else:
                melds.append(f"{named(v, m.kind)} (hidden)")
        if melds:
            head += "  " + "  ".join(melds)
        discards = " ".join(tile_text(t, wide) for t in st.discards[seat]) or "-"
        return f"{head}\n   discards: {discards}"

    def hand_order(self) -> list[int]:
        """The human's tiles as shown: sorted, the tile just drawn set apart at the end."""
        st = self.session.state
        tiles = st.hand_tiles(self.session.human)
        drawn = self.drawn_tile()
        if drawn is not None and drawn in tiles:
            tiles.remove(drawn)
            tiles.append(drawn)
        return tiles

    def drawn_tile(self) -> int | None:
        """The tile the human just drew, if it is his action phase after a draw."""
        st = self.session.state
        if st.phase == "turn" and st.current == self.session.human and not st.is_terminal():
            return st.drawn
        return None

    def draw_hand(self) -> None:
        """Update the tile buttons in place (a pool of 14: redrawing is then cheap)."""
        st = self.session.state
        wild_mark = self.session.spec.term("wild")[0][0]
        tiles = self.hand_order()
        legal = {a.tile for a in self.session.human_legal() if a.type == "discard"}
        drawn = self.drawn_tile()
        pool = list(self.query_one("#hand", Horizontal).query(Button).results(Button))
        if len(pool) < len(tiles):
            extra = [Button("", classes="tile") for _ in range(len(tiles) - len(pool))]
            self.query_one("#hand", Horizontal).mount(*extra)
            pool += extra
        for i, b in enumerate(pool):
            if i >= len(tiles):
                b.display = False
                continue
            t = tiles[i]
            key = TILE_KEYS[i] if i < len(TILE_KEYS) else ""
            last = drawn is not None and i == len(tiles) - 1
            wild = t == st.wild
            b.label = escape(
                f"{glyph(t)}\n{Tile(t)}{'*' if last else ''}\n{key}{wild_mark if wild else ''}"
            )
            b.set_class(last, "drawn")
            b.set_class(wild, "wild")
            b.disabled = t not in legal
            b.tile = t  # type: ignore[attr-defined]
            b.display = True

    def action_label(self, a: Action) -> str:
        """A choice in words, naming the right tile: the drawn one for a self-draw, the
        discard for a claim."""
        s = self.session
        st = s.state
        v = s.spec
        src = f"S{st.window_from}'s" if st.window_from is not None else ""
        t = st.window_tile
        if a.type == "hu":
            if st.phase == "rob" and t is not None:
                return f"胡 {named(v, 'rob_kong')}: {src} kong of {Tile(t)}"
            if st.phase == "claim" and t is not None:
                return f"胡 win on {src} {Tile(t)}"
            if a.seat != st.current:
                return f"胡 {named(v, 'instant')}"
            if st.first_turn and a.seat == st.dealer:
                return f"胡 win with your dealt hand ({named(v, 'instant')})"
            drawn = f" on {Tile(st.drawn)}" if st.drawn is not None else ""
            return f"胡 {named(v, 'self_draw')}{drawn}"
        using = f" using {' '.join(str(Tile(x)) for x in a.tiles)}" if a.tiles else ""
        if a.type == "kong":
            if st.phase != "turn":
                return f"杠 {named(v, 'kong_direct')} of {src} {Tile(a.tile or 0)}{using}"
            added = any(m.kind == "peng" and m.tiles[0] == a.tile for m in st.melds[a.seat])
            kind = "kong_added" if added else "kong_concealed"
            return f"杠 {named(v, kind)} {Tile(a.tile or 0)}{using}"
        if a.type == "peng" and t is not None:
            return f"碰 peng {src} {Tile(t)}{using}"
        if a.type == "chi" and t is not None:
            return f"吃 chi {src} {Tile(t)} with {' '.join(str(Tile(x)) for x in a.tiles)}"
        if a.type == "pass":
            return "过 pass (the hand is drawn)" if st.phase == "turn" else "过 pass"
        zh, en = ACTION_WORDS.get(a.type, (a.type, a.type))
        return f"{zh} {en}"

    def choices(self) -> list[Action]:
        """The human's choices other than discards, in the order their buttons show."""
        return [a for a in self.session.human_legal() if a.type != "discard"]

    def draw_actions(self) -> None:
        """Update the choice buttons in place (a pool, grown when a turn offers more)."""
        box = self.query_one("#actions", Horizontal)
        numbered = not any(a.type == "discard" for a in self.session.human_legal())
        choices = self.choices()
        pool = list(box.query(Button).results(Button))
        if len(pool) < len(choices):
            extra = [Button("", classes="act") for _ in range(len(choices) - len(pool))]
            box.mount(*extra)
            pool += extra
        for i, b in enumerate(pool):
            if i >= len(choices):
                b.display = False
                b.action_obj = None  # type: ignore[attr-defined]
                continue
            a = choices[i]
            keys = KEYS.get(a.type, "")
            if numbered:
                keys += f" {i + 1}"  # in a claim window the number keys choose
            b.label = escape(f"{self.action_label(a)} [{keys.strip()}]")
            b.action_obj = a  # type: ignore[attr-defined]
            b.display = True

    # -- which keys mean something -------------------------------------------------------
    def shown_keys(self) -> list[tuple[str, str]]:
        """The keys that mean something now, as the key bar shows them: (key, what)."""
        out: list[tuple[str, str]] = []
        for b in self.BINDINGS:
            assert isinstance(b, Binding)
            name, _, args = b.action.partition("(")
            params = tuple(x.strip("'") for x in args.rstrip(")").split(",")) if args else ()
            if b.show and self.check_action(name, params):
                out.append((b.key_display or KEY_NAMES.get(b.key, b.key), b.description))
        return out

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Footer and keys: a binding is on only while it would do something."""
        legal = self.session.human_legal()
        if action == "act":
            return any(a.type == parameters[0] for a in legal)
        if action == "discard_drawn":
            drawn = self.drawn_tile()
            return (
                drawn is not None and Action(self.session.human, ActionType.DISCARD, drawn) in legal
            )
        if action == "choose":
            index = int(str(parameters[0]))
            return not any(a.type == "discard" for a in legal) and index < len(self.choices())
        if action == "discard":
            index = int(str(parameters[0]))
            tiles = self.hand_order()
            return (
                index < len(tiles)
                and Action(self.session.human, ActionType.DISCARD, tiles[index]) in legal
            )
        return True

    def why_not(self, what: str) -> str:
        """Why a key does nothing now, in words."""
        s = self.session
        st = s.state
        v = s.spec
        legal = s.human_legal()
        if st.is_terminal():
            return "The hand is over."
        notes = s.restrictions()
        if what == "chi" and "chi" not in v.claims:
            return f"{v.zh} {v.id} has no chi 吃: discards are claimed only by peng, kong or win."
        if what.isdigit():
            index = int(what)
            if not any(a.type == "discard" for a in legal):
                n = len(self.choices())
                return f"No choice {index + 1}: choose 1-{n} or use the letter keys."
            tiles = self.hand_order()
            if index >= len(tiles):
                return f"No tile at position {TILE_KEYS[index]}: you hold {len(tiles)} tiles."
            reason = "; ".join(notes) or "that tile may not be discarded now"
            return f"You may not discard {Tile(tiles[index])}: {reason}."
        if what == "drawn":
            if self.drawn_tile() is None and any(a.type == "discard" for a in legal):
                return (
                    "No drawn tile: after a chi or peng you discard from your hand; choose a "
                    "tile with 1-9 0 - = [ ] or click it."
                )
            return "You may not discard the drawn tile now." + (
                " " + "; ".join(notes) if notes else ""
            )
        if what == "pass":
            if st.phase == "turn" and any(a.type == "kong" for a in legal):
                return (
                    "It is your turn: there is nothing to pass. Not declaring the kong is "
                    "just discarding: choose a tile (d or 1-9 0 - = [ ])."
                )
            if st.phase == "turn":
                return "It is your turn: there is nothing to pass; discard a tile."
            return "Nothing to pass."
        zh, en = ACTION_WORDS[what]
        if what == "hu" and st.phase == "turn" and not st.can_win_now:
            return "No win right after your own chi or peng: declare a kong or discard."
        base = {
            "hu": "your hand is not complete",
            "kong": "you need four of a kind, a peng to add to, or three of the discard",
            "peng": "you need two of the discarded tile",
            "chi": "only on the previous seat's discard, with two tiles making a sequence",
        }[what]
        return f"No {en} {zh} now: " + "; ".join([*notes, base]) + "."

    # -- input ---------------------------------------------------------------------------
    def play(self, action: Action) -> None:
        try:
            self.session.play(action)
        except MajiangError as err:
            self.notify(str(err), severity="error", markup=False)
        self.refresh_table()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        b = event.button
        if getattr(b, "action_obj", None) is not None:
            self.play(b.action_obj)  # type: ignore[attr-defined]
        elif hasattr(b, "tile"):
            self.play(Action(self.session.human, ActionType.DISCARD, b.tile))

    def action_choose(self, index: int) -> None:
        """In a claim window the number keys choose between the claims (e.g. which chi)."""
        choices = self.choices()
        if index < len(choices):
            self.play(choices[index])

    def action_discard(self, index: int) -> None:
        legal = self.session.human_legal()
        tiles = self.hand_order()
        if index < len(tiles):
            act = Action(self.session.human, ActionType.DISCARD, tiles[index])
            if act in legal:
                self.play(act)

    def action_discard_drawn(self) -> None:
        drawn = self.drawn_tile()
        if drawn is not None:
            self.play(Action(self.session.human, ActionType.DISCARD, drawn))

    def action_act(self, kind: str) -> None:
        options = [a for a in self.session.human_legal() if a.type == kind]
        if len(options) > 1 and kind in ("kong", "chi"):
            # several kongs or chis: the buttons (or, in a claim window, 1-9) choose
            buttons = [
                b
                for b in self.query(".act").results(Button)
                if getattr(b, "action_obj", None) in options
            ]
            if buttons:
                buttons[0].focus()
            self.notify(
                f"{len(options)} ways to {kind}: Tab between the buttons and press Enter"
                + (", or press the number shown" if not self.drawn_tile() else ""),
            )
            return
        if options:
            self.play(options[0])

    def action_why(self, what: str) -> None:
        self.notify(self.why_not(what), severity="warning", timeout=8, markup=False)

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.session))

    def action_leave(self) -> None:
        if self.session.state.is_terminal():
            self.app.exit()
            return
        self.app.push_screen(ConfirmLeave(self.session), self.leave_answer)

    def leave_answer(self, leave: bool | None) -> None:
        if leave:
            self.session.escape()
            self.refresh_table()  # the settlement shows the escape and its penalty


class SettlementScreen(ModalScreen[None]):
    """The end of a hand: the winning hand, patterns, revealed tiles, every payment."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next", "下一局 next hand"),
        Binding("q", "quit_game", "退出 quit"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        s = self.session
        lines = settlement_lines(s)
        app = self.app
        assert isinstance(app, MajiangApp)
        path = app.save()
        if app.save_problem:
            lines.append(app.save_problem)
        if path is not None:
            lines.append(f"Record saved to {path}")
        if s.match.over:
            lines.append("The match is over. Press q to leave.")
        with Vertical(id="settlement"):
            with VerticalScroll(id="settlement-scroll"):
                yield Static(escape("\n".join(lines)), id="settlement-text")
            with Horizontal(id="settlement-buttons"):
                if not s.match.over:
                    yield Button(escape("下一局 Next hand [n]"), id="next")
                yield Button(escape("退出 Quit [q]"), id="quit")

    def on_mount(self) -> None:
        self.query_one("#settlement-buttons Button", Button).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "next":
            return not self.session.match.over
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "next":
            self.action_next()
        else:
            self.action_quit_game()

    def action_next(self) -> None:
        if self.session.next_hand():
            self.dismiss()
            screen = self.app.screen
            if isinstance(screen, TableScreen):
                screen.refresh_table()

    def action_quit_game(self) -> None:
        self.app.exit()


class RulesScreen(ModalScreen[None]):
    """The variant's rules in words: restrictions, active options, readings."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark", "close", "close")]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        with Vertical(id="rules"):
            with VerticalScroll(id="rules-scroll"):
                yield Static(escape("\n".join(rules_lines(self.session))), id="rules-text")
            yield Button(escape("Close 关闭 [esc]"), id="close")

    def on_mount(self) -> None:
        self.query_one("#rules-scroll").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()


class ConfirmLeave(ModalScreen[bool]):
    """Leaving mid-hand is an escape (RULES.md 0.9): say what it costs, then ask."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "yes", "yes"),
        Binding("n,escape", "no", "no"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        pen = int(self.session.match.options.get("escape_penalty", 0))
        cost = (
            f"you pay {pen} to each other seat ({3 * pen} in all)"
            if pen
            else "the escape penalty of this room is 0, so nobody is paid"
        )
        with Vertical(id="confirm"):
            yield Static(
                escape(
                    f"Leave the table? Mid-hand this is an escape 逃跑: {cost}, the hand is "
                    "aborted and the match ends. [y/n]"
                ),
                id="confirm-text",
            )
            with Horizontal():
                yield Button(escape("Leave 离开 [y]"), id="yes", variant="error")
                yield Button(escape("Stay 留下 [n]"), id="no")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)


class MajiangApp(App[None]):
    """majiang play."""

    TITLE = "majiang"
    CSS = """
    #start .opt-label { margin-top: 1; }
    #options { height: auto; }
    #summary { color: $accent; }
    #info, #others, #mine { height: auto; }
    #hand { height: 3; margin-top: 1; }
    .tile { width: 5; min-width: 5; height: 3; border: none; padding: 0; margin: 0; }
    .tile.drawn { margin-left: 1; }
    .tile.wild { text-style: bold; color: $warning; }
    #actions { height: auto; }
    .act { height: 1; min-width: 4; width: auto; border: none; padding: 0 1; margin-right: 1; }
    #why { height: auto; color: $warning; }
    #log { height: 1fr; min-height: 3; border: round $accent; }
    #keys { height: auto; background: $panel; }
    #settlement, #rules { width: 96%; height: 90%; border: thick $accent;
                          background: $surface; padding: 0 1; }
    #settlement-scroll, #rules-scroll { height: 1fr; }
    #settlement-buttons { height: 3; }
    #settlement-buttons Button, #confirm Button { margin-right: 2; }
    #confirm Horizontal { height: auto; margin-top: 1; }
    #confirm { width: 90%; height: auto; border: thick $accent; background: $surface;
               padding: 1 2; }
    RulesScreen, SettlementScreen, ConfirmLeave { align: center middle; }
    """

    def __init__(
        self, variant: str | None = None, seed: int = 0, save_path: str | None = None
    ) -> None:
        super().__init__()
        self.start_variant = variant or next(iter(VARIANTS))
        self.seed = seed
        self.chosen_path = save_path is not None
        self.save_path = Path(save_path) if save_path else default_save_path(self.start_variant)
        self.save_problem = ""
        """Why the record is not where --save asked (empty when it is)."""
        self.session: Session | None = None

    def on_mount(self) -> None:
        self.push_screen(StartScreen(self.start_variant, self.seed))

    def begin(self, session: Session) -> None:
        """Leave the start screen for the table."""
        self.session = session
        if not self.chosen_path and session.variant != self.start_variant:
            self.save_path = default_save_path(session.variant)
        self.switch_screen(TableScreen(session))

    async def action_quit(self) -> None:
        """Quitting mid-hand is leaving the table: ask, as q does (an escape)."""
        screen = self.screen
        if isinstance(screen, TableScreen) and not screen.session.state.is_terminal():
            screen.action_leave()
            return
        self.exit()

    def save(self) -> Path | None:
        """Write the match so far as a majiang-record/1 file.

        If the chosen path cannot be written, the record goes to the default place and
        ``save_problem`` says so: the match is never lost to a bad --save.
        """
        if self.session is None or not self.session.match.finished:
            return None
        try:
            return self.session.save(self.save_path)
        except OSError as err:
            failed = self.save_path
            fallback = default_save_path(self.session.variant)
            why = err.strerror or str(err)
            try:
                path = self.session.save(fallback)
            except OSError as again:
                self.save_problem = (
                    f"Could not save the record to {failed} ({why}) nor to {fallback} "
                    f"({again.strerror or again})."
                )
                return None
            self.save_problem = f"Could not write {failed} ({why}); saved to {path} instead."
            self.save_path = path
            return path


def run(variant: str, seed: int, save: str | None, *, headless: bool = False) -> int:
    """Start the game; print where the record went. Non-zero if the app failed."""
    app = MajiangApp(variant, seed, save)
    app.run(headless=headless)
    path = app.save()
    if app.save_problem:
        print(f"majiang: {app.save_problem}", file=sys.stderr)
    if path is not None:
        print(f"record saved to {path} (replay: majiang replay {path})")
    return app.return_code or 0
