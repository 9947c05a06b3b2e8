"""R-precision: precision at R, the number of relevant documents."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from ._measure import RelMeasure
from ._ranked import Ranked, safe_divide

__all__ = ["RPrecision", "Rprec"]


@dataclasses.dataclass(frozen=True, repr=False)
class RPrecision(RelMeasure):
    """R-precision: ``Rprec = |relevant in the first R| / R`` with R the number of relevant documents.

    0 when R = 0 (trec_eval's ``Rprec``). Takes no cutoff. Relevant means grade >= ``rel``.

    Cite: Buckley and Voorhees, "Evaluating Evaluation Measure Stability", SIGIR 2000.
    """

    NAME: ClassVar[str] = "Rprec"
    CUTOFF: ClassVar[str] = "none"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        num_rel = ranked.num_rel(self.rel)
        mask = ranked.hit_mask(self.rel, None)
        mask &= ranked.hit_pos <= num_rel[ranked.hit_query]
        return safe_divide(ranked.per_query_sum(mask), num_rel)


Rprec = RPrecision()
"""R-precision."""
