"""Alembic environment: runs on the connection ``Store`` passes, never from an alembic.ini."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, text

VERSION_TABLE = "majiang_alembic_version"
"""Our own version table, so a database shared with another Alembic project is safe."""
LOCK_KEY = 0x6D616A69616E67
"""PostgreSQL advisory lock held while migrating: two servers starting at once take turns."""


def run_migrations_online() -> None:
    """Upgrade on ``config.attributes["connection"]`` in one transaction."""
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError("majiang's migrations run from majiang.store.Store, not the alembic CLI")
    context.configure(connection=connection, version_table=VERSION_TABLE)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        context.run_migrations()


if context.is_offline_mode():
    raise RuntimeError("majiang's migrations run online only")
run_migrations_online()
