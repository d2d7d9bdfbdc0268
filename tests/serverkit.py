"""Helpers for the server tests: a client-side view tracker that follows PROTOCOL.md events
(what any client must be able to do from the messages alone), and a hidden-tile scanner."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from majiang.tiles import format_tiles, parse_tiles

__all__ = ["Tracker", "concealed_fields", "keys"]


def _remove(hand: str, tiles: list[int]) -> str:
    held = list(parse_tiles(hand))
    for t in tiles:
        held.remove(t)
    return format_tiles(held)


class Tracker:
    """One connection's view, kept up to date from `hand_start` and `event` messages only."""

    def __init__(self) -> None:
        self.view: dict[str, Any] | None = None
        self.seq = -1

    def feed(self, msg: dict[str, Any]) -> None:
        """Apply one server message (an event repeating the last seq is the seat's own hidden
        decision in an open window: it changes nothing)."""
        if msg["type"] == "error":
            return
        fresh = msg["seq"] > self.seq
        self.seq = max(self.seq, msg["seq"])
        if msg["type"] == "snapshot":
            self.view = copy.deepcopy(msg["view"])
        elif msg["type"] in ("hand_end", "match_end"):
            self.view = None
        elif msg["type"] == "event":
            ev = msg["event"]
            if ev["type"] == "hand_start":
                self.view = copy.deepcopy(ev["view"])
                return
            if not fresh or self.view is None or msg["table"] is None:
                return  # an own hidden decision; ready, auto, dissolve between hands
            if ev["type"] not in ("ready", "auto", "dissolve"):
                self._hand_event(ev)
            self.view.update(msg["table"])

    def _hand_event(self, ev: dict[str, Any]) -> None:
        assert self.view is not None
        me = self.view["seat"]
        seat = self.view["seats"][ev["seat"]]
        own = ev["seat"] == me
        kind = ev["type"]
        if kind == "discard":
            tile = parse_tiles(ev["tile"])[0]
            seat["discards"].append(ev["tile"])
            seat["hand_size"] -= 1
            if own:
                seat["hand"] = _remove(seat["hand"], [tile])
                seat["drawn"] = None
        elif kind == "draw":
            seat["hand_size"] += 1
            if own:
                seat["hand"] = format_tiles([*parse_tiles(seat["hand"]), *parse_tiles(ev["tile"])])
                seat["drawn"] = ev["tile"]
        elif kind == "flower":
            seat["flowers"].append(ev["tile"])
        elif kind in ("chi", "peng", "kong") and "from" in ev:
            taken = parse_tiles(self.view["seats"][ev["from"]]["discards"].pop())[0]
            meld = ev["meld"]
            seat["melds"].append(meld)
            n = 2 if kind in ("chi", "peng") else 3
            seat["hand_size"] -= n
            if own:
                used = list(parse_tiles(ev["tiles"])) if "tiles" in ev else [taken] * n
                seat["hand"] = _remove(seat["hand"], used)
                seat["drawn"] = None
        elif kind == "kong":
            meld = ev["meld"]
            if meld["kind"] == "kong_added":
                tile = parse_tiles(ev["tile"])[0]
                i = next(
                    i
                    for i, m in enumerate(seat["melds"])
                    if m["kind"] == "peng" and parse_tiles(m["tiles"])[0] == tile
                )
                seat["melds"][i] = meld
                seat["hand_size"] -= 1
                if own:
                    used = list(parse_tiles(ev["tiles"])) if "tiles" in ev else [tile]
                    seat["hand"] = _remove(seat["hand"], used)
            else:
                seat["melds"].append(meld)
                seat["hand_size"] -= 4
                if own:
                    tile = parse_tiles(ev["tile"])[0]
                    used = list(parse_tiles(ev["tiles"])) if "tiles" in ev else [tile] * 4
                    seat["hand"] = _remove(seat["hand"], used)
            if own:
                seat["drawn"] = None


def concealed_fields(value: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Every (path, seat, value) of a field that may carry concealed tiles (PROTOCOL.md 3.1):
    `hand` and `drawn` with the `seat` of the object holding them, and a draw event's tile."""
    if isinstance(value, dict):
        for key in ("hand", "drawn"):
            if key in value and isinstance(value[key], str) and value[key]:
                yield f"{path}.{key}", value.get("seat"), value[key]
        if value.get("type") == "draw" and value.get("tile"):
            yield f"{path}.tile", value.get("seat"), value["tile"]
        for key, sub in value.items():
            yield from concealed_fields(sub, f"{path}.{key}")
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            yield from concealed_fields(sub, f"{path}[{i}]")


def keys(value: Any) -> Iterator[str]:
    """Every key of every object in a JSON value."""
    if isinstance(value, dict):
        for key, sub in value.items():
            yield key
            yield from keys(sub)
    elif isinstance(value, list):
        for sub in value:
            yield from keys(sub)
