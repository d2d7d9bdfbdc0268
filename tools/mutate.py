"""Mutation testing of the rules and the engine: do the tests notice a small wrong change?

Run ``make mutation`` (not part of ``make test``: it takes a while), or for instance::

    python tools/mutate.py --module majiang/rules/hainan.py --max-mutants 40
    python tools/mutate.py --list --module majiang/rules/guangdong.py

Each mutant is one small change of one module, made with the standard library's ``ast``:
a comparison flipped (``<`` to ``<=``, ``==`` to ``!=``, ``in`` to ``not in`` ...), an
integer constant +1 or -1, a boolean constant flipped, ``and`` / ``or`` swapped, a
condition negated (``if``, ``while``, conditional expressions, comprehension filters), or a
statement deleted (replaced by ``pass``). Docstrings, ``...`` bodies, annotations,
``if TYPE_CHECKING`` blocks, decorators, ``__all__``, f-strings and ``assert`` statements
are left alone, and so are deletions that cannot change anything (``return None``) or that
only break the import (module- and class-level statements).

The mutated module replaces the real one in a private copy of the tree (one per worker,
in a temporary directory): files in the working tree are never written, so people can
keep working there. The module's fast tests run in that copy (its variant's rule tests,
the golden records and the calculator; the engine and the other rules modules get every
rule test file and the seam's tests of the registry and the hook defaults); a failing or
hanging run kills the mutant. The kill rate is printed per module; survivors are listed
with their line for a person to judge (a test to write, or an equivalent mutant, see
docs/testing.md).
"""

from __future__ import annotations

import argparse
import ast
import copy
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT
"""Where modules and tests are read from: a snapshot of ROOT taken when a run starts, so
that edits made in the working tree during a run change nothing in it."""
DEFAULT_MODULES = ("majiang/rules", "majiang/engine")
FAST = ["tests/test_golden.py", "tests/test_score.py"]
VARIANTS = ("guangdong", "hangzhou", "hainan", "hongzhong", "taizhou")
ALL_RULE_TESTS = [f"tests/test_{v}_rules.py" for v in VARIANTS] + [
    "tests/test_room_option_rules.py"
]
SEAM = ["tests/test_adding_a_variant.py", "tests/test_values.py"]
"""The registry, its declaration checks and the hooks' defaults, as a variant written outside
majiang/ uses them (tests/example_variant.py), and the seam's values (Position, rewards, one
scoring path): run for every module that is not a variant's."""
DECLARED = ["tests/test_adding_a_variant.py::test_built_in_variants_are_valid_and_stay"]
"""The project's own check of every built-in declaration (validate_variant): run for the
variants too, whose declarations (counters, ranges, wall bounds) it reads."""
SLOW = ["tests/test_adding_a_variant.py::test_check_variant_passes_under_every_option_combination"]
"""Deselected in every run: it plays the conformance suite (about 10 s a mutant)."""

FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
SYMBOL = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}


@dataclass(frozen=True)
class Mutant:
    """One change of one module: where, what, and the mutated line as code."""

    module: str
    index: int
    line: int
    kind: str
    before: str
    after: str


@dataclass(frozen=True)
class Outcome:
    """A mutant's fate: killed (a test failed), timeout (counted as killed) or survived."""

    mutant: Mutant
    status: str
    seconds: float
    detail: str = ""


# -- finding mutants ------------------------------------------------------------------------
def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _is_ellipsis(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and node.value.value is Ellipsis
    )


def _returns_none(node: ast.stmt) -> bool:
    """``return`` or ``return None``: deleting it changes nothing."""
    return isinstance(node, ast.Return) and (
        node.value is None or (isinstance(node.value, ast.Constant) and node.value.value is None)
    )


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _skip_statement(node: ast.stmt) -> bool:
    """Statements never mutated (nor anything inside them)."""
    if isinstance(node, ast.If) and _is_type_checking(node):
        return True
    if isinstance(node, ast.Import | ast.ImportFrom | ast.Assert | ast.Global | ast.Nonlocal):
        return True
    if _is_docstring(node) or _is_ellipsis(node):
        return True
    return isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
    )


class _Sites(ast.NodeVisitor):
    """Walks a module in a fixed order and yields (node, kind, detail) mutation sites."""

    def __init__(self) -> None:
        self.sites: list[tuple[ast.AST, str, object]] = []

    # skip what is not behaviour
    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._defaults(node.args)
        self._body(node.body)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._defaults(node.args)
        self._body(node.body)

    def _defaults(self, args: ast.arguments) -> None:
        for default in [*args.defaults, *args.kw_defaults]:
            if default is not None:
                self.visit(default)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for kw in node.keywords:
            self.visit(kw)
        self._body(node.body, delete=False)

    def visit_Module(self, node: ast.Module) -> None:
        self._body(node.body, delete=False)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        return

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)

    def _body(self, body: list[ast.stmt], delete: bool = True) -> None:
        """Statements of a block; deleting one at module or class level only breaks the
        import or the class's fields, which any test notices, so those are not mutants."""
        for stmt in body:
            if _skip_statement(stmt):
                continue
            defs = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Pass
            if delete and not isinstance(stmt, defs) and not _returns_none(stmt):
                self.sites.append((stmt, "delete", None))
            self.visit(stmt)

    def generic_visit(self, node: ast.AST) -> None:
        for field, value in ast.iter_fields(node):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                self._body(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        self.visit(item)
            elif isinstance(value, ast.AST) and field not in ("annotation", "returns"):
                self.visit(value)

    # the mutation sites
    def visit_Compare(self, node: ast.Compare) -> None:
        for i, op in enumerate(node.ops):
            if type(op) in FLIP:
                self.sites.append((node, "compare", i))
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        self.sites.append((node, "boolop", None))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, bool):
            self.sites.append((node, "flip", None))
        elif isinstance(node.value, int):
            self.sites.append((node, "const", 1))
            self.sites.append((node, "const", -1))

    def _negate_site(self, node: ast.AST) -> None:
        self.sites.append((node, "negate", None))

    def visit_If(self, node: ast.If) -> None:
        self._negate_site(node)
        self.generic_visit(node)

    def visit_While(self, node: ast.While) -> None:
        self._negate_site(node)
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._negate_site(node)
        self.generic_visit(node)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        for i in range(len(node.ifs)):
            self.sites.append((node, "filter", i))
        self.generic_visit(node)


def _apply(node: ast.AST, kind: str, detail: object) -> str:
    """Mutate ``node`` in place; a one-line description of the change."""
    if kind == "compare":
        assert isinstance(node, ast.Compare) and isinstance(detail, int)
        old = node.ops[detail]
        new = FLIP[type(old)]()
        node.ops[detail] = new
        return f"{SYMBOL[type(old)]} -> {SYMBOL[type(new)]}"
    if kind == "boolop":
        assert isinstance(node, ast.BoolOp)
        swap = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        text = "and -> or" if isinstance(node.op, ast.And) else "or -> and"
        node.op = swap
        return text
    if kind == "flip":
        assert isinstance(node, ast.Constant)
        node.value = not node.value
        return f"{not node.value} -> {node.value}"
    if kind == "const":
        assert isinstance(node, ast.Constant) and isinstance(node.value, int)
        assert isinstance(detail, int)
        old_value = node.value
        node.value = old_value + detail
        return f"{old_value} -> {node.value}"
    if kind == "negate":
        assert isinstance(node, ast.If | ast.While | ast.IfExp)
        node.test = ast.UnaryOp(ast.Not(), node.test)
        return "condition negated"
    if kind == "filter":
        assert isinstance(node, ast.comprehension) and isinstance(detail, int)
        node.ifs[detail] = ast.UnaryOp(ast.Not(), node.ifs[detail])
        return "filter negated"
    raise ValueError(kind)


class _Deleter(ast.NodeTransformer):
    def __init__(self, target: ast.stmt) -> None:
        self.target = target

    def visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return ast.copy_location(ast.Pass(), node)
        out: ast.AST = super().visit(node)
        return out


def _sites(tree: ast.Module) -> list[tuple[ast.AST, str, object]]:
    finder = _Sites()
    finder.visit(tree)
    return finder.sites


def _where(node: ast.AST, kind: str, detail: object) -> ast.AST:
    """The node whose position names the site (a comprehension's filter for its own)."""
    if kind == "filter" and isinstance(node, ast.comprehension) and isinstance(detail, int):
        return node.ifs[detail]
    return node


def _short(code: str, width: int = 90) -> str:
    code = " ".join(code.split())
    return code if len(code) <= width else code[: width - 3] + "..."


def mutants_of(module: str) -> list[Mutant]:
    """Every mutant of one module (path relative to the repository root), in source order.

    ``before`` / ``after`` show the code that changes: the expression for a flipped
    comparison, a swapped and/or, a negated condition or filter; the statement's first
    line for a deletion; the constant and its column for a constant.
    """
    source = (SOURCE / module).read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    out = []
    for index, (node, kind, detail) in enumerate(_sites(tree)):
        at = _where(node, kind, detail)
        line = getattr(at, "lineno", 0)
        if kind == "delete":
            before, after = lines[line - 1].strip(), "deleted"
        elif kind in ("const", "flip"):
            clone = copy.deepcopy(node)
            change = _apply(clone, kind, detail)
            text, col = lines[line - 1], getattr(at, "col_offset", 0)
            before, after = f"col {col + 1}: {text[max(0, col - 40) : col + 20].strip()}", change
        else:
            target = node.test if isinstance(node, ast.If | ast.While | ast.IfExp) else at
            before = ast.unparse(target)
            clone = copy.deepcopy(node)
            _apply(clone, kind, detail)
            if isinstance(clone, ast.If | ast.While | ast.IfExp):
                after = ast.unparse(clone.test)
            elif isinstance(clone, ast.comprehension) and isinstance(detail, int):
                after = ast.unparse(clone.ifs[detail])
            else:
                after = ast.unparse(clone)
        out.append(Mutant(module, index, line, kind, _short(before), _short(after)))
    return out


def mutated_source(module: str, index: int) -> str:
    """The module's source with mutant ``index`` applied (unparsed from the AST)."""
    tree: ast.AST = ast.parse((SOURCE / module).read_text(encoding="utf-8"))
    assert isinstance(tree, ast.Module)
    node, kind, detail = _sites(tree)[index]
    if kind == "delete":
        assert isinstance(node, ast.stmt)
        tree = _Deleter(node).visit(tree)
    else:
        _apply(node, kind, detail)
    ast.fix_missing_locations(tree)
    return ast.unparse(tree) + "\n"


# -- running them ---------------------------------------------------------------------------
def tests_for(module: str) -> list[str]:
    """The fast tests of a module: its variant's rule tests, the room options, the check of
    the built-in declarations, golden, score; for any other module every rule test file and
    the seam's (registry, hook defaults)."""
    name = Path(module).stem
    if module.startswith("majiang/rules/") and name in VARIANTS:
        return [
            f"tests/test_{name}_rules.py",
            "tests/test_room_option_rules.py",
            *DECLARED,
            *FAST,
        ]
    return [*ALL_RULE_TESTS, *SEAM, *FAST]


class Workspace:
    """A private copy of the tree for one worker; mutants are written only here."""

    def __init__(self, base: Path) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="majiang-mutate-", dir=base))
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
        for part in ("majiang", "tests", "docs"):  # docs: tests read the guides
            shutil.copytree(SOURCE / part, self.dir / part, ignore=ignore)
        shutil.copy(SOURCE / "pyproject.toml", self.dir / "pyproject.toml")

    def run(self, tests: list[str], timeout: float) -> tuple[str, float, str]:
        """('passed' | 'failed' | 'timeout', seconds, last output line)."""
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
               "MAJIANG_ENGINE_PURE": "1"}  # mutants live in the Python, not its C twin
        env.pop("PYTHONPATH", None)
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-x",
            "-q",
            "--no-header",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "--durations=0",
            *(f"--deselect={node}" for node in SLOW),
            *tests,
        ]
        start = time.perf_counter()
        try:
            proc = subprocess.run(
                cmd, cwd=self.dir, env=env, capture_output=True, text=True, timeout=timeout
            )
        except subprocess.TimeoutExpired:
            return "timeout", time.perf_counter() - start, ""
        seconds = time.perf_counter() - start
        lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
        last = lines[-1] if lines else proc.stderr.strip()[-200:]
        return ("passed" if proc.returncode == 0 else "failed"), seconds, last

    def put(self, module: str, text: str) -> None:
        (self.dir / module).write_text(text, encoding="utf-8")

    def restore(self, module: str) -> None:
        shutil.copy(SOURCE / module, self.dir / module)

    def remove(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


def select(mutants: list[Mutant], max_mutants: int | None, seed: int) -> list[Mutant]:
    """At most ``max_mutants`` of them, a seeded sample kept in source order."""
    if max_mutants is None or len(mutants) <= max_mutants:
        return mutants
    chosen = random.Random(seed).sample(mutants, max_mutants)
    return sorted(chosen, key=lambda m: m.index)


def modules_from(paths: list[str]) -> list[str]:
    """Python modules under the given files or folders, relative to the root."""
    out: list[str] = []
    for p in paths:
        path = (ROOT / p).resolve()
        if path.is_dir():
            out += [str(f.relative_to(ROOT)) for f in sorted(path.glob("*.py"))]
        elif path.suffix == ".py" and path.exists():
            out.append(str(path.relative_to(ROOT)))
        else:
            raise SystemExit(f"mutate: no module or folder {p!r}")
    return out


def run_all(
    plan: list[Mutant], workers: int, timeout_factor: float, verbose: bool
) -> list[Outcome]:
    """Run every planned mutant; each worker thread keeps its own copy of the tree."""
    base = Path(tempfile.gettempdir())
    local = threading.local()
    spaces: list[Workspace] = []
    lock = threading.Lock()
    baselines: dict[tuple[str, ...], float] = {}

    def space() -> Workspace:
        ws = getattr(local, "ws", None)
        if ws is None:
            ws = local.ws = Workspace(base)
            with lock:
                spaces.append(ws)
        return ws

    def baseline(ws: Workspace, tests: list[str]) -> float:
        key = tuple(tests)
        with lock:
            known = baselines.get(key)
        if known is not None:
            return known
        status, seconds, last = ws.run(tests, timeout=1800)
        if status != "passed":
            raise SystemExit(f"mutate: the unmutated tests do not pass: {' '.join(tests)}: {last}")
        with lock:
            baselines[key] = seconds
        return seconds

    done = 0

    def one(m: Mutant) -> Outcome:
        nonlocal done
        ws = space()
        tests = tests_for(m.module)
        limit = max(30.0, timeout_factor * baseline(ws, tests))
        ws.put(m.module, mutated_source(m.module, m.index))
        try:
            status, seconds, last = ws.run(tests, timeout=limit)
        finally:
            ws.restore(m.module)
        fate = {"passed": "survived", "failed": "killed", "timeout": "timeout"}[status]
        out = Outcome(m, fate, round(seconds, 2), last if fate == "survived" else "")
        with lock:
            done += 1
            if verbose or fate == "survived":
                print(f"[{done}/{len(plan)}] {fate:8} {describe(m)}", flush=True)
        return out

    # the unparsed (unmutated) module must pass too, or every mutant would look killed
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(one, plan))
    finally:
        for ws in spaces:
            ws.remove()


def describe(m: Mutant) -> str:
    """One line naming a mutant: where, which, and the code before -> after."""
    return f"{m.module}:{m.line} #{m.index} {m.kind}: {m.before}  ->  {m.after}"


def check_unparse(modules: list[str]) -> None:
    """The unparsed module without any mutation must still pass its tests."""
    ws = Workspace(Path(tempfile.gettempdir()))
    try:
        for module in modules:
            tree = ast.parse((SOURCE / module).read_text(encoding="utf-8"))
            ws.put(module, ast.unparse(tree) + "\n")
        tests = sorted({t for m in modules for t in tests_for(m)})
        status, _, last = ws.run(tests, timeout=3600)
        if status != "passed":
            raise SystemExit(f"mutate: the unparsed modules fail their tests: {last}")
    finally:
        ws.remove()


def summary(results: list[Outcome], totals: dict[str, int]) -> str:
    """The kill rate per module as a Markdown table."""
    rows = [
        "| module | mutants | run | killed | timeout | survived | kill rate |",
        "|---|---|---|---|---|---|---|",
    ]
    by_module: dict[str, list[Outcome]] = {}
    for r in results:
        by_module.setdefault(r.mutant.module, []).append(r)
    all_run = all_killed = 0
    for module, rs in by_module.items():
        killed = sum(r.status == "killed" for r in rs)
        timeout = sum(r.status == "timeout" for r in rs)
        survived = sum(r.status == "survived" for r in rs)
        rate = (killed + timeout) / len(rs)
        all_run += len(rs)
        all_killed += killed + timeout
        rows.append(
            f"| {module} | {totals[module]} | {len(rs)} | {killed} | {timeout} | {survived} "
            f"| {rate:.1%} |"
        )
    if all_run:
        rows.append(
            f"| all | {sum(totals.values())} | {all_run} | | | | {all_killed / all_run:.1%} |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument(
        "--module",
        action="append",
        help="a module or folder to mutate, repeatable (default: majiang/rules, majiang/engine)",
    )
    parser.add_argument("--max-mutants", type=int, help="at most this many per module (sampled)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample (default 1)")
    parser.add_argument(
        "--only", type=int, action="append", help="run only mutant #N (with one --module)"
    )
    parser.add_argument("--workers", type=int, default=1, help="parallel workers (default 1)")
    parser.add_argument(
        "--timeout-factor",
        type=float,
        default=5.0,
        help="a mutant run slower than this many times the clean run is killed (default 5)",
    )
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--json", type=Path, help="write every outcome to this JSON file")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every outcome")
    args = parser.parse_args(argv)

    modules = modules_from(args.module or list(DEFAULT_MODULES))
    global SOURCE
    snap = None if args.list else Workspace(Path(tempfile.gettempdir()))
    if snap is not None:
        SOURCE = snap.dir
    try:
        return _run(args, modules)
    finally:
        SOURCE = ROOT
        if snap is not None:
            snap.remove()


def _run(args: argparse.Namespace, modules: list[str]) -> int:
    plan: list[Mutant] = []
    totals: dict[str, int] = {}
    for module in modules:
        found = mutants_of(module)
        totals[module] = len(found)
        if args.only:
            found = [m for m in found if m.index in set(args.only)]
        plan += select(found, args.max_mutants, args.seed)
    if args.list:
        for m in plan:
            print(describe(m))
        print(f"{len(plan)} mutants of {sum(totals.values())} in {len(modules)} modules")
        return 0
    print(f"mutate: {len(plan)} mutants in {len(modules)} modules, {args.workers} worker(s)")
    start = time.perf_counter()
    check_unparse(sorted({m.module for m in plan}))
    results = run_all(plan, max(1, args.workers), args.timeout_factor, args.verbose)
    print()
    print(summary(results, totals))
    survivors = [r for r in results if r.status == "survived"]
    if survivors:
        print(f"\n{len(survivors)} survived:")
        for r in survivors:
            print(f"  {describe(r.mutant)}")
    print(f"\n{time.perf_counter() - start:.0f} s")
    if args.json:
        args.json.write_text(
            json.dumps(
                [{**asdict(r.mutant), "status": r.status, "seconds": r.seconds} for r in results],
                ensure_ascii=False,
                indent=1,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
