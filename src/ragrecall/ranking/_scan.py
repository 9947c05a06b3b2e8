"""Evaluate a TREC run file block by block, in parallel, without holding the whole run in memory.

The file is cut into blocks of whole queries (a block ends where its last query begins, the rest going to
the next block); each block is parsed by pyarrow and ranked against the judgments in a worker thread, one
per core up to four (pyarrow's parser and numpy's larger operations release the GIL), and only its hits and
depths are kept. This is the path for the common layout: one query's
lines together. When a query turns up in two blocks, a line is malformed, a score is NaN or the separators
are irregular, or gzip data is truncated or corrupt, :func:`scan_run` gives up and the caller reads the file
whole (the plain reader then reports the line at fault).
"""

from __future__ import annotations

import gzip
import importlib
import io
import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

from .._files import GZIP_ERRORS
from ._arrow_read import arrow_csv_options, run_from_arrow, sniff
from ._build import RunPart, rank_part
from ._judged import Judged
from ._vocab import arrow

__all__ = ["scan_run"]

_BLOCK_SIZE = 1 << 23
"""Bytes read per block (a block grows past it only to hold a query longer than that)."""
_WORKERS = 4
"""Most worker threads; fewer on a machine with fewer cores."""


class _NotForThisPath(Exception):
    """The file is not in the layout this path reads; the caller reads it whole."""


def scan_run(path: str | os.PathLike[str], judged: Judged, *, hit_docs: bool = False) -> list[RunPart] | None:
    """Rank the run file at ``path`` against ``judged`` in parts, or None when the file needs the whole-file
    readers (see the module docstring) or pyarrow is not installed.

    Raises:
        InputError: a document is listed twice for one query.
    """
    pa = arrow()
    if pa is None:
        return None
    separator, gz = sniff(path)
    if separator is None:
        return None
    name = os.fspath(path)
    judged.pos_doc_keys  # noqa: B018 - computed here once, not by each worker thread
    workers = max(1, min(_WORKERS, _cores()))
    try:
        with gzip.open(path, "rb") if gz else open(path, "rb", buffering=0) as raw:
            blocks = _blocks(raw, separator.encode())
            if workers == 1:
                ranked = (_rank_block(block, separator, judged, name, hit_docs) for block in blocks)
                return _apart(ranked)
            return _apart(_in_threads(blocks, workers, separator, judged, name, hit_docs))
    except (_NotForThisPath, pa.ArrowInvalid, pa.ArrowNotImplementedError, UnicodeDecodeError, *GZIP_ERRORS):
        return None


def _cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


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


def _in_threads(
    blocks: Iterator[bytearray], workers: int, separator: str, judged: Judged, name: str, hit_docs: bool
) -> Iterator[RunPart]:
    """:func:`_rank_block` over ``blocks`` in ``workers`` threads, in order; at most two blocks per worker are
    held at once."""
    pending: deque[Future[RunPart]] = deque()
    with ThreadPoolExecutor(workers) as pool:
        try:
            for block in blocks:
                if len(pending) >= 2 * workers:
                    yield pending.popleft().result()
                pending.append(pool.submit(_rank_block, block, separator, judged, name, hit_docs))
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()


def _rank_block(block: bytearray, separator: str, judged: Judged, name: str, hit_docs: bool) -> RunPart:
    """Parse one block with pyarrow (in this thread) and rank it."""
    pa = arrow()
    assert pa is not None
    pacsv = importlib.import_module("pyarrow.csv")
    options = arrow_csv_options("run", separator, len(block) + 1, use_threads=False)
    table = pacsv.read_csv(pa.BufferReader(block), **options)
    run = run_from_arrow(table, name)
    if run is None:
        raise _NotForThisPath("a score is NaN")
    return rank_part(judged, run, hit_docs=hit_docs)


def _blocks(raw: io.BufferedIOBase | io.RawIOBase, separator: bytes) -> Iterator[bytearray]:
    """The file's content in blocks of about :data:`_BLOCK_SIZE` bytes, each ending with whole queries.

    A block after the first starts with the newline that ends the block before it: a line at the start of
    a buffer keeps a leading U+FEFF then (pyarrow drops a byte-order mark there), and the empty line is
    skipped."""
    carry = b""
    while True:
        size = max(_BLOCK_SIZE, 2 * len(carry))  # doubles a block that holds one query only
        block = bytearray(size)
        block[: len(carry)] = carry
        filled = len(carry)
        with memoryview(block) as view:
            while filled < size:
                got = raw.readinto(view[filled:])
                if not got:
                    break
                filled += got
        del block[filled:]
        if filled == len(carry):  # end of file
            if carry.strip():
                yield block
            return
        cut = _last_query_start(block, separator) if filled == size else filled
        if cut <= 0:
            carry = bytes(block)
            continue
        carry = bytes(block[cut - 1 :])
        del block[cut:]
        yield block


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
