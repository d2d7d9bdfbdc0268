"""Game records (majiang-record/1) and results (majiang-result/1): FORMAT.md 2 and 3.

The reader is strict: FORMAT.md decides what a record may hold, and anything else
is a :class:`RecordError` naming where it is (hand, action, seat, field), never
another exception. Replay is linear in the record's size and keeps only the
results it reports, not the hands it played. Limits (documented here and in
``majiang replay --help``): a record file of at most :data:`MAX_RECORD_BYTES`
bytes and at most :data:`MAX_HANDS` hands.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeGuard

from majiang.engine.match import FinishedHand, Match
from majiang.engine.state import ACTION_TYPES, Action, HandState
from majiang.errors import MajiangError, RecordError
from majiang.rules import get_variant
from majiang.tiles import format_tiles, parse_tiles
from majiang.values import ActionType

__all__ = [
    "MAX_HANDS",
    "MAX_RECORD_BYTES",
    "hand_result_json",
    "load",
    "name_problem",
    "parse",
    "record_json",
    "replay",
    "replay_match",
    "replay_steps",
    "result_json",
]

RECORD_FORMAT = "majiang-record/1"
RESULT_FORMAT = "majiang-result/1"

MAX_RECORD_BYTES = 16 * 1024 * 1024
"""Largest record :func:`load` and :func:`parse` read (16 MiB: some 5,000 guangdong hands
as majiang writes them, with full deals)."""
MAX_HANDS = 10_000
"""Most hands one record may list: a hand costs the same to replay however short it is
written (a shuffled, autoplayed hand is a few bytes), so the count is capped too."""

_TOP_FIELDS = {"format", "variant", "options", "seed", "players", "start", "hands"}
_START_FIELDS = {"dealer", "counters"}
_HAND_FIELDS = {"dealer", "deal", "actions", "autoplay"}
_DEAL_FIELDS = {"hands", "draws", "tail", "reserved"}
_ACTION_FIELDS = {"seat", "type", "tile", "tiles"}
# FORMAT.md 2, actions: which of ``tile`` / ``tiles`` each type takes (True: required).
_ACTION_SHAPE: dict[str, dict[str, bool]] = {
    "discard": {"tile": True},
    "chi": {"tiles": True},
    "peng": {"tiles": False},
    "kong": {"tile": True, "tiles": False},
    "hu": {},
    "pass": {},
    "escape": {},
}
_AUTOPLAY = ("tsumogiri",)


# -- reading -----------------------------------------------------------------------------
def load(path: str | Path) -> dict[str, Any]:
    """Read a record file (UTF-8 JSON, at most MAX_RECORD_BYTES); RecordError otherwise."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        raise RecordError(f"cannot read record {str(path)!r}: {err.strerror or err}") from None
    try:
        return parse(data)
    except RecordError as err:
        raise RecordError(f"{str(path)!r}: {err}") from None


def parse(data: str | bytes) -> dict[str, Any]:
    """A record document from JSON text; RecordError for anything that is not one.

    Only the size, the encoding and the JSON are checked here; :func:`replay`
    checks the fields.
    """
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(
            f"the record is larger than {MAX_RECORD_BYTES:,} bytes, the most majiang reads"
        )
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise RecordError(
                f"a record is UTF-8 text; byte {err.start} is not ({err.reason})"
            ) from None
    try:
        doc = json.loads(data, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise RecordError(f"not JSON: {err}") from None
    except RecursionError:
        raise RecordError("JSON nested too deep to be a record") from None
    except ValueError as err:  # an integer of thousands of digits, NaN, Infinity
        raise RecordError(f"not a record: {err}") from None
    if not isinstance(doc, dict):
        raise RecordError(f"a record is a JSON object, got {_kind(doc)}")
    return doc


def _no_constant(name: str) -> Any:
    """NaN and Infinity are not JSON (RFC 8259), so not in a record."""
    raise ValueError(f"{name} is not a JSON number")


def _kind(value: object) -> str:
    """The JSON kind of a value, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, (int, float)):
        return f"{value!r} (a number)"
    if isinstance(value, str):
        return f"{value[:40]!r} (a string)"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def name_problem(name: str) -> str | None:
    """Why ``name`` is not a player name (FORMAT.md 2, players), or None: a name is text
    that UTF-8 can encode (no lone surrogate such as the JSON escape \\ud800) and holds
    no control character, so every record, page and terminal can show and write it."""
    for i, ch in enumerate(name):
        code = ord(ch)
        if 0xD800 <= code <= 0xDFFF:
            return f"a name is Unicode text; character {i + 1} is a lone surrogate (U+{code:04X})"
        if code < 0x20 or 0x7F <= code <= 0x9F:
            return f"a name holds no control character; character {i + 1} is U+{code:04X}"
    return None


def _is_int(value: object) -> TypeGuard[int]:
    """A JSON integer (not a boolean, not a float)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _name(key: object) -> str:
    """A field name for a message: as written when plain, else quoted (one line)."""
    text = str(key)
    return text if text.isidentifier() else repr(text)


def _check_fields(
    obj: Mapping[Any, Any], allowed: set[str], prefix: str = "", **where: Any
) -> None:
    unknown = sorted(str(k) for k in obj if k not in allowed)
    if unknown:
        raise RecordError(
            f"unknown field (FORMAT.md allows {', '.join(sorted(allowed))})",
            field=prefix + _name(unknown[0]),
            **where,
        )


# -- replay --------------------------------------------------------------------------------
def _autoplay(state: HandState) -> None:
    """FORMAT.md 'tsumogiri': discard the drawn tile, pass every claim, never win or kong."""
    while not state.is_terminal():
        if state.phase != "turn":
            state.close_window()
            continue
        seat = state.current
        if state.final_turn:
            state.apply(Action(seat, ActionType.PASS))
            continue
        tile = state.drawn
        if tile is None or not state.concealed[seat][tile]:
            held = [t for t in range(34) if state.concealed[seat][t]]
            tile = max((t for t in held if t != state.wild), default=held[-1])
        state.apply(Action(seat, ActionType.DISCARD, tile))


def _belongs_to_window(state: HandState, action: Action, decided: set[int]) -> bool:
    """FORMAT.md claim windows: a legal claim or pass of an undecided seat of the window
    (a seat with nothing to claim may pass); anything else closes it."""
    if state.phase == "turn" or action.seat in decided:
        return False
    return action in state.legal_actions(action.seat)


def _void_declaration(state: HandState, action: Action, void: set[int]) -> bool:
    """FORMAT.md (hu, instant wins): where the dealer and a non-dealer both declare, the
    dealer's declaration stands whichever is listed first; so a non-dealer's instant-win
    ``hu`` listed after the dealer's instant win ended the hand is void, not an error."""
    result = state.result_
    win = result.win if result is not None else None
    return (
        win is not None
        and win.win_type == "instant"
        and win.winner == state.dealer
        and action.type == "hu"
        and action.seat != state.dealer
        and action.seat not in void
        and action not in state.history
        and state.first_turn
        and state.rules.instant_win(state, action.seat)
    )


def _start_match(record: object) -> Match:
    """Check the record's top-level fields and set up its match."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a record is a JSON object, got {_kind(record)}")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(
            f"must be {RECORD_FORMAT!r}, got {_kind(record.get('format'))}", field="format"
        )
    _check_fields(record, _TOP_FIELDS)
    variant = record.get("variant")
    if not isinstance(variant, str):
        raise RecordError(f"must be a variant id, got {_kind(variant)}", field="variant")
    options = record.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError(f"must be an object, got {_kind(options)}", field="options")
    seed = record.get("seed", 0)
    if not _is_int(seed):
        raise RecordError(f"must be an integer, got {_kind(seed)}", field="seed")
    players = record.get("players")
    if "players" in record and not (
        isinstance(players, list) and len(players) == 4 and all(isinstance(p, str) for p in players)
    ):
        raise RecordError(
            f"must list four names (strings), one per seat, got {_kind(players)}",
            field="players",
        )
    for i, name in enumerate(players or ()):
        problem = name_problem(name)
        if problem is not None:
            raise RecordError(problem, field=f"players[{i}]")
    start = record.get("start", {})
    if not isinstance(start, Mapping):
        raise RecordError(f"must be an object, got {_kind(start)}", field="start")
    _check_fields(start, _START_FIELDS, "start.")
    if "dealer" in start and not (_is_int(start["dealer"]) and 0 <= start["dealer"] <= 3):
        raise RecordError(f"must be a seat 0-3, got {_kind(start['dealer'])}", field="start.dealer")
    if not isinstance(start.get("counters", {}), Mapping):
        raise RecordError(
            f"must be an object, got {_kind(start['counters'])}", field="start.counters"
        )
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands:
        raise RecordError(f"must list at least one hand, got {_kind(hands)}", field="hands")
    if len(hands) > MAX_HANDS:
        raise RecordError(
            f"lists {len(hands):,} hands; majiang replays at most {MAX_HANDS:,} per record",
            field="hands",
        )
    try:
        rules = get_variant(variant)
    except MajiangError as err:
        raise RecordError(str(err), field="variant") from None
    for name, value in options.items():
        if not isinstance(value, (bool, int, str)):
            raise RecordError(
                f"must be true, false, an integer or a text, got {_kind(value)}",
                field=f"options.{_name(name)}",
            )
    try:
        rules.resolve_options(options)
    except MajiangError as err:
        raise RecordError(str(err), field="options") from None
    for name, value in start.get("counters", {}).items():
        if not _is_int(value):
            raise RecordError(
                f"must be an integer, got {_kind(value)}", field=f"start.counters.{_name(name)}"
            )
    try:
        return Match(rules, dict(options), seed, dict(start), players)
    except MajiangError as err:
        raise RecordError(str(err), field="start") from None


def _check_deal(deal: object, index: int) -> Mapping[str, Any]:
    """The hand's deal object, its fields checked by type (FORMAT.md 2, deal)."""
    if not isinstance(deal, Mapping):
        raise RecordError(f"must be an object, got {_kind(deal)}", hand=index, field="deal")
    _check_fields(deal, _DEAL_FIELDS, "deal.", hand=index)
    hands = deal.get("hands", ["", "", "", ""])
    if not isinstance(hands, list) or len(hands) != 4:
        raise RecordError(
            f"must list four hands in seat order, got {_kind(hands)}",
            hand=index,
            field="deal.hands",
        )
    texts = [(f"deal.hands[{i}]", h) for i, h in enumerate(hands)]
    texts += [(f"deal.{k}", deal[k]) for k in ("draws", "tail") if k in deal]
    reserved = deal.get("reserved", {})
    if not isinstance(reserved, Mapping):
        raise RecordError(
            f"must be an object, got {_kind(reserved)}", hand=index, field="deal.reserved"
        )
    texts += [(f"deal.reserved.{_name(k)}", v) for k, v in reserved.items()]
    for name, text in texts:
        if not isinstance(text, str):
            raise RecordError(f"must be tile notation, got {_kind(text)}", hand=index, field=name)
        try:
            parse_tiles(text)
        except MajiangError as err:
            raise RecordError(str(err), hand=index, field=name) from None
    return deal


_TILES_READ: dict[str, tuple[int, ...]] = {}
"""Tile texts already read, by text (a record repeats a few dozen of them)."""


def _tiles_of(text: object, name: str, where: dict[str, Any]) -> tuple[int, ...]:
    """The tiles of an action's ``tile`` or ``tiles``: notation, no flowers."""
    if not isinstance(text, str):
        raise RecordError(f"must be tile notation, got {_kind(text)}", field=name, **where)
    known = _TILES_READ.get(text)
    if known is not None:
        return known
    try:
        tiles = tuple(sorted(int(t) for t in parse_tiles(text)))
    except MajiangError as err:
        raise RecordError(str(err), field=name, **where) from None
    if any(t >= 34 for t in tiles):
        # RULES.md 3.1: flowers are exposed and replaced, never played
        raise RecordError(f"{text!r}: a flower is never discarded or melded", field=name, **where)
    if len(_TILES_READ) < 4096:
        _TILES_READ[text] = tiles
    return tiles


def _read_action(raw: object, index: int, i: int) -> Action:
    """One record action, every field checked (FORMAT.md 2, actions)."""
    if not isinstance(raw, Mapping):
        raise RecordError(f"an action is an object, got {_kind(raw)}", hand=index, action=i)
    seat = raw.get("seat")
    if not (_is_int(seat) and 0 <= seat <= 3):
        raise RecordError(
            f"must be a seat 0-3, got {_kind(seat)}", hand=index, action=i, field="seat"
        )
    where: dict[str, Any] = {"hand": index, "action": i, "seat": seat}
    kind = raw.get("type")
    shape = _ACTION_SHAPE.get(kind) if isinstance(kind, str) else None
    if shape is None or not isinstance(kind, str):
        _check_fields(raw, _ACTION_FIELDS, **where)
        raise RecordError(
            f"must be one of {', '.join(ACTION_TYPES)}, got {_kind(kind)}", field="type", **where
        )
    if len(raw) > 2 + len(shape) or any(k not in shape for k in raw if k not in _SEAT_TYPE):
        _check_fields(raw, _ACTION_FIELDS, **where)
        name = next(k for k in raw if k not in _SEAT_TYPE and k not in shape)
        raise RecordError(f"a {kind} has no {name!r}", field=name, **where)
    tile: int | None = None
    tiles: tuple[int, ...] = ()
    if "tile" in shape:
        if "tile" not in raw:
            raise RecordError(f"a {kind} names its 'tile'", field="tile", **where)
        one = _tiles_of(raw["tile"], "tile", where)
        if len(one) != 1:
            raise RecordError(f"names one tile, got {raw['tile']!r}", field="tile", **where)
        tile = one[0]
    if "tiles" in shape:
        if "tiles" in raw:
            tiles = _tiles_of(raw["tiles"], "tiles", where)
        elif shape["tiles"]:
            raise RecordError(f"a {kind} names its 'tiles'", field="tiles", **where)
    return Action(seat, ActionType(kind), tile, tiles)


_SEAT_TYPE = frozenset({"seat", "type"})


Step = Callable[[HandState, Action | None], None]
"""Called after each change of a hand being replayed: the deal and each window's close
(None), each action applied (the action)."""


def _no_step(state: HandState, action: Action | None) -> None:
    pass


def _replay_hand(match: Match, index: int, hand: object, step: Step = _no_step) -> HandState:
    """Play one hand of the record on ``match`` and book it; the ended state."""
    if not isinstance(hand, Mapping):
        raise RecordError(f"a hand is an object, got {_kind(hand)}", hand=index)
    _check_fields(hand, _HAND_FIELDS, hand=index)
    deal = _check_deal(hand.get("deal", {}), index)
    actions = hand.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"must be a list, got {_kind(actions)}", hand=index, field="actions")
    mode = hand.get("autoplay")
    if "autoplay" in hand and mode not in _AUTOPLAY:
        raise RecordError(
            f"unknown autoplay {_kind(mode)}; FORMAT.md defines only 'tsumogiri'",
            hand=index,
            field="autoplay",
        )
    if match.over:
        raise RecordError("the match ended with an escape in the hand before", hand=index)
    if "dealer" in hand and not (_is_int(hand["dealer"]) and hand["dealer"] == match.dealer):
        raise RecordError(
            f"is {_kind(hand['dealer'])} but the rotation gives seat {match.dealer}",
            hand=index,
            field="dealer",
        )
    try:
        state = match.new_hand(deal)
    except MajiangError as err:
        raise RecordError(str(err), hand=index, field="deal") from None
    step(state, None)
    decided: set[int] = set()  # seats that decided in the open window
    void: set[int] = set()  # declarations listed after the dealer's instant win
    for i, raw in enumerate(actions):
        action = _read_action(raw, index, i)
        try:
            if state.is_terminal():
                if _void_declaration(state, action, void):
                    void.add(action.seat)
                    continue
                raise RecordError("the hand has already ended")
            if (
                state.phase != "turn"
                and action.type != "escape"  # FORMAT.md: it ends the hand at once
                and not _belongs_to_window(state, action, decided)
            ):
                state.close_window()
                decided = set()
                step(state, None)
            in_window = state.phase != "turn"
            state.apply(action)
            step(state, action)
            if in_window and state.phase != "turn":
                decided.add(action.seat)
            else:
                decided = set()
        except MajiangError as err:
            raise RecordError(str(err), hand=index, action=i, seat=action.seat) from None
    ended = state.is_terminal()
    if state.phase != "turn":
        state.close_window()  # FORMAT.md: a seat that could claim and is not listed passes
    if not state.is_terminal() and state.final_turn:
        # FORMAT.md 2 (pass): a record may end on the last drawable tile (RULES.md 3.2);
        # the seat did not declare its self-draw, so the hand is drawn.
        state.apply(Action(state.current, ActionType.PASS))
    if not state.is_terminal():
        if mode is None:
            raise RecordError("the actions end before the hand does (no autoplay)", hand=index)
        _autoplay(state)
    if not ended:
        step(state, None)
    match.finish(state)
    return state


def _play(
    record: object,
    keep: bool,
    each: Callable[[int, FinishedHand], None],
    step: Callable[[int], Step] | None = None,
) -> Match:
    """Replay every hand, calling ``each`` with every finished hand; ``keep`` keeps the
    played hands on the match (for writing the record back), else they are let go.
    ``step(index)`` gives the hand's step callback (see Step)."""
    match = _start_match(record)
    assert isinstance(record, Mapping)
    for index, hand in enumerate(record["hands"]):
        _replay_hand(match, index, hand, step(index) if step is not None else _no_step)
        each(index, match.finished[-1])
        if not keep:
            match.finished.clear()
    return match


def replay_steps(
    record: Mapping[str, Any],
    each: Callable[[int, FinishedHand], None],
    step: Callable[[int], Step],
) -> Match:
    """Replay a record step by step, for a viewer: ``step(index)`` gives hand ``index``'s
    callback, called after its deal, each action and each window's close; ``each`` gets
    every finished hand (let go afterwards). RecordError says where it fails."""
    return _play(record, False, each, step)


def replay_match(record: Mapping[str, Any]) -> Match:
    """Replay every hand of a record, keeping them; RecordError says where it fails."""
    return _play(record, True, lambda i, d: None)


def replay(record: Mapping[str, Any], notes: bool = False) -> dict[str, Any]:
    """Replay a record into its majiang-result/1 document.

    ``notes`` adds each item's explanation and, for a hand a seat left, ``escaped``
    (the seat); ``majiang replay`` shows both, ``--json`` prints the bare format.
    """
    hands: list[dict[str, Any]] = []
    match = _play(record, False, lambda i, d: hands.append(hand_result_json(i, d, notes)))
    return {
        "format": RESULT_FORMAT,
        "variant": match.variant.id,
        "hands": hands,
        "totals": list(match.totals),
    }


# -- writing -------------------------------------------------------------------------------
def hand_result_json(index: int, done: FinishedHand, notes: bool = False) -> dict[str, Any]:
    """One hand of majiang-result/1 (``notes``: item notes and ``escaped``, see replay)."""
    state = done.state
    res = state.result()
    win = res.win
    out = {
        "index": index,
        "dealer": state.dealer,
        "outcome": res.outcome,
        "winner": win.winner if win else None,
        "from": win.source if win else None,
        "win_type": win.win_type if win else None,
        "patterns": list(res.patterns),
        "deltas": res.deltas,
        "items": [
            {**it.to_json(), "note": it.note} if notes and it.note else it.to_json()
            for it in res.items
        ],
        "next": {"dealer": done.next_dealer, "counters": dict(done.next_counters)},
    }
    if notes and res.escaped is not None:
        out["escaped"] = res.escaped
    return out


def result_json(match: Match, notes: bool = False) -> dict[str, Any]:
    """The whole match as majiang-result/1 (``notes`` adds each item's explanation)."""
    return {
        "format": RESULT_FORMAT,
        "variant": match.variant.id,
        "hands": [hand_result_json(i, d, notes) for i, d in enumerate(match.finished)],
        "totals": list(match.totals),
    }


def record_json(match: Match) -> dict[str, Any]:
    """A majiang-record/1 with the full deal of every hand, replaying identically."""
    hands = []
    for done in match.finished:
        st = done.state
        deal = st.deal
        hands.append(
            {
                "dealer": st.dealer,
                "deal": {
                    "hands": [
                        format_tiles(h[:-1]) + " " + format_tiles(h[-1:])
                        if s == st.dealer
                        else format_tiles(h)
                        for s, h in enumerate(deal.hands)
                    ],
                    "draws": " ".join(format_tiles([t]) for t in deal.wall),
                    "tail": "",
                    "reserved": {
                        k: " ".join(format_tiles([t]) for t in v) for k, v in deal.reserved.items()
                    },
                },
                "actions": [a.to_json() for a in st.history],
            }
        )
    return {
        "format": RECORD_FORMAT,
        "variant": match.variant.id,
        "options": dict(match.options),
        "seed": match.seed,
        "players": list(match.players),
        "start": {"dealer": match.start_dealer, "counters": dict(match.start_counters)},
        "hands": hands,
    }
