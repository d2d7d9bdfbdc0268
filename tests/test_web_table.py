"""The table as players expect it (issue 34, docs/web.md "The table"), in Debian's Chromium
against a real `majiang serve`: at a phone in portrait (360×740), a phone in landscape
(740×360) and a desktop (1366×768), one human plays a full hand against three bots by taps,
and at every turn of it the page is measured: the seats sit bottom / right / top / left
around the compass, which lights the seat to act; every button and every tile of the own
hand is a 44×44 px touch target; discards are at least 24 px wide on the 360 px phone;
nothing scrolls sideways; the claim bar moves nothing when it appears; the last discard is
marked. Short animations mark what is new and prefers-reduced-motion turns them off;
sounds are off by default and made by the page when turned on. Every test fails on a
console error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from test_server import TIMEOUT, Server, serve_sqlite
from webkit import SHOTS, Player, no_raw_json, no_sideways_scroll, watched_page

from majiang.rules import VARIANTS

PORTRAIT = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}
DESKTOP = {"width": 1366, "height": 768}
VIEWPORTS = {"portrait": PORTRAIT, "landscape": LANDSCAPE, "desktop": DESKTOP}

SOUND_COUNTER = """
(() => {
  window.__tones = 0;
  const Ctx = window.AudioContext;
  if (!Ctx) return;
  const make = Ctx.prototype.createOscillator;
  Ctx.prototype.createOscillator = function () {
    window.__tones += 1;
    return make.call(this);
  };
})();
"""
"""Counts the tones the page makes (Web Audio oscillators), installed before its scripts."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve_sqlite(tmp_path_factory, "webtable")


def seat_me(server: Server, context: BrowserContext, variant: str, hands: int = 1) -> str:
    """A room of `variant` with three greedy bots made over HTTP, its seat 0 held by this
    browser context (as the lobby keeps it); the room number."""
    made = httpx.post(
        f"{server.http}/api/rooms",
        json={
            "variant": variant,
            "hands": hands,
            "turn_seconds": 90,
            "name": "Ann",
            "bots": {"1": "greedy", "2": "greedy", "3": "greedy"},
        },
        timeout=TIMEOUT,
    ).json()
    held = json.dumps({"seat": 0, "token": made["token"], "name": "Ann"})
    context.add_init_script(
        f"localStorage.setItem({json.dumps('majiang.seat.' + made['room'])}, {json.dumps(held)})"
    )
    return str(made["room"])


def open_table(page: Page, server: Server, room: str) -> None:
    """Open the room, press ready and wait for the table."""
    page.goto(f"{server.http}/?room={room}")
    page.click("[data-act=ready]")
    page.wait_for_selector(".table")


def box(page: Page, selector: str) -> dict[str, float]:
    """The bounding box of the first element matching `selector`."""
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not on screen"
    return found


def centre(b: dict[str, float]) -> tuple[float, float]:
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


class TableChecks:
    """What is measured on the table at a moment when nothing moves (the seat's turn, a
    claim bar shown); how often each was seen, so a test can say it was checked."""

    def __init__(self, page: Page, viewport: dict[str, int]) -> None:
        self.page = page
        self.viewport = viewport
        self.turns = 0
        self.claims = 0
        self.marked = 0

    def placement(self) -> None:
        """Own seat lowest, 对家 highest, 下家 right of the compass, 上家 left of it; each
        river between its seat and the compass; every seat's wind on the compass where it
        sits. (Read in one go, so no redraw falls between the measurements.)"""
        got = self.page.evaluate(
            """() => {
                 const t = document.querySelector('.table');
                 if (!t) return null;
                 const parts = ['.compass'].concat(...['me', 'right', 'top', 'left'].map(
                   p => [`.seat.${p}`, `.river.r-${p}`]));
                 const missing = parts.filter(sel => !t.querySelector(sel));
                 if (missing.length) return {missing};
                 const r = (sel) => {
                   const b = t.querySelector(sel).getBoundingClientRect();
                   return {x: b.x, y: b.y, width: b.width, height: b.height};
                 };
                 const bottom = Number(t.getAttribute('data-bottom'));
                 const out = {bottom, seats: {}, boxes: {}, winds: {}};
                 for (const p of ['me', 'right', 'top', 'left']) {
                   out.seats[p] = Number(t.querySelector(`.seat.${p}`).getAttribute('data-seat'));
                   out.boxes[p] = r(`.seat.${p}`);
                   out.boxes['r-' + p] = r(`.river.r-${p}`);
                   out.winds[p] = r(`.compass .w[data-seat='${out.seats[p]}']`);
                 }
                 out.boxes.compass = r('.compass');
                 return out;
               }"""
        )
        if got is None:
            return  # the hand is over
        assert "missing" not in got, f"not on the table: {got.get('missing')}"
        b, seats, bottom = got["boxes"], got["seats"], got["bottom"]
        me, top, left, right = b["me"], b["top"], b["left"], b["right"]
        cx, cy = centre(b["compass"])
        assert seats == {
            "me": bottom,
            "right": (bottom + 1) % 4,
            "top": (bottom + 2) % 4,
            "left": (bottom + 3) % 4,
        }
        assert me["y"] > max(top["y"], left["y"], right["y"]), b
        assert me["y"] >= cy, b
        assert top["y"] <= min(me["y"], left["y"], right["y"]), b
        assert top["y"] + top["height"] <= cy, b
        assert centre(right)[0] > cx > centre(left)[0], b
        assert b["r-top"]["y"] < cy < b["r-me"]["y"] + 1, b
        assert b["r-left"]["x"] < cx < b["r-right"]["x"] + b["r-right"]["width"], b
        winds = {p: centre(w) for p, w in got["winds"].items()}
        assert winds["me"][1] > cy > winds["top"][1], winds
        assert winds["left"][0] < cx < winds["right"][0], winds

    def targets(self) -> None:
        """Every visible button and every tappable tile of the own hand is at least 44×44
        CSS px; nothing scrolls sideways."""
        small = self.page.evaluate(
            """() => [...document.querySelectorAll(
                 'button, [data-act], .hand.own svg.tile[data-tile], summary')]
               .filter(e => e.getClientRects().length)
               .filter(e => getComputedStyle(e).visibility !== 'hidden')
               .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
               .filter(([, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
               .map(([h, r]) => `${h} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`)"""
        )
        assert not small, small
        no_sideways_scroll(self.page)

    def rivers(self) -> None:
        """Discards lie in rows of at most six; on the 360 px phone each is at least 24 px
        wide; at most one (the last discard) is marked, in the river of the seat the page
        says discarded last."""
        page = self.page
        rows = page.evaluate(
            "[...document.querySelectorAll('.river .rrow')]"
            ".map(r => r.querySelectorAll('svg.tile').length)"
        )
        assert all(1 <= n <= 6 for n in rows), rows
        widths = page.evaluate(
            "[...document.querySelectorAll('.river svg.tile')]"
            ".map(e => parseFloat(getComputedStyle(e).width))"  # as laid out, not mid-animation
        )
        if self.viewport["width"] <= 360:
            assert min(widths, default=24) >= 24, sorted(widths)[:5]
        marked = page.evaluate(
            """() => [...document.querySelectorAll('.river svg.tile.last')]
                 .map(e => [Number(e.closest('.river').getAttribute('data-seat')),
                            window.majiang.lastDiscard])"""
        )
        assert len(marked) <= 1, marked
        if marked:
            river, last = marked[0]
            assert river == last
            self.marked += 1

    def melds(self) -> None:
        """Each meld lies as the View says: a claimed one with one tile turned (toward the
        seat it came from, layout.js), the others with none; a concealed kong of another
        seat four backs while its tiles are hidden, two backs and two faces when shown, the
        own one all faces."""
        got = self.page.evaluate(
            """() => {
                 const g = window.majiang;
                 const out = [];
                 for (const el of document.querySelectorAll('.table .seat')) {
                   const seat = Number(el.getAttribute('data-seat'));
                   const melds = g.view.seats[seat].melds;
                   el.querySelectorAll('.meld').forEach((m, i) => out.push({
                     seat, mine: g.seat, meld: melds[i],
                     turned: m.querySelectorAll('svg.tile.turned').length,
                     backs: m.querySelectorAll('svg.tile.back').length,
                     tiles: m.querySelectorAll('svg.tile').length,
                   }));
                 }
                 return out;
               }"""
        )
        for m in got:
            meld, seat = m["meld"], m["seat"]
            claimed = meld["source"] is not None and meld["source"] != seat
            assert m["turned"] == (1 if claimed else 0), m
            if meld["kind"] == "kong_concealed":
                hidden = not meld["tiles"]
                assert m["backs"] == (4 if hidden else 0 if seat == m["mine"] else 2), m
            else:
                assert m["backs"] == 0, m

    def own_turn(self) -> None:
        """At the seat's turn: the compass lights the own wind and counts down."""
        page = self.page
        mine = page.evaluate("window.majiang.seat")
        self.targets()
        self.rivers()
        self.melds()
        lit = page.locator(".compass .w.lit")
        assert lit.count() == 1 and lit.get_attribute("data-seat") == str(mine)
        assert page.locator(".compass .countdown").count() == 1
        self.placement()
        self.turns += 1

    def claim_bar(self) -> None:
        """A claim bar is up: 胡 first, 过 last; it floats (taking the bar away moves
        nothing on the table)."""
        page = self.page
        labels = [
            x.strip() for x in page.locator(".actions button[data-act=action]").all_inner_texts()
        ]
        if not labels:
            return
        if any(x.startswith(("过", "Pass")) for x in labels):
            assert labels[-1].startswith(("过", "Pass")), labels
        if any(x.startswith(("胡", "Win")) for x in labels):
            assert labels[0].startswith(("胡", "Win")), labels
        moved = page.evaluate(
            """() => {
                 const pick = () => [
                   ...document.querySelectorAll('.seat, .river, .compass, .hand.own')
                 ].map(e => {
                   const r = e.getBoundingClientRect();
                   return [r.x, r.y, r.width, r.height].join();
                 });
                 const bar = document.querySelector('.actions');
                 const before = pick();
                 const keep = bar.innerHTML;
                 bar.innerHTML = '';
                 const after = pick();
                 bar.innerHTML = keep;
                 return before.filter((b, i) => b !== after[i]);
               }"""
        )
        assert not moved, moved
        self.targets()
        self.claims += 1


class CheckedPlayer(Player):
    """The tests' Player, measuring the table at each of its own turns and claim bars."""

    def __init__(self, page: Page, seed: int, checks: TableChecks, phone: bool) -> None:
        super().__init__(page, seed, phone=phone)
        self.checks = checks

    def step(self) -> bool:
        page = self.page
        try:
            if self.buttons():
                self.checks.claim_bar()
            elif (
                page.locator(".hand.own.turn svg.tile.h:not(.dim)").count()
                and not page.locator(".hand.own .sel").count()
            ):
                self.checks.own_turn()
            return super().step()
        except AssertionError:
            page.screenshot(path="/tmp/tbl/fail.png", full_page=True)
            raise


PLAYS = [(variant, view) for variant in VARIANTS for view in VIEWPORTS]


@pytest.mark.parametrize(("variant", "view"), PLAYS, ids=[f"{v}-{w}" for v, w in PLAYS])
def test_a_hand_at_the_table_on_every_screen(
    browser: Browser, server: Server, variant: str, view: str
) -> None:
    """One human against three bots plays a full hand by taps, the table measured at each
    of the seat's turns and claim bars, to the settlement (hainan on the English page)."""
    viewport = VIEWPORTS[view]
    with watched_page(browser, viewport) as (page, context, _):
        room = seat_me(server, context, variant)
        open_table(page, server, room)
        if variant == "hainan":  # the English page's longer words fit as well
            page.click("#lang-btn")
            page.wait_for_selector("text=Auto-play")
        # the own seat in view when the hand starts, though the waiting room was scrolled,
        # and the whole table where it fits (not under the header)
        page.wait_for_function(
            """() => { const r = document.querySelector('.seat.me').getBoundingClientRect();
                       const t = document.querySelector('.table').getBoundingClientRect();
                       const bar = document.querySelector('#bar').getBoundingClientRect();
                       const fits = t.height + bar.height <= innerHeight;
                       return r.top >= 0 && r.bottom <= innerHeight + 1
                         && (!fits || t.top >= bar.bottom - 1); }"""
        )
        checks = TableChecks(page, viewport)
        player = CheckedPlayer(
            page, seed=len(variant) + len(view), checks=checks, phone=viewport["width"] < 600
        )
        checks.targets()
        checks.placement()
        if variant == "guangdong" and view == "landscape":
            while not page.locator(".hand.own.turn, .settle").count():
                if not player.step():
                    page.wait_for_timeout(25)
            if not page.locator(".settle").count():  # unless the bots ended the hand first
                page.screenshot(path=str(SHOTS / "table-landscape.png"))
        player.play_hand()
        page.wait_for_selector(".settle .scores")
        checks.targets()  # the settlement's buttons too
        assert player.discards > 0 and checks.turns > 0
        assert checks.turns >= 1, (checks.turns, player.discards)
        no_sideways_scroll(page)
        no_raw_json(page)


def test_the_compass_follows_the_seat_to_act(browser: Browser, server: Server) -> None:
    """When it is not the viewer's decision the compass lights the seat whose turn it is
    (the View's `current`), with that seat's countdown when it has a clock (the View's
    `turn_deadline`) and the tiles left when it has none (a bot, 托管, no timer)."""
    with watched_page(browser, PORTRAIT) as (page, context, _):
        room = seat_me(server, context, "hongzhong")
        open_table(page, server, room)
        page.wait_for_selector(".hand.own.turn")
        for seat in (1, 2, 3):
            page.evaluate(
                """s => { const g = window.majiang; g.legal = []; g.view.current = s;
                         g.view.phase = 'turn'; g.view.turn_deadline = null; g.draw(); }""",
                seat,
            )
            lit = page.locator(".compass .w.lit")
            assert lit.count() == 1 and lit.get_attribute("data-seat") == str(seat)
            assert page.locator(f".seat[data-seat='{seat}'] .seat-head.turn").count() == 1
            assert page.locator(".compass .countdown").count() == 0
            assert page.inner_text(".compass .dial").strip() == str(
                page.evaluate("window.majiang.view.live")
            )
        page.evaluate(
            """() => { const g = window.majiang; g.legal = []; g.view.current = 2;
                      g.view.phase = 'turn'; g.view.turn_deadline = Date.now() + 20000;
                      g.draw(); }"""
        )
        assert page.locator(".compass .w.lit").get_attribute("data-seat") == "2"
        clock = page.locator(".compass .countdown")
        assert (
            clock.count() == 1 and 18 <= int("".join(filter(str.isdigit, clock.inner_text()))) <= 20
        )
        assert page.locator(".seat[data-seat='2'] .seat-head .countdown").count() == 1
        page.evaluate("() => { const g = window.majiang; g.view.phase = 'end'; g.draw(); }")
        assert page.locator(".compass .w.lit").count() == 0


MARK_NEW = """() => {
  const g = window.majiang;
  const key = JSON.parse(JSON.stringify(g.motionKey));
  const s = g.view.seats.findIndex((x) => x.discards.length > 0);
  key.rivers[s] -= 1;
  key.handSize -= 1;
  g.lastDiscard = s;
  g.motionKey = key;
  g.draw();
  const run = (e) => {
    if (!e) return null;
    const st = getComputedStyle(e);
    return { name: st.animationName, ms: parseFloat(st.animationDuration) * 1000 };
  };
  return {
    discard: run(document.querySelector(`.river[data-seat='${s}'] svg.tile.fresh`)),
    fresh: document.querySelectorAll(`.river svg.tile.fresh`).length,
    drawn: g.view.seats[g.seat].drawn,
    draw: run(document.querySelector('.hand.own .drawn.fresh svg.tile')),
  };
}"""
"""Draw the table as if the last discard (of a seat that has one) and the own drawn tile
had just come, as the page does when an event brings them; what each then runs."""


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced-motion"])
def test_new_tiles_animate_briefly_unless_motion_is_reduced(
    browser: Browser, server: Server, reduced: bool
) -> None:
    """The newest discard drops into its river and the drawn tile slides in, each in
    150-300 ms; with prefers-reduced-motion neither moves. Input is never held up: the
    hand is tappable while they run."""
    with watched_page(browser, DESKTOP) as (page, context, _):
        if reduced:
            page.emulate_media(reduced_motion="reduce")
        room = seat_me(server, context, "guangdong")
        open_table(page, server, room)
        player = Player(page, seed=3)
        player.until_turn()
        while not page.evaluate("window.majiang.view.seats.some(s => s.discards.length)"):
            player.step()
            player.until_turn()
        got = page.evaluate(MARK_NEW)
        assert got["fresh"] == 1 and got["discard"] is not None, got
        runs = [got["discard"], got["draw"]] if got["drawn"] else [got["discard"]]
        for run in runs:
            assert run is not None, got
            if reduced:
                assert run["name"] == "none", run
            else:
                assert run["name"] != "none" and 150 <= run["ms"] <= 300, run
        page.locator(".hand.own.turn svg.tile.h:not(.dim)").first.click()
        page.wait_for_selector(".hand.own svg.tile.h.sel")


def test_sounds_are_off_until_turned_on_and_made_by_the_page(
    browser: Browser, server: Server
) -> None:
    """No tone before the toggle; the toggle (in both languages) turns sounds on, is
    remembered across a reload, and then a hand's discards and turns make tones (Web Audio,
    no audio file fetched)."""
    with watched_page(browser, LANDSCAPE) as (page, context, _):
        context.add_init_script(SOUND_COUNTER)
        fetched: list[str] = []
        page.on("request", lambda r: fetched.append(r.url))
        room = seat_me(server, context, "hangzhou", hands=2)
        open_table(page, server, room)
        player = Player(page, seed=5)
        player.until_turn()
        assert page.evaluate("window.__tones") == 0
        toggle = page.locator("[data-act=sound]")
        assert toggle.inner_text() == "声音：关"
        toggle.click()
        page.wait_for_selector("[data-act=sound][aria-pressed=true]")
        assert page.inner_text("[data-act=sound]") == "声音：开"
        page.click("#lang-btn")
        page.wait_for_selector("[data-act=sound] >> text=Sound: on")
        page.click("#lang-btn")
        page.reload()
        page.wait_for_selector("[data-act=sound][aria-pressed=true]")
        before = page.evaluate("window.__tones")
        player.until_turn()
        for _ in range(3):
            player.step()
            if page.locator(".settle").count():
                break
            player.until_turn()
        assert page.evaluate("window.__tones") > before
        assert not [u for u in fetched if u.rsplit(".", 1)[-1] in ("mp3", "ogg", "wav", "m4a")]
        state = httpx.get(f"{server.http}/api/rooms/{room}", timeout=TIMEOUT).json()
        assert state["status"] == "playing"


TING = (Path(__file__).parent / "web_ting.js").read_text()
"""test_web.py's table set up in the page: a nine-gates hand with 听牌提示 to show."""


def test_ting_hints_toggle_in_play(browser: Browser, server: Server) -> None:
    """听牌提示 is on by default and the tools' switch turns it off and on again (the
    hints box and the marked discards go and come back), remembered in this browser."""
    with watched_page(browser, PORTRAIT) as (page, _, _):
        page.goto(f"{server.http}/")
        page.wait_for_selector("#create")
        page.evaluate(TING)
        page.wait_for_selector(".hints .ting-line")
        assert page.locator(".hand.own svg.tile.ting").count() == 4
        assert page.inner_text("[data-act=hints]") == "听牌提示：开"
        page.click("[data-act=hints]")
        page.wait_for_selector("[data-act=hints][aria-pressed=false]")
        assert page.locator(".hints, .hand.own svg.tile.ting").count() == 0
        assert page.evaluate("localStorage.getItem('majiang.hints')") == "off"
        page.evaluate(TING)  # a fresh table in this browser: still off
        page.wait_for_selector("[data-act=hints][aria-pressed=false]")
        assert page.locator(".hints").count() == 0
        page.click("[data-act=hints]")
        page.wait_for_selector(".hints .ting-line")
        assert page.locator(".hand.own svg.tile.ting").count() == 4
