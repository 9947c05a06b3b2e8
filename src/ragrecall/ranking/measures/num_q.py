"""The number of queries evaluated."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import Measure
from .._ranked import Ranked

__all__ = ["NumQ", "NumQueries"]


@dataclasses.dataclass(frozen=True, repr=False)
class NumQueries(Measure):
    """``NumQ = Σ_q 1``: 1 per evaluated query, summed: the number of queries the other values are taken over.

    trec_eval's ``num_q``. Takes no cutoff.

    Cite: trec_eval's documentation of ``num_q`` (NIST, github.com/usnistgov/trec_eval).
    """

    NAME: ClassVar[str] = "NumQ"
    BOUNDED: ClassVar[bool] = False
    CUTOFF: ClassVar[str] = "none"
    AGGREGATE: ClassVar[str] = "sum"
    INTEGER: ClassVar[bool] = True

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        return np.ones(ranked.n_queries, dtype=np.float64)


NumQ = NumQueries()
"""Queries evaluated; ``NumQ``."""
