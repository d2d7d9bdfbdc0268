"""The hand calculator agrees with majiang replay on RULES.md's worked examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from majiang.cli import main
from majiang.cli.score import explain, score
from majiang.errors import MajiangError
from majiang.scoring import deltas

GOLDEN = Path(__file__).parent / "golden"

# Each worked example as the calculator is told it: the winner's concealed tiles, the
# melds on the table, the winning tile and how it was won, the reserved tiles, counters.
CASES: list[tuple[str, dict[str, Any]]] = [
    (
        "GD-1",
        {
            "variant": "guangdong",
            "hand": "123m456m789p234s11z",
            "win": "4s",
            "by": "self",
            "seat": 2,
            "reserved": {"horses": "3p"},
        },
    ),
    (
        "GD-2",
        {
            "variant": "guangdong",
            "hand": "111p345p678p99p",
            "win": "9p",
            "by": "self",
            "seat": 3,
            "melds": "peng 222p<S0; S1: ckong 7777z",
            "counters": {"dealer_run": 2},
            "reserved": {"horses": "9m 4z"},
        },
    ),
    (
        "GD-3",
        {
            "variant": "guangdong",
            "hand": "34m678p123s789s77z",
            "win": "5m",
            "by": "rob",
            "seat": 2,
            "source": 1,
            "melds": "S1: peng 555m<S3",
            "reserved": {"horses": "2s"},
        },
    ),
    (
        "HZ-1",
        {
            "variant": "hangzhou",
            "hand": "5z6z123m456m789p234s",
            "win": "6z",
            "by": "self",
            "seat": 2,
        },
    ),
    (
        "HZ-2",
        {
            "variant": "hangzhou",
            "hand": "5z123m456m789p234s9s",
            "win": "9s",
            "by": "self",
            "seat": 1,
            "chain": "XP",
            "counters": {"lao": 2},
            "options": {"base_score": 2},
        },
    ),
    (
        "HZ-3",
        {
            "variant": "hangzhou",
            "hand": "11m33m55p77p99s22z8p",
            "win": "8p",
            "by": "discard",
            "seat": 3,
            "source": 0,
            "counters": {"lao": 3},
        },
    ),
    (
        "HZ-4",
        {
            "variant": "hangzhou",
            "hand": "5z444z3z",
            "win": "3z",
            "by": "self",
            "seat": 1,
            "melds": "chi 123m<S0; chi 678p<S0; peng 999s<S0",
            "counters": {"lao": 3},
            "options": {"chengbao": True},
        },
    ),
    (
        "HN-1",
        {
            "variant": "hainan",
            "hand": "123m456p345s5m",
            "win": "5m",
            "by": "discard",
            "seat": 2,
            "source": 1,
            "melds": "chi 789s<S1",
        },
    ),
    (
        "HN-2",
        {
            "variant": "hainan",
            "hand": "678s123p99s",
            "win": "9s",
            "by": "self",
            "seat": 3,
            "melds": "peng 444m<S0; chi 234p<S2; S1: ckong 3333z",
            "flowers": "1f",
        },
    ),
    (
        "HN-3",
        {
            "variant": "hainan",
            "hand": "56s88m",
            "win": "7s",
            "by": "discard",
            "seat": 2,
            "source": 1,
            "melds": "chi 123m<S1; chi 456p<S1; chi 789s<S1",
        },
    ),
    (
        "HO-1",
        {
            "variant": "hongzhong",
            "hand": "123m456m789p23s55p7z",
            "win": "9p",
            "by": "self",
            "seat": 2,
            "reserved": {"birds": "5s 8p"},
        },
    ),
    (
        "HO-2",
        {
            "variant": "hongzhong",
            "hand": "234m678p333s99s56m",
            "win": "7m",
            "by": "discard",
            "seat": 1,
            "source": 3,
            "melds": "S2: kong 2222p<S0",
            "options": {"birds": 4},
            "reserved": {"birds": "2m 4p 6s 8m"},
        },
    ),
    (
        "HO-3",
        {
            "variant": "hongzhong",
            "hand": "11m44m22p7777p33s99s",
            "win": "9s",
            "by": "self",
            "seat": 0,
            "options": {"no_wild": True, "birds": 6},
            "reserved": {"birds": "1m 9p 5s 2p 3m 7s"},
        },
    ),
    (
        "TZ-1",
        {
            "variant": "taizhou",
            "hand": "111m456p789s22p",
            "win": "5p",
            "by": "self",
            "seat": 0,
            "melds": "peng 777z<S2; S1: peng 222m<S3; S2: kong 1111z<S1",
            "reserved": {"wild_indicator": "3s"},
        },
    ),
    (
        "TZ-3",
        {
            "variant": "taizhou",
            "hand": "999p5m5m2s444s66p",
            "win": "6p",
            "by": "self",
            "seat": 2,
            "melds": "peng 333z<S1; S1: peng 777z<S0; S3: kong 5555p<S1",
            "reserved": {"wild_indicator": "5m"},
        },
    ),
]


def expected(case: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{case}.json").read_text())["expect"]["hands"][0]
    return data


@pytest.mark.parametrize(("case", "spec"), CASES, ids=[c for c, _ in CASES])
def test_calculator_agrees_with_replay(case: str, spec: dict[str, Any]) -> None:
    spec = dict(spec)
    variant = spec.pop("variant")
    hand = spec.pop("hand")
    win = spec.pop("win")
    by = spec.pop("by")
    state, info, patterns, _ = score(variant, hand, win, by, **spec)
    want = expected(case)
    assert deltas(state.rules.settle(state, info)) == want["deltas"]
    assert set(want["patterns"]) <= set(patterns)
    assert info.win_type == want["win_type"]


def test_score_cli_explains_each_payment(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "score",
            "hangzhou",
            "--hand",
            "5z123m456m789p234s9s",
            "--win",
            "9s",
            "--by",
            "self",
            "--seat",
            "1",
            "--chain",
            "XP",
            "--counter",
            "lao=2",
            "--option",
            "base_score=2",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "patterns: basic_hand, baotou, piao" in out
    assert "底分 2 x 庄闲分 4 x 番 (F = S 1 x G 2 x 2^(1+0) = 4)" in out
    assert "deltas: S0 -32  S1 +48  S2 -8  S3 -8" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["guangdong", "--hand", "123m456m789p23s11z9s", "--win", "9s", "--by", "self"],
            "not a winning hand",
        ),
        (["guangdong", "--hand", "123m", "--win", "0m", "--by", "self"], "no tile 0m"),
        (
            [
                "hainan",
                "--hand",
                "123m456p345s5m",
                "--win",
                "5m",
                "--by",
                "discard",
                "--melds",
                "chi 789s",
            ],
            "needs the seat",
        ),
        (
            [
                "hainan",
                "--hand",
                "123m456p345s5m",
                "--win",
                "5m",
                "--by",
                "discard",
                "--melds",
                "peng 789s<S1",
            ],
            "is not a peng",
        ),
    ],
)
def test_score_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", *argv]) == 2
    assert message in capsys.readouterr().err


def test_explain_lists_items() -> None:
    state, info, patterns, value = score(
        "guangdong", "123m456m789p234s11z", "4s", "self", seat=2, reserved={"horses": "3p"}
    )
    text = explain(state, info, patterns, value)
    assert "horse      S1 -> S0     2" in text


def test_self_draw_hand_must_hold_the_winning_tile() -> None:
    with pytest.raises(MajiangError, match="includes the winning tile"):
        score("guangdong", "123m456m789p23s11z", "4s", "self")


def test_wrong_tile_count_is_named() -> None:
    with pytest.raises(MajiangError, match="holds 13 tiles"):
        score("guangdong", "123m456m789p23s1z4s", "4s", "self")


def test_unknown_win_type() -> None:
    with pytest.raises(MajiangError, match="--by takes"):
        score("guangdong", "123m456m789p23s11z4s", "4s", "tsumo")
