"""``majiang serve --bus``: several server processes (nodes) on one PostgreSQL and one Redis.

Any node accepts any client. Each room has one owner at a time, the node holding its lease
in PostgreSQL (``room_leases``: room -> node, epoch; it expires with the node's heartbeat in
``nodes``). The owner alone runs the room's engine and writes its log, every write fenced by
its lease in the same transaction (``majiang.store.Lease``), so an old owner can never write
again once another node took the room. Other nodes forward their clients' messages to the
owner over Redis pub/sub and relay back what it publishes:

- ``{prefix}:r:{room}:s{seat}``: a seat's own messages (its tiles, its ``legal``), only there;
- ``{prefix}:r:{room}:pub``: spectators' messages (public information only);
- ``{prefix}:r:{room}:all``: the messages every connection gets (``hand_end``, ``match_end``);
- ``{prefix}:r:{room}:in``: to the owner (it alone subscribes): attach, detach, client
  messages and HTTP calls; a publish that reaches nobody means the room has no owner, and the
  node that sent it takes the lease once it is free (failover, docs/scaling.md);
- ``{prefix}:n:{node}``: a node's inbox: replies, and messages for one connection.

A message on the bus is ``b"kind node arg\\n" + payload``. Redis keeps the order of one
publisher's messages to one subscriber connection, which is all the protocol leans on: an
owner's snapshot for a connection comes after every event it includes. What an owner sends
for a room carries its lease epoch, and a node passes on only what comes from the epoch its
connection was attached under, never a lower one: an owner that lost the room without
knowing yet (its lease expired under load, or it was frozen) may still answer an attach or
publish what it delivered before, and its connections must not go back to that.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import random
import secrets
import socket
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect

from majiang.errors import MajiangError
from majiang.server.app import (
    ApiError,
    Conn,
    Handle,
    Hub,
    Peers,
    _dumps,
    _validation_message,
    token_hash,
)
from majiang.server.models import SnapshotMsg, client_message
from majiang.server.room import CLOSED, EVERYONE, SPECTATORS, Outcome, Room, RoomError
from majiang.store import Lease, RoomRow
from majiang.values import JSON

__all__ = ["Bus", "BusError", "Cluster", "RoomClosed", "check_bus_url"]

log = logging.getLogger("majiang.server.cluster")

RPC_SECONDS = 10.0
"""How long a node waits for the owner's answer to a call before a 503."""
SCAN_LIMIT = 50
"""Rooms without a live owner a node takes per scan."""

Op = dict[str, Any]
HttpOp = Callable[[Handle, Mapping[str, Any]], Awaitable[dict[str, JSON]]]


class BusError(MajiangError):
    """The message bus (Redis) cannot be reached or refused a command."""


class RoomClosed(Exception):
    """The room is finished or dissolved and has no owner: any node answers it from the
    store alone (nothing about it changes any more)."""


def check_bus_url(url: str) -> str:
    """The ``--bus`` URL if it is a Redis one, else a MajiangError naming what was expected."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise MajiangError(
            f"--bus: {url!r} is not a Redis URL; expected redis://host:6379/0 (or rediss://)"
        )
    return url


def _envelope(kind: str, node: str, arg: str | int, payload: bytes = b"") -> bytes:
    return f"{kind} {node} {arg}\n".encode() + payload


class Bus:
    """Redis pub/sub for one node: one ordered publisher (pipelined: everything queued while
    the last pipeline was in flight goes in the next) and one subscriber connection whose
    channels are counted, so a channel wanted by several connections is subscribed once."""

    def __init__(self, url: str, handler: Callable[[str, bytes], None]) -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.redis: Any = aioredis.Redis.from_url(url)
        self.pubsub: Any = self.redis.pubsub()
        self.handler = handler
        self._out: list[tuple[str, bytes, asyncio.Future[int] | None]] = []
        self._wake = asyncio.Event()
        self._subs: Counter[str] = Counter()
        self._confirm: dict[str, deque[asyncio.Future[None]]] = {}
        self._pending: dict[str, asyncio.Future[None]] = {}
        """A channel's subscription sent and not yet confirmed: others wanting it wait too."""
        self._tasks: list[asyncio.Task[None]] = []
        self.published = 0
        """Messages published so far (docs/scaling.md, bench)."""

    async def start(self, inbox: str) -> None:
        """Connect, subscribe the node's inbox, start the reader and the sender."""
        try:
            await self.redis.ping()
            await self.pubsub.subscribe(inbox)
        except Exception as exc:
            raise BusError(f"cannot reach the bus {self.url}: {exc}") from None
        self._subs[inbox] += 1
        self._tasks = [
            asyncio.create_task(self._reader()),
            asyncio.create_task(self._sender()),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def post(self, channel: str, data: bytes) -> None:
        """Publish, in order with every other publish of this node; nobody waits for it."""
        self._out.append((channel, data, None))
        self._wake.set()

    def publish(self, channel: str, data: bytes) -> asyncio.Future[int]:
        """Publish in order; the future gives how many subscriber connections got it."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._out.append((channel, data, future))
        self._wake.set()
        return future

    async def _sender(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._out:
                batch, self._out = self._out, []
                pipe = self.redis.pipeline(transaction=False)
                for channel, data, _ in batch:
                    pipe.publish(channel, data)
                try:
                    counts = await pipe.execute()
                except Exception as exc:
                    log.error("bus: publishing %d messages: %s", len(batch), exc)
                    for _, _, future in batch:
                        if future is not None and not future.done():
                            future.set_exception(BusError(f"the bus refused a publish: {exc}"))
                    continue
                self.published += len(batch)
                for (_, _, future), n in zip(batch, counts, strict=True):
                    if future is not None and not future.done():
                        future.set_result(int(n))

    async def _reader(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # redis-py reconnects and subscribes again
                log.error("bus: reading: %s", exc)
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            kind = message["type"]
            channel = message["channel"].decode()
            if kind == "message":
                try:
                    self.handler(channel, message["data"])
                except Exception:
                    log.exception("bus: handling a message on %s", channel)
            elif kind == "subscribe":
                waiting = self._confirm.get(channel)
                if waiting:
                    future = waiting.popleft()
                    if not future.done():
                        future.set_result(None)

    async def subscribe(self, *channels: str) -> None:
        """Count the channels in; subscribe the new ones and wait until Redis confirms, so
        that whatever is published after this returns reaches this node."""
        fresh: dict[str, asyncio.Future[None]] = {}
        waits: list[asyncio.Future[None]] = []
        loop = asyncio.get_running_loop()
        for channel in channels:
            self._subs[channel] += 1
            if self._subs[channel] == 1:
                future: asyncio.Future[None] = loop.create_future()
                fresh[channel] = future
                self._confirm.setdefault(channel, deque()).append(future)
                self._pending[channel] = future
                waits.append(future)
            elif channel in self._pending:  # subscribed by another, not yet confirmed
                waits.append(self._pending[channel])
        try:
            try:
                if fresh:
                    await self.pubsub.subscribe(*fresh)
            except Exception as exc:
                raise BusError(f"the bus refused a subscription: {exc}") from None
            try:
                await asyncio.wait_for(asyncio.gather(*map(asyncio.shield, waits)), RPC_SECONDS)
            except TimeoutError:
                raise BusError("the bus did not confirm a subscription") from None
        finally:
            for channel, future in fresh.items():
                if self._pending.get(channel) is future:
                    del self._pending[channel]
                waiting = self._confirm.get(channel, deque())
                if future in waiting:  # never confirmed: it must not take a later one's
                    waiting.remove(future)
                if not waiting:
                    self._confirm.pop(channel, None)

    async def unsubscribe(self, *channels: str) -> None:
        """Count the channels out; unsubscribe those nobody wants any more."""
        gone = []
        for channel in channels:
            if self._subs[channel] <= 0:
                continue
            self._subs[channel] -= 1
            if self._subs[channel] == 0:
                del self._subs[channel]
                gone.append(channel)
        if gone:
            with contextlib.suppress(Exception):
                await self.pubsub.unsubscribe(*gone)

    async def listeners(self, channels: list[str]) -> dict[str, int]:
        """How many connections subscribe each channel (PUBSUB NUMSUB)."""
        if not channels:
            return {}
        pairs = await self.redis.pubsub_numsub(*channels)
        return {(c.decode() if isinstance(c, bytes) else str(c)): int(n) for c, n in pairs}


@dataclass(eq=False)
class Local:
    """A WebSocket on this node, whoever owns its room: its channels and whether the owner
    attached it (messages before its snapshot are in the snapshot, so they are dropped)."""

    conn: Conn
    room: str
    seat: int | None
    token_hash: str | None
    channels: tuple[str, ...]
    attached: bool = False
    epoch: int = 0
    """The lease epoch of the owner whose snapshot attached it: only its messages pass."""
    tasks: set[asyncio.Task[None]] = field(default_factory=set)


class Cluster:
    """This node's part of the cluster: its leases and owned rooms' peers (owner side), its
    connections' relays (node side), the bus, the heartbeat and the scan for orphans."""

    def __init__(
        self, hub: Hub, url: str, prefix: str, lease_seconds: float, address: str
    ) -> None:
        self.hub = hub
        self.prefix = prefix
        self.lease_seconds = lease_seconds
        self.address = address
        self.node = f"{socket.gethostname()[:24]}-{os.getpid()}-{secrets.token_hex(4)}"
        self.inbox = f"{prefix}:n:{self.node}"
        self.bus = Bus(url, self._on_bus)
        self.http_ops: dict[str, HttpOp] = {}
        self.locals: dict[int, Local] = {}
        self.by_channel: dict[str, set[int]] = {}
        self.ids = itertools.count(1)
        self.replies: dict[str, asyncio.Future[Op]] = {}
        self.taking: dict[str, asyncio.Future[bool]] = {}
        self.epochs: dict[str, int] = {}
        """The highest owner epoch this node's connections of a room heard of."""
        self.queues: dict[str, deque[Op]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.loops: list[asyncio.Task[None]] = []
        self.taken = 0
        """Rooms this node took over from another (or from none) since it started."""

    # -- names ---------------------------------------------------------------------------------
    def channel(self, room: str, which: str) -> str:
        """``{prefix}:r:{room}:{which}``: which is ``s0``-``s3``, ``pub``, ``all`` or ``in``."""
        return f"{self.prefix}:r:{room}:{which}"

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("cluster task failed", exc_info=task.exception())

    # -- start and stop ------------------------------------------------------------------------
    async def start(self) -> None:
        """Enter the node in the database, connect the bus, start the heartbeat and the scan
        (which takes the rooms nobody owns: all of them when the first node starts)."""
        store = self.hub.store
        store.limit_idle_transactions(self.lease_seconds)
        store.name_sessions(self.node)
        await self.hub.write(store.register_node, self.node, self.address, self.lease_seconds)
        await self.bus.start(self.inbox)
        self.loops = [
            asyncio.create_task(self._heartbeat()),
            asyncio.create_task(self._scan()),
        ]

    async def stop(self) -> None:
        """Let the leases go at once (other nodes take the rooms on their next scan or
        message), close this node's connections, disconnect the bus."""
        for task in self.loops:
            task.cancel()
        with contextlib.suppress(Exception):
            await self.hub.write(self.hub.store.retire_node, self.node)
        for local in list(self.locals.values()):
            local.conn.close(1012, "server restarting: reconnect")
        for task in list(self.tasks):
            task.cancel()
        await self.bus.stop()

    async def _heartbeat(self) -> None:
        """Renew the node's heartbeat (every lease at once) three times per lease period;
        drop the rooms whose lease another node took; forget peers of nodes that died."""
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                store = self.hub.store
                if not await self.hub.write(store.heartbeat, self.node, self.lease_seconds):
                    await self.hub.write(
                        store.register_node, self.node, self.address, self.lease_seconds
                    )
                # the rooms owned before reading: one taken meanwhile is not in what was read
                owned = [(h, h.lease) for h in self.hub.rooms.values() if h.lease is not None]
                held = await self.hub.read(store.held, self.node)
                for handle, lease in owned:
                    if handle.lease == lease and held.get(handle.room.id) != lease.epoch:
                        log.warning("room %s: lease taken by another node", handle.room.number)
                        self.drop(handle.room.number, handle)
                await self._forget_dead_peers()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("heartbeat: %s", exc)

    async def _forget_dead_peers(self) -> None:
        nodes = {
            node
            for handle in self.hub.rooms.values()
            if handle.peers is not None
            for node, _ in handle.peers.all()
            if node != self.node
        }
        inboxes = [f"{self.prefix}:n:{n}" for n in sorted(nodes)]
        counts = await self.bus.listeners(inboxes)
        dead = {n for n in nodes if counts.get(f"{self.prefix}:n:{n}", 0) == 0}
        if not dead:
            return
        for handle in list(self.hub.rooms.values()):
            peers = handle.peers
            if peers is None:
                continue
            async with handle.lock:
                for seat, (node, _) in list(peers.seats.items()):
                    if node in dead:
                        del peers.seats[seat]
                        handle.room.set_connected(seat, False)
                peers.spectators = {p for p in peers.spectators if p[0] not in dead}

    async def _scan(self) -> None:
        """Take the rooms that no live node owns (their owner died, or stopped)."""
        while True:
            await asyncio.sleep(self.lease_seconds / 2 * random.uniform(0.7, 1.3))
            try:
                for row in await self.hub.read(self.hub.store.orphans, SCAN_LIMIT):
                    if row.number not in self.hub.rooms:
                        await self.take(row)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("scan: %s", exc)

    # -- ownership -----------------------------------------------------------------------------
    async def adopt(self, handle: Handle, epoch: int) -> None:
        """Own a room in memory under lease ``epoch``: subscribe its inbound channel."""
        number = handle.room.number
        handle.lease = Lease(self.node, epoch)
        handle.peers = Peers()
        self.hub.rooms[number] = handle
        await self.bus.subscribe(self.channel(number, "in"))

    async def take(self, row: RoomRow) -> bool:
        """Take the room's lease if it is free, rebuild the room from its stored log, let it
        go on, and tell every node (which attach their connections again); False if a live
        node holds it. One take per room at a time on this node."""
        running = self.taking.get(row.number)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.taking[row.number] = future
        try:
            taken = await self._take(row)
            future.set_result(taken)
            return taken
        except BaseException as exc:
            future.set_exception(exc)
            raise
        finally:
            del self.taking[row.number]
            if not future.done():
                future.cancel()
            elif not future.cancelled() and future.exception() is not None:
                future.exception()  # retrieved: the caller got it raised

    async def _take(self, row: RoomRow) -> bool:
        hub, store = self.hub, self.hub.store
        if row.number in hub.rooms and hub.rooms[row.number].lease is not None:
            return True
        epoch = await hub.write(store.acquire, row.id, self.node)
        if epoch is None:
            return False
        try:
            fresh = await hub.read(store.room, row.number)
            if fresh is None or fresh.id != row.id or fresh.status in CLOSED:
                return False
            seats = await hub.read(store.seats, row.id)
            events = await hub.read(store.events, row.id)
            room = Room.restore(fresh, seats, events, offload=hub.offload)
        except Exception:
            log.exception("room %s cannot be restored", row.number)
            return False
        handle = Handle(room, seq=room.seq)
        await self.adopt(handle, epoch)
        self.taken += 1
        log.warning("room %s: taken at epoch %d", row.number, epoch)
        async with handle.lock:
            out = room.resume()
            if room.status != fresh.status and out.status is None:
                out.status = room.status
            with contextlib.suppress(ApiError):
                await hub.commit(handle, out)
        notice = _envelope("o", self.node, epoch)
        self.bus.post(self.channel(row.number, "in"), notice)
        self.bus.post(self.channel(row.number, "all"), notice)
        for cid, local in list(self.locals.items()):
            if local.room == row.number:
                local.attached = False
                self._spawn(self._attach(cid))
        return True

    def drop(self, number: str, handle: Handle | None = None) -> None:
        """Stop owning a room (its lease is another node's now, or it was let go): its
        timer, its inbound channel. This node's connections to it stay, relayed. With
        ``handle``, that handle alone: its lease goes, so nothing still holding it writes
        (Hub.fence); the room's handle here, if a newer one (taken again since), stays."""
        current = self.hub.rooms.get(number)
        if handle is None:
            handle = current
        if handle is None:
            return
        if handle.timer is not None:
            handle.timer.cancel()
            handle.timer = None
        if handle.pause is not None:  # a held-back bot decision: the new owner paces it
            handle.pause[1].cancel()
            handle.pause = None
        handle.lease = None
        if handle is current:
            del self.hub.rooms[number]
            self._spawn(self.bus.unsubscribe(self.channel(number, "in")))

    def forget(self, number: str) -> None:
        """The hub let a closed room go: stop listening for it."""
        self._spawn(self.bus.unsubscribe(self.channel(number, "in")))

    # -- the owner's deliveries ----------------------------------------------------------------
    def deliver(self, handle: Handle, out: Outcome) -> None:
        """Each message to its peers: directly to this node's connections, once on the
        room's channel for the others (a seat's to the seat's channel alone)."""
        peers = handle.peers
        if peers is None:
            return
        number = handle.room.number
        epoch = handle.lease.epoch if handle.lease is not None else 0
        for d in out.deliveries:
            if d.to == SPECTATORS:
                targets: list[tuple[str, int]] = list(peers.spectators)
                which = "pub"
            elif d.to == EVERYONE:
                targets = peers.all()
                which = "all"
            else:
                peer = peers.seats.get(d.to)
                targets = [peer] if peer is not None else []
                which = f"s{d.to}"
            if not targets:
                continue
            text = _dumps(d.message)
            remote = False
            for node, cid in targets:
                if node == self.node:
                    self._to_local(cid, text, "m", epoch)
                else:
                    remote = True
            if remote:
                data = _envelope("m", self.node, epoch, text.encode())
                self.bus.post(self.channel(number, which), data)

    def to_peer(
        self, node: str, cid: int, text: str, flag: str, handle: Handle | None = None
    ) -> None:
        """One message for one connection, from ``handle``'s owner: ``flag`` s (its
        snapshot: it is attached from then on), e (a refusal: counted against it) or m."""
        epoch = handle.lease.epoch if handle is not None and handle.lease is not None else 0
        if node == self.node:
            self._to_local(cid, text, flag, epoch)
        else:
            data = _envelope("c", self.node, f"{cid}:{flag}:{epoch}", text.encode())
            self.bus.post(f"{self.prefix}:n:{node}", data)

    def _to_local(self, cid: int, text: str, flag: str, epoch: int) -> None:
        """Pass a message from the owner of lease ``epoch`` on to connection ``cid``: a
        snapshot from an epoch below one heard of is a stale owner's and is dropped (the
        attach is made again); other messages pass only from the epoch attached under;
        refusals always (they change nothing)."""
        local = self.locals.get(cid)
        if local is None:
            return
        conn = local.conn
        if flag == "s":
            if epoch < self.epochs.get(local.room, 0):
                return
            self.epochs[local.room] = epoch
            local.epoch = epoch
            local.attached = True
        elif flag == "m" and epoch != local.epoch:
            return
        if flag == "e":
            conn.strikes += 1
            conn.put(text)
            if conn.strikes >= self.hub.limits.strikes:
                conn.close(1008, "too many refused messages")
            return
        conn.strikes = 0
        conn.put(text)

    def resnap(self, handle: Handle) -> None:
        """After a rebuild from the store: every peer gets a fresh snapshot."""
        peers = handle.peers
        if peers is None:
            return
        for seat, (node, cid) in peers.seats.items():
            handle.room.set_connected(seat, True)
            self.to_peer(node, cid, _dumps(handle.room.snapshot(seat)), "m", handle)
        for node, cid in peers.spectators:
            self.to_peer(node, cid, _dumps(handle.room.snapshot(None)), "m", handle)

    # -- the bus -------------------------------------------------------------------------------
    def _on_bus(self, channel: str, data: bytes) -> None:
        head, _, payload = data.partition(b"\n")
        kind, node, arg = head.decode().split(" ", 2)
        if channel == self.inbox:
            if kind == "c":
                conn_id, flag, sent_under = arg.split(":")
                self._to_local(int(conn_id), payload.decode(), flag, int(sent_under))
            elif kind == "r":
                future = self.replies.pop(arg, None)
                if future is not None and not future.done():
                    future.set_result(orjson.loads(payload))
            elif kind == "x":
                local = self.locals.get(int(arg))
                if local is not None:
                    why = orjson.loads(payload)
                    local.conn.close(int(why["code"]), str(why["reason"]))
            return
        number, _, which = channel[len(self.prefix) + 3 :].partition(":")
        if kind == "o":
            self._owner_notice(number, which, node, int(arg))
            return
        if which == "in":
            if kind == "q":
                self._enqueue(number, orjson.loads(payload))
            return
        if node == self.node:
            return  # this node's own publish: its connections had it directly
        text, under = payload.decode(), int(arg)
        for cid in self.by_channel.get(channel, ()):
            local = self.locals.get(cid)
            if local is not None and local.attached and local.epoch == under:
                local.conn.strikes = 0
                local.conn.put(text)

    def _owner_notice(self, number: str, which: str, node: str, epoch: int) -> None:
        """Another node took ``number``: if this node thought it owned it, it does not any
        more; its connections to the room attach again (to the new owner)."""
        if node == self.node:
            return
        if which == "in":
            handle = self.hub.rooms.get(number)
            if handle is not None and handle.lease is not None and handle.lease.epoch < epoch:
                log.warning("room %s: node %s took it (epoch %d)", number, node, epoch)
                self.drop(number)
            return
        if epoch <= self.epochs.get(number, 0):
            return  # an older owner's notice, come late: its connections are attached since
        self.epochs[number] = epoch
        for cid, local in list(self.locals.items()):
            if local.room == number:
                local.attached = False
                self._spawn(self._attach(cid))

    def _enqueue(self, number: str, op: Op) -> None:
        """Ops of a room are served one after another, in the order they arrived."""
        queue = self.queues.get(number)
        if queue is not None:
            queue.append(op)
            return
        queue = self.queues[number] = deque([op])
        self._spawn(self._drain(number, queue))

    async def _drain(self, number: str, queue: deque[Op]) -> None:
        """Serve ``queue`` to its end, also after the room was dropped: whatever was queued
        for it then is answered "retry" (sent to the new owner), never lost."""
        try:
            while queue:
                op = queue.popleft()
                try:
                    answer = await self.serve(number, op)
                except Exception:
                    log.exception("room %s: serving %s", number, op.get("op"))
                    answer = {"error": {"status": 500, "code": "internal", "message": "failed"}}
                if "rid" in op:
                    reply = _envelope("r", self.node, op["rid"], orjson.dumps(answer))
                    self.bus.post(f"{self.prefix}:n:{op['node']}", reply)
        finally:
            if self.queues.get(number) is queue:
                del self.queues[number]

    # -- the owner serves ----------------------------------------------------------------------
    async def serve(self, number: str, op: Op) -> Op:
        """One op for a room this node owns; ``{"retry": true}`` if it does not (any more)."""
        handle = self.hub.rooms.get(number)
        if handle is None or handle.lease is None or handle.peers is None:
            if op["op"] == "msg":
                self.to_peer(op["node"], op["cid"], _error(0, "unavailable", "the room is "
                             "moving to another server: send it again"), "e")  # fmt: skip
            return {"retry": True}
        kind = op["op"]
        try:
            if kind == "who":
                return self._who(handle, op.get("token_hash"))
            if kind == "attach":
                return await self._attach_peer(handle, op)
            if kind == "detach":
                await self._detach_peer(handle, op)
                return {}
            if kind == "msg":
                await self._message(handle, op)
                return {}
            if kind == "http":
                return {"body": await self.http_ops[op["call"]](handle, op["args"])}
        except ApiError as err:
            return {"error": {"status": err.status, "code": err.code, "message": err.message}}
        except RoomError as err:
            return {"error": {"status": err.status, "code": err.code, "message": str(err)}}
        return {"error": {"status": 500, "code": "internal", "message": f"unknown op {kind!r}"}}

    @staticmethod
    def _who(handle: Handle, th: str | None) -> Op:
        if th is None:
            return {"seat": None}
        seat = handle.room.seat_of(th)
        if seat is None:
            message = f"no seat of room {handle.room.number} has this token"
            return {"error": {"status": 401, "code": "bad_token", "message": message}}
        return {"seat": seat}

    async def _attach_peer(self, handle: Handle, op: Op) -> Op:
        peers = handle.peers
        assert peers is not None
        peer = (str(op["node"]), int(op["cid"]))
        seat = op["seat"]
        async with handle.lock:
            if seat is not None and handle.room.seat_of(str(op.get("token_hash"))) != seat:
                return self._who(handle, op.get("token_hash"))
            if seat is None:
                peers.spectators.add(peer)
            else:
                old = peers.seats.get(seat)
                if old is not None and old != peer:
                    self._close_peer(old, 4000, "replaced by a newer connection")
                peers.seats[seat] = peer
                handle.room.set_connected(seat, True)
            self.to_peer(peer[0], peer[1], _dumps(handle.room.snapshot(seat)), "s", handle)
        return {"seat": seat}

    def _close_peer(self, peer: tuple[str, int], code: int, reason: str) -> None:
        node, cid = peer
        if node == self.node:
            local = self.locals.get(cid)
            if local is not None:
                local.conn.close(code, reason)
        else:
            why = orjson.dumps({"code": code, "reason": reason})
            self.bus.post(f"{self.prefix}:n:{node}", _envelope("x", self.node, cid, why))

    async def _detach_peer(self, handle: Handle, op: Op) -> None:
        peers = handle.peers
        assert peers is not None
        peer = (str(op["node"]), int(op["cid"]))
        seat = op["seat"]
        async with handle.lock:
            if seat is None:
                peers.spectators.discard(peer)
            elif peers.seats.get(seat) == peer:
                del peers.seats[seat]
                handle.room.set_connected(seat, False)

    async def _message(self, handle: Handle, op: Op) -> None:
        """A client message a node forwarded (it checked size, rate and form already)."""
        node, cid, seat = str(op["node"]), int(op["cid"]), op["seat"]
        try:
            parsed = client_message.validate_json(op["text"])
        except ValidationError as err:
            why = _validation_message(err)
            self.to_peer(node, cid, _error(handle.seq, "bad_message", why), "e", handle)
            return
        async with handle.lock:
            if isinstance(parsed, SnapshotMsg):
                self.to_peer(node, cid, _dumps(handle.room.snapshot(seat)), "m", handle)
                return
            try:
                out = handle.room.handle(seat, parsed)
            except RoomError as err:
                self.to_peer(node, cid, _error(handle.seq, err.code, str(err)), "e", handle)
                return
            except MajiangError as err:
                self.to_peer(node, cid, _error(handle.seq, "illegal", str(err)), "e", handle)
                return
            try:
                await self.hub.commit(handle, out)
            except ApiError as err:
                self.to_peer(node, cid, _error(handle.seq, err.code, err.message), "e", handle)

    # -- a node asks the owner -----------------------------------------------------------------
    async def request(
        self, number: str, op: Op, *, answer: bool = True, take: bool = True
    ) -> Op:
        """Have the room's owner serve ``op``: here if this node owns it, else over the
        bus. If the publish reaches nobody the room has no owner: take it once its lease is
        free (waiting up to two lease periods for a dying owner's to expire). RoomClosed
        for a finished room nobody owns; ApiError 404 for no room, 503 if nobody answers."""
        op = {**op, "node": self.node}
        deadline = time.monotonic() + 2 * self.lease_seconds + RPC_SECONDS
        while True:
            handle = self.hub.rooms.get(number)
            if handle is not None and handle.lease is not None:
                reply = await self.serve(number, op)
                if not reply.get("retry"):
                    return reply
            else:
                future: asyncio.Future[Op] | None = None
                if answer:
                    rid = secrets.token_hex(8)
                    op["rid"] = rid
                    future = asyncio.get_running_loop().create_future()
                    self.replies[rid] = future
                data = _envelope("q", self.node, "-", orjson.dumps(op))
                try:
                    reached = await self.bus.publish(self.channel(number, "in"), data)
                except BusError as err:
                    raise ApiError(503, "bus", str(err)) from None
                if reached and future is None:
                    return {}
                if reached and future is not None:
                    try:
                        reply = await asyncio.wait_for(future, RPC_SECONDS)
                    except TimeoutError:
                        raise ApiError(
                            503, "unavailable", f"room {number}: its server did not answer"
                        ) from None
                    finally:
                        self.replies.pop(op["rid"], None)
                    if not reply.get("retry"):
                        return reply
                else:
                    if future is not None:
                        self.replies.pop(op["rid"], None)
                    if not take:
                        return {}
                    if await self._find_owner(number):
                        continue
            if time.monotonic() > deadline:
                raise ApiError(503, "unavailable", f"room {number}: no server owns it now")
            await asyncio.sleep(0.1 + random.random() * 0.2)

    async def _find_owner(self, number: str) -> bool:
        """Nobody listens for the room: take it if it is free (True), else False."""
        row = await self.hub.read(self.hub.store.room, number)
        if row is None:
            raise ApiError(404, "not_found", f"no room {number}")
        if row.status in CLOSED:
            raise RoomClosed(number)
        return await self.take(row)

    async def http(self, number: str, call: str, args: Mapping[str, Any]) -> dict[str, JSON]:
        """An HTTP call on a room, run by its owner; RoomClosed if the room is closed."""
        reply = await self.request(number, {"op": "http", "call": call, "args": dict(args)})
        error = reply.get("error")
        if error is not None:
            raise ApiError(int(error["status"]), str(error["code"]), str(error["message"]))
        body: dict[str, JSON] = reply["body"]
        return body

    # -- a node's WebSockets -------------------------------------------------------------------
    async def websocket(self, ws: WebSocket, number: str, token: str | None) -> bool:
        """Serve an accepted WebSocket of room ``number`` through its owner; False if the
        room is closed and ownerless (the caller then serves it from the store)."""
        th = token_hash(token) if token is not None else None
        try:
            who = await self.request(number, {"op": "who", "token_hash": th})
        except RoomClosed:
            return False
        except ApiError as err:
            await _refuse(ws, err.code, err.message, 4404 if err.status == 404 else 1013)
            return True
        if "error" in who:
            error = who["error"]
            await _refuse(ws, str(error["code"]), str(error["message"]), 4401)
            return True
        seat: int | None = who["seat"]
        conn = Conn(ws, seat, self.hub.limits)
        cid = next(self.ids)
        which = "pub" if seat is None else f"s{seat}"
        channels = (self.channel(number, which), self.channel(number, "all"))
        local = Local(conn, number, seat, th, channels)
        self.locals[cid] = local
        for channel in channels:
            self.by_channel.setdefault(channel, set()).add(cid)
        try:
            await self.bus.subscribe(*channels)
            conn.start()
            await self._attach(cid)
            await self._receive(cid, local)
        except (ApiError, BusError, RoomClosed) as err:
            code = getattr(err, "code", "unavailable")
            conn.put(_error(0, code, str(getattr(err, "message", err))))
        finally:
            self.locals.pop(cid, None)
            if all(other.room != number for other in self.locals.values()):
                self.epochs.pop(number, None)
            for channel in channels:
                members = self.by_channel.get(channel)
                if members is not None:
                    members.discard(cid)
                    if not members:
                        del self.by_channel[channel]
            self._spawn(self.bus.unsubscribe(*channels))
            detach = {"op": "detach", "cid": cid, "seat": seat}
            self._spawn(self._quiet(self.request(number, detach, answer=False, take=False)))
            conn.close(1000, "bye")
        return True

    @staticmethod
    async def _quiet(coro: Awaitable[Any]) -> None:
        with contextlib.suppress(Exception):
            await coro

    async def _attach(self, cid: int) -> None:
        """Have the owner register this connection and send its snapshot (again, after an
        owner changed); a refused token closes it."""
        local = self.locals.get(cid)
        if local is None:
            return
        op = {"op": "attach", "cid": cid, "seat": local.seat, "token_hash": local.token_hash}
        deadline = time.monotonic() + 2 * self.lease_seconds + RPC_SECONDS
        while True:
            try:
                reply = await self.request(local.room, op)
            except RoomClosed:
                local.conn.close(1012, "the room closed: reconnect")
                return
            except ApiError as err:
                local.conn.put(_error(0, err.code, err.message))
                local.conn.close(1013, "no server owns the room now: reconnect")
                return
            if "error" in reply:
                error = reply["error"]
                local.conn.put(_error(0, str(error["code"]), str(error["message"])))
                local.conn.close(4401, str(error["code"]))
                return
            # the snapshot came before the reply (one owner, one order); dropped if a stale
            # owner answered (a newer one is known): ask again, the new owner answers
            if local.attached or cid not in self.locals:
                return
            if time.monotonic() > deadline:
                local.conn.close(1013, "no server owns the room now: reconnect")
                return
            await asyncio.sleep(0.1 + random.random() * 0.2)

    async def _receive(self, cid: int, local: Local) -> None:
        """The connection's messages, checked here (size, rate, form), served by the owner."""
        conn, limits = local.conn, self.hub.limits

        def refuse(code: str, why: str) -> None:
            conn.put(_error(0, code, why))
            conn.strikes += 1
            if conn.strikes >= limits.strikes:
                conn.close(1008, "too many refused messages")

        while not conn.closing:
            try:
                message = await conn.ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if not conn.allow():
                refuse("rate_limited", f"more than {limits.rate:g} messages a second")
                continue
            if text is None:
                refuse("bad_message", "messages are JSON text, not binary")
                continue
            if len(text.encode()) > limits.message_bytes:
                refuse("too_large", f"a message has at most {limits.message_bytes} bytes")
                continue
            try:
                client_message.validate_json(text)
            except ValidationError as err:
                refuse("bad_message", _validation_message(err))
                continue
            op = {"op": "msg", "cid": cid, "seat": local.seat, "text": text}
            try:
                await self.request(local.room, op, answer=False)
            except RoomClosed:
                refuse("closed", f"room {local.room} is closed")
            except ApiError as err:
                refuse(err.code, err.message)


def _error(seq: int, code: str, message: str) -> str:
    return _dumps({"type": "error", "seq": seq, "code": code, "message": message})


async def _refuse(ws: WebSocket, code: str, message: str, close: int) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(_error(0, code, message))
        await ws.close(close, code)
