"""Loads the per-suit hand tables shipped in tables.bin, once, on first use.

The file is written by tools/gen_tables.py from majiang.hand._suit; see there
for what each table holds.
"""

from __future__ import annotations

import zlib
from functools import cache
from importlib import resources
from typing import NamedTuple

MAGIC = b"MJTAB3\n"

_SHARED: list[tuple[str, int]] = [
    ("complete", 1),
    ("need0", 1),
    ("need2", 1),
    ("need2n", 1),
    ("odd", 1),
    ("single", 1),
    ("kept", 10),
    ("pairsq", 1),
    ("pairsn", 1),
    ("ones", 1),
    ("orph", 1),
]
LAYOUT: dict[str, list[tuple[str, int]]] = {
    "n": _SHARED,
    # honors also store the needs when wilds may not stand for honors (RULES.md 4.1)
    "z": [*_SHARED, ("need0nw", 1), ("need2nw", 1)],
}
"""Tables in file order with their bytes per key: number suits, then honors."""


class SuitTables(NamedTuple):
    """The tables of one suit kind, each a bytes object indexed by base-5 key."""

    complete: bytes
    need0: bytes
    need2: bytes
    need2n: bytes
    odd: bytes
    single: bytes
    kept: bytes
    pairsq: bytes
    pairsn: bytes
    ones: bytes
    orph: bytes
    need0nw: bytes
    need2nw: bytes


@cache
def load() -> tuple[SuitTables, SuitTables]:
    """Number-suit and honor tables, decompressed from the package data."""
    raw = resources.files("majiang.hand").joinpath("tables.bin").read_bytes()
    if not raw.startswith(MAGIC):
        raise RuntimeError("majiang/hand/tables.bin is not a majiang table file")
    blob = zlib.decompress(raw[len(MAGIC) :])
    out: list[SuitTables] = []
    pos = 0
    for part, width in (("n", 9), ("z", 7)):
        size = 5**width
        fields: dict[str, bytes] = {}
        for name, w in LAYOUT[part]:
            fields[name] = blob[pos : pos + size * w]
            pos += size * w
        fields.setdefault("need0nw", fields["need0"])
        fields.setdefault("need2nw", fields["need2"])
        out.append(SuitTables(**fields))
    if pos != len(blob):
        raise RuntimeError("majiang/hand/tables.bin has an unexpected size; run make tables")
    return out[0], out[1]
