"""The fixed action space of every variant: ``Discrete(ACTION_COUNT)`` (docs/rl.md).

One index per decision a seat can face, the same for all five variants: discard each
kind, chi by the discard's position and by wild use, peng natural or with wilds, each
kong kind with its wilds, hu, pass. Chi and peng name tiles relative to the tile on offer,
and wild use names "the wild" rather than a kind, so an index is read against the
observation it was chosen in (its ``window_tile`` and ``wild``): :func:`index_to_action`
and :func:`action_to_index` are each other's inverse there. Escape (逃跑) is not in the
space: it is no playing decision.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from majiang.errors import IllegalActionError
from majiang.observation import Observation
from majiang.rl.features import _c as _accelerator
from majiang.tiles import NOTATION
from majiang.values import Action, ActionType

__all__ = [
    "ACTION_COUNT",
    "ACTION_NAMES",
    "CHI",
    "DISCARD",
    "HU",
    "KONG",
    "PASS",
    "PENG",
    "action_of",
    "action_to_index",
    "index_to_action",
    "legal_indices",
    "legal_mask",
]

DISCARD = 0
"""Indexes 0-33: discard the kind (0 = 1m … 33 = 7z)."""
CHI = 34
"""Indexes 34-41: chi of the discard t (RULES.md 0.4), see ``CHI_SHAPES``."""
PENG = 42
"""Indexes 42-44: peng natural, with one wild, with two wilds (RULES.md 2.1)."""
KONG = 45
"""Indexes 45-214: kong of kind t, in five blocks of 34 (``KONG_KINDS``)."""
HU = 215
"""Index 215: hu (胡): self-draw, on the discard, robbing the kong, an instant win."""
PASS = 216
"""Index 216: pass (过): decline the claims on offer (or the last tile's self-draw)."""
ACTION_COUNT = 217
"""The size of the action space, ``Discrete(217)`` for every variant."""

CHI_SHAPES: tuple[tuple[str, tuple[int | None, int | None]], ...] = (
    ("chi_low", (1, 2)),  # t is the lowest: t+1, t+2 from the hand
    ("chi_mid", (-1, 1)),
    ("chi_high", (-2, -1)),
    ("chi_wild_m2", (-2, None)),  # t-2 and a wild from the hand
    ("chi_wild_m1", (-1, None)),
    ("chi_wild_p1", (1, None)),
    ("chi_wild_p2", (2, None)),
    ("chi_two_wilds", (None, None)),  # two wilds: the discard is the meld's natural tile
)
"""Each chi index's name and the two tiles it takes from the hand, as offsets from the
discard t (None: a wild)."""

KONG_KINDS = (
    "kong",  # natural: concealed (4), direct (3 + the discard) or added (1 onto a peng)
    "kong_add_wild",  # a wild added onto a peng of t
    "kong_wild1",  # concealed (3 t + 1 wild) or direct (2 t + 1 wild + the discard)
    "kong_wild2",
    "kong_wild3",
)
"""The five kong blocks: index ``KONG + 34 * block + t``."""

_PENG_NAMES = ("peng", "peng_wild1", "peng_wild2")


def _names() -> tuple[str, ...]:
    names = [f"discard_{NOTATION[t]}" for t in range(34)]
    names += [n for n, _ in CHI_SHAPES]
    names += list(_PENG_NAMES)
    names += [f"{k}_{NOTATION[t]}" for k in KONG_KINDS for t in range(34)]
    names += ["hu", "pass"]
    return tuple(names)


ACTION_NAMES: tuple[str, ...] = _names()
"""A readable name per index (``discard_1m``, ``chi_low``, ``kong_wild1_5p``, ``hu`` …)."""

_A_DISCARD = ActionType.DISCARD  # module globals: CPython 3.11 looks enum members up slowly
_A_CHI = ActionType.CHI
_A_PENG = ActionType.PENG
_A_KONG = ActionType.KONG
_A_HU = ActionType.HU
_A_PASS = ActionType.PASS
_CHI_INDEX = {shape: CHI + i for i, (_, shape) in enumerate(CHI_SHAPES)}


def _index(action: Action, window_tile: int | None, wild: int | None) -> int:
    """The index of ``action`` given the tile on offer and the wild kind; -1 if none fits."""
    kind = action.type
    if kind is _A_DISCARD:
        return action.tile if action.tile is not None else -1
    tiles = action.tiles
    if kind is _A_PASS:
        return PASS
    if kind is _A_HU:
        return HU
    if kind is _A_KONG:
        t = action.tile
        if t is None:
            return -1
        if not tiles:
            return KONG + t
        wilds = tiles.count(wild) if wild is not None else 0
        if len(tiles) == 1:
            return KONG + 34 + t if wilds == 1 else -1
        return KONG + 34 * (1 + wilds) + t if 1 <= wilds <= 3 else -1
    if kind is _A_PENG:
        if not tiles:
            return PENG
        wilds = tiles.count(wild) if wild is not None else 0
        return PENG + wilds if wilds in (1, 2) and len(tiles) == 2 else -1
    if kind is _A_CHI and window_tile is not None and len(tiles) == 2:
        t = window_tile
        a, b = tiles
        if wild is not None and a == wild and b == wild:
            return CHI + 7
        if wild is not None and (a == wild or b == wild):
            other = b if a == wild else a
            return _CHI_INDEX.get((other - t, None), -1)
        return _CHI_INDEX.get((a - t, b - t), -1)
    return -1


def action_to_index(action: Action, observation: Observation) -> int:
    """The index of ``action`` in the observation it is taken in (the window's tile and
    the wild kind read chi and peng); IllegalActionError if it has none (an escape)."""
    index = _index(action, observation.window_tile, observation.wild)
    if index < 0:
        raise IllegalActionError(f"action {action.to_json()} has no index in the action space")
    return index


def index_to_action(index: int, observation: Observation) -> Action:
    """The action ``index`` stands for, for ``observation.seat`` in that observation.

    Whether it is legal there is the mask's business (:func:`legal_indices`); this only
    reads it. IllegalActionError for an index outside 0-216, or one that names a tile
    this observation cannot supply (a chi off the suit's end, a wild in a hand without).
    """
    seat = observation.seat
    if seat is None:
        raise IllegalActionError("a spectator's observation takes no action")
    return action_of(index, seat, observation.window_tile, observation.wild)


def action_of(index: int, seat: int, window_tile: int | None, wild: int | None) -> Action:
    """``index_to_action`` from the three facts it reads: the deciding seat, the tile on
    offer and the wild kind (the environments have them without an Observation)."""
    if type(index) is not int:
        try:
            index = int(index)  # numpy integers
        except (TypeError, ValueError):
            raise IllegalActionError(f"an action index is an int, got {index!r}") from None
    if not 0 <= index < ACTION_COUNT:
        raise IllegalActionError(f"action index {index} is outside 0-{ACTION_COUNT - 1}")
    if index < CHI:
        return Action(seat, _A_DISCARD, index)
    if index == HU:
        return Action(seat, _A_HU)
    if index == PASS:
        return Action(seat, _A_PASS)
    name = ACTION_NAMES[index]
    if index < KONG:
        t = window_tile
        if t is None:
            raise IllegalActionError(f"{name} needs a tile on offer; there is none")
        tiles: list[int | None]
        if index < PENG:
            tiles = [None if x is None else t + x for x in CHI_SHAPES[index - CHI][1]]
            if t >= 27 or any(x is not None and not (0 <= x < 27 and x // 9 == t // 9)
                              for x in tiles):
                raise IllegalActionError(f"{name} of {NOTATION[t]} runs off its suit")
        else:
            pengs: tuple[list[int | None], ...] = ([], [t, None], [None, None])
            tiles = pengs[index - PENG]
        if None in tiles and wild is None:
            raise IllegalActionError(f"{name} needs a wild; this hand has none")
        w = -1 if wild is None else wild
        taken = tuple(sorted([w if x is None else x for x in tiles]))
        return Action(seat, _A_CHI if index < PENG else _A_PENG, None, taken)
    block, t = divmod(index - KONG, 34)
    if block == 0:
        return Action(seat, _A_KONG, t)
    if wild is None:
        raise IllegalActionError(f"{name} needs a wild; this hand has none")
    if block == 1:
        return Action(seat, _A_KONG, t, (wild,))
    wilds = block - 1
    naturals = (4 if window_tile is None else 3) - wilds
    return Action(seat, _A_KONG, t, tuple(sorted((t,) * naturals + (wild,) * wilds)))


def _py_legal_indices(
    legal: Iterable[Action], window_tile: int | None, wild: int | None
) -> list[int]:
    """The indexes of ``legal`` (an escape has none and is left out), in their order:
    the reference (``legal_indices`` is the C accelerator's, when built)."""
    out = []
    for a in legal:
        if a.type is _A_DISCARD:
            out.append(a.tile)
            continue
        i = _index(a, window_tile, wild)
        if i >= 0:
            out.append(i)
    return out  # type: ignore[return-value]


legal_indices = _py_legal_indices
"""The indexes of ``legal`` (an escape has none and is left out), in their order, given
the tile on offer and the wild kind."""
if _accelerator is not None:
    legal_indices = _accelerator.legal_indices


def _py_legal_mask(
    legal: Iterable[Action], window_tile: int | None, wild: int | None, out: Any, row: int
) -> list[int]:
    """``legal_indices``, also setting a 1 at each of them in ``out[row]`` (``out`` a
    C-contiguous int8 array of rows of ``ACTION_COUNT``; the row's other cells are left)."""
    indices = legal_indices(legal, window_tile, wild)
    out[row, indices] = 1
    return indices


legal_mask = _py_legal_mask
"""``legal_indices``, also writing the mask's ones into a row of an int8 array (one call
per table of a batch)."""
if _accelerator is not None:
    legal_mask = _accelerator.legal_mask


def describe(index: int) -> str:
    """The readable name of an index (``ACTION_NAMES``), for messages."""
    return ACTION_NAMES[index] if 0 <= index < ACTION_COUNT else f"index {index}"


def names(indices: Sequence[int]) -> str:
    """Indexes with their names, for error messages: ``3 (discard_4m), 216 (pass)``."""
    return ", ".join(f"{i} ({describe(i)})" for i in indices)
