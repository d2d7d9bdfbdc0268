"""The browser client's own defects (issue 34) in Debian's Chromium against a real
`majiang serve`: a dropped connection shown until the seat is live again, a double tap
that sends one action, a tile that may not be discarded saying why, the lobby's way back
to a room, the replay viewer on a phone."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page
from test_server import TIMEOUT, Server, serve_sqlite
from webkit import (
    PHONE,
    SHOTS,
    Player,
    Watch,
    no_raw_json,
    no_sideways_scroll,
    watched_page,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve_sqlite(tmp_path_factory, "web-client")


def make_room(server: Server, variant: str, hands: int = 1, turn: int = 90) -> dict[str, str]:
    """A room of one human (seat 0) and three greedy bots, made over HTTP: its number and
    the human's seat ``{room, seat, token}``."""
    body = {
        "variant": variant,
        "name": "Ann",
        "hands": hands,
        "turn_seconds": turn,
        "bots": {"1": "greedy", "2": "greedy", "3": "greedy"},
    }
    made: dict[str, str] = httpx.post(f"{server.http}/api/rooms", json=body, timeout=TIMEOUT).json()
    return made


def take_seat(page: Page, server: Server, made: dict[str, str]) -> None:
    """Keep the seat's token where the page keeps it (as the lobby does), open the room and
    press ready: the table comes up."""
    page.goto(f"{server.http}/")
    page.wait_for_selector("#create")
    held = json.dumps({"seat": made["seat"], "token": made["token"], "name": "Ann"})
    page.evaluate(
        "([key, held]) => localStorage.setItem(key, held)",
        [f"majiang.seat.{made['room']}", held],
    )
    page.goto(f"{server.http}/?room={made['room']}")
    page.click("[data-act=ready]")
    page.wait_for_selector(".table")


def sent_frames(page: Page) -> list[dict[str, object]]:
    """Every message the page sends on its WebSockets, in order (filled as they go)."""
    frames: list[dict[str, object]] = []

    def on_socket(ws: object) -> None:
        ws.on("framesent", lambda payload: frames.append(json.loads(payload)))  # type: ignore[attr-defined]

    page.on("websocket", on_socket)
    return frames


def flush(page: Page, frames: list[dict[str, object]]) -> None:
    """Wait until every frame the page has sent so far has been seen here, and the server
    has answered all of them: a snapshot asked now comes back after them."""
    count = page.evaluate("window.majiang.snapshots")
    marks = sum(1 for f in frames if f.get("type") == "snapshot")
    page.evaluate("window.majiang.send({type: 'snapshot'})")
    end = time.monotonic() + 10
    while sum(1 for f in frames if f.get("type") == "snapshot") <= marks:
        assert time.monotonic() < end, "the page's frame was not seen"
        page.wait_for_timeout(10)
    page.wait_for_function("n => window.majiang.snapshots > n", arg=count, timeout=10000)


def forgive_outage(watch: Watch) -> None:
    """The console errors of the server being away on purpose (refused fetches and socket
    connections) are the test's own doing; any other error still fails it."""
    outage = ("ERR_CONNECTION_REFUSED", "WebSocket connection to", "net::ERR_")
    watch.errors[:] = [e for e in watch.errors if not any(o in e for o in outage)]


def test_a_dropped_connection_is_shown_until_the_seat_is_live_again(
    browser: Browser, tmp_path: Path
) -> None:
    """The server goes away in the seat's turn: a banner within 2 s that is still there
    4 s later, the clock no longer counting, taps refused in words and nothing sent; the
    server comes back on the same port and database: the banner goes and the seat plays
    the hand to its end."""
    srv = Server(f"sqlite:///{tmp_path / 'rooms.db'}", "--rooms-per-address", "200").start()
    try:
        assert srv.proc is not None and srv.proc.stdout is not None
        last = srv.proc.stdout.readline()  # `make run` shows this line last: where to go
        assert last.startswith(f"请在浏览器打开 {srv.http}/"), last
        with watched_page(browser) as (page, _, watch):
            made = make_room(srv, "guangdong")
            frames = sent_frames(page)
            take_seat(page, srv, made)
            player = Player(page, seed=5)
            player.until_turn()
            assert page.locator(".compass .countdown[data-deadline]").count() == 1
            srv.stop()
            page.wait_for_selector(".banner.warn", timeout=2000)
            page.wait_for_timeout(4000)  # the banner must outlast the reconnect attempts
            assert page.locator(".banner.warn").is_visible()
            assert "重连" in page.inner_text(".banner.warn")
            assert page.locator(".countdown[data-deadline]").count() == 0  # no clock runs
            assert "轮到你" not in page.inner_text(".table")
            acted = page.evaluate("window.majiang.acted")
            sent = len(frames)
            tile = page.locator(".hand.own svg.tile").first
            tile.click()
            tile.click()
            page.wait_for_selector("#toast:not([hidden])")
            assert "正在重新连接" in page.inner_text("#toast")
            assert page.locator("button[data-act=auto]").is_disabled()
            assert page.evaluate("window.majiang.acted") == acted
            assert len(frames) == sent
            srv.start()
            page.wait_for_selector(".banner.warn", state="detached", timeout=20000)
            page.wait_for_selector(".hand.own.turn")
            before = player.discards
            player.play_hand()
            assert player.discards > before
            no_raw_json(page)
            forgive_outage(watch)
    finally:
        srv.stop()


def action_frames(frames: list[dict[str, object]]) -> list[dict[str, object]]:
    return [f for f in frames if f.get("type") == "action"]


def test_a_double_tap_sends_one_action(browser: Browser, server: Server) -> None:
    """Every claim or turn button offered in a hand (chi, peng, kong, hu, pass as they
    come; a second hand if the first offered none) is double-tapped, and so is a tile to
    discard: each time exactly one `action` message leaves the page, and no error comes
    back."""
    tapped: dict[str, int] = {}
    with watched_page(browser) as (page, _, _):
        made = make_room(server, "hainan", hands=2)
        frames = sent_frames(page)
        take_seat(page, server, made)
        player = Player(page, seed=11)
        end = time.monotonic() + 150
        tiles_tapped = 0
        while time.monotonic() < end:
            if page.locator(".settle").count():
                if tapped or page.locator(".settle [data-act=ready]").count() == 0:
                    break  # a whole hand with claims in it, or the match is over
                page.click(".settle [data-act=ready]")
                page.wait_for_selector(".table")
                continue
            buttons = page.locator(".actions button[data-act=action]")
            labels = [x.strip() for x in buttons.all_inner_texts()]
            tiles = page.locator(".hand.own.turn svg.tile.h:not(.dim)")
            if not labels and not tiles.count():
                page.wait_for_timeout(25)
                continue
            before = len(action_frames(frames))
            drawn = player.acted()
            kinds = page.evaluate(
                "window.majiang.legal.filter(a => a.type !== 'discard').map(a => a.type)"
            )
            if labels and len(kinds) == len(labels):
                fresh = [i for i, k in enumerate(kinds) if k not in tapped]
                i = fresh[0] if fresh else player.rng.randrange(len(kinds))
                try:
                    buttons.nth(i).dblclick(timeout=3000)
                except Exception:  # the window closed meanwhile: look again
                    continue
                what = kinds[i]
            elif tiles.count():
                try:
                    tiles.nth(player.rng.randrange(tiles.count())).dblclick(timeout=3000)
                except Exception:
                    continue
                what = "discard"
            else:
                page.wait_for_timeout(25)
                continue
            if player.acted() == drawn:  # the page had moved on: nothing was sent
                continue
            player.redrawn(drawn)
            flush(page, frames)
            sent = action_frames(frames)[before:]
            assert len(sent) == 1, (what, sent)
            assert sent[0].get("action"), sent
            toast = page.locator("#toast:not([hidden])")
            assert not toast.count() or "出错" not in toast.inner_text(), toast.inner_text()
            if what == "discard":
                tiles_tapped += 1
            else:
                tapped[what] = tapped.get(what, 0) + 1
        assert tapped, "no claim or turn button was offered in the match"
        assert tiles_tapped, "no tile was double-tapped"
        no_raw_json(page)
    print(f"double-tapped: {tapped}, tiles {tiles_tapped}")


GOLDEN = Path(__file__).parent / "golden"


def test_the_replay_viewer_is_readable_on_a_phone(browser: Browser, server: Server) -> None:
    """A record opened in the replay viewer on a 360 px phone: no sideways scroll at the
    deal, mid-hand and at the settlement; every face-up tile at least 20 px wide; the
    step buttons big enough to tap."""
    record = json.loads((GOLDEN / "HZ-1.json").read_text())["record"]
    path = Path(tempfile.mkdtemp()) / "HZ-1.json"
    path.write_text(json.dumps(record))
    with watched_page(browser, PHONE) as (page, _, _):
        page.goto(f"{server.http}/replay")
        page.set_input_files("#record-file", str(path))
        page.wait_for_selector(".replay .table")
        for _ in range(3):
            no_sideways_scroll(page)
            widths = page.locator(".replay .table svg.tile").evaluate_all(
                "els => els.filter(e => e.getClientRects().length)"  # shown ones
                ".map(e => e.getBoundingClientRect().width)"
            )
            assert widths and min(widths) >= 20, sorted(widths)[:5]
            for box in page.locator(".replay-nav button").evaluate_all(
                "els => els.map(e => [e.getBoundingClientRect().width,"
                " e.getBoundingClientRect().height])"
            ):
                assert min(box) >= 44, box
            page.screenshot(path=str(SHOTS / "replay-phone.png"), full_page=True)
            page.click("#next")
            page.keyboard.press("End")
        no_raw_json(page)


def test_the_lobby_offers_the_way_back_to_my_room(browser: Browser, server: Server) -> None:
    """A browser holding a seat's token sees 回到我的房间 for that room in the lobby
    (Back to my room in English) and is taken to its seat; a token of a room the server
    does not know is not offered and is forgotten."""
    made = make_room(server, "hongzhong")
    with watched_page(browser) as (page, _, watch):
        page.goto(f"{server.http}/")
        page.wait_for_selector("#create")
        assert page.locator(".my-rooms").count() == 0  # nothing held yet
        held = json.dumps({"seat": made["seat"], "token": made["token"], "name": "Ann"})
        page.evaluate(
            "([key, held]) => { localStorage.setItem(key, held);"
            " localStorage.setItem('majiang.seat.999999', held); }",
            [f"majiang.seat.{made['room']}", held],
        )
        watch.expect(f"{server.http}/api/rooms/999999")
        page.reload()
        link = page.locator(f".my-rooms a[data-room='{made['room']}']")
        link.wait_for()
        assert link.inner_text() == "回到我的房间"
        assert made["room"] in page.inner_text(".my-rooms")
        assert "红中" in page.inner_text(".my-rooms")
        assert page.locator(".my-rooms a[data-room='999999']").count() == 0
        assert page.evaluate("localStorage.getItem('majiang.seat.999999')") is None
        page.click("#lang-btn")
        assert page.locator(f".my-rooms a[data-room='{made['room']}']").inner_text() == (
            "Back to my room"
        )
        page.click("#lang-btn")
        page.click(f".my-rooms a[data-room='{made['room']}']")
        page.wait_for_selector("[data-act=ready]")  # the seat's own waiting room
        assert page.locator(".seatrow .badge.you").count() == 1
        no_raw_json(page)


GREYED = (Path(__file__).parent / "web_greyed.js").read_text()
"""The greyed-tile test's table (hangzhou, 抓打 in force), set up in the page."""


def test_a_greyed_tile_says_why_it_may_not_be_discarded(browser: Browser, server: Server) -> None:
    """Under 抓打 only the drawn tile may go: the others are greyed, and tapping one says
    why in the declared words (the seat that threw the wild by name) instead of selecting
    it; in English too. The tile that may go is selected as before."""
    variants = httpx.get(f"{server.http}/api/variants", timeout=TIMEOUT).json()
    declared = {
        r["id"]: r for r in next(v for v in variants if v["id"] == "hangzhou")["restrictions"]
    }
    zhuada = declared["zhuada"]
    assert "discard" in zhuada["limits"]
    with watched_page(browser) as (page, _, _):
        page.goto(f"{server.http}/")
        page.wait_for_selector("#create")
        page.evaluate(GREYED)
        page.wait_for_selector(".hand.own.turn")
        greyed = page.locator(".hand.own svg.tile.dim")
        assert greyed.count() == 13
        assert page.locator(".hand.own svg.tile:not(.dim)").get_attribute("data-tile") == "9m"
        greyed.first.click()
        page.wait_for_selector("#toast:not([hidden])")
        said = page.inner_text("#toast")
        page.screenshot(path=str(SHOTS / "greyed-reason.png"))
        assert said.startswith("这张现在不能打："), said
        head, tail = zhuada["now"]["zh"].split("{}")
        assert f"Bo{head}" in said.replace(" ", "") or ("Bo" in said and tail.strip() in said)
        assert page.locator(".hand.own svg.tile.sel").count() == 0  # not selected
        page.click("#lang-btn")  # the page's own screen is the lobby's: draw the table again
        page.evaluate("window.majiang.draw()")
        page.wait_for_selector(".hand.own.turn")
        page.locator(".hand.own svg.tile.dim").first.click()
        page.wait_for_function(
            "() => document.getElementById('toast').textContent.startsWith('You may not')"
        )
        said = page.inner_text("#toast")
        assert "Bo" in said and zhuada["now"]["en"].split("{}")[1].strip()[:30] in said, said
        page.click("#lang-btn")
        page.evaluate("window.majiang.draw()")
        page.wait_for_selector(".hand.own.turn")
        page.click(".hand.own svg.tile[data-tile='9m']")
        page.wait_for_selector(".hand.own svg.tile.sel")
        # a discard of 1z the ready hand waits on, no 胡 offered: 漏胡 says why, in a line
        page.evaluate(
            """() => { const g = window.majiang; const v = g.view;
            Object.assign(v.seats[0], { hand: "123m456p789s1122z", drawn: null, hand_size: 13 });
            v.seats[1].discards.push("1z");
            Object.assign(v, { phase: "claim", current: 1, window_tile: "1z", window_from: 1 });
            g.legal = [{ seat: 0, type: "pass" }];
            g.restrictions = [{ id: "missed_win", detail: "1z" }];
            g.draw(); }"""
        )
        line = page.locator(".missed[data-missed=hu]")
        line.wait_for()
        words = declared["missed_win"]["now"]["zh"].split("{}")
        assert line.inner_text().startswith("没有胡：") and words[1].strip() in line.inner_text()
        assert line.locator("svg.tile").get_attribute("aria-label") == "东"
        no_raw_json(page)


def test_every_restriction_says_what_it_limits(server: Server) -> None:
    """GET /api/variants gives each restriction's declared ``limits`` (what a front end
    explains a missing choice with); the discard-limiting ones are those that take tiles
    out of a turn's discards (hangzhou's 抓打, hainan's last tile)."""
    from majiang.rules import VARIANTS

    variants = httpx.get(f"{server.http}/api/variants", timeout=TIMEOUT).json()
    discard = set()
    for v in variants:
        for r in v["restrictions"]:
            assert r["limits"] == list(VARIANTS[v["id"]].restriction(r["id"]).limits)
            assert set(r["limits"]) <= {"discard", "win", "claim", "kong"}
            if "discard" in r["limits"]:
                discard.add((v["id"], r["id"]))
        wins = [r["id"] for r in v["restrictions"] if "win" in r["limits"]]
        assert "no_discard_win" in wins, v["id"]  # a refused discard win is always explained
    assert discard == {("hangzhou", "zhuada"), ("hainan", "last_tile")}
