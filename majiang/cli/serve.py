"""``majiang serve``: the room server of PROTOCOL.md on uvicorn (extra ``web``)."""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import re
import socket
import sys
import threading
import webbrowser
from typing import TYPE_CHECKING, Any

from majiang.errors import MajiangError

if TYPE_CHECKING:
    from majiang.server.app import BusConfig

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
        "--open",
        action="store_true",
        help="open the browser game in a browser, where a display exists (make run)",
    )
    p.add_argument(
        "--bus",
        default=None,
        metavar="URL",
        help="run as one of several processes behind a load balancer: a Redis URL "
        "(redis://127.0.0.1:6379/0) carrying messages between them; needs a PostgreSQL --db "
        "(docs/scaling.md). Without it, one process as before",
    )
    p.add_argument(
        "--bus-prefix",
        default="majiang",
        help="prefix of the bus channels, so clusters can share one Redis (default majiang)",
    )
    p.add_argument(
        "--lease-seconds",
        type=float,
        default=10.0,
        help="with --bus: how long after a process dies its rooms are taken over (default 10)",
    )
    p.add_argument(
        "--rooms-per-address",
        type=int,
        default=None,
        help="unfinished rooms one creator address may hold (default 20)",
    )
    p.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes that make the search bot's decisions (困难, and 托管 when the turn "
        "timer allows), off the event loop so a thinking bot holds up no other room "
        "(default: one per core but one, at least 1; 0: on the event loop)",
    )
    p.add_argument(
        "--bot-delay-ms",
        default=None,
        metavar="MIN[,MAX]",
        help="bot pace of rooms created without one: each bot and 托管 decision waits a "
        "random time from MIN to MAX ms, like a person (default 800,1500; 0: at once, for "
        "tests); a room may set its own (bot_delay_ms, docs/protocol.md)",
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


def has_display() -> bool:
    """A graphical browser can be shown: macOS and Windows, or X11/Wayland elsewhere (so a
    terminal browser never takes over the console of a headless machine)."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_browser(url: str) -> None:
    """Open ``url`` in a browser shortly after the server starts, if a display exists; a
    browser that cannot be started changes nothing (the address is printed anyway)."""
    if not has_display():
        return

    def go() -> None:
        with contextlib.suppress(Exception):  # no usable browser: the address is printed
            webbrowser.open(url)

    timer = threading.Timer(1.0, go)
    timer.daemon = True
    timer.start()


UVICORN_OPTIONS: dict[str, Any] = {
    "loop": "uvloop" if sys.platform != "win32" else "auto",
    "http": "httptools",
    "ws": "websockets-sansio",
    "ws_per_message_deflate": False,
    "ws_max_size": 1 << 16,
    "log_level": "warning",
}
"""How ``majiang serve`` runs uvicorn (per-message deflate off: it did not pay on loopback,
bench/RESULTS.md); bench/echo_server.py runs the ceiling it is measured against the same way."""

GC_THRESHOLD = (50_000, 20, 100)
"""The server process's collector thresholds (CPython's defaults are 700, 10, 10). With a
thousand rooms in memory the default collections came every few milliseconds and the
older generations' took 50-130 ms each, holding the event loop: p99 latency of 270-980 ms
at 750-1,000 tables against 6-13 ms with these (bench/RESULTS.md, docs/scaling.md)."""


def tune_gc() -> None:
    """Freeze what start-up made (modules, the app: never garbage) out of every future
    collection and collect young objects in larger, rarer batches (``GC_THRESHOLD``)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLD)


def main(args: argparse.Namespace) -> int:
    """Open the store (a bad URL is a one-line error), print the URL, serve until stopped."""
    try:
        import uvicorn

        from majiang.server.app import Limits, create_app
        from majiang.server.thinking import BotPool
        from majiang.store import Store
    except ImportError as err:
        need = "majiang serve needs the extra web: pip install 'majiang[web]'"
        raise MajiangError(f"{need} ({err})") from None
    _check_port(args.host, args.port)
    url = args.db or os.environ.get("MAJIANG_DB") or None
    bus = _bus_config(args, url)
    workers = getattr(args, "bot_workers", None)
    if workers is not None and workers < 0:
        raise MajiangError(f"--bot-workers: at least 0, got {workers}")
    pace = _bot_delay(getattr(args, "bot_delay_ms", None))
    store = Store(url)  # StoreError (a MajiangError): one line, exit 2
    limits = Limits()
    if args.rooms_per_address is not None:
        limits = Limits(rooms_per_address=args.rooms_per_address)
    app = create_app(store, limits=limits, bus=bus, bots=BotPool(workers), bot_delay_ms=pace)
    tune_gc()
    host = f"[{args.host}]" if ":" in args.host else args.host
    where = f"database {store.url}" + (f", bus {_redact(bus.url)}" if bus else "")
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else host
    # the first line is read by tools and tests (the address and the store); the last one
    # is for the person who typed `make run`: where to point a browser
    print(f"majiang serve: http://{host}:{args.port}/  ({where})", flush=True)
    print(f"请在浏览器打开 http://{shown}:{args.port}/  (open it in a browser)", flush=True)
    if getattr(args, "open", False):
        open_browser(f"http://{shown}:{args.port}/")
    try:
        uvicorn.run(
            app,
            host=args.host,
            port=args.port,
            **UVICORN_OPTIONS,
        )
    finally:
        store.close()
    return 0


def _bot_delay(text: str | None) -> tuple[int, int]:
    """``--bot-delay-ms MIN[,MAX]`` as (min, max) ms; MajiangError naming what is wrong."""
    from majiang.server.models import DEFAULT_BOT_DELAY, bot_delay

    if text is None:
        return DEFAULT_BOT_DELAY
    parts = [p.strip() for p in text.split(",")]
    if len(parts) > 2 or not all(p.isdigit() for p in parts):
        raise MajiangError(f"--bot-delay-ms: MIN or MIN,MAX in whole ms, got {text!r}")
    values = [int(p) for p in parts]
    try:
        return bot_delay(values[0] if len(values) == 1 else values)
    except ValueError as err:
        raise MajiangError(f"--bot-delay-ms: {err}") from None


def _redact(url: str) -> str:
    """``url`` with a password replaced by ``***``."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def _bus_config(args: argparse.Namespace, db: str | None) -> BusConfig | None:
    """``--bus`` checked before anything starts: a Redis URL that answers, a PostgreSQL
    database (several processes cannot share SQLite over a network), a positive lease."""
    if args.bus is None:
        return None
    from majiang.server.app import BusConfig
    from majiang.server.cluster import check_bus_url

    url = check_bus_url(args.bus)
    if db is None or not db.startswith("postgresql"):
        raise MajiangError(
            "--bus needs a PostgreSQL --db (postgresql+psycopg://user@host/db): the "
            f"processes share it; got {db or 'the default SQLite file'}"
        )
    if not args.lease_seconds > 0:
        raise MajiangError(f"--lease-seconds: must be positive, got {args.lease_seconds:g}")
    if not args.bus_prefix or any(c in args.bus_prefix for c in " \n"):
        raise MajiangError(f"--bus-prefix: {args.bus_prefix!r} must be a word without spaces")
    try:
        import redis
    except ImportError as err:
        need = "--bus needs the extra scale: pip install 'majiang[scale]'"
        raise MajiangError(f"{need} ({err})") from None
    try:
        redis.Redis.from_url(url, socket_connect_timeout=5).ping()
    except Exception as exc:
        raise MajiangError(f"cannot reach the bus {_redact(url)}: {exc}") from None
    address = f"{args.host}:{args.port}"
    return BusConfig(url, args.bus_prefix, args.lease_seconds, address)
