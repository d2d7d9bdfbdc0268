"""The store's tables as SQLAlchemy Core objects (docs/store.md); the migrations create them."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    TypeDecorator,
)

__all__ = [
    "OPEN_STATUSES",
    "STATUSES",
    "events",
    "leases",
    "metadata",
    "nodes",
    "records",
    "rooms",
    "seats",
]

OPEN_STATUSES = ("waiting", "playing")
"""A room in one of these is unfinished: its number is taken (PROTOCOL.md 1)."""
STATUSES = (*OPEN_STATUSES, "finished", "dissolved")
"""Every room status."""

metadata = MetaData()


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and read back timezone-aware on SQLite as on PostgreSQL."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: the store keeps UTC times")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


rooms = Table(
    "rooms",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("number", String(16), nullable=False),
    Column("variant", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("turn_seconds", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    Column("creator_addr", String(255), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime, nullable=True),
    Column("bot_delay_ms", JSON, nullable=True),
)
Index(
    "ux_rooms_open_number",
    rooms.c.number,
    unique=True,
    postgresql_where=rooms.c.status.in_(OPEN_STATUSES),
    sqlite_where=rooms.c.status.in_(OPEN_STATUSES),
)
Index("ix_rooms_number", rooms.c.number)
Index("ix_rooms_status", rooms.c.status)
Index("ix_rooms_creator_status", rooms.c.creator_addr, rooms.c.status)

seats = Table(
    "seats",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(255), nullable=False),
    Column("bot", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    PrimaryKeyConstraint("room_id", "seat"),
)

events = Table(
    "events",
    metadata,
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(32), nullable=False),
    Column("data", JSON, nullable=False),
    Column("at", UTCDateTime, nullable=False),
    PrimaryKeyConstraint("room_id", "seq"),
)

records = Table(
    "records",
    metadata,
    Column(
        "room_id",
        Integer,
        ForeignKey("rooms.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    ),
    Column("record", JSON, nullable=False),
    Column("names", JSON, nullable=False),
    Column("totals", JSON, nullable=False),
    Column("finished_at", UTCDateTime, nullable=False),
)
Index("ix_records_finished_at", records.c.finished_at, records.c.room_id)

nodes = Table(
    "nodes",
    metadata,
    Column("node", String(64), primary_key=True),
    Column("address", String(255), nullable=False),
    Column("started_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
)
"""The ``majiang serve --bus`` processes: a node's heartbeat (``expires_at``) is the expiry of
every room lease it holds (docs/scaling.md)."""

leases = Table(
    "room_leases",
    metadata,
    Column(
        "room_id",
        Integer,
        ForeignKey("rooms.id", ondelete="CASCADE"),
        primary_key=True,
        autoincrement=False,
    ),
    Column("node", String(64), nullable=False),
    Column("epoch", BigInteger, nullable=False),
    Column("taken_at", UTCDateTime, nullable=False),
)
"""Which node owns a room, and the how-many-th owner it is (``epoch``): every write of the
owner checks both in its own transaction, so a room's old owner can never write again."""
Index("ix_room_leases_node", leases.c.node)
