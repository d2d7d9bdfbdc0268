"""Every word a variant declares for a player exists in Chinese and in English, each in its
own language (issue 34 item 2): option choices named (首局庄家 by seat, never 0-3), option
hints, restriction rules, readings, pattern values and payment notes. The browser game
shows the Chinese on the Chinese page and the English on the English one, so an English
text must hold no Chinese character and a Chinese one no Latin letter."""

from __future__ import annotations

import ast
import json
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from example_variant import EXAMPLE

from majiang.bots import GreedyBot
from majiang.engine.match import Match
from majiang.errors import OptionError
from majiang.records import replay_match
from majiang.rules import VARIANTS, Variant, validate_variant
from majiang.rules.base import COMMON_NAMES
from majiang.scoring import fill_note

ROOT = Path(__file__).resolve().parent.parent
DECLARED: list[Variant] = [*VARIANTS.values(), EXAMPLE]

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
LATIN = re.compile(r"[A-Za-z]")
MARK = re.compile(r"\{(S[0-3]|[1-9][mpszf])\}")


def texts(v: Variant) -> list[tuple[str, str, str]]:
    """(what, Chinese, English) of every text the variant declares for a player."""
    out = [("name", v.zh, v.name), ("summary", *v.summary)]
    for k, (zh, en) in {**COMMON_NAMES, **v.names, **v.patterns}.items():
        out.append((f"term {k}", zh, en))
    for p, en in v.pattern_values.items():
        out.append((f"value of {p}", v.pattern_values_zh.get(p, ""), en))
    for i, en in enumerate(v.readings):
        out.append((f"reading {i}", v.readings_zh[i] if i < len(v.readings_zh) else "", en))
    for r in v.restrictions:
        out += [(f"restriction {r.id}", r.zh, r.en), (f"rule of {r.id}", r.rule_zh, r.rule)]
        if r.now:
            out.append((f"now of {r.id}", r.now_zh, r.now))
    out += [(f"reserved {r.id}", r.zh, r.en) for r in v.reserved]
    for o in v.options:
        out += [(f"option {o.name}", o.zh, o.en), (f"hint of {o.name}", o.doc_zh, o.doc)]
        for c, (zh, en) in zip(o.choices, o.choice_names, strict=False):
            out.append((f"choice {o.name}={c!r}", zh, en))
    return out


@pytest.mark.parametrize("variant", DECLARED, ids=lambda v: v.id)
def test_every_choice_is_named_and_every_option_has_a_chinese_hint(variant: Variant) -> None:
    for o in variant.options:
        assert o.doc_zh.strip(), f"{variant.id}: option {o.name} has no Chinese hint"
        if o.kind == "choice":
            assert len(o.choice_names) == len(o.choices), f"{variant.id}: {o.name}"
            for c, (zh, en) in zip(o.choices, o.choice_names, strict=True):
                assert zh.strip() and en.strip(), f"{variant.id}: {o.name}={c!r}"
                # a player reads a name, not the value: no id in Chinese, no bare number
                assert zh != str(c), f"{variant.id}: {o.name}={c!r}"
                assert not isinstance(c, int) or en != str(c), f"{variant.id}: {o.name}={c!r}"
    # readings and pattern values one for one
    assert len(variant.readings_zh) == len(variant.readings)
    assert set(variant.pattern_values_zh) == set(variant.pattern_values)


@pytest.mark.parametrize("variant", DECLARED, ids=lambda v: v.id)
def test_each_text_is_in_its_own_language(variant: Variant) -> None:
    bad = []
    for what, zh, en in texts(variant):
        if not zh.strip() or not en.strip():
            bad.append(f"{what}: missing ({zh!r}, {en!r})")
        if LATIN.search(MARK.sub("", zh)):
            bad.append(f"{what}: Latin letters in the Chinese {zh!r}")
        if CJK.search(en):
            bad.append(f"{what}: Chinese in the English {en!r}")
    assert not bad, "\n".join(bad)


def test_first_dealer_is_offered_by_seat_not_by_number() -> None:
    for v in DECLARED:
        o = v.option("first_dealer")
        names = dict(zip(o.choices, o.choice_names, strict=True))
        assert names["random"] == ("随机", "random")
        assert "房主" in names[0][0] and "owner" in names[0][1]
        for seat in (1, 2, 3):
            assert f"{seat}号位" in names[seat][0] and f"seat {seat}" in names[seat][1]


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"doc_zh": ""}, "needs doc_zh"),
        ({"choice_names": ()}, "choice_names needs a .* for each of its 5 choices"),
        ({"choice_names": (("随机", "random"),) * 4 + (("", "seat 3"),)}, "choice 3 needs"),
    ],
)
def test_a_variant_without_the_words_is_refused(change: dict[str, object], error: str) -> None:
    first = EXAMPLE.option("first_dealer")
    options = tuple(replace(o, **change) if o is first else o for o in EXAMPLE.options)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=error):
        validate_variant(replace(EXAMPLE, options=options))


def test_a_reading_or_rule_without_chinese_is_refused() -> None:
    with pytest.raises(OptionError, match="readings_zh"):
        validate_variant(replace(EXAMPLE, readings_zh=()))
    r = replace(EXAMPLE.restrictions[0], rule_zh="")
    with pytest.raises(OptionError, match="needs rule_zh"):
        validate_variant(replace(EXAMPLE, restrictions=(r, *EXAMPLE.restrictions[1:])))


def _item_calls(path: Path) -> list[tuple[int, int, set[str]]]:
    """(line, positional count, keywords) of every ``Item(...)`` call in a module."""
    tree = ast.parse(path.read_text())
    return [
        (n.lineno, len(n.args), {k.arg or "" for k in n.keywords})
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "Item"
    ]


@pytest.mark.parametrize(
    "module",
    [*(f"majiang/rules/{v}.py" for v in VARIANTS), "tests/example_variant.py"],
)
def test_every_payment_a_variant_writes_has_both_notes(module: str) -> None:
    # each Item the scoring builds gives note_zh and note_en (positions 7 and 8)
    calls = _item_calls(ROOT / module)
    assert calls
    for line, args, keywords in calls:
        assert args >= 8 or {"note_zh", "note_en"} <= keywords, f"{module}:{line}"


ROOMS: dict[str, list[dict[str, object]]] = {
    "guangdong": [{}, {"kong_pay_on_draw": True}],
    "hangzhou": [{"start_lao": 3, "discard_pay": "all"}, {"wild_mode": "flipped"}],
    "hainan": [{}, {"kong_pay_on_draw": True}],
    "hongzhong": [{}, {"rob_kong_pays_all": True, "birds": 6}],
    "taizhou": [{}, {"settlement": "winner_only", "settle_mode": "dealer_double"}],
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_payment_notes_of_played_hands_are_in_each_language(variant: str) -> None:
    """Games of greedy bots: every note comes in both languages, seats only as marks."""
    rng = random.Random(34)
    seen = 0
    for r, options in enumerate(ROOMS[variant]):
        for game in range(6):
            match = Match(variant, dict(options), seed=100 * r + game)
            for _ in range(2):
                if match.over:
                    break
                state = match.new_hand()
                bots = [GreedyBot(rng) for _ in range(4)]
                while not state.is_terminal():
                    seat = state.to_act()[0]
                    state.apply(bots[seat].act(state.observation(seat), state.legal_actions(seat)))
                for it in state.result().items:
                    if not it.note:
                        continue
                    seen += 1
                    assert it.note_zh and it.note_en, (variant, it)
                    zh = fill_note(it.note_zh, lambda s: "甲", lambda t: "牌")
                    en = fill_note(it.note_en, lambda s: "Ann", lambda t: "East")
                    assert not LATIN.search(zh), (variant, it.note_zh)
                    assert not CJK.search(en), (variant, it.note_en)
                    assert not re.search(r"\bS\d", en), (variant, it.note_en)
                match.finish(state)
    assert seen


def test_a_value_reads_as_its_name() -> None:
    """What the TUI's room form and ``majiang rules`` show for a value."""
    first = VARIANTS["guangdong"].option("first_dealer")
    assert first.choice_name(2) == ("房主对家（2号位）", "seat 2, opposite the owner")
    assert first.choice_name("random") == ("随机", "random")
    assert VARIANTS["guangdong"].option("horses").choice_name(False) == ("否", "no")
    assert VARIANTS["guangdong"].option("base_score").choice_name(3) == ("3", "3")
    assert VARIANTS["taizhou"].option("settle_mode").choice_name("flat") == ("平搓", "flat")


GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_payment_notes_of_the_worked_hands_are_in_each_language(path: Path) -> None:
    """The golden hands reach the rare payments (horses, 承包, 包牌, 包三家, birds): each
    note comes in both languages, seats and tiles only as marks the page names."""
    match = replay_match(json.loads(path.read_text())["record"])
    notes = [it for done in match.finished for it in done.state.result().items if it.note]
    for it in notes:
        assert it.note_zh and it.note_en, (path.stem, it)
        for text in (it.note_zh, it.note_en):
            assert not re.search(r"(?<!\{)\bS\d", text), (path.stem, text)
        zh = fill_note(it.note_zh, lambda s: "甲乙丙丁"[s], lambda t: "牌")
        assert not LATIN.search(zh), (path.stem, it.note_zh)
        en = fill_note(it.note_en, lambda s: "Ann", lambda t: "East")
        assert not CJK.search(en), (path.stem, it.note_en)
