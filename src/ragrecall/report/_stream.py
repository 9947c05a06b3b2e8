"""The report of a results file written while it is read, in little memory whatever the number of samples.

The file is read twice. The first pass keeps each row without its inputs (the sections before the samples need
only the results, and the filter each sample's metadata) and where its line starts; the second reads the rows
again one at a time, in the order the Samples section lists them, and writes each sample's part of the page as
it goes. Memory then grows with the results alone, not with the inputs or the page. A compressed file
(``.gz``), which cannot be read at a given place, is read whole instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from .._files import atomic_text
from ..errors import FileFormatError
from ..evaluation import EvaluationResult, RunInfo, SampleRow, read_result_line
from ..results import MetricResult
from ..usage import Usage
from ._page import page_parts, sample_order, write_report

__all__ = ["write_report_from_jsonl"]


def write_report_from_jsonl(
    results: str | os.PathLike[str], path: str | os.PathLike[str], *, title: str = "ragrecall report"
) -> None:
    """Write the report of the results file ``results`` (written by ``EvaluationResult.to_jsonl``) to
    ``path``, atomically; the page is the one :func:`write_report` writes for
    ``EvaluationResult.from_jsonl(results)``.

    Raises:
        FileFormatError: a line is not a result row (naming the file and line).
    """
    name = os.fspath(results)
    if name.endswith(".gz"):
        write_report(EvaluationResult.from_jsonl(name), path, title=title)
        return
    slim, starts, run = _first_pass(name)
    metrics = dict.fromkeys(m for row in slim for m in row.results)
    result = EvaluationResult(
        slim,
        list(metrics),
        wall_time_s=run.wall_time_s if run else 0.0,
        run=run,
        backend=run.backend if run else "live",
    )
    where = {id(row): start for row, start in zip(slim, starts, strict=True)}
    ordered = [where[id(row)] for row in sample_order(result)]
    with atomic_text(path) as out:
        out.writelines(page_parts(result, title=title, ordered_rows=_rows_at(name, ordered)))


def _lines(name: str) -> Iterator[tuple[int, int, str]]:
    """``(line number, offset of its first byte, text)`` for each non-blank line (a leading BOM dropped)."""
    with open(name, "rb") as handle:
        offset = 0
        for line_no, raw in enumerate(handle, start=1):
            start, offset = offset, offset + len(raw)
            text = _decode(raw, name, line_no)
            if line_no == 1:
                text = text.removeprefix("\ufeff")
            if text.strip():
                yield line_no, start, text


def _decode(raw: bytes, name: str, line_no: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileFormatError(
            f"not UTF-8 text ({exc.reason}); save the file as UTF-8", path=name, line=line_no
        ) from exc


def _first_pass(name: str) -> tuple[list[SampleRow], list[tuple[int, int]], RunInfo | None]:
    """Every row without its inputs, where each row's line starts (offset, line number), and the run's
    details."""
    slim: list[SampleRow] = []
    starts: list[tuple[int, int]] = []
    run: RunInfo | None = None
    usages: dict[Usage, Usage] = {}  # equal usages (all zero without an LLM) held once
    for line_no, start, text in _lines(name):
        row, first_run = read_result_line(text, name, line_no, first=not slim, inputs=False)
        if not slim:
            run = first_run
        results = {metric: _slim(r, usages) for metric, r in row.results.items()}
        slim.append(
            SampleRow.model_construct(
                _ROW_FIELDS, index=row.index, sample_id=row.sample_id, results=results, sample=row.sample
            )
        )
        starts.append((start, line_no))
    return slim, starts, run


def _slim(result: MetricResult, usages: dict[Usage, Usage]) -> MetricResult:
    """``result`` (validated) with its evidence reduced to a :class:`_Digest`."""
    fields = {key: getattr(result, key) for key in MetricResult.model_fields}
    if result.evidence is not None:
        fields["evidence"] = _Digest(result.evidence)
    fields["usage"] = usages.setdefault(result.usage, result.usage)
    return MetricResult.model_construct(_RESULT_FIELDS, **fields)


# Every kept row and result sets all its fields: one shared (never changed) set of their names each, instead of
# a set per object.
_ROW_FIELDS: set[str] = set(SampleRow.model_fields)
_RESULT_FIELDS: set[str] = set(MetricResult.model_fields)


_NO_COUNTS: dict[str, int] = {}
"""The counts of evidence that counts nothing: one dict shared by all (never changed)."""


class _Digest:
    """What the sections before the samples read of a result's evidence (its kind, counts, agreement,
    unstable claims, model and prompt versions, where the evidence has them), without the claims, verdicts,
    quotes and matches that only the sample's own part of the page shows."""

    _KEPT = ("agreement", "unstable_claims", "model", "prompt_versions")
    __slots__ = ("_counts", "kind", *_KEPT)  # an attribute the evidence lacks stays unset, as getattr expects

    def __init__(self, evidence: Any) -> None:
        self.kind: str = evidence.kind
        self._counts: dict[str, int] = evidence.counts() or _NO_COUNTS
        for key in self._KEPT:
            if hasattr(evidence, key):
                setattr(self, key, getattr(evidence, key))

    def counts(self) -> dict[str, int]:
        return self._counts


def _rows_at(name: str, starts: list[tuple[int, int]]) -> Iterator[SampleRow]:
    """The rows whose lines start at ``starts`` (offset, line number), in that order, read one at a time."""
    with open(name, "rb") as handle:
        for start, line_no in starts:
            handle.seek(start)
            text = _decode(handle.readline(), name, line_no)
            yield read_result_line(text.removeprefix("\ufeff"), name, line_no, first=False)[0]
