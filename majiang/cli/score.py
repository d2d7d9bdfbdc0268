"""``majiang score``: the hand calculator — patterns, value and every payment of a win."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from majiang.cli.simulate import parse_option
from majiang.engine.match import Match
from majiang.errors import MajiangError
from majiang.hand import is_winning
from majiang.rules import VARIANTS
from majiang.rules.base import Variant, score_position
from majiang.rules.view import Position
from majiang.scoring import deltas
from majiang.tiles import Tile, format_tiles, parse_tile, parse_tiles
from majiang.values import Meld, MeldKind, Phase, Score, WinInfo, WinType

__all__ = ["Calculation", "add_parser", "explain", "main", "parse_melds", "score"]

_MELD = re.compile(
    r"^\s*(?:S(?P<owner>[0-3])\s*:\s*)?(?P<kind>chi|peng|kong|addkong|ckong)\s+"
    r"(?P<tiles>[0-9mpsz]+)\s*(?:<\s*S?(?P<src>[0-3]))?\s*$"
)
_KINDS = {
    "chi": "chi",
    "peng": "peng",
    "kong": "kong_direct",
    "addkong": "kong_added",
    "ckong": "kong_concealed",
}
WIN_TYPES = {
    "self": "self_draw",
    "discard": "discard",
    "rob": "rob_kong",
    "kong": "kong_replacement",
}


@dataclass(frozen=True, slots=True)
class Calculation:
    """A scored win: the variant, the position built from the description, the win and its
    ``Score`` (patterns, value, every payment), exactly as play would settle it."""

    variant: Variant
    position: Position
    win: WinInfo
    score: Score


def parse_melds(text: str, winner: int) -> list[tuple[int, Meld]]:
    """``peng 222p<S0; S1: ckong 7777z`` (RULES.md 0.1 notation) into (owner, meld)."""
    out: list[tuple[int, Meld]] = []
    for part in filter(None, (p.strip() for p in re.split(r"[;,]", text or ""))):
        m = _MELD.match(part)
        if not m:
            raise MajiangError(
                f"cannot read meld {part!r}; write e.g. 'peng 222p<S0', 'chi 789s<S1', "
                "'kong 1111z<S2', 'addkong 5555m<S3', 'ckong 7777z', optionally 'S1: ...'"
            )
        kind = _KINDS[m["kind"]]
        tiles = tuple(int(t) for t in parse_tiles(m["tiles"]))
        owner = int(m["owner"]) if m["owner"] is not None else winner
        src = int(m["src"]) if m["src"] is not None else None
        want = 3 if kind in ("chi", "peng") else 4
        same = len(set(tiles)) == 1
        seq = (
            kind == "chi"
            and tiles[0] < 27
            and tiles[0] % 9 <= 6  # a sequence stays in one suit (RULES.md 0.6)
            and list(tiles) == list(range(tiles[0], tiles[0] + 3))
        )
        if len(tiles) != want or (kind != "chi" and not same) or (kind == "chi" and not seq):
            raise MajiangError(f"{part!r} is not a {m['kind']}")
        if kind != "kong_concealed" and (src is None or src == owner):
            raise MajiangError(f"{part!r} needs the seat it was claimed from, e.g. '<S2'")
        out.append((owner, Meld(MeldKind(kind), tiles, src if kind != "kong_concealed" else None)))
    return out


def score(
    variant: str,
    hand: str,
    win: str,
    by: str,
    *,
    seat: int = 0,
    dealer: int = 0,
    source: int | None = None,
    melds: str = "",
    options: dict[str, Any] | None = None,
    counters: dict[str, int] | None = None,
    reserved: dict[str, str] | None = None,
    flowers: str = "",
    chain: str = "",
    others: str = "",
) -> Calculation:
    """Score one win; the hand is the concealed tiles, with the winning tile for self-draws.

    ``others`` gives other seats' concealed tiles (``S1: 777z 99s; S3: 8888m``); seats not
    named hold none. Only taizhou reads them (non-winners' natural concealed triplets, D66).
    """
    if by not in WIN_TYPES:
        raise MajiangError(f"--by takes one of {', '.join(WIN_TYPES)}, got {by!r}")
    win_type = WIN_TYPES[by]
    tile = int(parse_tile(win))
    concealed = [int(t) for t in parse_tiles(hand)]
    if tile >= 34 or any(t >= 34 for t in concealed):
        # RULES.md 3.1: a flower is exposed and replaced at once, never part of a hand
        raise MajiangError(
            f"a flower is never a winning tile or part of a hand (--win {win!r}, "
            f"--hand {hand!r}); exposed flowers go in --flowers"
        )
    self_draw = win_type in (WinType.SELF_DRAW, WinType.KONG_REPLACEMENT)
    if self_draw and tile not in concealed:
        raise MajiangError(f"for a self-draw --hand includes the winning tile {Tile(tile)}")
    if not self_draw:
        source = (seat - 1) % 4 if source is None else source
        if source == seat:
            raise MajiangError("the discarder (or konger) must be another seat")
    match = Match(variant, options or {}, 0, {"dealer": dealer, "counters": counters or {}})
    placed = parse_melds(melds, seat)
    # a calculator deal: only the reserved tiles are given; the winner's tiles and the
    # declared melds are set on the state afterwards
    try:
        state = match.new_hand({"hands": ["", "", "", ""], "reserved": dict(reserved or {})})
    except MajiangError as err:
        raise MajiangError(f"cannot build that hand: {err}") from None
    hidden = _others(others, seat)
    v = state.variant
    concealed_rows = [[0] * 34 for _ in range(4)]
    for s in range(4):
        for t in concealed if s == seat else hidden.get(s, []):
            concealed_rows[s][t] += 1
    meld_rows: list[list[Meld]] = [[] for _ in range(4)]
    kongs: list[tuple[Meld, int]] = []
    claims_count = [[0] * 4 for _ in range(4)]
    for owner, meld in placed:
        meld_rows[owner].append(meld)
        if meld.is_kong:
            kongs.append((meld, owner))
        if meld.source is not None:
            claims_count[owner][meld.source] += 1  # 摊 / 包牌 count claims
    flower_rows: list[tuple[int, ...]] = [(), (), (), ()]
    flower_rows[seat] = tuple(_flowers(v, flowers))
    log_rows: list[tuple[str, ...]] = [(), (), (), ()]
    log_rows[seat] = (*_chain(v, state.wild, meld_rows[seat], chain, win_type), "D")
    window = win_type in (WinType.DISCARD, WinType.ROB_KONG)
    position = Position(
        options=dict(state.options),
        dealer=state.dealer,
        counters=dict(state.counters),
        wild=state.wild,
        shapes=dict(state.shapes),
        deal=state.deal,
        reserved=dict(state.reserved),
        concealed=tuple(tuple(r) for r in concealed_rows),
        melds=tuple(tuple(r) for r in meld_rows),
        flowers=tuple(flower_rows),
        kongs=tuple(kongs),
        claims_count=tuple(tuple(r) for r in claims_count),
        seat_log=tuple(log_rows),
        live=state.live,
        phase={"discard": Phase.CLAIM, "rob_kong": Phase.ROB}.get(win_type, Phase.TURN),
        current=seat,
        drawn=None if window else tile,
        window_tile=tile if window else None,
        window_from=source if window else None,
    )
    position = replace(position, variant_state=v.rules.start(position))
    _check_tiles(v, position, seat, concealed if self_draw else [*concealed, tile], hidden)
    shape_tiles = concealed if self_draw else [*concealed, tile]
    held = len(shape_tiles) + 3 * len(meld_rows[seat])
    if held != 14:
        raise MajiangError(
            f"the winner holds {held} tiles with the winning tile (melds as 3); a hand has 14"
        )
    flags = {**position.shapes}
    if meld_rows[seat]:
        flags.update(seven_pairs=False, thirteen_orphans=False)
    if not is_winning(shape_tiles, wild=position.wild, **flags):
        raise MajiangError(
            f"{format_tiles(shape_tiles)} with {len(meld_rows[seat])} meld(s) is not a "
            f"winning hand in {variant}"
        )
    kong_source = None
    if win_type == WinType.KONG_REPLACEMENT:
        own_kongs = [m for m in meld_rows[seat] if m.is_kong]
        if not own_kongs:
            raise MajiangError("--by kong needs a kong among the winner's melds")
        kong_source = own_kongs[-1].source if own_kongs[-1].kind == "kong_direct" else None
    _check_allowed(v, position, seat, win_type, tile, source)
    info = WinInfo(seat, WinType(win_type), tile, source if not self_draw else None, kong_source)
    return Calculation(v, position, info, score_position(v, position.options, position, info))


def _flowers(variant: Variant, text: str) -> list[int]:
    """The winner's exposed flowers: flower tiles, in a variant that has them (RULES.md 3.1)."""
    tiles = [int(t) for t in parse_tiles(text)]
    if not tiles:
        return []
    if not variant.flowers:
        raise MajiangError(f"{variant.id} is played without flowers; leave out --flowers")
    if any(t < 34 for t in tiles):
        raise MajiangError(f"--flowers takes flower tiles 1f-8f only, got {text!r}")
    return tiles


_CHAIN = {"D": "draw", "K": "kong", "P": "wild discarded", "X": "discard", "C": "chi or peng"}


def _chain(
    variant: Variant, wild: int | None, melds: list[Meld], text: str, win_type: str
) -> list[str]:
    """The winner's earlier actions (hangzhou's 杠 and 飘 chain, D35), checked against the
    melds and the win: every K needs a kong, P needs wilds, a kong-replacement win ends in K."""
    chain = list(text.replace(" ", ""))
    for code in chain:
        if code not in _CHAIN:
            raise MajiangError(
                "--chain takes "
                + ", ".join(f"{k} ({v})" for k, v in _CHAIN.items())
                + f"; got {code!r} in {text!r}"
            )
    if "P" in chain and wild is None:
        raise MajiangError(f"--chain {text!r}: P is a wild discarded, and this hand has no wilds")
    kongs = sum(1 for m in melds if m.is_kong)
    if win_type == WinType.KONG_REPLACEMENT and not kongs:
        raise MajiangError("--by kong needs a kong among the winner's melds")
    if chain.count("K") > kongs:
        raise MajiangError(
            f"--chain {text!r} has {chain.count('K')} kong(s) (K); the winner's melds hold {kongs}"
        )
    if win_type == WinType.KONG_REPLACEMENT:
        if not chain:
            chain = ["K"]  # the win is on the replacement of the kong just declared
        elif chain[-1] != "K":
            raise MajiangError(f"--by kong: the chain {text!r} must end with that kong (K)")
    elif chain and chain[-1] == "K":
        raise MajiangError(
            f"--chain {text!r} ends with a kong, so the winning tile is its replacement: "
            "use --by kong"
        )
    return chain


def _check_tiles(
    variant: Variant,
    state: Position,
    seat: int,
    winner_tiles: list[int],
    hidden: dict[int, list[int]],
) -> None:
    """Every tile named must exist in the variant's set, no more copies than it holds
    (RULES.md 0.2), counting the winner's tiles, all melds, others' tiles, flowers and
    reserved tiles; every seat holds at most four melds."""
    counts = variant.tiles_for(state.options)
    named = [0] * len(counts)
    for t in winner_tiles:
        named[t] += 1
    for tiles in hidden.values():
        for t in tiles:
            named[t] += 1
    claims = variant.claims
    for s, melds in enumerate(state.melds):
        if len(melds) > 4:
            raise MajiangError(f"S{s} has {len(melds)} melds; a hand has at most four")
        for m in melds:
            for t in m.tiles:
                named[t] += 1
            claim = _CLAIM_OF.get(m.kind)
            if claim is not None and claim not in claims:
                raise MajiangError(f"{variant.id} has no {claim} (S{s}'s {_meld_text(m)})")
            if m.kind == MeldKind.CHI and m.source != (s - 1) % 4:
                # RULES.md 0.6: a chi takes the previous seat's discard only
                raise MajiangError(
                    f"S{s}'s {_meld_text(m)}: a chi takes the previous seat's (S{(s - 1) % 4}) "
                    "discard only"
                )
    for t in state.flowers[seat]:
        named[t] += 1
    for kept in state.reserved.values():
        for t in kept:
            named[t] += 1
    for t, n in enumerate(named):
        if n and not counts[t]:
            raise MajiangError(f"{variant.id} has no {Tile(t)} in its tile set (RULES.md 0.2)")
        if n > counts[t]:
            raise MajiangError(
                f"{n} x {Tile(t)} named (hand, winning tile, melds, flowers, reserved); "
                f"{variant.id} has {counts[t]} (RULES.md 0.2)"
            )


_CLAIM_OF = {"chi": "chi", "peng": "peng", "kong_direct": "kong", "kong_added": "peng"}


def _meld_text(m: Meld) -> str:
    kind = {v: k for k, v in _KINDS.items()}[m.kind]
    src = "" if m.source is None else f"<S{m.source}"
    return f"{kind} {format_tiles(m.tiles)}{src}"


def _reason(variant: Variant, ident: str, fallback: str) -> str:
    """Why a win is refused, in the variant's declared words (its restriction ``ident``)."""
    for r in variant.restrictions:
        if r.id == ident:
            return f"{r.rule} ({r.zh}: {r.rule_zh})"
    return fallback


def _check_allowed(
    variant: Variant, state: Position, seat: int, win_type: str, tile: int, source: int | None
) -> None:
    """Refuse a win that play would not offer, by the variant's own declarations and hooks
    (the same the engine asks), so the calculator never scores a forbidden win."""
    rules = variant.rules
    vid = variant.id
    if win_type == WinType.DISCARD:
        claims = variant.claims
        if tile == state.wild:
            claims = claims & variant.wild_discard_claims  # RULES.md 2.1: 财神不能放铳
            if "hu" not in claims:
                raise MajiangError(f"{vid}: a discarded wild ({Tile(tile)}) cannot be won on")
        if "hu" not in claims:
            raise MajiangError(
                f"{vid} has no win on a discard: "
                + _reason(variant, "no_discard_win", variant.summary[1] or "self-draw only")
            )
        assert source is not None
        if not (
            rules.may_win_on_discard(state, seat, source, tile)
            and rules.can_win_on_discard(state, seat, source, tile)
        ):
            raise MajiangError(
                f"{vid}: S{seat} may not win on S{source}'s {Tile(tile)}: "
                + _reason(variant, "no_discard_win", "its rules do not allow this win on a discard")
            )
    elif win_type == WinType.ROB_KONG:
        if not variant.rob_added_kong:
            raise MajiangError(f"{vid} has no robbing a kong (抢杠)")
        assert source is not None
        peng = next(
            (m for m in state.melds[source] if m.kind == MeldKind.PENG and m.tiles[0] == tile), None
        )
        if peng is None:
            raise MajiangError(
                f"robbing a kong: S{source} adds {Tile(tile)} to its peng, so --melds must "
                f"give it, e.g. 'S{source}: peng {Tile(tile).notation[0] * 3}"
                f"{Tile(tile).notation[1]}<S{(source + 2) % 4}'"
            )
        adding = Meld(MeldKind.KONG_ADDED, (tile,) * 4, peng.source, peng.claimed, peng.wilds)
        if not rules.can_rob(replace(state, pending_kong=adding), seat, source, tile):
            raise MajiangError(
                f"{vid}: S{seat} may not rob S{source}'s kong of {Tile(tile)}: "
                + _reason(variant, "no_rob", "its rules do not allow robbing this kong")
            )
    elif not rules.can_self_draw(state, seat):
        raise MajiangError(
            f"{vid}: S{seat} may not win by self-draw here: "
            + _reason(variant, "no_self_draw", "its rules do not allow it")
        )


def _others(text: str, winner: int) -> dict[int, list[int]]:
    """``S1: 777z 99s; S3: 8888m`` into {seat: tiles}: the concealed tiles of other seats."""
    out: dict[int, list[int]] = {}
    for part in filter(None, (p.strip() for p in (text or "").split(";"))):
        m = re.match(r"^S([0-3])\s*:\s*(.*)$", part)
        if not m:
            raise MajiangError(f"cannot read {part!r}; write e.g. 'S1: 777z 99s; S3: 8888m'")
        s = int(m[1])
        if s == winner or s in out:
            raise MajiangError(f"{part!r}: S{s} is the winner or named twice")
        out[s] = [int(t) for t in parse_tiles(m[2])]
        if any(t >= 34 for t in out[s]):
            raise MajiangError(f"{part!r}: flowers are never concealed (RULES.md 3.1)")
        if len(out[s]) > 13:
            raise MajiangError(f"{part!r}: a seat other than the winner holds at most 13 tiles")
    return out


def explain(calc: Calculation) -> str:
    """Patterns, value, every payment with its reason, and the deltas."""
    state, info, items = calc.position, calc.win, calc.score.items
    src = "" if info.source is None else f" from S{info.source}"
    lines = [
        f"{calc.variant.id}: S{info.winner} wins on {Tile(info.tile)} by {info.win_type}{src}"
        f" (dealer S{state.dealer}"
        + (f", wild {Tile(state.wild)}" if state.wild is not None else "")
        + ")",
        f"patterns: {', '.join(calc.score.patterns)}   value: {calc.score.value}",
        "payments:",
    ]
    for it in items:
        note = f"   {it.note}" if it.note else ""
        lines.append(f"  {it.kind:<10} S{it.payer} -> S{it.payee} {it.points:>5}{note}")
    lines.append("deltas: " + "  ".join(f"S{s} {d:+d}" for s, d in enumerate(deltas(items))))
    return "\n".join(lines)


def add_parser(sub: Any) -> None:
    """The ``score`` subcommand's arguments."""
    p = sub.add_parser("score", help="score a winning hand: patterns, value, every payment")
    p.add_argument("variant", help=f"variant id: {', '.join(VARIANTS)}")
    p.add_argument(
        "--hand",
        required=True,
        help="concealed tiles (with the winning tile for a self-draw), e.g. 123m456m789p23s11z4s",
    )
    p.add_argument(
        "--melds",
        default="",
        help="declared melds: 'peng 222p<S0; ckong 7777z; "
        "S1: kong 1111z<S3' (a seat prefix gives another seat's melds)",
    )
    p.add_argument("--win", required=True, help="the winning tile, e.g. 4s")
    p.add_argument(
        "--by",
        required=True,
        choices=sorted(WIN_TYPES),
        help="self (self-draw), discard, rob (robbing a kong), kong (kong replacement)",
    )
    p.add_argument("--seat", type=int, default=0, choices=range(4), help="the winner (default 0)")
    p.add_argument("--dealer", type=int, default=0, choices=range(4), help="the dealer (default 0)")
    p.add_argument(
        "--from",
        dest="source",
        type=int,
        choices=range(4),
        help="the discarder or konger (default: the winner's previous seat)",
    )
    p.add_argument("--option", action="append", metavar="K=V", help="room option, repeatable")
    p.add_argument(
        "--counter",
        action="append",
        metavar="K=V",
        help="dealer counter, e.g. dealer_run=2, lao=3, dealer_wins=1",
    )
    p.add_argument(
        "--reserved",
        action="append",
        metavar="K=TILES",
        help="reserved tiles by purpose, as the variant names them (see majiang rules VARIANT), "
        "e.g. K=3p",
    )
    p.add_argument(
        "--flowers",
        default="",
        help="the winner's exposed flowers, in a variant played with flowers",
    )
    p.add_argument(
        "--others",
        default="",
        help="other seats' concealed tiles, e.g. 'S1: 777z 99s; S3: 8888m' (scoring that "
        "counts non-winners' concealed triplets reads them); seats not named hold none",
    )
    p.add_argument(
        "--chain",
        default="",
        help="the winner's earlier actions before the winning draw, oldest first "
        "(D draw, K kong, P wild discard, X discard), for scoring that counts them (杠, 飘)",
    )


def main(args: Any) -> int:
    """Entry point from majiang.cli with parsed arguments."""
    options = dict(parse_option(o) for o in args.option or [])
    counters = {}
    for c in args.counter or []:
        k, v = parse_option(c)
        if not isinstance(v, int) or isinstance(v, bool):
            raise MajiangError(f"--counter takes name=integer, e.g. dealer_run=2; got {c!r}")
        counters[k] = v
    reserved = {}
    for r in args.reserved or []:
        k, v = parse_option(r)
        reserved[k] = str(v)
    calc = score(
        args.variant,
        args.hand,
        args.win,
        args.by,
        seat=args.seat,
        dealer=args.dealer,
        source=args.source,
        melds=args.melds,
        options=options,
        counters=counters,
        reserved=reserved,
        flowers=args.flowers,
        chain=args.chain,
        others=args.others,
    )
    print(explain(calc))
    return 0
