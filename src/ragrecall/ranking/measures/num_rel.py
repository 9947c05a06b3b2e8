"""The number of relevant documents in the judgments."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked

__all__ = ["NumRel", "NumRelevant"]


@dataclasses.dataclass(frozen=True, repr=False)
class NumRelevant(RelMeasure):
    """``NumRel = |{d : grade(d) >= rel}|``: how many documents the judgments call relevant, retrieved or not;
    summed over queries.

    trec_eval's ``num_rel``. Takes no cutoff.

    Cite: trec_eval's documentation of ``num_rel`` (NIST, github.com/usnistgov/trec_eval).
    """

    NAME: ClassVar[str] = "NumRel"
    BOUNDED: ClassVar[bool] = False
    CUTOFF: ClassVar[str] = "none"
    AGGREGATE: ClassVar[str] = "sum"
    INTEGER: ClassVar[bool] = True

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        return ranked.num_rel(self.rel)


NumRel = NumRelevant()
"""Relevant documents judged; ``NumRel``, ``NumRel(rel=2)``."""
