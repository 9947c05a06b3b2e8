"""Watching whether ``ragrecall trec`` evaluated a run on its small path (:mod:`ragrecall.ranking.small_run`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ragrecall.cli import _trec
from ragrecall.ranking import evaluate_run, small_run


def took_small(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Record, per call, whether the small path evaluated the files (True) or handed them over (False)."""
    taken: list[bool] = []
    real = small_run.evaluate_small

    def spy(qrels: str, run: str, **options: Any) -> small_run.SmallRun | None:
        result = real(qrels, run, **options)
        taken.append(result is not None)
        return result

    monkeypatch.setattr(small_run, "evaluate_small", spy)
    return taken


def assert_same_bits(qrels: Path, run: Path) -> None:
    """Every per-query value and summary of the small path equals the numpy path's to the last bit, sign
    included (``repr`` is the shortest text that reads back to the same float), not only to four digits."""
    small = small_run.evaluate_small(str(qrels), str(run))
    assert small is not None
    rows = [r for r in _trec._rows([], 1, 0) if r.kind == "measure"]
    full = evaluate_run(str(qrels), str(run), [r.measure for r in rows])
    assert small.query_ids == list(full.query_ids)
    for r in rows:
        assert list(map(repr, small.values[r.label])) == list(map(repr, full.values[str(r.measure)].tolist())), r.label
        assert repr(small.means[r.label]) == repr(full.means[str(r.measure)]), r.label
