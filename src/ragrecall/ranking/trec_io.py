"""Read and write TREC qrels and run files.

Formats (whitespace-separated, one record per line, blank lines ignored)::

    qrels:  query_id  iteration  doc_id  grade          e.g.  "301 0 FBIS3-10082 1"
    run:    query_id  Q0  doc_id  rank  score  tag      e.g.  "301 Q0 FBIS3-10082 1 12.5 bm25"

IDs are kept as strings, never parsed as numbers. The rank column is read past, never used: the order of a
run comes from its scores (see :func:`~ragrecall.ranking.evaluate_run`). Paths may be gzip-compressed (detected
from the content). A malformed line, or truncated or corrupt gzip data, raises
:class:`~ragrecall.errors.FileFormatError` with the path and the line number. Files are written atomically (a
temporary file renamed over the target).

Two readers: a fast one built on pyarrow's CSV reader (the ``fast`` extra, :mod:`._arrow_read`) for files
separated by single spaces or single tabs, and a plain Python one for everything else. ``engine="auto"``
tries the fast one and falls back to the plain one when pyarrow is missing, the separators are irregular,
or a line is malformed (the plain reader then reports the line). :func:`~ragrecall.ranking.evaluate_run`
given a path reads a run in blocks instead (see :mod:`._scan`), with the same reading options.
"""

from __future__ import annotations

import gzip
import io
import math
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import IO, Any, Literal

import numpy as np

from .._files import atomic_text, gzip_checked
from ..errors import ConfigurationError, FileFormatError
from ._arrow_read import QRELS_FIELDS, RUN_FIELDS, is_gzip, read_arrow
from ._order import order as trec_order
from ._table import Qrels, Run
from ._vocab import arrow, encode, take

__all__ = ["Engine", "read_qrels", "read_run", "write_qrels", "write_run"]

Engine = Literal["auto", "arrow", "plain"]
Source = str | os.PathLike[str] | IO[Any]


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
        table = read_arrow(source, kind, name)
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


@contextmanager
def _binary_lines(source: Source) -> Iterator[Iterator[bytes | str]]:
    if isinstance(source, (str, os.PathLike)):
        opener = gzip.open if is_gzip(source) else open
        with opener(source, "rb") as handle:
            yield gzip_checked(handle, os.fspath(source))
    else:
        yield iter(source)


# -- plain reader -------------------------------------------------------------------------------------------


def _read_plain(source: Source, kind: str, name: str | None) -> Qrels | Run:
    width = len(RUN_FIELDS) if kind == "run" else len(QRELS_FIELDS)
    layout = " ".join(RUN_FIELDS if kind == "run" else QRELS_FIELDS)
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
            if not fields or (kind == "qrels" and line.startswith("#")):  # trec_eval skips qrels comment lines
                continue
            if len(fields) != width and not (kind == "run" and len(fields) > width):  # extra run fields: ignored
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


# -- writers ------------------------------------------------------------------------------------------------


@contextmanager
def _text_out(target: Source) -> Iterator[IO[str]]:
    if isinstance(target, (str, os.PathLike)):
        with atomic_text(target) as handle:
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
    A path ending in ``.gz`` is compressed; a path is written atomically, never left half-written.
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
    """Write judgments in TREC qrels format (``query 0 doc grade``), in the order held; a path is written
    atomically, and compressed when it ends in ``.gz``."""
    table = qrels if isinstance(qrels, Qrels) else Qrels.from_dict(qrels)
    queries = take(table.query_vocab, table.query_codes)
    docs = take(table.doc_vocab, table.doc_codes)
    with _text_out(target) as out:
        for q, d, g in zip(queries, docs, table.grades.tolist(), strict=True):
            out.write(f"{q} 0 {d} {g}\n")
