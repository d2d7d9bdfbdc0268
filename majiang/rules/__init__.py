"""Variant registry keyed by the FORMAT.md ids; ``register`` adds a variant at run time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from majiang.errors import OptionError
from majiang.rules.base import RESTRICTION_LIMITS, Option, Rules, Variant
from majiang.rules.guangdong import GUANGDONG
from majiang.rules.hainan import HAINAN
from majiang.rules.hangzhou import HANGZHOU
from majiang.rules.hongzhong import HONGZHONG
from majiang.rules.taizhou import TAIZHOU
from majiang.values import Event

__all__ = [
    "VARIANTS",
    "Option",
    "Variant",
    "get_variant",
    "register",
    "registered",
    "unregister",
    "validate_variant",
]

VARIANTS: dict[str, Variant] = {v.id: v for v in (GUANGDONG, HANGZHOU, HAINAN, HONGZHONG, TAIZHOU)}
"""Every variant of RULES.md, keyed by its FORMAT.md id (and any added by ``register``)."""

BUILT_IN: frozenset[str] = frozenset(VARIANTS)
"""The variants shipped with majiang; ``unregister`` leaves them alone."""

PLANNED: tuple[str, ...] = ()

HOOKS: tuple[str, ...] = tuple(
    n for n, v in vars(Rules).items() if callable(v) and not n.startswith("_")
)
"""The hook names of the ``Rules`` protocol, each of which a variant's rules must have."""

_ID = re.compile(r"[a-z][a-z0-9_]*\Z")
_CLAIMS = frozenset({"hu", "kong", "peng", "chi"})
_SHAPES = frozenset(
    {
        "seven_pairs",
        "thirteen_orphans",
        "quads_as_two_pairs",
        "wild_numbers_only",
        "wild_pairs_natural",
    }
)


def get_variant(variant_id: str) -> Variant:
    """The variant with this id, or OptionError listing those available."""
    try:
        return VARIANTS[variant_id]
    except KeyError:
        if variant_id in PLANNED:
            raise OptionError(f"variant {variant_id!r} is not implemented yet") from None
        raise OptionError(f"unknown variant {variant_id!r}; known: {', '.join(VARIANTS)}") from None


def register(variant: Variant) -> Variant:
    """Add ``variant`` to the registry, so matches, records and front ends find it by id;
    OptionError (naming what is wrong) for a duplicate id or a declaration that cannot work."""
    if variant.id in VARIANTS:
        raise OptionError(f"a variant with id {variant.id!r} is already registered")
    validate_variant(variant)
    VARIANTS[variant.id] = variant
    return variant


def unregister(variant_id: str) -> Variant:
    """Remove a variant added by ``register`` (tests); the built-in five stay."""
    if variant_id in BUILT_IN:
        raise OptionError(f"variant {variant_id!r} is built in and cannot be unregistered")
    if variant_id not in VARIANTS:
        raise OptionError(f"no variant {variant_id!r} is registered")
    return VARIANTS.pop(variant_id)


@contextmanager
def registered(variant: Variant) -> Iterator[Variant]:
    """``register`` for the length of a ``with`` block, then ``unregister`` (tests)."""
    register(variant)
    try:
        yield variant
    finally:
        if VARIANTS.get(variant.id) is variant:
            unregister(variant.id)


def _named(what: str, pair: object) -> None:
    """A (Chinese, English) name: two non-empty strings."""
    if not (
        isinstance(pair, tuple)
        and len(pair) == 2
        and all(isinstance(s, str) and s.strip() for s in pair)
    ):
        raise OptionError(f"{what} needs a (Chinese, English) name, got {pair!r}")


def _check_option(vid: str, opt: Option) -> None:
    """An option's declaration: a known kind, names, choices, a valid default."""
    where = f"variant {vid!r}: option {opt.name!r}"
    if not _ID.match(opt.name):
        raise OptionError(f"{where}: a name is lowercase letters, digits and _")
    if opt.kind not in ("bool", "int", "choice"):
        raise OptionError(f"{where}: kind must be bool, int or choice, got {opt.kind!r}")
    if not (opt.zh.strip() and opt.en.strip() and opt.doc.strip()):
        raise OptionError(
            f"{where}: needs a Chinese name (zh), an English name (en) and a doc line"
        )
    if opt.kind == "choice" and len(set(opt.choices)) < 2:
        raise OptionError(f"{where}: a choice needs at least two distinct choices")
    if opt.kind != "choice" and opt.choices:
        raise OptionError(f"{where}: only a choice lists choices")
    try:
        opt.validate(opt.default)
    except OptionError as err:
        raise OptionError(f"{where}: the default is not allowed ({err})") from None
    # options the engine itself reads (RULES.md 0.8, 0.9)
    if opt.name == "first_dealer" and not (
        opt.kind == "choice" and set(opt.choices) <= {"random", 0, 1, 2, 3}
    ):
        raise OptionError(f"{where}: takes 'random' or seats 0-3")
    if opt.name == "escape_penalty" and not (
        opt.kind == "int" and opt.minimum is not None and opt.minimum >= 0
    ):
        raise OptionError(f"{where}: is an int with minimum >= 0")
    # what a player reads (the browser game, issue 34): a Chinese hint, every choice named
    if not opt.doc_zh.strip():
        raise OptionError(f"{where}: needs doc_zh, its doc line in Chinese")
    if opt.kind == "choice":
        if len(opt.choice_names) != len(opt.choices):
            raise OptionError(
                f"{where}: choice_names needs a (Chinese, English) name for each of its"
                f" {len(opt.choices)} choices, got {len(opt.choice_names)}"
            )
        for value, pair in zip(opt.choices, opt.choice_names, strict=True):
            _named(f"{where}: choice {value!r}", pair)
    elif opt.choice_names:
        raise OptionError(f"{where}: only a choice names choices")


def validate_variant(variant: Variant) -> None:
    """Check a declaration before play: OptionError naming the first thing that is wrong
    (an id, a hook, an option and its default, a tile set, a name, a claim, a restriction)."""
    vid = variant.id
    if not isinstance(vid, str) or not _ID.match(vid):
        raise OptionError(f"a variant id is lowercase letters, digits and _, got {vid!r}")
    where = f"variant {vid!r}"
    _named(f"{where} (zh, name)", (variant.zh, variant.name))
    _named(f"{where} summary", variant.summary)
    missing = [h for h in HOOKS if not callable(getattr(variant.rules, h, None))]
    if missing:
        raise OptionError(f"{where}: rules lack the hooks {', '.join(missing)}")
    followed = getattr(variant.rules, "followed_events", None)
    if not isinstance(followed, frozenset) or not all(isinstance(e, Event) for e in followed):
        raise OptionError(
            f"{where}: rules.followed_events must be a frozenset of Event, got {followed!r}"
        )
    names = [o.name for o in variant.options]
    if len(set(names)) != len(names):
        raise OptionError(f"{where}: an option is declared twice: {names}")
    for opt in variant.options:
        _check_option(vid, opt)
    tiles = variant.tiles_for(variant.resolve_options({}))
    if len(tiles) != 42 or any(not isinstance(n, int) or not 0 <= n <= 4 for n in tiles):
        raise OptionError(f"{where}: a tile set is 42 counts of 0-4, got {tiles!r}")
    if sum(tiles) < 14 + 3 * 13 + 1:
        raise OptionError(f"{where}: {sum(tiles)} tiles are too few to deal four hands")
    if not variant.claims <= _CLAIMS:
        raise OptionError(f"{where}: claims are among hu, kong, peng, chi: {set(variant.claims)}")
    if not variant.wild_discard_claims <= variant.claims:
        raise OptionError(f"{where}: wild_discard_claims must be among its claims")
    if not variant.missed_rules <= {"win", "peng"}:
        raise OptionError(f"{where}: missed_rules are among win, peng")
    if not set(variant.shapes) <= _SHAPES:
        raise OptionError(f"{where}: unknown shape flags {set(variant.shapes) - _SHAPES}")
    if not variant.patterns:
        raise OptionError(f"{where}: declares no patterns")
    for table, label in ((variant.patterns, "pattern"), (variant.names, "name")):
        for ident, pair in table.items():
            _named(f"{where}: {label} {ident!r}", pair)
    _check_counters(variant)
    if set(variant.pattern_values_zh) != set(variant.pattern_values):
        raise OptionError(
            f"{where}: pattern_values_zh must give the same patterns as pattern_values"
        )
    if len(variant.readings_zh) != len(variant.readings) or not all(
        r.strip() for r in variant.readings_zh
    ):
        raise OptionError(f"{where}: readings_zh must give each of the readings in Chinese")
    ids = [r.id for r in variant.restrictions]
    if len(set(ids)) != len(ids):
        raise OptionError(f"{where}: a restriction is declared twice: {ids}")
    for r in variant.restrictions:
        _named(f"{where}: restriction {r.id!r}", (r.zh, r.en))
        if not r.rule.strip():
            raise OptionError(f"{where}: restriction {r.id!r} says no rule")
        odd = [x for x in r.limits if x not in RESTRICTION_LIMITS]
        if odd or len(set(r.limits)) != len(r.limits):
            raise OptionError(
                f"{where}: restriction {r.id!r} limits {list(r.limits)}: each once, among"
                f" {', '.join(RESTRICTION_LIMITS)}"
            )
        if not r.rule_zh.strip():
            raise OptionError(f"{where}: restriction {r.id!r} needs rule_zh, its rule in Chinese")
        if r.now and (not r.now_zh.strip() or r.now.count("{}") != r.now_zh.count("{}")):
            raise OptionError(
                f"{where}: restriction {r.id!r} needs now_zh, its 'now' in Chinese with the"
                " same {} places"
            )
    # ids BaseRules.restrictions_now reports from the declarations (RULES.md D8)
    needed = {f"missed_{m}" for m in variant.missed_rules}
    if variant.claim_end_live >= 0:
        needed.add("last_turn")
    if variant.final_live is not None:
        needed.add("last_tile")
    if not needed <= set(ids):
        raise OptionError(
            f"{where}: declare the restrictions {', '.join(sorted(needed - set(ids)))}"
            " (BaseRules.restrictions_now reports them under these declarations)"
        )
    purposes = [r.id for r in variant.reserved]
    if len(set(purposes)) != len(purposes):
        raise OptionError(f"{where}: a reserved purpose is declared twice: {purposes}")


def _check_counters(variant: Variant) -> None:
    """Every counter named, in range, and every range a counter's."""
    where = f"variant {variant.id!r}"
    for name, value in variant.counters.items():
        try:
            variant.term(name)
        except OptionError:
            raise OptionError(f"{where}: counter {name!r} has no name in names") from None
        low, high = variant.counter_ranges.get(name, (0, None))
        if value < low or (high is not None and value > high):
            raise OptionError(f"{where}: counter {name!r} starts at {value}, outside its range")
    extra = set(variant.counter_ranges) - set(variant.counters)
    if extra:
        raise OptionError(f"{where}: ranges for undeclared counters {', '.join(sorted(extra))}")
