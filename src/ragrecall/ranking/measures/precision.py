"""Precision: the share of the ranking (or of its first k positions) that is relevant."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked, safe_divide

__all__ = ["P", "Precision"]


@dataclasses.dataclass(frozen=True, repr=False)
class Precision(RelMeasure):
    """Precision at k: ``P@k = |relevant in the first k| / k``.

    The denominator is k even when fewer than k documents were retrieved (trec_eval's ``P_k``). Without a
    cutoff it is the set precision ``|relevant retrieved| / |retrieved|`` (trec_eval's ``set_P``), 0 for an
    empty ranking. Relevant means grade >= ``rel``.

    Cite: Manning, Raghavan and Schütze, *Introduction to Information Retrieval* (2008), section 8.3.
    """

    NAME: ClassVar[str] = "P"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        found = ranked.per_query_sum(ranked.hit_mask(self.rel, self.cutoff))
        if self.cutoff is not None:
            return found / float(self.cutoff)
        return safe_divide(found, ranked.n_ret.astype(np.float64))


P = Precision()
"""Precision; ``P@10``, ``P(rel=2)@5``."""
