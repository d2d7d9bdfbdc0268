"""majiang.client, `majiang bot` and `majiang verify` against a real `majiang serve` process:
three bot processes and one client play whole matches; the client's view follows every
event (checked against snapshots), its totals equal the stored record's replay, and every
hand's deal matches the commitment its start carried (and a tampered one does not)."""

from __future__ import annotations

import argparse
import asyncio
import copy
import io
import json
import os
import random
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server import MAJIANG, TIMEOUT, Server, serve_sqlite

from majiang.bots import make_bot
from majiang.client import (
    Client,
    ClientError,
    create_room,
    fetch_record,
    join_room,
    observation_from_view,
    room_state,
)
from majiang.engine.match import Match
from majiang.records import replay
from majiang.rules import VARIANTS
from majiang.server import verify_commitment
from majiang.server.room import view_json
from majiang.values import Action, ActionType
from majiang.verify import check_hand, deal_commitment


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from serve_sqlite(tmp_path_factory, "client")


def majiang(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MAJIANG), *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def test_a_view_and_legal_give_back_the_seats_observation() -> None:
    """What a bot decides from over the network is exactly the engine's Observation: the
    server's View of it (every variant, random hands, every seat, every step) read back."""
    for variant in VARIANTS:
        for seed in range(2):
            state = Match(variant, {}, seed).new_hand()
            rng = random.Random(seed)
            while state.result_ is None:
                for s in range(4):
                    obs = state.observation(s)
                    assert observation_from_view(view_json(obs, s), obs.legal) == obs
                legal = state.legal_actions(state.to_act()[0])
                state.apply(legal[int(rng.random() * len(legal))])
    with pytest.raises(ClientError, match="spectator"):
        observation_from_view(view_json(state.observation(0), None), ())


async def play_seat(client: Client, hands: int, seed: int) -> list[str]:
    """Play ``client``'s seat with the greedy bot until match_end; every 7th message ask for
    a snapshot. Returns the problems seen: a tracked view differing from a snapshot, an error."""
    bot = make_bot("greedy", random.Random(seed))
    problems: list[str] = []
    tracked = copy.deepcopy(client.view)
    n = 0
    if client.settled:  # a decision in the snapshot taken on connecting
        observation = client.observation()
        assert observation is not None
        await client.act(bot.act(observation, client.legal))
    async for msg in client:
        n += 1
        if msg.type == "snapshot" and msg.data["view"] != tracked:
            problems.append(f"seq {msg.seq}: tracked view {tracked} != snapshot {msg.data['view']}")
        tracked = copy.deepcopy(client.view)
        if msg.error is not None:
            problems.append(f"error {msg.error}")
        if msg.hand_end is not None and msg.hand_end.index + 1 < hands:
            await client.ready()
        if n % 7 == 0 and client.match_end is None:
            await client.snapshot()
        elif client.settled:
            observation = client.observation()
            assert observation is not None
            await client.act(bot.act(observation, client.legal))
    return problems


def spawn_bot(server: Server, room: str, i: int, save: Path) -> subprocess.Popen[str]:
    """A `majiang bot` process joining ``room`` as ``bot{i}``."""
    cmd = [str(MAJIANG), "bot", "--server", server.http, "--room", room, "--seed", str(i)]
    cmd += ["--name", f"bot{i}", "--save-hands", str(save)]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def tamper(deal: dict[str, Any]) -> dict[str, Any]:
    """The deal with two different wall tiles swapped."""
    out = copy.deepcopy(deal)
    draws = out["draws"].split()
    j = next(i for i in range(1, len(draws)) if draws[i] != draws[0])
    draws[0], draws[j] = draws[j], draws[0]
    out["draws"] = " ".join(draws)
    return out


@pytest.mark.parametrize("variant", ["guangdong", "taizhou"])
def test_three_bots_and_a_client_play_a_match(server: Server, variant: str, tmp_path: Path) -> None:
    hands = 2

    async def main() -> tuple[Client, list[str], dict[str, Any], list[Any], list[Any]]:
        seat = await create_room(server.http, variant, hands=hands, name="Ann", turn_seconds=60)
        assert seat.seat == 0
        bots = [spawn_bot(server, seat.room, i, tmp_path / f"{i}.jsonl") for i in range(1, 4)]
        async with Client(server.http, seat.room, seat.token) as client:
            assert client.seat == 0 and client.room["status"] == "waiting"
            await client.ready()
            problems = await asyncio.wait_for(play_seat(client, hands, 5), 4 * TIMEOUT)
        record = await fetch_record(server.http, seat.room)
        state = await room_state(server.http, seat.room)
        assert state["status"] == "finished"
        names = [s["name"] for s in state["seats"]]
        assert names[0] == "Ann" and sorted(names[1:]) == ["bot1", "bot2", "bot3"]
        return client, problems, record, bots, names

    client, problems, record, bots, names = asyncio.run(main())
    assert problems == []
    end = client.match_end
    assert end is not None and end.reason == "hands"
    assert list(client.totals) == replay(record)["totals"] == list(end.totals)
    assert [h.index for h in client.hands] == list(range(hands))
    assert sum(client.totals) == 0 and client.totals == client.hands[-1].totals
    # every hand's deal and salt hash to the commitment its hand_start carried
    for hand in client.hands:
        assert hand.start_commitment is not None
        assert hand.start_commitment == hand.message["commitment"]
        assert hand.check().ok and hand.check().source == "hand_start"
        deal, salt = hand.message["deal"], hand.message["salt"]
        assert isinstance(deal, dict) and isinstance(salt, str)
        assert verify_commitment(deal, salt, hand.start_commitment)  # the server's own check
        assert record["hands"][hand.index]["deal"] == deal
    # the bots: one line per hand and the totals, the same hands, exit status 0
    totals = "  ".join(f"S{s} {t:+d}" for s, t in enumerate(end.totals))
    for i, proc in enumerate(bots, start=1):
        out, err = proc.communicate(timeout=TIMEOUT)
        assert proc.returncode == 0, err
        lines = out.splitlines()
        assert lines[0] == f"room {client.number} seat {names.index(f'bot{i}')} (greedy)"
        assert [line.split(":")[0] for line in lines[1:-1]] == [f"hand {n}/2" for n in (1, 2)]
        assert all(line.endswith("; deal ok") for line in lines[1:-1])
        assert lines[-1] == f"totals  {totals}  (hands)"
        saved = [json.loads(line) for line in (tmp_path / f"{i}.jsonl").read_text().splitlines()]
        assert saved == [h.to_json() for h in client.hands]
        done = majiang("verify", str(tmp_path / f"{i}.jsonl"))
        assert (done.returncode, done.stdout.splitlines()[-1]) == (0, "ok: 2 hands")
    # majiang verify: the client's hands (a JSON list), with the record; tampered ones fail
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps([h.to_json() for h in client.hands]))
    rec = tmp_path / "record.json"
    rec.write_text(json.dumps(record))
    done = majiang("verify", str(mine), "--record", str(rec))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        "hand 1 (index 0): ok (the hand_start commitment)",
        "hand 2 (index 1): ok (the hand_start commitment)",
        "ok: 2 hands",
    ]
    first = client.hands[0].to_json()
    bad_deal = {**first, "deal": tamper(first["deal"])}
    bad_salt = {**first, "salt": "00" + str(first["salt"])[2:]}
    bad_repeat = {**first, "commitment": "0" * 64}
    for bad, why in ((bad_deal, "sha256"), (bad_salt, "sha256"), (bad_repeat, "repeats")):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps([client.hands[1].to_json(), bad]))
        done = majiang("verify", str(path))
        assert done.returncode == 1, done.stdout + done.stderr
        lines = done.stdout.splitlines()
        assert lines[0].endswith(": ok (the hand_start commitment)")
        assert lines[1].startswith("hand 1 (index 0): MISMATCH: ") and why in lines[1]
        assert lines[2] == "mismatch: 1 of 2 hands"
    # the record must hold the committed deal
    forged = copy.deepcopy(record)
    forged["hands"][1]["deal"] = tamper(forged["hands"][1]["deal"])
    rec.write_text(json.dumps(forged))
    done = majiang("verify", str(mine), "--record", str(rec))
    assert done.returncode == 1 and "record's deal of hand index 1" in done.stdout
    # a hand_end alone checks against the commitment it repeats, or the one given
    one = tmp_path / "one.json"
    message = dict(client.hands[0].message)
    one.write_text(json.dumps(message))
    done = majiang("verify", str(one))
    assert done.returncode == 0 and "compare it with the one hand_start showed" in done.stdout
    done = majiang("verify", str(one), "--commitment", "ab" * 32)
    assert done.returncode == 1 and "MISMATCH" in done.stdout


def test_verify_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    deal = {"hands": ["123m", "", "", ""], "draws": "1m", "tail": "", "reserved": {}}
    good = {"deal": deal, "salt": "ab" * 16, "commitment": deal_commitment(deal, "ab" * 16)}
    assert check_hand(good).ok
    cases: dict[str, tuple[str, str]] = {
        "missing": ("", "cannot read"),
        "text": ("not json {", "not JSON or JSON Lines"),
        "empty": ("[]", "holds no hand"),
        "number": ("[1]", "item 0"),
        "no_deal": (json.dumps({"salt": "ab", "commitment": "0" * 64}), "'deal'"),
        "no_commitment": (json.dumps({"deal": deal, "salt": "ab"}), "'commitment'"),
        "bad_salt": (json.dumps({**good, "salt": "xyz"}), "salt must be hex"),
        "short": (json.dumps({**good, "commitment": "abc"}), "64 hex digits"),
        "record": (json.dumps({"format": "majiang-record/1", "hands": []}), "--record"),
    }
    for name, (text, why) in cases.items():
        path = tmp_path / f"{name}.json"
        if name != "missing":
            path.write_text(text)
        done = majiang("verify", str(path))
        assert done.returncode == 2, (name, done.stdout, done.stderr)
        assert done.stdout == "" and done.stderr.count("\n") == 1, (name, done.stderr)
        assert done.stderr.startswith("majiang: error: ") and why in done.stderr, done.stderr
    path = tmp_path / "two.json"
    path.write_text(json.dumps([good, good]))
    done = majiang("verify", str(path), "--commitment", "0" * 64)
    assert done.returncode == 2 and "exactly one hand" in done.stderr
    # JSON Lines, one hand a line, is read too
    path.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n")
    done = majiang("verify", str(path))
    assert (done.returncode, done.stdout.splitlines()[-1]) == (0, "ok: 2 hands")


def test_bot_errors_are_one_line(server: Server) -> None:
    async def full_room() -> str:
        seat = await create_room(server.http, "hongzhong", bots={"1": "random", "2": "random"})
        await join_room(server.http, seat.room, "Bo")
        return seat.room

    room = asyncio.run(full_room())
    cases = [
        (["--server", "ftp://example.org", "--room", room], "http:// or https:// URL"),
        (["--server", "http://127.0.0.1:1", "--room", room], "cannot reach"),
        (["--server", server.http, "--room", "12ab"], "6 digits"),
        (["--server", server.http, "--room", "000000"], "(not_found)"),
        (["--server", server.http, "--room", room], "(room_full)"),
        (["--server", server.http, "--room", room, "--seat-token=-nope"], "(bad_token)"),
    ]
    for args, why in cases:
        done = majiang("bot", *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert done.stdout == "" and done.stderr.count("\n") == 1, (args, done.stderr)
        assert done.stderr.startswith("majiang: error: ") and why in done.stderr, done.stderr


def test_client_calls_errors_and_a_spectator(server: Server) -> None:
    """HTTP refusals are ClientErrors with the server's code; an illegal action is refused
    before it is sent (or, sent anyway, comes back as an error message); a seq gap makes the
    view stale until the snapshot the client asks for; a spectator decides nothing."""

    async def main() -> None:
        with pytest.raises(ClientError) as caught:
            await create_room(server.http, "nowhere")
        assert (caught.value.code, caught.value.status) == ("bad_variant", 422)
        assert "nowhere" in caught.value.message
        with pytest.raises(ClientError) as caught:
            await join_room(server.http, "999999")
        assert (caught.value.code, caught.value.status) == ("not_found", 404)
        bots = {"1": "greedy", "2": "greedy", "3": "greedy"}
        seat = await create_room(server.http, "hangzhou", hands=1, bots=bots, turn_seconds=0)
        spectator = await Client(server.http, seat.room).connect()
        assert spectator.seat is None and spectator.observation() is None
        async with Client(server.http, seat.room, seat.token) as client:
            # a forged message two events ahead: a gap, so the client asks for a snapshot
            before = client.seq
            gap = {"type": "event", "seq": before + 2, "table": None, "legal": [],
                   "deadline": None, "event": {"type": "ready", "seat": 1}}  # fmt: skip
            client._queue.put_nowait(json.dumps(gap))
            await client.recv()
            assert client.observation() is None and not client.settled
            answer = await client.recv(timeout=TIMEOUT)
            assert answer.type == "snapshot" and client.seq == before
            await client.ready()
            while not client.settled:
                await client.recv(timeout=TIMEOUT)
            wrong = next(
                Action(0, ActionType.DISCARD, t)
                for t in range(34)
                if Action(0, ActionType.DISCARD, t) not in client.legal
            )
            with pytest.raises(ClientError) as caught:
                await client.act(wrong)
            assert caught.value.code == "illegal"
            with pytest.raises(ClientError) as caught:
                await client.act(Action(1, ActionType.PASS))
            assert caught.value.code == "wrong_seat"
            legal = client.legal
            await client.act(wrong, check=False)
            msg = await client.recv(timeout=TIMEOUT)
            assert msg.error is not None and msg.error.code == "illegal"
            await client.snapshot()
            while (await client.recv(timeout=TIMEOUT)).type != "snapshot":
                pass
            assert client.legal == legal
            await client.act({"type": "escape"})
            async for _ in client:
                pass
            assert client.match_end is not None and client.match_end.reason == "escape"
        async for _ in spectator:
            pass
        assert spectator.match_end == client.match_end
        assert [h.result for h in spectator.hands] == [h.result for h in client.hands]
        assert spectator.hands[0].check().ok
        await spectator.close()
        with pytest.raises(ClientError) as caught:
            await Client(server.http, seat.room, "not-a-token").connect()
        assert caught.value.code == "bad_token"

    asyncio.run(main())


def test_a_bot_gets_back_in_after_the_server_is_killed_and_restarted(tmp_path: Path) -> None:
    """SIGKILL the server mid-hand (it waits on the client's decision), start it again on the
    same database: the client reconnects, `majiang bot` gets back in by itself, and the
    match ends with the totals the record replays to."""
    server = Server(f"sqlite:///{tmp_path / 'rooms.db'}").start()
    try:

        async def main() -> tuple[Client, str, subprocess.Popen[str]]:
            bots = {"2": "greedy", "3": "greedy"}
            seat = await create_room(server.http, "hainan", hands=2, bots=bots, turn_seconds=0)
            cmd = [str(MAJIANG), "bot", "--server", server.http, "--room", seat.room]
            cmd += ["--seed", "3"]
            env = {**os.environ, "MAJIANG_SEAT_TOKEN": seat.token}
            bot = subprocess.Popen(
                cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
            )
            joined = await join_room(server.http, seat.room, "Bo")
            client = await Client(server.http, seat.room, joined.token).connect()
            await client.ready()
            greedy = make_bot("greedy", random.Random(1))
            decisions = 0
            while decisions < 3 or not client.settled:
                await client.recv(timeout=TIMEOUT)
                observation = client.observation() if client.settled else None
                if observation is not None and decisions < 3:
                    await client.act(greedy.act(observation, client.legal))
                    decisions += 1
            before = client.seq
            server.stop(kill=True)  # the room waits on this client's decision: mid-hand
            with pytest.raises(ClientError) as caught:
                while True:
                    await client.recv(timeout=TIMEOUT)
            assert caught.value.code == "disconnected"
            server.start()
            await client.reconnect()
            assert client.seq == before and client.settled
            assert await asyncio.wait_for(play_seat(client, 2, 1), 2 * TIMEOUT) == []
            await client.close()
            return client, seat.room, bot

        client, room, bot = asyncio.run(main())
        out, err = bot.communicate(timeout=TIMEOUT)
        assert bot.returncode == 0, err
        totals = "  ".join(f"S{s} {t:+d}" for s, t in enumerate(client.totals))
        assert out.splitlines()[-1] == f"totals  {totals}  (hands)"
        assert len(out.splitlines()) == 4
        record = asyncio.run(fetch_record(server.http, room))
        assert replay(record)["totals"] == list(client.totals)
    finally:
        server.stop()


def test_a_bot_taking_a_seat_on_auto_turns_it_off_and_plays(server: Server) -> None:
    """Seat 0 lets a decision time out (托管 on); `majiang bot` (its code, in process) takes
    the seat by its token, turns 托管 off and plays the rest of the match."""
    from majiang.cli.bot import run

    async def main() -> tuple[int, str, dict[str, Any], list[str]]:
        bots = {"2": "greedy", "3": "greedy"}
        seat = await create_room(server.http, "hongzhong", hands=3, bots=bots, turn_seconds=1)
        joined = await join_room(server.http, seat.room, "Bo")
        other = await Client(server.http, seat.room, joined.token).connect()
        await other.ready()
        playing = asyncio.create_task(play_seat(other, 3, 2))
        async with Client(server.http, seat.room, seat.token) as idle:
            await idle.ready()
            while not idle.room["seats"][0]["auto"]:
                await idle.recv(timeout=TIMEOUT)
        out = io.StringIO()
        args = argparse.Namespace(
            server=server.http, room=seat.room, seat_token=seat.token, bot="greedy",
            name=None, seed=1, save_hands=None,
        )  # fmt: skip
        code = await asyncio.wait_for(run(args, out), 2 * TIMEOUT)
        problems = await playing
        await other.close()
        return code, out.getvalue(), await room_state(server.http, seat.room), problems

    code, out, state, problems = asyncio.run(main())
    assert code == 0 and problems == []
    lines = out.splitlines()
    assert lines[0].endswith("seat 0 (greedy)") and lines[-1].endswith("(hands)")
    assert state["status"] == "finished" and state["seats"][0]["auto"] is False
