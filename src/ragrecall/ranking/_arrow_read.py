"""The fast reader of TREC files: pyarrow's CSV reader, for lines whose fields are separated by single spaces
or single tabs.

It reads only what the plain reader (:mod:`.trec_io`) would read the same way; it hands anything else back
(returns None) for the plain reader to read or to report with its line number. Blocks of whole lines are
parsed in parallel, in a bounded number of threads, and checked: the other separator, or an empty field
(two separators in a row, a separator at the start or end of a line) sends the file to the plain reader, so
that every line pyarrow takes splits into the fields the plain reader would find.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._files import GZIP_ERRORS, max_line_length
from ._source import Input, LineTooLong, after_last_line, blocks, in_threads
from ._table import Qrels, Run
from ._vocab import arrow, arrow_call, arrow_numbers, arrow_strings, arrow_take, memory_pool

__all__ = [
    "BOM",
    "QRELS_FIELDS",
    "RUN_FIELDS",
    "Layout",
    "NotForArrow",
    "arrow_csv_options",
    "parse_block",
    "read_arrow",
    "run_from_arrow",
    "sniff",
]

RUN_FIELDS = ("query", "q0", "doc", "rank", "score", "tag")
QRELS_FIELDS = ("query", "iteration", "doc", "grade")
BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte-order mark, dropped at the start of a file (and only there) by both readers."""
_BLOCK_SIZE = (1 << 20, 1 << 24)
"""Least and most bytes per block of the pyarrow reader. Blocks are parsed in parallel, each giving one chunk
of columns: small files get about 8 blocks, large ones few enough that per-chunk costs stay small."""


class NotForArrow(Exception):
    """The data is not in the layout the fast reader takes; the plain reader reads it."""


@dataclass(frozen=True)
class Layout:
    """How the lines of a file are laid out: one separator, and fields per line."""

    separator: str
    width: int


def _block_size(source: Input) -> int:
    low, high = _BLOCK_SIZE
    size = source.size() * (4 if source.gz else 1)
    return int(min(max(size // 8, low), high))


def sniff(source: Input, kind: str) -> Layout | None:
    """The layout of the first non-blank line, or None when it is not for pyarrow: irregular separators, a
    field count the plain reader refuses (qrels: not 4; runs: fewer than 6), or gzip data that ends before
    it (the plain reader then names the line)."""
    first = b""
    limit = max_line_length()
    try:
        with source.open() as handle:
            while True:  # read with a bound: a first line longer than the limit is left to the plain reader
                first = handle.readline(limit + 1)
                if not first or first.strip():
                    break
    except GZIP_ERRORS:
        return None
    text = first.removeprefix(BOM).split(b"\r")[0].rstrip(b"\n")
    for sep in (b" ", b"\t"):
        other = b"\t" if sep == b" " else b" "
        if sep in text and other not in text and sep + sep not in text and text == text.strip(b" \t"):
            width = text.count(sep) + 1
            fits = width >= len(RUN_FIELDS) if kind == "run" else width == len(QRELS_FIELDS)
            return Layout(sep.decode(), width) if fits else None
    return None


def parse_block(block: bytearray, kind: str, layout: Layout) -> Any:
    """Parse ``block`` (whole lines) with pyarrow in this thread: a table of the ID columns and the score or
    grade.

    Raises:
        NotForArrow: a line holds the other separator, or a field is empty (two separators in a row, or one
            at a line's start or end): the plain reader, which splits on runs of spaces and tabs, would find
            other fields.
        pyarrow.ArrowInvalid: a line has another number of fields, a value does not convert, an ID is not UTF-8.
    """
    pa = arrow()
    assert pa is not None
    pacsv = importlib.import_module("pyarrow.csv")
    if (b"\t" if layout.separator == " " else b" ") in block:
        raise NotForArrow("both separators")
    if kind == "qrels" and b"#" in block:
        raise NotForArrow("a comment line, perhaps")  # the plain reader skips judgments' comment lines
    value = "score" if kind == "run" else "grade"
    if _empty_field(block, ord(layout.separator)):
        raise NotForArrow("an empty field")
    options = arrow_csv_options(kind, layout.separator, len(block) + 1, use_threads=False, width=layout.width)
    options["convert_options"].include_columns = ["query", "doc", value]  # the fields between are only counted
    table = pacsv.read_csv(pa.BufferReader(block), **options, memory_pool=memory_pool())
    # An empty ID is found by its length; an empty last field (a line ending with a separator) by
    # _empty_field, an empty field between by two separators in a row; an empty value does not convert.
    if len(table) and any(_shortest(table.column(name)) == 0 for name in ("query", "doc")):
        raise NotForArrow("an empty field")
    return table


def _empty_field(block: bytearray, separator: int) -> bool:
    """Whether two ``separator`` bytes are next to each other somewhere in ``block``, or a separator ends a
    line (before a line break, ``\\n`` or ``\\r``, or at the end of the block): compared as 16-bit words at
    even and at odd offsets, which is four times faster than searching for pairs of bytes."""
    end = len(block)
    while end and block[end - 1] in b"\r\n":
        end -= 1
    if end and block[end - 1] == separator:
        return True
    words = [separator * 0x101, separator | ord("\n") << 8]
    if b"\r" in block:
        words.append(separator | ord("\r") << 8)
    for offset in (0, 1):
        count = (len(block) - offset) // 2
        if count > 0:
            pairs = np.frombuffer(block, np.uint16, count=count, offset=offset)
            if any(bool((pairs == word).any()) for word in words):
                return True
    return False


def _shortest(column: Any) -> int:
    """The length of the shortest value of a string or binary column."""
    least = None
    for chunk in getattr(column, "chunks", [column]):
        if len(chunk):
            offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32, count=len(chunk) + 1, offset=chunk.offset * 4)
            shortest = int(np.diff(offsets).min())
            least = shortest if least is None else min(least, shortest)
    return 0 if least is None else least


def read_arrow(source: Input, kind: str, threads: int) -> Qrels | Run | None:
    """Read with pyarrow in at most ``threads`` threads, or return None when this input is not for it (the
    caller falls back; truncated or corrupt gzip data is left for the plain reader to report with its line).

    IDs are read as strings. Query IDs are encoded by runs of equal adjacent values (files are grouped by
    query), so only one value per run is hashed. Document IDs of judgments are dictionary encoded; those of a
    run are kept one per row (see :attr:`Run.distinct_doc_codes`).
    """
    pa = arrow()
    assert pa is not None
    layout = sniff(source, kind)
    if layout is None:
        return None

    def parse(block: bytearray) -> Any:
        return parse_block(block, kind, layout)

    try:
        with source.open() as raw:
            tables = list(in_threads(parse, blocks(raw, _block_size(source), after_last_line), threads))
    except (NotForArrow, LineTooLong, pa.ArrowInvalid, pa.ArrowNotImplementedError, UnicodeDecodeError, *GZIP_ERRORS):
        return None
    table = pa.concat_tables(tables) if tables else _empty(pa, kind)
    del tables
    if kind == "run":
        run = run_from_arrow(table, source.name)
        _release(pa)
        return run
    queries, docs, values = table.column("query"), table.column("doc"), table.column("grade")
    qcodes, qvocab = _grouped_codes(pa, queries)
    dcodes, dvocab = _dictionary_codes(pa, docs)
    return Qrels(qcodes, qvocab, dcodes, dvocab, arrow_numbers(values, np.int64), source.name)


def _empty(pa: Any, kind: str) -> Any:
    value = ("score", pa.float64()) if kind == "run" else ("grade", pa.int64())
    return pa.table({"query": arrow_strings([]), "doc": arrow_strings([]), value[0]: pa.array([], type=value[1])})


def arrow_csv_options(
    kind: str, separator: str, block_size: int, *, use_threads: bool = True, width: int | None = None
) -> dict[str, Any]:
    """Keyword arguments of ``pyarrow.csv.read_csv`` for a TREC run or qrels file of ``width`` fields per line
    (the format's own by default): IDs as strings, the score (float) or grade (integer), the other fields as
    bytes, nothing quoted, no value read as null."""
    pa = arrow()
    assert pa is not None
    pacsv = importlib.import_module("pyarrow.csv")
    fields = list(RUN_FIELDS if kind == "run" else QRELS_FIELDS)
    fields += [f"extra{i}" for i in range(len(fields), width or len(fields))]
    value = "score" if kind == "run" else "grade"
    types = dict.fromkeys(fields, pa.binary())  # read (to find empty fields), not decoded: any bytes
    types.update(query=pa.string(), doc=pa.string())
    types[value] = pa.float64() if kind == "run" else pa.int64()
    return {
        "read_options": pacsv.ReadOptions(column_names=fields, block_size=block_size, use_threads=use_threads),
        "parse_options": pacsv.ParseOptions(
            delimiter=separator, quote_char=False, double_quote=False, escape_char=False
        ),
        "convert_options": pacsv.ConvertOptions(
            column_types=types, null_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False
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
