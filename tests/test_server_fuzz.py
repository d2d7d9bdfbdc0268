"""`majiang serve` never answers a 5xx, nor drops a room, whatever it is sent (issue 16: no 5xx
against the OpenAPI document; hypothesis over the models' fields instead of schemathesis).

Bodies are drawn near the models (their own field names, any JSON values) and far from them
(any JSON at all); every 4xx must be the `{"error": {"code", "message"}}` shape."""

from __future__ import annotations

import asyncio
import json
import string
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_server import Server, serve_sqlite
from websockets.asyncio.client import connect

from majiang.server.models import CreateRoom, JoinRoom, SetBot

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
NEAR_VALUES = st.sampled_from(
    ["guangdong", "hangzhou", "greedy", "random", "1", "0", "", "x" * 40]
) | st.integers(-3, 100) | st.booleans() | JSON_VALUES  # fmt: skip
ROOM = st.text(alphabet="0123456789abc%/.", min_size=0, max_size=8)


def near(model: type[Any], extra: dict[str, st.SearchStrategy[Any]] | None = None) -> Any:
    """Dicts with some of the model's own field names and any values."""
    fields = {name: NEAR_VALUES for name in model.model_fields} | (extra or {})
    return st.fixed_dictionaries({}, optional=fields)


OPTIONS = st.dictionaries(
    st.sampled_from(["base_score", "horses", "wild_mode", "birds", "no_wild", "ghost"]),
    NEAR_VALUES,
    max_size=3,
)
BOTS = st.dictionaries(st.sampled_from(["0", "1", "2", "3", "4", "x"]), NEAR_VALUES, max_size=3)
BODIES = near(CreateRoom, {"options": OPTIONS, "bots": BOTS}) | JSON_VALUES

FUZZ = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve_sqlite(tmp_path_factory, "fuzz", rooms_per_address=100000)


@pytest.fixture(scope="module")
def http(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.http) as client:
        yield client


@pytest.fixture(scope="module")
def room(http: httpx.Client) -> tuple[str, str]:
    r = http.post("/api/rooms", json={"variant": "hainan", "name": "Owner"})
    assert r.status_code == 201
    return r.json()["room"], r.json()["token"]


def well_refused(r: httpx.Response) -> None:
    assert r.status_code < 500, r.text
    if r.status_code >= 400:
        body = r.json()
        assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body


@FUZZ
@given(body=BODIES)
def test_creating_rooms(http: httpx.Client, body: Any) -> None:
    r = http.post("/api/rooms", json=body)
    well_refused(r)
    if r.status_code == 201:
        assert isinstance(body, dict) and r.json()["seat"] == 0


@FUZZ
@given(body=near(JoinRoom) | JSON_VALUES, number=ROOM)
def test_joining(http: httpx.Client, room: tuple[str, str], body: Any, number: str) -> None:
    for target in (room[0], number):
        well_refused(http.post(f"/api/rooms/{target}/join", json=body))


@FUZZ
@given(
    body=near(SetBot) | JSON_VALUES,
    seat=st.integers(-2, 5) | st.text(alphabet=string.printable.strip(), max_size=3),
    auth=st.none() | st.text(alphabet=string.ascii_letters + string.digits + "-_", max_size=50),
    method=st.sampled_from(["PUT", "DELETE"]),
)
def test_seating_bots(
    http: httpx.Client, room: tuple[str, str], body: Any, seat: Any, auth: str | None, method: str
) -> None:
    number, owner = room
    for token in (auth, owner):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = http.request(method, f"/api/rooms/{number}/seats/{seat}", json=body, headers=headers)
        well_refused(r)


@FUZZ
@given(number=ROOM, limit=st.integers(-5, 500) | st.text(max_size=4))
def test_reading(http: httpx.Client, room: tuple[str, str], number: str, limit: Any) -> None:
    for path in (f"/api/rooms/{number}", f"/api/rooms/{number}/record", f"/api/rooms/{room[0]}"):
        well_refused(http.get(path))
    well_refused(http.get("/api/matches", params={"limit": limit}))


def test_the_openapi_document_lists_every_route(http: httpx.Client) -> None:
    schema = http.get("/openapi.json").json()
    paths = schema["paths"]
    assert set(paths) == {
        "/api/variants",
        "/api/rooms",
        "/api/rooms/{room}/join",
        "/api/rooms/{room}/seats/{seat}",
        "/api/rooms/{room}",
        "/api/rooms/{room}/record",
        "/api/matches",
        # the browser game's calls (docs/web.md)
        "/api/bots",
        "/api/bots/names",
        "/api/waits",
        "/api/reserved",
        "/api/rooms/{room}/settlements",
        "/api/rooms/{room}/replay",
        "/api/replay",
    }
    for path, ops in paths.items():
        for op in ops.values():
            assert "422" in op["responses"] or path == "/api/variants", (path, op)


CLIENT_MESSAGES = (
    st.fixed_dictionaries(
        {"type": st.sampled_from(["ready", "action", "auto", "snapshot", "x", 7])},
        optional={
            "action": JSON_VALUES
            | st.fixed_dictionaries(
                {"type": st.sampled_from(["discard", "peng", "chi", "kong", "hu", "pass"])},
                optional={"tile": NEAR_VALUES, "tiles": NEAR_VALUES, "seat": NEAR_VALUES},
            ),
            "on": NEAR_VALUES,
        },
    )
    | JSON_VALUES
)


@settings(max_examples=1, deadline=None)
@given(messages=st.lists(CLIENT_MESSAGES, min_size=36, max_size=36))
def test_websocket_junk_gets_errors_and_the_room_lives_on(
    server: Server, messages: list[Any]
) -> None:
    """Junk from a seat and from a spectator: each message answered (an error, or a snapshot
    for a snapshot request), no connection dropped, the room still served."""

    async def main() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            r = await http.post(
                "/api/rooms", json={"variant": "hongzhong", "bots": {"1": "greedy"}}
            )
            number, token = r.json()["room"], r.json()["token"]
            for url in (f"{server.ws}/ws/{number}?token={token}", f"{server.ws}/ws/{number}"):
                async with connect(url) as ws:
                    json.loads(await ws.recv())  # the snapshot
                    for m in messages:  # within the burst the rate limit allows
                        await ws.send(json.dumps(m))
                    await ws.send(json.dumps({"type": "snapshot"}))
                    replies = []
                    while not replies or replies[-1]["type"] != "snapshot":
                        replies.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
                    assert all(r["type"] in ("error", "snapshot", "event") for r in replies)
                    assert len(replies) >= len(messages) + 1
            state = (await http.get(f"/api/rooms/{number}")).json()
            assert state["room"] == number

    asyncio.run(main())
