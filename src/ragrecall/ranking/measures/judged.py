"""The share of the first k positions taken by judged documents."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import Measure
from .._ranked import Ranked

__all__ = ["Judged", "JudgedShare"]


@dataclasses.dataclass(frozen=True, repr=False)
class JudgedShare(Measure):
    """``Judged@k = |judged in the first k| / min(k, retrieved)``: the share of the first k positions (of all
    positions when fewer were retrieved, as ir_measures divides) taken by judged documents, whatever their
    grade (judged means in the judgments with a grade >= 0: a negative grade is trec_eval's "in the pool, not
    judged"; ir_measures counts it as judged). 0 when nothing was retrieved. ``1 − Judged@k`` is trec_eval's
    ``unj_k`` (:class:`~.unjudged.Unjudged`) when at least k documents were retrieved.

    Cite: ir_measures' ``Judged`` (MacAvaney, Macdonald and Ounis, "Streamlining Evaluation with ir-measures",
    ECIR 2022).
    """

    NAME: ClassVar[str] = "Judged"
    CUTOFF: ClassVar[str] = "required"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        self.check_usable()
        judged = (ranked.hit_grade >= 0) & (ranked.hit_pos <= (self.cutoff or 0))
        shown = np.minimum(ranked.n_ret, self.cutoff or 0).astype(np.float64)
        return np.divide(ranked.per_query_sum(judged), shown, out=np.zeros_like(shown), where=shown > 0)


Judged = JudgedShare()
"""Judged share; ``Judged@10``."""
