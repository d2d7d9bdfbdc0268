"""majiang-record/1 reading, validation, writing and replay (FORMAT.md 2 and 3)."""

from __future__ import annotations

import copy
import gc
import json
import re
import weakref
from pathlib import Path
from typing import Any

import pytest

from majiang.engine.match import Match
from majiang.engine.state import HandState
from majiang.errors import RecordError
from majiang.records import (
    MAX_HANDS,
    MAX_RECORD_BYTES,
    load,
    parse,
    record_json,
    replay,
    replay_match,
    result_json,
)
from majiang.testing import play_random_match
from majiang.tiles import Tile, parse_tiles

GOLDEN = Path(__file__).parent / "golden"


def gd1() -> dict[str, Any]:
    record: dict[str, Any] = json.loads((GOLDEN / "GD-1.json").read_text())["record"]
    return record


@pytest.mark.parametrize(
    ("where", "field", "message"),
    [
        ((), "colour", "field colour: unknown field"),
        (("hands", 0), "notes", "hand 0, field notes: unknown field"),
        (("hands", 0, "deal"), "wall", "hand 0, field deal.wall: unknown field"),
    ],
)
def test_unknown_fields_are_rejected(where: tuple[Any, ...], field: str, message: str) -> None:
    record = gd1()
    target: Any = record
    for key in where:
        target = target[key]
    target[field] = 1
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_more_copies_than_the_set_holds_names_the_tile() -> None:
    record = gd1()
    record["hands"][0]["deal"]["draws"] = "1p 4s 1z 1z"  # 1z: three in hands + these
    with pytest.raises(RecordError, match="more 1z than the set holds"):
        replay(record)


def test_unknown_option_and_bad_value() -> None:
    record = gd1()
    record["options"] = {"flowers": True}
    with pytest.raises(RecordError, match="no option 'flowers'"):
        replay(record)
    record["options"] = {"base_score": 0}
    with pytest.raises(RecordError, match="base_score"):
        replay(record)


def test_unknown_counter_is_rejected() -> None:
    record = gd1()
    record["start"]["counters"] = {"lao": 2}
    with pytest.raises(RecordError, match="no counter 'lao'"):
        replay(record)


def test_partial_deal_is_filled_from_the_seed_deterministically() -> None:
    record = {
        "format": "majiang-record/1",
        "variant": "guangdong",
        "options": {"first_dealer": 1},
        "seed": 42,
        "hands": [
            {"deal": {"hands": ["123m", "", "", ""]}, "actions": [], "autoplay": "tsumogiri"}
        ],
    }
    first = replay(record)
    assert first == replay(copy.deepcopy(record))
    assert first["hands"][0]["dealer"] == 1
    full = record_json(replay_match(record))["hands"][0]["deal"]
    seat0 = parse_tiles(full["hands"][0])
    assert len(seat0) == 13 and {Tile.M1, Tile.M2, Tile.M3} <= set(seat0)  # named tiles kept
    other = copy.deepcopy(record)
    other["seed"] = 43
    assert record_json(replay_match(other))["hands"][0]["deal"] != full  # the seed shuffles
    assert sum(first["hands"][0]["deltas"]) == 0


def test_actions_must_end_the_hand_without_autoplay() -> None:
    record = gd1()
    record["hands"][0]["actions"] = record["hands"][0]["actions"][:2]
    with pytest.raises(RecordError, match="actions end before the hand does"):
        replay(record)
    record["hands"][0]["autoplay"] = "tsumogiri"
    assert replay(record)["hands"][0]["outcome"] in ("win", "draw")


def test_actions_after_the_end_are_rejected() -> None:
    record = gd1()
    record["hands"][0]["actions"].append({"seat": 3, "type": "discard", "tile": "5m"})
    with pytest.raises(RecordError, match="hand 0, action 3, seat 3: the hand has already ended"):
        replay(record)


@pytest.mark.parametrize("seed", range(12))
def test_engine_games_round_trip_through_records(seed: int) -> None:
    """A multi-hand match written as a record replays to the identical result."""
    match = play_random_match("guangdong", {}, seed, hands=4)
    record = record_json(match)
    text = json.dumps(record)
    assert replay(json.loads(text)) == result_json(match)
    totals = result_json(match)["totals"]
    assert sum(totals) == 0


# -- issue 12, item 11: whatever a record holds, the reader raises RecordError saying where
def _set(record: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return record


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        (("start",), 5, {"field": "start"}),
        (("start",), [0], {"field": "start"}),
        (("options",), [1], {"field": "options"}),
        (("options",), "horses", {"field": "options"}),
        (("start", "counters"), 3, {"field": "start.counters"}),
        (("start", "counters"), ["dealer_run"], {"field": "start.counters"}),
        (("hands", 0, "actions", 0, "type"), ["hu"], {"hand": 0, "action": 0, "field": "type"}),
        (("hands", 0, "actions", 0, "type"), {"a": 1}, {"hand": 0, "action": 0, "field": "type"}),
        (("hands", 0, "actions", 0, "tile"), "1f", {"hand": 0, "action": 0, "field": "tile"}),
        (("hands", 0, "actions", 0, "tile"), 5, {"hand": 0, "action": 0, "field": "tile"}),
        (("hands", 0, "actions", 0), "discard 2z", {"hand": 0, "action": 0}),
        (("hands", 0, "deal", "hands"), "28m", {"hand": 0, "field": "deal.hands"}),
        (("hands", 0, "deal", "hands", 1), 7, {"hand": 0, "field": "deal.hands[1]"}),
        (("hands", 0, "deal", "reserved"), "3p", {"hand": 0, "field": "deal.reserved"}),
        (("hands", 0, "deal", "reserved", "horses"), None, {"hand": 0}),
        (("hands", 0, "deal", "draws"), ["1p"], {"hand": 0, "field": "deal.draws"}),
        (("hands", 0, "deal"), [], {"hand": 0, "field": "deal"}),
        (("hands", 0, "actions"), {"seat": 0}, {"hand": 0, "field": "actions"}),
        (("hands", 0), [1, 2], {"hand": 0}),
        (("hands",), {"0": {}}, {"field": "hands"}),
        (("variant",), ["guangdong"], {"field": "variant"}),
        (("variant",), "riichi", {"field": "variant"}),
    ],
)
def test_wrongly_typed_fields_are_record_errors_naming_where(
    path: tuple[Any, ...], value: Any, where: dict[str, Any]
) -> None:
    record = _set(gd1(), path, value)
    with pytest.raises(RecordError) as info:
        replay(record)
    for key, want in where.items():
        assert getattr(info.value, key) == want, (key, str(info.value))


def test_reserved_tiles_from_an_empty_rest_are_a_record_error() -> None:
    """A full deal naming every tile leaves nothing to set the horses aside from."""
    record = record_json(play_random_match("guangdong", {"first_dealer": 0}, 3))
    deal = record["hands"][0]["deal"]
    deal["draws"] += " " + deal.pop("reserved")["horses"]
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.hand == 0 and info.value.field == "deal"
    assert "horses" in str(info.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deep"),
        ('{"seed": 1' + "0" * 5000 + "}", "digits"),
        ('{"seed": NaN}', "NaN"),
        ('{"seed": Infinity}', "Infinity"),
        ("[1, 2]", "a JSON object"),
        ('"record"', "a JSON object"),
        ("{", "not JSON"),
    ],
)
def test_parse_turns_every_json_failure_into_a_record_error(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse(text)


def test_load_rejects_non_utf8_and_missing_files(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.json"
    bad.write_bytes('{"players": ["Zoë"]}'.encode("latin-1"))
    with pytest.raises(RecordError, match="UTF-8"):
        load(bad)
    with pytest.raises(RecordError, match="cannot read record"):
        load(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="cannot read record"):
        load(tmp_path)


def test_records_above_the_size_limit_are_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_text(" " * (MAX_RECORD_BYTES + 1))
    with pytest.raises(RecordError, match="larger than"):
        load(big)


def test_records_above_the_hand_limit_are_refused() -> None:
    record = gd1()
    record["hands"] = [{"autoplay": "tsumogiri"}] * (MAX_HANDS + 1)
    with pytest.raises(RecordError, match="at most") as info:
        replay(record)
    assert info.value.field == "hands"


# -- issue 12, item 12: what FORMAT.md does not allow is rejected
@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        (("players",), 5, "players"),
        (("players",), None, "players"),
        (("players",), "abc", "players"),
        (("players",), ["Ann", "Bo"], "players"),
        (("players",), [1, 2, 3, 4], "players"),
        (("start", "mood"), "calm", "start.mood"),
        (("start", "dealer"), False, "start.dealer"),
        (("start", "dealer"), 0.0, "start.dealer"),
        (("start", "counters", "dealer_run"), 1.0, "start.counters.dealer_run"),
        (("start", "counters", "dealer_run"), True, "start.counters.dealer_run"),
        (("options", "first_dealer"), 0.0, "options.first_dealer"),
        (("options", "base_score"), 1.0, "options.base_score"),
        (("options", "horses"), 1, "options"),
        (("seed",), 1.0, "seed"),
        (("seed",), True, "seed"),
        (("hands", 0, "dealer"), False, "dealer"),
        (("hands", 0, "dealer"), 0.0, "dealer"),
        (("hands", 0, "autoplay"), "random", "autoplay"),
        (("hands", 0, "autoplay"), None, "autoplay"),
        (("hands", 0, "actions", 0, "note"), "x", "note"),
        (("hands", 0, "actions", 0, "seat"), True, "seat"),
        (("hands", 0, "actions", 0, "seat"), 0.0, "seat"),
        (("hands", 0, "actions", 0, "tiles"), "2z", "tiles"),
        (("hands", 0, "actions", 2, "tile"), "4s", "tile"),
        (("hands", 0, "actions", 0, "tile"), "2z 2z", "tile"),
        (("hands", 0, "actions", 0, "tile"), "2z\t", "tile"),
    ],
)
def test_what_format_md_does_not_allow_is_rejected(
    path: tuple[Any, ...], value: Any, field: str
) -> None:
    record = _set(gd1(), path, value)
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.field == field, str(info.value)


def test_a_discard_without_its_tile_is_rejected() -> None:
    record = gd1()
    del record["hands"][0]["actions"][0]["tile"]
    with pytest.raises(RecordError, match="discard names its 'tile'") as info:
        replay(record)
    assert (info.value.hand, info.value.action, info.value.field) == (0, 0, "tile")


def test_players_are_written_back_as_given() -> None:
    record = gd1()
    assert record_json(replay_match(record))["players"] == ["Ann", "Bo", "Cy", "Di"]


# -- issue 35, E3: a player name is text UTF-8 can write back (FORMAT.md 2, players)
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('"Bo\\ud800"', "lone surrogate (U+D800)"),
        ('"\\udc00"', "lone surrogate (U+DC00)"),
        ('"Bo\\u0007"', "control character"),
        ('"Bo\\n"', "control character"),
        ('"Bo\\u009b"', "control character"),
    ],
)
def test_a_name_that_is_not_text_is_refused(tmp_path: Path, text: str, words: str) -> None:
    """A valid JSON escape that is no character (a lone surrogate), or a control character,
    in ``players``: RecordError naming the player, from load's document and from replay."""
    raw = json.dumps(gd1()).replace('"Bo"', text)
    path = tmp_path / "name.json"
    path.write_text(raw, encoding="utf-8")
    record = load(path)
    for read in (replay, replay_match):
        with pytest.raises(RecordError, match=re.escape(words)) as info:
            read(record)
        assert info.value.field == "players[1]", str(info.value)


def test_names_in_any_script_replay_and_encode() -> None:
    """Text names (Chinese, emoji beyond the BMP, spaces) are kept and written back."""
    record = gd1()
    record["players"] = ["阿明", "Zoë", "🀄 Di", "a b"]
    back = record_json(replay_match(record))
    assert back["players"] == record["players"]
    json.dumps(back, ensure_ascii=False).encode("utf-8")


# -- issue 12, item 14: hainan's last drawable tile (RULES.md 3.2, FORMAT.md 2 `pass`)
def test_hainan_record_may_end_on_the_last_tile_or_pass_it_3_2() -> None:
    auto = {
        "format": "majiang-record/1",
        "variant": "hainan",
        "seed": 5,
        "hands": [{"autoplay": "tsumogiri"}],
    }
    with_pass = record_json(replay_match(auto))
    actions = with_pass["hands"][0]["actions"]
    last = actions[-1]
    assert last["type"] == "pass"
    state = replay_match(with_pass).finished[0].state
    assert state.live == 15 and state.result().outcome == "draw"
    assert last["seat"] == state.current  # a turn-phase pass: the last drawer declines
    ending = copy.deepcopy(with_pass)
    ending["hands"][0]["actions"] = actions[:-1]
    assert replay(ending) == replay(with_pass) == replay(auto)


# -- issue 12, item 13: replay keeps results, not the played hands
def test_replay_lets_played_hands_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory stays flat over many hands: each played hand is freed once reported."""
    played: list[weakref.ref[HandState]] = []
    alive: list[int] = []
    finish = Match.finish

    def spy(self: Match, state: HandState) -> Any:
        gc.collect()
        alive.append(sum(ref() is not None for ref in played))
        played.append(weakref.ref(state))
        return finish(self, state)

    monkeypatch.setattr(Match, "finish", spy)
    record = gd1()
    record["hands"] += [{"autoplay": "tsumogiri"}] * 3
    result = replay(record)
    assert alive == [0, 0, 0, 0]
    assert alive and result == result_json(replay_match(record))


def test_odd_field_names_are_quoted_on_one_line() -> None:
    """Found by tests/test_fuzz.py: a key with a newline broke the one-line message."""
    record = gd1()
    record["\n"] = None
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.field == repr("\n") and "\n" not in str(info.value)
    record = gd1()
    record["options"]["a b"] = 1.5
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.field == "options.'a b'"
