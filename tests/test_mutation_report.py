"""tools/mutation_report.py: kill rates with equivalent survivors set apart, reruns replacing
a mutant's first outcome, unjudged survivors named (docs/testing.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import mutation_report


def outcome(
    index: int, status: str, before: str = "x = 1", after: str = "1 -> 2"
) -> dict[str, object]:
    return {
        "module": "majiang/rules/demo.py", "index": index, "line": index, "kind": "const",
        "before": f"col 4: {before}", "after": after, "status": status, "seconds": 0.1,
    }  # fmt: skip


def test_rates_reruns_and_unjudged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    equivalents = tmp_path / "eq.json"
    # the second key gives the code cut shorter than the run describes it
    equivalents.write_text(
        json.dumps({"demo.py|const|x = 1|1 -> 2": "why 1", "demo.py|const|y = f(|1 -> 2": "why 2"})
    )
    monkeypatch.setattr(mutation_report, "EQUIVALENTS", equivalents)
    run = tmp_path / "run.json"
    run.write_text(json.dumps([
        outcome(1, "killed"), outcome(2, "timeout"), outcome(3, "survived"),
        outcome(4, "survived", "y = f(a, b)"), outcome(5, "survived", "z = 3"),
        outcome(6, "survived", "w = 2"),
    ]))  # fmt: skip
    rerun = tmp_path / "rerun.json"
    rerun.write_text(json.dumps([outcome(6, "killed", "w = 2")]))
    assert mutation_report.main([str(run), "--rerun", str(rerun), "--reasons"]) == 1
    out, err = capsys.readouterr()
    # 6 mutants, 3 killed (a timeout and a rerun count), 3 survived, 2 of them equivalent:
    # 50 % killed, 3 of the 4 that can change behaviour
    assert "| `majiang/rules/demo.py` | 6 | 3 | 3 | 2 | 50.0% | 75.0% |" in out
    assert "why 1" in out and "why 2" in out
    assert "#5" in err and "z = 3" in err and "#6" not in err
    later = tmp_path / "later.json"
    later.write_text(json.dumps([outcome(5, "killed", "z = 3")]))
    assert mutation_report.main([str(run), "--rerun", str(rerun), "--rerun", str(later)]) == 0
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps([outcome(9, "killed")]))
    with pytest.raises(SystemExit, match="#9 is not in the run"):
        mutation_report.main([str(run), "--rerun", str(unknown)])
