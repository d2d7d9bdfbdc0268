"""majiang.server.room without a network: the driver loop, per-seat messages, the log and
its replay, timers, votes and escapes (PROTOCOL.md; server_design.md, event sourcing)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise, product
from typing import Any

import pytest
from serverkit import Tracker, concealed_fields

from majiang.records import record_json, replay
from majiang.rules import VARIANTS
from majiang.server import verify_commitment
from majiang.server.models import ClientMessage, client_message, server_message
from majiang.server.room import (
    DISSOLVE_SECONDS,
    EVERYONE,
    SPECTATORS,
    Outcome,
    Room,
    RoomError,
    deal_json,
)
from majiang.store import RoomRow, SeatRow
from majiang.tiles import Tile


@dataclass(frozen=True)
class Stored:
    """A log entry as the store gives it back."""

    seq: int
    kind: str
    data: dict[str, Any]


class Clock:
    """A settable epoch-ms clock."""

    def __init__(self) -> None:
        self.now = 1_000_000

    def __call__(self) -> int:
        return self.now


def msg(data: dict[str, Any]) -> ClientMessage:
    return client_message.validate_python(data)


class Table:
    """A room with listeners on every human seat and one spectator; every delivery is
    checked against the models, fed to a tracker and kept."""

    def __init__(
        self,
        variant: str,
        seed: int,
        bots: dict[int, str],
        hands: int = 1,
        turn_seconds: int = 0,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.clock = Clock()
        self.row = RoomRow(
            7, "123456", variant, options or {}, hands, turn_seconds, seed, "waiting", "x",
            datetime.now(), None,
        )  # fmt: skip
        self.seat_rows = [
            SeatRow(s, f"P{s}", bots.get(s), None if s in bots else f"hash{s}") for s in range(4)
        ]
        self.room = Room(self.row, self.seat_rows, self.clock)
        self.humans = [s for s in range(4) if s not in bots]
        for s in self.humans:
            self.room.set_connected(s, True)
        self.log: list[Stored] = []
        self.listeners = [*self.humans, SPECTATORS]
        self.trackers = {k: Tracker() for k in self.listeners}
        self.received: dict[int, list[dict[str, Any]]] = {k: [] for k in self.listeners}

    def take(self, out: Outcome) -> None:
        self.log += [Stored(seq, kind, json.loads(json.dumps(d))) for seq, kind, d in out.log]
        now: dict[int, list[dict[str, Any]]] = {k: [] for k in self.listeners}
        echoes: dict[int, list[bool]] = {k: [] for k in self.listeners}
        for d in out.deliveries:
            message = json.loads(json.dumps(d.message))
            server_message.validate_python(message)
            for k in self.listeners if d.to == EVERYONE else [d.to]:
                echo = message["seq"] <= self.trackers[k].seq  # an own decision, told back
                self.trackers[k].feed(message)
                self.received[k].append(message)
                now[k].append(message)
                echoes[k].append(echo)
        for k in self.listeners:
            snap = self.room.snapshot(None if k == SPECTATORS else k)
            assert self.trackers[k].view == snap["view"]
            # the decision a seat is left with comes with the last message it got
            events = [m for m in now[k] if m["type"] == "event"]
            assert all(m["legal"] == [] and m["deadline"] is None for m in events[:-1]), k
            if now[k] and now[k][-1]["type"] == "event":
                assert now[k][-1]["legal"] == snap["legal"], (k, now[k][-1])
                assert now[k][-1]["deadline"] == snap["deadline"]
                if not echoes[k][-1]:  # an echo tells no restriction (3.1)
                    assert now[k][-1]["restrictions"] == snap["restrictions"], k

    def send(self, seat: int, data: dict[str, Any]) -> None:
        self.take(self.room.handle(seat, msg(data)))

    def play(self, rng: random.Random, limit: int = 5000) -> None:
        """Humans pick random legal actions (and get ready) until the match ends."""
        for s in self.humans:
            self.send(s, {"type": "ready"})
        while self.room.status == "playing" and limit:
            limit -= 1
            waiting = [s for s in self.humans if s in self.room._pending]
            assert waiting, "the room waits for nobody"
            s = rng.choice(waiting)
            legal = self.room._pending[s].legal
            if legal:
                action = rng.choice(legal).to_json()
                del action["seat"]
                self.send(s, {"type": "action", "action": action})
            else:
                self.send(s, {"type": "ready"})

    def restored(self, upto: int | None = None) -> Room:
        return Room.restore(self.row, self.seat_rows, self.log[:upto], self.clock)


def seats_mix(seed: int) -> dict[int, str]:
    return [{1: "greedy", 2: "random"}, {}, {0: "greedy", 2: "greedy", 3: "random"}][seed % 3]


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_play_out_and_every_message_keeps_to_the_protocol(variant: str, seed: int) -> None:
    """Random humans beside bots play two hands: every message validates, each listener's
    tracked view equals its snapshot after every call, seqs run without gaps (an own hidden
    decision repeats the seq), no message before hand_end carries another seat's concealed
    tile, the record replays to the totals and the log restores the same room."""
    table = Table(variant, seed, seats_mix(seed), hands=2)
    table.play(random.Random(seed))
    room = table.room
    assert room.status == "finished" and len(room.match.finished) == 2  # type: ignore[union-attr]
    assert replay(room.record())["totals"] == room.totals()  # type: ignore[arg-type]
    assert sum(room.totals()) == 0
    for k, got in table.received.items():
        seqs = [m["seq"] for m in got]
        assert all(b in (a, a + 1) for a, b in pairwise(seqs))
        assert seqs[-1] == room.seq
        for m in got:
            if m["type"] == "hand_end":
                continue
            for path, seat, _ in concealed_fields(m):
                assert k != SPECTATORS and seat == k, path
            for r in m.get("restrictions", []):  # declared, with the detail its words take
                assert k != SPECTATORS
                words = VARIANTS[variant].restriction(r["id"]).now
                assert words and (r["detail"] != "") == ("{}" in words), (r, words)
    again = table.restored()
    assert (again.status, again.totals(), again.seq, again.log_seq) == (
        room.status,
        room.totals(),
        room.seq,
        room.log_seq,
    )


def test_messages_carry_the_restrictions_the_public_state_puts_in_force() -> None:
    """What the table shows and what a seat is told agree: while hangzhou's 抓打 owner is
    another seat, each seat's messages carry 抓打 naming him (RULES.md 2.3, D24); a taizhou
    seat that threw a 得 is told 打得 for the rest of the hand (RULES.md 5.1); only seats."""
    seen = {"zhuada": 0, "wild_thrown": 0}
    for seed, (variant, key) in product(range(6), (("hangzhou", "zhuada"), ("taizhou", "no_win"))):
        table = Table(variant, seed, {1: "greedy"}, hands=1)
        table.play(random.Random(seed))
        for k, got in table.received.items():
            last = -1
            for m in got:
                echo = m["seq"] <= last  # an own decision told back: it tells no restriction
                last = max(last, m["seq"])
                if m["type"] != "event" or m["table"] is None or echo:
                    continue
                if m["table"]["phase"] == "end":  # the hand is over: nothing is in force
                    assert not m["restrictions"]
                    continue
                shown = m["table"]["variant_state"].get(key)
                why = {(r["id"], r["detail"]) for r in m["restrictions"]}
                if k == SPECTATORS:
                    assert not why
                elif variant == "hangzhou" and shown is not None and shown != k:
                    assert ("zhuada", f"S{shown}") in why, m
                    seen["zhuada"] += 1
                elif variant == "taizhou" and k in (shown or ()):
                    assert ("wild_thrown", "") in why, m
                    seen["wild_thrown"] += 1
    assert all(seen.values()), seen  # the seeds do reach both


def test_a_restored_room_sends_the_same_snapshots_at_every_point_of_the_log() -> None:
    table = Table("hangzhou", 3, {1: "greedy", 3: "greedy"})
    rng = random.Random(3)
    for s in table.humans:
        table.send(s, {"type": "ready"})
    snapshots = []
    while table.room.status == "playing":
        s = next(s for s in table.humans if s in table.room._pending)
        action = rng.choice(table.room._pending[s].legal).to_json()
        del action["seat"]
        table.send(s, {"type": "action", "action": action})
        snapshots.append((len(table.log), [table.room.snapshot(k) for k in (0, 2, None)]))
    for upto, expected in snapshots[::7]:
        again = table.restored(upto)
        for k in table.humans:
            again.set_connected(k, True)
        assert [again.snapshot(k) for k in (0, 2, None)] == expected


def test_a_hand_start_commits_to_the_deal_that_hand_end_reveals() -> None:
    table = Table("guangdong", 5, {1: "greedy", 2: "greedy", 3: "greedy"})
    table.play(random.Random(5))
    starts = [m["event"] for m in table.received[0] if m["type"] == "event"]
    start = next(e for e in starts if e["type"] == "hand_start")
    end = next(m for m in table.received[0] if m["type"] == "hand_end")
    assert verify_commitment(end["deal"], end["salt"], start["commitment"])
    assert end["deal"] == record_json(table.room.match)["hands"][0]["deal"]  # type: ignore[arg-type]
    assert deal_json(table.room.match.finished[0].state) == end["deal"]  # type: ignore[union-attr]
    tampered = {**end["deal"], "draws": end["deal"]["draws"][::-1]}
    assert not verify_commitment(tampered, end["salt"], start["commitment"])
    assert not verify_commitment(end["deal"], "00" + end["salt"][2:], start["commitment"])
    assert not verify_commitment(end["deal"], "not hex", start["commitment"])


def test_refused_messages_change_nothing() -> None:
    table = Table("hainan", 2, {1: "greedy", 2: "greedy"})
    for s in table.humans:
        table.send(s, {"type": "ready"})
    room = table.room
    turn = next(s for s in table.humans if s in room._pending)
    other = 3 if turn == 0 else 0
    legal = room._pending[turn].legal
    held = {a.tile for a in legal if a.type == "discard"}
    not_held = next(t for t in range(34) if t not in held)
    bad = [
        (turn, {"type": "action", "action": {"type": "discard", "tile": str(Tile(not_held))}}),
        (turn, {"type": "action", "action": {"type": "discard", "tile": "1m", "seat": other}}),
        (turn, {"type": "action", "action": {"type": "peng"}}),
        (turn, {"type": "action", "action": {"type": "discard", "tile": "0m"}}),
        (other, {"type": "action", "action": legal[-1].to_json() | {"seat": other}}),
        (turn, {"type": "ready"}),
        (turn, {"type": "auto", "on": False}),
        (turn, {"type": "dissolve", "vote": False}),
    ]
    before = [room.snapshot(k) for k in (0, 3, None)], room.log_seq
    codes = []
    for seat, data in bad:
        with pytest.raises(RoomError) as err:
            room.handle(seat, msg(data))
        codes.append(err.value.code)
    with pytest.raises(RoomError, match="spectator"):
        room.handle(None, msg({"type": "action", "action": legal[0].to_json()}))
    assert ([room.snapshot(k) for k in (0, 3, None)], room.log_seq) == before
    assert codes == [
        "illegal",
        "wrong_seat",
        "illegal",
        "bad_action",
        "illegal",
        "in_hand",
        "already",
        "already",
    ]


def test_a_timeout_plays_the_default_and_turns_auto_on() -> None:
    """PROTOCOL.md 3.3: seat 0's decision times out: its default is played and the seat goes
    on 托管; from then on nobody waits, and the one-hand match runs to its end at once."""
    table = Table("guangdong", 11, {1: "greedy", 2: "greedy", 3: "greedy"}, turn_seconds=5)
    table.send(0, {"type": "ready"})
    room = table.room
    pending = room._pending[0]
    assert pending.deadline == table.clock.now + 5000
    assert room.next_deadline() == pending.deadline
    table.clock.now += 4999
    table.take(room.on_timer())
    assert room._pending[0] is pending  # not yet
    obs = room.state.observation(0)  # type: ignore[union-attr]
    table.clock.now += 1
    n = len(table.log)
    table.take(room.on_timer())
    played = table.log[n].data["action"]
    if obs.phase == "turn" and obs.current == 0:
        assert obs.drawn is not None  # the dealer's 14th tile counts as drawn
        assert played == {"seat": 0, "type": "discard", "tile": str(Tile(obs.drawn))}
    else:
        assert played == {"seat": 0, "type": "pass"}
    assert (table.log[n + 1].kind, table.log[n + 1].data) == ("auto", {"seat": 0, "on": True})
    events = [m["event"] for m in table.received[0] if m["type"] == "event"]
    assert {"type": "auto", "seat": 0, "on": True} in events
    assert room.status == "finished" and room.next_deadline() is None


def test_the_default_discard_is_the_last_non_wild_tile_after_a_claim() -> None:
    """PROTOCOL.md 3.3: with no tile just drawn (after a chi or peng), the default is the last
    tile in canonical order that is not a wild."""
    for seed in range(40):
        table = Table("hangzhou", seed, {1: "greedy", 2: "greedy", 3: "greedy"}, turn_seconds=5)
        table.send(0, {"type": "ready"})
        room = table.room
        while room.status == "playing":
            obs = room.state.observation(0)  # type: ignore[union-attr]
            legal = room._pending[0].legal
            claim = next((a for a in legal if a.type in ("chi", "peng")), None)
            if claim is None:
                table.send(0, {"type": "action", "action": legal[-1].to_json()})
                continue
            table.send(0, {"type": "action", "action": claim.to_json()})
            obs = room.state.observation(0)  # type: ignore[union-attr]
            if room.status != "playing" or obs.current != 0 or obs.drawn is not None:
                break
            table.clock.now += 5000
            n = len(table.log)
            table.take(room.on_timer())
            tiles = [t for t in obs.hand if t != obs.wild]
            discards = [a.tile for a in obs.legal if a.type == "discard"]
            expected = max(t for t in tiles if t in discards)
            assert table.log[n].data["action"] == {
                "seat": 0, "type": "discard", "tile": str(Tile(expected))
            }  # fmt: skip
            return
    pytest.fail("no seed gave seat 0 a claim")


def test_auto_off_gives_the_seat_its_decision_back() -> None:
    table = Table("hongzhong", 4, {1: "greedy", 2: "greedy"})
    for s in table.humans:
        table.send(s, {"type": "ready"})
    room = table.room
    s = next(s for s in table.humans if s in room._pending)
    table.send(s, {"type": "auto", "on": True})
    assert s not in room._pending or room.status != "playing"
    if room.status == "playing" and room.state is not None:
        other = 3 if s == 0 else 0
        table.send(s, {"type": "auto", "on": False})
        assert room.seats[s].auto is False  # type: ignore[union-attr]
        assert s in room._pending or other in room._pending


def test_every_human_voting_dissolves_the_room() -> None:
    table = Table("taizhou", 6, {1: "greedy", 2: "greedy"})
    for s in table.humans:
        table.send(s, {"type": "ready"})
    room = table.room
    table.send(0, {"type": "dissolve", "vote": True})
    assert room.status == "playing"
    table.send(0, {"type": "dissolve", "vote": False})
    table.send(0, {"type": "dissolve", "vote": True})
    table.send(3, {"type": "dissolve", "vote": True})
    assert room.status == "dissolved"
    end = table.received[3][-1]
    assert end["type"] == "match_end" and end["reason"] == "dissolved"
    assert end["totals"] == [0, 0, 0, 0]
    assert room.record() == {**record_json(room.match), "hands": []}  # type: ignore[arg-type]
    with pytest.raises(RoomError, match="dissolved"):
        room.handle(0, msg({"type": "ready"}))
    assert table.restored().status == "dissolved"


def test_a_dissolve_vote_is_in_every_snapshot_survives_a_restore_and_lapses() -> None:
    """Who asked, who agreed and when the vote lapses are in the room state of every
    snapshot (a reloaded page shows the vote), the same after a restore from the log; past
    the deadline the vote is gone and a new yes opens another."""
    table = Table("hongzhong", 3, {1: "greedy"})
    for s in table.humans:
        table.send(s, {"type": "ready"})
    room, clock = table.room, table.clock
    table.send(0, {"type": "dissolve", "vote": True})
    deadline = clock.now + DISSOLVE_SECONDS * 1000
    asked = {"by": 0, "votes": [True, None, None, None], "deadline": deadline}
    event = table.received[3][-1]["event"]
    assert event == {"type": "dissolve", "seat": 0, "vote": True, "request": asked}
    clock.now += 5000
    table.send(2, {"type": "dissolve", "vote": True})
    agreed = {**asked, "votes": [True, None, True, None]}
    assert table.received[0][-1]["event"]["request"] == agreed
    for k in (0, 3, None):
        assert room.snapshot(k)["room"]["dissolve"] == agreed
    restored = table.restored()
    for s in table.humans:
        restored.set_connected(s, True)
    assert [restored.snapshot(k) for k in (0, 3, None)] == [room.snapshot(k) for k in (0, 3, None)]
    with pytest.raises(RoomError, match="already voted True"):
        room.handle(2, msg({"type": "dissolve", "vote": True}))
    clock.now = deadline  # the vote lapses: the room plays on
    assert room.snapshot(0)["room"]["dissolve"] is None
    assert restored.snapshot(3)["room"]["dissolve"] is None
    with pytest.raises(RoomError, match="no dissolve vote is open"):
        room.handle(0, msg({"type": "dissolve", "vote": False}))
    table.send(3, {"type": "dissolve", "vote": True})
    assert room.snapshot(0)["room"]["dissolve"] == {
        "by": 3,
        "votes": [None, None, None, True],
        "deadline": deadline + DISSOLVE_SECONDS * 1000,
    }
    table.send(3, {"type": "dissolve", "vote": False})  # the only yes withdrawn: it is over
    assert table.received[0][-1]["event"]["request"] is None
    assert room.snapshot(0)["room"]["dissolve"] is None and room.status == "playing"


def test_one_refusal_ends_a_dissolve_vote_at_once() -> None:
    """PROTOCOL.md: ``{"type": "dissolve", "vote": false}`` from any seated human ends the
    vote, even with every other human agreed; everyone is told (``request`` null), the room
    plays on, a restored room agrees, and a new vote needs a new ask."""
    table = Table("guangdong", 3, {1: "greedy"})
    for s in table.humans:
        table.send(s, {"type": "ready"})
    room = table.room
    table.send(0, {"type": "dissolve", "vote": True})
    table.send(2, {"type": "dissolve", "vote": True})
    assert room.snapshot(0)["room"]["dissolve"]["votes"] == [True, None, True, None]
    table.send(3, {"type": "dissolve", "vote": False})
    for s in table.humans:
        event = table.received[s][-1]["event"]
        assert event == {"type": "dissolve", "seat": 3, "vote": False, "request": None}
    assert room.snapshot(None)["room"]["dissolve"] is None and room.status == "playing"
    restored = table.restored()
    assert restored.snapshot(None)["room"]["dissolve"] is None
    assert restored.status == "playing"
    with pytest.raises(RoomError, match="no dissolve vote is open"):
        room.handle(0, msg({"type": "dissolve", "vote": False}))
    # the one who asked may refuse too: that also ends it
    table.send(2, {"type": "dissolve", "vote": True})
    table.send(2, {"type": "dissolve", "vote": False})
    assert room.snapshot(0)["room"]["dissolve"] is None and room.status == "playing"


def test_an_escape_ends_the_hand_and_the_match() -> None:
    """RULES.md 0.9: the escaper pays escape_penalty to each other seat; the match ends."""
    table = Table("guangdong", 8, {1: "greedy", 2: "greedy"}, hands=4)
    for s in table.humans:
        table.send(s, {"type": "ready"})
    table.send(3, {"type": "action", "action": {"type": "escape"}})
    room = table.room
    assert room.status == "finished"
    end = table.received[0][-1]
    assert end["type"] == "match_end" and end["reason"] == "escape"
    penalty = room.options["escape_penalty"]
    assert isinstance(penalty, int)
    assert end["totals"] == [penalty, penalty, penalty, -3 * penalty]
    hand_end = table.received[0][-2]
    assert hand_end["type"] == "hand_end" and hand_end["result"]["outcome"] == "draw"
    assert replay(room.record())["totals"] == end["totals"]  # type: ignore[arg-type]


def test_a_spectator_sees_public_events_only() -> None:
    table = Table("hangzhou", 9, {})
    table.play(random.Random(9))
    seen = table.received[SPECTATORS]
    assert seen and all(m["type"] != "error" for m in seen)
    for m in seen:
        if m["type"] != "hand_end":
            assert list(concealed_fields(m)) == []
    draws = [m["event"] for m in seen if m["type"] == "event" and m["event"]["type"] == "draw"]
    assert draws and all("tile" not in d for d in draws)
    seat0 = [m["seq"] for m in table.received[0] if m["type"] != "snapshot"]
    assert sorted(set(seat0)) == sorted({m["seq"] for m in seen})


def test_every_seat_sees_the_deadline_of_the_seat_whose_turn_it_is() -> None:
    """Every page counts down the turn of the seat to act, not only its own
    (docs/protocol.md, TableState.turn_deadline): in a turn every listener's view carries the
    current seat's deadline; in a claim window (whose deciders are hidden) and for a seat on
    托管 it is null. The harness checks each message's table against the snapshot's."""
    table = Table("guangdong", 5, {}, hands=1, turn_seconds=7)
    rng = random.Random(3)
    for s in table.humans:
        table.send(s, {"type": "ready"})
    turns = windows = 0
    table.send(2, {"type": "auto", "on": True})
    while table.room.status == "playing" and table.room.state is not None:
        room = table.room
        view = table.trackers[SPECTATORS].view
        assert view is not None
        for k in table.listeners:
            assert table.trackers[k].view is not None
            assert table.trackers[k].view["turn_deadline"] == view["turn_deadline"], k
        if view["phase"] == "turn" and view["current"] != 2:
            pending = room._pending[view["current"]]
            assert view["turn_deadline"] == pending.deadline is not None
            turns += 1
        else:
            assert view["turn_deadline"] is None, view
            windows += view["phase"] != "turn"
        waiting = [s for s in table.humans if s in room._pending and room._pending[s].legal]
        if not waiting:
            table.clock.now += 7000  # nobody to ask: the timer plays the defaults
            table.take(room.on_timer())
            continue
        s = rng.choice(waiting)
        action = rng.choice(room._pending[s].legal).to_json()
        del action["seat"]
        table.send(s, {"type": "action", "action": action})
    assert turns > 10 and windows > 3, (turns, windows)
    seen = table.received[SPECTATORS]
    on = next(
        i for i, m in enumerate(seen) if m["type"] == "event" and m["event"]["type"] == "auto"
    )
    auto = [
        m["table"]["turn_deadline"]
        for m in seen[on:]
        if m["type"] == "event" and m["table"] and m["table"]["phase"] == "turn"
        and m["table"]["current"] == 2
    ]  # fmt: skip
    assert auto and set(auto) == {None}
