"""The metric base: sync and async entry points, batch order, failures kept, concurrency bound."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from typing import ClassVar

import pytest

from ragrecall import (
    ConfigurationError,
    IDBasedContextRecall,
    Metric,
    MetricResult,
    MissingFieldError,
    NonLLMContextRecall,
    Sample,
)
from ragrecall.metrics.base import PASS_SAMPLES, StopRequested, SyncMetric

WORKED = {"retrieved_context_ids": ["doc_1", "doc_2", "doc_3"], "reference_context_ids": ["doc_1", "doc_4"]}


@dataclass
class Probe:
    """Counts how many calls run at once."""

    running: int = 0
    peak: int = 0
    loops: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class SlowLengthMetric(Metric):
    """An async test metric: value = 1 / len(reference); fails on a reference of 'boom'."""

    probe: Probe
    required_fields: ClassVar[tuple[str, ...]] = ("reference",)
    metric_name: ClassVar[str] = "slow_length"

    async def _ascore_sample(self, sample: Sample) -> MetricResult:
        assert sample.reference is not None
        self.probe.running += 1
        self.probe.peak = max(self.probe.peak, self.probe.running)
        self.probe.loops.add(id(asyncio.get_running_loop()))
        try:
            await asyncio.sleep(0.001 * (len(sample.reference) % 5))
            if sample.reference == "boom":
                raise RuntimeError("the judge exploded")
            return MetricResult.scored(self.name, 1 / len(sample.reference), sample_id=sample.id)
        finally:
            self.probe.running -= 1


def test_score_sample_mapping_and_keywords_agree() -> None:
    metric = IDBasedContextRecall()
    values = {metric.score(Sample(**WORKED)).value, metric.score(WORKED).value, metric.score(**WORKED).value}
    assert values == {0.5}


async def test_ascore_and_ragas_spellings() -> None:
    metric = IDBasedContextRecall()
    assert (await metric.ascore(**WORKED)).value == 0.5
    # As in Ragas, the single_turn spellings return the value as a float.
    value = await metric.single_turn_ascore(Sample(**WORKED))
    assert type(value) is float and value == 0.5
    assert metric.single_turn_score(WORKED) == 0.5


def test_sample_and_fields_together_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="not both"):
        IDBasedContextRecall().score(Sample(**WORKED), reference_context_ids=["x"])


def test_score_inside_a_running_event_loop_matches_outside() -> None:
    metric = SlowLengthMetric(Probe())
    outside = metric.score(reference="abcd").value

    async def user_code() -> tuple[float | None, float | None]:
        # As in a notebook cell: sync calls made while this thread runs a loop.
        inside_async_metric = metric.score(reference="abcd").value
        inside_pure_metric = NonLLMContextRecall().score(retrieved_contexts=["a"], reference_contexts=["a"]).value
        return inside_async_metric, inside_pure_metric

    assert asyncio.run(user_code()) == (outside, 1.0)


def test_repeated_sync_calls_share_one_loop() -> None:
    # Async clients bind connection pools to a loop; every sync call must land on the same one.
    probe = Probe()
    metric = SlowLengthMetric(probe)
    for _ in range(5):
        metric.score(reference="abc")
    asyncio.run(asyncio.to_thread(metric.score, reference="abc"))
    assert len(probe.loops) == 1


async def test_abatch_score_keeps_order_bounds_concurrency_and_records_failures() -> None:
    probe = Probe()
    metric = SlowLengthMetric(probe)
    samples: list[dict[str, object]] = [{"id": i, "reference": "x" * (i + 1)} for i in range(40)]
    samples[7] = {"id": 7, "reference": "boom"}
    samples[9] = {"id": 9}  # missing reference
    samples[11] = {"id": 11, "referense": "typo"}
    results = await metric.abatch_score(samples, max_concurrency=3)
    assert [r.sample_id for r in results] == list(range(40))
    assert probe.peak == 3
    assert results[7].status == "failed" and results[7].failure is not None
    assert results[7].failure.type == "RuntimeError" and "the judge exploded" in results[7].failure.message
    assert results[9].failure is not None and results[9].failure.type == "MissingFieldError"
    assert "sample 9 (id=9): field 'reference'" in results[9].failure.message
    assert results[11].failure is not None and "did you mean 'reference'" in results[11].failure.message
    for i in set(range(40)) - {7, 9, 11}:
        assert results[i].value == pytest.approx(1 / (i + 1))


async def test_abatch_score_raise_mode_propagates_first_error() -> None:
    with pytest.raises(MissingFieldError, match="sample 1"):
        await SlowLengthMetric(Probe()).abatch_score([{"reference": "a"}, {}], on_error="raise")
    with pytest.raises(RuntimeError, match="exploded"):
        await SlowLengthMetric(Probe()).abatch_score([{"reference": "boom"}], on_error="raise")


def test_sync_batch_of_pure_metric_keeps_failures_in_place() -> None:
    results = IDBasedContextRecall().batch_score([WORKED, {"retrieved_context_ids": ["a"]}, WORKED])
    assert [r.status for r in results] == ["scored", "failed", "scored"]


async def test_pure_metric_abatch_matches_batch() -> None:
    samples = [WORKED, {**WORKED, "reference_context_ids": []}]
    assert await IDBasedContextRecall().abatch_score(samples) == IDBasedContextRecall().batch_score(samples)


@pytest.mark.parametrize("bad", [0, -2, 1.5, True])
def test_bad_max_concurrency(bad: object) -> None:
    with pytest.raises(ConfigurationError, match="max_concurrency must be a positive integer"):
        IDBasedContextRecall().batch_score([WORKED], max_concurrency=bad)  # type: ignore[arg-type]


def test_bad_on_error() -> None:
    with pytest.raises(ConfigurationError, match="on_error must be"):
        IDBasedContextRecall().batch_score([WORKED], on_error="ignore")  # type: ignore[arg-type]


def test_settings_describe_the_configuration() -> None:
    assert IDBasedContextRecall(k=5).settings() == {"k": 5}
    assert NonLLMContextRecall(threshold=0.8, scorer="partial").settings() == {
        "threshold": 0.8,
        "scorer": "partial",
        "normalize": False,
    }


@dataclass(frozen=True)
class GateMetric(SyncMetric):
    """A pure test metric that counts the samples it scores and, at the ``hold``-th, waits for ``release``."""

    scored: list[int] = field(default_factory=list)
    started: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    hold: int = 5
    required_fields: ClassVar[tuple[str, ...]] = ("reference",)
    metric_name: ClassVar[str] = "gate"

    def _score_sample(self, sample: Sample) -> MetricResult:
        self.scored.append(1)
        if len(self.scored) == self.hold:
            self.started.set()
            self.release.wait(timeout=30)
        return MetricResult.scored(self.name, 1.0, sample_id=sample.id)


async def test_cancelling_abatch_score_stops_its_worker_thread_after_the_pass() -> None:
    metric = GateMetric()
    total = 20 * PASS_SAMPLES
    task = asyncio.ensure_future(metric.abatch_score([{"reference": "r"}] * total))
    assert await asyncio.to_thread(metric.started.wait, 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    metric.release.set()
    await asyncio.get_running_loop().shutdown_default_executor()  # waits for the worker thread to return
    assert len(metric.scored) == PASS_SAMPLES  # the pass under way was finished, no other was begun


async def test_without_cancellation_every_pass_runs() -> None:
    metric = GateMetric()
    metric.release.set()
    results = await metric.abatch_score([{"reference": "r"}] * (2 * PASS_SAMPLES + 3))
    assert len(results) == len(metric.scored) == 2 * PASS_SAMPLES + 3


def test_a_stop_before_the_batch_scores_nothing() -> None:
    metric = GateMetric()
    stop = threading.Event()
    stop.set()
    with pytest.raises(StopRequested):
        metric._batch_score([{"reference": "r"}], 16, "record", stop)
    assert metric.scored == []
