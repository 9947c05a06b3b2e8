"""Success (hit rate): whether any relevant document was found."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked

__all__ = ["Success", "SuccessMeasure"]


@dataclasses.dataclass(frozen=True, repr=False)
class SuccessMeasure(RelMeasure):
    """Success at k: ``Success@k = 1`` if a relevant document is among the first k, else 0.

    trec_eval's ``success_k``; its mean over queries is the hit rate. Relevant means grade >= ``rel``.

    Cite: Craswell and Hawking, "Overview of the TREC-2004 Web Track", TREC 2004.
    """

    NAME: ClassVar[str] = "Success"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        found = ranked.per_query_sum(ranked.hit_mask(self.rel, self.cutoff))
        return (found > 0).astype(np.float64)


Success = SuccessMeasure()
"""Success (hit rate); ``Success@10``."""
