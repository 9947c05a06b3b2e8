"""Batch input files answered line by line, as the Batch API and vLLM ``run_batch`` write their output."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from ._replies import Responder, ServerReply, completion_body, error_body
from ._responders import offline_responder


def result_line(
    line: Mapping[str, Any], status: int | None, body: Mapping[str, Any] | None, error: Mapping[str, Any] | None
) -> dict[str, Any]:
    response = (
        None if status is None else {"status_code": status, "request_id": f"req-{time.monotonic_ns()}", "body": body}
    )
    return {
        "id": f"batch_req_{time.monotonic_ns()}",
        "custom_id": line.get("custom_id"),
        "response": response,
        "error": error,
    }


def answer_line(line: Mapping[str, Any], answer: Callable[[dict[str, Any]], ServerReply]) -> dict[str, Any]:
    """The result line for one batch-input line, answered as ``POST /v1/chat/completions`` would be."""
    body = dict(line.get("body") or {})
    reply = answer(body)
    if reply.status != 200:
        return result_line(line, reply.status, error_body(reply.status, reply.content or "scripted error"), None)
    return result_line(line, 200, reply.body or completion_body(reply, str(body.get("model", "fake"))), None)


def answer_batch_file(
    input_path: str | os.PathLike[str], output_path: str | os.PathLike[str], responder: Responder | None = None
) -> int:
    """Answer a batch-input JSONL file into a result file, as ``python -m vllm.entrypoints.openai.run_batch
    -i INPUT -o OUTPUT`` does (by default with the offline judge); returns the number of lines answered."""
    respond = responder or offline_responder()
    with open(input_path, encoding="utf-8") as source:
        lines = [json.loads(text) for text in source if text.strip()]
    with open(output_path, "w", encoding="utf-8") as out:
        for line in lines:
            out.write(json.dumps(answer_line(line, respond), ensure_ascii=False) + "\n")
    return len(lines)


# -- answering ragrecall's prompts ---------------------------------------------------------------------------
