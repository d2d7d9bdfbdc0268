"""Pydantic models of every HTTP body and answer and every WebSocket message of
majiang-protocol/1 (PROTOCOL.md; the full field list is docs/protocol.md).

Client messages are parsed through them; server messages are built as plain dicts on the hot
path and these models document them (the OpenAPI document carries them) and check them in
tests. Tiles and actions are FORMAT.md notation and objects.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter, field_validator

from majiang.records import name_problem
from majiang.rules import VARIANTS, Variant
from majiang.rules.base import COMMON_NAMES, Limit
from majiang.values import OptionValue

__all__ = [
    "DEFAULT_BOT_DELAY",
    "MAX_BOT_DELAY_MS",
    "MAX_HANDS",
    "MAX_NAME",
    "MAX_TURN_SECONDS",
    "ActionModel",
    "ActionMsg",
    "AutoEvent",
    "AutoMsg",
    "BotName",
    "ClientMessage",
    "CreateRoom",
    "DissolveEvent",
    "DissolveMsg",
    "DissolveVote",
    "ErrorBody",
    "ErrorDetail",
    "ErrorOut",
    "EventOut",
    "HandEndOut",
    "HandEvent",
    "HandStartEvent",
    "JoinRoom",
    "Joined",
    "MatchEndOut",
    "MatchInfo",
    "MeldModel",
    "OptionInfo",
    "PatternInfo",
    "PaymentItem",
    "ReadyEvent",
    "ReadyMsg",
    "Replay",
    "ReplayHand",
    "ReservedInfo",
    "ReservedRequest",
    "ReservedShown",
    "ReservedTile",
    "RestrictionInfo",
    "RestrictionNow",
    "RevealedSeat",
    "RoomCreated",
    "RoomState",
    "SeatState",
    "SeatView",
    "ServerMessage",
    "SetBot",
    "SettledSeat",
    "Settlement",
    "SnapshotMsg",
    "SnapshotOut",
    "TableState",
    "Term",
    "VariantInfo",
    "View",
    "WaitsHint",
    "WaitsRequest",
    "all_variant_infos",
    "bot_delay",
    "client_message",
    "server_message",
    "variant_info",
]

MAX_HANDS = 64
"""The most hands (局数) a room may last."""
MAX_TURN_SECONDS = 600
"""The longest decision time a room may set."""
MAX_NAME = 32
"""The longest player name, in characters."""
MAX_BOT_DELAY_MS = 10_000
"""The longest a bot or 托管 decision may be held back (``bot_delay_ms``)."""
DEFAULT_BOT_DELAY = (800, 1500)
"""The bot pace of a room that names none (``majiang serve --bot-delay-ms``): each bot and
托管 decision waits a random time in this range (ms), so play reads like people's."""


def bot_delay(value: object) -> tuple[int, int]:
    """A bot pace as ``[min, max]`` ms from ``N`` or ``[min, max]`` (two ints, 0 <= min <=
    max <= ``MAX_BOT_DELAY_MS``); ValueError saying what is wrong."""
    if isinstance(value, int) and not isinstance(value, bool):
        pair: list[object] = [value, value]
    elif isinstance(value, list | tuple):
        pair = list(value)
    else:
        raise ValueError(f"a number of ms or [min, max], got {value!r}")
    if len(pair) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in pair):
        raise ValueError(f"two whole numbers of ms [min, max], got {value!r}")
    lo, hi = pair
    assert isinstance(lo, int) and isinstance(hi, int)
    if not 0 <= lo <= hi <= MAX_BOT_DELAY_MS:
        raise ValueError(f"0 <= min <= max <= {MAX_BOT_DELAY_MS} ms, got [{lo}, {hi}]")
    return lo, hi


TURN_DEADLINE = (
    "the deadline (epoch ms) of the seat whose turn it is, for every page to count down: "
    "null outside a turn or for a seat with no clock (a bot, 托管, no timer)"
)
"""What ``turn_deadline`` is, in the View and in TableState alike."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- HTTP --------------------------------------------------------------------------------------
class ErrorDetail(_Strict):
    """Why a request or message was refused: a short code and a sentence naming the bad part."""

    code: str = Field(description="machine-readable reason, e.g. `bad_option`, `room_full`")
    message: str = Field(description="what is wrong, naming the field or value")


class ErrorBody(_Strict):
    """Every HTTP error answer: `{"error": {"code", "message"}}` with a 4xx status."""

    error: ErrorDetail


class OptionInfo(_Strict):
    """One room option as the variant declares it (what `majiang rules VARIANT` lists)."""

    id: str = Field(description="the option's name, as `options` in a room takes it")
    kind: Literal["bool", "int", "choice"]
    default: OptionValue
    choices: list[OptionValue] | None = Field(None, description="the allowed values of a choice")
    min: int | None = Field(None, description="the smallest allowed integer")
    max: int | None = Field(None, description="the largest allowed integer")
    zh: str = Field(description="the Chinese name")
    en: str = Field(description="the English name")
    doc: str = Field(description="what it does, in one line (English)")
    doc_zh: str = Field("", description="`doc` in Chinese")
    choice_names: list[Term] | None = Field(
        None, description="a choice's name of each of `choices`, in their order"
    )


class Term(_Strict):
    """A name in both languages."""

    zh: str
    en: str


class PatternInfo(_Strict):
    """A pattern the variant scores, with its names and its value in the variant's terms."""

    id: str
    zh: str
    en: str
    value: str = Field(description="what it is worth in English, e.g. `big hand: M = 2`")
    value_zh: str = Field("", description="`value` in Chinese, e.g. `大胡：倍数 2`")


class RestrictionInfo(_Strict):
    """A rule that takes choices away from a player (抓打, 漏胡 …), in words."""

    id: str
    zh: str
    en: str
    rule: str = Field(description="the rule in plain English words")
    rule_zh: str = Field("", description="`rule` in Chinese")
    now: Term | None = Field(
        None, description="what it means for the seat while in force; `{}` takes the detail"
    )
    limits: list[Limit] = Field(
        default_factory=list,
        description="what it takes from the seat while in force: its discards, wins, claims"
        " of discards, kongs in its turn ([] for a rule that limits no choice)",
    )


class ReservedInfo(_Strict):
    """A purpose tiles are set aside for at the deal (horses, birds, a wild indicator)."""

    id: str
    zh: str
    en: str
    shown: Literal["deal", "win"] = Field(description="public from the deal, or once won")


class VariantInfo(_Strict):
    """A variant of the registry with its option declarations, and what a front end names
    and explains from them (the browser client's rules panel and settlement)."""

    id: str
    name: str
    zh: str
    options: list[OptionInfo]
    summary: Term | None = Field(None, description="the defining restrictions in one line")
    restrictions: list[RestrictionInfo] | None = None
    patterns: list[PatternInfo] | None = Field(None, description="in RULES.md order")
    terms: dict[str, Term] | None = Field(
        None, description="names of payment kinds and reasons, win types, counters … by id"
    )
    reserved: list[ReservedInfo] | None = None
    readings: list[str] | None = Field(
        None, description="how this project reads the rules where they leave a choice (English)"
    )
    readings_zh: list[str] | None = Field(None, description="`readings` in Chinese, one for one")


def _terms(variant: Variant) -> dict[str, Term]:
    names = {**COMMON_NAMES, **variant.names}
    out = {k: Term(zh=zh, en=en) for k, (zh, en) in names.items()}
    out.update({r.id: Term(zh=r.zh, en=r.en) for r in variant.reserved})
    return out


def variant_info(variant: Variant) -> VariantInfo:
    """The `GET /api/variants` entry of one variant, from its declarations."""
    return VariantInfo(
        id=variant.id,
        name=variant.name,
        zh=variant.zh,
        summary=Term(zh=variant.summary[0], en=variant.summary[1]),
        restrictions=[
            RestrictionInfo(
                id=r.id,
                zh=r.zh,
                en=r.en,
                rule=r.rule,
                rule_zh=r.rule_zh,
                now=Term(zh=r.now_zh, en=r.now) if r.now else None,
                limits=list(r.limits),
            )
            for r in variant.restrictions
        ],
        patterns=[
            PatternInfo(
                id=p,
                zh=zh,
                en=en,
                value=variant.pattern_values.get(p, ""),
                value_zh=variant.pattern_values_zh.get(p, ""),
            )
            for p, (zh, en) in variant.patterns.items()
        ],
        terms=_terms(variant),
        reserved=[
            ReservedInfo(id=r.id, zh=r.zh, en=r.en, shown=r.shown)  # type: ignore[arg-type]
            for r in variant.reserved
        ],
        readings=list(variant.readings),
        readings_zh=list(variant.readings_zh),
        options=[
            OptionInfo(
                id=o.name,
                kind=o.kind,  # type: ignore[arg-type]  # validate_variant checked it
                default=o.default,
                choices=list(o.choices) if o.kind == "choice" else None,
                min=o.minimum if o.kind == "int" else None,
                max=None,
                zh=o.zh,
                en=o.en,
                doc=o.doc,
                doc_zh=o.doc_zh,
                choice_names=[Term(zh=zh, en=en) for zh, en in o.choice_names]
                if o.kind == "choice"
                else None,
            )
            for o in variant.options
        ],
    )


def _check_name(cls: type[BaseModel], value: object) -> object:
    """A player name is text every page, terminal and record can hold (FORMAT.md 2,
    players): no lone surrogate, no control character (before pydantic's own str check,
    whose words for a surrogate say less)."""
    problem = name_problem(value) if isinstance(value, str) else None
    if problem is not None:
        raise ValueError(problem)
    return value


class CreateRoom(_Strict):
    """`POST /api/rooms`: the creator takes seat 0."""

    variant: str = Field(description="a variant id of `GET /api/variants`")
    options: dict[str, OptionValue] = Field(
        default_factory=dict, description="room options; those left out take their defaults"
    )
    hands: int = Field(8, ge=1, le=MAX_HANDS, description="局数: how many hands the match lasts")
    name: str = Field("Player", min_length=1, max_length=MAX_NAME, description="the creator")
    bots: dict[str, str] = Field(
        default_factory=dict, description='seats "1"-"3" to fill with a bot, by bot name'
    )
    turn_seconds: int = Field(
        15, ge=0, le=MAX_TURN_SECONDS, description="time per decision; 0 = no limit"
    )
    bot_delay_ms: int | list[int] | None = Field(
        None,
        description="bot pace: each bot and 托管 decision waits a random time in [min, max] "
        f"ms (N means [N, N]; 0 <= min <= max <= {MAX_BOT_DELAY_MS}); default the server's "
        "(`majiang serve --bot-delay-ms`, normally [800, 1500])",
    )

    @field_validator("bot_delay_ms", mode="before")
    @classmethod
    def _pace(cls, value: object) -> object:
        return None if value is None else list(bot_delay(value))

    _name = field_validator("name", mode="before")(_check_name)


class RoomCreated(_Strict):
    """The new room's number, the creator's seat (0) and its secret token."""

    room: str = Field(description="6-digit room number")
    seat: int
    token: str = Field(description="bearer secret for this seat of this room")


class JoinRoom(_Strict):
    """`POST /api/rooms/{room}/join`."""

    name: str = Field("Player", min_length=1, max_length=MAX_NAME)

    _name = field_validator("name", mode="before")(_check_name)


class Joined(_Strict):
    """The seat taken (the lowest free one) and its token."""

    seat: int
    token: str


class SetBot(_Strict):
    """`PUT /api/rooms/{room}/seats/{seat}`: seat a bot (owner only, before the start)."""

    bot: str = Field(description="a bot name, e.g. `greedy` or `random`")


class SeatState(_Strict):
    """One seat of the public room state; a free seat has `name` null."""

    seat: int
    name: str | None
    bot: str | None = Field(description="the bot's name, or null for a human or a free seat")
    connected: bool = Field(description="a human's WebSocket is open")
    ready: bool = Field(
        description="ready for the next hand (bots always are; a 托管 seat after the room's "
        "bot pace)"
    )
    auto: bool = Field(description="托管: the server's bot plays for this human")


class DissolveVote(_Strict):
    """An open dissolve vote (解散): who asked, every seat's answer so far, when it lapses."""

    by: int = Field(description="the seat that asked")
    votes: list[bool | None] = Field(
        description="by seat: true agreed, false refused, null not answered (bots never vote)"
    )
    deadline: int = Field(
        description="epoch ms when the vote lapses unless every seated human has agreed"
    )


class RoomState(_Strict):
    """`GET /api/rooms/{room}`: the public room state."""

    room: str
    variant: str
    options: dict[str, OptionValue] = Field(description="every option, resolved")
    hands: int
    turn_seconds: int
    bot_delay_ms: list[int] = Field(
        description="the room's bot pace [min, max] ms: how long each bot and 托管 decision "
        "waits (a random time in the range)"
    )
    status: Literal["waiting", "playing", "finished", "dissolved"]
    hand_index: int = Field(
        description="0-based index of the hand in play, or of the next hand between hands"
    )
    totals: list[int]
    seats: list[SeatState]
    dissolve: DissolveVote | None = Field(description="the dissolve vote open now, if any")


class BotName(_Strict):
    """One bot of `GET /api/bots/names`: its id (what a room names) and display names."""

    id: str = Field(description="the bot's id, as `bots` and `PUT .../seats/{seat}` take it")
    zh: str = Field(description="its display name in Chinese, e.g. 普通")
    en: str = Field(description="its display name in English, e.g. normal")


class MatchInfo(_Strict):
    """One finished match of `GET /api/matches`."""

    room: str
    variant: str
    finished_at: datetime
    names: list[str]
    totals: list[int]
    bots: list[str | None]
    """Each seat's bot id (None for a person), so a page names bot seats by level."""


class WaitsRequest(_Strict):
    """`POST /api/waits`: a seat's concealed tiles, for 听牌提示."""

    variant: str = Field(description="a variant id: its winning shapes apply")
    hand: str = Field(
        max_length=64,
        description="the concealed tiles (3n+2: which discards leave it ready; 3n+1: its waits)",
    )
    melds: int = Field(0, ge=0, le=4, description="how many melds the seat has declared")
    wild: str | None = Field(None, max_length=4, description="the hand's wild kind, if any")


class ReservedRequest(_Strict):
    """`POST /api/reserved`: how many tiles a hand under these options and counters sets
    aside (horses, birds …), for the table's count."""

    variant: str
    options: dict[str, OptionValue] = Field(default_factory=dict)
    counters: dict[str, int] = Field(default_factory=dict)


class WaitsHint(_Strict):
    """A discard that leaves the hand ready (null: the hand as sent), and its waits."""

    discard: str | None
    waits: list[str]


class SettledSeat(_Strict):
    """A seat's tiles at the end of a hand (the winner's without the winning tile)."""

    seat: int
    concealed: str
    melds: list[MeldModel]
    flowers: list[str]


class ReservedTile(_Strict):
    """A reserved tile with what it means (a horse's seat, a bird's hit), both languages."""

    tile: str
    zh: str
    en: str


class ReservedShown(_Strict):
    """The reserved tiles of one purpose, as the hand's settlement shows them."""

    purpose: str
    tiles: list[ReservedTile]


class PaymentItem(_Strict):
    """One payment: `from` pays `to` `points` for `kind` (reason `reason`, arithmetic `note`)."""

    kind: str = Field(description="the item kind of RULES.md 0.8 (`hu`, `kong`, `horse` …)")
    reason: str = Field(description="an id the variant names: a win type, a kong kind …")
    from_: int = Field(alias="from")
    to: int
    points: int
    note: str = Field(description="the arithmetic behind `points`, for a person to check")
    notes: Term | None = Field(
        None,
        description="`note` for a player in each language; `{S0}`-`{S3}` mark seats and "
        "`{5m}` tiles, which the client names",
    )


class Settlement(_Strict):
    """A finished hand explained (`GET /api/rooms/{room}/settlements`)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    index: int
    dealer: int
    counters: dict[str, int]
    wild: str | None
    outcome: Literal["win", "draw"]
    winner: int | None
    from_: int | None = Field(alias="from")
    win_type: str | None
    tile: str | None = Field(description="the winning tile")
    escaped: int | None
    patterns: list[str]
    hands: list[SettledSeat]
    reserved: list[ReservedShown]
    items: list[PaymentItem]
    deltas: list[int]
    totals: list[int] = Field(description="the running totals after this hand")
    next: dict[str, JsonValue]


class ReplayHand(_Strict):
    """One hand of a replay: how it started, a frame per step, its settlement."""

    index: int
    dealer: int
    counters: dict[str, int]
    wild: str | None
    revealed: dict[str, str]
    frames: list[dict[str, JsonValue]] = Field(
        description="the table after the deal, each action and each window's close, every "
        "seat's tiles face up (docs/web.md)"
    )
    settlement: Settlement


class Replay(_Strict):
    """`GET /api/rooms/{room}/replay`, `POST /api/replay`: a match to step through."""

    variant: str
    options: dict[str, OptionValue]
    players: list[str] | None
    hands: list[ReplayHand]
    totals: list[int]


# -- FORMAT.md objects -------------------------------------------------------------------------
class ActionModel(_Strict):
    """A FORMAT.md action object; in a client's `action` message `seat` may be left out."""

    seat: int | None = Field(None, ge=0, le=3)
    type: Literal["hu", "kong", "peng", "chi", "discard", "pass", "escape"]
    tile: str | None = None
    tiles: str | None = None


class MeldModel(_Strict):
    """A declared meld as the viewer sees it (another seat's concealed kong has tiles "")."""

    kind: Literal["chi", "peng", "kong_direct", "kong_added", "kong_concealed"]
    tiles: str
    source: int | None
    wilds: int


# -- WebSocket: client -> server ----------------------------------------------------------------
class ReadyMsg(_Strict):
    """Ready for the next hand."""

    type: Literal["ready"]


class ActionMsg(_Strict):
    """A decision: one of the `legal` actions last sent to this seat (or an escape)."""

    type: Literal["action"]
    action: ActionModel


class AutoMsg(_Strict):
    """托管 on or off."""

    type: Literal["auto"]
    on: bool


class SnapshotMsg(_Strict):
    """Ask for a `snapshot` now."""

    type: Literal["snapshot"]


class DissolveMsg(_Strict):
    """Vote to dissolve the room (解散), or withdraw the vote."""

    type: Literal["dissolve"]
    vote: bool = True


ClientMessage = Annotated[
    ReadyMsg | ActionMsg | AutoMsg | SnapshotMsg | DissolveMsg, Field(discriminator="type")
]
client_message: TypeAdapter[ReadyMsg | ActionMsg | AutoMsg | SnapshotMsg | DissolveMsg] = (
    TypeAdapter(ClientMessage)
)
"""Parses one client message (a JSON text) into its model."""


# -- WebSocket: server -> client ----------------------------------------------------------------
class SeatView(_Strict):
    """One seat of a view: concealed tiles only in the viewer's own seat object."""

    seat: int
    hand: str | None = Field(description="the viewer's own concealed tiles; null for others")
    drawn: str | None = Field(description="the viewer's tile just drawn; null otherwise")
    hand_size: int = Field(description="how many concealed tiles the seat holds")
    melds: list[MeldModel]
    discards: list[str] = Field(description="the seat's river, oldest first")
    flowers: list[str]


class View(_Strict):
    """A connection's view of the hand in play, built from its seat's observation
    (docs/observation.md); a spectator's holds no concealed tile."""

    seat: int | None = Field(description="the viewer's seat, null for a spectator")
    variant: str
    options: dict[str, OptionValue]
    dealer: int
    counters: dict[str, int]
    wild: str | None
    revealed: dict[str, str]
    variant_state: dict[str, JsonValue]
    live: int
    phase: Literal["turn", "claim", "rob", "declare", "end"]
    current: int
    window_tile: str | None
    window_from: int | None
    seats: list[SeatView]
    turn_deadline: int | None = Field(None, description=TURN_DEADLINE)


class TableState(_Strict):
    """The public scalars of the hand after an event (what a client copies into its view)."""

    live: int
    phase: Literal["turn", "claim", "rob", "declare", "end"]
    current: int
    window_tile: str | None
    window_from: int | None
    variant_state: dict[str, JsonValue]
    turn_deadline: int | None = Field(None, description=TURN_DEADLINE)


class HandEvent(_Strict):
    """An event of the hand in play, in FORMAT.md's vocabulary: a seat's action as applied
    (`discard`, `chi`, `peng`, `kong`, `hu`, `pass`, `escape`), a `draw` or a `flower`."""

    seat: int
    type: Literal["discard", "chi", "peng", "kong", "hu", "pass", "escape", "draw", "flower"]
    tile: str | None = Field(
        None,
        description="the tile; a draw's only for the drawer, a concealed kong's only for its owner",
    )
    tiles: str | None = Field(None, description="tiles taken from the hand (wilds standing in)")
    from_: int | None = Field(
        None, alias="from", description="a claim's discarder (chi, peng, kong of a discard)"
    )
    meld: MeldModel | None = Field(None, description="the meld a claim or kong made")
    back: bool | None = Field(None, description="a draw: from the back of the wall (kong, flower)")


class HandStartEvent(_Strict):
    """A hand starts: its index, dealer, the deal's commitment and the viewer's first view."""

    type: Literal["hand_start"]
    index: int
    dealer: int
    commitment: str = Field(description="sha256 hex of salt + canonical JSON of the deal")
    view: View


class ReadyEvent(_Strict):
    """A seat is ready for the next hand."""

    type: Literal["ready"]
    seat: int


class AutoEvent(_Strict):
    """A seat's 托管 switched (on after a timeout, or by its own message)."""

    type: Literal["auto"]
    seat: int
    on: bool


class DissolveEvent(_Strict):
    """A seat's dissolve vote."""

    type: Literal["dissolve"]
    seat: int
    vote: bool
    request: DissolveVote | None = Field(
        description="the vote after this answer; null when it is over (no yes left in it)"
    )


class RestrictionNow(_Strict):
    """A restriction in force for the seat now: a restriction id of its variant's
    declarations (`GET /api/variants`) and the detail its `now` sentence takes."""

    id: str
    detail: str = Field(description="tiles (FORMAT.md notation), seats (`S2`, `S1 S3`) or ''")


class SnapshotOut(_Strict):
    """Everything a connection needs to go on: sent on connect, on request, on seat changes."""

    type: Literal["snapshot"]
    seq: int
    room: RoomState
    seat: int | None
    view: View | None = Field(description="null between hands")
    legal: list[ActionModel]
    deadline: int | None = Field(description="epoch ms by which this seat must decide")
    restrictions: list[RestrictionNow] = Field(
        description="the restrictions in force for this seat now ([] for a spectator)"
    )


class EventOut(_Strict):
    """One room event; `legal`/`deadline` are this seat's pending decision after it."""

    type: Literal["event"]
    seq: int
    event: HandEvent | HandStartEvent | ReadyEvent | AutoEvent | DissolveEvent
    table: TableState | None = Field(description="after an event of the hand in play")
    legal: list[ActionModel]
    deadline: int | None
    restrictions: list[RestrictionNow] = Field(
        description="the restrictions in force for this seat after it ([] for a spectator)"
    )


class RevealedSeat(_Strict):
    """A seat's concealed tiles and melds (its concealed kongs' tiles too) at the hand's end."""

    seat: int
    hand: str
    melds: list[MeldModel]


class HandEndOut(_Strict):
    """The hand's result (a majiang-result/1 hand), every seat's tiles, the deal and salt."""

    type: Literal["hand_end"]
    seq: int
    result: dict[str, JsonValue]
    revealed: list[RevealedSeat]
    deal: dict[str, JsonValue]
    salt: str
    commitment: str
    totals: list[int]
    deadline: int | None = Field(description="by when the humans must be ready again")


class MatchEndOut(_Strict):
    """The match is over."""

    type: Literal["match_end"]
    seq: int
    totals: list[int]
    reason: Literal["hands", "escape", "dissolved"]
    record: str = Field(description="the path of the match record")


class ErrorOut(_Strict):
    """A client message was refused; nothing changed."""

    type: Literal["error"]
    seq: int
    code: str
    message: str


ServerMessage = Annotated[
    SnapshotOut | EventOut | HandEndOut | MatchEndOut | ErrorOut, Field(discriminator="type")
]
server_message: TypeAdapter[SnapshotOut | EventOut | HandEndOut | MatchEndOut | ErrorOut] = (
    TypeAdapter(ServerMessage)
)
"""Checks one server message (tests and clients)."""


def all_variant_infos() -> list[VariantInfo]:
    """`GET /api/variants`: every registered variant."""
    return [variant_info(v) for v in VARIANTS.values()]
