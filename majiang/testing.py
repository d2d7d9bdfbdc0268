"""Conformance suite any variant must pass (like PettingZoo's api_test).

``check_variant`` plays seeded games with random legal actions and checks the
engine's invariants on every step; it raises AssertionError naming the game,
the step and what broke.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from majiang.engine.match import Match
from majiang.engine.state import Action, HandState
from majiang.errors import IllegalActionError
from majiang.hand import shanten
from majiang.records import record_json, replay, result_json
from majiang.rules import get_variant

__all__ = ["check_variant", "option_grid", "play_random_match"]


class ConformanceError(AssertionError):
    """An invariant of RULES.md or DESIGN.md does not hold."""


def _fail(game: int, step: int, what: str) -> ConformanceError:
    return ConformanceError(f"game {game}, step {step}: {what}")


def option_grid(variant_id: str) -> Iterator[dict[str, Any]]:
    """Every combination of a variant's boolean and choice options (ints at default).

    ``first_dealer`` is not multiplied in: it takes its choices in turn along the grid,
    so every first dealer is played without adding combinations (RULES.md 0.8).
    """
    variant = get_variant(variant_id)
    names: list[str] = []
    values: list[tuple[Any, ...]] = []
    dealers: tuple[Any, ...] = ()
    for opt in variant.options:
        if opt.kind == "bool":
            names.append(opt.name)
            values.append((False, True))
        elif opt.name == "first_dealer":
            dealers = opt.choices
        elif opt.kind == "choice":
            names.append(opt.name)
            values.append(opt.choices)
    for i, combo in enumerate(itertools.product(*values)):
        options = dict(zip(names, combo, strict=True))
        if dealers:
            options["first_dealer"] = dealers[i % len(dealers)]
        yield options


def _tile_total(state: HandState) -> int:
    total = state.live + sum(len(v) for v in state.reserved.values()) + len(state.burned)
    for s in range(4):
        total += sum(state.concealed[s]) + len(state.discards[s]) + len(state.flowers[s])
        total += sum(len(m.tiles) for m in state.melds[s])
    return total


def _random_action(state: HandState, rng: random.Random, win_bias: float = 0.5) -> Action:
    """A uniformly random legal action of a random seat to act; a win is taken
    with probability ``win_bias`` first, so that settlement is exercised."""
    seats = state.to_act()
    seat = seats[rng.randrange(len(seats))]
    legal = state.legal_actions(seat)
    if legal[0].type == "hu" and rng.random() < win_bias:
        return legal[0]
    return legal[rng.randrange(len(legal))]


def _steered_action(state: HandState, rng: random.Random) -> Action:
    """A random legal action, but discards usually keep shanten lowest, so hands
    reach wins, kongs and robbing often enough to exercise settlement."""
    seats = state.to_act()
    seat = seats[rng.randrange(len(seats))]
    legal = state.legal_actions(seat)
    if legal[0].type == "hu" and rng.random() < 0.9:
        return legal[0]
    discards = [a for a in legal if a.type == "discard"]
    if len(discards) < 2 or rng.random() < 0.15:
        return legal[rng.randrange(len(legal))]
    kongs = [a for a in legal if a.type == "kong"]
    if kongs and rng.random() < 0.5:
        return kongs[rng.randrange(len(kongs))]
    tiles = state.hand_tiles(seat)
    best: list[Action] = []
    low = 99
    for a in discards:
        tiles.remove(a.tile)  # type: ignore[arg-type]
        sh = shanten(tiles)
        tiles.append(a.tile)  # type: ignore[arg-type]
        if sh < low:
            low, best = sh, [a]
        elif sh == low:
            best.append(a)
    return best[rng.randrange(len(best))]


def play_random_match(
    variant_id: str, options: Mapping[str, Any], seed: int, hands: int = 1
) -> Match:
    """A match of random legal actions (seeded), for tests and benchmarks."""
    rng = random.Random(seed ^ 0x5EED)
    match = Match(variant_id, options, seed)
    for _ in range(hands):
        if match.over:
            break
        state = match.new_hand()
        while not state.is_terminal():
            state.apply(_random_action(state, rng))
        match.finish(state)
    return match


def _illegal_candidates(state: HandState, seat: int) -> list[Action]:
    legal = set(state.legal_actions(seat))
    out = [Action(seat, "discard", t) for t in range(34) if Action(seat, "discard", t) not in legal]
    out += [Action(seat, "peng"), Action(seat, "hu"), Action(seat, "kong", 0)]
    other = (seat + 1) % 4
    out.append(Action(other, "discard", 0))
    return [a for a in out if a not in legal]


def _snapshot(state: HandState) -> tuple[Any, ...]:
    return (
        [list(c) for c in state.concealed],
        [list(m) for m in state.melds],
        [list(d) for d in state.discards],
        state.lo,
        state.hi,
        state.phase,
        state.current,
        dict(state.decisions),
        len(state.history),
        state.drawn,
    )


def _hidden_permuted(state: HandState, seat: int, rng: random.Random) -> HandState:
    """The same state with every tile hidden from ``seat`` shuffled among the hidden places."""
    other = state.clone()
    pool: list[int] = []
    sizes: list[int] = []
    for s in range(4):
        if s == seat:
            continue
        tiles = other.hand_tiles(s)
        sizes.append(len(tiles))
        pool.extend(tiles)
    live = other.wall[other.lo : other.hi]
    slots = [i for i, t in enumerate(live) if t < 34]  # flowers never enter a hand
    pool.extend(live[i] for i in slots)
    rng.shuffle(pool)
    pos = 0
    i = 0
    for s in range(4):
        if s == seat:
            continue
        c = [0] * 34
        for t in pool[pos : pos + sizes[i]]:
            c[t] += 1
        other.concealed[s] = c
        pos += sizes[i]
        i += 1
    for i, t in zip(slots, pool[pos:], strict=True):
        live[i] = t
    other.wall[other.lo : other.hi] = live
    return other


def _observation_key(obs: Mapping[str, Any]) -> Any:
    return {k: v for k, v in obs.items() if k not in ("legal",)}


def check_variant(
    variant_id: str,
    options: Mapping[str, Any] | None = None,
    games: int = 100,
    seed: int = 0,
    deep_every: int = 7,
    bots: Sequence[str] | None = None,
) -> int:
    """Play ``games`` seeded random hands and check every invariant; returns steps checked.

    Checked: tiles conserved, deltas sum to zero, every legal action applies,
    illegal ones are rejected with the state unchanged, clone() is independent,
    replay(record(game)) reproduces the result, and observations do not change
    when tiles hidden from that seat are permuted (on every ``deep_every``-th step).
    Odd-numbered games steer discards towards wins so that settlement is exercised;
    with ``bots`` (four names) those bots choose every action instead.
    """
    options = dict(options or {})
    steps = 0
    variant = get_variant(variant_id)
    total_tiles = sum(variant.tiles_for(variant.resolve_options(options)))
    for game in range(games):
        rng = random.Random((seed << 20) + game)
        match = Match(variant_id, options, seed * 100_003 + game)
        state = match.new_hand()
        players = None
        if bots is not None:
            from majiang.bots import make_bot

            players = [make_bot(name, random.Random(game * 4 + i)) for i, name in enumerate(bots)]
        step = 0
        while not state.is_terminal():
            if _tile_total(state) != total_tiles:
                raise _fail(game, step, f"{_tile_total(state)} tiles in play, not {total_tiles}")
            seats = state.to_act()
            if not seats:
                raise _fail(game, step, "nobody to act in a live hand")
            for s in seats:
                if not state.legal_actions(s):
                    raise _fail(game, step, f"seat {s} must act but has no legal action")
            if step % deep_every == 0:
                seat = seats[0]
                before = _snapshot(state)
                for bad in _illegal_candidates(state, seat):
                    try:
                        state.apply(bad)
                    except IllegalActionError:
                        pass
                    else:
                        raise _fail(game, step, f"illegal {bad} was accepted")
                    if _snapshot(state) != before:
                        raise _fail(game, step, f"rejected {bad} changed the state")
                for legal in state.legal_actions(seat):
                    trial = state.clone()
                    trial.apply(legal)
                    if _snapshot(state) != before:
                        raise _fail(game, step, "applying to a clone changed the original")
                for s in range(4):
                    mine = _observation_key(state.observation(s))
                    other = _observation_key(_hidden_permuted(state, s, rng).observation(s))
                    if mine != other:
                        raise _fail(game, step, f"seat {s}'s observation depends on hidden tiles")
            if players is not None:
                seat = state.to_act()[0]
                state.apply(players[seat].act(state.observation(seat), state.legal_actions(seat)))
            else:
                pick = _steered_action if game % 2 else _random_action
                state.apply(pick(state, rng))
            step += 1
        steps += step
        res = state.result()
        if sum(res.deltas) != 0:
            raise _fail(game, step, f"deltas {res.deltas} do not sum to zero")
        match.finish(state)
        record = record_json(match)
        again = replay(record)
        if again != result_json(match):
            raise _fail(game, step, "replaying the game's record gives another result")
    return steps
