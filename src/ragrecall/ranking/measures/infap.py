"""Inferred average precision: average precision estimated from a sample of the judgment pool."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked, safe_divide
from ._walk import count_before

__all__ = ["InferredAP", "infAP"]

_EPSILON = 0.00001
"""trec_eval's INFAP_EPSILON, which keeps the estimate defined when nothing above was judged."""


@dataclasses.dataclass(frozen=True, repr=False)
class InferredAP(RelMeasure):
    """``infAP = (1/R) · Σ_{r retrieved relevant} E[precision at r]``, with, for a relevant document at rank k
    (k − 1 documents above it, of which d are in the pool: relevant ``r``, judged non-relevant ``n``, or in the
    pool but unjudged, i.e. with a negative grade)::

        E = 1                                                    if k = 1
        E = 1/k + ((k−1)/k) · (d/(k−1)) · ((r + ε) / (r + n + 2ε))   otherwise, ε = 0.00001

    Documents absent from the judgments count as non-relevant outside the pool. With complete judgments it
    equals average precision. trec_eval's ``infAP``. Takes no cutoff.

    Cite: Yilmaz and Aslam, "Estimating Average Precision with Incomplete and Imperfect Judgments", CIKM 2006.
    """

    NAME: ClassVar[str] = "infAP"
    CUTOFF: ClassVar[str] = "none"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        relevant = ranked.hit_grade >= self.rel
        nonrel = (ranked.hit_grade >= 0) & ~relevant
        unjudged = ranked.hit_grade < 0
        rel_above = count_before(ranked, relevant)[relevant].astype(np.float64)
        nonrel_above = count_before(ranked, nonrel)[relevant].astype(np.float64)
        pooled_above = count_before(ranked, unjudged)[relevant].astype(np.float64)
        above = (ranked.hit_pos[relevant] - 1).astype(np.float64)
        terms = np.ones(len(above), dtype=np.float64)
        later = above > 0
        j = above[later]
        terms[later] = 1.0 / (j + 1.0) + (j / (j + 1.0)) * (
            (rel_above[later] + nonrel_above[later] + pooled_above[later]) / j
        ) * ((rel_above[later] + _EPSILON) / (rel_above[later] + nonrel_above[later] + 2 * _EPSILON))
        total = np.bincount(ranked.hit_query[relevant], weights=terms, minlength=ranked.n_queries)
        return safe_divide(total.astype(np.float64), ranked.num_rel(self.rel))


infAP = InferredAP()
"""Inferred average precision; ``infAP``."""
