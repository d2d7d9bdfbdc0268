"""The core imports and runs with the layers' dependencies blocked (DESIGN.md)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

BLOCKED = ("numpy", "fastapi", "textual", "rich", "torch", "sqlalchemy")


def test_core_runs_without_layer_dependencies() -> None:
    """Import the core, analyse a hand and replay a record with numpy & co. unimportable."""
    golden = Path(__file__).parent / "golden" / "GD-1.json"
    code = textwrap.dedent(
        f"""
        import importlib.abc, json, sys
        class Block(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path, target=None):
                if name.split(".")[0] in {BLOCKED!r}:
                    raise ImportError("blocked: " + name)
                return None
        sys.meta_path.insert(0, Block())
        import majiang, majiang.hand, majiang.engine, majiang.records, majiang.testing
        from majiang.tiles import parse_tiles
        assert majiang.hand.is_winning(parse_tiles("11123456789999m"))
        record = json.load(open({str(golden)!r}))["record"]
        print(majiang.records.replay(record)["hands"][0]["deltas"])
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[2, -4, 6, -4]"
