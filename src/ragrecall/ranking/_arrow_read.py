"""The fast reader of TREC files: pyarrow's CSV reader, for files separated by single spaces or single tabs."""

from __future__ import annotations

import gzip
import importlib
import os
from typing import IO, Any

import numpy as np

from .._files import GZIP_ERRORS
from ._table import Qrels, Run
from ._vocab import arrow, arrow_call, arrow_numbers, arrow_strings, arrow_take

__all__ = ["QRELS_FIELDS", "RUN_FIELDS", "arrow_csv_options", "is_gzip", "read_arrow", "run_from_arrow", "sniff"]

Source = str | os.PathLike[str] | IO[Any]

RUN_FIELDS = ("query", "q0", "doc", "rank", "score", "tag")
QRELS_FIELDS = ("query", "iteration", "doc", "grade")
_BLOCK_SIZE = (1 << 20, 1 << 24)
"""Least and most bytes per block of the pyarrow reader. Blocks are parsed in parallel, each giving one chunk
of columns: small files get about 8 blocks, large ones few enough that per-chunk costs stay small."""


def _block_size(source: Source, gz: bool) -> int:
    low, high = _BLOCK_SIZE
    try:
        size = os.path.getsize(source) * (4 if gz else 1)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return high
    return int(min(max(size // 8, low), high))


def is_gzip(path: str | os.PathLike[str]) -> bool:
    with open(path, "rb") as handle:
        return handle.read(2) == b"\x1f\x8b"


def sniff(source: Source) -> tuple[str | None, bool]:
    """The single-character separator of the first non-blank line (None: irregular, or gzip data that ends
    before it: the plain reader then names the line), and gzip or not."""
    if isinstance(source, (str, os.PathLike)):
        gz = is_gzip(source)
        opener = gzip.open if gz else open
        try:
            with opener(source, "rb") as handle:
                first = b""
                for first in handle:
                    if first.strip():
                        break
        except GZIP_ERRORS:
            return None, gz
    else:
        return None, False
    text = first.rstrip(b"\r\n")
    for sep in (b" ", b"\t"):
        other = b"\t" if sep == b" " else b" "
        if sep in text and other not in text and sep + sep not in text and text == text.strip():
            return sep.decode(), gz
    return None, gz


def read_arrow(source: Source, kind: str, name: str | None) -> Qrels | Run | None:
    """Read with pyarrow, or return None when this input is not for it (the caller falls back; truncated or
    corrupt gzip data is left for the plain reader to report with its line).

    IDs are read as strings in parallel blocks. Query IDs are encoded by runs of equal adjacent values (files
    are grouped by query), so only one value per run is hashed. Document IDs of judgments are dictionary
    encoded; those of a run are kept one per row (see :attr:`Run.distinct_doc_codes`).
    """
    pa = arrow()
    assert pa is not None
    pacsv = importlib.import_module("pyarrow.csv")

    separator, gz = sniff(source)
    if separator is None:
        return None
    try:
        stream = pa.input_stream(os.fspath(source), compression="gzip" if gz else None)  # type: ignore[arg-type]
        with stream:
            table = pacsv.read_csv(stream, **arrow_csv_options(kind, separator, _block_size(source, gz)))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, UnicodeDecodeError):
        return None
    except OSError:
        if gz:
            return None
        raise
    if kind == "run":
        run = run_from_arrow(table, name)
        _release(pa)
        return run
    queries, docs, values = table.column("query"), table.column("doc"), table.column("grade")
    qcodes, qvocab = _grouped_codes(pa, queries)
    dcodes, dvocab = _dictionary_codes(pa, docs)
    return Qrels(qcodes, qvocab, dcodes, dvocab, arrow_numbers(values, np.int64), name)


def arrow_csv_options(kind: str, separator: str, block_size: int, *, use_threads: bool = True) -> dict[str, Any]:
    """Keyword arguments of ``pyarrow.csv.read_csv`` for a TREC run or qrels file: IDs as strings, the
    score (float) or grade (integer), nothing quoted, no value read as null."""
    pa = arrow()
    assert pa is not None
    pacsv = importlib.import_module("pyarrow.csv")
    fields = RUN_FIELDS if kind == "run" else QRELS_FIELDS
    value = "score" if kind == "run" else "grade"
    return {
        "read_options": pacsv.ReadOptions(column_names=list(fields), block_size=block_size, use_threads=use_threads),
        "parse_options": pacsv.ParseOptions(
            delimiter=separator, quote_char=False, double_quote=False, escape_char=False
        ),
        "convert_options": pacsv.ConvertOptions(
            column_types={
                "query": pa.string(),
                "doc": pa.string(),
                value: pa.float64() if kind == "run" else pa.int64(),
            },
            include_columns=["query", "doc", value],
            null_values=[],
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
        ),
    }


def run_from_arrow(table: Any, name: str | None) -> Run | None:
    """A :class:`Run` over a table read with :func:`arrow_csv_options`, or None when a score is NaN (the
    plain reader then reports the line)."""
    pa = arrow()
    queries, docs, values = table.column("query"), table.column("doc"), table.column("score")
    del table  # columns are released one by one below, keeping the peak memory low
    qcodes, qvocab = _grouped_codes(pa, queries)
    del queries
    scores = arrow_numbers(values, np.float64)
    del values
    if np.isnan(scores).any():
        return None
    rows = np.arange(len(scores), dtype=np.int32)
    return Run(qcodes, qvocab, rows, docs, scores, name, distinct_doc_codes=False)


def _release(pa: Any) -> None:
    """Hand the memory of the dropped columns back to the system (pyarrow's allocator keeps it otherwise)."""
    release = getattr(pa.default_memory_pool(), "release_unused", None)
    if release is not None:
        release()


def _dictionary_codes(pa: Any, column: Any) -> tuple[np.ndarray[Any, np.dtype[np.int32]], Any]:
    if len(column) == 0:
        return np.zeros(0, dtype=np.int32), arrow_strings([])
    if hasattr(column, "combine_chunks"):
        column = column.combine_chunks()
    encoded = arrow_call("dictionary_encode", column)
    return arrow_numbers(encoded.indices, np.int32), encoded.dictionary


def _grouped_codes(pa: Any, column: Any) -> tuple[np.ndarray[Any, np.dtype[np.int32]], Any]:
    """Codes and vocabulary of a string column, hashing one value per run of equal adjacent values."""
    n = len(column)
    if n == 0:
        return np.zeros(0, dtype=np.int32), arrow_strings([])
    change = arrow_call("indices_nonzero", arrow_call("not_equal", column.slice(1), column.slice(0, n - 1)))
    heads = np.concatenate(([0], arrow_numbers(change, np.uint64).astype(np.int64) + 1))
    codes, vocab = _dictionary_codes(pa, arrow_take(column, heads))
    lengths = np.diff(np.append(heads, n))
    return np.repeat(codes, lengths), vocab
