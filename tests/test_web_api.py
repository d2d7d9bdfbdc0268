"""The HTTP calls the browser game adds (docs/web.md): variant names and rules, bots, 听牌提示
waits, reserved tile counts, explained settlements and replays; checked against the engine
and the record replayer, and over HTTP against a real `majiang serve`."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_server import TIMEOUT, Server, serve_sqlite

from majiang.bots import BOTS, GreedyBot
from majiang.cli import serve as serve_cli
from majiang.engine import Match
from majiang.hand import is_winning
from majiang.records import record_json, replay
from majiang.rules import VARIANTS
from majiang.server.explain import replay_frames, settlements, waits_hint
from majiang.server.models import Replay, Settlement
from majiang.tiles import parse_tiles


def played(variant: str, seed: int, hands: int = 3) -> dict[str, Any]:
    """A record of a few hands played by greedy bots."""
    match = Match(variant, {}, seed=seed)
    bots = [GreedyBot(random.Random(seed * 4 + i)) for i in range(4)]
    for _ in range(hands):
        state = match.new_hand()
        while not state.is_terminal():
            if state.phase != "turn":
                state.auto_pass()
                if state.is_terminal() or state.phase == "turn":
                    continue
            seat = state.to_act()[-1] if state.phase == "turn" else state.to_act()[0]
            obs = state.observation(seat)
            state.apply(bots[seat].act(obs, obs.legal))
        match.finish(state)
        if match.over:
            break
    return record_json(match)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve_sqlite(tmp_path_factory, "webapi")


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_settlements_agree_with_the_replayed_result(variant: str) -> None:
    """Each explained hand has the result's winner, patterns and deltas; its items sum to
    the deltas; its totals run; the winner's tiles with the winning tile are a win."""
    for seed in range(3):
        record = played(variant, seed)
        result = replay(record)
        explained = settlements(record)
        assert len(explained) == len(result["hands"])
        totals = [0, 0, 0, 0]
        for s, r in zip(explained, result["hands"], strict=True):
            Settlement.model_validate(s)
            assert isinstance(s, dict)
            for key in ("index", "dealer", "outcome", "winner", "from", "win_type", "patterns"):
                assert s[key] == r[key], key
            assert s["deltas"] == r["deltas"]
            net = [0, 0, 0, 0]
            for item in s["items"]:
                net[item["from"]] -= item["points"]
                net[item["to"]] += item["points"]
                assert item["reason"]
            assert net == r["deltas"]
            totals = [a + b for a, b in zip(totals, r["deltas"], strict=True)]
            assert s["totals"] == totals
            if s["outcome"] == "win":
                hand = s["hands"][s["winner"]]
                tiles = [*parse_tiles(hand["concealed"]), *parse_tiles(s["tile"])]
                shapes = dict(VARIANTS[variant].shapes)
                if hand["melds"]:
                    shapes.update(seven_pairs=False, thirteen_orphans=False)
                wild = parse_tiles(s["wild"])[0] if s["wild"] else None
                assert is_winning(tiles, wild=wild, **shapes)
                for group in s["reserved"]:  # a horse's seat, a bird's hit, in words
                    if group["purpose"] in ("horses", "birds"):
                        assert all(t["zh"] and t["en"] for t in group["tiles"])


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_replay_frames_step_through_every_hand(variant: str) -> None:
    """A frame after the deal, each action and each window's close: tile counts are kept,
    the last frame of each hand is its end, and its settlement is attached."""
    record = played(variant, seed=5)
    data = replay_frames(record)
    Replay.model_validate(data)
    assert isinstance(data, dict)
    hands = data["hands"]
    assert isinstance(hands, list)
    assert len(hands) == len(record["hands"])
    for hand, rec in zip(hands, record["hands"], strict=True):
        assert isinstance(hand, dict)
        frames = hand["frames"]
        assert isinstance(frames, list)
        actions = [f["action"] for f in frames if isinstance(f, dict) and f["action"]]
        assert actions == rec["actions"]
        first, last = frames[0], frames[-1]
        assert isinstance(first, dict) and isinstance(last, dict)
        assert first["action"] is None
        assert last["phase"] == "end"
        sizes = [len(parse_tiles(s["hand"])) for s in first["seats"]]
        assert sorted(sizes)[:3] == [13, 13, 13] and sizes[hand["dealer"]] == 14
        assert hand["settlement"]["index"] == hand["index"]
    assert data["totals"] == replay(record)["totals"]


def test_waits_hint() -> None:
    """Which discards leave the hand ready and on what; the 3n+1 form; bad input named."""
    nine_gates = waits_hint("guangdong", "1112345678999m5p", 0, None)
    by_discard = {h["discard"]: h["waits"] for h in nine_gates if isinstance(h, dict)}
    assert by_discard["5p"] == [f"{n}m" for n in range(1, 10)]
    assert by_discard["2m"] == ["5p"]
    assert waits_hint("guangdong", "1112345678999m", 0, None) == [
        {"discard": None, "waits": [f"{n}m" for n in range(1, 10)]}
    ]
    assert waits_hint("guangdong", "1122334455667z", 0, None) == [
        {"discard": None, "waits": ["7z"]}
    ]
    assert waits_hint("guangdong", "1122334455z", 1, None) == []  # no seven pairs with a meld
    # hongzhong: 红中 (7z) is wild
    ready = waits_hint("hongzhong", "123456m456p789s7z", 0, "7z")
    assert ready and ready[0]["discard"] is None
    assert "1m" in ready[0]["waits"]  # type: ignore[operator]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"variant": "nowhere", "hand": "1m"}, "nowhere"),
        ({"variant": "guangdong", "hand": "0m"}, "0m"),
        ({"variant": "guangdong", "hand": "11111m"}, "four"),
        ({"variant": "guangdong", "hand": "123m"}, "melds"),
        ({"variant": "guangdong", "hand": "1112345678999m", "wild": "1f"}, "flower"),
        ({"variant": "guangdong", "hand": "1112345678999m", "melds": 5}, "melds"),
    ],
)
def test_waits_refuses_bad_input_by_name(server: Server, body: dict[str, Any], words: str) -> None:
    r = httpx.post(f"{server.http}/api/waits", json=body, timeout=TIMEOUT)
    assert r.status_code == 422, r.text
    assert words in r.json()["error"]["message"]


def test_the_web_calls_over_http(server: Server) -> None:
    """Variant declarations with names and rules, bots, waits, reserved counts, a room's
    settlements and replay before any hand ended, an uploaded record, errors as sentences."""
    with httpx.Client(base_url=server.http, timeout=TIMEOUT) as http:
        variants = http.get("/api/variants").json()
        for v in variants:
            declared = VARIANTS[v["id"]]
            assert v["summary"] == {"zh": declared.summary[0], "en": declared.summary[1]}
            assert [p["id"] for p in v["patterns"]] == list(declared.patterns)
            assert [r["id"] for r in v["restrictions"]] == [r.id for r in declared.restrictions]
            assert v["terms"]["hu"] == {"zh": "胡", "en": "win"}
            for name in declared.names:
                assert name in v["terms"]
            # every option of every variant names itself in Chinese and in English
            assert [o["id"] for o in v["options"]] == [o.name for o in declared.options]
            for o, opt in zip(v["options"], declared.options, strict=True):
                assert (o["zh"], o["en"]) == (opt.zh, opt.en), o["id"]
                assert o["zh"].strip() and o["en"].strip() and o["en"] != o["zh"], o["id"]
                assert not any("\u4e00" <= c <= "\u9fff" for c in o["en"]), o["en"]
        assert http.get("/api/bots").json() == list(BOTS)
        r = http.post("/api/waits", json={"variant": "guangdong", "hand": "1112345678999m"})
        assert r.json() == [{"discard": None, "waits": [f"{n}m" for n in range(1, 10)]}]
        r = http.post("/api/reserved", json={"variant": "guangdong", "counters": {"dealer_run": 3}})
        assert r.json() == {"horses": 3}
        r = http.post("/api/reserved", json={"variant": "guangdong", "options": {"horses": False}})
        assert r.json() == {}
        r = http.post("/api/reserved", json={"variant": "hongzhong", "options": {"birds": 6}})
        assert r.json() == {"birds": 6}
        r = http.post("/api/reserved", json={"variant": "hongzhong", "options": {"birds": 5}})
        assert r.status_code == 422 and "birds" in r.json()["error"]["message"]

        made = http.post("/api/rooms", json={"variant": "hangzhou", "bots": {"1": "greedy"}})
        room = made.json()["room"]
        assert http.get(f"/api/rooms/{room}/settlements").json() == []
        empty = http.get(f"/api/rooms/{room}/replay").json()
        assert empty["hands"] == [] and empty["variant"] == "hangzhou"
        assert http.get("/api/rooms/999999x/replay").status_code == 404

        record = played("hainan", seed=2, hands=2)
        r = http.post("/api/replay", json=record)
        assert r.status_code == 200, r.text
        assert r.json() == replay_frames(record)
        bad = {**record, "hands": [{**record["hands"][0], "actions": [{"seat": 3, "type": "hu"}]}]}
        r = http.post("/api/replay", json=bad)
        assert r.status_code == 422 and "hand 0" in r.json()["error"]["message"]
        r = http.post("/api/replay", json={**record, "hands": record["hands"] * 40})
        assert r.status_code == 422 and "at most" in r.json()["error"]["message"]

        for path in ("/", "/replay", f"/replay/{room}", "/static/main.js", "/static/style.css"):
            assert http.get(path).status_code == 200, path
        assert http.get("/static/nothing.js").status_code == 404


def test_make_run_opens_a_browser_only_where_there_is_a_display(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`majiang serve --open` (make run): no display, no browser (a terminal browser must
    not take the console) and the server serves all the same; with one, the address opens."""
    opened: list[str] = []
    monkeypatch.setattr(serve_cli.webbrowser, "open", opened.append)
    monkeypatch.setattr(serve_cli.sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert not serve_cli.has_display()
    serve_cli.open_browser("http://127.0.0.1:1/")
    monkeypatch.setenv("DISPLAY", ":0")
    assert serve_cli.has_display()
    serve_cli.open_browser("http://127.0.0.1:2/")
    deadline = time.monotonic() + 10
    while not opened and time.monotonic() < deadline:
        time.sleep(0.05)
    assert opened == ["http://127.0.0.1:2/"]
    monkeypatch.delenv("DISPLAY")
    s = Server(f"sqlite:///{tmp_path / 'run.db'}", "--open").start()
    try:
        page = httpx.get(f"{s.http}/", timeout=TIMEOUT)
        assert page.status_code == 200 and '<script type="module"' in page.text
        assert s.first_line.startswith(f"majiang serve: {s.http}/")
    finally:
        s.stop()


def test_replays_travel_gzip_compressed(server: Server) -> None:
    """A replay's frames repeat the table each step: the answer goes gzip-compressed to a
    client that accepts it (browsers do), the same JSON, a small part of the bytes."""
    record = played("guangdong", seed=1, hands=2)
    url = f"{server.http}/api/replay"
    sizes = {}
    bodies = {}
    for encoding in ("identity", "gzip"):
        r = httpx.post(url, json=record, headers={"Accept-Encoding": encoding}, timeout=TIMEOUT)
        assert r.status_code == 200, r.text
        assert r.headers.get("content-encoding") == (None if encoding == "identity" else "gzip")
        sizes[encoding] = r.num_bytes_downloaded
        bodies[encoding] = r.json()
    assert bodies["gzip"] == bodies["identity"] == replay_frames(record)
    assert sizes["gzip"] * 10 < sizes["identity"], sizes
    small = httpx.get(f"{server.http}/api/bots", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers  # short answers go as they are


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Bo\\ud800", "lone surrogate"),
        ("Bo\\u0007", "control character"),
        ("\\u001b[2J", "control character"),
    ],
)
def test_names_that_are_not_text_are_refused(server: Server, name: str, words: str) -> None:
    """Issue 35, E3: room creation and joining refuse a name with a lone surrogate (a valid
    JSON escape, no character) or a control character: 422 naming ``name``, no seat taken;
    an uploaded record with one is refused naming the player."""
    headers = {"content-type": "application/json"}
    with httpx.Client(base_url=server.http, timeout=TIMEOUT, headers=headers) as http:
        body = f'{{"variant": "guangdong", "name": "{name}"}}'
        r = http.post("/api/rooms", content=body.encode())
        assert r.status_code == 422, r.text
        message = r.json()["error"]["message"]
        assert message.startswith("name") and words in message, message
        room = http.post("/api/rooms", json={"variant": "guangdong"}).json()["room"]
        r = http.post(f"/api/rooms/{room}/join", content=f'{{"name": "{name}"}}'.encode())
        assert r.status_code == 422, r.text
        message = r.json()["error"]["message"]
        assert message.startswith("name") and words in message, message
        seats = http.get(f"/api/rooms/{room}").json()["seats"]
        assert [s["name"] for s in seats][1:] == [None, None, None]
        record = json.dumps(played("guangdong", seed=1, hands=1)).replace(
            '"players": ["East",', f'"players": ["{name}",'
        )
        r = http.post("/api/replay", content=record.encode())
        assert r.status_code == 422 and "players[0]" in r.json()["error"]["message"], r.text
