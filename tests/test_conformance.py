"""The conformance suite over every option combination of every implemented variant."""

from __future__ import annotations

import pytest

from majiang.rules import VARIANTS
from majiang.testing import check_variant, option_grid

GAMES_PER_VARIANT = 2000

CASES = [
    (vid, opts, -(-GAMES_PER_VARIANT // len(list(option_grid(vid)))))  # ceil: >= 2000 in all
    for vid in sorted(VARIANTS)
    for opts in option_grid(vid)
]


@pytest.mark.parametrize(
    ("variant_id", "options", "games"),
    CASES,
    ids=[f"{v}-{'-'.join(f'{k}={o[k]}' for k in o)}" for v, o, _ in CASES],
)
def test_conformance(variant_id: str, options: dict[str, object], games: int) -> None:
    """Seeded random games keep every invariant under this option combination."""
    steps = check_variant(variant_id, options, games=games, seed=11)
    assert steps > games * 20  # every game really was played out
