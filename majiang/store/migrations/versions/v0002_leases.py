"""Room ownership for several ``majiang serve --bus`` processes: nodes and room leases
(docs/store.md, Schema; docs/scaling.md).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Create ``nodes`` (a process and its heartbeat) and ``room_leases`` (room -> node)."""
    op.create_table(
        "nodes",
        sa.Column("node", sa.String(64), primary_key=True),
        sa.Column("address", sa.String(255), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "room_leases",
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.Column("taken_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_room_leases_node", "room_leases", ["node"])


def downgrade() -> None:
    """Drop both tables."""
    op.drop_table("room_leases")
    op.drop_table("nodes")
