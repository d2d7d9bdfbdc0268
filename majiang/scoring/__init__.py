"""Settlement: payment items that explain every point, and their deltas."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["ITEM_KINDS", "Item", "deltas"]

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

    def to_json(self) -> dict[str, int | str]:
        """The item as FORMAT.md section 3 writes it."""
        return {"kind": self.kind, "from": self.payer, "to": self.payee, "points": self.points}


def deltas(items: Iterable[Item], seats: int = 4) -> list[int]:
    """Each seat's net change; sums to zero by construction."""
    out = [0] * seats
    for it in items:
        out[it.payer] -= it.points
        out[it.payee] += it.points
    return out
