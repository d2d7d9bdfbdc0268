"""The values engine and rules share (DESIGN.md, the seam): actions, melds, deals, wins, kinds.

Both ``majiang.engine`` and ``majiang.rules`` import this module and neither imports the
other's internals through it: ``rules/`` never imports ``engine/``. Kinds are ``StrEnum``
members, so they equal the strings FORMAT.md writes (``ActionType.HU == "hu"``) and a typo
such as ``"kong_drect"`` is caught by mypy where a kind is expected.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple, Protocol

from majiang.errors import IllegalActionError
from majiang.scoring import Item, deltas
from majiang.tiles import NOTATION, Tile, format_tiles, parse_tile, parse_tiles

__all__ = [
    "ACTION_TYPES",
    "JSON",
    "Action",
    "ActionType",
    "Deal",
    "Event",
    "HandResult",
    "Meld",
    "MeldKind",
    "OptionValue",
    "Options",
    "Outcome",
    "Phase",
    "Score",
    "VariantState",
    "WinInfo",
    "WinType",
]

OptionValue = bool | int | str
"""A room option's value: a flag, a number or one of its named choices (RULES.md 0.8)."""
Options = Mapping[str, OptionValue]
"""A variant's options by name, every one present once resolved."""
JSON = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]
"""A value ``json.dumps`` writes as it is."""


class ActionType(StrEnum):
    """A decision's type (FORMAT.md section 2), in canonical order."""

    HU = "hu"
    KONG = "kong"
    PENG = "peng"
    CHI = "chi"
    DISCARD = "discard"
    PASS = "pass"
    ESCAPE = "escape"


class MeldKind(StrEnum):
    """A declared meld's kind (RULES.md 0.4, 0.6)."""

    CHI = "chi"
    PENG = "peng"
    KONG_DIRECT = "kong_direct"
    KONG_ADDED = "kong_added"
    KONG_CONCEALED = "kong_concealed"


_CONCEALED = MeldKind.KONG_CONCEALED  # a module global: CPython 3.11's member lookup is slow


class WinType(StrEnum):
    """How a hand was won (FORMAT.md section 3)."""

    SELF_DRAW = "self_draw"
    DISCARD = "discard"
    ROB_KONG = "rob_kong"
    KONG_REPLACEMENT = "kong_replacement"
    INSTANT = "instant"


class Outcome(StrEnum):
    """How a hand ended: a win, or a drawn hand (an escape ends a hand drawn)."""

    WIN = "win"
    DRAW = "draw"


class Phase(StrEnum):
    """Where a hand is: a seat's turn, a discard's claim window, an added kong's robbing
    window, a non-dealer's instant win awaiting the dealer (D56), or ended."""

    TURN = "turn"
    CLAIM = "claim"
    ROB = "rob"
    DECLARE = "declare"
    END = "end"


class Event(StrEnum):
    """What the engine tells a variant's ``on_event`` hook happened."""

    DRAW = "draw"
    DISCARD = "discard"
    CLAIM = "claim"
    KONG = "kong"


ACTION_TYPES: tuple[ActionType, ...] = tuple(ActionType)
_ORDER = {t: i for i, t in enumerate(ACTION_TYPES)}
_TILES = len(NOTATION)


class Action(NamedTuple):
    """A player's decision, as FORMAT.md section 2 lists it."""

    seat: int
    type: ActionType
    tile: int | None = None
    tiles: tuple[int, ...] = ()

    def to_json(self) -> dict[str, JSON]:
        """The action as a record writes it."""
        out: dict[str, JSON] = {"seat": self.seat, "type": str(self.type)}
        tile = self.tile
        if tile is not None:
            # NOTATION skips the enum lookup; Tile() still refuses what is not a tile
            out["tile"] = NOTATION[tile] if 0 <= tile < _TILES else str(Tile(tile))
        if self.tiles:
            out["tiles"] = format_tiles(self.tiles)
        return out

    @staticmethod
    def from_json(data: object) -> Action:
        """Parse a record's action; NotationError or IllegalActionError on bad input."""
        if not isinstance(data, Mapping):
            raise IllegalActionError(f"an action must be an object, got {data!r}")
        seat = data.get("seat")
        kind = data.get("type")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise IllegalActionError(f"action seat must be 0-3, got {seat!r}")
        if not isinstance(kind, str) or kind not in _ORDER:
            raise IllegalActionError(
                f"unknown action type {kind!r}; one of {', '.join(ACTION_TYPES)}"
            )
        tile = parse_tile(data["tile"]) if "tile" in data else None
        tiles = parse_tiles(data["tiles"]) if "tiles" in data else ()
        if (tile is not None and tile >= 34) or any(t >= 34 for t in tiles):
            # RULES.md 3.1: a flower is exposed and replaced at once, never played
            raise IllegalActionError(f"a {kind} cannot name a flower")
        return Action(
            seat,
            ActionType(kind),
            None if tile is None else int(tile),
            tuple(sorted(int(t) for t in tiles)),
        )

    def sort_key(self) -> tuple[int, int, tuple[int, ...]]:
        """Canonical order: hu, kong, peng, chi, discard, pass; then by tile."""
        return (_ORDER[self.type], -1 if self.tile is None else self.tile, self.tiles)

    def __str__(self) -> str:
        extra = f" {Tile(self.tile)}" if self.tile is not None else ""
        if self.tiles:
            extra += f" {format_tiles(self.tiles)}"
        return f"S{self.seat} {self.type}{extra}"


def malformed(action: object) -> str | None:
    """Why ``action`` is not a well-formed Action (types and ranges), or None if it is.

    Checked before anything else, because a float or bool compares equal to an int:
    ``Action(0.0, "discard", 5)`` is ``==`` a legal action but must be refused.
    """
    if not isinstance(action, Action):
        return f"an action must be an Action, got {type(action).__name__}"
    seat, kind, tile, tiles = action
    if type(seat) is not int or not 0 <= seat <= 3:
        return f"an action's seat must be an int 0-3, got {seat!r}"
    if not isinstance(kind, str) or kind not in _ORDER:
        return f"unknown action type {kind!r}; one of {', '.join(ACTION_TYPES)}"
    if tile is not None and (type(tile) is not int or not 0 <= tile < 34):
        return f"an action's tile must be None or an int 0-33, got {tile!r}"
    if type(tiles) is not tuple or not all(type(x) is int and 0 <= x < 34 for x in tiles):
        return f"an action's tiles must be a tuple of ints 0-33, got {tiles!r}"
    if kind in ("pass", "escape", "hu") and (tile is not None or tiles):
        return f"a {kind} names no tile, got {action.to_json()}"
    return None


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared meld: its kind, the kinds it stands for, where the claimed tile came from."""

    kind: MeldKind
    tiles: tuple[int, ...]
    source: int | None = None
    """The seat the claimed tile came from (an added kong keeps its peng's)."""
    claimed: int | None = None
    wilds: int = 0
    """Wild tiles standing in this meld (RULES.md 2.1); they are no longer wilds."""

    @property
    def is_kong(self) -> bool:
        """Any of the three kong kinds."""
        return self.kind.startswith("kong")

    @property
    def exposed(self) -> bool:
        """Everything but a concealed kong is exposed (RULES.md 0.6)."""
        return self.kind != _CONCEALED


@dataclass(frozen=True, slots=True)
class Deal:
    """The starting position of a hand: hands in seat order, the live wall, reserved tiles."""

    hands: tuple[tuple[int, ...], ...]
    wall: tuple[int, ...]
    """Live wall, front first: ordinary draws take wall[0], back draws wall[-1]."""
    reserved: Mapping[str, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class WinInfo:
    """Who won, how, and on which tile."""

    winner: int
    win_type: WinType
    tile: int
    source: int | None
    """The discarder or the robbed konger; None for self-draws."""
    kong_source: int | None = None
    """For kong_replacement: the seat whose discard was konged (direct kong), else None."""


class VariantState(Protocol):
    """A variant's own state (抓打's owner, 生牌's known tiles …): an immutable value its
    hooks return (a frozen dataclass subclassing this, or a NamedTuple with ``public``);
    ``public`` is what every seat may see of it (the observation's part)."""

    def public(self) -> dict[str, JSON]:
        """What every seat may know of this state; nothing by default."""
        return {}


@dataclass(frozen=True, slots=True)
class Score:
    """A variant's scoring of one hand: reported patterns, the hand's value, every payment.

    ``patterns`` are ids in the variant's pattern-list order for the best reading
    (RULES.md 0.7); a drawn hand has none and value 0, its items are what a draw pays.
    """

    patterns: tuple[str, ...]
    value: int
    items: tuple[Item, ...]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended, with every payment (FORMAT.md section 3, one hand).

    ``wins`` is a tuple so that a variant with several winners in one hand fits; every
    variant implemented today has at most one.
    """

    outcome: Outcome
    wins: tuple[WinInfo, ...]
    patterns: tuple[str, ...]
    items: tuple[Item, ...]
    escaped: int | None = None

    @property
    def win(self) -> WinInfo | None:
        """The hand's win, or None for a drawn hand."""
        return self.wins[0] if self.wins else None

    @property
    def deltas(self) -> list[int]:
        """Each seat's change; sums to zero."""
        return deltas(self.items)
