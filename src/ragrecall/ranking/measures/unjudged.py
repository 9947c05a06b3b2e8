"""The share of the first k positions taken by unjudged documents."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import Measure
from .._ranked import Ranked

__all__ = ["Unj", "Unjudged"]


@dataclasses.dataclass(frozen=True, repr=False)
class Unjudged(Measure):
    """``Unj@k = |unjudged in the first k| / k``; a run shorter than k is taken as filled with judged
    documents. Unjudged means absent from the judgments or judged with a negative grade. A "red flag": high
    values say the judgments do not cover the run. Without a cutoff, k is the number retrieved.

    trec_eval's ``unj_k``.

    Cite: trec_eval's documentation of ``unj`` (Soboroff, 2023; github.com/usnistgov/trec_eval).
    """

    NAME: ClassVar[str] = "Unj"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        judged = ranked.hit_grade >= 0
        if self.cutoff is not None:
            judged &= ranked.hit_pos <= self.cutoff
            depth = np.minimum(ranked.n_ret, self.cutoff).astype(np.float64)
            width = np.full(ranked.n_queries, float(self.cutoff))
        else:
            depth = width = ranked.n_ret.astype(np.float64)
        unjudged = depth - ranked.per_query_sum(judged)
        out: NDArray[np.float64] = np.divide(unjudged, width, out=np.zeros_like(unjudged), where=width > 0)
        return out


Unj = Unjudged()
"""Unjudged share; ``Unj@10``."""
