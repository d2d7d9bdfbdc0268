"""The ``majiang`` command line.

Until the terminal game exists, ``majiang`` with no arguments prints what it
can do; the subcommands grow with the engine (see README).
"""

from __future__ import annotations

import argparse
import os
import sys
import unicodedata
from collections.abc import Sequence
from typing import NoReturn

from majiang import __version__
from majiang.errors import MajiangError
from majiang.records import MAX_HANDS, MAX_RECORD_BYTES
from majiang.rules import VARIANTS, get_variant

FIRST_VARIANT = next(iter(VARIANTS))
"""The default variant: the registry's first."""


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns (a CJK character takes two)."""
    cols = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(1, width - cols)


def _variant_lines() -> list[str]:
    """One line per variant of the registry: id, Chinese name, defining rule."""
    return [
        f"  {_pad(v.id, 11)}{_pad(v.zh, 16)}{v.summary[1] or v.name}" for v in VARIANTS.values()
    ]


class _Parser(argparse.ArgumentParser):
    """argparse with the project's error shape: one line on stderr, exit status 2."""

    def error(self, message: str) -> NoReturn:
        """Bad arguments: name them in one line, point to --help."""
        self.exit(2, f"{self.prog}: error: {_one_line(message)} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="majiang",
        description="Chinese regional mahjong: rules engine, hand analysis and tools.",
    )
    parser.add_argument("--version", action="version", version=f"majiang {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    w = sub.add_parser(
        "waits", help="shanten and waits of a hand, e.g. majiang waits 1112345678999m"
    )
    w.add_argument("hand", help="concealed tiles in FORMAT.md notation (3n+1 or 3n+2 tiles)")
    w.add_argument("--wild", help="the wild tile kind, e.g. 5z")
    r = sub.add_parser(
        "replay",
        help="replay a majiang-record/1 file and show the result",
        description="Replay a majiang-record/1 file (FORMAT.md) and explain every payment. "
        f"Limits: at most {MAX_RECORD_BYTES // 2**20} MiB and {MAX_HANDS:,} hands per record. "
        "Hands are counted from 1 (第1局) in the text; --json keeps FORMAT.md's 0-based index.",
    )
    r.add_argument("record", help="path of the record (JSON)")
    r.add_argument("--json", action="store_true", help="print exactly majiang-result/1")
    from majiang.cli.arena import add_parser as add_arena
    from majiang.cli.bot import add_parser as add_bot
    from majiang.cli.score import add_parser as add_score
    from majiang.cli.serve import add_parser as add_serve
    from majiang.cli.simulate import add_parser as add_simulate
    from majiang.cli.verify import add_parser as add_verify

    add_simulate(sub)
    add_arena(sub)
    add_score(sub)
    add_serve(sub)
    add_bot(sub)
    add_verify(sub)
    pl = sub.add_parser("play", help="play against bots in the terminal (the main program)")
    pl.add_argument(
        "--variant",
        default=FIRST_VARIANT,
        help=f"variant preselected on the start screen (default {FIRST_VARIANT})",
    )
    pl.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    pl.add_argument("--save", help="where to write the match record (default ~/.majiang/records/)")
    ru = sub.add_parser("rules", help="list the variants, or one variant's room options")
    ru.add_argument("variant", nargs="?", help=f"a variant id: {', '.join(VARIANTS)}")
    return parser


def _overview() -> str:
    lines = [
        f"majiang {__version__} — Chinese regional mahjong",
        "",
        "Variants:",
        *_variant_lines(),
        "",
        "Commands available now:",
        "  majiang play [--variant V] [--seed N] [--save FILE]   play against bots (main program)",
        "  majiang replay RECORD [--json]     replay a game record and explain the result",
        "  majiang rules [VARIANT]            variants and their room options",
        "  majiang simulate --variant V ...   many seeded hands between bots, in parallel",
        "  majiang arena --bots A,B ...       bots compared on duplicate deals, with 95% CIs",
        "  majiang waits HAND [--wild TILE]   shanten and waits of a hand",
        "  majiang score VARIANT --hand ... --win TILE --by self|discard|rob|kong",
        "                                     patterns, value and every payment of a win",
        "  majiang serve [--host H] [--port N] [--db URL]",
        "                                     the room server (HTTP + WebSocket rooms)",
        "  majiang bot --server URL --room N [--bot greedy]",
        "                                     a bot fills a seat of a room on a server",
        "  majiang verify HANDS.json          check hands' fair-deal commitments",
        "  majiang --help                     all options",
        "",
        "Library: from majiang.hand import is_winning, waits, shanten, decompositions",
    ]
    return "\n".join(lines)


def _waits(hand_text: str, wild_text: str | None) -> str:
    from majiang.hand import shanten, waits
    from majiang.tiles import format_tiles, parse_tile, parse_tiles

    tiles = parse_tiles(hand_text)
    wild = parse_tile(wild_text) if wild_text else None
    if any(t >= 34 for t in tiles) or (wild is not None and wild >= 34):
        raise MajiangError("flowers are not part of a hand; leave them out")
    if len(tiles) % 3 == 0 or not 1 <= len(tiles) <= 14:
        raise MajiangError(
            f"{hand_text!r} has {len(tiles)} tiles; a hand has 3n+1 or 3n+2 tiles (1..14)"
        )
    for t in set(tiles):
        if tiles.count(t) > 4:
            raise MajiangError(f"{hand_text!r} holds {tiles.count(t)} tiles {t}; at most 4 exist")
    sh = shanten(tiles, wild=wild)
    out = [f"hand    {format_tiles(tiles)}" + (f"  (wild {wild})" if wild is not None else "")]
    out.append("shanten " + ("complete (-1)" if sh < 0 else "ready (0)" if sh == 0 else str(sh)))
    if len(tiles) % 3 == 1:
        ws = sorted(waits(tiles, wild=wild))
        unseen = [4 - tiles.count(t) for t in ws]
        out.append(
            "waits   "
            + (", ".join(f"{t} ({u} unseen)" for t, u in zip(ws, unseen, strict=True)) or "none")
        )
    return "\n".join(out)


def _replay(path: str, as_json: bool) -> str:
    import json

    from majiang.records import load, replay

    data = load(path)
    if "record" in data and "case" in data:
        data = data["record"]  # a worked example from shared/examples wraps its record
    if as_json:
        return json.dumps(replay(data), ensure_ascii=False, indent=2)
    return summary(replay(data, notes=True))


def summary(result: dict[str, object]) -> str:
    """A readable account of a majiang-result/1: winners, patterns, payments, totals."""
    lines = [f"variant {result['variant']}"]
    hands = result["hands"]
    assert isinstance(hands, list)
    for h in hands:
        n = h["index"] + 1  # people count hands from 1 (第1局); the JSON index is 0-based
        head = f"hand {n} / 第{n}局 (index {h['index']}): dealer S{h['dealer']}, "
        if h["outcome"] == "win":
            src = "" if h["from"] is None else f" from S{h['from']}"
            head += f"S{h['winner']} wins by {h['win_type']}{src}: {', '.join(h['patterns'])}"
        elif h.get("escaped") is not None:
            head += f"S{h['escaped']} escaped (逃跑): the hand is aborted and the match ends"
        else:
            head += "drawn (流局)"
        lines.append(head)
        for it in h["items"]:
            note = f"   {it['note']}" if it.get("note") else ""
            lines.append(
                f"    {it['kind']:<10} S{it['from']} -> S{it['to']}  {it['points']:>4}{note}"
            )
        lines.append("    deltas  " + "  ".join(f"S{i} {d:+d}" for i, d in enumerate(h["deltas"])))
        nxt = h["next"]
        counters = ", ".join(f"{k} {v}" for k, v in nxt["counters"].items())
        lines.append(
            f"    next    dealer S{nxt['dealer']}" + (f" ({counters})" if counters else "")
        )
    totals = result["totals"]
    assert isinstance(totals, list)
    lines.append("totals  " + "  ".join(f"S{i} {d:+d}" for i, d in enumerate(totals)))
    return "\n".join(lines)


def _rules(variant_id: str | None) -> str:
    from majiang.rules import get_variant

    if variant_id is None:
        out = ["Variants:", *_variant_lines()]
        out.append("majiang rules VARIANT: its rules in brief and its room options.")
        return "\n".join(out)
    v = get_variant(variant_id)
    out = [f"{v.id} — {v.zh} {v.name}"]
    if v.summary[0]:
        out += ["", f"  {v.summary[0]}", f"  {v.summary[1]}"]
    if v.patterns:
        out += ["", "Patterns 番型 (id, names, value):"]
        wide = [
            max(len(p) for p in v.patterns) + 2,
            max(len(e) for _, e in v.patterns.values()) + 2,
        ]
        values = {p: f"{v.pattern_values_zh.get(p, '')}  {x}" for p, x in v.pattern_values.items()}
        out += [
            f"  {_pad(p, wide[0])}{_pad(zh, 14)}{_pad(en, wide[1])}{values.get(p, '')}"
            for p, (zh, en) in v.patterns.items()
        ]
    if v.restrictions:
        out += ["", "Restrictions 限制:"]
        for r in v.restrictions:
            out += [f"  {r.zh} {r.en}: {r.rule}", f"      {r.rule_zh}"]
    out += ["", "Room options 房间选项 (name, Chinese, allowed, default):"]
    for o in v.options:
        default = str(o.default).lower() if isinstance(o.default, bool) else str(o.default)
        out.append(f"  {_pad(o.name, 22)}{_pad(o.zh, 14)}{_pad(o.describe(), 24)}default {default}")
        out.append(f"      {o.doc}")
        out.append(f"      {o.doc_zh}")
        if o.kind == "choice":
            named = (
                f"{c} = {zh} {en}" for c, (zh, en) in zip(o.choices, o.choice_names, strict=True)
            )
            out.append("      " + "; ".join(named))
    if v.counters:
        names = (f"{c} {v.term(c)[0]}" if c in v.names else c for c in v.counters)
        out.append("Dealer counters 庄家计数: " + ", ".join(names))
    if v.readings:
        out += ["", "How this project reads the rules 规则解读:"]
        out += [f"  - {r}" for r in v.readings]
        out += [f"  - {r}" for r in v.readings_zh]
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``majiang`` command: 0 done, 2 bad input (one line on stderr)."""
    try:
        code = _main(argv)
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (majiang replay FILE | head): stop quietly, as the Python
        # docs recommend (signal module, "Note on SIGPIPE")
        _drop_stdout()
        return 1
    return code


def _drop_stdout() -> None:
    """Point stdout at devnull so the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a file (e.g. captured in tests)
        pass


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command is None:
            print(_overview())
        elif args.command == "waits":
            print(_waits(args.hand, args.wild))
        elif args.command == "replay":
            print(_replay(args.record, args.json))
        elif args.command == "rules":
            print(_rules(args.variant))
        elif args.command == "play":
            import random

            try:
                from majiang.cli.tui import run
            except ImportError:
                raise MajiangError(
                    "the terminal game needs Textual: pip install 'majiang[tui]'"
                ) from None
            seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
            get_variant(args.variant)
            return run(args.variant, seed, args.save)
        elif args.command == "score":
            from majiang.cli.score import main as score

            return score(args)
        elif args.command == "simulate":
            from majiang.cli.simulate import main as simulate

            return simulate(args)
        elif args.command == "arena":
            from majiang.cli.arena import main as arena

            return arena(args)
        elif args.command == "serve":
            from majiang.cli.serve import main as serve

            return serve(args)
        elif args.command == "bot":
            from majiang.cli.bot import main as bot

            return bot(args)
        elif args.command == "verify":
            from majiang.cli.verify import main as verify

            return verify(args)
    except MajiangError as err:
        print(f"majiang: error: {_one_line(str(err))}", file=sys.stderr)
        return 2
    return 0


def _one_line(text: str) -> str:
    """An error message on one line, whatever the input it quotes."""
    return " ".join(text.split("\n"))


if __name__ == "__main__":
    sys.exit(main())
