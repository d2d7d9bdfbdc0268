"""`majiang serve --bus` (issue 21): two and three server processes on the real PostgreSQL
(127.0.0.1:5432) and Redis (127.0.0.1:6379), a room's four clients spread over them.

Every test has its own PostgreSQL schema and its own Redis channel prefix, so parallel runs
cannot meet. Redis or PostgreSQL missing FAILS the tests (never a skip). What is checked:
a full match played through two processes; through three, with the room's owner killed
(SIGKILL) mid-hand and the match finished through the survivors, every record replaying to
what the clients saw; an owner frozen (SIGSTOP) past its lease while another takes the room,
then woken with a decision due, which must not get a single action in; and, in the store,
many nodes racing for one expired lease and a stale owner racing the new one's appends.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import threading
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Iterator, Sequence
from typing import Any, TypeVar

import httpx
import pytest
import redis
from pgkit import postgres_schema
from serverkit import concealed_fields, keys
from test_server import TIMEOUT, Server
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from majiang.records import replay
from majiang.server.models import server_message
from majiang.store import Lease, LeaseLost, Store

REDIS_URL = os.environ.get("MAJIANG_TEST_REDIS", "redis://127.0.0.1:6379/0")
"""The Redis the cluster tests use; ``MAJIANG_TEST_REDIS`` overrides it."""
LEASE = 1.5
"""The nodes' lease seconds in these tests: a dead owner's rooms move after this long."""
SILENCE = 45.0
"""The longest a player waits for its next message before the test fails naming it."""
WALL_KEYS = {"wall", "deal", "draws", "tail", "salt"}
_prefixes = itertools.count()
T = TypeVar("T")


def redis_prefix() -> str:
    """A channel prefix of this test alone; Redis unreachable fails the test."""
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=5, socket_timeout=5).ping()
    except redis.RedisError as exc:
        pytest.fail(
            f"Redis is required by the cluster tests and is not reachable at {REDIS_URL} "
            f"({exc}); start it or point MAJIANG_TEST_REDIS at one",
            pytrace=False,
        )
    return f"mj_test_{os.getpid()}_{uuid.uuid4().hex[:8]}_{next(_prefixes)}"


class Nodes(list[Server]):
    """The processes of a test cluster, with their channel prefix and their database."""

    prefix = ""
    url = ""
    store: Store | None = None

    def by_node(self, node: str) -> Server:
        """The process of a cluster node's name (``host-pid-random``)."""
        pid = int(node.rsplit("-", 2)[1])
        for server in self:
            if server.proc is not None and server.proc.pid == pid:
                return server
        raise AssertionError(f"node {node} is none of this test's processes")

    def owner(self, room: str) -> tuple[Server, int]:
        """The process owning ``room`` now, as its lease in the database says, and the
        lease's epoch (a lease may move under load: the tests ask, never assume)."""
        if self.store is None:
            self.store = Store(self.url)
        row = self.store.room(room)
        assert row is not None, f"no room {room} in the database"
        lease = self.store.lease_of(row.id)
        assert lease is not None, f"room {room} has no lease"
        return self.by_node(lease[0]), lease[1]


@contextlib.contextmanager
def cluster(n: int) -> Iterator[Nodes]:
    """``n`` `majiang serve --bus` processes on one fresh schema and one fresh prefix."""
    prefix = redis_prefix()
    with postgres_schema() as url:
        nodes = Nodes()
        nodes.prefix = prefix
        nodes.url = url
        try:
            for _ in range(n):
                extra = ("--bus", REDIS_URL, "--bus-prefix", prefix)
                extra += ("--lease-seconds", str(LEASE), "--rooms-per-address", "100")
                nodes.append(Server(url, *extra).start())
            yield nodes
        finally:
            for node in nodes:
                if node.proc is not None and node.proc.poll() is None:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(node.proc.pid, signal.SIGCONT)
                node.stop()
            if nodes.store is not None:
                nodes.store.close()


def alive(nodes: list[Server]) -> list[Server]:
    return [s for s in nodes if s.proc is not None and s.proc.poll() is None]


async def within(
    seconds: float, what: str, aw: Awaitable[T], players: Sequence[Player] = ()
) -> T:
    """``aw``, or a failure naming what was waited for and where each player stands."""
    try:
        return await asyncio.wait_for(aw, seconds)
    except TimeoutError:
        states = "".join(f"\n  {p.state()}" for p in players)
        raise AssertionError(f"{what}: not done in {seconds:g} s{states}") from None


class Player:
    """One seat (or a spectator, token None): random legal actions, `ready` between hands;
    every message checked against the models and for hidden tiles, and kept. A connection
    its server drops is made again, to the next live server, with the same token."""

    def __init__(
        self, nodes: list[Server], room: str, token: str | None, at: int, seed: int
    ) -> None:
        self.nodes = nodes
        self.room = room
        self.token = token
        self.at = at
        self.rng = random.Random(seed)
        self.messages: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.end: dict[str, Any] | None = None
        self.hand_ends: list[dict[str, Any]] = []
        self.reconnects = 0
        self.acted = 0
        self.ws: ClientConnection | None = None
        self.last = -1
        """The seq of the last message this client got (a snapshot's included)."""
        self.history: dict[int, tuple[Any, Any]] = {}
        """seq -> (type, seat) of every room event this client saw."""

    @property
    def node(self) -> Server:
        """The process this client connects (or is connected) to."""
        return self.nodes[self.at % len(self.nodes)]

    def url(self) -> str:
        return f"{self.node.ws}/ws/{self.room}" + (f"?token={self.token}" if self.token else "")

    def state(self) -> str:
        """Where this client stands, for a failure's message."""
        who = "spectator" if self.token is None else f"seat {self.seat}"
        last = json.dumps(self.messages[-1])[:300] if self.messages else None
        return (
            f"{who} on port {self.node.port}: seq {self.last}, {len(self.messages)} "
            f"messages, {self.acted} actions, {self.reconnects} reconnects; last {last}"
        )

    async def _connect(self) -> ClientConnection:
        deadline = time.monotonic() + 60
        while True:
            live = alive(self.nodes)
            assert live, f"{self.state()}: no server left to connect to"
            while self.node not in live:
                self.at += 1
            try:
                return await connect(
                    self.url(), max_size=2**20, compression=None, open_timeout=10
                )
            except (OSError, InvalidStatus, TimeoutError) as exc:
                if time.monotonic() > deadline:
                    why = f"{self.state()}: no server took it in 60 s: {exc}"
                    raise AssertionError(why) from None
                self.at += 1
                await asyncio.sleep(0.2)

    def check(self, m: dict[str, Any]) -> None:
        server_message.validate_python(m)
        self.order(m)
        if m["type"] == "hand_end":
            return
        for path, seat, _ in concealed_fields(m):
            assert self.seat is not None and seat == self.seat, (self.seat, path, m)
        assert not WALL_KEYS & set(keys(m)), m

    def order(self, m: dict[str, Any]) -> None:
        """One connection's messages in seq order, whichever server sent them: a snapshot
        never goes back (what a seat was shown was stored: a new owner's rebuild has it);
        every other message is the next room event, or the echo of this seat's own hidden
        decision, which repeats the seq it followed (its step's events come after)."""
        kind, seq = m["type"], m["seq"]
        if kind == "error":
            return
        if kind == "snapshot":
            assert seq >= self.last, ("a snapshot went back", self.last, m)
            self.last = seq
            return
        event = m.get("event") or {}
        echo = kind == "event" and seq == self.last and event.get("seat") == self.seat
        if echo and self.token is not None and not m["legal"]:
            return
        assert seq == self.last + 1, ("out of order", self.last, m)
        self.last = seq
        if kind == "event":
            self.history[seq] = (event.get("type"), event.get("seat"))

    async def play(self) -> dict[str, Any]:
        """Until match_end (its message), reconnecting when dropped; a connection silent
        for ``SILENCE`` seconds fails the test, naming this client and its last message."""
        while self.end is None:
            ws = self.ws = await self._connect()
            try:
                while True:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), SILENCE)
                    except TimeoutError:
                        raise AssertionError(
                            f"{self.state()}: nothing came in {SILENCE:g} s"
                        ) from None
                    m = json.loads(raw)
                    if m["type"] == "snapshot":
                        self.seat = m["seat"]
                    self.check(m)
                    self.messages.append(m)
                    await self._react(ws, m)
                    if self.end is not None:
                        break
            except ConnectionClosed:
                pass
            if self.end is None:
                self.reconnects += 1
                self.at += 1
            await ws.close()
        return self.end

    async def _react(self, ws: ClientConnection, m: dict[str, Any]) -> None:
        kind = m["type"]
        if kind == "match_end":
            self.end = m
            return
        if kind == "hand_end":
            self.hand_ends.append(m)
        if self.token is None:
            return
        if kind == "snapshot":
            room = m["room"]
            me = room["seats"][self.seat]
            if m["view"] is None and not me["ready"] and room["status"] in ("waiting", "playing"):
                await ws.send(json.dumps({"type": "ready"}))
        if kind == "hand_end":  # after the last hand, refused (the room closes): ignored
            await ws.send(json.dumps({"type": "ready"}))
        legal = m.get("legal") or []
        if kind in ("event", "snapshot") and legal:
            wins = [a for a in legal if a["type"] == "hu"]
            action = wins[0] if wins else self.rng.choice(legal)
            self.acted += 1
            await ws.send(json.dumps({"type": "action", "action": action}))


async def open_room(
    nodes: list[Server], hands: int, turn_seconds: int = 0
) -> tuple[str, list[str]]:
    """A room created on the first node and joined through the others, round robin."""
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        body = {"variant": "guangdong", "hands": hands, "name": "东", "turn_seconds": turn_seconds}
        r = await http.post(f"{nodes[0].http}/api/rooms", json=body)
        assert r.status_code == 201, r.text
        room, tokens = r.json()["room"], [r.json()["token"]]
        for s in range(1, 4):
            node = nodes[s % len(nodes)]
            j = await http.post(f"{node.http}/api/rooms/{room}/join", json={"name": f"p{s}"})
            assert j.status_code == 200, j.text
            assert j.json()["seat"] == s
            tokens.append(j.json()["token"])
        for node in nodes:  # every node answers the room's state: its owner's
            state = (await http.get(f"{node.http}/api/rooms/{room}")).json()
            assert [seat["name"] for seat in state["seats"]] == ["东", "p1", "p2", "p3"]
    return room, tokens


async def check_finished(nodes: list[Server], room: str, players: list[Player]) -> None:
    """Every client saw the same totals and results, one history (each seq one event), and
    the record from every live node replays to them."""
    ends = [p.end for p in players]
    assert all(e is not None for e in ends)
    totals = ends[0]["totals"]  # type: ignore[index]
    assert all(e["totals"] == totals for e in ends)  # type: ignore[index]
    history: dict[int, tuple[Any, Any]] = {}
    for p in players:
        for seq, ev in p.history.items():
            assert history.setdefault(seq, ev) == ev, (seq, history[seq], ev)
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        for node in alive(nodes):
            record = (await http.get(f"{node.http}/api/rooms/{room}/record")).json()
            result = replay(record)
            assert result["totals"] == totals
            for p in players:
                seen = [m["result"] for m in p.hand_ends]
                assert result["hands"][-len(seen) :] == seen if seen else True
            state = (await http.get(f"{node.http}/api/rooms/{room}")).json()
            assert state["status"] == "finished" and state["totals"] == totals


def check_channels(
    nodes: Nodes, room: str, heard: list[tuple[str, bytes]], where: dict[str, Server]
) -> None:
    """What crossed the bus for the room: a seat's channel carries that seat's concealed
    tiles and no other's, the spectators' and everyone's channels none before hand_end;
    and an owner publishes a connection's messages only when that connection is on
    another process (``where``: ``s0``-``s3``, ``pub`` -> the process holding it), and
    publishes them all: whoever owned the room (it may move under load), the owner that
    published most published more than ten messages for each connection not on it."""
    counts: Counter[tuple[Server, str]] = Counter()
    for channel, data in heard:
        which = channel.removeprefix(f"{nodes.prefix}:r:{room}:")
        head, _, payload = data.partition(b"\n")
        if which == "in" or not head.startswith(b"m "):
            continue
        publisher = nodes.by_node(head.split(b" ")[1].decode())
        assert where.get(which) is not publisher, ("published for its own connection", which)
        m = json.loads(payload)
        server_message.validate_python(m)
        counts[publisher, which] += 1
        if which.startswith("s"):
            seat = int(which[1:])
            assert all(s == seat for _, s, _ in concealed_fields(m)), (which, m)
        elif m["type"] != "hand_end":
            assert not list(concealed_fields(m)), (which, m)
        if m["type"] != "hand_end":
            assert not WALL_KEYS & set(keys(m)), m
    by_publisher = Counter[Server]()
    for (publisher, _), n in counts.items():
        by_publisher[publisher] += n
    assert by_publisher, "nothing was published for the room"
    main = by_publisher.most_common(1)[0][0]
    for which, server in where.items():
        if server is not main:
            assert counts[main, which] > 10, (which, counts)
    assert sum(n for (_, which), n in counts.items() if which == "all") >= 3, counts


def test_four_clients_over_two_processes_play_a_full_match() -> None:
    """Seats 0 and 2 on one process, 1 and 3 and a spectator on the other: the match is
    played to its end, each seat sees only its own tiles, and all see one history. Every
    message on the room's channels is heard too: a seat's hidden tiles only on its own."""
    import redis.asyncio as aioredis

    with cluster(2) as nodes:

        async def main() -> None:
            room, tokens = await open_room(nodes, hands=2)
            bus = aioredis.Redis.from_url(REDIS_URL, socket_timeout=10)
            listen = bus.pubsub()
            await within(10, "subscribing", listen.psubscribe(f"{nodes.prefix}:r:{room}:*"))
            heard: list[tuple[str, bytes]] = []

            async def hear() -> None:
                async for m in listen.listen():
                    if m["type"] == "pmessage":
                        heard.append((m["channel"].decode(), m["data"]))

            hearing = asyncio.create_task(hear())
            players = [Player(nodes, room, t, s, seed=s) for s, t in enumerate(tokens)]
            watcher = Player(nodes, room, None, 1, seed=9)
            everyone = [*players, watcher]
            await within(120, "the match", asyncio.gather(*(p.play() for p in everyone)), everyone)
            await asyncio.sleep(0.3)
            hearing.cancel()
            await listen.aclose()
            await bus.aclose()
            assert all(p.reconnects == 0 for p in players)
            assert len(players[0].hand_ends) == 2
            await check_finished(nodes, room, [*players, watcher])
            where = {f"s{p.seat}": p.node for p in players} | {"pub": watcher.node}
            check_channels(nodes, room, heard, where)

        asyncio.run(main())


def test_the_owner_killed_mid_hand_the_match_finishes_through_the_survivors() -> None:
    """Three processes; the room's owner (the node that created it, or the one it moved to
    under load: the database says which) is SIGKILLed in the middle of the first hand. Its
    clients reconnect elsewhere with their tokens, the others stay connected; a survivor
    takes the lease with the next epoch, rebuilds the room from the stored log, and the
    match goes on to its end; every record replays to the totals the clients saw."""
    with cluster(3) as nodes:

        async def main() -> None:
            room, tokens = await open_room(nodes, hands=2)
            # seats 0 and 3 on the first node (the creator), 1 on the second, 2 on the third
            players = [Player(nodes, room, t, s, seed=10 + s) for s, t in enumerate(tokens)]
            tasks = [asyncio.create_task(p.play()) for p in players]
            deadline = time.monotonic() + 60
            while sum(p.acted for p in players) < 12:
                assert time.monotonic() < deadline, "the hand did not get going"
                assert not any(t.done() for t in tasks), "the match ended before the kill"
                await asyncio.sleep(0.02)
            owner, epoch = await asyncio.to_thread(nodes.owner, room)
            assert owner.proc is not None
            on_owner = [p for p in players if p.node is owner]
            os.kill(owner.proc.pid, signal.SIGKILL)
            owner.proc.wait(10)
            await within(180, "the match after the kill", asyncio.gather(*tasks), players)
            for p in players:
                if p in on_owner:
                    assert p.reconnects >= 1, p.state()
                else:  # never dropped: attached again to the new owner
                    assert p.reconnects == 0 and len(p.hand_ends) == 2, p.state()
            now, later = await asyncio.to_thread(nodes.owner, room)
            assert now is not owner and later > epoch, (now.port, later, epoch)
            await check_finished(nodes, room, players)

        asyncio.run(main())


def test_an_owner_frozen_past_its_lease_never_applies_an_action_after_it() -> None:
    """The race forced: the owner is frozen (SIGSTOP) with a turn's deadline running; the
    other node takes the room when the lease expires (the database shows it, with the next
    epoch) and play goes on there; the old owner is woken (SIGCONT) with the deadline long
    past, so its timer tries to play the default at once. Its write is refused (it no
    longer holds the lease: its log says so), nothing of it reaches a client, and the
    clients see one history to the end. Every seat is on the second node; if the room
    moved there before the freeze (a heartbeat late under load), there is no owner to
    freeze apart from the clients' node: that room is played out and another opened."""
    with cluster(2) as nodes:
        first, second = nodes

        async def main() -> None:
            for _attempt in range(3):
                room, tokens = await open_room(nodes, hands=1, turn_seconds=3)
                players = [Player(nodes, room, t, 1, seed=20 + s) for s, t in enumerate(tokens)]
                tasks = [asyncio.create_task(p.play()) for p in players]
                deadline = time.monotonic() + 60
                while sum(p.acted for p in players) < 6:
                    assert time.monotonic() < deadline, "the hand did not get going"
                    await asyncio.sleep(0.02)
                owner, epoch = await asyncio.to_thread(nodes.owner, room)
                if owner is first:
                    break
                await within(120, "a match that moved early", asyncio.gather(*tasks), players)
            else:
                pytest.fail("three rooms in a row moved to the second node before the freeze")
            assert first.proc is not None
            os.kill(first.proc.pid, signal.SIGSTOP)
            frozen, frozen_at = time.monotonic(), sum(len(p.messages) for p in players)
            deadline = frozen + 30
            while True:  # past the turn's deadline (3 s), taken, and play going on
                await asyncio.sleep(0.05)
                assert time.monotonic() < deadline, "nobody took the room from the frozen owner"
                if time.monotonic() - frozen < 4:
                    continue
                now, later = await asyncio.to_thread(nodes.owner, room)
                moved = sum(len(p.messages) for p in players) > frozen_at
                if now is second and later > epoch and moved:
                    break
            os.kill(first.proc.pid, signal.SIGCONT)
            await within(120, "the match after the wake", asyncio.gather(*tasks), players)
            await check_finished(nodes, room, players)
            assert all(p.reconnects == 0 for p in players)

        asyncio.run(main())
        log = first.log.read_text()
        assert "no longer holds its lease" in log, log[-2000:]


# -- the relay's epochs, forced message by message ---------------------------------------------


class _Conn:
    """What the relay needs of a connection: the texts it was given."""

    def __init__(self) -> None:
        self.got: list[str] = []
        self.strikes = 0
        self.closing = False

    def put(self, text: str) -> None:
        self.got.append(text)

    def close(self, code: int, reason: str) -> None:
        self.closing = True


def test_a_stale_owner_never_reaches_a_connection_attached_under_a_newer_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A node's connection attached by owner A (epoch 1); B takes the room (its notice,
    epoch 2) and attaches it again. A, which has not noticed yet, answers a late attach
    with its own snapshot and still publishes on the seat's channel: none of it reaches
    the connection, whatever the order, while B's messages do; refusals pass from anyone."""
    from types import SimpleNamespace

    from majiang.server.app import Limits
    from majiang.server.cluster import Cluster, Local

    async def main() -> None:
        hub: Any = SimpleNamespace(limits=Limits())
        node = Cluster(hub, REDIS_URL, "t", LEASE, "-")
        attaches: list[int] = []

        async def attach(cid: int) -> None:
            attaches.append(cid)

        monkeypatch.setattr(node, "_attach", attach)
        conn = _Conn()
        seat, room = "t:r:7:s1", "7"
        node.locals[1] = Local(conn, room, 1, "h", (seat, "t:r:7:all"))  # type: ignore[arg-type]
        node.by_channel = {seat: {1}, "t:r:7:all": {1}}
        inbox = node.inbox
        node._on_bus(seat, b"m A 1\nbefore")  # not attached yet: in the snapshot
        node._on_bus(inbox, b"c A 1:s:1\nsnapshot A1")
        node._on_bus(seat, b"m A 1\nevent A1")
        node._on_bus("t:r:7:all", b"o B 2\n")
        await asyncio.sleep(0)
        assert attaches == [1] and not node.locals[1].attached
        node._on_bus(seat, b"m A 1\nlate event A1")  # published before A lost the room
        node._on_bus(inbox, b"c B 1:s:2\nsnapshot B2")
        node._on_bus(inbox, b"c A 1:s:1\nstale snapshot A1")  # A answered a late attach
        node._on_bus(seat, b"m A 1\nstale event A1")
        node._on_bus(inbox, b"c A 1:m:1\nstale snapshot asked A1")
        node._on_bus(seat, b"m B 2\nevent B2")
        node._on_bus(inbox, b"c A 1:e:0\nrefused: send it again")
        node._on_bus("t:r:7:all", b"o A 1\n")  # A's notice of an older take, come late
        node._on_bus(seat, b"m B 2\nevent B2 again")
        await asyncio.sleep(0)
        assert attaches == [1]
        assert conn.got == [
            "snapshot A1",
            "event A1",
            "snapshot B2",
            "event B2",
            "refused: send it again",
            "event B2 again",
        ]
        await node.bus.redis.aclose()

    asyncio.run(main())


class _PubSub:
    """What Bus needs of redis-py's PubSub, fed by the test: subscriptions sent, and the
    messages the reader gets (Redis's confirmations among them)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, ...]] = []
        self.incoming: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def subscribe(self, *channels: str) -> None:
        self.sent.append(channels)

    async def unsubscribe(self, *channels: str) -> None:
        self.sent.append(("-", *channels))

    async def get_message(self, timeout: float | None = None) -> dict[str, Any]:
        return await self.incoming.get()

    async def aclose(self) -> None:
        pass


def test_a_subscription_never_confirmed_does_not_take_the_next_ones_confirmation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seat's channel subscribed, its confirmation lost (the wait ends with BusError);
    the connection goes, the seat reconnects and subscribes the channel again: Redis's
    confirmation of that one lets it through at once, and so for the next (a confirmation
    is matched to the subscription waiting for it, never to one given up before)."""
    from majiang.server import cluster as cl

    async def main() -> None:
        bus = cl.Bus(REDIS_URL, lambda channel, data: None)
        fake = _PubSub()
        bus.pubsub = fake
        bus._tasks = [asyncio.create_task(bus._reader())]
        monkeypatch.setattr(cl, "RPC_SECONDS", 0.2)
        with pytest.raises(cl.BusError, match="did not confirm"):
            await bus.subscribe("t:r:7:s1")
        await bus.unsubscribe("t:r:7:s1")
        for _ in range(2):
            again = asyncio.create_task(bus.subscribe("t:r:7:s1"))
            await asyncio.sleep(0.05)
            fake.incoming.put_nowait({"type": "subscribe", "channel": b"t:r:7:s1"})
            await asyncio.wait_for(again, 5)
            await bus.unsubscribe("t:r:7:s1")
        assert fake.sent == [("t:r:7:s1",), ("-", "t:r:7:s1")] * 3
        await bus.stop()

    asyncio.run(main())


# -- the lease in the store, raced directly ---------------------------------------------------


def _room(store: Store) -> int:
    return store.create_room(
        number=str(100000 + random.randrange(900000)),
        variant="guangdong",
        options={},
        hands=1,
        turn_seconds=0,
        seed=1,
        creator_addr="test",
        seats=[],
        owner="first",
    ).id


def test_nodes_racing_for_an_expired_lease_exactly_one_wins() -> None:
    """Eight nodes (each its own Store, so its own connections) released by a barrier at
    the same instant take the same expired lease, twenty times: one wins each time, with
    the next epoch, and the lease row names it."""
    with postgres_schema() as url:
        stores = [Store(url) for _ in range(8)]
        try:
            stores[0].register_node("first", "-", 60)
            for i, s in enumerate(stores):
                s.register_node(f"n{i}", "-", 60)
            room = _room(stores[0])
            for round_ in range(20):
                holder = stores[0].lease_of(room)
                assert holder is not None
                stores[0].retire_node(holder[0])
                barrier = threading.Barrier(len(stores))
                won: list[tuple[int, int]] = []

                def go(
                    i: int, barrier: threading.Barrier = barrier, won: list[Any] = won
                ) -> None:
                    barrier.wait()
                    epoch = stores[i].acquire(room, f"n{i}")
                    if epoch is not None:
                        won.append((i, epoch))

                threads = [threading.Thread(target=go, args=(i,)) for i in range(len(stores))]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                assert len(won) == 1, (round_, won)
                i, epoch = won[0]
                assert epoch == holder[1] + 1
                assert stores[0].lease_of(room) == (f"n{i}", epoch, True)
                for j, s in enumerate(stores):  # the winner's node live again for the next
                    s.heartbeat(f"n{j}", 60)
        finally:
            for s in stores:
                s.close()


def test_a_stale_owner_racing_the_new_one_never_both_append() -> None:
    """A stale owner (its lease taken) and the new owner append the same seq at the same
    instant, forty times: only the new owner's is stored, the stale one gets LeaseLost,
    and so for its other writes; the log ends with one entry per seq, all the new owner's."""
    with postgres_schema() as url:
        old, new = Store(url), Store(url)
        try:
            old.register_node("first", "-", 60)
            new.register_node("second", "-", 60)
            room = _room(old)
            old.retire_node("first")
            epoch = new.acquire(room, "second")
            assert epoch == 2
            stale, fresh = Lease("first", 1), Lease("second", epoch)
            outcomes: list[tuple[str, object]] = []
            for seq in range(40):
                barrier = threading.Barrier(2)

                def go(
                    store: Store,
                    lease: Lease,
                    who: str,
                    seq: int = seq,
                    barrier: threading.Barrier = barrier,
                ) -> None:
                    barrier.wait()
                    batch = [(room, [(seq, "x", {"by": who})])]
                    errors = store.append_many(batch, {room: lease})
                    outcomes.append((who, errors[0]))

                threads = [
                    threading.Thread(target=go, args=(old, stale, "old")),
                    threading.Thread(target=go, args=(new, fresh, "new")),
                ]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
            assert all(isinstance(e, LeaseLost) for who, e in outcomes if who == "old")
            assert all(e is None for who, e in outcomes if who == "new")
            events = new.events(room)
            assert [e.seq for e in events] == list(range(40))
            assert {e.data["by"] for e in events} == {"new"}
            with pytest.raises(LeaseLost):
                old.set_status(room, "playing", stale)
            with pytest.raises(LeaseLost):
                old.append(room, [(40, "x", {})], stale)
            new.set_status(room, "playing", fresh)
        finally:
            old.close()
            new.close()


def test_a_room_missing_from_the_leases_is_refused_on_every_path() -> None:
    """A fenced group append (leases given) stores nothing for a room it has no lease for:
    on the one-transaction path, and on the room-by-room path it falls back to when the
    group is refused (here: another room's seq is stored already)."""
    with postgres_schema() as url:
        store = Store(url)
        try:
            store.register_node("first", "-", 60)
            held, other = _room(store), _room(store)
            lease = Lease("first", 1)
            assert store.append_many([(held, [(0, "x", {})])], {held: lease}) == [None]
            batches: list[list[tuple[int, list[tuple[int, str, dict[str, Any]]]]]] = [
                [(held, [(1, "x", {})]), (other, [(0, "x", {})])],  # the group path
                [(held, [(0, "x", {})]), (other, [(0, "x", {})])],  # the fallback (0 stored)
            ]
            for batch in batches:
                errors = store.append_many(batch, {held: lease})
                assert isinstance(errors[1], LeaseLost), errors
            assert [e.seq for e in store.events(held)] == [0, 1]
            assert store.events(other) == []
            assert isinstance(store.append_many([(other, [(0, "x", {})])], {})[0], LeaseLost)
            assert store.events(other) == []
        finally:
            store.close()


def test_a_dropped_room_writes_nothing_from_a_task_that_still_holds_it() -> None:
    """A node drops a room (another node took it) while its timer's commit waits for the
    room's lock, and an HTTP join is queued behind it: once they run, neither stores
    anything (no log entry, no status, no seat), whatever store call they make; each gets
    503 ``moved``."""
    from majiang.server.app import ApiError, BusConfig, Handle, Hub, create_app
    from majiang.server.room import Outcome, Room
    from majiang.store import SeatRow

    async def main(url: str) -> None:
        store = Store(url)
        hub: Hub = create_app(store, bus=BusConfig(REDIS_URL, redis_prefix(), LEASE)).state.hub
        node = hub.cluster
        assert node is not None
        try:
            store.register_node(node.node, "-", 60)
            await node.bus.start(node.inbox)
            seats = [SeatRow(0, "东", None, "0" * 64)]
            row = store.create_room(
                number="654321", variant="guangdong", options={}, hands=1, turn_seconds=0,
                seed=1, creator_addr="test", seats=seats, owner=node.node,
            )  # fmt: skip
            handle = Handle(Room(row, seats))
            await node.adopt(handle, 1)
            await handle.lock.acquire()

            async def timer() -> None:  # what Hub.fire and a queued message do
                async with handle.lock:
                    await hub.commit(handle, Outcome(log=[(0, "x", {})], status="playing"))

            late = asyncio.create_task(timer())
            join = asyncio.ensure_future(node.http_ops["join"](handle, {"name": "p1"}))
            await asyncio.sleep(0.05)
            node.drop("654321")
            handle.lock.release()
            for task in (late, join):
                with pytest.raises(ApiError) as refused:
                    await task
                assert refused.value.code == "moved", refused.value
            assert "654321" not in hub.rooms
            assert store.events(row.id) == []
            fresh = store.room("654321")
            assert fresh is not None and fresh.status == "waiting"
            assert [s.seat for s in store.seats(row.id)] == [0]
        finally:
            await node.bus.stop()
            hub.writer.shutdown(wait=True)
            store.close()

    with postgres_schema() as url:
        asyncio.run(main(url))


def test_an_owner_frozen_inside_a_write_does_not_hold_a_takeover_forever(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The owner's append is frozen (as by SIGSTOP) just after its fence share-locked the
    lease row, its transaction left open; its heartbeat expires. Another node's acquire
    must not wait for it forever: PostgreSQL ends the idle transaction (the limit every
    node sets, ``limit_idle_transactions``), the lease moves with the next epoch, and the
    frozen append, woken, stores nothing."""
    with postgres_schema() as url:
        old, new = Store(url), Store(url)
        try:
            old.limit_idle_transactions(1.0)  # what each node sets (its lease seconds)
            old.register_node("first", "-", 60)
            new.register_node("second", "-", 60)
            room = _room(old)
            fenced, wake = threading.Event(), threading.Event()
            fence = old._fenced_out

            def frozen(cursor: object, rooms: set[int], leases: Any) -> set[int]:
                lost = fence(cursor, rooms, leases)
                fenced.set()
                wake.wait(120)
                return lost

            monkeypatch.setattr(old, "_fenced_out", frozen)
            errors: list[object] = []
            batch = [(room, [(0, "x", {"by": "old"})])]
            owner = threading.Thread(
                target=lambda: errors.extend(old.append_many(batch, {room: Lease("first", 1)}))
            )
            owner.start()
            assert fenced.wait(60), "the owner's append never reached its fence"
            new.retire_node("first")
            taken: list[int | None] = []
            taker = threading.Thread(target=lambda: taken.append(new.acquire(room, "second")))
            taker.start()
            taker.join(60)
            stuck = taker.is_alive()
            wake.set()
            owner.join(60)
            taker.join(60)
            assert not stuck, "the takeover waited for the frozen owner's transaction"
            assert taken == [2]
            assert new.lease_of(room) == ("second", 2, True)
            assert new.events(room) == []
            assert len(errors) == 1 and errors[0] is not None, errors
        finally:
            old.close()
            new.close()


# -- bad --bus arguments -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (("--bus", "nats://127.0.0.1:4222"), "is not a Redis URL"),
        (("--bus", REDIS_URL, "--db", "sqlite:///x.db"), "needs a PostgreSQL --db"),
        (("--bus", REDIS_URL, "--lease-seconds", "0"), "--lease-seconds: must be positive"),
        (("--bus", REDIS_URL, "--bus-prefix", "a b"), "--bus-prefix"),
        (("--bus", "redis://127.0.0.1:1/0"), "cannot reach the bus redis://127.0.0.1:1/0"),
    ],
)
def test_bad_bus_arguments_are_one_line_and_start_nothing(
    capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], says: str
) -> None:
    from test_cli_errors import error_of

    argv = ["serve", "--port", "0", "--db", "postgresql+psycopg://postgres@127.0.0.1:5432/test"]
    line = error_of(capsys, *argv[:3], *extra, *([] if "--db" in extra else argv[3:]))
    assert says in line, line
