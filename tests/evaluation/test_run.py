"""evaluate / aevaluate: order, one concurrency limit, failures kept apart, argument checks."""

from __future__ import annotations

import asyncio
import hashlib
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import pytest

from ragrecall import (
    ConfigurationError,
    Dataset,
    IDBasedContextRecall,
    InputError,
    Metric,
    MetricResult,
    NonLLMContextRecall,
    NothingToEvaluateError,
    Sample,
    Usage,
)
from ragrecall.evaluation import aevaluate, evaluate


@dataclass
class Counter:
    running: int = 0
    peak: int = 0
    calls: int = 0


@dataclass(frozen=True)
class HashMetric(Metric):
    """An async metric with a deterministic value from the reference; 'fail' in it raises."""

    counter: Counter = field(default_factory=Counter)
    label: str = "hash"
    required_fields: ClassVar[tuple[str, ...]] = ("reference",)

    @property
    def name(self) -> str:
        return self.label

    async def _ascore_sample(self, sample: Sample) -> MetricResult:
        assert sample.reference is not None
        self.counter.calls += 1
        self.counter.running += 1
        self.counter.peak = max(self.counter.peak, self.counter.running)
        try:
            await asyncio.sleep(0.0005 * (len(sample.reference) % 3))
            if "fail" in sample.reference:
                raise ValueError(f"cannot judge {sample.reference!r}")
            digest = hashlib.sha256(f"{self.label}:{sample.reference}".encode()).digest()
            usage = Usage(requests=1, prompt_tokens=10, completion_tokens=2)
            return MetricResult.scored(self.name, digest[0] / 255, sample_id=sample.id, usage=usage)
        finally:
            self.counter.running -= 1


def make_samples(n: int) -> list[dict[str, object]]:
    return [
        {"id": f"q{i}", "reference": f"ref {i}", "retrieved_context_ids": [str(i % 7)], "reference_context_ids": ["3"]}
        for i in range(n)
    ]


def test_order_ids_values_and_usage() -> None:
    samples = make_samples(30)
    result = evaluate(samples, [HashMetric(), IDBasedContextRecall()], show_progress=False)
    assert [row.sample_id for row in result] == [f"q{i}" for i in range(30)]
    assert [row.index for row in result] == list(range(30))
    solo = HashMetric()
    assert result.values("hash") == [solo.score(s).value for s in samples]
    assert result.values("id_based_context_recall") == [1.0 if i % 7 == 3 else 0.0 for i in range(30)]
    assert result.usage.requests == 30 and result.usage.prompt_tokens == 300
    assert result.summary["hash"].usage.completion_tokens == 60


def test_one_concurrency_limit_across_metrics() -> None:
    counter = Counter()
    metrics = [HashMetric(counter, "a"), HashMetric(counter, "b"), HashMetric(counter, "c")]
    evaluate(make_samples(40), metrics, max_concurrency=5, show_progress=False)
    assert counter.calls == 120
    assert counter.peak == 5


def test_failures_are_records_and_do_not_touch_other_scores() -> None:
    samples = make_samples(20)
    clean = evaluate(samples, [HashMetric()], show_progress=False)
    samples[4] = {"id": "q4", "reference": "please fail"}
    samples[9] = {"id": "q9"}
    samples[12] = {"id": "q12", "reference": 5}
    result = evaluate(samples, [HashMetric()], show_progress=False)
    assert [(f.index, f.sample_id, f.metric, f.type) for f in result.failures] == [
        (4, "q4", "hash", "ValueError"),
        (9, "q9", "hash", "MissingFieldError"),
        (12, "q12", "hash", "InvalidSampleError"),
    ]
    assert "cannot judge 'please fail'" in result.failures[0].message
    assert "sample 12 (id='q12'): field 'reference'" in result.failures[2].message
    for i, (a, b) in enumerate(zip(clean.values("hash"), result.values("hash"), strict=True)):
        assert b == (None if i in (4, 9, 12) else a)
    summary = result.summary["hash"]
    assert (summary.scored, summary.failed, summary.unscorable) == (17, 3, 0)


def test_on_error_raise_stops_at_the_first_failure() -> None:
    samples = [*make_samples(5), {"id": "x", "reference": "fail now"}]
    with pytest.raises(ValueError, match="cannot judge"):
        evaluate(samples, [HashMetric()], show_progress=False, on_error="raise")


def test_unscorable_counted_apart() -> None:
    samples = [{"retrieved_context_ids": ["a"], "reference_context_ids": ids} for ids in (["a"], [], ["b"])]
    summary = evaluate(samples, [IDBasedContextRecall()], show_progress=False).summary["id_based_context_recall"]
    assert (summary.mean, summary.scored, summary.unscorable, summary.failed) == (0.5, 2, 1, 0)


async def test_aevaluate_and_dataset_inputs(tmp_path: Path) -> None:
    data = Dataset.from_records(make_samples(6))
    path = tmp_path / "data.jsonl"
    data.to_jsonl(path)
    from_dataset = await aevaluate(data, [HashMetric()], show_progress=False)
    from_path = await aevaluate(path, [HashMetric()], show_progress=False)
    from_samples = await aevaluate(list(data), [HashMetric()], show_progress=False)
    assert from_dataset.values("hash") == from_path.values("hash") == from_samples.values("hash")


def test_evaluate_works_inside_a_running_loop() -> None:
    async def notebook_cell() -> list[float | None]:
        return evaluate(make_samples(3), [HashMetric()], show_progress=False).values("hash")

    assert asyncio.run(notebook_cell()) == evaluate(make_samples(3), [HashMetric()], show_progress=False).values("hash")


@pytest.mark.parametrize(
    ("metrics", "kwargs", "message"),
    [
        ([], {}, "no metrics given"),
        ([HashMetric(), HashMetric()], {}, "two metrics are named 'hash'"),
        (["recall"], {}, "expected Metric objects, got str"),
        ([HashMetric()], {"max_concurrency": 0}, "max_concurrency must be a positive integer"),
        ([HashMetric()], {"on_error": "skip"}, "on_error must be"),
    ],
)
def test_bad_arguments(metrics: list[Metric], kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        evaluate(make_samples(2), metrics, show_progress=False, **kwargs)  # type: ignore[arg-type]


def test_summary_table_and_exports(tmp_path: Path) -> None:
    pd = pytest.importorskip("pandas")
    samples = make_samples(10)
    samples[2] = {"id": "q2", "reference": "fail"}
    result = evaluate(samples, [HashMetric(), IDBasedContextRecall()], show_progress=False)
    table = result.summary_table()
    assert "hash" in table and "id_based_context_recall" in table and "95% CI" in table
    assert "10 samples in" in table and "9 LLM requests" in table
    hash_mean, id_mean = (result.summary[n].mean or 0.0 for n in ("hash", "id_based_context_recall"))
    assert str(result) == repr(result) == f"{{'hash': {hash_mean:0.4f}, 'id_based_context_recall': {id_mean:0.4f}}}"
    assert str(evaluate(samples[2:3], [HashMetric()], show_progress=False)) == "{'hash': nan}"
    frame = result.to_pandas(details=True)
    assert list(frame["sample_id"]) == [f"q{i}" for i in range(10)]
    assert frame.loc[2, "hash:status"] == "failed" and "ValueError" in frame.loc[2, "hash:detail"]
    assert pd.isna(frame.loc[2, "hash"])
    result.to_csv(tmp_path / "r.csv")
    assert (tmp_path / "r.csv").read_text(encoding="utf-8").startswith("index,sample_id,hash,hash:status,hash:detail")
    assert "<table>" in result._repr_html_()


def test_an_empty_dataset_is_an_error(tmp_path: Path) -> None:
    # A mean over no sample is not a score: an empty file must not pass a CI gate with 0.0000.
    with pytest.raises(NothingToEvaluateError, match=r"^the dataset is empty: there is nothing to evaluate"):
        evaluate([], [IDBasedContextRecall()], show_progress=False)
    with pytest.raises(NothingToEvaluateError, match=r"^the dataset is empty"):
        asyncio.run(aevaluate(Dataset(), [HashMetric()], show_progress=False))
    path, checkpoint = tmp_path / "empty.jsonl", tmp_path / "run.ckpt"
    path.write_text("\n\n", encoding="utf-8")
    with pytest.raises(InputError, match=rf"^the dataset \({re.escape(str(path))}\) is empty"):
        evaluate(path, [IDBasedContextRecall()], show_progress=False, checkpoint=checkpoint)
    assert not checkpoint.exists()


async def test_cancelling_a_run_stops_a_pure_metric_mid_sample() -> None:
    # A worker thread cannot be interrupted: the metric looks at a stop flag between its similarity calls, so
    # a cancelled (or Ctrl-C'd) run does not leave it computing every remaining pair before the process exits.
    started, release = threading.Event(), threading.Event()
    calls: list[int] = []

    def slow_scorer(reference: str, retrieved: str) -> float:
        calls.append(1)
        if len(calls) == 10:
            started.set()
            release.wait(timeout=30)
        return 0.5

    metric = NonLLMContextRecall(scorer=slow_scorer)
    samples = [{"id": i, "retrieved_contexts": ["a", "b", "c"], "reference_contexts": ["d", "e"]} for i in range(5000)]
    run = asyncio.ensure_future(aevaluate(samples, [metric, HashMetric()], show_progress=False))
    assert await asyncio.to_thread(started.wait, 30)
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    release.set()
    await asyncio.get_running_loop().shutdown_default_executor()  # waits for the worker thread to return
    assert len(calls) == 10  # of 30,000 pairs: the pair under way was finished, no other was begun
