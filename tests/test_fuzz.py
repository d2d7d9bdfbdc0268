"""Fuzzing the inputs (issue 12, "What must be shown"): mutated records, tile strings and
command lines.

Properties, with hypothesis over mutations of the worked examples (tests/golden) and of
engine-written records of every variant:

- only the project's own exceptions escape: a record is replayed or refused with a
  RecordError, a tile string parsed or refused with a NotationError, a command line ends
  with status 0 or 2 (one line on stderr), never a traceback;
- a refused record says where: hand and action, or the field;
- nothing is accepted that FORMAT.md or RULES.md forbids: an accepted record passes an
  independent check of FORMAT.md's structure (written here from FORMAT.md, not from the
  reader), its hands conserve tiles and sum to zero, every action it lists was legal where
  it stands (or is a pass FORMAT.md allows), and written back with the full deal it replays
  to the same result and writes back the same record.

Each test is bounded (max_examples) so that the suite runs in a few minutes on 2 cores.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from majiang.cli import main
from majiang.engine.match import Match
from majiang.engine.state import Action, HandState
from majiang.errors import NotationError, RecordError
from majiang.records import record_json, replay, replay_match
from majiang.rules import VARIANTS
from majiang.testing import play_random_match
from majiang.tiles import format_tiles, parse_tiles

GOLDEN = Path(__file__).parent / "golden"
FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=False,
)


# -- the records to mutate ------------------------------------------------------------------
def _golden() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(GOLDEN.glob("*.json")):
        out.append((path.stem, json.loads(path.read_text(encoding="utf-8"))["record"]))
    return out


def _engine_written() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for variant in sorted(VARIANTS):
        for seed in (1, 2):
            match = play_random_match(variant, {}, seed, hands=2)
            out.append((f"{variant}-{seed}", record_json(match)))
    return out


SOURCES = _golden() + _engine_written()
WORDS = sorted(
    {
        "tsumogiri", "hu", "pass", "peng", "chi", "kong", "discard", "escape", "1f", "8f",
        "5z", "7z", "1m", "9s", "46m", "4m5z", "666s5z", "", " ", "0m", "8z", "1m\t2m",
        "dealer", "counters", "hands", "draws", "tail", "reserved", "horses", "birds",
        "wild_indicator", "actions", "autoplay", "deal", "seat", "type", "tile", "tiles",
        "dealer_run", "lao", "dealer_wins", "first_dealer", "random", "majiang-record/1",
    }
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 5)
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(WORDS)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(WORDS) | st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path to a value inside a JSON document."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _tile_texts(doc: Any) -> list[str]:
    return sorted({v for p in _paths(doc) if isinstance(v := _at(doc, p), str) and v.strip()
                   and re.fullmatch(r"[0-9mpszf ]+", v)})


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, dict[str, Any], list[str]]:
    """A source record with 1-3 mutations, and what was done (for failure reports)."""
    name, source = draw(st.sampled_from(SOURCES))
    record = copy.deepcopy(source)
    done: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(record) if p]
        path = draw(st.sampled_from(paths))
        parent = _at(record, path[:-1])
        key = path[-1]
        op = draw(
            st.sampled_from(
                ["value", "value", "delete", "add", "tiles", "tiles", "swap", "dup", "truncate"]
            )
        )
        if op == "value":
            parent[key] = draw(json_values)
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(WORDS) | st.text(max_size=4))] = draw(json_values)
        elif op == "tiles":
            texts = _tile_texts(record)
            if texts:
                edit = _tile_edit(draw(st.sampled_from(texts)))
                parent[key] = draw(st.sampled_from(texts) | edit)
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = draw(st.integers(0, len(parent) - 1))
            parent[key], parent[j] = parent[j], parent[key]
        elif op == "dup" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif op == "truncate" and isinstance(parent, list):
            del parent[key:]
            if draw(st.booleans()) and len(path) >= 3 and path[-2] == "actions":
                _at(record, path[:-2])["autoplay"] = "tsumogiri"
        done.append(f"{op} {'/'.join(map(str, path))}")
    return name, record, done


def _tile_edit(text: str) -> st.SearchStrategy[str]:
    """Small edits of a tile string: a character replaced, inserted or removed."""
    alphabet = "0123456789mpszf ,\t"
    pos = st.integers(0, max(0, len(text) - 1))
    char = st.sampled_from(alphabet)
    return st.one_of(
        st.tuples(pos, char).map(lambda p: text[: p[0]] + p[1] + text[p[0] + 1 :]),
        st.tuples(pos, char).map(lambda p: text[: p[0]] + p[1] + text[p[0] :]),
        pos.map(lambda p: text[:p] + text[p + 1 :]),
    )


# -- an independent reading of FORMAT.md's structure ------------------------------------------
TOP = {"format", "variant", "options", "seed", "players", "start", "hands"}
HAND = {"dealer", "deal", "actions", "autoplay"}
DEAL = {"hands", "draws", "tail", "reserved"}
SHAPE = {
    "discard": ({"tile"}, set()),
    "chi": ({"tiles"}, set()),
    "peng": (set(), {"tiles"}),
    "kong": ({"tile"}, {"tiles"}),
    "hu": (set(), set()),
    "pass": (set(), set()),
    "escape": (set(), set()),
}
NOTATION = re.compile(r"(?:[1-9]+[mps]|[1-7]+z|[1-8]+f| )*")


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _tiles(v: Any, flowers: bool = True) -> bool:
    return isinstance(v, str) and bool(NOTATION.fullmatch(v)) and (flowers or "f" not in v)


def format_violations(rec: Any) -> list[str]:
    """What in ``rec`` FORMAT.md section 2 does not allow, by structure alone."""
    bad: list[str] = []
    if not isinstance(rec, dict):
        return ["not an object"]
    bad += [f"field {k}" for k in rec if k not in TOP]
    if rec.get("format") != "majiang-record/1":
        bad.append("format")
    if rec.get("variant") not in VARIANTS:
        bad.append("variant")
    opts = rec.get("options", {})
    if not isinstance(opts, dict) or any(
        not isinstance(v, (bool, int, str)) for v in opts.values()
    ):
        bad.append("options")
    if "seed" in rec and not _int(rec["seed"]):
        bad.append("seed")
    players = rec.get("players", ["", "", "", ""])
    if not (isinstance(players, list) and len(players) == 4
            and all(isinstance(p, str) for p in players)):
        bad.append("players")
    start = rec.get("start", {})
    if not isinstance(start, dict) or set(start) - {"dealer", "counters"}:
        bad.append("start")
    else:
        if "dealer" in start and not (_int(start["dealer"]) and 0 <= start["dealer"] <= 3):
            bad.append("start.dealer")
        counters = start.get("counters", {})
        if not isinstance(counters, dict) or not all(_int(v) for v in counters.values()):
            bad.append("start.counters")
    hands = rec.get("hands")
    if not isinstance(hands, list) or not hands:
        return [*bad, "hands"]
    for i, hand in enumerate(hands):
        if not isinstance(hand, dict):
            bad.append(f"hand {i}")
            continue
        bad += [f"hand {i} field {k}" for k in hand if k not in HAND]
        if "dealer" in hand and not _int(hand["dealer"]):
            bad.append(f"hand {i} dealer")
        if "autoplay" in hand and hand["autoplay"] != "tsumogiri":
            bad.append(f"hand {i} autoplay")
        deal = hand.get("deal", {})
        if not isinstance(deal, dict) or set(deal) - DEAL:
            bad.append(f"hand {i} deal")
        else:
            dh = deal.get("hands", ["", "", "", ""])
            if not (isinstance(dh, list) and len(dh) == 4 and all(_tiles(h) for h in dh)):
                bad.append(f"hand {i} deal.hands")
            if not all(_tiles(deal[k]) for k in ("draws", "tail") if k in deal):
                bad.append(f"hand {i} deal draws/tail")
            res = deal.get("reserved", {})
            if not isinstance(res, dict) or not all(_tiles(v) for v in res.values()):
                bad.append(f"hand {i} deal.reserved")
        actions = hand.get("actions", [])
        if not isinstance(actions, list):
            bad.append(f"hand {i} actions")
            continue
        for j, a in enumerate(actions):
            where = f"hand {i} action {j}"
            if not isinstance(a, dict) or not (_int(a.get("seat")) and 0 <= a["seat"] <= 3):
                bad.append(where)
                continue
            kind = a.get("type")
            if not isinstance(kind, str) or kind not in SHAPE:
                bad.append(f"{where} type")
                continue
            need, may = SHAPE[kind]
            fields = set(a) - {"seat", "type"}
            if not need <= fields or fields - need - may:
                bad.append(f"{where} fields")
            if not all(_tiles(a[k], flowers=False) for k in ("tile", "tiles") if k in a):
                bad.append(f"{where} tiles")
    return bad


# -- what an accepted record must satisfy -----------------------------------------------------
def _tiles_in_play(state: HandState) -> int:
    total = state.live + sum(len(v) for v in state.reserved.values()) + len(state.burned)
    for s in range(4):
        total += sum(state.concealed[s]) + len(state.discards[s]) + len(state.flowers[s])
        total += sum(len(m.tiles) for m in state.melds[s])
    win = state.result_.win if state.result_ is not None else None
    if win is not None and win.win_type == "rob_kong":
        total += 1  # the robbed tile left the konger's meld for the winner's hand (D9)
    return total


def _check_each_action_was_legal(written: dict[str, Any]) -> None:
    """Step through an engine-written record: every listed action is offered where it
    stands (an open window closes when the action is no claim or pass of it), or is a
    pass FORMAT.md allows; tiles are conserved at every step; every hand ends."""
    match = Match(written["variant"], written["options"], written["seed"], written["start"],
                  written["players"])
    total = sum(match.variant.tiles_for(match.options))
    for hand in written["hands"]:
        state = match.new_hand(hand["deal"])
        for raw in hand["actions"]:
            action = Action.from_json(raw)
            offered = action in state.legal_actions(action.seat)
            if not offered and state.phase != "turn":
                if (
                    action.type == "pass"
                    and action.seat != state.window_from
                    and action.seat not in state.window_options
                    and action.seat not in state.decisions
                ):
                    state.apply(action)  # FORMAT.md: a pass with nothing to claim
                    continue
                state.close_window()
                offered = action in state.legal_actions(action.seat)
            assert offered or action.type == "escape", (action, state.legal_actions(action.seat))
            state.apply(action)
            assert _tiles_in_play(state) == total
        if state.phase != "turn":
            state.close_window()
        assert state.is_terminal()
        match.finish(state)


def check_accepted(record: dict[str, Any], result: dict[str, Any]) -> None:
    """Everything an accepted record must satisfy (module docstring)."""
    assert format_violations(record) == [], format_violations(record)
    for h in result["hands"]:
        assert sum(h["deltas"]) == 0
    assert result["totals"] == [sum(h["deltas"][s] for h in result["hands"]) for s in range(4)]
    json.dumps(result, allow_nan=False)
    written = json.loads(json.dumps(record_json(replay_match(record)), allow_nan=False))
    assert format_violations(written) == []
    again = replay(written)
    assert again == result
    assert record_json(replay_match(written)) == written
    _check_each_action_was_legal(written)


def check_refused(err: RecordError) -> None:
    assert err.hand is not None or err.field is not None, str(err)
    if err.action is not None:
        assert err.hand is not None
    assert "\n" not in str(err)


def _replay_or_refuse(record: Any) -> dict[str, Any] | RecordError:
    try:
        return replay(record)
    except RecordError as err:
        return err
    # any other exception escapes and fails the test


@pytest.mark.parametrize(("name", "record"), SOURCES, ids=[n for n, _ in SOURCES])
def test_sources_are_accepted(name: str, record: dict[str, Any]) -> None:
    """The unmutated sources pass every check of an accepted record."""
    check_accepted(record, replay(record))


@settings(FUZZ, max_examples=8000)
@given(mutated())
def test_mutated_records_are_replayed_correctly_or_refused_saying_where(
    case: tuple[str, dict[str, Any], list[str]],
) -> None:
    name, record, done = case
    note(f"{name}: {'; '.join(done)}")
    outcome = _replay_or_refuse(record)
    if isinstance(outcome, RecordError):
        event("refused")
        check_refused(outcome)
    else:
        event("accepted")
        check_accepted(record, outcome)


@settings(FUZZ, max_examples=5000)
@given(st.sampled_from(SOURCES), st.data())
def test_mutated_actions_within_the_rules_only(
    source: tuple[str, dict[str, Any]], data: st.DataObject
) -> None:
    """Plausible edits of the action lists (a type, seat or tile changed; an action
    dropped, repeated or added): accepted only where the rules allow it."""
    record = copy.deepcopy(source[1])
    hands = record["hands"]
    hand = hands[data.draw(st.integers(0, len(hands) - 1))]
    actions = hand["actions"]
    tiles = _tile_texts(hand["deal"]) or ["1m"]
    single = sorted({str(t) for text in tiles for t in parse_tiles(text) if t < 34})
    for _ in range(data.draw(st.integers(1, 3))):
        if not actions:
            break
        i = data.draw(st.integers(0, len(actions) - 1))
        op = data.draw(st.sampled_from(["type", "seat", "tile", "drop", "repeat", "insert"]))
        a = actions[i]
        if op == "type":
            a["type"] = data.draw(st.sampled_from(sorted(SHAPE)))
        elif op == "seat":
            a["seat"] = data.draw(st.integers(0, 3))
        elif op == "tile" and "tile" in a:
            a["tile"] = data.draw(st.sampled_from(single))
        elif op == "drop":
            del actions[i]
        elif op == "repeat":
            actions.insert(i, copy.deepcopy(a))
        elif op == "insert":
            kind = data.draw(st.sampled_from(sorted(SHAPE)))
            new: dict[str, Any] = {"seat": data.draw(st.integers(0, 3)), "type": kind}
            if kind in ("discard", "kong"):
                new["tile"] = data.draw(st.sampled_from(single))
            if kind == "chi":
                new["tiles"] = data.draw(st.sampled_from(single)) + data.draw(
                    st.sampled_from(single)
                )
            actions.insert(i, new)
    if data.draw(st.booleans()):
        hand["autoplay"] = "tsumogiri"
    outcome = _replay_or_refuse(record)
    if isinstance(outcome, RecordError):
        event("refused")
        check_refused(outcome)
    else:
        event("accepted")
        check_accepted(record, outcome)


# -- tile strings ----------------------------------------------------------------------------
@settings(FUZZ, max_examples=3000)
@given(st.text(alphabet="0123456789mpszfx ,\t\n\u00a0", max_size=24) | st.text(max_size=12))
def test_tile_strings_parse_or_raise_notation_error(text: str) -> None:
    try:
        tiles = parse_tiles(text)
    except NotationError as err:
        assert 0 <= err.position < max(1, len(text)) or err.position == -1
        assert err.text == text
        return
    assert NOTATION.fullmatch(text), text  # FORMAT.md 1: digits, suit letters, spaces
    assert list(parse_tiles(format_tiles(tiles))) == sorted(tiles)
    assert len(tiles) == sum(ch.isdigit() for ch in text)


# -- command lines ---------------------------------------------------------------------------
FILES = ("<good record>", "<non-UTF-8 file>", "<a directory>", "<no such file>")
"""Placeholders for files, replaced by paths under the test's temporary directory."""


def _record_files(tmp: Path) -> dict[str, str]:
    """The files FILES stand for, made in ``tmp``."""
    good = tmp / "good.json"
    good.write_text(json.dumps(SOURCES[0][1]))
    bad = tmp / "bad.bin"
    bad.write_bytes(b"\xff\xfe{")
    places = (str(good), str(bad), str(tmp), str(tmp / "none.json"))
    return {**dict(zip(FILES, places, strict=True)), "<records dir>": str(tmp / "records")}


TOKENS = ["-1", "0", "1", "2", "x", "", "3", "true", "5z", "9z", "1f", "4s", "dealer_run=x",
          "lao=3", "horses=false", "birds=9", "S1: peng 111m<S0", "peng 222p<S0", "XKP", "XQ",
          "123m456m789p234s11z", "123m456m789p23s11z", "horses=3p", "S1: 777z", "guangdong",
          "hangzhou", "hainan", "hongzhong", "taizhou", "riichi", "process", "auto", "ray://127.0.0.1:1"]
OPTIONS = {
    "score": ["--hand", "--win", "--by", "--seat", "--dealer", "--from", "--option", "--counter",
              "--reserved", "--flowers", "--chain", "--melds", "--others"],
    "simulate": ["--variant", "--option", "--hands", "--matches", "--match-hands", "--bots",
                 "--seed", "--workers", "--records", "--backend", "--chunk", "--address"],
    "waits": ["--wild"],
    "replay": ["--json"],
    "rules": [],
}
PLACES = {"--records": ("<records dir>", "<non-UTF-8 file>", "<a directory>", "<no such file>")}
"""Flags whose value is a path: one of the test's own places, never the working tree."""


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    command = draw(st.sampled_from(sorted(OPTIONS)))
    argv = [command]
    words = st.sampled_from(TOKENS) | st.text(max_size=5)
    if command in ("score", "waits", "rules"):
        argv.append(draw(words))
    if command == "replay":
        argv.append(draw(st.sampled_from(sorted(FILES))))
    if command == "score":
        argv += ["--hand", draw(words), "--win", draw(words), "--by",
                 draw(st.sampled_from(["self", "discard", "rob", "kong", "x"]))]
    for _ in range(draw(st.integers(0, 4))):
        flag = draw(st.sampled_from(OPTIONS[command] or ["--help"]))
        argv.append(flag)
        if flag in PLACES:
            argv.append(draw(st.sampled_from(PLACES[flag])))
        elif flag not in ("--json", "--help"):
            argv.append(draw(words))
    if command == "simulate":
        argv += ["--json", "--hands", "1", "--match-hands", "1", "--workers", "1"]
    return argv


@settings(FUZZ, max_examples=500)
@given(argv=command_lines())
def test_command_lines_end_in_0_or_one_line_and_2(argv: list[str], tmp_path_factory: Any) -> None:
    tmp = tmp_path_factory.mktemp("cli")
    files = _record_files(tmp)
    argv = [files.get(a, a) for a in argv]
    out, err = io.StringIO(), io.StringIO()
    # in the temporary directory, so that a path made of random words lands there
    with contextlib.chdir(tmp), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse: --help (0) or a usage error (2)
            code = stop.code if isinstance(stop.code, int) else 1
    assert code in (0, 2), (argv, code, err.getvalue())
    if code == 2:
        lines = err.getvalue().strip().splitlines()
        assert len(lines) == 1, (argv, err.getvalue())
        assert "error" in lines[0]

