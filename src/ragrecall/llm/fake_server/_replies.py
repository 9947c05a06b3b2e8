"""What the fake server answers: scripted replies, batch faults, and the bodies built from them."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal


@dataclass(frozen=True)
class ServerReply:
    """One scripted HTTP answer.

    With ``status`` 200 the body is a reply whose text is ``content`` and whose usage reports
    ``prompt_tokens`` and ``completion_tokens`` (a chat completion on the OpenAI route, a message on the
    Anthropic route); with another status it is that API's error body. ``body`` replaces the generated body
    entirely; ``raw_body`` replaces it with bytes sent as ``content_type`` (an HTML page from a proxy).
    ``delay`` seconds pass before answering (longer than the client's timeout: a hung request); with
    ``drip`` the body is sent 16 bytes at a time, ``drip`` seconds apart (a slow-drip reply). ``echo_key``
    ``"full"`` or ``"masked"`` puts the request's API key (whole, or masked as OpenAI does) into the error
    message or, for a 200, into the reply's ``reason`` text. ``drop`` closes the connection without an answer
    (a reset).
    """

    content: str | None = None
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0
    """Of ``prompt_tokens``, those reported as read from the provider's prompt cache."""
    delay: float = 0.0
    finish_reason: str = "stop"
    body: Mapping[str, Any] | None = None
    raw_body: bytes | None = None
    content_type: str = "application/json"
    drip: float = 0.0
    echo_key: Literal["", "full", "masked"] = ""
    drop: bool = False


Responder = Callable[[Mapping[str, Any]], ServerReply]


@dataclass(frozen=True)
class BatchFault:
    """How the next batch created ends (faults are used one per batch, in order).

    ``status`` ``"completed"``, ``"expired"`` (only the first ``answered`` lines are answered; the others get a
    ``batch_expired`` line in the error file) or ``"failed"`` (no output at all; ``message`` in the batch's
    errors). In a completed or expired batch the first ``error_lines`` lines get an HTTP ``error_status`` line
    in the error file, and the next ``missing_lines`` lines are in no file at all. The first ``torn_lines``
    lines of the output file are cut in half (no longer JSON, their ``custom_id`` still legible), and
    ``extra_lines`` are appended to it as they are (garbage, lines naming no request or an unknown one).
    With ``echo_key`` the error lines quote the API key the batch was created with.
    """

    status: Literal["completed", "expired", "failed"] = "completed"
    error_lines: int = 0
    error_status: int = 500
    missing_lines: int = 0
    answered: int = 0
    message: str = "the batch input file failed validation"
    torn_lines: int = 0
    extra_lines: tuple[str, ...] = ()
    echo_key: bool = False


def echoing(reply: ServerReply, key: str) -> ServerReply:
    shown = key if reply.echo_key == "full" else f"{key[:8]}{'*' * 12}{key[-4:]}"
    if reply.status != 200:
        return replace(reply, content=f"Incorrect API key provided: {shown}. You can find your API key online.")
    content = reply.content or ""
    try:
        data = json.loads(content)
    except json.JSONDecodeError:
        return replace(reply, content=f"{content} {shown}")
    lists = ("verdicts", "unsupported")
    for item in [i for key in lists for i in data.get(key, [])] if isinstance(data, dict) else []:
        item["reason"] = f"{item.get('reason', '')} (key {shown})"
    return replace(reply, content=json.dumps(data, ensure_ascii=False))


def as_chat(body: Mapping[str, Any]) -> dict[str, Any]:
    """An Anthropic Messages request in the chat-completions shape the responders read."""
    messages: list[dict[str, Any]] = []
    system = body.get("system")
    if system:
        text = system if isinstance(system, str) else "".join(str(b.get("text", "")) for b in system)
        messages.append({"role": "system", "content": text})
    for message in body.get("messages") or []:
        content = message.get("content")
        if not isinstance(content, str):
            content = "".join(str(b.get("text", "")) for b in content or [] if isinstance(b, Mapping))
        messages.append({"role": message.get("role"), "content": content})
    return {**body, "messages": messages}


def completion_body(reply: ServerReply, model: str) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-fake-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": reply.content, "refusal": None},
                "finish_reason": reply.finish_reason,
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": reply.prompt_tokens,
            "completion_tokens": reply.completion_tokens,
            "total_tokens": reply.prompt_tokens + reply.completion_tokens,
            "prompt_tokens_details": {"cached_tokens": reply.cached_tokens},
        },
    }


def message_body(reply: ServerReply, model: str, request: Mapping[str, Any]) -> dict[str, Any]:
    """An Anthropic message: a JSON object answered as the forced tool's input, anything else as text."""
    try:
        data = json.loads(reply.content or "")
    except json.JSONDecodeError:
        data = None
    tools = request.get("tools") or []
    if isinstance(data, dict) and tools:
        block: dict[str, Any] = {"type": "tool_use", "id": "toolu_fake", "name": tools[0].get("name"), "input": data}
        stop = "tool_use"
    else:
        block, stop = {"type": "text", "text": reply.content or ""}, "end_turn"
    if reply.finish_reason == "length":
        stop = "max_tokens"
    return {
        "id": f"msg_fake_{time.monotonic_ns()}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [block] if reply.content else [],
        "stop_reason": stop,
        "stop_sequence": None,
        # Anthropic counts cache reads apart from input_tokens.
        "usage": {
            "input_tokens": reply.prompt_tokens - reply.cached_tokens,
            "cache_read_input_tokens": reply.cached_tokens,
            "output_tokens": reply.completion_tokens,
        },
    }


def error_body(status: int, message: str, anthropic: bool = False) -> dict[str, Any]:
    if anthropic:
        kind = "rate_limit_error" if status == 429 else "api_error" if status >= 500 else "invalid_request_error"
        return {"type": "error", "error": {"type": kind, "message": message}}
    kind = "rate_limit_error" if status == 429 else "server_error" if status >= 500 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}
