"""The hand calculator agrees with majiang replay on RULES.md's worked examples."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import recordkit as kit

from majiang.cli import main
from majiang.cli.score import Calculation, explain, score
from majiang.errors import MajiangError, RecordError
from majiang.scoring import Item, deltas

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
    calc = score(variant, hand, win, by, **spec)
    want = expected(case)
    assert deltas(calc.score.items) == want["deltas"]
    assert set(want["patterns"]) <= set(calc.score.patterns)
    assert calc.win.win_type == want["win_type"]


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
    calc = score(
        "guangdong", "123m456m789p234s11z", "4s", "self", seat=2, reserved={"horses": "3p"}
    )
    text = explain(calc)
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


# -- the corrections of 2026-12-01 (issue 13): the calculator agrees with replay ------------
def _replayed(
    variant: str,
    hands: list[str],
    actions: list[tuple[Any, ...]],
    *,
    draws: str = "",
    tail: str = "",
    reserved: dict[str, str | None] | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One hand replayed from a partial deal (tests/recordkit.py); its result entry."""
    deal = kit.partial_deal(hands, draws=draws, tail=tail, reserved=reserved)
    entry = kit.hand_entry(deal, actions, chi_names_tiles=True)
    return kit.replay_one(kit.record(variant, [entry], options=options or {}))


def _agree(h: dict[str, Any], calc: Calculation) -> list[Item]:
    """The calculator's patterns, items and deltas equal the replayed hand's."""
    got = list(calc.score.items)
    info, patterns = calc.win, list(calc.score.patterns)
    assert patterns == h["patterns"]
    assert info.win_type == h["win_type"]
    assert sorted((i.kind, i.payer, i.payee, i.points) for i in got) == kit.items(h)
    assert deltas(got) == h["deltas"]
    return got


@pytest.mark.parametrize(("horse", "want"), [("1m", [0, 0, 8, -8]), ("2m", [0, 0, 8, -8]),
                                             ("3p", [6, -2, 8, -12])])  # fmt: skip
def test_calculator_agrees_guangdong_horse_on_a_target_netting_zero_D13(
    horse: str, want: list[int]
) -> None:
    # tests/test_guangdong_rules.py NET0: S0 and S1 net 0 over the base list (ckongs
    # +6 each, hu -4 and the other ckong -2), so horses on them move nothing.
    h = _replayed(
        "guangdong",
        ["5555m17p17s123456z", "2222p39m39s34567z", "123s456s789s666s4s", "39m39p39s1234567z"],
        [(0, "kong", "5m"), (0, "discard", "8m"), (1, "kong", "2p"), (1, "discard", "8p"),
         (2, "hu")],
        draws="6m 4s",
        tail="8m 8p",
        reserved={"horses": horse},
    )  # fmt: skip
    calc = score(
        "guangdong",
        "123s456s789s666s44s",
        "4s",
        "self",
        seat=2,
        melds="S0: ckong 5555m; S1: ckong 2222p",
        reserved={"horses": horse},
    )
    assert deltas(_agree(h, calc)) == want


HAINAN_FILL = ("147m147p147s1234z", "258m258p258s1234z", "369m369p369s1234z")


def test_calculator_agrees_hainan_white_pung_D39() -> None:
    f0, f2, f3 = HAINAN_FILL
    hands = [f0 + " 1m", "23m 1s 55z 99p 456p 789s", f2, f3]
    claim = [(0, "discard", "1m"), (1, "chi", "23m"), (1, "discard", "1s")]
    # S2's 5z completes 555z: a peng, dragon_pung, a legal discard win
    h = _replayed("hainan", hands, [*claim, (2, "discard", "5z"), (1, "hu")], draws="5z")
    calc = score("hainan", "55z99p456p789s", "5z", "discard", seat=1, source=2, melds="chi 123m<S0")
    assert deltas(_agree(h, calc)) == [-10, 40, -20, -10]
    # self-drawn 5z: a concealed triplet, no 番
    more = [(2, "discard", "6z"), (3, "discard", "6z"), (0, "discard", "7z"), (1, "hu")]
    h = _replayed("hainan", hands, [*claim, *more], draws="6z 6z 7z 5z")
    calc = score("hainan", "55z99p456p789s5z", "5z", "self", seat=1, melds="chi 123m<S0")
    assert list(calc.score.patterns) == ["self_draw"]
    _agree(h, calc)
    # a concealed 555z and a win on S2's 9p: no 番, so both refuse it (有番才能胡)
    hands = [f0 + " 1m", "23m 1s 555z 456p 789s 9p", f2, f3]
    with pytest.raises(RecordError):
        _replayed("hainan", hands, [*claim, (2, "discard", "9p"), (1, "hu")], draws="9p")
    with pytest.raises(MajiangError, match="may not win on S2's 9p"):
        score("hainan", "555z456p789s9p", "9p", "discard", seat=1, source=2, melds="chi 123m<S0")


@pytest.mark.parametrize(
    ("third", "want"), [("chi", [-40, 40, 0, 0]), ("peng", [-20, 40, -10, -10])]
)
def test_calculator_agrees_hainan_baopai_chis_and_pengs_apart_D41(
    third: str, want: list[int]
) -> None:
    # S1 claims 123m, 456p and then 789s (chi) or 777s (peng) from S0; S0's 5m wins.
    # Three chis make 包牌 (S0 pays 20 + 10 + 10); two chis and a peng do not.
    f0, f2, f3 = HAINAN_FILL
    s1 = "23m56p89s123z67m55s" if third == "chi" else "23m56p77s123z67m55s"
    claim3 = (1, "chi", "89s") if third == "chi" else (1, "peng")
    between = [(2, "discard", "6z"), (3, "discard", "7z")]
    actions = [
        (0, "discard", "1m"), (1, "chi", "23m"), (1, "discard", "1z"), *between,
        (0, "discard", "4p"), (1, "chi", "56p"), (1, "discard", "2z"), *between,
        (0, "discard", "7s"), claim3, (1, "discard", "3z"), *between,
        (0, "discard", "5m"), (1, "hu"),
    ]  # fmt: skip
    h = _replayed("hainan", [f0 + " 1m", s1, f2, f3], actions, draws="6z 7z 4p 6z 7z 7s 6z 7z 5m")
    meld3 = "chi 789s<S0" if third == "chi" else "peng 777s<S0"
    calc = score(
        "hainan",
        "67m55s",
        "5m",
        "discard",
        seat=1,
        source=0,
        melds=f"chi 123m<S0; chi 456p<S0; {meld3}",
    )
    assert deltas(_agree(h, calc)) == want


def test_calculator_agrees_taizhou_non_winners_natural_concealed_triplets_D66() -> None:
    # 得 = 5z. S1 self-draws 123m 456p 789s 23s 55m + 4s: 48. S2 holds 777z: 8 x 2 = 16;
    # S3 holds 8888m and 444z (North, its wind): (4 + 8) x 2 = 24; S0's 555z are 得: 0.
    # (tests/test_taizhou_rules.py test_non_winners_count_natural_concealed_triplets_D66)
    s0, s2, s3 = "147m258p17s12z555z", "369m36p58s3z777z99s", "1p7p26s6z2m8888m444z"
    h = _replayed(
        "taizhou",
        [s0 + " 9p", "123m456p789s23s55m", s2, s3],
        [(0, "discard", "9p"), (1, "hu")],
        draws="4s",
        reserved={"wild_indicator": "5z"},
    )
    calc = score(
        "taizhou",
        "123m456p789s23s55m4s",
        "4s",
        "self",
        seat=1,
        others=f"S0: {s0}; S2: {s2}; S3: {s3}",
        reserved={"wild_indicator": "5z"},
    )
    assert deltas(_agree(h, calc)) == [-10, 8, -1, 3]
    # without --others the non-winners hold nothing: only the winner is paid
    calc = score(
        "taizhou",
        "123m456p789s23s55m4s",
        "4s",
        "self",
        seat=1,
        reserved={"wild_indicator": "5z"},
    )
    assert deltas(calc.score.items) == [-5, 11, -3, -3]


@pytest.mark.parametrize(
    ("others", "message"),
    [
        ("S1 777z", "cannot read"),
        ("S0: 777z", "is the winner or named twice"),
        ("S1: 777z; S1: 111m", "is the winner or named twice"),
        ("S1: 1234567890m", "no tile 0m"),
        ("S1: 11112222333344p", "at most 13 tiles"),
    ],
)
def test_score_bad_others(others: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["taizhou", "--hand", "123m456p789s23s55m4s", "--win", "4s", "--by", "self"]
    assert main(["score", *argv, "--others", others]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("variant", "phrase"),
    [
        ("guangdong", "a target that nets 0 moves nothing"),  # horses option, D13
        ("hainan", "not added together"),  # baopai option, D41
        ("hainan", "White counts only as a peng or a kong"),  # declared reading, D39
        ("taizhou", "natural concealed triplets"),  # settlement option, D66
    ],
)
def test_rules_command_describes_the_corrected_rules(
    variant: str, phrase: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules", variant]) == 0
    assert phrase in capsys.readouterr().out
