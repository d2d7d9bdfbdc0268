"""Bot decisions off the event loop (issue 19): a room hands its slow bots' decisions out
(``Room.offload``, ``Outcome.ask``) and takes an answer only while it is still where it
asked; the server makes them in worker processes (``majiang.server.thinking``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from gatekit import GateBot
from websockets.asyncio.client import ClientConnection, connect

from majiang.bots import BOTS, GreedyBot
from majiang.bots.search import SearchBot
from majiang.records import replay
from majiang.rules import VARIANTS
from majiang.server.app import Hub, create_app
from majiang.server.models import client_message
from majiang.server.room import BotAsk, Outcome, Room
from majiang.server.thinking import BotPool, decide_here
from majiang.store import RoomRow, SeatRow, Store
from majiang.values import Action, ActionType


class Clock:
    """A settable epoch-ms clock."""

    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


def new_room(
    variant: str,
    seed: int,
    bots: dict[int, str],
    offload: frozenset[str] = frozenset(),
    turn_seconds: int = 0,
    clock: Clock | None = None,
    hands: int = 1,
) -> Room:
    """A room with a human at every seat ``bots`` leaves free."""
    row = RoomRow(
        7, "123456", variant, {}, hands, turn_seconds, seed, "waiting", "x", datetime.now(), None
    )
    seats = [SeatRow(s, f"P{s}", bots.get(s), None if s in bots else f"h{s}") for s in range(4)]
    return Room(row, seats, clock or Clock(), offload)


def send(room: Room, seat: int, data: dict[str, Any]) -> Outcome:
    return room.handle(seat, client_message.validate_python(data))


def act(room: Room, seat: int, action: Action) -> Outcome:
    body = action.to_json()
    del body["seat"]
    return send(room, seat, {"type": "action", "action": body})


def answered(room: Room, out: Outcome, log: list[tuple[int, str, Any]]) -> None:
    """Answer every ask as the server would (a copy of the bot decides, the copy comes
    back), keeping the log, until the room asks for nothing."""
    log += out.log
    ask = out.ask
    while ask is not None:
        again = room.answer(ask, *decide_here(ask))
        assert again is not None  # nothing moved the room meanwhile
        log += again.log
        ask = again.ask


def actions(log: list[tuple[int, str, Any]]) -> list[Any]:
    return [json.loads(json.dumps(d))["action"] for _, kind, d in log if kind == "action"]


def deterministic_search(monkeypatch: pytest.MonkeyPatch, samples: int = 6) -> None:
    """``search`` ended by its sample budget, never its clock: the same choices for a seed
    however loaded the machine is (docs/bots.md)."""
    monkeypatch.setitem(BOTS, "search", lambda rng: SearchBot(rng, samples=samples, budget=None))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_offloaded_greedy_bots_play_the_same_match_as_inline(variant: str) -> None:
    """Greedy, random and greedy+ bots and a human on 托管 (greedy+ at a 3 s timer), every
    bot decision handed out and answered: the same actions in the same log order, the same
    record, as the room deciding them itself, for every variant and several seeds (the
    bots' rngs move on as inline)."""
    for seed in range(3):
        bots = {1: "greedy", 2: "random", 3: "greedy+"}
        inline = new_room(variant, seed, bots, turn_seconds=3, hands=2)
        inline_log = list(send(inline, 0, {"type": "auto", "on": True}).log)
        assert inline.status == "finished"
        offload = frozenset({"greedy", "random", "greedy+"})
        room = new_room(variant, seed, bots, offload, turn_seconds=3, hands=2)
        log: list[tuple[int, str, Any]] = []
        first = send(room, 0, {"type": "auto", "on": True})
        assert first.ask is not None and room.status == "playing"
        answered(room, first, log)
        assert room.status == "finished"
        assert actions(log) == actions(inline_log)
        assert [(q, k) for q, k, _ in log] == [(q, k) for q, k, _ in inline_log]
        assert room.record() == inline.record()
        assert replay(room.record())["totals"] == room.totals()  # type: ignore[arg-type]


def test_a_room_of_search_bots_records_what_inline_search_records(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four search bots (three seated, the human's 托管 at no turn timer) play a hand with
    every decision made by a copy of the bot off the room: the record is the inline one."""
    deterministic_search(monkeypatch)
    bots = {1: "search", 2: "search", 3: "search"}
    inline = new_room("guangdong", 11, bots)
    send(inline, 0, {"type": "auto", "on": True})
    room = new_room("guangdong", 11, bots, frozenset({"search"}))
    log: list[tuple[int, str, Any]] = []
    answered(room, send(room, 0, {"type": "auto", "on": True}), log)
    assert room.status == inline.status == "finished"
    assert room.record() == inline.record()


def test_an_answer_to_a_room_that_moved_is_dropped() -> None:
    """A human's 托管 switched on while a bot's decision is out: that answer changes
    nothing (no entry, the bot's rng as it was), the room asked afresh, and the fresh
    answer plays the same action once; an answer given twice is taken once."""
    room = new_room("hangzhou", 5, {1: "greedy", 2: "greedy", 3: "greedy"}, frozenset({"greedy"}))
    out = send(room, 0, {"type": "ready"})
    log = list(out.log)
    while out.ask is None:  # the human plays until a bot is asked
        pending = room._pending[0]
        out = act(room, 0, pending.legal[-1])
        log += out.log
    old = out.ask
    before = (room.log_seq, room.seq)
    rng_state = old.bot.rng.getstate()  # type: ignore[attr-defined]
    moved = send(room, 0, {"type": "auto", "on": True})
    log += moved.log
    assert [k for _, k, _ in moved.log] == ["auto"]  # the human's entry, no bot action
    fresh = moved.ask
    assert fresh is not None and fresh is not old and fresh.seat == old.seat
    action, bot = decide_here(old)
    assert room.answer(old, action, bot) is None
    assert room.log_seq == before[0] + 1 and room.seq == before[1] + 1
    assert room._bots[(old.seat, old.name)].rng.getstate() == rng_state  # type: ignore[attr-defined]
    again = room.answer(fresh, *decide_here(fresh))
    assert again is not None
    assert again.log[0][2]["action"] == action.to_json()  # the same choice, made once
    assert room.answer(fresh, action, bot) is None  # a repeat is stale too
    log += again.log
    answered(room, again, [])
    seqs = [q for q, _, _ in log]
    assert seqs == list(range(len(seqs)))


def test_a_dissolve_while_a_bot_thinks_drops_its_decision() -> None:
    """The only human dissolves the room while a bot's decision is out: the match ends
    dissolved and the late answer stores nothing."""
    room = new_room("guangdong", 2, {1: "search", 2: "greedy", 3: "search"}, frozenset({"search"}))
    out = send(room, 0, {"type": "ready"})
    while out.ask is None:
        out = act(room, 0, room._pending[0].legal[-1])
    ask = out.ask
    ended = send(room, 0, {"type": "dissolve", "vote": True})
    assert [k for _, k, _ in ended.log] == ["dissolve", "match_end"]
    assert room.status == "dissolved" and ended.ask is None
    seq = room.log_seq
    assert room.answer(ask, *decide_here(ask)) is None
    assert room.log_seq == seq


def window_with_both(timer: int, clock: Clock) -> tuple[Room, BotAsk]:
    """A room where a bot's decision is out while the human (greedy, for realism) may
    decide too: a claim window both may claim in (hangzhou asks its claimants at once;
    guangdong one after another). Found by playing seeds."""
    for seed in range(200):
        bots = {1: "greedy", 2: "greedy", 3: "greedy"}
        room = new_room("hangzhou", seed, bots, frozenset({"greedy"}), timer, clock)
        me = GreedyBot(random.Random(seed))
        out = send(room, 0, {"type": "ready"})
        while room.status == "playing" and room.state is not None:
            if out.ask is not None and 0 in room._pending and room._pending[0].legal:
                return room, out.ask
            if out.ask is not None:
                out = room.answer(out.ask, *decide_here(out.ask)) or Outcome()
            elif 0 in room._pending and room._pending[0].legal:
                obs = room._observe(0)
                out = act(room, 0, me.act(obs, room._pending[0].legal))
            else:
                break
    raise AssertionError("no seed reaches a window where a bot and the human both decide")


def test_a_human_deciding_in_the_window_a_bot_thinks_in_drops_the_stale_answer() -> None:
    """The human passes while a bot's claim decision is out: the answer is dropped; the
    room asks again if the bot still decides, and plays on to a record that replays."""
    room, ask = window_with_both(0, Clock())
    passes = [a for a in room._pending[0].legal if a.type == ActionType.PASS]
    out = act(room, 0, passes[0] if passes else room._pending[0].legal[-1])
    assert out.log[0][1] == "action" and out.log[0][2]["action"]["seat"] == 0
    seq = room.log_seq
    assert room.answer(ask, *decide_here(ask)) is None
    assert room.log_seq == seq
    assert out.ask is not ask
    me = GreedyBot(random.Random(0))
    while room.status == "playing":  # on to the end: the human by greedy, asks answered
        if out.ask is not None:
            again = room.answer(out.ask, *decide_here(out.ask))
            assert again is not None
            out = again
        else:
            assert room._pending[0].legal, "the room waits for nobody"
            out = act(room, 0, me.act(room._observe(0), room._pending[0].legal))
    assert room.status == "finished"
    assert replay(room.record())["totals"] == room.totals()  # type: ignore[arg-type]


def test_a_timeout_while_a_bot_thinks_drops_the_stale_answer() -> None:
    """The human's turn timer runs out while a bot's decision is out: the default and the
    auto entry are stored, and the bot's late answer is not."""
    clock = Clock()
    room, ask = window_with_both(30, clock)
    deadline = room._pending[0].deadline
    assert deadline is not None
    clock.now = deadline
    timed = room.on_timer()
    assert [k for _, k, _ in timed.log][:2] == ["action", "auto"]
    seq = room.log_seq
    assert room.answer(ask, *decide_here(ask)) is None
    assert room.log_seq == seq


# -- the server: decisions in worker processes -----------------------------------------------
@contextlib.asynccontextmanager
async def serving(
    tmp: Path, pool: BotPool, bot_delay_ms: tuple[int, int] = (0, 0)
) -> AsyncIterator[tuple[httpx.AsyncClient, str, Store, Hub]]:
    """The app on uvicorn in this event loop (a decision made on it would stall the test's
    own requests), SQLite under ``tmp``, rooms at ``bot_delay_ms`` unless they say: an HTTP
    client, the WebSocket base URL, the store, the hub."""
    import uvicorn

    store = Store(f"sqlite:///{tmp / 'rooms.db'}")
    port = free_port()
    app = create_app(store, bots=pool, bot_delay_ms=bot_delay_ms)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            assert not task.done(), "uvicorn did not start"
            await asyncio.sleep(0.01)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            yield http, f"ws://127.0.0.1:{port}", store, app.state.hub
    finally:
        server.should_exit = True
        await task
        store.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def messages(ws: ClientConnection, until: str) -> list[dict[str, Any]]:
    """What arrives up to and with the first message of type ``until``."""
    got: list[dict[str, Any]] = []
    while not got or got[-1]["type"] != until:
        got.append(json.loads(await asyncio.wait_for(ws.recv(), 60)))
    return got


async def auto_table(
    http: httpx.AsyncClient, ws_url: str, bot: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A one-hand hainan room of three ``bot`` seats and its creator on 托管, played to
    its end: the stored record, and what the creator received after turning 托管 on."""
    bots = {"1": bot, "2": bot, "3": bot}
    body = {"variant": "hainan", "hands": 1, "turn_seconds": 0, "bots": bots}
    created = (await http.post("/api/rooms", json=body)).json()
    url = f"{ws_url}/ws/{created['room']}?token={created['token']}"
    async with connect(url) as ws:
        await messages(ws, "snapshot")
        await ws.send(json.dumps({"type": "auto", "on": True}))
        got = await messages(ws, "match_end")
    record: dict[str, Any] = (await http.get(f"/api/rooms/{created['room']}/record")).json()
    return record, got


def test_the_server_plays_a_search_table_in_workers_to_the_inline_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room of three search bots and the creator on 托管, every search decision made in
    a worker process: the stored record is the one the room makes deciding inline."""
    deterministic_search(monkeypatch)

    async def main() -> dict[str, Any]:
        async with serving(tmp_path, BotPool(2)) as (http, ws_url, _, _):
            record, _ = await auto_table(http, ws_url, "search")
            return record

    record = asyncio.run(main())
    inline = new_room("hainan", record["seed"], {1: "search", 2: "search", 3: "search"})
    send(inline, 0, {"type": "auto", "on": True})
    assert inline.status == "finished"
    expected = inline.record()
    expected["players"] = record["players"]  # the server names its seats
    assert record == expected


def test_while_a_bot_thinks_other_rooms_are_served_and_a_dissolve_drops_its_decision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot of room A is held thinking in its worker: meanwhile another room is created,
    read and connected to and A's own state is read, all answered while A's decision is
    still out (nothing of it delivered); once let go, its discard reaches A's human. The
    next held decision is overtaken by the human's dissolve: the match ends dissolved and
    the late decision stores nothing."""
    monkeypatch.setitem(BOTS, "gate", lambda rng: GateBot(rng, tmp_path))

    def asked() -> int:
        return len(list(tmp_path.glob("asked-*")))

    async def play_until_asked(ws: ClientConnection, n: int) -> None:
        """The human plays (its last legal action) until gate decision ``n`` is asked."""
        deadline = time.monotonic() + 60
        while asked() <= n:
            assert time.monotonic() < deadline, f"gate decision {n} never asked"
            with contextlib.suppress(TimeoutError):
                m = json.loads(await asyncio.wait_for(ws.recv(), 0.05))
                if m["type"] in ("event", "snapshot") and m["legal"]:
                    await ws.send(json.dumps({"type": "action", "action": m["legal"][-1]}))

    async def snapshot(ws: ClientConnection) -> dict[str, Any]:
        await ws.send(json.dumps({"type": "snapshot"}))
        return (await messages(ws, "snapshot"))[-1]

    async def main() -> None:
        pool = BotPool(1, bots={"gate"})
        async with serving(tmp_path, pool) as (http, ws_url, store, hub):
            bots = {"1": "gate", "2": "gate", "3": "gate"}
            body = {"variant": "guangdong", "hands": 1, "turn_seconds": 0, "bots": bots}
            a = (await http.post("/api/rooms", json=body)).json()
            async with connect(f"{ws_url}/ws/{a['room']}?token={a['token']}") as ws:
                await messages(ws, "snapshot")
                await ws.send(json.dumps({"type": "ready"}))
                await play_until_asked(ws, 0)
                held = await snapshot(ws)  # after every message room A sent so far
                assert held["legal"] == []  # it waits for the bot alone
                # room A's bot is thinking: the loop serves everything else meanwhile
                b = await http.post("/api/rooms", json={"variant": "hangzhou"})
                assert b.status_code == 201
                number = b.json()["room"]
                assert (await http.get(f"/api/rooms/{number}")).json()["status"] == "waiting"
                async with connect(f"{ws_url}/ws/{number}") as spectator:
                    snap = json.loads(await asyncio.wait_for(spectator.recv(), 10))
                    assert snap["type"] == "snapshot" and snap["room"]["room"] == number
                assert (await http.get(f"/api/rooms/{a['room']}")).json()["status"] == "playing"
                assert (await snapshot(ws))["seq"] == held["seq"]  # A has not moved
                assert not (tmp_path / "done-0").exists()
                thinking = int((tmp_path / "asked-0").read_text())
                row = store.room(a["room"])
                assert row is not None
                stored = len(store.events(row.id))
                (tmp_path / "open-0").write_text("")
                deadline = time.monotonic() + 60
                while len(store.events(row.id)) == stored:  # a pass in a window is told to
                    assert time.monotonic() < deadline  # its seat alone: read the log
                    await asyncio.sleep(0.01)
                entry = store.events(row.id)[stored]
                assert entry.kind == "action" and entry.data["action"]["seat"] == thinking
                # the next bot decision is held, and the human dissolves the room under it
                await play_until_asked(ws, 1)
                await ws.send(json.dumps({"type": "dissolve", "vote": True}))
                ended = (await messages(ws, "match_end"))[-1]
                assert ended["reason"] == "dissolved"
                (tmp_path / "open-1").write_text("")
                deadline = time.monotonic() + 60
                while not (tmp_path / "done-1").exists() or hub.thinking:
                    assert time.monotonic() < deadline, f"still running: {hub.thinking}"
                    await asyncio.sleep(0.01)  # the late decision came back and was dropped
            assert asked() == 2  # nobody was asked again: the room is closed
            row = store.room(a["room"])
            assert row is not None and row.status == "dissolved"
            kinds = [e.kind for e in store.events(row.id)]
            assert kinds[-2:] == ["dissolve", "match_end"], kinds
            bots_played = [
                e for e in store.events(row.id) if e.kind == "action" and e.data["action"]["seat"]
            ]
            assert len(bots_played) == 1  # decision 0 stored once, decision 1 dropped

    asyncio.run(main())


def test_a_bot_decision_whose_write_is_refused_is_asked_again_after_the_rebuild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store refuses one append of an offloaded bot's decision: the room is rebuilt
    from what is stored, and its due bot is asked again (``Hub.resume_soon``), so the match
    goes on to its end and its record replays; without that, nothing would ask the
    rebuilt room's bot and the table would wait for ever."""
    monkeypatch.setitem(BOTS, "search", GreedyBot)  # the 托管 seat's bot, quick and offloaded

    async def main() -> tuple[dict[str, Any], int]:
        pool = BotPool(1, threads=True, bots={"greedy", "search"})
        async with serving(tmp_path, pool) as (http, ws_url, store, _):
            real = store.append_many
            calls = {"n": 0, "refused": 0}

            def append_many(*args: Any, **kwargs: Any) -> Any:
                calls["n"] += 1
                if calls["n"] == 6:
                    calls["refused"] += 1
                    raise RuntimeError("disk full (a test)")
                return real(*args, **kwargs)

            monkeypatch.setattr(store, "append_many", append_many)
            record, got = await asyncio.wait_for(auto_table(http, ws_url, "greedy"), 30)
            assert any(m["type"] == "snapshot" for m in got)  # the rebuilt room's
            return record, calls["refused"]

    record, refused = asyncio.run(main())
    assert refused == 1
    result = replay(record)
    assert len(result["hands"]) == 1 and sum(result["totals"]) == 0


def test_a_room_restored_while_a_bot_thinks_asks_the_same_decision_again() -> None:
    """The server restarts (or another node takes the room) while a bot's decision is out:
    the room rebuilt from its log asks the same seat the same decision afresh on ``resume``
    (its bot new for the hand, as an inline restart makes it), and the old room's ask is
    not the new room's to answer."""
    bots = {1: "greedy", 2: "random", 3: "greedy"}
    room = new_room("hainan", 8, bots, frozenset({"greedy", "random"}))
    log: list[tuple[int, str, Any]] = []
    out = send(room, 0, {"type": "ready"})
    log += out.log
    for _ in range(20):  # into the hand: the human's decisions, then some bots' answered
        if out.ask is not None:
            out = room.answer(out.ask, *decide_here(out.ask)) or Outcome()
        else:
            out = act(room, 0, room._pending[0].legal[-1])
        log += out.log
    while out.ask is None:
        out = act(room, 0, room._pending[0].legal[-1])
        log += out.log
    ask = out.ask
    stored = [Stored(q, k, json.loads(json.dumps(d))) for q, k, d in log]
    again = Room.restore(room_row(room), seat_rows(bots), stored, Clock(), room.offload)
    fresh = again.resume().ask
    assert fresh is not None and (fresh.seat, fresh.name, fresh.at) == (ask.seat, ask.name, ask.at)
    assert fresh.observation == ask.observation and fresh.legal == ask.legal
    assert decide_here(fresh)[0] in fresh.legal
    assert again.answer(ask, *decide_here(ask)) is None  # the old room's ask is not its own


@dataclass(frozen=True)
class Stored:
    """A log entry as the store gives it back."""

    seq: int
    kind: str
    data: dict[str, Any]


def room_row(room: Room) -> RoomRow:
    return RoomRow(7, "123456", room.variant.id, {}, room.hands, room.turn_seconds, room.seed,
                   "playing", "x", datetime.now(), None)  # fmt: skip


def seat_rows(bots: dict[int, str]) -> list[SeatRow]:
    return [SeatRow(s, f"P{s}", bots.get(s), None if s in bots else f"h{s}") for s in range(4)]


def test_serve_refuses_a_negative_bot_workers_in_one_line(tmp_path: Path) -> None:
    """``--bot-workers -1`` is a one-line error and exit status 2, before anything starts;
    the help names the option and its default."""
    majiang = Path(sys.executable).parent / "majiang"
    db = f"sqlite:///{tmp_path / 'x.db'}"
    out = subprocess.run(
        [str(majiang), "serve", "--db", db, "--port", str(free_port()), "--bot-workers", "-1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and "--bot-workers" in out.stderr, out.stderr
    helped = subprocess.run([str(majiang), "serve", "--help"], capture_output=True, text=True)
    text = " ".join(helped.stdout.split())
    assert "--bot-workers N" in text and "default: one per core but one" in text
