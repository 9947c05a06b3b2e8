"""G: normalised gain, each document discounted by how far the run is behind the ideal when it comes."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import Measure
from .._ranked import Ranked, safe_divide
from ._walk import Gains, cumulative, gains_of, ideal_gains, parse_gains, per_row_pick

__all__ = ["G", "NormalizedGain"]


@dataclasses.dataclass(frozen=True, repr=False)
class NormalizedGain(Measure):
    """``G = (1/ΣG*) · Σ_{i retrieved, g_i ≠ 0} g_i / log2(2 + C_i − S_i)``: S_i is the gain the run has
    gathered down to rank i, C_i the cost of the ideal ranking down to i (each ideal document costs its gain,
    or 1 when its gain is below 1, and each rank past the ideal ranking costs 1), ΣG* the gain of every judged
    document. Gains are the grades, or ``gains`` (``"1=3,2=9"``); negative grades gain 0. Experimental measure
    of trec_eval, combining qualities of AP and nDCG: a document found early is worth more when the documents
    above it were worth less than the ideal's.

    trec_eval's ``G`` (``G.1=3,2=9`` is ``G(gains='1=3,2=9')``). Graded: there is no ``rel``. Takes no cutoff.

    Cite: trec_eval's documentation of ``G`` (Buckley, 2008; github.com/usnistgov/trec_eval).
    """

    gains: Any = ()
    """Gains by grade, as ``"1=3,2=9"`` or ``((1, 3.0), (2, 9.0))``; other grades gain their own value."""
    NAME: ClassVar[str] = "G"
    CUTOFF: ClassVar[str] = "none"

    def _validate(self) -> None:
        object.__setattr__(self, "gains", parse_gains(self.NAME, self.gains))

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        gains: Gains = self.gains
        hit_gain = gains_of(ranked.hit_grade, gains)
        nonzero = hit_gain != 0
        query, position, gain = ranked.hit_query[nonzero], ranked.hit_pos[nonzero], hit_gain[nonzero]
        gathered = cumulative(query, gain)
        ideal_query, ideal_gain, _ = ideal_gains(ranked, gains)
        extra = cumulative(ideal_query, np.maximum(ideal_gain - 1.0, 0.0))
        depth = np.bincount(ideal_query, minlength=ranked.n_queries)
        reach = np.minimum(position, depth[query])
        cost = position + per_row_pick(ideal_query, extra, query, reach, ranked.n_queries)
        total = np.bincount(query, weights=gain / np.log2(2.0 + cost - gathered), minlength=ranked.n_queries)
        best = np.bincount(ideal_query, weights=ideal_gain, minlength=ranked.n_queries)
        return safe_divide(total.astype(np.float64), best.astype(np.float64))


G = NormalizedGain()
"""G; ``G``, ``G(gains='1=3,2=9')``."""
