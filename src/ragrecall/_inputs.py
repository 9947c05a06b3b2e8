"""What counts as a collection of samples, and how other tables' columns become Sample fields.

A collection is a sequence (or any iterable) of :class:`~ragrecall.schema.Sample` objects or mappings, a pandas
DataFrame, a Hugging Face ``datasets.Dataset`` (or anything with ``to_dicts()``/``to_list()`` rows, such as a
polars DataFrame). The table libraries are recognised by their types' names, so none of them is imported here.
Anything else — one sample, one mapping, a string, a number — is a :class:`TypeError` that says what to pass.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from .errors import ConfigurationError
from .schema import Sample

__all__ = ["ColumnMap", "collection_rows", "is_table", "rename_columns", "resolve_column_map"]

ColumnMap = Mapping[str, str]
"""Your column name → Sample field (``{"question": "user_input"}``); Ragas's direction, field → column
(``{"user_input": "question"}``), is understood too. A column mapped to ``metadata`` is kept in the sample's
metadata under its own name (columns that are not fields go there anyway; the map keeps one whose name is
one edit away from a field, such as ``references``, from being taken for a typo)."""

_WHAT_TO_PASS = (
    "pass a list of Samples or dicts, a Dataset, a pandas DataFrame or a Hugging Face datasets.Dataset "
    "(for a file: Dataset.load(path), or the path itself to evaluate)"
)


def is_table(data: object) -> bool:
    """True for a pandas DataFrame or a Hugging Face / polars table: rows are read with :func:`collection_rows`."""
    return _table_rows(data) is not None


def collection_rows(data: object, *, what: str = "dataset") -> Iterator[Sample | Mapping[str, Any]]:
    """The rows of a collection of samples, each a Sample or a mapping (table cells cleaned: NaN and None
    left out, numpy arrays and scalars turned into lists and numbers).

    Raises:
        TypeError: ``data`` is not a collection of samples, or an item is neither a Sample nor a mapping; the
            message names the item's index and type and what to pass instead.
    """
    rows = _table_rows(data)
    if rows is not None:
        yield from rows
        return
    if isinstance(data, Sample):
        raise TypeError(f"the {what} is one Sample, not a collection of them: wrap it in a list ([sample])")
    if isinstance(data, Mapping):
        keys = list(data)[:3]
        if keys and all(isinstance(data[k], (list, tuple)) for k in keys):
            raise TypeError(
                f"the {what} is a mapping of columns: pass pandas.DataFrame(columns) or datasets.Dataset.from_dict"
                "(columns), or a list of records"
            )
        raise TypeError(f"the {what} is one mapping, not a collection of records: wrap it in a list ([record])")
    if isinstance(data, (str, bytes)) or not isinstance(data, Iterable):
        raise TypeError(f"the {what} is a {type(data).__name__}; {_WHAT_TO_PASS}")
    for index, item in enumerate(data):
        if not isinstance(item, (Sample, Mapping)):
            raise TypeError(
                f"item {index} of the {what} is a {type(item).__name__} ({_short(item)}), not a Sample or a "
                f"mapping of fields; {_WHAT_TO_PASS}"
            )
        yield item


def resolve_column_map(column_map: ColumnMap | None) -> dict[str, str]:
    """``column_map`` as column → field, whichever way round it was given.

    Raises:
        ConfigurationError: a pair names no Sample field, or two columns map onto one field.
    """
    if not column_map:
        return {}
    if not isinstance(column_map, Mapping):
        raise ConfigurationError(f"column_map must map column names to Sample fields, got {type(column_map).__name__}")
    fields = Sample.model_fields
    out: dict[str, str] = {}
    for key, value in column_map.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise ConfigurationError(f"column_map must map strings to strings, got {key!r}: {value!r}")
        if value in fields:
            column, target = key, value
        elif key in fields:  # Ragas's direction: field → column
            column, target = value, key
        else:
            raise ConfigurationError(
                f"column_map {key!r}: {value!r} names no Sample field; the fields are {', '.join(fields)}"
            )
        if target in out.values() and target != "metadata":
            raise ConfigurationError(f"column_map maps two columns onto the field {target!r}")
        out[column] = target
    return out


def rename_columns(row: Mapping[str, Any], renames: Mapping[str, str]) -> Mapping[str, Any]:
    """``row`` with its keys renamed by ``renames`` (column → field); other keys kept. Columns renamed to
    ``metadata`` go into the row's metadata mapping under their own names."""
    if not renames:
        return row
    out: dict[str, Any] = {}
    kept: dict[str, Any] = {}
    for key, value in row.items():
        target = renames.get(key, key)
        if target == "metadata" and key != "metadata":
            kept[key] = value
        else:
            out[target] = value
    if kept:
        given = out.get("metadata")
        out["metadata"] = {**given, **kept} if isinstance(given, Mapping) else kept if given is None else given
    return out


def clean_cell(value: Any) -> Any:
    """A table cell as plain Python: numpy arrays and scalars (Parquet, Arrow) become lists and numbers."""
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


def is_missing(value: Any) -> bool:
    """True for an empty table cell: None, NaN, or pandas's NA and NaT."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return True
    return type(value).__name__ in ("NAType", "NaTType")


def _table_rows(data: object) -> Iterator[dict[str, Any]] | None:
    module = type(data).__module__.split(".")[0]
    name = type(data).__name__
    records: Iterable[Mapping[str, Any]]
    if module == "pandas" and name == "DataFrame":
        records = data.to_dict(orient="records")  # type: ignore[attr-defined]
    elif module == "datasets" and name in ("DatasetDict", "IterableDatasetDict"):
        splits = ", ".join(repr(k) for k in data)  # type: ignore[attr-defined]
        raise TypeError(f"the data is a DatasetDict of splits ({splits}): pass one split, e.g. data['train']")
    elif module == "datasets" and hasattr(data, "to_list"):
        records = data.to_list()
    elif module == "datasets" and isinstance(data, Iterable):  # an IterableDataset: rows are dicts
        records = data
    elif module == "polars" and hasattr(data, "to_dicts"):
        records = data.to_dicts()
    else:
        return None
    return ({str(k): clean_cell(v) for k, v in row.items() if not is_missing(v)} for row in records)


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
