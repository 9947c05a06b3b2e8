"""Read and write TREC qrels and run files.

Formats (one record per line, fields separated by spaces or tabs, blank lines ignored)::

    qrels:  query_id  iteration  doc_id  grade          e.g.  "301 0 FBIS3-10082 1"
    run:    query_id  Q0  doc_id  rank  score  tag      e.g.  "301 Q0 FBIS3-10082 1 12.5 bm25"

What is read, whichever reader reads it:

- Lines end with ``\\n``, ``\\r\\n`` or a lone ``\\r``. A UTF-8 byte-order mark at the very start of the
  file is dropped (anywhere else it is part of an ID). Fields are separated by runs of spaces and tabs only:
  a non-breaking space, or any other character, is part of the ID it sits in.
- IDs are kept as strings, never parsed as numbers, and must be UTF-8; the other fields may be any bytes.
- A run line has at least 6 fields; fields past the sixth are read past, as trec_eval does. The rank column
  is read past too: the order of a run comes from its scores (see :func:`~ragrecall.ranking.evaluate_run`).
  A qrels line has exactly 4 fields; a qrels line whose first field starts with ``#`` is a comment, skipped
  as trec_eval skips it (runs have no comments).
- A score is a decimal number in ASCII (``12.5``, ``-3``, ``.5``, ``1e-3``, ``2.5E+10``), or ``inf``/
  ``infinity`` with a sign or not, in any case; NaN is refused. A grade is a whole number in ASCII
  (``-1``, ``0``, ``+2``) that fits in 64 bits. Digit separators (``1_000``) are refused.

Sources: a path (gzip data is recognised from its content, whatever the name), ``-`` for standard input, a
pipe or a process substitution (read once, into memory), or a text or binary file object. Malformed lines,
and truncated or corrupt gzip data, raise :class:`~ragrecall.errors.FileFormatError` with the file's name
and the line number. Files are written atomically (a temporary file renamed over the target).

Two readers: a fast one built on pyarrow's CSV reader (:mod:`._arrow_read`) for files whose fields are
separated by single spaces or single tabs, and a plain Python one (:mod:`._plain_read`) for everything else,
which defines what is read: the fast one takes only files it reads to the same table, and hands any other
file (or a malformed line) to the plain one. ``engine="auto"`` and ``engine="arrow"`` try the fast one first;
``"plain"`` skips it. :func:`~ragrecall.ranking.evaluate_run` given a path reads a run in blocks instead
(see :mod:`._scan`), with the same rules.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import IO, Any, Literal

import numpy as np

from .._files import atomic_text
from ..errors import ConfigurationError
from ._arrow_read import read_arrow
from ._order import order as trec_order
from ._plain_read import read_plain
from ._source import open_input, reader_threads
from ._table import Qrels, Run
from ._vocab import arrow, take

__all__ = ["Engine", "read_qrels", "read_run", "write_qrels", "write_run"]

Engine = Literal["auto", "arrow", "plain"]
Source = str | os.PathLike[str] | IO[Any]


def read_run(source: Source, *, engine: Engine = "auto", threads: int | None = None) -> Run:
    """Read a TREC run: a path (``.gz`` too), ``-`` for standard input, a pipe, or a file object.

    Args:
        source: where to read (see the module docstring for what is read).
        engine: ``"auto"`` (the fast reader where it applies), ``"arrow"`` (the same, but pyarrow must be
            installed), ``"plain"``.
        threads: most threads the fast reader uses (default: ``$RAGRECALL_THREADS``, else one per core up
            to four).

    Raises:
        FileFormatError: a line has fewer than 6 fields, its score is not a number or is NaN, an ID is not
            UTF-8, or gzip data is truncated or corrupt.
        ConfigurationError: ``engine="arrow"`` without pyarrow installed, an unknown engine, or ``threads``
            not a whole number >= 1.
    """
    return _read(source, "run", engine, threads)  # type: ignore[return-value]


def read_qrels(source: Source, *, engine: Engine = "auto", threads: int | None = None) -> Qrels:
    """Read TREC judgments (qrels): a path (``.gz`` too), ``-`` for standard input, a pipe, or a file object.

    Arguments as for :func:`read_run`.

    Raises:
        FileFormatError: a line does not have 4 fields, its grade is not a whole number, an ID is not UTF-8,
            or gzip data is truncated or corrupt.
        ConfigurationError: as for :func:`read_run`.
    """
    return _read(source, "qrels", engine, threads)  # type: ignore[return-value]


def _read(source: Source, kind: str, engine: Engine, threads: int | None) -> Qrels | Run:
    if engine not in ("auto", "arrow", "plain"):
        raise ConfigurationError(f"engine must be 'auto', 'arrow' or 'plain', got {engine!r}")
    if engine == "arrow" and arrow() is None:
        raise ConfigurationError("engine='arrow' needs pyarrow: pip install pyarrow")
    workers = reader_threads(threads)
    given = open_input(source)
    if engine != "plain" and arrow() is not None:
        table = read_arrow(given, kind, workers)
        if table is not None:
            return table
    return read_plain(given, kind)


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
