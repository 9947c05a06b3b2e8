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
    """``Judged@k = |judged in the first k| / k``: precision at k with every judged document counted, whatever
    its grade (judged means in the judgments with a grade >= 0). ``1 − Judged@k`` is trec_eval's ``unj_k``
    (:class:`~.unjudged.Unjudged`) when at least k documents were retrieved.

    Cite: ir_measures' ``Judged`` (MacAvaney, Macdonald and Ounis, "Streamlining Evaluation with ir-measures",
    ECIR 2022).
    """

    NAME: ClassVar[str] = "Judged"
    CUTOFF: ClassVar[str] = "required"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        self.check_usable()
        judged = (ranked.hit_grade >= 0) & (ranked.hit_pos <= (self.cutoff or 0))
        return ranked.per_query_sum(judged) / float(self.cutoff or 1)


Judged = JudgedShare()
"""Judged share; ``Judged@10``."""
