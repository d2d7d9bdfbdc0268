"""`majiang serve` as a real process on loopback, spoken to over HTTP (httpx) and WebSocket
(websockets) exactly as PROTOCOL.md says: no server code runs in the test process."""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from pgkit import postgres_schema
from serverkit import Tracker, concealed_fields
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from majiang.bots import BOTS, bot_label
from majiang.records import replay
from majiang.rules import VARIANTS
from majiang.server import verify_commitment
from majiang.server.models import server_message

MAJIANG = Path(sys.executable).with_name("majiang")
TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """A `majiang serve` subprocess; `stop()` ends it (SIGTERM, or SIGKILL with kill=True).
    Its rooms' bots play at once (`--bot-delay-ms 0`) unless ``extra`` names a pace."""

    def __init__(self, db: str, *extra: str) -> None:
        self.db = db
        self.extra = extra if "--bot-delay-ms" in extra else ("--bot-delay-ms", "0", *extra)
        self.port = free_port()
        self.http = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | None = None
        self.first_line = ""
        self.log = Path(tempfile.mkstemp(prefix="majiang-serve-", suffix=".log")[1])

    def start(self) -> Server:
        """Start it and wait (20 s at most) until it answers HTTP; a failure to, or a first
        line that never comes, fails the test with its stderr."""
        cmd = [str(MAJIANG), "serve", "--port", str(self.port), "--db", self.db, *self.extra]
        with self.log.open("w") as err:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
        stdout = self.proc.stdout
        assert stdout is not None
        reader = threading.Thread(target=lambda: setattr(self, "first_line", stdout.readline()))
        reader.start()
        reader.join(20)
        if reader.is_alive():  # it hangs before printing its address: stop it, say where
            self.proc.kill()
            reader.join(10)
            text = self.log.read_text()
            self.stop()
            pytest.fail(f"majiang serve printed nothing in 20 s (it hangs starting): {text}")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.http}/api/variants", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.05)
            if self.proc.poll() is not None:
                break
        self.stop()
        pytest.fail(f"majiang serve did not start: {self.first_line} {self.log.read_text()}")

    def stop(self, kill: bool = False) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
        if not self.log.exists():
            return  # stopped before
        text = self.log.read_text()
        self.log.unlink()
        if text.strip():  # shown by pytest when a test fails
            print(f"--- majiang serve stderr ---\n{text}", file=sys.stderr)


def serve_sqlite(
    tmp_path_factory: pytest.TempPathFactory, name: str, rooms_per_address: int = 200
) -> Iterator[Server]:
    """A ``majiang serve`` process on a fresh SQLite file, for a test module's fixture
    (``yield from serve_sqlite(tmp_path_factory, "name")``); stopped when it is done."""
    db = tmp_path_factory.mktemp(name) / "rooms.db"
    s = Server(f"sqlite:///{db}", "--rooms-per-address", str(rooms_per_address)).start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve_sqlite(tmp_path_factory, "serve")


@pytest.fixture(scope="module")
def pg_server() -> Iterator[Server]:
    with postgres_schema() as url:
        s = Server(url, "--rooms-per-address", "200").start()
        yield s
        s.stop()


def diff(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two JSON values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b)) for d in diff(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in diff(x, y, f"{path}[{i}]")
        ]
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


class Client:
    """One WebSocket connection: every message is checked against the models, tracked and
    kept; a player picks random legal actions, a spectator only listens."""

    def __init__(self, server: Server, room: str, token: str | None, seed: int) -> None:
        self.url = f"{server.ws}/ws/{room}" + (f"?token={token}" if token else "")
        self.rng = random.Random(seed)
        self.messages: list[dict[str, Any]] = []
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.tracker = Tracker()
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.seat: int | None = None
        self.closed = asyncio.Event()
        self.close_code: int | None = None
        self.problems: list[str] = []

    async def open(self) -> Client:
        self.ws = await connect(self.url, max_size=2**20, compression=None)
        self.reader = asyncio.create_task(self._read())
        first = await self.next()
        assert first["type"] == "snapshot"
        self.seat = first["seat"]
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                m = json.loads(raw)
                try:
                    server_message.validate_python(m)
                except ValueError as err:
                    self.problems.append(f"{m}: {err}")
                if m["type"] == "snapshot" and self.messages and self.tracker.view != m["view"]:
                    self.problems.append(
                        f"tracked view != snapshot {m['seq']}: {diff(self.tracker.view, m['view'])}"
                    )
                self.tracker.feed(m)
                self.messages.append(m)
                self.queue.put_nowait(m)
        except ConnectionClosed as closed:
            self.close_code = closed.rcvd.code if closed.rcvd else None
        else:
            self.close_code = self.ws.close_code
        self.closed.set()

    async def next(self) -> dict[str, Any]:
        try:
            return await asyncio.wait_for(self.queue.get(), TIMEOUT)
        except TimeoutError:
            last = "\n".join(json.dumps(m) for m in self.messages[-4:])
            state = f"closed {self.close_code}" if self.closed.is_set() else "open"
            pytest.fail(f"seat {self.seat} ({state}): nothing came in {TIMEOUT} s; last:\n{last}")

    async def send(self, data: dict[str, Any]) -> None:
        """Send one message; a cancelled caller does not cut it in half."""
        assert self.ws is not None
        await asyncio.shield(self.ws.send(json.dumps(data)))

    async def until(self, kind: str) -> dict[str, Any]:
        while True:
            m = await self.next()
            if m["type"] == kind:
                return m

    async def play(self, snapshot_every: int = 17, actions: int = -1) -> dict[str, Any] | None:
        """Random legal actions until match_end (or, given ``actions``, until that many were
        sent: None); now and then ask for a snapshot (the reader checks it equals the
        tracked view)."""
        n = 0
        hands = self.messages[0]["room"]["hands"]
        while actions:
            m = await self.next()
            n += 1
            if m["type"] in ("match_end", "stop"):
                return m if m["type"] == "match_end" else None
            if m["type"] == "hand_end" and m["result"]["index"] + 1 < hands:
                await self.send({"type": "ready"})
            if m["type"] == "snapshot" and m["view"] is None and m["seat"] is not None:
                room = m["room"]  # between hands, a ready refused (rate limit) is sent again
                if room["status"] == "playing" and not room["seats"][m["seat"]]["ready"]:
                    await self.send({"type": "ready"})
            if m["type"] == "error" and m["code"] == "rate_limited":
                await asyncio.sleep(0.5)  # faster than the server allows: back off
            if n % snapshot_every == 0 or m["type"] == "error":
                await self.send({"type": "snapshot"})  # after an error: what is legal now
            if self.queue.empty() and m["type"] in ("event", "snapshot") and m["legal"]:
                action = dict(self.rng.choice(m["legal"]))
                if self.rng.random() < 0.5:
                    del action["seat"]
                await self.send({"type": "action", "action": action})
                actions -= 1
        return None

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.wait_for(self.reader, TIMEOUT)
        if self.problems and os.environ.get("MAJIANG_DUMP"):
            with open(os.environ["MAJIANG_DUMP"], "w") as f:
                f.write("\n".join(json.dumps(m) for m in self.messages))
        assert self.problems == []

    def errors(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "error"]


async def new_room(
    http: httpx.AsyncClient, variant: str, humans: int = 4, **body: Any
) -> tuple[str, list[str]]:
    """Create a room and let humans 1..humans-1 join; the room number and seat tokens."""
    r = await http.post("/api/rooms", json={"variant": variant, "name": "P0", **body})
    assert r.status_code == 201, r.text
    room, tokens = r.json()["room"], [r.json()["token"]]
    for i in range(1, humans):
        j = await http.post(f"/api/rooms/{room}/join", json={"name": f"P{i}"})
        assert j.status_code == 200, j.text
        assert j.json()["seat"] == i
        tokens.append(j.json()["token"])
    return room, tokens


async def full_match(server: Server, variant: str, seed: int) -> None:
    """Four players and a spectator play a one-hand match of ``variant``."""
    async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
        room, tokens = await new_room(http, variant, hands=1, turn_seconds=0)
        spectator = await Client(server, room, None, 0).open()
        players = [
            await Client(server, room, t, seed * 10 + i).open() for i, t in enumerate(tokens)
        ]
        assert [p.seat for p in players] == [0, 1, 2, 3] and spectator.seat is None
        for p in players:
            await p.send({"type": "ready"})
        ends = await asyncio.gather(*(p.play() for p in players))
        spec_end = await spectator.until("match_end")
        assert all(e == spec_end for e in ends)
        for c in [*players, spectator]:
            # a random client may act on a stale legal list (a snapshot it asked for before
            # its last action, a match just over), or faster than the rate limit: refused
            benign = ("illegal", "closed", "rate_limited")
            assert all(e["code"] in benign for e in c.errors()), c.errors()
            await c.close()
        # every hand_end is the same for all, and commits to the deal shown at its start
        hand_ends = [
            [m for m in c.messages if m["type"] == "hand_end"] for c in [*players, spectator]
        ]
        assert len(hand_ends[0]) == 1 and all(h == hand_ends[0] for h in hand_ends)
        end = hand_ends[0][0]
        for c in [*players, spectator]:
            start = next(
                m["event"]
                for m in c.messages
                if m["type"] == "event" and m["event"]["type"] == "hand_start"
            )
            assert verify_commitment(end["deal"], end["salt"], start["commitment"])
        assert end["totals"] == spec_end["totals"] and sum(end["totals"]) == 0
        # a seat sees only its own concealed tiles, a spectator none, until hand_end
        for c in [*players, spectator]:
            for m in c.messages:
                if m["type"] in ("hand_end", "match_end"):
                    break
                for path, seat, _ in concealed_fields(m):
                    assert c.seat is not None and seat == c.seat, (variant, path)
        # the spectator saw the same public events: the same seqs, the same hand events
        public = [m["seq"] for m in spectator.messages if m["type"] != "snapshot"]
        for p in players:
            seen = sorted({m["seq"] for m in p.messages if m["type"] != "snapshot"})
            assert seen == sorted(set(public))
        # the stored record replays to the totals the clients saw
        record = (await http.get(f"/api/rooms/{room}/record")).json()
        assert replay(record)["totals"] == spec_end["totals"]
        assert [h["dealer"] for h in record["hands"]] == [end["result"]["dealer"]]
        state = (await http.get(f"/api/rooms/{room}")).json()
        assert state["status"] == "finished" and state["totals"] == spec_end["totals"]
        listed = (await http.get("/api/matches", params={"limit": 100})).json()
        assert any(m["room"] == room and m["totals"] == spec_end["totals"] for m in listed)


def test_four_players_finish_a_match_of_every_variant(server: Server) -> None:
    async def main() -> None:
        await asyncio.gather(*(full_match(server, v, i) for i, v in enumerate(VARIANTS)))

    asyncio.run(main())


def test_the_same_on_postgresql(pg_server: Server) -> None:
    async def main() -> None:
        await asyncio.gather(*(full_match(pg_server, v, 7 + i) for i, v in enumerate(VARIANTS)))

    asyncio.run(main())


async def snapshot_of(client: Client) -> dict[str, Any]:
    """A fresh snapshot (what is already queued, older snapshots included, is dropped)."""
    while not client.queue.empty():
        client.queue.get_nowait()
    await client.send({"type": "snapshot"})
    return await client.until("snapshot")


def test_refused_messages_get_an_error_and_change_nothing(server: Server) -> None:
    """PROTOCOL.md 3.2: an illegal action, a wrong seat's, a spectator's, a bad token, a
    malformed or oversized message: `error`, and the state is the same before and after."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            room, tokens = await new_room(http, "guangdong", humans=2, turn_seconds=0)
            for seat in (2, 3):
                r = await http.put(
                    f"/api/rooms/{room}/seats/{seat}",
                    json={"bot": "greedy"},
                    headers={"Authorization": f"Bearer {tokens[0]}"},
                )
                assert r.status_code == 200, r.text
            a, b = [await Client(server, room, t, i).open() for i, t in enumerate(tokens)]
            spectator = await Client(server, room, None, 9).open()
            await a.send({"type": "ready"})
            await b.send({"type": "ready"})
            start = await a.until("event")
            while start["event"]["type"] != "hand_start":
                start = await a.until("event")
            # the bots have played on until a human must decide; the room waits for it
            before = [await snapshot_of(c) for c in (a, b, spectator)]
            mover, other, mine = (a, b, before[0]) if before[0]["legal"] else (b, a, before[1])
            legal = mine["legal"]
            assert legal, "a human decides"
            held = {x["tile"] for x in legal if x["type"] == "discard"}
            not_held = next(f"{n}m" for n in range(1, 10) if f"{n}m" not in held)
            wrong_seat = dict(legal[0], seat=other.seat)
            bad = [
                (mover, {"type": "action", "action": {"type": "discard", "tile": not_held}}),
                (mover, {"type": "action", "action": wrong_seat}),
                (mover, {"type": "action", "action": {"type": "discard", "tile": "0m"}}),
                (other, {"type": "action", "action": legal[0] | {"seat": other.seat}}),
                (spectator, {"type": "action", "action": legal[0]}),
                (mover, {"type": "ready"}),
                (mover, {"type": "fly"}),
                (mover, {"type": "action"}),
                (mover, {"type": "action", "action": legal[0], "x": "y" * 5000}),
            ]
            for client, data in bad:
                await client.send(data)
                err = await client.until("error")
                assert err["seq"] == mine["seq"], err
            assert mover.ws is not None
            await mover.ws.send(b"\x00binary")
            assert (await mover.until("error"))["code"] == "bad_message"
            after = [await snapshot_of(c) for c in (a, b, spectator)]
            assert after == before
            codes = [e["code"] for e in [*mover.errors(), *other.errors(), *spectator.errors()]]
            refusals = ["illegal", "wrong_seat", "bad_action", "illegal", "spectator", "in_hand"]
            malformed = ["bad_message", "bad_message", "too_large", "bad_message"]
            assert sorted(codes) == sorted([*refusals, *malformed])
            # a bad token: refused with an error, the connection closed
            bad_token = Client(server, room, "not-a-token", 0)
            bad_token.ws = await connect(bad_token.url)
            bad_token.reader = asyncio.create_task(bad_token._read())
            err = await bad_token.next()
            assert err["type"] == "error" and err["code"] == "bad_token"
            await asyncio.wait_for(bad_token.closed.wait(), TIMEOUT)
            assert [await snapshot_of(c) for c in (a, b, spectator)] == before
            # the room plays on: dissolve it
            await a.send({"type": "dissolve", "vote": True})
            await b.send({"type": "dissolve", "vote": True})
            end = await spectator.until("match_end")
            assert end["reason"] == "dissolved"
            for c in (a, b, spectator):
                await c.close()

    asyncio.run(main())


def test_one_refusal_ends_a_dissolve_vote_for_everyone(server: Server) -> None:
    """PROTOCOL.md: ``{"type": "dissolve", "vote": false}`` from any seated human ends the
    vote at once, even with the others agreed: every seat and spectator gets the refusal
    with ``request`` null, the room state shows no vote, play goes on; a new ask opens a
    new vote, and every human agreeing to that one dissolves the room."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            room, tokens = await new_room(
                http, "hongzhong", humans=3, hands=2, turn_seconds=0, bots={"3": "greedy"}
            )
            players = [await Client(server, room, t, i).open() for i, t in enumerate(tokens)]
            spectator = await Client(server, room, None, 9).open()
            for p in players:
                await p.send({"type": "ready"})
            await players[0].send({"type": "dissolve", "vote": True})
            await players[1].send({"type": "dissolve", "vote": True})
            while True:  # seat 2 sees both yes votes before it refuses
                m = await players[2].until("event")
                vote = m["event"].get("request") if m["event"]["type"] == "dissolve" else None
                if vote is not None and vote["votes"][:2] == [True, True]:
                    break
            await players[2].send({"type": "dissolve", "vote": False})
            for c in [*players, spectator]:
                while True:
                    m = await c.until("event")
                    if m["event"]["type"] == "dissolve" and m["event"]["seat"] == 2:
                        break
                assert m["event"] == {"type": "dissolve", "seat": 2, "vote": False, "request": None}
            state = (await http.get(f"/api/rooms/{room}")).json()
            assert state["dissolve"] is None and state["status"] == "playing"
            refused = await _snapshot(players[0])
            assert refused["room"]["dissolve"] is None
            await players[1].send({"type": "dissolve", "vote": True})  # a new vote
            for p in (players[0], players[2]):
                await p.send({"type": "dissolve", "vote": True})
            end = await spectator.until("match_end")
            assert end["reason"] == "dissolved"
            for c in [*players, spectator]:
                await c.close()

    asyncio.run(main())


async def _snapshot(c: Client) -> dict[str, Any]:
    await c.send({"type": "snapshot"})
    return await c.until("snapshot")


def test_a_flood_is_rate_limited_without_harm(server: Server) -> None:
    """A connection sending faster than the limit gets `rate_limited` errors; it and its room
    live on, and once it slows down it is served again."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            room, tokens = await new_room(http, "taizhou", 1, bots={"1": "random"})
            c = await Client(server, room, tokens[0], 0).open()
            for _ in range(120):
                await c.send({"type": "snapshot"})
            got = [await c.next() for _ in range(120)]
            kinds = [m["type"] for m in got]
            assert 0 < kinds.count("snapshot") < 120
            assert all(m["code"] == "rate_limited" for m in got if m["type"] == "error")
            await asyncio.sleep(1)
            assert (await snapshot_of(c))["room"]["status"] == "waiting"
            await c.send({"type": "dissolve", "vote": True})
            assert (await c.until("match_end"))["reason"] == "dissolved"
            await c.close()

    asyncio.run(main())


def test_a_reconnect_resumes_from_its_snapshot_and_a_new_connection_replaces_the_old(
    server: Server,
) -> None:
    """PROTOCOL.md 2 and 3.4: a seat that drops and reconnects mid-hand gets a snapshot equal
    to the view it had, and plays on from it to the end; a second connection with the same
    token closes the first."""

    async def attempt(http: httpx.AsyncClient, seed: int) -> bool:
        bots = {"1": "greedy", "2": "random", "3": "greedy"}
        room, tokens = await new_room(http, "hangzhou", 1, hands=1, turn_seconds=0, bots=bots)
        first = await Client(server, room, tokens[0], seed).open()
        await first.send({"type": "ready"})
        for _ in range(4):  # a few decisions, then drop the connection
            m = await first.next()
            while not (m["type"] in ("event", "snapshot") and m["legal"] and first.queue.empty()):
                if m["type"] == "match_end":
                    await first.close()
                    return False  # the hand ended too soon: another room
                m = await first.next()
            await first.send({"type": "action", "action": first.rng.choice(m["legal"])})
        snap = await snapshot_of(first)
        if snap["view"] is None:
            await first.close()
            return False
        await first.close()
        state = (await http.get(f"/api/rooms/{room}")).json()
        assert state["seats"][0]["connected"] is False and state["status"] == "playing"
        again = await Client(server, room, tokens[0], 2).open()
        assert again.messages[0] == snap
        # a newer connection with the same token replaces this one
        newer = await Client(server, room, tokens[0], 3).open()
        await asyncio.wait_for(again.closed.wait(), TIMEOUT)
        assert again.close_code == 4000
        assert newer.messages[0]["view"] == snap["view"]
        if newer.messages[0]["legal"]:
            newer.queue.put_nowait(newer.messages[0])
        end = await newer.play()
        assert end is not None
        record = (await http.get(f"/api/rooms/{room}/record")).json()
        assert replay(record)["totals"] == end["totals"]
        await newer.close()
        return True

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            for seed in range(5):
                if await attempt(http, seed):
                    return
            pytest.fail("every hand ended before the seat had decided four times")

    asyncio.run(main())


def without_connected(snapshot: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(snapshot)
    for seat in out["room"]["seats"]:
        del seat["connected"]
    return out


def test_a_sigkilled_server_resumes_every_room_on_restart(tmp_path: Path) -> None:
    """PROTOCOL.md 3.5: rooms in play mid-hand when the server is killed with SIGKILL are
    rebuilt from the database on restart: every seat reconnects with its token to the
    snapshot it had (same seq, view, legal: no accepted action lost), and the matches go on
    to totals their records replay to."""
    db = f"sqlite:///{tmp_path / 'kill.db'}"

    async def before_kill(server: Server) -> list[tuple[str, list[str], list[dict[str, Any]]]]:
        rooms, clients = [], []
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            for i, variant in enumerate(("hangzhou", "hainan", "hongzhong")):
                bots = {"2": "greedy", "3": "random"}
                room, tokens = await new_room(http, variant, 2, hands=4, turn_seconds=0, bots=bots)
                players = [await Client(server, room, t, 50 + i).open() for t in tokens]
                clients += players
                for p in players:
                    await p.send({"type": "ready"})
                tasks = [asyncio.create_task(p.play(actions=3 + 2 * i)) for p in players]
                await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                for p in players:  # one player has made its moves: both stop
                    p.queue.put_nowait({"type": "stop"})
                await asyncio.gather(*tasks)
                await asyncio.sleep(0.3)  # actions in flight land
                snaps = [await snapshot_of(p) for p in players]
                if snaps[0]["room"]["status"] == "playing":  # not over already (quick wins)
                    rooms.append((room, tokens, snaps))
        server.stop(kill=True)  # with every client still connected
        for c in clients:
            await asyncio.wait_for(c.closed.wait(), TIMEOUT)
            await c.close()
        assert len(rooms) >= 2
        return rooms

    first = Server(db).start()
    try:
        rooms = asyncio.run(before_kill(first))
    finally:
        first.stop(kill=True)
    assert first.proc is not None and first.proc.returncode == -signal.SIGKILL

    async def after_restart(server: Server) -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            for room, tokens, snaps in rooms:
                players = [await Client(server, room, t, 70).open() for t in tokens]
                again = [await snapshot_of(p) for p in players]
                assert [without_connected(s) for s in again] == [
                    without_connected(s) for s in snaps
                ]
                for p in players:  # go on from the snapshot
                    p.queue.put_nowait(again[players.index(p)])
                ends = await asyncio.gather(*(p.play() for p in players))
                assert ends[0] is not None and ends[0] == ends[1]
                record = (await http.get(f"/api/rooms/{room}/record")).json()
                assert len(record["hands"]) == 4
                assert replay(record)["totals"] == ends[0]["totals"]
                for p in players:
                    await p.close()

    second = Server(db).start()
    try:
        asyncio.run(after_restart(second))
    finally:
        second.stop()


def test_a_timeout_plays_the_default_and_turns_auto_on(server: Server) -> None:
    """PROTOCOL.md 3.3: a seat that lets its deadline pass has its default played (the tile
    it drew is discarded, or a claim passed) and goes on auto; the match then ends without it."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=TIMEOUT) as http:
            bots = {"1": "greedy", "2": "greedy", "3": "greedy"}
            room, tokens = await new_room(http, "guangdong", 1, hands=1, turn_seconds=1, bots=bots)
            c = await Client(server, room, tokens[0], 1).open()
            await c.send({"type": "ready"})
            m = await c.next()
            while not (m["type"] == "event" and m["legal"]):
                m = await c.next()
            now = time.time() * 1000
            assert now < m["deadline"] <= now + 1100
            await asyncio.sleep(0.2)  # the reader takes in what came with the decision
            view = copy.deepcopy(c.tracker.view)
            assert view is not None
            end = await c.until("match_end")
            assert time.time() * 1000 >= m["deadline"]
            events = [
                x["event"] for x in c.messages if x["type"] == "event" and x["seq"] > m["seq"]
            ]
            i = events.index({"type": "auto", "seat": 0, "on": True})
            mine = [e for e in events[:i] if e.get("seat") == 0]
            if view["phase"] == "turn" and view["current"] == 0:
                assert mine == [{"seat": 0, "type": "discard", "tile": view["seats"][0]["drawn"]}]
            else:  # a claim passed (told to the seat alone), or the window resolved without it
                assert all(e["type"] in ("pass", "draw", "flower") for e in mine), mine
            state = (await http.get(f"/api/rooms/{room}")).json()
            assert state["seats"][0]["auto"] is True and end["reason"] == "hands"
            await c.close()

    asyncio.run(main())


def test_http_calls_and_their_errors(server: Server) -> None:
    with httpx.Client(base_url=server.http, timeout=TIMEOUT) as http:
        variants = http.get("/api/variants").json()
        assert [v["id"] for v in variants] == list(VARIANTS)
        for v in variants:
            declared = VARIANTS[v["id"]].options
            assert [o["id"] for o in v["options"]] == [o.name for o in declared]
            for o, d in zip(v["options"], declared, strict=True):
                assert o["kind"] == d.kind and o["default"] == d.default and o["zh"] == d.zh
                assert o.get("choices") == (list(d.choices) if d.kind == "choice" else None)
                assert o.get("min") == (d.minimum if d.kind == "int" else None)

        def refused(r: httpx.Response, status: int, *words: str) -> None:
            assert r.status_code == status, r.text
            error = r.json()["error"]
            assert set(error) == {"code", "message"}
            for w in words:
                assert w in error["message"], (w, error)

        refused(http.post("/api/rooms", json={"variant": "nowhere"}), 422, "nowhere")
        refused(http.post("/api/rooms", json={}), 422, "variant")
        refused(
            http.post("/api/rooms", json={"variant": "guangdong", "options": {"horsies": 2}}),
            422,
            "horsies",
        )
        refused(
            http.post("/api/rooms", json={"variant": "guangdong", "options": {"base_score": 0}}),
            422,
            "base_score",
        )
        refused(http.post("/api/rooms", json={"variant": "guangdong", "hands": 0}), 422, "hands")
        refused(
            http.post("/api/rooms", json={"variant": "guangdong", "bots": {"0": "greedy"}}),
            422,
            "0",
        )
        refused(
            http.post("/api/rooms", json={"variant": "guangdong", "bots": {"1": "ghost"}}),
            422,
            "ghost",
        )
        refused(http.post("/api/rooms/000000/join", json={"name": "X"}), 404, "000000")
        refused(http.get("/api/rooms/000000"), 404)
        refused(http.get("/api/nothing"), 404)

        r = http.post(
            "/api/rooms",
            json={"variant": "hainan", "options": {"base_unit": 2}, "bots": {"3": "random"}},
        )
        assert r.status_code == 201
        room, owner = r.json()["room"], r.json()["token"]
        assert len(room) == 6 and room.isdigit() and len(owner) >= 22
        state = http.get(f"/api/rooms/{room}").json()
        assert state["status"] == "waiting" and state["hands"] == 8 and state["turn_seconds"] == 15
        assert state["options"] == VARIANTS["hainan"].resolve_options({"base_unit": 2})
        assert [s["name"] for s in state["seats"]] == ["Player", None, None, "random"]
        assert state["seats"][3]["bot"] == "random" and state["seats"][3]["ready"] is True
        joined = http.post(f"/api/rooms/{room}/join", json={"name": "Bo"}).json()
        assert joined["seat"] == 1
        auth = {"Authorization": f"Bearer {owner}"}
        other = {"Authorization": f"Bearer {joined['token']}"}
        refused(http.put(f"/api/rooms/{room}/seats/2", json={"bot": "greedy"}, headers=other), 403)
        refused(http.put(f"/api/rooms/{room}/seats/2", json={"bot": "greedy"}), 403)
        refused(http.put(f"/api/rooms/{room}/seats/1", json={"bot": "greedy"}, headers=auth), 409)
        refused(http.put(f"/api/rooms/{room}/seats/2", json={"bot": "ghost"}, headers=auth), 422)
        refused(http.put(f"/api/rooms/{room}/seats/4", json={"bot": "greedy"}, headers=auth), 422)
        refused(http.delete(f"/api/rooms/{room}/seats/1", headers=auth), 409)
        r = http.put(f"/api/rooms/{room}/seats/2", json={"bot": "greedy"}, headers=auth)
        assert r.status_code == 200 and r.json()["seats"][2]["bot"] == "greedy"
        refused(http.post(f"/api/rooms/{room}/join", json={"name": "Cy"}), 409, "full")
        r = http.delete(f"/api/rooms/{room}/seats/2", headers=auth)
        assert r.status_code == 200 and r.json()["seats"][2]["name"] is None
        assert http.post(f"/api/rooms/{room}/join", json={"name": "Cy"}).json()["seat"] == 2
        record = http.get(f"/api/rooms/{room}/record").json()
        assert record["hands"] == [] and record["players"] == ["Player", "Bo", "Cy", "random"]
        refused(http.get("/api/matches", params={"limit": 0}), 422, "limit")
        schema = http.get("/openapi.json").json()
        components = schema["components"]["schemas"]
        for name in (
            "ActionMsg",
            "SnapshotOut",
            "EventOut",
            "HandEndOut",
            "MatchEndOut",
            "ErrorOut",
            "View",
        ):
            assert name in components
        assert {"/api/variants", "/api/rooms", "/api/rooms/{room}/join", "/api/matches"} <= set(
            schema["paths"]
        )


def test_bots_have_display_names_in_both_languages(server: Server) -> None:
    """``GET /api/bots`` still lists the ids (the lobby reads it); ``GET /api/bots/names``
    gives each the names a player reads, Chinese and English, none of them an id."""
    with httpx.Client(base_url=server.http, timeout=TIMEOUT) as http:
        ids = http.get("/api/bots").json()
        assert ids == list(BOTS)
        named = http.get("/api/bots/names").json()
        assert [b["id"] for b in named] == ids
        for b in named:
            assert set(b) == {"id", "zh", "en"}
            assert (b["zh"], b["en"]) == bot_label(b["id"])
            assert b["zh"] != b["id"] and b["en"] != b["id"], b
            assert all("\u4e00" <= c <= "\u9fff" for c in b["zh"]), b
            assert b["en"].isascii(), b
        greedy = next(b for b in named if b["id"] == "greedy")
        assert (greedy["zh"], greedy["en"]) == ("普通", "normal")
        assert "/api/bots/names" in http.get("/openapi.json").json()["paths"]
    assert bot_label("search:12") == bot_label("search")


def test_rooms_per_address_are_bounded(tmp_path: Path) -> None:
    s = Server(f"sqlite:///{tmp_path / 'few.db'}", "--rooms-per-address", "2").start()
    try:
        with httpx.Client(base_url=s.http, timeout=TIMEOUT) as http:
            for _ in range(2):
                assert http.post("/api/rooms", json={"variant": "taizhou"}).status_code == 201
            r = http.post("/api/rooms", json={"variant": "taizhou"})
            assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_rooms"
    finally:
        s.stop()


def test_serve_names_a_bad_database_or_a_busy_port_in_one_line(
    server: Server, tmp_path: Path
) -> None:
    env = {**os.environ, "MAJIANG_DB": ""}
    for args, words in (
        (["--db", "nope://x"], ["nope://x"]),
        (["--port", str(server.port), "--db", f"sqlite:///{tmp_path / 'x.db'}"], ["in use"]),
    ):
        out = subprocess.run(
            [str(MAJIANG), "serve", *args], capture_output=True, text=True, timeout=60, env=env
        )
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.count("\n") == 1 and all(w in out.stderr for w in words), out.stderr


def test_the_server_process_tunes_its_collector() -> None:
    # majiang serve freezes what start-up made and collects in larger batches (serve.py,
    # GC_THRESHOLD: the default collections held the loop 50-130 ms at 1,000 tables)
    code = (
        "import gc; from majiang.cli.serve import GC_THRESHOLD, tune_gc; tune_gc(); "
        "print(gc.get_threshold() == GC_THRESHOLD, gc.get_freeze_count() > 1000)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "True"]
