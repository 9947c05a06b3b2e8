"""The records a run is made of: each sample's row, each failure, each unstable claim, and each metric's summary."""

from __future__ import annotations

import math
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from ..results import Evidence, MetricResult
from ..schema import Sample
from ..usage import Usage

__all__ = ["FailureRecord", "MetricSummary", "SampleRow", "UnstableClaim", "mean_agreement", "summed_counts"]


class SampleRow(BaseModel):
    """One input sample and its result for every metric."""

    model_config = ConfigDict(frozen=True)

    index: int
    """0-based position of the sample in the input."""
    sample_id: str | int | None = None
    """The sample's ``id``, when it has one."""
    results: dict[str, MetricResult]
    """Metric name → result."""
    sample: Sample | None = None
    """The input sample as scored, so that a result can be read (and reported) beside what it is about;
    None for an input that was not a valid sample (its failure says why) and in results written before
    rows carried their inputs."""


class FailureRecord(BaseModel):
    """A sample-metric pair that failed after its retries."""

    model_config = ConfigDict(frozen=True)

    index: int
    sample_id: str | int | None
    metric: str
    type: str
    """Exception class name."""
    message: str


class UnstableClaim(BaseModel):
    """A claim whose repeated judgements disagreed (``votes`` > 1)."""

    model_config = ConfigDict(frozen=True)

    index: int
    sample_id: str | int | None
    metric: str
    claim: str
    votes: list[bool]
    """Each judgement's verdict, in judgement order; the claim's verdict is their strict majority."""


class MetricSummary(BaseModel):
    """Aggregate of one metric over a run. The mean is over scored samples only."""

    model_config = ConfigDict(frozen=True)

    metric: str
    mean: float | None
    """Mean value over scored samples; None when none was scored."""
    scored: int
    unscorable: int
    """Samples with nothing to measure (counted apart, never as 0)."""
    failed: int
    ci_low: float | None = None
    """Lower end of the 95% percentile-bootstrap interval of the mean (2,000 resamples, seed 0)."""
    ci_high: float | None = None
    usage: Usage = Field(default_factory=Usage)
    counts: dict[str, int] = Field(default_factory=dict)
    """Evidence counts summed over the samples, e.g. claims and verified, corrected and unverified verdicts
    for claim recall (see each evidence type's ``counts()``); empty for metrics that have none."""
    agreement: float | None = None
    """With repeated judgements: the mean over samples of the share of claims whose judgements were
    unanimous; None when judged once."""
    evidence_kind: str | None = Field(default=None, exclude=True, repr=False)
    """The ``kind`` of the metric's evidence (of its first sample that has one), which words the counts; None
    when no sample has evidence. Not exported."""

    def counts_text(self) -> str | None:
        """The counts in words as the metric's evidence words them (see ``Evidence.counts_text``), e.g.
        ``"40 claims, 31 supported; verdicts 4 stated, 26 verified, ..."``, or None when there are none."""
        if not self.counts:
            return None
        return Evidence.of_kind(self.evidence_kind).counts_text(self.counts)

    def mean_text(self, digits: int = 4) -> str:
        """The mean, rounded, or ``"-"`` when nothing was scored."""
        return f"{self.mean:.{digits}f}" if self.mean is not None else "-"

    def ci_text(self, digits: int = 3) -> str:
        """The interval as ``"[low, high]"``, or ``"-"`` when there is none."""
        if self.ci_low is None or self.ci_high is None:
            return "-"
        return f"[{self.ci_low:.{digits}f}, {self.ci_high:.{digits}f}]"


def summed_counts(results: Sequence[MetricResult]) -> dict[str, int]:
    """Each evidence count summed over the results that have evidence."""
    total: dict[str, int] = {}
    for result in results:
        if result.evidence is not None:
            for key, value in result.evidence.counts().items():
                total[key] = total.get(key, 0) + value
    return total


def mean_agreement(results: Sequence[MetricResult]) -> float | None:
    """The mean agreement of the results judged more than once; None when none was."""
    values = [a for r in results if (a := getattr(r.evidence, "agreement", None)) is not None]
    return math.fsum(values) / len(values) if values else None
