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
  A qrels line has exactly 4 fields.
- A score is a decimal number in ASCII (``12.5``, ``-3``, ``.5``, ``1e-3``, ``2.5E+10``), or ``inf``/
  ``infinity`` with a sign or not, in any case; NaN is refused. A grade is a whole number in ASCII
  (``-1``, ``0``, ``+2``) that fits in 64 bits. Digit separators (``1_000``) are refused.

Sources: a path (gzip data is recognised from its content, whatever the name), ``-`` for standard input, a
pipe or a process substitution (read once, into memory), or a text or binary file object. Malformed lines,
and truncated or corrupt gzip data, raise :class:`~ragrecall.errors.FileFormatError` with the file's name
and the line number. Files are written atomically (a temporary file renamed over the target).

Two readers: a fast one built on pyarrow's CSV reader (:mod:`._arrow_read`) for files whose fields are
separated by single spaces or single tabs, and a plain Python one for everything else, which defines what is
read: the fast one takes only files it reads to the same table, and hands any other file (or a malformed
line) to the plain one. ``engine="auto"`` and ``engine="arrow"`` try the fast one first; ``"plain"`` skips
it. :func:`~ragrecall.ranking.evaluate_run` given a path reads a run in blocks instead (see :mod:`._scan`),
with the same rules.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import IO, Any, Literal

import numpy as np
from numpy.typing import NDArray

from .._files import GZIP_ERRORS, atomic_text, gzip_checked
from ..errors import ConfigurationError, FileFormatError
from ._arrow_read import BOM, QRELS_FIELDS, RUN_FIELDS, read_arrow, run_from_arrow
from ._order import order as trec_order
from ._source import Input, open_input, reader_threads
from ._table import Qrels, Run
from ._vocab import arrow, encode_utf8, take, utf8_table

__all__ = ["Engine", "read_qrels", "read_run", "write_qrels", "write_run"]

Engine = Literal["auto", "arrow", "plain"]
Source = str | os.PathLike[str] | IO[Any]

_INT64 = (-(2**63), 2**63 - 1)


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


# -- plain reader -------------------------------------------------------------------------------------------


_CHUNK = 1 << 23
"""Bytes the plain reader reads at a time."""


def _chunks(given: Input) -> Iterator[tuple[bytes, list[bytes], bool]]:
    """The data of ``given`` in chunks of about :data:`_CHUNK` bytes of whole lines, a byte-order mark at the
    start dropped: each chunk, its lines (ended by LF, CRLF or a lone CR, which ``bytes.splitlines`` knows
    exactly, without their ends), and whether it holds a vertical tab or a form feed (ASCII whitespace that
    ``bytes.split`` would split on, and that is no separator here).

    Raises:
        FileFormatError: truncated or corrupt gzip data, naming the line where it stops.
    """
    carry = b""
    first = True
    with given.open() as handle:
        while True:
            try:
                data = handle.read(max(_CHUNK, len(carry)))
            except GZIP_ERRORS:
                _find_gzip_failure(given)  # again line by line, to name the line where the data stops
                raise
            if first:
                data, first = data.removeprefix(BOM), False
            if not data:
                if carry:
                    yield carry, carry.splitlines(), _odd(carry)
                return
            data = carry + data
            cut = data.rfind(b"\n") + 1  # a CR at the end may be half of a CRLF: cut after an LF only
            if cut == 0:
                carry = data
                continue
            chunk, carry = data[:cut], data[cut:]
            yield chunk, chunk.splitlines(), _odd(chunk)


def _odd(data: bytes) -> bool:
    return b"\x0b" in data or b"\x0c" in data


def _find_gzip_failure(given: Input) -> None:
    """Raise the FileFormatError of truncated or corrupt gzip data, naming the line where it stops."""
    with given.open() as handle:
        for _ in gzip_checked(handle, given.name):
            pass


def _split(lines: list[bytes], odd: bool) -> list[list[bytes]]:
    """Each line's fields: split on runs of spaces and tabs."""
    if odd:
        return [[f for f in line.replace(b"\t", b" ").split(b" ") if f] for line in lines]
    return [line.split() for line in lines]


def _check_width(
    fields: list[bytes], line: bytes, names: tuple[str, ...], more: bool, name: str | None, number: int
) -> None:
    n, width = len(fields), len(names)
    if n != width and (n < width or not more):
        shown = line.decode("utf-8", "replace").strip()[:80]
        expected = f"at least {width}" if more else str(width)
        raise FileFormatError(
            f"expected {expected} fields ({' '.join(names)}), got {n}: {shown!r}", path=name, line=number
        )


def records(given: Input, names: tuple[str, ...], *, more: bool = False) -> Iterator[tuple[int, list[bytes]]]:
    """The line number and fields of each non-blank line of ``given``, which must have one field per name
    (``more``: at least that many, the rest read past). Fields are split on spaces and tabs only.

    Raises:
        FileFormatError: a line has another number of fields, or gzip data is truncated or corrupt.
    """
    number = 0
    for _, lines, odd in _chunks(given):
        for line, fields in zip(lines, _split(lines, odd), strict=True):
            number += 1
            if fields:
                _check_width(fields, line, names, more, given.name, number)
                yield number, fields


def text_field(field: bytes, name: str | None, number: int) -> str:
    """An ID field as text.

    Raises:
        FileFormatError: it is not UTF-8.
    """
    try:
        return field.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"not valid UTF-8 ({exc.reason})", path=name, line=number) from exc


def read_plain(given: Input, kind: str) -> Qrels | Run:
    """Read ``given`` in Python: the definition of what is read (see the module docstring).

    Each chunk of lines is split and converted column by column; a chunk where something is wrong is gone
    through again line by line, to report the first line at fault.
    """
    name = given.name
    run = kind == "run"
    names = RUN_FIELDS if run else QRELS_FIELDS
    width = len(names)
    at = 4 if run else 3
    queries: list[bytes] = []
    docs: list[bytes] = []
    values: list[NDArray[Any]] = []
    base = 0
    for chunk, lines, odd in _chunks(given):
        fields = None if odd else _aligned(chunk, len(lines), width)
        if fields is not None:  # every line as expected: every (width + 1)-th field of one split of the chunk
            stride = width + 1
            query_column, doc_column, value_column = fields[0::stride], fields[2::stride], fields[at::stride]
            del fields
        else:  # blank lines, extra fields, or a line at fault: line by line
            rows = [r for r in _split(lines, odd) if r]
            if rows and (min(map(len, rows)) < width or (not run and max(map(len, rows)) > width)):
                _check_lines(lines, odd, base, given, kind)
            query_column, doc_column, value_column = [r[0] for r in rows], [r[2] for r in rows], [r[at] for r in rows]
            del rows
        queries += query_column
        docs += doc_column
        if not (chunk.isascii() or _utf8(chunk, query_column, doc_column)):
            _check_lines(lines, odd, base, given, kind)  # names the first line at fault, in file order
        if not _convert(value_column, run, values, b"_" in chunk):
            _check_lines(lines, odd, base, given, kind)
        base += len(lines)
    numbers = np.concatenate([np.zeros(0, dtype=np.float64 if run else np.int64), *values])
    if run and arrow() is not None:  # as the fast reader builds it: one document ID per row, not encoded
        table = utf8_table(queries, docs, numbers)
        if table is None:
            _find_bad_utf8(given, run)
            raise AssertionError("unreachable: an ID is not UTF-8")  # pragma: no cover
        built = run_from_arrow(table, name)
        assert built is not None  # NaN scores were refused above
        return built
    query_ids, doc_ids = encode_utf8(queries), encode_utf8(docs)
    del queries, docs
    if query_ids is None or doc_ids is None:
        _find_bad_utf8(given, run)
        raise AssertionError("unreachable: an ID is not UTF-8")  # pragma: no cover
    if run:
        return Run(*query_ids, *doc_ids, numbers, name)
    return Qrels(*query_ids, *doc_ids, numbers, name)


_END = b"\x00"
"""Marks the end of each line in :func:`_aligned`'s split."""


def _aligned(chunk: bytes, n_lines: int, width: int) -> list[bytes] | None:
    """The fields of the ``n_lines`` lines of ``chunk`` in one list, each line's ``width`` fields followed by a
    marker, when every line has exactly ``width`` fields; else None (blank lines included). One split of the
    whole chunk costs half of splitting it line by line, and makes no list per line."""
    if _END in chunk:
        return None
    marked = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if not marked.endswith(b"\n"):
        marked += b"\n"
    fields = marked.replace(b"\n", b" " + _END + b" ").split()
    stride = width + 1
    if len(fields) != n_lines * stride or fields[width::stride].count(_END) != n_lines:
        return None  # a marker out of place: some line has another number of fields
    return fields


def _utf8(chunk: bytes, *columns: list[bytes]) -> bool:
    """Whether the IDs of ``columns`` are UTF-8 (the other fields of ``chunk`` may be any bytes)."""
    try:
        chunk.decode("utf-8")
        return True
    except UnicodeDecodeError:
        pass
    try:
        for column in columns:
            for value in column:
                value.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _convert(column: list[bytes], run: bool, out: list[NDArray[Any]], underscores: bool) -> bool:
    """Append ``column`` as scores (``run``) or grades to ``out``; False when one of them is refused (the
    caller then finds which, line by line). ``underscores``: whether the chunk holds any."""
    try:
        if run:
            numbers = np.fromiter(map(float, column), dtype=np.float64, count=len(column))
            if np.isnan(numbers).any():
                return False
        else:
            numbers = np.fromiter(map(int, column), dtype=np.int64, count=len(column))
    except (ValueError, OverflowError):
        return False
    if underscores and b"_" in b" ".join(column):  # Python reads digit separators; the format has none
        return False
    out.append(numbers)
    return True


def _check_lines(lines: list[bytes], odd: bool, base: int, given: Input, kind: str) -> None:
    """Go through ``lines`` (numbered from ``base + 1``) one by one; raise the error of the first bad one."""
    run = kind == "run"
    names = RUN_FIELDS if run else QRELS_FIELDS
    for number, (line, fields) in enumerate(zip(lines, _split(lines, odd), strict=True), start=base + 1):
        if fields:
            _check_width(fields, line, names, run, given.name, number)
            text_field(fields[0], given.name, number)
            text_field(fields[2], given.name, number)
            if run:
                parse_score(fields[4], given.name, number)
            else:
                parse_grade(fields[3], given.name, number)


def _find_bad_utf8(given: Input, run: bool) -> None:
    """Raise the FileFormatError of the first ID that is not UTF-8, with its line."""
    for number, fields in records(given, RUN_FIELDS if run else QRELS_FIELDS, more=run):
        text_field(fields[0], given.name, number)
        text_field(fields[2], given.name, number)


def parse_score(text: bytes, name: str | None, number: int) -> float:
    """A score field as a number (see the module docstring).

    Raises:
        FileFormatError: it is not a number, or is NaN.
    """
    try:
        if b"_" in text:
            raise ValueError(text)
        value = float(text)  # bytes: ASCII only, so no other script's digits
    except ValueError:
        shown = text.decode("utf-8", "replace")
        raise FileFormatError(f"score {shown!r} is not a number", path=name, line=number) from None
    if math.isnan(value):
        raise FileFormatError("score is NaN", path=name, line=number)
    return value


def parse_grade(text: bytes, name: str | None, number: int) -> int:
    """A grade field as a whole number (see the module docstring).

    Raises:
        FileFormatError: it is not a whole number in ASCII, or does not fit in 64 bits.
    """
    shown = text.decode("utf-8", "replace")
    try:
        if b"_" in text:
            raise ValueError(text)
        value = int(text)
    except ValueError:
        raise FileFormatError(f"grade {shown!r} is not an integer", path=name, line=number) from None
    if not _INT64[0] <= value <= _INT64[1]:
        raise FileFormatError(f"grade {shown!r} does not fit in 64 bits", path=name, line=number)
    return value


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
