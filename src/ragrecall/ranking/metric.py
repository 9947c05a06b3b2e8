"""Ranking measures as Sample metrics: ``RankingMetric("nDCG@10").score(sample)``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from ..errors import ConfigurationError, MissingFieldError
from ..metrics.base import SyncMetric
from ..rendering import Passages, escape
from ..results import Evidence, MetricResult
from ..schema import Sample, describe_record, id_key
from ._build import build_ranked
from ._measure import Measure
from ._parse import parse_measure
from ._table import Qrels, Run

__all__ = ["RankedItem", "RankingEvidence", "RankingMetric"]


class RankedItem(BaseModel):
    """A judged-relevant document and where the retrieval put it."""

    model_config = ConfigDict(frozen=True)

    id: str
    """The document ID, as a string."""
    grade: int
    """Its grade (1 for IDs given in ``reference_context_ids``)."""
    rank: int | None
    """1-based position in the retrieved IDs (first occurrence), None when not retrieved."""


class RankingEvidence(Evidence):
    """The relevant documents with their grades and ranks, and what the measure looked at."""

    kind: Literal["ranking"] = "ranking"
    measure: str
    """The measure, e.g. ``"nDCG@10"``."""
    relevant: list[RankedItem]
    """Every document with a grade >= 1, best grade first, then by rank."""
    retrieved_considered: int
    """How many distinct retrieved IDs were ranked (duplicates after the first are dropped)."""

    def missing_items(self) -> list[str]:
        return [f"ID {item.id!r} (grade {item.grade})" for item in self.relevant if item.rank is None]

    def to_html(self, passages: Passages) -> str:
        items = []
        for item in self.relevant:
            css, where = ("ok", f"at rank {item.rank}") if item.rank is not None else ("miss", "not retrieved")
            items.append(f"<li class='{css}'><code>{escape(item.id)}</code> (grade {item.grade}) {where}</li>")
        return f"<ul>{''.join(items)}</ul><p class='muted'>{self.retrieved_considered} retrieved IDs ranked</p>"


@dataclass(frozen=True)
class RankingMetric(SyncMetric):
    """Any ranking measure over one sample's ``retrieved_context_ids`` (in rank order).

    The judgments are ``relevance`` (ID → grade) when the sample has it, else ``reference_context_ids``
    (each grade 1). The ranking is the list order; a repeated retrieved ID keeps its first position. A
    sample with no relevant document (no grade >= the measure's threshold) is unscorable, unlike
    :func:`~ragrecall.ranking.evaluate_run`, which follows trec_eval and counts such a query as 0.

    Args:
        measure: a :class:`Measure` or a measure string (``"nDCG@10"``, ``"RR(rel=2)"``).
        name: the name results carry; default: the measure, e.g. ``"nDCG@10"``.
    """

    measure: Measure | str = "nDCG@10"
    name: str = ""

    required_fields: ClassVar[tuple[str, ...]] = ("retrieved_context_ids",)
    optional_fields: ClassVar[tuple[str, ...]] = ("relevance", "reference_context_ids")
    metric_name: ClassVar[str] = "ranking"

    def __post_init__(self) -> None:
        measure = parse_measure(self.measure)
        object.__setattr__(self, "measure", measure)
        if not measure.BOUNDED:
            raise ConfigurationError(
                f"{measure} is not a score in [0, 1] (a count or a utility), so it cannot be a metric's value; "
                "compute it over a run with evaluate_run() or `ragrecall trec`"
            )
        self._set_name(self.name)

    def default_name(self) -> str:
        return str(self.measure)

    def settings(self) -> dict[str, Any]:
        return {"measure": str(self.measure)}

    def _check(self, sample: Sample, where: str | None) -> None:
        super()._check(sample, where)
        if sample.relevance is None and sample.reference_context_ids is None:
            raise MissingFieldError(
                "a ranking measure needs judgments: give 'relevance' (ID → grade) or 'reference_context_ids'",
                where=describe_record(where, {"id": sample.id}),
                field="reference_context_ids",
            )

    def _score_sample(self, sample: Sample) -> MetricResult:
        return self._score_samples([sample])[0]

    def _score_samples(self, samples: Sequence[Sample]) -> list[MetricResult]:
        measure = self.measure
        assert isinstance(measure, Measure)
        threshold = int(getattr(measure, "rel", 1))
        judgments: dict[str, dict[str, int]] = {}
        rankings: dict[str, dict[str, float]] = {}
        for i, sample in enumerate(samples):
            key = str(i)
            judgments[key] = _grades(sample)
            retrieved = list(dict.fromkeys(id_key(d) for d in sample.retrieved_context_ids or []))
            # Descending scores in list order, so the ranking is exactly the list.
            rankings[key] = {doc: float(len(retrieved) - r) for r, doc in enumerate(retrieved)}
        # Only samples with something to rank are computed: a query without judgments has no row.
        scorable = [k for k, grades in judgments.items() if any(g >= threshold for g in grades.values())]
        row_of: dict[str, int] = {}
        values: Any = []
        if scorable:
            ranked = build_ranked(
                Qrels.from_dict({k: judgments[k] for k in scorable}),
                Run.from_dict({k: rankings[k] for k in scorable}),
                missing="zero",
            )
            values = measure.compute(ranked)
            row_of = {q: i for i, q in enumerate(ranked.query_ids)}
        results = []
        for i, sample in enumerate(samples):
            ranks = {doc: r + 1 for r, doc in enumerate(rankings[str(i)])}
            grades = judgments[str(i)]
            relevant = sorted(
                (RankedItem(id=d, grade=g, rank=ranks.get(d)) for d, g in grades.items() if g >= 1),
                key=lambda item: (-item.grade, item.rank is None, item.rank or 0, item.id),
            )
            evidence = RankingEvidence(measure=str(measure), relevant=relevant, retrieved_considered=len(ranks))
            row = row_of.get(str(i))
            if row is None:
                reason = _nothing_to_rank(sample, threshold)
                results.append(MetricResult.unscorable(self.name, reason, evidence, sample_id=sample.id))
            else:
                value = min(max(float(values[row]), 0.0), 1.0)  # bounded measures only: a hair outside is rounding
                results.append(MetricResult.scored(self.name, value, evidence, sample_id=sample.id))
        return results


def _nothing_to_rank(sample: Sample, threshold: int) -> str:
    """Why a sample has nothing to rank, naming the field that says so."""
    if sample.relevance is not None:
        if not sample.relevance:
            return "relevance is empty: no judged document, nothing to rank"
        return f"relevance has no document with a grade >= {threshold}: nothing to rank"
    return "reference_context_ids is empty: no relevant document, nothing to rank"


def _grades(sample: Sample) -> dict[str, int]:
    if sample.relevance is not None:
        return dict(sample.relevance)
    return {id_key(d): 1 for d in sample.reference_context_ids or []}
