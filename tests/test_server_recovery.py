"""Restart recovery (issue 16; PROTOCOL.md 3.4 and 3.5): `majiang serve` killed with SIGKILL
and started again on the same database resumes every room as its clients left it.

Rooms of every variant are played over WebSocket into the middle of hands (with bots, with a
seat on 托管, with a pending dissolve vote and a spectator), one between hands, one still
waiting for players. Every client keeps every message it got and builds from them, as any
client of PROTOCOL.md may, the snapshot it expects: seq, room state, view, legal. The server
process is killed (``os.kill(pid, SIGKILL)``) and a new one started on the same database;
each client reconnects with its token and its snapshot must be the one it built. Then actions
are sent and the server killed at once, before or while their messages go out: each is
either wholly in the stored log (the action and every bot decision that followed it, one
transaction) or not at all, and a client that saw any of its messages finds it there. The
rooms then play on to match_end, and each record replays to the results the clients saw.
Runs on SQLite and on PostgreSQL. The servers make every bot decision on the event loop
(``--bot-workers 0``): "an action and all it set off in one transaction" is that path's
promise; a search decision made off the loop is its own transaction, stored only if the room
has not moved (tests/test_server_bots.py, where a restart while a bot thinks is covered).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import os
import random
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from pgkit import postgres_schema
from serverkit import Tracker, concealed_fields, keys
from test_server import TIMEOUT, Server
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from majiang.records import replay
from majiang.server.models import server_message
from majiang.server.room import Room
from majiang.store import Store

WALL_KEYS = {"wall", "deal", "draws", "tail", "salt"}


class Conn:
    """One WebSocket client: every message it got, and what it builds from them (pushed
    snapshots and events; snapshots it asked for only to wait for the room are kept apart)."""

    def __init__(self, server: Server, room: str, token: str | None) -> None:
        self.url = f"{server.ws}/ws/{room}" + (f"?token={token}" if token else "")
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.tracker = Tracker()
        self.room: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.asked = 0
        self.replies: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.arrived = asyncio.Event()
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.budget = 30.0
        self.stamp = time.monotonic()

    async def open(self, server: Server | None = None) -> dict[str, Any]:
        """Connect (again, to ``server`` if given); the first snapshot, which it starts from."""
        await self.close()
        if server is not None:
            self.url = f"{server.ws}/ws/{self.url.split('/ws/', 1)[1]}"
        self.ws = await connect(self.url, max_size=2**20, compression=None)
        first: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), TIMEOUT))
        assert first["type"] == "snapshot", first
        self.seat = first["seat"]
        self.take(first)
        self.reader = asyncio.create_task(self._read(self.ws))
        return first

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                m = json.loads(raw)
                if m["type"] in ("snapshot", "error") and self.asked:
                    self.asked -= 1
                    self.messages.append(m)
                    self.replies.put_nowait(m)
                else:
                    self.take(m)
        except ConnectionClosed:
            pass

    def take(self, m: dict[str, Any]) -> None:
        """Keep a message and fold it into the expected room, view, seq and legal."""
        server_message.validate_python(m)
        self.messages.append(m)
        self.arrived.set()
        self.tracker.feed(m)
        kind = m["type"]
        if kind == "snapshot":
            self.room = copy.deepcopy(m["room"])
            self.legal = m["legal"]
        elif kind == "event":
            self.legal = m["legal"]
            ev = m["event"]
            seats = self.room["seats"]
            if ev["type"] == "ready":
                seats[ev["seat"]]["ready"] = True
            elif ev["type"] == "auto":
                seats[ev["seat"]]["auto"] = ev["on"]
            elif ev["type"] == "dissolve":
                self.room["dissolve"] = ev["request"]
            elif ev["type"] == "hand_start":
                self.room["status"] = "playing"
                self.room["hand_index"] = ev["index"]
                for seat in seats:
                    seat["ready"] = False
        elif kind == "hand_end":
            self.legal = []
            self.room["totals"] = m["totals"]
            self.room["hand_index"] += 1
            for seat in self.room["seats"]:
                seat["ready"] = bool(seat["bot"] or seat["auto"])
        elif kind == "match_end":
            self.legal = []
            self.room["totals"] = m["totals"]
            self.room["status"] = "dissolved" if m["reason"] == "dissolved" else "finished"
            for seat in self.room["seats"]:
                seat["ready"] = False

    def expected(self) -> dict[str, Any]:
        """The snapshot this client built from its messages (deadline and who is connected
        aside: a restart gives fresh deadlines, and the connections are new)."""
        return {
            "seq": self.tracker.seq,
            "room": self.room,
            "seat": self.seat,
            "view": self.tracker.view,
            "legal": self.legal,
        }

    async def send(self, data: dict[str, Any]) -> None:
        """Send, keeping under the server's rate limit (20 a second, bursts of 40)."""
        assert self.ws is not None
        now = time.monotonic()
        self.budget = min(30.0, self.budget + (now - self.stamp) * 15)
        self.stamp = now
        if self.budget < 1:
            await asyncio.sleep((1 - self.budget) / 15)
            self.budget = 1.0
        self.budget -= 1
        await self.ws.send(json.dumps(data))

    async def ask(self) -> dict[str, Any]:
        """A snapshot asked for now: every message the room had sent before it has come."""
        self.asked += 1
        await self.send({"type": "snapshot"})
        reply = await asyncio.wait_for(self.replies.get(), TIMEOUT)
        assert reply["type"] == "snapshot", reply
        return reply

    async def answer(self, count: int) -> dict[str, Any]:
        """Wait for the message after the first ``count``."""
        while len(self.messages) <= count:
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), TIMEOUT)
        return self.messages[count]

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await self.ws.close()
        if self.reader is not None:
            await asyncio.wait_for(self.reader, TIMEOUT)
        self.ws = self.reader = None


def comparable(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot without what a restart rightly changes (connections, deadlines)."""
    out = {k: copy.deepcopy(snapshot[k]) for k in ("seq", "room", "seat", "view", "legal")}
    for seat in out["room"]["seats"]:
        seat.pop("connected", None)
    if out["view"] is not None:
        out["view"].pop("turn_deadline", None)  # the turn's deadline is fresh too
    return out


ON_THE_LOOP = ("--bot-workers", "0")
"""Bots decide inside the call that set them off (see the module doc)."""


@dataclass
class Table:
    """A room and its clients (humans by seat, maybe a spectator)."""

    number: str
    variant: str
    hands: int
    turn_seconds: int
    tokens: dict[int, str]
    conns: list[Conn] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(0))

    def humans(self) -> list[Conn]:
        return [c for c in self.conns if c.token is not None]

    async def sync(self) -> None:
        """Every client has every message the room sent, and built what the server has."""
        for c in self.conns:
            got = await c.ask()
            assert comparable(got) == comparable(c.expected()), c.url

    async def step(self) -> bool:
        """One human decision (or readiness between hands), then wait for the room."""
        movers = [c for c in self.humans() if c.legal]
        if movers:
            c = self.rng.choice(movers)
            count = len(c.messages)
            await c.send({"type": "action", "action": self.rng.choice(c.legal)})
            answer = await c.answer(count)
            assert answer["type"] != "error", answer
            await self.sync()
            return True
        idle = [
            c
            for c in self.humans()
            if c.room["status"] == "playing"
            and c.tracker.view is None
            and not c.room["seats"][c.seat]["ready"]
        ]
        for c in idle:
            count = len(c.messages)
            await c.send({"type": "ready"})
            await c.answer(count)
        await self.sync()
        return bool(idle)

    async def play(self, actions: int) -> None:
        """``actions`` steps, then on until a hand is in play and a human must decide."""
        while actions > 0 or not any(c.legal for c in self.humans()):
            assert await self.step(), f"room {self.number} waits for nobody"
            actions -= 1

    async def finish(self) -> dict[str, Any]:
        """Play on to match_end (a few more decisions, then every human on 托管); the
        match_end every client got."""
        for _ in range(6):
            if self.conns[0].room["status"] != "playing":
                break
            assert await self.step(), f"room {self.number} waits for nobody"
        for c in self.humans():
            if not c.room["seats"][c.seat]["auto"] and c.room["status"] == "playing":
                await c.send({"type": "auto", "on": True})
        ends = []
        for c in self.conns:
            while not any(m["type"] == "match_end" for m in c.messages):
                await c.answer(len(c.messages))
            ends.append(next(m for m in c.messages if m["type"] == "match_end"))
        assert all(e == ends[0] for e in ends)
        return ends[0]


async def new_table(
    http: httpx.AsyncClient,
    server: Server,
    variant: str,
    humans: int,
    bots: dict[str, str],
    seed: int,
    hands: int = 2,
    turn_seconds: int = 0,
    spectator: bool = False,
) -> Table:
    """A room with ``humans`` human seats (the creator first) and bots, all connected."""
    body = {"variant": variant, "name": "P0", "hands": hands, "turn_seconds": turn_seconds}
    r = await http.post("/api/rooms", json={**body, "bots": bots})
    assert r.status_code == 201, r.text
    number, tokens = r.json()["room"], {0: r.json()["token"]}
    for i in range(1, humans):
        j = await http.post(f"/api/rooms/{number}/join", json={"name": f"P{i}"})
        assert j.status_code == 200, j.text
        tokens[j.json()["seat"]] = j.json()["token"]
    table = Table(number, variant, hands, turn_seconds, tokens, rng=random.Random(seed))
    for seat in sorted(tokens):
        table.conns.append(Conn(server, number, tokens[seat]))
    if spectator:
        table.conns.append(Conn(server, number, None))
    for c in table.conns:
        await c.open()
    await table.sync()  # the snapshots pushed when later seats joined have come
    return table


def kill(server: Server) -> None:
    """SIGKILL the server process: no shutdown, no flush, no goodbye."""
    assert server.proc is not None
    os.kill(server.proc.pid, signal.SIGKILL)
    server.proc.wait(10)
    assert server.proc.returncode == -signal.SIGKILL
    server.stop()


@contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    """A fresh database: an SQLite file, or a private PostgreSQL schema (tests/pgkit.py)."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'rooms.db'}"
    else:
        with postgres_schema() as url:
            yield url


def stored_log(url: str, number: str) -> list[tuple[str, dict[str, Any]]]:
    """The room's event log, read from the database by another process (this one)."""
    with Store(url) as store:
        row = store.room(number)
        assert row is not None
        return [(e.kind, e.data) for e in store.events(row.id)]


def outcome_is_whole(url: str, number: str) -> bool:
    """Does the stored log end where the room waits for someone (not in the middle of what
    one decision set off)? Replayed and resumed, it decides nothing more."""
    with Store(url) as store:
        row = store.room(number)
        assert row is not None
        room = Room.restore(row, store.seats(row.id), store.events(row.id))
    return room.resume().log == []


def scan_spectator(conn: Conn) -> None:
    """PROTOCOL.md 3.1 for a spectator: no concealed tile and no wall before hand_end."""
    for m in conn.messages:
        if m["type"] == "hand_end":
            continue
        assert list(concealed_fields(m)) == [], m
        assert not WALL_KEYS & set(keys(m)), m


def discards(messages: list[dict[str, Any]], hand: int) -> list[dict[str, Any]]:
    """The discards of hand ``hand`` in the events a client got (hand_start opens a hand)."""
    out, current = [], -1
    for m in messages:
        if m["type"] == "event" and m["event"]["type"] == "hand_start":
            current = m["event"]["index"]
        elif m["type"] == "event" and m["event"]["type"] == "discard" and current == hand:
            out.append({k: m["event"][k] for k in ("seat", "type", "tile")})
    return out


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_sigkill_and_restart_resume_every_room_as_its_clients_left_it(
    kind: str, tmp_path: Path
) -> None:
    """The scenario of the module doc, on SQLite and on PostgreSQL."""
    with database(kind, tmp_path) as url:
        asyncio.run(scenario(url))


async def scenario(url: str) -> None:
    """Play, kill, restart and check; kill in flight, restart and check; play out."""
    first = Server(url, *ON_THE_LOOP).start()
    try:
        async with httpx.AsyncClient(base_url=first.http, timeout=TIMEOUT) as http:
            tables = await before_the_kill(http, first)
    except BaseException:
        first.stop()
        raise
    seen_before = {t.number: [list(c.messages) for c in t.conns] for t in tables}
    logs_before = {t.number: stored_log(url, t.number) for t in tables}
    # the server stops (SIGSTOP); an action sent now is never read: the restart must not
    # have it (the client's snapshot below is the one built before it was sent)
    assert first.proc is not None
    os.kill(first.proc.pid, signal.SIGSTOP)
    c = tables[2].humans()[0]
    await c.send({"type": "action", "action": tables[2].rng.choice(c.legal)})
    kill(first)
    for t in tables:
        for c in t.conns:
            await c.close()

    second = Server(url, *ON_THE_LOOP).start()
    try:
        await after_the_restart(second, tables)
        inflight = await kill_in_flight(url, second, tables)
    except BaseException:
        second.stop()
        raise

    third = Server(url, *ON_THE_LOOP).start()
    try:
        async with httpx.AsyncClient(base_url=third.http, timeout=TIMEOUT) as http:
            await after_the_second_kill(third, tables, inflight)
            await play_out(url, http, third, tables, seen_before, logs_before)
    finally:
        third.stop()


async def before_the_kill(http: httpx.AsyncClient, server: Server) -> list[Table]:
    """Five rooms: mid-hand ones (four humans and a spectator; humans beside bots, one on
    托管; one human and three bots), one between hands, one waiting for a player."""
    a = await new_table(http, server, "guangdong", 4, {}, 1, spectator=True)
    b = await new_table(
        http, server, "hangzhou", 2, {"2": "greedy", "3": "random"}, 2, turn_seconds=300
    )
    c = await new_table(http, server, "hainan", 1, {"1": "greedy", "2": "random", "3": "greedy"}, 3)
    d = await new_table(http, server, "hongzhong", 2, {"2": "random", "3": "greedy"}, 4, hands=3)
    e = await new_table(http, server, "taizhou", 2, {}, 5)
    counts = [len(x.messages) for x in e.conns]
    r = await http.put(
        f"/api/rooms/{e.number}/seats/3",
        json={"bot": "greedy"},
        headers={"Authorization": f"Bearer {e.tokens[0]}"},
    )
    assert r.status_code == 200, r.text
    for x, count in zip(e.conns, counts, strict=True):
        assert (await x.answer(count))["type"] == "snapshot"  # pushed to everyone
    await e.sync()
    for t in (a, b, c, d):
        for conn in t.humans():
            await conn.send({"type": "ready"})
        await t.sync()
    await a.play(9)
    await a.humans()[0].send({"type": "dissolve", "vote": True})  # one vote of four: stays
    await b.play(3)
    await b.humans()[1].send({"type": "auto", "on": True})
    await b.sync()
    await b.play(4)
    await c.play(6)
    while not any(m["type"] == "hand_end" for m in d.conns[0].messages):
        assert await d.step()
    await d.humans()[0].send({"type": "ready"})  # seat 1 is not ready yet
    await e.humans()[0].send({"type": "ready"})
    for t in (a, d, e):
        await t.sync()
    assert [t.conns[0].room["status"] for t in (a, b, c, d, e)] == ["playing"] * 4 + ["waiting"]
    assert all(t.conns[0].tracker.view is not None for t in (a, b, c))
    assert d.conns[0].tracker.view is None and d.conns[0].room["hand_index"] == 1
    assert b.conns[1].room["seats"][1]["auto"] and a.conns[0].room["seats"][0]["ready"] is False
    return [a, b, c, d, e]


async def after_the_restart(server: Server, tables: list[Table]) -> None:
    """Every client reconnects with its token to the snapshot it built before the kill."""
    for t in tables:
        for c in t.conns:
            built = comparable(c.expected())
            got = await c.open(server)
            assert comparable(got) == built, (t.variant, c.seat)
            if got["legal"] and t.turn_seconds:
                assert got["deadline"] is not None
    # the pending dissolve vote survived too: voting again is refused as already cast
    a = tables[0].humans()[0]
    count = len(a.messages)
    await a.send({"type": "dissolve", "vote": True})
    refused = await a.answer(count)
    assert refused["type"] == "error" and refused["code"] == "already", refused


@dataclass
class InFlight:
    """An action sent just before the kill, and what the clients had then."""

    table: Table
    conn: Conn
    action: dict[str, Any]
    before: list[dict[str, Any]]
    """Every client's snapshot as built when the action was sent."""
    log_before: int
    log_after: list[tuple[str, dict[str, Any]]]
    seen: bool
    """Did its sender get any message of it before the kill?"""


async def kill_in_flight(url: str, server: Server, tables: list[Table]) -> list[InFlight]:
    """Decisions in flight when the server is killed: in guangdong an action whose answer
    came (acknowledged by a broadcast); in hangzhou an action just sent, wherever the server
    is with it; between hands in hongzhong a ready, the server killed the moment the
    database shows its first entry (the next hand's start and the bots' play are set off by
    it). Each is in the log wholly (the decision first, then all it set off: one
    transaction) or not at all."""
    a, b, _, d = tables[:4]
    assert server.proc is not None
    sent = []
    for t in (a, b, d):
        conn = t.humans()[1] if t is d else next(x for x in t.humans() if x.legal)
        action: dict[str, Any] = (
            {"type": "ready"} if t is d else {"type": "action", "action": t.rng.choice(conn.legal)}
        )
        log = stored_log(url, t.number)
        before = [comparable(x.expected()) for x in t.conns]
        count = len(conn.messages)
        if t is d:
            with Store(url) as store:
                row = store.room(t.number)
                assert row is not None
                await conn.send(action)
                deadline = time.monotonic() + TIMEOUT
                while len(store.events(row.id)) == len(log) and time.monotonic() < deadline:
                    pass  # poll as fast as the database answers
                kill(server)
        else:
            await conn.send(action)
            if t is a:
                await conn.answer(count)
        sent.append((t, conn, action, before, len(log), count))
    inflight = []
    for t, conn, action, before, log_before, count in sent:
        await conn.close()
        log_after = stored_log(url, t.number)
        seen = len(conn.messages) > count
        inflight.append(InFlight(t, conn, action, before, log_before, log_after, seen))
        new = log_after[log_before:]
        if new:  # the action is stored first, then all it set off, in one transaction
            kind, data = new[0]
            if action["type"] == "ready":
                assert (kind, data) == ("ready", {"seat": conn.seat})
            else:
                assert kind == "action" and data["action"] == action["action"], new[0]
            assert outcome_is_whole(url, t.number), (t.variant, new)
        if seen or t is not b:
            assert new, f"{t.variant}: an action acknowledged or stored is lost"
    return inflight


async def after_the_second_kill(
    server: Server, tables: list[Table], inflight: list[InFlight]
) -> None:
    """An in-flight action that is not in the log left the room exactly as before; one that
    is shows in every client's snapshot, which all agree."""
    for f in inflight:
        stored = len(f.log_after) > f.log_before
        snaps = [comparable(await c.open(server)) for c in f.table.conns]
        if not stored:
            assert snaps == f.before, f.table.variant
        else:
            mine = f.table.conns.index(f.conn)
            assert snaps[mine] != f.before[mine], f"{f.table.variant}: stored, not applied"
            assert all(got["seq"] >= b["seq"] for got, b in zip(snaps, f.before, strict=True))
            assert all(m["seq"] <= snaps[0]["seq"] for m in f.conn.messages)
        assert len({s["seq"] for s in snaps}) == 1
        assert len({json.dumps(s["room"], sort_keys=True) for s in snaps}) == 1
    for t in tables:
        if all(f.table is not t for f in inflight):
            for c in t.conns:
                built = comparable(c.expected())
                assert comparable(await c.open(server)) == built, t.variant


async def play_out(
    url: str,
    http: httpx.AsyncClient,
    server: Server,
    tables: list[Table],
    seen_before: dict[str, list[list[dict[str, Any]]]],
    logs_before: dict[str, list[tuple[str, dict[str, Any]]]],
) -> None:
    """Every room plays to match_end; its record replays to the results its clients saw; no
    action acknowledged before the first kill is missing from it."""
    e = tables[4]
    counts = [len(x.messages) for x in e.conns]
    j = await http.post(f"/api/rooms/{e.number}/join", json={"name": "late"})
    assert j.status_code == 200 and j.json()["seat"] == 2, j.text
    for x, count in zip(e.conns, counts, strict=True):
        assert (await x.answer(count))["type"] == "snapshot"  # pushed to everyone
    late = Conn(server, e.number, j.json()["token"])
    e.tokens[2] = j.json()["token"]
    e.conns.insert(2, late)
    await late.open()
    await e.sync()
    for conn in e.humans():
        if not conn.room["seats"][conn.seat]["ready"]:
            await conn.send({"type": "ready"})
    await e.sync()
    for t in tables:
        end = await t.finish()
        assert end["reason"] == "hands", (t.variant, end)
        record = (await http.get(f"/api/rooms/{t.number}/record")).json()
        assert len(record["hands"]) == t.hands
        again = replay(record)
        assert again["totals"] == end["totals"]
        hand_ends: dict[int, dict[str, Any]] = {}
        for c in t.conns:
            for m in c.messages:
                if m["type"] == "hand_end":
                    assert hand_ends.setdefault(m["result"]["index"], m["result"]) == m["result"]
        assert [hand_ends[i] for i in sorted(hand_ends)] == again["hands"][: len(hand_ends)]
        for i, seen in enumerate(seen_before[t.number]):  # each client's messages
            for h, hand in enumerate(record["hands"]):
                played = [a for a in hand["actions"] if a["type"] == "discard"]
                saw = discards(seen, h)
                assert played[: len(saw)] == saw, (t.variant, i, h)
        log = logs_before[t.number]
        assert stored_log(url, t.number)[: len(log)] == log
        if any(c.token is None for c in t.conns):
            scan_spectator(next(c for c in t.conns if c.token is None))
        for c in t.conns:
            await c.close()
