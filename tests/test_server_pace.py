"""The bot pace (issue 34): a room's bot and 托管 decisions are held back a random time in
its ``bot_delay_ms`` (``Outcome.pause``, ``Room.wake``), between hands too, so a match
never races ahead of the people at the table; 托管 cancelled, a dissolve or any move of the
room drops a held-back decision. Room-level tests without a network, then the server's."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import time
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
from test_server import MAJIANG, TIMEOUT, Client, Server
from test_server_bots import serving
from test_server_cluster import cluster
from websockets.asyncio.client import connect

from majiang.client import create_room
from majiang.server.models import client_message
from majiang.server.room import Outcome, Pause, Room
from majiang.server.thinking import BotPool
from majiang.store import RoomRow, SeatRow, Store


class Clock:
    """A settable epoch-ms clock."""

    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


def paced_room(
    bots: dict[int, str], pace: tuple[int, int] | None = (300, 600), hands: int = 2
) -> tuple[Room, RoomRow, list[SeatRow]]:
    """A guangdong room at ``pace`` with a human at every seat ``bots`` leaves free."""
    row = RoomRow(
        7, "123456", "guangdong", {}, hands, 0, 11, "waiting", "x", datetime.now(), None, pace
    )
    seats = [SeatRow(s, f"P{s}", bots.get(s), None if s in bots else f"h{s}") for s in range(4)]
    return Room(row, seats, Clock()), row, seats


def send(room: Room, seat: int, data: dict[str, Any]) -> Outcome:
    return room.handle(seat, client_message.validate_python(data))


def kinds(out: Outcome) -> list[str]:
    return [kind for _, kind, _ in out.log]


def woken(room: Room, out: Outcome) -> Outcome:
    """Wake the room for ``out``'s pause (as the server does once it has waited)."""
    assert out.pause is not None
    again = room.wake(out.pause)
    assert again is not None
    return again


def to_own_turn(room: Room, out: Outcome) -> None:
    """Wake the room's held-back bot decisions (passing seat 0's claims) until seat 0 is
    to discard."""
    while not any(a["type"] == "discard" for a in room.snapshot(0)["legal"]):
        if out.pause is not None:
            out = woken(room, out)
        else:
            out = send(room, 0, {"type": "action", "action": {"type": "pass"}})


def test_a_paced_room_holds_back_every_bot_and_auto_decision_one_at_a_time() -> None:
    """With a pace, the room makes no bot or 托管 decision in the call that makes it due: it
    hands out a ``Pause`` (a time within the pace), and each ``wake`` makes exactly one
    decision and pauses for the next; an unpaced room plays on at once as before."""
    room, _, _ = paced_room({1: "greedy", 2: "greedy", 3: "greedy"})
    assert room.public_state()["bot_delay_ms"] == [300, 600]
    out = send(room, 0, {"type": "ready"})
    assert kinds(out) == ["ready", "start", "hand_start"]
    out = send(room, 0, {"type": "auto", "on": True})
    assert kinds(out) == ["auto"]  # whoever's turn it is, bot or 托管, waits
    times = set()
    for _ in range(12):
        assert out.pause is not None and 300 <= out.pause.ms <= 600
        times.add(out.pause.ms)
        assert room.paused() is out.pause
        out = woken(room, out)
        assert kinds(out) == ["action"]  # one decision per wake
    assert len(times) > 1  # a random time in the range per decision
    unpaced, _, _ = paced_room({1: "greedy", 2: "greedy", 3: "greedy"}, None, hands=1)
    assert unpaced.public_state()["bot_delay_ms"] == [0, 0]
    send(unpaced, 0, {"type": "ready"})
    out = send(unpaced, 0, {"type": "auto", "on": True})
    assert out.pause is None and unpaced.status == "finished"


def test_cancelling_auto_drops_the_held_back_decision_and_gives_the_turn_back() -> None:
    """托管 cancelled while its decision is held back: the pause is stale (``wake`` does
    nothing), the seat is asked again with its legal actions and no deadline-driven
    default is made for it."""
    room, _, _ = paced_room({1: "greedy", 2: "greedy", 3: "greedy"})
    to_own_turn(room, send(room, 0, {"type": "ready"}))
    on = send(room, 0, {"type": "auto", "on": True})
    assert on.pause is not None and on.pause.seat == 0
    seq = room.log_seq
    off = send(room, 0, {"type": "auto", "on": False})
    assert kinds(off) == ["auto"] and off.pause is None and room.paused() is None
    assert room.wake(on.pause) is None and room.log_seq == seq + 1
    legal = room.snapshot(0)["legal"]
    assert any(a["type"] == "discard" for a in legal) and all(a["seat"] == 0 for a in legal)


def test_a_dissolve_drops_the_held_back_decision() -> None:
    room, _, _ = paced_room({1: "greedy", 2: "greedy", 3: "greedy"})
    send(room, 0, {"type": "ready"})
    on = send(room, 0, {"type": "auto", "on": True})
    assert on.pause is not None
    out = send(room, 0, {"type": "dissolve", "vote": True})
    assert kinds(out) == ["dissolve", "match_end"] and room.status == "dissolved"
    assert room.paused() is None and room.wake(on.pause) is None


def test_between_hands_an_auto_seat_is_ready_only_after_the_pace() -> None:
    """A 托管 seat says ready for the next hand only when woken after its pace (its
    ``ready`` is in the log), so the next hand never starts in the call that ended the
    last; a person can still take the seat back meanwhile and decide themselves."""
    room, _, _ = paced_room({1: "greedy", 2: "greedy", 3: "greedy"})
    send(room, 0, {"type": "ready"})
    out = send(room, 0, {"type": "auto", "on": True})
    while "hand_end" not in kinds(out):
        out = woken(room, out)
    assert room.state is None and room.status == "playing"
    assert out.pause is not None and out.pause.seat == 0
    assert room.public_state()["seats"][0]["ready"] is False
    woke = woken(room, out)
    assert kinds(woke)[:2] == ["ready", "hand_start"]
    assert room.state is not None
    # the same between hands, cancelled: no ready is made for the seat
    room2, _, _ = paced_room({1: "greedy", 2: "greedy", 3: "greedy"})
    send(room2, 0, {"type": "ready"})
    out = send(room2, 0, {"type": "auto", "on": True})
    while "hand_end" not in kinds(out):
        out = woken(room2, out)
    pause = out.pause
    assert pause is not None
    off = send(room2, 0, {"type": "auto", "on": False})
    assert kinds(off) == ["auto"] and room2.wake(pause) is None and room2.state is None
    assert room2.snapshot(0)["room"]["seats"][0]["ready"] is False
    assert kinds(send(room2, 0, {"type": "ready"}))[:2] == ["ready", "hand_start"]


def test_a_restored_room_keeps_its_pace_and_holds_back_its_due_decision() -> None:
    room, row, seats = paced_room({1: "greedy", 2: "greedy", 3: "greedy"})
    log = [*send(room, 0, {"type": "ready"}).log]
    out = send(room, 0, {"type": "auto", "on": True})
    for _ in range(5):
        log += out.log
        out = woken(room, out)
    log += out.log

    class Ev:
        def __init__(self, seq: int, kind: str, data: Any) -> None:
            self.seq, self.kind, self.data = seq, kind, json.loads(json.dumps(data))

    restored = Room.restore(row, seats, [Ev(*e) for e in log], Clock())
    assert restored.public_state() == room.public_state()
    resumed = restored.resume()
    assert resumed.log == [] and isinstance(resumed.pause, Pause)
    assert restored.snapshot(None) == room.snapshot(None)


# -- the server ------------------------------------------------------------------------------
def rooms_stored(server: Server) -> int:
    db = server.db.removeprefix("sqlite:///")
    with sqlite3.connect(db) as c:
        n: int = c.execute("SELECT count(*) FROM rooms").fetchone()[0]
        return n


def test_a_room_takes_its_bot_delay_and_refuses_a_bad_one(tmp_path: Path) -> None:
    """``bot_delay_ms`` at creation: [min, max] or N; shown in the room state and every
    snapshot; a bad one is a 422 naming the field, and no room is made. Without it a room
    gets the server's ``--bot-delay-ms``."""
    server = Server(f"sqlite:///{tmp_path / 'pace.db'}", "--bot-delay-ms", "40,70").start()
    try:
        with httpx.Client(base_url=server.http, timeout=TIMEOUT) as http:
            for bad in ([5, 3], [-1, 2], 10_001, [1, 2, 3], "fast", True, [1.5, 2]):
                before = rooms_stored(server)
                body = {"variant": "hainan", "bot_delay_ms": bad}
                r = http.post("/api/rooms", json=body)
                assert r.status_code == 422, (bad, r.text)
                assert "bot_delay_ms" in r.json()["error"]["message"], r.text
                assert rooms_stored(server) == before
            for given, shown in (([0, 0], [0, 0]), (250, [250, 250]), ([10, 10_000], [10, 10_000])):
                r = http.post("/api/rooms", json={"variant": "hainan", "bot_delay_ms": given})
                assert r.status_code == 201, r.text
                state = http.get(f"/api/rooms/{r.json()['room']}").json()
                assert state["bot_delay_ms"] == shown
            seat = asyncio.run(create_room(server.http, "hainan", bot_delay_ms=(5, 9)))
            assert http.get(f"/api/rooms/{seat.room}").json()["bot_delay_ms"] == [5, 9]
            r = http.post("/api/rooms", json={"variant": "hainan"})
            room, token = r.json()["room"], r.json()["token"]
            assert http.get(f"/api/rooms/{room}").json()["bot_delay_ms"] == [40, 70]

            async def snapshot() -> dict[str, Any]:
                async with connect(f"{server.ws}/ws/{room}?token={token}") as ws:
                    first: dict[str, Any] = json.loads(await ws.recv())
                    return first

            assert asyncio.run(snapshot())["room"]["bot_delay_ms"] == [40, 70]
    finally:
        server.stop()


def test_serve_refuses_a_bad_bot_delay_in_one_line(tmp_path: Path) -> None:
    for value in ("x", "5,3", "1,2,3", "-4", "20000"):
        out = subprocess.run(
            [str(MAJIANG), "serve", "--db", f"sqlite:///{tmp_path / 'x.db'}", "--port", "1",
             "--bot-delay-ms", value],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert out.returncode == 2 and out.stdout == "", out
        assert out.stderr.count("\n") == 1 and "--bot-delay-ms" in out.stderr, out.stderr
        assert "Traceback" not in out.stderr


def public_actions(messages: list[dict[str, Any]]) -> list[tuple[float, dict[str, Any]]]:
    return [
        (m["_at"], m["event"])
        for m in messages
        if m["type"] == "event" and m["event"]["type"] in ("discard", "peng", "kong", "chi", "hu")
    ]


async def watch(server: Server, room: str, token: str, n: int) -> list[tuple[float, Any]]:
    """Seat 0 turns 托管 on and records when each of the next ``n`` turn actions arrives."""
    got: list[dict[str, Any]] = []
    async with connect(f"{server.ws}/ws/{room}?token={token}") as ws:
        first = json.loads(await ws.recv())
        if first["room"]["status"] == "waiting":
            await ws.send(json.dumps({"type": "ready"}))
        if not first["room"]["seats"][0]["auto"]:
            await ws.send(json.dumps({"type": "auto", "on": True}))
        while len(public_actions(got)) < n:
            m = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            m["_at"] = time.monotonic()
            got.append(m)
            assert m["type"] not in ("error", "match_end"), m
    return public_actions(got)[:n]


def spaced(seen: list[tuple[float, Any]], url: str, room: str, least: float) -> None:
    """Turn actions ``least`` s apart at least: every decision the room stored (the log's
    times: the server's clock), and as the client received them, but for one gap (jitter,
    or a burst queued while the connection attached to the room; an unpaced room's are all
    near 0) and 50 ms of network jitter."""
    store = Store(url)
    try:
        row = store.room(room)
        assert row is not None
        times = [e.at for e in store.events(row.id) if e.kind == "action"]
    finally:
        store.close()
    stored = [(b - a).total_seconds() for a, b in pairwise(times)]
    assert len(stored) >= len(seen) - 1 and min(stored) >= least - 0.002, stored
    got = sorted(b[0] - a[0] for a, b in pairwise(seen))
    assert len(got) >= 3 and got[1] >= least - 0.05, got


def test_bot_and_auto_actions_are_spaced_by_the_room_pace_across_a_restart(
    tmp_path: Path,
) -> None:
    """A room of three bots at [250, 400] ms, its human on 托管: every decision, bots' and
    托管's alike, is made at least the pace's minimum after the one before (the stored log's
    times), and arrives so over the websocket; after a SIGKILL and a restart the room keeps
    its pace (stored with it)."""
    db = f"sqlite:///{tmp_path / 'paced.db'}"
    server = Server(db).start()  # the harness default: --bot-delay-ms 0
    try:
        with httpx.Client(base_url=server.http, timeout=TIMEOUT) as http:
            body = {
                "variant": "guangdong",
                "hands": 8,
                "turn_seconds": 0,
                "bots": {"1": "greedy", "2": "greedy", "3": "random"},
                "bot_delay_ms": [250, 400],
            }
            r = http.post("/api/rooms", json=body)
            room, token = r.json()["room"], r.json()["token"]
        seen = asyncio.run(watch(server, room, token, 8))
        assert {e["seat"] for _, e in seen} == {0, 1, 2, 3}
        spaced(seen, db, room, 0.25)
        server.stop(kill=True)
        server = Server(db).start()
        with httpx.Client(base_url=server.http, timeout=TIMEOUT) as http:
            state = http.get(f"/api/rooms/{room}").json()
            assert state["bot_delay_ms"] == [250, 400] and state["status"] == "playing"
        seen = asyncio.run(watch(server, room, token, 5))
        spaced(seen, db, room, 0.25)
    finally:
        server.stop()


def test_an_unpaced_server_room_still_plays_at_once(tmp_path: Path) -> None:
    """The harness's rooms (``--bot-delay-ms 0``): a one-hand match of three bots and a
    human on 托管 ends within a few seconds, as before the pace."""
    server = Server(f"sqlite:///{tmp_path / 'fast.db'}").start()
    try:

        async def run() -> None:
            async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
                bots = {"1": "greedy", "2": "greedy", "3": "greedy"}
                body = {"variant": "hainan", "hands": 1, "turn_seconds": 0, "bots": bots}
                r = await http.post("/api/rooms", json=body)
                c = await Client(server, r.json()["room"], r.json()["token"], 0).open()
                assert c.messages[0]["room"]["bot_delay_ms"] == [0, 0]
                await c.send({"type": "ready"})
                await c.send({"type": "auto", "on": True})
                start = time.monotonic()
                await c.until("match_end")
                assert time.monotonic() - start < 10
                await c.close()

        asyncio.run(run())
    finally:
        server.stop()


def test_a_cluster_paces_its_rooms_and_the_new_owner_keeps_the_pace() -> None:
    """``majiang serve --bus``: a room created on one node at [250, 400] ms, its human on
    托管 through the other node: turn actions come the pace's minimum apart; the owner is
    SIGKILLed, a survivor takes the room from the store and goes on at the same pace."""
    with cluster(2) as nodes:
        body = {
            "variant": "hainan",
            "hands": 8,
            "turn_seconds": 0,
            "bots": {"1": "greedy", "2": "greedy", "3": "greedy"},
            "bot_delay_ms": [250, 400],
        }
        r = httpx.post(f"{nodes[0].http}/api/rooms", json=body, timeout=TIMEOUT)
        assert r.status_code == 201, r.text
        room, token = r.json()["room"], r.json()["token"]
        seen = asyncio.run(watch(nodes[1], room, token, 6))
        spaced(seen, nodes.url, room, 0.25)
        owner, _ = nodes.owner(room)
        survivor = next(n for n in nodes if n is not owner)
        assert owner.proc is not None
        os.kill(owner.proc.pid, signal.SIGKILL)
        owner.proc.wait(10)
        seen = asyncio.run(watch(survivor, room, token, 5))
        spaced(seen, nodes.url, room, 0.25)
        state = httpx.get(f"{survivor.http}/api/rooms/{room}", timeout=TIMEOUT).json()
        assert state["bot_delay_ms"] == [250, 400] and state["status"] == "playing"
        assert nodes.owner(room)[0] is survivor


def test_the_hub_cancels_a_held_back_decision_on_auto_off_dissolve_and_stop(
    tmp_path: Path,
) -> None:
    """In the server (in-process, a 60 s pace so nothing wakes by itself): a held-back
    托管 decision is a task of the room's handle; 托管 cancelled cancels it, a dissolve
    cancels the next, and stopping the server cancels one still waiting; none of them
    wrote anything."""

    async def until(check: Any) -> None:
        for _ in range(500):
            if check():
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the condition never held")

    async def main() -> None:
        async with serving(tmp_path, BotPool(0), bot_delay_ms=(60_000, 60_000)) as (
            http,
            ws_url,
            store,
            hub,
        ):
            bots = {"1": "greedy", "2": "greedy", "3": "greedy"}
            body = {"variant": "hainan", "hands": 2, "turn_seconds": 0, "bots": bots}
            created = (await http.post("/api/rooms", json=body)).json()
            room, token = created["room"], created["token"]
            handle = hub.rooms[room]
            async with connect(f"{ws_url}/ws/{room}?token={token}") as ws:
                await ws.send(json.dumps({"type": "ready"}))
                await ws.send(json.dumps({"type": "auto", "on": True}))
                await until(lambda: handle.room.public_state()["seats"][0]["auto"])
                await until(lambda: handle.pause is not None)  # whoever deals waits
                assert handle.pause is not None
                first = handle.pause[1]
                row = store.room(room)
                assert row is not None
                stored = len(store.events(row.id))
                await ws.send(json.dumps({"type": "auto", "on": False}))
                await until(lambda: first.done())
                assert first.cancelled()
                await ws.send(json.dumps({"type": "auto", "on": True}))
                await until(lambda: handle.pause is not None and handle.pause[1] is not first)
                assert handle.pause is not None
                second = handle.pause[1]
                await ws.send(json.dumps({"type": "dissolve", "vote": True}))
                await until(lambda: second.done())
                assert second.cancelled() and handle.room.status == "dissolved"
                assert handle.pause is None
                kinds = [e.kind for e in store.events(row.id)[stored:]]
                assert kinds == ["auto", "auto", "dissolve", "match_end"], kinds
            created = (await http.post("/api/rooms", json=body)).json()
            async with connect(f"{ws_url}/ws/{created['room']}?token={created['token']}") as ws:
                await ws.send(json.dumps({"type": "ready"}))
                await ws.send(json.dumps({"type": "auto", "on": True}))
                other = hub.rooms[created["room"]]
                await until(lambda: other.pause is not None)
                assert other.pause is not None
                waiting = other.pause[1]
        assert waiting.cancelled()  # the server stopped with it waiting

    asyncio.run(main())
