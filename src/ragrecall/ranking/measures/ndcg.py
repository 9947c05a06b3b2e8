"""Normalised discounted cumulative gain."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from ...errors import ConfigurationError, InputError
from .._measure import Measure
from .._ranked import Ranked, safe_divide
from ._walk import Gains, gains_of, ideal_gains, parse_gains

__all__ = ["NDCG", "discounted_hits", "discounted_ideal", "gained_hits", "nDCG", "ndcg_of"]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]

_GAINS = ("linear", "exp")


@dataclasses.dataclass(frozen=True, repr=False)
class NDCG(Measure):
    """nDCG at k: ``nDCG@k = DCG@k / IDCG@k`` with ``DCG@k = Σ_{i ≤ k} gain(g_i) / log2(i + 1)``.

    ``gain="linear"`` (default) uses the grade itself, as trec_eval's ``ndcg_cut_k`` (``ndcg`` without a
    cutoff); ``gain="exp"`` uses ``2^g − 1`` (Burges et al. 2005). Grades <= 0 and unjudged documents gain 0.
    IDCG is the DCG of the judged documents sorted by gain. 0 when IDCG = 0. Graded: there is no ``rel``.
    ``gains`` (``"1=3,2=9"``) sets the gain of some grades, as trec_eval's ``ndcg.1=3,2=9``: gains may then be
    0 or negative, and grade 0 may gain.

    Cite: Järvelin and Kekäläinen, "Cumulated Gain-Based Evaluation of IR Techniques", ACM TOIS 20(4), 2002.
    """

    gain: str = "linear"
    gains: Any = ()
    """Gains by grade, as ``"1=3,2=9"`` or ``((1, 3.0), (2, 9.0))``; other grades gain their own value."""
    NAME: ClassVar[str] = "nDCG"

    def _validate(self) -> None:
        if self.gain not in _GAINS:
            raise ConfigurationError(f"nDCG: gain must be one of {', '.join(_GAINS)}, got {self.gain!r}")
        object.__setattr__(self, "gains", parse_gains(self.NAME, self.gains))
        if self.gains and self.gain != "linear":
            raise ConfigurationError("nDCG: give either gain='exp' or gains, not both")

    def _gain(self, grades: NDArray[np.int64]) -> NDArray[np.float64]:
        if self.gain == "exp":
            with np.errstate(over="ignore"):  # a gain past float64 is refused by compute, naming the query
                return np.exp2(grades.astype(np.float64)) - 1.0
        return grades.astype(np.float64)

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        if self.gains:
            return self._compute_gains(ranked)
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
        past = np.flatnonzero(~np.isfinite(idcg))  # gain='exp' with grades near 1,000 and more: 2^grade overflows
        if len(past):
            query = ranked.query_ids[int(past[0])]
            raise InputError(
                f"{self}: the ideal DCG of query {query!r} is past what a float holds (grade up to "
                f"{int(ranked.judged_grade[ranked.judged_query == past[0]].max())} with gain 2^grade - 1); "
                "use the linear gain or gains='grade=gain,...'"
            )
        return safe_divide(dcg, idcg)

    def _compute_gains(self, ranked: Ranked) -> NDArray[np.float64]:
        query, position, _, value = discounted_hits(ranked, self.gains)
        ideal_query, _, ideal_pos, ideal_value = discounted_ideal(ranked, self.gains)
        if self.cutoff is not None:
            keep, ideal = position <= self.cutoff, ideal_pos <= self.cutoff
            query, value, ideal_query, ideal_value = query[keep], value[keep], ideal_query[ideal], ideal_value[ideal]
        return ndcg_of(query, value, ideal_query, ideal_value, ranked.n_queries)


def gained_hits(ranked: Ranked, gains: Gains) -> tuple[IntArray, IntArray, FloatArray]:
    """The retrieved documents whose gain is not 0: their query, position and gain."""
    gain = gains_of(ranked.hit_grade, gains)
    keep = gain != 0
    return ranked.hit_query[keep], ranked.hit_pos[keep], gain[keep]


def discounted_hits(ranked: Ranked, gains: Gains) -> tuple[IntArray, IntArray, FloatArray, FloatArray]:
    """:func:`gained_hits` and each one's discounted gain, ``gain / log2(position + 1)``."""
    query, position, gain = gained_hits(ranked, gains)
    return query, position, gain, gain / np.log2(position + 1.0)


def discounted_ideal(ranked: Ranked, gains: Gains) -> tuple[IntArray, FloatArray, IntArray, FloatArray]:
    """The ideal ranking's rows (:func:`~._walk.ideal_gains`: query, gain, position) and each one's discounted
    gain, ``gain / log2(position + 1)``."""
    query, gain, position = ideal_gains(ranked, gains)
    return query, gain, position, gain / np.log2(position + 1.0)


def ndcg_of(query: IntArray, value: FloatArray, ideal_query: IntArray, ideal_value: FloatArray, n: int) -> FloatArray:
    """Per query, the sum of the run's discounted gains over the ideal ranking's (0 where the ideal has none)."""
    dcg = np.bincount(query, weights=value, minlength=n).astype(np.float64)
    idcg = np.bincount(ideal_query, weights=ideal_value, minlength=n).astype(np.float64)
    return safe_divide(dcg, idcg)


nDCG = NDCG()
"""nDCG; ``nDCG@10``, ``nDCG(gain=exp)@10``, ``nDCG(gains='1=3,2=9')``."""
