"""The fair-deal commitment of PROTOCOL.md 3.6, with nothing but the standard library, so
any player (or ``majiang verify``) can check a hand without the server's dependencies.

``commitment = sha256(bytes.fromhex(salt) + canonical_json(deal).encode()).hexdigest()``
where ``canonical_json(deal)`` is ``json.dumps(deal, sort_keys=True, separators=(",", ":"))``
and ``deal`` is the hand's FORMAT.md deal object (full wall order), the one ``hand_end``
reveals and the match record stores.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping

__all__ = ["canonical_json", "commitment", "new_salt", "verify_commitment"]

SALT_BYTES = 16
"""128 random bits of salt per hand: the commitment cannot be searched for the deal."""


def canonical_json(value: object) -> str:
    """Sorted keys, no spaces (non-ASCII escaped, json's default): what the commitment hashes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def new_salt() -> str:
    """A fresh random salt, as hex."""
    return secrets.token_hex(SALT_BYTES)


def commitment(deal: Mapping[str, object], salt: str) -> str:
    """SHA-256 (hex) of the salt's bytes followed by the deal's canonical JSON."""
    return hashlib.sha256(bytes.fromhex(salt) + canonical_json(deal).encode()).hexdigest()


def verify_commitment(deal: Mapping[str, object], salt: str, commitment_hex: str) -> bool:
    """Does ``commitment_hex`` (from the hand's start event) commit to ``deal`` and ``salt``
    (from its ``hand_end``)? False for a malformed salt rather than an error."""
    try:
        expected = commitment(deal, salt)
    except ValueError:
        return False
    return hmac.compare_digest(expected, commitment_hex.lower())
