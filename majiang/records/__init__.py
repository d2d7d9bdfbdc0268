"""Game records (majiang-record/1) and results (majiang-result/1): FORMAT.md 2 and 3."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from majiang.engine.match import FinishedHand, Match
from majiang.engine.state import Action, HandState
from majiang.errors import MajiangError, RecordError
from majiang.tiles import format_tiles

__all__ = ["hand_result_json", "load", "record_json", "replay", "replay_match", "result_json"]

RECORD_FORMAT = "majiang-record/1"
RESULT_FORMAT = "majiang-result/1"
_TOP_FIELDS = {"format", "variant", "options", "seed", "players", "start", "hands"}


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file; RecordError if it is not JSON."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise RecordError(f"cannot read record {str(path)!r}: {err}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    return data


def _autoplay(state: HandState) -> None:
    """FORMAT.md 'tsumogiri': discard the drawn tile, pass every claim, never win or kong."""
    while not state.is_terminal():
        if state.phase != "turn":
            state.close_window()
            continue
        seat = state.current
        if state.final_turn:
            state.apply(Action(seat, "pass"))
            continue
        tile = state.drawn
        if tile is None or not state.concealed[seat][tile]:
            held = [t for t in range(34) if state.concealed[seat][t]]
            tile = max((t for t in held if t != state.wild), default=held[-1])
        state.apply(Action(seat, "discard", tile))


def _belongs_to_window(state: HandState, action: Action, decided: set[int]) -> bool:
    if state.phase == "turn" or action.seat in decided or action.seat == state.window_from:
        return False
    if action.type == "pass":
        return True
    return action in state.window_options.get(action.seat, [])


def replay_match(record: Mapping[str, Any]) -> Match:
    """Replay every hand of a record; RecordError names hand, action, seat and reason."""
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"format must be {RECORD_FORMAT!r}, got {record.get('format')!r}")
    unknown = set(record) - _TOP_FIELDS
    if unknown:
        raise RecordError(f"unknown record fields: {', '.join(sorted(unknown))}")
    seed = record.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"seed must be an integer, got {seed!r}")
    hands = record.get("hands")
    if not isinstance(hands, list) or not hands:
        raise RecordError("a record lists at least one hand")
    try:
        match = Match(
            str(record.get("variant")),
            record.get("options") or {},
            seed,
            record.get("start") or {},
            record.get("players"),
        )
    except MajiangError as err:
        raise RecordError(str(err)) from None
    for index, hand in enumerate(hands):
        _replay_hand(match, index, hand)
    return match


_HAND_FIELDS = {"dealer", "deal", "actions", "autoplay"}
_DEAL_FIELDS = {"hands", "draws", "tail", "reserved"}


def _replay_hand(match: Match, index: int, hand: Mapping[str, Any]) -> None:
    where = f"hand {index}"
    if not isinstance(hand, Mapping):
        raise RecordError(f"{where}: a hand is an object")
    unknown = set(hand) - _HAND_FIELDS
    deal = hand.get("deal") or {}
    if isinstance(deal, Mapping):
        unknown |= {f"deal.{k}" for k in set(deal) - _DEAL_FIELDS}
    else:
        raise RecordError(f"{where}: deal must be an object")
    if unknown:
        raise RecordError(f"{where}: unknown fields: {', '.join(sorted(unknown))}")
    if match.over:
        raise RecordError(f"{where}: the match ended with an escape in the hand before")
    if "dealer" in hand and hand["dealer"] != match.dealer:
        raise RecordError(
            f"{where}: dealer is {hand['dealer']!r} but the rotation gives seat {match.dealer}"
        )
    try:
        state = match.new_hand(hand.get("deal") or {})
    except MajiangError as err:
        raise RecordError(f"{where}: {err}") from None
    actions = hand.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"{where}: actions must be a list")
    decided: set[int] = set()  # seats that decided in the open window
    for i, raw in enumerate(actions):
        seat = raw.get("seat") if isinstance(raw, Mapping) else None
        try:
            action = Action.from_json(raw)
            if state.is_terminal():
                raise RecordError("the hand has already ended")
            if state.phase != "turn" and not _belongs_to_window(state, action, decided):
                state.close_window()
                decided = set()
            in_window = state.phase != "turn"
            state.apply(action)
            if in_window and state.phase != "turn":
                decided.add(action.seat)
            else:
                decided = set()
        except MajiangError as err:
            raise RecordError(f"{where}, action {i}, seat {seat}: {err}") from None
    if state.phase != "turn":
        state.close_window()  # FORMAT.md: a seat that could claim and is not listed passes
    if not state.is_terminal():
        mode = hand.get("autoplay")
        if mode == "tsumogiri":
            _autoplay(state)
        elif mode is None:
            raise RecordError(f"{where}: the actions end before the hand does (no autoplay)")
        else:
            raise RecordError(f"{where}: unknown autoplay {mode!r}; only 'tsumogiri'")
    match.finish(state)


def replay(record: Mapping[str, Any], notes: bool = False) -> dict[str, Any]:
    """Replay a record into its majiang-result/1 document."""
    return result_json(replay_match(record), notes)


def hand_result_json(index: int, done: FinishedHand, notes: bool = False) -> dict[str, Any]:
    """One hand of majiang-result/1."""
    state = done.state
    res = state.result()
    win = res.win
    return {
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
