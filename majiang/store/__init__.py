"""Persistence for ``majiang serve``: rooms, seats, the room event log and finished records.

SQLAlchemy Core on SQLite (the default, ``~/.majiang/majiang.db``) or PostgreSQL, schema
kept by the Alembic migrations shipped here (docs/store.md). The core never imports this.
"""

from majiang.store.store import (
    EventRow,
    Lease,
    LeaseLost,
    MatchSummary,
    RoomNumberTaken,
    RoomRow,
    SeatRow,
    Store,
    StoreError,
    default_url,
)

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
