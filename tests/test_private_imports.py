"""No module imports another package's private module: what one package needs of another is in that package's
``__init__`` (for the LLM package: asking with repairs, requests, replies, prompts, usage, see ragrecall.llm).

A module or package is private when its name starts with ``_`` (``ragrecall.llm._ask``); it belongs to the
package that holds it, and only modules inside that package (at any depth) may import it. Private modules of
the top package (``ragrecall._files``) are therefore shared by every subpackage, while
``ragrecall.metrics.context_recall`` may not import ``ragrecall.llm._ask``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def _modules(root: Path) -> tuple[set[tuple[str, ...]], set[tuple[str, ...]]]:
    """The dotted names of every module and of every package under ``root``."""
    modules: set[tuple[str, ...]] = set()
    packages: set[tuple[str, ...]] = set()
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            packages.add(parts[:-1])
        modules.add(parts[:-1] if parts[-1] == "__init__" else parts)
    return modules, packages


def _owner(module: tuple[str, ...]) -> tuple[str, ...] | None:
    """The package a private module belongs to: the one holding its first private part; None if public."""
    private = next((i for i, part in enumerate(module) if part.startswith("_") and i > 0), None)
    return None if private is None else module[:private]


def _imports(tree: ast.AST, package: tuple[str, ...], root: Path) -> Iterator[tuple[int, str, tuple[str, ...]]]:
    """``(line, what, owner)`` for every private module (or private name) an import statement names, with the
    package it belongs to; relative imports resolved. ``from X import _y`` names a private module when ``X._y`` is
    one, else a private name of ``X``, which belongs to ``X``'s package."""
    modules, packages = _modules(root)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [tuple(alias.name.split(".")) for alias in node.names]
            names: list[str] = []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                targets = [(*base, *(node.module.split(".") if node.module else ()))]
            else:
                targets = [tuple((node.module or "").split("."))]
            names = [alias.name for alias in node.names]
        else:
            continue
        for target in targets:
            if (owner := _owner(target)) is not None:
                yield node.lineno, ".".join(target), owner
        for name in names:
            inside = (*targets[0], name)
            if inside in modules and (owner := _owner(inside)) is not None:
                yield node.lineno, ".".join(inside), owner
            elif inside not in modules and name.startswith("_") and not name.startswith("__"):
                held_by = targets[0] if targets[0] in packages else targets[0][:-1]
                yield node.lineno, ".".join(inside), _owner(targets[0]) or held_by


def private_imports(root: Path, top: str = "ragrecall") -> list[str]:
    """``"file:line: module"`` for every import under ``root`` of a private module (or name) from outside the
    package it belongs to."""
    found = []
    for path in sorted((root / top).rglob("*.py")):
        package = path.relative_to(root).with_suffix("").parts[:-1]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, what, owner in _imports(tree, package, root):
            if what.split(".")[0] == top and package[: len(owner)] != owner:
                found.append(f"{path.relative_to(root.parent)}:{line}: {what}")
    return found


def test_no_module_imports_another_packages_private_module() -> None:
    found = private_imports(SRC)
    assert not found, "imports of another package's private module:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("where", "code", "flagged"),
    [
        ("ragrecall/metrics/m.py", "from ..llm._ask import ask\n", "ragrecall.llm._ask"),
        ("ragrecall/metrics/m.py", "from ..llm import _ask\n", "ragrecall.llm._ask"),
        ("ragrecall/cli/m.py", "import ragrecall.report._page\n", "ragrecall.report._page"),
        ("ragrecall/m.py", "from .llm._ask import ask\n", "ragrecall.llm._ask"),
        ("ragrecall/report/m.py", "def f():\n    from ..evaluation._run import Backend\n", "ragrecall.evaluation._run"),
        ("ragrecall/llm/m.py", "from ._ask import ask\n", None),
        ("ragrecall/llm/sub/m.py", "from .._ask import ask\n", None),
        ("ragrecall/cli/m.py", "from .._files import atomic_text\n", None),
        ("ragrecall/cli/m.py", "from ..llm import ask\n", None),
        ("ragrecall/batch/m.py", "from ..llm import _Named\n", "ragrecall.llm._Named"),
        ("ragrecall/batch/m.py", "from ..llm.stack import _Named\n", "ragrecall.llm.stack._Named"),
        ("ragrecall/llm/m.py", "from .stack import _Named\n", None),
        ("ragrecall/cli/m.py", "from ..results import _registry\n", None),
    ],
)
def test_the_walk_flags_a_private_import_across_packages_and_names_file_line_and_module(
    tmp_path: Path, where: str, code: str, flagged: str | None
) -> None:
    for module in (
        "ragrecall/__init__.py",
        "ragrecall/results.py",
        "ragrecall/llm/__init__.py",
        "ragrecall/llm/_ask.py",
        "ragrecall/llm/stack.py",
        "ragrecall/report/_page.py",
        "ragrecall/evaluation/_run.py",
    ):
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / module).write_text("")
    (tmp_path / "ragrecall/_files.py").write_text("")
    target = tmp_path / where
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(code)
    line = code.count("\n", 0, code.index("import")) + 1
    expected = [f"{tmp_path.name}/{where}:{line}: {flagged}"] if flagged else []
    assert private_imports(tmp_path) == expected
