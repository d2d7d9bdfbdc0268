"""Shared helpers of the per-variant rule tests (``tests/test_*_rules.py``).

The rule tests write small ``majiang-record/1`` dicts in tile notation (partial
deals: the hands, draws, tail and reserved tiles a test needs), replay them with
:func:`majiang.records.replay`, or build a :class:`HandState` from a partial deal
and drive it action by action. The pieces that do not depend on the variant live
here; each test module keeps thin wrappers that fix its variant, its default
options and the names of its start counters and reserved tiles.

Actions are written as tuples ``(seat, type[, tile[, tiles]])``: see :func:`act`
and :func:`action`.

This module is a helper, not a test module: pytest does not collect it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from majiang.engine.match import Match
from majiang.engine.state import Action, HandState, WinInfo
from majiang.records import replay
from majiang.rules.base import score_position
from majiang.rules.view import Position
from majiang.tiles import parse_tile, parse_tiles

__all__ = [
    "PLAYERS",
    "act",
    "action",
    "claims_window",
    "do",
    "hand_entry",
    "in_legal_actions",
    "items",
    "kinds",
    "legal",
    "match_options",
    "new_state",
    "offered_in_window",
    "partial_deal",
    "record",
    "record_action",
    "replay_one",
    "run",
    "start_of",
    "t",
    "ts",
    "tsumogiri_step",
    "tsumogiri_until",
]

PLAYERS = ["Ann", "Bo", "Cy", "Di"]

# An action tuple of a test: (seat, type[, tile[, tiles]]).
ActionTuple = tuple[Any, ...]


# -- tiles ---------------------------------------------------------------------------------
def t(text: str) -> int:
    """One tile as its int."""
    return int(parse_tile(text))


def ts(text: str) -> list[int]:
    """Tiles in tile notation as ints."""
    return [int(x) for x in parse_tiles(text)]


# -- records -------------------------------------------------------------------------------
def act(
    seat: int,
    kind: str,
    tile: str | None = None,
    used: str | None = None,
    *,
    chi_names_tiles: bool = False,
) -> dict[str, Any]:
    """One record action from a tuple ``(seat, type[, tile[, used]])``.

    ``tile`` goes to the action's ``"tile"``, ``used`` to its ``"tiles"``. With
    ``chi_names_tiles`` the ``tile`` of a chi names the two hand tiles (``"tiles"``).
    """
    out: dict[str, Any] = {"seat": seat, "type": kind}
    if tile is not None:
        out["tiles" if chi_names_tiles and kind == "chi" else "tile"] = tile
    if used is not None:
        out["tiles"] = used
    return out


def partial_deal(
    hands: Sequence[str],
    *,
    draws: str = "",
    tail: str = "",
    reserved: Mapping[str, str | None] | None = None,
) -> dict[str, Any]:
    """A record deal naming ``hands``, ``draws``, ``tail`` and the reserved tiles.

    ``reserved`` maps a reserved group (``"horses"``, ``"birds"``,
    ``"wild_indicator"``) to its tiles; groups given as ``None`` are left out, and
    the deal has no ``"reserved"`` at all when none is left.
    """
    deal: dict[str, Any] = {"hands": list(hands), "draws": draws, "tail": tail}
    named = {k: v for k, v in (reserved or {}).items() if v is not None}
    if named:
        deal["reserved"] = named
    return deal


def hand_entry(
    deal: dict[str, Any],
    actions: Iterable[ActionTuple] = (),
    *,
    dealer: int | None = 0,
    autoplay: str | None = None,
    chi_names_tiles: bool = False,
) -> dict[str, Any]:
    """One hand of a record: the deal, the actions (tuples, see :func:`act`), and the
    dealer and autoplay unless ``None``."""
    out: dict[str, Any] = {
        "deal": deal,
        "actions": [act(*a, chi_names_tiles=chi_names_tiles) for a in actions],
    }
    if dealer is not None:
        out["dealer"] = dealer
    if autoplay is not None:
        out["autoplay"] = autoplay
    return out


def match_options(
    options: Mapping[str, Any] | None,
    defaults: Mapping[str, Any] | None = None,
    *,
    first_dealer: int | None = None,
) -> dict[str, Any]:
    """The options of a record or Match: ``options``, or ``defaults`` when ``None``,
    preceded by ``first_dealer`` unless that is ``None``."""
    chosen = dict((defaults or {}) if options is None else options)
    return chosen if first_dealer is None else {"first_dealer": first_dealer, **chosen}


def start_of(dealer: int, counters: Mapping[str, int] | None = None) -> dict[str, Any]:
    """A record's (or Match's) start: the dealer and the counters unless ``None``."""
    start: dict[str, Any] = {"dealer": dealer}
    if counters is not None:
        start["counters"] = dict(counters)
    return start


def record(
    variant: str,
    hands: Iterable[dict[str, Any]],
    *,
    options: Mapping[str, Any] | None = None,
    defaults: Mapping[str, Any] | None = None,
    first_dealer: bool = True,
    dealer: int = 0,
    counters: Mapping[str, int] | None = None,
    seed: int = 1,
    players: Sequence[str] = PLAYERS,
) -> dict[str, Any]:
    """A ``majiang-record/1`` of ``variant`` with the given hands (see :func:`hand_entry`).

    Options are ``options`` or, when ``None``, ``defaults``; with ``first_dealer``
    they start with ``"first_dealer": dealer``.
    """
    return {
        "format": "majiang-record/1",
        "variant": variant,
        "options": match_options(options, defaults, first_dealer=dealer if first_dealer else None),
        "seed": seed,
        "players": list(players),
        "start": start_of(dealer, counters),
        "hands": list(hands),
    }


def replay_one(rec: dict[str, Any]) -> dict[str, Any]:
    """Replay a one-hand record; the hand's majiang-result/1 entry (zero-sum checked)."""
    result = replay(rec)
    assert len(result["hands"]) == 1
    h: dict[str, Any] = result["hands"][0]
    assert sum(h["deltas"]) == 0
    return h


def items(h: dict[str, Any], kind: str | None = None) -> list[tuple[str, int, int, int]]:
    """A result hand's score items as sorted (kind, from, to, points), of ``kind`` only
    unless ``None``."""
    out = [(i["kind"], i["from"], i["to"], i["points"]) for i in h["items"]]
    return sorted(x for x in out if kind is None or x[0] == kind)


# -- driving HandState directly ------------------------------------------------------------
def new_state(
    variant: str,
    deal: dict[str, Any],
    *,
    options: Mapping[str, Any],
    start: Mapping[str, Any],
    seed: int = 1,
    players: Sequence[str] | None = PLAYERS,
) -> HandState:
    """The start of a hand built from a partial deal, for driving HandState directly."""
    match = Match(variant, options, seed, start, None if players is None else list(players))
    return match.new_hand(deal)


def action(seat: int, kind: str, tile: str | None = None) -> Action:
    """An Action from ``(seat, type[, tile])``; a chi's ``tile`` names its two hand tiles."""
    if kind == "chi":
        assert tile is not None
        return Action(seat, "chi", None, tuple(sorted(ts(tile))))
    return Action(seat, kind, None if tile is None else t(tile))


def record_action(*a: Any) -> Action:
    """An Action read from the record form (:func:`act`) of a tuple
    ``(seat, type[, tile[, tiles]])``."""
    return Action.from_json(act(*a))


def do(state: HandState, seat: int, kind: str, tile: str | None = None) -> None:
    """Apply one action ``(seat, type[, tile])`` (see :func:`action`); then the seats of
    an open window whose only choice is pass pass (``auto_pass``), as drivers do."""
    state.apply(action(seat, kind, tile))
    state.auto_pass()


def in_legal_actions(state: HandState, x: Action) -> bool:
    """Whether ``x`` is one of its seat's legal actions now."""
    return x in state.legal_actions(x.seat)


def offered_in_window(state: HandState, x: Action) -> bool:
    """Whether ``x`` is a pass or a claim the open window offers to its seat."""
    return x.type == "pass" or x in state.window_options.get(x.seat, [])


def claims_window(state: HandState, x: Action) -> bool:
    """Whether ``x`` is a pass or a claim offered to a seat of the open window that has
    not decided yet."""
    if x.type == "pass":
        return True
    return x.seat not in state.decisions and offered_in_window(state, x)


def run(
    state: HandState,
    actions: Iterable[ActionTuple],
    *,
    to_action: Callable[..., Action] = action,
    in_window: Callable[[HandState, Action], bool] = in_legal_actions,
) -> HandState:
    """Apply actions as a record does: an action that ``in_window`` says is not part of
    the open claim window closes it first (every undecided seat passes). At the end the
    seats of an open window whose only choice is pass pass (``auto_pass``)."""
    for a in actions:
        x = to_action(*a)
        if state.phase != "turn" and not in_window(state, x):
            state.close_window()
        state.apply(x)
    state.auto_pass()
    return state


def legal(state: HandState, seat: int) -> set[str]:
    """Legal actions as strings like 'S1 peng', 'S2 kong 5m', 'S1 chi 23m'."""
    return {str(a) for a in state.legal_actions(seat)}


def kinds(actions: Iterable[str]) -> set[str]:
    """The action types of actions written as by :func:`legal`."""
    return {a.split()[1] for a in actions}


def tsumogiri_step(state: HandState, *, strict: bool = False, keep: int | None = None) -> None:
    """One autoplay step: pass every open claim, else discard the drawn tile.

    Without a drawn tile in hand the highest tile other than ``keep`` is discarded;
    with ``strict`` a drawn tile in hand is required instead.
    """
    if state.phase != "turn":
        state.close_window()
        return
    seat = state.current
    tile = state.drawn
    if strict:
        assert tile is not None and state.concealed[seat][tile]
    elif tile is None or not state.concealed[seat][tile]:
        tile = max(x for x in range(34) if state.concealed[seat][x] and x != keep)
    state.apply(Action(seat, "discard", tile))
    state.auto_pass()


def tsumogiri_until(
    state: HandState,
    live: int,
    seen: dict[int, set[str]] | None = None,
    *,
    step: Callable[[HandState], None] = tsumogiri_step,
) -> None:
    """Tsumogiri (passing every claim) until a turn starts with R == live.

    With ``seen``, the legal actions of every turn passed on the way are recorded by R.
    """
    while not (state.phase == "turn" and state.live == live):
        assert not state.is_terminal()
        if seen is not None and state.phase == "turn":
            seen[state.live] = legal(state, state.current)
        step(state)


def patterns_of(state: HandState, win: WinInfo) -> tuple[list[str], int]:
    """The patterns and value the engine would settle ``win`` with in ``state`` now."""
    sc = score_position(state.variant, state.options, Position.of(state), win)
    return list(sc.patterns), sc.value
