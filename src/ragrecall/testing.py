"""Helpers for testing a RAG pipeline's retrieval in pytest (or any test runner).

Example::

    from ragrecall import IDBasedContextRecall
    from ragrecall.testing import assert_recall

    def test_retriever_finds_the_policy_documents():
        samples = [{"retrieved_context_ids": retriever(q), "reference_context_ids": refs} for q, refs in CASES]
        assert_recall(samples, IDBasedContextRecall(k=5), at_least=0.9)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from .errors import ConfigurationError
from .metrics.base import Metric, SampleLike
from .results import MetricResult, StringRecallEvidence
from .schema import Sample

__all__ = ["RecallAssertion", "assert_recall", "record_assertions"]


@dataclass(frozen=True)
class RecallAssertion:
    """One call of :func:`assert_recall`, as a recorder (:func:`record_assertions`) keeps it."""

    metric: Metric
    samples: tuple[SampleLike, ...]
    results: tuple[MetricResult, ...]
    """The results, in the order of ``samples``."""
    at_least: float
    per_sample: bool
    passed: bool
    message: str | None
    """The assertion's message when it failed."""


_RECORDERS: ContextVar[tuple[list[RecallAssertion], ...]] = ContextVar("ragrecall_recorders", default=())


@contextmanager
def record_assertions() -> Iterator[list[RecallAssertion]]:
    """Keep every :func:`assert_recall` made inside the block, passed or failed, in the list it yields.

    Recorders nest: each one sees the assertions made while it is open. The pytest plugin's
    ``--ragrecall-report`` is one."""
    records: list[RecallAssertion] = []
    token = _RECORDERS.set((*_RECORDERS.get(), records))
    try:
        yield records
    finally:
        _RECORDERS.reset(token)


def assert_recall(
    samples: Iterable[SampleLike],
    metric: Metric,
    *,
    at_least: float,
    per_sample: bool = False,
    max_listed: int = 10,
) -> list[MetricResult]:
    """Score ``samples`` and fail with a readable message when recall is too low.

    Passes when the mean over scored samples is at least ``at_least`` (with ``per_sample=True``: when every
    scored sample is). A sample that failed to score always fails the assertion; unscorable samples are left
    out and counted in the message. The message lists the worst samples (at most ``max_listed``) with what
    each missed: reference IDs, the text of the reference passages (with their best similarity) or the claims.
    Under pytest, the failure shows the caller's line, not this helper's frames.

    Returns:
        The results, in input order, for further checks.

    Raises:
        AssertionError: with the explanation.
    """
    __tracebackhide__ = True  # pytest shows the test's line and this message, not the helper's source
    if not 0.0 <= at_least <= 1.0:
        raise ConfigurationError(f"at_least must be in [0, 1], got {at_least!r}")
    given = list(samples)
    results = metric.batch_score(given)
    failed = [(i, r) for i, r in enumerate(results) if r.status == "failed"]
    scored = [(i, r) for i, r in enumerate(results) if r.value is not None]
    unscorable = sum(r.status == "unscorable" for r in results)
    mean = math.fsum(r.value for _, r in scored if r.value is not None) / len(scored) if scored else None

    if per_sample:
        low = [(i, r) for i, r in scored if r.value is not None and r.value < at_least]
        ok = not low and not failed and bool(scored)
        headline = f"{metric.name}: {len(low)} of {len(scored)} scored samples under {at_least}"
    else:
        low = [(i, r) for i, r in scored if r.value is not None and r.value < 1.0]
        ok = mean is not None and mean >= at_least and not failed
        headline = f"{metric.name}: mean {_fmt(mean)} over {len(scored)} scored samples, expected at least {at_least}"
    if ok:
        _record(metric, given, results, at_least, per_sample, None)
        return results

    lines = [headline]
    if unscorable:
        lines.append(f"({unscorable} unscorable samples left out)")
    for i, r in failed[:max_listed]:
        assert r.failure is not None
        lines.append(f"- {_label(i, r)}: failed: {r.failure.type}: {r.failure.message}")
    low.sort(key=lambda item: item[1].value if item[1].value is not None else 0.0)
    for i, r in low[: max(0, max_listed - len(failed))]:
        missing = _missed(given[i], r)
        detail = f"; missing {', '.join(missing)}" if missing else ""
        lines.append(f"- {_label(i, r)}: {_fmt(r.value)}{detail}")
    hidden = len(failed) + len(low) - max_listed
    if hidden > 0:
        lines.append(f"... and {hidden} more")
    message = "\n".join(lines)
    _record(metric, given, results, at_least, per_sample, message)
    raise AssertionError(message)


def _record(
    metric: Metric,
    samples: list[SampleLike],
    results: list[MetricResult],
    at_least: float,
    per_sample: bool,
    message: str | None,
) -> None:
    recorders = _RECORDERS.get()
    if not recorders:
        return
    record = RecallAssertion(metric, tuple(samples), tuple(results), at_least, per_sample, message is None, message)
    for records in recorders:
        records.append(record)


def _missed(sample: SampleLike, result: MetricResult) -> list[str]:
    """What a result missed, quoting the text of reference passages (evidence records only their positions)."""
    evidence = result.evidence
    if evidence is None:
        return []
    if not isinstance(evidence, StringRecallEvidence):
        return evidence.missing_items()
    passages: Any = sample.reference_contexts if isinstance(sample, Sample) else None
    if passages is None and isinstance(sample, Mapping):
        passages = sample.get("reference_contexts")
    out = []
    for match in evidence.matches:
        if match.recalled:
            continue
        text = passages[match.reference_index] if isinstance(passages, list) else None
        quoted = _quote(text) if isinstance(text, str) else f"#{match.reference_index}"
        out.append(f"reference passage {quoted} (best similarity {match.similarity:.2f} < {evidence.threshold})")
    return out


def _quote(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")


def _label(index: int, result: MetricResult) -> str:
    return f"sample {index}" + (f" (id={result.sample_id!r})" if result.sample_id is not None else "")


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
