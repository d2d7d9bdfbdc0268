"""``majiang bot``: a bot of ``majiang.bots`` fills a seat of a room over the network, through
``majiang.client`` (PROTOCOL.md only), the way mjai bots join a game."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
from typing import IO, TYPE_CHECKING, Any

from majiang.errors import MajiangError

if TYPE_CHECKING:
    from majiang.client import Client, HandEnd

__all__ = ["add_parser", "hand_line", "main", "run"]

RECONNECT_SECONDS = 30.0
"""How long the bot tries to get back in after the server went away (a restart)."""
UNSETTLED_SECONDS = 1.0
"""How long the bot waits for the events that settle a decision before asking a snapshot."""
_RESEND = ("illegal", "bad_action", "auto_on", "no_hand", "rate_limited")
"""Refusals after which the bot asks for a snapshot: its picture of the decision was stale."""


def add_parser(sub: Any) -> None:
    """The ``bot`` subcommand's arguments."""
    from majiang.bots import BOTS

    p = sub.add_parser(
        "bot",
        help="fill a seat of a room on a majiang server with a bot",
        description="Join a room of `majiang serve` (or take a seat by its token), send ready "
        "and play every decision with a bot of majiang.bots, from what the seat is sent, "
        "until the match ends. Prints one line per hand and the totals; one-line errors "
        "(bad URL, unknown room, full room) with exit status 2.",
    )
    p.add_argument("--server", required=True, help="the server's URL, e.g. http://127.0.0.1:8000")
    p.add_argument("--room", required=True, help="the 6-digit room number")
    p.add_argument(
        "--bot", default="greedy", choices=sorted(BOTS), help="which bot plays (default greedy)"
    )
    p.add_argument("--name", default=None, help="the seat's name (default: BOT bot)")
    p.add_argument(
        "--seat-token",
        default=None,
        metavar="TOKEN",
        help="play a seat already taken, by its token, instead of joining; write "
        "--seat-token=TOKEN (a token may begin with '-'), or set MAJIANG_SEAT_TOKEN, which "
        "keeps it out of the process list",
    )
    p.add_argument("--seed", type=int, default=None, help="the bot's random seed")
    p.add_argument(
        "--save-hands",
        default=None,
        metavar="FILE",
        help="append every hand_end (with its hand_start commitment) to FILE as JSON Lines, "
        "for majiang verify",
    )


def hand_line(hand: HandEnd, hands: int) -> str:
    """One line for a finished hand: who won how (or a draw), the deltas, the totals."""
    r: Any = hand.result
    n = hand.index + 1
    if r["outcome"] == "win":
        src = "" if r["from"] is None else f" from S{r['from']}"
        pats = ", ".join(r["patterns"])
        what = f"S{r['winner']} wins by {r['win_type']}{src}" + (f" ({pats})" if pats else "")
    else:
        what = "drawn"
    check = hand.check()
    fair = "deal ok" if check.ok else "DEAL MISMATCH: " + check.problem
    if check.ok and check.source != "hand_start":
        fair += " (against hand_end's own commitment: this seat did not see the hand start)"
    deltas = " ".join(f"{d:+d}" for d in hand.deltas)
    totals = " ".join(f"{t:+d}" for t in hand.totals)
    return f"hand {n}/{hands}: {what}; deltas {deltas}; totals {totals}; {fair}"


async def run(args: argparse.Namespace, out: IO[str]) -> int:
    """Play the seat until ``match_end``: 0, or 1 when a hand's deal did not match its
    commitment. ClientError (a MajiangError) for a refusal or an unreachable server."""
    from majiang.bots import make_bot
    from majiang.client import Client, ClientError, join_room

    token = args.seat_token or os.environ.get("MAJIANG_SEAT_TOKEN") or None
    if token is None:
        token = (await join_room(args.server, args.room, args.name or f"{args.bot} bot")).token
    client = Client(args.server, args.room, token)
    await client.connect()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    bot = make_bot(args.bot, random.Random(seed))
    hands = client.room["hands"]
    assert isinstance(hands, int)
    if client.room["status"] not in ("waiting", "playing"):
        await client.close()
        raise ClientError("closed", f"room {args.room} is over ({client.room['status']})")
    print(f"room {args.room} seat {client.seat} ({args.bot})", file=out, flush=True)
    mismatches = 0
    try:
        await _resume(client)
        while client.match_end is None:
            observation = client.observation() if client.settled else None
            if observation is not None:
                with contextlib.suppress(ClientError):  # closed: recv says how
                    await client.act(bot.act(observation, client.legal))
            try:
                msg = await client.recv(timeout=UNSETTLED_SECONDS if client.legal else None)
            except ClientError as err:
                if err.code == "timeout":  # a decision the view never caught up with
                    await client.snapshot()
                    continue
                if err.code != "disconnected" or client.close_code in (1000, 4000, 4401, 4404):
                    raise
                await _reconnect(client)
                await _resume(client)
                continue
            if msg.error is not None:
                if msg.error.code == "rate_limited":
                    await asyncio.sleep(0.5)
                if msg.error.code in _RESEND:
                    await client.snapshot()
            elif msg.hand_end is not None:
                hand = msg.hand_end
                print(hand_line(hand, hands), file=out, flush=True)
                mismatches += not hand.check().ok
                if args.save_hands:
                    with open(args.save_hands, "a", encoding="utf-8") as f:
                        f.write(json.dumps(hand.to_json(), ensure_ascii=False) + "\n")
                if hand.index + 1 < hands:
                    await client.ready()
            elif msg.event is not None:
                ev = msg.event
                if ev.get("type") == "auto" and ev.get("seat") == client.seat and ev.get("on"):
                    await client.auto(False)  # put on 托管 by a timeout: play again
                    if client.view is None:  # between hands: off 托管 is not ready
                        await client.ready()
    finally:
        await client.close()
    end = client.match_end
    assert end is not None
    totals = "  ".join(f"S{s} {t:+d}" for s, t in enumerate(end.totals))
    print(f"totals  {totals}  ({end.reason})", file=out, flush=True)
    return 1 if mismatches else 0


async def _resume(client: Client) -> None:
    """After connecting: turn 托管 off if it is on; between hands (or before the start) a
    seat not yet ready sends ``ready``."""
    room: Any = client.room
    if room["seats"][client.seat]["auto"]:
        await client.auto(False)
    waiting = room["status"] in ("waiting", "playing") and client.view is None
    if waiting and not room["seats"][client.seat]["ready"]:
        await client.ready()


async def _reconnect(client: Client) -> None:
    """Try to get back in for RECONNECT_SECONDS (a server restart keeps every room)."""
    from majiang.client import ClientError

    loop = asyncio.get_running_loop()
    give_up = loop.time() + RECONNECT_SECONDS
    while True:
        await asyncio.sleep(0.5)
        try:
            await client.reconnect()
            return
        except ClientError as err:
            if err.code != "unreachable" or loop.time() > give_up:
                raise


def main(args: argparse.Namespace) -> int:
    """``majiang bot``: 0 when the match ended, 1 on a deal mismatch, 2 on a one-line error."""
    try:
        import majiang.client  # noqa: F401
    except ImportError as err:
        need = "majiang bot needs the extra web: pip install 'majiang[web]'"
        raise MajiangError(f"{need} ({err})") from None
    try:
        return asyncio.run(run(args, sys.stdout))
    except KeyboardInterrupt:
        return 130
