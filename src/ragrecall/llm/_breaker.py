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

**A hang is noticed in seconds.** Once the endpoint has answered, an attempt gets a deadline of its own:
``hang_factor`` times the slowest of the recent valid replies to the same kind of request (its ``task``:
decomposition, judging...), twice that factor times the slowest reply of any kind while none of its kind has come
back, never less than ``hang_floor`` seconds (nor more than ``request_timeout``, the Deadline layer's). An attempt
past it is a timeout (retryable) counted as a *hang*, which is dead-like: two hangs in the streak (``threshold``
when lower), once every attempt in flight when it began has finished, stop the run — with the defaults, an endpoint
that stops answering mid-run is stopped about ``hang_floor`` (8 s) after it went quiet while several requests were
in flight (with one in flight, after two hangs in a row and the wait between: under 20 s), instead of after
``request_timeout`` (120 s) and every retry. A slow but alive endpoint is never stopped: each valid reply moves the
deadline with it (replies four times slower than the slowest of the last 16 would be cut, not replies that slow
down gradually), and any valid reply clears the streak. :meth:`Breaker.overdue` counts the attempts in flight past
the slowest recent reply, for the progress bar.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections import Counter, deque
from collections.abc import Awaitable
from typing import TypeVar

from ..errors import ConfigurationError, EndpointDownError, LLMError, TransportError
from ._layer import Layer
from ._protocol import LLM, InvalidReplyError, LLMReply, LLMRequest, OutputT

__all__ = ["Breaker"]

_DEAD_STATUS = frozenset({401, 403, 404})
_GOOD_REPLIES_KEPT = 16
_HANGS = "requests that hang"
_HANGS_NEEDED = 2
"""Hangs in the streak that stop the run (``threshold`` when lower): each is already 4 times the slowest
recent reply and 8 s at least, and with one request in flight three would take about 30 s."""
T = TypeVar("T")


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
        hang_factor, hang_floor: once the endpoint has answered, an attempt that takes longer than
            ``hang_factor`` times the slowest recent valid reply, and than ``hang_floor`` seconds, is a hang
            (see the module docstring); ``hang_factor=None`` switches this off.
    """

    def __init__(
        self,
        inner: LLM,
        *,
        threshold: int = 3,
        window: int = 20,
        cooldown: float = 30.0,
        hang_factor: float | None = 4.0,
        hang_floor: float = 8.0,
    ) -> None:
        for name, value in (("threshold", threshold), ("window", window)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigurationError(f"breaker {name} must be an integer >= 1, got {value!r}")
        for name, number in (("cooldown", cooldown), ("hang_floor", hang_floor), ("hang_factor", hang_factor or 1)):
            if isinstance(number, bool) or not isinstance(number, (int, float)) or not number >= 0:
                raise ConfigurationError(f"breaker {name} must be a number >= 0, got {number!r}")
        if hang_factor is not None and not hang_factor >= 1:
            raise ConfigurationError(f"breaker hang_factor must be a number >= 1 or None, got {hang_factor!r}")
        super().__init__(inner)
        self.threshold = threshold
        self.window = window
        self.cooldown = float(cooldown)
        self.hang_factor = hang_factor
        self.hang_floor = float(hang_floor)
        self._started: dict[int, float] = {}
        """When each attempt in flight was sent."""
        self._sent = 0
        self._in_flight: set[int] = set()
        self._worked = False
        self._streak: Counter[str] = Counter()
        self._streak_from = 0
        """Attempts numbered below this were in flight (or done) when the streak began."""
        self._streak_began = 0.0
        self._good_took: deque[float] = deque(maxlen=_GOOD_REPLIES_KEPT)
        self._took_by_task: dict[str, deque[float]] = {}
        """The same, per kind of request (decomposition, judging...): their replies take different times."""
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
        started = self._started[number] = time.monotonic()
        task = _task(request)
        limit = self.hang_deadline(task)
        hang: TransportError | None = None
        try:
            if limit is None:
                reply = await self.inner.agenerate(request)
            else:
                try:
                    reply = await _within(self.inner.agenerate(request), limit)
                except asyncio.TimeoutError:
                    hang = self._hang_error(limit, task)
                    raise hang from None
        except (TransportError, InvalidReplyError) as exc:
            self._in_flight.discard(number)
            self._failed(exc, probe, hang=exc is hang)
            if self._open_until is not None:
                raise EndpointDownError(self._error) from (None if exc is hang else exc)
            raise
        finally:
            self._in_flight.discard(number)
            self._started.pop(number, None)
            if probe:
                self._probing = False
        took = time.monotonic() - started
        self._good_took.append(took)
        own = self._took_by_task.get(task)
        if own is None:
            own = self._took_by_task[task] = deque(maxlen=_GOOD_REPLIES_KEPT)
        own.append(took)
        self._succeeded()
        return reply

    def hang_deadline(self, task: str | None = None) -> float | None:
        """Seconds an attempt of the kind ``task`` (:attr:`LLMRequest.task`) sent now may take before it counts
        as a hang: ``hang_factor`` times the slowest recent valid reply to that kind of request, or twice that
        factor times the slowest recent reply of any kind when none of this kind has come back yet (a judge's
        reply may take longer than a decomposition's); never below ``hang_floor``. None before the endpoint
        answered (or with ``hang_factor=None``)."""
        if self.hang_factor is None or not self._good_took:
            return None
        own = self._took_by_task.get(task or "")
        if own:
            return max(self.hang_floor, self.hang_factor * max(own))
        return max(self.hang_floor, 2 * self.hang_factor * max(self._good_took))

    def overdue(self) -> int:
        """Attempts in flight that have waited longer than the slowest recent valid reply took (and than one
        second): what the progress bar shows as overdue. 0 before the endpoint answered."""
        if not self._good_took:
            return 0
        since = time.monotonic() - max(max(self._good_took), 1.0)
        return sum(1 for began in self._started.values() if began < since)

    def _hang_error(self, limit: float, task: str) -> TransportError:
        endpoint = getattr(self.inner, "endpoint", None) or "the endpoint"
        own = self._took_by_task.get(task)
        took = own or self._good_took
        slowest = max(took) if took else 0.0
        kind = "to such a request " if own else ""
        return TransportError(
            f"no reply from {endpoint} (model {self.model_name!r}) in {limit:.1f} s, while its slowest recent "
            f"valid reply {kind}took {slowest:.1f} s: it seems to hang",
            kind="timeout",
            retryable=True,
            endpoint=endpoint if endpoint != "the endpoint" else None,
        )

    def _succeeded(self) -> None:
        self._worked = True
        self._streak.clear()
        self._open_until = None

    def _failed(self, exc: LLMError, probe: bool, *, hang: bool = False) -> None:
        kind = (_HANGS, True) if hang else failure_kind(exc)
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
        needed = min(self.threshold, _HANGS_NEEDED) if signature == _HANGS else needed
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


async def _within(coro: Awaitable[T], seconds: float) -> T:
    """``await coro``, cancelled after ``seconds`` with :class:`asyncio.TimeoutError` (in the caller's task from
    Python 3.11 on, as the Deadline layer does)."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(seconds):
            return await coro
    return await asyncio.wait_for(coro, seconds)


def _task(request: LLMRequest[OutputT]) -> str:
    """The kind of a request, for its hang deadline: its task, else the name of its output model."""
    return request.task or request.output.__name__
