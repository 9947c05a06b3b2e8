"""Relative precision: precision against the best precision possible at that depth."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked, safe_divide

__all__ = ["RelativeP", "RelativePrecision"]


@dataclasses.dataclass(frozen=True, repr=False)
class RelativePrecision(RelMeasure):
    """``RelativeP@k = |relevant in the first k| / min(k, R)``: precision up to R, recall after it. Without a
    cutoff, k is the number of documents retrieved (set relative precision). 0 when the denominator is 0.

    trec_eval's ``relative_P_k``, and ``set_relative_P`` without a cutoff (trec_eval prints ``nan`` for a
    query without relevant documents; this gives 0). Relevant means grade >= ``rel``.

    Cite: trec_eval's documentation of ``relative_P`` and ``set_relative_P`` (github.com/usnistgov/trec_eval).
    """

    NAME: ClassVar[str] = "RelativeP"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        found = ranked.per_query_sum(ranked.hit_mask(self.rel, self.cutoff))
        depth = (
            ranked.n_ret.astype(np.float64) if self.cutoff is None else np.full(ranked.n_queries, float(self.cutoff))
        )
        return safe_divide(found, np.minimum(depth, ranked.num_rel(self.rel)))


RelativeP = RelativePrecision()
"""Relative precision; ``RelativeP@10``, ``RelativeP`` (set)."""
