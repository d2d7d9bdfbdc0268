"""``majiang verify``: check the fair-deal commitment of saved hands (PROTOCOL.md 3.6)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["add_parser", "main"]

_DESCRIPTION = """\
Check that each hand's revealed deal was fixed before play: sha256(salt + canonical JSON of
the deal) must equal the commitment the hand's hand_start event carried (PROTOCOL.md 3.6).

FILE holds hand_end messages as the server sent them: one JSON object, a JSON list of them,
or JSON Lines (one per line; `majiang bot --save-hands FILE` writes these). Each needs
`deal`, `salt` and `commitment`; `result.index` names the hand. The commitment checked is
--commitment if given (one hand only), else the object's `start_commitment` (the one its
hand_start event carried, which majiang.client adds when it saw that event), else the
`commitment` hand_end repeats (then compare it with the one your hand_start showed).
--record RECORD (a majiang-record/1, e.g. GET /api/rooms/ROOM/record) also checks that the
record stores exactly the committed deal for each hand.

Exit status: 0 every hand ok, 1 a mismatch, 2 bad input (one line on stderr).
"""


def add_parser(sub: Any) -> None:
    """The ``verify`` subcommand's arguments."""
    p = sub.add_parser(
        "verify",
        help="check saved hands' fair-deal commitments (hand_end messages)",
        description=_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("hands", metavar="FILE", help="hand_end messages: JSON, a list or JSON Lines")
    p.add_argument(
        "--commitment",
        metavar="HEX",
        default=None,
        help="the commitment the hand_start event showed (a file of one hand)",
    )
    p.add_argument(
        "--record", metavar="RECORD", default=None, help="a majiang-record/1 to check deals in"
    )


def main(args: argparse.Namespace) -> int:
    """Print one line per hand and ``ok`` or ``mismatch``; 0 ok, 1 mismatch. Bad input
    raises VerifyInputError (a MajiangError: one line, exit status 2)."""
    from majiang.records import load
    from majiang.verify import check_hands, load_hands

    hands = load_hands(args.hands)
    record = load(args.record) if args.record is not None else None
    checks = check_hands(hands, commitment=args.commitment, record=record)
    for check in checks:
        print(check.line())
    bad = sum(not c.ok for c in checks)
    if bad:
        print(f"mismatch: {bad} of {len(checks)} hands", file=sys.stdout)
        return 1
    print(f"ok: {len(checks)} hand{'s' if len(checks) != 1 else ''}")
    return 0
