"""nDCG averaged over the relevant documents."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import Measure
from .._ranked import Ranked, safe_divide
from ._walk import cumulative, parse_gains, per_row_pick
from .ndcg import discounted_hits, discounted_ideal, ndcg_of

__all__ = ["NDCGRel", "nDCGRel"]


@dataclasses.dataclass(frozen=True, repr=False)
class NDCGRel(Measure):
    """``nDCGRel = (1/R_g) · Σ_{d judged, gain(d) > 0} nDCG at d``: nDCG taken at each document with a positive
    gain and averaged over the R_g judged documents with a positive gain; one not retrieved contributes the
    nDCG of the whole run.

    For a retrieved document at rank i with gain > 0 the term is ``DCG(i) / IDCG(min(i, R_g))``; each of the
    documents not retrieved adds ``DCG(run) / IDCG(R_g)``; the value is the sum over R_g. Gains as in
    :class:`~.ndcg.NDCG` (grades, or ``gains``). An experimental measure of trec_eval (``ndcg_rel``). Graded:
    there is no ``rel``. Takes no cutoff.

    Cite: trec_eval's documentation of ``ndcg_rel`` (Buckley, 2008); Järvelin and Kekäläinen, ACM TOIS 2002.
    """

    gains: Any = ()
    """Gains by grade, as ``"1=3,2=9"``; other grades gain their own value."""
    NAME: ClassVar[str] = "nDCGRel"
    CUTOFF: ClassVar[str] = "none"

    def _validate(self) -> None:
        object.__setattr__(self, "gains", parse_gains(self.NAME, self.gains))

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        n = ranked.n_queries
        query, position, gain, value = discounted_hits(ranked, self.gains)
        dcg = cumulative(query, value)
        ideal_query, _, _, ideal_value = discounted_ideal(ranked, self.gains)
        idcg = cumulative(ideal_query, ideal_value)
        depth = np.bincount(ideal_query, minlength=n)
        positive = gain > 0
        q = query[positive]
        reach = np.minimum(position[positive], depth[q])
        at_rel = safe_divide(dcg[positive], per_row_pick(ideal_query, idcg, q, reach, n))
        total = np.bincount(q, weights=at_rel, minlength=n).astype(np.float64)
        found = np.bincount(q, minlength=n).astype(np.float64)
        total += (depth - found) * ndcg_of(query, value, ideal_query, ideal_value, n)
        return np.where(total > 0, safe_divide(total, depth.astype(np.float64)), 0.0)


nDCGRel = NDCGRel()
"""nDCG averaged over relevant documents; ``nDCGRel``."""
