"""Recall: the share of the relevant documents found in the ranking (or its first k positions)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked, safe_divide

__all__ = ["Recall", "RecallMeasure"]


@dataclasses.dataclass(frozen=True, repr=False)
class RecallMeasure(RelMeasure):
    """Recall at k: ``Recall@k = |relevant in the first k| / |relevant in the judgments|``.

    0 for a query without relevant documents (trec_eval's ``recall_k``; without a cutoff, ``set_recall``).
    Relevant means grade >= ``rel``.

    Cite: Manning, Raghavan and Schütze, *Introduction to Information Retrieval* (2008), section 8.3.
    """

    NAME: ClassVar[str] = "Recall"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        found = ranked.per_query_sum(ranked.hit_mask(self.rel, self.cutoff))
        return safe_divide(found, ranked.num_rel(self.rel))


Recall = RecallMeasure()
"""Recall; ``Recall@100``, ``Recall(rel=2)@10``."""
