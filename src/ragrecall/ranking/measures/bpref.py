"""Binary preference: how often judged relevant documents come before judged non-relevant ones."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked, safe_divide
from ._walk import count_before

__all__ = ["BinaryPreference", "Bpref"]


@dataclasses.dataclass(frozen=True, repr=False)
class BinaryPreference(RelMeasure):
    """``Bpref = (1/R) · Σ_{r retrieved relevant} (1 − min(n_r, R) / min(N, R))``, where R is the number of
    relevant documents, N the number of judged non-relevant ones, and n_r the number of judged non-relevant
    documents retrieved above r (a term is 1 when n_r = 0). Documents absent from the judgments, or judged
    with a negative grade, are skipped: they neither help nor hurt.

    trec_eval's ``bpref``. Judged non-relevant means a grade in ``[0, rel)``. Takes no cutoff.

    Cite: Buckley and Voorhees, "Retrieval Evaluation with Incomplete Information", SIGIR 2004.
    """

    NAME: ClassVar[str] = "Bpref"
    CUTOFF: ClassVar[str] = "none"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        return safe_divide(bpref_sum(ranked, self.rel), ranked.num_rel(self.rel))


def bpref_sum(ranked: Ranked, rel: int) -> NDArray[np.float64]:
    """Per query: the sum of bpref's terms over the relevant documents retrieved."""
    relevant = ranked.hit_grade >= rel
    nonrel = (ranked.hit_grade >= 0) & ~relevant
    above = count_before(ranked, nonrel)[relevant].astype(np.float64)
    query = ranked.hit_query[relevant]
    num_rel = ranked.num_rel(rel)[query]
    num_nonrel = ranked.num_judged(0, rel)[query]
    terms = np.ones(len(query), dtype=np.float64)
    some = above > 0
    terms[some] = 1.0 - np.minimum(above[some], num_rel[some]) / np.minimum(num_nonrel[some], num_rel[some])
    return np.bincount(query, weights=terms, minlength=ranked.n_queries).astype(np.float64)


Bpref = BinaryPreference()
"""Binary preference; ``Bpref``, ``Bpref(rel=2)``."""
