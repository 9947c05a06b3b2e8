"""The plain reader of TREC files: Python over whole chunks, and the definition of what is read (the rules
are in :mod:`.trec_io`'s docstring; the fast reader, :mod:`._arrow_read`, takes only what it reads alike).

Lines whose fields are as expected are split once per chunk of about 8 MB and converted column by column; a
chunk where something is off (blank lines, extra fields, a fault) is gone through line by line, and the first
line at fault, in file order, is the one reported.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .._files import GZIP_ERRORS, gzip_checked, line_too_long, max_line_length
from ..errors import FileFormatError
from ._arrow_read import BOM, QRELS_FIELDS, RUN_FIELDS, run_from_arrow
from ._source import Input
from ._table import Qrels, Run
from ._vocab import arrow, encode_utf8, utf8_table

__all__ = ["parse_grade", "parse_score", "read_plain", "records", "text_field"]

_INT64 = (-(2**63), 2**63 - 1)


_CHUNK = 1 << 23
"""Bytes the plain reader reads at a time."""


def _chunks(given: Input) -> Iterator[tuple[bytes, list[bytes], bool]]:
    """The data of ``given`` in chunks of about :data:`_CHUNK` bytes of whole lines, a byte-order mark at the
    start dropped: each chunk, its lines (ended by LF, CRLF or a lone CR, which ``bytes.splitlines`` knows
    exactly, without their ends), and whether it holds a vertical tab or a form feed (ASCII whitespace that
    ``bytes.split`` would split on, and that is no separator here).

    Raises:
        FileFormatError: truncated or corrupt gzip data, naming the line where it stops; a line longer than
            :func:`~ragrecall._files.max_line_length` bytes, found with at most about twice that held.
    """
    carry = bytearray()  # the start of a line that goes on in the next read
    first = True
    limit = max_line_length()
    lines_before = 0
    with given.open() as handle:
        while True:
            try:
                data = handle.read(min(_CHUNK, limit))  # a line inside one read is within the limit
            except GZIP_ERRORS:
                _find_gzip_failure(given)  # again line by line, to name the line where the data stops
                raise
            if first:
                data, first = data.removeprefix(BOM), False
            if not data:
                if carry:
                    last = bytes(carry)
                    yield last, last.splitlines(), _odd(last)
                return
            cut = data.rfind(b"\n") + 1  # a CR at the end may be half of a CRLF: cut after an LF only
            if cut == 0:
                cut = data.rfind(b"\r", 0, len(data) - 1) + 1  # lines ended by a lone CR
            if cut == 0:
                carry += data
                if len(carry) > limit:
                    raise line_too_long(limit, path=given.name, line=lines_before + 1)
                continue
            if carry and len(carry) + max(data.find(b"\n"), 0) > limit:  # the open line ends in this read
                raise line_too_long(limit, path=given.name, line=lines_before + 1)
            chunk = bytes(carry) + data[:cut] if carry else data[:cut]
            carry = bytearray(data[cut:])
            lines = chunk.splitlines()
            lines_before += len(lines)
            yield chunk, lines, _odd(chunk)


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
    comments = names == QRELS_FIELDS
    for _, lines, odd in _chunks(given):
        for line, fields in zip(lines, _split(lines, odd), strict=True):
            number += 1
            if fields and not (comments and _comment(fields)):
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
        # Judgments may hold comment lines ("#" first, as trec_eval reads them): such chunks go line by line.
        fields = None if odd or (not run and b"#" in chunk) else _aligned(chunk, len(lines), width)
        if fields is not None:  # every line as expected: every (width + 1)-th field of one split of the chunk
            stride = width + 1
            query_column, doc_column, value_column = fields[0::stride], fields[2::stride], fields[at::stride]
            del fields
        else:  # blank lines, extra fields, or a line at fault: line by line
            rows = [r for r in _split(lines, odd) if r and (run or not _comment(r))]
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
        if fields and (run or not _comment(fields)):
            _check_width(fields, line, names, run, given.name, number)
            text_field(fields[0], given.name, number)
            text_field(fields[2], given.name, number)
            if run:
                parse_score(fields[4], given.name, number)
            else:
                parse_grade(fields[3], given.name, number)


def _comment(fields: list[bytes]) -> bool:
    """True for a comment line of judgments: its first field starts with ``#`` (trec_eval skips them)."""
    return fields[0].startswith(b"#")


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
