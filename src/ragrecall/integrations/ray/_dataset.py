"""``score_dataset`` and ``evaluate_dataset``: samples in a Ray Dataset scored by a pool of actors."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from ..._inputs import ColumnMap
from ...errors import ConfigurationError, NothingToEvaluateError
from ...evaluation import EvaluationResult, FolderRun, RunInfo, read_result_folder
from ...metrics.base import Metric, OnError, check_batch_args
from ._errors import raised_by_ragrecall
from ._scorer import INDEX, LLMSource, Scorer, check_source, identities

__all__ = ["evaluate_dataset", "score_dataset"]


def score_dataset(
    ds: Any,
    metrics: Sequence[Metric],
    *,
    llm: LLMSource = None,
    max_concurrency: int = 16,
    batch_size: int = 64,
    concurrency: int | tuple[int, int] | None = None,
    on_error: OnError = "record",
    column_map: ColumnMap | None = None,
    ray_remote_args: Mapping[str, Any] | None = None,
) -> Any:
    """Score every sample of the ``ray.data.Dataset`` ``ds`` with every metric, in a pool of Ray actors; a
    ``ray.data.Dataset`` of result rows. ``ds`` is read and its rows numbered now (held in Ray's object store,
    spilled to disk when large, for the run); the scoring runs when the result is consumed.

    ``ds`` holds one sample per row: any columns :class:`~ragrecall.Sample` reads (renamed by ``column_map``
    as :func:`~ragrecall.evaluate` renames them), other columns kept as the sample's metadata. Each result row
    is a row of a results folder (see :func:`evaluate_dataset`): ``index`` (the sample's place in ``ds``),
    ``sample_id``, ``sample`` (a fingerprint of the input row), ``run``, per metric ``<metric>`` and
    ``<metric>:status``, and ``row``, the row exactly as a line of ``evaluate``'s results file holds it (every
    result, its failure and evidence): ``EvaluationResult``'s ``read_result_line`` reads it back.

    Each actor builds its own LLM from ``llm`` (see :data:`LLMSource`: a model name, a zero-argument factory,
    or an LLM without a client) and scores ``batch_size`` samples at a time with ``evaluate``'s code, at most
    ``max_concurrency`` LLM requests in flight per actor; ``concurrency`` is the number of actors (an int, or
    ``(min, max)`` for an autoscaling pool; Ray Data's default when None). ``ray_remote_args`` go to the
    actors (``num_cpus``, ``runtime_env``...). No key is ever put into the task arguments or the rows: keys
    come from the actors' environment or from the factory.

    Raises:
        ConfigurationError: no metrics, bad arguments, a live client given as ``llm`` or held by a metric.
    """
    settings = _Settings(llm, max_concurrency, batch_size, concurrency, on_error, column_map, ray_remote_args)
    return _scored(ds, metrics, settings)


def evaluate_dataset(
    ds: Any,
    metrics: Sequence[Metric],
    *,
    out: str | os.PathLike[str],
    llm: LLMSource = None,
    max_concurrency: int = 16,
    batch_size: int = 64,
    concurrency: int | tuple[int, int] | None = None,
    on_error: OnError = "record",
    column_map: ColumnMap | None = None,
    ray_remote_args: Mapping[str, Any] | None = None,
) -> EvaluationResult:
    """:func:`score_dataset`, each batch's rows written to the folder ``out`` as a Parquet part as soon as the
    batch finishes; returns the result ``evaluate`` gives on the same samples (the same rows, and a summary
    computed by the same code on the rows in index order: means, bootstrap intervals, counts, tokens and cost
    are the same whatever the number of actors or blocks).

    Running again with the same ``out`` after a crash, a killed driver or a lost node scores only what no run
    finished: a sample with a row is not scored again (a row with failed metrics scores those metrics again,
    keeping the others), and each sample is counted once. ``ragrecall report out`` writes its report.

    A dead endpoint stops the run (each actor's breaker opens on its own; the first to open stops the run)
    with the breaker's one-line message naming the endpoint and the model; the batches finished before are in
    ``out`` for a resume. A sample that fails is a row with its cause, as with ``evaluate``.

    ``out`` must be a folder every actor can write to (a local path on one machine; a shared file system
    mounted at the same path on every node of a cluster).

    Raises:
        ConfigurationError: as :func:`score_dataset`.
        NothingToEvaluateError: ``ds`` has no rows.
        CheckpointError: ``out`` holds other files, is used by another run, or was written for other metrics,
            settings or samples.
        EndpointDownError: the endpoint stopped answering (see above).
    """
    import ray

    settings = _Settings(llm, max_concurrency, batch_size, concurrency, on_error, column_map, ray_remote_args)
    started, started_at = time.perf_counter(), datetime.now(timezone.utc)
    names = _identities(metrics, settings)
    total = ds.count()
    if total == 0:
        raise NothingToEvaluateError("the dataset is empty: there is nothing to evaluate")
    folder = FolderRun(out, names, total)
    try:
        stored = folder.open()
        finished = {
            i: (s.fingerprint, None if s.unfinished is None else s.unfinished.model_dump_json())
            for i, s in stored.items()
        }
        scored = _scored(
            ds,
            metrics,
            settings,
            total=total,
            out=folder.path,
            run=folder.run,
            finished=ray.put(finished) if finished else None,
        )
        with raised_by_ragrecall(scored.context):
            for _ in scored.iter_batches(batch_size=None, batch_format="pyarrow"):
                pass  # each batch is in out when it arrives here
        wall_time_s = time.perf_counter() - started
        run = RunInfo(
            started_at=started_at, wall_time_s=wall_time_s, ragrecall_version=_version(), metrics=folder.metrics
        )
        folder.finish(run)
    finally:
        folder.close()
    result = read_result_folder(folder.path)
    if len(result) != total:
        raise RuntimeError(f"{folder.path} holds {len(result)} of {total} samples after a finished run")
    return result


class _Settings:
    """The scoring arguments, checked once."""

    def __init__(
        self,
        llm: LLMSource,
        max_concurrency: int,
        batch_size: int,
        concurrency: int | tuple[int, int] | None,
        on_error: OnError,
        column_map: ColumnMap | None,
        ray_remote_args: Mapping[str, Any] | None,
    ) -> None:
        check_batch_args(max_concurrency, on_error)
        check_batch_args(batch_size, on_error, what="batch_size")
        sizes = concurrency if isinstance(concurrency, tuple) else (concurrency or 1,)
        if any(isinstance(n, bool) or not isinstance(n, int) or n < 1 for n in sizes) or len(sizes) > 2:
            raise ConfigurationError(f"concurrency must be a positive int or (min, max), got {concurrency!r}")
        self.llm, self.max_concurrency, self.batch_size = llm, max_concurrency, batch_size
        self.concurrency, self.on_error, self.column_map = concurrency, on_error, column_map
        self.remote = dict(ray_remote_args or {})


def _identities(metrics: Sequence[Metric], settings: _Settings) -> dict[str, dict[str, Any]]:
    """Each metric's identity as the actors see it, their LLM built where they run (where the keys are)."""
    import ray

    if isinstance(metrics, Metric):
        metrics = [metrics]
    if not metrics:
        raise ConfigurationError("no metrics given")
    check_source(settings.llm, metrics)
    task = ray.remote(identities).options(**{k: v for k, v in settings.remote.items() if k in _TASK_OPTIONS})
    with raised_by_ragrecall():
        named: dict[str, dict[str, Any]] = ray.get(task.remote(list(metrics), settings.llm))
    return named


_TASK_OPTIONS = frozenset({"runtime_env", "num_cpus", "num_gpus", "resources", "memory", "scheduling_strategy"})


def _scored(
    ds: Any,
    metrics: Sequence[Metric],
    settings: _Settings,
    *,
    total: int | None = None,
    out: str | None = None,
    run: int = 1,
    finished: Any = None,
) -> Any:
    import ray

    if isinstance(metrics, Metric):
        metrics = [metrics]
    if not metrics:
        raise ConfigurationError("no metrics given")
    check_source(settings.llm, metrics)
    if INDEX in ds.columns():
        raise ConfigurationError(f"the dataset has a column named {INDEX!r}, which ragrecall uses itself")
    total = ds.count() if total is None else total
    # Zipping with the numbers 0..n-1 gives each row its place in ds (a zip makes Ray Data keep the order). The
    # numbers are an in-memory table: ray.data.range's read tasks each want a whole CPU.
    import numpy as np
    import pyarrow as pa

    numbers = ray.data.from_arrow(pa.table({INDEX: np.arange(total, dtype=np.int64)}))
    # Materialized before the actors start: the zip's own tasks each want a whole CPU, which a node whose CPUs
    # the actors have partly reserved never has (measured: a run on two 1-CPU nodes waited forever).
    indexed = ds.zip(numbers).materialize()
    kwargs: dict[str, Any] = {
        "max_concurrency": settings.max_concurrency,
        "on_error": settings.on_error,
        "column_map": settings.column_map,
        "out": out,
        "run": run,
        "finished": finished,
    }
    return indexed.map_batches(
        Scorer,
        fn_constructor_args=(list(metrics), settings.llm),
        fn_constructor_kwargs=kwargs,
        batch_size=settings.batch_size,
        batch_format="pyarrow",
        compute=_pool(settings.concurrency),
        **settings.remote,
    )


def _pool(concurrency: int | tuple[int, int] | None) -> Any:
    """Ray Data's actor pool for ``concurrency`` actors (a size, or ``(min, max)``; Ray's default when None)."""
    import ray

    if concurrency is None:
        return ray.data.ActorPoolStrategy()
    if isinstance(concurrency, tuple):
        return ray.data.ActorPoolStrategy(min_size=concurrency[0], max_size=concurrency[1])
    return ray.data.ActorPoolStrategy(size=concurrency)


def _version() -> str:
    from ... import __version__

    return __version__
