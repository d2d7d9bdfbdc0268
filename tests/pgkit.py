"""A private PostgreSQL schema per test on the shared ``test`` database (docs/store.md).

The server on 127.0.0.1:5432 is shared by parallel sessions, so every schema name carries
this run's pid and a random part; a missing server FAILS the test (never a skip).
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from sqlalchemy.engine import make_url

POSTGRES_URL = os.environ.get(
    "MAJIANG_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
"""The database the PostgreSQL tests use; ``MAJIANG_TEST_POSTGRES`` overrides it."""
RUN = f"{os.getpid()}_{uuid.uuid4().hex[:8]}"
_counter = itertools.count()


def _libpq_url() -> str:
    return make_url(POSTGRES_URL).set(drivername="postgresql").render_as_string(False)


@contextmanager
def postgres_schema() -> Iterator[str]:
    """Yield an SQLAlchemy URL whose ``search_path`` is a fresh schema, dropped afterwards."""
    schema = f"mj_test_{RUN}_{next(_counter)}"
    try:
        admin = psycopg.connect(_libpq_url(), autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        pytest.fail(
            f"PostgreSQL is required by the store tests and is not reachable at "
            f"{make_url(POSTGRES_URL).render_as_string(True)} ({' '.join(str(exc).split())}); "
            "start it (trust auth, database `test`) or point MAJIANG_TEST_POSTGRES at one",
            pytrace=False,
        )
    with admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            url = make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={schema}"})
            yield url.render_as_string(hide_password=False)
        finally:
            _drop(admin, schema)


def _drop(admin: psycopg.Connection[tuple[object, ...]], schema: str) -> None:
    """Drop the schema, waiting 30 s at most for the sessions still holding its locks (a
    server not stopped, a transaction left open): then fail, naming them."""
    admin.execute("SET lock_timeout = '30s'")
    try:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
    except psycopg.errors.LockNotAvailable:
        holders = admin.execute(
            "SELECT pid, application_name, state, left(query, 120) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND state <> 'idle'"
        ).fetchall()
        pytest.fail(f"schema {schema} not dropped in 30 s: its locks are held by {holders}")
