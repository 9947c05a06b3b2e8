"""The number of documents retrieved."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import Measure
from .._ranked import Ranked

__all__ = ["NumRet", "NumRetrieved"]


@dataclasses.dataclass(frozen=True, repr=False)
class NumRetrieved(Measure):
    """``NumRet = |retrieved|``: how many documents the run retrieved for the query; summed over queries.

    trec_eval's ``num_ret`` (after ``-M`` and ``-J``). Takes no cutoff.

    Cite: trec_eval's documentation of ``num_ret`` (NIST, github.com/usnistgov/trec_eval).
    """

    NAME: ClassVar[str] = "NumRet"
    BOUNDED: ClassVar[bool] = False
    CUTOFF: ClassVar[str] = "none"
    AGGREGATE: ClassVar[str] = "sum"
    INTEGER: ClassVar[bool] = True

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        return ranked.n_ret.astype(np.float64)


NumRet = NumRetrieved()
"""Documents retrieved; ``NumRet``."""
