"""The browser game's part of ``majiang serve``: its static files at ``/`` (no build step:
plain ES modules and one CSS file under ``static/``) and the HTTP calls it needs beyond
PROTOCOL.md's (docs/web.md): bots and their display names, 听牌提示 waits, explained
settlements and replays.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Protocol, TypeVar

from fastapi import Body, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse
from starlette.middleware.gzip import GZipMiddleware
from starlette.staticfiles import StaticFiles

from majiang.bots import BOTS, bot_label
from majiang.errors import MajiangError
from majiang.rules import VARIANTS
from majiang.server.explain import replay_frames, settlements, waits_hint
from majiang.server.models import (
    MAX_HANDS,
    BotName,
    Replay,
    ReservedRequest,
    Settlement,
    WaitsHint,
    WaitsRequest,
)
from majiang.server.room import Room
from majiang.store import Store
from majiang.values import JSON

T = TypeVar("T")


class _Handle(Protocol):
    @property
    def room(self) -> Room: ...

    @property
    def lock(self) -> asyncio.Lock: ...


class Rooms(Protocol):
    """What the web calls use of the server's hub (``majiang.server.app.Hub``): rooms by
    number and store reads off the event loop."""

    @property
    def store(self) -> Store: ...

    async def handle_of(self, number: str) -> _Handle: ...

    async def read(self, fn: Callable[..., T], *args: Any) -> T: ...


__all__ = ["STATIC", "WebError", "mount_web"]

STATIC = Path(__file__).with_name("static")
"""The browser client's files."""
GZIP_MIN = 2048
"""HTTP answers at least this long go gzip-compressed to clients that accept it: a replay's
frames repeat the whole table each step (~30-90 KB a hand as JSON, 1.5-3 KB gzipped)."""


class WebError(Exception):
    """An HTTP error answer of the web calls, `{"error": {"code", "message"}}`."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def mount_web(app: FastAPI, hub: Rooms) -> None:
    """Add the browser client's pages, static files and HTTP calls to the server's app."""
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MIN)

    @app.exception_handler(WebError)
    async def _web_error(request: Request, exc: WebError) -> JSONResponse:
        body = {"error": {"code": exc.code, "message": exc.message}}
        return JSONResponse(body, status_code=exc.status)

    index = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        """The lobby (``/?room=N`` opens a room: the share link)."""
        return FileResponse(index)

    @app.get("/replay", include_in_schema=False)
    async def replay_upload() -> FileResponse:
        """The replay viewer for an uploaded record file."""
        return FileResponse(index)

    @app.get("/replay/{room}", include_in_schema=False)
    async def replay_page(room: str) -> FileResponse:
        """The replay viewer of a stored match."""
        return FileResponse(index)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/api/bots", response_model=list[str])
    async def bots() -> list[str]:
        """The bot names a room's seat may be filled with."""
        return list(BOTS)

    @app.get("/api/bots/names", response_model=list[BotName])
    async def bot_display_names() -> list[BotName]:
        """Each bot a seat may be given, with its display names (Chinese, English): what
        the page shows for a bot seat instead of its id (东家·机器人(普通))."""
        return [BotName(id=b, zh=bot_label(b)[0], en=bot_label(b)[1]) for b in BOTS]

    @app.post("/api/waits", response_model=list[WaitsHint])
    async def waits(body: WaitsRequest) -> list[JSON]:
        """听牌提示: which discards leave these concealed tiles ready, and on what."""
        try:
            return waits_hint(body.variant, body.hand, body.melds, body.wild)
        except MajiangError as err:
            raise WebError(422, "invalid", str(err)) from None

    @app.post("/api/reserved", response_model=dict[str, int])
    async def reserved(body: ReservedRequest) -> dict[str, int]:
        """How many tiles a hand sets aside by purpose (horses, birds, a wild indicator)
        under these options and the hand's starting counters."""
        variant = VARIANTS.get(body.variant)
        if variant is None:
            raise WebError(422, "bad_variant", f"variant: unknown {body.variant!r}")
        try:
            options = variant.resolve_options(body.options)
        except MajiangError as err:
            raise WebError(422, "bad_option", f"options: {err}") from None
        counts = variant.rules.reserved_counts(options, body.counters)
        return {k: int(v) for k, v in counts.items()}

    async def record_of(room: str) -> dict[str, Any]:
        handle = await hub.handle_of(room)
        async with handle.lock:
            if handle.room.status == "finished":
                stored = await hub.read(hub.store.record, handle.room.id)
                if stored is not None:
                    return dict(stored)
            return dict(handle.room.record())

    @app.get(
        "/api/rooms/{room}/settlements",
        response_model=list[Settlement],
        response_model_by_alias=True,
    )
    async def room_settlements(room: str) -> list[JSON]:
        """Every finished hand of the room explained: tiles, patterns, horses or birds,
        each payment with its reason and arithmetic, deltas and running totals."""
        record = await record_of(room)
        if not record.get("hands"):
            return []  # before the first hand ends
        return await hub.read(settlements, record)

    @app.get("/api/rooms/{room}/replay", response_model=Replay, response_model_by_alias=True)
    async def room_replay(room: str) -> JSON:
        """The room's finished hands as frames to step through, with their settlements."""
        record = await record_of(room)
        if not record.get("hands"):  # before the first hand ends
            return {
                "variant": record["variant"],
                "options": record["options"],
                "players": record.get("players"),
                "hands": [],
                "totals": [0, 0, 0, 0],
            }
        return await hub.read(replay_frames, record)

    @app.post("/api/replay", response_model=Replay, response_model_by_alias=True)
    async def upload_replay(record: Annotated[dict[str, Any], Body()]) -> JSON:
        """A majiang-record/1 document (an uploaded file) as frames to step through."""
        hands = record.get("hands")
        if isinstance(hands, list) and len(hands) > MAX_HANDS:
            raise WebError(422, "invalid", f"hands: the viewer shows at most {MAX_HANDS} hands")
        try:
            return await hub.read(replay_frames, record)
        except MajiangError as err:
            raise WebError(422, "bad_record", f"record: {err}") from None
