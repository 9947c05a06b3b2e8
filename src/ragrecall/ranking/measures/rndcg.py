"""nDCG averaged at the ranks where the ideal gain changes."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked, safe_divide
from ._walk import cumulative, parse_gains, running_at
from .ndcg import discounted_hits, discounted_ideal, ndcg_of

__all__ = ["RNDCG", "RnDCG"]


@dataclasses.dataclass(frozen=True, repr=False)
class RNDCG(RelMeasure):
    """``RnDCG``: the mean of nDCG at each "R level", the ranks b where the gain of the ideal ranking changes
    (after the last document of each gain, the last positive one included), plus the end of the run when it is
    longer than the ideal ranking by more than one document. At a level b past the end of the run the DCG of
    the whole run is used. With 5 documents of grade 3, 3 of grade 2 and 10 of grade 1:
    ``RnDCG = (nDCG@5 + nDCG@8 + nDCG@18 [+ nDCG@run]) / 3 [or 4]``.

    Gains as in :class:`~.ndcg.NDCG` (grades, or ``gains``). 0 for a query without relevant documents (grade
    >= ``rel``). An experimental measure of trec_eval (``Rndcg``). Takes no cutoff.

    Cite: trec_eval's documentation of ``Rndcg`` (Buckley, 2008); Järvelin and Kekäläinen, ACM TOIS 2002.
    """

    gains: Any = ()
    """Gains by grade, as ``"1=3,2=9"``; other grades gain their own value."""
    NAME: ClassVar[str] = "RnDCG"
    CUTOFF: ClassVar[str] = "none"

    def _validate(self) -> None:
        super()._validate()
        object.__setattr__(self, "gains", parse_gains(self.NAME, self.gains))

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        n = ranked.n_queries
        query, position, _, discounted = discounted_hits(ranked, self.gains)
        dcg = cumulative(query, discounted)
        ideal_query, ideal_gain, ideal_pos, ideal_value = discounted_ideal(ranked, self.gains)
        idcg = cumulative(ideal_query, ideal_value)
        # A level ends where the next ideal document has another gain, or where the ideal ranking ends.
        last = np.ones(len(ideal_query), dtype=np.bool_)
        last[:-1] = (ideal_query[1:] != ideal_query[:-1]) | (ideal_gain[1:] != ideal_gain[:-1])
        b_query, b_pos, b_idcg = ideal_query[last], ideal_pos[last], idcg[last]
        at = running_at(query, position, dcg, b_query, np.minimum(b_pos, ranked.n_ret[b_query]))
        total = np.bincount(b_query, weights=safe_divide(at, b_idcg), minlength=n).astype(np.float64)
        count = np.bincount(b_query, minlength=n).astype(np.float64)
        depth = np.bincount(ideal_query, minlength=n)
        tail = depth + 1 < ranked.n_ret
        total[tail] += ndcg_of(query, discounted, ideal_query, ideal_value, n)[tail]
        count[tail] += 1
        value = safe_divide(total, count)
        value[ranked.num_rel(self.rel) == 0] = 0.0
        return value


RnDCG = RNDCG()
"""nDCG averaged at R levels; ``RnDCG``."""
