"""The Store: rooms, seats, the room event log and finished records in SQLite or PostgreSQL.

Every write is one transaction committed before the method returns, so the server can
append an action, then broadcast it (DESIGN.md, Server and store; docs/store.md).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import cast

from alembic import command
from alembic.config import Config
from alembic.util.exc import CommandError
from sqlalchemy import (
    Connection,
    Engine,
    Row,
    case,
    create_engine,
    delete,
    event,
    func,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

from majiang.errors import MajiangError
from majiang.values import JSON, OptionValue

from .schema import OPEN_STATUSES, STATUSES
from .schema import events as event_table
from .schema import leases as lease_table
from .schema import records as record_table
from .schema import rooms as room_table
from .schema import seats as seat_table

__all__ = [
    "EventRow",
    "Lease",
    "LeaseLost",
    "MatchSummary",
    "RoomNumberTaken",
    "RoomRow",
    "SeatRow",
    "Store",
    "StoreError",
    "default_url",
]

BUSY_TIMEOUT_MS = 10_000
"""How long an SQLite writer waits for another process's write lock before failing."""
CONNECT_TIMEOUT_S = 10
"""How long a PostgreSQL connection attempt may take before the store gives up."""
_TOKEN_HASH = re.compile(r"[0-9a-f]{64}")
_CLOSED = ("finished", "dissolved")


class StoreError(MajiangError):
    """A database that cannot be opened or migrated, or a write it refuses."""


class RoomNumberTaken(StoreError):
    """An unfinished room already has this number (PROTOCOL.md 1: unique among them)."""


class LeaseLost(StoreError):
    """A write fenced by a ``Lease`` the node no longer holds: another node took the room."""


@dataclass(frozen=True, slots=True)
class Lease:
    """A room's ownership as its owner knows it: the node and the epoch it took it at. A
    write made with a lease commits only while the room's lease row still says both."""

    node: str
    epoch: int


@dataclass(frozen=True, slots=True)
class RoomRow:
    """A room's configuration and status; ``finished_at`` is set once finished or dissolved."""

    id: int
    number: str
    variant: str
    options: dict[str, OptionValue]
    hands: int
    turn_seconds: int
    seed: int
    status: str
    creator_addr: str
    created_at: datetime
    finished_at: datetime | None
    bot_delay_ms: tuple[int, int] | None = None
    """The room's bot pace [min, max] ms (revision 0003; None: a room from before, unpaced)."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """Who sits at a seat: a human's ``name`` and SHA-256 ``token_hash``, or a ``bot`` kind."""

    seat: int
    name: str
    bot: str | None = None
    token_hash: str | None = None


@dataclass(frozen=True, slots=True)
class EventRow:
    """One stored room event (server_design.md, The room log), read back in ``seq`` order."""

    seq: int
    kind: str
    data: dict[str, JSON]
    at: datetime


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A finished match as ``GET /api/matches`` lists it (PROTOCOL.md 1)."""

    room: str
    variant: str
    finished_at: datetime
    names: list[str]
    totals: list[int]
    bots: list[str | None]
    """Each seat's bot id, None for a person: a page names bot seats by level, not by id."""


def default_url() -> str:
    """``sqlite:///`` + ``~/.majiang/majiang.db`` expanded; creates the directory."""
    path = Path.home() / ".majiang" / "majiang.db"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create {path.parent}: {exc.strerror}") from None
    return f"sqlite:///{path}"


def _redact(url: str) -> str:
    """``url`` with any password replaced by ``***``, for a URL SQLAlchemy cannot parse."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def _one_line(exc: BaseException) -> str:
    """The driver's reason on one line (psycopg's messages span several)."""
    orig = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    text = " ".join(str(orig).split())
    return text or type(orig).__name__


def _dumps(value: object) -> str:
    """Compact JSON, UTF-8 kept as is, NaN refused on SQLite as PostgreSQL refuses it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _now() -> datetime:
    return datetime.now(UTC)


def _sqlite_connect(dbapi_connection: object, _record: ConnectionPoolEntry) -> None:
    """WAL, ``synchronous=NORMAL``, a busy timeout, foreign keys; BEGIN is ours to emit."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA journal_mode = WAL")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    """Writers take SQLite's write lock at BEGIN, so they queue on the busy timeout instead
    of failing when a read would have to upgrade to a write."""
    write = connection.get_execution_options().get("majiang_write", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _is_foreign_key(exc: IntegrityError) -> bool:
    """Did a row point at a missing room (PostgreSQL SQLSTATE 23503, SQLite's message)?"""
    return getattr(exc.orig, "sqlstate", None) == "23503" or "FOREIGN KEY" in str(exc.orig)


def _check_seat(seat: SeatRow) -> None:
    if seat.token_hash is not None and not _TOKEN_HASH.fullmatch(seat.token_hash):
        raise StoreError(
            f"seat {seat.seat}: token_hash must be a SHA-256 hex digest (64 lowercase hex "
            "digits); the store keeps hashes, never tokens"
        )


def _room_row(row: Row[tuple[object, ...]]) -> RoomRow:
    m = row._mapping
    return RoomRow(
        id=cast(int, m["id"]),
        number=cast(str, m["number"]),
        variant=cast(str, m["variant"]),
        options=dict(cast(dict[str, OptionValue], m["options"])),
        hands=cast(int, m["hands"]),
        turn_seconds=cast(int, m["turn_seconds"]),
        seed=cast(int, m["seed"]),
        status=cast(str, m["status"]),
        creator_addr=cast(str, m["creator_addr"]),
        created_at=cast(datetime, m["created_at"]),
        finished_at=cast(datetime | None, m["finished_at"]),
        bot_delay_ms=_pace(m["bot_delay_ms"]),
    )


def _pace(value: object) -> tuple[int, int] | None:
    """A stored bot pace: two ints, else None (unpaced)."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return value[0], value[1]
    return None


class Store:
    """The database behind ``majiang serve``: opening it applies the migrations (sync API)."""

    def __init__(self, url: str | None = None) -> None:
        raw = default_url() if url is None else url
        try:
            parsed = make_url(raw)
        except ArgumentError:
            raise StoreError(f"bad database URL {_redact(raw)}") from None
        backend = parsed.get_backend_name()
        if backend == "sqlite" and parsed.database and parsed.database.startswith("~"):
            parsed = parsed.set(database=str(Path(parsed.database).expanduser()))
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")  # psycopg 3, the one we ship
        self._url: URL = parsed
        if backend not in ("sqlite", "postgresql"):
            raise StoreError(
                f"unsupported database {self.url}: majiang stores rooms in SQLite or PostgreSQL"
            )
        self._engine = self._open(parsed)
        self._sqlite = backend == "sqlite"
        self._raw: PoolProxiedConnection | None = None
        """The connection kept for ``append_many``'s inserts, opened on first use."""
        self._appender: _Appender | None = None
        self._writer = self._engine.execution_options(majiang_write=True)
        try:
            self._migrate()
        except BaseException:
            self._engine.dispose()
            raise

    def _open(self, url: URL) -> Engine:
        connect_args: dict[str, object] = {}
        if url.get_backend_name() == "postgresql" and "connect_timeout" not in url.query:
            connect_args["connect_timeout"] = CONNECT_TIMEOUT_S
        if url.get_backend_name() == "sqlite":
            connect_args["timeout"] = BUSY_TIMEOUT_MS / 1000
        try:
            engine = create_engine(
                url,
                json_serializer=_dumps,
                pool_pre_ping=url.get_backend_name() == "postgresql",
                connect_args=connect_args,
            )
        except (SQLAlchemyError, ImportError) as exc:
            raise StoreError(f"cannot open database {self.url}: {_one_line(exc)}") from None
        if url.get_backend_name() == "sqlite":
            event.listen(engine, "connect", _sqlite_connect)
            event.listen(engine, "begin", _sqlite_begin)
        return engine

    def _migrate(self) -> None:
        """``alembic upgrade head`` on our own connection: a no-op when already current."""
        config = Config()
        config.set_main_option("script_location", "majiang.store:migrations")
        try:
            with self._writer.connect() as connection:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
        except (SQLAlchemyError, CommandError, OSError) as exc:
            raise StoreError(f"cannot open database {self.url}: {_one_line(exc)}") from None

    @property
    def url(self) -> str:
        """The database URL, password hidden (safe to print)."""
        return self._url.render_as_string(hide_password=True)

    def close(self) -> None:
        """Close every pooled connection; the Store is not used afterwards."""
        if self._raw is not None:
            self._raw.close()
            self._raw = None
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

    @contextmanager
    def _write(self, what: str) -> Iterator[Connection]:
        """One transaction, committed on leaving; any database error becomes a StoreError."""
        try:
            with self._writer.begin() as connection:
                yield connection
        except StoreError:
            raise
        except SQLAlchemyError as exc:
            raise StoreError(f"{what}: {_one_line(exc)}") from None
        except (TypeError, ValueError) as exc:  # a value JSON cannot hold, raised by the driver
            raise StoreError(f"{what}: {_one_line(exc)}") from None

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        try:
            with self._engine.connect() as connection:
                yield connection
        except SQLAlchemyError as exc:
            raise StoreError(f"reading {self.url}: {_one_line(exc)}") from None

    @staticmethod
    def _fence(connection: Connection, room_id: int, lease: Lease | None) -> None:
        """LeaseLost unless ``lease`` still owns the room; the lease row stays share-locked
        until the transaction ends, so a takeover waits for this write and sees it."""
        if lease is None:
            return
        query = (
            select(lease_table.c.node, lease_table.c.epoch)
            .where(lease_table.c.room_id == room_id)
            .with_for_update(read=True)
        )
        row = connection.execute(query).first()
        if row is None or (row.node, row.epoch) != (lease.node, lease.epoch):
            raise LeaseLost(_lost(room_id, row))

    @staticmethod
    def _require_room(connection: Connection, room_id: int) -> None:
        if (
            connection.execute(select(room_table.c.id).where(room_table.c.id == room_id)).first()
            is None
        ):
            raise StoreError(f"no room with id {room_id}")

    def create_room(
        self,
        *,
        number: str,
        variant: str,
        options: Mapping[str, OptionValue],
        hands: int,
        turn_seconds: int,
        seed: int,
        creator_addr: str,
        seats: Sequence[SeatRow],
        owner: str | None = None,
        bot_delay_ms: tuple[int, int] | None = None,
    ) -> RoomRow:
        """Insert a waiting room and its seats; RoomNumberTaken if an unfinished room has
        ``number`` (also when another process wins the race for it). With ``owner`` (a
        node), the room's lease is that node's at epoch 1, in the same transaction."""
        for seat in seats:
            _check_seat(seat)
        created_at = _now()
        values = {
            "number": number,
            "variant": variant,
            "options": dict(options),
            "hands": hands,
            "turn_seconds": turn_seconds,
            "seed": seed,
            "status": "waiting",
            "creator_addr": creator_addr,
            "created_at": created_at,
            "finished_at": None,
            "bot_delay_ms": list(bot_delay_ms) if bot_delay_ms is not None else None,
        }
        with self._write(f"creating room {number}") as connection:
            try:
                inserted = connection.execute(
                    room_table.insert().values(values).returning(room_table.c.id)
                )
            except IntegrityError as exc:
                if "ux_rooms_open_number" in str(exc.orig) or "rooms.number" in str(exc.orig):
                    raise RoomNumberTaken(f"room number {number} is in use") from None
                raise
            room_id = int(inserted.scalar_one())
            if seats:
                connection.execute(
                    seat_table.insert(),
                    [{"room_id": room_id, **_seat_values(seat)} for seat in seats],
                )
            if owner is not None:
                connection.execute(
                    lease_table.insert().values(
                        room_id=room_id, node=owner, epoch=1, taken_at=created_at
                    )
                )
        return RoomRow(
            id=room_id,
            number=number,
            variant=variant,
            options=dict(options),
            hands=hands,
            turn_seconds=turn_seconds,
            seed=seed,
            status="waiting",
            creator_addr=creator_addr,
            created_at=created_at,
            finished_at=None,
            bot_delay_ms=bot_delay_ms,
        )

    def set_seat(self, room_id: int, seat: SeatRow, lease: Lease | None = None) -> None:
        """Seat a human or a bot, replacing whoever sat there (LeaseLost if ``lease`` is
        given and no longer owns the room; so for every write below)."""
        _check_seat(seat)
        with self._write(f"room {room_id} seat {seat.seat}") as connection:
            self._fence(connection, room_id, lease)
            self._require_room(connection, room_id)
            connection.execute(
                delete(seat_table).where(
                    seat_table.c.room_id == room_id, seat_table.c.seat == seat.seat
                )
            )
            connection.execute(seat_table.insert().values(room_id=room_id, **_seat_values(seat)))

    def clear_seat(self, room_id: int, seat: int, lease: Lease | None = None) -> None:
        """Free a seat (nothing happens if it was free)."""
        with self._write(f"room {room_id} seat {seat}") as connection:
            self._fence(connection, room_id, lease)
            connection.execute(
                delete(seat_table).where(seat_table.c.room_id == room_id, seat_table.c.seat == seat)
            )

    def append(
        self,
        room_id: int,
        events: Sequence[tuple[int, str, Mapping[str, JSON]]],
        lease: Lease | None = None,
    ) -> None:
        """Store ``(seq, kind, data)`` events in one transaction, committed on return; a seq
        already stored (or twice in the batch) raises StoreError and stores none of them."""
        if not events:
            return
        seqs = [seq for seq, _, _ in events]
        if len(set(seqs)) != len(seqs):
            raise StoreError(f"room {room_id}: a batch repeats an event seq {sorted(seqs)}")
        at = _now()
        rows = [
            {"room_id": room_id, "seq": seq, "kind": kind, "data": dict(data), "at": at}
            for seq, kind, data in events
        ]
        what = f"room {room_id}: appending events (seq {min(seqs)}..{max(seqs)})"
        with self._write(what) as connection:
            self._fence(connection, room_id, lease)
            try:
                connection.execute(event_table.insert(), rows)
            except IntegrityError as exc:  # the foreign key, not a lookup, spares a round trip
                if _is_foreign_key(exc):
                    raise StoreError(f"no room with id {room_id}") from None
                raise

    def append_many(
        self,
        batches: Sequence[tuple[int, Sequence[tuple[int, str, Mapping[str, JSON]]]]],
        leases: Mapping[int, Lease] | None = None,
    ) -> list[StoreError | None]:
        """Several rooms' ``append`` in one transaction (a group commit: one commit for every
        action that arrived while the last one was being written). If it fails, each room's
        events are tried alone, so one room's bad batch does not refuse the others'; returns
        each batch's error, None where it was stored. With ``leases`` (room id -> Lease,
        PostgreSQL), a room whose lease another node took gets LeaseLost and nothing of it
        is stored, checked in the same transaction (the lease rows share-locked); so does a
        room missing from ``leases``, on either path (the group insert or one room alone)."""
        rows = [
            (room_id, seq, kind, data) for room_id, events in batches for seq, kind, data in events
        ]
        lost: set[int] | None = None
        if rows and len({(r[0], r[1]) for r in rows}) == len(rows):
            lost = self._append_raw(rows, leases)
        if lost is not None:
            return [
                LeaseLost(_lost(room_id, None)) if room_id in lost else None
                for room_id, _ in batches
            ]
        out: list[StoreError | None] = []
        for room_id, events in batches:
            if leases is not None and room_id not in leases:
                out.append(LeaseLost(_lost(room_id, None)))  # fenced, with no lease: refused
                continue
            try:
                self.append(room_id, events, leases[room_id] if leases is not None else None)
                out.append(None)
            except StoreError as err:
                out.append(err)
        return out

    def _append_raw(
        self,
        rows: Sequence[tuple[int, int, str, Mapping[str, JSON]]],
        leases: Mapping[int, Lease] | None,
    ) -> set[int] | None:
        """Insert the rows in one transaction on a connection kept for it, through the
        driver with the statement and value conversions SQLAlchemy compiled (its per-call
        machinery costs more than the insert); the rooms refused for their lease (their
        rows left out), or None, with nothing stored, if the database refused the rows
        (``append_many`` then finds whose batch it was)."""
        if self._appender is None:
            dialect = self._engine.dialect
            compiled = event_table.insert().compile(dialect=dialect)
            cols = event_table.c
            data = cols.data.type.dialect_impl(dialect).bind_processor(dialect)
            at = cols.at.type.dialect_impl(dialect).bind_processor(dialect)
            names = list(compiled.positiontup or ())
            named = dialect.paramstyle in ("named", "pyformat")
            self._appender = _Appender(str(compiled), names, data, at, named)
        ap = self._appender
        sqlite = self._sqlite
        try:
            connection = self._raw
            if connection is None:
                connection = self._raw = self._engine.raw_connection()
                if sqlite:  # its commits never checkpoint: checkpoint() does, off the loop
                    connection.cursor().execute("PRAGMA wal_autocheckpoint = 0")
            stamp = ap.at(_now()) if ap.at else _now()
            cursor = connection.cursor()
            lost: set[int] = set()
            try:
                if sqlite:
                    cursor.execute("BEGIN IMMEDIATE")
                if leases is not None:
                    lost = self._fenced_out(cursor, {r[0] for r in rows}, leases)
                values = [
                    {"room_id": r, "seq": q, "kind": k, "at": stamp,
                     "data": ap.data(dict(d)) if ap.data else dict(d)}
                    for r, q, k, d in rows if r not in lost
                ]  # fmt: skip
                if not values:
                    pass
                elif ap.named:
                    cursor.executemany(ap.sql, values)
                else:
                    cursor.executemany(ap.sql, [tuple(v[n] for n in ap.names) for v in values])
                if sqlite:
                    cursor.execute("COMMIT")
                else:
                    connection.commit()
            finally:
                cursor.close()
        except Exception:  # a refusal (a seq stored twice, a missing room, not JSON) or a
            # dropped connection: roll back, drop the connection, let the caller find out why
            self._drop_raw()
            return None
        return lost

    def _fenced_out(
        self, cursor: object, rooms: set[int], leases: Mapping[int, Lease]
    ) -> set[int]:
        """The rooms among ``rooms`` whose lease row no longer says their ``leases`` entry,
        the others' rows share-locked in room order (a takeover waits for the commit; the
        order keeps two such transactions from deadlocking)."""
        if self._sqlite:
            raise StoreError("room leases need PostgreSQL (majiang serve --bus)")
        execute = getattr(cursor, "execute")  # noqa: B009 - a DB-API cursor, untyped
        execute(
            "SELECT room_id, node, epoch FROM room_leases WHERE room_id = ANY(%s) "
            "ORDER BY room_id FOR SHARE",
            (sorted(rooms),),
        )
        held = {int(r): (str(n), int(e)) for r, n, e in getattr(cursor, "fetchall")()}  # noqa: B009
        return {
            r for r in rooms if r not in leases or held.get(r) != (leases[r].node, leases[r].epoch)
        }

    def checkpoint(self) -> int:
        """Copy SQLite's write-ahead log into the database (PASSIVE: writers go on); the
        pages copied, 0 on PostgreSQL. ``append_many``'s own commits never checkpoint, so a
        server calls this from a thread and the event loop never waits for the fsync."""
        if not self._sqlite:
            return 0
        with self._read() as connection:
            row = connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
        return int(row[2])

    def _drop_raw(self) -> None:
        connection, self._raw = self._raw, None
        if connection is None:
            return
        with suppress(Exception):  # nothing was open, or the connection is gone
            if self._sqlite:
                connection.cursor().execute("ROLLBACK")
            else:
                connection.rollback()
        with suppress(Exception):
            connection.invalidate()

    def set_status(self, room_id: int, status: str, lease: Lease | None = None) -> None:
        """Move a room to ``status``; finished and dissolved stamp ``finished_at``."""
        if status not in STATUSES:
            raise StoreError(f"room status {status!r} is not one of {', '.join(STATUSES)}")
        finished_at = _now() if status in _CLOSED else None
        with self._write(f"room {room_id} status {status}") as connection:
            self._fence(connection, room_id, lease)
            try:
                done = connection.execute(
                    update(room_table)
                    .where(room_table.c.id == room_id)
                    .values(status=status, finished_at=finished_at)
                )
            except IntegrityError:
                raise RoomNumberTaken(
                    f"room {room_id} cannot reopen: an unfinished room has its number"
                ) from None
            if done.rowcount == 0:
                raise StoreError(f"no room with id {room_id}")

    def save_record(
        self,
        room_id: int,
        record: Mapping[str, JSON],
        names: Sequence[str],
        totals: Sequence[int],
        lease: Lease | None = None,
    ) -> None:
        """Keep the room's majiang-record/1 document (FORMAT.md 2), replacing an earlier one."""
        with self._write(f"room {room_id}: saving its record") as connection:
            self._fence(connection, room_id, lease)
            self._require_room(connection, room_id)
            connection.execute(delete(record_table).where(record_table.c.room_id == room_id))
            connection.execute(
                record_table.insert().values(
                    room_id=room_id,
                    record=dict(record),
                    names=list(names),
                    totals=list(totals),
                    finished_at=_now(),
                )
            )

    # -- nodes and room leases (majiang serve --bus; docs/scaling.md) --------------------------
    def _postgres_only(self, what: str) -> None:
        if self._sqlite:
            raise StoreError(f"{what} needs PostgreSQL: several servers share one database")

    def limit_idle_transactions(self, seconds: float) -> None:
        """Have PostgreSQL end any transaction of this store left idle for ``seconds``
        (``idle_in_transaction_session_timeout``), releasing its locks. A node frozen inside
        a write (stopped, swapped out, a VM paused) holds its fence's share lock on the
        lease row, and a takeover's update of that row would wait for it forever; with
        this it waits ``seconds`` at most (docs/scaling.md). Connections opened before are
        closed, so every connection gets it."""
        self._postgres_only("a limit on idle transactions")
        ms = max(1, round(seconds * 1000))

        def limit(dbapi_connection: object, _record: ConnectionPoolEntry) -> None:
            cursor = getattr(dbapi_connection, "cursor")()  # noqa: B009 - DB-API, untyped
            cursor.execute(
                "SELECT set_config('idle_in_transaction_session_timeout', %s, false)",
                (str(ms),),
            )
            cursor.close()
            getattr(dbapi_connection, "commit")()  # noqa: B009

        event.listen(self._engine, "connect", limit)
        self._drop_raw()
        self._engine.dispose()

    def name_sessions(self, node: str) -> None:
        """Name every session of this store after ``node`` (``application_name``), so that
        a node taking one of its expired leases can end them (``acquire``). Connections
        opened before are closed, so every connection gets it."""
        self._postgres_only("naming a node's sessions")
        if not node or len(node) > 63 or not node.isascii() or not node.isprintable():
            raise StoreError(f"node name {node!r}: 1 to 63 printable ASCII characters")

        def name(dbapi_connection: object, _record: ConnectionPoolEntry) -> None:
            cursor = getattr(dbapi_connection, "cursor")()  # noqa: B009 - DB-API, untyped
            cursor.execute("SELECT set_config('application_name', %s, false)", (node,))
            cursor.close()
            getattr(dbapi_connection, "commit")()  # noqa: B009

        event.listen(self._engine, "connect", name)
        self._drop_raw()
        self._engine.dispose()

    def register_node(self, node: str, address: str, seconds: float) -> None:
        """Enter a server process (``node``, a unique name) with a heartbeat good for
        ``seconds``; the leases it takes expire when its heartbeat does."""
        self._postgres_only("a server node")
        with self._write(f"registering node {node}") as connection:
            connection.execute(
                text(
                    "INSERT INTO nodes (node, address, started_at, expires_at) VALUES "
                    "(:node, :address, now(), now() + make_interval(secs => :s))"
                ),
                {"node": node, "address": address, "s": seconds},
            )

    def heartbeat(self, node: str, seconds: float) -> bool:
        """Renew ``node``'s heartbeat (so all its leases) for ``seconds`` from the database's
        clock; False if the node is unknown."""
        with self._write(f"node {node}: heartbeat") as connection:
            done = connection.execute(
                text(
                    "UPDATE nodes SET expires_at = now() + make_interval(secs => :s) "
                    "WHERE node = :node"
                ),
                {"node": node, "s": seconds},
            )
        return bool(done.rowcount)

    def retire_node(self, node: str) -> None:
        """Let ``node``'s leases expire now (a clean stop): other nodes may take its rooms."""
        with self._write(f"node {node}: retiring") as connection:
            connection.execute(
                text(
                    "UPDATE nodes SET expires_at = now() - interval '1 second' WHERE node = :node"
                ),
                {"node": node},
            )

    def acquire(self, room_id: int, node: str) -> int | None:
        """Take an unfinished room's lease for ``node`` (whose own heartbeat must be live) if
        it has none or its node's heartbeat expired: the new epoch, or None if a live node
        holds it (or the room is closed). Taking one's own lease again bumps the epoch (an
        older handle of the room in the same node can then no longer write). Two nodes
        racing for one lease: the row lock lets exactly one win.

        The expired holder's sessions (``name_sessions``) are ended first: a node frozen
        inside a fenced write holds the lease row's share lock, and PostgreSQL's idle limit
        does not always end it (a transaction left after a pipelined insert was not, in
        docs/scaling.md's measure), so the takeover would wait as long as it is frozen.
        Ended, its open transaction rolls back and the lock goes; what it had committed,
        the taker reads."""
        self._postgres_only("a room lease")
        with self._write(f"room {room_id}: taking its lease") as connection:
            connection.execute(
                text(
                    "SELECT pg_terminate_backend(a.pid) FROM pg_stat_activity a "
                    "JOIN room_leases l ON l.room_id = :room AND a.application_name = l.node "
                    "WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() "
                    "AND l.node <> CAST(:node AS varchar) AND NOT EXISTS ("
                    "SELECT 1 FROM nodes n WHERE n.node = l.node AND n.expires_at > now())"
                ),
                {"room": room_id, "node": node},
            )
            row = connection.execute(
                text(
                    "INSERT INTO room_leases (room_id, node, epoch, taken_at) "
                    "SELECT r.id, CAST(:node AS varchar), 1, now() FROM rooms r "
                    "WHERE r.id = :room AND r.status IN ('waiting', 'playing') "
                    "AND EXISTS (SELECT 1 FROM nodes m WHERE m.node = CAST(:node AS varchar) "
                    "AND m.expires_at > now()) "
                    "ON CONFLICT (room_id) DO UPDATE SET node = EXCLUDED.node, "
                    "epoch = room_leases.epoch + 1, taken_at = EXCLUDED.taken_at "
                    "WHERE room_leases.node = EXCLUDED.node OR NOT EXISTS ("
                    "SELECT 1 FROM nodes n WHERE n.node = room_leases.node "
                    "AND n.expires_at > now()) "
                    "RETURNING epoch"
                ),
                {"room": room_id, "node": node},
            ).first()
        return None if row is None else int(row[0])

    def held(self, node: str) -> dict[int, int]:
        """The rooms whose lease ``node`` holds: room id -> epoch."""
        query = select(lease_table.c.room_id, lease_table.c.epoch).where(
            lease_table.c.node == node
        )
        with self._read() as connection:
            return {int(r.room_id): int(r.epoch) for r in connection.execute(query)}

    def lease_of(self, room_id: int) -> tuple[str, int, bool] | None:
        """A room's lease: (node, epoch, whether that node's heartbeat is live), or None."""
        with self._read() as connection:
            row = connection.execute(
                text(
                    "SELECT l.node, l.epoch, coalesce(n.expires_at > now(), FALSE) "
                    "FROM room_leases l LEFT JOIN nodes n ON n.node = l.node "
                    "WHERE l.room_id = :room"
                ),
                {"room": room_id},
            ).first()
        return None if row is None else (str(row[0]), int(row[1]), bool(row[2]))

    def orphans(self, limit: int) -> list[RoomRow]:
        """Up to ``limit`` unfinished rooms that no live node holds (their node's heartbeat
        expired, or they never had a lease), in random order so that nodes taking them at
        once spread them among themselves."""
        self._postgres_only("finding rooms without an owner")
        query = text(
            "SELECT r.* FROM rooms r LEFT JOIN room_leases l ON l.room_id = r.id "
            "LEFT JOIN nodes n ON n.node = l.node AND n.expires_at > now() "
            "WHERE r.status IN ('waiting', 'playing') AND n.node IS NULL "
            "ORDER BY random() LIMIT :limit"
        ).columns(*room_table.c)
        with self._read() as connection:
            return [_room_row(row) for row in connection.execute(query, {"limit": limit})]

    def room(self, number: str) -> RoomRow | None:
        """The unfinished room with ``number``, else the newest finished one, else None."""
        unfinished_first = case((room_table.c.status.in_(OPEN_STATUSES), 0), else_=1)
        query = (
            select(room_table)
            .where(room_table.c.number == number)
            .order_by(unfinished_first, room_table.c.id.desc())
            .limit(1)
        )
        with self._read() as connection:
            row = connection.execute(query).first()
        return None if row is None else _room_row(row)

    def rooms_in_play(self) -> list[RoomRow]:
        """Every waiting or playing room, oldest first: what a restart rebuilds."""
        query = (
            select(room_table)
            .where(room_table.c.status.in_(OPEN_STATUSES))
            .order_by(room_table.c.id)
        )
        with self._read() as connection:
            return [_room_row(row) for row in connection.execute(query)]

    def seats(self, room_id: int) -> list[SeatRow]:
        """The room's taken seats by seat number."""
        query = (
            select(seat_table).where(seat_table.c.room_id == room_id).order_by(seat_table.c.seat)
        )
        with self._read() as connection:
            return [
                SeatRow(seat=row.seat, name=row.name, bot=row.bot, token_hash=row.token_hash)
                for row in connection.execute(query)
            ]

    def events(self, room_id: int) -> list[EventRow]:
        """The room's log in ``seq`` order."""
        query = (
            select(event_table).where(event_table.c.room_id == room_id).order_by(event_table.c.seq)
        )
        with self._read() as connection:
            return [
                EventRow(
                    seq=row.seq, kind=row.kind, data=cast(dict[str, JSON], row.data), at=row.at
                )
                for row in connection.execute(query)
            ]

    def record(self, room_id: int) -> dict[str, JSON] | None:
        """The room's saved record, or None before ``save_record``."""
        query = select(record_table.c.record).where(record_table.c.room_id == room_id)
        with self._read() as connection:
            value = connection.execute(query).scalar_one_or_none()
        return None if value is None else cast(dict[str, JSON], value)

    def finished_matches(self, limit: int) -> list[MatchSummary]:
        """The ``limit`` most recently saved records, newest first (``GET /api/matches``)."""
        if limit <= 0:
            return []
        query = (
            select(
                room_table.c.id,
                room_table.c.number,
                room_table.c.variant,
                record_table.c.finished_at,
                record_table.c.names,
                record_table.c.totals,
            )
            .join_from(record_table, room_table, record_table.c.room_id == room_table.c.id)
            .order_by(record_table.c.finished_at.desc(), record_table.c.room_id.desc())
            .limit(limit)
        )
        with self._read() as connection:
            rows = list(connection.execute(query))
            bots: dict[int, list[str | None]] = {row.id: [None] * 4 for row in rows}
            seat_query = select(seat_table.c.room_id, seat_table.c.seat, seat_table.c.bot).where(
                seat_table.c.room_id.in_(list(bots))
            )
            for seat in connection.execute(seat_query):
                if 0 <= seat.seat < 4:
                    bots[seat.room_id][seat.seat] = seat.bot
            return [
                MatchSummary(
                    room=row.number,
                    variant=row.variant,
                    finished_at=row.finished_at,
                    names=list(row.names),
                    totals=list(row.totals),
                    bots=bots[row.id],
                )
                for row in rows
            ]

    def open_rooms_by(self, creator_addr: str) -> int:
        """How many unfinished rooms ``creator_addr`` created (the per-creator bound)."""
        query = (
            select(func.count())
            .select_from(room_table)
            .where(
                room_table.c.creator_addr == creator_addr, room_table.c.status.in_(OPEN_STATUSES)
            )
        )
        with self._read() as connection:
            return int(connection.execute(query).scalar_one())


@dataclass(frozen=True)
class _Appender:
    """The compiled insert of an event row and the conversions of its values."""

    sql: str
    names: list[str]
    """The columns in the statement's order, for a driver taking positional values."""
    data: Callable[[object], object] | None
    at: Callable[[object], object] | None
    named: bool
    """Does the driver take the values by name (PostgreSQL's psycopg) or by position?"""


def _lost(room_id: int, row: object) -> str:
    who = f" (now node {getattr(row, 'node')}, epoch {getattr(row, 'epoch')})" if row else ""  # noqa: B009
    return f"room {room_id}: this server no longer holds its lease{who}; another server owns it"


def _seat_values(seat: SeatRow) -> dict[str, object]:
    return {"seat": seat.seat, "name": seat.name, "bot": seat.bot, "token_hash": seat.token_hash}
