"""``majiang play``: the terminal game against bots (Textual)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, ClassVar

from rich.markup import escape
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Header, Input, Label, RichLog, Select, Static, Switch

from majiang.cli.session import ACTION_WORDS, Session
from majiang.engine.state import Action
from majiang.errors import MajiangError
from majiang.rules import VARIANTS, get_variant
from majiang.rules.base import Option
from majiang.rules.guangdong import horse_target
from majiang.rules.hongzhong import bird_hits
from majiang.tiles import Tile, chinese_name, glyph

__all__ = ["PATTERN_NAMES", "MajiangApp", "default_save_path"]

PATTERN_NAMES = {
    "basic_hand": "平胡",
    "heavenly_hand": "天胡",
    "all_one_suit": "清一色",
    "all_honors": "字一色",
    "half_flush": "混一色",
    "seven_pairs": "七对",
    "four_concealed_triplets": "四暗刻",
    "four_kongs": "十八罗汉",
    "big_three_dragons": "大三元",
    "big_four_winds": "大四喜",
    "little_four_winds": "小四喜",
    "thirteen_orphans": "十三幺",
    "luxury_seven_pairs": "豪华七对",
    "double_luxury_seven_pairs": "双豪华七对",
    "triple_luxury_seven_pairs": "三豪华七对",
    "pure_seven_pairs": "清七对",
    "luxury_pure_seven_pairs": "豪华清七对",
    "double_luxury_pure_seven_pairs": "双豪华清七对",
    "triple_luxury_pure_seven_pairs": "三豪华清七对",
    "baotou": "爆头",
    "qike": "七客",
    "gang": "杠",
    "piao": "飘",
    "only_chows": "只吃不碰",
    "concealed": "门前清",
    "all_pungs": "碰碰胡",
    "pair_258": "二五八做将",
    "rob_kong": "抢杠",
    "dragon_pung": "中发白",
    "seat_flower": "位置花",
    "seat_wind_pung": "门风",
    "self_draw": "自摸",
    "four_red_dragons": "四红中",
    "four_winds": "四风全齐",
    "pang_hu": "旁胡",
    "no_wild": "无得",
    "two_wilds": "两得",
    "wild_restored": "一得还原",
    "wild_self_drawn": "自摸得",
    "kong_replacement": "杠上开花",
    "red_pung": "红中",
    "green_pung": "发财",
}
WINDS = "东南西北"
KEYS = {"hu": "h", "kong": "k", "peng": "p", "chi": "c", "pass": "x"}


def default_save_path(variant: str) -> Path:
    """Where a match is saved unless --save says otherwise."""
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path.home() / ".majiang" / "records" / f"{variant}-{stamp}.json"


def tiles_text(tiles: list[int]) -> str:
    """Glyphs with their notation, e.g. 🀇1m 🀈2m."""
    return " ".join(f"{glyph(t)}{Tile(t)}" for t in tiles)


def reveal(purpose: str, tiles: tuple[int, ...], dealer: int) -> str:
    """Horses with the seat each points at; birds marked hit or miss."""
    if purpose == "horses":
        return "  ".join(f"{glyph(t)}{Tile(t)}→S{(dealer + horse_target(t)) % 4}" for t in tiles)
    if purpose == "birds":
        return "  ".join(
            f"{glyph(t)}{Tile(t)} {'hit' if bird_hits((t,)) else 'miss'}" for t in tiles
        )
    return tiles_text(list(tiles))


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


class StartScreen(Screen[None]):
    """Pick the variant, its room options, your seat and the bots."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+s", "start", "start the game")]

    def action_start(self) -> None:
        self.start()

    def __init__(self, variant: str, seed: int) -> None:
        super().__init__()
        self.variant = variant
        self.seed = seed

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="start"):
            yield Label("Variant 规则")
            yield Select(
                [(f"{v.id}  {v.zh}", v.id) for v in VARIANTS.values()],
                value=self.variant,
                allow_blank=False,
                id="variant",
            )
            yield Vertical(id="options")
            yield Label("Your seat 座位 (seat 0 is the room owner)")
            yield Select([(f"S{s}", s) for s in range(4)], value=0, allow_blank=False, id="seat")
            yield Label("Bots 机器人")
            yield Select(
                [("greedy", "greedy"), ("random", "random")],
                value="greedy",
                allow_blank=False,
                id="bots",
            )
            yield Label("Seed 种子 (the same seed deals the same tiles)")
            yield Input(str(self.seed), id="seed")
            yield Static("", id="error")
            yield Button("Start 开始", id="start-button", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.build_options(self.variant)

    def build_options(self, variant_id: str) -> None:
        box = self.query_one("#options", Vertical)
        box.remove_children()
        self.option_widgets: dict[str, tuple[Option, Any]] = {}
        for opt in get_variant(variant_id).options:
            label = Label(f"{opt.name}  {opt.zh} — {opt.doc}")
            widget: Any
            if opt.kind == "bool":
                widget = Switch(value=bool(opt.default), id=f"opt-{opt.name}")
            elif opt.kind == "int":
                widget = Input(str(opt.default), id=f"opt-{opt.name}")
            else:
                widget = Select(
                    [(str(c), str(c)) for c in opt.choices],
                    value=str(opt.default),
                    allow_blank=False,
                    id=f"opt-{opt.name}",
                )
            box.mount(label, widget)
            self.option_widgets[opt.name] = (opt, widget)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "variant" and event.value != self.variant:
            self.variant = str(event.value)
            self.build_options(self.variant)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start-button":
            self.start()

    def start(self) -> None:
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
    """The table: your hand, everybody's discards and melds, your choices, the log."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "rules", "rules ?"),
        Binding("q", "leave", "leave"),
        Binding("d", "discard_drawn", "discard drawn"),
        *(Binding(k, f"act('{t}')", f"{ACTION_WORDS[t][0]} {t}") for t, k in KEYS.items()),
        *(Binding(str((i + 1) % 10), f"discard({i})", show=False) for i in range(10)),
        Binding("minus", "discard(10)", show=False),
        Binding("equals_sign", "discard(11)", show=False),
        Binding("left_square_bracket", "discard(12)", show=False),
        Binding("right_square_bracket", "discard(13)", show=False),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.shown_log = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="info")
        yield Static(id="others")
        yield Static(id="mine")
        yield Horizontal(id="hand")
        yield Horizontal(id="actions")
        yield Static(id="why")
        yield RichLog(id="log", wrap=True, max_lines=500)
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_table()

    # -- drawing --------------------------------------------------------------------------
    def refresh_table(self) -> None:
        s = self.session
        st = s.state
        me = s.human
        counters = ", ".join(f"{k} {v}" for k, v in st.counters.items())
        horses = len(st.reserved.get("horses", ()))
        birds = len(st.reserved.get("birds", ()))
        extra = [f"R {st.live}"]
        if st.wild is not None:
            extra.append(f"wild {glyph(st.wild)}{Tile(st.wild)} {chinese_name(st.wild)}")
        if counters:
            extra.append(counters)
        if horses:
            extra.append(f"horses {horses}")
        if birds:
            extra.append(f"birds {birds}")
        self.query_one("#info", Static).update(
            f"[b]{s.variant}[/b] hand {len(s.match.finished) + (0 if st.is_terminal() else 1)}"
            f"  dealer S{st.dealer}  "
            + "  ".join(extra)
            + "   totals "
            + " ".join(f"S{i} {t:+d}" for i, t in enumerate(s.match.totals))
        )
        rows = []
        for seat in range(4):
            if seat == me:
                continue
            rows.append(self.seat_line(seat, WINDS[(seat - st.dealer) % 4], show_hand=False))
        self.query_one("#others", Static).update("\n".join(rows))
        self.query_one("#mine", Static).update(
            self.seat_line(me, WINDS[(me - st.dealer) % 4], show_hand=True)
        )
        self.draw_hand()
        self.draw_actions()
        self.query_one("#why", Static).update(escape(s.restriction()))
        log = self.query_one("#log", RichLog)
        for line in s.log[self.shown_log :]:
            log.write(escape(line))
        self.shown_log = len(s.log)
        if st.is_terminal():
            self.app.push_screen(SettlementScreen(s))

    def seat_line(self, seat: int, wind: str, show_hand: bool) -> str:
        st = self.session.state
        name = self.session.names[seat]
        dealer = " [b]庄[/b]" if seat == st.dealer else ""
        melds = "  ".join(
            f"{m.kind.replace('kong_', '')} {tiles_text(list(m.tiles))}<S{m.source}"
            if m.source is not None
            else f"{m.kind.replace('kong_', '')} "
            + (tiles_text(list(m.tiles)) if show_hand or m.exposed else "🀫🀫🀫🀫")
            for m in st.melds[seat]
        )
        flowers = f"  flowers {tiles_text(st.flowers[seat])}" if st.flowers[seat] else ""
        size = f"  hand {sum(st.concealed[seat])}" if not show_hand else ""
        discards = tiles_text(st.discards[seat])
        return (
            f"S{seat} {wind} {escape(name)}{dealer}{size}{flowers}\n"
            f"   melds: {melds or '-'}\n   discards: {discards or '-'}"
        )

    def draw_hand(self) -> None:
        box = self.query_one("#hand", Horizontal)
        box.remove_children()
        st = self.session.state
        tiles = st.hand_tiles(self.session.human)
        legal = {a.tile for a in self.session.human_legal() if a.type == "discard"}
        keys = "1234567890-=[]"
        buttons = []
        for i, t in enumerate(tiles):
            key = keys[i] if i < len(keys) else ""
            mark = "*" if (t == st.drawn and st.current == self.session.human) else ""
            b = Button(f"{glyph(t)}\n{Tile(t)}{mark}\n{key}", classes="tile")
            b.disabled = t not in legal
            b.tile = t  # type: ignore[attr-defined]
            buttons.append(b)
        box.mount(*buttons)

    def draw_actions(self) -> None:
        box = self.query_one("#actions", Horizontal)
        box.remove_children()
        buttons: list[Button] = []
        for a in self.session.human_legal():
            if a.type == "discard":
                continue
            zh, en = ACTION_WORDS[a.type]
            what = ""
            if a.type == "chi":
                what = " " + " ".join(str(Tile(t)) for t in a.tiles)
            elif a.tiles:
                what = " with " + " ".join(str(Tile(t)) for t in a.tiles)
            elif a.tile is not None:
                what = f" {Tile(a.tile)}"
            if a.type in ("peng", "chi", "hu") and self.session.state.window_tile is not None:
                what = f" {Tile(self.session.state.window_tile)}" + what
            keys = KEYS.get(a.type, "")
            if not any(x.type == "discard" for x in self.session.human_legal()):
                keys += f" {len(buttons) + 1}"  # number keys choose between claims
            b = Button(escape(f"{zh} {en}{what} [{keys}]"), classes="act")
            b.action_obj = a  # type: ignore[attr-defined]
            buttons.append(b)
        box.mount(*buttons)

    # -- input ---------------------------------------------------------------------------
    def play(self, action: Action) -> None:
        try:
            self.session.play(action)
        except MajiangError as err:
            self.notify(str(err), severity="error")
        self.refresh_table()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        b = event.button
        if hasattr(b, "action_obj"):
            self.play(b.action_obj)
        elif hasattr(b, "tile"):
            self.play(Action(self.session.human, "discard", b.tile))

    def action_discard(self, index: int) -> None:
        legal = self.session.human_legal()
        if not any(a.type == "discard" for a in legal):
            # a claim window: the number keys pick a choice (e.g. which chi)
            choices = [a for a in legal if a.type != "discard"]
            if index < len(choices):
                self.play(choices[index])
            return
        tiles = self.session.state.hand_tiles(self.session.human)
        if index < len(tiles):
            act = Action(self.session.human, "discard", tiles[index])
            if act in self.session.human_legal():
                self.play(act)

    def action_discard_drawn(self) -> None:
        st = self.session.state
        for a in self.session.human_legal():
            if a.type == "discard" and a.tile == st.drawn:
                self.play(a)
                return
        discards = [a for a in self.session.human_legal() if a.type == "discard"]
        if discards:
            self.play(discards[-1])

    def action_act(self, kind: str) -> None:
        options = [a for a in self.session.human_legal() if a.type == kind]
        if options:
            self.play(options[0])

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.session))

    def action_leave(self) -> None:
        if self.session.state.is_terminal():
            self.app.exit()
            return
        self.app.push_screen(ConfirmLeave(), self.leave_answer)

    def leave_answer(self, leave: bool | None) -> None:
        if leave:
            self.session.escape()
            app = self.app
            assert isinstance(app, MajiangApp)
            app.save()
            app.exit()


class SettlementScreen(ModalScreen[None]):
    """The end of a hand: winner, patterns, revealed horses/birds, every payment."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next", "next hand"),
        Binding("q", "quit_game", "quit"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        s = self.session
        st = s.state
        res = st.result()
        lines = []
        if res.win is not None:
            w = res.win
            names = ", ".join(f"{p} {PATTERN_NAMES.get(p, '')}" for p in res.patterns)
            lines.append(
                f"[b]{escape(s.names[w.winner])} (S{w.winner}) wins[/b] by {w.win_type}"
                + (f" from S{w.source}" if w.source is not None else "")
            )
            how = "drew" if w.source is None else f"won S{w.source}'s"
            lines.append(f"hand: {tiles_text(st.hand_tiles(w.winner))}   ({how} {Tile(w.tile)})")
            lines.append(f"patterns: {names}")
        elif res.escaped is not None:
            lines.append(f"S{res.escaped} left the table: escape")
        else:
            lines.append("Drawn hand (流局)")
        for purpose in ("horses", "birds", "wild_indicator"):
            if st.reserved.get(purpose):
                lines.append(f"{purpose}: {reveal(purpose, st.reserved[purpose], st.dealer)}")
        lines.append("payments:")
        for it in res.items:
            note = f"  {escape(it.note)}" if it.note else ""
            lines.append(f"  {it.kind:<10} S{it.payer} → S{it.payee} {it.points:>4}{note}")
        lines.append("deltas: " + "  ".join(f"S{i} {d:+d}" for i, d in enumerate(res.deltas)))
        lines.append("totals: " + "  ".join(f"S{i} {d:+d}" for i, d in enumerate(s.match.totals)))
        app = self.app
        assert isinstance(app, MajiangApp)
        path = app.save()
        lines.append(f"record saved to {path}")
        with Vertical(id="settlement"):
            yield Static("\n".join(lines), id="settlement-text")
            with Horizontal():
                yield Button(escape("Next hand [n]"), id="next", disabled=s.match.over)
                yield Button(escape("Quit [q]"), id="quit")

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
    """The variant's rules summary and the active options."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark", "close", "close")]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        v = get_variant(self.session.variant)
        opts = self.session.match.options
        lines = [f"[b]{v.id} {v.zh}[/b] — {v.name}", "", "Active options:"]
        for o in v.options:
            lines.append(f"  {o.name} {o.zh}: {opts[o.name]}  ({o.doc})")
        lines += [
            "",
            f"Claims: {', '.join(sorted(v.claims))}; robbing an added kong: "
            f"{'yes' if v.rob_added_kong else 'no'}",
            "Keys: h 胡 win, k 杠 kong, p 碰 peng, c 吃 chi, x 过 pass, d discard the drawn "
            "tile, 1-9 0 - = [ ] discard by position, q leave (an escape mid-hand)",
            "Full rules: RULES.md of the project (section of this variant).",
        ]
        with Vertical(id="rules"):
            yield Static("\n".join(escape(x) if not x.startswith("[b]") else x for x in lines))
            yield Button(escape("Close [esc]"), id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()


class ConfirmLeave(ModalScreen[bool]):
    """Leaving mid-hand is an escape (RULES.md 0.9); ask first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "yes", "yes"),
        Binding("n,escape", "no", "no"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Label(
                "Leave the table? Mid-hand this counts as an escape (逃跑): you pay the "
                "escape penalty and the match ends. [y/n]"
            )
            with Horizontal():
                yield Button(escape("Leave [y]"), id="yes", variant="error")
                yield Button(escape("Stay [n]"), id="no")

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
    #hand { height: 5; }
    .tile { min-width: 6; width: 6; height: 5; padding: 0; }
    #actions { height: 3; }
    #log { height: 8; border: round $accent; }
    #others { height: auto; }
    #settlement, #rules, #confirm { width: 90%; height: auto; border: thick $accent;
                                    background: $surface; padding: 1 2; }
    """

    def __init__(
        self, variant: str = "guangdong", seed: int = 0, save_path: str | None = None
    ) -> None:
        super().__init__()
        self.start_variant = variant
        self.seed = seed
        self.save_path = Path(save_path) if save_path else default_save_path(variant)
        self.session: Session | None = None

    def on_mount(self) -> None:
        self.push_screen(StartScreen(self.start_variant, self.seed))

    def begin(self, session: Session) -> None:
        """Leave the start screen for the table."""
        self.session = session
        if self.save_path.name.startswith(self.start_variant + "-") and (
            session.variant != self.start_variant
        ):
            self.save_path = default_save_path(session.variant)
        self.switch_screen(TableScreen(session))

    def save(self) -> Path | None:
        """Write the match so far as a majiang-record/1 file."""
        if self.session is None or not self.session.match.finished:
            return None
        return self.session.save(self.save_path)


def run(variant: str, seed: int, save: str | None) -> int:
    """Start the game; print where the record went."""
    app = MajiangApp(variant, seed, save)
    app.run()
    path = app.save()
    if path is not None:
        print(f"record saved to {path} (replay: majiang replay {path})")
    return 0
