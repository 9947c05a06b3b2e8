"""The breaker layer: a run whose endpoint is dead stops after a few requests instead of paying retries for
every sample.

It watches every attempt (it sits inside the retry layer). While no request has succeeded yet, failures of
the kinds no wait will fix — no connection, 401, 403, 404, an unknown model, a 200 that is not a reply (a
wrong URL answering with a web page) — and attempts that got no reply before their deadline are counted when
they fail alike; ``threshold`` alike in a row open the breaker. Server errors (5xx) may pass, so they open it
only after ``4 * threshold`` in a row — a few requests' worth of retries, not a whole dataset's; rate limits
(429) never do. An open breaker answers every request at once with
:class:`~ragrecall.errors.EndpointDownError` naming the endpoint and the model, for ``cooldown`` seconds;
then requests may probe again, and the first success closes it. Once a request has succeeded the endpoint is
known to work and later failures are left to the retry policy (for the life of the LLM object: build a new
one for a run against an endpoint that may have gone away since).
"""

from __future__ import annotations

import time

from ..errors import ConfigurationError, EndpointDownError, TransportError
from ._layer import Layer
from ._protocol import LLM, InvalidReplyError, LLMReply, LLMRequest, OutputT

__all__ = ["Breaker"]

_DEAD_STATUS = frozenset({401, 403, 404})


def _signature(exc: TransportError) -> str | None:
    """How a failure that suggests a dead endpoint is told apart from another; None for other failures."""
    if exc.model_not_found:
        return "unknown model"
    if exc.kind in ("connection", "timeout", "malformed"):
        return exc.kind
    if exc.kind == "status" and exc.status in _DEAD_STATUS:
        return f"HTTP {exc.status}"
    if exc.kind == "status" and exc.status is not None and exc.status >= 500:
        return _SERVER_ERRORS
    return None


_SERVER_ERRORS = "HTTP 5xx"
_SERVER_ERROR_FACTOR = 4


class Breaker(Layer):
    """Stops sending when the first attempts of a run all fail alike (see the module docstring).

    Args:
        inner: the LLM whose attempts are watched.
        threshold: alike failures in a row, before any success, that open the breaker.
        cooldown: seconds an open breaker refuses requests before letting one probe.
    """

    def __init__(self, inner: LLM, *, threshold: int = 3, cooldown: float = 30.0) -> None:
        if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 1:
            raise ConfigurationError(f"breaker threshold must be an integer >= 1, got {threshold!r}")
        super().__init__(inner)
        self.threshold = threshold
        self.cooldown = cooldown
        self._worked = False
        self._signature: str | None = None
        self._count = 0
        self._open_until = 0.0
        self._error: str | None = None

    @property
    def is_open(self) -> bool:
        """True while requests are refused."""
        return self._error is not None and time.monotonic() < self._open_until

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """``inner.agenerate(request)``, unless the breaker is open.

        Raises:
            EndpointDownError: the breaker is open, or this failure opened it.
        """
        if self.is_open:
            raise EndpointDownError(self._error or "")
        try:
            reply = await self.inner.agenerate(request)
        except TransportError as exc:
            self._failed(exc)
            if self.is_open:
                raise EndpointDownError(self._error or "") from exc
            raise
        except InvalidReplyError:
            self._worked = True  # the endpoint answers; what it said is the repair loop's business
            raise
        self._worked = True
        self._error = None  # a probe after the cooldown got through: the endpoint works
        return reply

    def _failed(self, exc: TransportError) -> None:
        signature = _signature(exc)
        if self._worked or signature is None:
            self._signature, self._count = None, 0
            return
        if signature == self._signature:
            self._count += 1
        else:
            self._signature, self._count = signature, 1
        needed = self.threshold * (_SERVER_ERROR_FACTOR if signature == _SERVER_ERRORS else 1)
        if self._count >= needed:
            endpoint = exc.endpoint or getattr(self.inner, "endpoint", None) or "the endpoint"
            self._error = (
                f"stopped early: the first {self._count} requests to {endpoint} (model {self.model_name!r}) "
                f"all failed alike ({signature}): {exc}"
            )
            self._open_until = time.monotonic() + self.cooldown
            self._count = needed - 1  # after the cooldown, one more alike failure reopens it
