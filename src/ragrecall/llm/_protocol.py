"""The LLM protocol: chat messages and a pydantic output model in, the parsed object and its usage out."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
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
    "accept_reply",
    "checked_reply",
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
    check: Callable[[Any], None] | None = field(default=None, compare=False, repr=False)
    """The invariants a parsed reply must also satisfy (raises InvalidReplyError or ValueError when not).
    Set by :func:`ragrecall.llm.ask`; the cache stores a reply only once it passed them."""
    variant: int | None = None
    """Tells apart requests that are meant to be asked more than once with the same messages (the second,
    third... judgement of a claim with ``votes``): it joins the request's identity, so each is sent and
    cached on its own. None for an ordinary request."""

    def with_messages(self, messages: tuple[Message, ...]) -> LLMRequest[OutputT]:
        """The same request with another conversation (used to ask again after an invalid reply)."""
        return LLMRequest(messages, self.output, self.prompt_version, self.task, self.inputs, self.check, self.variant)

    def identity_extra(self) -> dict[str, Any]:
        """What an identity document adds for this request beyond messages, schema and settings: the
        ``variant`` when there is one (so that documents of ordinary requests, and caches, stay as they were)."""
        return {} if self.variant is None else {"variant": self.variant}


@dataclass(frozen=True)
class LLMReply(Generic[OutputT]):
    """A validated reply: the parsed object, the raw text it came from, and what it cost."""

    parsed: OutputT
    raw: str
    usage: Usage
    attempts: int = 1
    """How many replies it took to get this valid one (1 + repairs); set by :func:`ragrecall.llm.ask`."""
    finish_reason: str | None = None
    """Why the model stopped (``"stop"``; ``"length"`` never reaches here), when the transport knows."""
    sent: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    """The identity document of the request actually sent (its cache identity), when a transport sent it."""
    checked: bool = False
    """True when ``request.check`` already passed on this reply."""

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

    def __init__(
        self,
        problem: str,
        *,
        raw: str | None = None,
        usage: Usage | None = None,
        sent: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(problem)
        self.problem = problem
        self.raw = raw
        self.usage = usage or Usage()
        self.sent = sent


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


def accept_reply(
    raw: str | None,
    request: LLMRequest[OutputT],
    usage: Usage,
    *,
    finish_reason: str | None = None,
    refusal: str | None = None,
    sent: Mapping[str, Any] | None = None,
) -> LLMReply[OutputT]:
    """Every check a reply must pass before anything trusts or caches it, live or replayed, in one place.

    A refusal, an empty reply, a reply cut off at the token limit (``finish_reason == "length"``), a reply
    that fails ``request.output`` and one that fails ``request.check`` each raise :class:`InvalidReplyError`
    carrying the text, ``usage`` and ``sent``, so that the repair loop can show the problem to the model.
    """
    text = raw or ""
    if refusal:
        raise InvalidReplyError(f"the model refused: {refusal}", raw=text, usage=usage, sent=sent)
    if not text.strip():
        raise InvalidReplyError("the reply is empty", raw=text, usage=usage, sent=sent)
    if finish_reason == "length":
        raise InvalidReplyError(
            "the reply was cut off at the token limit; answer more briefly", raw=text, usage=usage, sent=sent
        )
    try:
        parsed = parse_reply(text, request.output, usage=usage)
    except InvalidReplyError as exc:
        exc.sent = sent
        raise
    reply = LLMReply(parsed, text, usage, finish_reason=finish_reason, sent=sent)
    return checked_reply(reply, request)


def checked_reply(reply: LLMReply[OutputT], request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
    """``reply`` marked as checked, after running ``request.check`` on it when it has not passed it yet.

    Raises:
        InvalidReplyError: the check failed; the error carries the reply's text, usage and ``sent``.
    """
    if reply.checked or request.check is None:
        return reply if reply.checked else replace(reply, checked=True)
    try:
        request.check(reply.parsed)
    except InvalidReplyError as exc:
        raise InvalidReplyError(exc.problem, raw=reply.raw, usage=reply.usage, sent=reply.sent) from exc
    except ValueError as exc:
        raise InvalidReplyError(str(exc), raw=reply.raw, usage=reply.usage, sent=reply.sent) from exc
    return replace(reply, checked=True)


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
