"""Worlds behind an observation: the hidden tiles filled in, as a full ``HandState``.

A seat that wants to look ahead (the ``search`` bot) knows only its ``Observation``. Every
tile it cannot see is in one of a few hidden places: another seat's concealed hand, the
faces of another seat's concealed kongs, the live wall, reserved tiles not yet turned up
(horses, birds) and tiles burned after kongs. ``Hidden`` names what lies in each place;
``sample_hidden`` draws one such filling at random from the unseen tiles; and
``world_from_observation`` (also ``HandState.from_observation``) builds the hand that
observation and filling describe, a state whose ``observation(seat)`` equals the one it
was built from (tests/test_world.py checks this over random games).

What an observation does not carry is public history the engine keeps for a few rules:
the order of each seat's own draws, kongs and discards (hangzhou's 飘 chain, RULES.md
2.4), whether the current turn began with a kong replacement, which kinds another seat
passed on (漏胡 / 漏碰, D8), which kind each chi claimed. The world reads them the simplest
way the table allows (``seat_logs``; ``after_kong`` from the caller; the observer's own
passes from its legal actions; nobody else's) and says so here, since a rollout's scoring
depends on them. Taizhou's hook reads whether the open window's discard was 生 from the 熟
kinds shown, which tell it unless a chi holding the kind may have claimed an earlier
discard of it; then it takes the discard as 生 (rules/taizhou.py ``_was_known``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from majiang.engine.state import HandState
from majiang.errors import DealError
from majiang.observation import MeldView, Observation
from majiang.rules import get_variant
from majiang.rules.base import Variant
from majiang.tiles import Tile
from majiang.values import Action, ActionType, Deal, Meld, MeldKind, Phase

__all__ = [
    "Hidden",
    "hidden_of",
    "sample_hidden",
    "seen_counts",
    "unseen_counts",
    "world_from_observation",
]

_KONGS = (MeldKind.KONG_DIRECT, MeldKind.KONG_ADDED, MeldKind.KONG_CONCEALED)


@dataclass(frozen=True, slots=True)
class Hidden:
    """What lies in each place an observation hides (tiles as ints, flowers 34-41).

    ``hands`` gives every seat's concealed tiles except the observer's (its entry is
    empty); ``kongs`` the (kind, wilds in it) of each concealed kong the observer sees face
    down, per seat in meld order; ``wall`` the live wall, the next ordinary draw first and
    the next back draw last; ``reserved`` the tiles of each reserved purpose not turned up
    (horses, birds); ``burned`` tiles set aside after kongs (RULES.md 2.2); ``drawn`` the
    tile another current seat drew, if its turn began with a draw (None: with a claim).
    """

    hands: tuple[tuple[int, ...], ...]
    wall: tuple[int, ...]
    kongs: tuple[tuple[tuple[int, int], ...], ...] = ((), (), (), ())
    reserved: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    burned: tuple[int, ...] = ()
    drawn: int | None = None


def _meld_tiles(view: MeldView, wild: int | None, seen: Sequence[int]) -> list[int]:
    """The physical tiles of a face-up meld: its kinds with ``wilds`` of them wilds. Which
    kind of a chi a wild stands for is not shown; the one most seen elsewhere is taken, so
    the count of no kind goes past the set."""
    tiles = list(view.tiles)
    if view.wilds and wild is not None:
        # a slot of the wild's own kind is a wild tile already (a wild for itself)
        for _ in range(view.wilds - tiles.count(wild)):
            naturals = [t for t in tiles if t != wild]
            if not naturals:
                break
            if view.kind == MeldKind.CHI:
                pick = max(naturals, key=lambda t: (seen[t] + tiles.count(t), -t))
            else:
                pick = naturals[0]
            tiles[tiles.index(pick)] = wild
    return tiles


def seen_counts(obs: Observation) -> list[int]:
    """How many tiles of each of the 42 kinds the observer sees: its hand, every discard,
    face-up meld and flower, and the reserved tiles turned up."""
    return _seen(obs)[0]


def _seen(obs: Observation) -> tuple[list[int], list[int]]:
    """``seen_counts``, and how many of them are the guessed naturals of chis with wilds."""
    seen = [0] * 42
    for t in obs.hand:
        seen[t] += 1
    for pile in obs.discards:
        for t in pile:
            seen[t] += 1
    for pile in obs.flowers:
        for t in pile:
            seen[t] += 1
    for tiles in obs.revealed.values():
        for t in tiles:
            seen[t] += 1
    chis: list[MeldView] = []
    for melds in obs.melds:
        for m in melds:
            if m.kind == MeldKind.CHI and m.wilds:
                chis.append(m)  # placed last: they read the other counts
                continue
            for t in _meld_tiles(m, obs.wild, seen):
                seen[t] += 1
    guessed = [0] * 42
    for m in chis:
        for t in _meld_tiles(m, obs.wild, seen):
            seen[t] += 1
            if t != obs.wild:
                guessed[t] += 1
    return seen, guessed


def unseen_counts(obs: Observation) -> list[int]:
    """How many tiles of each of the 42 kinds are hidden from the observer (the variant's
    set under the room's options, less ``seen_counts``); DealError if the observation
    shows more of a kind than the set holds."""
    variant = get_variant(obs.variant)
    total = variant.tiles_for(obs.options)
    seen = seen_counts(obs)
    out = []
    for t in range(42):
        left = (total[t] if t < len(total) else 0) - seen[t]
        if left < 0:
            raise DealError(f"the observation shows {seen[t]} {Tile(t)}; the set holds {total[t]}")
        out.append(left)
    return out


def _hidden_kongs(obs: Observation) -> list[int]:
    """How many face-down concealed kongs each seat shows the observer."""
    return [
        sum(1 for m in melds if m.kind == MeldKind.KONG_CONCEALED and not m.tiles)
        for melds in obs.melds
    ]


def _hidden_reserved(variant: Variant, obs: Observation) -> dict[str, int]:
    """Reserved tiles by purpose that are not turned up, as the variant counts them."""
    counts = variant.rules.reserved_counts(obs.options, obs.counters)
    return {p: n for p, n in counts.items() if n and p not in obs.revealed}


def sample_hidden(obs: Observation, rng: random.Random) -> Hidden:
    """One filling of the hidden places, uniform over the unseen tiles: flowers only where
    a flower may lie (the wall, reserved and burned tiles; a held flower is always shown),
    a face-down kong four of one kind (with wilds standing in only where melds take wilds,
    and never four wilds). Takes its randomness from ``rng`` alone."""
    variant = get_variant(obs.variant)
    pool = unseen_counts(obs)
    wild = obs.wild
    meld_wilds = wild is not None and variant.rules.wilds_in_melds(obs.options)
    kongs: list[tuple[tuple[int, int], ...]] = []
    for s, n in enumerate(_hidden_kongs(obs)):
        made: list[tuple[int, int]] = []
        for _ in range(n):
            full = [k for k in range(34) if k != wild and pool[k] >= 4]
            if full:
                kind, wilds = full[int(rng.random() * len(full))], 0
            else:
                spare = pool[wild] if meld_wilds and wild is not None else 0
                part = [k for k in range(34) if k != wild and pool[k] and pool[k] + spare >= 4]
                if not part:
                    raise DealError(f"no kind is left for seat {s}'s concealed kong")
                kind = part[int(rng.random() * len(part))]
                wilds = 4 - pool[kind]
            pool[kind] -= 4 - wilds
            if wilds:
                assert wild is not None
                pool[wild] -= wilds
            made.append((kind, wilds))
        kongs.append(tuple(made))
    tiles = [t for t in range(34) for _ in range(pool[t])]
    flowers = [t for t in range(34, 42) for _ in range(pool[t])]
    rng.shuffle(tiles)
    hands: list[tuple[int, ...]] = []
    pos = 0
    for s in range(4):
        if s == obs.seat:
            hands.append(())
            continue
        n = obs.hand_sizes[s]
        if pos + n > len(tiles):
            raise DealError(f"too few unseen tiles for seat {s}'s {n} concealed tiles")
        hands.append(tuple(sorted(tiles[pos : pos + n])))
        pos += n
    rest = tiles[pos:] + flowers
    rng.shuffle(rest)
    reserved: dict[str, tuple[int, ...]] = {}
    for purpose, n in _hidden_reserved(variant, obs).items():
        reserved[purpose] = tuple(rest[:n])
        del rest[:n]
    if len(rest) < obs.live:
        raise DealError(f"too few unseen tiles for a live wall of {obs.live}")
    wall = tuple(rest[: obs.live])
    burned = tuple(rest[obs.live :])
    drawn = None
    if obs.phase in (Phase.TURN, Phase.DECLARE) and obs.current != obs.seat:
        held = hands[obs.current]
        drawn = held[int(rng.random() * len(held))] if held else None
    return Hidden(tuple(hands), wall, tuple(kongs), reserved, burned, drawn)


def hidden_of(state: HandState, seat: int | None) -> Hidden:
    """What ``state`` hides from ``seat`` (None: from a spectator), as a ``Hidden``: the
    true filling, for tests and for comparing a sampled world with the real one."""
    hands = tuple(() if s == seat else tuple(state.hand_tiles(s)) for s in range(4))
    kongs = tuple(
        tuple(
            (m.tiles[0], m.wilds)
            for m in state.melds[s]
            if m.kind == MeldKind.KONG_CONCEALED and s != seat
        )
        for s in range(4)
    )
    shown = state.revealed
    reserved = {p: tuple(t) for p, t in state.reserved.items() if p not in shown and t}
    drawn = None
    if state.phase in (Phase.TURN, Phase.DECLARE) and state.current != seat:
        drawn = state.drawn
    return Hidden(
        hands,
        tuple(state.wall[state.lo : state.hi]),
        kongs,
        reserved,
        tuple(state.burned),
        drawn,
    )


def _check(obs: Observation, variant: Variant, hidden: Hidden) -> None:
    """DealError naming the first place where ``hidden`` does not fit ``obs``."""
    if obs.phase == Phase.END:
        raise DealError("the hand has ended: there is no world to build")
    if len(hidden.hands) != 4 or len(hidden.kongs) != 4:
        raise DealError("hidden.hands and hidden.kongs list four seats")
    for s in range(4):
        want = 0 if s == obs.seat else obs.hand_sizes[s]
        if len(hidden.hands[s]) != want:
            raise DealError(f"hidden.hands[{s}] has {len(hidden.hands[s])} tiles; expected {want}")
        if any(not 0 <= t < 34 for t in hidden.hands[s]):
            raise DealError(f"hidden.hands[{s}] holds a flower or no tile; hands hold kinds 0-33")
    for s, n in enumerate(_hidden_kongs(obs)):
        if len(hidden.kongs[s]) != n:
            got = len(hidden.kongs[s])
            raise DealError(f"hidden.kongs[{s}] names {got} kongs; seat {s} shows {n}")
        for kind, wilds in hidden.kongs[s]:
            if not 0 <= kind < 34 or not 0 <= wilds <= 3 or (wilds and obs.wild is None):
                raise DealError(f"hidden.kongs[{s}]: no concealed kong of {kind}, {wilds} wilds")
    if len(hidden.wall) != obs.live:
        raise DealError(f"hidden.wall has {len(hidden.wall)} tiles; the live wall has {obs.live}")
    want_res = _hidden_reserved(variant, obs)
    got_res = {p: len(t) for p, t in hidden.reserved.items()}
    if got_res != want_res:
        raise DealError(f"hidden.reserved must set aside {want_res}, got {got_res}")
    if hidden.burned and not variant.burn_after_kong:
        raise DealError(f"variant {variant.id!r} burns no tiles; hidden.burned must be empty")
    if hidden.drawn is not None and hidden.drawn not in hidden.hands[obs.current]:
        raise DealError(f"hidden.drawn {Tile(hidden.drawn)} is not in seat {obs.current}'s hand")
    count = [0] * 42
    for hand in hidden.hands:
        for t in hand:
            count[t] += 1
    for made in hidden.kongs:
        for kind, wilds in made:
            count[kind] += 4 - wilds
            if wilds and obs.wild is not None:
                count[obs.wild] += wilds
    for tiles in (hidden.wall, hidden.burned, *hidden.reserved.values()):
        for t in tiles:
            if not 0 <= t < 42:
                raise DealError(f"not a tile: {t!r}")
            count[t] += 1
    unseen = unseen_counts(obs)
    diff = [unseen[t] - count[t] for t in range(42)]
    if any(diff) and not _chis_explain(obs, diff):
        t = next(t for t in range(42) if diff[t])
        raise DealError(f"the hidden places hold {count[t]} {Tile(t)}; {unseen[t]} are unseen")


def _chis_explain(obs: Observation, diff: list[int]) -> bool:
    """Can the chis with wilds account for ``diff`` (unseen less hidden, per kind)? Which
    kinds of such a chi the wilds stand for is not shown, so ``seen_counts`` guessed: a
    filling that puts those naturals elsewhere fits as well."""
    chis = [m for melds in obs.melds for m in melds if m.kind == MeldKind.CHI and m.wilds]
    wild = obs.wild
    if wild is None or not chis:
        return False
    guessed = _seen(obs)[1]
    moved = [diff[t] + guessed[t] for t in range(42)]

    def fit(i: int) -> bool:
        if i == len(chis):
            return not any(moved)
        kinds = [t for t in chis[i].tiles if t != wild]
        naturals = 3 - chis[i].wilds
        for pick in combinations(kinds, naturals):
            if all(moved[t] > 0 for t in pick):
                for t in pick:
                    moved[t] -= 1
                if fit(i + 1):
                    return True
                for t in pick:
                    moved[t] += 1
        return False

    return fit(0)


def _melds(obs: Observation, hidden: Hidden) -> list[list[Meld]]:
    """Every seat's melds, face-down kongs filled in from ``hidden.kongs``."""
    out: list[list[Meld]] = []
    for s, views in enumerate(obs.melds):
        faces = iter(hidden.kongs[s])
        melds = []
        for m in views:
            if m.kind == MeldKind.KONG_CONCEALED and not m.tiles:
                kind, wilds = next(faces)
                melds.append(Meld(m.kind, (kind,) * 4, None, None, wilds))
            else:
                claimed = m.tiles[0] if m.source is not None and m.kind != MeldKind.CHI else None
                melds.append(Meld(m.kind, m.tiles, m.source, claimed, m.wilds))
        out.append(melds)
    return out


def _seat_log(
    obs: Observation, s: int, melds: Sequence[Meld], after_kong: Meld | None, drew: bool
) -> list[str]:
    """A seat's own actions as the table shows them: its melds (C a chi or peng, K a
    kong) then a draw and a discard (X, or P for a wild) per discard in its pile; the
    current seat's turn, if it began with a draw, ends it with D (after the kong that gave
    it, for ``after_kong``)."""
    log = ["D"] if s == obs.dealer else []
    for m in melds:
        if m is after_kong:
            continue
        if m.kind in (MeldKind.CHI, MeldKind.PENG):
            log.append("C")
        elif m.kind == MeldKind.KONG_ADDED:
            log += ["C", "K"]
        else:
            log.append("K")
    for t in obs.discards[s]:
        log += ["D", "P" if t == obs.wild else "X"]
    if after_kong is not None:
        log += ["C", "K", "D"] if after_kong.kind == MeldKind.KONG_ADDED else ["K", "D"]
    elif drew and log[-1:] != ["D"]:
        log.append("D")
    return log


def world_from_observation(
    obs: Observation,
    hidden: Hidden,
    *,
    after_kong: int | None = None,
    seat_logs: Sequence[Sequence[str]] | None = None,
) -> HandState:
    """The hand ``obs`` shows with ``hidden`` filling the places it hides; its
    ``observation(obs.seat)`` equals ``obs``. DealError if ``hidden`` does not fit.

    ``after_kong``: the kind of the kong whose replacement tile the current seat has just
    drawn (a caller that remembers its own kong knows it), so a win now is 杠上开花.
    ``seat_logs``: each seat's own actions (D, K, P, X, C) when the caller kept them;
    otherwise they are read off the table (this module's docstring).
    """
    if obs.seat is not None and not 0 <= obs.seat <= 3:
        raise DealError(f"an observation's seat is 0-3 or None, got {obs.seat!r}")
    variant = get_variant(obs.variant)
    _check(obs, variant, hidden)
    seat = obs.seat
    hands = [tuple(obs.hand) if s == seat else hidden.hands[s] for s in range(4)]
    reserved = {**{p: tuple(t) for p, t in obs.revealed.items()}, **hidden.reserved}
    deal = Deal(tuple(hands), tuple(hidden.wall), reserved)
    st = HandState(variant, obs.options, obs.dealer, obs.counters, deal)
    melds = _melds(obs, hidden)
    st.melds = melds
    st._views = None
    st.discards = [list(p) for p in obs.discards]
    st.flowers = [list(p) for p in obs.flowers]
    st.burned = list(hidden.burned)
    st.current = obs.current
    st.first_turn = not any(obs.discards) and not any(
        m.source is not None for ms in melds for m in ms
    )
    phase = obs.phase
    kong_meld = None
    if after_kong is not None and phase == Phase.TURN:
        kong_meld = next(
            (m for m in reversed(melds[obs.current]) if m.is_kong and m.tiles[0] == after_kong),
            None,
        )
        if kong_meld is None:
            raise DealError(f"seat {obs.current} shows no kong of {Tile(after_kong)}")
    if phase == Phase.TURN:
        st.drawn = obs.drawn if obs.current == seat else hidden.drawn
    else:
        st.drawn = hidden.drawn if phase == Phase.DECLARE else None
    st.can_win_now = st.drawn is not None
    st.after_kong = kong_meld
    st.last_drawer = obs.current
    st.last_turn = st.live <= variant.claim_end_live
    final = variant.final_live
    st.final_turn = phase == Phase.TURN and final is not None and st.live <= final
    counts = [[0] * 4 for _ in range(4)]
    kongs: list[tuple[Meld, int]] = []
    for s, ms in enumerate(melds):
        for m in ms:
            if m.source is not None:
                counts[s][m.source] += 1
    st.claims_count = counts
    if seat_logs is not None:
        if len(seat_logs) != 4:
            raise DealError("seat_logs lists four seats")
        st.seat_log = [list(log) for log in seat_logs]
    else:
        drew = phase == Phase.TURN and st.drawn is not None
        st.seat_log = [
            _seat_log(obs, s, melds[s], kong_meld, drew and s == obs.current) for s in range(4)
        ]
    pending = None
    if phase == Phase.ROB:
        konger, tile = obs.window_from, obs.window_tile
        assert konger is not None and tile is not None
        pending = next(
            (m for m in melds[konger] if m.kind == MeldKind.KONG_ADDED and m.tiles[0] == tile),
            None,
        )
        if pending is None:
            raise DealError(f"seat {konger} shows no added kong of {Tile(tile)} to rob")
    for s, ms in enumerate(melds):
        for m in ms:
            if m.is_kong and m is not pending:
                kongs.append((m, s))
    st.kongs = kongs
    st.pending_kong = pending
    st.window_tile = obs.window_tile
    st.window_from = obs.window_from
    st.phase = phase
    st.variant_state = variant.rules.restore_state(st, obs.variant_state)
    _open(st, obs)
    if seat is not None:
        _fit_legal(st, obs, seat)
    return st


def _open(st: HandState, obs: Observation) -> None:
    """The open window's seats and what each may claim, as the engine would have built
    them; nobody has decided yet."""
    st.decisions = {}
    st._turn_cache = None
    st._waits_cache = {}
    src, tile = obs.window_from, obs.window_tile
    if obs.phase == Phase.CLAIM:
        assert src is not None and tile is not None
        st.window_options = st._claim_options(src, tile)
        st.window_seats = tuple(s for s in range(4) if s != src)
    elif obs.phase == Phase.ROB:
        assert src is not None and tile is not None
        st.window_options = st._robbers(src, tile)
        st.window_seats = tuple(s for s in range(4) if s != src)
    elif obs.phase == Phase.DECLARE:
        dealer = obs.dealer
        hu, ps = Action(dealer, ActionType.HU), Action(dealer, ActionType.PASS)
        st.window_options = {dealer: [hu, ps]} if st._instant_for_dealer() else {}
        st.window_seats = (dealer,)
    else:
        st.window_options = {}
        st.window_seats = ()


def _fit_legal(st: HandState, obs: Observation, seat: int) -> None:
    """Make the observer's legal actions those it was shown: a win or peng it is not
    offered in the window is one it passed on before (漏胡 / 漏碰, D8); an instant win it
    is not offered, one it declined (D56); no legal action in a window, a decision it
    made already (taken as a pass). DealError if they still differ."""
    want = list(obs.legal)
    got = st.legal_actions(seat)
    if got == want:
        return
    phase = obs.phase
    tile = obs.window_tile
    if phase in (Phase.CLAIM, Phase.ROB) and tile is not None and seat in st.window_seats:
        if not want:
            st.decisions[seat] = Action(seat, ActionType.PASS)
        else:
            types = {a.type for a in want}
            if any(a.type == ActionType.HU for a in got) and ActionType.HU not in types:
                st.missed_win[seat].add(tile)
            if any(a.type == ActionType.PENG for a in got) and ActionType.PENG not in types:
                st.missed_peng[seat].add(tile)
            _open(st, obs)
    elif phase == Phase.TURN and seat != st.current and not want:
        st.instant_declined.add(seat)
    got = st.legal_actions(seat)
    if got != want:
        shown = ", ".join(str(a.to_json()) for a in want) or "none"
        raise DealError(f"the world offers seat {seat} other actions than it was shown ({shown})")
