"""What counts as a collection of samples, and how other tables' columns become Sample fields.

A collection is a sequence (or any iterable) of :class:`~ragrecall.schema.Sample` objects or mappings, a pandas
DataFrame, a Hugging Face ``datasets.Dataset`` (or anything with ``to_dicts()``/``to_list()`` rows, such as a
polars DataFrame). The table libraries are recognised by their types' names, so none of them is imported here.
Anything else — one sample, one mapping, a string, a number — is a :class:`TypeError` that says what to pass.
"""

from __future__ import annotations

import ast
import json
import math
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ._files import load_json
from .errors import ConfigurationError
from .schema import Sample

__all__ = [
    "NESTED_FIELDS",
    "ColumnMap",
    "collection_rows",
    "is_table",
    "parse_cell",
    "rename_columns",
    "resolve_column_map",
    "table_record",
]

NESTED_FIELDS = frozenset(
    {
        "retrieved_contexts",
        "reference_contexts",
        "retrieved_context_ids",
        "reference_context_ids",
        "relevance",
        "metadata",
        "reference_claims",
        "reference_nuggets",
        "claim_labels",
    }
)
"""Fields that hold lists or mappings: text cells of tables (CSV) hold them as JSON or Python literals."""

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


def collection_rows(
    data: object, renames: Mapping[str, str] | None = None, *, what: str = "dataset"
) -> Iterator[Sample | Mapping[str, Any]]:
    """The rows of a collection of samples, each a Sample or a mapping with its columns renamed by ``renames``
    (column → field). Rows of tables are read by :func:`table_record`.

    Raises:
        TypeError: ``data`` is not a collection of samples, or an item is neither a Sample nor a mapping; the
            message names the item's index and type and what to pass instead.
    """
    rows = _table_rows(data)
    if rows is not None:
        for row in rows:
            yield table_record(row, renames or {})
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
        yield item if isinstance(item, Sample) or not renames else rename_columns(item, renames)


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


def table_record(row: Mapping[Any, Any], renames: Mapping[str, str]) -> dict[str, Any]:
    """A row of a table (DataFrame, Hugging Face dataset, Parquet or Arrow file) as the record its writer had.

    Empty cells (None, NaN) are left out and columns renamed; then, in list and mapping fields, what the table
    format did to the value is undone: numpy arrays become lists; text (``pd.read_csv``) is read as JSON or a
    Python literal; an Arrow map (a list of key-value pairs) becomes a mapping; an Arrow struct's keys that
    this row did not have (filled with None) are dropped; integral float grades (``2.0``) become integers.
    Anything else is left for the Sample's validation to name.
    """
    cleaned = {str(k): clean_cell(v) for k, v in row.items() if not is_missing(v)}
    record = dict(rename_columns(cleaned, renames))
    for key, value in record.items():
        if key in NESTED_FIELDS:
            record[key] = _unpack(key, value)
    return record


def parse_cell(text: str) -> Any:
    """A list or mapping written as text: JSON, else a Python literal (``['a', 'b']``, as ``DataFrame.to_csv``
    writes it). ``literal_eval`` reads literals only (no names, calls or operators): safe on untrusted text.

    Raises:
        ValueError: the text is neither.
    """
    try:
        return load_json(text, path=None, line=None)
    except json.JSONDecodeError:
        try:
            return ast.literal_eval(text.strip())
        except (ValueError, SyntaxError, MemoryError, RecursionError) as exc:
            raise ValueError(f"neither JSON nor a Python literal: {text[:60]!r}") from exc


def _unpack(field: str, value: Any) -> Any:
    if isinstance(value, str) and value.lstrip()[:1] in ("[", "{"):
        try:
            value = parse_cell(value)
        except ValueError:
            return value
    if field not in ("relevance", "metadata"):
        return value
    if isinstance(value, list) and all(_is_pair(p) for p in value):
        value = dict(_pair(p) for p in value)
    if isinstance(value, Mapping):
        value = {k: v for k, v in value.items() if v is not None}
        if field == "relevance":
            value = {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in value.items()}
    return value


def _is_pair(item: Any) -> bool:
    if isinstance(item, Mapping):
        return set(item) == {"key", "value"}
    return isinstance(item, (tuple, list)) and len(item) == 2


def _pair(item: Any) -> tuple[Any, Any]:
    return (item["key"], item["value"]) if isinstance(item, Mapping) else (item[0], item[1])


def clean_cell(value: Any) -> Any:
    """A table cell as plain Python: numpy arrays and scalars (Parquet, Arrow) become lists and numbers, in
    mappings too."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, dict):
        return {k: clean_cell(v) for k, v in value.items()}
    return value


def is_missing(value: Any) -> bool:
    """True for an empty table cell: None, NaN, or pandas's NA and NaT."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return True
    return type(value).__name__ in ("NAType", "NaTType")


def _table_rows(data: object) -> Iterator[Mapping[str, Any]] | None:
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
    return (dict(row) for row in records)


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
