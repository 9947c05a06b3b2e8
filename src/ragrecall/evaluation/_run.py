"""``evaluate`` / ``aevaluate``: many samples × many metrics, bounded, ordered, resumable."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Literal

from .._files import check_output_path
from .._inputs import ColumnMap, collection_rows, resolve_column_map
from .._kept import KEPT
from .._pool import run_pool
from .._sync import run_sync
from ..batch import CURRENT_SAMPLE, BatchBackend, BatchRun, openai_stack_of, say_on_stderr
from ..dataset import Dataset
from ..errors import ConfigurationError, EndpointDownError, InvalidSampleError, NothingToEvaluateError
from ..llm import LLM, REQUEST_LIMIT, RETRY_OVERRIDE
from ..metrics.base import Metric, OnError, SampleLike, SyncMetric, check_batch_args, sample_id_of
from ..results import MetricResult
from ..schema import Sample
from ._checkpoint import Checkpoint, sample_fingerprint
from ._metric_set import check_metrics, metric_identity
from ._part import Part
from ._progress import Progress, overdue_counter
from ._ragas_habits import IN_EVALUATE, RunConfig, policy_override, warn_of_failures, warn_of_no_effect
from ._result import EvaluationResult
from ._rows import SampleRow
from ._run_info import RunInfo

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
    samples = _load(dataset, resolve_column_map(column_map), places)
    if places is not None and len(places) != len(samples):
        raise ConfigurationError(f"a part places {len(places)} samples but has {len(samples)}")
    check_batch_args(max_concurrency, on_error)
    if batch_size is not None:
        check_batch_args(batch_size, on_error, what="batch_size")
        max_concurrency = min(max_concurrency, batch_size)
    batch = _batch_settings(backend, poll_interval)
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
        _warn_of_batches(store.journal, checkpoint)
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
    for name, metric in by_name.items():
        pending = [i for i in range(len(samples)) if (i, name) not in results]
        if pending and isinstance(metric, SyncMetric):
            tasks.append(asyncio.ensure_future(pure_metric(name, metric, pending)))

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
            _left_running(run_batch, checkpoint)
        exc.result = result(f"{type(exc).__name__}: interrupted")  # type: ignore[union-attr]
        raise
    except EndpointDownError as exc:
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


def _batch_settings(backend: Backend, poll_interval: float | None) -> BatchBackend | None:
    """The batch settings ``backend`` and ``poll_interval`` ask for; None for the live backend."""
    if isinstance(backend, BatchBackend):
        settings = backend
    elif backend == "batch":
        settings = BatchBackend()
    elif backend == "live":
        if poll_interval is not None:
            raise ConfigurationError("poll_interval applies to backend='batch' only")
        return None
    else:
        raise ConfigurationError(f"backend must be 'live', 'batch' or a BatchBackend, got {backend!r}")
    if poll_interval is not None:
        settings = replace(settings, poll_interval=poll_interval)
    return settings


def _warn_of_batches(journal: list[dict[str, Any]], checkpoint: str | os.PathLike[str] | None) -> None:
    """Warn a live run that the checkpoint records provider batches that may still be running (and billed)."""
    ended = {r.get("input_file") for r in journal if r.get("kind") == "batch_end"}
    running = [r for r in journal if r.get("kind") == "batch" and r.get("runner") == "openai"]
    if any(r.get("input_file") not in ended for r in running):
        print(
            f"ragrecall: warning: {os.fspath(checkpoint or '')} records batches that may still be running; a live "
            "run does not collect them. Run with backend 'batch' to use them, or cancel them with: ragrecall batch "
            f"cancel --checkpoint {os.fspath(checkpoint or '')}",
            file=sys.stderr,
        )


def _left_running(run: BatchRun, checkpoint: str | os.PathLike[str] | None) -> None:
    """Say which batches keep running at the provider after a stop, and how to resume or cancel them."""
    running = run.driver.in_flight()
    if not running:
        return
    if checkpoint:
        where = os.fspath(checkpoint)
        hint = (
            f"run again with the checkpoint {where} to collect them (nothing is submitted twice), or cancel "
            f"them with: ragrecall batch cancel --checkpoint {where}"
        )
    else:
        hint = "without a checkpoint they cannot be collected by a later run; cancel them at the provider"
    print(f"ragrecall: batches left running: {', '.join(running)}; {hint}", file=sys.stderr, flush=True)


def _load(dataset: DatasetLike, renames: Mapping[str, str], places: Sequence[int] | None) -> list[SampleLike]:
    """The samples, dicts validated once here; an invalid record stays as given so that each metric records
    its error (naming the sample) as a failure instead of stopping the run.

    Raises:
        InvalidSampleError: every record is invalid — an input error, not a scoring failure; the message
            gives the first record's problem.
    """
    if isinstance(dataset, (str, os.PathLike)):
        return list(Dataset.load(dataset, column_map=renames))
    if isinstance(dataset, Dataset) and not renames:
        return list(dataset)
    samples: list[SampleLike] = []
    first: InvalidSampleError | None = None
    for index, record in enumerate(collection_rows(dataset, renames)):
        if isinstance(record, Sample):
            samples.append(record)
            continue
        try:
            where = f"sample {index if places is None else places[index]}"
            samples.append(Sample.from_dict(record, where=where))
        except InvalidSampleError as exc:
            first = first or exc
            samples.append(record)
    if first is not None and not any(isinstance(s, Sample) for s in samples):
        count = f"all {len(samples)} samples are" if len(samples) > 1 else "the sample is"
        raise InvalidSampleError(f"{first.problem} ({count} invalid)", where=first.where, field=first.field) from first
    return samples


def _version() -> str:
    from .. import __version__  # the package imports this module: read at call time

    return __version__
