"""Read and write TREC qrels and run files.

Formats (whitespace-separated, one record per line, blank lines ignored)::

    qrels:  query_id  iteration  doc_id  grade          e.g.  "301 0 FBIS3-10082 1"
    run:    query_id  Q0  doc_id  rank  score  tag      e.g.  "301 Q0 FBIS3-10082 1 12.5 bm25"

IDs are kept as strings, never parsed as numbers. The rank column is read past, never used: the order of a
run comes from its scores (see :func:`~ragrecall.ranking.evaluate_run`). Paths may be gzip-compressed (detected
from the content). A malformed line raises :class:`~ragrecall.errors.FileFormatError` with the path and the
line number.

Two readers: a fast one built on pyarrow's CSV reader (the ``fast`` extra) for files separated by single
spaces or single tabs, and a plain Python one for everything else. ``engine="auto"`` tries the fast one and
falls back to the plain one when pyarrow is missing, the separators are irregular, or a line is malformed
(the plain reader then reports the line). :func:`~ragrecall.ranking.evaluate_run` given a path reads a run
in blocks instead (see :mod:`._scan`), with the same options (:func:`arrow_csv_options`).
"""

from __future__ import annotations

import gzip
import importlib
import io
import math
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import IO, Any, Literal

import numpy as np

from ..errors import ConfigurationError, FileFormatError
from ._order import order as trec_order
from ._table import Qrels, Run
from ._vocab import arrow, arrow_call, arrow_numbers, arrow_strings, arrow_take, encode, take

__all__ = ["Engine", "read_qrels", "read_run", "write_qrels", "write_run"]

Engine = Literal["auto", "arrow", "plain"]
Source = str | os.PathLike[str] | IO[Any]

_RUN_FIELDS = ("query", "q0", "doc", "rank", "score", "tag")
_QRELS_FIELDS = ("query", "iteration", "doc", "grade")
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


def read_run(source: Source, *, engine: Engine = "auto") -> Run:
    """Read a TREC run file (a path, a ``.gz`` path, or a text or binary file object).

    Raises:
        FileFormatError: a line does not have 6 fields, or its score is not a finite-or-infinite number.
        ConfigurationError: ``engine="arrow"`` without pyarrow installed, or an unknown engine.
    """
    return _read(source, "run", engine)  # type: ignore[return-value]


def read_qrels(source: Source, *, engine: Engine = "auto") -> Qrels:
    """Read a TREC qrels file (a path, a ``.gz`` path, or a text or binary file object).

    Raises:
        FileFormatError: a line does not have 4 fields, or its grade is not an integer.
        ConfigurationError: ``engine="arrow"`` without pyarrow installed, or an unknown engine.
    """
    return _read(source, "qrels", engine)  # type: ignore[return-value]


def _read(source: Source, kind: str, engine: Engine) -> Qrels | Run:
    if engine not in ("auto", "arrow", "plain"):
        raise ConfigurationError(f"engine must be 'auto', 'arrow' or 'plain', got {engine!r}")
    if engine == "arrow" and arrow() is None:
        raise ConfigurationError("engine='arrow' needs pyarrow: pip install 'ragrecall[fast]'")
    name = _name(source)
    if engine != "plain" and arrow() is not None:
        table = _read_arrow(source, kind, name)
        if table is not None:
            return table
        if hasattr(source, "seek"):
            source.seek(0)
    return _read_plain(source, kind, name)


def _name(source: Source) -> str | None:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else None


def _is_gzip(path: str | os.PathLike[str]) -> bool:
    with open(path, "rb") as handle:
        return handle.read(2) == b"\x1f\x8b"


@contextmanager
def _binary_lines(source: Source) -> Iterator[Iterator[bytes | str]]:
    if isinstance(source, (str, os.PathLike)):
        opener = gzip.open if _is_gzip(source) else open
        with opener(source, "rb") as handle:
            yield iter(handle)
    else:
        yield iter(source)


# -- plain reader -------------------------------------------------------------------------------------------


def _read_plain(source: Source, kind: str, name: str | None) -> Qrels | Run:
    width = len(_RUN_FIELDS) if kind == "run" else len(_QRELS_FIELDS)
    layout = " ".join(_RUN_FIELDS if kind == "run" else _QRELS_FIELDS)
    queries: list[str] = []
    docs: list[str] = []
    values: list[float] | list[int] = []
    with _binary_lines(source) as lines:
        for number, raw in enumerate(lines, start=1):
            if isinstance(raw, bytes):
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise FileFormatError(f"not valid UTF-8 ({exc.reason})", path=name, line=number) from exc
            else:
                line = raw
            fields = line.split()
            if not fields:
                continue
            if len(fields) != width:
                raise FileFormatError(
                    f"expected {width} fields ({layout}), got {len(fields)}: {line.strip()[:80]!r}",
                    path=name,
                    line=number,
                )
            queries.append(fields[0])
            docs.append(fields[2])
            if kind == "run":
                values.append(_score(fields[4], name, number))  # type: ignore[arg-type]
            else:
                values.append(_grade(fields[3], name, number))
    qcodes, qvocab = encode(queries)
    dcodes, dvocab = encode(docs)
    if kind == "run":
        return Run(qcodes, qvocab, dcodes, dvocab, np.asarray(values, dtype=np.float64), name)
    return Qrels(qcodes, qvocab, dcodes, dvocab, np.asarray(values, dtype=np.int64), name)


def _score(text: str, name: str | None, number: int) -> float:
    try:
        value = float(text)
    except ValueError:
        raise FileFormatError(f"score {text!r} is not a number", path=name, line=number) from None
    if math.isnan(value):
        raise FileFormatError("score is NaN", path=name, line=number)
    return value


def _grade(text: str, name: str | None, number: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise FileFormatError(f"grade {text!r} is not an integer", path=name, line=number) from None


# -- fast reader --------------------------------------------------------------------------------------------


def sniff(source: Source) -> tuple[str | None, bool]:
    """The single-character separator of the first non-blank line (None: irregular), and gzip or not."""
    if isinstance(source, (str, os.PathLike)):
        gz = _is_gzip(source)
        opener = gzip.open if gz else open
        with opener(source, "rb") as handle:
            first = b""
            for first in handle:
                if first.strip():
                    break
    else:
        return None, False
    text = first.rstrip(b"\r\n")
    for sep in (b" ", b"\t"):
        other = b"\t" if sep == b" " else b" "
        if sep in text and other not in text and sep + sep not in text and text == text.strip():
            return sep.decode(), gz
    return None, gz


def _read_arrow(source: Source, kind: str, name: str | None) -> Qrels | Run | None:
    """Read with pyarrow, or return None when this input is not for it (the caller falls back).

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
    fields = _RUN_FIELDS if kind == "run" else _QRELS_FIELDS
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


# -- writers ------------------------------------------------------------------------------------------------


@contextmanager
def _text_out(target: Source) -> Iterator[IO[str]]:
    if isinstance(target, (str, os.PathLike)):
        path = os.fspath(target)
        handle: IO[str] = gzip.open(path, "wt", encoding="utf-8") if path.endswith(".gz") else open(path, "w")  # noqa: SIM115
        with handle:
            yield handle
    elif isinstance(target, io.TextIOBase) or "b" not in getattr(target, "mode", ""):
        yield target
    else:
        wrapper = io.TextIOWrapper(target, encoding="utf-8", write_through=True)
        yield wrapper
        wrapper.detach()


def write_run(run: Run | Mapping[Any, Mapping[Any, float]], target: Source, *, tag: str = "ragrecall") -> None:
    """Write a run in TREC format, queries sorted, each ranked as trec_eval ranks it (rank 1 first).

    Scores are written with full precision (``repr``), so reading the file back gives the same order.
    A path ending in ``.gz`` is compressed.
    """
    table = run if isinstance(run, Run) else Run.from_dict(run)
    if not tag or any(c.isspace() for c in tag):
        raise ConfigurationError(f"tag must be a non-empty string without whitespace, got {tag!r}")
    query_names = take(table.query_vocab, np.arange(len(table.query_vocab)))
    query_rank = np.argsort(np.array(query_names, dtype=object)).argsort()
    query = query_rank[table.query_codes] if len(table) else np.zeros(0, dtype=np.int64)
    scores32 = table.scores.astype(np.float32) + np.float32(0.0)
    permutation = trec_order(query, scores32, table.doc_codes, table.doc_vocab)
    order = np.arange(len(table)) if permutation is None else permutation
    docs = take(table.doc_vocab, table.doc_codes[order])
    queries = take(table.query_vocab, table.query_codes[order])
    scores = table.scores[order].tolist()
    with _text_out(target) as out:
        rank, previous = 0, None
        for q, d, s in zip(queries, docs, scores, strict=True):
            rank = rank + 1 if q == previous else 1
            previous = q
            out.write(f"{q} Q0 {d} {rank} {s!r} {tag}\n")


def write_qrels(qrels: Qrels | Mapping[Any, Mapping[Any, int]], target: Source) -> None:
    """Write judgments in TREC qrels format (``query 0 doc grade``), in the order held."""
    table = qrels if isinstance(qrels, Qrels) else Qrels.from_dict(qrels)
    queries = take(table.query_vocab, table.query_codes)
    docs = take(table.doc_vocab, table.doc_codes)
    with _text_out(target) as out:
        for q, d, g in zip(queries, docs, table.grades.tolist(), strict=True):
            out.write(f"{q} 0 {d} {g}\n")
