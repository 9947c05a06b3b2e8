"""The run itself: the samples a part of a dataset places, scored with every metric, bounded, ordered and
resumable (what :func:`~ragrecall.evaluation.aevaluate` runs on a whole dataset, and a Ray actor on a part)."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from .._files import check_output_path
from .._inputs import ColumnMap, resolve_column_map
from .._kept import KEPT
from .._pool import run_pool
from ..batch import CURRENT_SAMPLE, BatchRun, openai_stack_of, say_on_stderr
from ..errors import ConfigurationError, EndpointDownError, NothingToEvaluateError
from ..llm import LLM, REQUEST_LIMIT, RETRY_OVERRIDE
from ..metrics.base import Metric, OnError, SyncMetric, check_batch_args, sample_id_of
from ..results import MetricResult
from ..schema import Sample
from ._batch_glue import batch_settings, left_running, warn_of_batches
from ._checkpoint import Checkpoint, sample_fingerprint
from ._loading import load_samples
from ._metric_set import check_metrics, metric_identity
from ._part import Part
from ._progress import Progress, overdue_counter
from ._ragas_habits import RunConfig, policy_override, warn_of_failures, warn_of_no_effect
from ._result import EvaluationResult
from ._rows import SampleRow
from ._run_info import RunInfo

if TYPE_CHECKING:
    from ._run import Backend, DatasetLike

__all__ = ["score_part"]


async def score_part(
    dataset: DatasetLike,
    metrics: Sequence[Metric],
    part: Part | None,
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
    """:func:`aevaluate` on the samples ``part`` places in a larger dataset (all of it when None): rows and
    messages name each sample by its place there, and the pairs ``part.done`` holds are not scored again."""
    started, started_at = time.perf_counter(), datetime.now(timezone.utc)
    by_name = check_metrics(metrics, llm)
    if run_config is not None:
        if not isinstance(run_config, RunConfig):
            raise ConfigurationError(f"run_config must be a RunConfig, got {type(run_config).__name__}")
        max_concurrency = run_config.max_workers
    if experiment_name is not None and not isinstance(experiment_name, str):
        raise ConfigurationError(f"experiment_name must be a string, got {type(experiment_name).__name__}")
    warn_of_no_effect(run_config, token_usage_parser)
    if raise_exceptions is not None:
        on_error = "raise" if raise_exceptions else "record"
    places = part.places if part is not None else None
    samples = load_samples(dataset, resolve_column_map(column_map), places)
    if places is not None and len(places) != len(samples):
        raise ConfigurationError(f"a part places {len(places)} samples but has {len(samples)}")
    check_batch_args(max_concurrency, on_error)
    if batch_size is not None:
        check_batch_args(batch_size, on_error, what="batch_size")
        max_concurrency = min(max_concurrency, batch_size)
    batch = batch_settings(backend, poll_interval)
    if batch is not None:
        for metric in by_name.values():
            if not isinstance(metric, SyncMetric):
                openai_stack_of(metric)  # the batch backend's ConfigurationError, before any file is touched
    if not samples:
        named = f" ({os.fspath(dataset)})" if isinstance(dataset, (str, os.PathLike)) else ""
        raise NothingToEvaluateError(f"the dataset{named} is empty: there is nothing to evaluate")
    if checkpoint:
        source = dataset if isinstance(dataset, (str, os.PathLike)) else None
        check_output_path(checkpoint, "checkpoint", [("dataset", source)])

    identities = {n: metric_identity(m) for n, m in by_name.items()}
    store = Checkpoint(checkpoint, identities, allow_endpoint_change=allow_endpoint_change) if checkpoint else None
    fingerprints = [sample_fingerprint(s) for s in samples] if store else []
    results: dict[tuple[int, str], MetricResult] = store.load(fingerprints) if store else {}
    if part is not None:
        results.update(part.done)
    progress = Progress(
        len(samples) * len(by_name),
        finished=list(results.values()),
        enabled=show_progress,
        overdue=overdue_counter(by_name.values()),
    )

    run_batch: BatchRun | None = None
    if batch is not None:
        try:
            run_batch = BatchRun(
                batch,
                by_name,
                store.journal if store is not None else None,
                store.append_journal if store is not None else None,
                say_on_stderr if show_progress else None,
            )
        except BaseException:
            if store is not None:
                store.close()
            raise
    elif store is not None:
        warn_of_batches(store.journal, checkpoint)
    scoring = run_batch.metrics if run_batch is not None else by_name

    def finish(index: int, name: str, result: MetricResult) -> None:
        results[(index, name)] = result
        if store is not None:
            store.append(index, fingerprints[index], name, result)
        progress.update(result)
        if run_batch is not None:
            run_batch.driver.touch()

    # LLM pairs, sample by sample so that each sample's results land together; a fixed pool of workers
    # takes them in turn, so a large run holds max_concurrency coroutines rather than one per pair.
    llm_metrics = [(n, m) for n, m in scoring.items() if not isinstance(m, SyncMetric)]
    jobs = [(i, n, m) for i in range(len(samples)) for n, m in llm_metrics if (i, n) not in results]

    stopping: list[EndpointDownError] = []
    """A dead endpoint whose death leaves the pairs in flight paid work to finish (a confirming model's): no
    new pair starts, those in flight keep what they paid for, then the run stops with it."""

    def pairs() -> Iterator[tuple[int, str, Metric]]:
        for job in jobs:
            if stopping:
                return
            yield job

    async def llm_pair(job: tuple[int, str, Metric]) -> None:
        index, name, metric = job
        CURRENT_SAMPLE.set(index)
        if store is not None:  # a paid step the metric keeps goes to the checkpoint before its next step
            KEPT.set(store.kept_steps(index, fingerprints[index], name))
        where = f"sample {index if places is None else places[index]}"
        try:
            result = await metric._ascore_item(samples[index], where, on_error)
        except EndpointDownError as exc:
            if not exc.in_flight_can_finish:
                raise
            stopping.append(exc)
            return
        finish(index, name, result)

    async def pure_metric(name: str, metric: SyncMetric, pending: list[int]) -> None:
        # In a worker thread; cancelling this task (Ctrl-C) stops the thread too (SyncMetric.abatch_score).
        scored = await metric.abatch_score([samples[i] for i in pending], on_error=on_error)
        for index, result in zip(pending, scored, strict=True):
            finish(index, name, result)

    # One bound on LLM requests in flight for the whole run, however a metric fans its requests out; the
    # tasks created below inherit it (stacks read it in their concurrency layer).
    # On the batch backend every pair is in flight at once (unless bounded): a round carries every request
    # that is ready.
    workers = max_concurrency
    if run_batch is not None:
        workers = max(1, min(len(jobs), run_batch.backend.max_samples_in_flight or len(jobs)))
    limit_token = REQUEST_LIMIT.set(asyncio.Semaphore(max_concurrency))
    retry_token = RETRY_OVERRIDE.set(policy_override(run_config))
    try:
        tasks: list[asyncio.Future[None]] = [asyncio.ensure_future(run_pool(pairs(), workers, llm_pair))]
    finally:
        RETRY_OVERRIDE.reset(retry_token)
        REQUEST_LIMIT.reset(limit_token)
    if run_batch is not None:
        tasks.append(asyncio.ensure_future(run_batch.driver.run(tasks[0])))
    pure: list[asyncio.Future[None]] = []
    for name, metric in by_name.items():
        pending = [i for i in range(len(samples)) if (i, name) not in results]
        if pending and isinstance(metric, SyncMetric):
            pure.append(asyncio.ensure_future(pure_metric(name, metric, pending)))
    tasks.extend(pure)

    def result(partial: str | None = None) -> EvaluationResult:
        """The result of the pairs finished so far; with ``partial`` (the stop's cause), only the samples whose
        every metric finished, marked partial."""
        done: Sequence[int] = range(len(samples))
        if partial is not None:
            done = [i for i in done if all((i, n) in results for n in by_name)]
        wall_time_s = time.perf_counter() - started
        if partial is not None:
            partial = f"stopped after {len(done)} of {len(samples)} samples: {partial}"
        run = RunInfo(
            started_at=started_at,
            wall_time_s=wall_time_s,
            ragrecall_version=_version(),
            dataset=os.fspath(dataset) if isinstance(dataset, (str, os.PathLike)) else None,
            # JSON-safe whatever a user's metric puts in its settings, so the results can always be written.
            metrics=json.loads(json.dumps({n: metric_identity(m) for n, m in by_name.items()}, default=repr)),
            backend="live" if run_batch is None else "batch",
            endpoint_changes=store.endpoint_changes if store is not None else [],
            name=experiment_name,
            partial=partial,
        )
        rows = [
            SampleRow(
                index=i if places is None else places[i],
                sample_id=sample_id_of(samples[i]),
                results={n: results[(i, n)] for n in by_name},
                sample=samples[i] if isinstance(samples[i], Sample) else None,
            )
            for i in done
        ]
        return EvaluationResult(rows, list(by_name), wall_time_s=wall_time_s, run=run, backend=run.backend)

    try:
        await asyncio.gather(*tasks)
        if stopping:
            raise stopping[0]
    except (asyncio.CancelledError, KeyboardInterrupt) as exc:
        if run_batch is not None:
            left_running(run_batch, checkpoint)
        exc.result = result(f"{type(exc).__name__}: interrupted")  # type: ignore[union-attr]
        raise
    except EndpointDownError as exc:
        # The metrics without an LLM need no endpoint: their few milliseconds are waited for, so that the
        # samples whose LLM pairs finished are handed back whole, however far the worker thread had got.
        await asyncio.gather(*pure, return_exceptions=True)
        exc.result = result(f"{type(exc).__name__}: {exc}")
        raise
    finally:
        for task in tasks:  # left running only when one raised (on_error="raise") or on cancellation
            task.cancel()
        progress.close()
        if store is not None:
            store.close()
    final = result()
    warn_of_failures(final)
    return final


def _version() -> str:
    from .. import __version__  # the package imports this module: read at call time

    return __version__
