"""Tiles as small ints, and the tile notation of FORMAT.md section 1.

The 34 kinds use the common 34-index order (0-8 = 1m-9m, 9-17 = 1p-9p,
18-26 = 1s-9s, 27-33 = 1z-7z); the 8 flowers follow as 34-41.

>>> format_tiles(parse_tiles("55p 123m 11z"))
'123m55p11z'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum

from majiang.errors import NotationError

__all__ = [
    "DRAGONS",
    "FLOWERS",
    "HONORS",
    "KINDS",
    "NOTATION",
    "NUMBER_TILES",
    "ORPHANS",
    "SIMPLES",
    "TERMINALS",
    "WINDS",
    "Tile",
    "chinese_name",
    "counts",
    "format_tiles",
    "from_counts",
    "glyph",
    "is_honor",
    "is_number",
    "is_terminal",
    "parse_tile",
    "parse_tiles",
    "suit_of",
]

SUITS = "mpszf"
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}


class Tile(IntEnum):
    """One tile kind: 34 faces and 8 flowers, in the common 34-index order."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    WHITE = 31
    GREEN = 32
    RED = 33
    SPRING = 34
    SUMMER = 35
    AUTUMN = 36
    WINTER = 37
    PLUM = 38
    ORCHID = 39
    BAMBOO = 40
    CHRYSANTHEMUM = 41

    @property
    def notation(self) -> str:
        """This tile in FORMAT.md notation, e.g. ``'5p'``."""
        return _NOTATION[self]

    def __str__(self) -> str:
        return _NOTATION[self]


_ALL = tuple(Tile)
_NOTATION: tuple[str, ...] = tuple(
    f"{i - _SUIT_BASE[s] + 1}{s}"
    for s in SUITS
    for i in range(_SUIT_BASE[s], _SUIT_BASE[s] + _SUIT_SIZE[s])
)

_BY_NOTATION = {name: _ALL[i] for i, name in enumerate(_NOTATION)}

NOTATION = _NOTATION
"""Each tile index's FORMAT.md name (``NOTATION[t] == str(Tile(t))``), for hot paths that
write many tiles: indexing a tuple skips the enum lookup."""

KINDS: tuple[Tile, ...] = _ALL[:34]
"""The 34 faces (flowers excluded)."""
FLOWERS: tuple[Tile, ...] = _ALL[34:]
NUMBER_TILES: tuple[Tile, ...] = _ALL[:27]
HONORS: tuple[Tile, ...] = _ALL[27:34]
WINDS: tuple[Tile, ...] = _ALL[27:31]
DRAGONS: tuple[Tile, ...] = _ALL[31:34]
TERMINALS: tuple[Tile, ...] = tuple(t for t in NUMBER_TILES if t % 9 in (0, 8))
SIMPLES: tuple[Tile, ...] = tuple(t for t in NUMBER_TILES if t % 9 not in (0, 8))
ORPHANS: tuple[Tile, ...] = TERMINALS + HONORS
"""The 13 kinds of thirteen orphans (十三幺)."""


def suit_of(tile: int) -> str:
    """The suit letter of a tile: 'm', 'p', 's', 'z' or 'f'."""
    if tile < 27:
        return "mps"[tile // 9]
    return "z" if tile < 34 else "f"


def is_number(tile: int) -> bool:
    """True for number tiles (数牌) m/p/s."""
    return 0 <= tile < 27


def is_honor(tile: int) -> bool:
    """True for honors (字牌) 1z-7z."""
    return 27 <= tile < 34


def is_terminal(tile: int) -> bool:
    """True for 1 and 9 of a number suit."""
    return 0 <= tile < 27 and tile % 9 in (0, 8)


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile, e.g. ``'7z'``."""
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(f"expected exactly one tile, got {text!r}", text, 0)
    return tiles[0]


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse tile notation such as ``'123m 456p 11z'`` into tiles, in written order.

    Strict: a digit outside the suit's range, digits with no suit letter, a suit
    letter with no digits or any other character (tabs, newlines and commas
    included: FORMAT.md allows spaces only) raises NotationError naming the bad
    text and its 0-based position.
    """
    if not isinstance(text, str):
        raise NotationError(f"tile notation must be a string, got {type(text).__name__}")
    fast = _single_tiles(text)
    if fast is not None:
        return fast
    out: list[Tile] = []
    digits: list[tuple[int, str]] = []
    for pos, ch in enumerate(text):
        if "0" <= ch <= "9":
            digits.append((pos, ch))
        elif ch in _SUIT_SIZE:
            if not digits:
                raise NotationError(
                    f"suit letter {ch!r} at position {pos} has no digits before it in {text!r}",
                    text,
                    pos,
                )
            size = _SUIT_SIZE[ch]
            for dpos, d in digits:
                n = ord(d) - 48
                if not 1 <= n <= size:
                    raise NotationError(
                        f"no tile {d}{ch} (position {dpos} in {text!r}): "
                        f"{ch} tiles are 1{ch}-{size}{ch}",
                        text,
                        dpos,
                    )
                out.append(_ALL[_SUIT_BASE[ch] + n - 1])
            digits = []
        elif ch == " ":  # FORMAT.md 1: spaces (U+0020) only between groups
            if digits:
                pos0 = digits[0][0]
                raise NotationError(
                    f"digits {''.join(d for _, d in digits)!r} at position {pos0} in {text!r} "
                    "have no suit letter (m, p, s, z or f)",
                    text,
                    pos0,
                )
        else:
            raise NotationError(
                f"unexpected character {ch!r} at position {pos} in {text!r}; "
                "expected digits followed by m, p, s, z or f",
                text,
                pos,
            )
    if digits:
        pos0 = digits[0][0]
        raise NotationError(
            f"digits {''.join(d for _, d in digits)!r} at position {pos0} in {text!r} "
            "have no suit letter (m, p, s, z or f)",
            text,
            pos0,
        )
    return tuple(out)


def _single_tiles(text: str) -> tuple[Tile, ...] | None:
    """Fast path for one tile per group (``'5m 6m 7z'``, as records write draws); None
    when the text has another shape, which the full parser then reads."""
    out: list[Tile] = []
    for token in text.split(" "):
        tile = _BY_NOTATION.get(token)
        if tile is None:
            if token:
                return None
            continue
        out.append(tile)
    return tuple(out)


def format_tiles(tiles: Iterable[int]) -> str:
    """Canonical notation: sorted m, p, s, z, f, no spaces (``'123m456p11z'``)."""
    parts: list[str] = []
    suit = ""
    for t in sorted(tiles):
        if not 0 <= t < 42:
            raise NotationError(f"{t!r} is not a tile index (0-41)")
        name = _NOTATION[t]
        if name[1] != suit:
            if suit:
                parts.append(suit)
            suit = name[1]
        parts.append(name[0])
    if suit:
        parts.append(suit)
    return "".join(parts)


def counts(tiles: Iterable[int], size: int = 34) -> list[int]:
    """Count vector indexed by tile kind (34 long by default, 42 with flowers)."""
    c = [0] * size
    for t in tiles:
        c[t] += 1
    return c


def from_counts(c: Sequence[int]) -> tuple[Tile, ...]:
    """Tiles of a count vector, in canonical order."""
    return tuple(_ALL[i] for i, n in enumerate(c) for _ in range(n))


_CHINESE_SUIT = {"m": "万", "p": "筒", "s": "条"}
_CHINESE_NUM = "一二三四五六七八九"
_CHINESE_HONOR = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
_CHINESE_FLOWER = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")


def chinese_name(tile: int) -> str:
    """The tile's Chinese name, e.g. 五筒, 红中, 梅."""
    if tile < 27:
        return _CHINESE_NUM[tile % 9] + _CHINESE_SUIT["mps"[tile // 9]]
    if tile < 34:
        return _CHINESE_HONOR[tile - 27]
    return _CHINESE_FLOWER[tile - 34]


# U+1F000 block order: winds E S W N, dragons red green white, characters,
# bamboo, dots, flowers plum orchid bamboo chrysanthemum, seasons.
_GLYPH_BASE = {"m": 0x1F007, "s": 0x1F010, "p": 0x1F019}
_HONOR_GLYPHS = (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004)
_FLOWER_GLYPHS = (0x1F026, 0x1F027, 0x1F028, 0x1F029, 0x1F022, 0x1F023, 0x1F024, 0x1F025)
TEXT_PRESENTATION = "\ufe0e"


def glyph(tile: int) -> str:
    """The tile's Unicode glyph with a text-presentation selector, so columns line up."""
    if tile < 27:
        cp = _GLYPH_BASE["mps"[tile // 9]] + tile % 9
    elif tile < 34:
        cp = _HONOR_GLYPHS[tile - 27]
    else:
        cp = _FLOWER_GLYPHS[tile - 34]
    return chr(cp) + TEXT_PRESENTATION
