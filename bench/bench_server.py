"""Load on ``majiang serve`` over loopback: N tables of four WebSocket players, beside a bare
echo-and-fan-out server (the ceiling), in one run.

For each server in turn (``majiang serve`` on a fresh SQLite file, or ``--db URL``; then
``bench/echo_server.py``), the tables are ramped up (``--steps``, default 100, 250, 500 ...):
each step adds tables to reach N, waits ``--warmup`` seconds, then measures for ``--seconds``.
The players run in ``--clients`` asyncio processes (uvloop), all four seats of a table in the
same one. Each seat acts about once a second (0.9-1.1 s after it is given a decision): a
random legal action (a win when one is offered), ``ready`` after a hand. Latency is measured
from the send to the arrival of the event carrying that action at the SENDER, and at the
next seat for public actions (a turn's discard, kong, win; ``ready``). On the echo server
the seats of a table take turns: one sends a message of ``--echo-bytes`` bytes, the server
sends it to the four, and the next seat answers it about a second later.

Per step: actions/s, messages/s received, p50/p99 latency, errors, and the CPU used by the
server, the clients and the rest of the machine (it is shared). The answer is the largest N
whose p99 (at the sender and at the next seat) is under ``--p99-ms`` (50). A server's ramp
stops after ``--stop-after`` failing steps in a row, or when its ``--budget`` is spent.
Per-message deflate is off on both servers and in the clients.

    python bench/bench_server.py                      # about 10 minutes
    python bench/bench_server.py --quick              # about 1 minute
    python bench/bench_server.py --db postgresql+psycopg://postgres@127.0.0.1:5432/test
    python bench/bench_server.py --markdown bench/RESULTS.md
    python bench/bench_server.py --servers majiang \\
        --db postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        --bus redis://127.0.0.1:6379/0 --processes 1,2,3   # majiang serve --bus, N processes

With ``--bus`` each cluster size gets a fresh schema; every table is created on one process,
joined and connected to round robin over all of them (a load balancer without sticky
sessions), so with N processes about (N-1)/N of a room's connections are on a process that
does not own it and its messages cross the bus. Server CPU and memory are summed over the
processes. Then the bus hop alone: one message through ``majiang.server.cluster.Bus``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO / "bench") not in sys.path:
    sys.path.insert(0, str(REPO / "bench"))  # _common, also when loaded from elsewhere

import _common  # noqa: E402

STEPS = (100, 250, 500, 750, 1000, 1250, 1500, 2000, 2500, 3000)
QUICK_STEPS = (50, 100, 200)
THINK = 1.0
"""Seconds a seat takes to act once it has a decision (a 10% jitter either way)."""
LOST_SECONDS = 20.0
"""An action with no answer after this long is counted lost (and the seat decides again)."""
PUBLIC_IN_TURN = {"discard", "kong", "hu", "pass"}
"""A turn's own actions that every seat sees as an event (the rest are told to the actor alone)."""


@dataclass(frozen=True, slots=True)
class ClientConfig:
    """What a client process needs to know (picklable for multiprocessing)."""

    kind: str  # "majiang" or "echo"
    http: tuple[str, ...]
    """Every server process's address: rooms are created, joined and connected to round
    robin over them, as a load balancer without sticky sessions would."""
    ws: tuple[str, ...]
    variant: str
    turn_seconds: int
    echo_bytes: int
    seed: int
    worker: int


@dataclass(slots=True)
class Window:
    """What one client process saw during a measurement window."""

    actions: int = 0
    received: int = 0
    received_bytes: int = 0
    latency: array[float] = field(default_factory=lambda: array("d"))
    latency_other: array[float] = field(default_factory=lambda: array("d"))
    errors: Counter[str] = field(default_factory=Counter)
    stale: int = 0
    cpu: float = 0.0


# -- the client processes --------------------------------------------------------------------


class Seat:
    """One WebSocket player; subclasses decide what it sends and when."""

    def __init__(self, client: ClientProcess, table: Table, seat: int) -> None:
        self.client = client
        self.table = table
        self.seat = seat
        self.ws: Any = None
        self.rng = random.Random(hash((client.cfg.seed, client.cfg.worker, table.index, seat)))
        self.timer: asyncio.TimerHandle | None = None
        self.sent_at: float | None = None

    async def connect(self, url: str) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            url, compression=None, max_size=1 << 22, open_timeout=60, ping_interval=None
        )

    async def read(self) -> None:
        """Handle every message until the connection closes."""
        try:
            async for text in self.ws:
                self.client.count(len(text))
                self.on_message(json.loads(text), time.perf_counter())
        except Exception as err:  # a connection dropped by the server or the network
            if not self.client.quitting:
                self.client.error(f"closed: {type(err).__name__}")
        else:
            if not self.client.quitting:
                self.client.error(f"closed by server ({self.ws.close_code})")

    def send(self, message: dict[str, Any]) -> None:
        task = asyncio.create_task(self.ws.send(json.dumps(message, separators=(",", ":"))))
        self.client.tasks.add(task)
        task.add_done_callback(self.client.sent)

    def arm(self, delay: float) -> None:
        if self.timer is not None:
            self.timer.cancel()
        jitter = delay * self.rng.uniform(0.9, 1.1)
        self.timer = asyncio.get_running_loop().call_later(jitter, self.fire)

    def disarm(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def fire(self) -> None:
        raise NotImplementedError

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        raise NotImplementedError


class Table:
    """Four seats of one room (or one echo table) in the same process."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.seats: list[Seat] = []
        self.public: dict[int, tuple[str, float]] = {}
        """seat -> (action type, send time) of its public action, for the next seat."""


class GameSeat(Seat):
    """A player of ``majiang serve``: acts on ``legal`` (PROTOCOL.md 2) a second later."""

    def __init__(self, client: ClientProcess, table: Table, seat: int) -> None:
        super().__init__(client, table, seat)
        self.legal: list[dict[str, Any]] = []
        self.armed_for: list[dict[str, Any]] | None = None
        self.phase = ""
        self.current = -1
        self.seq = -1
        self.flight: tuple[str, float, int] | None = None
        """The action in flight: its type, send time and messages received before it."""
        self.seen = 0
        self.ready_timer: asyncio.TimerHandle | None = None
        self.lobby_ready = False

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        self.seen += 1
        kind = msg["type"]
        self.seq = max(self.seq, msg.get("seq", -1))
        if kind == "event":
            self._event(msg, now)
        elif kind == "snapshot":
            room = msg["room"]
            me = room["seats"][self.seat]
            if msg["view"] is None and not me["ready"]:
                if room["status"] == "waiting" and not self.lobby_ready:
                    self.lobby_ready = True  # not timed: the match starts when all are ready
                    self.send({"type": "ready"})
                elif room["status"] == "playing":
                    self._arm_ready()
            if msg["view"] is not None:
                self.phase, self.current = msg["view"]["phase"], msg["view"]["current"]
        elif kind == "hand_end":
            if msg["deadline"] is not None:
                self._arm_ready()
        elif kind == "error":
            flight, self.flight = self.flight, None
            if flight is not None and self.seen - 1 > flight[2]:
                self.client.stale()  # the room moved on while the action was on its way
            else:
                self.client.error(f"error {msg['code']}")
        elif kind == "match_end":
            self.disarm()
            return
        if kind in ("event", "snapshot"):
            self._decide(msg["legal"])

    def _event(self, msg: dict[str, Any], now: float) -> None:
        ev = msg["event"]
        who, what = ev.get("seat"), ev.get("type")
        flight = self.flight
        if who == self.seat:
            if flight is not None and flight[0] == what:
                self.client.latency(now - flight[1])
                self.flight = None
            if what == "auto" and ev.get("on"):
                self.client.error("timeout (auto on)")
                self.send({"type": "auto", "on": False})
        elif who is not None and (who + 1) % 4 == self.seat:
            public = self.table.public.pop(who, None)
            if public is not None and public[0] == what:
                self.client.latency(now - public[1], other=True)
        if what == "hand_start":
            self._cancel_ready()
        table = msg.get("table")
        if table is not None:
            self.phase, self.current = table["phase"], table["current"]

    def _decide(self, legal: list[dict[str, Any]]) -> None:
        self.legal = legal
        if not legal:
            self.armed_for = None
            self.disarm()
        elif legal != self.armed_for:
            self.armed_for = legal
            self.arm(THINK)

    def fire(self) -> None:
        self.timer = None
        if self.flight is not None:
            if time.perf_counter() - self.flight[1] < LOST_SECONDS:
                self.arm(0.2)
                return
            self.client.error("lost (no answer)")
            self.flight = None
        if not self.legal:
            return
        wins = [a for a in self.legal if a["type"] == "hu"]
        action = wins[0] if wins else self.rng.choice(self.legal)
        self._act(action["type"], {"type": "action", "action": action})

    def _act(self, kind: str, message: dict[str, Any]) -> None:
        now = time.perf_counter()
        self.flight = (kind, now, self.seen)
        public = kind == "ready" or (
            self.phase == "turn" and self.current == self.seat and kind in PUBLIC_IN_TURN
        )
        if public:
            self.table.public[self.seat] = (kind, now)
        self.client.acted()
        self.send(message)

    def _arm_ready(self) -> None:
        self._cancel_ready()
        delay = THINK * self.rng.uniform(0.9, 1.1)
        self.ready_timer = asyncio.get_running_loop().call_later(delay, self._ready)

    def _cancel_ready(self) -> None:
        if self.ready_timer is not None:
            self.ready_timer.cancel()
            self.ready_timer = None

    def _ready(self) -> None:
        self.ready_timer = None
        self._act("ready", {"type": "ready"})


class EchoSeat(Seat):
    """A player of the echo server: answers the previous seat's message a second later."""

    def __init__(self, client: ClientProcess, table: Table, seat: int) -> None:
        super().__init__(client, table, seat)
        self.n = 0
        self.pad = "x" * client.cfg.echo_bytes

    def on_message(self, msg: dict[str, Any], now: float) -> None:
        who = msg["seat"]
        if who == self.seat and self.sent_at is not None and msg["n"] == self.n:
            self.client.latency(now - self.sent_at)
            self.sent_at = None
        elif (who + 1) % 4 == self.seat:
            public = self.table.public.pop(who, None)
            if public is not None:
                self.client.latency(now - public[1], other=True)
            self.arm(THINK)

    def fire(self) -> None:
        self.timer = None
        self.n += 1
        now = self.sent_at = time.perf_counter()
        self.table.public[self.seat] = ("echo", now)
        self.client.acted()
        self.send({"seat": self.seat, "n": self.n, "pad": self.pad})


class ClientProcess:
    """The tables of one client process, driven by commands from the parent over a pipe."""

    def __init__(self, cfg: ClientConfig, pipe: Connection) -> None:
        self.cfg = cfg
        self.pipe = pipe
        self.tables: list[Table] = []
        self.tasks: set[asyncio.Task[Any]] = set()
        self.window = Window()
        self.measuring = False
        self.quitting = False
        self.setup_errors: Counter[str] = Counter()

    # counters, called by the seats
    def count(self, size: int) -> None:
        if self.measuring:
            self.window.received += 1
            self.window.received_bytes += size

    def latency(self, seconds: float, other: bool = False) -> None:
        if self.measuring:
            (self.window.latency_other if other else self.window.latency).append(seconds * 1000)

    def acted(self) -> None:
        if self.measuring:
            self.window.actions += 1

    def error(self, what: str) -> None:
        if self.measuring:
            self.window.errors[what] += 1

    def stale(self) -> None:
        if self.measuring:
            self.window.stale += 1

    def sent(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None and not self.quitting:
            self.error(f"send: {type(task.exception()).__name__}")

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            command = await loop.run_in_executor(None, self.pipe.recv)
            op = command[0]
            if op == "grow":
                t0 = time.perf_counter()
                await self.grow(command[1])
                self.pipe.send(("grown", time.perf_counter() - t0, dict(self.setup_errors)))
                self.setup_errors.clear()
            elif op == "start":
                self.window = Window(cpu=time.process_time())
                self.measuring = True
            elif op == "stop":
                self.measuring = False
                self.window.cpu = time.process_time() - self.window.cpu
                self.pipe.send(("window", self.window))
            elif op == "quit":
                self.quitting = True
                for table in self.tables:
                    for seat in table.seats:
                        seat.disarm()
                        if seat.ws is not None:
                            with contextlib.suppress(Exception):
                                seat.ws.transport.abort()
                self.pipe.send(("bye",))
                return

    async def grow(self, n: int) -> None:
        """Open tables until there are ``n``, 16 at a time."""
        gate = asyncio.Semaphore(16)
        http = None
        if self.cfg.kind == "majiang":
            import httpx

            http = httpx.AsyncClient(timeout=60)

        async def one(index: int) -> None:
            async with gate:
                try:
                    await self._open_table(index, http)
                except Exception as err:
                    self.setup_errors[f"{type(err).__name__}: {err}"[:120]] += 1

        await asyncio.gather(*(one(i) for i in range(len(self.tables), n)))
        if http is not None:
            await http.aclose()

    async def _open_table(self, index: int, http: Any) -> None:
        table = Table(index)
        n = len(self.cfg.http)
        https = [self.cfg.http[(index + s) % n] for s in range(4)]
        wss = [self.cfg.ws[(index + s) % n] for s in range(4)]
        if self.cfg.kind == "majiang":
            body = {
                "variant": self.cfg.variant,
                "hands": 64,
                "name": f"w{self.cfg.worker}t{index}s0",
                "turn_seconds": self.cfg.turn_seconds,
            }
            r = await http.post(f"{https[0]}/api/rooms", json=body)
            r.raise_for_status()
            room, tokens = r.json()["room"], [r.json()["token"]]
            for s in range(1, 4):
                j = await http.post(f"{https[s]}/api/rooms/{room}/join", json={"name": f"s{s}"})
                j.raise_for_status()
                tokens.append(j.json()["token"])
            seats: list[Seat] = [GameSeat(self, table, s) for s in range(4)]
            urls = [f"{wss[s]}/ws/{room}?token={t}" for s, t in enumerate(tokens)]
        else:
            seats = [EchoSeat(self, table, s) for s in range(4)]
            name = f"w{self.cfg.worker}t{index}"
            urls = [f"{self.cfg.ws[0]}/ws/{name}"] * 4
        table.seats = seats
        for seat, url in zip(seats, urls, strict=True):
            await seat.connect(url)
        self.tables.append(table)
        for seat in seats:
            task = asyncio.create_task(seat.read())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        if self.cfg.kind == "echo":
            seats[0].arm(THINK * seats[0].rng.random())


def client_main(cfg: ClientConfig, pipe: Connection) -> None:
    """A client process: uvloop, then commands until ``quit``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    raise_file_limit()
    import uvloop

    uvloop.run(ClientProcess(cfg, pipe).run())


# -- the parent ------------------------------------------------------------------------------


def raise_file_limit() -> int:
    """The open-file soft limit raised to the hard limit (thousands of sockets); the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system, every thread) used so far by process ``pid``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    total = sum(values[:8])
    tick = os.sysconf("SC_CLK_TCK")
    return (total - idle) / tick, total / tick


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` percentile of sorted values (nan when empty)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), round(q / 100 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


@dataclass(slots=True)
class Step:
    """One step of a ramp, as it came out."""

    server: str
    tables: int
    opened: int
    setup_seconds: float
    seconds: float
    actions: int
    received: int
    received_bytes: int
    p50: float
    p99: float
    p50_other: float
    p99_other: float
    samples: int
    errors: Counter[str]
    stale: int
    server_cpu: float
    client_cpu: float
    machine_busy: float
    cores: int
    rss_mb: float
    load: float

    def held(self, limit_ms: float) -> bool:
        """p99 under the limit at the sender and at the next seat, and no errors."""
        return (
            self.samples > 0
            and self.p99 < limit_ms
            and (self.p99_other != self.p99_other or self.p99_other < limit_ms)
            and not self.errors
        )


class ServerProcess:
    """``majiang serve`` or the echo server as a subprocess on a free loopback port; with
    ``bus`` (a Redis URL, and ``prefix``), one node of a ``majiang serve --bus`` cluster."""

    def __init__(
        self,
        kind: str,
        db: str | None,
        workdir: Path,
        bus: str | None = None,
        prefix: str = "",
        index: int = 0,
    ) -> None:
        self.kind = kind
        self.port = free_port()
        self.log = workdir / f"{kind}-{index}.log"
        if kind == "majiang":
            url = db or f"sqlite:///{workdir / 'bench.db'}"
            self.db = url
            cmd = [sys.executable, "-m", "majiang", "serve", "--port", str(self.port)]
            cmd += ["--db", url, "--rooms-per-address", "1000000"]
            if bus is not None:
                cmd += ["--bus", bus, "--bus-prefix", prefix]
            self.probe = f"http://127.0.0.1:{self.port}/api/variants"
        else:
            self.db = ""
            cmd = [sys.executable, str(REPO / "bench" / "echo_server.py"), "--port", str(self.port)]
            self.probe = f"http://127.0.0.1:{self.port}/health"
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        with self.log.open("w") as err:
            self.proc = subprocess.Popen(
                cmd, stdout=subprocess.DEVNULL, stderr=err, env=env, cwd=REPO
            )
        self._wait()

    def _wait(self) -> None:
        import httpx

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(self.probe, timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        self.stop()
        raise SystemExit(f"{self.kind} server did not start:\n{self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@contextlib.contextmanager
def database(url: str | None) -> Iterator[str | None]:
    """``url`` as given, except PostgreSQL: a fresh schema of that database (like SQLite's
    fresh file), dropped afterwards."""
    if url is None or not url.startswith("postgresql"):
        yield url
        return
    import psycopg
    from sqlalchemy.engine import make_url

    schema = f"bench_server_{os.getpid()}"
    libpq = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq, autocommit=True, connect_timeout=10) as admin:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        try:
            fresh = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
            yield fresh.render_as_string(hide_password=False)
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')


def label(kind: str, processes: int, bus: str | None) -> str:
    """A ramp's name in the report: ``majiang``, ``majiang --bus ×N``, ``echo``."""
    if kind != "majiang" or bus is None:
        return kind
    return f"majiang --bus ×{processes}"


def ramp(
    kind: str,
    db: str | None,
    args: argparse.Namespace,
    workdir: Path,
    processes: int = 1,
    bus: str | None = None,
) -> tuple[list[Step], str]:
    """Start the server process(es) and the client processes, run the steps; the steps and
    the servers' stderr tail (empty if they wrote nothing)."""
    name = label(kind, processes, bus)
    prefix = f"bench_server_{os.getpid()}_{processes}"
    servers = [
        ServerProcess(kind, db, workdir, bus, prefix, i)
        for i in range(processes if kind == "majiang" else 1)
    ]
    server = Servers(servers)
    ctx = mp.get_context("spawn")
    pipes: list[Connection] = []
    procs = []
    for w in range(args.clients):
        cfg = ClientConfig(
            kind=kind,
            http=tuple(f"http://127.0.0.1:{s.port}" for s in servers),
            ws=tuple(f"ws://127.0.0.1:{s.port}" for s in servers),
            variant=args.variant,
            turn_seconds=args.turn_seconds,
            echo_bytes=args.echo_bytes,
            seed=args.seed,
            worker=w,
        )
        mine, theirs = ctx.Pipe()
        proc = ctx.Process(target=client_main, args=(cfg, theirs), daemon=True)
        proc.start()
        pipes.append(mine)
        procs.append(proc)
    steps: list[Step] = []
    started = time.monotonic()
    failing = 0
    try:
        for n in args.steps:
            spent = time.monotonic() - started
            last_setup = steps[-1].setup_seconds if steps else 0.0
            if steps and spent + args.warmup + args.seconds + 2 * last_setup > args.budget:
                print(f"[{name}: budget of {args.budget:.0f} s spent; stopping]", file=sys.stderr)
                break
            step = run_step(name, n, args, server, pipes)
            steps.append(step)
            print(f"[{name}] {row(step, args.p99_ms)}", file=sys.stderr, flush=True)
            failing = 0 if step.held(args.p99_ms) else failing + 1
            if failing >= args.stop_after or server.exited():
                break
    finally:
        for pipe in pipes:
            with contextlib.suppress(Exception):
                pipe.send(("quit",))
        for pipe, proc in zip(pipes, procs, strict=True):
            with contextlib.suppress(Exception):
                if pipe.poll(20):
                    pipe.recv()
            proc.join(10)
            if proc.is_alive():
                proc.kill()
        server.stop()
    tail = "\n".join(s.log.read_text()[-3000:].strip() for s in servers).strip()
    return steps, tail


class Servers:
    """The server processes of one ramp, measured together (CPU and memory summed)."""

    def __init__(self, servers: list[ServerProcess]) -> None:
        self.servers = servers

    def cpu(self) -> float:
        return sum(proc_cpu(s.proc.pid) for s in self.servers)

    def rss_mb(self) -> float:
        return sum(proc_rss_mb(s.proc.pid) for s in self.servers)

    def exited(self) -> bool:
        return any(s.proc.poll() is not None for s in self.servers)

    def stop(self) -> None:
        for s in self.servers:
            s.stop()


def run_step(
    kind: str, n: int, args: argparse.Namespace, server: Servers, pipes: list[Connection]
) -> Step:
    """Grow to ``n`` tables, warm up, measure one window."""
    shares = [n // len(pipes) + (1 if i < n % len(pipes) else 0) for i in range(len(pipes))]
    t0 = time.perf_counter()
    for pipe, share in zip(pipes, shares, strict=True):
        pipe.send(("grow", share))
    setup_errors: Counter[str] = Counter()
    for pipe in pipes:
        _, _, errs = pipe.recv()
        setup_errors.update({f"setup: {k}": v for k, v in errs.items()})
    setup = time.perf_counter() - t0
    time.sleep(args.warmup)
    load = os.getloadavg()[0]
    cpu0, (busy0, total0) = server.cpu(), machine_cpu()
    w0 = time.perf_counter()
    for pipe in pipes:
        pipe.send(("start",))
    time.sleep(args.seconds)
    for pipe in pipes:
        pipe.send(("stop",))
    windows: list[Window] = [pipe.recv()[1] for pipe in pipes]
    seconds = time.perf_counter() - w0
    cpu1, (busy1, total1) = server.cpu(), machine_cpu()
    lat = sorted(x for w in windows for x in w.latency)
    other = sorted(x for w in windows for x in w.latency_other)
    errors: Counter[str] = Counter(setup_errors)
    for w in windows:
        errors.update(w.errors)
    cores = os.cpu_count() or 1
    opened = n - sum(setup_errors.values())
    return Step(
        server=kind,
        tables=n,
        opened=opened,
        setup_seconds=setup,
        seconds=seconds,
        actions=sum(w.actions for w in windows),
        received=sum(w.received for w in windows),
        received_bytes=sum(w.received_bytes for w in windows),
        p50=percentile(lat, 50),
        p99=percentile(lat, 99),
        p50_other=percentile(other, 50),
        p99_other=percentile(other, 99),
        samples=len(lat),
        errors=errors,
        stale=sum(w.stale for w in windows),
        server_cpu=(cpu1 - cpu0) / seconds,
        client_cpu=sum(w.cpu for w in windows) / seconds,
        machine_busy=(busy1 - busy0) / (total1 - total0) * cores,
        cores=cores,
        rss_mb=server.rss_mb(),
        load=load,
    )


def _ms(x: float) -> str:
    return "n/a" if x != x else f"{x:.1f}" if x < 100 else f"{x:,.0f}"


def cpu_ms(s: Step) -> float:
    """Server CPU milliseconds per action (nan without actions)."""
    return s.server_cpu * s.seconds / s.actions * 1000 if s.actions else float("nan")


def row(s: Step, limit: float) -> str:
    """One step as a Markdown table row."""
    others = max(0.0, s.machine_busy - s.server_cpu - s.client_cpu)
    errors = sum(s.errors.values())
    return (
        f"| {s.server} | {s.tables:,} | {s.actions / s.seconds:,.0f} | "
        f"{s.received / s.seconds:,.0f} | {_ms(s.p50)} | {_ms(s.p99)} | {_ms(s.p99_other)} | "
        f"{errors:,} | {s.stale:,} | {s.server_cpu:.0%} | {cpu_ms(s):.2f} | "
        f"{s.client_cpu:.0%} | {others:.0%} | "
        f"{s.rss_mb:,.0f} | {'yes' if s.held(limit) else 'no'} |"
    )


HEADER = (
    "| server | tables | actions/s | messages/s in | p50 ms | p99 ms | p99 ms next seat | "
    "errors | stale | server CPU | server CPU ms/action | clients CPU | rest of machine | "
    "server RSS MB | held |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
)


def report(results: dict[str, tuple[list[Step], str]], args: argparse.Namespace) -> str:
    """The Markdown body: settings, one row per step, the answer per server, notes."""
    limit = args.p99_ms
    db = "SQLite (a fresh file)" if args.db is None else args.db.split("://")[0]
    lines = [
        f"Loopback, {args.clients} client process(es) (uvloop, `websockets` "
        f"{_common.version('websockets')}), per-message deflate off on both sides. Each seat "
        f"acts {THINK:g} s (±10%) after it is given a decision; `majiang serve`: variant "
        f"`{args.variant}`, 4 human seats per room, random legal actions (a win when offered), "
        f"turn_seconds {args.turn_seconds}, 64-hand matches, database "
        f"{db}; echo: {args.echo_bytes}-byte messages fanned out to the table's 4 sockets. "
        f"Per step: grow to N tables, {args.warmup:g} s warm-up, {args.seconds:g} s measured. "
        f"Latency: action sent -> its event received by the sender (p50, p99) and by the next "
        f"seat (public actions). held: p99 < {limit:g} ms at both and no errors. CPU as a "
        f"share of one core; rest of machine = every other process during the window "
        f"({os.cpu_count()} cores).",
        "",
        HEADER,
    ]
    for steps, _ in results.values():
        lines += [row(s, limit) for s in steps]
    lines.append("")
    best: dict[str, int] = {}
    for kind, (steps, _) in results.items():
        held = [s.tables for s in steps if s.held(limit)]
        best[kind] = max(held, default=0)
        tried = ", ".join(f"{s.tables:,}" for s in steps)
        untried = " (the last step held: it lies higher)" if steps and steps[-1].held(limit) else ""
        lines.append(
            f"- {kind}: largest N with p99 < {limit:g} ms: "
            f"**{best[kind]:,} tables**{untried} (steps run: {tried})"
        )
        busiest = max(steps, key=lambda s: s.actions, default=None)
        if busiest is not None and busiest.actions:
            ms = cpu_ms(busiest)
            first = steps[0]
            per_table = first.actions / first.seconds / first.tables
            lines.append(
                f"- {kind}: server CPU per action at N={busiest.tables:,}: {ms:.2f} ms, so its "
                f"one process would use a whole core near {1000 / ms:,.0f} actions/s, "
                f"{1000 / ms / per_table:,.0f} tables at the {per_table:.2f} actions/s per "
                f"table of the first step (latency grows well before that)"
            )
    single = best.get("majiang --bus ×1")
    for kind, held in best.items():
        if kind.startswith("majiang --bus ×") and single:
            lines.append(
                f"- {kind}: {held / single:.2f} × the tables of one --bus process "
                f"(the {args.clients} load-generating client processes share the same "
                f"{os.cpu_count()} cores as the servers, PostgreSQL and Redis)"
            )
    if best.get("echo") and "majiang" in best:
        echo_steps = results["echo"][0]
        above = (
            " or less (the echo's ceiling was not reached)" if echo_steps[-1].held(limit) else ""
        )
        lines.append(
            f"- majiang serve / echo ceiling: {best['majiang'] / best['echo']:.2f}{above} "
            f"(target from issue 16: >= 1,000 tables per process with the full engine)"
        )
    for kind, (steps, tail) in results.items():
        for s in steps:
            if s.errors:
                top = ", ".join(f"{k}: {v}" for k, v in s.errors.most_common(4))
                lines.append(f"- {kind} N={s.tables:,} errors: {top}")
        setup = ", ".join(f"{s.tables:,}: {s.setup_seconds:.1f} s" for s in steps)
        lines.append(f"- {kind} setup time per step (to N: create/join, connect): {setup}")
        sizes = [s.received_bytes / s.received for s in steps if s.received]
        if sizes:
            lines.append(f"- {kind} mean message size received: {sum(sizes) / len(sizes):,.0f} B")
        if tail:
            last = tail.splitlines()[-1][:200]
            lines.append(f"- {kind} server stderr (last line): `{last}`")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class Hop:
    """The bus hop measured through ``majiang.server.cluster.Bus`` itself."""

    size: int
    latency: list[float]
    """One message at a time: publish -> the subscriber's handler, ms, sorted."""
    batched: int
    cpu_us: float
    """CPU per message (publish + receive + dispatch, both ends in this one process), µs,
    with messages pipelined as a busy server sends them."""
    rate: float


async def bus_hop(url: str, messages: int, size: int = 256) -> Hop:
    """What one message costs through the bus: the owner's ``Bus.post`` to a node's
    handler over Redis, on loopback; first one at a time (latency), then pipelined."""
    from majiang.server.cluster import Bus

    prefix = f"bench_hop_{os.getpid()}"
    got: asyncio.Queue[float] = asyncio.Queue()
    arrived = 0
    done = asyncio.Event()
    target = 0

    def handler(channel: str, data: bytes) -> None:
        nonlocal arrived
        arrived += 1
        got.put_nowait(time.perf_counter())
        if arrived >= target:
            done.set()

    sender, receiver = Bus(url, lambda c, d: None), Bus(url, handler)
    await sender.start(f"{prefix}:n:sender")
    await receiver.start(f"{prefix}:n:receiver")
    channel = f"{prefix}:r:1:s0"
    await receiver.subscribe(channel)
    payload = b"m bench -\n" + b"x" * size
    latency = []
    try:
        for _ in range(min(2000, messages)):
            t0 = time.perf_counter()
            target = arrived + 1
            sender.post(channel, payload)
            latency.append((await got.get() - t0) * 1000)
        while not got.empty():
            got.get_nowait()
        done.clear()
        target = arrived + messages
        cpu0, w0 = time.process_time(), time.perf_counter()
        for i in range(messages):
            sender.post(channel, payload)
            if i % 50 == 49:
                await asyncio.sleep(0)  # the owner's loop turns between rooms' outcomes
        await asyncio.wait_for(done.wait(), 120)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - w0
    finally:
        await sender.stop()
        await receiver.stop()
    return Hop(size, sorted(latency), messages, cpu / messages * 1e6, messages / wall)


def hop_report(hop: Hop) -> str:
    """The bus hop's lines of the report."""
    return (
        f"- bus hop ({hop.size}-byte message, `majiang.server.cluster.Bus` over Redis on "
        f"loopback): one at a time p50 {percentile(hop.latency, 50):.2f} ms, p99 "
        f"{percentile(hop.latency, 99):.2f} ms; {hop.batched:,} pipelined: "
        f"{hop.cpu_us:.1f} µs of CPU per message for both ends (publish, receive, "
        f"dispatch), {hop.rate:,.0f} messages/s\n"
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", help="majiang serve's database URL (default: a fresh SQLite file)")
    p.add_argument("--quick", action="store_true", help="small steps and short windows (~1 min)")
    p.add_argument("--steps", help="comma-separated table counts (default 100,250,500,...)")
    p.add_argument("--seconds", type=float, help="measured seconds per step (20; quick 6)")
    p.add_argument("--warmup", type=float, help="seconds after growing, before measuring (4)")
    p.add_argument("--budget", type=float, help="seconds per server for its ramp (270; quick 35)")
    p.add_argument("--clients", type=int, default=2, help="client processes (2)")
    p.add_argument("--servers", default="majiang,echo", help="which servers to ramp, in order")
    p.add_argument("--variant", default="guangdong", help="variant of the rooms (guangdong)")
    p.add_argument("--turn-seconds", type=int, default=15, help="rooms' turn timer (15)")
    p.add_argument("--echo-bytes", type=int, default=400, help="echo message padding (400)")
    p.add_argument("--p99-ms", type=float, default=50.0, help="latency bound for 'held' (50)")
    p.add_argument("--stop-after", type=int, default=2, help="failing steps in a row (2)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--bus",
        metavar="URL",
        help="also ramp majiang serve --bus (a Redis URL) with --processes processes; needs "
        "a PostgreSQL --db; measures the bus hop too",
    )
    p.add_argument(
        "--processes",
        default="1,2,3",
        help="with --bus: the cluster sizes to ramp, in order (1,2,3)",
    )
    p.add_argument(
        "--hop-messages", type=int, default=20000, help="messages of the bus-hop measure (20000)"
    )
    p.add_argument("--markdown", metavar="FILE", type=Path, help="append the report to FILE")
    args = p.parse_args(argv)
    default_steps = QUICK_STEPS if args.quick else STEPS
    args.steps = [int(x) for x in args.steps.split(",")] if args.steps else list(default_steps)
    args.seconds = args.seconds or (6.0 if args.quick else 20.0)
    args.warmup = args.warmup if args.warmup is not None else (2.0 if args.quick else 4.0)
    args.budget = args.budget or (35.0 if args.quick else 270.0)
    args.servers = [s.strip() for s in args.servers.split(",") if s.strip()]
    for s in args.servers:
        if s not in ("majiang", "echo"):
            p.error(f"--servers: unknown server {s!r} (majiang, echo)")
    try:
        args.processes = [int(x) for x in args.processes.split(",") if x.strip()]
    except ValueError:
        p.error(f"--processes: {args.processes!r} is not a comma-separated list of counts")
    if any(n < 1 for n in args.processes):
        p.error("--processes: every count must be at least 1")
    if args.bus is not None and not (args.db or "").startswith("postgresql"):
        p.error("--bus needs --db postgresql+psycopg://...: the processes share it")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    limit = raise_file_limit()
    need = 4 * max(args.steps) + 256
    if limit < need:
        print(f"[open-file limit {limit} < {need}: the largest steps may fail]", file=sys.stderr)
    load = os.getloadavg()
    workdir = Path(tempfile.mkdtemp(prefix="bench-server-"))
    results: dict[str, tuple[list[Step], str]] = {}
    hop: Hop | None = None
    t0 = time.monotonic()
    try:
        print(HEADER, file=sys.stderr)
        with database(args.db) as db:
            for kind in args.servers:
                results[kind] = ramp(kind, db, args, workdir)
        for n in args.processes if args.bus else []:
            with database(args.db) as db:  # a fresh schema per cluster size
                results[label("majiang", n, args.bus)] = ramp(
                    "majiang", db, args, workdir, processes=n, bus=args.bus
                )
        hop = asyncio.run(bus_hop(args.bus, args.hop_messages)) if args.bus else None
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    body = report(results, args)
    if hop is not None:
        body += hop_report(hop)
    body += (
        f"- load average before the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
        f"whole run {time.monotonic() - t0:.0f} s\n"
    )
    print(body)
    if args.markdown:
        libs = (
            f"majiang {_common.version('majiang')} (git {_common.git_rev()}), "
            f"fastapi {_common.version('fastapi')}, uvicorn {_common.version('uvicorn')}, "
            f"uvloop {_common.version('uvloop')}, websockets {_common.version('websockets')}, "
            f"SQLAlchemy {_common.version('sqlalchemy')}"
        )
        _common.append_markdown(
            args.markdown, "bench/bench_server.py", _common.machine_facts(libs), body
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
