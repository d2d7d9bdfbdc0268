"""Helpers shared by the benchmark scripts: versions, machine facts, Markdown reports.

Not a benchmark itself; ``bench_engine.py``, ``bench_hand.py`` and
``bench_simulate.py`` import it from this directory.
"""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import os
import platform
import shlex
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def version(dist: str) -> str:
    """The installed version of distribution ``dist``, or ``"not installed"``."""
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def git_rev(repo: Path = REPO) -> str:
    """The short commit of ``repo``, noting uncommitted changes; ``"unknown"`` without git."""
    try:
        out = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        dirty = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() + (" (with uncommitted changes)" if dirty.stdout.strip() else "")


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo, else what ``platform`` knows."""
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return cpu


def machine_facts(libraries: str) -> list[str]:
    """CPU, cores, OS, Python, the given ``libraries`` line and the command, one per item."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 0
    return [
        f"CPU: {cpu_model()}; cores: {os.cpu_count()} ({usable} usable)",
        f"OS: {platform.platform()}",
        f"Python: {platform.python_implementation()} {platform.python_version()}",
        libraries,
        f"command: `{shlex.join(sys.orig_argv)}` (cwd {Path.cwd()})",
    ]


def append_markdown(path: Path, script: str, facts: Iterable[str], body: str) -> None:
    """Append a dated section (heading naming ``script``, the facts, ``body``) to ``path``."""
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    section = [f"## {stamp} — {script}", ""]
    section += [f"- {fact}" for fact in facts]
    section += ["", body.rstrip(), "", ""]
    with path.open("a", encoding="utf-8") as fh:
        fh.write("\n".join(section))
    print(f"appended to {path}", file=sys.stderr)


def report(script: str, facts: Sequence[str], lines: Sequence[str], markdown: str | None) -> None:
    """Print the facts and the report's lines; append them to ``markdown`` when given."""
    body = "\n".join(lines)
    print("\n".join(f"- {fact}" for fact in facts) + "\n\n" + body)
    if markdown:
        append_markdown(Path(markdown), script, facts, body)
