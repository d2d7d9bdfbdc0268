"""The engine<->rules seam holds (issue 15, "What must be shown"), read from the source
with ``ast``: ``rules/`` never imports ``engine/``, no variant id or variant-specific key
appears in ``majiang/`` outside ``rules/``, and the core's public signatures have no Any."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from majiang.rules import VARIANTS

PACKAGE = Path(__file__).resolve().parent.parent / "majiang"
RULES = PACKAGE / "rules"

VARIANT_IDS = frozenset({"guangdong", "hangzhou", "hainan", "hongzhong", "taizhou", *VARIANTS})
"""The variants of RULES.md (and any other registered since)."""
VARIANT_KEYS = frozenset(
    {
        "zhuada",  # hangzhou's 抓打 owner
        "no_win",  # taizhou's seats that threw a 得
        "wild_thrown",
        "known",  # taizhou's 生牌 tracking
        "horses",  # guangdong's reserved tiles and option
        "birds",  # hongzhong's
        "wild_indicator",  # hangzhou's and taizhou's flipped tile
        "no_wild",  # hongzhong's 转转 option
        "lao",  # hangzhou's 老庄 counter
    }
)
"""Keys only one variant's rules give a meaning to."""
CORE = (
    "values.py",
    "rules/view.py",
    "observation.py",
    "rules/base.py",
    "engine/state.py",
    "engine/match.py",
    "engine/wall.py",
    "scoring/__init__.py",
)
"""The modules whose public signatures the seam exposes."""


def sources(root: Path) -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(root.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def imported_modules(path: Path, tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Every module ``tree`` imports, anywhere (``if TYPE_CHECKING:`` and functions too),
    relative imports resolved against ``path``'s package."""
    package = path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            module = ".".join((*base, *([node.module] if node.module else [])))
            yield node.lineno, module
            for alias in node.names:  # ``from majiang import engine``
                yield node.lineno, f"{module}.{alias.name}"


def docstrings(tree: ast.Module) -> set[int]:
    """ids of the string constants that are docstrings (of modules, classes, functions
    and the attribute docstrings under an assignment): prose, not code."""
    out: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for i, stmt in enumerate(body):
            is_doc = isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            first = i == 0 and isinstance(
                node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
            )
            after_assign = i > 0 and isinstance(body[i - 1], ast.Assign | ast.AnnAssign)
            if is_doc and isinstance(stmt.value.value, str) and (first or after_assign):
                out.add(id(stmt.value))
    return out


def variant_strings(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """String constants (f-string parts included) naming a variant or being a variant key."""
    ids = re.compile(r"\b(" + "|".join(sorted(VARIANT_IDS)) + r")\b", re.IGNORECASE)
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
            continue
        if id(node) not in skip and (ids.search(node.value) or node.value in VARIANT_KEYS):
            yield node.lineno, node.value


def engine_imports(path: Path, tree: ast.Module) -> list[str]:
    """Where ``tree`` imports ``majiang.engine`` or one of its modules."""
    return [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports {module}"
        for line, module in imported_modules(path, tree)
        if module == "majiang.engine" or module.startswith("majiang.engine.")
    ]


def test_rules_never_import_the_engine() -> None:
    assert [where for path, tree in sources(RULES) for where in engine_imports(path, tree)] == []


@pytest.mark.parametrize(
    "source",
    [
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from majiang.engine import X\n",
        "def f() -> None:\n    import majiang.engine.match\n",
        "from ..engine import match\n",
        "from .. import engine\n",
        "from majiang import engine as e\n",
    ],
)
def test_the_import_check_sees_every_form_of_import(source: str) -> None:
    probe = RULES / "probe.py"  # a path inside rules/ for the relative imports; not written
    assert engine_imports(probe, ast.parse(source)) != []
    assert engine_imports(probe, ast.parse("from ..values import Action\n")) == []


def test_no_variant_name_or_key_outside_rules() -> None:
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {text!r}"
        for path, tree in sources(PACKAGE)
        if RULES not in path.parents
        for line, text in variant_strings(tree)
    ]
    assert offenders == [], "\n".join(offenders)


def test_the_variant_string_check_ignores_docstrings_only() -> None:
    tree = ast.parse(
        '"""A module about guangdong."""\n'
        "X = 1\n"
        '"""X: counted as in hainan."""\n'
        "def f(v: str = 'guangdong') -> str:\n"
        '    """For hangzhou."""\n'
        "    return f'{v} of Taizhou' + STATE['zhuada']\n"
    )
    assert sorted(text for _, text in variant_strings(tree)) == [
        " of Taizhou",
        "guangdong",
        "zhuada",
    ]


def public_annotations(tree: ast.Module) -> Iterator[tuple[str, ast.expr]]:
    """The annotations (and type-alias values) of a module's public API: public functions'
    parameters and returns, public classes' annotated fields and public methods, public
    module-level annotated names and aliases."""

    def function(
        prefix: str, fn: ast.FunctionDef | ast.AsyncFunctionDef
    ) -> Iterator[tuple[str, ast.expr]]:
        a = fn.args
        for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg):
            if arg is not None and arg.annotation is not None:
                yield f"{prefix}{fn.name}({arg.arg})", arg.annotation
        if fn.returns is not None:
            yield f"{prefix}{fn.name} ->", fn.returns

    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith(
            "_"
        ):
            yield from function("", node)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for base in node.bases:
                yield f"{node.name} base", base
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    yield f"{node.name}.{item.target.id}", item.annotation
                elif isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and (
                    not item.name.startswith("_") or item.name == "__init__"
                ):
                    yield from function(f"{node.name}.", item)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if not node.target.id.startswith("_"):
                yield node.target.id, node.annotation
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and not target.id.startswith("_"):
                yield f"{target.id} =", node.value


def mentions_any(expr: ast.expr) -> bool:
    """Does ``expr`` name ``Any`` (bare, ``typing.Any``, or inside a quoted annotation)?"""
    for node in ast.walk(expr):
        if isinstance(node, ast.Name) and node.id == "Any":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "Any":
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                inner = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                continue
            if mentions_any(inner):
                return True
    return False


@pytest.mark.parametrize("module", CORE)
def test_no_any_in_the_public_signatures_of_the_core(module: str) -> None:
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    annotations = list(public_annotations(tree))
    assert annotations, f"{module}: no public signature found"
    assert [where for where, expr in annotations if mentions_any(expr)] == []


def test_the_any_check_finds_any() -> None:
    tree = ast.parse(
        "from typing import Any\n"
        "import typing\n"
        "def f(x: 'list[Any]') -> None: ...\n"
        "def _private(x: Any) -> Any: ...\n"
        "class C:\n"
        "    y: typing.Any\n"
        "    def m(self, *, z: dict[str, int]) -> Any: ...\n"
        "    def _h(self, z: Any) -> None: ...\n"
        "Alias = dict[str, Any]\n"
    )
    found = [where for where, expr in public_annotations(tree) if mentions_any(expr)]
    assert found == ["f(x)", "C.y", "C.m ->", "Alias ="]
