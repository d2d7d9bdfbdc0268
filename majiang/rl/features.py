"""Observation encoding v1: an ``Observation`` as ``PLANES`` x 34 float32 planes (docs/rl.md).

Built from ``majiang.observation.Observation`` alone, which holds only what its seat may
know, so nothing hidden can reach the array. Seats are relative to the observer: 0 is
itself, 1 the next in turn order (下家), 2 across (对家), 3 the one before (上家). Every
value lies in [0, 1]. Tile planes are indexed by the 34 kinds; "constant" planes hold one
number across the row (a seat's wind, the tiles left …). The layout is frozen for v1;
a change of meaning is a new ``ENCODING_VERSION`` and new env ids.

``encode`` / ``encode_batch`` are the reference: pure Python over an ``Observation``,
writing index lists and filling the array with a few numpy operations per batch. The
environments take the fast path, ``encode_state``: the C accelerator ``majiang.rl._encode``
writes a row straight from the engine's hand, reading only what ``observe`` would copy for
the seat (its own tiles, the public facts, another seat's concealed kong as face down), so
no Observation is built; the same values, cell for cell (tests compare the two for every
variant). Without the accelerator ``encode_state`` falls back to the reference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from majiang.observation import Observation
from majiang.rules import VARIANTS, get_variant
from majiang.tiles import NOTATION
from majiang.values import JSON, ActionType, MeldKind, OptionValue, Phase, VariantState

if TYPE_CHECKING:
    from majiang.engine.state import HandState

__all__ = [
    "ENCODING_VERSION",
    "PLANES",
    "PLANE_NAMES",
    "VARIANT_STATE_KEYS",
    "HandContext",
    "encode",
    "encode_batch",
    "encode_state",
]

ENCODING_VERSION = 1
"""The encoding's version, the ``_v1`` / ``-v1`` of the env ids."""

HAND = 0  # 0-3: own concealed tiles, count >= 1, 2, 3, 4 (the drawn tile included)
DRAWN = 4  # the tile just drawn, during its own turn
WILD = 5  # the wild kind of this hand (财神, 红中, 得)
REVEALED = 6  # reserved tiles face up (a flipped wild indicator)
WINDOW = 7  # the tile on offer in the open window (a discard, an added kong's tile)
IN_PLAY = 8  # kinds in the tile set under the room's options (转转 has no 红中 …)
UNSEEN = 9  # copies not visible to the seat / 4 (own hand, rivers, melds, revealed)
KNOWN = 10  # kinds the variant shows as already seen (台州 熟张, variant_state "known")
SEATS = 11  # 11-62: thirteen planes per relative seat, SEAT_PLANES
SEAT_PLANES = 13
RIVER = 0  # +0-3: that seat's discards still in front of it, count >= 1..4
LAST = 4  # +4-7: its last, 2nd last, 3rd last, 4th last discard still there
CHI = 8  # +8: kinds in its chis (count / 4)
PENG = 9  # +9: kinds of its pengs
KONG = 10  # +10: kinds of its direct and added kongs
CONCEALED = 11  # +11: kinds of its concealed kongs (another seat's are face down: empty)
TAKEN = 12  # +12: kinds in other seats' melds claimed from its discards (count / 4)
FLOWERS = 63  # 63-66: each relative seat's exposed flowers, columns 0-7 = 1f-8f
CONSTANT = 67  # 67-115: one number per plane across the row, CONSTANT_NAMES
PLANES = 116
"""Planes of encoding v1: the observation array's shape is ``(PLANES, 34)``."""

_REL = ("self", "next", "across", "previous")
BUILTIN: tuple[str, ...] = tuple(VARIANTS)[:5]
"""The five variants v1 encodes (one-hot planes 111-115), in the registry's order."""
_COUNTER_NAMES = tuple(dict.fromkeys(c for v in BUILTIN for c in VARIANTS[v].counters))
_STATE_KIND = {k: how for v in BUILTIN for k, how in VARIANTS[v].public_state.items()}
_SEAT_KEYS = tuple(k for k, how in _STATE_KIND.items() if how != "tiles")
CONSTANT_NAMES: tuple[str, ...] = (
    *(f"seat_wind_{w}" for w in ("east", "south", "west", "north")),
    *(f"dealer_is_{r}" for r in _REL),
    *(f"current_is_{r}" for r in _REL),
    *(f"window_from_{r}" for r in _REL),
    *(f"phase_{p}" for p in ("turn", "claim", "rob", "declare")),
    *(f"hand_size_{r}" for r in _REL),
    *(f"concealed_kongs_{r}" for r in _REL),
    *(f"{key}_{r}" for key in _SEAT_KEYS for r in _REL),
    "live",
    *(f"counter_{name}" for name in _COUNTER_NAMES),
    *(f"variant_{v}" for v in BUILTIN),
)
"""The constant planes 67-115, in order (``seat_wind`` the observer's own wind; hand
sizes / 14; concealed kongs / 4; live / 144; counters / 8, 老庄 / 3, capped at 1)."""

_SEAT_NAMES = (
    *(f"river_{k}" for k in range(1, 5)),
    *(f"last_discard_{k}" for k in range(1, 5)),
    "chi",
    "peng",
    "kong_exposed",
    "kong_concealed",
    "taken_from",
)
PLANE_NAMES: tuple[str, ...] = (
    *(f"hand_{k}" for k in range(1, 5)),
    "drawn",
    "wild",
    "revealed",
    "window_tile",
    "in_play",
    "unseen",
    "state_tiles",
    *(f"{name}_{rel}" for rel in _REL for name in _SEAT_NAMES),
    *(f"flowers_{rel}" for rel in _REL),
    *CONSTANT_NAMES,
)
"""A name per plane, ``PLANE_NAMES[i]`` for plane i (docs/rl.md lists them)."""

assert len(PLANE_NAMES) == PLANES and CONSTANT + len(CONSTANT_NAMES) == PLANES

VARIANT_STATE_KEYS: Mapping[str, str] = _STATE_KIND
"""The restrictions in force v1 reads from ``Observation.variant_state``, by key, as the
variants declare them (``Variant.public_state``); a key not listed is not encoded (a test
checks every variant's keys are)."""

_TILES = "tiles"
_VARIANT_INDEX = {v: i for i, v in enumerate(BUILTIN)}
_COUNTERS = {
    name: (41 + i, float(next(
        (hi for v in BUILTIN for n, (_lo, hi) in VARIANTS[v].counter_ranges.items()
         if n == name and hi is not None), 8)))
    for i, name in enumerate(_COUNTER_NAMES)
}
_PHASE = {"turn": 16, "claim": 17, "rob": 18, "declare": 19}
_M_CHI = MeldKind.CHI
_M_PENG = MeldKind.PENG
_M_CONCEALED = MeldKind.KONG_CONCEALED
_N_CONST = len(CONSTANT_NAMES)
_CELLS = PLANES * 34
_SEAT_BASE = tuple((SEATS + r * SEAT_PLANES) * 34 for r in range(4))
_KIND = {name: t for t, name in enumerate(NOTATION[:34])}
def _seats(value: JSON) -> list[int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    if isinstance(value, list):
        return [s for s in value if isinstance(s, int) and not isinstance(s, bool)]
    return []


def _fill(
    obs: Observation,
    base: int,
    cbase: int,
    ones: list[int],
    vals: dict[int, float],
    cvals: dict[int, float],
) -> None:
    """Write ``obs``'s tile planes at flat offset ``base`` (cells of value 1 to ``ones``,
    others to ``vals``) and its constant planes' values at ``cbase`` to ``cvals``."""
    me = obs.seat if obs.seat is not None else 0
    add = ones.append
    # own hand, count planes: the hand is sorted, so k counts the copies met so far
    prev, k = -1, 0
    for t in obs.hand:
        k = k + 1 if t == prev else 0
        prev = t
        add(base + k * 34 + t)
    drawn = obs.drawn
    if drawn is not None:
        add(base + DRAWN * 34 + drawn)
    wild = obs.wild
    if wild is not None:
        add(base + WILD * 34 + wild)
    if obs.revealed:
        for tiles in obs.revealed.values():
            for t in tiles:
                if t < 34:
                    add(base + REVEALED * 34 + t)
    window = obs.window_tile
    if window is not None:
        add(base + WINDOW * 34 + window)
    if obs.window_from is not None:
        cvals[cbase + 12 + (obs.window_from - me) % 4] = 1.0
    if obs.variant_state:
        for key, value in obs.variant_state.items():
            how = VARIANT_STATE_KEYS.get(key)
            if how == _TILES and isinstance(value, list):
                for text in value:
                    known = _KIND.get(text) if isinstance(text, str) else None
                    if known is not None:
                        add(base + KNOWN * 34 + known)
            elif how is not None:
                offset = cbase + _STATE_OFFSET[key]
                for s in _seats(value):
                    if 0 <= s <= 3:
                        cvals[offset + (s - me) % 4] = 1.0
    sizes = obs.hand_sizes
    discards = obs.discards
    melds = obs.melds
    flowers = obs.flowers
    for s in range(4):
        r = (s - me) % 4
        sb = base + _SEAT_BASE[r]
        pile = discards[s]
        if pile:
            counts = [0] * 34
            for t in pile:
                add(sb + counts[t] * 34 + t)
                counts[t] += 1
            n = len(pile)
            for j in range(4 if n > 4 else n):
                add(sb + (LAST + j) * 34 + pile[n - 1 - j])
        for m in melds[s]:
            kind = m.kind
            if kind is _M_CONCEALED:
                cvals[cbase + 24 + r] = cvals.get(cbase + 24 + r, 0.0) + 0.25
                plane = CONCEALED
            else:
                plane = CHI if kind is _M_CHI else PENG if kind is _M_PENG else KONG
                src = m.source
                if src is not None:
                    tb = base + _SEAT_BASE[(src - me) % 4] + TAKEN * 34
                    for t in set(m.tiles):
                        add(tb + t)
            mb = sb + plane * 34
            for t in m.tiles:
                vals[mb + t] = vals.get(mb + t, 0.0) + 0.25
        for f in flowers[s]:
            add(base + (FLOWERS + r) * 34 + f - 34)
        cvals[cbase + 20 + r] = sizes[s] / 14.0
    dealer = obs.dealer
    cvals[cbase + (me - dealer) % 4] = 1.0
    cvals[cbase + 4 + (dealer - me) % 4] = 1.0
    cvals[cbase + 8 + (obs.current - me) % 4] = 1.0
    phase = _PHASE.get(obs.phase)
    if phase is not None:
        cvals[cbase + phase] = 1.0
    live = obs.live
    cvals[cbase + 40] = live / 144.0 if live < 144 else 1.0
    for name, value in obs.counters.items():
        spot = _COUNTERS.get(name)
        if spot is not None:
            cvals[cbase + spot[0]] = min(value / spot[1], 1.0)
    v = _VARIANT_INDEX.get(obs.variant)
    if v is not None:
        cvals[cbase + 44 + v] = 1.0


_STATE_OFFSET = {key: 28 + 4 * i for i, key in enumerate(_SEAT_KEYS)}


def _seen_weights() -> npt.NDArray[np.float32]:
    """Per plane, the copies a cell of value 1 stands for in the visible count."""
    w = np.zeros(PLANES, dtype=np.float32)
    w[HAND : HAND + 4] = 1.0
    w[REVEALED] = 1.0
    for r in range(4):
        b = SEATS + r * SEAT_PLANES
        w[b + RIVER : b + RIVER + 4] = 1.0
        w[[b + CHI, b + PENG, b + KONG, b + CONCEALED]] = 4.0  # the planes hold count / 4
    return w


_SEEN = _seen_weights()
_last_copies: list[object] = [None, None, None]


def copies_of(variant: str, options: Mapping[str, OptionValue]) -> npt.NDArray[np.float32]:
    """The copies of each of the 34 kinds in the variant's tile set under ``options``."""
    key = (variant, tuple(options.items()))
    arr = _copy_arrays.get(key)
    if arr is None:
        v = get_variant(variant)
        counts = v.tiles_for(v.resolve_options(options))[:34]
        arr = _copy_arrays[key] = np.asarray(counts, dtype=np.float32)
    return arr


_copy_arrays: dict[tuple[str, tuple[tuple[str, OptionValue], ...]], npt.NDArray[np.float32]] = {}


def _copies(obs: Observation) -> npt.NDArray[np.float32]:
    last = _last_copies
    if obs.variant == last[0] and obs.options == last[1]:
        return last[2]  # type: ignore[return-value]
    arr = copies_of(obs.variant, obs.options)
    last[:] = [obs.variant, dict(obs.options), arr]
    return arr


def encode(observation: Observation) -> npt.NDArray[np.float32]:
    """``observation`` as a fresh ``(PLANES, 34)`` float32 array (encoding v1)."""
    planes: npt.NDArray[np.float32] = encode_batch([observation])[0]
    return planes


def encode_batch(
    observations: Sequence[Observation],
    out: npt.NDArray[np.float32] | None = None,
    copies: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]:
    """Observations stacked as ``(n, PLANES, 34)`` float32, written into ``out`` when given
    (shape ``(n, PLANES, 34)``), with a few numpy operations for the whole batch.
    ``copies`` (``copies_of`` the variant and options, when all share them) saves a
    look-up per observation."""
    n = len(observations)
    if out is None:
        out = np.zeros((n, PLANES, 34), dtype=np.float32)
    else:
        out.fill(0.0)
    if not n:
        return out
    ones: list[int] = []
    vals: dict[int, float] = {}
    cvals: dict[int, float] = {}
    for i, obs in enumerate(observations):
        _fill(obs, i * _CELLS, i * _N_CONST, ones, vals, cvals)
    flat = out.reshape(-1)
    if vals:
        flat[list(vals)] = list(vals.values())
    flat[ones] = 1.0
    table = np.zeros(n * _N_CONST, dtype=np.float32)
    table[list(cvals)] = list(cvals.values())
    out[:, CONSTANT:, :] = table.reshape(n, _N_CONST)[:, :, None]
    have = copies if copies is not None else np.stack([_copies(o) for o in observations])
    out[:, IN_PLAY, :] = have > 0
    seen = _SEEN @ out
    np.clip((have - seen) * 0.25, 0.0, 1.0, out=out[:, UNSEEN, :])
    return out


# -- the fast path: a seat's row straight from the engine's hand ---------------------

_NO_EXTRA: tuple[tuple[int, ...], tuple[tuple[int, int], ...]] = ((), ())


def _state_extra(
    vs: VariantState | None,
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """The variant's public state as the C encoder takes it: known kinds, and (constant
    plane offset, absolute seat) pairs; the reading of ``_fill``."""
    if vs is None:
        return _NO_EXTRA
    known: list[int] = []
    seats: list[tuple[int, int]] = []
    for key, value in vs.public().items():
        how = VARIANT_STATE_KEYS.get(key)
        if how == _TILES and isinstance(value, list):
            for text in value:
                kind = _KIND.get(text) if isinstance(text, str) else None
                if kind is not None:
                    known.append(kind)
        elif how is not None:
            offset = _STATE_OFFSET[key]
            seats.extend((offset, s) for s in _seats(value) if 0 <= s <= 3)
    return tuple(known), tuple(seats)


class HandContext:
    """What ``encode_state`` keeps of one hand: its facts fixed at the deal (variant,
    revealed tiles, counters, tile set) and the last variant state it read."""

    __slots__ = ("copies", "extra", "fixed", "state", "variant_state")

    def __init__(self, state: HandState) -> None:
        self.state = state
        copies = copies_of(state.variant.id, state.options)
        self.copies: npt.NDArray[np.float32] = copies[None, :]
        counters = []
        for name, value in state.counters.items():
            spot = _COUNTERS.get(name)
            if spot is not None:
                counters.append((spot[0], min(value / spot[1], 1.0)))
        revealed = tuple(t for tiles in state.revealed.values() for t in tiles if t < 34)
        self.fixed = (
            _VARIANT_INDEX.get(state.variant.id, -1),
            revealed,
            tuple(counters),
            tuple(int(c) for c in copies.tolist()),
        )
        self.variant_state: object = None
        self.extra = _NO_EXTRA

    def load(self, vs: VariantState | None) -> None:
        """Read the hand's new variant state (an immutable value) for the C encoder."""
        self.variant_state = vs
        self.extra = _state_extra(vs)


def encode_state(
    state: HandState, seat: int, out: npt.NDArray[np.float32], row: int,
    context: HandContext,
) -> None:
    """Write ``seat``'s view of ``state`` as ``out[row]`` (``out`` C-contiguous float32,
    rows of ``(PLANES, 34)``): ``encode(state.observation(seat))``, cell for cell, without
    building the Observation. ``context`` is ``HandContext(state)``, kept for the hand."""
    c = _c
    if c is None:
        encode_batch([state.observation(seat)], out=out[row : row + 1], copies=context.copies)
        return
    vs = state.variant_state
    if vs is not context.variant_state:  # a variant state is an immutable value
        context.load(vs)
    c.fill(out, row, state, seat, context.fixed, context.extra)


def _accelerator() -> ModuleType | None:
    """The C encoder, initialised and checked against this module's layout; None without
    it (the pure Python path is the fallback)."""
    try:
        from majiang.rl import _encode
    except ImportError:  # pragma: no cover - the pure Python path is the fallback
        return None
    _encode.init(
        (Phase.TURN, Phase.CLAIM, Phase.ROB, Phase.DECLARE),
        (MeldKind.CHI, MeldKind.PENG, MeldKind.KONG_CONCEALED),
        (ActionType.DISCARD, ActionType.CHI, ActionType.PENG, ActionType.KONG,
         ActionType.HU, ActionType.PASS),
    )
    mine = {
        "PLANES": PLANES, "SEATS": SEATS, "SEAT_PLANES": SEAT_PLANES, "FLOWERS": FLOWERS,
        "CONSTANT": CONSTANT, "N_CONST": _N_CONST, "UNSEEN": UNSEEN, "KNOWN": KNOWN,
        "IN_PLAY": IN_PLAY, "WINDOW": WINDOW, "REVEALED": REVEALED, "WILD": WILD,
        "DRAWN": DRAWN, "TAKEN": TAKEN, "CONCEALED": CONCEALED, "LIVE": 40,
        "VARIANT": 44, "SIZE": 20, "PHASE": 16,
    }
    layout = _encode.layout()
    assert all(layout[k] == v for k, v in mine.items()), "majiang.rl._encode is out of date"
    return _encode


_c = _accelerator()
ACCELERATED = _c is not None
FILL = None if _c is None else _c.fill
"""The C encoder's ``fill(out, row, state, seat, context.fixed, context.extra)``, what
``encode_state`` calls once ``context`` has read the state's variant state (for the envs'
per-step paths); None without the C encoder."""
"""True when the C encoder ``majiang.rl._encode`` is in use (``encode_state``, and
``actions.legal_indices``)."""
