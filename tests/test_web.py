"""The browser game (issue 17) in Debian's Chromium against a real `majiang serve`: every
variant played through the page by clicks, four humans at one table, a reload that resumes
the seat, the replay viewer, the phone layout. Every test fails on a console error or on a
server message shown as raw JSON; the screenshots in docs/screenshots/ are made here."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page
from test_server import TIMEOUT, Server, serve_sqlite
from webkit import (
    DESKTOP,
    PHONE,
    SHOTS,
    Player,
    no_raw_json,
    no_sideways_scroll,
    watched_page,
)

from majiang.rules import VARIANTS


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve_sqlite(tmp_path_factory, "web")


@pytest.fixture(scope="module", autouse=True)
def shots() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)


def create_room(
    page: Page,
    server: Server,
    variant: str,
    hands: int,
    bots: int = 3,
    fill: dict[str, str] | None = None,
) -> str:
    """Create a room from the lobby's form (human seats beyond `bots`; `fill` sets option
    fields); the room number."""
    page.goto(f"{server.http}/")
    page.wait_for_selector("#create")
    page.select_option("#variant", variant)
    page.wait_for_selector(f"#create[data-variant={variant}]")
    for option, value in (fill or {}).items():
        page.fill(f"[data-opt={option}]", value)
    page.fill("#hands", str(hands))
    page.fill("#turn", "90")
    for seat in (1, 2, 3):
        page.select_option(f"#seat-{seat}", "greedy" if seat <= bots else "")
    page.fill("#name", "Ann")
    page.click("#create-btn")
    page.wait_for_selector(".seats")
    room = page.url.split("room=")[1]
    assert len(room) == 6 and room.isdigit()
    return room


def start(page: Page) -> None:
    """Press ready in the waiting room."""
    page.click("[data-act=ready]")


def test_lobby_form_is_generated_from_the_variant_declarations(
    browser: Browser, server: Server
) -> None:
    """Each variant's options appear with their Chinese names and defaults; English names
    after the switch; a bad value comes back as the server's sentence, not JSON."""
    variants = httpx.get(f"{server.http}/api/variants", timeout=TIMEOUT).json()
    with watched_page(browser) as (page, _, watch):
        page.goto(f"{server.http}/")
        page.wait_for_selector("#create")
        page.screenshot(path=str(SHOTS / "lobby.png"), full_page=True)
        page.set_viewport_size(PHONE)  # type: ignore[arg-type]
        no_sideways_scroll(page)
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
        for v in variants:
            page.select_option("#variant", v["id"])
            page.wait_for_selector(f"[data-opt={v['options'][0]['id']}]")
            for o in v["options"]:
                label = page.inner_text(f"label[for=opt-{o['id']}]")
                assert label == o["zh"]
                field = page.locator(f"[data-opt={o['id']}]")
                if o["kind"] == "bool":
                    assert field.is_checked() == o["default"]
                elif o["kind"] == "int":
                    assert field.input_value() == str(o["default"])
        page.select_option("#variant", "hangzhou")
        page.wait_for_selector("#create[data-variant=hangzhou]")
        page.click("#rules-btn")
        panel = page.inner_text("#overlay .panel")
        hangzhou = next(v for v in variants if v["id"] == "hangzhou")
        assert hangzhou["summary"]["zh"] in panel
        for item in hangzhou["restrictions"] + hangzhou["patterns"]:
            assert item["zh"] in panel
        for p in hangzhou["patterns"]:
            assert p["value_zh"] in panel
        page.click("#lang-btn")
        assert hangzhou["summary"]["en"] in page.inner_text("#overlay .panel")
        page.keyboard.press("Escape")
        page.wait_for_selector("text=Create a room")
        assert page.inner_text("#lang-btn") == "中文"
        for v in variants:  # every option's English name, from the declarations
            page.select_option("#variant", v["id"])
            page.wait_for_selector(f"#create[data-variant={v['id']}]")
            for o in v["options"]:
                assert page.inner_text(f"label[for=opt-{o['id']}]") == o["en"]
        page.fill("#hands", "99")
        page.click("#create-btn")
        assert page.eval_on_selector("#hands", "e => e.validationMessage")  # the form refuses
        assert page.locator(".seats").count() == 0
        page.fill("#room-no", "12")
        page.click("#join button")
        page.wait_for_selector("#toast:not([hidden])")
        assert "6 digits" in page.inner_text("#toast")
        watch.expect(f"{server.http}/api/rooms/000000")
        page.goto(f"{server.http}/?room=000000")
        page.wait_for_selector("text=No such room")
        no_raw_json(page)
        page.click("#lang-btn")
        assert page.inner_text("#lang-btn") == "EN"


TING = (Path(__file__).parent / "web_ting.js").read_text()
"""The 听牌提示 test's table, set up in the page."""


def test_ting_hints_show_the_waits_and_how_many_are_unseen(
    browser: Browser, server: Server
) -> None:
    """听牌提示 on a nine-gates hand (a table set up in the page from the client's own
    modules; the waits come from the server): the discards that leave it ready are marked,
    and a selected one lists its waits with the copies not yet seen."""
    with watched_page(browser) as (page, _, _):
        page.goto(f"{server.http}/")
        page.wait_for_selector("#create")
        page.evaluate(TING)
        page.wait_for_selector(".hints .ting-line")
        marked = page.locator(".hand.own svg.tile.ting").evaluate_all(
            "els => els.map(e => e.getAttribute('data-tile'))"
        )
        assert set(marked) == {"2m", "5m", "8m", "5p"}
        page.click(".hand.own .drawn svg.tile")  # select the 5p drawn
        page.wait_for_selector(".hand.own svg.tile.sel")
        line = page.locator(".ting-line.sel")
        assert "打" in line.inner_text() and "听" in line.inner_text()
        waits = line.locator(".wait small").all_inner_texts()
        # 1m: three held; 5m: one held, two in a river; 9m: three held, one discarded
        assert [w.strip() for w in waits] == [f"剩 {n}" for n in (1, 3, 3, 3, 1, 3, 3, 3, 0)]
        no_raw_json(page)


RESTRICTED = """async () => {
    const { showRulesButton } = await import("/static/ui.js");
    const g = window.majiang;
    g.restrictions = [{ id: "no_discard_win", detail: "5p" }, { id: "last_turn", detail: "" }];
    showRulesButton(g.info, g.view.options, () => g.restrictionItems());
    g.draw();
}"""


def test_the_rules_panel_shows_what_is_in_force_for_the_seat_now(
    browser: Browser, server: Server
) -> None:
    """The restrictions a seat's messages say are in force (here guangdong's 只能自摸 on a
    complete hand and its last tile, set up in the page) show on the table by name, and the
    rules panel gives each with its reason from the declarations, the tile drawn in, in
    Chinese and in English; the panel follows when they change."""
    info = next(
        v for v in httpx.get(f"{server.http}/api/variants").json() if v["id"] == "guangdong"
    )
    declared = {r["id"]: r for r in info["restrictions"]}
    with watched_page(browser) as (page, _, _):
        page.goto(f"{server.http}/")
        page.wait_for_selector("#create")
        page.evaluate(TING)
        page.evaluate(RESTRICTED)
        chips = page.locator(".why .chip").all_inner_texts()
        assert chips == [declared["no_discard_win"]["zh"], declared["last_turn"]["zh"]]
        page.click(".why")
        panel = page.locator("#overlay .in-force")
        items = panel.locator("li").all_inner_texts()
        zh = declared["no_discard_win"]["now"]["zh"]
        before, after = zh.split("{}")
        assert before.strip() in items[0] and after.strip() in items[0]
        drawn = panel.locator("li").first.locator("svg.tile")
        assert drawn.count() == 1 and drawn.get_attribute("aria-label") == "五筒"
        assert declared["last_turn"]["now"]["zh"] in items[1]
        page.evaluate("() => { const g = window.majiang; g.restrictions = []; g.draw(); }")
        page.wait_for_selector("#overlay .in-force li.muted")  # nothing in force any more
        assert page.locator(".why").count() == 0
        page.evaluate(RESTRICTED)
        page.wait_for_selector("#overlay .in-force li:not(.muted)")
        page.click("#lang-btn")  # English: the declared English sentence
        items = page.locator("#overlay .in-force li").all_inner_texts()
        assert declared["last_turn"]["now"]["en"] in items[1]
        assert declared["no_discard_win"]["now"]["en"].split("{}")[0].strip() in items[0]
        no_raw_json(page)
        page.click("#lang-btn")


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_one_human_against_three_bots_plays_a_hand(
    browser: Browser, server: Server, variant: str
) -> None:
    """A full hand by clicks, its settlement with every payment explained, then the next
    hand starts. Variants alternate between a phone and a desktop screen; hainan is played
    in English (switched at the table), its names from the declarations' English."""
    phone = list(VARIANTS).index(variant) % 2 == 1
    english = variant == "hainan"
    with watched_page(browser, PHONE if phone else DESKTOP) as (page, _, _):
        create_room(page, server, variant, hands=2)
        if variant == "guangdong":
            page.screenshot(path=str(SHOTS / "room.png"), full_page=True)
        start(page)
        page.wait_for_selector(".table")
        if english:
            page.click("#lang-btn")
            page.wait_for_selector("text=Auto-play")
        me = page.locator(".seat.me .seat-head .name").inner_text()
        assert me == ("You" if english else "你")
        player = Player(page, seed=len(variant), phone=phone)
        player.claim_shot = SHOTS / "claim.png"  # the first claim offered, if any
        if variant in ("guangdong", "hangzhou"):
            player.until_turn()
            shot = "table-phone.png" if phone else "table-desktop.png"
            page.screenshot(path=str(SHOTS / shot), full_page=not phone)
        player.play_hand()
        assert player.discards > 0
        page.wait_for_selector(".items, .settle .muted")
        settle = page.inner_text(".settle")
        assert ("Hand 1 settlement" if english else "第 1 局结算") in settle
        info = next(
            v for v in httpx.get(f"{server.http}/api/variants").json() if v["id"] == variant
        )
        for item in page.locator(".item").all():
            text = item.inner_text()  # who → whom, points, why
            assert "→" in text and ("pts" if english else "分") in text
        patterns = page.locator(".patterns .chip").all_inner_texts()
        assert set(patterns) <= {p["en" if english else "zh"] for p in info["patterns"]}
        if variant == "guangdong":
            page.screenshot(path=str(SHOTS / "settlement.png"), full_page=True)
        if phone:
            no_sideways_scroll(page)
        no_raw_json(page)
        page.click("[data-act=ready]")
        page.wait_for_selector(".table")
        assert ("Hand 2/2" if english else "第 2/2 局") in page.inner_text(".table .info")
        no_raw_json(page)
        if english:
            page.click("#lang-btn")


def test_the_owner_seats_bots_and_everyone_votes_to_dissolve(
    browser: Browser, server: Server
) -> None:
    """Before the start the owner frees a bot's seat and seats another bot; a player who
    joins by the share link gets no owner tools, shows offline when he leaves the page and
    online when the link brings him back to his seat; bot seats are named by wind and level,
    never by id; the owner asks to dissolve (解散), and after a reload both pages show the
    vote as it stands (who asked, who agreed, who has not answered, the countdown); the other
    refuses and the vote is over at once on both pages; asked again, he agrees and the room
    closes."""
    with watched_page(browser) as (a, _, _), watched_page(browser, PHONE) as (b, _, _):
        room = create_room(a, server, "hongzhong", hands=2, bots=2)
        a.click(".seatrow[data-seat='2'] [data-act=remove-bot]")
        a.wait_for_selector(".seatrow[data-seat='2'] select[data-bot-for]")
        a.select_option(".seatrow[data-seat='2'] select[data-bot-for]", "random")
        a.click(".seatrow[data-seat='2'] [data-act=add-bot]")
        a.wait_for_selector(".seatrow[data-seat='2'] >> text=西家·机器人(简单)")
        assert "greedy" not in a.inner_text(".seats") and "random" not in a.inner_text(".seats")
        assert "东家·机器人(普通)" not in a.inner_text(".seats")  # seat 0 is Ann
        assert "南家·机器人(普通)" in a.inner_text(".seats")
        state = httpx.get(f"{server.http}/api/rooms/{room}", timeout=TIMEOUT).json()
        assert [s["bot"] for s in state["seats"]] == [None, "greedy", "random", None]
        b.goto(a.input_value("#share"))
        b.fill("#join-form input[name=name]", "Bo")
        b.click("#join-form button")
        b.wait_for_selector(".seatrow[data-seat='3'] .badge.you")
        no_sideways_scroll(b)
        assert b.locator("[data-act=remove-bot], [data-act=add-bot]").count() == 0
        a.wait_for_selector(".seatrow[data-seat='3'] >> text=Bo")
        a.wait_for_selector(".seatrow[data-seat='3'] .badge.on")
        link = a.input_value("#share")
        b.goto(f"{server.http}/")  # Bo leaves the room's page: offline for the others
        a.wait_for_selector(".seatrow[data-seat='3'] .badge.off")
        b.goto(link)  # and comes back by the link: the browser kept the seat
        b.wait_for_selector(".seatrow[data-seat='3'] .badge.you")
        a.wait_for_selector(".seatrow[data-seat='3'] .badge.on")
        a.click("[data-act=dissolve-yes]")  # Ann asks: a vote opens with a deadline
        b.wait_for_selector(".seatrow[data-seat='0'] .badge.vote-yes")
        assert "Ann 申请解散房间" in b.inner_text(".dissolve-vote")
        b.reload()  # the vote is in the snapshot: the reloaded page shows it as it stands
        b.wait_for_selector(".dissolve-vote .countdown")
        vote = b.inner_text(".dissolve-vote")
        assert "Ann 申请解散房间" in vote and "同意：Ann" in vote and "未表态：你" in vote, vote
        a.reload()
        a.wait_for_selector(".dissolve-vote [data-act=dissolve-no] >> text=撤回同意")
        assert "未表态：Bo" in a.inner_text(".dissolve-vote")
        state = httpx.get(f"{server.http}/api/rooms/{room}", timeout=TIMEOUT).json()
        assert state["dissolve"]["by"] == 0 and state["dissolve"]["votes"] == [
            True,
            None,
            None,
            None,
        ]
        no_raw_json(b)
        b.click(".dissolve-vote [data-act=dissolve-no]")  # one refusal ends the vote
        for page in (a, b):
            page.wait_for_selector(".dissolve-vote", state="detached")
            page.wait_for_selector("[data-act=dissolve-yes] >> text=申请解散")
        state = httpx.get(f"{server.http}/api/rooms/{room}", timeout=TIMEOUT).json()
        assert state["dissolve"] is None and state["status"] == "waiting"
        a.click("[data-act=dissolve-yes]")  # asked again
        b.wait_for_selector(".dissolve-vote [data-act=dissolve-yes]")
        b.click(".dissolve-vote [data-act=dissolve-yes]")  # Bo agrees this time
        for page in (a, b):
            page.wait_for_selector("text=总结算")
            assert "房间解散" in page.inner_text(".settle")
            no_raw_json(page)


def test_escape_is_offered_in_a_hand_and_says_what_it_costs(
    browser: Browser, server: Server
) -> None:
    """逃跑 (RULES.md 0.9) only while a hand is in play: a confirm step says what it costs
    under the room's escape penalty (5 to each other seat, 15 in all); staying changes
    nothing; leaving ends the hand and the match, the settlement shows the payments."""
    with watched_page(browser, PHONE) as (page, _, _):
        room = create_room(page, server, "hainan", hands=4, fill={"escape_penalty": "5"})
        assert page.locator("[data-act=escape]").count() == 0  # not before the start
        start(page)
        page.wait_for_selector(".table [data-act=escape], .tools [data-act=escape]")
        page.click("[data-act=escape]")
        box = page.locator("#overlay .confirm")
        text = box.inner_text()
        assert "逃跑" in text and "5 分" in text and "15 分" in text, text
        no_sideways_scroll(page)
        page.click("[data-confirm=no]")  # stay: nothing sent, the hand goes on
        page.wait_for_selector("#overlay", state="hidden")
        assert page.evaluate("window.majiang.acted") == 0
        state = httpx.get(f"{server.http}/api/rooms/{room}", timeout=TIMEOUT).json()
        assert state["status"] == "playing"
        page.click("[data-act=escape]")
        page.click("[data-confirm=yes]")
        page.wait_for_selector("text=总结算")
        assert "逃跑" in page.inner_text(".settle")
        items = page.locator(".item").all_inner_texts()
        assert len(items) == 3 and all("5" in i and "→" in i for i in items), items
        assert page.locator("[data-act=escape]").count() == 0  # the match is over
        state = httpx.get(f"{server.http}/api/rooms/{room}", timeout=TIMEOUT).json()
        assert state["status"] == "finished" and state["totals"] == [-15, 5, 5, 5]
        no_raw_json(page)


def test_four_humans_play_a_hand_in_one_room(browser: Browser, server: Server) -> None:
    """The creator shares the link; three more pages (their own storage each) join by it,
    everyone readies, and the four play a hand by clicks to the settlement."""
    with (
        watched_page(browser) as (a, _, _),
        watched_page(browser, PHONE) as (b, _, _),
        watched_page(browser) as (c, _, _),
        watched_page(browser, PHONE) as (d, _, _),
    ):
        room = create_room(a, server, "hongzhong", hands=1, bots=0)
        link = a.input_value("#share")
        assert link.endswith(f"/?room={room}")
        for i, page in enumerate((b, c, d)):
            page.goto(link)
            page.wait_for_selector("#join-form")
            shown = page.inner_text(".room-info")  # what is joined: the room's rules by name
            assert "局数" in shown and "红中" in shown and "1" in shown, shown
            page.fill("#join-form input[name=name]", f"P{i + 1}")
            page.click("#join-form button")
            page.wait_for_selector(".seats")
        a.wait_for_function("document.querySelectorAll('.seatrow .badge.on').length === 4")
        for page in (a, b, c, d):
            start(page)
        players = [
            Player(p, seed=i, phone=p.viewport_size == PHONE) for i, p in enumerate((a, b, c, d))
        ]
        for page in (a, b, c, d):
            page.wait_for_selector(".table")
        names = {p.page.locator(".seat.top .seat-head .name").inner_text() for p in players}
        assert names == {"Ann", "P1", "P2", "P3"}
        d.click("[data-act=auto]")  # 托管 on: the others see the mark on P3's seat
        a.wait_for_selector(".seat.left .badge.auto")
        d.click("[data-act=auto]")
        a.wait_for_selector(".seat.left .badge.auto", state="detached")
        end = time.monotonic() + 120
        while not all(p.page.locator(".settle").count() for p in players):
            assert time.monotonic() < end, "the four did not finish a hand in 120 s"
            if not any([p.step() for p in players]):
                a.wait_for_timeout(25)
        assert sum(p.discards for p in players) > 4
        texts = {p.page.inner_text(".settle .scores") for p in players}
        assert len(texts) == 4  # each page marks its own row
        for p in players:
            no_raw_json(p.page)


def hand_tiles(page: Page) -> list[str]:
    """The seat's concealed tiles as the page shows them, sorted."""
    tiles = page.locator(".hand.own svg.tile").evaluate_all(
        "els => els.map(e => e.getAttribute('data-tile'))"
    )
    return sorted(str(t) for t in tiles)


def test_a_reload_mid_hand_resumes_the_seat(browser: Browser, server: Server) -> None:
    """The seat's token is kept in the browser: a reload in the seat's turn, after it has
    discarded, reconnects to the same seat and hand, the table as it was, and the hand
    plays on to its settlement. (A hand the bots end first is played out and the next
    one tried.)"""
    with watched_page(browser) as (page, _, _):
        create_room(page, server, "hainan", hands=4)
        start(page)
        page.wait_for_selector(".table")
        player = Player(page, seed=7)
        for _ in range(4):
            player.discards = 0
            while player.discards < 2 and not page.locator(".settle").count():
                if not player.step():
                    page.wait_for_timeout(25)
            if not page.locator(".settle").count():
                with contextlib.suppress(AssertionError):  # unless the hand ends first
                    player.until_turn()
            if page.locator(".settle").count():
                page.click("[data-act=ready]")
                page.wait_for_selector(".table")
                continue
            before = hand_tiles(page)
            left = page.inner_text(".table .info .left")
            hand = page.inner_text(".table .info span:first-child")
            page.reload()
            page.wait_for_selector(".hand.own.turn")  # still the seat's turn: nothing moved
            assert hand_tiles(page) == before
            assert page.inner_text(".table .info .left") == left
            assert page.inner_text(".table .info span:first-child") == hand
            player.play_hand()
            no_raw_json(page)
            return
        raise AssertionError("four hands ended before the seat's second turn")


def test_the_replay_viewer_steps_through_a_finished_match(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    """托管 plays a one-hand match out; 总结算 links the replay; arrows step forward and
    back with all four hands face up; the last step shows the settlement; an uploaded record
    file replays the same."""
    with watched_page(browser) as (page, _, _):
        room = create_room(page, server, "taizhou", hands=1)
        start(page)
        page.wait_for_selector(".table")
        page.click("[data-act=auto]")
        page.wait_for_selector("text=总结算", timeout=60_000)
        final = page.inner_text(".settle")
        for word in ("总分", "胡牌", "自摸", "放铳", "观看回放"):
            assert word in final
        totals = httpx.get(f"{server.http}/api/rooms/{room}", timeout=TIMEOUT).json()["totals"]
        winners = page.locator(".scores.final tr:has(.badge.win) td:first-child").all_inner_texts()
        assert len(winners) == (totals.count(max(totals)) if max(totals) > 0 else 0)
        no_raw_json(page)
        page.screenshot(path=str(SHOTS / "final.png"), full_page=True)
        page.click(f"a[href='/replay/{room}']")
        page.wait_for_selector(".replay .table")
        assert page.locator(".replay .seat .hand svg.tile:not(.back)").count() >= 4 * 13
        shown = page.inner_text(".replay")
        dealer = httpx.get(f"{server.http}/api/rooms/{room}/record", timeout=TIMEOUT).json()[
            "hands"
        ][0]["dealer"]
        wind = ["东家", "南家", "西家", "北家"][(1 - dealer) % 4]  # seat 1's wind in hand 1
        assert f"{wind}·机器人(普通)" in shown and "greedy" not in shown, shown[:300]  # no id
        step = page.inner_text(".center .muted")
        assert step.startswith("第 1/")
        for _ in range(5):
            page.keyboard.press("ArrowRight")
        assert page.inner_text(".center .muted").startswith("第 6/")
        page.keyboard.press("ArrowLeft")
        assert page.inner_text(".center .muted").startswith("第 5/")
        page.screenshot(path=str(SHOTS / "replay.png"), full_page=True)
        page.set_viewport_size(PHONE)  # type: ignore[arg-type]
        no_sideways_scroll(page)
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
        page.keyboard.press("End")
        page.wait_for_selector(".replay .settle")
        assert "第 1 局结算" in page.inner_text(".replay .settle")
        no_raw_json(page)
        record = httpx.get(f"{server.http}/api/rooms/{room}/record", timeout=TIMEOUT).json()
        path = tmp_path / "match.json"
        path.write_text(json.dumps(record))
        page.goto(f"{server.http}/replay")
        page.set_input_files("#record-file", str(path))
        page.wait_for_selector(".replay .table")
        page.keyboard.press("End")
        page.wait_for_selector(".replay .settle")
        bad = tmp_path / "bad.json"
        bad.write_text("{not json")
        page.set_input_files("#record-file", str(bad))
        page.wait_for_selector("#toast:not([hidden])")
        toast = page.inner_text("#toast")  # in the page's language, not the browser's English
        assert "对局记录" in toast and not re.search("[A-Za-z]", toast), toast
        no_raw_json(page)
