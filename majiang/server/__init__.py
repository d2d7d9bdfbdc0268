"""``majiang serve``: private rooms over HTTP and WebSocket (PROTOCOL.md, docs/protocol.md).

Importing this package loads nothing beyond the core: ``commitment`` (the fair-deal check)
is usable without the web dependencies; ``majiang.server.app`` needs the extra ``web``.
"""

from majiang.server.commitment import canonical_json, commitment, verify_commitment

__all__ = ["canonical_json", "commitment", "verify_commitment"]
