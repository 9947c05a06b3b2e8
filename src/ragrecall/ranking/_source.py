"""Where the bytes of a TREC file come from, how many threads read them, and how they are cut into blocks.

A regular file is read in place, as often as a reader needs (the fast reader may hand a file over to the
plain one). Anything that can be read only once — a pipe, a process substitution (``<(...)``), ``-`` for
standard input, a file object — is read once, into memory, before any reader looks at it. gzip data is
recognised from its first two bytes, whatever the name.
"""

from __future__ import annotations

import gzip
import io
import itertools
import os
import stat
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, TypeVar

from .._files import line_too_long, max_line_length
from ..errors import ConfigurationError

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = [
    "STDIN",
    "THREADS_ENV",
    "Input",
    "LineTooLong",
    "after_last_line",
    "blocks",
    "in_threads",
    "open_input",
    "reader_threads",
]

T = TypeVar("T")
R = TypeVar("R")
SourceLike = str | os.PathLike[str] | IO[Any]

STDIN = "-"
"""The path that means standard input."""
THREADS_ENV = "RAGRECALL_THREADS"
"""Environment variable giving the default number of reader threads (a whole number >= 1)."""
_DEFAULT_THREADS = 4
"""Most reader threads by default; fewer on a machine with fewer cores."""
_GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True)
class Input:
    """One TREC input: a regular file read in place (``path``), or the bytes of anything else (``data``)."""

    name: str | None
    """How messages name it: the path, ``<stdin>``, a file object's name, or None."""
    path: str | None
    data: bytes | None
    gz: bool

    def open(self) -> io.BufferedIOBase:
        """A new binary stream over the (decompressed) content, from its start."""
        if self.path is not None:
            return gzip.open(self.path, "rb") if self.gz else open(self.path, "rb")
        data = io.BytesIO(self.data or b"")
        return gzip.GzipFile(fileobj=data, mode="rb") if self.gz else data

    def size(self) -> int:
        """Bytes as stored (compressed when gzip)."""
        return os.path.getsize(self.path) if self.path is not None else len(self.data or b"")


def open_input(source: SourceLike) -> Input:
    """Read ``source`` once if it cannot be read twice; a regular file is only looked at.

    Raises:
        OSError: the path cannot be opened (FileNotFoundError for a missing one).
    """
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if path == STDIN:
            return _from_bytes(_read_bounded(sys.stdin.buffer, "<stdin>"), "<stdin>")
        if stat.S_ISREG(os.stat(path).st_mode):
            with open(path, "rb") as handle:
                gz = handle.read(2) == _GZIP_MAGIC
            return Input(path, path, None, gz)
        with open(path, "rb") as handle:  # a pipe, a process substitution, a character device
            return _from_bytes(_read_bounded(handle, path), path)
    name = getattr(source, "name", None)
    name = name if isinstance(name, str) else None
    return _from_bytes(_read_bounded(source, name or "<stream>"), name)


_PIPE_CHUNK = 1 << 23


def _read_bounded(handle: IO[bytes] | IO[str], name: str) -> bytes:
    """Everything ``handle`` gives, read in chunks; a line longer than :func:`~ragrecall._files.max_line_length`
    bytes stops the reading at once with a FileFormatError naming it (uncompressed data only: gzip data is
    checked by the readers as they decompress it)."""
    limit = max_line_length()
    parts: list[bytes] = []
    lines = 0
    open_line = 0  # bytes since the last line end
    while True:
        read = handle.read(min(_PIPE_CHUNK, limit))  # a line inside one read is within the limit
        data = read.encode("utf-8") if isinstance(read, str) else read
        if not data:
            return b"".join(parts)
        if not parts and data[:2] == _GZIP_MAGIC:
            limit = 2**63  # compressed: the readers bound what they decompress
        parts.append(data)
        first = data.find(b"\n")
        if first < 0:
            open_line += len(data)
        else:
            if open_line + first > limit:  # the line open at the last read ends here
                raise line_too_long(limit, path=name, line=lines + 1)
            lines += data.count(b"\n")
            open_line = len(data) - data.rfind(b"\n") - 1
        if open_line > limit:
            raise line_too_long(limit, path=name, line=lines + 1)


def _from_bytes(data: bytes, name: str | None) -> Input:
    return Input(name, None, data, data[:2] == _GZIP_MAGIC)


def reader_threads(threads: int | None = None) -> int:
    """The number of threads a reader may use: ``threads`` when given, else ``$RAGRECALL_THREADS``, else
    one per core up to four.

    Raises:
        ConfigurationError: the number given (or the environment's) is not a whole number >= 1.
    """
    if threads is None:
        text = os.environ.get(THREADS_ENV, "").strip()
        if not text:
            return max(1, min(_DEFAULT_THREADS, _cores()))
        try:
            threads = int(text)
        except ValueError:
            raise ConfigurationError(f"{THREADS_ENV} must be a whole number >= 1, got {text!r}") from None
        what = THREADS_ENV
    else:
        what = "threads"
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ConfigurationError(f"{what} must be a whole number >= 1, got {threads!r}")
    return threads


def _cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


class LineTooLong(Exception):
    """A line is longer than half the limit: the block readers leave the input to the plain reader, which
    reads it holding less, and names it when it is over the limit."""


def blocks(raw: io.BufferedIOBase, size: int, cut: Callable[[bytearray], int]) -> Iterator[bytearray]:
    """The content of ``raw`` in blocks of about ``size`` bytes, each ending where ``cut`` says.

    ``cut(block)`` gives where a full block ends (0: nowhere, the block then grows to take more, unless its last
    line is longer than half of :func:`~ragrecall._files.max_line_length`: :class:`LineTooLong`). A block
    after the first starts with the byte before its cut (the newline ending the block before it): a line at
    the start of a buffer then keeps a leading U+FEFF (pyarrow drops a byte-order mark there), and the empty
    line this makes is skipped by every reader.
    """
    carry = b""
    limit = max_line_length()
    size = min(size, limit)  # a line longer than the limit cannot fit in a block: it is always found
    while True:
        want = max(size, 2 * len(carry))  # doubles a block that could not be cut
        block = bytearray(want)
        block[: len(carry)] = carry
        filled = len(carry)
        with memoryview(block) as view:
            while filled < want:
                got = raw.readinto(view[filled:])
                if not got:
                    break
                filled += got
        del block[filled:]
        if filled < want:  # the end of the data
            if block.strip():
                yield block
            return
        # A line still open past half the limit goes to the plain reader, which holds less while it reads
        # one and names it when it is over the limit (blocks double: this one could hold twice the limit).
        if len(block) - block.rfind(b"\n") - 1 > limit // 2:
            raise LineTooLong()
        end = cut(block)
        if end <= 0:
            carry = bytes(block)
            continue
        carry = bytes(block[end - 1 :])
        del block[end:]
        yield block


def after_last_line(block: bytearray) -> int:
    """A :func:`blocks` cut after the last whole line of ``block``."""
    return block.rfind(b"\n") + 1


def in_threads(
    work: Callable[[T], R],
    items: Iterable[T],
    workers: int,
    *,
    started: Callable[[], None] | None = None,
    held: int | None = None,
) -> Generator[R, None, None]:
    """``work`` over ``items`` in ``workers`` threads (in this thread when 1, or when there is one item: a
    pool would cost more than it gives), results in order; at most ``held`` items (two per worker unless told,
    never fewer than one per worker) are in the workers' hands or done and not yet taken.

    ``started`` is called once, in this thread, when the first items are in the workers' hands and before any
    result is awaited (when the work runs in this thread: once the first item is taken from ``items``, before
    any work): other work done there overlaps theirs. Should it raise, the items not begun are dropped, the
    running ones are waited for, and the error propagates.
    """
    items = iter(items)
    head = list(itertools.islice(items, 1 if workers <= 1 else 2))
    if len(head) < 2:
        if started is not None:
            started()
        yield from map(work, itertools.chain(head, items))
        return
    items = itertools.chain(head, items)
    from concurrent.futures import ThreadPoolExecutor  # 8 ms of imports (logging) a one-block read skips

    window = max(2 * workers if held is None else held, workers)
    pending: deque[Future[R]] = deque()
    with ThreadPoolExecutor(workers) as pool:
        try:
            for item in items:
                pending.append(pool.submit(work, item))
                if len(pending) == window:
                    if started is not None:
                        begin, started = started, None
                        begin()
                    yield pending.popleft().result()
            if started is not None:
                started()
            while pending:
                yield pending.popleft().result()
        finally:
            for future in pending:
                future.cancel()
