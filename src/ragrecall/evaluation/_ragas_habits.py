"""What a Ragas script passes to ``evaluate`` and asks of its result, read the ragrecall way: ``RunConfig``
(workers, request deadline, retries, backoff), ``token_usage_parser`` (usage is always counted), and the one
warning that ends a run in which samples failed."""

from __future__ import annotations

import contextvars
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigurationError, FailedSamplesWarning
from ._result import EvaluationResult

__all__ = ["IN_EVALUATE", "RunConfig", "policy_override", "warn_of_failures", "warn_of_no_effect"]

IN_EVALUATE: contextvars.ContextVar[bool] = contextvars.ContextVar("ragrecall_in_evaluate", default=False)
"""True while :func:`ragrecall.evaluate` drives :func:`ragrecall.aevaluate` on ragrecall's loop thread: the
warnings are then given by ``evaluate`` in the caller's thread, naming the caller's line."""


@dataclass
class RunConfig:
    """Ragas's run settings, with Ragas's names and defaults. ``max_workers`` is :func:`ragrecall.evaluate`'s
    ``max_concurrency``; ``timeout`` the deadline of one LLM request in seconds, its retries included (the
    retry policy's ``total_timeout``); ``max_retries`` the retries after the first attempt; ``max_wait`` the
    longest wait between two attempts. ``exception_types``, ``log_tenacity`` and ``seed`` are accepted and have
    no effect (ragrecall retries what its policy calls transient and seeds each metric itself); a value other
    than the default is said once."""

    timeout: int = 180
    max_retries: int = 10
    max_wait: int = 60
    max_workers: int = 16
    exception_types: Any = field(default=Exception)
    log_tenacity: bool = False
    seed: int = 42

    def __post_init__(self) -> None:
        for name, low in (("timeout", 1), ("max_retries", 0), ("max_wait", 0), ("max_workers", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low:
                raise ConfigurationError(f"RunConfig.{name} must be a number >= {low}, got {value!r}")


def policy_override(run_config: RunConfig | None) -> dict[str, Any] | None:
    """The retry-policy fields ``run_config`` sets, for :data:`ragrecall.llm.RETRY_OVERRIDE`."""
    if run_config is None:
        return None
    return {
        "total_timeout": float(run_config.timeout),
        "max_attempts": int(run_config.max_retries) + 1,
        "max_wait": float(run_config.max_wait),
    }


def warn_of_no_effect(
    run_config: RunConfig | None, token_usage_parser: Callable[..., Any] | None, stacklevel: int = 3
) -> None:
    """One warning naming what was given and has no effect here, when something was (none inside
    :func:`ragrecall.evaluate`'s own run, which gives it itself)."""
    if IN_EVALUATE.get():
        return
    idle: list[str] = []
    if token_usage_parser is not None:
        idle.append("token_usage_parser (ragrecall counts every request's tokens itself)")
    if run_config is not None:
        default = RunConfig()
        for name in ("exception_types", "log_tenacity", "seed"):
            if getattr(run_config, name) != getattr(default, name):
                idle.append(f"RunConfig.{name}")
    if idle:
        warnings.warn(f"accepted with no effect in ragrecall: {'; '.join(idle)}", UserWarning, stacklevel=stacklevel)


def warn_of_failures(result: EvaluationResult, stacklevel: int = 3) -> None:
    """One :class:`~ragrecall.errors.FailedSamplesWarning` when pairs failed: per metric the count, the error
    types and the first message, and where to look (none inside :func:`ragrecall.evaluate`'s own run, which gives
    it itself). Printing the result stays Ragas's one line."""
    failures = result.failures
    if not failures or IN_EVALUATE.get():
        return
    parts = []
    for metric in result.metrics:
        mine = [f for f in failures if f.metric == metric]
        if not mine:
            continue
        types = ", ".join(f"{name} ×{count}" for name, count in Counter(f.type for f in mine).most_common())
        first = mine[0]
        where = f"sample {first.index}" + (f" (id={first.sample_id!r})" if first.sample_id is not None else "")
        message = " ".join(first.message.split()).removeprefix(f"{where}: ")
        message = message if len(message) <= 200 else message[:199] + "…"
        parts.append(f"{metric}: {len(mine)} of {len(result)} samples failed ({types}); first, {where}: {message}")
    warnings.warn(
        "evaluate() finished with failures, kept apart from the scores (their value is None, NaN in Ragas's "
        "views): " + "; ".join(parts) + ". Every failure with its type and message: result.failures",
        FailedSamplesWarning,
        stacklevel=stacklevel,
    )
