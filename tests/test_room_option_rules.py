"""Room options of every variant, as RULES.md tables them (0.8, 0.9, 1.7, 2.7, 3.7, 4.7, 5.7).

The tables below are copied from RULES.md, not read from the declarations, so a
declaration that drifts from the rules (a minimum lowered, a choice changed) fails
here. Every allowed value is accepted as given; every value outside the table (below
the minimum, another type, a bool for an int, a value outside the choices, a float or
string that looks like a choice) is refused with OptionError naming the option.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from majiang.engine.match import Match
from majiang.errors import OptionError
from majiang.rules import VARIANTS
from majiang.testing import play_random_match

SEATS = ("random", 0, 1, 2, 3)
"""first_dealer (RULES.md 0.8): random, or a seat 0-3."""

# (variant, option) -> (kind, minimum for int / choices for choice / None for bool, default)
RULES_TABLES: dict[str, dict[str, tuple[str, Any, Any]]] = {
    "guangdong": {  # RULES.md 1.7
        "base_score": ("int", 1, 1),
        "horses": ("bool", None, True),
        "hunyise_big": ("bool", None, True),
        "kong_pay_on_draw": ("bool", None, False),
        "escape_penalty": ("int", 0, 8),
        "first_dealer": ("choice", SEATS, "random"),
    },
    "hangzhou": {  # RULES.md 2.7
        "wild_mode": ("choice", ("fixed", "flipped"), "fixed"),
        "base_score": ("choice", (1, 2, 3, 5), 1),
        "chengbao": ("bool", None, True),
        "wild_in_melds": ("bool", None, True),
        "wild_luxury_quad": ("bool", None, False),
        "discard_pay": ("choice", ("discarder", "all"), "discarder"),
        "start_lao": ("choice", (1, 2, 3), 1),
        "escape_penalty": ("int", 0, 0),
        "first_dealer": ("choice", SEATS, "random"),
    },
    "hainan": {  # RULES.md 3.7
        "base_unit": ("int", 1, 1),
        "baopai": ("bool", None, True),
        "dealer_streak_bonus": ("bool", None, True),
        "kong_pay_on_draw": ("bool", None, False),
        "dealer_after_xian_win": ("choice", ("winner_next", "dealer_next"), "winner_next"),
        "escape_penalty": ("int", 0, 0),
        "first_dealer": ("choice", SEATS, "random"),
    },
    "hongzhong": {  # RULES.md 4.7
        "no_wild": ("bool", None, False),
        "birds": ("choice", (2, 4, 6), 2),
        "bird_value": ("choice", (1, 2), 1),
        "golden_bird": ("bool", None, True),
        "hongzhong_zimo": ("bool", None, False),
        "no_hongzhong_rob": ("bool", None, False),
        "zhuang_xian": ("bool", None, True),
        "rob_kong_pays_all": ("bool", None, False),
        "base_score": ("int", 1, 1),
        "draw_dealer": ("choice", ("last_drawer", "same"), "last_drawer"),
        "escape_penalty": ("int", 0, 0),
        "first_dealer": ("choice", SEATS, 0),
    },
    "taizhou": {  # RULES.md 5.7
        "wild_mode": ("choice", ("flipped", "fixed_white"), "flipped"),
        "settle_mode": ("choice", ("xian_half", "dealer_double", "flat"), "xian_half"),
        "settlement": ("choice", ("mutual", "winner_only"), "mutual"),
        "baopai": ("bool", None, True),
        "sheng_phase": ("bool", None, True),
        "point_cap": ("int", 0, 0),
        "lianzhuang": ("bool", None, True),
        "escape_penalty": ("int", 0, 0),
        "first_dealer": ("choice", SEATS, "random"),
    },
}

CASES = [(v, name) for v in sorted(RULES_TABLES) for name in RULES_TABLES[v]]
IDS = [f"{v}-{name}" for v, name in CASES]


def allowed(kind: str, spec: Any) -> list[Any]:
    """Values RULES.md allows (for an integer: the minimum and a few above it)."""
    if kind == "bool":
        return [False, True]
    if kind == "int":
        return [spec, spec + 1, spec + 7, spec + 100]
    return list(spec)


def refused(kind: str, spec: Any) -> Iterator[Any]:
    """Values RULES.md does not allow: out of range, of another type, look-alikes."""
    yield None
    yield [1]
    if kind == "bool":
        yield from (0, 1, "true", "false", "yes", 1.0)
        return
    yield from (True, False)
    if kind == "int":
        yield from (spec - 1, spec - 5, float(spec), float(spec + 1), str(spec), str(spec + 1))
        return
    numbers = [c for c in spec if isinstance(c, int)]
    for c in spec:
        if isinstance(c, int):
            yield from (float(c), str(c))
        else:
            yield from (c.upper(), c + "x", " " + c)
    if numbers:
        low, high = min(numbers), max(numbers)
        yield from (low - 1, high + 1)
        yield from (n for n in range(low, high) if n not in spec)  # the gaps, e.g. 4 in 1/2/3/5
    else:
        yield from (0, 1)


def test_every_variant_has_exactly_the_options_of_its_rules_table() -> None:
    assert set(VARIANTS) == set(RULES_TABLES)
    for vid, table in RULES_TABLES.items():
        declared = {o.name: o for o in VARIANTS[vid].options}
        assert set(declared) == set(table), vid
        for name, (kind, spec, default) in table.items():
            opt = declared[name]
            assert (opt.kind, opt.default) == (kind, default), f"{vid}.{name}"
            if kind == "int":
                assert opt.minimum == spec, f"{vid}.{name}: minimum"
            if kind == "choice":
                assert opt.choices == spec, f"{vid}.{name}: choices"
        # the defaults a new match plays with
        assert Match(vid, {}, 1).options == {n: d for n, (_, _, d) in table.items()}, vid


@pytest.mark.parametrize(("vid", "name"), CASES, ids=IDS)
def test_room_option_accepts_every_value_of_its_rules_table(vid: str, name: str) -> None:
    kind, spec, _ = RULES_TABLES[vid][name]
    for value in allowed(kind, spec):
        got = VARIANTS[vid].resolve_options({name: value})[name]
        assert got == value and type(got) is type(value), (name, value)


@pytest.mark.parametrize(("vid", "name"), CASES, ids=IDS)
def test_room_option_refuses_values_outside_its_rules_table(vid: str, name: str) -> None:
    kind, spec, _ = RULES_TABLES[vid][name]
    for value in refused(kind, spec):
        given = {name: value}
        with pytest.raises(OptionError, match=name):
            VARIANTS[vid].resolve_options(given)
        with pytest.raises(OptionError, match=name):
            Match(vid, given, 1)
        assert given == {name: value}  # the caller's options are left as they were


@pytest.mark.parametrize("vid", sorted(RULES_TABLES))
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_first_dealer_seat_deals_the_first_hand_0_8(vid: str, seat: int) -> None:
    # RULES.md 0.8: first_dealer = a seat 0-3 makes that seat the first dealer; the hand
    # is played out from there (a random match of one hand keeps the dealer).
    for seed in range(3):
        match = Match(vid, {"first_dealer": seat}, seed)
        assert match.dealer == seat
        assert match.new_hand().dealer == seat
    played = play_random_match(vid, {"first_dealer": seat}, seed=seat)
    assert played.finished[0].state.dealer == seat


@pytest.mark.parametrize("vid", sorted(RULES_TABLES))
def test_first_dealer_random_drawn_with_the_match_seed_D7(vid: str) -> None:
    # RULES.md 0.8 / D7: random (drawn with the match seed, reproducibly); the default
    # everywhere but hongzhong, whose room owner, seat 0, deals first.
    dealers = [Match(vid, {"first_dealer": "random"}, seed).dealer for seed in range(40)]
    assert set(dealers) == {0, 1, 2, 3}
    assert dealers == [Match(vid, {"first_dealer": "random"}, s).dealer for s in range(40)]
    default = [Match(vid, {}, seed).dealer for seed in range(40)]
    assert default == ([0] * 40 if vid == "hongzhong" else dealers)


def _takes(kind: str, spec: Any, value: Any) -> str:
    """What the refusal of ``value`` must say the option takes."""
    if kind == "bool":
        return "takes true or false"
    if kind == "int":
        low = isinstance(value, int) and not isinstance(value, bool) and value < spec
        return f"takes an integer >= {spec}" if low else "takes an integer"
    return "takes one of " + ", ".join(map(str, spec))


@pytest.mark.parametrize(("vid", "name"), CASES, ids=IDS)
def test_room_option_refusal_says_what_it_takes_and_quotes_the_value(vid: str, name: str) -> None:
    # Bad input gets an error naming what was wrong (the project's standard): the option,
    # what it takes, and the value given.
    kind, spec, _ = RULES_TABLES[vid][name]
    for value in refused(kind, spec):
        with pytest.raises(OptionError) as err:
            VARIANTS[vid].resolve_options({name: value})
        msg = str(err.value)
        assert repr(name) in msg and _takes(kind, spec, value) in msg, msg
        assert msg.endswith(f"got {value!r}"), msg


@pytest.mark.parametrize(("vid", "name"), CASES, ids=IDS)
def test_room_option_describes_its_values_for_help(vid: str, name: str) -> None:
    kind, spec, _ = RULES_TABLES[vid][name]
    if kind == "bool":
        want = "true / false"
    elif kind == "int":
        want = f"integer >= {spec}"
    else:
        want = " / ".join(map(str, spec))
    assert VARIANTS[vid].option(name).describe() == want


def test_unknown_option_and_variant_are_named() -> None:
    with pytest.raises(OptionError, match=r"variant 'hainan' has no option 'horses'; options: "):
        VARIANTS["hainan"].resolve_options({"horses": True})
    with pytest.raises(OptionError, match=r"variant 'hainan' has no option 'horses'"):
        VARIANTS["hainan"].option("horses")
    with pytest.raises(OptionError, match=r"unknown variant 'sichuan'; known: guangdong, "):
        Match("sichuan")
