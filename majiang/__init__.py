"""majiang: Chinese regional mahjong rules engine, hand analysis and tools.

The core imports nothing outside the standard library; hand tables load on
first use, so ``import majiang`` stays fast.
"""

from majiang.errors import (
    DealError,
    IllegalActionError,
    MajiangError,
    NotationError,
    OptionError,
    RecordError,
)
from majiang.tiles import Tile, format_tiles, parse_tiles

__version__ = "0.1.0"

__all__ = [
    "DealError",
    "IllegalActionError",
    "MajiangError",
    "NotationError",
    "OptionError",
    "RecordError",
    "Tile",
    "__version__",
    "format_tiles",
    "parse_tiles",
]
