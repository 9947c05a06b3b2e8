"""The Anthropic transport — the Messages API through an injected ``anthropic.AsyncAnthropic`` — and
:class:`AnthropicLLM`, the full stack over it. Needs the ``anthropic`` extra (``pip install
'ragrecall[anthropic]'``).

Structured output goes through tool use: the output model's JSON schema is offered as the one tool, and
``tool_choice`` forces the model to call it; the tool call's input is the reply. System messages become the
``system`` parameter. ``stop_reason == "max_tokens"`` is a reply cut off at the token limit, as OpenAI's
``finish_reason == "length"``; ``"refusal"`` is a refusal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .._sync import on_runner_loop
from ..errors import ConfigurationError
from ..usage import Usage, read_count
from ._bounded import bound_replies
from ._cache import ResponseCache
from ._pricing import ModelPrice
from ._protocol import LLMReply, LLMRequest, OutputT, accept_reply
from ._retry import RetryPolicy
from ._schema import sent_schema
from ._scrub import Scrubber, client_secrets, public_url
from ._stack import LLMStack
from ._transport import read_body, sdk_failure

try:
    import anthropic
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the Anthropic transport needs the anthropic package: pip install 'ragrecall[anthropic]'"
    ) from exc

__all__ = ["AnthropicLLM", "AnthropicTransport", "default_client"]

_TOOL_DESCRIPTION = "Give your answer by calling this tool; its input is the JSON object the instructions ask for."


class AnthropicTransport:
    """Sends one Messages API request; turns the reply or the failure into ragrecall's terms.

    Args:
        client: an ``anthropic.AsyncAnthropic``, used through ``client.with_options(max_retries=0,
            timeout=request_timeout)`` so that only the retry layer retries. A wrapper on the class's
            ``create`` is honoured as it is; one set on this client object (``client.messages.create =
            wrapper``, an instance attribute) is called instead of the copy's, with ``timeout``, and sends
            through ``client`` itself (with its own ``max_retries``). Replies are read under the size bound
            of :mod:`ragrecall.llm._bounded`.
        model: the model name, e.g. ``"claude-sonnet-4-5"``.
        max_tokens: the completion token limit (the Messages API requires one).
        temperature: sampling temperature (0 by default; None: not sent, for models that refuse it). Sent in
            the JSON body directly, since recent SDKs no longer take it as an argument.
        extra_body: extra JSON fields merged into every request.
        request_timeout: the SDK's own timeout (the retry layer's deadline is the wall-clock bound).
    """

    def __init__(
        self,
        client: anthropic.AsyncAnthropic,
        model: str,
        *,
        max_tokens: int = 4096,
        temperature: float | None = 0.0,
        extra_body: Mapping[str, Any] | None = None,
        request_timeout: float = 120.0,
    ) -> None:
        if not isinstance(client, anthropic.AsyncAnthropic):
            raise ConfigurationError(f"client must be an anthropic.AsyncAnthropic, got {type(client).__name__}")
        if not isinstance(model, str) or not model:
            raise ConfigurationError(f"model must be a non-empty string, got {model!r}")
        if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
            raise ConfigurationError(f"max_tokens must be an integer >= 1, got {max_tokens!r}")
        self.model = model
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.extra_body = dict(extra_body or {})
        bound_replies(client)
        self._given = client
        self._timeout = request_timeout
        self._client = client.with_options(max_retries=0, timeout=request_timeout)
        self._scrubber = Scrubber(*client_secrets(client))
        self.endpoint = public_url(str(client.base_url))

    @property
    def model_name(self) -> str:
        """The model name, as recorded in results."""
        return self.model

    def settings(self) -> dict[str, Any]:
        """What changes this transport's answers besides the model, and the endpoint asked."""
        return {
            "provider": "anthropic",
            "max_tokens": self.max_tokens,
            "temperature": self.temperature,
            "extra_body": self.extra_body,
            "endpoint": self.endpoint,
        }

    def documents(self, request: LLMRequest[Any]) -> list[dict[str, Any]]:
        """The identity of the one request this transport sends for ``request``."""
        return [{**self._body(request), "prompt_version": request.prompt_version, **request.identity_extra()}]

    def _body(self, request: LLMRequest[Any]) -> dict[str, Any]:
        system = "\n\n".join(m["content"] for m in request.messages if m["role"] == "system")
        messages = [{"role": m["role"], "content": m["content"]} for m in request.messages if m["role"] != "system"]
        schema = sent_schema(request.output, strict=False)
        tool = {"name": request.output.__name__, "description": _TOOL_DESCRIPTION, "input_schema": schema}
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": messages,
            "tools": [tool],
            "tool_choice": {"type": "tool", "name": tool["name"]},
        }
        if system:
            body["system"] = system
        extra = dict(self.extra_body)
        if self.temperature is not None:
            extra.setdefault("temperature", self.temperature)
        if extra:
            body["extra_body"] = extra
        return body

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """Send ``request`` once and check the reply.

        Raises:
            InvalidReplyError: the reply has no tool call or text, is refused, cut off, or fails the output schema
                or the request's invariants.
            TransportError: the request failed (status, connection, deadline, a body that is not a message).
        """
        body = self._body(request)
        document = {**body, "prompt_version": request.prompt_version}
        scrub = self._scrubber
        create: Any = self._client.messages.create
        options: dict[str, Any] = {}
        own = vars(self._given.messages).get("create") if hasattr(self._given.messages, "__dict__") else None
        if own is not None:  # a wrapper set on the user's client object: the copy does not carry it
            create, options = own, {"timeout": self._timeout}
        try:
            message = await on_runner_loop(create(**body, **options))
        except Exception as exc:
            failure = sdk_failure(exc, anthropic, endpoint=self.endpoint, model=self.model, scrubber=scrub)
            if failure is None:
                raise
        else:
            return self._reply(message, request, document)
        raise failure  # outside the handler: the SDK's exception (the request, its key) is not chained

    def _reply(self, message: Any, request: LLMRequest[OutputT], document: dict[str, Any]) -> LLMReply[OutputT]:
        """The checked reply read from a Messages API ``message``."""
        scrub = self._scrubber
        read = read_body(_read_message, message, endpoint=self.endpoint, scrubber=scrub)
        raw, stop, usage = read
        return accept_reply(
            scrub.scrub_reply(raw),
            request,
            usage,
            finish_reason="length" if stop == "max_tokens" else stop,
            refusal=scrub.scrub_reply(raw or "no reason given") if stop == "refusal" else None,
            sent=document,
        )


def _read_message(message: Any) -> tuple[str, str | None, Usage] | str:
    """The reply text, stop reason and usage of a message; a description of the body when it is not one (the
    SDK builds its objects without validating them, so every field is checked here)."""
    if not isinstance(message, anthropic.types.Message):
        return message if isinstance(message, str) else repr(message)[:200]
    extra = message.model_extra or {}
    if extra.get("error") is not None:
        return f"an error object: {extra['error']!r}"[:300]
    if not isinstance(message.content, list):
        return "a message without content blocks"
    stop = message.stop_reason if isinstance(message.stop_reason, str) else None
    text = _reply_text(message)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "the field 'content' holds a lone surrogate (an escape such as \\ud800), not text"
    return text, stop, _message_usage(message.usage)


def _message_usage(usage: Any) -> Usage:
    """The usage of one message, its counts read by :func:`~ragrecall.usage.read_count`; unknown when the
    usage is absent or a count is not one. Anthropic counts prompt-cache reads and writes apart from
    ``input_tokens``; all three are prompt tokens."""
    tokens_in = read_count(getattr(usage, "input_tokens", None))
    tokens_out = read_count(getattr(usage, "output_tokens", None))
    cache_read = read_count(getattr(usage, "cache_read_input_tokens", None) or 0)
    cache_write = read_count(getattr(usage, "cache_creation_input_tokens", None) or 0)
    if tokens_in is None or tokens_out is None or cache_read is None or cache_write is None:
        return Usage.unknown()
    prompt = tokens_in + cache_read + cache_write
    return Usage(requests=1, prompt_tokens=prompt, completion_tokens=tokens_out, cached_tokens=cache_read)


def default_client() -> anthropic.AsyncAnthropic:
    """An ``anthropic.AsyncAnthropic()`` built from the environment (``ANTHROPIC_API_KEY``)."""
    return anthropic.AsyncAnthropic()


def _reply_text(message: Any) -> str:
    """The tool call's input as JSON text, else the text blocks joined (shown to the model if invalid)."""
    texts: list[str] = []
    for block in message.content:
        if getattr(block, "type", None) == "tool_use" and isinstance(getattr(block, "input", None), dict):
            return json.dumps(block.input, ensure_ascii=False)
        text = getattr(block, "text", None)
        if isinstance(text, str):
            texts.append(text)
    return "".join(texts)


class AnthropicLLM(LLMStack):
    """The Anthropic Messages API with every layer: cache, concurrency bound, deadlines and retries, breaker,
    usage and cost (see :class:`LLMStack`) over an :class:`AnthropicTransport`.

    Args:
        client, model, max_tokens, temperature, extra_body: see :class:`AnthropicTransport`.
        retry, cache, prices, max_concurrency, breaker_threshold, breaker_window: see :class:`LLMStack`.
            Anthropic models have no built-in price: pass ``prices`` for a cost.
    """

    transport: AnthropicTransport

    def __init__(
        self,
        client: anthropic.AsyncAnthropic,
        model: str,
        *,
        max_tokens: int = 4096,
        temperature: float | None = 0.0,
        extra_body: Mapping[str, Any] | None = None,
        retry: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        prices: Mapping[str, ModelPrice] | None = None,
        max_concurrency: int = 16,
        breaker_threshold: int | None = 3,
        breaker_window: int = 20,
    ) -> None:
        retry = retry or RetryPolicy()
        transport = AnthropicTransport(
            client,
            model,
            max_tokens=max_tokens,
            temperature=temperature,
            extra_body=extra_body,
            request_timeout=retry.request_timeout,
        )
        super().__init__(
            transport,
            retry=retry,
            cache=cache,
            prices=prices,
            max_concurrency=max_concurrency,
            breaker_threshold=breaker_threshold,
            breaker_window=breaker_window,
        )
