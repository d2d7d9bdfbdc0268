"""Conformance suite any variant must pass (like PettingZoo's api_test).

``check_variant`` plays seeded games with random legal actions and checks the
engine's invariants on every step; it raises AssertionError naming the game,
the step and what broke.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import fields
from typing import Any

from majiang.engine.match import Match
from majiang.engine.state import Action, Deal, HandState
from majiang.errors import IllegalActionError
from majiang.hand import shanten
from majiang.observation import Observation
from majiang.records import record_json, replay, result_json
from majiang.rules import VARIANTS, get_variant
from majiang.rules.base import Variant
from majiang.values import ActionType

__all__ = [
    "check_variant",
    "hidden_permuted",
    "hidden_twin",
    "option_grid",
    "play_random_match",
    "twin_step",
]


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
            state.auto_pass()  # seats whose only choice is pass are not asked
            if not state.is_terminal():
                state.apply(_random_action(state, rng))
        match.finish(state)
    return match


def _illegal_candidates(state: HandState, seat: int) -> list[Action]:
    """Well-typed actions that are not legal now, then malformed ones (bad seats, wrong
    types, junk fields, escape variations) that must be refused whatever the state."""
    legal = {s: state.legal_actions(s) for s in range(4)}
    out = [Action(seat, ActionType.DISCARD, (state.live + 5 * k) % 34) for k in range(7)]
    out += [
        Action(seat, ActionType.PENG),
        Action(seat, ActionType.HU),
        Action(seat, ActionType.KONG, 0),
    ]
    out += [Action(seat, ActionType.PASS), Action(seat, ActionType.CHI, None, (0, 1))]
    out += [
        Action(s, kind) for s in range(4) if s != seat for kind in (ActionType.HU, ActionType.PASS)
    ]
    out.append(Action((seat + 1) % 4, ActionType.DISCARD, 0))
    typed = [a for a in out if a not in legal[a.seat]]
    bad = _malformed_candidates(seat)
    for s in state.to_act():  # junk beside every seat's legal actions (a window, D56)
        bad += _junk_variants(legal[s][: 4 if s == seat else 1])
    return typed + [a for a in bad if not (_well_typed(a) and a in legal[a.seat])]


def _well_typed(action: object) -> bool:
    """An Action whose fields have the exact types and ranges apply accepts."""
    if not isinstance(action, Action):
        return False
    seat, _, tile, tiles = action
    return (
        type(seat) is int
        and 0 <= seat <= 3
        and (tile is None or (type(tile) is int and 0 <= tile < 34))
        and type(tiles) is tuple
        and all(type(x) is int and 0 <= x < 34 for x in tiles)
    )


def _malformed_candidates(seat: int) -> list[Any]:
    """Actions no state accepts: bad seats, unknown types, junk fields, non-actions."""
    make: Any = Action  # deliberately ill-typed fields
    bad: list[Any] = []
    for s in (-1, 4, 7, True, False, float(seat), None, str(seat)):
        bad += [make(s, "escape"), make(s, "pass"), make(s, "hu")]
    bad += [make(seat, "escape", 0), make(seat, "escape", None, (1,)), make(seat, "fold")]
    bad += [make(seat, "pass", 5), make(seat, "pass", None, (5,)), make(seat, "hu", 0)]
    bad += [make(seat, "discard", 34), make(seat, "discard", -1), make(seat, "discard")]
    bad += [(seat, "pass", None, ()), [seat, "pass"], None]  # not Actions at all
    return bad


def _junk_variants(legal: Sequence[Action]) -> list[Any]:
    """Each legal action with an ill-typed or junk field: equal, or nearly, to it."""
    make: Any = Action  # deliberately ill-typed fields
    bad: list[Any] = []
    for a in legal:
        s, kind, tile, tiles = a
        bad += [make(float(s), kind, tile, tiles), make(s, kind.encode(), tile, tiles)]
        if tile is not None:
            bad += [make(s, kind, float(tile), tiles), make(s, kind, tile + 34, tiles)]
            bad += [make(s, kind, -1, tiles), make(s, kind, str(tile), tiles)]
        else:
            bad.append(make(s, kind, 0, tiles))
        if tiles:
            bad += [make(s, kind, tile, list(tiles)), make(s, kind, tile, (*tiles[:-1], 34))]
            bad.append(make(s, kind, tile, tuple(float(x) for x in tiles)))
        else:
            bad += [make(s, kind, tile, (0,)), make(s, kind, tile, None)]
    return bad


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
        state.window_seats,
        state.window_from,
        state.window_tile,
        sorted(state.instant_declined),
        state.result_,
    )


def hidden_permuted(state: HandState, seat: int, rng: random.Random) -> HandState:
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


def _revealed_reserved(state: HandState) -> set[str]:
    """Reserved purposes a seat can see from the start, as the variant declares them (a
    flipped indicator, RULES.md 2.1 / 5.1); horses and birds stay hidden until the end."""
    return set(state.revealed)


def hidden_twin(state: HandState, seat: int, rng: random.Random) -> HandState:
    """The start of ``state``'s hand in another world that ``seat`` cannot tell apart:
    every tile hidden from it (the other seats' concealed tiles, the live wall, unrevealed
    reserved tiles) shuffled among those places. Flowers keep their places, since
    exposing and replacing them is public (RULES.md 3.1)."""
    deal = state.deal
    shown = _revealed_reserved(state)
    places: list[tuple[str, int, int]] = []
    pool: list[int] = []
    for s, hand in enumerate(deal.hands):
        if s != seat:
            for i, t in enumerate(hand):
                if t < 34:
                    places.append(("hand", s, i))
                    pool.append(t)
    for i, t in enumerate(deal.wall):
        if t < 34:
            places.append(("wall", 0, i))
            pool.append(t)
    purposes = [p for p in deal.reserved if p not in shown]
    for k, p in enumerate(purposes):
        for i, t in enumerate(deal.reserved[p]):
            places.append(("reserved", k, i))
            pool.append(t)
    rng.shuffle(pool)
    hands = [list(h) for h in deal.hands]
    wall = list(deal.wall)
    reserved = {p: list(v) for p, v in deal.reserved.items()}
    for (where, k, i), t in zip(places, pool, strict=True):
        if where == "hand":
            hands[k][i] = t
        elif where == "wall":
            wall[i] = t
        else:
            reserved[purposes[k]][i] = t
    twin = Deal(
        tuple(tuple(h) for h in hands),
        tuple(wall),
        {p: tuple(v) for p, v in reserved.items()},
    )
    return HandState(state.variant, state.options, state.dealer, state.counters, twin)


def _align_draw(state: HandState, twin: HandState, seat: int) -> None:
    """After ``seat`` drew in both worlds (or replaced dealt flowers), give it in
    ``twin`` the tiles it drew in ``state``: each tile it drew in the twin instead goes
    where the wanted one was hidden there."""
    mine, theirs = state.concealed[seat], twin.concealed[seat]
    if sum(mine) != sum(theirs):
        return  # not the same draws: the comparison then tells what differs
    while mine != theirs:
        want = next(t for t in range(34) if mine[t] > theirs[t])
        got = next(t for t in range(34) if theirs[t] > mine[t])
        theirs[want] += 1
        theirs[got] -= 1
        if twin.drawn == got and state.drawn == want:
            twin.drawn = want
        twin._turn_cache = None
        _hide(twin, {seat}, want, got)
    if state.current == seat == twin.current and twin.drawn != state.drawn:
        twin.drawn = state.drawn  # several tiles drawn at once (flowers replaced): the last
        twin._turn_cache = None


def _hide(twin: HandState, keep: set[int], want: int, got: int) -> None:
    """Put ``got`` where a hidden ``want`` is in ``twin`` (not in the hands of ``keep``)."""
    for i in range(twin.lo, twin.hi):
        if twin.wall[i] == want:
            twin.wall[i] = got
            return
    for s in range(4):
        if s not in keep and twin.concealed[s][want]:
            twin.concealed[s][want] -= 1
            twin.concealed[s][got] += 1
            return
    if want in twin.burned:
        twin.burned[twin.burned.index(want)] = got
        return
    shown = _revealed_reserved(twin)
    for p, tiles in twin.reserved.items():
        if p not in shown and want in tiles:
            i = tiles.index(want)
            twin.reserved[p] = (*tiles[:i], got, *tiles[i + 1 :])
            return
    raise LookupError(want)


def _taken(twin: HandState, action: Action) -> list[int]:
    """The tiles ``action`` takes from its seat's hand (FORMAT.md 2, actions)."""
    if action.tiles:
        return list(action.tiles)
    t = action.tile if action.tile is not None else twin.window_tile
    if t is None:
        return []
    if action.type == "discard":
        return [t]
    if action.type == "peng":
        return [t, t]
    if action.type == "kong":
        if twin.phase != "turn":
            return [t] * 3
        added = any(m.kind == "peng" and m.tiles[0] == t for m in twin.melds[action.seat])
        return [t] if added else [t] * 4
    return []


def _lend(state: HandState, twin: HandState, action: Action, observer: int) -> None:
    """Make ``action`` possible in the twin where its seat (not the observer) lacks the
    tiles it takes there: they are swapped in from places hidden from the observer, as
    in a world where that seat held them (what it plays becomes public anyway)."""
    seat = action.seat
    c = twin.concealed[seat]
    need = _taken(twin, action)
    for tile in set(need):
        while c[tile] < need.count(tile):
            spare = [x for x in range(34) if c[x] > need.count(x)]
            if not spare:
                return
            out = twin.drawn if twin.drawn in spare and state.drawn == tile else spare[-1]
            assert out is not None
            try:
                _hide(twin, {seat, observer}, tile, out)
            except LookupError:
                return
            c[tile] += 1
            c[out] -= 1
            if twin.drawn == out and twin.current == seat and state.drawn == tile:
                twin.drawn = tile
            twin._turn_cache = None


def twin_step(
    state: HandState, twin: HandState | None, actions: Sequence[Action], seat: int
) -> HandState | None:
    """Apply to the twin world of :func:`hidden_twin` the actions just applied to
    ``state``, while legal there (another seat's tiles are swapped in from hidden places
    where it lacks them); the twin, or None once the worlds part (an action that stays
    illegal there, or the end of the hand). ``seat`` is the observer: the tiles it
    draws in ``state`` are given to it in the twin too."""
    if twin is None:
        return None
    for action in actions:
        if twin.is_terminal():
            return None
        if action.seat != seat and action not in twin.legal_actions(action.seat):
            _lend(state, twin, action, seat)
        if action not in twin.legal_actions(action.seat):
            return None
        twin.apply(action)
    if state.is_terminal() or twin.is_terminal():
        return None
    _align_draw(state, twin, seat)
    return twin


def _twin_differs(state: HandState, twin: HandState, seat: int) -> str | None:
    """What ``seat`` sees differently in the two worlds, or None."""
    return _differs(state.observation(seat), twin.observation(seat))


def _differs(mine: Observation, theirs: Observation) -> str | None:
    """The fields (``legal`` included) in which two observations differ, or None."""
    if mine == theirs:
        return None
    keys = [f.name for f in fields(Observation)]
    return ", ".join(
        f"{k} {getattr(mine, k)!r} / {getattr(theirs, k)!r}"
        for k in keys
        if getattr(mine, k) != getattr(theirs, k)
    )


def _world_differs(state: HandState, seat: int, rng: random.Random) -> str | None:
    """Does a world sampled behind ``seat``'s observation (``majiang.engine.world``, what
    the search bot plays out) show ``seat`` another observation? A variant whose
    ``public()`` state ``restore_state`` cannot rebuild fails here."""
    from majiang.engine.world import sample_hidden, world_from_observation
    from majiang.errors import DealError

    obs = state.observation(seat)
    try:
        world = world_from_observation(obs, sample_hidden(obs, rng))
    except DealError as err:
        return str(err)
    return _differs(obs, world.observation(seat))


def _check_refusals(state: HandState, seat: int, game: int, step: int) -> None:
    """Illegal and malformed actions are refused with the state unchanged; a second
    decision in one window is refused; an escape ends the hand and nothing follows it."""
    before = _snapshot(state)
    pristine = state.clone()
    candidates = _illegal_candidates(state, seat)
    for bad in candidates:
        try:
            state.apply(bad)
        except IllegalActionError:
            pass
        else:
            raise _fail(game, step, f"illegal {bad!r} was accepted")
    if _snapshot(state) != before:
        for bad in candidates:  # which one? each on its own copy
            trial = pristine.clone()
            with contextlib.suppress(IllegalActionError):
                trial.apply(bad)
            if _snapshot(trial) != before:
                raise _fail(game, step, f"rejected {bad!r} changed the state")
        raise _fail(game, step, "rejected actions changed the state")
    legal = state.legal_actions(seat)
    for action in legal:
        trial = state.clone()
        trial.apply(action)
        if _snapshot(state) != before:
            raise _fail(game, step, "applying to a clone changed the original")
        if state.phase != "turn" and len(state.to_act()) > 1:
            again = _snapshot(trial)
            for second in legal:
                try:
                    trial.apply(second)
                except IllegalActionError:
                    pass
                else:
                    raise _fail(game, step, f"a second decision {second} was accepted")
                if _snapshot(trial) != again:
                    raise _fail(game, step, f"a refused second decision {second} changed it")
    for s in range(4):
        trial = state.clone()
        trial.apply(Action(s, ActionType.ESCAPE))
        res = trial.result()
        if res.escaped != s or sum(res.deltas) != 0 or res.deltas[s] > 0:
            raise _fail(game, step, f"seat {s}'s escape gave {res.deltas}, escaped {res.escaped}")
        if s != seat:
            continue
        ended = _snapshot(trial)
        for after in [*legal, Action(s, ActionType.ESCAPE), Action((s + 1) % 4, ActionType.PASS)]:
            try:
                trial.apply(after)
            except IllegalActionError:
                pass
            else:
                raise _fail(game, step, f"{after} after the end was accepted")
        if _snapshot(trial) != ended:
            raise _fail(game, step, "a refused action after the end changed the state")
    odd: tuple[Any, ...] = (-1, 4, True, 1.0)
    for s in odd:
        for query in (state.observation, state.legal_actions):
            try:
                query(s)
            except IllegalActionError:
                continue
            raise _fail(game, step, f"{query.__name__}({s!r}) was answered")


def check_variant(
    variant_id: str | Variant,
    options: Mapping[str, Any] | None = None,
    games: int = 100,
    seed: int = 0,
    deep_every: int = 11,
    bots: Sequence[str] | None = None,
) -> int:
    """Play ``games`` seeded random hands and check every invariant; returns steps checked.

    Checked: tiles conserved, deltas sum to zero, every legal action applies,
    illegal and malformed ones (bad seats, wrong types, junk fields, second decisions,
    actions after an escape) are rejected with the state unchanged, clone() is
    independent, replay(record(game)) reproduces the result, and observations do not
    change when tiles hidden from a seat are permuted, and a world sampled behind a seat's
    observation (``majiang.engine.world``) shows it the same observation (one seat every
    ``deep_every``-th step).
    Two worlds (DESIGN.md, information sets): every game is also played, action for
    action while legal there, in a twin world that differs only in what one seat
    (game % 4) cannot see, and that seat's observation and legal actions must be equal
    in both at every step. Every fourth game lists every pass (so records with the
    passes of seats that had nothing to claim replay); the others let seats whose only
    choice is pass pass unasked (auto_pass). Odd games steer discards towards wins, so
    that settlement is exercised; with ``bots`` (four names) those bots choose every
    action instead.
    """
    options = dict(options or {})
    steps = 0
    variant = get_variant(variant_id) if isinstance(variant_id, str) else variant_id
    total_tiles = sum(variant.tiles_for(variant.resolve_options(options)))
    for game in range(games):
        rng = random.Random((seed << 20) + game)
        match = Match(variant, options, seed * 100_003 + game)
        state = match.new_hand()
        observer = game % 4
        start = hidden_twin(state, observer, random.Random(game))
        _align_draw(state, start, observer)  # flowers dealt to the observer were replaced
        twin: HandState | None = start
        players = None
        if bots is not None:
            from majiang.bots import make_bot

            players = [make_bot(name, random.Random(game * 4 + i)) for i, name in enumerate(bots)]
        step = 0
        while not state.is_terminal():
            if twin is not None:
                differs = _twin_differs(state, twin, observer)
                if differs:
                    raise _fail(
                        game, step, f"seat {observer} tells the two worlds apart: {differs}"
                    )
            if _tile_total(state) != total_tiles:
                raise _fail(game, step, f"{_tile_total(state)} tiles in play, not {total_tiles}")
            seats = state.to_act()
            if not seats:
                raise _fail(game, step, "nobody to act in a live hand")
            for s in seats:
                if not state.legal_actions(s):
                    raise _fail(game, step, f"seat {s} must act but has no legal action")
            if step % deep_every == 0:
                _check_refusals(state, seats[0], game, step)
                s = (step // deep_every + game) % 4  # one seat each time; the twin checks one
                differs = _differs(
                    state.observation(s), hidden_permuted(state, s, rng).observation(s)
                )
                if differs:
                    raise _fail(
                        game, step, f"seat {s}'s observation depends on hidden tiles: {differs}"
                    )
                differs = _world_differs(state, s, rng)
                if differs:
                    raise _fail(game, step, f"a world built from seat {s}'s view: {differs}")
            step += 1
            if (game % 4 or players is not None) and state.phase != "turn":
                passing = [
                    s for s in seats if state.legal_actions(s) == [Action(s, ActionType.PASS)]
                ]
                if passing:
                    state.auto_pass()
                    twin = twin_step(
                        state, twin, [Action(s, ActionType.PASS) for s in passing], observer
                    )
                    continue
            if players is not None:
                seat = seats[-1] if state.phase == "turn" else seats[0]
                action = players[seat].act(state.observation(seat), state.legal_actions(seat))
            else:
                action = (_steered_action if game % 2 else _random_action)(state, rng)
            state.apply(action)
            twin = twin_step(state, twin, [action], observer)
        steps += step
        res = state.result()
        if sum(res.deltas) != 0:
            raise _fail(game, step, f"deltas {res.deltas} do not sum to zero")
        match.finish(state)
        if VARIANTS.get(variant.id) is not variant:
            continue  # records name registered variants only: nothing to replay against
        record = record_json(match)
        again = replay(record)
        if again != result_json(match):
            raise _fail(game, step, "replaying the game's record gives another result")
    return steps
