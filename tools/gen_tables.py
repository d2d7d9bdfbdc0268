"""Generate majiang/hand/tables.bin, the per-suit hand tables.

Run ``make tables`` (or ``python tools/gen_tables.py``); takes about a minute.
Every table is a dense byte array indexed by the suit's base-5 key
sum(count[i] * 5**i) (9 digits for m/p/s, 7 for honors); keys of more than
14 tiles are never looked up and hold INF.
"""

from __future__ import annotations

import hashlib
import itertools
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from majiang.hand._suit import INF, kept_any_pair, need_pair, need_sets
from majiang.hand._tables import LAYOUT, MAGIC

OUT = Path(__file__).resolve().parents[1] / "majiang" / "hand" / "tables.bin"


def _clip(v: int) -> int:
    return max(0, min(v, INF))


def build(honors: bool) -> dict[str, bytearray]:
    """All tables of one suit kind."""
    width = 7 if honors else 9
    size = 5**width
    names = [name for name, _ in LAYOUT["z" if honors else "n"]]
    widths = dict(LAYOUT["z" if honors else "n"])
    tables = {name: bytearray([INF]) * (size * widths[name]) for name in names}
    keys = [c for c in itertools.product(range(5), repeat=width) if sum(c) <= 14]
    keys.sort(key=sum)
    for c in keys:
        key = sum(n * 5**i for i, n in enumerate(c))
        total = sum(c)
        n0 = need_sets(c, honors)
        n2 = need_pair(c, honors, False)
        n2n = need_pair(c, honors, True)
        # 1: complete as sets only, 2: complete as sets and one pair, 0: neither;
        # a hand wins without wilds when its four suits add up to exactly 1+1+1+2.
        if total % 3 == 0 and n0 == 0:
            tables["complete"][key] = 1
        elif total % 3 == 2 and n2 == 0:
            tables["complete"][key] = 2
        else:
            tables["complete"][key] = 0
        tables["need0"][key] = n0
        tables["need2"][key] = n2
        tables["need2n"][key] = n2n
        tables["odd"][key] = sum(n & 1 for n in c)
        tables["single"][key] = sum(1 for n in c if n == 1) if max(c) <= 2 else INF
        tables["pairsq"][key] = sum(n // 2 for n in c)
        tables["pairsn"][key] = sum(1 for n in c if n >= 2)
        tables["ones"][key] = sum(1 for n in c if n == 1)
        ends = c if honors else (c[0], c[8])
        tables["orph"][key] = 2 * sum(1 for n in ends if n) + (max(ends) >= 2)
        k = kept_any_pair(c, honors)
        tables["kept"][key * 10 : key * 10 + 10] = bytes(_clip(v) for v in k)
        if honors:
            tables["need0nw"][key] = 0 if n0 == 0 else INF
            tables["need2nw"][key] = 0 if n2 == 0 else INF
    return tables


def main() -> None:
    """Build both suit kinds and write the compressed file with a checksum."""
    t0 = time.perf_counter()
    blob = bytearray()
    for part, honors in (("n", False), ("z", True)):
        tables = build(honors)
        for name, _ in LAYOUT[part]:
            blob += tables[name]
        print(f"{part}: built in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    digest = hashlib.sha256(blob).hexdigest()
    OUT.write_bytes(MAGIC + zlib.compress(bytes(blob), 9))
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes, sha256 {digest})", file=sys.stderr)


if __name__ == "__main__":
    main()
