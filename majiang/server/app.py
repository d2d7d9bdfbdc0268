"""The FastAPI application of ``majiang serve``: PROTOCOL.md's HTTP calls and ``/ws/{room}``.

Rooms live in memory as ``majiang.server.room.Room`` values, one asyncio lock each; every
change a room makes is appended to the store (on a writer thread, under the room's lock, so a
room's writes keep their order) before its messages are queued to the connections, so what a
client saw is always stored (PROTOCOL.md 3.5). At start
every room in play is rebuilt from its stored log. Abuse limits: a message size limit, a
per-connection rate limit, a bounded send queue, bounded open rooms per creator address and
idle rooms dissolved (``Limits``). A slow bot's decision (``search``) is made by a worker
process, off the event loop and outside the room's lock, and applied under the lock only if
the room has not moved meanwhile (``Hub.think``, ``majiang.server.thinking``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import orjson
from fastapi import FastAPI, Header, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from pydantic.json_schema import models_json_schema
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from majiang import __version__
from majiang.bots import BOTS
from majiang.errors import MajiangError
from majiang.rules import VARIANTS
from majiang.server import models
from majiang.server.models import (
    DEFAULT_BOT_DELAY,
    CreateRoom,
    ErrorBody,
    Joined,
    JoinRoom,
    MatchInfo,
    RoomCreated,
    RoomState,
    SetBot,
    SnapshotMsg,
    VariantInfo,
    all_variant_infos,
    bot_delay,
    client_message,
)
from majiang.server.room import (
    CLOSED,
    EVERYONE,
    SPECTATORS,
    BotAsk,
    Outcome,
    Pause,
    Room,
    RoomError,
    now_ms,
)
from majiang.server.thinking import BotPool, decide_here
from majiang.server.web import mount_web
from majiang.store import Lease, LeaseLost, RoomNumberTaken, RoomRow, SeatRow, Store, StoreError
from majiang.values import JSON

if TYPE_CHECKING:
    from majiang.server.cluster import Cluster

LogEntry = tuple[int, str, Mapping[str, JSON]]
Leases = Mapping[int, Lease] | None
"""Room id -> the lease its log appends are fenced by (a cluster), or None (one process)."""
"""A room log entry as the store appends it: (seq, kind, data)."""
Future = asyncio.Future[StoreError | None]
"""An append's answer: None once committed, else why the store refused it."""

__all__ = ["Limits", "create_app", "token_hash"]

log = logging.getLogger("majiang.server")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's abuse limits (PROTOCOL.md leaves them to the server)."""

    message_bytes: int = 4096
    """The largest client message; a bigger one gets an ``error``."""
    rate: float = 20.0
    """Client messages per second a connection may send on average ..."""
    burst: int = 40
    """... and at once; beyond that a message gets an ``error`` and is dropped."""
    strikes: int = 200
    """Refused messages in a row after which the connection is closed (1008)."""
    send_queue: int = 2000
    """Messages queued for a connection that reads too slowly; beyond, it is closed (1013)."""
    rooms_per_address: int = 20
    """Unfinished rooms one creator address may hold (429 beyond)."""
    idle_seconds: int = 3600
    """An unfinished room with no connection and no human message for this long is dissolved."""
    keep_closed_seconds: int = 600
    """How long a finished room with no connection stays in memory."""


def token_hash(token: str) -> str:
    """SHA-256 hex of a token: the only form the server keeps (server_design.md)."""
    return hashlib.sha256(token.encode()).hexdigest()


class ApiError(Exception):
    """An HTTP error answer ``{"error": {"code", "message"}}``."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _dumps(message: dict[str, JSON]) -> str:
    """Compact JSON text, UTF-8 kept (orjson: a message per seat per event is the server's
    busiest encoding, bench/RESULTS.md)."""
    return orjson.dumps(message).decode()


class Conn:
    """One WebSocket with its send queue and rate bucket."""

    def __init__(self, ws: WebSocket, seat: int | None, limits: Limits) -> None:
        self.ws = ws
        self.seat = seat
        self.limits = limits
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.tokens = float(limits.burst)
        self.stamp = time.monotonic()
        self.strikes = 0
        self.closing = False
        self.task: asyncio.Task[None] | None = None
        self.closer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._sender())

    async def _sender(self) -> None:
        try:
            while True:
                text = await self.queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        except Exception:  # the peer went away: the receive loop ends the connection
            self.closing = True

    def put(self, text: str) -> None:
        """Queue a message; a reader that lags too far behind is closed (it may reconnect
        and get a snapshot)."""
        if self.closing:
            return
        if self.queue.qsize() >= self.limits.send_queue:
            self.close(1013, "too slow: reconnect for a snapshot")
            return
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Close after the messages already queued."""
        if self.closing:
            return
        self.closing = True
        self.queue.put_nowait(None)
        self.closer = asyncio.create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        if self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.task, 5)
        if self.ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await self.ws.close(code, reason)

    def allow(self) -> bool:
        """The rate limit: a token bucket of ``burst`` refilled at ``rate`` per second."""
        now = time.monotonic()
        self.tokens = min(self.limits.burst, self.tokens + (now - self.stamp) * self.limits.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(eq=False)
class Peers:
    """The connections of a room its owner serves in a cluster (``majiang serve --bus``),
    on this node or another: (node, connection id) per seat, and the spectators'."""

    seats: dict[int, tuple[str, int]] = field(default_factory=dict)
    spectators: set[tuple[str, int]] = field(default_factory=set)

    def all(self) -> list[tuple[str, int]]:
        """Every connection, seats first."""
        return [*self.seats.values(), *self.spectators]


@dataclass(eq=False)
class Handle:
    """A room in memory with its lock, connections and timer."""

    room: Room
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    seats: dict[int, Conn] = field(default_factory=dict)
    spectators: set[Conn] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None
    deadline: int | None = None
    """The deadline (epoch ms) the timer is armed for."""
    closed_at: float | None = None
    seq: int = 0
    """The last seq delivered: an error sent outside the lock carries it (the room's own may
    be ahead while a change is being stored)."""
    lease: Lease | None = None
    """In a cluster: the lease this node owns the room under (every write is fenced by it)."""
    peers: Peers | None = None
    """In a cluster: the room's connections on every node (``seats`` are this node's)."""
    pause: tuple[Pause, asyncio.Task[None]] | None = None
    """The bot or 托管 decision held back for the room's pace, and the task that wakes it."""

    def connections(self) -> int:
        if self.peers is not None:
            return len(self.peers.seats) + len(self.peers.spectators)
        return len(self.seats) + len(self.spectators)


def writer_threads(url: str) -> int:
    """Writer threads for a store: one for SQLite (one writer at a time holds its lock),
    several for PostgreSQL, where concurrent commits share WAL flushes (one fsync'd commit is
    ~3 ms). Log appends are grouped into one transaction at a time (``Hub.append``); the
    other writes (records, statuses, seats) of different rooms overlap on these threads."""
    return 1 if url.startswith("sqlite") else POSTGRES_WRITERS


RESUME_SECONDS = 0.5
"""How long a room rebuilt after a refused write waits before its bots decide again."""

CHECKPOINT_SECONDS = 2.0
"""How often a SQLite store's log is checkpointed on a writer thread (its appends, made on
the event loop, never checkpoint themselves: the loop must not wait for an fsync)."""

POSTGRES_WRITERS = 8
"""Concurrent writes on PostgreSQL (the store's pool holds 5 + 10 overflow connections)."""


class Hub:
    """Every room in memory, the store and its writer threads."""

    def __init__(
        self,
        store: Store,
        limits: Limits,
        bots: BotPool | None = None,
        bot_delay_ms: tuple[int, int] = DEFAULT_BOT_DELAY,
    ) -> None:
        self.store = store
        self.limits = limits
        self.bot_delay_ms = bot_delay_ms
        """The bot pace of a room created without one (``majiang serve --bot-delay-ms``)."""
        self.bots = bots if bots is not None else BotPool()
        self.offload = self.bots.offload
        """The bots whose decisions rooms hand to ``bots`` (``Room.offload``)."""
        self.rooms: dict[str, Handle] = {}
        self.writer = ThreadPoolExecutor(
            max_workers=writer_threads(store.url), thread_name_prefix="majiang-store"
        )
        self.janitor: asyncio.Task[None] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.thinking: set[asyncio.Task[None]] = set()
        """Bot decisions out and rebuilt rooms waiting to go on: cancelled by ``stop``."""
        self.cluster: Cluster | None = None
        """Set by ``majiang serve --bus``: this node's part of several (docs/scaling.md)."""
        self._appends: list[tuple[int, Sequence[LogEntry], Lease | None, Future]] = []
        self._flushing = False
        self.inline = store.url.startswith("sqlite")
        """Append on the event loop (SQLite) rather than on a writer thread (PostgreSQL)."""

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """A store write, on a writer thread. Callers hold the room's lock across its writes
        (or write a room nobody else knows yet), so each room's writes stay in order."""
        return await asyncio.get_running_loop().run_in_executor(self.writer, partial(fn, *args))

    async def append(
        self, room_id: int, log: Sequence[LogEntry], lease: Lease | None = None
    ) -> None:
        """Store a room's new log entries, committed on return (StoreError if refused).

        A group commit: the entries of every room that arrive together go in one
        transaction, so under load one commit serves many actions (bench/RESULTS.md, issue
        16). SQLite commits on the event loop itself, once per loop pass (a WAL append
        without fsync is cheaper than handing it to a thread); PostgreSQL, whose commit
        waits for its WAL flush, on a writer thread, gathering what arrives meanwhile."""
        future: Future = asyncio.get_running_loop().create_future()
        self._appends.append((room_id, log, lease, future))
        if not self._flushing:
            self._flushing = True
            if self.inline:
                asyncio.get_running_loop().call_soon(self._flush_here)
            else:
                task = asyncio.create_task(self._flush())
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
        err = await future
        if err is not None:
            raise err

    def _take(self) -> tuple[list[Future], list[tuple[int, Sequence[LogEntry]]], Leases]:
        batch, self._appends = self._appends, []
        leases = {room: lease for room, _, lease, _ in batch if lease is not None}
        return (
            [f for _, _, _, f in batch],
            [(room, log) for room, log, _, _ in batch],
            leases if self.cluster is not None else None,
        )

    @staticmethod
    def _settle(futures: list[Future], errors: Sequence[StoreError | None]) -> None:
        for future, err in zip(futures, errors, strict=True):
            if not future.done():
                future.set_result(err)

    def _append_many(
        self, batches: list[tuple[int, Sequence[LogEntry]]], leases: Leases
    ) -> list[StoreError | None]:
        """The store's group append; if the store itself fails, every batch is told why."""
        try:
            if leases is None:
                return self.store.append_many(batches)
            return self.store.append_many(batches, leases)
        except Exception as exc:
            return [StoreError(f"appending events: {exc}")] * len(batches)

    def _flush_here(self) -> None:
        try:
            futures, batches, leases = self._take()
            self._settle(futures, self._append_many(batches, leases))
        finally:
            self._flushing = False

    async def _flush(self) -> None:
        try:
            while self._appends:
                futures, batches, leases = self._take()
                self._settle(futures, await self.write(self._append_many, batches, leases))
        finally:
            self._flushing = False

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """A store read, off the event loop."""
        return await asyncio.to_thread(fn, *args)

    # -- committing a room's outcome ---------------------------------------------------------
    def fence(self, handle: Handle) -> Lease | None:
        """The lease a room's writes are fenced by: none in one process. In a cluster, the
        handle's; ApiError 503 ``moved`` if this node let the room go (a task still holding
        the handle from before, a timer or a queued message, must write nothing)."""
        if self.cluster is None:
            return None
        if handle.lease is None:
            number = handle.room.number
            log.warning("room %s: this server no longer holds its lease; nothing written", number)
            raise ApiError(503, "moved", f"room {number} moved to another server: send it again")
        return handle.lease

    async def commit(self, handle: Handle, out: Outcome) -> None:
        """Store the outcome's log (and status, record), then deliver its messages. If the
        store fails, the room is rebuilt from what is stored and everyone gets a snapshot."""
        room = handle.room
        lease = self.fence(handle)
        try:
            if out.log:
                await self.append(room.id, out.log, lease)
            if out.finished is not None:
                f = out.finished
                store = self.store
                await self.write(store.save_record, room.id, f.record, f.names, f.totals, lease)
            if out.status is not None:
                await self.write(self.store.set_status, room.id, out.status, lease)
        except LeaseLost as err:
            log.warning("room %s: %s", room.number, err)
            if self.cluster is not None:
                self.cluster.drop(room.number, handle)
            why = f"room {room.number} moved to another server: {err}"
            raise ApiError(503, "moved", why) from None
        except StoreError as err:
            log.error("room %s: %s; rebuilding it from the store", room.number, err)
            await self.reload(handle)
            raise ApiError(503, "store", f"the database refused the change: {err}") from None
        self.deliver(handle, out)
        if room.status in CLOSED and handle.closed_at is None:
            handle.closed_at = time.monotonic()
        self.schedule(handle)
        self.pace(handle, out.pause)
        if out.ask is not None:
            self._keep(self.think(handle, out.ask))

    def pace(self, handle: Handle, pause: Pause | None) -> None:
        """Cancel the held-back decision the room no longer waits on (a human moved it, a
        托管 cancelled, the room ended); hold back ``pause``, waking the room after it."""
        held = handle.pause
        now = handle.room.paused()
        if held is not None and held[0] is not now:
            held[1].cancel()
            handle.pause = None
        if pause is not None and pause is now:
            handle.pause = (pause, self._keep(self.wake(handle, pause)))

    async def wake(self, handle: Handle, pause: Pause) -> None:
        """After ``pause.ms``, let the room make the decision it held back, under its lock,
        if it still waits on it."""
        await asyncio.sleep(pause.ms / 1000)

        def step() -> Outcome | None:
            if handle.pause is not None and handle.pause[0] is pause:
                handle.pause = None
            return handle.room.wake(pause)

        await self._go_on(handle, step, f"seat {pause.seat} after its pace")

    def _keep(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run a bot's work as a task kept referenced until done and cancelled by ``stop``."""
        task = asyncio.create_task(work)
        self.thinking.add(task)
        task.add_done_callback(self.thinking.discard)
        return task

    async def _go_on(self, handle: Handle, step: Callable[[], Outcome | None], what: str) -> None:
        """Under the room's lock, let ``step`` go on with the room (a bot's answer, a paced
        decision) and commit what it did, unless the room is another node's now (it asks or
        paces afresh); a refused write is logged and rebuilt by ``commit``."""
        async with handle.lock:
            if self.cluster is not None and handle.lease is None:
                return
            try:
                out = step()
                if out is not None:
                    await self.commit(handle, out)
            except ApiError:
                pass
            except Exception:
                log.exception("room %s: %s", handle.room.number, what)

    def resume_soon(self, handle: Handle, room: Room) -> None:
        """After a rebuild, let the room's due bots and 托管 seats decide, ``RESUME_SECONDS``
        later: the decision whose write was refused is nobody's to repeat otherwise, and a
        store that just refused is not asked again at once (if it refuses again, the next
        rebuild tries again)."""

        async def go() -> None:
            await asyncio.sleep(RESUME_SECONDS)
            async with handle.lock:
                if handle.room is not room or room.status in CLOSED:
                    return  # rebuilt again, or ended: that rebuild goes on by itself
                if self.cluster is not None and handle.lease is None:
                    return
                out = room.resume()
                if out.log or out.ask or out.pause or out.status is not None:
                    with contextlib.suppress(ApiError):
                        await self.commit(handle, out)

        self._keep(go())

    async def think(self, handle: Handle, ask: BotAsk) -> None:
        """Have a bot's decision made by a worker (the loop and the room's lock free
        meanwhile), then apply it under the lock if the room is still where it asked;
        otherwise drop it: whatever moved the room asked again if a bot is due."""
        try:
            action, bot = await self.bots.decide(ask)
        except asyncio.CancelledError:
            raise
        except Exception:  # a worker that died or failed: the same decision, here
            log.exception("room %s: bot %s off the loop", handle.room.number, ask.name)
            action, bot = decide_here(ask)
        await self._go_on(handle, lambda: handle.room.answer(ask, action, bot), f"bot {ask.name}")

    def deliver(self, handle: Handle, out: Outcome) -> None:
        handle.seq = handle.room.seq
        if self.cluster is not None:
            self.cluster.deliver(handle, out)
            return
        for d in out.deliveries:
            if d.to == SPECTATORS:
                targets: list[Conn] = list(handle.spectators)
            elif d.to == EVERYONE:
                targets = [*handle.seats.values(), *handle.spectators]
            else:
                conn = handle.seats.get(d.to)
                targets = [conn] if conn is not None else []
            if targets:
                text = _dumps(d.message)
                for conn in targets:
                    conn.put(text)

    async def reload(self, handle: Handle) -> None:
        """Rebuild a room from the store (after a failed write) and resend snapshots."""
        room = handle.room
        row = await self.read(self.store.room, room.number)
        if row is None or row.id != room.id:
            return
        seats = await self.read(self.store.seats, room.id)
        events = await self.read(self.store.events, room.id)
        fresh = Room.restore(row, seats, events, offload=self.offload)
        handle.room = fresh
        handle.seq = fresh.seq
        self.resume_soon(handle, fresh)
        if self.cluster is not None:
            self.cluster.resnap(handle)
            self.schedule(handle)
            return
        for s in handle.seats:
            fresh.set_connected(s, True)
        for s, conn in handle.seats.items():
            conn.put(_dumps(fresh.snapshot(s)))
        for conn in handle.spectators:
            conn.put(_dumps(fresh.snapshot(None)))
        self.schedule(handle)

    # -- timers --------------------------------------------------------------------------------
    def schedule(self, handle: Handle) -> None:
        """(Re)arm the room's timer for its next deadline (kept if that has not moved)."""
        deadline = handle.room.next_deadline()
        if handle.timer is not None:
            if deadline == handle.deadline:
                return
            handle.timer.cancel()
            handle.timer = None
        handle.deadline = deadline
        if deadline is None:
            return
        delay = max(0.0, (deadline - now_ms()) / 1000)
        loop = asyncio.get_running_loop()
        handle.timer = loop.call_later(delay, self._spawn, handle)

    def _spawn(self, handle: Handle) -> None:
        """Run the room's timer in a task kept referenced until done (asyncio keeps only
        weak references to tasks)."""
        handle.timer = None  # fired: the next schedule arms a new one
        task = asyncio.create_task(self.fire(handle))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def fire(self, handle: Handle) -> None:
        async with handle.lock:
            try:
                await self.commit(handle, handle.room.on_timer())
            except ApiError:
                pass  # logged and rebuilt by commit
            except Exception:
                log.exception("room %s: timer", handle.room.number)

    # -- start, stop, housekeeping -------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every room in play from its log and let it go on (restart recovery); in
        a cluster the rooms are taken by whichever node finds them without an owner."""
        if self.cluster is not None:
            await self.cluster.start()
            self.janitor = asyncio.create_task(self._janitor())
            return
        rows = await self.read(self.store.rooms_in_play)
        for row in rows:
            try:
                seats = await self.read(self.store.seats, row.id)
                events = await self.read(self.store.events, row.id)
                room = Room.restore(row, seats, events, offload=self.offload)
            except Exception:  # one bad log must not keep the others down
                log.exception("room %s cannot be restored", row.number)
                continue
            handle = self.rooms[row.number] = Handle(room, seq=room.seq)
            out = room.resume()
            if room.status != row.status and out.status is None:
                out.status = room.status  # the log ended the room; the row did not follow
            with contextlib.suppress(ApiError):
                await self.commit(handle, out)
        self.janitor = asyncio.create_task(self._janitor())

    async def stop(self) -> None:
        if self.janitor is not None:
            self.janitor.cancel()
        if self.cluster is not None:
            await self.cluster.stop()
        for handle in self.rooms.values():
            if handle.timer is not None:
                handle.timer.cancel()
            for conn in [*handle.seats.values(), *handle.spectators]:
                conn.close(1001, "server shutting down")
        for task in list(self.thinking):
            task.cancel()
        self.bots.close()
        self.writer.shutdown(wait=True)

    async def _janitor(self) -> None:
        every = min(60, max(1, self.limits.idle_seconds // 4))
        last = time.monotonic()
        while True:
            await asyncio.sleep(CHECKPOINT_SECONDS if self.inline else every)
            if self.inline:
                try:
                    await self.write(self.store.checkpoint)
                except StoreError as err:
                    log.warning("checkpoint: %s", err)
            if time.monotonic() - last >= every:
                last = time.monotonic()
                await self.sweep()

    async def sweep(self) -> None:
        """Dissolve idle rooms; let go of closed rooms nobody watches."""
        now_wall, now = now_ms(), time.monotonic()
        for number, handle in list(self.rooms.items()):
            room = handle.room
            if room.status in CLOSED:
                since = handle.closed_at if handle.connections() == 0 else None
                if since is not None and now - since >= self.limits.keep_closed_seconds:
                    del self.rooms[number]
                    if self.cluster is not None and handle.lease is not None:
                        self.cluster.forget(number)
                continue
            idle = (now_wall - room.last_activity) / 1000 >= self.limits.idle_seconds
            if idle and handle.connections() == 0:
                async with handle.lock:
                    with contextlib.suppress(ApiError):
                        await self.commit(handle, room.expire())

    async def handle_of(self, number: str) -> Handle:
        """The room with this number: in memory, or a closed one rebuilt from the store."""
        handle = self.rooms.get(number)
        if handle is not None:
            return handle
        row = await self.read(self.store.room, number)
        if row is None:
            raise ApiError(404, "not_found", f"no room {number}")
        seats = await self.read(self.store.seats, row.id)
        events = await self.read(self.store.events, row.id)
        room = Room.restore(row, seats, events, offload=self.offload)
        handle = Handle(room, closed_at=time.monotonic(), seq=room.seq)
        if self.cluster is not None and room.status not in CLOSED:
            return handle  # a copy to read from: the room's owner is another node
        return self.rooms.setdefault(number, handle)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def _validation_message(err: ValidationError | RequestValidationError) -> str:
    parts = []
    for e in err.errors():
        where = ".".join(str(x) for x in e.get("loc", ()) if x not in ("body",))
        if e.get("type") == "json_invalid":  # its loc is a character position: name the body
            where = "body"
        parts.append(f"{where}: {e.get('msg', 'invalid')}" if where else str(e.get("msg")))
    return "; ".join(parts)


_ERRORS: dict[int | str, dict[str, Any]] = {
    s: {"model": ErrorBody, "description": d}
    for s, d in (
        (403, "not the room's creator"),
        (404, "no such room"),
        (409, "full, taken or started"),
        (422, "a bad field or option, named in the message"),
        (429, "too many open rooms from this address"),
        (503, "the database refused the change"),
    )
}


@dataclass(frozen=True, slots=True)
class BusConfig:
    """``majiang serve --bus``: run as one node of several (docs/scaling.md)."""

    url: str
    """The Redis URL (``redis://host:6379/0``)."""
    prefix: str = "majiang"
    """The prefix of every channel, so several clusters may share one Redis."""
    lease_seconds: float = 10.0
    """A node's heartbeat lifetime: its rooms are taken by others this long after it dies."""
    address: str = ""
    """Where this node listens (shown in the ``nodes`` table)."""


def create_app(
    store: Store | None = None,
    *,
    url: str | None = None,
    limits: Limits | None = None,
    bus: BusConfig | None = None,
    bots: BotPool | None = None,
    bot_delay_ms: tuple[int, int] = DEFAULT_BOT_DELAY,
) -> FastAPI:
    """The server's app over ``store`` (or a Store opened on ``url``, closed at shutdown);
    with ``bus``, one node of a cluster on a PostgreSQL store; ``bots``: the workers of
    slow bots' decisions (default ``BotPool()``: a process per core but one);
    ``bot_delay_ms``: the bot pace of rooms created without one."""
    own = store is None
    the_store = store if store is not None else Store(url)
    hub = Hub(the_store, limits or Limits(), bots, bot_delay_ms)
    if bus is not None:
        from majiang.server.cluster import Cluster

        hub.cluster = Cluster(hub, bus.url, bus.prefix, bus.lease_seconds, bus.address)
    cluster = hub.cluster

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        yield
        await hub.stop()
        if own:
            the_store.close()

    app = FastAPI(
        title="majiang serve",
        version=__version__,
        summary="Private mahjong rooms over HTTP and WebSocket (majiang-protocol/1).",
        description="HTTP calls below; the WebSocket `/ws/{room}?token=TOKEN` speaks the "
        "messages whose schemas are in components (ClientMessage in, ServerMessage out). "
        "See docs/protocol.md.",
        lifespan=lifespan,
        responses=_ERRORS,
    )
    app.state.hub = hub

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message)

    @app.exception_handler(RoomError)
    async def _room_error(request: Request, exc: RoomError) -> JSONResponse:
        return _error(exc.status, exc.code, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _error(422, "invalid", _validation_message(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:  # a body Starlette cannot read (not UTF-8): a bad body
            return _error(422, "invalid", "body: not JSON text")
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http")
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        log.exception("%s %s", request.method, request.url.path)
        return _error(500, "internal", "the server failed on this request")

    @app.exception_handler(StoreError)
    async def _store(request: Request, exc: StoreError) -> JSONResponse:
        return _error(503, "store", str(exc))

    def _owner(handle: Handle, authorization: str | None) -> None:
        token = (authorization or "").removeprefix("Bearer ").strip()
        owner = handle.room.owner_hash()
        if not token or owner is None or not hmac.compare_digest(token_hash(token), owner):
            raise ApiError(403, "forbidden", "only the room's creator (its seat 0 token) may")

    @app.get("/api/variants", response_model=list[VariantInfo], response_model_exclude_none=True)
    async def variants() -> list[VariantInfo]:
        """Every variant with its option declarations (as `majiang rules` lists them)."""
        return all_variant_infos()

    @app.post("/api/rooms", status_code=201, response_model=RoomCreated)
    async def create_room(body: CreateRoom, request: Request) -> RoomCreated:
        """Create a room; the creator takes seat 0 and gets its token."""
        variant = VARIANTS.get(body.variant)
        if variant is None:
            known = ", ".join(VARIANTS)
            raise ApiError(422, "bad_variant", f"variant: unknown {body.variant!r}; known: {known}")
        try:
            options = variant.resolve_options(body.options)
        except MajiangError as err:
            raise ApiError(422, "bad_option", f"options: {err}") from None
        seats = []
        for key, bot in sorted(body.bots.items()):
            if key not in ("1", "2", "3"):
                raise ApiError(422, "bad_seat", f"bots: seat {key!r} is not 1, 2 or 3")
            if bot not in BOTS:
                raise ApiError(
                    422, "bad_bot", f"bots.{key}: unknown bot {bot!r}; {', '.join(BOTS)}"
                )
            seats.append(SeatRow(int(key), bot, bot, None))
        pace = hub.bot_delay_ms if body.bot_delay_ms is None else bot_delay(body.bot_delay_ms)
        addr = request.client.host if request.client else "unknown"
        if await hub.read(the_store.open_rooms_by, addr) >= hub.limits.rooms_per_address:
            raise ApiError(429, "too_many_rooms", f"{addr} already holds the most open rooms")
        token = secrets.token_urlsafe(32)
        seats.insert(0, SeatRow(0, body.name, None, token_hash(token)))
        for _ in range(50):
            number = str(100000 + secrets.randbelow(900000))
            if number in hub.rooms:
                continue
            try:
                row: RoomRow = await hub.write(
                    partial(
                        the_store.create_room,
                        number=number,
                        variant=variant.id,
                        options=options,
                        hands=body.hands,
                        turn_seconds=body.turn_seconds,
                        seed=secrets.randbits(62),
                        creator_addr=addr,
                        seats=seats,
                        owner=cluster.node if cluster is not None else None,
                        bot_delay_ms=pace,
                    )
                )
            except RoomNumberTaken:
                continue
            break
        else:
            raise ApiError(503, "no_number", "no free room number found; try again")
        handle = Handle(Room(row, seats, offload=hub.offload))
        if cluster is not None:
            await cluster.adopt(handle, 1)
        else:
            hub.rooms[number] = handle
        return RoomCreated(room=number, seat=0, token=token)

    async def do_join(handle: Handle, args: Mapping[str, Any]) -> dict[str, JSON]:
        async with handle.lock:
            seat = handle.room.free_seat()
            token = secrets.token_urlsafe(32)
            row = SeatRow(seat, str(args["name"]), None, token_hash(token))
            await hub.write(the_store.set_seat, handle.room.id, row, hub.fence(handle))
            await hub.commit(handle, handle.room.set_seat(row))
        return {"seat": seat, "token": token}

    async def do_seat_bot(handle: Handle, args: Mapping[str, Any]) -> dict[str, JSON]:
        seat, bot = int(args["seat"]), str(args["bot"])
        async with handle.lock:
            _owner(handle, args.get("authorization"))
            handle.room.check_bot_seat(seat, bot)
            row = SeatRow(seat, bot, bot, None)
            await hub.write(the_store.set_seat, handle.room.id, row, hub.fence(handle))
            await hub.commit(handle, handle.room.set_seat(row))
            return handle.room.public_state()

    async def do_free_bot(handle: Handle, args: Mapping[str, Any]) -> dict[str, JSON]:
        seat = int(args["seat"])
        async with handle.lock:
            _owner(handle, args.get("authorization"))
            handle.room.check_clear_seat(seat)
            await hub.write(the_store.clear_seat, handle.room.id, seat, hub.fence(handle))
            await hub.commit(handle, handle.room.clear_seat(seat))
            return handle.room.public_state()

    async def do_state(handle: Handle, args: Mapping[str, Any]) -> dict[str, JSON]:
        async with handle.lock:  # what is stored, not a change being stored
            return handle.room.public_state()

    calls = {"join": do_join, "seat_bot": do_seat_bot, "free_bot": do_free_bot, "state": do_state}
    if cluster is not None:
        cluster.http_ops.update(calls)

    async def on_room(room: str, call: str, args: Mapping[str, Any]) -> dict[str, JSON]:
        """A call on a room: here (one process, or a closed room), or by its owner."""
        if cluster is not None:
            from majiang.server.cluster import RoomClosed

            try:
                return await cluster.http(room, call, args)
            except RoomClosed:
                pass
        return await calls[call](await hub.handle_of(room), args)

    @app.post("/api/rooms/{room}/join", response_model=Joined)
    async def join(room: str, body: JoinRoom) -> Joined:
        """Take the lowest free seat."""
        joined = await on_room(room, "join", {"name": body.name})
        return Joined(seat=int(str(joined["seat"])), token=str(joined["token"]))

    @app.put("/api/rooms/{room}/seats/{seat}", response_model=RoomState)
    async def seat_bot(
        room: str,
        seat: Annotated[int, Path(ge=0, le=3)],
        body: SetBot,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, JSON]:
        """Seat a bot in a free seat before the match starts (the creator only)."""
        args = {"seat": seat, "bot": body.bot, "authorization": authorization}
        return await on_room(room, "seat_bot", args)

    @app.delete("/api/rooms/{room}/seats/{seat}", response_model=RoomState)
    async def free_bot(
        room: str,
        seat: Annotated[int, Path(ge=0, le=3)],
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, JSON]:
        """Free a bot's seat before the match starts (the creator only)."""
        return await on_room(room, "free_bot", {"seat": seat, "authorization": authorization})

    @app.get("/api/rooms/{room}", response_model=RoomState)
    async def room_state(room: str) -> dict[str, JSON]:
        """The public room state."""
        return await on_room(room, "state", {})

    @app.get("/api/rooms/{room}/record", response_model=None)
    async def room_record(room: str) -> dict[str, JSON]:
        """The match as a majiang-record/1 document: the hands finished so far."""
        handle = await hub.handle_of(room)
        async with handle.lock:
            if handle.room.status == "finished":
                stored = await hub.read(the_store.record, handle.room.id)
                if stored is not None:
                    return stored
            return handle.room.record()

    @app.get("/api/matches", response_model=list[MatchInfo])
    async def matches(limit: Annotated[int, Query(ge=1, le=100)] = 20) -> list[MatchInfo]:
        """Finished matches, newest first."""
        rows = await hub.read(the_store.finished_matches, limit)
        return [
            MatchInfo(
                room=m.room,
                variant=m.variant,
                finished_at=m.finished_at,
                names=m.names,
                totals=m.totals,
                bots=m.bots,
            )
            for m in rows
        ]

    @app.websocket("/ws/{room}")
    async def ws(websocket: WebSocket, room: str, token: str | None = None) -> None:
        """A seat's (with its token) or a spectator's (without) connection."""
        await websocket.accept()
        if cluster is not None and await cluster.websocket(websocket, room, token):
            return
        try:
            handle = await hub.handle_of(room)
        except ApiError as err:
            await _refuse(websocket, err.code, err.message, 4404)
            return
        seat = handle.room.seat_of(token_hash(token)) if token is not None else None
        if token is not None and seat is None:
            await _refuse(websocket, "bad_token", f"no seat of room {room} has this token", 4401)
            return
        conn = Conn(websocket, seat, hub.limits)
        async with handle.lock:
            if seat is not None:
                old = handle.seats.get(seat)
                if old is not None:
                    old.close(4000, "replaced by a newer connection")
                handle.seats[seat] = conn
                handle.room.set_connected(seat, True)
            else:
                handle.spectators.add(conn)
            conn.put(_dumps(handle.room.snapshot(seat)))
        conn.start()
        try:
            await _receive(handle, conn)
        finally:
            async with handle.lock:
                if seat is not None and handle.seats.get(seat) is conn:
                    del handle.seats[seat]
                    handle.room.set_connected(seat, False)
                handle.spectators.discard(conn)
            conn.close(1000, "bye")

    async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
        error: dict[str, JSON] = {"type": "error", "seq": 0, "code": code, "message": message}
        with contextlib.suppress(Exception):
            await websocket.send_text(_dumps(error))
            await websocket.close(close, code)

    async def _receive(handle: Handle, conn: Conn) -> None:
        limits = hub.limits

        def refuse(code: str, why: str) -> None:
            error: dict[str, JSON] = {"type": "error", "seq": handle.seq, "code": code}
            conn.put(_dumps({**error, "message": why}))
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
                parsed = client_message.validate_json(text)
            except ValidationError as err:
                refuse("bad_message", _validation_message(err))
                continue
            async with handle.lock:
                if isinstance(parsed, SnapshotMsg):
                    conn.put(_dumps(handle.room.snapshot(conn.seat)))
                    continue
                try:
                    out = handle.room.handle(conn.seat, parsed)
                except RoomError as err:
                    refuse(err.code, str(err))
                    continue
                except MajiangError as err:  # an engine refusal the room did not foresee
                    refuse("illegal", str(err))
                    continue
                try:
                    await hub.commit(handle, out)
                except ApiError as err:
                    refuse(err.code, err.message)
                    continue
                conn.strikes = 0

    def openapi() -> dict[str, Any]:
        """The OpenAPI document with the WebSocket messages' schemas in its components."""
        if app.openapi_schema is None:
            schema = get_openapi(
                title=app.title,
                version=app.version,
                summary=app.summary,
                description=app.description,
                routes=app.routes,
            )
            ws_models: list[tuple[type[BaseModel], Literal["validation"]]] = [
                (m, "validation")
                for m in (
                    models.ReadyMsg,
                    models.ActionMsg,
                    models.AutoMsg,
                    models.SnapshotMsg,
                    models.DissolveMsg,
                    models.SnapshotOut,
                    models.EventOut,
                    models.HandEndOut,
                    models.MatchEndOut,
                    models.ErrorOut,
                )
            ]
            _, defs = models_json_schema(ws_models, ref_template="#/components/schemas/{model}")
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for name, definition in defs.get("$defs", {}).items():
                components.setdefault(name, definition)
            app.openapi_schema = schema
        return app.openapi_schema

    mount_web(app, hub)  # the browser game (docs/web.md)
    app.openapi = openapi  # type: ignore[method-assign]
    return app
