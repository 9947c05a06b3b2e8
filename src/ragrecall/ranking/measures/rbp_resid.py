"""The residual of rank-biased precision: what unjudged documents could still add."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import Measure
from .._ranked import Ranked
from .rbp import check_persistence

__all__ = ["RBPResid", "RBPResidual"]


@dataclasses.dataclass(frozen=True, repr=False)
class RBPResidual(Measure):
    """``RBPResid = p^n + (1 − p) · Σ_{i ≤ n, doc i unjudged} p^(i−1)``, n the number retrieved: the most RBP
    could still grow if every unjudged document retrieved, and every one past the end, were relevant. 0 when
    every document retrieved is judged. Unjudged means absent from the judgments or judged with a negative
    grade.

    trec_eval's ``rbp_resid`` (p = 0.9). Takes no cutoff.

    Cite: Moffat and Zobel, "Rank-Biased Precision for Measurement of Retrieval Effectiveness", ACM TOIS 27(1),
    2008.
    """

    p: float = 0.9
    """Persistence: the probability of reading on, in (0, 1)."""
    NAME: ClassVar[str] = "RBPResid"
    CUTOFF: ClassVar[str] = "none"

    def _validate(self) -> None:
        object.__setattr__(self, "p", check_persistence(self.NAME, self.p))

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        n = ranked.n_queries
        judged = ranked.hit_grade >= 0
        n_judged = np.bincount(ranked.hit_query[judged], minlength=n)
        weights = np.power(self.p, (ranked.hit_pos[judged] - 1).astype(np.float64))
        judged_mass = np.bincount(ranked.hit_query[judged], weights=weights, minlength=n).astype(np.float64)
        # Σ over every position of p^(i-1) is (1 - p^n) / (1 - p): the unjudged part is that minus the judged.
        value = 1.0 - (1.0 - self.p) * judged_mass
        return np.where(n_judged < ranked.n_ret, value, 0.0)


RBPResid = RBPResidual()
"""RBP residual; ``RBPResid``."""
