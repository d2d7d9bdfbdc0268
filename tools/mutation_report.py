"""The report of a mutation run (docs/testing.md): kill rates per module with the survivors
judged equivalent set apart, and the survivors nobody has judged yet.

    python tools/mutate.py --module majiang/rules --workers 2 --json run.json
    python tools/mutation_report.py run.json [--rerun rerun.json ...] [--markdown]

A survivor is equivalent when tools/mutation-equivalents.json gives a reason for it, keyed
``module|kind|code|change`` (the module's file name, the operator, the code as
``tools/mutate.py`` describes it without its ``col N:`` prefix, the change). ``--rerun``
takes the outcomes of later runs of chosen mutants (``--only``, after tests were added):
they replace the first run's outcome of the same mutant. Unjudged survivors are printed
last; each needs a test that kills it or a one-line reason in the equivalents file.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, fields
from pathlib import Path

from mutate import Mutant, describe

EQUIVALENTS = Path(__file__).resolve().parent / "mutation-equivalents.json"


@dataclass(frozen=True)
class Row(Mutant):
    """One mutant's outcome as tools/mutate.py writes it to its JSON file."""

    status: str

    @property
    def code(self) -> str:
        """The mutated code as the run describes it, without its ``col N:`` prefix."""
        return re.sub(r"^col \d+: ", "", self.before)

    @property
    def key(self) -> str:
        """The equivalents file's key of this mutant."""
        return f"{Path(self.module).name}|{self.kind}|{self.code}|{self.after}"


def load(path: Path) -> list[Row]:
    """The outcomes of one run (the JSON of ``tools/mutate.py --json``)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"mutation_report: cannot read {path}: {exc}") from None
    names = [f.name for f in fields(Row)]
    try:
        return [Row(*(d[n] for n in names)) for d in data]
    except (KeyError, TypeError) as exc:
        raise SystemExit(f"mutation_report: {path} is not a mutate.py --json file: {exc}") from None


def reason(row: Row, equivalents: dict[str, str]) -> str | None:
    """Why a survivor is equivalent, or None if nobody has said. A key may give the code
    cut shorter than the run describes it (older runs described a narrower window)."""
    if row.key in equivalents:
        return equivalents[row.key]
    head = f"{Path(row.module).name}|{row.kind}|"
    code = row.code
    for key, why in equivalents.items():
        if not key.startswith(head) or not key.endswith("|" + row.after):
            continue
        known = key[len(head) : len(key) - len(row.after) - 1]
        if known and (code.startswith(known) or known.startswith(code)):
            return why
    return None


def table(rows: list[Row], equivalents: dict[str, str]) -> str:
    """Per module: mutants, killed (a timeout counts), survivors, those judged equivalent,
    the kill rate and the kill rate of the mutants that can change behaviour."""
    out = [
        "| module | mutants | killed | survived | equivalent | kill rate | non-equivalent killed |",
        "|---|---|---|---|---|---|---|",
    ]
    modules = sorted({r.module for r in rows})
    totals = [0, 0, 0, 0]
    for module in [*modules, None]:
        if module is None:
            n, killed, survived, equivalent = totals
            name = "**all**"
        else:
            rs = [r for r in rows if r.module == module]
            n = len(rs)
            killed = sum(r.status != "survived" for r in rs)
            survived = n - killed
            equivalent = sum(
                r.status == "survived" and reason(r, equivalents) is not None for r in rs
            )
            for i, v in enumerate((n, killed, survived, equivalent)):
                totals[i] += v
            name = f"`{module}`"
        rate = killed / n if n else 0.0
        real = n - equivalent
        real_rate = killed / real if real else 1.0
        out.append(
            f"| {name} | {n:,} | {killed:,} | {survived:,} | {equivalent:,} | {rate:.1%} "
            f"| {real_rate:.1%} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("run", type=Path, help="the JSON of a full run")
    parser.add_argument(
        "--rerun", type=Path, action="append", default=[], help="JSON of a later run (--only)"
    )
    parser.add_argument(
        "--reasons", action="store_true", help="also list every equivalent survivor's reason"
    )
    args = parser.parse_args(argv)
    rows = {(r.module, r.index): r for r in load(args.run)}
    for path in args.rerun:
        for r in load(path):
            if (r.module, r.index) not in rows:
                raise SystemExit(
                    f"mutation_report: {path}: {r.module} #{r.index} is not in the run"
                )
            rows[(r.module, r.index)] = r
    try:
        equivalents: dict[str, str] = json.loads(EQUIVALENTS.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SystemExit(f"mutation_report: cannot read {EQUIVALENTS}: {exc}") from None
    ordered = sorted(rows.values(), key=lambda r: (r.module, r.index))
    print(table(ordered, equivalents))
    survivors = [r for r in ordered if r.status == "survived"]
    if args.reasons:
        print()
        for r in survivors:
            why = reason(r, equivalents)
            if why is not None:
                print(
                    f"- `{Path(r.module).name}:{r.line}` {r.kind} `{r.code}` → `{r.after}`: {why}"
                )
    unjudged = [r for r in survivors if reason(r, equivalents) is None]
    if unjudged:
        print(f"\n{len(unjudged)} survivor(s) not judged yet:", file=sys.stderr)
        for r in unjudged:
            print(f"  {describe(r)}", file=sys.stderr)
    return 1 if unjudged else 0


if __name__ == "__main__":
    sys.exit(main())
