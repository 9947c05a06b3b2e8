"""Files we read and write, handled in one place.

- Writes are atomic: the content goes to a temporary file in the target's own folder, is flushed to disk,
  and replaces the target with one rename (:func:`atomic_text`). A crash or a full disk leaves the old file
  or the new one, never half of one.
- Output paths are checked before any work is done (:func:`check_output_path`): the folder exists and is
  writable, and the path is not one of the run's inputs.
- Reading: truncated or corrupt gzip data becomes a :class:`~ragrecall.errors.FileFormatError` naming the
  file and line (:func:`gzip_checked`), JSON nested deeper than :data:`MAX_JSON_DEPTH` too (:func:`load_json`),
  and CSV cells may be up to :data:`CSV_FIELD_LIMIT` long (:func:`csv_field_limit`).
- Lines are bounded: a line longer than :func:`max_line_length` (64 MiB unless ``$RAGRECALL_MAX_LINE`` says
  otherwise) is a FileFormatError naming the file and line, found while reading it, so that at most about
  twice the limit is held (:func:`bounded_lines` for text; the TREC and batch readers for bytes).
- LLM replies are bounded the same way, by :func:`max_reply_size` (``$RAGRECALL_MAX_REPLY``, 64 MiB), while
  their body is read and decompressed.
"""

from __future__ import annotations

import gzip
import io
import os
import threading
import zlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import IO, Any, TypeVar

from .errors import FileFormatError, InputError

__all__ = [
    "CSV_FIELD_LIMIT",
    "GZIP_ERRORS",
    "MAX_JSON_DEPTH",
    "atomic_binary",
    "atomic_text",
    "bounded_lines",
    "check_output_path",
    "csv_field_limit",
    "gzip_checked",
    "line_too_long",
    "load_json",
    "max_line_length",
    "max_reply_size",
]

PathLike = str | os.PathLike[str]
T = TypeVar("T")

MAX_JSON_DEPTH = 64
"""The deepest nesting of JSON arrays and objects read from a file (a record is level 1)."""
CSV_FIELD_LIMIT = 64 * 1024 * 1024
"""The longest CSV cell read, in characters (64 MiB; the csv module's own default is 128 KiB)."""
GZIP_ERRORS: tuple[type[Exception], ...] = (EOFError, zlib.error, gzip.BadGzipFile)
"""What reading a truncated or corrupt gzip stream raises."""
MAX_LINE_ENV = "RAGRECALL_MAX_LINE"
"""Environment variable setting the longest line read, in bytes (characters for text): a whole number >= 1."""
DEFAULT_MAX_LINE = 64 * 1024 * 1024
MAX_REPLY_ENV = "RAGRECALL_MAX_REPLY"
"""Environment variable setting the largest LLM reply body read, in bytes once decompressed: a whole number
>= 1 (default 64 MiB, as for lines)."""


def max_line_length() -> int:
    """The longest line any reader accepts: ``$RAGRECALL_MAX_LINE`` when set, else 64 MiB.

    Raises:
        InputError: the environment's value is not a whole number >= 1.
    """
    return _env_size(MAX_LINE_ENV)


def _env_size(name: str) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return DEFAULT_MAX_LINE
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise InputError(f"{name} must be a whole number of bytes >= 1, got {text!r}")
    return value


def max_reply_size() -> int:
    """The largest reply body an LLM transport reads, decompressed: ``$RAGRECALL_MAX_REPLY`` when set, else
    64 MiB.

    Raises:
        InputError: the environment's value is not a whole number >= 1.
    """
    return _env_size(MAX_REPLY_ENV)


def line_too_long(limit: int, *, path: str | None, line: int | None) -> FileFormatError:
    """The error for a line longer than ``limit``."""
    return FileFormatError(
        f"a line longer than {limit:,} bytes, the most ragrecall reads (set {MAX_LINE_ENV} to change it)",
        path=path,
        line=line,
    )


def bounded_lines(handle: IO[str], name: str | None) -> Iterator[str]:
    """The lines of a text ``handle``, each read with a bound: a line longer than :func:`max_line_length`
    characters raises FileFormatError naming ``name`` and the line, holding no more than the limit."""
    limit = max_line_length()
    number = 0
    while True:
        line = handle.readline(limit + 1)
        if not line:
            return
        number += 1
        if len(line) > limit and not line.endswith("\n"):
            raise line_too_long(limit, path=name, line=number)
        yield line


# -- writing ------------------------------------------------------------------------------------------------


@contextmanager
def atomic_binary(path: PathLike) -> Iterator[IO[bytes]]:
    """A binary handle whose content replaces ``path`` when the block ends without an exception.

    The temporary file sits in the target's folder (so the final rename never crosses file systems), is
    created with the permissions a plain ``open`` would give (an existing target's mode is kept), and is
    flushed to disk before the rename. On an exception it is removed and ``path`` is left as it was. A
    symbolic link at ``path`` keeps pointing where it did: the file it points to is replaced.
    """
    target = os.path.realpath(os.fspath(path))
    folder, base = os.path.split(target)
    temp = os.path.join(folder, f".{base}.{os.urandom(4).hex()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(temp, flags, 0o666)
    except OSError as exc:  # named after the file asked for, not the temporary one
        raise type(exc)(exc.errno, exc.strerror, os.fspath(path)) from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        with suppress(OSError):
            os.chmod(temp, os.stat(target).st_mode & 0o7777)
        os.replace(temp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(temp)
        raise


@contextmanager
def atomic_text(path: PathLike, *, newline: str | None = None) -> Iterator[IO[str]]:
    """A UTF-8 text handle written atomically to ``path`` (see :func:`atomic_binary`); a path ending in
    ``.gz`` is gzip-compressed. ``newline`` is passed to :class:`io.TextIOWrapper` (``""`` for CSV)."""
    name = os.fspath(path)
    with atomic_binary(name) as raw:
        if name.endswith(".gz"):
            # The header records the target's name, not the temporary file's.
            with (
                gzip.GzipFile(filename=os.path.basename(name), mode="wb", fileobj=raw) as packed,
                io.TextIOWrapper(packed, encoding="utf-8", newline=newline) as text,
            ):
                yield text
        else:
            plain = io.TextIOWrapper(raw, encoding="utf-8", newline=newline)
            try:
                yield plain
            except BaseException:
                with suppress(Exception):  # the first error is the one to report
                    plain.detach()
                raise
            plain.detach()  # flushes; the binary handle is closed by atomic_binary


def check_output_path(path: PathLike, what: str, inputs: Sequence[tuple[str, PathLike | None]] = ()) -> None:
    """Refuse an output path that cannot be written, before any work is done.

    Args:
        path: where the output will be written.
        what: how the message names the output, e.g. ``"--out"``.
        inputs: ``(label, path)`` of the files the run reads (None entries are skipped); the output must be
            none of them (compared as the same file on disk, or the same resolved path when one is absent).

    Raises:
        InputError: the path is a folder, its folder is missing or not writable, the file is read-only, or
            it is one of the inputs. The message names the path.
    """
    target = os.fspath(path)
    if not target:
        raise InputError(f"{what}: the path is empty")
    if os.path.isdir(target):
        raise InputError(f"{what} {target} is a folder; give a file name")
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise InputError(f"{what} {target}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise InputError(f"{what} {target}: the folder {folder} is not writable")
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise InputError(f"{what} {target} is read-only")
    for label, other in inputs:
        if other is not None and _same_file(target, os.fspath(other)):
            raise InputError(f"{what} {target} is the {label} {os.fspath(other)}; refusing to overwrite it")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


# -- reading ------------------------------------------------------------------------------------------------


def gzip_checked(lines: Iterable[T], name: str | None) -> Iterator[T]:
    """The items of ``lines``; truncated or corrupt gzip data raises FileFormatError naming ``name`` and the
    line where the data stopped making sense."""
    line = 0
    try:
        for line, item in enumerate(lines, start=1):  # noqa: B007 - the count is read after the loop
            yield item
    except GZIP_ERRORS as exc:
        raise FileFormatError(
            f"truncated or corrupt gzip data ({exc}); the file was cut short or damaged", path=name, line=line + 1
        ) from exc


def load_json(text: str | bytes, *, path: str | None, line: int | None) -> Any:
    """``json.loads(text)``, refusing nesting deeper than :data:`MAX_JSON_DEPTH`.

    Raises:
        json.JSONDecodeError: the text is not JSON (left to the caller, which knows how to word it).
        FileFormatError: arrays and objects nest deeper than the limit, naming ``path`` and ``line``.
    """
    import json  # here: the TREC readers, which import this module, never need it (3 ms)

    try:
        value = json.loads(text)
    except RecursionError:
        value = None
        deep = True
    else:
        # Nesting is never deeper than the number of brackets that open it: most lines need no walk.
        opened = text.count(b"[") + text.count(b"{") if isinstance(text, bytes) else text.count("[") + text.count("{")
        deep = opened > MAX_JSON_DEPTH and _deeper_than(value, MAX_JSON_DEPTH)
    if deep:
        problem = f"JSON nested deeper than {MAX_JSON_DEPTH} levels (the most ragrecall reads)"
        raise FileFormatError(problem, path=path, line=line)
    return value


def _deeper_than(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


class _FieldLimit:
    """Raises the csv module's field size limit while at least one reader needs it, then puts it back."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._readers = 0
        self._saved = 0

    @contextmanager
    def __call__(self) -> Iterator[None]:
        import csv  # here, as json above

        with self._lock:
            if self._readers == 0:
                self._saved = csv.field_size_limit()
                csv.field_size_limit(max(self._saved, CSV_FIELD_LIMIT))
            self._readers += 1
        try:
            yield
        finally:
            with self._lock:
                self._readers -= 1
                if self._readers == 0:
                    csv.field_size_limit(self._saved)


csv_field_limit = _FieldLimit()
"""``with csv_field_limit():`` lets csv readers take cells up to :data:`CSV_FIELD_LIMIT`; the csv module's
process-wide limit is restored when the last such block ends."""
