"""A bare FastAPI WebSocket echo-and-fan-out server: the ceiling bench_server.py measures
``majiang serve`` against.

``/ws/{table}``: the first four sockets of a table form it; every text message one of them
sends is sent, unchanged and unparsed, to all four (the sender included). No game logic, no
database, no per-connection queue; uvicorn runs with the settings ``majiang serve`` uses
(uvloop, httptools, websockets-sansio, per-message deflate off, 64 KiB frames).

    python bench/echo_server.py --port 8100
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence

from fastapi import FastAPI, WebSocket
from starlette.websockets import WebSocketDisconnect

SEATS = 4


def create_app() -> FastAPI:
    """The echo app: tables of four sockets, each message fanned out to the four."""
    app = FastAPI(title="echo fan-out (bench ceiling)")
    tables: dict[str, list[WebSocket]] = {}

    @app.get("/health")
    async def health() -> dict[str, int]:
        """Answers once the server is up; how many tables are open."""
        return {"tables": len(tables)}

    @app.websocket("/ws/{table}")
    async def ws(websocket: WebSocket, table: str) -> None:
        """Join ``table`` (at most four sockets) and fan out every message to it."""
        await websocket.accept()
        members = tables.setdefault(table, [])
        if len(members) >= SEATS:
            await websocket.close(4409, "table full")
            return
        members.append(websocket)
        try:
            while True:
                text = await websocket.receive_text()
                for member in list(members):
                    with contextlib.suppress(Exception):  # a peer gone: its own loop ends
                        await member.send_text(text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            members.remove(websocket)
            if not members:
                tables.pop(table, None)

    return app


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the echo app on loopback until stopped."""
    import uvicorn

    from majiang.cli.serve import UVICORN_OPTIONS  # the same server settings as majiang serve

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8100)
    args = parser.parse_args(argv)
    print(f"echo server: http://{args.host}:{args.port}/", flush=True)
    uvicorn.run(create_app(), host=args.host, port=args.port, **UVICORN_OPTIONS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
