"""Alembic migrations of the store's schema, run by ``Store.__init__`` (docs/store.md)."""
