"""Evaluate a TREC run file block by block, on every core, without holding the whole run in memory.

The file is cut into blocks of whole queries (a block ends where its last query begins, the rest going to
the next block); each block is parsed by pyarrow and ranked against the judgments in a worker thread (both
release the GIL), and only its hits and depths are kept. This is the path for the common layout: one query's
lines together. When a query turns up in two blocks, a line is malformed, a score is NaN or the separators
are irregular, :func:`scan_run` gives up and the caller reads the file whole (the plain reader then reports
the line at fault).
"""

from __future__ import annotations

import gzip
import importlib
import io
import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

from ._build import RunPart, rank_part
from ._judged import Judged
from ._vocab import arrow
from .trec_io import arrow_csv_options, run_from_arrow, sniff

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
    workers = max(1, min(_WORKERS, os.cpu_count() or 1))
    parts: list[RunPart] = []
    try:
        with gzip.open(path, "rb") if gz else open(path, "rb", buffering=0) as raw:
            blocks = _blocks(raw, separator.encode())
            if workers == 1:
                parts = [_rank_block(block, separator, judged, name, hit_docs) for block in blocks]
            else:
                parts = _in_threads(blocks, workers, separator, judged, name, hit_docs)
    except (_NotForThisPath, pa.ArrowInvalid, pa.ArrowNotImplementedError, UnicodeDecodeError):
        return None
    if sum(len(p.query_ids) for p in parts) != len(set().union(*(p.query_ids for p in parts))):
        return None  # a query's lines are not together
    return parts


def _in_threads(
    blocks: Iterator[bytearray], workers: int, separator: str, judged: Judged, name: str, hit_docs: bool
) -> list[RunPart]:
    parts: list[RunPart] = []
    pending: deque[Future[RunPart]] = deque()
    with ThreadPoolExecutor(workers) as pool:
        try:
            for block in blocks:
                if len(pending) >= 2 * workers:  # bounds the blocks held in memory
                    parts.append(pending.popleft().result())
                pending.append(pool.submit(_rank_block, block, separator, judged, name, hit_docs))
            while pending:
                parts.append(pending.popleft().result())
        finally:
            for future in pending:
                future.cancel()
    return parts


def _rank_block(block: bytearray, separator: str, judged: Judged, name: str, hit_docs: bool) -> RunPart:
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
    """The file's content in blocks of about :data:`_BLOCK_SIZE` bytes, each ending with whole queries."""
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
        carry = bytes(block[cut:])
        del block[cut:]
        yield block


def _last_query_start(buffer: bytearray, separator: bytes) -> int:
    """Where the lines of the last query with a whole line in ``buffer`` begin (0: at the start, or no whole
    line). Assumes a query's lines are together (:func:`scan_run` checks that afterwards): the last query's
    lines then end the buffer, and a binary search over line starts finds the first of them."""
    end = buffer.rfind(b"\n")
    while end > 0 and not buffer[buffer.rfind(b"\n", 0, end) + 1 : end].strip():  # blank lines at the end
        end = buffer.rfind(b"\n", 0, end)
    if end <= 0:
        return 0
    hi = buffer.rfind(b"\n", 0, end) + 1  # a line of the last query
    last = _query_at(buffer, hi, separator)
    lo = 0  # a line of another query
    if _query_at(buffer, lo, separator) == last:
        return 0
    while True:
        line = buffer.rfind(b"\n", 0, (lo + hi) // 2) + 1
        if line <= lo:
            line = buffer.find(b"\n", lo) + 1
            if line >= hi:
                return hi
        if _query_at(buffer, line, separator) == last:
            hi = line
        else:
            lo = line


def _query_at(buffer: bytearray, line: int, separator: bytes) -> bytes:
    """The first field of the line starting at ``line`` (the whole line when it has no separator)."""
    stop = buffer.find(b"\n", line)
    end = buffer.find(separator, line, len(buffer) if stop < 0 else stop)
    if end == line:
        raise _NotForThisPath("a line starts with a separator")
    return bytes(buffer[line : stop if end < 0 else end])
