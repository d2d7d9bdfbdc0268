"""The terminal game, driven headless with Textual's pilot, at 80x24 and 160x50 for every
variant (issue 12 items 1-8 and play --save to an impossible path).

Most tests seat the human at a practice position (``Session(deals=..., start=...)``) with
bots that discard what they draw, so every hand goes the same way each run.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Input, RichLog, Select, Static, Switch

from majiang.cli import tui
from majiang.cli.session import Session
from majiang.cli.tui import (
    ConfirmLeave,
    MajiangApp,
    RulesScreen,
    SettlementScreen,
    StartScreen,
    TableScreen,
    terminal_unsafe,
)
from majiang.engine.state import Action
from majiang.observation import Observation
from majiang.records import load, replay
from majiang.rules import VARIANTS

ALL = sorted(VARIANTS)
SIZES = [(80, 24), (160, 50)]
GRID = [(v, size) for v in ALL for size in SIZES]
IDS = [f"{v}-{w}x{h}" for v, (w, h) in GRID]


class Tsumogiri:
    """Discards the tile it drew, passes every claim, never wins or kongs."""

    name = "tsumogiri"

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        for a in legal:
            if a.type == "discard" and a.tile == observation.drawn:
                return a
        return legal[-1]


# The dealer S3 holds bamboo only and discards 9s first; nobody else holds bamboo (unless
# a scenario says so), so the deal below reaches the human S0's first draw untouched.
S1_HAND = "2233445566778m"
S2_HAND = "4466778899p889m"
S3_HAND = "11233455677899s"
WIN_HAND = "123m456m789m123p5p"  # waits on 5p
WIN_DEAL = {"hands": [WIN_HAND, S1_HAND, S2_HAND, S3_HAND], "draws": "5p"}


def practice(
    variant: str,
    deal: Mapping[str, Any],
    options: Mapping[str, Any] | None = None,
    counters: Mapping[str, int] | None = None,
) -> Session:
    """The human at S0, S3 dealing, every bot a tsumogiri bot."""
    deal = dict(deal)
    if variant == "taizhou":
        deal.setdefault("reserved", {})["wild_indicator"] = "5z"  # 5z wilds: nobody has one
    return Session(
        variant,
        dict(options or {}),
        bots=[Tsumogiri()] * 4,
        seed=3,
        names=["You", "Bot 1", "Bot 2", "Bot 3"],
        deals=[deal],
        start={"dealer": 3, "counters": dict(counters or {})},
    )


def text_of(app: MajiangApp) -> str:
    """The whole screen as text, as a terminal shows it."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


def static(app: MajiangApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def notes(app: MajiangApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def footer_keys(app: MajiangApp) -> set[str]:
    """Keys the table's key bar shows now (``1`` for the number keys)."""
    screen = app.screen
    assert isinstance(screen, TableScreen)
    bar = static(app, "#keys")
    assert all(f"{key} {what}" in bar for key, what in screen.shown_keys())
    return {key[0] for key, _ in screen.shown_keys()}


def run(
    size: tuple[int, int],
    body: Callable[[MajiangApp, Pilot[None]], Awaitable[None]],
    tmp: Path,
    variant: str = "guangdong",
    session: Session | None = None,
    save: Path | None = None,
) -> MajiangApp:
    """Run ``body`` against the app (at the table with ``session`` if given)."""

    async def go() -> None:
        app = MajiangApp(variant, seed=5, save_path=str(save or tmp / "match.json"))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            if session is not None:
                app.begin(session)
                await pilot.pause()
            await body(app, pilot)
        holder.append(app)

    holder: list[MajiangApp] = []
    asyncio.run(go())
    return holder[0]


# -- item 1: the start screen ------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
def test_changing_the_variant_on_the_start_screen(size: tuple[int, int], tmp_path: Path) -> None:
    """Enter, Down, Enter walks through every variant; each shows its own options."""

    async def body(app: MajiangApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        assert app.focused is screen.query_one("#variant", Select)  # focus on open
        order = list(VARIANTS)
        start = order.index("guangdong")
        for step in range(1, len(order) + 1):
            await pilot.press("enter", "down", "enter")
            await pilot.pause()
            want = order[(start + step) % len(order)]
            assert screen.variant == want
            assert set(screen.option_widgets) == {o.name for o in VARIANTS[want].options}
            assert VARIANTS[want].summary[1] in static(app, "#summary")
        await pilot.press("enter", "down", "enter")  # to hangzhou, then start
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert app.screen.session.variant == "hangzhou"

    run(size, body, tmp_path)


def test_a_failing_app_exits_non_zero(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """make run reports a crash by its exit status."""

    def broken(self: StartScreen, variant_id: str) -> None:
        raise RuntimeError("broken on purpose")

    monkeypatch.setattr(StartScreen, "build_options", broken)
    assert tui.run("guangdong", 1, str(tmp_path / "x.json"), headless=True) != 0


# -- item 2: every option through the form --------------------------------------------------
def new_value(opt: Any) -> tuple[Any, list[str]]:
    """A value other than the default, and the keys that set it on the focused widget."""
    if opt.kind == "bool":
        return (not opt.default), ["space"]
    if opt.kind == "int":
        value = opt.default + 3
        return value, ["end", *["backspace"] * len(str(opt.default)), *str(value)]
    index = list(opt.choices).index(opt.default)
    target = (index + 1) % len(opt.choices)
    moves = target - index
    keys = ["enter", *(["down"] * moves if moves > 0 else ["up"] * -moves), "enter"]
    return opt.choices[target], keys


@pytest.mark.parametrize(("variant", "size"), GRID, ids=IDS)
def test_every_option_is_set_through_the_form(
    variant: str, size: tuple[int, int], tmp_path: Path
) -> None:
    """Tab reaches each option's widget (scrolled into view), keys change it, and the game
    starts with every value changed."""
    want: dict[str, Any] = {}

    async def body(app: MajiangApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        await pilot.press("tab")  # from the variant to the first option
        for opt in VARIANTS[variant].options:
            widget = screen.option_widgets[opt.name][1]
            for _ in range(4):
                if app.focused is widget:
                    break
                await pilot.press("tab")
            assert app.focused is widget, opt.name
            await pilot.pause()
            region = widget.region
            assert region.y >= 0 and region.bottom <= size[1] - 1, (opt.name, region)
            value, keys = new_value(opt)
            await pilot.press(*keys)
            await pilot.pause()
            want[opt.name] = value
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen), static(app, "#error")
        assert app.screen.session.match.options == want

    run(size, body, tmp_path, variant=variant)


def test_a_bad_option_is_refused_on_the_start_screen(tmp_path: Path) -> None:
    async def body(app: MajiangApp, pilot: Pilot[None]) -> None:
        screen = app.screen
        assert isinstance(screen, StartScreen)
        _, widget = screen.option_widgets["base_unit"]
        widget.value = "zero"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "base_unit" in static(app, "#error")

    run((80, 24), body, tmp_path, variant="hainan")


# -- items 3-8 at the table: one scripted visit per variant and size, checked item by item --
PENG_DEAL = {"hands": ["123m456m789m12p9s9s", S1_HAND, S2_HAND, S3_HAND]}
KONG_DEAL = {"hands": ["111m234m456p789p5s", S1_HAND, S2_HAND, S3_HAND], "draws": "1m"}


def shown_buttons(app: MajiangApp, selector: str) -> list[Button]:
    return [b for b in app.screen.query(selector).results(Button) if b.display]


def action_labels(app: MajiangApp) -> list[str]:
    return [str(b.label) for b in shown_buttons(app, "#actions Button")]


def settle_text(app: MajiangApp) -> str:
    assert isinstance(app.screen, SettlementScreen)
    return static(app, "#settlement-text")


def win_practice(variant: str) -> Session:
    """S3 discards 9s, the human draws 5p and can win by self-draw (a flower, 金鸟 birds and
    a dealer streak where the variant has them)."""
    deal: dict[str, Any] = dict(WIN_DEAL)
    counters: dict[str, int] = {}
    if variant == "hainan":  # a flower, replaced at the deal; a dealer streak of 1 (连庄 x2)
        deal["hands"] = ["123m456m789m123p1f", S1_HAND, S2_HAND, S3_HAND]
        deal["tail"] = "5p"
        counters = {"dealer_wins": 1}
    if variant == "hongzhong":
        deal["reserved"] = {"birds": "2m4p"}  # no bird hits: 金鸟
    return practice(variant, deal, counters=counters)


async def visit(app: MajiangApp, pilot: Pilot[None], tmp: Path) -> dict[str, Any]:
    """Play the practice positions and write down what the screens showed."""
    variant = app.start_variant
    width, height = app.size
    seen: dict[str, Any] = {}
    # a self-draw on the drawn 5p after S3's 9s
    win = win_practice(variant)
    app.begin(win)
    await pilot.pause()
    st = win.state
    seen["turn"] = (st.phase, st.current, st.drawn, st.window_tile)
    tiles = shown_buttons(app, "#hand Button")
    seen["tiles"] = [str(b.label) for b in tiles]
    seen["tiles_fit"] = all(
        b.region.x >= 0 and b.region.right <= width and b.region.bottom <= height - 1 for b in tiles
    )
    log = app.screen.query_one("#log", RichLog)
    seen["log_rows"] = log.region.height if log.region.bottom <= height - 1 else 0
    seen["win_labels"] = action_labels(app)
    seen["win_keys"] = footer_keys(app)
    seen["info_1"] = static(app, "#info")
    await pilot.press("c")
    seen["c_on_turn"] = notes(app)[-1]
    await pilot.press("question_mark")
    seen["rules_screen"] = isinstance(app.screen, RulesScreen)
    seen["rules"] = static(app, "#rules-text")
    scroll = app.screen.query_one("#rules-scroll")
    await pilot.press("end")
    await pilot.pause()
    seen["rules_scrolled"] = scroll.scroll_y == scroll.max_scroll_y
    seen["close_shown"] = app.screen.query_one("#close", Button).region.bottom <= height
    await pilot.press("escape")
    seen["rules_closed"] = isinstance(app.screen, TableScreen)
    await pilot.press("h")
    seen["settlement"] = settle_text(app)
    seen["win_session"] = win
    await pilot.press("n")
    seen["info_2"] = static(app, "#info") if isinstance(app.screen, TableScreen) else ""
    # a claim window on S3's 9s: peng or pass; then no drawn tile
    peng = practice(variant, PENG_DEAL)
    app.begin(peng)
    await pilot.pause()
    seen["claim_keys"] = footer_keys(app)
    await pilot.press("c")
    seen["c_in_window"] = notes(app)[-1]
    await pilot.press("p")
    pst = peng.state
    seen["pengs"] = [m.kind for m in pst.melds[0]]
    seen["peng_drawn"] = pst.drawn
    seen["after_peng_keys"] = footer_keys(app)
    before = (len(pst.history), sum(pst.concealed[0]))
    await pilot.press("d")
    seen["d_changed"] = (len(pst.history), sum(pst.concealed[0])) != before
    seen["d_note"] = notes(app)[-1]
    await pilot.press("1")
    seen["discarded"] = list(pst.discards[0])
    # a turn offering a concealed kong of 1m
    kong = practice(variant, KONG_DEAL)
    app.begin(kong)
    await pilot.pause()
    kst = kong.state
    seen["kong_offered"] = any(a.type == "kong" for a in kong.human_legal())
    seen["kong_keys"] = footer_keys(app)
    before = (len(kst.history), sum(kst.concealed[0]))
    await pilot.press("x")
    seen["x_changed"] = (len(kst.history), sum(kst.concealed[0])) != before
    seen["x_note"] = notes(app)[-1]
    await pilot.press("c")
    seen["c_on_kong_turn"] = notes(app)[-1]
    # leaving mid-hand, with an escape penalty of 5
    app.save_path = tmp / f"escape-{variant}.json"
    escape = practice(variant, WIN_DEAL, options={"escape_penalty": 5})
    app.begin(escape)
    await pilot.pause()
    await pilot.press("q")
    seen["confirm"] = static(app, "#confirm-text") if isinstance(app.screen, ConfirmLeave) else ""
    await pilot.press("y")
    seen["escape_text"] = settle_text(app)
    await pilot.press("q")
    seen["escape_record"] = app.save_path
    return seen


_VISITS: dict[tuple[str, tuple[int, int]], dict[str, Any]] = {}


@pytest.fixture(scope="module")
def visited(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, tuple[int, int]], Any]:
    """What one scripted visit of the table showed, per variant and size (run once each)."""

    def get(variant: str, size: tuple[int, int]) -> dict[str, Any]:
        key = (variant, size)
        if key not in _VISITS:
            tmp = tmp_path_factory.mktemp(f"{variant}-{size[0]}")
            holder: list[dict[str, Any]] = []

            async def body(app: MajiangApp, pilot: Pilot[None]) -> None:
                holder.append(await visit(app, pilot, tmp))

            run(size, body, tmp, variant=variant)
            _VISITS[key] = holder[0]
        return _VISITS[key]

    return get


Visited = Callable[[str, tuple[int, int]], dict[str, Any]]


@pytest.mark.parametrize(("variant", "size"), GRID, ids=IDS)
def test_the_self_draw_button_names_the_drawn_tile(
    variant: str, size: tuple[int, int], visited: Visited
) -> None:
    """Item 3: S3 discarded 9s, then the human drew 5p: the 胡 button says self-draw on 5p."""
    seen = visited(variant, size)
    assert seen["turn"] == ("turn", 0, 13, 26)  # the drawn 5p; the last discard was 9s
    hu = [label for label in seen["win_labels"] if label.startswith("胡")]
    assert len(hu) == 1
    assert "self-draw" in hu[0] and "5p" in hu[0] and "9s" not in hu[0]
    win = seen["win_session"].match.finished[0].state.result().win
    assert (win.win_type, win.tile) == ("self_draw", 13)


@pytest.mark.parametrize(("variant", "size"), GRID, ids=IDS)
def test_keys_that_do_nothing_say_why(
    variant: str, size: tuple[int, int], visited: Visited
) -> None:
    """Item 4: d after your own peng, x on a turn offering a kong, c where there is no chi:
    each does nothing and says why; the footer shows only the keys that mean something."""
    seen = visited(variant, size)
    no_chi = "chi" not in VARIANTS[variant].claims
    # the claim window on 9s: peng, pass and the number keys; no chi, no discard
    assert {"p", "x", "1"} <= seen["claim_keys"]
    assert not {"c", "d", "h"} & seen["claim_keys"]
    for note in (seen["c_in_window"], seen["c_on_turn"], seen["c_on_kong_turn"]):
        assert ("has no chi" in note) if no_chi else ("No chi" in note), note
    # after the peng: no drawn tile, so no d; d says why and discards nothing
    assert seen["pengs"] == ["peng"] and seen["peng_drawn"] is None
    assert "d" not in seen["after_peng_keys"] and "1" in seen["after_peng_keys"]
    assert not seen["d_changed"] and "No drawn tile" in seen["d_note"]
    assert seen["discarded"] == [0]  # then 1 discarded the first tile, 1m
    # a turn with a kong on offer: x is not shown, does nothing, and says why
    assert seen["kong_offered"] and "k" in seen["kong_keys"] and "x" not in seen["kong_keys"]
    assert not seen["x_changed"]
    assert "nothing to pass" in seen["x_note"] and "kong" in seen["x_note"]
    # the self-draw turn: win and discard keys, nothing else to claim
    assert {"h", "d", "1"} <= seen["win_keys"] and not {"p", "c", "x"} & seen["win_keys"]


IDS_SHOWN = re.compile(
    r"\b(self_draw|kong_direct|kong_added|kong_concealed|direct|added|basic_hand|"
    r"kong_replacement|rob_kong|zhuangxian|baosanjia|dealer_run|dealer_wins)\b"
)


def check_settlement(text: str, session: Session, state: Any = None) -> None:
    """Names from the declarations, no ids, a reason on every payment line."""
    v = session.spec
    res = (state or session.state).result()
    assert not IDS_SHOWN.search(text), IDS_SHOWN.search(text)
    for p in res.patterns:
        assert " ".join(v.term(p)) in text
    pay_lines = [line for line in text.splitlines() if re.match(r"\s+S\d pays S\d", line)]
    assert len(pay_lines) == len(res.items)
    for line, it in zip(pay_lines, res.items, strict=True):
        assert " ".join(v.term(it.kind)) in line
        if it.reason:
            assert " ".join(v.term(it.reason)) in line
    assert "Deltas" in text and "Totals" in text and "Record saved to" in text


@pytest.mark.parametrize(("variant", "size"), GRID, ids=IDS)
def test_the_settlement_shows_the_whole_hand_and_every_reason(
    variant: str, size: tuple[int, int], visited: Visited
) -> None:
    """Item 5: the winning hand with its flowers, names in both languages for every id, a
    reason on every payment line (连庄, 金鸟, horses by name)."""
    seen = visited(variant, size)
    text = seen["settlement"]
    session = seen["win_session"]
    check_settlement(text, session, session.match.finished[0].state)
    assert "Concealed 手牌: 1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5p  + 5p" in text
    assert "自摸 self-draw" in text
    if variant == "hainan":
        assert "Flowers 花: 1f 春" in text
        assert "连庄 2" in text  # the dealer's share doubled by his streak
    if variant == "hongzhong":
        assert "金鸟 golden bird" in text and "2m 不中 miss" in text
    if variant == "guangdong":
        assert "马牌 horses:" in text
    assert not terminal_unsafe(text)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
def test_a_wild_in_a_meld_shows_what_it_stands_for(size: tuple[int, int], tmp_path: Path) -> None:
    """Item 5, hangzhou: the human pengs S3's 9s with a 9s and a wild 5z, discards 1p, then
    wins by self-draw on 5p: the table and the settlement write the wild as 5z=9s."""
    deal = {"hands": ["123m456m789m1p5p9s5z", S1_HAND, S2_HAND, S3_HAND], "draws": "1s2s3s5p"}
    session = practice("hangzhou", deal)

    async def body(app: MajiangApp, pilot: Pilot[None]) -> None:
        labels = action_labels(app)
        wild_peng = next(i for i, label in enumerate(labels) if "using 9s 5z" in label)
        await pilot.press(str(wild_peng + 1))
        meld = session.state.melds[0][0]
        assert meld.kind == "peng" and meld.wilds == 1
        assert "碰 peng 9s 9s 5z=9s <S3" in static(app, "#mine")
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await pilot.press(tui.TILE_KEY_NAMES[screen.hand_order().index(9)])  # discard 1p
        assert session.state.current == 0 and session.state.drawn == 13  # drew 5p
        await pilot.press("h")
        text = settle_text(app)
        assert "碰 peng 9s 9s 5z=9s <S3" in text
        check_settlement(text, session)

    run(size, body, tmp_path, session=session)


@pytest.mark.parametrize(("variant", "size"), GRID, ids=IDS)
def test_leaving_mid_hand_shows_the_escape_and_its_penalty(
    variant: str, size: tuple[int, int], visited: Visited
) -> None:
    """Item 6: q asks, saying what it costs; y shows the escape and its payments; the record
    keeps it."""
    seen = visited(variant, size)
    assert "you pay 5 to each other seat (15 in all)" in seen["confirm"]
    text = seen["escape_text"]
    assert "left the table: 逃跑 escape" in text and "escape penalty 逃跑扣分 is 5" in text
    assert text.count("逃跑 escape") == 4 and "S0 -15" in text
    hand = replay(load(seen["escape_record"]))["hands"][0]
    assert [(i["kind"], i["from"], i["points"]) for i in hand["items"]] == [("escape", 0, 5)] * 3


@pytest.mark.parametrize(("variant", "size"), GRID, ids=IDS)
def test_the_rules_screen_states_the_defining_restrictions_first(
    variant: str, size: tuple[int, int], visited: Visited
) -> None:
    """Item 7: the summary, then the restrictions, then the options, then the readings, in
    words; the docs page by a name a user can find; it scrolls; nothing breaks the border."""
    seen = visited(variant, size)
    v = VARIANTS[variant]
    text = seen["rules"]
    assert seen["rules_screen"] and seen["rules_closed"]
    first = text.index(v.summary[1])
    assert first < text.index(v.restrictions[0].rule[:30]) < text.index("Options of this")
    assert text.index("Options of this") < text.index("How these rules are read")
    assert not re.search(r"\bD\d+\b|RULES\.md|\.\./shared", text)
    assert f"docs/rules/{variant}.md" in text
    assert not terminal_unsafe(text)
    assert seen["rules_scrolled"] and seen["close_shown"]


def test_the_readme_links_work_from_a_clone() -> None:
    root = Path(__file__).parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    assert any(link.startswith("docs/rules/") for link in links)
    for link in links:
        if "://" in link:
            continue
        assert (root / link).exists(), link
    assert "../shared" not in readme
    for variant in ALL:
        page = (root / "docs" / "rules" / f"{variant}.md").read_text(encoding="utf-8")
        assert VARIANTS[variant].zh.split()[0] in page
        assert "../shared" not in page


@pytest.mark.parametrize(("variant", "size"), GRID, ids=IDS)
def test_the_table_fits_and_counts_hands_from_one(
    variant: str, size: tuple[int, int], visited: Visited
) -> None:
    """Item 8: all 14 tiles and the log on screen; one drawn-tile mark though the hand holds
    a pair of it; hand 1 then hand 2 (第1局, 第2局)."""
    seen = visited(variant, size)
    tiles = seen["tiles"]
    assert len(tiles) == 14 and seen["tiles_fit"] and seen["log_rows"] >= 3
    assert [label for label in tiles if "*" in label] == [tiles[-1]]
    assert "5p*" in tiles[-1] and sum("5p" in label for label in tiles) == 2
    assert "第1局 hand 1" in seen["info_1"]
    assert "第1局 Hand 1" in seen["settlement"]
    assert "第2局 hand 2" in seen["info_2"]


def test_an_instant_win_is_offered_before_the_dealer_discards(tmp_path: Path) -> None:
    """hongzhong: the human (not the dealer) was dealt four 红中: 四红中 is offered before the
    dealer's first discard (D56) and wins at once."""
    deal = {"hands": ["7z7z7z7z123m456m789p", S1_HAND, S2_HAND, S3_HAND]}
    session = practice("hongzhong", deal)

    async def body(app: MajiangApp, pilot: Pilot[None]) -> None:
        assert session.state.first_turn and session.state.current == 3
        assert [label for label in action_labels(app) if label.startswith("胡")] == [
            "胡 起手胡 instant win [h 1]"
        ]
        await pilot.press("h")
        text = settle_text(app)
        assert "四红中 four red dragons" in text and "起手胡 instant win" in text

    run((80, 24), body, tmp_path, session=session)


# -- play --save to an impossible path --------------------------------------------------------
def test_save_to_an_impossible_path_falls_back_and_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    session = practice("guangdong", WIN_DEAL)

    async def body(app: MajiangApp, pilot: Pilot[None]) -> None:
        await pilot.press("h")
        await pilot.pause()
        text = settle_text(app)
        assert f"Could not write {blocker / 'match.json'}" in text
        assert "saved to" in text and str(tmp_path / "home") in text

    app = run((80, 24), body, tmp_path, session=session, save=blocker / "match.json")
    saved = list((tmp_path / "home" / ".majiang" / "records").glob("guangdong-*.json"))
    assert len(saved) == 1 and app.save_path == saved[0]
    assert replay(load(saved[0]))["totals"] == session.match.totals


# -- whole hands, bots as the start screen sets them -------------------------------------------
def key_for(app: MajiangApp) -> str:
    """A simple player: win, claim, else pass or discard the drawn tile (or the first)."""
    assert app.session is not None
    keys = footer_keys(app)
    kongs = sum(1 for a in app.session.human_legal() if a.type == "kong")
    for key in ("h", "k", "p", "c", "x", "d"):
        if key in keys and not (key == "k" and kongs > 1):
            return key
    return "1"


@pytest.mark.parametrize("variant", ALL)
def test_hands_are_played_to_the_settlement_and_saved(variant: str, tmp_path: Path) -> None:
    seen: dict[str, Any] = {"dealers": []}

    async def body(app: MajiangApp, pilot: Pilot[None]) -> None:
        app.screen.query_one("#variant", Select).value = variant
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        session = app.screen.session
        for _ in range(2):
            for _ in range(400):
                if isinstance(app.screen, SettlementScreen):
                    break
                await pilot.press(key_for(app))
            assert isinstance(app.screen, SettlementScreen), "the hand did not end"
            check_settlement(settle_text(app), session)
            seen["dealers"].append(session.state.dealer)
            await pilot.press("n")
            await pilot.pause()
        seen["totals"] = list(session.match.totals)

    run((80, 24), body, tmp_path, variant=variant)
    result = replay(load(tmp_path / "match.json"))
    assert result["totals"] == seen["totals"]  # the record replays to what the game showed
    assert len(result["hands"]) == 2
    assert result["hands"][0]["next"]["dealer"] == seen["dealers"][1]


SNAPSHOTS = Path(__file__).parent / "snapshots"


async def table_text(variant: str, size: tuple[int, int]) -> str:
    """The table right after the deal of seed 5, as the terminal shows it."""
    app = MajiangApp(variant, seed=5, save_path=None)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.screen.query_one("#seed", Input).value = "5"
        await pilot.press("ctrl+s")
        await pilot.pause()
        return "\n".join(line.rstrip() for line in text_of(app).splitlines()) + "\n"


@pytest.mark.parametrize(("variant", "size"), GRID, ids=IDS)
def test_table_snapshot(variant: str, size: tuple[int, int]) -> None:
    """The table of a seeded deal renders exactly as the stored snapshot (regenerate with
    MAJIANG_SNAPSHOTS=1 and read the diff)."""
    text = asyncio.run(table_text(variant, size))
    path = SNAPSHOTS / f"table-{variant}-{size[0]}x{size[1]}.txt"
    if __import__("os").environ.get("MAJIANG_SNAPSHOTS"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_switches_and_inputs_are_the_option_widgets() -> None:
    """The form's widget kinds follow the declarations (bool: switch, int: input)."""

    async def go() -> None:
        app = MajiangApp("hongzhong", seed=1, save_path=None)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, StartScreen)
            for opt, widget in screen.option_widgets.values():
                kind = {"bool": Switch, "int": Input, "choice": Select}[opt.kind]
                assert isinstance(widget, kind), opt.name

    asyncio.run(go())


def test_record_is_json(tmp_path: Path) -> None:
    """Saved records are UTF-8 JSON with Chinese kept readable."""
    session = practice("hainan", WIN_DEAL)
    session.play(Action(0, "hu"))
    path = session.save(tmp_path / "r.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "majiang-record/1" and data["start"]["dealer"] == 3
