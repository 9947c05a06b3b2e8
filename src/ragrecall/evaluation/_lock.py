"""An exclusive, non-blocking lock on a sidecar file, naming its holder.

The lock is the operating system's (``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows), so it is
released when the holder exits for any reason, SIGKILL included; a lock file left behind by a killed run is
simply taken over, as is one torn by a holder killed as it wrote (empty, zero bytes, or a holder record cut
short). The file holds the holder's pid, host and start time so that a refused run can say who holds it (from
a torn file, the pid when it got that far), and how to clear a lock no run uses. Locks on network file
systems are only as good as the file system's support for them.
"""

from __future__ import annotations

import json
import os
import re
import socket
import sys
from contextlib import suppress
from datetime import datetime, timezone
from typing import Any

from ..errors import CheckpointError

__all__ = ["FileLock"]

_ATTEMPTS = 10
"""Tries when the lock file is removed by its holder between our open and our lock."""
_HOLDER_START = '{"lock": "ragrecall"'
"""How the content of every lock file of ours begins."""
_WINDOWS_OFFSET = 1 << 30
"""On Windows the locked byte lies far past the holder's details, so that others can still read them."""


class FileLock:
    """An exclusive lock on ``path`` for one process (and one holder object) at a time."""

    def __init__(self, path: str, what: str) -> None:
        """``what`` names the locked resource in messages, e.g. the checkpoint's path."""
        self.path = path
        self.what = what
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock at once or refuse.

        Raises:
            CheckpointError: another holder has it (the message names its pid, host and start time), or
                ``path`` exists and is not a lock file of ours.
        """
        if self._fd is not None:
            return
        for _ in range(_ATTEMPTS):
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)
            try:
                if not _try_lock(fd):
                    raise CheckpointError(
                        f"{self.what} is in use by another run ({_describe(_read(fd))}); wait for it to finish, or "
                        f"use another checkpoint file (if no run uses it, delete the lock file {self.path})"
                    )
                if _same_file(fd, self.path):
                    self._check_ours(fd)
                    _write_holder(fd)
                    self._fd = fd
                    return
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)  # the holder removed the file as we opened it: lock the new one
        raise CheckpointError(f"could not lock {self.path}: it keeps being replaced")

    def release(self) -> None:
        """Remove the lock file and release the lock; nothing happens when it is not held."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if sys.platform == "win32":  # pragma: no cover - an open file cannot be removed on Windows
            os.close(fd)
            with suppress(OSError):
                os.unlink(self.path)
            return
        with suppress(OSError):
            os.unlink(self.path)  # while still holding it, so that no one locks a removed file for good
        os.close(fd)

    def _check_ours(self, fd: int) -> None:
        text = _read(fd)  # empty, or torn by a holder killed as it wrote (see _torn): ours too, taken over
        if not _torn(text) and not text.startswith(_HOLDER_START):
            raise CheckpointError(
                f"{self.path} exists and is not a ragrecall lock file; move it away to use {self.what}"
            )


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        os.lseek(fd, _WINDOWS_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        finally:
            os.lseek(fd, 0, os.SEEK_SET)
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _same_file(fd: int, path: str) -> bool:
    try:
        on_disk = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (on_disk.st_dev, on_disk.st_ino)


def _read(fd: int) -> str:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 4096):
        chunks.append(chunk)
        if sum(map(len, chunks)) > 65536:
            break
    return b"".join(chunks).decode("utf-8", errors="replace")


def _torn(text: str) -> bool:
    """True for what a holder killed while writing its details leaves: nothing, zero bytes (a block the file
    system allocated but never wrote), or the start of a holder record cut short."""
    kept = text.strip().strip("\x00")
    return not kept or _HOLDER_START.startswith(kept) or (kept.startswith(_HOLDER_START) and _holder(kept) is None)


def _holder(text: str) -> dict[str, Any] | None:
    try:
        holder = json.loads(text)
    except ValueError:
        return None
    return holder if isinstance(holder, dict) and holder.get("lock") == "ragrecall" else None


def _write_holder(fd: int) -> None:
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    holder = {"lock": "ragrecall", "pid": os.getpid(), "host": socket.gethostname(), "started": started}
    data = (json.dumps(holder) + "\n").encode("utf-8")
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, data)


def _describe(text: str) -> str:
    """Who holds the lock, from its lock file's ``text``; a torn file gives the pid when it got that far."""
    holder = _holder(text)
    if holder is not None:
        return f"pid {holder.get('pid')} on {holder.get('host')}, started {holder.get('started')}"
    pid = re.search(r'"pid":\s*(\d+)', text)
    if _torn(text) and text.strip().strip("\x00"):
        return f"its lock file is torn, cut short as it was written; {f'pid {pid[1]}' if pid else 'no pid readable'}"
    return "its details are not recorded yet"
