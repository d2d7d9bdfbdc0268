"""Golden records: every tests/golden/*.json replays to the result it states.

Each file is a worked example of RULES.md as ``{"case", "title", "rules_refs",
"record", "expect"}`` (the format of shared/examples/README.md). The comparison
follows that README: deltas equal; outcome, winner and win_type equal where
given; next dealer, and counters where the object has them; the expected
patterns a subset of the reported ones. A file of a variant that is not
implemented (not in majiang.rules.VARIANTS) fails: it is never silently skipped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from majiang.records import replay
from majiang.rules import VARIANTS

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(doc, dict), f"{path.name}: not a JSON object"
    return doc


def test_golden_files_exist() -> None:
    names = {p.name for p in FILES}
    assert {"GD-1.json", "GD-2.json", "GD-3.json"} <= names


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_golden(path: Path) -> None:
    doc = _load(path)
    record = doc["record"]
    variant = record["variant"]
    assert variant in VARIANTS, f"{path.name}: variant {variant!r} is not implemented"
    result = replay(record)
    assert result["format"] == "majiang-result/1"
    assert result["variant"] == variant
    got_hands = result["hands"]
    for expect in doc["expect"]["hands"]:
        index = expect.get("index", 0)
        case = f"{doc.get('case', path.stem)} hand {index}"
        assert index < len(got_hands), f"{case}: the replay has only {len(got_hands)} hands"
        got = got_hands[index]
        assert got["index"] == index
        assert got["deltas"] == expect["deltas"], f"{case}: deltas"
        assert sum(got["deltas"]) == 0, f"{case}: deltas do not sum to zero"
        for key in ("outcome", "winner", "win_type"):
            if key in expect:
                assert got[key] == expect[key], f"{case}: {key}"
        if "patterns" in expect:
            missing = set(expect["patterns"]) - set(got["patterns"])
            assert not missing, f"{case}: patterns {sorted(missing)} not reported"
        if "next" in expect:
            want = expect["next"]
            if "dealer" in want:
                assert got["next"]["dealer"] == want["dealer"], f"{case}: next dealer"
            if "counters" in want:
                assert got["next"]["counters"] == want["counters"], f"{case}: next counters"
    totals = [sum(h["deltas"][s] for h in got_hands) for s in range(4)]
    assert result["totals"] == totals
