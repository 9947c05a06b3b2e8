"""One record of a CSV dataset as a Sample: list and mapping cells parsed, a score cell read as a number, a
record with too few or too many cells named (a line break in an unquoted cell ends its record)."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from typing import Any

from ._files import CSV_FIELD_LIMIT
from ._inputs import NESTED_FIELDS, parse_cell
from .errors import FileFormatError, InvalidSampleError
from .schema import Sample

__all__ = ["csv_problem", "csv_record"]


def csv_problem(exc: csv.Error) -> str:
    """What a csv module error means, in words."""
    if "field larger than field limit" in str(exc):
        return f"a CSV cell is longer than {CSV_FIELD_LIMIT // (1024 * 1024)} MiB, the most ragrecall reads"
    return f"malformed CSV: {exc}"


def csv_record(row: Mapping[Any, Any], name: str, line: int) -> Sample:
    """The Sample of the record starting on ``line`` of ``name`` (a row of ``csv.DictReader``).

    Raises:
        FileFormatError: the record has more or fewer cells than the header has columns.
        InvalidSampleError: a cell cannot be read, or the record is not a valid sample.
    """
    where = f"line {line} of {name}"
    if None in row:
        raise FileFormatError("more cells than header columns", path=name, line=line)
    if any(cell is None for cell in row.values()):  # csv's DictReader fills the cells a short record lacks
        cells = sum(cell is not None for cell in row.values())
        raise FileFormatError(
            f"{cells} cells for {len(row)} header columns; a line break in a cell ends the record unless the cell "
            'is quoted ("...")',
            path=name,
            line=line,
        )
    record: dict[str, Any] = {}
    for key, cell in row.items():
        if cell is None or cell == "" or key == "":  # an empty header: the index column of DataFrame.to_csv
            continue
        if key in NESTED_FIELDS:
            record[key] = _cell_value(cell, name, line, key)
        elif key == "human_score":
            record[key] = _number(cell)
        else:
            record[key] = cell
    return Sample.from_dict(record, where=where)


def _number(cell: str) -> float | str:
    """A CSV cell holding a number, as that number; any other text as it is (the Sample's check names it)."""
    try:
        return float(cell)
    except ValueError:
        return cell


def _cell_value(cell: str, name: str, line: int, key: str) -> Any:
    """A list or mapping cell (see :func:`parse_cell`)."""
    try:
        return parse_cell(cell)
    except FileFormatError as exc:
        raise FileFormatError(exc.problem, path=name, line=line) from exc
    except ValueError as exc:
        raise InvalidSampleError(
            f'expected a JSON value or a Python literal in the cell (e.g. ["a", "b"]), got {cell[:60]!r}',
            where=f"line {line} of {name}",
            field=key,
        ) from exc
