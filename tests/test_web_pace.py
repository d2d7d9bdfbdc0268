"""托管 at the room's bot pace in the browser (issue 34): a player who looks away is put on
托管 by the turn timer, and the match does not race to its 总结算; the seat's screen says
托管中 with a large 取消托管, which gives the seat back. Debian's Chromium against a real
``majiang serve`` (tests/webkit.py)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page
from test_server import TIMEOUT, Server, serve_sqlite
from webkit import PHONE, SHOTS, Player, no_raw_json, no_sideways_scroll, watched_page

PACE = [300, 600]
"""The room's bot pace: short, so the test is, but a pace a person can follow."""
AWAY = 12.0
"""How long the player stays away once on 托管. Before the pace, 托管 finished the rest of
an 8-hand match within seconds of the timeout."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve_sqlite(tmp_path_factory, "pace")


def sit(page: Page, server: Server, body: dict[str, object]) -> str:
    """Create a room by the API, hold its seat 0 in this browser, open its page."""
    r = httpx.post(f"{server.http}/api/rooms", json=body, timeout=TIMEOUT)
    assert r.status_code == 201, r.text
    room, token = r.json()["room"], r.json()["token"]
    page.goto(f"{server.http}/")
    held = json.dumps({"seat": 0, "token": token, "name": "Ann"})
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"majiang.seat.{room}", held])
    page.goto(f"{server.http}/?room={room}")
    page.wait_for_selector(".seats")
    return room


def state(server: Server, room: str) -> dict[str, object]:
    got: dict[str, object] = httpx.get(f"{server.http}/api/rooms/{room}", timeout=TIMEOUT).json()
    return got


def test_a_player_who_looks_away_is_played_at_the_pace_and_takes_the_seat_back(
    browser: Browser, server: Server
) -> None:
    """An 8-hand room, 5 s timer, three bots at [300, 600] ms: the player does nothing, the
    timer puts the seat on 托管, and 12 s later the match is still in its first hands (not at
    its 总结算); the seat's screen shows 托管中 with a 取消托管 button at least 44 px tall and
    bots named by wind and level; 取消托管 gives the seat back: its own turn comes with its
    legal discards, no 托管 mark, and a tapped discard is played."""
    body = {
        "variant": "guangdong",
        "hands": 8,
        "turn_seconds": 5,
        "name": "Ann",
        "bots": {"1": "greedy", "2": "greedy", "3": "greedy"},
        "bot_delay_ms": PACE,
    }
    with watched_page(browser, PHONE) as (page, _, _):
        room = sit(page, server, body)
        page.click("[data-act=ready]")
        page.wait_for_function("() => window.majiang.room.seats[0].auto", timeout=30_000)
        away = time.monotonic()
        overlay = page.locator(".auto-overlay")
        overlay.wait_for()
        assert "托管中" in overlay.inner_text()
        cancel = overlay.locator("button[data-act=auto]")
        assert cancel.inner_text().strip() == "取消托管"
        box = cancel.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 120, box
        text = page.inner_text("body")
        dealer = page.evaluate("window.majiang.view.dealer")
        for seat in (1, 2, 3):  # each bot: its wind in the hand marks it, its name its level
            head = page.inner_text(f".seat[data-seat='{seat}'] .seat-head")
            assert "东南西北"[(seat - dealer) % 4] in head and "机器人(普通)" in head, head
        assert "greedy" not in text
        no_sideways_scroll(page)
        no_raw_json(page)
        page.screenshot(path=str(SHOTS / "auto-phone.png"))
        while time.monotonic() - away < AWAY:  # the player is away: the match must not end
            now = state(server, room)
            assert now["status"] == "playing", now
            assert not page.locator("text=总结算").count()
            page.wait_for_timeout(250)
        now = state(server, room)
        assert now["status"] == "playing" and isinstance(now["hand_index"], int)
        assert now["hand_index"] <= 1, now  # at most one hand in 12 s at this pace
        assert now["seats"][0]["auto"] is True  # type: ignore[index]
        page.locator(".auto-overlay button[data-act=auto]").click()
        page.wait_for_function("() => !window.majiang.room.seats[0].auto", timeout=10_000)
        page.wait_for_selector(".auto-overlay", state="detached")
        if page.locator(".settle [data-act=ready]").count():
            page.click(".settle [data-act=ready]")  # taken back between hands: ready
        player = Player(page, 1, phone=True)
        player.until_turn(timeout=60)
        legal = page.evaluate("window.majiang.legal")
        assert any(a["type"] == "discard" and a["seat"] == 0 for a in legal), legal
        assert state(server, room)["seats"][0]["auto"] is False  # type: ignore[index]
        assert page.locator(".auto-overlay").count() == 0
        assert page.locator(".tools [data-act=auto]").inner_text().strip() == "托管"
        acted = page.evaluate("window.majiang.acted")
        tiles = page.locator(".hand.own.turn svg.tile.h:not(.dim)")
        tiles.first.click()
        page.locator(".hand.own.turn svg.tile.h.sel").first.click()
        page.wait_for_function("n => window.majiang.acted > n", arg=acted)
        page.wait_for_selector(".hand.own.turn", state="detached")
        toast = page.locator("#toast")
        assert not toast.count() or "出错" not in toast.inner_text()
        assert state(server, room)["seats"][0]["auto"] is False  # type: ignore[index]
