"""majiang-record/1 reading, validation, writing and replay (FORMAT.md 2 and 3)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from majiang.errors import RecordError
from majiang.records import record_json, replay, replay_match, result_json
from majiang.testing import play_random_match
from majiang.tiles import Tile, parse_tiles

GOLDEN = Path(__file__).parent / "golden"


def gd1() -> dict[str, Any]:
    record: dict[str, Any] = json.loads((GOLDEN / "GD-1.json").read_text())["record"]
    return record


@pytest.mark.parametrize(
    ("where", "field", "message"),
    [
        ((), "colour", "unknown record fields: colour"),
        (("hands", 0), "notes", "hand 0: unknown fields: notes"),
        (("hands", 0, "deal"), "wall", "hand 0: unknown fields: deal.wall"),
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
