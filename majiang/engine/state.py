"""One hand of mahjong as an OpenSpiel-shaped state: to_act, legal_actions, apply.

The engine knows turns, claim windows, kongs, robbing and the wall (RULES.md
0.3-0.5); everything a variant decides differently comes from its Variant value
and hooks. Only ``apply`` mutates, and it validates first, so a rejected action
leaves the state unchanged (DESIGN.md convention 4).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable, Mapping, Sequence
from itertools import chain, compress
from operator import mul
from types import ModuleType
from typing import TYPE_CHECKING

from majiang.errors import IllegalActionError
from majiang.hand import is_winning_counts, waits
from majiang.observation import MeldView, Observation, meld_views, observe
from majiang.rules.base import BaseRules, Variant, score_position
from majiang.scoring import Item
from majiang.tiles import Tile, format_tiles
from majiang.values import (
    ACTION_TYPES,
    Action,
    ActionType,
    Deal,
    Event,
    HandResult,
    Meld,
    MeldKind,
    Options,
    Outcome,
    Phase,
    VariantState,
    WinInfo,
    WinType,
    malformed,
)

if TYPE_CHECKING:
    from majiang.engine.world import Hidden

__all__ = ["ACTION_TYPES", "Action", "Deal", "HandResult", "HandState", "Meld", "WinInfo"]

# CPython 3.11 looks an enum member up as a class attribute in about 0.2 us (the type
# attribute cache does not serve enum classes); the hot paths below compare with these
# module-level aliases, the same objects.
P_CLAIM = Phase.CLAIM
P_DECLARE = Phase.DECLARE
P_END = Phase.END
P_ROB = Phase.ROB
P_TURN = Phase.TURN
A_CHI = ActionType.CHI
A_DISCARD = ActionType.DISCARD
A_ESCAPE = ActionType.ESCAPE
A_HU = ActionType.HU
A_KONG = ActionType.KONG
A_PASS = ActionType.PASS
A_PENG = ActionType.PENG
M_CHI = MeldKind.CHI
M_KONG_ADDED = MeldKind.KONG_ADDED
M_KONG_CONCEALED = MeldKind.KONG_CONCEALED
M_KONG_DIRECT = MeldKind.KONG_DIRECT
M_PENG = MeldKind.PENG
W_DISCARD = WinType.DISCARD
W_INSTANT = WinType.INSTANT
W_KONG_REPLACEMENT = WinType.KONG_REPLACEMENT
W_ROB_KONG = WinType.ROB_KONG
W_SELF_DRAW = WinType.SELF_DRAW
E_CLAIM = Event.CLAIM
E_DISCARD = Event.DISCARD
E_DRAW = Event.DRAW
E_KONG = Event.KONG
O_DRAW = Outcome.DRAW
O_WIN = Outcome.WIN


def _overrides(hooks: type, name: str) -> bool:
    """Does a variant's hook class replace BaseRules' default ``name``? The engine skips
    calling a default that changes nothing (no state to follow, nothing to filter)."""
    return getattr(hooks, name, None) is not getattr(BaseRules, name)


_SINGLES = tuple((t,) for t in range(34))
_OTHERS = tuple(tuple(s for s in range(4) if s != seat) for seat in range(4))
_DISCARDS = tuple(tuple(Action(s, A_DISCARD, t) for t in range(34)) for s in range(4))
_HU = tuple(Action(s, A_HU) for s in range(4))
_PASS = tuple(Action(s, A_PASS) for s in range(4))
_PENG = tuple(Action(s, A_PENG) for s in range(4))
_MELDED_KEYS = frozenset({"seven_pairs", "thirteen_orphans"})
"""The shape flags a hand with melds turns off (it cannot be seven pairs or 13 orphans)."""


def _py_play_listed(state: HandState, action: Action) -> None:
    """``state.apply_listed(action, then_pass=True)``: ``play_listed`` without the C
    accelerator, and its path for anything but a discard."""
    state.apply_listed(action, then_pass=True)


def _accelerator() -> ModuleType | None:
    """The C accelerator ``majiang.engine._speedups``, initialised; None without it or with
    ``MAJIANG_ENGINE_PURE=1`` (the pure Python methods are the fallback and the reference:
    mutation testing sets it, and tests compare both)."""
    if os.environ.get("MAJIANG_ENGINE_PURE", "") not in ("", "0"):
        return None
    try:
        import majiang.engine._speedups as _speedups
    except ImportError:  # pragma: no cover - the pure Python path is the fallback
        return None
    _speedups.init(P_TURN, P_CLAIM, E_DISCARD, E_DRAW, _OTHERS, _DISCARDS, _HU, _PASS,
                   is_winning_counts, M_PENG, A_DISCARD, _py_play_listed)
    return _speedups


_FAST = _accelerator()
ACCELERATED = _FAST is not None
"""True when the C accelerator ``majiang.engine._speedups`` is in use."""
play_listed: Callable[[HandState, Action], None] = (
    _py_play_listed if _FAST is None else _FAST.play_listed
)
"""``state.apply_listed(action, then_pass=True)`` as a function, for drivers that always
call ``auto_pass`` next (majiang.rl.table): with the accelerator, a discard of the turn's
own list and all that follows it is one C call, with no Python frame between."""


class HandState:
    """The full state of one hand. Seats 0-3; the dealer starts with 14 tiles."""

    def __init__(
        self,
        variant: Variant,
        options: Options,
        dealer: int,
        counters: Mapping[str, int],
        deal: Deal,
    ) -> None:
        self.variant = variant
        self.rules = variant.rules
        self.options = dict(options)
        self.dealer = dealer
        self.counters = dict(counters)
        self.deal = deal
        self.concealed: list[list[int]] = [[0] * 34 for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        """Exposed flowers of each seat, in the order they were exposed (RULES.md 3.1)."""
        for seat, tiles in enumerate(deal.hands):
            for t in tiles:
                if t >= 34:
                    self.flowers[seat].append(t)
                else:
                    self.concealed[seat][t] += 1
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self._views: tuple[tuple[MeldView, ...], ...] | None = None
        """The melds as every other seat sees them, until they change (``meld_views``)."""
        self._hiding: frozenset[int] = frozenset()
        """The seats with a concealed kong, whose own view of the melds differs."""
        self.discards: list[list[int]] = [[] for _ in range(4)]
        self.wall = list(deal.wall)
        self.lo = 0
        self.hi = len(self.wall)
        self.reserved = {k: tuple(v) for k, v in deal.reserved.items()}
        self.current = dealer
        self.phase = P_TURN
        self.drawn: int | None = deal.hands[dealer][-1] if deal.hands[dealer] else None
        self.can_win_now = True
        self.first_turn = True
        self.after_kong: Meld | None = None
        self.window_tile: int | None = None
        self.window_from: int | None = None
        self.window_options: dict[int, list[Action]] = {}
        """The open window's seats with something to claim (their claims and pass)."""
        self.window_seats: tuple[int, ...] = ()
        """Every seat that decides in the open window, whether or not it can claim: the
        others of a discard or added kong, the dealer after an instant declaration."""
        self.decisions: dict[int, Action] = {}
        self.pending_kong: Meld | None = None
        self.kongs: list[tuple[Meld, int]] = []
        self.burned: list[int] = []
        """Tiles taken from the back and put out of play (variants that burn tiles)."""
        self.history: list[Action] = []
        self._unlisted: tuple[int, tuple[int, ...]] = (-1, ())
        """(len(history), seats) when the last window resolved: its seats passed unlisted."""
        self.result_: HandResult | None = None
        self._ended_at = -1
        self._turn_cache: list[Action] | None = None
        self.wild: int | None = self.rules.wild_kind(self.options, self.reserved)
        self.shapes = dict(variant.shapes)
        self.meld_wilds = self.wild is not None and self.rules.wilds_in_melds(self.options)
        self.last_turn = self.live <= variant.claim_end_live
        self.final_turn = False
        self.last_drawer = dealer
        self.instant_declined: set[int] = set()
        self._waits_cache: dict[int, tuple[tuple[tuple[int, ...], int], frozenset[int]]] = {}
        self.claims_count = [[0] * 4 for _ in range(4)]
        """claims_count[a][b]: chi, peng and direct kongs seat a made on seat b's discards."""
        self.seat_log: list[list[str]] = [["D"] if s == dealer else [] for s in range(4)]
        """Each seat's own actions: D draw, K kong, P wild discard, X discard, C chi/peng."""
        self.missed_win: list[set[int]] = [set() for _ in range(4)]
        self.missed_peng: list[set[int]] = [set() for _ in range(4)]
        if any(self.flowers):
            self._replace_dealt_flowers()
        self.variant_state: VariantState | None = None
        """The variant's own state, as its ``start`` / ``on_event`` hooks returned it."""
        self.variant_state = self.rules.start(self)
        self._revealed = {
            p: t for p, t in self.reserved.items() if variant.reserved_purpose(p).shown == "deal"
        }
        hooks = type(self.rules)
        follows = self.rules.followed_events if _overrides(hooks, "on_event") else frozenset()
        self._follows_draw = E_DRAW in follows
        self._follows_discard = E_DISCARD in follows
        self._follows_claim = E_CLAIM in follows
        self._follows_kong = E_KONG in follows
        self._filters_turn = _overrides(hooks, "filter_turn")
        self._filters_claims = _overrides(hooks, "filter_claims")
        self._limits_self_draw = _overrides(hooks, "can_self_draw")

    @classmethod
    def from_observation(
        cls,
        observation: Observation,
        hidden: Hidden,
        *,
        after_kong: int | None = None,
        seat_logs: Sequence[Sequence[str]] | None = None,
    ) -> HandState:
        """The hand ``observation`` shows, with ``hidden`` filling every place it hides
        (a sampled world, ``majiang.engine.world``): its ``observation(seat)`` equals the
        one given. DealError if ``hidden`` does not fit."""
        from majiang.engine.world import world_from_observation

        return world_from_observation(
            observation, hidden, after_kong=after_kong, seat_logs=seat_logs
        )

    def _replace_dealt_flowers(self) -> None:
        """D48: from the dealer in turn order, each seat replaces its flowers from the back.

        If the dealer's 14th tile was a flower, his last replacement is his drawn tile.
        """
        for i in range(4):
            seat = (self.dealer + i) % 4
            owed = len(self.flowers[seat])
            while owed:
                self.hi -= 1
                t = self.wall[self.hi]
                if t >= 34:
                    self.flowers[seat].append(t)
                    continue
                owed -= 1
                self.concealed[seat][t] += 1
                if seat == self.dealer and self.drawn is not None and self.drawn >= 34:
                    self.drawn = t if owed == 0 else self.drawn

    # -- queries -----------------------------------------------------------------
    @property
    def live(self) -> int:
        """R: tiles left in the live wall."""
        return self.hi - self.lo

    @property
    def ended(self) -> bool:
        """Has the hand ended? (HandView)"""
        return self.result_ is not None

    def is_terminal(self) -> bool:
        """True once the hand has ended."""
        return self.result_ is not None

    def result(self) -> HandResult:
        """The hand's result; only after it ended."""
        if self.result_ is None:
            raise IllegalActionError("the hand has not ended")
        return self.result_

    def returns(self) -> list[int]:
        """Deltas of the ended hand (OpenSpiel's returns)."""
        return self.result().deltas

    def rewards(self) -> list[int]:
        """Each seat's reward for the last ``apply`` (OpenSpiel's rewards): the hand's
        deltas on the step that ended it, zeros on every other; they sum to ``returns``."""
        if self.result_ is not None and self._ended_at == len(self.history):
            return self.result_.deltas
        return [0, 0, 0, 0]

    def restrictions(self, seat: int) -> list[tuple[str, str]]:
        """The variant's restrictions in force for ``seat`` now, as (id, detail), for front
        ends to explain why a choice is missing (抓打, 漏胡 …); ids name ``Variant.term``."""
        return self.rules.restrictions_now(self, seat, self.legal_actions(seat))

    def to_act(self) -> list[int]:
        """Seats that must decide now: the turn's seat (with, before the dealer's first
        discard, the seats that may declare an instant win), or every undecided seat of
        the open window, whether or not it can claim (its only choice may be pass)."""
        if self.result_ is not None:
            return []
        if self.phase is P_TURN:
            if self.first_turn:
                return [self.current, *self._instant_seats()]
            return [self.current]
        return [s for s in self.window_seats if s not in self.decisions]

    def _instant_for_dealer(self) -> bool:
        """Can the dealer declare an instant win now: 天胡 (complete; after his first-turn
        kongs only where D19 says so) or the variant's own (四红中)?"""
        v = self.variant
        heavenly = v.heavenly and (v.heavenly_after_kong or not self.melds[self.dealer])
        if heavenly and self.can_win_now and self._complete(self.dealer, None):
            return True
        return self.rules.instant_win(self, self.dealer)

    def _instant_seats(self) -> list[int]:
        """Other seats that may declare an instant win (D56), on their own tiles only:
        before the dealer's first discard. Whether the dealer has one of his own is
        hidden from them, so it is settled after a declaration (the "declare" window)."""
        if not self.first_turn or self.phase is not P_TURN:
            return []
        return [
            s
            for s in range(4)
            if s != self.dealer
            and s not in self.instant_declined
            and self.rules.instant_win(self, s)
        ]

    def hand_tiles(self, seat: int) -> list[int]:
        """The seat's concealed tiles, ascending."""
        return list(chain.from_iterable(map(mul, _SINGLES, self.concealed[seat])))

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal decision of ``seat`` now, in canonical order (escape is always
        allowed); a function of what the seat may know (DESIGN.md, information sets)."""
        if type(seat) is not int:
            raise IllegalActionError(f"a seat is an int 0-3, got {seat!r}")
        if self.phase is P_TURN and seat == self.current and self.result_ is None:
            return list(self._turn_actions(seat))
        if not 0 <= seat <= 3:
            raise IllegalActionError(f"a seat is an int 0-3, got {seat!r}")
        if self.result_ is not None:
            return []
        if self.phase is P_TURN:
            return [_HU[seat], _PASS[seat]] if seat in self._instant_seats() else []
        if seat in self.window_seats and seat not in self.decisions:
            opts = self.window_options.get(seat)
            return list(opts) if opts else [_PASS[seat]]
        return []

    def _turn_actions(self, seat: int) -> list[Action]:
        cached = self._turn_cache
        if cached is not None:
            return cached
        if _FAST is not None:
            built: list[Action] = _FAST.turn_actions(self, seat)  # the same list, in C
            return built
        return self._py_turn_actions(seat)

    def _py_turn_actions(self, seat: int) -> list[Action]:
        """The turn's legal list (kept as ``_turn_cache``): hu, the last tile's pass, kongs,
        each held kind's discard, then the variant's filter; the C accelerator's reference."""
        c = self.concealed[seat]
        out: list[Action] = []
        if (
            self.can_win_now
            and self.drawn is not None
            and self._complete(seat, None)
            and (not self._limits_self_draw or self.rules.can_self_draw(self, seat))
        ) or (self.first_turn and self.rules.instant_win(self, seat)):
            out.append(_HU[seat])
        if self.final_turn:
            out.append(_PASS[seat])  # RULES.md 3.2: the last tile is not discarded
            self._turn_cache = out
            return out
        wild = self.wild
        if self.hi - self.lo >= self.variant.kong_min_live and (
            self.melds[seat] or 4 in c or (self.meld_wilds and wild is not None and c[wild])
        ):  # else _own_kongs finds none: no peng to add to, no four held, no wild to use
            out.extend(self._own_kongs(seat))
        out.extend(compress(_DISCARDS[seat], c))
        if self._filters_turn:
            out = self.rules.filter_turn(self, seat, out)
        self._turn_cache = out
        return out

    def _own_kongs(self, seat: int) -> list[Action]:
        """Concealed and added kongs, with wilds standing in where allowed (RULES.md 2.1)."""
        c = self.concealed[seat]
        wild = self.wild
        found: list[Action] = []
        if not self.meld_wilds or wild is None or not c[wild]:
            # natural kongs only: no wild in melds, or none held (the common case)
            if 4 in c:  # wilds are never konged without wild_in_melds (RULES.md 4.1, 5.1)
                found = [Action(seat, A_KONG, t) for t in range(34) if c[t] == 4 and t != wild]
            for m in self.melds[seat]:  # a loop, not a comprehension: most turns have none
                if m.kind == M_PENG and c[m.tiles[0]]:
                    found.append(Action(seat, A_KONG, m.tiles[0]))
            if len(found) > 1:
                found.sort(key=Action.sort_key)
            return found
        for t in range(34):
            if t == wild or not c[t]:
                continue
            if c[t] == 4:
                found.append(Action(seat, A_KONG, t))
            if self.meld_wilds and wild is not None and c[wild]:
                for k in range(max(1, 4 - c[wild]), min(c[t], 3) + 1):
                    found.append(
                        Action(seat, A_KONG, t, tuple(sorted((t,) * k + (wild,) * (4 - k))))
                    )
        for m in self.melds[seat]:
            if m.kind == M_PENG:
                t = m.tiles[0]
                if c[t]:
                    found.append(Action(seat, A_KONG, t))
                if self.meld_wilds and wild is not None and c[wild]:
                    found.append(Action(seat, A_KONG, t, (wild,)))
        found.sort(key=Action.sort_key)
        return found

    def _complete(self, seat: int, extra: int | None) -> bool:
        if extra is not None:
            # a seat's waits change only when its own tiles do: cache them per seat
            key = (tuple(self.concealed[seat]), len(self.melds[seat]))
            hit = self._waits_cache.get(seat)
            if hit is None or hit[0] != key:
                hit = (key, self._waits(seat))
                self._waits_cache[seat] = hit
            return extra in hit[1]
        counts = self.concealed[seat]  # no tile list built: the hot path of every turn
        if self.melds[seat]:
            shapes = self.shapes
            if shapes.keys() <= _MELDED_KEYS:  # the flags melds turn off: passed by name
                return is_winning_counts(
                    counts, wild=self.wild, seven_pairs=False, thirteen_orphans=False
                )
            melded = {**shapes, "seven_pairs": False, "thirteen_orphans": False}
            return is_winning_counts(counts, wild=self.wild, **melded)
        if self.shapes:
            return is_winning_counts(counts, wild=self.wild, **self.shapes)
        return is_winning_counts(counts, wild=self.wild)  # no ** of an empty dict (0.4 us)

    def _waits(self, seat: int) -> frozenset[int]:
        """Kinds completing the seat's 3n+1 concealed tiles."""
        shapes = self.shapes
        if self.melds[seat]:
            shapes = {**shapes, "seven_pairs": False, "thirteen_orphans": False}
        return frozenset(waits(self.hand_tiles(seat), wild=self.wild, **shapes))

    # -- transitions -------------------------------------------------------------
    def clone(self) -> HandState:
        """An independent copy (values shared where immutable)."""
        other = copy.copy(self)
        other.options = dict(self.options)
        other.counters = dict(self.counters)
        other.concealed = [list(c) for c in self.concealed]
        other.melds = [list(m) for m in self.melds]
        other.discards = [list(d) for d in self.discards]
        other.wall = list(self.wall)
        other.window_options = {s: list(a) for s, a in self.window_options.items()}
        other.decisions = dict(self.decisions)
        other.kongs = list(self.kongs)
        other.burned = list(self.burned)
        other.history = list(self.history)
        other.claims_count = [list(r) for r in self.claims_count]
        other.seat_log = [list(r) for r in self.seat_log]
        other.missed_win = [set(r) for r in self.missed_win]
        other.missed_peng = [set(r) for r in self.missed_peng]
        other.flowers = [list(f) for f in self.flowers]
        other.instant_declined = set(self.instant_declined)
        other._waits_cache = dict(self._waits_cache)
        other.shapes = dict(self.shapes)
        return other

    def apply(self, action: Action) -> None:
        """Apply a legal action; IllegalActionError (state unchanged) otherwise.

        Every check comes before the first change, so nothing is ever half-applied.
        """
        # exact types first (a float or bool seat or tile compares equal to an int); the
        # ranges are those of the legal lists an action must be in, escape's checked here
        if type(action) is not Action:
            raise IllegalActionError(malformed(action) or f"not an action: {action!r}")
        seat, kind, tile, tiles = action
        if (
            type(seat) is not int
            or (tile is not None and type(tile) is not int)
            or type(tiles) is not tuple
            or (tiles and not all(type(x) is int for x in tiles))
        ):
            raise IllegalActionError(malformed(action) or f"not an action: {action!r}")
        if self.result_ is not None:
            raise IllegalActionError("the hand has already ended")
        if kind == A_ESCAPE:
            bad = malformed(action)
            if bad is not None:
                raise IllegalActionError(bad)
            self.history.extend(self._passes_unlisted())
            self.history.append(action)
            self._end_escape(seat)
            return
        if self.phase is P_TURN:
            if seat != self.current:
                if seat in self._instant_seats() and action in (_HU[seat], _PASS[seat]):
                    self.history.append(action)
                    self._turn_cache = None
                    if kind == A_PASS:
                        self.instant_declined.add(seat)  # D56: declined for good
                        return
                    self._declare_instant(seat)
                    return
                raise IllegalActionError(f"it is seat {self.current}'s turn, not seat {seat}'s")
            listed = self._turn_cache  # the list _turn_actions keeps, read without a call
            if action not in (listed if listed is not None else self._turn_actions(seat)):
                raise IllegalActionError(self._why_not(action))
            if kind == A_PASS and self._passed_unlisted(seat):
                # FORMAT.md: a pass listed right after the window would be read as this
                # seat's decision in it, so that decision is listed first
                self.history.append(action)
            self.history.append(action)
            self._turn_cache = None
            self._apply_turn(action)
            return
        if seat not in self.window_seats:
            if seat == self.window_from and self.phase is not P_DECLARE:
                raise IllegalActionError(f"seat {seat} cannot claim its own tile")
            raise IllegalActionError(f"seat {seat} has nothing to decide in this window")
        if seat in self.decisions:
            raise IllegalActionError(f"seat {seat} has already decided in this window")
        opts = self.window_options.get(seat)
        if opts is None:
            if action != _PASS[seat]:
                bad = malformed(action)
                if bad is not None:
                    raise IllegalActionError(bad)
                what = f"on {Tile(self.window_tile)}" if self.window_tile is not None else "now"
                raise IllegalActionError(f"seat {seat} has nothing to claim {what}")
        elif action not in opts:
            raise IllegalActionError(self._why_not(action))
        self.history.append(action)
        self.decisions[seat] = action
        if len(self.decisions) == len(self.window_seats):
            self._turn_cache = None
            self._resolve_window()

    def apply_listed(self, action: Action, *, then_pass: bool = False) -> None:
        """``apply`` of an element of the turn's own legal list, read since the last
        change (a driver indexing ``legal_actions``' list: majiang.rl.table): the same
        transition without finding it in the list again; any other action goes to
        ``apply``. ``then_pass``: ``auto_pass`` follows at once (a driver that always calls
        it next); ``play_listed`` is this with the accelerator's discard path, and this
        method its reference."""
        if (
            self._turn_cache is None
            or self.phase is not P_TURN
            or self.result_ is not None
            or action.seat != self.current
        ):
            self.apply(action)
            if then_pass:
                self.auto_pass()
            return
        if action.type == A_PASS and self._passed_unlisted(action.seat):
            self.history.append(action)  # as apply: the window's decision listed first
        self.history.append(action)
        self._turn_cache = None
        self._apply_turn(action)
        if then_pass:
            self.auto_pass()

    def auto_pass(self) -> None:
        """Every undecided seat of the open window whose only choice is pass passes.

        Not written to ``history``: FORMAT.md deems a seat that is not listed to pass.
        That choice depends only on the seat's own legal list, so drivers call this
        instead of asking a bot (or a person) to pass; a window nobody can claim in then
        resolves at once. Does nothing outside a window.
        """
        if self.phase is P_TURN or self.result_ is not None:
            return
        opts = self.window_options
        decisions = self.decisions
        if not opts and not decisions and self.phase is P_CLAIM:
            # nobody can claim: the window resolves as every seat passed (the common case)
            source = self.window_from
            assert source is not None
            self.phase = P_TURN
            self.window_seats = ()
            self._turn_cache = None
            self._next_draw(source)
            return
        for s in self.window_seats:
            if s not in opts and s not in decisions:
                decisions[s] = _PASS[s]
        if len(decisions) == len(self.window_seats):
            self._turn_cache = None
            self._resolve_window()

    def close_window(self) -> None:
        """Every seat that has not decided passes; the window is then resolved."""
        if self.phase is not P_TURN and self.result_ is None:
            for s in self.window_seats:
                self.decisions.setdefault(s, _PASS[s])
            self._turn_cache = None
            self._resolve_window()

    def _passes_unlisted(self) -> list[Action]:
        """Before an escape on a turn: the passes of the window just resolved that are not
        in ``history`` (auto_pass, close_window). docs/format.md: an escape leaves a window the
        record shows open unresolved, so they are listed to show it was resolved."""
        if self.phase is not P_TURN or not self.history:
            return []
        last = self.history[-1]
        if last.type == A_DISCARD:  # nobody could claim: resolved at once, nothing listed
            return [_PASS[s] for s in _OTHERS[last.seat]]
        at, seats = self._unlisted
        return [_PASS[s] for s in seats] if at == len(self.history) else []

    def _passed_unlisted(self, seat: int) -> bool:
        """Did ``seat`` pass the last discard's window without a pass in ``history``
        (auto_pass, close_window)? Only the window's decisions follow that discard."""
        for a in reversed(self.history):
            if a.type == A_DISCARD:
                return a.seat != seat
            if a.seat == seat:
                return False
        return False

    def _why_not(self, action: Action) -> str:
        bad = malformed(action)
        if bad is not None:
            return bad
        t = "" if action.tile is None else f" {Tile(action.tile)}"
        if (
            action.type == A_DISCARD
            and action.tile is not None
            and not (action.tile < 34 and self.concealed[action.seat][action.tile])
        ):
            return f"seat {action.seat} does not hold{t}"
        if action.type == A_HU:
            if self.phase is P_TURN and not self.can_win_now:
                return f"seat {action.seat} may not win right after a chi or peng (RULES.md D5)"
            return f"seat {action.seat} has no winning hand here"
        if action.type == A_KONG and self.live < self.variant.kong_min_live:
            return f"no kong with R = {self.live}: a replacement tile must exist"
        if action.type in ("chi", "peng", "kong") and self.phase is not P_TURN:
            return f"seat {action.seat} cannot {action.type}{t} on this tile"
        return f"{action.type}{t} is not legal for seat {action.seat} now"

    def _apply_turn(self, action: Action) -> None:
        seat, kind = action.seat, action.type
        c = self.concealed[seat]
        if kind == A_PASS:
            self._end_draw()  # RULES.md 3.2: the seat on the last tile did not win
            return
        if kind == A_HU:
            win_type = W_SELF_DRAW
            kong_source = None
            if self.first_turn and seat == self.dealer and self._instant_for_dealer():
                win_type = W_INSTANT
            elif self.after_kong is not None:
                win_type = W_KONG_REPLACEMENT
                if self.after_kong.kind == M_KONG_DIRECT:
                    kong_source = self.after_kong.source
            assert self.drawn is not None
            self._end_win(WinInfo(seat, win_type, self.drawn, None, kong_source))
            return
        if kind == A_KONG:
            t = action.tile
            assert t is not None
            used = action.tiles or (t,)
            peng_idx = next(
                (i for i, m in enumerate(self.melds[seat]) if m.kind == M_PENG and m.tiles[0] == t),
                None,
            )
            self.seat_log[seat].append("K")
            self._clear_missed(seat, "claim")
            if len(used) == 4 or (not action.tiles and c[t] == 4 and peng_idx is None):
                for x in used if action.tiles else (t,) * 4:
                    c[x] -= 1
                wilds = sum(1 for x in used if x == self.wild and x != t) if action.tiles else 0
                meld = Meld(M_KONG_CONCEALED, (t,) * 4, wilds=wilds)
                self.melds[seat].append(meld)
                self._views = None
                self.kongs.append((meld, seat))
                if self._follows_kong:
                    self.variant_state = self.rules.on_event(self, E_KONG, seat, t)
                self._back_draw(seat, meld)
                return
            assert peng_idx is not None
            peng = self.melds[seat][peng_idx]
            c[used[0]] -= 1
            extra_wild = 1 if used[0] != t else 0
            meld = Meld(M_KONG_ADDED, (t,) * 4, peng.source, peng.claimed, peng.wilds + extra_wild)
            self.melds[seat][peng_idx] = meld
            self._views = None
            self.pending_kong = meld
            if self._follows_kong:
                self.variant_state = self.rules.on_event(self, E_KONG, seat, t)
            if self.variant.rob_added_kong:
                # every other seat decides, whether or not it can rob: who can is hidden
                self._open_window(P_ROB, seat, t, self._robbers(seat, t))
                return
            self._kong_stands(seat)
            return
        t = action.tile
        assert t is not None
        c[t] -= 1
        self.discards[seat].append(t)
        self.seat_log[seat].append("P" if t == self.wild else "X")
        self._after_discard(seat, t)

    def _after_discard(self, seat: int, t: int) -> None:
        """The discard's claim window (RULES.md 0.4), for every other seat: whether any
        seat can claim is hidden, so the window opens even when none can (FORMAT.md: a
        seat with nothing to claim passes); auto_pass() or close_window() resolve it."""
        self.first_turn = False
        self.after_kong = None
        self.drawn = None
        if self._follows_discard:
            self.variant_state = self.rules.on_event(self, E_DISCARD, seat, t)
        self.window_options = self._claim_options(seat, t)  # sets window_from, window_tile
        self.window_seats = _OTHERS[seat]
        self.decisions = {}
        self.phase = P_CLAIM

    def _kong_stands(self, seat: int) -> None:
        meld = self.pending_kong
        assert meld is not None
        self.pending_kong = None
        self.kongs.append((meld, seat))
        self._back_draw(seat, meld)

    def _robbers(self, konger: int, t: int) -> dict[int, list[Action]]:
        out: dict[int, list[Action]] = {}
        for s in range(4):
            if (
                s != konger
                and t not in self.missed_win[s]
                and self._complete(s, t)
                and self.rules.can_rob(self, s, konger, t)
            ):
                out[s] = [_HU[s], _PASS[s]]
        return out

    def _claim_options(self, discarder: int, t: int) -> dict[int, list[Action]]:
        out: dict[int, list[Action]] = {}
        self.window_from = discarder
        self.window_tile = t
        claims = self.variant.claims
        if t == self.wild:
            claims = claims & self.variant.wild_discard_claims  # e.g. 财神不能放铳 (RULES.md 2.1)
        if self.last_turn:
            claims = claims & {"hu"}  # RULES.md 1.2 / 2.2: the last discard is only won on
        if not claims:
            return out
        chi_seat = (discarder + 1) % 4 if "chi" in claims else -1
        wk = self.wild if (self.meld_wilds and self.wild is not None) else -1
        hu = "hu" in claims
        rules = self.rules
        if not hu and chi_seat < 0 and wk < 0:
            # pengs and kongs of natural tiles only: a seat holding two of the tile is the
            # only one with a claim (the loop below, without its hu and wild branches)
            concealed = self.concealed
            for s in _OTHERS[discarder]:
                if concealed[s][t] >= 2:
                    melds = self._meld_claims(s, discarder, t, claims)
                    if melds and self._filters_claims:
                        melds = rules.filter_claims(self, s, discarder, t, melds)
                    if melds:
                        melds.append(_PASS[s])
                        out[s] = melds
            return out
        for s in _OTHERS[discarder]:
            c = self.concealed[s]
            acts: list[Action] = []
            if (
                hu
                and t not in self.missed_win[s]
                and rules.may_win_on_discard(self, s, discarder, t)
                and self._complete(s, t)
                and rules.can_win_on_discard(self, s, discarder, t)
            ):
                acts.append(_HU[s])
            # a seat that can neither chi nor hold two of the tile (wilds counted where they
            # stand in melds) has no meld claim: _meld_claims is not called for it
            if s == chi_seat or (c[t] >= 2 if wk < 0 else (c[t] if t != wk else 0) + c[wk] >= 2):
                acts += self._meld_claims(s, discarder, t, claims)
            if acts and self._filters_claims:
                acts = rules.filter_claims(self, s, discarder, t, acts)
            if acts:
                acts.append(_PASS[s])
                out[s] = acts
        return out

    def _meld_claims(self, s: int, discarder: int, t: int, claims: frozenset[str]) -> list[Action]:
        """Kong, peng and chi of the discard ``t`` by seat ``s`` (wilds where allowed)."""
        c = self.concealed[s]
        wk = self.wild if self.wild is not None else -1
        w = c[wk] if (self.meld_wilds and wk >= 0) else 0
        nat = c[t] if t != wk else 0
        acts: list[Action] = []
        if nat + w < 2 and ("chi" not in claims or s != (discarder + 1) % 4):
            return acts
        if "kong" in claims and self.live >= self.variant.kong_min_live:
            if nat == 3:
                acts.append(Action(s, A_KONG, t))
            for k in range(max(0, 3 - w), min(nat, 2) + 1):
                acts.append(Action(s, A_KONG, t, tuple(sorted((t,) * k + (wk,) * (3 - k)))))
        if "peng" in claims and t not in self.missed_peng[s]:
            if nat >= 2:
                acts.append(_PENG[s])
            for k in range(max(0, 2 - w), min(nat, 1) + 1):
                acts.append(Action(s, A_PENG, None, tuple(sorted((t,) * k + (wk,) * (2 - k)))))
        if (
            "chi" in claims
            and s == (discarder + 1) % 4
            and t < 27
            and self.rules.can_chi(self, s, discarder, t)
        ):
            d = t % 9
            for lo in (d - 2, d - 1, d):
                if lo < 0 or lo + 2 > 8:
                    continue
                need = [t - d + x for x in (lo, lo + 1, lo + 2) if x != d]
                if all(c[x] and x != wk for x in need):
                    acts.append(Action(s, A_CHI, None, tuple(need)))
                if w:
                    # a wild may stand in for either tile, held or not (RULES.md 2.1, D28)
                    for other in need:
                        act = Action(s, A_CHI, None, tuple(sorted((other, wk))))
                        if c[other] and other != wk and act not in acts:
                            acts.append(act)
                if w >= 2 and Action(s, A_CHI, None, (wk, wk)) not in acts:
                    # two wilds with the discard: the discard is the meld's natural tile
                    acts.append(Action(s, A_CHI, None, (wk, wk)))
        return acts

    def _open_window(
        self, phase: Phase, source: int, t: int | None, options: dict[int, list[Action]]
    ) -> None:
        self.phase = phase
        self.window_from = source
        self.window_tile = t
        self.window_options = options
        self.window_seats = _OTHERS[source] if phase is not P_DECLARE else (self.dealer,)
        self.decisions = {}

    def _declare_instant(self, seat: int) -> None:
        """A non-dealer declares an instant win (D56, FORMAT.md): it stands unless the
        dealer, asked next, declares his own (天胡优先, RULES.md 4.4)."""
        dealer = self.dealer
        options = {dealer: [_HU[dealer], _PASS[dealer]]} if self._instant_for_dealer() else {}
        self._open_window(P_DECLARE, seat, None, options)

    def _resolve_window(self) -> None:
        source = self.window_from
        t = self.window_tile
        assert source is not None
        history, decisions, listed = self.history, self.decisions, set()
        for a in reversed(history):  # the window's listed decisions end the history
            if a.seat in listed or decisions.get(a.seat) != a:
                break
            listed.add(a.seat)
        self._unlisted = (len(history), tuple(s for s in self.window_seats if s not in listed))
        claims = [a for a in self.decisions.values() if a.type != A_PASS]
        offered = self.window_options
        phase = self.phase
        self.phase = P_TURN
        self.window_options = {}
        self.window_seats = ()
        self.decisions = {}
        if phase is P_DECLARE:
            if claims:
                drawn = self.drawn
                tile = drawn if drawn is not None else self.hand_tiles(self.dealer)[-1]
                self._end_win(WinInfo(self.dealer, W_INSTANT, tile, None))
            else:
                self._end_win(WinInfo(source, W_INSTANT, self.hand_tiles(source)[-1], None))
            return
        assert t is not None
        if phase is P_ROB:
            self._note_missed(offered, claims, t)
            robbers = [a for a in claims if a.type == A_HU]
            if robbers:
                winner = min(robbers, key=lambda a: (a.seat - source) % 4).seat
                meld = self.pending_kong
                assert meld is not None
                self.pending_kong = None
                # RULES.md D9: a robbed kong is cancelled; the konger keeps his peng.
                idx = self.melds[source].index(meld)
                self.melds[source][idx] = Meld(M_PENG, (t,) * 3, meld.source, meld.claimed)
                self._views = None
                self._end_win(WinInfo(winner, W_ROB_KONG, t, source))
                return
            self.current = source
            self._kong_stands(source)
            return
        self._note_missed(offered, claims, t)
        if not claims:
            self._next_draw(source)
            return
        rank = {"hu": 0, "kong": 1, "peng": 1, "chi": 2}
        best = min(claims, key=lambda a: (rank[a.type], (a.seat - source) % 4))
        s = best.seat
        c = self.concealed[s]
        if best.type == A_HU:
            self._end_win(WinInfo(s, W_DISCARD, t, source))
            return
        self.discards[source].pop()
        self.first_turn = False
        self.current = s
        self.claims_count[s][source] += 1
        used = best.tiles
        wilds = sum(1 for x in used if x == self.wild and x != t)
        if best.type == A_KONG:
            for x in used or (t, t, t):
                c[x] -= 1
            meld = Meld(M_KONG_DIRECT, (t,) * 4, source, t, wilds)
            self.melds[s].append(meld)
            self._views = None
            self.kongs.append((meld, s))
            self.seat_log[s].append("K")
            self._clear_missed(s, "claim")
            if self._follows_claim:
                self.variant_state = self.rules.on_event(self, E_CLAIM, s, t)
            self._back_draw(s, meld)
            return
        for x in used or (t, t):
            c[x] -= 1
        if best.type == A_PENG:
            self.melds[s].append(Meld(M_PENG, (t,) * 3, source, t, wilds))
        else:
            self.melds[s].append(Meld(M_CHI, self._chi_sequence(t, used), source, t, wilds))
        self._views = None
        self.seat_log[s].append("C")
        self.drawn = None
        self.can_win_now = False  # RULES.md D5: no win right after a chi or peng
        self.after_kong = None
        self._clear_missed(s, "claim")
        if self._follows_claim:
            self.variant_state = self.rules.on_event(self, E_CLAIM, s, t)

    def _chi_sequence(self, t: int, used: tuple[int, ...]) -> tuple[int, ...]:
        """The three kinds a chi stands for: the lowest sequence fitting its natural tiles."""
        naturals = [x for x in used if x != self.wild]
        if len(naturals) == 2:
            return tuple(sorted((*naturals, t)))
        d = t % 9
        for lo in (d - 2, d - 1, d):
            seq = tuple(t - d + x for x in (lo, lo + 1, lo + 2))
            if lo >= 0 and lo + 2 <= 8 and all(x in seq for x in naturals):
                return seq
        raise IllegalActionError(f"no sequence of {Tile(t)} with {format_tiles(used)}")

    def _note_missed(
        self, offered: Mapping[int, list[Action]], claims: list[Action], t: int
    ) -> None:
        """漏胡 / 漏碰: a seat that could win or peng ``t`` and did not (RULES.md D8)."""
        rules = self.variant.missed_rules
        if not rules:
            return
        chosen = {a.seat: a.type for a in claims}
        for seat, acts in offered.items():
            kinds = {a.type for a in acts}
            if "win" in rules and "hu" in kinds and chosen.get(seat) != "hu":
                self.missed_win[seat].add(t)
            if "peng" in rules and "peng" in kinds and chosen.get(seat) != "peng":
                self.missed_peng[seat].add(t)

    def _clear_missed(self, seat: int, event: str) -> None:
        if event == "draw" or self.variant.missed_clear_on_claim:
            self.missed_win[seat].clear()
            self.missed_peng[seat].clear()

    def _next_draw(self, discarder: int) -> None:
        seat = (discarder + 1) % 4
        if self.hi - self.lo <= self.variant.draw_end_live:
            self._end_draw()
            return
        t = self.wall[self.lo]
        self.lo += 1
        self._receive(seat, t, None)

    def _back_draw(self, seat: int, meld: Meld) -> None:
        self.hi -= 1
        t = self.wall[self.hi]
        if self.variant.burn_after_kong and self.live > 0:
            self.hi -= 1  # RULES.md 2.2: one more tile from the back is set aside (D29)
            self.burned.append(self.wall[self.hi])
        self._receive(seat, t, meld)

    def _receive(self, seat: int, t: int, kong: Meld | None) -> None:
        """A drawn tile starts the seat's action phase (RULES.md 0.4)."""
        while t >= 34:
            # RULES.md 3.2: a flower is exposed and replaced from the back, while draws remain
            self.flowers[seat].append(t)
            if self.live <= self.variant.draw_end_live:
                self._end_draw()
                return
            self.hi -= 1
            t = self.wall[self.hi]
        self.concealed[seat][t] += 1
        self.last_drawer = seat
        self.current = seat
        self.phase = P_TURN
        self.drawn = t
        self.can_win_now = True
        self.after_kong = kong
        self.seat_log[seat].append("D")
        self.missed_win[seat].clear()  # _clear_missed(seat, "draw"), inline on every draw
        self.missed_peng[seat].clear()
        live = self.hi - self.lo
        self.last_turn = live <= self.variant.claim_end_live
        final = self.variant.final_live
        self.final_turn = final is not None and live <= final
        if self._follows_draw:
            self.variant_state = self.rules.on_event(self, E_DRAW, seat, t)

    # -- endings -----------------------------------------------------------------
    def _end_win(self, win: WinInfo) -> None:
        score = score_position(self.variant, self.options, self, win)
        self.result_ = HandResult(O_WIN, (win,), score.patterns, score.items)
        self._ended_at = len(self.history)
        self.phase = P_END

    def _end_draw(self) -> None:
        score = score_position(self.variant, self.options, self, None)
        self.result_ = HandResult(O_DRAW, (), (), score.items)
        self._ended_at = len(self.history)
        self.phase = P_END

    def _end_escape(self, seat: int) -> None:
        pen = int(self.options.get("escape_penalty", 0))
        items = [Item("escape", seat, s, pen) for s in range(4) if s != seat and pen]
        self.result_ = HandResult(O_DRAW, (), (), tuple(items), escaped=seat)
        self._ended_at = len(self.history)
        self.phase = P_END

    # -- helpers for rules and observers -------------------------------------------
    def full_hand(self, seat: int, extra: int | None = None) -> list[int]:
        """All tiles of the seat (melds as the kinds they stand for), plus ``extra``."""
        tiles = self.hand_tiles(seat)
        if extra is not None:
            tiles.append(extra)
        for m in self.melds[seat]:
            tiles.extend(m.tiles[:3])
        return tiles

    @property
    def revealed(self) -> dict[str, tuple[int, ...]]:
        """Reserved tiles every seat sees from the deal on: the purposes the variant shows
        at the deal (a flipped wild indicator); horses and birds show in the result."""
        return dict(self._revealed)

    def meld_views(self, seat: int | None) -> tuple[tuple[MeldView, ...], ...]:
        """Every seat's melds as ``seat`` sees them (what ``observe`` reads), kept until a
        meld changes: only a seat's own concealed kongs differ from the others' view."""
        views = self._views
        if views is None:
            views = self._views = meld_views(self.melds, None)
            self._hiding = frozenset(
                s for s, ms in enumerate(self.melds) if any(m.kind is M_KONG_CONCEALED for m in ms)
            )
        if seat in self._hiding:
            return meld_views(self.melds, seat)
        return views

    @property
    def variant_id(self) -> str:
        """The variant's FORMAT.md id (what ``observe`` reads)."""
        return self.variant.id

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know: its own tiles, everything public, nothing hidden
        (``majiang.observation``, docs/observation.md).

        ``phase`` is ``turn``, ``claim`` (a discard's window, open to every other seat),
        ``rob`` (an added kong's), ``declare`` (a non-dealer's instant win awaiting the
        dealer's answer, D56) or ``end``.
        """
        if type(seat) is not int or not 0 <= seat <= 3:
            raise IllegalActionError(f"a seat is an int 0-3, got {seat!r}")
        return observe(self, seat)

    def public_observation(self) -> Observation:
        """What a spectator may know: every public fact, no seat's concealed tiles, no legal
        actions (``seat`` None)."""
        return observe(self, None)
