"""Reading one line of a results file: its row, and on the first line the run's details."""

from __future__ import annotations

from array import array
from typing import Any

from pydantic import BaseModel, Field

from ..errors import FileFormatError
from ..results import MetricResult
from ..schema import Sample
from ._rows import SampleRow
from ._run_info import RunInfo

__all__ = ["SeenRows", "read_result_line", "row_json"]


def row_json(row: SampleRow) -> str:
    """The row as one line of a results file holds it (without the first line's run details): the failure's
    traceback left out."""
    return row.model_dump_json(exclude={"results": {"__all__": {"failure": {"traceback"}}}})


def read_result_line(
    line: str, name: str, line_no: int, *, first: bool, inputs: bool = True
) -> tuple[SampleRow, RunInfo | None]:
    """One line of a results file (see :meth:`EvaluationResult.to_jsonl`): its row, and on the ``first`` row
    the run's details when recorded. ``inputs=False`` reads of the sample its metadata alone (the row's
    ``sample`` then holds only that, or is None when the row has no sample).

    Raises:
        FileFormatError: the line is not a result row (naming the file and line).
    """
    try:
        if inputs:
            row = SampleRow.model_validate_json(line)
        else:
            part = _ResultsOnly.model_validate_json(line)
            sample = None if part.sample is None else Sample.model_construct(_METADATA, metadata=part.sample.metadata)
            row = SampleRow.model_construct(
                index=part.index, sample_id=part.sample_id, results=part.results, sample=sample
            )
        run = _FirstRow.model_validate_json(line).run if first and '"run"' in line else None
    except ValueError as exc:
        raise FileFormatError(f"not a result row: {str(exc).splitlines()[0]}", path=name, line=line_no) from exc
    return row, run


class SeenRows:
    """The rows of one results file read so far, to refuse a sample recorded twice and a file with no row.

    Rows come in increasing index order as a rule, which needs no lookup; the indices are kept (8 bytes a row)
    for the first row that does not, and looked up from then on."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._indices = array("q")
        self._lines = array("q")
        self._where: dict[int, int] | None = None
        """Index → line, built at the first row out of order."""

    def add(self, row: SampleRow, line_no: int) -> None:
        """Note ``row``, read on ``line_no``.

        Raises:
            FileFormatError: an earlier line holds the same sample (naming both lines).
        """
        if self._where is None and self._indices and row.index <= self._indices[-1]:
            self._where = {}
            for index, line in zip(self._indices, self._lines, strict=True):
                self._where.setdefault(index, line)
        first = self._where.setdefault(row.index, line_no) if self._where is not None else line_no
        if first != line_no:
            label = f"sample {row.index}" + (f" (id={row.sample_id!r})" if row.sample_id is not None else "")
            raise FileFormatError(
                f"{label} is recorded on line {first} and again on line {line_no}: a results file holds each "
                "sample once (two runs written to one file?); remove one of the two rows",
                path=self.name,
                line=line_no,
            )
        self._indices.append(row.index)
        self._lines.append(line_no)

    def check_some(self) -> None:
        """Raise FileFormatError when no row was read: an empty results file is no run."""
        if not self._indices:
            raise FileFormatError(
                "the results file holds no result row (it is empty); give the --out file of an eval run",
                path=self.name,
            )


_METADATA: set[str] = {"metadata"}
"""The fields set on a sample read for its metadata alone: one set shared by all of them (never changed)."""


class _MetadataOnly(BaseModel):
    metadata: dict[str, Any] = Field(default_factory=dict)


class _ResultsOnly(BaseModel):
    """A result row read without its sample, but for the sample's metadata."""

    index: int
    sample_id: str | int | None = None
    results: dict[str, MetricResult]
    sample: _MetadataOnly | None = None


class _FirstRow(BaseModel):
    """What the first line of a results file adds to its row: the run's details, when they were recorded."""

    run: RunInfo | None = None
