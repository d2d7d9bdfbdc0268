"""``majiang serve``: the room server of PROTOCOL.md on uvicorn (extra ``web``)."""

from __future__ import annotations

import argparse
import os
import socket
import sys
from typing import Any

from majiang.errors import MajiangError

__all__ = ["add_parser", "main"]


def add_parser(sub: Any) -> None:
    """The ``serve`` subcommand's arguments."""
    p = sub.add_parser(
        "serve",
        help="run the room server (HTTP + WebSocket, PROTOCOL.md)",
        description="Run the room server: private rooms over HTTP and WebSocket "
        "(docs/protocol.md). The database is an SQLAlchemy URL: --db, else MAJIANG_DB, "
        "else SQLite at ~/.majiang/majiang.db.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--db", default=None, help="database URL, e.g. sqlite:///rooms.db or "
                   "postgresql+psycopg://user@host/db")  # fmt: skip
    p.add_argument(
        "--rooms-per-address",
        type=int,
        default=None,
        help="unfinished rooms one creator address may hold (default 20)",
    )


def _check_port(host: str, port: int) -> None:
    """A port already in use is a one-line error before anything starts."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            raise MajiangError(f"cannot listen on {host}:{port}: {err.strerror}") from None


def main(args: argparse.Namespace) -> int:
    """Open the store (a bad URL is a one-line error), print the URL, serve until stopped."""
    try:
        import uvicorn

        from majiang.server.app import Limits, create_app
        from majiang.store import Store
    except ImportError as err:
        need = "majiang serve needs the extra web: pip install 'majiang[web]'"
        raise MajiangError(f"{need} ({err})") from None
    _check_port(args.host, args.port)
    url = args.db or os.environ.get("MAJIANG_DB") or None
    store = Store(url)  # StoreError (a MajiangError): one line, exit 2
    limits = Limits()
    if args.rooms_per_address is not None:
        limits = Limits(rooms_per_address=args.rooms_per_address)
    app = create_app(store, limits=limits)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"majiang serve: http://{host}:{args.port}/  (database {store.url})", flush=True)
    try:
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            loop="uvloop" if sys.platform != "win32" else "auto",
            http="httptools",
            ws="websockets-sansio",
            ws_per_message_deflate=False,
            ws_max_size=1 << 16,
            log_level="warning",
        )
    finally:
        store.close()
    return 0
