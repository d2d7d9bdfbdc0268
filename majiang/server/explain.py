"""What the browser client asks the server to work out: a finished hand's settlement with
every payment's reason and arithmetic, a record as frames a viewer steps through, and the
waits a discard would leave (听牌提示).

All of it is public once asked: a settlement and a replay come from a record's finished
hands (whose deals ``GET /api/rooms/{room}/record`` already shows), the waits from the tiles
the asking client sends. Nothing here reads a room in play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from majiang.engine.match import FinishedHand
from majiang.engine.state import HandState
from majiang.errors import MajiangError
from majiang.hand import waits
from majiang.records import Step, replay_steps
from majiang.rules import VARIANTS, Variant
from majiang.tiles import NOTATION, format_tiles, parse_tiles
from majiang.values import JSON, Action

__all__ = ["HintError", "replay_frames", "settlements", "waits_hint"]


class HintError(MajiangError):
    """A waits request that names no variant or holds no possible hand."""


def _tile(t: int) -> str:
    return NOTATION[t]


def _meld(m: Any) -> dict[str, JSON]:
    return {
        "kind": str(m.kind),
        "tiles": format_tiles(m.tiles),
        "source": m.source,
        "wilds": m.wilds,
    }


def settlement(variant: Variant, index: int, done: FinishedHand, totals: list[int]) -> JSON:
    """One finished hand explained: every seat's tiles, the winning tile apart, the patterns,
    the reserved tiles with what they mean (horses, birds), every payment with its reason
    and arithmetic, the deltas and the running totals after it."""
    st = done.state
    res = st.result()
    win = res.win
    hands: list[JSON] = []
    for seat in range(4):
        tiles = list(st.hand_tiles(seat))
        if win is not None and seat == win.winner and win.source is None and win.tile in tiles:
            tiles.remove(win.tile)
        hands.append(
            {
                "seat": seat,
                "concealed": format_tiles(tiles),
                "melds": [_meld(m) for m in st.melds[seat]],
                "flowers": [_tile(t) for t in st.flowers[seat]],
            }
        )
    reserved: list[JSON] = []
    for purpose, kept in st.reserved.items():
        if win is None and variant.reserved_purpose(purpose).shown != "deal":
            continue
        notes: list[JSON] = []
        for t in kept:
            zh, en = variant.rules.reserved_note(st, purpose, t)
            notes.append({"tile": _tile(t), "zh": zh, "en": en})
        reserved.append({"purpose": purpose, "tiles": notes})
    return {
        "index": index,
        "dealer": st.dealer,
        "counters": dict(st.counters),
        "wild": _tile(st.wild) if st.wild is not None else None,
        "outcome": str(res.outcome),
        "winner": win.winner if win else None,
        "from": win.source if win else None,
        "win_type": str(win.win_type) if win else None,
        "tile": _tile(win.tile) if win else None,
        "escaped": res.escaped,
        "patterns": list(res.patterns),
        "hands": hands,
        "reserved": reserved,
        "items": [
            {
                "kind": it.kind,
                "reason": str(it.reason) if it.reason else it.kind,
                "from": it.payer,
                "to": it.payee,
                "points": it.points,
                "note": it.note,
                "notes": {"zh": it.note_zh, "en": it.note_en},
            }
            for it in res.items
        ],
        "deltas": list[JSON](res.deltas),
        "totals": list[JSON](totals),
        "next": {"dealer": done.next_dealer, "counters": dict(done.next_counters)},
    }


def _settler(record: Mapping[str, Any], into: list[JSON]) -> Callable[[int, FinishedHand], None]:
    """The callback explaining each finished hand into ``into``, with running totals (the
    replay has checked the record's variant before the first hand finishes)."""
    totals = [0, 0, 0, 0]

    def each(index: int, done: FinishedHand) -> None:
        for s, d in enumerate(done.state.result().deltas):
            totals[s] += d
        into.append(settlement(VARIANTS[str(record["variant"])], index, done, totals))

    return each


def _skip(state: HandState, action: Action | None) -> None:
    pass


def settlements(record: Mapping[str, Any]) -> list[JSON]:
    """Every finished hand of a record, explained (RecordError if it does not replay)."""
    out: list[JSON] = []
    replay_steps(record, _settler(record, out), lambda index: _skip)
    return out


def frame(state: HandState, action: Action | None) -> JSON:
    """The table after one step, every seat's tiles face up."""
    views = [state.observation(s).to_json() for s in range(4)]
    public = views[0]
    seats: list[JSON] = []
    for s, view in enumerate(views):
        melds = view["melds"]
        discards = public["discards"]
        flowers = public["flowers"]
        assert isinstance(melds, list) and isinstance(discards, list)
        assert isinstance(flowers, list)
        seats.append(
            {
                "hand": view["hand"],
                "drawn": view["drawn"],
                "melds": melds[s],
                "discards": discards[s],
                "flowers": flowers[s],
            }
        )
    return {
        "action": action.to_json() if action is not None else None,
        "live": public["live"],
        "phase": public["phase"],
        "current": public["current"],
        "window_tile": public["window_tile"],
        "window_from": public["window_from"],
        "variant_state": public["variant_state"],
        "seats": seats,
    }


def replay_frames(record: Mapping[str, Any]) -> JSON:
    """A record as a viewer steps through it: per hand its start (dealer, counters, wild,
    revealed tiles), a frame after the deal, each action and each window's close, and its
    settlement; the match's totals. RecordError if the record does not replay."""
    hands: list[JSON] = []
    explained: list[JSON] = []

    def step(index: int) -> Step:
        frames: list[JSON] = []

        def each(state: HandState, action: Action | None) -> None:
            if not frames:
                first = state.observation(0).to_json()
                hands.append(
                    {
                        "index": index,
                        "dealer": state.dealer,
                        "counters": dict(state.counters),
                        "wild": first["wild"],
                        "revealed": first["revealed"],
                        "frames": frames,
                    }
                )
            frames.append(frame(state, action))

        return each

    match = replay_steps(record, _settler(record, explained), step)
    for hand, done in zip(hands, explained, strict=True):
        assert isinstance(hand, dict)
        hand["settlement"] = done
    return {
        "variant": match.variant.id,
        "options": dict(match.options),
        "players": [str(p) for p in record.get("players", [])] or None,
        "hands": hands,
        "totals": list(match.totals),
    }


def waits_hint(variant_id: str, hand: str, melds: int, wild: str | None) -> list[JSON]:
    """听牌提示: for a concealed part of 3n+2 tiles, each discard that leaves it ready with
    the kinds it then waits on; for 3n+1 tiles, its waits (``discard`` null). Shapes as the
    variant plays them (no seven pairs or thirteen orphans once a meld is declared)."""
    variant = VARIANTS.get(variant_id)
    if variant is None:
        raise HintError(f"variant: unknown {variant_id!r}; known: {', '.join(VARIANTS)}")
    tiles: list[int] = list(parse_tiles(hand))
    wild_kind = parse_tiles(wild)[0] if wild else None
    if wild is not None and len(parse_tiles(wild)) != 1:
        raise HintError(f"wild: one tile, got {wild!r}")
    if any(t >= 34 for t in tiles) or (wild_kind is not None and wild_kind >= 34):
        raise HintError("hand: flowers are never part of a hand")
    if any(tiles.count(t) > 4 for t in set(tiles)):
        raise HintError("hand: more than four tiles of a kind")
    if len(tiles) % 3 == 0 or len(tiles) > 14 or melds + len(tiles) // 3 != 4:
        raise HintError(f"hand: {len(tiles)} concealed tiles do not go with {melds} declared melds")
    shapes = dict(variant.shapes)
    if melds:
        shapes.update(seven_pairs=False, thirteen_orphans=False)

    def ready(part: list[int]) -> list[JSON]:
        return [_tile(t) for t in sorted(waits(part, wild=wild_kind, **shapes))]

    if len(tiles) % 3 == 1:
        found = ready(tiles)
        return [{"discard": None, "waits": found}] if found else []
    out: list[JSON] = []
    for t in sorted(set(tiles)):
        rest: list[int] = list(tiles)
        rest.remove(t)
        found = ready(rest)
        if found:
            out.append({"discard": _tile(t), "waits": found})
    return out
