"""Files shipped with the package: prompts and the demo data.

In a built wheel the repository's top-level ``prompts/`` folder is installed as ``ragrecall/prompts``
(see ``pyproject.toml``). In a source checkout (editable install) that folder is not inside the package,
so the repository copy is used instead.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:
    from importlib.abc import Traversable

__all__ = ["data_file", "prompts_root"]


def prompts_root() -> Traversable:
    """The folder holding the prompt files, installed or in the source tree."""
    installed = resources.files("ragrecall") / "prompts"
    if installed.is_dir():
        return installed
    source_tree = Path(__file__).resolve().parents[2] / "prompts"
    if source_tree.is_dir():
        return source_tree
    raise FileNotFoundError("ragrecall's prompt files are missing: the installation is incomplete")


def data_file(name: str) -> Traversable:
    """A file from the package's ``data`` folder (the demo dataset)."""
    return resources.files("ragrecall") / "data" / name
