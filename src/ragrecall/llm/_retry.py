"""The one retry policy for LLM requests (tenacity).

Retried: 429 (rate limit), 408, 409, every 5xx, timeouts and connection errors. Not retried: other 4xx
(bad request, authentication, permission, not found), which no wait will fix.

The wait before attempt ``n + 1`` is the server's ``Retry-After`` (or ``retry-after-ms``) when it sent one
and it is at most ``max_retry_after``, otherwise exponential backoff with jitter:
``min(max_wait, initial_wait * 2**(n-1) + uniform(0, jitter))``. Retrying stops after ``max_attempts``
attempts or when the next wait would end past ``total_timeout`` seconds from the first attempt, whichever
comes first; a ``Retry-After`` longer than ``max_retry_after`` or than the time left stops at once.

The OpenAI SDK's own retries are switched off for requests sent by the adapter (``max_retries=0`` through
``client.with_options``), so attempts never multiply: ``max_attempts`` is the number of HTTP requests.
"""

from __future__ import annotations

import asyncio
import email.utils
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

import openai
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt, wait_exponential_jitter
from tenacity.stop import stop_base
from tenacity.wait import wait_base

from ..errors import ConfigurationError, LLMRequestError

__all__ = ["RetryPolicy", "is_retryable", "retry_after_seconds"]

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]

_RETRY_STATUS = frozenset({408, 409, 429})


def is_retryable(exc: BaseException) -> bool:
    """True for rate limits, 408/409, server errors, timeouts and connection errors."""
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in _RETRY_STATUS or exc.status_code >= 500
    return isinstance(exc, openai.APIConnectionError)  # includes APITimeoutError


def retry_after_seconds(exc: BaseException | None) -> float | None:
    """The delay the server asked for in ``retry-after-ms`` or ``Retry-After`` (seconds or HTTP date)."""
    if not isinstance(exc, openai.APIStatusError):
        return None
    headers = exc.response.headers
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
        total_timeout: seconds from the first attempt after which no new attempt starts.
        request_timeout: seconds one HTTP request may take (sent to the SDK as its timeout).
        max_retry_after: the longest ``Retry-After`` honoured; a longer one ends the retries.
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

    async def call(self, send: Callable[[], Awaitable[T]]) -> T:
        """Run ``send()`` until it succeeds or the policy gives up.

        Raises:
            LLMRequestError: the last error was not retryable, or attempts or time ran out; the message
                counts the attempts and the last error is chained as the cause.
        """
        started = time.monotonic()
        retrying = AsyncRetrying(
            sleep=self.sleep,
            stop=stop_after_attempt(self.max_attempts) | _StopOnBudget(self, started),
            wait=_WaitRetryAfter(self),
            retry=retry_if_exception(is_retryable),
            reraise=True,
        )
        attempts = 0

        async def attempt() -> T:
            nonlocal attempts
            attempts += 1
            return await send()

        try:
            return await retrying(attempt)
        except openai.OpenAIError as exc:
            verdict = "gave up after" if is_retryable(exc) else "not retryable, after"
            raise LLMRequestError(
                f"LLM request failed ({verdict} {attempts} attempt{'s' if attempts != 1 else ''}): {_describe(exc)}"
            ) from exc


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


def _describe(exc: BaseException) -> str:
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code} {exc.__class__.__name__}: {exc.message}"
    return f"{exc.__class__.__name__}: {exc}"
