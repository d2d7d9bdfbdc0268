"""majiang.hand.is_winning_counts: the same answer as is_winning on the tile list, in C
and in the pure Python fallback, and the same refusals of a malformed hand."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import majiang.hand as fast
from majiang.hand import analysis
from majiang.hand.analysis import _py_is_winning, _py_is_winning_counts

SHAPES = st.fixed_dictionaries(
    {
        "seven_pairs": st.booleans(),
        "thirteen_orphans": st.booleans(),
        "quads_as_two_pairs": st.booleans(),
        "wild_numbers_only": st.booleans(),
    }
)


@st.composite
def hands(draw: st.DrawFn) -> list[int]:
    """3n+2 tiles, at most four of a kind, often near a complete shape (sets and a pair)."""
    size = draw(st.sampled_from((2, 5, 8, 11, 14)))
    if draw(st.booleans()):
        tiles: list[int] = []
        while len(tiles) < size - 2:
            a = draw(st.integers(0, 33))
            run = draw(st.booleans()) and a < 27 and a % 9 <= 6
            tiles += [a, a + 1, a + 2] if run else [a, a, a]
        p = draw(st.integers(0, 33))
        tiles += [p, p]
    else:
        tiles = draw(st.lists(st.integers(0, 33), min_size=size, max_size=size))
    assume(all(tiles.count(t) <= 4 for t in tiles))
    return tiles


def _counts(tiles: list[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


@settings(max_examples=400, deadline=None)
@given(hands(), st.one_of(st.none(), st.integers(0, 33)), SHAPES)
def test_counts_give_the_tile_lists_answer(tiles: list[int], wild: int | None,
                                           shapes: dict[str, bool]) -> None:
    counts = _counts(tiles)
    want = _py_is_winning(tiles, wild=wild, **shapes)
    assert fast.is_winning(tiles, wild=wild, **shapes) == want
    assert fast.is_winning_counts(counts, wild=wild, **shapes) == want
    assert _py_is_winning_counts(counts, wild=wild, **shapes) == want


def test_a_worked_example_with_a_wild() -> None:
    # 1m2m3m 4p5p6p 7s8s9s 1z1z1z + 5m and a wild (7z) standing in for its pair
    tiles = [0, 1, 2, 12, 13, 14, 24, 25, 26, 27, 27, 27, 4, 33]
    counts = _counts(tiles)
    assert fast.is_winning_counts(counts, wild=33)
    assert not fast.is_winning_counts(counts, wild=None)
    assert _py_is_winning_counts(counts, wild=33) and not _py_is_winning_counts(counts)


@pytest.mark.parametrize("f", [fast.is_winning_counts, _py_is_winning_counts])
def test_malformed_counts_are_refused_naming_the_fault(f: object) -> None:
    assert callable(f)
    with pytest.raises(ValueError, match="34 counts"):
        f([0] * 33)
    with pytest.raises(ValueError, match="a count is an int 0-4"):
        f([5] + [0] * 33)
    with pytest.raises(ValueError, match="a count is an int 0-4"):
        f(["x"] + [0] * 33)
    with pytest.raises(ValueError, match="3n\\+2"):
        f([1] * 3 + [0] * 31)


def test_the_accelerated_entry_point_is_the_c_one() -> None:
    assert analysis.ACCELERATED
    assert fast.is_winning_counts is not _py_is_winning_counts
