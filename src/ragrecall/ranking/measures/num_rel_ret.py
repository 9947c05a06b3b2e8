"""The number of relevant documents retrieved."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked

__all__ = ["NumRelRet", "NumRelevantRetrieved"]


@dataclasses.dataclass(frozen=True, repr=False)
class NumRelevantRetrieved(RelMeasure):
    """``NumRelRet = |relevant ∩ retrieved|``: how many relevant documents (grade >= ``rel``) the run retrieved,
    within the first ``cutoff`` when given; summed over queries.

    trec_eval's ``num_rel_ret``.

    Cite: trec_eval's documentation of ``num_rel_ret`` (NIST, github.com/usnistgov/trec_eval).
    """

    NAME: ClassVar[str] = "NumRelRet"
    BOUNDED: ClassVar[bool] = False
    AGGREGATE: ClassVar[str] = "sum"
    INTEGER: ClassVar[bool] = True

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        return ranked.per_query_sum(ranked.hit_mask(self.rel, self.cutoff))


NumRelRet = NumRelevantRetrieved()
"""Relevant documents retrieved; ``NumRelRet``, ``NumRelRet(rel=2)@100``."""
