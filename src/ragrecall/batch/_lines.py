"""The OpenAI batch file formats: one request line in, one result line out, and files cut to a provider's
limits.

A request line is ``{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}``; its body is the
exact JSON the live path sends. A result line (OpenAI's output and error files, vLLM's ``run_batch`` output)
is ``{"id", "custom_id", "response": {"status_code", "request_id", "body"} | null, "error": {"code",
"message"} | null}``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import FileFormatError
from ..llm._retry import retryable_status

__all__ = ["CHAT_URL", "LineOutcome", "read_result_line", "read_result_text", "request_line", "split_lines"]

CHAT_URL = "/v1/chat/completions"

_RETRYABLE_CODES = frozenset({"batch_expired", "batch_cancelled", "server_error", "rate_limit_exceeded", "timeout"})
"""Per-line error codes (without an HTTP status) that another batch may not meet."""


@dataclass(frozen=True)
class LineOutcome:
    """What a batch said about one request: a chat-completion body, or an error and whether another batch
    may succeed."""

    body: Mapping[str, Any] | None = None
    error: str | None = None
    retryable: bool = True
    shared: bool = False
    """True for every sample but the first that asked this same request: its reply was paid once."""


def request_line(custom_id: str, body: Mapping[str, Any]) -> bytes:
    """One batch-input line (newline included)."""
    line = {"custom_id": custom_id, "method": "POST", "url": CHAT_URL, "body": body}
    return (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def split_lines(lines: Sequence[bytes], max_requests: int, max_bytes: int) -> Iterator[list[bytes]]:
    """``lines`` cut into files of at most ``max_requests`` lines and ``max_bytes`` bytes, in order.

    A line longer than ``max_bytes`` on its own is a file of its own (the provider will refuse it, and says
    why; nothing else is held back by it).
    """
    chunk: list[bytes] = []
    size = 0
    for line in lines:
        if chunk and (len(chunk) >= max_requests or size + len(line) > max_bytes):
            yield chunk
            chunk, size = [], 0
        chunk.append(line)
        size += len(line)
    if chunk:
        yield chunk


def read_result_line(line: Mapping[str, Any]) -> tuple[str, LineOutcome] | None:
    """The ``custom_id`` and outcome of one result line; None when the line names no request."""
    custom_id = line.get("custom_id")
    if not isinstance(custom_id, str):
        return None
    response = line.get("response")
    error = line.get("error")
    status = response.get("status_code") if isinstance(response, Mapping) else None
    body = response.get("body") if isinstance(response, Mapping) else None
    if status is None and isinstance(response, Mapping) and "choices" in response and not error:
        return custom_id, LineOutcome(body=response)  # a runner that writes the completion itself
    if status == 200 and isinstance(body, Mapping) and not error:
        return custom_id, LineOutcome(body=body)
    code, message = None, None
    if isinstance(error, Mapping):
        code, message = error.get("code"), error.get("message")
    if message is None and isinstance(body, Mapping) and isinstance(body.get("error"), Mapping):
        code = code or body["error"].get("code") or body["error"].get("type")
        message = body["error"].get("message")
    if isinstance(status, int) and status != 200:
        retryable = retryable_status(status)
        text = f"HTTP {status}" + (f" ({code})" if code else "") + f": {message or 'no message'}"
    else:
        retryable = code is None or code in _RETRYABLE_CODES
        text = f"{code or 'error'}: {message or 'no message'}"
    return custom_id, LineOutcome(error=" ".join(str(text).split())[:500], retryable=retryable)


def jsonl_lines(text: str) -> list[str]:
    """The lines of JSONL text: split at ``\n`` only (a ``\r`` before it dropped). ``str.splitlines`` would also
    split at U+2028, U+2029 and U+0085, which JSON writers leave unescaped inside strings."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def read_result_text(text: str, *, source: str) -> dict[str, LineOutcome]:
    """Every result line of a file's text, by ``custom_id`` (a line that is not JSON is an error naming it)."""

    outcomes: dict[str, LineOutcome] = {}
    for number, raw in enumerate(jsonl_lines(text), start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except ValueError as exc:
            raise FileFormatError(f"a batch result line is not JSON: {exc}", path=source, line=number) from exc
        read = read_result_line(line) if isinstance(line, Mapping) else None
        if read is None:
            raise FileFormatError("a batch result line has no custom_id", path=source, line=number)
        custom_id, outcome = read
        if custom_id not in outcomes or outcomes[custom_id].body is None:
            outcomes[custom_id] = outcome
    return outcomes
