"""A response cache on disk (SQLite), keyed by everything that changes the answer.

The key is the SHA-256 of a canonical JSON document holding the model, the messages, the output JSON schema,
the sampling parameters (temperature, seed, token limit, response format and any extra request fields) and the
prompt version. Nothing about the client is in it: not the API key, not the base URL, not headers. Replies
are stored raw, before validation, so a replay reproduces a run exactly, repairs included.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ..errors import ConfigurationError

__all__ = ["CacheMode", "CachedReply", "ResponseCache", "cache_key"]

CacheMode = Literal["read-write", "replay-only"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    prompt_version TEXT,
    raw TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    created REAL NOT NULL
)
"""


def cache_key(
    *,
    model: str,
    messages: Sequence[Mapping[str, Any]],
    output_schema: Mapping[str, Any],
    params: Mapping[str, Any],
    prompt_version: str | None,
) -> str:
    """The cache key (64 hex digits) of one request; equal for requests that must get the same answer."""
    document = {
        "model": model,
        "messages": [dict(m) for m in messages],
        "output_schema": output_schema,
        "params": params,
        "prompt_version": prompt_version,
    }
    canonical = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True)
class CachedReply:
    """A stored reply: its raw text and the tokens it cost when it was first asked."""

    raw: str
    prompt_tokens: int
    completion_tokens: int


class ResponseCache:
    """LLM replies stored in a SQLite file.

    Args:
        path: the database file (created with its folder when missing).
        mode: ``"read-write"`` answers from the cache and stores new replies; ``"replay-only"`` answers from
            the cache and turns a miss into :class:`~ragrecall.errors.CacheMissError` (for CI that must not
            reach a network). To switch caching off, pass no cache to the adapter.

    Safe to share between tasks and threads of one process; several processes may share the file (SQLite
    locking, write-ahead log).
    """

    def __init__(self, path: str | Path, *, mode: CacheMode = "read-write") -> None:
        if mode not in ("read-write", "replay-only"):
            raise ConfigurationError(f"cache mode must be 'read-write' or 'replay-only', got {mode!r}")
        self.path = Path(path)
        self.mode: CacheMode = mode
        if mode == "read-write":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        elif not self.path.is_file():
            raise ConfigurationError(f"replay-only cache {self.path} does not exist")
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30.0)
        try:
            with self._lock:
                if mode == "read-write":
                    self._db.execute("PRAGMA journal_mode=WAL")
                    self._db.execute(_SCHEMA)
                    self._db.commit()
                else:
                    self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise ConfigurationError(f"{self.path} is not a ragrecall response cache: {exc}") from exc

    @property
    def replay_only(self) -> bool:
        """True when a miss must raise instead of asking the LLM."""
        return self.mode == "replay-only"

    def get(self, key: str) -> CachedReply | None:
        """The reply stored under ``key``, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT raw, prompt_tokens, completion_tokens FROM responses WHERE key = ?", (key,)
            ).fetchone()
        return None if row is None else CachedReply(str(row[0]), int(row[1]), int(row[2]))

    def put(self, key: str, reply: CachedReply, *, model: str, prompt_version: str | None) -> None:
        """Store ``reply`` under ``key`` (replacing an older one); does nothing in replay-only mode."""
        if self.replay_only:
            return
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?)",
                (key, model, prompt_version, reply.raw, reply.prompt_tokens, reply.completion_tokens, time.time()),
            )
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            row = self._db.execute("SELECT COUNT(*) FROM responses").fetchone()
        return int(row[0])

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
