"""A Dataset is an ordered list of Samples, with loaders (records, JSONL, CSV, pandas, Hugging Face datasets)
and writers (JSONL, CSV, pandas).

Loaders validate every record and raise :class:`~ragrecall.errors.InvalidSampleError` naming the record
(line number, row or index, plus its ``id``), the field and what was expected; malformed file syntax raises
:class:`~ragrecall.errors.FileFormatError` with the line number. So do the limits of what is read: truncated
or corrupt gzip data, JSON nested deeper than 64 levels, and CSV cells over 64 MiB (see :mod:`._files`).
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, overload

from ._csv_records import csv_problem, csv_record
from ._extras import need
from ._files import atomic_text, bounded_lines, csv_field_limit, gzip_checked, load_json
from ._inputs import (
    NESTED_FIELDS,
    ColumnMap,
    collection_rows,
    rename_columns,
    resolve_column_map,
    table_record,
)
from .errors import FileFormatError
from .schema import Sample

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Dataset", "EvaluationDataset", "flat_records", "metadata_columns", "open_text", "text_lines"]

PathLike = str | os.PathLike[str]


class Dataset(Sequence[Sample]):
    """An ordered, immutable collection of validated :class:`Sample` objects.

    ``Dataset(samples)`` takes Samples or dicts, a pandas DataFrame or a Hugging Face ``datasets.Dataset``
    (``EvaluationDataset(samples=[...])`` in Ragas's spelling). ``column_map`` renames columns to Sample fields
    (``{"question": "user_input"}``; Ragas's direction ``{"user_input": "question"}`` is understood too).

    Raises:
        TypeError: ``samples`` is not a collection of samples (one sample, a path, a number...), naming what
            to pass instead.
        InvalidSampleError: a record is not a valid sample, naming its index (``record 3``), id and field.
    """

    __slots__ = ("_samples",)

    def __init__(self, samples: object = (), *, column_map: ColumnMap | None = None) -> None:
        renames = resolve_column_map(column_map)
        self._samples: tuple[Sample, ...] = tuple(
            s if isinstance(s, Sample) else Sample.from_dict(s, where=f"record {i}")
            for i, s in enumerate(collection_rows(samples, renames))
        )

    # -- loaders --------------------------------------------------------------------------------------

    @classmethod
    def from_records(cls, records: Iterable[Mapping[str, Any]], *, column_map: ColumnMap | None = None) -> Dataset:
        """Build from dicts; a bad record raises naming its index (``record 3``) and id."""
        return cls(records, column_map=column_map)

    @classmethod
    def from_list(cls, records: Iterable[Mapping[str, Any]], *, column_map: ColumnMap | None = None) -> Dataset:
        """Ragas spelling of :meth:`from_records`."""
        return cls(records, column_map=column_map)

    @classmethod
    def from_hf_dataset(cls, dataset: Any, *, column_map: ColumnMap | None = None) -> Dataset:
        """Build from a Hugging Face ``datasets.Dataset`` whose columns are Sample fields (or renamed by
        ``column_map``); None cells mean absent."""
        return cls(dataset, column_map=column_map)

    @classmethod
    def from_jsonl(cls, source: PathLike | IO[str], *, column_map: ColumnMap | None = None) -> Dataset:
        """Read one JSON object per line (``.gz`` paths are decompressed); blank lines are skipped."""
        renames = resolve_column_map(column_map)
        name, handle = open_text(source)
        samples: list[Sample] = []
        try:
            for line_no, line in enumerate(text_lines(handle, name), start=1):
                if not line.strip():
                    continue
                try:
                    record = load_json(line, path=name, line=line_no)
                except json.JSONDecodeError as exc:
                    raise FileFormatError(
                        f"invalid JSON: {exc.msg} (column {exc.colno})", path=name, line=line_no
                    ) from exc
                if not isinstance(record, dict):
                    raise FileFormatError(
                        f"expected a JSON object per line, got {type(record).__name__}", path=name, line=line_no
                    )
                samples.append(Sample.from_dict(rename_columns(record, renames), where=f"line {line_no} of {name}"))
        finally:
            if handle is not source:
                handle.close()
        return cls(samples)

    @classmethod
    def from_csv(cls, source: PathLike | IO[str], *, column_map: ColumnMap | None = None) -> Dataset:
        """Read a CSV file with a header row of field names (or columns renamed by ``column_map``).

        Cells of list and mapping fields hold JSON (``["a", "b"]``) or Python literals (``['a', 'b']``, as
        ``DataFrame.to_csv`` writes them); an empty cell means the field is absent, and a column with an
        empty header (the index ``DataFrame.to_csv`` writes) is left out. A cell may hold up to 64 MiB
        (:data:`~ragrecall._files.CSV_FIELD_LIMIT`); a quoted cell may hold line breaks, read as they are, while
        a line break in an unquoted cell ends its record (an error naming it). Errors name the line where the
        record starts.
        """
        renames = resolve_column_map(column_map)
        name, handle = open_text(source, newline="")
        samples: list[Sample] = []
        try:
            reader = csv.DictReader(text_lines(handle, name))
            start = 2  # line of the first record, after the header
            with csv_field_limit():
                try:
                    for row in reader:
                        samples.append(csv_record(rename_columns(row, renames), name, start))
                        start = reader.line_num + 1
                except csv.Error as exc:
                    raise FileFormatError(csv_problem(exc), path=name, line=start) from exc
        finally:
            if handle is not source:
                handle.close()
        return cls(samples)

    @classmethod
    def from_pandas(cls, frame: pd.DataFrame, *, column_map: ColumnMap | None = None) -> Dataset:
        """Build from a DataFrame whose columns are Sample fields (or renamed by ``column_map``); NaN/None cells
        mean absent."""
        return cls(frame, column_map=column_map)

    @classmethod
    def load(cls, path: PathLike, *, column_map: ColumnMap | None = None) -> Dataset:
        """Read a ``.jsonl``/``.json`` (one object per line) or ``.csv`` file, optionally ``.gz``-compressed, a
        ``.parquet`` file (``DataFrame.to_parquet``) or a folder written by Hugging Face ``Dataset.save_to_disk``
        (these two need pyarrow: the ``fast`` extra)."""
        from ._columnar import is_hf_folder, read_hf_folder, read_parquet

        if is_hf_folder(path):
            return cls(_table_records(read_hf_folder(path), column_map))
        suffixes = [s.lower() for s in Path(path).suffixes]
        if suffixes and suffixes[-1] == ".gz":
            suffixes = suffixes[:-1]
        kind = suffixes[-1] if suffixes else ""
        if kind in (".jsonl", ".json", ".ndjson"):
            return cls.from_jsonl(path, column_map=column_map)
        if kind == ".csv":
            return cls.from_csv(path, column_map=column_map)
        if kind == ".parquet" and suffixes == [s.lower() for s in Path(path).suffixes]:
            return cls(_table_records(read_parquet(path), column_map))
        raise FileFormatError(
            f"unknown dataset format {kind or '(no suffix)'!r}; expected .jsonl, .csv, .parquet or a Hugging Face "
            "dataset folder (save_to_disk)",
            path=str(path),
        )

    # -- writers --------------------------------------------------------------------------------------

    def to_records(self) -> list[dict[str, Any]]:
        """The samples as plain dicts, absent fields left out."""
        return [s.to_dict() for s in self._samples]

    def to_list(self) -> list[dict[str, Any]]:
        """Ragas spelling of :meth:`to_records`."""
        return self.to_records()

    def columns(self) -> list[str]:
        """The fields that some sample has, in the order of the Sample fields."""
        present: set[str] = set()
        for record in self.to_records():
            present.update(record)
        return [f for f in Sample.model_fields if f in present]

    def to_csv(self, target: PathLike | IO[str]) -> None:
        """Write a CSV file that :meth:`from_csv` reads back: a header of the fields some sample has, list and
        mapping fields as JSON in their cells, absent fields as empty cells. A path is written atomically."""
        fields = self.columns()
        rows = (
            {k: json.dumps(v, ensure_ascii=False) if k in NESTED_FIELDS else v for k, v in record.items()}
            for record in self.to_records()
        )
        if isinstance(target, (str, os.PathLike)):
            with atomic_text(target, newline="") as out:
                _write_csv(out, fields, rows)
        else:
            _write_csv(target, fields, rows)

    def to_jsonl(self, target: PathLike | IO[str]) -> None:
        """Write one JSON object per line (UTF-8, non-ASCII kept as is); ``.gz`` paths are compressed.

        A path is written atomically (a temporary file renamed over it): never half a file."""
        lines = (json.dumps(record, ensure_ascii=False) + "\n" for record in self.to_records())
        if isinstance(target, (str, os.PathLike)):
            with atomic_text(target) as out:
                out.writelines(lines)
        else:
            target.writelines(lines)

    def to_pandas(self) -> pd.DataFrame:
        """A DataFrame with one row per sample and one column per field that some sample has (requires
        pandas); :meth:`from_pandas` reads it back."""
        pandas = need("pandas", "pandas", "to_pandas()")
        records, columns = flat_records(self._samples)
        frame: pd.DataFrame = pandas.DataFrame(records, columns=columns)
        return frame

    def to_hf_dataset(self) -> Any:
        """A Hugging Face ``datasets.Dataset`` of :meth:`to_records` (requires the ``hf`` extra), a column per
        field some sample has;
        :meth:`from_hf_dataset` reads it back."""
        datasets = need("datasets", "hf", "to_hf_dataset()")
        # Every row carries every column (None where absent): from_list takes its columns from the first row.
        columns = self.columns()
        return datasets.Dataset.from_list([{c: r.get(c) for c in columns} for r in self.to_records()])

    @classmethod
    def from_dict(cls, mapping: Iterable[Mapping[str, Any]], *, column_map: ColumnMap | None = None) -> Dataset:
        """Ragas spelling of :meth:`from_records` (Ragas's ``from_dict`` takes a list of records too)."""
        return cls(mapping, column_map=column_map)

    def features(self) -> list[str]:
        """The fields of the first sample (Ragas's ``features``); :meth:`columns` gives those of every sample."""
        return self._samples[0].get_features() if self._samples else []

    # -- sequence protocol ----------------------------------------------------------------------------

    @property
    def samples(self) -> list[Sample]:
        """The samples, as a list (Ragas's ``EvaluationDataset.samples``)."""
        return list(self._samples)

    def __len__(self) -> int:
        return len(self._samples)

    @overload
    def __getitem__(self, index: int) -> Sample: ...
    @overload
    def __getitem__(self, index: slice) -> Dataset: ...
    def __getitem__(self, index: int | slice) -> Sample | Dataset:
        if isinstance(index, slice):
            return type(self)(self._samples[index])
        return self._samples[index]

    def __iter__(self) -> Iterator[Sample]:
        return iter(self._samples)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dataset) and self._samples == other._samples

    def __hash__(self) -> int:
        return id(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(features={self.features()}, len={len(self)})"


class EvaluationDataset(Dataset):
    """Ragas's name for :class:`Dataset`: the same collection (equal to a Dataset of the same samples), built
    by the same constructors, so that a migrated script's ``type(dataset).__name__`` stays ``EvaluationDataset``."""

    __slots__ = ()


def metadata_columns(samples: Iterable[Sample | None], taken: Iterable[str] = ()) -> dict[str, str]:
    """The samples' metadata keys, in order of first appearance, each with the column that shows it in a flat
    table: the key itself, or ``metadata.<key>`` when a field or a name in ``taken`` already holds it."""
    used = {*Sample.model_fields, *taken}
    keys: dict[str, None] = {}
    for sample in samples:
        if sample is not None:
            keys.update(dict.fromkeys(sample.metadata))
    return {k: f"metadata.{k}" if k in used else k for k in keys}


def flat_records(samples: Sequence[Sample | None], taken: Iterable[str] = ()) -> tuple[list[dict[str, Any]], list[str]]:
    """Rows for a table: each sample's fields (``id`` and those some sample has, in field order), then one
    column per metadata key (see :func:`metadata_columns`), as the user's own table had them; a None sample
    gives an empty row."""
    meta = metadata_columns(samples, taken)
    records: list[dict[str, Any]] = []
    present: set[str] = set()
    for sample in samples:
        record = {} if sample is None else sample.to_dict()
        metadata = record.pop("metadata", {})
        present.update(record)
        record.update({column: metadata.get(key) for key, column in meta.items() if key in metadata})
        records.append(record)
    fields = [f for f in Sample.model_fields if f in present]
    return records, fields + list(meta.values())


"""Ragas spelling of :class:`Dataset`."""


def open_text(source: PathLike | IO[str], newline: str | None = None) -> tuple[str, IO[str]]:
    """A display name and a UTF-8 text handle for a path (``.gz`` decompressed) or an open stream.

    The caller closes the handle when it is not ``source`` itself.
    """
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        # utf-8-sig: files saved by Excel and Windows tools start with a byte-order mark.
        if path.endswith(".gz"):
            return path, io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig", newline=newline)
        return path, open(path, encoding="utf-8-sig", newline=newline)
    return getattr(source, "name", None) or "<stream>", source


def text_lines(handle: IO[str], name: str) -> Iterator[str]:
    """The lines of ``handle``; a byte-order mark is dropped, and undecodable bytes, truncated gzip data or a
    line longer than the limit (:func:`~ragrecall._files.bounded_lines`) raise FileFormatError."""
    try:
        for line_no, line in enumerate(gzip_checked(bounded_lines(handle, name), name), start=1):
            yield line.removeprefix("\ufeff") if line_no == 1 else line
    except UnicodeDecodeError as exc:
        raise FileFormatError(
            f"not UTF-8 text ({exc.reason}); save the file as UTF-8", path=name, line=_bad_utf8_line(name)
        ) from exc


def _bad_utf8_line(name: str) -> int | None:
    # The decoder fails on a whole buffered chunk, so the line is found again in the raw bytes.
    if name.endswith(".gz") or not os.path.isfile(name):
        return None
    with open(name, "rb") as raw:
        data = raw.read()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return data.count(b"\n", 0, exc.start) + 1
    return None


def _table_records(rows: list[dict[str, Any]], column_map: ColumnMap | None) -> list[dict[str, Any]]:
    """Rows of a columnar file as records (see :func:`table_record`)."""
    renames = resolve_column_map(column_map)
    return [table_record(row, renames) for row in rows]


def _write_csv(out: IO[str], fields: list[str], rows: Iterable[Mapping[str, Any]]) -> None:
    writer = csv.DictWriter(out, fieldnames=fields)
    writer.writeheader()
    writer.writerows(rows)
