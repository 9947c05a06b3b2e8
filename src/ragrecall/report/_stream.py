"""The report of a results file written while it is read, in little memory whatever the number of samples.

The file is read twice. The first pass keeps each row without its inputs (the sections before the samples need
only the results, and the filter each sample's metadata) and where its line starts; the second reads the rows
again one at a time, in the order the Samples section lists them, and writes each sample's part of the page as
it goes. Memory then grows with the results alone, not with the inputs or the page. A compressed file
(``.gz``), which cannot be read at a given place, is read whole instead.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterator
from typing import Any, cast

from .._files import atomic_text
from ..errors import FileFormatError
from ..evaluation import EvaluationResult, RunInfo, SampleRow, SeenRows, read_result_line
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
        FileFormatError: a line is not a result row (naming the file and line), a sample is recorded on two lines
            (naming both), or the file holds no row.
    """
    name = os.fspath(results)
    if name.endswith(".gz"):
        write_report(EvaluationResult.from_jsonl(name), path, title=title)
        return
    kept, starts, run = _first_pass(name)
    metrics = dict.fromkeys(m for row in kept for m in row.results)
    result = EvaluationResult(
        cast("list[SampleRow]", kept),  # read as rows by the sections before the samples (see _KeptRow)
        list(metrics),
        wall_time_s=run.wall_time_s if run else 0.0,
        run=run,
        backend=run.backend if run else "live",
    )
    position = {id(row): i for i, row in enumerate(kept)}
    ordered = array("q", (position[id(row)] for row in sample_order(result)))
    del position
    with atomic_text(path) as out:
        out.writelines(page_parts(result, title=title, ordered_rows=_rows_at(name, starts, ordered)))


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


def _first_pass(name: str) -> tuple[list[_KeptRow], _Starts, RunInfo | None]:
    """Every row without its inputs (see :class:`_KeptRow`), where each row's line starts, and the run's
    details."""
    kept: list[_KeptRow] = []
    starts = _Starts()
    run: RunInfo | None = None
    shared = _Shared()
    seen = SeenRows(name)
    for line_no, start, text in _lines(name):
        row, first_run = read_result_line(text, name, line_no, first=not kept, inputs=False)
        seen.add(row, line_no)
        if not kept:
            run = first_run
        kept.append(_KeptRow(row, shared))
        starts.add(start, line_no)
    seen.check_some()
    return kept, starts, run


class _Starts:
    """Where each row's line starts: its first byte's offset and its line number, 16 bytes a row."""

    def __init__(self) -> None:
        self.offsets = array("q")
        self.line_numbers = array("q")

    def add(self, offset: int, line_no: int) -> None:
        self.offsets.append(offset)
        self.line_numbers.append(line_no)


class _Shared:
    """What equal kept rows hold once: usages (all zero without an LLM), evidence digests that count nothing,
    the order of a kind's counts and prompt versions (one set per run, as a rule)."""

    def __init__(self) -> None:
        self.usages: dict[Usage, Usage] = {}
        self.digests: dict[str, _Digest] = {}
        self.keys: dict[tuple[str, ...], tuple[str, ...]] = {}
        self.versions: dict[tuple[tuple[str, str], ...], dict[str, str]] = {}

    def prompt_versions(self, value: Any) -> Any:
        """``value``, or an equal mapping of names to versions kept before."""
        if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            return self.versions.setdefault(tuple(value.items()), value)
        return value

    def digest(self, evidence: Any) -> _Digest:
        digest = _Digest(evidence, self)
        if digest.alone():
            return self.digests.setdefault(digest.kind, digest)
        return digest


class _KeptSample:
    """A sample as the sections before the samples read it: its metadata alone."""

    __slots__ = ("metadata",)

    def __init__(self, metadata: dict[str, Any]) -> None:
        self.metadata = metadata


_NO_METADATA = _KeptSample({})
"""The kept sample of every row whose sample has no metadata (never changed)."""


class _KeptResult:
    """A result as the sections before the samples read it: every field of :class:`MetricResult` (validated),
    its evidence reduced to a :class:`_Digest`, in slots rather than a dict per result."""

    __slots__ = tuple(MetricResult.model_fields)

    def __init__(self, result: MetricResult, shared: _Shared) -> None:
        for key in self.__slots__:
            setattr(self, key, getattr(result, key))
        if result.evidence is not None:
            self.evidence = shared.digest(result.evidence)
        self.usage = shared.usages.setdefault(result.usage, result.usage)


class _KeptRow:
    """A row as the sections before the samples read it: index, id, results (as :class:`_KeptResult`) and the
    sample's metadata, in slots. The page takes it for a :class:`SampleRow`: those sections read only these
    fields, and the Samples section reads the rows again, whole."""

    __slots__ = tuple(SampleRow.model_fields)

    def __init__(self, row: SampleRow, shared: _Shared) -> None:
        self.index = row.index
        self.sample_id = row.sample_id
        self.results = {metric: _KeptResult(r, shared) for metric, r in row.results.items()}
        if row.sample is None:
            self.sample: _KeptSample | None = None
        else:
            self.sample = _KeptSample(row.sample.metadata) if row.sample.metadata else _NO_METADATA


class _Digest:
    """What the sections before the samples read of a result's evidence (its kind, counts, agreement,
    unstable claims, model and prompt versions, where the evidence has them), without the claims, verdicts,
    quotes and matches that only the sample's own part of the page shows."""

    _KEPT = ("agreement", "unstable_claims", "model", "prompt_versions")
    # An attribute the evidence lacks stays unset, as getattr expects.
    __slots__ = ("_keys", "_values", "kind", *_KEPT)

    def __init__(self, evidence: Any, shared: _Shared) -> None:
        self.kind: str = evidence.kind
        counts: dict[str, int] = evidence.counts()
        keys = tuple(counts)
        self._keys = shared.keys.setdefault(keys, keys)
        self._values = tuple(counts.values())
        for key in self._KEPT:
            if hasattr(evidence, key):
                value = getattr(evidence, key)
                if key == "prompt_versions":
                    value = shared.prompt_versions(value)
                elif key == "unstable_claims" and not value:
                    value = ()
                setattr(self, key, value)

    def alone(self) -> bool:
        """True when the digest holds its kind alone (no counts, nothing kept): equal to any other such."""
        return not self._keys and not any(hasattr(self, key) for key in self._KEPT)

    def counts(self) -> dict[str, int]:
        return dict(zip(self._keys, self._values, strict=True))


def _rows_at(name: str, starts: _Starts, positions: array[int]) -> Iterator[SampleRow]:
    """The rows at ``positions`` (in the file, from 0), in that order, read one at a time."""
    with open(name, "rb") as handle:
        for i in positions:
            handle.seek(starts.offsets[i])
            line_no = starts.line_numbers[i]
            text = _decode(handle.readline(), name, line_no)
            yield read_result_line(text.removeprefix("\ufeff"), name, line_no, first=False)[0]
