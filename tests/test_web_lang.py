"""Chinese throughout (issue 34 item 2): for every variant and both languages, a player walks
every screen of the browser game (the lobby with that variant's form, the rules panel, the
waiting room, the table mid-hand, the settlement of a finished hand with 总结算, the replay
viewer) and no visible text is an id or a string of the other language.

What counts as visible: the text of every rendered element (a closed ``<details>`` is opened
first, a select's choices count), plus the ``title``, ``aria-label``, ``placeholder`` and
``alt`` attributes. Tile faces are SVG drawings of Chinese characters on both pages, so
text inside an ``<svg>`` is left out (a tile's ``aria-label``, its name, is checked).

Allowed on the Chinese page: digits and signs, and ``EN``, the language switch, which names
the other language. Allowed on the English page: ``中文``, the same switch. Ids are those
``GET /api/variants`` and ``GET /api/bots`` name: option ids, choice ids, pattern ids, item
kinds and reasons (terms), restriction and reserved ids, bot ids. On the English page an id
that is also an English word of the declarations (``random``, ``kong``) cannot be told from
the word and is let through; every other id (``winner_next``, ``chengbao``, ``greedy``) fails.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page
from test_server import TIMEOUT, Server, serve_sqlite
from webkit import DESKTOP, Player, watched_page

from majiang.rules import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "majiang" / "server" / "static"

ALLOWED = {"zh": ("EN",), "en": ("中文",)}
"""The language switch names the other language in that language (see the module doc)."""

LATIN = re.compile(r"[A-Za-z]")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
SEAT_NUMBER = re.compile(r"\bS[0-3]\b")

VISIBLE = """() => {
  for (const d of document.querySelectorAll("details")) d.open = true;
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = n.textContent.trim();
    if (!el || !text || el.closest("svg, script, style, template")) continue;
    const select = el.closest("select");
    if (select) {
      if (select.getClientRects().length) out.push(text);
      continue;
    }
    if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    out.push(text);
  }
  for (const el of document.querySelectorAll("[title], [aria-label], [placeholder], [alt]")) {
    if (el.parentElement && el.parentElement.closest("svg")) continue;
    if (!el.getClientRects().length) continue;
    for (const a of ["title", "aria-label", "placeholder", "alt"]) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push(v.trim());
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve_sqlite(tmp_path_factory, "web-lang")


def _english_words(variants: list[dict[str, object]]) -> set[str]:
    """Every word of every English text the declarations send."""
    words: set[str] = set()

    def walk(value: object, english: bool) -> None:
        if isinstance(value, str):
            if english:
                words.update(w.lower() for w in re.findall(r"[A-Za-z]+", value))
        elif isinstance(value, list):
            for x in value:
                walk(x, english)
        elif isinstance(value, dict):
            for k, x in value.items():
                walk(x, k in ("en", "name", "doc", "rule", "value", "readings"))

    walk(variants, False)
    return words


@pytest.fixture(scope="module")
def ids(server: Server) -> dict[str, set[str]]:
    """The ids a player must never read, per page language."""
    variants = httpx.get(f"{server.http}/api/variants", timeout=TIMEOUT).json()
    bots = httpx.get(f"{server.http}/api/bots", timeout=TIMEOUT).json()
    found: set[str] = set(bots)
    for v in variants:
        found.add(v["id"])
        for o in v["options"]:
            found.add(o["id"])
            found.update(c for c in o.get("choices") or [] if isinstance(c, str))
        found.update(p["id"] for p in v.get("patterns") or [])
        found.update(v.get("terms") or {})
        found.update(r["id"] for r in v.get("restrictions") or [])
        found.update(r["id"] for r in v.get("reserved") or [])
    words = _english_words(variants)
    english = {
        i for i in found if "_" in i or "+" in i or not re.fullmatch(r"[a-z]+", i) or i not in words
    }
    return {"zh": found, "en": english}


def offending(texts: list[str], lang: str, ids: set[str]) -> list[str]:
    """The texts a player of ``lang`` should not read, each with why."""
    bad = []
    for text in texts:
        rest = text
        for token in ALLOWED[lang]:
            rest = rest.replace(token, "")
        if lang == "zh" and LATIN.search(rest):
            bad.append(f"Latin letters: {text!r}")
        if lang == "en" and CJK.search(rest):
            bad.append(f"Chinese characters: {text!r}")
        if lang == "en" and SEAT_NUMBER.search(rest):
            bad.append(f"a seat by number: {text!r}")
        for ident in ids:
            if re.search(rf"(?<![A-Za-z0-9_+]){re.escape(ident)}(?![A-Za-z0-9_+])", rest):
                bad.append(f"the id {ident!r}: {text!r}")
    return bad


class Walk:
    """One page in one language, checked screen by screen."""

    def __init__(self, page: Page, lang: str, ids: set[str]) -> None:
        self.page = page
        self.lang = lang
        self.ids = ids
        self.screens: list[str] = []

    def check(self, screen: str) -> None:
        texts: list[str] = self.page.evaluate(VISIBLE)
        assert texts, f"{screen}: nothing visible"
        bad = offending(texts, self.lang, self.ids)
        assert not bad, f"{screen} ({self.lang}):\n" + "\n".join(sorted(set(bad))[:40])
        self.screens.append(screen)

    def rules_panel(self, screen: str) -> None:
        page = self.page
        page.click("#rules-btn")
        page.wait_for_selector("#overlay .panel")
        self.check(f"{screen}: rules panel")
        page.keyboard.press("Escape")
        page.wait_for_selector("#overlay", state="hidden")


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_screen_speaks_one_language_and_shows_no_id(
    browser: Browser, server: Server, ids: dict[str, set[str]], variant: str, lang: str
) -> None:
    with watched_page(browser, DESKTOP) as (page, context, _):
        if lang == "en":
            context.add_init_script("localStorage.setItem('majiang.lang', 'en')")
        walk = Walk(page, lang, ids[lang])
        # the lobby with this variant's form, choices set away from their defaults
        page.goto(f"{server.http}/")
        page.wait_for_selector("#create")
        page.select_option("#variant", variant)
        page.wait_for_selector(f"#create[data-variant={variant}]")
        walk.check("lobby")
        walk.rules_panel("lobby")
        info = next(
            v
            for v in httpx.get(f"{server.http}/api/variants", timeout=TIMEOUT).json()
            if v["id"] == variant
        )
        for o in info["options"]:
            if o["kind"] == "choice":
                page.select_option(f"[data-opt={o['id']}]", index=len(o["choices"]) - 1)
        page.fill("#hands", "1")
        page.fill("#turn", "0")
        for seat in (1, 2, 3):
            page.select_option(f"#seat-{seat}", "greedy")
        page.fill("#name", "007")  # a name of no language: the page shows it as given
        page.click("#create-btn")
        # the waiting room: variant, 局数, timer, every option by name
        page.wait_for_selector(".seats")
        page.wait_for_selector(".room-info")
        room = page.url.split("room=")[1]
        info_text = page.inner_text(".room-info")
        for o in info["options"]:
            assert (o["zh"] if lang == "zh" else o["en"]) in info_text
        walk.check("waiting room")
        # the table mid-hand: the seat's own turn, two discards by taps, the rules panel
        page.click("[data-act=ready]")
        page.wait_for_selector(".table")
        walk.check("table, dealt")
        player = Player(page, seed=34)
        for _ in range(2):
            if page.locator(".settle").count():
                break
            player.until_turn()
            walk.check("table, own turn")
            player.step()
        if not page.locator(".settle").count():
            walk.check("table")
            walk.rules_panel("table")
            # 托管 plays the hand out; on a busy machine the hand may have ended meanwhile, or
            # the timer put the seat on 托管 already (the tools then offer no 托管 to press)
            page.evaluate(
                "() => { const b = document.querySelector('.tools [data-act=auto]');"
                " if (b) b.click(); }"
            )
        # the finished hand's settlement (explained) and 总结算
        page.wait_for_selector(".scores.final", timeout=90_000)
        page.wait_for_selector(".settle .allhands", timeout=10_000)
        walk.check("settlement and final results")
        # the replay viewer: a few steps, the hand's end, the rules panel
        page.click(f"a[href='/replay/{room}']")
        page.wait_for_selector(".replay .table")
        walk.check("replay")
        frames = int(page.evaluate("window.majiang.data.hands[0].frames.length"))
        for step in range(1, frames):  # every action and window on the way, a sample of them
            page.keyboard.press("ArrowRight")
            if step % 12 == 3:
                walk.check(f"replay, step {step + 1}")
        page.keyboard.press("End")
        page.wait_for_selector(".replay .settle")
        walk.check("replay, the hand's end")
        walk.rules_panel("replay")
        # every kind of screen was read (a short hand has fewer turns and replay steps)
        kinds = {"lobby", "waiting room", "table, dealt", "settlement and final results", "replay"}
        kinds |= {"replay, the hand's end"}
        assert kinds <= set(walk.screens), walk.screens
        assert any("rules panel" in s for s in walk.screens), walk.screens


def _server_codes() -> set[str]:
    """Every error code the server can send a player (HTTP bodies, WebSocket errors)."""
    code = r"\"([a-z_]+)\""
    patterns = [
        rf"ApiError\(\s*\d+,\s*{code}",
        rf"WebError\(\s*\d+,\s*{code}",
        rf"RoomError\(\s*{code}",
        rf"refuse\(\s*(?:websocket,\s*|ws,\s*)?{code}",
        rf"_error\(\s*\d+,\s*{code}",
    ]
    found: set[str] = set()
    for path in (ROOT / "majiang" / "server").glob("*.py"):
        text = path.read_text()
        for p in patterns:
            found.update(re.findall(p, text))
        found.update(re.findall(r"\d{3}: \"([a-z_]+)\"", text))  # {404: "not_found", …}
    return found


def test_every_error_code_has_a_sentence_in_both_languages() -> None:
    """The page shows a refusal by its code's sentence (words.js ERRORS), never the server's
    English detail on the Chinese page: every code the server sends has one."""
    words = (STATIC / "words.js").read_text()
    table = words[words.index("export const ERRORS") :]
    table = table[: table.index("};")]
    known = set(re.findall(r"^\s+\"?([a-z_]+)\"?: \[", table, re.MULTILINE))
    codes = _server_codes()
    assert {"room_full", "illegal", "bad_option", "rate_limited", "bad_token"} <= codes
    assert codes - {"http"} <= known, sorted(codes - known)


def test_variants_send_every_word_in_both_languages(server: Server) -> None:
    """`GET /api/variants` carries the declarations' words (docs/protocol.md): each option's
    hint in Chinese and its choices' names, each rule, pattern value and reading in Chinese."""
    variants = httpx.get(f"{server.http}/api/variants", timeout=TIMEOUT).json()
    for v in variants:
        d = VARIANTS[v["id"]]
        for o, opt in zip(v["options"], d.options, strict=True):
            assert o["doc"] == opt.doc and o["doc_zh"] == opt.doc_zh
            names = [(n["zh"], n["en"]) for n in o.get("choice_names") or []]
            assert names == (list(opt.choice_names) if opt.kind == "choice" else [])
        rules = {r["id"]: (r["rule_zh"], r["rule"]) for r in v["restrictions"]}
        assert rules == {r.id: (r.rule_zh, r.rule) for r in d.restrictions}
        values = {p["id"]: (p["value_zh"], p["value"]) for p in v["patterns"]}
        assert values == {p: (d.pattern_values_zh[p], d.pattern_values[p]) for p in d.patterns}
        assert (v["readings_zh"], v["readings"]) == (list(d.readings_zh), list(d.readings))
