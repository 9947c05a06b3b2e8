"""Set average precision: precision times recall of the retrieved set."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked, safe_divide

__all__ = ["SetAP", "SetAveragePrecision"]


@dataclasses.dataclass(frozen=True, repr=False)
class SetAveragePrecision(RelMeasure):
    """``SetAP = |relevant retrieved|² / (|retrieved| · R)``: average precision of the retrieved set taken as
    unranked (every relevant document retrieved at the set's precision, the others at 0), i.e. set precision
    times set recall. 0 when nothing is retrieved or R = 0.

    trec_eval's ``set_map``. Relevant means grade >= ``rel``. Takes no cutoff.

    Cite: trec_eval's documentation of ``set_map`` (github.com/usnistgov/trec_eval).
    """

    NAME: ClassVar[str] = "SetAP"
    CUTOFF: ClassVar[str] = "none"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        found = ranked.per_query_sum(ranked.hit_mask(self.rel, None))
        return safe_divide(found * found, ranked.n_ret.astype(np.float64) * ranked.num_rel(self.rel))


SetAP = SetAveragePrecision()
"""Set average precision; ``SetAP``."""
