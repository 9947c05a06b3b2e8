"""Reading a chat completion — its JSON body (a reply posted directly, a batch output line) or the object the
SDK built from one — into content, refusal, finish reason and usage, by the same checks either way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openai.types.chat import ChatCompletion

from ..usage import Usage, read_count

__all__ = ["read_completion", "read_completion_json", "reply_usage"]

_Read = tuple[str | None, str | None, str | None, Usage]
_UNKNOWN = Usage.unknown()


def read_completion_json(body: Any) -> _Read | str:
    """Content, refusal, finish reason and usage of a chat completion's JSON body; a description of the body
    when it is not one. Reads what :func:`read_completion` reads, by the same checks."""
    if not isinstance(body, Mapping):
        return body if isinstance(body, str) else f"a JSON {type(body).__name__}, not a completion object"
    if body.get("error") is not None:
        return f"an error object: {body['error']!r}"[:300]
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices:
        return "the field 'choices' is missing or empty"
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
    for name, value in (("content", content), ("refusal", refusal)):
        if value is not None and not isinstance(value, str):
            return f"the field 'choices[0].message.{name}' is a {type(value).__name__}, not text"
        if value and not _encodable(value):
            return f"the field 'choices[0].message.{name}' holds a lone surrogate (an escape such as \\ud800), not text"
    return content, refusal, finish if isinstance(finish, str) else None, reply_usage(usage)


def _encodable(text: str) -> bool:
    """False when ``text`` holds a lone surrogate (JSON allows the escape; no file or prompt can hold it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def reply_usage(usage: Any) -> Usage:
    """The usage of one reply from its ``usage`` object: its counts read by :func:`~ragrecall.usage.read_count`
    (``cached_tokens`` may be absent: 0); unknown usage when the object is absent or a count is not one."""
    prompt_tokens = read_count(_field(usage, "prompt_tokens"))
    completion_tokens = read_count(_field(usage, "completion_tokens"))
    cached = _field(_field(usage, "prompt_tokens_details"), "cached_tokens")
    cached_tokens = 0 if cached is None else read_count(cached)
    if prompt_tokens is None or completion_tokens is None or cached_tokens is None:
        return _UNKNOWN
    return Usage(
        requests=1,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cached_tokens=min(cached_tokens, prompt_tokens),
    )


def read_completion(completion: Any) -> _Read | str:
    """Content, refusal, finish reason and usage of a chat completion; a description of the body when it is
    not one (the SDK builds its objects without validating them, so every field is checked here)."""
    if not isinstance(completion, ChatCompletion):
        return completion if isinstance(completion, str) else f"a {type(completion).__name__}, not a completion"
    extra = completion.model_extra or {}
    if extra.get("error") is not None:
        return f"an error object: {extra['error']!r}"[:300]
    if not isinstance(completion.choices, list) or not completion.choices:
        return "the field 'choices' is missing or empty"
    choice = completion.choices[0]
    message = choice.message
    usage = completion.usage
    details = getattr(usage, "prompt_tokens_details", None)
    return _checked_fields(
        getattr(message, "content", None),
        getattr(message, "refusal", None),
        choice.finish_reason,
        None
        if usage is None
        else {
            "prompt_tokens": getattr(usage, "prompt_tokens", None),
            "completion_tokens": getattr(usage, "completion_tokens", None),
            "prompt_tokens_details": {"cached_tokens": getattr(details, "cached_tokens", None)},
        },
    )
