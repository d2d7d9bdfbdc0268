"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium under Playwright (webkit.launch), one per browser test module."""
    from playwright.sync_api import sync_playwright
    from webkit import launch

    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()
