"""Evaluate a TREC run file block by block, in parallel, without holding the whole run in memory.

The calling thread reads the file (decompressing gzip) and cuts it into blocks of whole queries (a block
ends where its last query begins, the rest going to the next block). Worker threads parse the blocks with
pyarrow, one per core up to four unless told otherwise (``threads``, ``$RAGRECALL_THREADS``; pyarrow's
parser releases the GIL), and the calling thread ranks each parsed block against the judgments as it
arrives, in file order, keeping only its hits and depths. Ranking is many short numpy calls that hold the
GIL between them: in one thread it does not contend with itself, and it overlaps the parsing of the next
blocks. The judgments are read once the first blocks are in the workers' hands (with one thread, or a file
of one block, before any block is parsed). This is the path for the common layout: one query's lines
together. When a query turns up in two blocks, a line is malformed, a score is NaN, the separators are
irregular (see :func:`~._arrow_read.parse_block`), a line ends with a lone carriage return, or gzip data is
truncated or corrupt, :func:`scan_run` gives up and the caller reads the file whole (the plain reader then
reports the line at fault).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from contextlib import closing

from .._files import GZIP_ERRORS
from ._arrow_read import Layout, NotForArrow, parse_block, run_from_arrow, sniff
from ._build import RunPart, rank_part
from ._judged import Judged
from ._source import LineTooLong, blocks, in_threads, open_input, reader_threads
from ._table import Run
from ._vocab import arrow

__all__ = ["scan_run"]

_BLOCK_SIZE = 1 << 23
"""Most bytes read per block (a block grows past it only to hold a query longer than that)."""
_LEAST_BLOCK = 1 << 21
"""Fewest bytes per block: a file gets about 16 blocks between the two bounds. Small blocks cut the peak
memory; large ones keep per-block costs small, which count since one thread ranks every block (5,000
queries x 100 documents in-process: blocks of 1.5, 2 and 3 MiB took 0.87-0.89, 0.85-0.87 and 0.86-0.91 of
the time of 1 MiB blocks; 2 MiB peaked at 118-123 MB, 4 MiB at 127-131)."""


class _NotForThisPath(Exception):
    """The file is not in the layout this path reads; the caller reads it whole."""


_FALLBACKS: tuple[type[Exception], ...] = (_NotForThisPath, NotForArrow, LineTooLong, UnicodeDecodeError, *GZIP_ERRORS)
"""What hands a run file back to the whole-file readers (with pyarrow's ``ArrowInvalid`` and
``ArrowNotImplementedError``)."""


def scan_run(
    path: str | os.PathLike[str],
    judgments: Callable[[], Judged],
    *,
    hit_docs: bool = False,
    threads: int | None = None,
) -> list[RunPart] | None:
    """Rank the run file at ``path`` in parts, parsed by at most ``threads`` worker threads (see
    :func:`~._source.reader_threads`) and ranked in this thread; or None when the file needs the whole-file
    readers (see the module docstring), is not a regular file (a pipe is read once, by those readers), cannot
    be opened (those readers report it), or pyarrow is not installed.

    ``judgments`` gives the judgments to rank against. It is called at most once, in this thread, once the
    first blocks are in the workers' hands: the judgments are read while those blocks are parsed. Its errors
    propagate as they are. It is not called when the file is handed back before its first blocks are read.

    Raises:
        InputError: a document is listed twice for one query.
        ConfigurationError: ``threads`` is not a whole number >= 1.
    """
    workers = reader_threads(threads)
    pa = arrow()
    name = os.fspath(path)
    if pa is None or name == "-" or not _regular(name):
        return None
    try:
        source = open_input(name)
    except OSError:
        return None
    layout = sniff(source, "run")
    if layout is None:
        return None
    separator = layout.separator
    judged: Judged | None = None
    reading = False  # while set, an error is the judgments': it propagates as it is

    def read_judgments() -> None:
        nonlocal judged, reading
        reading = True
        judged = judgments()
        reading = False

    def parse(block: bytearray) -> Run:
        return _parse_block(block, layout, name)

    def rank(run: Run) -> RunPart:
        assert judged is not None  # in_threads calls read_judgments before handing back a parsed block
        return rank_part(judged, run, hit_docs=hit_docs)

    fallbacks = (*_FALLBACKS, pa.ArrowInvalid, pa.ArrowNotImplementedError)
    try:
        with source.open() as raw:
            size = min(_BLOCK_SIZE, max(source.size() * (4 if source.gz else 1) // 16, _LEAST_BLOCK))
            parts = blocks(raw, size, lambda block: _last_query_start(block, separator.encode()))
            # One block parsing per worker and one parsed ahead of the ranking: two per worker were no faster,
            # and raised the peak (121-127 MB against 118-124 at 5,000 x 100). The workers have ended when the
            # with block does.
            runs = in_threads(parse, parts, workers, started=read_judgments, held=workers + 1)
            with closing(runs):
                return _apart(map(rank, runs))
    except fallbacks:
        if reading:
            raise
        return None


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _apart(parts: Iterator[RunPart]) -> list[RunPart]:
    """The parts, checked as they arrive to hold distinct queries (else the file's layout is not for this
    path, and reading stops there)."""
    seen: set[str] = set()
    out: list[RunPart] = []
    for part in parts:
        if not seen.isdisjoint(part.query_ids):
            raise _NotForThisPath("a query's lines are apart")
        seen.update(part.query_ids)
        out.append(part)
    return out


def _parse_block(block: bytearray, layout: Layout, name: str) -> Run:
    """Parse one block with pyarrow (in this thread)."""
    if b"\r" in block and block.count(b"\r") != block.count(b"\r\n"):  # a lone CR ends a line the cut missed
        raise _NotForThisPath("a line ends with a lone carriage return")
    run = run_from_arrow(parse_block(block, "run", layout), name)
    if run is None:
        raise _NotForThisPath("a score is NaN")
    return run


def _last_query_start(buffer: bytearray, separator: bytes) -> int:
    """Where the lines of the last query with a whole line in ``buffer`` begin (0: no other query before it,
    or no whole line). Assumes a query's lines are together (:func:`scan_run` checks that as parts arrive):
    the last query's lines then end the buffer, and a binary search over line starts finds the first."""
    end = buffer.rfind(b"\n")
    while end > 0 and _blank(buffer, buffer.rfind(b"\n", 0, end) + 1):  # blank lines at the end
        end = buffer.rfind(b"\n", 0, end)
    if end <= 0:
        return 0
    hi = buffer.rfind(b"\n", 0, end) + 1  # a line of the last query
    last = _query_at(buffer, hi, separator)
    lo = _non_blank(buffer, 0, hi)  # a line of another query, once checked
    if lo >= hi or _query_at(buffer, lo, separator) == last:
        return 0
    while True:
        line = buffer.rfind(b"\n", 0, (lo + hi) // 2) + 1
        if line <= lo:
            line = buffer.find(b"\n", lo) + 1
        line = _non_blank(buffer, line, hi)
        if line >= hi:
            return hi
        if _query_at(buffer, line, separator) == last:
            hi = line
        else:
            lo = line


def _blank(buffer: bytearray, line: int) -> bool:
    stop = buffer.find(b"\n", line)
    return not buffer[line : len(buffer) if stop < 0 else stop].strip()


def _non_blank(buffer: bytearray, line: int, limit: int) -> int:
    """The first line start at or after ``line`` whose line is not blank (``limit`` at most)."""
    while line < limit and _blank(buffer, line):
        line = buffer.find(b"\n", line) + 1
    return min(line, limit)


def _query_at(buffer: bytearray, line: int, separator: bytes) -> bytes:
    """The first field of the (not blank) line starting at ``line``."""
    stop = buffer.find(b"\n", line)
    end = buffer.find(separator, line, len(buffer) if stop < 0 else stop)
    if end <= line:
        raise _NotForThisPath("a line starts with a separator, or has one field")
    return bytes(buffer[line:end])
