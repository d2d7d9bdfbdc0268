"""Tile ints and the tile notation of FORMAT.md section 1."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majiang.errors import NotationError
from majiang.tiles import (
    KINDS,
    NOTATION,
    ORPHANS,
    Tile,
    chinese_name,
    format_tiles,
    glyph,
    parse_tile,
    parse_tiles,
)

SUITS = "mpszf"
SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}

tile_lists = st.lists(st.integers(min_value=0, max_value=41), max_size=20)


@given(tile_lists)
@settings(max_examples=300, deadline=None)
def test_format_then_parse_gives_the_sorted_tiles(tiles: list[int]) -> None:
    assert list(parse_tiles(format_tiles(tiles))) == sorted(tiles)


@given(tile_lists)
@settings(max_examples=300, deadline=None)
def test_format_is_canonical(tiles: list[int]) -> None:
    text = format_tiles(tiles)
    assert " " not in text
    assert format_tiles(parse_tiles(text)) == text


@given(
    st.lists(
        st.tuples(
            st.sampled_from(SUITS),
            st.lists(st.integers(1, 9), min_size=1, max_size=5),
            st.sampled_from(["", " ", "  "]),
        ),
        max_size=8,
    )
)
@settings(max_examples=300, deadline=None)
def test_parse_keeps_written_order_with_any_grouping(
    groups: list[tuple[str, list[int], str]],
) -> None:
    text = ""
    expected: list[int] = []
    base = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
    for suit, numbers, sep in groups:
        numbers = [min(n, SUIT_SIZE[suit]) for n in numbers]
        text += "".join(str(n) for n in numbers) + suit + sep
        expected += [base[suit] + n - 1 for n in numbers]
    assert list(parse_tiles(text)) == expected


def test_canonical_output() -> None:
    assert format_tiles(parse_tiles("789s 11z 123m 456p")) == "123m456p789s11z"
    assert format_tiles(parse_tiles("123m 456p 789s 11z")) == "123m456p789s11z"
    assert format_tiles(parse_tiles("19m19p19s1234567z1m")) == "119m19p19s1234567z"
    assert format_tiles([]) == ""
    assert format_tiles([Tile.PLUM, Tile.M1, Tile.RED]) == "1m7z5f"


def test_every_tile_round_trips() -> None:
    for t in Tile:
        assert parse_tile(t.notation) == t
        assert str(t) == t.notation
        assert format_tiles([t]) == t.notation
    assert len(KINDS) == 34
    assert [format_tiles([t]) for t in ORPHANS] == [
        "1m",
        "9m",
        "1p",
        "9p",
        "1s",
        "9s",
        "1z",
        "2z",
        "3z",
        "4z",
        "5z",
        "6z",
        "7z",
    ]


@pytest.mark.parametrize(
    ("text", "bad", "position"),
    [
        ("0m", "0m", 0),
        ("8z", "8z", 0),
        ("9f", "9f", 0),
        ("12", "12", 0),
        ("x", "x", 0),
        ("m", "m", 0),
        ("123m 4506p", "0p", 7),
        ("11z 18z", "8z", 5),
        ("1f 2f 39f", "9f", 7),
        ("123m 456", "456", 5),
        ("12 3m", "12", 0),
        ("123m x", "x", 5),
        ("123mz", "z", 4),
        ("11z m", "m", 4),
        ("5p  p", "p", 4),
    ],
)
def test_bad_notation_names_the_text_and_position(text: str, bad: str, position: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_tiles(text)
    assert bad in str(info.value)
    assert info.value.position == position
    assert info.value.text == text


@pytest.mark.parametrize(
    ("text", "position"),
    [("1m\t2m", 2), ("1m\n2m", 2), ("1m,2m", 2), ("1m\u00a02m", 2), ("123m\r", 4)],
)
def test_only_spaces_separate_groups(text: str, position: int) -> None:
    """FORMAT.md 1: spaces (U+0020) only; tabs, newlines, commas are bad notation."""
    with pytest.raises(NotationError, match="unexpected character") as info:
        parse_tiles(text)
    assert info.value.position == position
    assert repr(text[position]) in str(info.value)


def test_notation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="0m"):
        parse_tiles("0m")


def test_parse_tile_wants_exactly_one() -> None:
    assert parse_tile("7z") is Tile.RED
    with pytest.raises(NotationError):
        parse_tile("77z")
    with pytest.raises(NotationError):
        parse_tile("")


def test_format_rejects_non_tiles() -> None:
    with pytest.raises(NotationError, match="42"):
        format_tiles([42])
    with pytest.raises(NotationError):
        format_tiles([-1])


def test_chinese_names() -> None:
    assert chinese_name(parse_tile("5p")) == "五筒"
    assert chinese_name(parse_tile("7z")) == "红中"
    assert chinese_name(parse_tile("1f")) == "春"
    assert chinese_name(parse_tile("1m")) == "一万"
    assert chinese_name(parse_tile("9s")) == "九条"
    assert chinese_name(parse_tile("1z")) == "东风"
    assert chinese_name(parse_tile("5f")) == "梅"


def test_glyphs() -> None:
    assert glyph(parse_tile("1m")) == "\U0001f007\ufe0e"
    assert glyph(parse_tile("5p")) == "\U0001f01d\ufe0e"
    assert glyph(parse_tile("9s")) == "\U0001f018\ufe0e"
    assert glyph(parse_tile("1z")) == "\U0001f000\ufe0e"
    assert glyph(parse_tile("7z")) == "\U0001f004\ufe0e"
    assert glyph(parse_tile("5z")) == "\U0001f006\ufe0e"
    assert glyph(parse_tile("1f")) == "\U0001f026\ufe0e"
    assert len({glyph(t) for t in Tile}) == 42


def test_tile_enum_indices() -> None:
    assert int(Tile.M1) == 0
    assert int(Tile.M9) == 8
    assert int(Tile.P1) == 9
    assert int(Tile.S1) == 18
    assert int(Tile.EAST) == 27
    assert int(Tile.RED) == 33
    assert int(Tile.SPRING) == 34
    assert int(Tile.CHRYSANTHEMUM) == 41
    assert [Tile.M1, Tile.RED, Tile.SPRING] == [0, 33, 34]  # IntEnum: equal to the ints
    assert Tile(0) is Tile.M1
    assert Tile(33) is Tile.RED
    assert Tile(34) is Tile.SPRING
    assert parse_tile("5p") is Tile.P5
    assert Tile.P5 + 0 == 13
    assert isinstance(Tile.RED, int)


def test_notation_names_every_tile_as_its_enum_does() -> None:
    assert list(NOTATION) == [str(t) for t in Tile] and len(NOTATION) == 42
