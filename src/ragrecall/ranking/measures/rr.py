"""Reciprocal rank: how early the first relevant document comes. MRR is its mean over queries."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked, run_starts

__all__ = ["RR", "ReciprocalRank"]


@dataclasses.dataclass(frozen=True, repr=False)
class ReciprocalRank(RelMeasure):
    """Reciprocal rank: ``RR@k = 1 / (position of the first relevant document)``, 0 when none is in the first k.

    Without a cutoff this is trec_eval's ``recip_rank``. The mean over queries is MRR. Relevant means
    grade >= ``rel``.

    Cite: Voorhees, "The TREC-8 Question Answering Track Report", TREC 1999.
    """

    NAME: ClassVar[str] = "RR"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        mask = ranked.hit_mask(self.rel, self.cutoff)
        queries = ranked.hit_query[mask]
        positions = ranked.hit_pos[mask]
        out = np.zeros(ranked.n_queries, dtype=np.float64)
        # Hits are sorted by (query, position): the first hit of each query is its first relevant document.
        first = run_starts(queries)
        out[queries[first]] = 1.0 / positions[first]
        return out


RR = ReciprocalRank()
"""Reciprocal rank; ``RR``, ``RR@10``, ``RR(rel=2)``."""
