"""Average precision: precision at each relevant document, averaged over all relevant documents."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked, first_index_of_group, safe_divide

__all__ = ["AP", "AveragePrecision"]


@dataclasses.dataclass(frozen=True, repr=False)
class AveragePrecision(RelMeasure):
    """Average precision: ``AP@k = (1/R) · Σ_{i ≤ k, doc i relevant} P@i``.

    R is the number of relevant documents in the judgments, retrieved or not, so relevant documents that
    are missed count as precision 0 (trec_eval's ``map``; with a cutoff, ``map_cut_k``). 0 when R = 0.
    The mean over queries is MAP. Relevant means grade >= ``rel``.

    Cite: Harman, "Overview of the Second Text REtrieval Conference (TREC-2)", 1993; Manning et al. (2008) 8.4.
    """

    NAME: ClassVar[str] = "AP"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        mask = ranked.hit_mask(self.rel, self.cutoff)
        queries = ranked.hit_query[mask]
        positions = ranked.hit_pos[mask]
        # i-th relevant document of its query (1-based): hits are sorted by (query, position).
        nth = np.arange(len(queries), dtype=np.int64) - first_index_of_group(queries) + 1
        total = ranked.per_query_sum(mask, nth / positions)
        return safe_divide(total, ranked.num_rel(self.rel))


AP = AveragePrecision()
"""Average precision; ``AP``, ``AP@100``."""
