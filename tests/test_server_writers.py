"""The server's store writes: one writer thread on SQLite, several on PostgreSQL (concurrent
commits share WAL flushes), each room's writes in order because its lock is held across them,
and the rooms' log appends grouped into one transaction per writer round trip (majiang/server/
app.py, Hub.write and Hub.append; the figures in bench/RESULTS.md, bench_server.py)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path

from pgkit import postgres_schema

from majiang.server.app import POSTGRES_WRITERS, Hub, Limits, LogEntry, writer_threads
from majiang.store import RoomRow, SeatRow, Store, StoreError
from majiang.values import JSON


class Overlap:
    """Wraps a store's append: counts the appends in progress at once (the most seen)."""

    def __init__(self, append: object, wait: threading.Barrier | None = None) -> None:
        self.append = append
        self.wait = wait
        self.lock = threading.Lock()
        self.now = 0
        self.most = 0

    def __call__(self, room_id: int, events: Sequence[tuple[int, str, Mapping[str, JSON]]]) -> None:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            if self.wait is not None:
                self.wait.wait()
            if callable(self.append):
                self.append(room_id, events)
        finally:
            with self.lock:
                self.now -= 1


class FakeStore:
    """Only what Hub.__init__ and Hub.write touch."""

    def __init__(self, url: str) -> None:
        self.url = url


def test_writer_threads_by_backend() -> None:
    assert writer_threads("sqlite:////tmp/rooms.db") == 1
    assert writer_threads("postgresql+psycopg://postgres@127.0.0.1:5432/test") == POSTGRES_WRITERS
    assert POSTGRES_WRITERS > 1


def test_postgres_writes_of_different_rooms_overlap() -> None:
    """Four rooms' appends wait for each other on a barrier: they all finish only if they run
    at the same time (one writer thread would break the barrier after its timeout)."""
    hub = Hub(FakeStore("postgresql+psycopg://x@h/db"), Limits())  # type: ignore[arg-type]
    overlap = Overlap(None, threading.Barrier(4, timeout=10))

    async def run() -> None:
        await asyncio.gather(*(hub.write(overlap, room, [(0, "start", {})]) for room in range(4)))

    try:
        asyncio.run(run())
    finally:
        hub.writer.shutdown(wait=True)
    assert overlap.most == 4


def test_sqlite_writes_never_overlap() -> None:
    hub = Hub(FakeStore("sqlite:////tmp/none.db"), Limits())  # type: ignore[arg-type]
    overlap = Overlap(None)

    async def run() -> None:
        await asyncio.gather(*(hub.write(overlap, room, [(0, "start", {})]) for room in range(16)))

    try:
        asyncio.run(run())
    finally:
        hub.writer.shutdown(wait=True)
    assert overlap.most == 1


def eight_rooms(store: Store, first: int) -> list[RoomRow]:
    """Eight guangdong rooms of four human seats, numbered from ``first``."""
    seats = [SeatRow(s, f"p{s}") for s in range(4)]
    return [
        store.create_room(
            number=str(first + i),
            variant="guangdong",
            options={},
            hands=1,
            turn_seconds=0,
            seed=i,
            creator_addr="test",
            seats=seats,
        )
        for i in range(8)
    ]


async def changes_at_once(
    rows: list[RoomRow], write: Callable[[int, list[LogEntry]], Awaitable[None]]
) -> None:
    """25 changes to every room, all at once; as in the server, a change numbers its entry
    and writes it under the room's lock."""

    async def change(room_id: int, lock: asyncio.Lock, counter: list[int]) -> None:
        async with lock:
            seq = counter[0]
            counter[0] += 1
            await write(room_id, [(seq, "ready", {"seat": seq % 4})])

    tasks = []
    for row in rows:
        lock, counter = asyncio.Lock(), [0]
        tasks += [change(row.id, lock, counter) for _ in range(25)]
    await asyncio.gather(*tasks)


def test_postgres_rooms_written_concurrently_keep_their_order() -> None:
    """Eight rooms get 25 changes each, all at once, on a real PostgreSQL; as in the server,
    a change numbers its entry and writes it under the room's lock. Writes of different rooms
    overlap, and every room's log is complete and was committed in seq order."""
    with postgres_schema() as url, Store(url) as store:
        rows = eight_rooms(store, 200000)
        hub = Hub(store, Limits())
        overlap = Overlap(store.append)

        async def write(room_id: int, log: list[LogEntry]) -> None:
            await hub.write(overlap, room_id, log)

        try:
            asyncio.run(changes_at_once(rows, write))
        finally:
            hub.writer.shutdown(wait=True)
        assert overlap.most > 1
        for row in rows:
            events = store.events(row.id)
            assert [e.seq for e in events] == list(range(25))
            assert [e.data["seat"] for e in events] == [seq % 4 for seq in range(25)]
            stamps = [e.at for e in events]
            assert stamps == sorted(stamps)


def group_commit_run(store: Store) -> list[int]:
    """Eight rooms get 25 changes each, all at once, through Hub.append under each room's
    lock (as the server does); returns the sizes of the transactions the hub made."""
    rows = eight_rooms(store, 300000)
    hub = Hub(store, Limits())
    sizes: list[int] = []
    append_many = store.append_many

    def counted(
        batches: Sequence[tuple[int, Sequence[tuple[int, str, Mapping[str, JSON]]]]],
    ) -> list[StoreError | None]:
        sizes.append(len(batches))
        return append_many(batches)

    store.append_many = counted  # type: ignore[method-assign]

    async def run() -> None:
        await changes_at_once(rows, hub.append)
        # a refused batch fails its own room alone
        bad, good = (
            hub.append(rows[0].id, [(3, "again", {})]),
            hub.append(rows[1].id, [(25, "x", {})]),
        )
        results = await asyncio.gather(bad, good, return_exceptions=True)
        assert isinstance(results[0], StoreError) and results[1] is None

    try:
        asyncio.run(run())
    finally:
        hub.writer.shutdown(wait=True)
    for i, row in enumerate(rows):
        events = store.events(row.id)
        assert [e.seq for e in events] == list(range(25 if i != 1 else 26))
        assert [e.data["seat"] for e in events[:25]] == [seq % 4 for seq in range(25)]
    return sizes


def test_group_commit_on_sqlite(tmp_path: Path) -> None:
    with Store(f"sqlite:///{tmp_path / 'rooms.db'}") as store:
        sizes = group_commit_run(store)
    assert sum(sizes) == 8 * 25 + 2 and max(sizes) > 1  # fewer transactions than changes


def test_group_commit_on_postgres() -> None:
    with postgres_schema() as url, Store(url) as store:
        sizes = group_commit_run(store)
    assert sum(sizes) == 8 * 25 + 2 and max(sizes) > 1
