from collections.abc import Callable, Sequence

from majiang.tiles import Tile

def init(
    loader: Callable[[], tuple[bytes, ...]],
    kinds: tuple[Tile, ...],
    shanten_fallback: Callable[..., int],
) -> None: ...
def is_winning(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> bool: ...
def is_winning_counts(
    counts: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> bool: ...
def waits(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> frozenset[Tile]: ...
def shanten(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> int: ...
def discard_shanten(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> tuple[int, ...]: ...
def draw_shanten(
    tiles: Sequence[int],
    *,
    wild: int | None = None,
    seven_pairs: bool = True,
    thirteen_orphans: bool = True,
    quads_as_two_pairs: bool = True,
    wild_numbers_only: bool = False,
    wild_pairs_natural: bool = True,
) -> tuple[int, ...]: ...
