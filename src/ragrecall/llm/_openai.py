"""The OpenAI adapter: any OpenAI-compatible chat-completions endpoint through an injected ``AsyncOpenAI``."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal, TypeVar

import openai
from pydantic import BaseModel

from .._sync import on_runner_loop
from ..errors import CacheMissError, ConfigurationError, LLMRequestError
from ..usage import Usage
from ._cache import CachedReply, ResponseCache, cache_key
from ._pricing import ModelPrice, cost_usd
from ._protocol import InvalidReplyError, LLMReply, LLMRequest, OutputT
from ._retry import RetryPolicy

__all__ = ["OpenAILLM", "OutputMode", "llm_factory", "strict_json_schema"]

OutputMode = Literal["auto", "json_schema", "json_object"]
T = TypeVar("T")


class OpenAILLM:
    """Chat completions with structured output, one retry policy, an optional cache, usage and cost.

    Args:
        client: an ``openai.AsyncOpenAI`` (or ``AsyncAzureOpenAI``); point ``base_url`` at vLLM, Ollama or
            any OpenAI-compatible server. It is used through ``client.with_options(max_retries=0,
            timeout=retry.request_timeout)``: the SDK's own retries are off so that only ``retry`` retries.
        model: the model name sent with each request.
        output_mode: ``"json_schema"`` (structured outputs: ``response_format`` carries the strict JSON schema
            of the output model), ``"json_object"`` (JSON mode; the reply is validated by pydantic only), for
            servers without structured outputs, or ``"auto"`` (default): structured outputs until the server
            rejects them with a 400 that names the response format, then JSON mode for the adapter's life.
        temperature: sampling temperature (0 by default, for repeatable judgments).
        seed: sent as ``seed`` (None: not sent).
        max_tokens: completion token limit (None: the server's default).
        extra_body: extra JSON fields merged into every request (e.g. vLLM's ``guided_decoding_backend``).
        retry: the retry policy; :class:`RetryPolicy` defaults when None.
        cache: a :class:`ResponseCache`; None (default) switches caching off.
        prices: price table merged over the built-in one, for the cost in each usage record.

    One adapter (and its client) can serve many ``score()`` and ``await ascore()`` calls, in any order:
    every HTTP call runs on ragrecall's background loop (:func:`ragrecall._sync.on_runner_loop`), because
    httpx binds its connection pool to the loop that first used it. Give ragrecall a client of its own
    rather than one your application also uses on another loop.
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
        retry: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        prices: Mapping[str, ModelPrice] | None = None,
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
        self._effective_mode: Literal["json_schema", "json_object"] = (
            "json_object" if output_mode == "json_object" else "json_schema"
        )
        self.temperature = temperature
        self.seed = seed
        self.max_tokens = max_tokens
        self.extra_body = dict(extra_body or {})
        self.retry = retry or RetryPolicy()
        self.cache = cache
        self.prices = dict(prices or {})
        self._formats: dict[type[BaseModel], dict[str, Any]] = {}
        self._client = client.with_options(max_retries=0, timeout=self.retry.request_timeout)

    @property
    def model_name(self) -> str:
        """The model name, as recorded in results."""
        return self.model

    def settings(self) -> dict[str, Any]:
        """What changes this adapter's answers besides the model: sampling, output mode, extra fields."""
        return {"output_mode": self.output_mode, **self.sampling_params(), "extra_body": self.extra_body}

    def sampling_params(self) -> dict[str, Any]:
        """The request fields besides messages and response format that change the answer."""
        params: dict[str, Any] = {"temperature": self.temperature}
        if self.seed is not None:
            params["seed"] = self.seed
        if self.max_tokens is not None:
            params["max_tokens"] = self.max_tokens
        return params

    def response_format(self, output: type[BaseModel]) -> dict[str, Any]:
        """The ``response_format`` sent for ``output`` in this adapter's output mode (built once per type)."""
        if self._effective_mode == "json_object":
            return {"type": "json_object"}
        cached = self._formats.get(output)
        if cached is None:
            cached = {
                "type": "json_schema",
                "json_schema": {"name": output.__name__, "schema": strict_json_schema(output), "strict": True},
            }
            self._formats[output] = cached
        return cached

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """Send ``request`` (or answer it from the cache) and validate the reply.

        Raises:
            InvalidReplyError: the reply is empty, refused, cut off, or fails the output schema.
            LLMRequestError: the request failed and the retry policy gave up.
            CacheMissError: the cache is replay-only and has no reply for this request.
        """
        try:
            return await self._generate(request)
        except LLMRequestError as exc:
            if self.output_mode != "auto" or self._effective_mode != "json_schema" or not _schema_refused(exc):
                raise
            self._effective_mode = "json_object"
            return await self._generate(request)

    async def _generate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        messages = [dict(m) for m in request.messages]
        response_format = self.response_format(request.output)
        params = self.sampling_params()
        key: str | None = None
        if self.cache is not None:
            key = cache_key(
                model=self.model,
                messages=messages,
                output_schema=request.output.model_json_schema(),
                params={**params, "response_format": response_format, "extra_body": self.extra_body},
                prompt_version=request.prompt_version,
            )
            hit = self.cache.get(key)
            if hit is not None:
                usage = Usage(cached_requests=1)
                return LLMReply.validate(hit.raw, request.output, usage)
            if self.cache.replay_only:
                raise CacheMissError(
                    f"replay-only cache {self.cache.path} has no reply for this request "
                    f"(model={self.model!r}, task={request.task!r}, prompt={request.prompt_version!r}, key={key[:16]})"
                )

        # The SDK's overloads do not accept a dict built at run time; the payload is checked by the server.
        create: Any = self._client.chat.completions.create

        async def send() -> Any:
            return await on_runner_loop(
                create(
                    model=self.model,
                    messages=messages,
                    response_format=response_format,
                    extra_body=self.extra_body or None,
                    **params,
                )
            )

        completion = await self.retry.call(send)
        prompt_tokens = completion.usage.prompt_tokens if completion.usage else 0
        completion_tokens = completion.usage.completion_tokens if completion.usage else 0
        usage = Usage(
            requests=1,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            cost_usd=cost_usd(self.model, prompt_tokens, completion_tokens, self.prices),
        )
        choice = completion.choices[0] if completion.choices else None
        message = choice.message if choice is not None else None
        if message is None or not message.content:
            refusal = getattr(message, "refusal", None) if message is not None else None
            problem = f"the model refused: {refusal}" if refusal else "the reply is empty"
            raise InvalidReplyError(problem, raw="", usage=usage)
        raw = message.content
        if self.cache is not None and key is not None:
            self.cache.put(
                key,
                CachedReply(raw, prompt_tokens, completion_tokens),
                model=self.model,
                prompt_version=request.prompt_version,
            )
        if choice is not None and choice.finish_reason == "length":
            raise InvalidReplyError(
                "the reply was cut off at the token limit; answer more briefly", raw=raw, usage=usage
            )
        return LLMReply.validate(raw, request.output, usage)


def _schema_refused(exc: LLMRequestError) -> bool:
    """True when the server answered 400 and blamed the structured-output request."""
    cause = exc.__cause__
    if not isinstance(cause, openai.BadRequestError):
        return False
    text = str(cause).lower()
    return any(word in text for word in ("response_format", "json_schema", "structured output"))


def llm_factory(
    model: str = "gpt-4o-mini",
    client: openai.AsyncOpenAI | None = None,
    *,
    provider: str = "openai",
    **options: Any,
) -> OpenAILLM:
    """An :class:`OpenAILLM` for ``model``, in the Ragas spelling.

    Without ``client``, an ``openai.AsyncOpenAI()`` is built now from the environment (``OPENAI_API_KEY``,
    ``OPENAI_BASE_URL``). ``options`` are :class:`OpenAILLM`'s keyword arguments.
    """
    if provider != "openai":
        raise ConfigurationError(
            f"provider {provider!r} is not built in; pass an OpenAI-compatible AsyncOpenAI client with its base_url"
        )
    return OpenAILLM(client if client is not None else openai.AsyncOpenAI(), model, **options)


@lru_cache(maxsize=128)
def _strict_schema_cached(output: type[BaseModel]) -> dict[str, Any]:
    schema = copy.deepcopy(output.model_json_schema())
    _make_strict(schema)
    return schema


def strict_json_schema(output: type[BaseModel]) -> dict[str, Any]:
    """``output``'s JSON schema in the form structured outputs accept: every object closed, every field required."""
    return copy.deepcopy(_strict_schema_cached(output))


def _make_strict(node: Any) -> None:
    if isinstance(node, dict):
        if node.get("type") == "object" and "properties" in node:
            node["additionalProperties"] = False
            node["required"] = list(node["properties"])
        node.pop("default", None)
        for value in node.values():
            _make_strict(value)
    elif isinstance(node, list):
        for value in node:
            _make_strict(value)
