"""Lazy package exports (PEP 562): a name's module is imported on first access, not at package import.

This keeps ``import ragrecall.ranking`` from paying for the openai SDK, which the LLM metrics need and which
takes about half a second to import, or for numpy, which a small ``ragrecall trec`` run does without.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, names: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package`` resolving each name from its module.

    Args:
        package: the package's ``__name__``.
        names: public name → module path relative to the package (e.g. ``".metrics"``).
        namespace: the package's ``globals()``, where resolved names are cached.
    """

    def __getattr__(name: str) -> Any:
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(names))

    return __getattr__, __dir__
