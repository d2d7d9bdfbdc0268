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
    """A game record that is malformed or does not replay.

    Says where (FORMAT.md 2, Errors): ``hand`` and ``action`` are 0-based indexes,
    ``seat`` the acting seat, ``field`` the field at fault (e.g. ``deal.hands[2]``,
    ``tile``); the message starts with them, then gives the reason in plain words.
    """

    def __init__(
        self,
        reason: str,
        *,
        hand: int | None = None,
        action: int | None = None,
        seat: int | None = None,
        field: str | None = None,
    ) -> None:
        where = [
            f"{name} {value}"
            for name, value in (("hand", hand), ("action", action), ("seat", seat))
            if value is not None
        ]
        if field is not None:
            where.append(f"field {field}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)
        self.reason = reason
        self.hand = hand
        self.action = action
        self.seat = seat
        self.field = field
