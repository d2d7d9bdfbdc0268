"""Issue 12, items 6, 9 and 10: bad input anywhere on the command line is one line on stderr
naming the input, exit status 2, never a traceback; the calculator refuses wins play forbids."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from majiang.cli import main

GOLDEN = Path(__file__).parent / "golden"


def error_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run majiang with ``argv``; it must fail with status 2 and one line on stderr."""
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code if isinstance(stop.code, int) else 1
    out = capsys.readouterr()
    assert code == 2, (argv, out.out, out.err)
    lines = out.err.strip().splitlines()
    assert len(lines) == 1, out.err
    assert "Traceback" not in out.err
    return lines[0]


def score(capsys: pytest.CaptureFixture[str], variant: str, hand: str, win: str, by: str,
          *extra: str) -> str:
    return error_of(capsys, "score", variant, "--hand", hand, "--win", win, "--by", by, *extra)


# -- item 9: majiang score refuses what the rules forbid -------------------------------------
def test_score_refuses_a_discard_win_in_guangdong_1_3(capsys: pytest.CaptureFixture[str]) -> None:
    err = score(capsys, "guangdong", "123m456m789p23s11z", "4s", "discard")
    assert "guangdong has no win on a discard" in err


def test_score_refuses_a_hangzhou_discard_win_below_san_lao_zhuang_2_3(
    capsys: pytest.CaptureFixture[str],
) -> None:
    hand = ("11m33m55p77p99s22z8p", "8p", "discard", "--seat", "3", "--from", "0")
    err = score(capsys, "hangzhou", *hand, "--counter", "lao=2")
    assert "S3 may not win on S0's 8p" in err and "三老庄" in err
    # at 三老庄 the same win is scored
    assert main(["score", "hangzhou", "--hand", hand[0], "--win", "8p", "--by", "discard",
                 "--seat", "3", "--from", "0", "--counter", "lao=3"]) == 0
    assert "deltas: S0 -32" in capsys.readouterr().out


NO_FAN = ("678s123p9s", "9s", "--seat", "2", "--melds", "peng 444m<S0; chi 234p<S1")


def test_score_refuses_a_hainan_discard_win_without_fan_3_4(
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = score(capsys, "hainan", NO_FAN[0], NO_FAN[1], "discard", *NO_FAN[2:], "--from", "1")
    assert "S2 may not win on S1's 9s" in err and "有番才能胡" in err
    # a self-draw needs no 番
    assert main(["score", "hainan", "--hand", NO_FAN[0] + "9s", "--win", "9s", "--by", "self",
                 *NO_FAN[2:]]) == 0
    assert "patterns: self_draw" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        # tiles the variant does not have (RULES.md 0.2)
        (("hongzhong", "123m456m789p23s11z1s", "1s", "self"), "hongzhong has no 1z"),
        (("hongzhong", "123m456m789p23s77z1s", "1s", "self", "--option", "no_wild=true"),
         "hongzhong has no 7z"),
        # more copies than the set holds, counting melds (seven 1m)
        (("guangdong", "1m456m789p234s11z", "1m", "self", "--melds",
          "peng 111m<S1; S2: kong 1111m<S3"), "x 1m named"),
        (("guangdong", "11111m456m789p234s", "4s", "self"), "5 x 1m named"),
        (("guangdong", "123m456m789p444s11z", "4s", "self", "--reserved", "horses=4s",
          "--others", "S1: 4s"), "5 x 4s named"),
        # flowers where a variant has none, a non-flower as a flower, a flower as a tile
        (("guangdong", "123m456m789p234s11z", "4s", "self", "--flowers", "1f"),
         "guangdong is played without flowers"),
        (("hainan", "123m456m789p234s11z", "4s", "self", "--flowers", "1m"),
         "--flowers takes flower tiles"),
        (("hainan", "123m456m789p234s11z", "4s", "self", "--flowers", "1f 1f"), "2 x 1f named"),
        (("guangdong", "123m456m789p23s11z", "1f", "discard"), "a flower is never a winning tile"),
        (("hainan", "123m456m789p23s1f", "4s", "discard"), "a flower is never a winning tile"),
        (("guangdong", "123m456m789p234s11z", "4s", "self", "--others", "S1: 1f"),
         "flowers are never concealed"),
        # robbing where a variant has none; robbing needs the konger's peng
        (("hangzhou", "123m456m789p23s11z", "4s", "rob"), "hangzhou has no robbing a kong"),
        (("guangdong", "34m678p123s789s77z", "5m", "rob", "--seat", "2", "--from", "1"),
         "--melds must give it"),
        # guangdong D17: not a kong whose peng was claimed from the robber
        (("guangdong", "34m678p123s789s77z", "5m", "rob", "--seat", "2", "--from", "1",
          "--melds", "S1: peng 555m<S2"), "may not rob S1's kong of 5m"),
        # claims the variant does not have, a chi not from the previous seat
        (("guangdong", "123m456m789p234s11z", "4s", "self", "--melds", "S1: chi 789m<S0"),
         "guangdong has no chi"),
        (("hainan", "123m456p34s22z", "5s", "discard", "--seat", "2", "--from", "1",
          "--melds", "chi 789s<S3"), "a chi takes the previous seat's (S1) discard only"),
        (("hainan", "123m456p34s22z", "5s", "discard", "--melds", "chi 891s<S3"), "is not a chi"),
        # a discarded wild cannot be won on (RULES.md 2.1)
        (("hangzhou", "11m33m55p77p99s22z8p", "5z", "discard", "--seat", "3", "--from", "0",
          "--counter", "lao=3"), "a discarded wild (5z) cannot be won on"),
    ],
)
def test_score_refuses_impossible_positions(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert message in score(capsys, *argv)


# -- item 10: one-line errors instead of tracebacks ------------------------------------------
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("guangdong", "123m456m789p234s11z", "4s", "self", "--counter", "dealer_run=x"),
         "--counter takes name=integer"),
        (("guangdong", "123m456m789p234s11z", "4s", "self", "--counter", "dealer_run"),
         "name=value"),
        (("guangdong", "123m456m789p234s11z", "4s", "self", "--option", "horses=maybe"),
         "option 'horses'"),
        (("hangzhou", "5z123m456m789p234s9s", "9s", "self", "--chain", "XQ"),
         "got 'Q' in 'XQ'"),
        (("hangzhou", "5z123m456m789p234s9s", "9s", "self", "--chain", "XK"),
         "the winner's melds hold 0"),
        (("guangdong", "123m456m789p234s11z", "4s", "self", "--chain", "P"), "no wilds"),
        (("guangdong", "123m456m789p234s11z", "4s", "kong"), "--by kong needs a kong"),
        (("guangdong", "123m456m789p234s11z", "4s", "tsumo"), "invalid choice: 'tsumo'"),
        (("guangdong", "123m456m789p234s11z", "4s", "self", "--seat", "4"), "--seat"),
        (("guangdong", "123m\t456m789p234s11z", "4s", "self"), "unexpected character '\\t'"),
    ],
)
def test_score_bad_arguments_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert message in score(capsys, *argv)


def test_score_by_kong_counts_the_kong_of_the_chain(capsys: pytest.CaptureFixture[str]) -> None:
    """--by kong: the win is on the kong's replacement, so hangzhou's chain holds that kong
    (RULES.md 2.4 杠) even when --chain is not given, as in play."""
    argv = ["score", "hangzhou", "--hand", "123m456m789p11z", "--win", "1z", "--melds",
            "ckong 2222s"]
    assert main([*argv, "--by", "kong"]) == 0
    assert "patterns: basic_hand, gang" in capsys.readouterr().out
    assert main([*argv, "--by", "kong", "--chain", "XK"]) == 0
    assert "patterns: basic_hand, gang" in capsys.readouterr().out
    assert "use --by kong" in error_of(capsys, *argv, "--by", "self", "--chain", "XK")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--workers", "-1", "--hands", "2"), "--workers must be at least 1"),
        (("--workers", "0", "--hands", "2"), "--workers must be at least 1"),
        (("--hands", "0"), "--hands N or --matches N with N >= 1"),
        (("--matches", "0"), "--hands N or --matches N with N >= 1"),
        (("--hands", "-5"), "--hands N or --matches N with N >= 1"),
        (("--hands", "2", "--matches", "2"), "either --hands N or --matches N"),
        (("--hands", "2", "--match-hands", "0"), "--match-hands must be at least 1"),
        (("--hands", "x"), "invalid int value: 'x'"),
        (("--hands", "2", "--bots", "greedy,nobody,greedy,greedy"), "unknown bot 'nobody'"),
        (("--hands", "2", "--variant", "riichi"), "unknown variant 'riichi'"),
        (("--hands", "2", "--option", "horses=maybe"), "option 'horses'"),
    ],
)
def test_simulate_bad_arguments_are_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    assert message in error_of(capsys, "simulate", "--json", *argv)


def test_simulate_records_must_be_a_writable_directory(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    err = error_of(capsys, "simulate", "--json", "--hands", "1", "--records", str(a_file))
    assert "is a file, not a directory" in err
    err = error_of(capsys, "simulate", "--json", "--hands", "1", "--records",
                   str(a_file / "below"))
    assert "cannot make the directory" in err
    assert not list(tmp_path.glob("**/*.json"))


def test_replay_bad_files_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"players": ["Zo\xeb"]}')
    assert "UTF-8" in error_of(capsys, "replay", str(latin))
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text('{"record": 5}')
    assert "field format" in error_of(capsys, "replay", str(wrapped))
    example = tmp_path / "example.json"
    example.write_text('{"case": "X", "record": 5}')
    assert "a record is a JSON object, got 5" in error_of(capsys, "replay", str(example))
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 50_000 + "]" * 50_000)
    assert "nested too deep" in error_of(capsys, "replay", str(deep))
    assert "cannot read record" in error_of(capsys, "replay", str(tmp_path / "none.json"))
    assert "cannot read record" in error_of(capsys, "replay", str(tmp_path))


def test_replay_refuses_a_name_with_a_lone_surrogate(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 35, E3: ``\\ud800`` is valid JSON but no character; replay names the player
    (exit 2, one line) instead of accepting a record it could not write back."""
    record = json.loads((GOLDEN / "GD-1.json").read_text())["record"]
    record["players"][2] = "Cy\ud800"
    path = tmp_path / "surrogate.json"
    path.write_text(json.dumps(record))  # ASCII: the escape as written, \\ud800
    err = error_of(capsys, "replay", str(path))
    assert "players[2]" in err and "surrogate" in err


def test_one_line_even_when_the_input_has_newlines(capsys: pytest.CaptureFixture[str]) -> None:
    err = error_of(capsys, "waits", "123m\n456m")
    assert "123m" in err


# -- item 6 and numbering: replay says who escaped, counts hands from 1 -----------------------
def test_replay_says_who_escaped_0_9(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = json.loads((GOLDEN / "GD-1.json").read_text())["record"]
    record["hands"][0]["actions"] = [{"seat": 0, "type": "discard", "tile": "2z"},
                                     {"seat": 1, "type": "escape"}]
    path = tmp_path / "escape.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "S1 escaped (逃跑)" in out and "drawn" not in out
    assert "escape     S1 -> S0     8" in out  # guangdong escape_penalty 8 (RULES.md 0.9)
    assert main(["replay", str(path), "--json"]) == 0
    hand = json.loads(capsys.readouterr().out)["hands"][0]
    assert hand["outcome"] == "draw" and "escaped" not in hand  # FORMAT.md 3 exactly


def test_replay_counts_hands_from_one(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = json.loads((GOLDEN / "GD-1.json").read_text())["record"]
    record["hands"].append({"autoplay": "tsumogiri"})
    path = tmp_path / "two.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "hand 1 / 第1局 (index 0): dealer S0" in out
    assert "hand 2 / 第2局 (index 1)" in out and "hand 0" not in out


def test_replay_into_a_closed_pipe_is_quiet(tmp_path: Path) -> None:
    """``majiang replay FILE | head``: no BrokenPipeError traceback (Python docs' recipe)."""
    record = json.loads((GOLDEN / "GD-1.json").read_text())["record"]
    record["hands"] += [{"autoplay": "tsumogiri"}] * 400
    path = tmp_path / "long.json"
    path.write_text(json.dumps(record))
    proc = subprocess.Popen(
        [sys.executable, "-m", "majiang", "replay", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert first.startswith(b"variant guangdong")
    assert "Traceback" not in err and "BrokenPipe" not in err, err
