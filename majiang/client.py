"""A Python client of majiang-protocol/1 (PROTOCOL.md; every field in docs/protocol.md).

It speaks the protocol only (HTTP with ``httpx``, the WebSocket with ``websockets``; extra
``web``) and imports no server code, so it works against any server that keeps the
contract. Create or join a room over HTTP, then connect a seat (or a spectator)::

    seat = await create_room("http://127.0.0.1:8000", "guangdong", hands=2,
                             bots={"1": "greedy", "2": "greedy", "3": "greedy"})
    async with Client("http://127.0.0.1:8000", seat.room, seat.token) as client:
        await client.ready()
        async for message in client:          # each one already applied to the client
            if client.settled:             # a decision, and nothing more queued
                await client.act(client.legal[-1])
        print(client.totals)

The client keeps the latest snapshot, its ``view`` (updated from every event as
docs/protocol.md says), ``legal`` (as ``majiang.values.Action`` values), ``deadline`` and
``seq``; on a gap in ``seq`` it asks for a snapshot. Refusals are ``ClientError`` values with
the server's code and message: raised by the HTTP calls, carried by ``error`` messages.
"""

from __future__ import annotations

import asyncio
import copy
import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Final, Self
from urllib.parse import quote, urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from majiang.errors import MajiangError
from majiang.observation import MeldView, Observation
from majiang.tiles import format_tiles, parse_tile, parse_tiles
from majiang.values import JSON, Action, ActionType, MeldKind, Phase
from majiang.verify import HandCheck, check_hand

__all__ = [
    "Client",
    "ClientError",
    "HandEnd",
    "MatchEnd",
    "Message",
    "Seat",
    "create_room",
    "fetch_record",
    "join_room",
    "observation_from_view",
    "room_state",
    "variants",
]

HTTP_TIMEOUT: Final = 10.0
"""Seconds an HTTP call or the WebSocket opening may take."""
_ROOM = re.compile(r"\d{6}")
_ROOM_EVENTS: Final = ("ready", "auto", "dissolve")


class ClientError(MajiangError):
    """A refusal or failure: ``code`` is the server's error code (``room_full``,
    ``illegal`` …) or one of the client's own (``bad_url``, ``unreachable``,
    ``bad_answer``, ``disconnected``, ``closed``, ``timeout``); ``message`` says what."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        """The HTTP status of a refused call, else None."""

    def __str__(self) -> str:
        return f"{self.message} ({self.code})"


# -- HTTP --------------------------------------------------------------------------------------
def _base(server: str) -> str:
    """``server`` as ``http(s)://host[:port]`` with no trailing slash; ClientError if not."""
    parts = urlsplit(server.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ClientError("bad_url", f"server must be an http:// or https:// URL, got {server!r}")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def _room(room: str) -> str:
    if not _ROOM.fullmatch(room):
        raise ClientError("bad_room", f"a room number has 6 digits, got {room!r}")
    return room


async def _call(
    method: str, server: str, path: str, body: JSON = None, token: str | None = None
) -> JSON:
    """One HTTP call; the JSON answer, or ClientError with the server's code and message."""
    url = _base(server) + path
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        async with httpx.AsyncClient(timeout=HTTP_TIMEOUT) as http:
            answer = await http.request(method, url, json=body, headers=headers)
    except httpx.TransportError as err:
        raise ClientError(
            "unreachable", f"cannot reach {url}: {err or type(err).__name__}"
        ) from None
    try:
        data: JSON = answer.json()
    except ValueError:
        raise ClientError(
            "bad_answer",
            f"{method} {url} answered {answer.status_code} without JSON",
            answer.status_code,
        ) from None
    if answer.is_success:
        return data
    error = data.get("error") if isinstance(data, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        raise ClientError(str(error["code"]), str(error.get("message", "")), answer.status_code)
    raise ClientError(
        "bad_answer", f"{method} {url} answered {answer.status_code}", answer.status_code
    )


def _object(value: JSON, what: str) -> dict[str, JSON]:
    if not isinstance(value, dict):
        raise ClientError("bad_answer", f"{what}: expected an object, got {str(value)[:80]}")
    return value


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat taken over HTTP: the room number, the seat and its secret token."""

    room: str
    seat: int
    token: str


def _seat(room: str, answer: JSON) -> Seat:
    data = _object(answer, "the seat answer")
    seat, token = data.get("seat"), data.get("token")
    if not isinstance(seat, int) or not isinstance(token, str):
        raise ClientError("bad_answer", f"a seat answer has seat and token, got {data}")
    return Seat(str(data.get("room", room)), seat, token)


async def create_room(
    server: str,
    variant: str,
    *,
    options: Mapping[str, JSON] | None = None,
    hands: int | None = None,
    name: str | None = None,
    bots: Mapping[str, str] | None = None,
    turn_seconds: int | None = None,
    bot_delay_ms: int | tuple[int, int] | None = None,
) -> Seat:
    """``POST /api/rooms``: a new room; the creator takes seat 0. Fields left None take the
    server's defaults (``bot_delay_ms``: the bot pace, ms or (min, max))."""
    body: dict[str, JSON] = {"variant": variant}
    if options is not None:
        body["options"] = dict(options)
    if bots is not None:
        body["bots"] = dict(bots)
    for key, value in (("hands", hands), ("name", name), ("turn_seconds", turn_seconds)):
        if value is not None:
            body[key] = value
    if bot_delay_ms is not None:
        pace = [bot_delay_ms] * 2 if isinstance(bot_delay_ms, int) else list(bot_delay_ms)
        body["bot_delay_ms"] = [int(v) for v in pace]
    return _seat("", await _call("POST", server, "/api/rooms", body))


async def join_room(server: str, room: str, name: str | None = None) -> Seat:
    """``POST /api/rooms/{room}/join``: the lowest free seat (``not_found``, ``room_full``,
    ``started`` otherwise)."""
    body: dict[str, JSON] = {} if name is None else {"name": name}
    return _seat(room, await _call("POST", server, f"/api/rooms/{_room(room)}/join", body))


async def room_state(server: str, room: str) -> dict[str, JSON]:
    """``GET /api/rooms/{room}``: the public room state."""
    return _object(await _call("GET", server, f"/api/rooms/{_room(room)}"), "the room state")


async def fetch_record(server: str, room: str) -> dict[str, JSON]:
    """``GET /api/rooms/{room}/record``: the majiang-record/1 of the finished hands."""
    answer = await _call("GET", server, f"/api/rooms/{_room(room)}/record")
    return _object(answer, "the record")


async def variants(server: str) -> list[JSON]:
    """``GET /api/variants``: every variant with its option declarations."""
    answer = await _call("GET", server, "/api/variants")
    if not isinstance(answer, list):
        raise ClientError("bad_answer", "GET /api/variants: expected a list")
    return answer


# -- typed results -----------------------------------------------------------------------------
def _ints(value: JSON) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
        raise ClientError("bad_message", f"expected a list of ints, got {str(value)[:80]}")
    return tuple(v for v in value if isinstance(v, int))


@dataclass(frozen=True, slots=True)
class HandEnd:
    """A finished hand, from its ``hand_end`` message, with the commitment its ``hand_start``
    carried when this client saw it (the fair-deal check, PROTOCOL.md 3.6)."""

    index: int
    """0-based hand index (``result.index``)."""
    result: Mapping[str, JSON]
    """The hand as majiang-result/1 writes it (outcome, winner, patterns, items …)."""
    deltas: tuple[int, ...]
    totals: tuple[int, ...]
    """Cumulative totals after this hand."""
    message: Mapping[str, JSON]
    """The ``hand_end`` message as received (revealed tiles, deal, salt …)."""
    start_commitment: str | None
    """The commitment of the hand's ``hand_start`` event, None if this client did not see it
    (it connected mid-hand)."""

    def to_json(self) -> dict[str, JSON]:
        """The message plus ``start_commitment``: what ``majiang verify`` reads."""
        out = dict(self.message)
        if self.start_commitment is not None:
            out["start_commitment"] = self.start_commitment
        return out

    def check(self) -> HandCheck:
        """Does the revealed deal and salt hash to the commitment the hand started with?"""
        return check_hand(self.to_json())


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """The match is over: final totals, why (``hands``, ``escape``, ``dissolved``), and the
    record's path on the server."""

    totals: tuple[int, ...]
    reason: str
    record: str


@dataclass(frozen=True, slots=True)
class Message:
    """One server message, after the client applied it."""

    type: str
    """``snapshot``, ``event``, ``hand_end``, ``match_end`` or ``error``."""
    seq: int
    data: Mapping[str, JSON]
    """The message as received."""
    event: Mapping[str, JSON] | None = None
    """An ``event`` message's event."""
    own: bool = False
    """An event repeating the last ``seq``: this seat's own decision in a window still open."""
    error: ClientError | None = None
    """An ``error`` message as a ClientError (code and message): nothing changed."""
    hand_end: HandEnd | None = None
    match_end: MatchEnd | None = None


# -- the view ----------------------------------------------------------------------------------
def _tiles(text: Any) -> tuple[int, ...]:
    return tuple(int(t) for t in parse_tiles(text)) if text else ()


def _tile(text: Any) -> int | None:
    return None if text is None else int(parse_tile(text))


def observation_from_view(view: Mapping[str, JSON], legal: Sequence[Action]) -> Observation:
    """The ``Observation`` a seat's ``view`` and ``legal`` stand for (docs/observation.md):
    what a bot of ``majiang.bots`` decides from. Only what the seat was sent goes in, so a bot
    sees nothing more than the seat may know. ClientError for a spectator's view."""
    v: Any = view
    me = v["seat"]
    if not isinstance(me, int):
        raise ClientError("spectator", "a spectator's view has no seat to decide for")
    seats = v["seats"]
    mine = seats[me]
    try:
        return Observation(
            variant=v["variant"],
            options=dict(v["options"]),
            seat=me,
            dealer=v["dealer"],
            counters=dict(v["counters"]),
            hand=tuple(sorted(_tiles(mine["hand"]))),
            drawn=_tile(mine["drawn"]),
            melds=tuple(
                tuple(
                    MeldView(MeldKind(m["kind"]), _tiles(m["tiles"]), m["source"], m["wilds"])
                    for m in s["melds"]
                )
                for s in seats
            ),
            discards=tuple(tuple(int(parse_tile(t)) for t in s["discards"]) for s in seats),
            hand_sizes=tuple(s["hand_size"] for s in seats),
            flowers=tuple(tuple(int(parse_tile(t)) for t in s["flowers"]) for s in seats),
            wild=_tile(v["wild"]),
            revealed={k: _tiles(t) for k, t in v["revealed"].items()},
            variant_state=dict(v["variant_state"]),
            live=v["live"],
            phase=Phase(v["phase"]),
            current=v["current"],
            window_tile=_tile(v["window_tile"]),
            window_from=v["window_from"],
            legal=tuple(legal),
        )
    except (KeyError, TypeError, ValueError, IndexError) as err:
        raise ClientError("bad_message", f"a view the client cannot read: {err!r}") from None


def _remove(hand: str, tiles: Sequence[int]) -> str:
    held = list(parse_tiles(hand))
    for t in tiles:
        held.remove(t)  # type: ignore[arg-type]
    return format_tiles(held)


def _apply_hand_event(view: Any, ev: Any) -> None:
    """Change ``view`` as a hand event says (docs/protocol.md, the events table)."""
    me = view["seat"]
    seat = view["seats"][ev["seat"]]
    own = ev["seat"] == me
    kind = ev["type"]
    if kind == "discard":
        seat["discards"].append(ev["tile"])
        seat["hand_size"] -= 1
        if own:
            seat["hand"] = _remove(seat["hand"], _tiles(ev["tile"]))
            seat["drawn"] = None
    elif kind == "draw":
        seat["hand_size"] += 1
        if own:
            seat["hand"] = format_tiles([*_tiles(seat["hand"]), *_tiles(ev["tile"])])
            seat["drawn"] = ev["tile"]
    elif kind == "flower":
        seat["flowers"].append(ev["tile"])
    elif kind in ("chi", "peng", "kong") and "from" in ev:
        taken = _tiles(view["seats"][ev["from"]]["discards"].pop())[0]
        seat["melds"].append(ev["meld"])
        n = 2 if kind in ("chi", "peng") else 3
        seat["hand_size"] -= n
        if own:
            used = _tiles(ev["tiles"]) if "tiles" in ev else (taken,) * n
            seat["hand"] = _remove(seat["hand"], used)
            seat["drawn"] = None
    elif kind == "kong":
        meld = ev["meld"]
        if meld["kind"] == MeldKind.KONG_ADDED:
            tile = _tiles(ev["tile"])[0]
            i = next(
                i
                for i, m in enumerate(seat["melds"])
                if m["kind"] == MeldKind.PENG and _tiles(m["tiles"])[0] == tile
            )
            seat["melds"][i] = meld
            seat["hand_size"] -= 1
            if own:
                seat["hand"] = _remove(
                    seat["hand"], _tiles(ev["tiles"]) if "tiles" in ev else (tile,)
                )
        else:
            seat["melds"].append(meld)
            seat["hand_size"] -= 4
            if own:
                used = _tiles(ev["tiles"]) if "tiles" in ev else _tiles(ev["tile"]) * 4
                seat["hand"] = _remove(seat["hand"], used)
        if own:
            seat["drawn"] = None


# -- the connection ----------------------------------------------------------------------------
@dataclass(slots=True)
class _Closed:
    code: int | None
    reason: str


@dataclass(slots=True)
class _Bucket:
    """Client-side pacing under the server's message rate limit (docs/protocol.md 4)."""

    rate: float
    burst: float
    tokens: float = 0.0
    at: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    async def take(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.rate)
            self.tokens, self.at = 1.0, time.monotonic()
        self.tokens -= 1


class Client:
    """One WebSocket connection to a room: a seat's (with its token) or a spectator's.

    Its attributes are the room as this connection knows it after the messages consumed so
    far (``recv``, ``async for``): ``seq``, ``room`` (the public state of the last snapshot,
    with ``status``, ``hand_index``, ``totals``, ``ready`` and ``auto`` kept up to date from
    events), ``seat``, ``view`` (None between hands), ``legal``, ``deadline`` (epoch ms),
    ``totals``, ``hands`` (every ``HandEnd`` seen), ``match_end``.
    """

    def __init__(
        self,
        server: str,
        room: str,
        token: str | None = None,
        *,
        rate: float = 15.0,
        burst: int = 30,
    ) -> None:
        """``rate`` and ``burst`` pace what this client sends, under the server's limit
        (20 a second, bursts of 40 on ``majiang serve``)."""
        base = _base(server)
        self.server = base
        self.url = "ws" + base[4:] + f"/ws/{_room(room)}"
        if token is not None:
            self.url += "?token=" + quote(token, safe="")
        self.number = room
        self.token = token
        self.seq = -1
        self.room: dict[str, JSON] = {}
        self.seat: int | None = None
        self.view: dict[str, JSON] | None = None
        self.legal: tuple[Action, ...] = ()
        self.deadline: int | None = None
        self.totals: tuple[int, ...] = (0, 0, 0, 0)
        self.hands: list[HandEnd] = []
        self.match_end: MatchEnd | None = None
        self.commitments: dict[int, str] = {}
        """Each hand's commitment as its ``hand_start`` event carried it, by hand index."""
        self.close_code: int | None = None
        """The WebSocket close code once the connection has closed."""
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._queue: asyncio.Queue[str | _Closed] = asyncio.Queue()
        self._closed: _Closed | None = None
        self._stale = False
        self._bucket = _Bucket(rate, burst)
        self._done = False
        self._last_snapshot = False
        self.acting: Action | None = None
        """The action sent and not yet answered: until the server's answer comes (its event,
        an error), ``legal`` stays empty and older messages' decisions are not taken up."""
        self._acting_in_turn = False
        self._snapshots_out = 0
        self._snapshots_in = 0
        self._barrier = 0

    # -- connection ---------------------------------------------------------------------------
    async def connect(self) -> Self:
        """Open the connection and take the first ``snapshot``; ClientError (the server's
        ``not_found``, ``bad_token`` …, or ``unreachable``) if it is refused."""
        self._queue = asyncio.Queue()
        self._closed = None
        self.close_code = None
        self.acting = None
        self._snapshots_out = self._snapshots_in = self._barrier = 0
        try:
            self._ws = await connect(
                self.url, max_size=2**22, compression=None, open_timeout=HTTP_TIMEOUT
            )
        except (OSError, TimeoutError) as err:
            raise ClientError("unreachable", f"cannot reach {self.server}: {err}") from None
        except InvalidURI as err:
            raise ClientError("bad_url", str(err)) from None
        except InvalidHandshake as err:
            raise ClientError("bad_answer", f"{self.url}: not a room WebSocket ({err})") from None
        self._reader = asyncio.create_task(self._read(self._ws))
        first = await self.recv(timeout=HTTP_TIMEOUT)
        if first.error is not None:
            await self.close()
            raise first.error
        if first.type != "snapshot":
            await self.close()
            raise ClientError("bad_answer", f"the first message is a {first.type}, not a snapshot")
        return self

    async def reconnect(self) -> Self:
        """Close this connection if open and open a new one (a new snapshot)."""
        await self.close()
        self._done = False
        return await self.connect()

    async def close(self) -> None:
        """Close the connection (messages not yet consumed are dropped)."""
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
        self._ws = None
        self._reader = None

    async def __aenter__(self) -> Self:
        return await self.connect()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for text in ws:
                self._queue.put_nowait(text if isinstance(text, str) else text.decode())
        except ConnectionClosed:
            pass
        finally:
            code = ws.close_code
            self._queue.put_nowait(_Closed(code, ws.close_reason or ""))

    @property
    def pending(self) -> int:
        """Messages received and not consumed yet: decide only when it is 0 (a message still
        queued may change ``legal``)."""
        return self._queue.qsize()

    # -- receiving ----------------------------------------------------------------------------
    async def recv(self, timeout: float | None = None) -> Message:
        """The next message, applied; ClientError ``disconnected`` (with ``close_code``) once
        the connection has closed, ``timeout`` after ``timeout`` seconds."""
        if self._closed is not None:
            raise self._closed_error()
        try:
            item = await asyncio.wait_for(self._queue.get(), timeout)
        except TimeoutError:
            raise ClientError("timeout", f"no message in {timeout:g} s") from None
        if isinstance(item, _Closed):
            self._closed = item
            self.close_code = item.code
            raise self._closed_error()
        try:
            data = json.loads(item)
        except ValueError:
            raise ClientError("bad_message", f"the server sent non-JSON: {item[:80]!r}") from None
        if not isinstance(data, dict) or not isinstance(data.get("seq"), int):
            raise ClientError("bad_message", f"a server message without seq: {item[:80]!r}")
        return await self._apply(data)

    def _closed_error(self) -> ClientError:
        assert self._closed is not None
        code, reason = self._closed.code, self._closed.reason
        why = f"code {code}" + (f": {reason}" if reason else "")
        return ClientError("disconnected", f"the connection to room {self.number} closed ({why})")

    def __aiter__(self) -> Self:
        return self

    async def __anext__(self) -> Message:
        """The next message until ``match_end`` (included) or a close this client made."""
        if self._done:
            raise StopAsyncIteration
        try:
            msg = await self.recv()
        except ClientError as err:
            if err.code == "disconnected" and self._ws is None:
                raise StopAsyncIteration from None
            raise
        if msg.type == "match_end":
            self._done = True
        return msg

    async def _apply(self, data: dict[str, JSON]) -> Message:
        """Fold one message into the client's state (docs/protocol.md, "A client keeps its
        View"); a gap in ``seq`` makes the view stale until the snapshot it asks for."""
        kind = str(data.get("type"))
        seq = data["seq"]
        assert isinstance(seq, int)
        self._last_snapshot = kind == "snapshot"
        if kind == "snapshot":
            # answers to our requests, counted (one sent unasked, on connect or to the lobby,
            # answers none)
            self._snapshots_in = min(self._snapshots_in + 1, self._snapshots_out)
            if self._snapshots_in > self._barrier:
                self.acting = None  # asked for after the action: it shows the action's effect
            if self.acting is None:
                return self._snapshot(data, seq)
            return Message(kind, seq, data)  # asked for before the action: already stale
        if kind == "error":
            self.acting = None
            err = ClientError(str(data.get("code")), str(data.get("message")))
            return Message(kind, seq, data, error=err)
        if kind not in ("event", "hand_end", "match_end"):
            return Message(kind, seq, data)  # a newer server's message: carried, not applied
        own = seq <= self.seq
        if seq > self.seq + 1 and not self._stale and self.seq >= 0:
            self._stale = True
            await self.snapshot()
        self.seq = max(self.seq, seq)
        if kind == "hand_end":
            self.acting = None
            return self._hand_end(data, seq)
        if kind == "match_end":
            self.acting = None
            return self._match_end(data, seq)
        d: Any = data
        ev: Any = d["event"]
        if not self._stale:
            self._event(ev, d.get("table"), own)
        if self.acting is not None and self._answers(ev, own):
            self.acting = None
        if self.acting is None:
            self.legal = () if self._stale else tuple(Action.from_json(a) for a in d["legal"])
            self.deadline = d.get("deadline")
        return Message(kind, seq, data, event=ev, own=own)

    def _answers(self, ev: Any, own: bool) -> bool:
        """Does this event show the server has handled ``acting``? Its own event (public,
        or the acknowledgement of a decision in an open window), or, for a window decision,
        any hand event: the window cannot move on without it (or it was refused)."""
        acting = self.acting
        assert acting is not None
        if ev.get("seat") == acting.seat and ev.get("type") == acting.type:
            return True
        return not own and not self._acting_in_turn and ev.get("type") not in _ROOM_EVENTS

    def _snapshot(self, data: dict[str, JSON], seq: int) -> Message:
        d: Any = data
        self.seq = seq
        self._stale = False
        self.room = copy.deepcopy(d["room"])
        self.seat = d["seat"]
        self.view = copy.deepcopy(d["view"])
        self.legal = tuple(Action.from_json(a) for a in d["legal"])
        self.deadline = d["deadline"]
        self.totals = _ints(d["room"]["totals"])
        return Message("snapshot", seq, data)

    def _event(self, ev: Any, table: Any, own: bool) -> None:
        room: Any = self.room
        kind = ev["type"]
        if kind == "hand_start":
            self.view = copy.deepcopy(ev["view"])
            self.commitments[ev["index"]] = ev["commitment"]
            room.update(status="playing", hand_index=ev["index"])
            for s in room.get("seats", []):
                s["ready"] = False
            return
        if kind in _ROOM_EVENTS and room.get("seats"):
            seat = room["seats"][ev["seat"]]
            if kind == "ready":
                seat["ready"] = True
            elif kind == "auto":
                seat["auto"] = ev["on"]
        if own or self.view is None or table is None:
            return  # an own decision in an open window; a room event between hands
        if kind not in _ROOM_EVENTS:
            _apply_hand_event(self.view, ev)
        self.view.update(table)

    def _hand_end(self, data: dict[str, JSON], seq: int) -> Message:
        d: Any = data
        result = d["result"]
        index = result["index"]
        self.totals = _ints(d["totals"])
        hand = HandEnd(
            index=index,
            result=result,
            deltas=_ints(result["deltas"]),
            totals=self.totals,
            message=data,
            start_commitment=self.commitments.get(index),
        )
        self.hands.append(hand)
        self.view = None
        self.legal = ()
        self.deadline = d.get("deadline")
        room: Any = self.room
        room.update(hand_index=index + 1, totals=list(self.totals))
        return Message("hand_end", seq, data, hand_end=hand)

    def _match_end(self, data: dict[str, JSON], seq: int) -> Message:
        d: Any = data
        self.totals = _ints(d["totals"])
        end = MatchEnd(self.totals, str(d["reason"]), str(d["record"]))
        self.match_end = end
        self.view = None
        self.legal = ()
        self.deadline = None
        room: Any = self.room
        room.update(
            status="dissolved" if end.reason == "dissolved" else "finished",
            totals=list(self.totals),
        )
        return Message("match_end", seq, data, match_end=end)

    # -- sending ------------------------------------------------------------------------------
    async def _send(self, message: dict[str, JSON]) -> None:
        if self._ws is None or self._closed is not None:
            raise ClientError("closed", f"the connection to room {self.number} is not open")
        await self._bucket.take()
        try:
            await self._ws.send(json.dumps(message))
        except ConnectionClosed:
            raise ClientError("closed", f"the connection to room {self.number} closed") from None

    async def act(self, action: Action | Mapping[str, JSON], *, check: bool = True) -> None:
        """Send one of ``legal`` (an ``Action``, or a FORMAT.md action object whose ``seat``
        may be left out). With ``check`` an action not in ``legal`` is refused here
        (ClientError ``illegal``) without being sent; an escape always goes. ``legal`` is
        empty until the server's answer comes (``acting``)."""
        if self.seat is None:
            raise ClientError("spectator", "a spectator cannot act")
        if not isinstance(action, Action):
            try:
                action = Action.from_json({"seat": self.seat, **action})
            except MajiangError as err:
                raise ClientError("bad_action", str(err)) from None
        if action.seat != self.seat:
            raise ClientError("wrong_seat", f"{action} is not seat {self.seat}'s action")
        if check and action.type != ActionType.ESCAPE and action not in self.legal:
            legal = ", ".join(str(a) for a in self.legal) or "none"
            raise ClientError("illegal", f"{action} is not a legal action now (legal: {legal})")
        view: Any = self.view
        self._acting_in_turn = view is not None and view["phase"] == Phase.TURN
        self._barrier = self._snapshots_out
        self.acting = action
        self.legal = ()
        try:
            await self._send({"type": "action", "action": action.to_json()})
        except ClientError:
            self.acting = None
            raise

    async def ready(self) -> None:
        """Ready for the next hand (the match starts when every seat is taken and ready)."""
        await self._send({"type": "ready"})

    async def auto(self, on: bool) -> None:
        """托管 on (the server's bot plays this seat) or off."""
        await self._send({"type": "auto", "on": on})

    async def dissolve(self, vote: bool = True) -> None:
        """Vote to dissolve the room (解散), or withdraw the vote."""
        await self._send({"type": "dissolve", "vote": vote})

    async def snapshot(self) -> None:
        """Ask for a ``snapshot`` (it comes as a message; the client applies it)."""
        await self._send({"type": "snapshot"})
        self._snapshots_out += 1

    # -- reading the state --------------------------------------------------------------------
    @property
    def settled(self) -> bool:
        """Is ``legal`` safe to decide on now? No message is waiting, and the view agrees
        with it: in this seat's turn its hand holds 3n+2 tiles, and every tile a legal
        discard or chi takes from the hand is in it. A server may send a step's decision
        with the step's first event (a kong) before the rest (its replacement draw); a
        snapshot is always settled."""
        if self.pending or self._stale or not self.legal or self.view is None:
            return False
        if self._last_snapshot:
            return True
        v: Any = self.view
        me = v["seats"][self.seat]
        if v["phase"] == Phase.TURN and v["current"] == self.seat and me["hand_size"] % 3 != 2:
            return False
        held = list(_tiles(me["hand"]))
        for a in self.legal:
            need: Sequence[int] = ()
            if a.type == ActionType.DISCARD and a.tile is not None:
                need = (a.tile,)
            elif a.type == ActionType.CHI:
                need = a.tiles
            if any(held.count(t) < need.count(t) for t in need):
                return False
        return True

    def observation(self) -> Observation | None:
        """This seat's ``Observation`` now (its view and legal actions), for a bot of
        ``majiang.bots``; None between hands, for a spectator, or while the view is stale."""
        if self.view is None or self.seat is None or self._stale:
            return None
        return observation_from_view(self.view, self.legal)
