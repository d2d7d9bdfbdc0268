"""Variant registry keyed by the FORMAT.md ids."""

from __future__ import annotations

from majiang.errors import OptionError
from majiang.rules.base import Option, Variant
from majiang.rules.guangdong import GUANGDONG
from majiang.rules.hainan import HAINAN
from majiang.rules.hangzhou import HANGZHOU
from majiang.rules.hongzhong import HONGZHONG
from majiang.rules.taizhou import TAIZHOU

__all__ = ["VARIANTS", "Option", "Variant", "get_variant"]

VARIANTS: dict[str, Variant] = {v.id: v for v in (GUANGDONG, HANGZHOU, HAINAN, HONGZHONG, TAIZHOU)}
"""Every variant of RULES.md, keyed by its FORMAT.md id."""

PLANNED: tuple[str, ...] = ()


def get_variant(variant_id: str) -> Variant:
    """The variant with this id, or OptionError listing those available."""
    try:
        return VARIANTS[variant_id]
    except KeyError:
        if variant_id in PLANNED:
            raise OptionError(f"variant {variant_id!r} is not implemented yet") from None
        raise OptionError(f"unknown variant {variant_id!r}; known: {', '.join(VARIANTS)}") from None
