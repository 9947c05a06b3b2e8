"""The OpenAI transport — any OpenAI-compatible chat-completions endpoint through an injected ``AsyncOpenAI`` —
and :class:`OpenAILLM`, the full stack over it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar

import openai
from openai.types.chat import ChatCompletion
from pydantic import BaseModel

from .._sync import on_runner_loop
from ..errors import ConfigurationError
from ._bounded import bound_replies
from ._cache import ResponseCache
from ._openai_post import create_completion
from ._openai_reply import read_completion, read_completion_json
from ._pricing import ModelPrice
from ._protocol import LLMReply, LLMRequest, OutputT, accept_reply
from ._retry import RetryPolicy
from ._schema import output_schema, strict_json_schema
from ._scrub import Scrubber, client_secrets, public_url
from ._stack import LLMStack
from ._transport import read_body, sdk_failure

__all__ = ["OpenAILLM", "OpenAITransport", "OutputMode", "llm_factory"]

OutputMode = Literal["auto", "json_schema", "json_object"]
T = TypeVar("T")
_Mode = Literal["json_schema", "json_object"]


class _SchemaRefused(Exception):
    """The server answered 400 and blamed the structured-output request."""


class OpenAITransport:
    """Sends one chat-completions request; turns the reply or the failure into ragrecall's terms.

    Args:
        client: an ``openai.AsyncOpenAI`` (or ``AsyncAzureOpenAI``), used through ``client.with_options(
            max_retries=0, timeout=request_timeout)``: the SDK's own retries are off so that only the retry
            layer retries. What wraps ``create`` is honoured: a wrapper on the class ``AsyncCompletions`` or
            one set on this client object (``client.chat.completions.create = wrapper``, an instance
            attribute, or a ``completions`` object of another class) sees every request — the latter sent by
            ``client`` itself, with its own ``max_retries``. Replies of any path are read under the size
            bound of :mod:`ragrecall.llm._bounded` (``$RAGRECALL_MAX_REPLY``, 64 MiB decompressed), installed
            on the client's connection pool.
        model: the model name sent with each request.
        output_mode: ``"json_schema"`` (structured outputs: ``response_format`` carries the strict JSON schema
            of the output model), ``"json_object"`` (JSON mode; the reply is validated by pydantic only), or
            ``"auto"``: structured outputs until the server rejects them with a 400 that names the response
            format, then JSON mode for the transport's life (the same request is sent again at once).
        temperature, seed, max_tokens, extra_body: sent with every request (``seed``/``max_tokens`` None: not
            sent; ``extra_body`` is merged into the JSON body, e.g. vLLM's ``guided_decoding_backend``).
        request_timeout: the SDK's own timeout (the retry layer's deadline is the wall-clock bound).

    Every HTTP call runs on ragrecall's background loop (:func:`ragrecall._sync.on_runner_loop`), because httpx
    binds its connection pool to the loop that first used it. The client's API key is scrubbed from every
    message and reply text that comes back.
    """

    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        *,
        output_mode: OutputMode = "auto",
        temperature: float = 0.0,
        seed: int | None = 0,
        max_tokens: int | None = None,
        extra_body: Mapping[str, Any] | None = None,
        request_timeout: float = 120.0,
    ) -> None:
        if isinstance(client, openai.OpenAI):
            raise ConfigurationError("client must be an openai.AsyncOpenAI; got the synchronous openai.OpenAI")
        if not isinstance(client, openai.AsyncOpenAI):
            raise ConfigurationError(f"client must be an openai.AsyncOpenAI, got {type(client).__name__}")
        if not isinstance(model, str) or not model:
            raise ConfigurationError(f"model must be a non-empty string, got {model!r}")
        if output_mode not in ("auto", "json_schema", "json_object"):
            raise ConfigurationError(f"output_mode must be 'auto', 'json_schema' or 'json_object', got {output_mode!r}")
        self.model = model
        self.output_mode: OutputMode = output_mode
        # What "auto" has settled on: structured outputs until the server turns them down.
        self._effective_mode: _Mode = "json_object" if output_mode == "json_object" else "json_schema"
        self.temperature = temperature
        self.seed = seed
        self.max_tokens = max_tokens
        self.extra_body = dict(extra_body or {})
        self._formats: dict[type[BaseModel], dict[str, Any]] = {}
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

    @property
    def client(self) -> openai.AsyncOpenAI:
        """The client requests go through (the SDK's own retries off)."""
        return self._client

    def settings(self) -> dict[str, Any]:
        """What changes this transport's answers besides the model, and the endpoint asked."""
        return {
            "output_mode": self.output_mode,
            **self.sampling_params(),
            "extra_body": self.extra_body,
            "endpoint": self.endpoint,
        }

    def sampling_params(self) -> dict[str, Any]:
        """The request fields besides messages and response format that change the answer."""
        params: dict[str, Any] = {"temperature": self.temperature}
        if self.seed is not None:
            params["seed"] = self.seed
        if self.max_tokens is not None:
            params["max_tokens"] = self.max_tokens
        return params

    def response_format(self, output: type[BaseModel], mode: _Mode | None = None) -> dict[str, Any]:
        """The ``response_format`` sent for ``output`` in ``mode`` (default: the mode in use; built once)."""
        if (mode or self._effective_mode) == "json_object":
            return {"type": "json_object"}
        cached = self._formats.get(output)
        if cached is None:
            cached = {
                "type": "json_schema",
                "json_schema": {"name": output.__name__, "schema": strict_json_schema(output), "strict": True},
            }
            self._formats[output] = cached
        return cached

    def documents(self, request: LLMRequest[Any]) -> list[dict[str, Any]]:
        """The identity of the request in the mode in use, then (``"auto"`` before any fallback) in JSON mode."""
        modes: list[_Mode] = [self._effective_mode]
        if self.output_mode == "auto" and self._effective_mode == "json_schema":
            modes.append("json_object")
        return [self._document(request, mode) for mode in modes]

    def _document(self, request: LLMRequest[Any], mode: _Mode) -> dict[str, Any]:
        # The same document the cache has always hashed, so caches written before stay valid.
        return {
            "model": self.model,
            "messages": [dict(m) for m in request.messages],
            "output_schema": output_schema(request.output),
            "params": {
                **self.sampling_params(),
                "response_format": self.response_format(request.output, mode),
                "extra_body": self.extra_body,
            },
            "prompt_version": request.prompt_version,
            **request.identity_extra(),
        }

    def scrub(self, text: str) -> str:
        """``text`` (written by a server: an error line of a batch file) without the client's key or echoes
        of it."""
        return self._scrubber.scrub(text)

    def request_body(self, document: Mapping[str, Any]) -> dict[str, Any]:
        """The JSON body of the chat-completions request that ``document`` identifies, as the SDK sends it
        (the body of a batch-input line is exactly this)."""
        params = document["params"]
        body: dict[str, Any] = {
            "model": document["model"],
            "messages": document["messages"],
            "response_format": params["response_format"],
            **self.sampling_params(),
        }
        body.update(self.extra_body)
        return body

    def read_reply(
        self, completion: Any, request: LLMRequest[OutputT], document: Mapping[str, Any]
    ) -> LLMReply[OutputT]:
        """The checked reply in ``completion`` (a ``ChatCompletion``, or the JSON body of one: a reply posted
        directly, a batch output line), by the same checks for live and batch replies.

        Raises:
            InvalidReplyError: the reply is empty, refused, cut off, or fails the output schema or the request's
                invariants.
            TransportError: the body is not a chat completion (retryable).
        """
        reader = read_completion if isinstance(completion, ChatCompletion) else read_completion_json
        scrub = self._scrubber
        read = read_body(reader, completion, endpoint=self.endpoint, scrubber=scrub)
        content, refusal, finish_reason, usage = read
        return accept_reply(
            scrub.scrub_reply(content) if content else content,
            request,
            usage,
            finish_reason=finish_reason,
            refusal=scrub.scrub_reply(refusal) if refusal else None,
            sent=document,
        )

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """Send ``request`` once and check the reply.

        Raises:
            InvalidReplyError: the reply is empty, refused, cut off, or fails the output schema or the request's
                invariants.
            TransportError: the request failed (status, connection, deadline, a body that is not a reply).
        """
        mode = self._effective_mode
        try:
            return await self._send(request, mode)
        except _SchemaRefused:
            self._effective_mode = "json_object"
        return await self._send(request, "json_object")  # outside the handler: nothing of the SDK's is chained

    async def _send(self, request: LLMRequest[OutputT], mode: _Mode) -> LLMReply[OutputT]:
        document = self._document(request, mode)
        scrub = self._scrubber
        try:
            completion = await on_runner_loop(
                create_completion(
                    self._client,
                    self.request_body(document),
                    sampling=self.sampling_params(),
                    extra_body=self.extra_body,
                    given=self._given,
                    timeout=self._timeout,
                )
            )
        except Exception as exc:
            if mode == "json_schema" and self.output_mode == "auto" and _schema_refused(exc):
                raise _SchemaRefused() from None
            failure = sdk_failure(exc, openai, endpoint=self.endpoint, model=self.model, scrubber=scrub)
            if failure is None:
                raise
        else:
            return self.read_reply(completion, request, document)
        # Raised outside the handler, so that it chains nothing: the SDK's exception holds the request that was
        # sent, the key in its headers among it.
        raise failure


class OpenAILLM(LLMStack):
    """An OpenAI-compatible endpoint with every layer: cache, concurrency bound, deadlines and retries,
    breaker, usage and cost (see :class:`LLMStack`) over an :class:`OpenAITransport`.

    Args:
        client, model, output_mode, temperature, seed, max_tokens, extra_body: see :class:`OpenAITransport`;
            point the client's ``base_url`` at vLLM, Ollama or any OpenAI-compatible server.
        retry: the retry and deadline policy; :class:`RetryPolicy` defaults when None.
        cache: a :class:`ResponseCache`; None (default) switches caching off.
        prices: price table merged over the built-in one, for the cost in each usage record.
        max_concurrency: requests in flight at once outside ``evaluate`` (which bounds them itself).
        breaker_threshold, breaker_window: see :class:`LLMStack`.

    One adapter (and its client) can serve many ``score()`` and ``await ascore()`` calls, in any order. Give
    ragrecall a client of its own rather than one your application also uses on another loop.
    """

    transport: OpenAITransport

    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        *,
        output_mode: OutputMode = "auto",
        temperature: float = 0.0,
        seed: int | None = 0,
        max_tokens: int | None = None,
        extra_body: Mapping[str, Any] | None = None,
        retry: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        prices: Mapping[str, ModelPrice] | None = None,
        max_concurrency: int = 16,
        breaker_threshold: int | None = 3,
        breaker_window: int = 20,
    ) -> None:
        retry = retry or RetryPolicy()
        transport = OpenAITransport(
            client,
            model,
            output_mode=output_mode,
            temperature=temperature,
            seed=seed,
            max_tokens=max_tokens,
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

    @property
    def model(self) -> str:
        """The model name sent with each request."""
        return self.transport.model

    @property
    def output_mode(self) -> OutputMode:
        """The output mode asked for (``"auto"`` may have settled on JSON mode since)."""
        return self.transport.output_mode

    def sampling_params(self) -> dict[str, Any]:
        """The request fields besides messages and response format that change the answer."""
        return self.transport.sampling_params()

    def response_format(self, output: type[BaseModel]) -> dict[str, Any]:
        """The ``response_format`` sent for ``output`` in the output mode in use."""
        return self.transport.response_format(output)


def _schema_refused(exc: BaseException) -> bool:
    """True when the server answered 400 and blamed the structured-output request."""
    if not isinstance(exc, openai.BadRequestError):
        return False
    text = str(exc).lower()
    return any(word in text for word in ("response_format", "json_schema", "structured output"))


def llm_factory(
    model: str = "gpt-4o-mini",
    client: Any = None,
    *,
    provider: str = "openai",
    **options: Any,
) -> LLMStack:
    """A full LLM stack for ``model``, in the Ragas spelling.

    ``provider="openai"`` (default) gives an :class:`OpenAILLM`; without ``client`` an ``openai.AsyncOpenAI()``
    is built now from the environment (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``). ``provider="anthropic"``
    gives an :class:`~ragrecall.llm.AnthropicLLM` (the ``anthropic`` extra); without ``client`` an
    ``anthropic.AsyncAnthropic()`` is built from ``ANTHROPIC_API_KEY``. ``options`` are the class's keyword
    arguments.
    """
    if provider == "anthropic":
        from ._anthropic import AnthropicLLM, default_client

        return AnthropicLLM(client if client is not None else default_client(), model, **options)
    if provider != "openai":
        raise ConfigurationError(
            f"provider {provider!r} is not built in (openai, anthropic); for another OpenAI-compatible server "
            "pass an AsyncOpenAI client with its base_url"
        )
    return OpenAILLM(client if client is not None else openai.AsyncOpenAI(), model, **options)
