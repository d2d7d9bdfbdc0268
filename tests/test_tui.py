"""The terminal game, driven headless with Textual's pilot (issue: play it)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from textual.widgets import Input, Select, Static

from majiang.cli.tui import MajiangApp, SettlementScreen, StartScreen, TableScreen
from majiang.records import load, replay
from majiang.rules import VARIANTS

ALL = sorted(VARIANTS)


def key_for(app: MajiangApp) -> str:
    """A simple player: win, claim, else pass or discard the drawn tile."""
    assert app.session is not None
    types = {a.type for a in app.session.human_legal()}
    for kind, key in (("hu", "h"), ("kong", "k"), ("peng", "p"), ("chi", "c")):
        if kind in types:
            return key
    return "x" if "pass" in types else "d"


async def play(variant: str, tmp: Path, hands: int) -> dict[str, object]:
    app = MajiangApp(variant, seed=11, save_path=str(tmp / "match.json"))
    seen: dict[str, object] = {"claims": 0, "settlements": 0, "dealers": []}
    async with app.run_test(size=(200, 80)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        # the form is generated from the declarations: every option has a widget
        options = {o.name for o in VARIANTS[variant].options}
        assert set(app.screen.option_widgets) == options
        app.screen.query_one("#variant", Select).value = variant
        await pilot.pause()
        await pilot.click("#start-button")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        info = str(app.screen.query_one("#info", Static).render())
        assert variant in info and "R " in info
        for _ in range(hands):
            steps = 0
            while not isinstance(app.screen, SettlementScreen) and steps < 600:
                key = key_for(app)
                if key in "kpc":
                    seen["claims"] = int(seen["claims"]) + 1  # type: ignore[call-overload]
                await pilot.press(key)
                await pilot.pause()
                steps += 1
            assert isinstance(app.screen, SettlementScreen), "the hand did not end"
            text = str(app.screen.query_one("#settlement-text", Static).render())
            assert "deltas:" in text and "totals:" in text and "record saved to" in text
            seen["settlements"] = int(seen["settlements"]) + 1  # type: ignore[call-overload]
            assert app.session is not None
            seen["dealers"].append(app.session.state.dealer)  # type: ignore[attr-defined]
            if app.session.match.over:
                break
            await pilot.press("n")
            await pilot.pause()
        assert app.session is not None
        seen["totals"] = list(app.session.match.totals)
        seen["next"] = app.session.state.dealer
    return seen


@pytest.mark.parametrize("variant", ALL)
def test_hands_are_played_to_the_settlement_and_saved(variant: str, tmp_path: Path) -> None:
    seen = asyncio.run(play(variant, tmp_path, hands=2))
    assert seen["settlements"] == 2
    record = load(tmp_path / "match.json")
    result = replay(record)
    # the saved record replays to the totals the game showed
    assert result["totals"] == seen["totals"]
    assert len(result["hands"]) == 2
    # the second hand was dealt by the rotation's dealer
    assert result["hands"][0]["next"]["dealer"] == seen["dealers"][1]  # type: ignore[index]


def test_claims_happen_in_play(tmp_path: Path) -> None:
    seen = asyncio.run(play("hangzhou", tmp_path, hands=3))
    assert int(seen["claims"]) > 0  # type: ignore[call-overload]


def test_bad_option_is_refused_on_the_start_screen(tmp_path: Path) -> None:
    async def go() -> str:
        app = MajiangApp("hainan", seed=1, save_path=str(tmp_path / "x.json"))
        async with app.run_test(size=(200, 80)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, StartScreen)
            _, widget = screen.option_widgets["base_unit"]
            widget.value = "zero"
            await pilot.click("#start-button")
            await pilot.pause()
            assert isinstance(app.screen, StartScreen)
            return str(screen.query_one("#error", Static).render())

    assert "base_unit" in asyncio.run(go())


def test_leaving_mid_hand_is_an_escape(tmp_path: Path) -> None:
    async def go() -> None:
        app = MajiangApp("guangdong", seed=2, save_path=str(tmp_path / "esc.json"))
        async with app.run_test(size=(200, 80)) as pilot:
            await pilot.pause()
            await pilot.click("#start-button")
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()

    asyncio.run(go())
    result = replay(json.loads((tmp_path / "esc.json").read_text()))
    hand = result["hands"][0]
    assert hand["outcome"] == "draw"
    assert [i["kind"] for i in hand["items"]] == ["escape"] * 3  # 8 to each other seat


def test_the_human_wins_a_hand(tmp_path: Path) -> None:
    """Seed 32 of hainan deals the human (S0) a hand this key policy wins on a discard."""

    async def go() -> str:
        app = MajiangApp("hainan", seed=32, save_path=str(tmp_path / "win.json"))
        async with app.run_test(size=(200, 80)) as pilot:
            await pilot.pause()
            app.screen.query_one("#seed", Input).value = "32"
            await pilot.click("#start-button")
            await pilot.pause()
            for _ in range(600):
                if isinstance(app.screen, SettlementScreen):
                    break
                await pilot.press(key_for(app))
                await pilot.pause()
            assert isinstance(app.screen, SettlementScreen)
            return str(app.screen.query_one("#settlement-text", Static).render())

    text = asyncio.run(go())
    assert "You (S0) wins" in text


SNAPSHOTS = Path(__file__).parent / "snapshots"


async def table_text(variant: str, tmp: Path) -> str:
    """The table right after the deal, as text: what a snapshot pins down."""
    app = MajiangApp(variant, seed=5, save_path=str(tmp / "s.json"))
    async with app.run_test(size=(200, 80)) as pilot:
        await pilot.pause()
        app.screen.query_one("#variant", Select).value = variant
        await pilot.pause()
        app.screen.query_one("#seed", Input).value = "5"
        await pilot.click("#start-button")
        await pilot.pause()
        screen = app.screen
        parts = [
            str(screen.query_one(f"#{name}", Static).render())
            for name in ("info", "others", "mine")
        ]
        hand = [str(b.label) for b in screen.query("#hand Button")]
        actions = [str(b.label) for b in screen.query("#actions Button")]
        return "\n".join([*parts, " | ".join(hand), " | ".join(actions)]) + "\n"


@pytest.mark.parametrize("variant", ALL)
def test_table_snapshot(variant: str, tmp_path: Path) -> None:
    """The table of a seeded deal renders exactly as the stored snapshot."""
    text = asyncio.run(table_text(variant, tmp_path))
    expected = (SNAPSHOTS / f"table-{variant}.txt").read_text(encoding="utf-8")
    assert text == expected
