"""The browser game's first load (issue 34): page weight and time to a playable table.

Starts ``majiang serve`` on a fresh SQLite file, makes a room of one human and three
greedy bots and starts its first hand (the human's ready over the WebSocket), then opens
the room's table page in Debian's Chromium (Playwright; never a downloaded browser) with
the CPU slowed 4x (CDP ``Emulation.setCPUThrottlingRate``), a cold cache and the seat's
token in localStorage, as a player coming back to the room would. Each run reports:

- weight: every HTTP response of the load (HTML, JS modules, CSS, API answers) as served
  and gzip-compressed (level 6, what a compressing proxy would send), and the WebSocket
  messages received until the table is playable;
- time to a playable table: from navigation start until the seat's own tiles are on the
  table and tappable (``.hand.own svg.tile[data-tile]``), with DOMContentLoaded and load.

Run: ``make bench-web`` or ``python bench/bench_web.py [--runs 5] [--markdown FILE]``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import httpx  # noqa: E402
from _common import git_rev, machine_facts, report, version  # noqa: E402
from playwright.sync_api import Browser, sync_playwright  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
MAJIANG = Path(sys.executable).with_name("majiang")
THROTTLE = 4
VIEWPORT = {"width": 1366, "height": 768}
PLAYABLE = ".hand.own svg.tile[data-tile]"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(db: Path, port: int) -> subprocess.Popen[str]:
    """``majiang serve`` on ``db``, once it answers HTTP."""
    proc = subprocess.Popen(
        [str(MAJIANG), "serve", "--port", str(port), "--db", f"sqlite:///{db}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    end = time.monotonic() + 30
    while time.monotonic() < end:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/variants", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("majiang serve did not start")


def room_in_play(port: int, variant: str) -> dict[str, Any]:
    """A room of one human (seat 0) and three greedy bots, its first hand started: the
    human's seat ``{room, seat, token}``. No turn timer: the table waits for the page."""
    body = {
        "variant": variant,
        "name": "Ann",
        "hands": 8,
        "turn_seconds": 0,
        "bots": {"1": "greedy", "2": "greedy", "3": "greedy"},
    }
    made: dict[str, Any] = httpx.post(
        f"http://127.0.0.1:{port}/api/rooms", json=body, timeout=30
    ).json()
    url = f"ws://127.0.0.1:{port}/ws/{made['room']}?token={made['token']}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "ready"}))
        end = time.monotonic() + 30
        while time.monotonic() < end:
            msg = json.loads(ws.recv(timeout=30))
            if msg.get("type") == "event" and msg["event"]["type"] == "hand_start":
                return made
    raise SystemExit("the hand did not start")


def one_load(browser: Browser, port: int, made: dict[str, Any]) -> dict[str, Any]:
    """Open the table page once (fresh context, cold cache, CPU throttled): its weight
    and timings."""
    context = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    held = json.dumps({"seat": made["seat"], "token": made["token"], "name": "Ann"})
    context.add_init_script(
        f"localStorage.setItem({json.dumps('majiang.seat.' + made['room'])}, {json.dumps(held)});"
    )
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
    responses: list[Any] = []
    page.on("response", lambda r: responses.append(r))
    ws_bytes = [0]

    def on_frame(payload: str | bytes) -> None:
        ws_bytes[0] += len(payload.encode() if isinstance(payload, str) else payload)

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    page.goto(f"http://127.0.0.1:{port}/?room={made['room']}")
    page.wait_for_selector(PLAYABLE, timeout=120_000)
    playable = float(page.evaluate("performance.now()"))
    ws_until_playable = ws_bytes[0]
    nav = page.evaluate(
        "(() => { const n = performance.getEntriesByType('navigation')[0];"
        " return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}; })()"
    )
    kinds: dict[str, list[int]] = {}
    for r in responses:
        try:
            body = r.body()
        except Exception:  # a response without a body (a redirect)
            continue
        path = r.url.split(str(port), 1)[1]
        kind = (
            "HTML"
            if path.split("?")[0] == "/"
            else "JS"
            if path.endswith(".js")
            else "CSS"
            if path.endswith(".css")
            else "API"
            if path.startswith("/api/")
            else "other"
        )
        entry = kinds.setdefault(kind, [0, 0, 0])  # bytes, gzip bytes, responses
        entry[0] += len(body)
        entry[1] += len(gzip.compress(body, 6))
        entry[2] += 1
    context.close()
    return {
        "playable_ms": playable,
        "dcl_ms": float(nav["dcl"]),
        "load_ms": float(nav["load"]),
        "kinds": kinds,
        "ws_bytes": ws_until_playable,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Measure ``--runs`` cold loads of the table page and report them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold loads (default 5)")
    parser.add_argument("--variant", default="guangdong")
    parser.add_argument("--markdown", metavar="FILE", help="append the report to FILE")
    args = parser.parse_args(argv)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(Path(tmp) / "rooms.db", port)
        try:
            made = room_in_play(port, args.variant)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu"])
                one_load(browser, port, made)  # warm the server (its first answers)
                runs = [one_load(browser, port, made) for _ in range(args.runs)]
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    first = runs[0]
    lines = [
        f"The table page of a {args.variant} room in play (one human, three greedy bots), "
        f"{args.runs} cold loads in Chromium {VIEWPORT['width']}x{VIEWPORT['height']} with "
        f"{THROTTLE}x CPU throttling (CDP), the server on loopback (no network throttling).",
        "",
        "| what the first load fetches | responses | bytes as served | gzip bytes |",
        "|---|---|---|---|",
    ]
    total = [0, 0, 0]
    for kind in ("HTML", "JS", "CSS", "API", "other"):
        if kind not in first["kinds"]:
            continue
        raw, packed, n = first["kinds"][kind]
        total = [total[0] + raw, total[1] + packed, total[2] + n]
        lines.append(f"| {kind} | {n} | {raw:,} | {packed:,} |")
    lines.append(f"| **all HTTP** | {total[2]} | {total[0]:,} | **{total[1]:,}** |")
    lines.append(
        f"| WebSocket messages until playable | | {first['ws_bytes']:,} | (uncompressed) |"
    )
    ms = [r["playable_ms"] for r in runs]
    lines += [
        "",
        "| timing from navigation start (ms) | median | min | max |",
        "|---|---|---|---|",
    ]
    for label, key in (
        ("DOMContentLoaded", "dcl_ms"),
        ("load", "load_ms"),
        ("playable table (own tiles tappable)", "playable_ms"),
    ):
        values = [r[key] for r in runs]
        lines.append(
            f"| {label} | {statistics.median(values):,.0f} | {min(values):,.0f} | "
            f"{max(values):,.0f} |"
        )
    lines.append("")
    lines.append(f"Each run's playable time (ms): {', '.join(f'{x:,.0f}' for x in ms)}.")
    facts = machine_facts(
        f"majiang {git_rev()}, playwright {version('playwright')}, "
        f"Chromium {CHROMIUM}; load average {Path('/proc/loadavg').read_text().split()[:3]}"
    )
    report("bench/bench_web.py", facts, lines, args.markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
