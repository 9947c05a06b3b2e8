"""The concurrency layer: a bound on requests in flight, whatever fans them out.

One metric call may send several requests at once (a long context list judged in chunks), so a bound on
sample-metric pairs does not bound requests. :func:`ragrecall.evaluate` sets :data:`REQUEST_LIMIT` to a
semaphore of its ``max_concurrency`` for the run; outside a run each stack uses its own limit.
"""

from __future__ import annotations

import asyncio
import contextvars
import weakref

from ..errors import ConfigurationError
from ._layer import Layer
from ._protocol import LLM, LLMReply, LLMRequest, OutputT

__all__ = ["REQUEST_LIMIT", "Limited"]

REQUEST_LIMIT: contextvars.ContextVar[asyncio.Semaphore | None] = contextvars.ContextVar(
    "ragrecall_request_limit", default=None
)
"""The run-wide bound on LLM requests in flight, set by ``evaluate`` for the tasks of one run."""


class Limited(Layer):
    """At most ``max_concurrency`` of ``inner``'s requests in flight (or the run's bound, inside a run)."""

    def __init__(self, inner: LLM, max_concurrency: int = 16) -> None:
        if isinstance(max_concurrency, bool) or not isinstance(max_concurrency, int) or max_concurrency < 1:
            raise ConfigurationError(f"max_concurrency must be an integer >= 1, got {max_concurrency!r}")
        super().__init__(inner)
        self.max_concurrency = max_concurrency
        # asyncio primitives belong to one loop; sync score() and notebook awaits may use different ones.
        self._own: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """``inner.agenerate(request)`` once a slot is free."""
        async with self._semaphore():
            return await self.inner.agenerate(request)

    def _semaphore(self) -> asyncio.Semaphore:
        shared = REQUEST_LIMIT.get()
        if shared is not None:
            return shared
        loop = asyncio.get_running_loop()
        own = self._own.get(loop)
        if own is None:
            own = self._own[loop] = asyncio.Semaphore(self.max_concurrency)
        return own
