"""The data files of :mod:`ragrecall.text` (``data/*.txt``, shipped in the wheel): lines of entries under
``[section]`` headers, ``#`` comments and blank lines skipped."""

from __future__ import annotations

from importlib import resources

__all__ = ["sections"]


def sections(name: str) -> dict[str, list[str]]:
    """Section → its entries, stripped, in file order, of the data file ``name`` (lines before any header go under
    ``""``)."""
    out: dict[str, list[str]] = {}
    current = ""
    text = resources.files(__package__).joinpath(f"data/{name}").read_text(encoding="utf-8")
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            out.setdefault(current, [])
            continue
        out.setdefault(current, []).append(line)
    return out
