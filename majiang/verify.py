"""Check a hand's fair-deal commitment (PROTOCOL.md 3.6) from what a client received.

Standard library and the core only, and written from PROTOCOL.md rather than taken from the
server, so a player's check does not trust the server's code: ``majiang verify`` and
``majiang.client`` use it. The commitment of a hand is

    sha256(bytes.fromhex(salt) + json.dumps(deal, sort_keys=True, separators=(",", ":")))

in hex, where ``deal`` is the FORMAT.md deal object ``hand_end`` reveals.

Input (docs/protocol.md, "Checking a hand"): ``hand_end`` messages as the server sent them,
each optionally with ``start_commitment``, the commitment the hand's ``hand_start`` event
carried (``majiang.client`` adds it when it saw that event). One object, a JSON list of them,
or JSON Lines (one per line, what ``majiang bot --save-hands`` appends).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from majiang.errors import MajiangError
from majiang.records import MAX_RECORD_BYTES
from majiang.values import JSON

__all__ = [
    "HandCheck",
    "VerifyInputError",
    "check_hand",
    "check_hands",
    "deal_commitment",
    "load_hands",
]

_HEX64 = re.compile(r"[0-9a-f]{64}")


class VerifyInputError(MajiangError):
    """The input is not hands to check (not JSON, a field missing or malformed)."""


def deal_commitment(deal: Mapping[str, JSON], salt: str) -> str:
    """The SHA-256 (hex) of ``salt``'s bytes followed by ``deal`` as canonical JSON
    (sorted keys, no spaces); VerifyInputError if ``salt`` is not hex."""
    try:
        raw = bytes.fromhex(salt)
    except ValueError:
        raise VerifyInputError(f"salt must be hex, got {salt[:40]!r}") from None
    text = json.dumps(deal, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(raw + text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class HandCheck:
    """The outcome of checking one hand: ``ok``, or ``problem`` saying what differs."""

    index: int | None
    """The hand's 0-based index (``result.index``), when the message has it."""
    ok: bool
    problem: str
    """Empty when ok; else one line: which value differs from which."""
    source: str
    """Where the checked commitment came from: ``hand_start`` (what the client saw when
    the hand started: the real check) or ``hand_end`` (the message's own copy)."""

    def line(self) -> str:
        """One line for ``majiang verify``: ``hand 1 (index 0): ok ...`` or the mismatch."""
        label = "hand" if self.index is None else f"hand {self.index + 1} (index {self.index})"
        where = (
            "the hand_start commitment"
            if self.source == "hand_start"
            else ("the commitment hand_end repeats; compare it with the one hand_start showed")
        )
        if self.ok:
            return f"{label}: ok ({where})"
        return f"{label}: MISMATCH: {self.problem}"


def _hex64(value: object, name: str) -> str:
    if not isinstance(value, str) or not _HEX64.fullmatch(value.lower()):
        raise VerifyInputError(f"{name} must be 64 hex digits, got {str(value)[:80]!r}")
    return value.lower()


def check_hand(
    hand: Mapping[str, JSON],
    *,
    commitment: str | None = None,
    record: Mapping[str, JSON] | None = None,
) -> HandCheck:
    """Check one ``hand_end`` object: its ``deal`` and ``salt`` hash to the commitment given
    (``commitment``), else its ``start_commitment``, else its own ``commitment``; a
    ``record`` (majiang-record/1) must hold the same deal for the hand's index.
    VerifyInputError when a field is missing or malformed."""
    deal, salt = hand.get("deal"), hand.get("salt")
    if not isinstance(deal, dict):
        raise VerifyInputError("a hand needs 'deal', the FORMAT.md deal object of hand_end")
    if not isinstance(salt, str):
        raise VerifyInputError("a hand needs 'salt', the hex string of hand_end")
    result = hand.get("result")
    index = result.get("index") if isinstance(result, dict) else None
    if not isinstance(index, int) or isinstance(index, bool):
        index = None
    own = hand.get("commitment")
    start = hand.get("start_commitment")
    if commitment is not None:
        expected, source = _hex64(commitment, "--commitment"), "hand_start"
    elif start is not None:
        expected, source = _hex64(start, "start_commitment"), "hand_start"
    elif own is not None:
        expected, source = _hex64(own, "commitment"), "hand_end"
    else:
        raise VerifyInputError("a hand needs 'commitment' (or 'start_commitment')")
    actual = deal_commitment(deal, salt)

    def done(problem: str) -> HandCheck:
        return HandCheck(index, not problem, problem, source)

    if not hmac.compare_digest(actual, expected):
        return done(f"sha256(salt + deal) is {actual}, the hand started with {expected}")
    if own is not None and _hex64(own, "commitment") != expected:
        return done(f"hand_end repeats commitment {own}, the hand started with {expected}")
    if record is not None:
        hands = record.get("hands")
        if index is None:
            raise VerifyInputError("checking against a record needs the hand's result.index")
        stored = hands[index] if isinstance(hands, list) and 0 <= index < len(hands) else None
        if not isinstance(stored, dict):
            return done(f"the record has no hand with index {index}")
        if stored.get("deal") != deal:
            return done(f"the record's deal of hand index {index} is not the committed deal")
    return done("")


def check_hands(
    hands: Sequence[Mapping[str, JSON]],
    *,
    commitment: str | None = None,
    record: Mapping[str, JSON] | None = None,
) -> list[HandCheck]:
    """Check every hand (``commitment`` only for a single hand)."""
    if commitment is not None and len(hands) != 1:
        raise VerifyInputError(f"--commitment needs exactly one hand; the input has {len(hands)}")
    return [check_hand(h, commitment=commitment, record=record) for h in hands]


def load_hands(path: str | Path) -> list[dict[str, JSON]]:
    """The hands in a file: a JSON object, a JSON list of objects, or JSON Lines.
    VerifyInputError for anything else (a record has no salts: it goes in ``--record``)."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        raise VerifyInputError(f"cannot read {str(path)!r}: {err.strerror or err}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise VerifyInputError(f"{str(path)!r} is larger than {MAX_RECORD_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise VerifyInputError(f"{str(path)!r} is not UTF-8 text") from None
    try:
        parsed: JSON = json.loads(text)
        items = parsed if isinstance(parsed, list) else [parsed]
    except json.JSONDecodeError as err:
        lines = [line for line in text.splitlines() if line.strip()]
        try:
            items = [json.loads(line) for line in lines]
        except json.JSONDecodeError:
            raise VerifyInputError(
                f"{str(path)!r} is not JSON or JSON Lines ({err.msg} at line {err.lineno})"
            ) from None
    if not items:
        raise VerifyInputError(f"{str(path)!r} holds no hand")
    hands: list[dict[str, JSON]] = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise VerifyInputError(f"item {i} of {str(path)!r} is not an object")
        if item.get("format") == "majiang-record/1":
            raise VerifyInputError(
                "a majiang-record/1 has no salts or commitments: give the hand_end messages, "
                "and the record with --record"
            )
        hands.append(item)
    return hands
