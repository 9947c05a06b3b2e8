"""Normalised discounted cumulative gain."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from ..errors import ConfigurationError
from ._measure import Measure
from ._ranked import Ranked, safe_divide

__all__ = ["NDCG", "nDCG"]

_GAINS = ("linear", "exp")


@dataclasses.dataclass(frozen=True, repr=False)
class NDCG(Measure):
    """nDCG at k: ``nDCG@k = DCG@k / IDCG@k`` with ``DCG@k = Σ_{i ≤ k} gain(g_i) / log2(i + 1)``.

    ``gain="linear"`` (default) uses the grade itself, as trec_eval's ``ndcg_cut_k`` (``ndcg`` without a
    cutoff); ``gain="exp"`` uses ``2^g − 1`` (Burges et al. 2005). Grades <= 0 and unjudged documents gain 0.
    IDCG is the DCG of the judged documents sorted by grade. 0 when IDCG = 0. Graded: there is no ``rel``.

    Cite: Järvelin and Kekäläinen, "Cumulated Gain-Based Evaluation of IR Techniques", ACM TOIS 20(4), 2002.
    """

    gain: str = "linear"
    NAME: ClassVar[str] = "nDCG"

    def _validate(self) -> None:
        if self.gain not in _GAINS:
            raise ConfigurationError(f"nDCG: gain must be one of {', '.join(_GAINS)}, got {self.gain!r}")

    def _gain(self, grades: NDArray[np.int64]) -> NDArray[np.float64]:
        if self.gain == "exp":
            return np.exp2(grades.astype(np.float64)) - 1.0
        return grades.astype(np.float64)

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        mask = ranked.hit_mask(1, self.cutoff)
        dcg = ranked.per_query_sum(mask, self._gain(ranked.hit_grade[mask]) / np.log2(ranked.hit_pos[mask] + 1.0))
        ideal = np.ones(len(ranked.judged_pos), dtype=np.bool_)
        if self.cutoff is not None:
            ideal = ranked.judged_pos <= self.cutoff
        discounts = np.log2(ranked.judged_pos[ideal] + 1.0)
        idcg = np.bincount(
            ranked.judged_query[ideal],
            weights=self._gain(ranked.judged_grade[ideal]) / discounts,
            minlength=ranked.n_queries,
        ).astype(np.float64)
        return safe_divide(dcg, idcg)


nDCG = NDCG()
"""nDCG; ``nDCG@10``, ``nDCG(gain=exp)@10``."""
