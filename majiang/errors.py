"""The one exception hierarchy of majiang (DESIGN.md convention 3)."""

from __future__ import annotations

__all__ = [
    "DealError",
    "IllegalActionError",
    "MajiangError",
    "NotationError",
    "OptionError",
    "RecordError",
]


class MajiangError(ValueError):
    """Base of every error majiang raises on bad input."""


class NotationError(MajiangError):
    """Tile notation that does not follow FORMAT.md section 1."""

    def __init__(self, message: str, text: str = "", position: int = -1) -> None:
        super().__init__(message)
        self.text = text
        self.position = position


class OptionError(MajiangError):
    """An unknown room option, or a value outside its allowed set."""


class DealError(MajiangError):
    """A deal that cannot be built from the variant's tile set."""


class IllegalActionError(MajiangError):
    """An action that the rules do not allow in the current state."""


class RecordError(MajiangError):
    """A game record that is malformed or does not replay."""
