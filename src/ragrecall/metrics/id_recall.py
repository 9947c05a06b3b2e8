"""ID-based context recall: the share of reference IDs found among the retrieved IDs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..errors import ConfigurationError
from ..results import FoundID, IDRecallEvidence, MetricResult
from ..schema import Sample, id_key
from .base import SyncMetric

__all__ = ["IDBasedContextRecall"]


@dataclass(frozen=True)
class IDBasedContextRecall(SyncMetric):
    """Recall of reference IDs among the (top ``k``) retrieved IDs.

    ``value = |set(reference_ids) ∩ set(retrieved_ids[:k])| / |set(reference_ids)|``

    IDs are compared as strings (``1`` equals ``"1"``); duplicates count once on both sides. An empty
    reference is unscorable; an empty retrieval with a non-empty reference scores 0.

    Args:
        k: look only at the first ``k`` retrieved IDs; None (default) looks at all of them.
        name: the name results carry; default ``id_based_context_recall``, or ``id_based_context_recall@k``.
    """

    k: int | None = None
    name: str = ""

    required_fields: ClassVar[tuple[str, ...]] = ("retrieved_context_ids", "reference_context_ids")
    metric_name: ClassVar[str] = "id_based_context_recall"

    def __post_init__(self) -> None:
        if self.k is not None and (isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1):
            raise ConfigurationError(f"k must be a positive integer or None, got {self.k!r}")
        self._set_name(self.name)

    def default_name(self) -> str:
        # A cutoff makes another measure (recall@k), so it stays in the name, in the IR literature's spelling.
        return self.metric_name if self.k is None else f"{self.metric_name}@{self.k}"

    def settings_name(self) -> str:
        return self.default_name()

    def _score_sample(self, sample: Sample) -> MetricResult:
        assert sample.reference_context_ids is not None and sample.retrieved_context_ids is not None
        reference = list(dict.fromkeys(id_key(i) for i in sample.reference_context_ids))
        retrieved = sample.retrieved_context_ids[: self.k]
        first_rank: dict[str, int] = {}
        for rank, doc in enumerate(retrieved, start=1):
            first_rank.setdefault(id_key(doc), rank)
        found = [FoundID(id=doc, rank=first_rank[doc]) for doc in reference if doc in first_rank]
        missing = [doc for doc in reference if doc not in first_rank]
        evidence = IDRecallEvidence(found=found, missing=missing, k=self.k, retrieved_considered=len(retrieved))
        if not reference:
            return MetricResult.unscorable(
                self.name, "reference_context_ids is empty: nothing to recall", evidence, sample_id=sample.id
            )
        return MetricResult.scored(self.name, len(found) / len(reference), evidence, sample_id=sample.id)
