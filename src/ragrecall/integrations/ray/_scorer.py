"""What runs in each Ray actor: its own LLM stack, built from the run's LLM source, scoring one batch at a time
with the one-machine code (:func:`ragrecall.evaluation.score_part`), and writing each batch's part."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..._inputs import ColumnMap
from ..._sync import run_sync
from ...errors import CheckpointError, ConfigurationError
from ...evaluation import (
    Part,
    SampleRow,
    check_metrics,
    metric_identity,
    part_table,
    sample_fingerprint,
    score_part,
    write_part,
)
from ...llm import LLM, LLMStack
from ...metrics.base import Metric, OnError

__all__ = ["INDEX", "LLMSource", "Scorer", "build_llm", "check_source", "identities"]

INDEX = "__ragrecall_index"
"""The column that carries each sample's place in the dataset from the driver to the actors."""

LLMSource = str | Callable[[], LLM] | LLM | None
"""What an actor builds its LLM from: a model name (``llm_factory(name)``, the client reading its key and base URL
from the actor's environment), a zero-argument factory, an in-process LLM without a client (``OfflineJudge()``,
``FakeLLM``), or None when no metric needs one."""


def check_source(llm: LLMSource, metrics: Sequence[Metric]) -> None:
    """Refuse, on the driver, what cannot be sent to actors: a live client (ours or a metric's own).

    Raises:
        ConfigurationError: ``llm`` or a metric's ``llm`` is an LLM stack (it holds a client and a cache,
            which are built in each actor instead), or ``llm`` is none of the accepted kinds.
    """
    if isinstance(llm, LLMStack):
        raise ConfigurationError(
            f"llm is a live client ({type(llm).__name__}); on Ray each actor builds its own: pass the model name "
            "(llm='gpt-4o-mini') or a zero-argument factory (llm=lambda: llm_factory('gpt-4o-mini', client=...))"
        )
    if llm is not None and not isinstance(llm, (str, LLM)) and not callable(llm):
        raise ConfigurationError(f"llm must be a model name, a zero-argument factory or an LLM, got {llm!r}")
    for metric in metrics:
        if isinstance(getattr(metric, "llm", None), LLMStack):
            raise ConfigurationError(
                f"metric {metric.name!r} holds a live client ({type(getattr(metric, 'llm', None)).__name__}); on "
                "Ray each actor builds its own: build the metric without an LLM and pass llm= a model name or a "
                "zero-argument factory"
            )


def build_llm(llm: LLMSource) -> LLM | None:
    """The LLM an actor uses, built where it runs (see :data:`LLMSource`).

    Raises:
        ConfigurationError: a factory returned something that is not an LLM.
    """
    if llm is None or (isinstance(llm, LLM) and not isinstance(llm, type)):  # a class is a factory
        return llm
    if isinstance(llm, str):
        from ...llm import llm_factory

        return llm_factory(llm)
    built = llm()
    if not isinstance(built, LLM):
        raise ConfigurationError(f"the llm factory returned {built!r}, not an LLM (model_name and agenerate)")
    return built


def identities(metrics: Sequence[Metric], llm: LLMSource) -> dict[str, dict[str, Any]]:
    """Each metric's name and identity (class and settings, the LLM's included) as an actor sees them."""
    return {name: metric_identity(m) for name, m in check_metrics(list(metrics), build_llm(llm)).items()}


class Scorer:
    """A Ray Data callable class: one per actor, holding its LLM stack (client, cache, breaker) for its life.

    Each call scores one batch of input rows (a pyarrow table with the :data:`INDEX` column) and returns the
    batch's rows in the results-folder layout (``ragrecall.evaluation.part_table``); with ``out``, the rows are
    written there as a part and only their ``index`` column is returned. Rows a finished run wrote are dropped
    (``finished``); rows with failed metrics keep their finished results and score the rest (``unfinished``).
    """

    def __init__(
        self,
        metrics: Sequence[Metric],
        llm: LLMSource,
        *,
        max_concurrency: int,
        on_error: OnError,
        column_map: ColumnMap | None,
        out: str | None = None,
        run: int = 1,
        finished: Any = None,
    ) -> None:
        self.metrics = check_metrics(list(metrics), build_llm(llm))
        self.names = list(self.metrics)
        self.max_concurrency = max_concurrency
        self.on_error = on_error
        self.column_map = column_map
        self.out = out
        self.run = run
        self.finished: Mapping[int, tuple[str, str | None]] = {}
        if finished is not None:
            import ray

            self.finished = ray.get(finished) if isinstance(finished, ray.ObjectRef) else finished

    def __call__(self, batch: Any) -> Any:
        inputs = _records(batch.drop_columns([INDEX]))
        places = batch.column(INDEX).to_pylist()
        fingerprints = [sample_fingerprint(raw) for raw in inputs]
        todo: list[int] = []
        done: dict[tuple[int, str], Any] = {}
        for position, (place, fingerprint) in enumerate(zip(places, fingerprints, strict=True)):
            stored = self.finished.get(place)
            if stored is not None and stored[0] != fingerprint:
                raise CheckpointError(
                    f"{self.out}: sample {place} differs from the one this folder was written for (the dataset "
                    "changed). Use another folder, or delete this one to start over."
                )
            if stored is not None and stored[1] is None:
                continue  # finished by an earlier run
            if stored is not None and stored[1] is not None:
                kept = SampleRow.model_validate_json(stored[1])
                for name, kept_result in kept.results.items():
                    if kept_result.status != "failed":
                        done[(len(todo), name)] = kept_result
            todo.append(position)
        rows: list[SampleRow] = []
        if todo:
            result = run_sync(
                score_part(
                    [inputs[p] for p in todo],
                    list(self.metrics.values()),
                    Part([places[p] for p in todo], done),
                    max_concurrency=self.max_concurrency,
                    show_progress=False,
                    on_error=self.on_error,
                    column_map=self.column_map,
                )
            )
            rows = list(result.rows)
        table = part_table(rows, [fingerprints[p] for p in todo], self.names, self.run)
        if self.out is None:
            return table
        if rows:
            write_part(self.out, table)
        # The rows are in out: only their places go on, so that the driver takes the output as it comes, with no
        # task of its own (a task wants a whole CPU, which a node whose CPUs the actors partly reserve never has;
        # measured: a run of 20,000 samples on two 1-CPU nodes stopped for good once the output filled Ray's
        # object store).
        return table.select(["index"])


def _records(table: Any) -> list[dict[str, Any]]:
    """The table's rows as dicts. Arrow stores a column of mappings (``relevance``, ``metadata``) as a struct with
    every key any row has, null where a row has none: those nulls are keys the row did not have, and go."""
    import pyarrow as pa

    rows: list[dict[str, Any]] = table.to_pylist()
    for field in table.schema:
        if pa.types.is_struct(field.type):
            for row in rows:
                value = row.get(field.name)
                if isinstance(value, dict):
                    row[field.name] = {k: v for k, v in value.items() if v is not None}
    return rows
