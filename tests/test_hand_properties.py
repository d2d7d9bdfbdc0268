"""Properties of majiang.hand that follow from docs/hand-api.md, checked with hypothesis.

Hypothesis runs derandomized and without an example database, so every run
draws the same examples.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from majiang.hand import is_winning, shanten, waits
from majiang.hand import reference as ref
from majiang.tiles import Tile, format_tiles, parse_tiles

SETS = [(k, k, k) for k in range(34)] + [(a, a + 1, a + 2) for a in range(27) if a % 9 <= 6]
STANDARD_ONLY = {"seven_pairs": False, "thirteen_orphans": False}


def fixed(n: int) -> settings:
    """Deterministic hypothesis settings with n examples."""
    return settings(derandomize=True, database=None, deadline=None, max_examples=n)


def _repair(hand: list[int]) -> list[int]:
    """Replace copies beyond the fourth by the next kinds that have room."""
    out: list[int] = []
    for t in hand:
        k = t
        while out.count(k) >= 4:
            k = (k + 1) % 34
        out.append(k)
    return out


@st.composite
def options(draw: st.DrawFn, standard_only: bool = False) -> dict[str, Any]:
    """Keyword options: a wild (or none) and the five booleans."""
    kw: dict[str, Any] = {
        "wild": draw(st.one_of(st.none(), st.sampled_from([int(Tile.RED), int(Tile.WHITE)]),
                               st.integers(0, 33))),
        "seven_pairs": draw(st.booleans()),
        "thirteen_orphans": draw(st.booleans()),
        "quads_as_two_pairs": draw(st.booleans()),
        "wild_numbers_only": draw(st.booleans()),
        "wild_pairs_natural": draw(st.booleans()),
    }
    if standard_only:
        kw.update(STANDARD_ONLY)
    return kw


@st.composite
def parts(draw: st.DrawFn, sizes: tuple[int, ...], wild: int | None) -> list[int]:
    """A part of one of `sizes` tiles: sets + pair, then exchanges and wilds, <= 4 a kind."""
    size = draw(st.sampled_from(sizes))
    n_sets = (size + 1) // 3 if size % 3 == 1 else size // 3
    hand = [t for s in draw(st.lists(st.sampled_from(SETS), min_size=n_sets,
                                     max_size=n_sets)) for t in s]
    pair = draw(st.integers(0, 33))
    hand = [*hand, pair, pair][:size]
    for i, k in draw(st.lists(st.tuples(st.integers(0, size - 1), st.integers(0, 33)),
                              max_size=4)):
        hand[i] = k
    if wild is not None:
        for i in draw(st.lists(st.integers(0, size - 1), max_size=4)):
            hand[i] = wild
    return _repair(hand)


def _show(hand: list[int], kw: dict[str, Any]) -> str:
    """A case in notation."""
    return f"{format_tiles(hand)} {kw}"


def _wins_ignoring_copies(hand: list[int], kw: dict[str, Any]) -> bool:
    """is_winning, also for a fifth copy (which majiang.hand refuses: use the reference)."""
    if any(hand.count(k) > 4 for k in set(hand)):
        return ref.is_winning(hand, **kw)
    return is_winning(hand, **kw)


def _complete(data: st.DataObject, n_sets: int) -> list[int]:
    """n drawn sets + a drawn pair."""
    sets = data.draw(st.lists(st.sampled_from(SETS), min_size=n_sets, max_size=n_sets))
    pair = data.draw(st.integers(0, 33))
    return [*(t for s in sets for t in s), pair, pair]


def _too_many(hand: list[int]) -> bool:
    """More than 4 of a kind."""
    return any(hand.count(k) > 4 for k in set(hand))


@fixed(1000)
@given(st.data())
def test_adding_a_set_keeps_a_winning_hand_winning(data: st.DataObject) -> None:
    kw = data.draw(options(standard_only=True))
    hand = _complete(data, data.draw(st.integers(0, 3)))
    assume(not _too_many(hand) and kw["wild"] not in hand)
    assert is_winning(hand, **kw), _show(hand, kw)
    bigger = hand + list(data.draw(st.sampled_from(SETS)))
    assume(not _too_many(bigger) and kw["wild"] not in bigger)
    assert is_winning(bigger, **kw), _show(bigger, kw)


@fixed(800)
@given(st.data())
def test_adding_a_set_with_a_wild_keeps_winning(data: st.DataObject) -> None:
    kw = data.draw(options(standard_only=True))
    wild = kw["wild"] if kw["wild"] is not None else data.draw(st.integers(0, 33))
    kw["wild"] = wild
    hand = _complete(data, data.draw(st.integers(0, 3)))
    for i in data.draw(st.lists(st.integers(0, len(hand) - 1), max_size=3)):
        hand[i] = wild
    assume(not _too_many(hand) and is_winning(hand, **kw))
    extra = list(data.draw(st.sampled_from(SETS)))
    if data.draw(st.booleans()) and not (kw["wild_numbers_only"] and extra[0] >= 27):
        extra[data.draw(st.integers(0, 2))] = wild
    bigger = hand + extra
    assume(not _too_many(bigger))
    assert is_winning(bigger, **kw), _show(bigger, kw)


@fixed(800)
@given(st.data())
def test_waits_are_the_winning_draws(data: st.DataObject) -> None:
    kw = data.draw(options())
    hand = data.draw(parts((1, 4, 7, 10, 13, 13), kw["wild"]))
    expected = {Tile(k) for k in range(34)
                if hand.count(k) < 4 and is_winning([*hand, k], **kw)}
    assert waits(hand, **kw) == expected, _show(hand, kw)


@fixed(800)
@given(st.data())
def test_one_exchange_moves_shanten_by_at_most_one(data: st.DataObject) -> None:
    kw = data.draw(options())
    hand = data.draw(parts((1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 13, 14), kw["wild"]))
    before = shanten(hand, **kw)
    for _ in range(5):
        i = data.draw(st.integers(0, len(hand) - 1))
        k = data.draw(st.integers(0, 33))
        other = [*hand[:i], k, *hand[i + 1:]]
        if other.count(k) > 4:
            continue
        after = shanten(other, **kw)
        assert abs(after - before) <= 1, (_show(hand, kw), format_tiles(other), before, after)


@fixed(1500)
@given(st.data())
def test_shanten_minus_one_iff_winning(data: st.DataObject) -> None:
    kw = data.draw(options())
    hand = data.draw(parts((2, 5, 8, 11, 14, 14), kw["wild"]))
    s = shanten(hand, **kw)
    assert s >= -1
    assert (s == -1) == is_winning(hand, **kw), (_show(hand, kw), s)


@fixed(800)
@given(st.data())
def test_shanten_zero_iff_some_tile_completes(data: st.DataObject) -> None:
    """Ready (0) iff some kind k completes the part, even a k held 4 times.

    waits leaves out kinds held 4 times, so this is "waits is non-empty, or a
    fifth copy of a kind held 4 times would complete it" (the jokers of the
    shanten definition ignore availability).
    """
    kw = data.draw(options())
    hand = data.draw(parts((1, 4, 7, 10, 13, 13), kw["wild"]))
    s = shanten(hand, **kw)
    assert s >= 0
    completes = any(_wins_ignoring_copies([*hand, k], kw) for k in range(34))
    assert (s == 0) == completes, (_show(hand, kw), s)
    if waits(hand, **kw):
        assert s == 0


def test_ready_honor_wild_thirteen_orphans() -> None:
    """A wild that is an honor can never fill thirteen orphans under wild_numbers_only.

    19m19p19s + 1-5z 7z + a 6z wild: every orphan but 6z is held, and no tile
    can ever be a natural 6z, so no draw completes the part and it is not ready.
    """
    hand = [int(t) for t in parse_tiles("19m19p19s123457z6z")]
    kw: dict[str, Any] = {"wild": int(Tile.GREEN), "wild_numbers_only": True}
    assert waits(hand, **kw) == frozenset()
    assert not any(_wins_ignoring_copies([*hand, k], kw) for k in range(34))
    assert shanten(hand, **kw) > 0


@fixed(1500)
@given(st.data())
def test_discard_shanten_is_the_shanten_of_each_discard(data: st.DataObject) -> None:
    """discard_shanten (C) gives, kind by kind, the shanten of the hand less one tile of
    that kind, and -2 where the hand holds none; the pure Python one gives the same."""
    from majiang.hand import discard_shanten
    from majiang.hand.analysis import _py_discard_shanten

    kw = data.draw(options())
    hand = data.draw(parts((2, 5, 8, 11, 14, 14), kw["wild"]))
    got = discard_shanten(hand, **kw)
    assert got == _py_discard_shanten(hand, **kw), _show(hand, kw)
    for t in range(34):
        if t in hand:
            rest = list(hand)
            rest.remove(t)
            assert got[t] == shanten(rest, **kw), (_show(hand, kw), t)
        else:
            assert got[t] == -2


@pytest.mark.parametrize("bad", [[0, 0, 0], list(range(13)), list(range(15))])
def test_discard_shanten_refuses_a_hand_that_is_not_3n_plus_2(bad: list[int]) -> None:
    from majiang.hand import discard_shanten
    from majiang.hand.analysis import _py_discard_shanten

    for f in (discard_shanten, _py_discard_shanten):
        with pytest.raises(ValueError, match=r"3n\+2"):
            f(bad)


@fixed(1500)
@given(st.data())
def test_draw_shanten_is_the_shanten_of_each_draw(data: st.DataObject) -> None:
    """draw_shanten (C) gives, kind by kind, the shanten of the hand with one more tile of
    that kind, and -2 where it holds four; the pure Python one gives the same."""
    from majiang.hand import draw_shanten
    from majiang.hand.analysis import _py_draw_shanten

    kw = data.draw(options())
    hand = data.draw(parts((1, 4, 7, 10, 13, 13), kw["wild"]))
    got = draw_shanten(hand, **kw)
    assert got == _py_draw_shanten(hand, **kw), _show(hand, kw)
    for t in range(34):
        if hand.count(t) < 4:
            assert got[t] == shanten([*hand, t], **kw), (_show(hand, kw), t)
        else:
            assert got[t] == -2


@pytest.mark.parametrize("bad", [[0, 0, 0], list(range(14)), []])
def test_draw_shanten_refuses_a_hand_that_is_not_3n_plus_1(bad: list[int]) -> None:
    from majiang.hand import draw_shanten
    from majiang.hand.analysis import _py_draw_shanten

    for f in (draw_shanten, _py_draw_shanten):
        with pytest.raises(ValueError, match=r"3n\+1"):
            f(bad)
