"""Binary G: relevant documents discounted by the non-relevant ones retrieved above them."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked, first_index_of_group, safe_divide

__all__ = ["BinG", "BinaryG"]


@dataclasses.dataclass(frozen=True, repr=False)
class BinaryG(RelMeasure):
    """``BinG = (1/R) · Σ_{r retrieved relevant} 1 / log2(2 + n_r)``, n_r being the number of documents above
    r that are not relevant (judged or not). An experimental blend of AP and nDCG.

    trec_eval's ``binG``. Relevant means grade >= ``rel``. Takes no cutoff.

    Cite: trec_eval's documentation of ``binG`` and ``G`` (Buckley, 2008; github.com/usnistgov/trec_eval).
    """

    NAME: ClassVar[str] = "BinG"
    CUTOFF: ClassVar[str] = "none"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        mask = ranked.hit_mask(self.rel, None)
        query = ranked.hit_query[mask]
        nth = np.arange(len(query), dtype=np.int64) - first_index_of_group(query) + 1
        nonrel_above = (ranked.hit_pos[mask] - nth).astype(np.float64)
        total = ranked.per_query_sum(mask, 1.0 / np.log2(2.0 + nonrel_above))
        return safe_divide(total, ranked.num_rel(self.rel))


BinG = BinaryG()
"""Binary G; ``BinG``."""
