"""Helpers for the browser tests: Debian's Chromium driven by Playwright (never a downloaded
browser), pages that record every console error and page error, and a player that plays a
hand by clicking what the page offers."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 860}
SHOTS = (
    Path(__file__).resolve().parents[1] / "docs" / "screenshots"
    if os.environ.get("MAJIANG_SCREENSHOTS")
    else Path(tempfile.gettempdir()) / "majiang-screenshots"
)
"""Where the tests save their screenshots: docs/screenshots with MAJIANG_SCREENSHOTS=1
(``make screenshots``), else a scratch folder, so a test run leaves the tree unchanged."""
SHOTS.mkdir(parents=True, exist_ok=True)
RAW_JSON = re.compile(r'\{\s*"|"type"\s*:|\[\s*\{')

__all__ = [
    "CHROMIUM",
    "DESKTOP",
    "PHONE",
    "SHOTS",
    "Player",
    "launch",
    "no_raw_json",
    "no_sideways_scroll",
    "watched_page",
]


def launch(pw: Playwright) -> Browser:
    """Debian's Chromium (apt-get install chromium): the tests never download a browser."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: apt-get install chromium fonts-noto-cjk")
    return pw.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu"])


class Watch:
    """What went wrong on one page: console errors, uncaught exceptions, raw JSON shown."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.expected: list[str] = []

    def expect(self, url: str) -> None:
        """A failed load of this URL is the test's own doing (an unknown room asked for)."""
        self.expected.append(url)

    def console(self, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        url = str(message.location.get("url", ""))
        if message.text.startswith("Failed to load resource") and url in self.expected:
            return
        self.errors.append(f"console: {message.text} ({message.location})")

    def page_error(self, error: Exception) -> None:
        self.errors.append(f"page error: {error}")


@contextmanager
def watched_page(
    browser: Browser, viewport: dict[str, int] = DESKTOP
) -> Iterator[tuple[Page, BrowserContext, Watch]]:
    """A page in a fresh context (its own storage: another player), whose console errors
    and page errors fail the test at the end."""
    context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    page = context.new_page()
    watch = Watch()
    page.on("console", watch.console)
    page.on("pageerror", watch.page_error)
    try:
        yield page, context, watch
        assert not watch.errors, watch.errors
    finally:
        context.close()


def no_raw_json(page: Page) -> None:
    """Nothing the server sent is shown as JSON text."""
    text = page.inner_text("body")
    found = RAW_JSON.search(text)
    assert found is None, (
        f"raw JSON on the page: ...{text[max(0, found.start() - 80) : found.end() + 80]}..."
    )


def no_sideways_scroll(page: Page) -> None:
    """The page is no wider than the screen (a phone never scrolls sideways)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None
    if width > viewport["width"]:
        wide = page.evaluate(
            """w => [...document.querySelectorAll('body *')]
                 .filter(e => e.getBoundingClientRect().right > w)
                 .slice(0, 5).map(e => e.outerHTML.slice(0, 100))""",
            viewport["width"],
        )
        raise AssertionError(f"horizontal scroll: {width} > {viewport['width']}: {wide}")


class Player:
    """Plays one seat's page by clicks only: a claim or win button among those offered (a
    win when there is one), else a discard by tapping a tile twice."""

    def __init__(self, page: Page, seed: int, phone: bool = False) -> None:
        self.page = page
        self.rng = random.Random(seed)
        self.phone = phone
        self.discards = 0
        self.claims = 0
        self.claim_shot: Path | None = None
        self.restricted = 0
        """How often the page showed restrictions in force and the rules panel listed them."""

    def buttons(self) -> list[str]:
        return self.page.locator(".actions button[data-act=action]").all_inner_texts()

    def step(self) -> bool:
        """One decision if the page offers one; False when there is nothing to do."""
        page = self.page
        if self.restricted < 2 and page.locator(".why .chip").count():
            self.check_restrictions()
        labels = self.buttons()
        if labels:
            if self.claim_shot is not None:
                page.screenshot(path=str(self.claim_shot))
                self.claim_shot = None
            wins = [i for i, label in enumerate(labels) if label.strip().startswith(("胡", "Win"))]
            pick = wins[0] if wins else self.rng.randrange(len(labels))
            drawn = self.acted()
            try:
                page.locator(".actions button[data-act=action]").nth(pick).click(timeout=3000)
            except Exception:  # the page moved on (the window closed): look again
                return True
            self.claims += 1
            self.redrawn(drawn)
            return True
        tiles = page.locator(".hand.own.turn svg.tile.h:not(.dim)")
        count = tiles.count()
        if not count:
            return False
        if self.phone:
            self.check_fits()
        if self.discards % 4 == 1:
            self.check_view()
        try:
            tiles.nth(self.rng.randrange(count)).click(timeout=3000)
            drawn = self.acted()
            page.locator(".hand.own.turn svg.tile.h.sel").first.click(timeout=3000)
        except Exception:  # the turn ended meanwhile (a timeout, a win): look again
            return True
        self.discards += 1
        self.redrawn(drawn)
        return True

    def check_restrictions(self) -> None:
        """What the server says is in force for the seat (its messages' ``restrictions``)
        is on the table by name, and the rules panel lists each with its reason."""
        page = self.page
        told = page.evaluate("window.majiang.restrictions.map(r => r.id)")
        if not told:
            return
        chips = page.locator(".why .chip").count()
        page.click(".why")
        items = page.locator("#overlay .in-force li:not(.muted)").all_inner_texts()
        page.keyboard.press("Escape")
        page.wait_for_selector("#overlay", state="hidden")
        assert chips == len(told) == len(items), (told, items)
        assert all(len(item) > 8 for item in items), items  # a name and a sentence
        self.restricted += 1

    def check_view(self) -> None:
        """The View the page keeps from the events equals a fresh snapshot's (asked for in
        the seat's turn, when nothing moves): what the table shows is what the server says."""
        page = self.page
        before = page.evaluate("JSON.stringify(window.majiang.view)")
        count = page.evaluate("window.majiang.snapshots")
        page.evaluate("window.majiang.send({type: 'snapshot'})")
        page.wait_for_function("n => window.majiang.snapshots > n", arg=count)
        after = page.evaluate("JSON.stringify(window.majiang.view)")
        assert json.loads(before) == json.loads(after), (before, after)

    def acted(self) -> int:
        """Actions the page has sent."""
        return int(self.page.evaluate("window.majiang.acted"))

    def redrawn(self, before: int) -> None:
        """Wait until the page has sent the action clicked and drawn the screen after it
        (before the test reads the screen again)."""
        with contextlib.suppress(PlaywrightTimeout):  # the click came too late to act
            self.page.wait_for_function(
                "n => window.majiang.drawnActed > n", arg=before, timeout=5000
            )

    def check_fits(self) -> None:
        """The whole hand is on screen: no horizontal scrolling, every tile inside."""
        page = self.page
        no_sideways_scroll(page)
        viewport = page.viewport_size
        assert viewport is not None
        right = page.evaluate(
            "Math.max(...[...document.querySelectorAll('.hand.own svg.tile')]"
            ".map(e => e.getBoundingClientRect().right))"
        )
        assert right <= viewport["width"], f"a tile ends at {right}px"

    def until_turn(self, timeout: float = 60) -> None:
        """Answer what is offered until the seat's own turn to discard."""
        page = self.page
        end = time.monotonic() + timeout
        while not page.locator(".hand.own.turn").count():
            assert time.monotonic() < end, "the seat's turn did not come"
            assert not page.locator(".settle").count(), "the hand ended first"
            if self.buttons():
                self.step()
            else:
                page.wait_for_timeout(25)

    def play_hand(self, timeout: float = 90) -> None:
        """Decide until the page shows the hand's settlement."""
        page = self.page
        end = time.monotonic() + timeout
        n = 0
        while time.monotonic() < end:
            if page.locator(".settle").count():
                return
            if not self.step():
                page.wait_for_timeout(25)
            n += 1
            if n % 40 == 0:
                no_raw_json(page)
        state = page.evaluate(
            "(() => { const g = window.majiang; return JSON.stringify({seq: g.seq, legal: g.legal,"
            " waiting: g.waitingSnapshot, ws: g.ws && g.ws.readyState, acted: g.acted,"
            " drawn: g.drawnActed, phase: g.view && g.view.phase}); })()"
        )
        raise AssertionError(
            f"no settlement after {timeout} s: {state}\n{page.inner_text('body')[:600]}"
        )
