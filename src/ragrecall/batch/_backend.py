"""The batch backend's settings, and the LLM a metric gets on it: the same stack as live, whose transport
defers each request to the round driver instead of sending it."""

from __future__ import annotations

import contextvars
import copy
import dataclasses
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigurationError, LLMRequestError, TransportError
from ..llm import (
    LLM,
    Cached,
    InvalidReplyError,
    LLMReply,
    LLMRequest,
    LLMStack,
    Metered,
    Named,
    OpenAITransport,
    OutputT,
    document_key,
)
from ..metrics.base import Metric
from ..usage import Usage
from ._driver import RoundDriver

__all__ = ["CURRENT_SAMPLE", "BatchBackend", "BatchLLM", "batch_metric", "openai_stack_of"]

CURRENT_SAMPLE: contextvars.ContextVar[int | None] = contextvars.ContextVar("ragrecall_batch_sample", default=None)
"""The index of the sample whose metric is asking, so that each batch records the samples it carries."""

_SHARED = Usage(cached_requests=1)


@dataclass(frozen=True)
class BatchBackend:
    """How :func:`ragrecall.evaluate` runs LLM requests as batches (``backend="batch"`` uses the defaults).

    Args:
        poll_interval: seconds before the first status check of a new batch; each later check waits half as
            long again, up to ``max_poll_interval``.
        max_poll_interval: the longest wait between two status checks.
        max_attempts: batches one request may go out in: an expired, failed or cancelled batch, a per-line
            error that waiting may fix (429, 5xx) or a missing line each cost one. Then the sample's failure
            is recorded with the last cause. Errors that no retry fixes (a 400) fail at once.
        max_requests: requests per batch file (OpenAI: 50,000); more are split into several batches.
        max_bytes: bytes per batch file (OpenAI: 200 MB); more are split.
        completion_window: the window asked of the provider (OpenAI accepts ``"24h"``).
        max_samples_in_flight: samples scored at once (None: all). Every sample in flight can put its next request
            in the coming round, so all of them at once gives the fewest rounds; a bound caps memory (each
            waiting sample holds its prompts), and the samples beyond it start as others finish, in later rounds.
        export_to: instead of submitting, write the next round's request file here and stop (for vLLM's
            ``run_batch`` or any runner of the OpenAI batch format); needs a checkpoint.
        imports: result files of earlier exports, read before the run continues; needs a checkpoint.
    """

    poll_interval: float = 30.0
    max_poll_interval: float = 600.0
    max_attempts: int = 3
    max_requests: int = 50_000
    max_bytes: int = 200_000_000
    completion_window: str = "24h"
    max_samples_in_flight: int | None = None
    export_to: str | os.PathLike[str] | None = None
    imports: tuple[str | os.PathLike[str], ...] = ()

    def __post_init__(self) -> None:
        for name in ("poll_interval", "max_poll_interval"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ConfigurationError(f"{name} must be a number of seconds >= 0, got {value!r}")
        for name in ("max_attempts", "max_requests", "max_bytes", "max_samples_in_flight"):
            value = getattr(self, name)
            if value is None and name == "max_samples_in_flight":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigurationError(f"{name} must be an integer >= 1, got {value!r}")
        if not isinstance(self.imports, tuple):
            object.__setattr__(self, "imports", tuple(self.imports))

    @property
    def files(self) -> bool:
        """True when the user's runner runs the files (export or import), not the provider's Batch API."""
        return self.export_to is not None or bool(self.imports)


class _Deferred:
    """The transport of the batch stack: each request becomes a line of the next round's batch, and its
    result line is read by the OpenAI transport's own reply checks."""

    def __init__(self, transport: OpenAITransport, driver: RoundDriver) -> None:
        self.transport = transport
        self.driver = driver
        self.endpoint = transport.endpoint

    @property
    def model_name(self) -> str:
        return self.transport.model_name

    def settings(self) -> dict[str, Any]:
        return self.transport.settings()

    def documents(self, request: LLMRequest[Any]) -> list[dict[str, Any]]:
        return self.transport.documents(request)

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        """The checked reply to ``request`` once its batch answered.

        Raises:
            InvalidReplyError: the reply failed the live checks (the repair goes into the next round).
            LLMRequestError: the request failed in ``max_attempts`` batches, or with an error no retry fixes.
        """
        document = self.transport.documents(request)[0]
        body = self.transport.request_body(document)
        custom_id = document_key(document)
        failed: str | None = None
        while True:
            outcome = await self.driver.ask(custom_id, body, self.model_name, CURRENT_SAMPLE.get(), failed=failed)
            if outcome.body is None:
                error = self.transport.scrub(outcome.error or "no message")  # a server may echo the key
                if not outcome.retryable:
                    raise LLMRequestError(f"batch request failed (not retryable): {error}")
                failed = error
                continue
            try:
                reply = self.transport.read_reply(outcome.body, request, document)
            except InvalidReplyError as exc:
                if outcome.shared:
                    exc.usage = _SHARED
                raise
            except TransportError as exc:
                if not exc.retryable:
                    raise LLMRequestError(f"batch request failed (not retryable): {exc}") from exc
                failed = str(exc)
                continue
            # A request several samples asked went out once: the others count it as a cached request.
            return dataclasses.replace(reply, usage=_SHARED) if outcome.shared else reply


class BatchLLM:
    """An OpenAI stack's batch twin: its cache (replies that come back through a batch fill it), usage at the
    batch price, and the deferred transport."""

    def __init__(self, stack: LLMStack, driver: RoundDriver) -> None:
        transport = stack.transport
        assert isinstance(transport, OpenAITransport)
        self.stack = stack
        deferred = _Deferred(transport, driver)
        sender: LLM = Named(Metered(deferred, stack.prices, batch=True), deferred)
        self._outer: LLM = Cached(sender, stack.cache) if stack.cache is not None else sender

    @property
    def model_name(self) -> str:
        return self.stack.model_name

    @property
    def endpoint(self) -> str | None:
        return self.stack.endpoint

    def settings(self) -> dict[str, Any]:
        return self.stack.settings()

    async def agenerate(self, request: LLMRequest[OutputT]) -> LLMReply[OutputT]:
        return await self._outer.agenerate(request)


def openai_stack_of(metric: Metric) -> LLMStack:
    """The OpenAI stack ``metric`` asks, or a :class:`ConfigurationError` saying why the batch backend cannot
    run it."""
    llm = getattr(metric, "llm", None)
    if isinstance(llm, LLMStack) and isinstance(llm.transport, OpenAITransport):
        return llm
    what = type(llm).__name__ if llm is not None else "no LLM"
    raise ConfigurationError(
        f"backend='batch' needs metrics whose llm is the OpenAI adapter (OpenAILLM, llm_factory); metric "
        f"{metric.name!r} has {what}"
    )


def batch_metric(metric: Metric, llms: Mapping[int, BatchLLM]) -> Metric:
    """A copy of ``metric`` asking the batch twin of its LLM (``llms`` by ``id`` of the live stack)."""
    twin = llms[id(openai_stack_of(metric))]
    if dataclasses.is_dataclass(metric):
        return dataclasses.replace(metric, llm=twin)
    clone = copy.copy(metric)
    object.__setattr__(clone, "llm", twin)
    return clone
