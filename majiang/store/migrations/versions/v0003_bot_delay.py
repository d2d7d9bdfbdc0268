"""A room's bot pace: ``rooms.bot_delay_ms`` (docs/store.md, Schema; docs/protocol.md).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06 00:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Add the nullable JSON column ``bot_delay_ms`` ([min, max] ms; null: unpaced)."""
    op.add_column("rooms", sa.Column("bot_delay_ms", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("bot_delay_ms")
