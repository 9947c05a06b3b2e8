"""One LLM stack for every provider: the layers composed once over a transport.

Outermost first::

    Cached      answers from the response cache; stores only checked replies; replays without a network
    Limited     at most max_concurrency requests in flight (the run's bound inside evaluate)
    Retrying    bounded retries with backoff and Retry-After, within total_timeout
    Breaker     stops a run whose endpoint failed every recent attempt (dead at the start or mid-run)
    Deadline    a wall-clock deadline per attempt (request_timeout), the whole reply body included
    Metered     prices the tokens
    transport   sends one request: OpenAI, Anthropic, or any object with ``model_name`` and ``agenerate``

Cache hits never wait for a slot, and the breaker sees every attempt, timed-out ones included, so that a
dead endpoint is noticed after a few attempts rather than a few retry cycles.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._breaker import Breaker
from ._cache import ResponseCache
from ._cached import Cached, request_documents
from ._layer import Layer
from ._limit import Limited
from ._meter import Metered
from ._pricing import ModelPrice
from ._protocol import LLM, LLMReply, LLMRequest, OutputT
from ._retry import Deadline, Retrying, RetryPolicy

__all__ = ["LLMStack", "Named"]


class LLMStack:
    """Every layer over ``transport``, as one :class:`~ragrecall.llm.LLM`.

    Args:
        transport: what sends a request. A transport may also offer ``endpoint`` (its base URL, named in
            errors and in checkpoints), ``settings()`` (what changes its answers) and ``documents(request)``
            (the identity of the requests it may send, for cache keys); without them the stack uses the
            model name and the request itself.
        retry: the retry and deadline policy (:class:`RetryPolicy` defaults when None).
        cache: a :class:`ResponseCache`; None switches caching off.
        prices: price table merged over the built-in one.
        max_concurrency: requests in flight at once outside :func:`ragrecall.evaluate` (which sets its own).
        breaker_threshold: dead failures of one kind since the last valid reply that stop the run (see
            :class:`Breaker`); None: no breaker.
        breaker_window: failures of any kind since the last valid reply that stop the run.
    """

    def __init__(
        self,
        transport: LLM,
        *,
        retry: RetryPolicy | None = None,
        cache: ResponseCache | None = None,
        prices: Mapping[str, ModelPrice] | None = None,
        max_concurrency: int = 16,
        breaker_threshold: int | None = 3,
        breaker_window: int = 20,
    ) -> None:
        self.transport = transport
        self.retry = retry or RetryPolicy()
        self.cache = cache
        self.prices = dict(prices or {})
        sender: LLM = Deadline(Named(Metered(transport, self.prices), transport), self.retry.request_timeout)
        if breaker_threshold is not None:
            self.breaker: Breaker | None = Breaker(sender, threshold=breaker_threshold, window=breaker_window)
            sender = self.breaker
        else:
            self.breaker = None
        sender = Limited(Retrying(Named(sender, transport), self.retry, deadline_inside=True), max_concurrency)
        self._outer: LLM = Cached(Named(sender, transport), cache) if cache is not None else sender

    @property
    def model_name(self) -> str:
        """The transport's model name, as recorded in results."""
        return self.transport.model_name

    @property
    def endpoint(self) -> str | None:
        """The transport's base URL (without credentials), when it has one."""
        endpoint = getattr(self.transport, "endpoint", None)
        return endpoint if isinstance(endpoint, str) else None

    def settings(self) -> dict[str, Any]:
        """What changes this LLM's answers besides the model, and where it is asked (the endpoint)."""
        settings = getattr(self.transport, "settings", None)
        out: dict[str, Any] = dict(settings()) if callable(settings) else {}
        if self.endpoint is not None:
            out.setdefault("endpoint", self.endpoint)
        return out

    def documents(self, request: LLMRequest[Any]) -> list[dict[str, Any]]:
        """The identity documents of the requests the transport may send for ``request``."""
        return request_documents(self.transport, request)

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """Answer ``request`` through every layer (see the module docstring).

        Raises:
            InvalidReplyError: the reply failed a check (the repair loop shows the problem to the model).
            LLMRequestError: the request failed and the retry policy gave up.
            EndpointDownError: the endpoint is known dead; nothing was sent.
            CacheMissError: the cache is replay-only and holds no reply for this request.
        """
        return await self._outer.agenerate(request)


class Named(Layer):
    """``inner`` seen with the transport's endpoint and request identity, for the layers that name or key
    requests (the deadline message, the cache)."""

    def __init__(self, inner: LLM, transport: LLM) -> None:
        super().__init__(inner)
        self.transport = transport
        self.endpoint: Any = getattr(transport, "endpoint", None)

    def documents(self, request: LLMRequest[Any]) -> list[dict[str, Any]]:
        return request_documents(self.transport, request)

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        return await self.inner.agenerate(request)
