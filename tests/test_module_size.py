"""Small modules with one concept each: no source file of the package is over 400 lines."""

from __future__ import annotations

from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "ragrecall"
LIMIT = 400


def test_no_source_file_is_over_400_lines() -> None:
    sizes = {path: len(path.read_text(encoding="utf-8").splitlines()) for path in SRC.rglob("*.py")}
    assert len(sizes) > 100  # the package was found
    over = sorted(f"{path.relative_to(SRC.parent)}: {n} lines" for path, n in sizes.items() if n > LIMIT)
    assert not over, "split by concept: " + "; ".join(over)
