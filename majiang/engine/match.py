"""A match: hands in sequence with fixed options, the dealer and counters carried on."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from majiang.engine.state import HandState
from majiang.engine.wall import deal_from_wall, fill_deal, full_set
from majiang.errors import OptionError
from majiang.rules import get_variant
from majiang.rules.base import Variant

__all__ = ["FinishedHand", "Match"]


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """A played hand with the dealer and counters it started and ended with."""

    state: HandState
    next_dealer: int
    next_counters: dict[str, int]


class Match:
    """Plays hands in sequence. All randomness comes from ``random.Random(seed)``:
    first the first dealer (if ``random``), then one shuffle per hand."""

    def __init__(
        self,
        variant: str | Variant,
        options: Mapping[str, object] | None = None,
        seed: int = 0,
        start: Mapping[str, object] | None = None,
        players: list[str] | None = None,
    ) -> None:
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self.options = self.variant.resolve_options(options)
        self.seed = seed
        self.rng = random.Random(seed)
        self.players = players or ["East", "South", "West", "North"]
        start = start or {}
        first = self.options.get("first_dealer", "random")
        if "dealer" in start:
            dealer = start["dealer"]
            if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer <= 3:
                raise OptionError(f"start.dealer must be a seat 0-3, got {dealer!r}")
        elif first == "random":
            dealer = self.rng.randrange(4)
        else:
            dealer = int(first)
        counters = {**self.variant.counters, **self.variant.rules.initial_counters(self.options)}
        given = start.get("counters", {})
        if not isinstance(given, Mapping):
            raise OptionError(f"start.counters must be an object, got {given!r}")
        for name, value in given.items():
            if name not in counters:
                raise OptionError(
                    f"variant {self.variant.id!r} has no counter {name!r}"
                    + (f"; counters: {', '.join(counters)}" if counters else "; it has none")
                )
            low, high = self.variant.counter_ranges.get(name, (0, None))
            if (
                not isinstance(value, int)
                or isinstance(value, bool)
                or value < low
                or (high is not None and value > high)
            ):
                allowed = f"{low}-{high}" if high is not None else f">= {low}"
                raise OptionError(f"counter {name!r} must be an integer {allowed}, got {value!r}")
            counters[name] = value
        self.start_dealer = dealer
        self.start_counters = dict(counters)
        self.dealer = dealer
        self.counters = counters
        self.totals = [0, 0, 0, 0]
        self.finished: list[FinishedHand] = []
        self.over = False

    def new_hand(self, deal: Mapping[str, object] | None = None) -> HandState:
        """The next hand, shuffled from the seed or built from a record's deal."""
        if self.over:
            raise OptionError("the match has ended (a seat escaped)")
        reserved = self.variant.rules.reserved_counts(self.options, self.counters)
        if deal is None:
            wall = full_set(self.variant.tiles_for(self.options))
            self.rng.shuffle(wall)
            built = deal_from_wall(wall, self.dealer, reserved)
        else:
            purposes = [r.id for r in self.variant.reserved]
            built = fill_deal(
                deal,
                self.variant.tiles_for(self.options),
                self.dealer,
                reserved,
                self.rng,
                purposes,
            )
        return HandState(self.variant, self.options, self.dealer, self.counters, built)

    def finish(self, state: HandState) -> FinishedHand:
        """Book an ended hand: totals, next dealer and counters."""
        result = state.result()
        for s, d in enumerate(result.deltas):
            self.totals[s] += d
        dealer, counters = self.variant.rules.next_dealer(state, state.result())
        done = FinishedHand(state, dealer, counters)
        self.finished.append(done)
        self.dealer, self.counters = dealer, counters
        if result.escaped is not None:
            self.over = True
        return done
