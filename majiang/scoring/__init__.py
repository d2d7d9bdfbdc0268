"""Settlement: payment items that explain every point, and their deltas."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from majiang.tiles import NOTATION

__all__ = ["ITEM_KINDS", "Item", "deltas", "fill_note", "seat_mark", "tile_mark"]

ITEM_KINDS = frozenset(
    {
        "hu",
        "kong",
        "horse",
        "bird",
        "zhuangxian",
        "chengbao",
        "baopai",
        "baosanjia",
        "points",
        "escape",
    }
)
"""Item kinds of RULES.md 0.8."""


@dataclass(frozen=True, slots=True)
class Item:
    """One transfer: ``payer`` pays ``payee`` ``points`` for the reason ``kind``."""

    kind: str
    payer: int
    payee: int
    points: int
    note: str = ""
    """The arithmetic behind ``points`` (numbers and Chinese terms), for a person to check."""
    reason: str = ""
    """Why, as an id the variant names (``Variant.term``): a win type, a kong kind, 金鸟 …"""
    note_zh: str = ""
    """``note`` for a player, in Chinese: seats as ``{S0}``-``{S3}`` and tiles as ``{5m}``,
    which a front end fills with its own names (``fill_note``); no Latin letters."""
    note_en: str = ""
    """``note`` for a player, in English, with the same marks; no Chinese characters."""

    def to_json(self) -> dict[str, int | str]:
        """The item as FORMAT.md section 3 writes it."""
        return {"kind": self.kind, "from": self.payer, "to": self.payee, "points": self.points}


def seat_mark(seat: int) -> str:
    """The mark a note puts for a seat (``{S2}``), named by whoever shows the note."""
    return f"{{S{seat}}}"


def tile_mark(tile: int) -> str:
    """The mark a note puts for a tile (``{5m}``), named by whoever shows the note."""
    return f"{{{NOTATION[tile]}}}"


_MARK = re.compile(r"\{(S[0-3]|[1-9][mpszf])\}")


def fill_note(text: str, seat: Callable[[int], str], tile: Callable[[str], str]) -> str:
    """A note with its marks filled: ``seat(n)`` names seat n, ``tile("5m")`` a tile."""

    def one(m: re.Match[str]) -> str:
        mark = m.group(1)
        return seat(int(mark[1])) if mark[0] == "S" else tile(mark)

    return _MARK.sub(one, text)


def deltas(items: Iterable[Item], seats: int = 4) -> list[int]:
    """Each seat's net change; sums to zero by construction."""
    out = [0] * seats
    for it in items:
        out[it.payer] -= it.points
        out[it.payee] += it.points
    return out
