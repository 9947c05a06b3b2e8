"""``evaluate`` / ``aevaluate``: many samples × many metrics, bounded, ordered, resumable."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from .._inputs import ColumnMap
from .._sync import run_sync
from ..batch import BatchBackend
from ..dataset import Dataset
from ..llm import LLM
from ..metrics.base import Metric, OnError, SampleLike
from ._ragas_habits import IN_EVALUATE, RunConfig, warn_of_failures, warn_of_no_effect
from ._result import EvaluationResult
from ._score_part import score_part

__all__ = ["Backend", "DatasetLike", "aevaluate", "evaluate", "score_part"]

Backend = Literal["live", "batch"] | BatchBackend
"""``"live"`` (requests sent as the samples need them), ``"batch"`` (rounds of batch files through the
provider's Batch API, default :class:`~ragrecall.batch.BatchBackend` settings) or a ``BatchBackend``."""

DatasetLike = Dataset | Iterable[SampleLike] | str | os.PathLike[str] | Any
"""A Dataset, a list of Samples or dicts, a pandas DataFrame, a Hugging Face ``datasets.Dataset``, or the path
of a JSONL/CSV file."""


async def aevaluate(
    dataset: DatasetLike,
    metrics: Sequence[Metric],
    *,
    llm: LLM | None = None,
    max_concurrency: int = 16,
    show_progress: bool = True,
    checkpoint: str | os.PathLike[str] | None = None,
    on_error: OnError = "record",
    column_map: ColumnMap | None = None,
    backend: Backend = "live",
    poll_interval: float | None = None,
    batch_size: int | None = None,
    raise_exceptions: bool | None = None,
    allow_endpoint_change: bool = False,
    run_config: RunConfig | None = None,
    token_usage_parser: Callable[..., Any] | None = None,
    experiment_name: str | None = None,
) -> EvaluationResult:
    """Score every sample with every metric; results in input order.

    ``llm`` is given to every LLM metric built without one (``LLMContextRecall()``, as in Ragas); a metric's
    own LLM is kept. ``column_map`` renames the dataset's columns to Sample fields (``{"question":
    "user_input"}``; Ragas's direction, field → column, is understood too).

    Metrics are keyed by name. When two metrics left to their default names would share one (two judges of
    one metric), each gets the settings that set it apart added to its name, e.g.
    ``context_recall(model=gpt-4o)``; two metrics named alike with ``name=``, or alike in every setting, are a
    ConfigurationError.

    Concurrency is one limit over every sample-metric pair of every LLM metric: ``max_concurrency`` workers
    take the pairs in input order (pure metrics compute in vectorised passes in a worker thread, which stops
    after its current pass when the run is cancelled or interrupted). A pair that fails becomes a failure
    record with its cause (``on_error="record"``) or stops the run (``"raise"``); no failure changes another
    sample's score. ``batch_size`` (Ragas's argument) caps the pairs in flight at that many too: Ragas runs
    batches of that size one after another, here the next pair starts as soon as one finishes.
    ``raise_exceptions`` (Ragas's spelling) sets ``on_error``: True is ``"raise"``, False ``"record"``.
    ``run_config`` (Ragas's :class:`RunConfig`) sets ``max_concurrency`` from its ``max_workers`` and, for every
    LLM request of the run, the deadline (``timeout``, retries included), the retries and the longest backoff
    wait. ``token_usage_parser`` is accepted and not needed (usage is always counted: ``result.total_tokens()``,
    ``result.total_cost(...)``); ``experiment_name`` names the run (``result.run.name``). What is accepted with
    no effect is said once, in a warning. A run in which pairs failed ends with one
    :class:`~ragrecall.errors.FailedSamplesWarning` (per metric the count, the error types and the first
    message); ``print(result)`` stays Ragas's one line.

    With ``checkpoint``, each finished pair is appended to that JSONL file as it finishes; running again with
    the same file does only what is missing (failed pairs included) and returns the same result as an
    uninterrupted run. A checkpoint written for other metrics, settings or samples is refused, and so is
    one that another run holds (it is locked while a run uses it) or whose records were edited or damaged.
    One exception: another endpoint or model (a run stopped by a wrong base URL, resumed with the right one)
    is accepted when the checkpoint holds no LLM answer, or with ``allow_endpoint_change=True``; the change is
    recorded in the checkpoint and in ``result.run.endpoint_changes``.

    With ``backend="batch"`` the LLM requests go out as rounds of OpenAI batch files (every sample's first
    request in round 1, the requests their replies lead to in the next, and so on), through the Batch API of
    the metrics' OpenAI adapter; replies are checked by the live checks, fill the same response cache and
    are priced at the table's batch price. ``poll_interval`` is the wait before a new batch's first status
    check (growing to :attr:`BatchBackend.max_poll_interval`). With a checkpoint, the batches submitted are
    recorded in it, so that a run stopped or killed after a submission collects those batches when run
    again instead of paying for them twice; Ctrl-C leaves them running.

    Raises:
        TypeError: ``dataset`` is not a collection of samples (one sample, a mapping, a number...).
        NothingToEvaluateError: the dataset has no samples.
        InvalidSampleError: no record of the dataset is a valid sample (one invalid record among valid ones
            is that record's failure, and the run goes on).
        ConfigurationError: no metrics, two metrics with one name, an LLM metric without an LLM, or bad
            arguments.
        InputError: the checkpoint's folder is missing or not writable, or the checkpoint is the dataset.
        CheckpointError: the checkpoint is not one, is held by another run, or does not belong to this run.
        RoundExported: a batch backend with ``export_to`` wrote the next round's requests and stopped.
        EndpointDownError: an endpoint is dead (the breaker opened); the unfinished samples are left for a resume.
            A dead confirming model (``ContextRecall(confirm=...)``) lets the samples in flight finish their
            judging (kept in the checkpoint) before the run stops.

    A stopped run keeps what finished: the ``EndpointDownError``, the ``CancelledError`` of a cancelled
    ``aevaluate`` (inside its task) and the ``KeyboardInterrupt`` of a Ctrl-C in ``evaluate`` carry the samples
    every metric finished as ``exc.result``, an :class:`EvaluationResult` marked partial with the stop's cause
    (``result.partial``).
    """
    return await score_part(
        dataset,
        metrics,
        None,
        llm=llm,
        max_concurrency=max_concurrency,
        show_progress=show_progress,
        checkpoint=checkpoint,
        on_error=on_error,
        column_map=column_map,
        backend=backend,
        poll_interval=poll_interval,
        batch_size=batch_size,
        raise_exceptions=raise_exceptions,
        allow_endpoint_change=allow_endpoint_change,
        run_config=run_config,
        token_usage_parser=token_usage_parser,
        experiment_name=experiment_name,
    )


def evaluate(
    dataset: DatasetLike,
    metrics: Sequence[Metric],
    *,
    llm: LLM | None = None,
    max_concurrency: int = 16,
    show_progress: bool = True,
    checkpoint: str | os.PathLike[str] | None = None,
    on_error: OnError = "record",
    column_map: ColumnMap | None = None,
    backend: Backend = "live",
    poll_interval: float | None = None,
    batch_size: int | None = None,
    raise_exceptions: bool | None = None,
    allow_endpoint_change: bool = False,
    run_config: RunConfig | None = None,
    token_usage_parser: Callable[..., Any] | None = None,
    experiment_name: str | None = None,
) -> EvaluationResult:
    """Synchronous :func:`aevaluate`; works in scripts and inside a running event loop (notebooks)."""
    warn_of_no_effect(run_config, token_usage_parser)

    async def in_evaluate() -> EvaluationResult:
        token = IN_EVALUATE.set(True)  # the warnings are given below, in the caller's thread
        try:
            return await run
        finally:
            IN_EVALUATE.reset(token)

    run = aevaluate(
        dataset,
        metrics,
        llm=llm,
        max_concurrency=max_concurrency,
        show_progress=show_progress,
        checkpoint=checkpoint,
        on_error=on_error,
        column_map=column_map,
        backend=backend,
        poll_interval=poll_interval,
        batch_size=batch_size,
        raise_exceptions=raise_exceptions,
        allow_endpoint_change=allow_endpoint_change,
        run_config=run_config,
        token_usage_parser=token_usage_parser,
        experiment_name=experiment_name,
    )
    result = run_sync(in_evaluate())
    warn_of_failures(result)
    return result
