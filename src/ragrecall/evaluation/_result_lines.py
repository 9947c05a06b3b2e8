"""Reading one line of a results file: its row, and on the first line the run's details."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ..errors import FileFormatError
from ..results import MetricResult
from ..schema import Sample
from ._rows import SampleRow
from ._run_info import RunInfo

__all__ = ["read_result_line", "row_json"]


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
