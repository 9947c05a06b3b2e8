"""A response cache on disk (SQLite), keyed by the request actually sent.

The key is the SHA-256 of a canonical JSON document identifying the request: the model, the messages, the
output JSON schema, the sampling parameters (temperature, seed, token limit, response format and any extra
request fields) and the prompt version — the document a transport says it sent (so a repair, or a fallback
from structured outputs to JSON mode, is stored under the request that really went out). Nothing about the
client is in it: not the API key, not the base URL, not headers.

Only replies that passed every check (finish reason, schema, the caller's invariants) are stored as answers.
A reply that failed is stored apart, marked rejected with its problem: a read-write run asks again (the cache
heals), a replay-only run replays the rejection so that the repair that followed replays too.
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

__all__ = ["CacheMode", "CachedReply", "ResponseCache", "cache_key", "document_key"]

CacheMode = Literal["read-write", "replay-only"]
ReplyStatus = Literal["valid", "rejected", "unchecked"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    prompt_version TEXT,
    raw TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    created REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'unchecked',
    finish_reason TEXT,
    problem TEXT
)
"""
# Caches written before replies were validated have no status: their rows are "unchecked" and are checked
# again when served, like every row.
_UPGRADE = (
    "ALTER TABLE responses ADD COLUMN status TEXT NOT NULL DEFAULT 'unchecked'",
    "ALTER TABLE responses ADD COLUMN finish_reason TEXT",
    "ALTER TABLE responses ADD COLUMN problem TEXT",
)


def document_key(document: Mapping[str, Any]) -> str:
    """The cache key (64 hex digits) of a request's identity document."""
    canonical = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def cache_key(
    *,
    model: str,
    messages: Sequence[Mapping[str, Any]],
    output_schema: Mapping[str, Any],
    params: Mapping[str, Any],
    prompt_version: str | None,
) -> str:
    """The cache key (64 hex digits) of one request; equal for requests that must get the same answer."""
    return document_key(
        {
            "model": model,
            "messages": [dict(m) for m in messages],
            "output_schema": output_schema,
            "params": params,
            "prompt_version": prompt_version,
        }
    )


@dataclass(frozen=True)
class CachedReply:
    """A stored reply: its raw text, the tokens it cost when it was first asked, and what it was judged."""

    raw: str
    prompt_tokens: int
    completion_tokens: int
    status: ReplyStatus = "valid"
    """``"valid"``: passed every check; ``"rejected"``: failed one (see ``problem``); ``"unchecked"``: stored
    by an older version, checked when served."""
    finish_reason: str | None = None
    problem: str | None = None


class ResponseCache:
    """LLM replies stored in a SQLite file.

    Args:
        path: the database file (created with its folder when missing).
        mode: ``"read-write"`` answers from the cache and stores new replies; ``"replay-only"`` answers from
            the cache and turns a miss into :class:`~ragrecall.errors.CacheMissError` (for CI that must not
            reach a network). To switch caching off, pass no cache.

    Safe to share between tasks and threads of one process; several processes may share the file (SQLite
    locking, write-ahead log). A file that is not a cache, or that breaks while in use, is a
    :class:`~ragrecall.errors.ConfigurationError` naming it.
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
                columns = {row[1] for row in self._db.execute("PRAGMA table_info(responses)")}
                if mode == "replay-only" and not columns:
                    raise sqlite3.DatabaseError("it has no responses table")
                if "status" not in columns and mode == "read-write":
                    for statement in _UPGRADE:
                        self._db.execute(statement)
                self._db.commit()
                self._has_status = "status" in columns or mode == "read-write"
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise ConfigurationError(f"{self.path} is not a ragrecall response cache: {exc}") from exc

    @property
    def replay_only(self) -> bool:
        """True when a miss must raise instead of asking the LLM."""
        return self.mode == "replay-only"

    def get(self, key: str) -> CachedReply | None:
        """The reply stored under ``key`` (valid, rejected or unchecked), or None."""
        columns = "raw, prompt_tokens, completion_tokens" + (
            ", status, finish_reason, problem" if self._has_status else ""
        )
        with self._guard():
            row = self._db.execute(f"SELECT {columns} FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        if not self._has_status:
            return CachedReply(str(row[0]), int(row[1]), int(row[2]), status="unchecked")
        status: ReplyStatus = "valid" if row[3] == "valid" else "rejected" if row[3] == "rejected" else "unchecked"
        return CachedReply(str(row[0]), int(row[1]), int(row[2]), status, row[4], row[5])

    def put(self, key: str, reply: CachedReply, *, model: str, prompt_version: str | None) -> None:
        """Store ``reply`` under ``key`` (replacing an older one); does nothing in replay-only mode.

        A rejected reply never replaces a valid one.
        """
        if self.replay_only:
            return
        row = (
            key,
            model,
            prompt_version,
            reply.raw,
            reply.prompt_tokens,
            reply.completion_tokens,
            time.time(),
            reply.status,
            reply.finish_reason,
            reply.problem,
        )
        with self._guard():
            if reply.status == "rejected":
                self._db.execute(
                    "INSERT INTO responses VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET "
                    "raw = excluded.raw, status = excluded.status, problem = excluded.problem, "
                    "created = excluded.created WHERE responses.status != 'valid'",
                    row,
                )
            else:
                self._db.execute("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
            self._db.commit()

    def discard(self, key: str) -> None:
        """Forget the reply stored under ``key`` (one that no longer passes its checks)."""
        if self.replay_only:
            return
        with self._guard():
            self._db.execute("DELETE FROM responses WHERE key = ?", (key,))
            self._db.commit()

    def counts(self) -> dict[str, int]:
        """How many replies are stored, by status."""
        if not self._has_status:
            return {"unchecked": len(self)}
        with self._guard():
            rows = self._db.execute("SELECT status, COUNT(*) FROM responses GROUP BY status").fetchall()
        return {str(status): int(n) for status, n in rows}

    def __len__(self) -> int:
        with self._guard():
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

    def _guard(self) -> _Guard:
        return _Guard(self)


class _Guard:
    """Holds the cache's lock and turns SQLite's errors into one that names the file."""

    def __init__(self, cache: ResponseCache) -> None:
        self._cache = cache

    def __enter__(self) -> None:
        self._cache._lock.acquire()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        self._cache._lock.release()
        if isinstance(exc, sqlite3.DatabaseError):
            raise ConfigurationError(
                f"the response cache {self._cache.path} is corrupt or unreadable ({exc}); "
                "delete it or point the cache elsewhere"
            ) from exc
