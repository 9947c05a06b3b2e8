"""The breaker layer: a run whose endpoint is dead — from the start or since a moment ago — stops after a few
requests instead of paying retries for every sample; a flaky endpoint is never stopped.

It sits inside the retry layer and watches every attempt, for the life of the LLM object. The *streak* is the
failures since the last valid reply. A failure is *dead* when no wait will fix it — no connection could be
made (refused, unknown host), 401, 403, 404, an unknown model — and *transient* otherwise: 5xx, a 200 that
is not a reply (a proxy's HTML page), a connection dropped before the reply, an attempt past its deadline,
and a reply that does not parse or fails its checks. Rate limits (429) are not counted.

The breaker opens when every attempt that was already in flight when the streak began has finished, and,
once the endpoint has answered, when the streak has lasted as long as the slowest of its recent valid replies
took (so fast failures cannot outrun slower good replies, whether those were sent before the streak began or
during it; with successes among them the streak never grows), and

- ``threshold`` dead failures of one kind are in the streak; or
- the endpoint never gave a valid reply yet and ``2 * threshold`` transient failures of one kind are in the
  streak (a wrong URL that answers with a page); or
- the streak holds ``window`` failures of any kind (an endpoint that went from working to failing).

An open breaker answers every request at once with :class:`~ragrecall.errors.EndpointDownError`, one line
naming the endpoint and the model, for ``cooldown`` seconds; then it is half-open: one request probes, the
others are still refused; a valid reply closes it, a failure opens it again.
"""

from __future__ import annotations

import time
from collections import Counter, deque

from ..errors import ConfigurationError, EndpointDownError, LLMError, TransportError
from ._layer import Layer
from ._protocol import LLM, InvalidReplyError, LLMReply, LLMRequest, OutputT

__all__ = ["Breaker"]

_DEAD_STATUS = frozenset({401, 403, 404})
_GOOD_REPLIES_KEPT = 16


def failure_kind(exc: LLMError) -> tuple[str, bool] | None:
    """``(signature, dead)`` for a failed attempt: how alike failures are told apart, and whether the cause
    means the endpoint cannot answer at all. None for a failure that says nothing about the endpoint (429)."""
    if isinstance(exc, InvalidReplyError):
        return "replies that do not parse or fail their checks", False
    if not isinstance(exc, TransportError):
        return None
    if exc.model_not_found:
        return "unknown model", True
    if exc.kind == "connection":
        return "no connection", True
    if exc.kind == "status" and exc.status in _DEAD_STATUS:
        return f"HTTP {exc.status}", True
    if exc.kind == "status" and exc.status is not None and exc.status >= 500:
        return "HTTP 5xx", False
    if exc.kind in ("timeout", "malformed", "dropped"):
        return exc.kind, False
    return None


class Breaker(Layer):
    """Stops sending to an endpoint that fails every attempt (see the module docstring for the policy).

    Args:
        inner: the LLM whose attempts are watched.
        threshold: dead failures of one kind in the streak that open the breaker (twice as many transient ones
            of one kind before the endpoint ever answered).
        window: failures of any kind in the streak that open it.
        cooldown: seconds an open breaker refuses requests before letting one probe.
    """

    def __init__(self, inner: LLM, *, threshold: int = 3, window: int = 20, cooldown: float = 30.0) -> None:
        for name, value in (("threshold", threshold), ("window", window)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigurationError(f"breaker {name} must be an integer >= 1, got {value!r}")
        if isinstance(cooldown, bool) or not isinstance(cooldown, (int, float)) or not cooldown >= 0:
            raise ConfigurationError(f"breaker cooldown must be a number >= 0, got {cooldown!r}")
        super().__init__(inner)
        self.threshold = threshold
        self.window = window
        self.cooldown = float(cooldown)
        self._sent = 0
        self._in_flight: set[int] = set()
        self._worked = False
        self._streak: Counter[str] = Counter()
        self._streak_from = 0
        """Attempts numbered below this were in flight (or done) when the streak began."""
        self._streak_began = 0.0
        self._good_took: deque[float] = deque(maxlen=_GOOD_REPLIES_KEPT)
        """How long the most recent valid replies took, in seconds."""
        self._open_until: float | None = None
        self._probing = False
        self._error = ""

    @property
    def attempts(self) -> int:
        """Attempts sent through the breaker so far."""
        return self._sent

    @property
    def is_open(self) -> bool:
        """True while requests are refused (open, or half-open with its probe in flight)."""
        if self._open_until is None:
            return False
        return self._probing or time.monotonic() < self._open_until

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """``inner.agenerate(request)``, unless the breaker is open.

        Raises:
            EndpointDownError: the breaker is open, or this failure opened it.
        """
        if self.is_open:
            raise EndpointDownError(self._error)
        probe = self._open_until is not None
        self._probing = self._probing or probe
        number = self._sent
        self._sent += 1
        self._in_flight.add(number)
        started = time.monotonic()
        try:
            reply = await self.inner.agenerate(request)
        except (TransportError, InvalidReplyError) as exc:
            self._in_flight.discard(number)
            self._failed(exc, probe)
            if self._open_until is not None:
                raise EndpointDownError(self._error) from exc
            raise
        finally:
            self._in_flight.discard(number)
            if probe:
                self._probing = False
        self._good_took.append(time.monotonic() - started)
        self._succeeded()
        return reply

    def _succeeded(self) -> None:
        self._worked = True
        self._streak.clear()
        self._open_until = None

    def _failed(self, exc: LLMError, probe: bool) -> None:
        kind = failure_kind(exc)
        if kind is None:
            return
        signature, dead = kind
        if not self._streak:
            self._streak_from = self._sent
            self._streak_began = time.monotonic()
        self._streak[signature] += 1
        if probe:
            self._open(exc, signature)
            return
        if self._in_flight and min(self._in_flight) < self._streak_from:
            return  # an attempt sent before things went wrong may still succeed
        needed = self.window if self._worked else 2 * self.threshold
        needed = self.threshold if dead else needed
        if self._streak[signature] < needed and sum(self._streak.values()) < self.window:
            return
        if not dead and self._good_took and time.monotonic() - self._streak_began < max(self._good_took):
            return  # a good reply sent during the streak may not have had the time to come back yet
        self._open(exc, signature)

    def _open(self, exc: LLMError, signature: str) -> None:
        endpoint = getattr(exc, "endpoint", None) or getattr(self.inner, "endpoint", None) or "the endpoint"
        failed = sum(self._streak.values())
        since = "since its last valid reply" if self._worked else "and none has succeeded"
        kinds = ", ".join(f"{count} {name}" for name, count in self._streak.most_common())
        detail = " ".join(str(exc).split())[:300]
        self._error = (
            f"stopped early: {endpoint} (model {self.model_name!r}) failed the last {failed} requests {since} "
            f"({kinds}); last error: {detail}"
        )
        self._open_until = time.monotonic() + self.cooldown
