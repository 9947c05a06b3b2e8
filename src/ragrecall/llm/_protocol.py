"""The LLM protocol: chat messages and a pydantic output model in, the parsed object and its usage out."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypedDict, TypeVar, runtime_checkable

from pydantic import BaseModel, ValidationError

from ..errors import LLMOutputError
from ..usage import Usage

__all__ = [
    "LLM",
    "InvalidReplyError",
    "LLMReply",
    "LLMRequest",
    "Message",
    "OutputT",
    "parse_reply",
]

OutputT = TypeVar("OutputT", bound=BaseModel)


class Message(TypedDict):
    """One chat message, in the OpenAI shape."""

    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True)
class LLMRequest(Generic[OutputT]):
    """What a metric asks of an LLM.

    ``messages`` and ``output`` are all a real model needs. ``prompt_version`` names the prompt that rendered
    the messages (it goes into cache keys). ``task`` and ``inputs`` describe the request in structured form
    for fakes that answer without reading the prose (the offline judge); real adapters ignore them.
    """

    messages: tuple[Message, ...]
    """The conversation, fixed instructions first."""
    output: type[OutputT]
    """The pydantic model the reply must validate against."""
    prompt_version: str | None = None
    """Version string of the prompt that produced ``messages``."""
    task: str | None = None
    """What is asked, e.g. ``"context_recall.judge"``."""
    inputs: Mapping[str, Any] = field(default_factory=dict)
    """The values the prompt was rendered from (reference, claims, contexts...)."""

    def with_messages(self, messages: tuple[Message, ...]) -> LLMRequest[OutputT]:
        """The same request with another conversation (used to ask again after an invalid reply)."""
        return LLMRequest(messages, self.output, self.prompt_version, self.task, self.inputs)


@dataclass(frozen=True)
class LLMReply(Generic[OutputT]):
    """A validated reply: the parsed object, the raw text it came from, and what it cost."""

    parsed: OutputT
    raw: str
    usage: Usage
    attempts: int = 1
    """How many replies it took to get this valid one (1 + repairs); set by :func:`ragrecall.llm.ask`."""

    @classmethod
    def validate(cls, raw: str, output: type[OutputT], usage: Usage) -> LLMReply[OutputT]:
        """Parse ``raw`` into ``output``; raises :class:`InvalidReplyError` (carrying ``usage``) when it fails."""
        return cls(parse_reply(raw, output, usage=usage), raw, usage)


class InvalidReplyError(LLMOutputError):
    """One reply failed its schema or its invariants.

    The repair loop catches it, shows ``problem`` to the model and asks again; callers see it only as the
    cause of the final :class:`LLMOutputError`.

    Attributes:
        raw: the reply text (None when the problem was found after parsing).
        problem: what is wrong, in words the model can act on.
        usage: what the invalid reply cost.
    """

    def __init__(self, problem: str, *, raw: str | None = None, usage: Usage | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.raw = raw
        self.usage = usage or Usage()


@runtime_checkable
class LLM(Protocol):
    """Anything that answers an :class:`LLMRequest` with a validated :class:`LLMReply`.

    Implementations raise :class:`InvalidReplyError` when the reply does not validate against
    ``request.output`` (so that it can be repaired), :class:`~ragrecall.errors.LLMRequestError` when the
    request itself failed after retries, and :class:`~ragrecall.errors.CacheMissError` from a replay-only
    cache.
    """

    @property
    def model_name(self) -> str:
        """The model's name, as recorded in results."""
        ...

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """Answer ``request``; see the class docstring for the errors."""
        ...


def parse_reply(raw: str, output: type[OutputT], *, usage: Usage | None = None) -> OutputT:
    """Validate reply text against ``output``.

    Accepts a JSON object, also when wrapped in a Markdown code fence (which some models add in JSON mode).

    Raises:
        InvalidReplyError: the text is not JSON, or does not match the schema; ``problem`` lists the errors.
    """
    text = _strip_fence(raw)
    try:
        return output.model_validate_json(text)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_context=False)
        if errors and errors[0].get("type") == "json_invalid":
            problem = f"the reply is not valid JSON ({errors[0].get('msg')})"
        else:
            problem = "the reply does not match the required JSON schema: " + "; ".join(
                f"{'.'.join(str(p) for p in e.get('loc', ())) or '<root>'}: {e.get('msg')}" for e in errors[:8]
            )
        raise InvalidReplyError(problem, raw=raw, usage=usage) from exc


def _strip_fence(raw: str) -> str:
    text = raw.strip()
    if text.startswith("```"):
        first_newline = text.find("\n")
        if first_newline != -1 and text.endswith("```"):
            return text[first_newline + 1 : -3].strip()
    return text


def dump_reply(value: BaseModel | Mapping[str, Any] | str) -> str:
    """Reply text for a scripted value: a string as is, a model or mapping as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseModel):
        return value.model_dump_json()
    return json.dumps(value, ensure_ascii=False)
