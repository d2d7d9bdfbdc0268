"""Create rooms, seats, events and records (docs/store.md, Schema).

Revision ID: 0001
Revises:
Create Date: 2025-01-01 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OPEN = sa.text("status IN ('waiting', 'playing')")
"""The unfinished rooms, among which a room number is unique (PROTOCOL.md 1)."""


def upgrade() -> None:
    """Create the four tables and their indexes."""
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("number", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("turn_seconds", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("creator_addr", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index(
        "ux_rooms_open_number",
        "rooms",
        ["number"],
        unique=True,
        postgresql_where=OPEN,
        sqlite_where=OPEN,
    )
    op.create_index("ix_rooms_number", "rooms", ["number"])
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_index("ix_rooms_creator_status", "rooms", ["creator_addr", "status"])
    op.create_table(
        "seats",
        sa.Column(
            "room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(255), nullable=False),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.PrimaryKeyConstraint("room_id", "seat"),
    )
    op.create_table(
        "events",
        sa.Column(
            "room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("room_id", "seq"),
    )
    op.create_table(
        "records",
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.Column("totals", sa.JSON(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_records_finished_at", "records", ["finished_at", "room_id"])


def downgrade() -> None:
    """Drop everything ``upgrade`` created."""
    op.drop_table("records")
    op.drop_table("events")
    op.drop_table("seats")
    op.drop_table("rooms")
