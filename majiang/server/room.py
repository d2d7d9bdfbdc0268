"""A room of majiang-protocol/1 as a transport-free state machine (server_design.md).

The room's truth is its log of entries (``start``, ``hand_start``, ``action``, ``ready``,
``auto``, ``dissolve``, ``hand_end``, ``match_end``): every change is an entry, applied by
``_apply_entry`` both live and when ``Room.restore`` replays a stored log, so a restored
room has the same state and the same ``seq``. Live calls return an ``Outcome``: the new
entries, which the caller stores BEFORE it delivers the outcome's messages.

Every message a seat receives is built from that seat's ``Observation``
(``state.observation(seat)``); hand events are found by comparing public projections of
observations before and after each engine step, so what is hidden from a seat (other
concealed tiles, the wall, whether another seat may claim) never reaches it. A spectator's
messages are built from the public observation (``HandState.public_observation``). ``seq``
counts public events only: a seat's decision in a window is told to that seat alone, with
the current ``seq``, before the window's resolution (if it resolves) and alike either way.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from majiang.bots import BOTS, Bot, auto_bot, make_bot
from majiang.engine import HandState, Match
from majiang.errors import MajiangError
from majiang.observation import Observation
from majiang.records import hand_result_json, record_json
from majiang.rules import get_variant
from majiang.server.commitment import commitment, new_salt
from majiang.server.models import ActionMsg, AutoMsg, DissolveMsg, ReadyMsg, SnapshotMsg
from majiang.tiles import NOTATION, format_tiles
from majiang.values import JSON, Action, ActionType, MeldKind, OptionValue, Phase, malformed

__all__ = [
    "AUTO_BOT",
    "DISSOLVE_SECONDS",
    "EVERYONE",
    "SPECTATORS",
    "BotAsk",
    "Delivery",
    "EventLike",
    "Finished",
    "Outcome",
    "Pause",
    "Room",
    "RoomConfig",
    "RoomError",
    "SeatLike",
    "deal_json",
]

SPECTATORS = -1
"""A delivery to every spectator connection."""
EVERYONE = -2
"""A delivery to every connection of the room, seats and spectators."""
AUTO_BOT = "greedy"
"""The bot of a seat on 托管 before issue 19; now ``auto_bot(turn_seconds)`` chooses the
strongest that fits the room's turn timer."""
WINDOWS = (Phase.CLAIM, Phase.ROB, Phase.DECLARE)
CLOSED = ("finished", "dissolved")
DISSOLVE_SECONDS = 180
"""How long a dissolve vote (解散) stays open after the seat that asks for it: unless every
seated human has agreed by then, it lapses and the room plays on."""
_HIDDEN_KONG: dict[str, JSON] = {"kind": "kong_concealed", "tiles": "", "source": None, "wilds": 0}


class RoomError(MajiangError):
    """A refused request or message: ``code`` for machines, an HTTP-like ``status``."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class RoomConfig(Protocol):
    """What a room is created with (the store's RoomRow)."""

    @property
    def id(self) -> int: ...
    @property
    def number(self) -> str: ...
    @property
    def variant(self) -> str: ...
    @property
    def options(self) -> Mapping[str, OptionValue]: ...
    @property
    def hands(self) -> int: ...
    @property
    def turn_seconds(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def bot_delay_ms(self) -> tuple[int, int] | None: ...


class SeatLike(Protocol):
    """Who sits at a seat (the store's SeatRow)."""

    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def bot(self) -> str | None: ...
    @property
    def token_hash(self) -> str | None: ...


class EventLike(Protocol):
    """One stored log entry (the store's EventRow)."""

    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def data(self) -> Mapping[str, JSON]: ...


@dataclass(frozen=True, slots=True)
class Delivery:
    """One message for ``to``: a seat 0-3, ``SPECTATORS`` or ``EVERYONE``."""

    to: int
    message: dict[str, JSON]


@dataclass(frozen=True, slots=True)
class Finished:
    """A match that just ended: its record and what ``GET /api/matches`` lists."""

    record: dict[str, JSON]
    names: list[str]
    totals: list[int]


@dataclass(eq=False, slots=True)
class BotAsk:
    """A bot decision the room leaves to its caller (a bot in ``Room.offload``): ``bot``
    (the room's own, not yet asked) chooses among ``legal`` from ``observation``; the
    answer goes back through ``Room.answer``, which takes it only while the room is still
    where it asked (``at``: its ``log_seq`` then)."""

    seat: int
    name: str
    bot: Bot
    observation: Observation
    legal: tuple[Action, ...]
    at: int


@dataclass(eq=False, slots=True)
class Pause:
    """A bot or 托管 decision the room holds back ``ms`` (its bot pace) before making it:
    the caller hands it back to ``Room.wake`` then, which goes on only while the room is
    still where it paused (``at``: its ``log_seq`` then)."""

    seat: int
    at: int
    ms: int


@dataclass(slots=True)
class Outcome:
    """What a live call did: log entries to store first, then messages to deliver."""

    log: list[tuple[int, str, dict[str, JSON]]] = field(default_factory=list)
    deliveries: list[Delivery] = field(default_factory=list)
    status: str | None = None
    """The room's new status for the store (playing, finished, dissolved), if it changed."""
    finished: Finished | None = None
    ask: BotAsk | None = None
    """A bot decision the caller is to have made off the room's call (``Room.offload``)
    and hand back to ``Room.answer``; None when the room waits for no such bot."""
    pause: Pause | None = None
    """A bot or 托管 decision held back for the room's bot pace: the caller wakes the room
    (``Room.wake``) ``pause.ms`` later; None when no new one began."""


@dataclass(slots=True)
class _Seat:
    name: str
    bot: str | None
    token_hash: str | None
    connected: bool = False
    ready: bool = False
    auto: bool = False


@dataclass(slots=True)
class _Pending:
    """A decision the room waits for: the legal actions sent (empty: ready) and the deadline."""

    legal: tuple[Action, ...]
    deadline: int | None
    _json: list[JSON] | None = field(default=None, compare=False, repr=False)

    def legal_json(self) -> list[JSON]:
        """``legal`` as messages carry it, made once (a snapshot may send it again)."""
        if self._json is None:
            self._json = [a.to_json() for a in self.legal]
        return list(self._json)


@dataclass(slots=True)
class _Dissolve:
    """An open dissolve vote: who asked, each human's answer so far, when it lapses."""

    by: int
    deadline: int
    votes: dict[int, bool] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        """``{"by", "votes": [true | false | null] * 4, "deadline"}`` (RoomState.dissolve)."""
        return {
            "by": self.by,
            "votes": [self.votes.get(s) for s in range(4)],
            "deadline": self.deadline,
        }


@dataclass(slots=True)
class _Ev:
    """A public hand event; ``private`` holds a seat's own fuller version (its draw's tile)."""

    public: dict[str, JSON]
    private: dict[int, dict[str, JSON]] = field(default_factory=dict)


class _Out:
    """Collects a call's log entries and messages; a replay keeps neither."""

    def __init__(self, replay: bool = False) -> None:
        self.replay = replay
        self.outcome = Outcome()

    def send(self, to: int, message: dict[str, JSON]) -> None:
        if not self.replay:
            self.outcome.deliveries.append(Delivery(to, message))


def now_ms() -> int:
    """Wall-clock epoch milliseconds (deadlines are epoch ms, PROTOCOL.md 2)."""
    return int(time.time() * 1000)


def _tile(tile: int | None) -> str | None:
    return None if tile is None else NOTATION[tile]


def _plain(value: object) -> JSON:
    """``value`` as plain JSON types (StrEnum members become str), as the store gives back."""
    result: JSON = json.loads(json.dumps(value))
    return result


def deal_json(state: HandState) -> dict[str, JSON]:
    """The hand's FORMAT.md deal object with the full wall order, exactly as
    ``majiang.records.record_json`` writes it: the object the commitment hashes."""
    deal = state.deal
    return {
        "hands": [
            format_tiles(h[:-1]) + " " + format_tiles(h[-1:])
            if s == state.dealer
            else format_tiles(h)
            for s, h in enumerate(deal.hands)
        ],
        "draws": " ".join(format_tiles([t]) for t in deal.wall),
        "tail": "",
        "reserved": {k: " ".join(format_tiles([t]) for t in v) for k, v in deal.reserved.items()},
    }


def _meld_json(obs: Observation, seat: int, index: int, me: int | None) -> dict[str, JSON]:
    """A meld as ``me`` may see it: a concealed kong's tiles only for its owner."""
    view = obs.melds[seat][index]
    if view.kind == MeldKind.KONG_CONCEALED and seat != me:
        return dict(_HIDDEN_KONG)
    return view.to_json()


def _table(obs: Observation) -> dict[str, JSON]:
    """The public scalars of a hand (TableState)."""
    return {
        "live": obs.live,
        "phase": str(obs.phase),
        "current": obs.current,
        "window_tile": _tile(obs.window_tile),
        "window_from": obs.window_from,
        "variant_state": dict(obs.variant_state),
    }


def view_json(obs: Observation, me: int | None) -> dict[str, JSON]:
    """The View of PROTOCOL.md 2 from ``obs``: ``me`` its seat, or None for the public
    projection a spectator gets (no concealed tile of any seat, ``obs.seat``'s included)."""
    j = obs.to_json()
    melds = j["melds"]
    hand_sizes = j["hand_sizes"]
    discards = j["discards"]
    flowers = j["flowers"]
    assert isinstance(melds, list) and isinstance(hand_sizes, list)
    assert isinstance(discards, list) and isinstance(flowers, list)
    seats: list[JSON] = []
    for s in range(4):
        mine = s == me
        seat_melds = melds[s]
        assert isinstance(seat_melds, list)
        seats.append(
            {
                "seat": s,
                "hand": j["hand"] if mine else None,
                "drawn": j["drawn"] if mine else None,
                "hand_size": hand_sizes[s],
                "melds": [
                    _meld_json(obs, s, i, me) if not mine else m for i, m in enumerate(seat_melds)
                ],
                "discards": discards[s],
                "flowers": flowers[s],
            }
        )
    return {
        "seat": me,
        "variant": j["variant"],
        "options": j["options"],
        "dealer": j["dealer"],
        "counters": j["counters"],
        "wild": j["wild"],
        "revealed": j["revealed"],
        "variant_state": j["variant_state"],
        "live": j["live"],
        "phase": j["phase"],
        "current": j["current"],
        "window_tile": j["window_tile"],
        "window_from": j["window_from"],
        "seats": seats,
    }


def _visible(before: Observation, action: Action) -> bool:
    """Is ``action`` public when applied? Turn actions and escapes are; a decision in a claim
    window is not (its resolution is), nor a non-dealer's declined instant win (D56)."""
    if action.type == ActionType.ESCAPE:
        return True
    if before.phase != Phase.TURN:
        return False
    return action.seat == before.current or action.type == ActionType.HU


class Room:
    """Seats, readiness, the match and its driver loop, timers, votes; see the module doc."""

    def __init__(
        self,
        config: RoomConfig,
        seats: Sequence[SeatLike],
        clock: Callable[[], int] = now_ms,
        offload: Collection[str] = (),
    ) -> None:
        self.id = config.id
        self.number = config.number
        self.variant = get_variant(config.variant)
        self.options = self.variant.resolve_options(config.options)
        self.hands = config.hands
        self.turn_seconds = config.turn_seconds
        self.seed = config.seed
        self.bot_delay = config.bot_delay_ms or (0, 0)
        """The bot pace (ms): each bot and 托管 decision is held back a random time in it."""
        self._pace_rng = random.Random()
        self.clock = clock
        self.status = "waiting"
        self.seats: list[_Seat | None] = [None] * 4
        for s in seats:
            self.seats[s.seat] = _Seat(s.name, s.bot, s.token_hash)
        self.log_seq = 0
        """The store ``seq`` of the next log entry."""
        self.seq = 0
        """The room's public event counter (PROTOCOL.md 2)."""
        self.match: Match | None = None
        self.state: HandState | None = None
        self.deal: dict[str, JSON] = {}
        self.salt = ""
        self.commitment = ""
        self._dissolve: _Dissolve | None = None
        self.reason: str | None = None
        self.last_activity = clock()
        self._pending: dict[int, _Pending] = {}
        self._bots: dict[tuple[int, str], Bot] = {}
        self._obs: dict[int | None, Observation] = {}
        self._why: dict[int, list[JSON]] = {}
        self._pub: Observation | None = None
        self.offload = frozenset(offload)
        """Bots whose decisions the room does not make itself: it stops and hands them to
        its caller as ``Outcome.ask`` (the server runs them off its event loop)."""
        self._asking: BotAsk | None = None
        self._pause: Pause | None = None
        self._woken = -1
        """The ``log_seq`` whose held-back decision has waited its pace."""

    # -- building and restoring ----------------------------------------------------------------
    @classmethod
    def restore(
        cls,
        config: RoomConfig,
        seats: Sequence[SeatLike],
        events: Sequence[EventLike],
        clock: Callable[[], int] = now_ms,
        offload: Collection[str] = (),
    ) -> Room:
        """The room as its stored log left it: every entry applied again through the engine,
        ``seq`` recounted; decisions pending get fresh deadlines. ``resume`` goes on."""
        room = cls(config, seats, clock, offload)
        out = _Out(replay=True)
        for ev in events:
            room._apply_entry(ev.kind, json.loads(json.dumps(ev.data)), out)
            room.log_seq = ev.seq + 1
        room._refresh_pending(hand_events=True)
        return room

    def resume(self) -> Outcome:
        """After a restore: let bots and 托管 seats make the decisions that were due."""
        out = _Out()
        self._drive(out)
        return out.outcome

    # -- queries ---------------------------------------------------------------------------------
    def seat_of(self, token_hash: str) -> int | None:
        """The seat holding this token hash, or None."""
        for s, seat in enumerate(self.seats):
            if seat is not None and seat.token_hash is not None and seat.token_hash == token_hash:
                return s
        return None

    def owner_hash(self) -> str | None:
        """The creator's (seat 0's) token hash."""
        seat = self.seats[0]
        return seat.token_hash if seat is not None else None

    def names(self) -> list[str]:
        """Each seat's name ("" for a free seat)."""
        return [seat.name if seat is not None else "" for seat in self.seats]

    def totals(self) -> list[int]:
        """Cumulative points of the finished hands."""
        return list(self.match.totals) if self.match is not None else [0, 0, 0, 0]

    def hand_index(self) -> int:
        """0-based index of the hand in play, or of the next one between hands."""
        return len(self.match.finished) if self.match is not None else 0

    def dissolve_vote(self) -> _Dissolve | None:
        """The dissolve vote open now, if any (one past its deadline has lapsed)."""
        vote = self._dissolve
        if vote is None or self.status in CLOSED or self.clock() >= vote.deadline:
            return None
        return vote

    def _ready(self, s: int) -> bool:
        """Is seat ``s`` ready for the next hand? A bot always; a 托管 seat once it said so
        after the room's pace (at once in an unpaced room); a human once it said so."""
        seat = self.seats[s]
        if seat is None:
            return False
        return seat.bot is not None or seat.ready or (seat.auto and not self.paced())

    def paced(self) -> bool:
        """Are bot and 托管 decisions held back (a bot pace above 0)?"""
        return self.bot_delay[1] > 0

    def paused(self) -> Pause | None:
        """The decision held back now for the bot pace, if the room still waits on it."""
        p = self._pause
        if p is None or p.at != self.log_seq or self.status in CLOSED:
            return None
        return p

    def public_state(self) -> dict[str, JSON]:
        """``GET /api/rooms/{room}``: the public room state (RoomState)."""
        seats: list[JSON] = []
        for s, seat in enumerate(self.seats):
            seats.append(
                {
                    "seat": s,
                    "name": seat.name if seat else None,
                    "bot": seat.bot if seat else None,
                    "connected": bool(seat and seat.connected),
                    "ready": self.state is None and self.status not in CLOSED and self._ready(s),
                    "auto": bool(seat and seat.auto),
                }
            )
        return {
            "room": self.number,
            "variant": self.variant.id,
            "options": dict(self.options),
            "hands": self.hands,
            "turn_seconds": self.turn_seconds,
            "bot_delay_ms": [self.bot_delay[0], self.bot_delay[1]],
            "status": self.status,
            "hand_index": self.hand_index(),
            "totals": _json_ints(self.totals()),
            "seats": seats,
            "dissolve": self._dissolve_json(),
        }

    def _dissolve_json(self) -> dict[str, JSON] | None:
        vote = self.dissolve_vote()
        return vote.to_json() if vote is not None else None

    def record(self) -> dict[str, JSON]:
        """The majiang-record/1 of the finished hands (none before the match starts). While
        the match is in play its ``seed`` is written 0: the real one would give the deals of
        the hands to come (the hands carry full deals, so the record replays all the same)."""
        match = self.match or Match(self.variant, self.options, self.seed, players=self.names())
        rec: dict[str, JSON] = _plain(record_json(match))  # type: ignore[assignment]
        if self.status not in CLOSED:
            rec["seed"] = 0
        return rec

    def expire(self) -> Outcome:
        """Dissolve a room nobody plays in any more (an idle room, an abuse limit)."""
        out = _Out()
        if self.status not in CLOSED:
            self._record(
                "match_end", {"totals": _json_ints(self.totals()), "reason": "dissolved"}, out
            )
        return out.outcome

    def next_deadline(self) -> int | None:
        """The earliest deadline the room waits for (epoch ms), or None."""
        times = [p.deadline for p in self._pending.values() if p.deadline is not None]
        return min(times) if times else None

    def snapshot(self, seat: int | None) -> dict[str, JSON]:
        """A ``snapshot`` for ``seat`` (None: a spectator)."""
        st = self.state
        view = None
        if st is not None and st.result_ is None:
            view = view_json(self._observe(seat), seat)
            view["turn_deadline"] = self._turn_deadline(self._observe(None))
        pending = self._pending.get(seat) if seat is not None else None
        return {
            "type": "snapshot",
            "seq": self.seq,
            "room": self.public_state(),
            "seat": seat,
            "view": view,
            "legal": pending.legal_json() if pending else [],
            "deadline": pending.deadline if pending else None,
            "restrictions": self._restrictions(seat),
        }

    def error(self, code: str, message: str) -> dict[str, JSON]:
        """An ``error`` message (nothing changed)."""
        return {"type": "error", "seq": self.seq, "code": code, "message": message}

    # -- lobby ---------------------------------------------------------------------------------
    def free_seat(self) -> int:
        """The lowest free seat for a joining human; RoomError if full or started."""
        self._check_waiting()
        for s, seat in enumerate(self.seats):
            if seat is None:
                return s
        raise RoomError("room_full", f"room {self.number} is full")

    def _check_waiting(self) -> None:
        if self.status != "waiting":
            raise RoomError("started", f"room {self.number} is {self.status}: seats are fixed")

    def check_bot_seat(self, seat: int, bot: str) -> None:
        """Can a bot named ``bot`` sit at ``seat`` now? RoomError naming why not."""
        if bot not in BOTS:
            raise RoomError("bad_bot", f"unknown bot {bot!r}; bots: {', '.join(BOTS)}", 422)
        self._check_waiting()
        if self.seats[seat] is not None:
            raise RoomError("seat_taken", f"seat {seat} of room {self.number} is taken")

    def check_clear_seat(self, seat: int) -> None:
        """Can ``seat``'s bot be removed now? RoomError naming why not."""
        self._check_waiting()
        taken = self.seats[seat]
        if taken is None or taken.bot is None:
            raise RoomError("not_a_bot", f"seat {seat} of room {self.number} holds no bot")

    def set_seat(self, seat: SeatLike) -> Outcome:
        """Seat a human or a bot (already stored); everyone gets a fresh snapshot."""
        self.seats[seat.seat] = _Seat(seat.name, seat.bot, seat.token_hash)
        return self._lobby_changed()

    def clear_seat(self, seat: int) -> Outcome:
        """Free a bot's seat (already stored)."""
        self.seats[seat] = None
        return self._lobby_changed()

    def set_connected(self, seat: int, on: bool) -> None:
        """A seat's WebSocket opened or closed (shown in the room state)."""
        taken = self.seats[seat]
        if taken is not None:
            taken.connected = on

    def _lobby_changed(self) -> Outcome:
        self.last_activity = self.clock()
        out = _Out()
        self._drive(out)
        self._snapshots(out)
        return out.outcome

    def _snapshots(self, out: _Out) -> None:
        for s, seat in enumerate(self.seats):
            if seat is not None and seat.connected:
                out.send(s, self.snapshot(s))
        out.send(SPECTATORS, self.snapshot(None))

    # -- client messages -----------------------------------------------------------------------
    def handle(
        self, seat: int | None, msg: ReadyMsg | ActionMsg | AutoMsg | SnapshotMsg | DissolveMsg
    ) -> Outcome:
        """A client message from ``seat`` (None: a spectator); RoomError if refused, and
        then nothing changed. ``snapshot`` requests are the caller's (``snapshot``)."""
        if seat is None:
            raise RoomError("spectator", "a spectator may only ask for a snapshot", 403)
        if self.status in CLOSED:
            raise RoomError("closed", f"room {self.number} is {self.status}")
        out = _Out()
        if isinstance(msg, ActionMsg):
            self._human_action(seat, msg, out)
        elif isinstance(msg, ReadyMsg):
            if self.state is not None:
                raise RoomError("in_hand", "a hand is in play: ready is for between hands")
            if self._ready(seat):
                raise RoomError("already", f"seat {seat} is already ready")
            self._record("ready", {"seat": seat}, out)
        elif isinstance(msg, AutoMsg):
            seat_ = self.seats[seat]
            assert seat_ is not None
            if seat_.auto == msg.on:
                raise RoomError("already", f"seat {seat}'s auto is already {msg.on}")
            self._record("auto", {"seat": seat, "on": msg.on}, out)
        elif isinstance(msg, DissolveMsg):
            vote = self.dissolve_vote()
            data: dict[str, JSON] = {"seat": seat, "vote": msg.vote}
            if vote is None:
                if not msg.vote:
                    raise RoomError("already", "no dissolve vote is open: nothing to refuse")
                data["deadline"] = self.clock() + DISSOLVE_SECONDS * 1000  # it opens one
            elif vote.votes.get(seat) is msg.vote:
                raise RoomError("already", f"seat {seat} has already voted {msg.vote}")
            self._record("dissolve", data, out)
        else:
            raise RoomError("bad_message", "a snapshot is sent by the connection")
        self.last_activity = self.clock()
        self._drive(out)
        return out.outcome

    def _human_action(self, seat: int, msg: ActionMsg, out: _Out) -> None:
        st = self.state
        if st is None or st.result_ is not None:
            raise RoomError("no_hand", "no hand is in play")
        data = msg.action.model_dump(exclude_none=True)
        if data.get("seat", seat) != seat:
            raise RoomError("wrong_seat", f"this connection plays seat {seat}, not {data['seat']}")
        data["seat"] = seat
        try:
            action = Action.from_json(data)
        except MajiangError as err:
            raise RoomError("bad_action", str(err), 422) from None
        if action.type == ActionType.ESCAPE:
            bad = malformed(action)
            if bad is not None:
                raise RoomError("bad_action", bad, 422)
        else:
            taken = self.seats[seat]
            if taken is not None and taken.auto:
                raise RoomError("auto_on", f"seat {seat} is on auto (托管): turn it off first")
            pending = self._pending.get(seat)
            if pending is None or action not in pending.legal:
                allowed = ", ".join(str(a) for a in pending.legal) if pending else "none"
                raise RoomError("illegal", f"{action} is not legal now; legal: {allowed}")
        self._record("action", {"hand": self.hand_index(), "action": action.to_json()}, out)

    # -- timers --------------------------------------------------------------------------------
    def on_timer(self) -> Outcome:
        """Play the default of every decision past its deadline (PROTOCOL.md 3.3: pass a
        claim, else discard the tile drawn or the last non-wild tile; ready between hands)
        and put the seat on auto."""
        out = _Out()
        while self.status not in CLOSED:
            now = self.clock()
            due = [s for s, p in sorted(self._pending.items()) if p.deadline and p.deadline <= now]
            if not due:
                break
            s = due[0]
            pending = self._pending.pop(s)
            if self.state is not None and pending.legal:
                default = self._default(s, pending.legal).to_json()
                self._record("action", {"hand": self.hand_index(), "action": default}, out)
            self._record("auto", {"seat": s, "on": True}, out)
            self._drive(out)
        return out.outcome

    def _default(self, s: int, legal: tuple[Action, ...]) -> Action:
        st = self.state
        assert st is not None
        passes = [a for a in legal if a.type == ActionType.PASS]
        if passes and (st.phase != Phase.TURN or s != st.current):
            return passes[0]  # a claim, or an instant win, declined
        discards = [a for a in legal if a.type == ActionType.DISCARD]
        if discards:
            obs = self._observe(s)
            for a in discards:
                if a.tile == obs.drawn:
                    return a
            plain = [a for a in discards if a.tile != obs.wild]
            return (plain or discards)[-1]
        return passes[0] if passes else legal[-1]

    # -- the driver ----------------------------------------------------------------------------
    def _record(self, kind: str, data: dict[str, JSON], out: _Out) -> None:
        """Apply a new entry, then log it (an entry that fails to apply is not logged)."""
        self._apply_entry(kind, data, out)
        out.outcome.log.append((self.log_seq, kind, data))
        self.log_seq += 1

    def _drive(self, out: _Out) -> None:
        """Go on until the room waits for a human: start the match and hands, end hands and
        the match, let bots and 托管 seats decide."""
        while self.status not in CLOSED:
            humans = [s for s, seat in enumerate(self.seats) if seat and seat.bot is None]
            vote = self.dissolve_vote()
            if humans and vote is not None and all(vote.votes.get(s) for s in humans):
                self._record(
                    "match_end", {"totals": _json_ints(self.totals()), "reason": "dissolved"}, out
                )
                break
            st = self.state
            if st is None:
                if not all(self._ready(s) for s in range(4)):
                    auto = self._auto_unready()
                    if auto is None or not self._waited(auto, out):
                        break
                    self._record("ready", {"seat": auto}, out)
                    continue
                if self.status == "waiting":
                    self._record("start", {}, out)
                self._record("hand_start", {"hand": self.hand_index()}, out)
                continue
            if st.result_ is not None:
                self._record("hand_end", {"hand": self.hand_index()}, out)
                assert self.match is not None
                if self.match.over or len(self.match.finished) >= self.hands:
                    reason = "escape" if self.match.over else "hands"
                    totals = _json_ints(self.totals())
                    self._record("match_end", {"totals": totals, "reason": reason}, out)
                continue
            due = self._bot_due()
            if due is None:
                break
            s, name = due
            if not self._waited(s, out):
                break  # held back for the pace: ``wake`` goes on
            obs = self._observe(s)
            if name in self.offload:
                asking = self._asking
                if asking is None or asking.at != self.log_seq or asking.seat != s:
                    legal = tuple(obs.legal)
                    asking = BotAsk(s, name, self._bot(s, name), obs, legal, self.log_seq)
                    self._asking = out.outcome.ask = asking
                break  # the caller has it decided and answers (``answer``)
            action = self._bot(s, name).act(obs, obs.legal)
            self._record("action", {"hand": self.hand_index(), "action": action.to_json()}, out)
        self._refresh_pending(hand_events=False)

    def _auto_unready(self) -> int | None:
        """Between hands: the first 托管 seat not yet ready (it says so after the pace)."""
        for s, seat in enumerate(self.seats):
            if seat is not None and seat.bot is None and seat.auto and not seat.ready:
                return s
        return None

    def _waited(self, s: int, out: _Out) -> bool:
        """Has seat ``s``'s decision due now waited the room's bot pace? If not, it is held
        back: a new ``Pause`` for the caller (one per decision point)."""
        lo, hi = self.bot_delay
        if hi <= 0 or self._woken == self.log_seq:
            return True
        p = self._pause
        if p is None or p.at != self.log_seq or p.seat != s:
            ms = self._pace_rng.randint(lo, hi)
            p = self._pause = out.outcome.pause = Pause(s, self.log_seq, ms)
        return False

    def wake(self, pause: Pause) -> Outcome | None:
        """A held-back decision has waited its pace: make it and go on as ``_drive`` does.
        None, and nothing changed, if the room has moved since (a human's message, a
        timeout, a cancelled 托管, a dissolve): that decision point is gone."""
        if pause is not self.paused():
            return None
        self._pause = None
        self._woken = pause.at
        out = _Out()
        self._drive(out)
        return out.outcome

    def answer(self, ask: BotAsk, action: Action, bot: Bot) -> Outcome | None:
        """Apply an offloaded decision: ``action`` chosen by ``bot`` (the asked bot as it is
        after choosing, its rng moved on), then go on as ``_drive`` does. None, and nothing
        changed, if the room has moved since it asked (a human's message, a timeout, a
        dissolve, a newer ask): that decision point is gone and a new one was asked for."""
        if ask is not self._asking or ask.at != self.log_seq or self.status in CLOSED:
            return None
        if action not in ask.legal:
            raise RoomError("illegal", f"bot {ask.name}: {action} is not legal now", 500)
        self._asking = None
        self._bots[(ask.seat, ask.name)] = bot
        out = _Out()
        self._record("action", {"hand": self.hand_index(), "action": action.to_json()}, out)
        self._drive(out)
        return out.outcome

    def _bot_due(self) -> tuple[int, str] | None:
        """The bot or 托管 seat whose decision is due next, with the bot that plays it, if
        any. Seats declaring an instant win go before the dealer, who waits for any human
        still deciding one (D56)."""
        st = self.state
        assert st is not None
        seats = st.to_act()
        order = seats if st.phase in WINDOWS else seats[::-1]
        for s in order:
            seat = self.seats[s]
            if seat is None or (seat.bot is None and not seat.auto):
                continue
            if st.phase == Phase.TURN and s == st.current and any(self._asks(x) for x in seats[1:]):
                continue
            legal = self._observe(s).legal
            if not legal or (st.phase in WINDOWS and len(legal) == 1):
                continue  # pass only: auto_pass decides it
            return s, seat.bot or auto_bot(self.turn_seconds)
        return None

    def _bot(self, s: int, name: str) -> Bot:
        bot = self._bots.get((s, name))
        if bot is None:
            rng = random.Random(hash((self.seed, self.hand_index(), s)))
            bot = self._bots[(s, name)] = make_bot(name, rng)
        return bot

    def _asks(self, s: int) -> bool:
        """Does the room wait for human ``s`` (not on auto) to decide?"""
        seat = self.seats[s]
        return seat is not None and seat.bot is None and not seat.auto and bool(self._legal(s))

    def _legal(self, s: int) -> tuple[Action, ...]:
        """``s``'s decision now, the legal actions its observation lists; empty when it has
        none or when its only choice is a pass in a window (auto_pass makes it)."""
        st = self.state
        if st is None or st.result_ is not None or s not in st.to_act():
            return ()
        legal = tuple(st.legal_actions(s))  # what observe(s).legal holds, without the rest
        if st.phase in WINDOWS and len(legal) == 1 and legal[0].type == ActionType.PASS:
            return ()
        return legal

    def _refresh_pending(self, hand_events: bool) -> None:
        """The decisions the room waits for; a new one (or any after a hand event) gets a
        fresh deadline, one still open keeps its own."""
        now = self.clock()
        limit = now + self.turn_seconds * 1000 if self.turn_seconds else None
        for s, seat in enumerate(self.seats):
            if seat is None or seat.bot is not None or seat.auto or self.status in CLOSED:
                self._pending.pop(s, None)
                continue
            if self.state is None:
                if self.status == "playing" and not seat.ready:
                    if s not in self._pending:
                        self._pending[s] = _Pending((), limit)
                else:
                    self._pending.pop(s, None)
                continue
            legal = self._legal(s)
            old = self._pending.get(s)
            if not legal:
                self._pending.pop(s, None)
            elif old is None or old.legal != legal or hand_events:
                self._pending[s] = _Pending(legal, limit)

    def _forget(self) -> None:
        """Drop what was worked out of the hand before its last engine step."""
        self._obs.clear()
        self._why.clear()

    def _restrictions(self, s: int | None) -> list[JSON]:
        """The restrictions in force for seat ``s`` now (抓打, 漏胡, 弃碰 …), as messages carry
        them: ``{"id", "detail"}``; none for a spectator or between hands. From the rules'
        ``restrictions_now``, which reads the seat's own tiles and public facts only (the
        two-worlds test of tests/test_server_hidden.py covers them)."""
        st = self.state
        if s is None or st is None or st.result_ is not None:
            return []
        why = self._why.get(s)
        if why is None:
            why = self._why[s] = [
                {"id": ident, "detail": detail} for ident, detail in st.restrictions(s)
            ]
        return list(why)

    def _observe(self, s: int | None) -> Observation:
        """``s``'s observation of the hand now, None the public one (cached until the next
        engine step)."""
        obs = self._obs.get(s)
        if obs is None:
            assert self.state is not None
            st = self.state
            obs = self._obs[s] = st.public_observation() if s is None else st.observation(s)
        return obs

    # -- log entries ---------------------------------------------------------------------------
    def _apply_entry(self, kind: str, data: dict[str, JSON], out: _Out) -> None:
        """Apply one log entry, live or replayed; a live entry's missing parts (the deal, the
        salt, the result) are filled in, a replayed one's are checked."""
        if kind == "ready":
            s = _int(data["seat"])
            seat = self.seats[s]
            assert seat is not None
            seat.ready = True
            self._event({"type": "ready", "seat": s}, out)
        elif kind == "start":
            self.status = "playing"
            self.match = Match(self.variant, self.options, self.seed, players=self.names())
            out.outcome.status = "playing"
        elif kind == "hand_start":
            self._hand_start(data, out)
        elif kind == "action":
            self._play(Action.from_json(data["action"]), out)
        elif kind == "auto":
            s = _int(data["seat"])
            seat = self.seats[s]
            assert seat is not None
            seat.auto = bool(data["on"])
            self._event({"type": "auto", "seat": s, "on": seat.auto}, out)
        elif kind == "dissolve":
            self._dissolve_entry(data, out)
        elif kind == "hand_end":
            self._hand_end(data, out)
        elif kind == "match_end":
            self._match_end(data, out)
        else:
            raise RoomError("bad_log", f"room {self.number}: unknown log entry {kind!r}", 500)

    def _dissolve_entry(self, data: dict[str, JSON], out: _Out) -> None:
        """A seat's dissolve vote: with a ``deadline`` it opens a vote (the seat asks), else
        it answers the open one; one refusal ends the vote (PROTOCOL.md: the room plays on)."""
        s = _int(data["seat"])
        yes = bool(data["vote"])
        vote = self._dissolve
        if "deadline" in data or vote is None:
            # an entry of a log older than the deadlines opens a vote from now
            deadline = data.get("deadline")
            when = deadline if isinstance(deadline, int) else self.clock() + DISSOLVE_SECONDS * 1000
            vote = self._dissolve = _Dissolve(s, when)
        vote.votes[s] = yes
        if not yes:
            self._dissolve = None
        self._event(
            {"type": "dissolve", "seat": s, "vote": yes, "request": self._dissolve_json()}, out
        )

    def _hand_start(self, data: dict[str, JSON], out: _Out) -> None:
        assert self.match is not None
        state = self.match.new_hand()
        deal = deal_json(state)
        if "deal" in data:
            if data["deal"] != deal:
                raise RoomError("bad_log", f"room {self.number}: the stored deal differs", 500)
            self.salt, self.commitment = str(data["salt"]), str(data["commitment"])
        else:
            self.salt = new_salt()
            self.commitment = commitment(deal, self.salt)
            data.update(deal=deal, salt=self.salt, commitment=self.commitment)
        self.state, self.deal = state, deal
        self._forget()
        self._bots.clear()
        self._pending.clear()
        for seat in self.seats:
            if seat is not None:
                seat.ready = False
        self._pub = self._observe(None)
        self.seq += 1
        if out.replay:
            return
        self._refresh_pending(hand_events=True)
        start: dict[str, JSON] = {
            "type": "hand_start",
            "index": self.hand_index(),
            "dealer": state.dealer,
            "commitment": self.commitment,
        }
        table = self._table(self._pub)
        clock = {"turn_deadline": table["turn_deadline"]}
        for s in self._listeners():
            view = {**view_json(self._observe(s), s), **clock}
            out.send(s, self._message({**start, "view": view}, table, s))
        view = {**view_json(self._pub, None), **clock}
        out.send(SPECTATORS, self._message({**start, "view": view}, table, None))

    def _play(self, action: Action, out: _Out) -> None:
        """Apply an action, then let seats whose only choice is pass pass."""
        st = self.state
        before = self._pub
        if st is None or before is None:
            raise RoomError("no_hand", "no hand is in play")
        decisions = dict(st.decisions)
        st.apply(action)  # IllegalActionError: nothing changed
        if before.phase in WINDOWS:
            decisions[action.seat] = action
        self._step(before, action, decisions, out)
        while st.result_ is None and st.phase in WINDOWS:
            before, phase = self._pub, st.phase
            assert before is not None
            decisions = dict(st.decisions)
            st.auto_pass()
            if st.result_ is None and st.phase == phase:
                self._forget()  # the passes made change those seats' legal lists
                break  # someone with a claim decides
            self._step(before, None, decisions, out)

    def _step(
        self,
        before: Observation,
        action: Action | None,
        decisions: Mapping[int, Action],
        out: _Out,
    ) -> None:
        """After one engine step: the public events it made, each seat's messages."""
        self._forget()
        after = self._pub = self._observe(None)
        events = self._hand_events(before, after, action, decisions)
        self.seq += len(events)
        if out.replay:
            return
        self._refresh_pending(hand_events=bool(events))
        table = self._table(after)
        if action is not None and not _visible(before, action) and action.seat in self._listeners():
            # its own hidden decision, told to it alone, first and alike whether or not the
            # window closes with it: whether another seat still decides is hidden (3.1)
            ack: dict[str, JSON] = {
                "type": "event",
                "seq": self.seq - len(events),
                "event": action.to_json(),
                "table": self._table(before),
                "legal": [],
                "deadline": None,
                "restrictions": [],  # what follows says; the echo must not tell (3.1)
            }
            out.send(action.seat, ack)
        if not events:
            return
        first = self.seq - len(events) + 1
        last = len(events) - 1
        for i, ev in enumerate(events):
            for s in self._listeners():
                # the seat's decision comes with the step's last message (after a kong, with
                # the replacement draw): before it the seat has seen only part of the step
                msg = self._message(
                    ev.private.get(s, ev.public), table, s if i == last else None, to=s
                )
                msg["seq"] = first + i
                out.send(s, msg)
            spectator = self._message(ev.public, table, None)
            spectator["seq"] = first + i
            out.send(SPECTATORS, spectator)

    def _hand_events(
        self,
        b: Observation,
        a: Observation,
        action: Action | None,
        decisions: Mapping[int, Action],
    ) -> list[_Ev]:
        """The public events between two public observations (``b`` before, ``a`` after):
        the action if it is public, a claim window's resolution, flowers, a draw."""
        st = self.state
        assert st is not None
        evs: list[_Ev] = []
        if action is not None and _visible(b, action):
            ev = _Ev(action.to_json())
            if action.type == ActionType.KONG:
                s = action.seat
                i = next(
                    i
                    for i, m in enumerate(a.melds[s])
                    if i >= len(b.melds[s]) or m != b.melds[s][i]
                )
                ev.public["meld"] = _meld_json(a, s, i, None)
                if a.melds[s][i].kind == MeldKind.KONG_CONCEALED:
                    own = self._observe(s)
                    ev.private[s] = {**action.to_json(), "meld": _meld_json(own, s, i, s)}
                    ev.public = {"seat": s, "type": "kong", "meld": ev.public["meld"]}
            evs.append(ev)
        elif b.phase in WINDOWS and a.phase != b.phase:
            claimer = next((s for s in range(4) if len(a.melds[s]) > len(b.melds[s])), None)
            win = st.result_.win if st.result_ is not None else None
            if claimer is not None:
                claim = decisions[claimer].to_json()
                claim["from"] = b.window_from
                claim["meld"] = _meld_json(a, claimer, len(a.melds[claimer]) - 1, None)
                evs.append(_Ev(claim))
            elif win is not None and win.winner != b.window_from:
                evs.append(_Ev({"seat": win.winner, "type": "hu"}))
        for s in range(4):
            for f in a.flowers[s][len(b.flowers[s]) :]:
                evs.append(_Ev({"seat": s, "type": "flower", "tile": _tile(f)}))
        if a.live < b.live and a.phase == Phase.TURN and st.result_ is None:
            d = a.current
            drawn = st.drawn  # observe(d).drawn: d's own tile, in the message to d alone
            mine: dict[str, JSON] = {"seat": d, "type": "draw", "tile": _tile(drawn)}
            evs.append(_Ev({"seat": d, "type": "draw"}, {d: mine}))
        return evs

    def _hand_end(self, data: dict[str, JSON], out: _Out) -> None:
        st, match = self.state, self.match
        assert st is not None and match is not None
        done = match.finish(st)
        result = _plain(hand_result_json(len(match.finished) - 1, done))
        if "result" in data:
            if data["result"] != result:
                raise RoomError("bad_log", f"room {self.number}: the stored result differs", 500)
        else:
            data["result"] = result
        revealed: list[JSON] = []
        for s in range(4):
            obs = st.observation(s)
            revealed.append(
                {
                    "seat": s,
                    "hand": format_tiles(obs.hand),
                    "melds": [m.to_json() for m in obs.melds[s]],
                }
            )
        self.state = None
        self._pub = None
        self._forget()
        self._pending.clear()
        self.seq += 1
        if out.replay:
            return
        over = match.over or len(match.finished) >= self.hands
        self._refresh_pending(hand_events=True)
        waits = [p.deadline for p in self._pending.values() if p.deadline is not None]
        out.send(
            EVERYONE,
            {
                "type": "hand_end",
                "seq": self.seq,
                "result": result,
                "revealed": revealed,
                "deal": self.deal,
                "salt": self.salt,
                "commitment": self.commitment,
                "totals": _json_ints(self.totals()),
                "deadline": None if over or not waits else min(waits),
            },
        )

    def _match_end(self, data: dict[str, JSON], out: _Out) -> None:
        reason = str(data["reason"])
        self.status = "dissolved" if reason == "dissolved" else "finished"
        self.reason = reason
        self.state = None
        self._pub = None
        self._pending.clear()
        self.seq += 1
        out.outcome.status = self.status
        totals = self.totals()
        if self.status == "finished" and not out.replay:
            out.outcome.finished = Finished(self.record(), self.names(), totals)
        out.send(
            EVERYONE,
            {
                "type": "match_end",
                "seq": self.seq,
                "totals": _json_ints(totals),
                "reason": reason,
                "record": f"/api/rooms/{self.number}/record",
            },
        )

    def _event(self, event: dict[str, JSON], out: _Out) -> None:
        """A room event outside the hand's play (ready, auto, dissolve) for everyone."""
        self.seq += 1
        if out.replay:
            return
        self._refresh_pending(hand_events=False)
        table = self._table(self._pub) if self._pub is not None and self.state is not None else None
        for s in self._listeners():
            out.send(s, self._message(event, table, s))
        out.send(SPECTATORS, self._message(event, table, None))

    def _message(
        self,
        event: dict[str, JSON],
        table: dict[str, JSON] | None,
        s: int | None,
        to: int | None = -1,
    ) -> dict[str, JSON]:
        """An ``event`` for seat ``to`` (default ``s``; None a spectator) with ``s``'s
        pending decision (None: none yet, the step goes on) and ``to``'s restrictions."""
        pending = self._pending.get(s) if s is not None else None
        return {
            "type": "event",
            "seq": self.seq,
            "event": event,
            "table": table,
            "legal": pending.legal_json() if pending else [],
            "deadline": pending.deadline if pending else None,
            "restrictions": self._restrictions(s if to == -1 else to),
        }

    def _table(self, obs: Observation) -> dict[str, JSON]:
        """The public scalars of the hand (TableState) with the turn's deadline."""
        return {**_table(obs), "turn_deadline": self._turn_deadline(obs)}

    def _turn_deadline(self, obs: Observation) -> int | None:
        """The deadline of the seat whose turn it is: public, as whose turn it is is, so every
        page can count it down; None outside a turn or for a seat with no clock (a bot, 托管,
        no timer). A claim window's deciders are hidden (docs/protocol.md), so none there."""
        if str(obs.phase) != "turn":
            return None
        pending = self._pending.get(obs.current)
        return pending.deadline if pending is not None else None

    def _listeners(self) -> list[int]:
        """Seats with a connection (bots have none)."""
        return [s for s, seat in enumerate(self.seats) if seat is not None and seat.connected]


def _json_ints(values: Sequence[int]) -> list[JSON]:
    """A list of ints typed as JSON."""
    return [v for v in values]


def _int(value: JSON) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RoomError("bad_log", f"a seat is an int, got {value!r}", 500)
    return value
