"""What one seat may know of a hand, as a value (DESIGN.md, information sets; issue 15).

``observe(state, seat)`` copies into a frozen ``Observation`` only what is public plus
``seat``'s own tiles: it never reads the wall, the reserved tiles, another seat's concealed
tiles (only how many it holds) or another seat's drawn tile, so none of them can leak.
``Observation.to_json()`` is the shape a server sends (docs/observation.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol, cast

from majiang.tiles import NOTATION, format_tiles
from majiang.values import (
    JSON,
    Action,
    Meld,
    MeldKind,
    OptionValue,
    Phase,
    VariantState,
)

__all__ = ["MeldView", "Observable", "Observation", "meld_views", "observe"]

_new = object.__new__


@dataclass(frozen=True, slots=True)
class MeldView:
    """A declared meld as a seat sees it: another seat's concealed kong shows no tiles."""

    kind: MeldKind
    """Public: chi, peng or one of the three kong kinds (RULES.md 0.4, 0.6)."""
    tiles: tuple[int, ...]
    """Public: the kinds the meld stands for, ascending; empty for another seat's
    concealed kong (RULES.md 0.6: its tiles stay face down)."""
    source: int | None
    """Public: the seat whose discard was claimed, None for a concealed kong."""
    wilds: int = 0
    """Public: wild tiles standing in the meld (RULES.md 2.1); 0 for another seat's
    concealed kong, whose tiles stay face down."""

    def to_json(self) -> dict[str, JSON]:
        """``{"kind": "peng", "tiles": "555m", "source": 1, "wilds": 0}``: tiles in FORMAT.md
        notation."""
        return {
            "kind": str(self.kind),
            "tiles": format_tiles(self.tiles),
            "source": self.source,
            "wilds": self.wilds,
        }


@dataclass(frozen=True)
class Observation:
    """Everything ``seat`` may know at one moment of a hand, and its legal actions.

    Tiles are ints in the 34-index order of ``majiang.tiles`` (34-41 flowers); per-seat
    tuples are indexed by seat 0-3. Two worlds that differ only in tiles hidden from
    ``seat`` give equal observations (``majiang.testing.check_variant`` checks it).
    ``observe`` builds one per decision, so it fills the instance's ``__dict__`` directly
    rather than through the frozen ``__init__`` (a third of the cost; same value).
    """

    variant: str
    """Public: the variant's FORMAT.md id."""
    options: Mapping[str, OptionValue]
    """Public: the room's options, every one resolved (RULES.md 0.8)."""
    seat: int | None
    """Public: the observing seat, 0-3 (whose private fields these are), or None for the
    public observation a spectator gets: no concealed tile of any seat, no legal action."""
    dealer: int
    """Public: the dealer (庄家) of this hand."""
    counters: Mapping[str, int]
    """Public: the dealer counters the hand started with (连庄, 老庄 …)."""
    hand: tuple[int, ...]
    """Private to ``seat``: its concealed tiles, ascending (the drawn tile included)."""
    drawn: int | None
    """Private to ``seat``: the tile it just drew, while its turn lasts; None otherwise
    and always None in another seat's observation of that seat."""
    melds: tuple[tuple[MeldView, ...], ...]
    """Public: each seat's declared melds, in the order declared."""
    discards: tuple[tuple[int, ...], ...]
    """Public: each seat's discards still in front of it, oldest first (a claimed tile
    leaves)."""
    hand_sizes: tuple[int, ...]
    """Public: how many concealed tiles each seat holds."""
    flowers: tuple[tuple[int, ...], ...]
    """Public: each seat's exposed flowers, in the order exposed (RULES.md 3.1)."""
    wild: int | None
    """Public: the wild kind of this hand (财神, 红中, 得), or None."""
    revealed: Mapping[str, tuple[int, ...]]
    """Public: reserved tiles turned face up at the deal, by purpose (a flipped wild
    indicator, RULES.md 2.1 / 5.1); horses and birds stay hidden and appear in the result."""
    variant_state: Mapping[str, JSON]
    """Public: what the variant shows of its own state (e.g. who must throw wilds)."""
    live: int
    """Public: tiles left in the live wall."""
    phase: Phase
    """Public: turn, claim (a discard's window), rob (an added kong's), declare (D56) or
    end."""
    current: int
    """Public: the seat whose turn it is, or was when the window opened."""
    window_tile: int | None
    """Public: the tile of the open window (the discard or the added kong's), else None."""
    window_from: int | None
    """Public: the discarder or konger of the open window, else None."""
    legal: tuple[Action, ...]
    """Private to ``seat``: its legal actions now, in canonical order (empty if none)."""

    def __reduce__(self) -> tuple[Callable[[dict[str, object]], Observation], tuple[object]]:
        """Pickled (for worker processes) with its read-only mappings as plain dicts, and
        read-only again once unpickled."""
        fields = dict(vars(self))
        fields["options"], fields["counters"] = dict(self.options), dict(self.counters)
        return _unpickle, (fields,)

    def to_json(self) -> dict[str, JSON]:
        """The observation as a server sends it: tiles in FORMAT.md notation (a hand
        sorted, ordered piles as lists of single tiles), actions as records write them."""
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "seat": self.seat,
            "dealer": self.dealer,
            "counters": dict(self.counters),
            "hand": format_tiles(self.hand),
            "drawn": _tile(self.drawn),
            "melds": [[m.to_json() for m in ms] for ms in self.melds],
            "discards": [[NOTATION[t] for t in pile] for pile in self.discards],
            "hand_sizes": list(self.hand_sizes),
            "flowers": [[NOTATION[t] for t in pile] for pile in self.flowers],
            "wild": _tile(self.wild),
            "revealed": {p: format_tiles(t) for p, t in self.revealed.items()},
            "variant_state": dict(self.variant_state),
            "live": self.live,
            "phase": str(self.phase),
            "current": self.current,
            "window_tile": _tile(self.window_tile),
            "window_from": self.window_from,
            "legal": [a.to_json() for a in self.legal],
        }


def _filled(fields: Mapping[str, object]) -> Observation:
    """An Observation with ``fields`` set directly (the frozen ``__init__`` sets them one
    by one through ``object.__setattr__``: a third of ``observe``'s cost)."""
    obs = _new(Observation)
    obs.__dict__.update(fields)
    return obs


def _unpickle(fields: dict[str, object]) -> Observation:
    fields["options"] = MappingProxyType(cast("dict[str, OptionValue]", fields["options"]))
    fields["counters"] = MappingProxyType(cast("dict[str, int]", fields["counters"]))
    return _filled(fields)


def _tile(tile: int | None) -> str | None:
    return None if tile is None else NOTATION[tile]


class Observable(Protocol):
    """What ``observe`` reads of a hand: public facts, per-seat counts, one seat's tiles.

    The engine's ``HandState`` satisfies it structurally; nothing here reaches the wall
    or the reserved tiles.
    """

    def hand_tiles(self, seat: int) -> list[int]:
        """``seat``'s concealed tiles, ascending."""
        ...

    @property
    def variant_id(self) -> str:
        """The variant's FORMAT.md id."""
        ...

    @property
    def options(self) -> Mapping[str, OptionValue]:
        """The room's options, every one resolved (shown read-only, not copied)."""
        ...

    @property
    def dealer(self) -> int:
        """The dealer of this hand."""
        ...

    @property
    def counters(self) -> Mapping[str, int]:
        """The dealer counters the hand started with (shown read-only, not copied)."""
        ...

    @property
    def concealed(self) -> Sequence[Sequence[int]]:
        """Each seat's concealed tiles as 34 counts (only the observer's are copied)."""
        ...

    @property
    def drawn(self) -> int | None:
        """The tile the current seat just drew."""
        ...

    def meld_views(self, seat: int | None) -> tuple[tuple[MeldView, ...], ...]:
        """Each seat's declared melds as ``seat`` sees them (``meld_views`` of its melds;
        None: as a spectator does)."""
        ...

    @property
    def discards(self) -> Sequence[Sequence[int]]:
        """Each seat's discards still in front of it."""
        ...

    @property
    def flowers(self) -> Sequence[Sequence[int]]:
        """Each seat's exposed flowers."""
        ...

    @property
    def wild(self) -> int | None:
        """The wild kind, or None."""
        ...

    @property
    def live(self) -> int:
        """Tiles left in the live wall."""
        ...

    @property
    def phase(self) -> Phase:
        """Turn, claim, rob, declare or end."""
        ...

    @property
    def current(self) -> int:
        """The seat whose turn it is (or was, during a window)."""
        ...

    @property
    def window_tile(self) -> int | None:
        """The open window's tile, else None."""
        ...

    @property
    def window_from(self) -> int | None:
        """The open window's discarder or konger, else None."""
        ...

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """``seat``'s legal actions now."""
        ...

    @property
    def variant_state(self) -> VariantState | None:
        """The variant's own state; only its ``public()`` part is copied."""
        ...

    @property
    def revealed(self) -> Mapping[str, tuple[int, ...]]:
        """Reserved tiles face up for every seat, by purpose."""
        ...


_TURN = Phase.TURN  # module globals: CPython 3.11 looks enum members up slowly
_CONCEALED = MeldKind.KONG_CONCEALED


def meld_views(
    melds: Sequence[Sequence[Meld]], seat: int | None
) -> tuple[tuple[MeldView, ...], ...]:
    """Every seat's melds as ``seat`` sees them: another seat's concealed kong face down
    (``seat`` None: as a spectator sees them, every concealed kong face down)."""
    out: list[tuple[MeldView, ...]] = []
    for s, ms in enumerate(melds):
        if not ms:
            out.append(())
            continue
        out.append(
            tuple(
                [
                    MeldView(m.kind, m.tiles, m.source, m.wilds)
                    if s == seat or m.kind != _CONCEALED
                    else MeldView(m.kind, (), m.source)
                    for m in ms
                ]
            )
        )
    return tuple(out)


def observe(state: Observable, seat: int | None) -> Observation:
    """``seat``'s observation of ``state``, or (``seat`` None) the public one a spectator
    gets, built without reading any concealed tile (the caller validates ``seat``)."""
    turn = state.phase is _TURN
    return _filled(
        {
            "variant": state.variant_id,
            "options": MappingProxyType(state.options),
            "seat": seat,
            "dealer": state.dealer,
            "counters": MappingProxyType(state.counters),
            "hand": () if seat is None else tuple(state.hand_tiles(seat)),
            "drawn": state.drawn if turn and state.current == seat else None,
            "melds": state.meld_views(seat),
            "discards": tuple(map(tuple, state.discards)),
            "hand_sizes": tuple(map(sum, state.concealed)),
            "flowers": tuple(map(tuple, state.flowers)),
            "wild": state.wild,
            "revealed": state.revealed,
            "variant_state": {} if state.variant_state is None else state.variant_state.public(),
            "live": state.live,
            "phase": state.phase,
            "current": state.current,
            "window_tile": None if turn else state.window_tile,
            "window_from": None if turn else state.window_from,
            "legal": () if seat is None else tuple(state.legal_actions(seat)),
        }
    )
