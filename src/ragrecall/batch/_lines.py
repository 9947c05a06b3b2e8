"""The OpenAI batch file formats: one request line in, one result line out, and files cut to a provider's
limits.

A request line is ``{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body"}``; its body is the
exact JSON the live path sends. A result line (OpenAI's output and error files, vLLM's ``run_batch`` output)
is ``{"id", "custom_id", "response": {"status_code", "request_id", "body"} | null, "error": {"code",
"message"} | null}``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._files import max_line_length
from ..llm import retryable_status

__all__ = [
    "CHAT_URL",
    "LineOutcome",
    "ResultLines",
    "read_result_line",
    "read_result_text",
    "request_line",
    "split_lines",
]

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


@dataclass
class ResultLines:
    """What a result file says: the outcome of each request it names, and the lines that name none."""

    outcomes: dict[str, LineOutcome] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    """One description per line that was used for no request (``"out.jsonl:3: not JSON"``)."""

    def update(self, other: ResultLines) -> None:
        """Add a later file's lines: its outcomes win, except that an answer is never replaced by an error."""
        for custom_id, outcome in other.outcomes.items():
            if outcome.body is not None or custom_id not in self.outcomes or self.outcomes[custom_id].body is None:
                self.outcomes[custom_id] = outcome
        self.skipped.extend(other.skipped)


_CUSTOM_ID = re.compile(rb'"custom_id"\s*:\s*"((?:[^"\\\n]|\\.){1,200})"')


def read_result_text(data: str | bytes, *, source: str) -> ResultLines:
    """Every result line of a file, by ``custom_id``. No line stops the reading:

    - a line that is not JSON (or not UTF-8, or longer than :func:`~ragrecall._files.max_line_length`) whose
      ``custom_id`` can still be read is a retryable fault of that request, naming the file and line (unless
      another line answers it); without one it is skipped and counted;
    - a line without a ``custom_id`` is skipped and counted;
    - a request answered by two lines that disagree is a retryable fault of that request (an answer and an
      error: the answer is used);
    - every other line is used.
    """
    raw_lines = (
        data.split(b"\n") if isinstance(data, bytes) else [x.encode("utf-8", "surrogatepass") for x in data.split("\n")]
    )
    result = ResultLines()
    limit = max_line_length()
    torn: dict[str, str] = {}
    conflicts: dict[str, str] = {}
    for number, raw in enumerate(raw_lines, start=1):
        raw = raw.removesuffix(b"\r")
        if not raw.strip():
            continue
        where = f"{source}:{number}"
        try:
            if len(raw) > limit:
                raise ValueError(f"longer than {limit:,} bytes, the most ragrecall reads")
            line = json.loads(raw.decode("utf-8"))
        except ValueError as exc:
            named = _CUSTOM_ID.search(raw[:4096])
            problem = f"{where}: a result line that is not JSON ({' '.join(str(exc).split())[:80]})"
            if named is None:
                result.skipped.append(problem)
            else:
                torn.setdefault(_unescaped(named.group(1)), problem)
            continue
        read = read_result_line(line) if isinstance(line, Mapping) else None
        if read is None:
            result.skipped.append(f"{where}: a result line without a custom_id")
            continue
        custom_id, outcome = read
        known = result.outcomes.get(custom_id)
        if known is None or (known.body is None and outcome.body is not None):
            result.outcomes[custom_id] = outcome
        elif outcome.body is not None and known.body != outcome.body:
            conflicts.setdefault(custom_id, f"{where}: a second result line for the request, with another answer")
    for custom_id, problem in torn.items():
        result.outcomes.setdefault(custom_id, LineOutcome(error=problem, retryable=True))
    for custom_id, problem in conflicts.items():
        result.outcomes[custom_id] = LineOutcome(error=problem, retryable=True)
    return result


def _unescaped(raw: bytes) -> str:
    try:
        value = json.loads(b'"' + raw + b'"')
    except ValueError:
        return raw.decode("utf-8", "replace")
    return str(value)
