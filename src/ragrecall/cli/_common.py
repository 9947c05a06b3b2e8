"""Small pieces more than one command uses."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the LLM stack loads only for the commands that use it
    from ..evaluation import EvaluationResult


def one_line(exc: BaseException) -> str:
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    if isinstance(exc, OSError) and exc.strerror and exc.filename:
        return f"{exc.strerror}: {exc.filename}"
    return " ".join(str(exc).split()) or type(exc).__name__


def print_rows(result: EvaluationResult) -> None:
    width = max([len(str(row.sample_id)) for row in result.rows] + [6])
    cols = [max(len(m), 7) for m in result.metrics]
    print("sample".ljust(width) + "  " + "  ".join(m.rjust(w) for m, w in zip(result.metrics, cols, strict=True)))
    for row in result.rows:
        cells = []
        for m, w in zip(result.metrics, cols, strict=True):
            r = row.results[m]
            cells.append((f"{r.value:.3f}" if r.value is not None else r.status).rjust(w))
        print(str(row.sample_id).ljust(width) + "  " + "  ".join(cells))
