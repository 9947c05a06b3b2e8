"""The one retry policy for LLM requests (tenacity), with a wall-clock deadline on every attempt.

Retried: what a transport marks retryable in its :class:`~ragrecall.errors.TransportError` — 429 (rate
limit), 408, 409, every 5xx, timeouts, connection errors and malformed 200 bodies. Not retried: other 4xx
(bad request, authentication, permission, not found), which no wait will fix, invalid replies (the repair
loop's business) and an open breaker (:class:`~ragrecall.errors.EndpointDownError`, passed through as is).

Every attempt gets a deadline: ``request_timeout`` seconds, or what is left of ``total_timeout`` when that is
less. It is wall-clock time for the whole reply, so a server that drips its body byte by byte is cut off
like one that hangs. ``total_timeout`` bounds a request's whole time from its first attempt, the attempt in
flight included.

The wait before attempt ``n + 1`` is the server's ``Retry-After`` (or ``retry-after-ms``) when it sent one,
otherwise exponential backoff with jitter: ``min(max_wait, initial_wait * 2**(n-1) + uniform(0, jitter))``.
Retrying stops after ``max_attempts`` attempts or when the next wait would end past ``total_timeout``. A
``Retry-After`` longer than ``max_retry_after`` or than the time left fails at once, saying what the server
asked.

SDK retries are switched off by the transports, so attempts never multiply: ``max_attempts`` is the number of
HTTP requests.
"""

from __future__ import annotations

import asyncio
import contextvars
import email.utils
import math
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt, wait_exponential_jitter
from tenacity.stop import stop_base
from tenacity.wait import wait_base

from ..errors import ConfigurationError, EndpointDownError, LLMRequestError, TransportError
from ..usage import Usage
from ._layer import Layer
from ._protocol import LLM, LLMReply, LLMRequest, OutputT

__all__ = [
    "RETRY_OVERRIDE",
    "Deadline",
    "RetryPolicy",
    "Retrying",
    "is_retryable",
    "retry_after_seconds",
    "retryable_status",
]

T = TypeVar("T")

RETRY_OVERRIDE: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "ragrecall_retry_override", default=None
)
"""Fields of :class:`RetryPolicy` a run sets over every stack's own policy (``evaluate(run_config=...)``); the
requests of the run's tasks read it."""

BUDGET_END: contextvars.ContextVar[float | None] = contextvars.ContextVar("ragrecall_budget_end", default=None)
"""When the request being retried must be done (``time.monotonic()``), for the Deadline layer below."""
_GRACE = 0.25
"""Seconds the retry layer's safety net waits beyond the budget, so that the Deadline layer fires first."""
Sleep = Callable[[float], Awaitable[None]]

_RETRY_STATUS = frozenset({408, 409, 429})


def retryable_status(status: int) -> bool:
    """True for the HTTP statuses worth another attempt: 408, 409, 429 and every 5xx."""
    return status in _RETRY_STATUS or status >= 500


def is_retryable(exc: BaseException) -> bool:
    """True when another attempt may succeed.

    A :class:`TransportError` says so itself; an SDK status error (anything with an integer ``status_code``)
    is judged by :func:`retryable_status`; anything else is not retried.
    """
    if isinstance(exc, TransportError):
        return exc.retryable
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and retryable_status(status)


def retry_after_seconds(exc: BaseException | None) -> float | None:
    """The delay the server asked for: a :class:`TransportError`'s ``retry_after``, or the ``retry-after-ms``
    or ``Retry-After`` header (seconds or HTTP date) of an SDK status error's response."""
    if isinstance(exc, TransportError):
        return exc.retry_after
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    return None if headers is None else retry_after_header(headers)


def retry_after_header(headers: Mapping[str, str]) -> float | None:
    """Seconds asked by ``retry-after-ms`` (preferred) or ``Retry-After``; None when absent or unreadable."""
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) / scale
        except ValueError:
            if name != "retry-after":
                continue
            try:
                seconds = email.utils.parsedate_to_datetime(value).timestamp() - time.time()
            except (TypeError, ValueError):
                continue
        if math.isfinite(seconds):
            return max(0.0, seconds)
    return None


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently a failed LLM request is tried again (see the module docstring).

    Args:
        max_attempts: total attempts, the first included (1 = no retry).
        initial_wait: first backoff wait in seconds; doubles on each retry.
        max_wait: cap of one backoff wait.
        jitter: up to this many random seconds added to each backoff wait.
        total_timeout: seconds a request may take from its first attempt, retries and the attempt in flight
            included.
        request_timeout: wall-clock seconds one attempt may take, the whole reply body included.
        max_retry_after: the longest ``Retry-After`` honoured; a longer one fails at once.
        sleep: the coroutine used to wait (injectable so tests run without real delays).
    """

    max_attempts: int = 6
    initial_wait: float = 1.0
    max_wait: float = 30.0
    jitter: float = 1.0
    total_timeout: float = 300.0
    request_timeout: float = 120.0
    max_retry_after: float = 120.0
    sleep: Sleep = field(default=asyncio.sleep, compare=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.max_attempts, bool) or not isinstance(self.max_attempts, int) or self.max_attempts < 1:
            raise ConfigurationError(f"max_attempts must be an integer >= 1, got {self.max_attempts!r}")
        for name in ("initial_wait", "max_wait", "jitter", "total_timeout", "request_timeout", "max_retry_after"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
                raise ConfigurationError(f"{name} must be a number >= 0, got {value!r}")
        for name in ("total_timeout", "request_timeout"):
            if not getattr(self, name) > 0:
                raise ConfigurationError(f"{name} must be a number > 0, got {getattr(self, name)!r}")

    async def call(
        self, send: Callable[[], Awaitable[T]], *, endpoint: str | None = None, deadline_inside: bool = False
    ) -> T:
        """Run ``send()`` under a deadline until it succeeds or the policy gives up.

        With ``deadline_inside`` the sender applies the deadline itself (a :class:`Deadline` layer reading
        :data:`BUDGET_END`); otherwise each attempt is bounded here by what is left of ``total_timeout``.

        Raises:
            LLMRequestError: the last error was not retryable, or attempts, time or the server's patience ran
                out; the message counts the attempts and the last error is chained as the cause.
            EndpointDownError: from ``send``, unchanged (the breaker is open: trying again is pointless).
        """
        started = time.monotonic()
        deadline = started + self.total_timeout
        attempts = 0

        async def attempt() -> T:
            # The attempt's deadline is the Deadline layer's, inside the breaker so that the breaker sees it; it
            # learns the end of the total budget from BUDGET_END. The wait here is only a safety net, a little
            # later, for senders without a Deadline layer.
            nonlocal attempts
            attempts += 1
            left = deadline - time.monotonic()
            if left <= 0:
                raise _total_spent(self.total_timeout, endpoint)
            token = BUDGET_END.set(deadline)
            try:
                if deadline_inside:
                    return await send()
                return await asyncio.wait_for(send(), left + _GRACE)
            except asyncio.TimeoutError as exc:
                if deadline_inside:
                    raise
                raise _total_spent(self.total_timeout, endpoint) from exc
            finally:
                BUDGET_END.reset(token)

        # Most requests succeed at once: the first attempt runs without the retry machinery, and only a failure
        # enters tenacity, which sees that failure as its first attempt (so waits and stops are unchanged).
        try:
            return await attempt()
        except TransportError as exc:
            first: TransportError | None = exc

        async def again() -> T:
            nonlocal first
            if first is not None:
                failed, first = first, None
                raise failed
            return await attempt()

        retrying = AsyncRetrying(
            sleep=self.sleep,
            stop=stop_after_attempt(self.max_attempts) | _StopOnBudget(self, started),
            wait=_WaitRetryAfter(self),
            retry=retry_if_exception(is_retryable),
            reraise=True,
        )
        try:
            return await retrying(again)
        except EndpointDownError:
            raise
        except TransportError as exc:
            raise LLMRequestError(self._give_up(exc, attempts, started)) from exc

    def _give_up(self, exc: TransportError, attempts: int, started: float) -> str:
        counted = f"{attempts} attempt{'s' if attempts != 1 else ''}"
        asked = exc.retry_after
        if exc.retryable and asked is not None:
            left = self.total_timeout - (time.monotonic() - started)
            if asked > self.max_retry_after:
                return (
                    f"LLM request failed (after {counted}): the server asked to wait {asked:g} s (Retry-After), "
                    f"longer than max_retry_after={self.max_retry_after:g} s: {exc}"
                )
            if asked >= left:
                return (
                    f"LLM request failed (after {counted}): the server asked to wait {asked:g} s (Retry-After), "
                    f"more than the {max(left, 0.0):.1f} s left of total_timeout={self.total_timeout:g} s: {exc}"
                )
        verdict = "gave up after" if exc.retryable else "not retryable, after"
        return f"LLM request failed ({verdict} {counted}): {exc}"


class Retrying(Layer):
    """The retry-and-deadline layer: ``inner``'s requests under a :class:`RetryPolicy`."""

    def __init__(self, inner: LLM, policy: RetryPolicy, *, deadline_inside: bool = False) -> None:
        super().__init__(inner)
        self.policy = policy
        self.deadline_inside = deadline_inside

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """``inner.agenerate(request)``, retried and bounded by the policy. What failed attempts cost (a reply
        that came back but could not be read: ``TransportError.usage``) is added to the reply's usage, or to
        the final error's."""
        endpoint: Any = getattr(self.inner, "endpoint", None)
        spent: list[Usage] = []
        override = RETRY_OVERRIDE.get()
        policy = replace(self.policy, **override) if override else self.policy

        async def send() -> LLMReply[OutputT]:
            try:
                return await self.inner.agenerate(request)
            except TransportError as exc:
                if exc.usage is not None:
                    spent.append(exc.usage)
                raise

        try:
            reply = await policy.call(send, endpoint=endpoint, deadline_inside=self.deadline_inside)
        except LLMRequestError as exc:
            if spent:
                exc.usage = Usage.total(spent)
            raise
        return replace(reply, usage=Usage.total([*spent, reply.usage])) if spent else reply


class Deadline(Layer):
    """The deadline layer: each attempt gets ``seconds`` of wall-clock time, the whole reply body included."""

    def __init__(self, inner: LLM, seconds: float) -> None:
        super().__init__(inner)
        self.seconds = seconds
        self.endpoint: Any = getattr(inner, "endpoint", None)

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """``inner.agenerate(request)``, or a timeout :class:`TransportError` when it takes longer than
        ``seconds`` (retryable) or than what is left of the retry layer's total budget (not retryable)."""
        seconds, budget = self.seconds, False
        end = BUDGET_END.get()
        if end is not None and end - time.monotonic() < seconds:
            seconds, budget = max(end - time.monotonic(), 0.0), True
        try:
            return await _within(self.inner.agenerate(request), seconds)
        except asyncio.TimeoutError as exc:
            if budget:
                raise _total_spent(None, self.endpoint) from exc
            where = f" from {self.endpoint}" if self.endpoint else ""
            raise TransportError(
                f"no complete reply{where} within {self.seconds:g} s (deadline of one attempt)",
                kind="timeout",
                retryable=True,
                endpoint=self.endpoint,
            ) from exc


async def _within(coro: Awaitable[T], seconds: float) -> T:
    """``await coro``, cancelled after ``seconds`` with :class:`asyncio.TimeoutError`. From Python 3.11 in the
    caller's own task (``asyncio.timeout``): ``wait_for`` there wraps the coroutine in a task of its own, which
    costs more client CPU than the other layers together."""
    if sys.version_info >= (3, 11):
        async with asyncio.timeout(seconds):
            # One turn of the loop first, as a task of its own had: requests issued together all reach the
            # breaker, in flight, before the first is sent, so that a failure coming back at once is judged with
            # them in view.
            await asyncio.sleep(0)
            return await coro
    return await asyncio.wait_for(coro, seconds)


def _total_spent(total: float | None, endpoint: str | None) -> TransportError:
    where = f" to {endpoint}" if endpoint else ""
    budget = f"total_timeout={total:g} s" if total is not None else "its total_timeout"
    return TransportError(f"the request{where} ran out of {budget}", kind="timeout", retryable=False, endpoint=endpoint)


class _WaitRetryAfter(wait_base):
    def __init__(self, policy: RetryPolicy) -> None:
        self._policy = policy
        self._backoff = wait_exponential_jitter(
            multiplier=policy.initial_wait, max=policy.max_wait, jitter=policy.jitter
        )

    def __call__(self, retry_state: RetryCallState) -> float:
        exc = retry_state.outcome.exception() if retry_state.outcome else None
        asked = retry_after_seconds(exc)
        if asked is not None and asked <= self._policy.max_retry_after:
            return asked
        return float(self._backoff(retry_state))


class _StopOnBudget(stop_base):
    """Stop when the coming wait would end past the total budget, or the server asks too long a wait."""

    def __init__(self, policy: RetryPolicy, started: float) -> None:
        self._policy = policy
        self._started = started

    def __call__(self, retry_state: RetryCallState) -> bool:
        exc = retry_state.outcome.exception() if retry_state.outcome else None
        asked = retry_after_seconds(exc)
        if asked is not None and asked > self._policy.max_retry_after:
            return True
        elapsed = time.monotonic() - self._started
        if asked is not None:
            upcoming = asked
        else:  # the backoff before jitter: the least the coming wait can be
            policy = self._policy
            upcoming = min(policy.max_wait, policy.initial_wait * 2 ** (retry_state.attempt_number - 1))
        return elapsed + upcoming >= self._policy.total_timeout
