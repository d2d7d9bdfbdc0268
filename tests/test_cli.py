"""The command line: overview, waits, rules, replay, and clear errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from majiang.cli import main
from majiang.rules import VARIANTS

GOLDEN = Path(__file__).parent / "golden"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_no_arguments_prints_what_it_can_do(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 0
    for word in ("guangdong", "hangzhou", "hainan", "hongzhong", "taizhou", "majiang waits"):
        assert word in out


def test_waits_nine_sided(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "waits", "1112345678999m")
    assert code == 0
    assert "ready (0)" in out
    assert "1m (1 unseen)" in out and "5m (3 unseen)" in out and "9m (1 unseen)" in out


def test_waits_with_wild(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "waits", "123m456p789s1z5z", "--wild", "5z")
    assert code == 0
    assert "complete (-1)" in out


@pytest.mark.parametrize(
    ("hand", "message"),
    [("0m", "no tile 0m"), ("11111m", "at most 4"), ("123m", "3n+1 or 3n+2"), ("x", "'x'")],
)
def test_waits_bad_input_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], hand: str, message: str
) -> None:
    code, _, err = run(capsys, "waits", hand)
    assert code == 2
    assert message in err


def test_rules_lists_guangdong_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "guangdong")
    assert code == 0
    for name in ("base_score", "horses", "hunyise_big", "kong_pay_on_draw", "escape_penalty",
                 "first_dealer", "买马"):
        assert name in out


def test_rules_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "rules", "riichi")
    assert code == 2 and "unknown variant 'riichi'" in err


def test_replay_summary_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = json.loads((GOLDEN / "GD-2.json").read_text())["record"]
    path = tmp_path / "gd2.json"
    path.write_text(json.dumps(record))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert "S3 wins by self_draw: all_one_suit" in out
    assert "horse" in out and "S0 -6  S1 +2  S2 -10  S3 +14" in out
    code, out, _ = run(capsys, "replay", str(path), "--json")
    result = json.loads(out)
    assert result["format"] == "majiang-result/1"
    assert result["hands"][0]["deltas"] == [-6, 2, -10, 14]
    assert result["totals"] == [-6, 2, -10, 14]


def test_replay_bad_record_names_the_action(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = json.loads((GOLDEN / "GD-1.json").read_text())["record"]
    record["hands"][0]["actions"][1] = {"seat": 1, "type": "discard", "tile": "9s"}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2
    assert "hand 0, action 1, seat 1" in err and "does not hold 9s" in err


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_rules_states_the_defining_restriction_first_in_both_languages(
    capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    """Issue 12 item 7: the variant's summary leads, every option is listed, and nothing
    points a user at a spec file or a decision number they do not have."""
    v = VARIANTS[variant]
    code, out, _ = run(capsys, "rules", variant)
    assert code == 0
    lines = out.splitlines()
    assert lines[2].strip() == v.summary[0] and lines[3].strip() == v.summary[1]
    for o in v.options:
        assert o.name in out and o.zh in out
    assert "RULES.md" not in out and re.search(r"\bD\d+\b", out) is None


def test_rules_overview_comes_from_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for v in VARIANTS.values():
        assert v.id in out and v.zh in out and v.summary[1] in out


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_rules_lists_every_pattern_with_its_names_and_value(
    capsys: pytest.CaptureFixture[str], variant: str
) -> None:
    """Issue 15: each variant declares its patterns (id, Chinese, English, value) and
    ``majiang rules`` shows them from the declaration."""
    v = VARIANTS[variant]
    assert set(v.pattern_values) == set(v.patterns)
    code, out, _ = run(capsys, "rules", variant)
    assert code == 0
    for p, (zh, en) in v.patterns.items():
        line = next(x for x in out.splitlines() if x.split()[:1] == [p])
        assert zh in line and en in line and line.rstrip().endswith(v.pattern_values[p])


def test_rules_shows_taizhou_fan_values(capsys: pytest.CaptureFixture[str]) -> None:
    # RULES.md 5.4: 四风全齐 is 13 番, 清一色 4, 混一色 and 对对胡 2.
    _, out, _ = run(capsys, "rules", "taizhou")
    rows = {x.split()[0]: x for x in out.splitlines() if x.startswith("  ") and x.split()}
    values = {p: "13" if p == "four_winds" else "4" if p == "all_one_suit" else "2"
              for p in ("four_winds", "all_one_suit", "half_flush", "all_pungs")}
    for p, n in values.items():  # the value in Chinese, then in English
        assert rows[p].endswith(f"{n} 番  {n} fan"), rows[p]
