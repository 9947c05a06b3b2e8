"""Reading a chat completion — its JSON body (a reply posted directly, a batch output line) or the object the
SDK built from one — into content, refusal, finish reason and usage, by the same checks either way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openai.types.chat import ChatCompletion

from ..usage import Usage

__all__ = ["read_completion", "read_completion_json"]

_Read = tuple[str | None, str | None, str | None, Usage]


def read_completion_json(body: Any) -> _Read | str:
    """Content, refusal, finish reason and usage of a chat completion's JSON body; a description of the body
    when it is not one. Reads what :func:`read_completion` reads, by the same checks."""
    if not isinstance(body, Mapping):
        return body if isinstance(body, str) else repr(body)[:200]
    if body.get("error") is not None:
        return f"an error object: {body['error']!r}"[:300]
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices:
        return "a completion without choices"
    choice = choices[0]
    message = _field(choice, "message")
    return _checked_fields(
        _field(message, "content"), _field(message, "refusal"), _field(choice, "finish_reason"), body.get("usage")
    )


def _field(value: Any, key: str) -> Any:
    """``value[key]`` of a JSON object; None for a missing key or a value that is no object (as ``getattr``
    with a default reads the SDK's unvalidated objects)."""
    return value.get(key) if isinstance(value, Mapping) else None


def _checked_fields(content: Any, refusal: Any, finish: Any, usage: Any) -> _Read | str:
    if (content is not None and not isinstance(content, str)) or (refusal is not None and not isinstance(refusal, str)):
        return "a completion whose message content is not text"
    prompt_tokens = _field(usage, "prompt_tokens") or 0
    completion_tokens = _field(usage, "completion_tokens") or 0
    cached_tokens = _field(_field(usage, "prompt_tokens_details"), "cached_tokens") or 0
    if not all(isinstance(n, int) for n in (prompt_tokens, completion_tokens, cached_tokens)):
        return "a completion whose usage is not counted in tokens"
    cached_tokens = min(max(cached_tokens, 0), prompt_tokens)
    counted = Usage(
        requests=1, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, cached_tokens=cached_tokens
    )
    return content, refusal, finish if isinstance(finish, str) else None, counted


def read_completion(completion: Any) -> _Read | str:
    """Content, refusal, finish reason and usage of a chat completion; a description of the body when it is
    not one (the SDK builds its objects without validating them, so every field is checked here)."""
    if not isinstance(completion, ChatCompletion):
        return completion if isinstance(completion, str) else repr(completion)[:200]
    extra = completion.model_extra or {}
    if extra.get("error") is not None:
        return f"an error object: {extra['error']!r}"[:300]
    if not isinstance(completion.choices, list) or not completion.choices:
        return "a completion without choices"
    choice = completion.choices[0]
    message = choice.message
    usage = completion.usage
    details = getattr(usage, "prompt_tokens_details", None)
    return _checked_fields(
        getattr(message, "content", None),
        getattr(message, "refusal", None),
        choice.finish_reason,
        {
            "prompt_tokens": getattr(usage, "prompt_tokens", 0),
            "completion_tokens": getattr(usage, "completion_tokens", 0),
            "prompt_tokens_details": {"cached_tokens": getattr(details, "cached_tokens", 0)},
        },
    )
