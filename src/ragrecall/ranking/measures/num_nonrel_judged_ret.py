"""The number of documents retrieved that the judgments call not relevant."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked

__all__ = ["NumNonRelJudgedRet", "NumNonRelevantJudgedRetrieved"]


@dataclasses.dataclass(frozen=True, repr=False)
class NumNonRelevantJudgedRetrieved(RelMeasure):
    """``NumNonRelJudgedRet = |{d retrieved : 0 <= grade(d) < rel}|``: retrieved documents judged not relevant;
    summed over queries. Documents absent from the judgments, or judged with a negative grade, are not counted.

    trec_eval's ``num_nonrel_judged_ret``. Takes no cutoff.

    Cite: trec_eval's documentation of ``num_nonrel_judged_ret`` (NIST, github.com/usnistgov/trec_eval).
    """

    NAME: ClassVar[str] = "NumNonRelJudgedRet"
    BOUNDED: ClassVar[bool] = False
    CUTOFF: ClassVar[str] = "none"
    AGGREGATE: ClassVar[str] = "sum"
    INTEGER: ClassVar[bool] = True

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        mask = (ranked.hit_grade >= 0) & (ranked.hit_grade < self.rel)
        return ranked.per_query_sum(mask)


NumNonRelJudgedRet = NumNonRelevantJudgedRetrieved()
"""Judged non-relevant documents retrieved; ``NumNonRelJudgedRet``."""
