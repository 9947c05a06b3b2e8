"""Rank-biased precision: the gain a user of fixed persistence collects."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from ...errors import ConfigurationError
from .._measure import Measure
from .._ranked import Ranked
from ._walk import gains_of, parse_gains

__all__ = ["RBP", "RankBiasedPrecision", "check_persistence"]


@dataclasses.dataclass(frozen=True, repr=False)
class RankBiasedPrecision(Measure):
    """``RBP = (1 − p) · Σ_i gain_i · p^(i−1)``: a user reads the next document with probability p.

    Gains are the grades (or ``gains``), scaled per query into [0, 1] when some fall outside it:
    ``(g − min) / (max − min)`` over the gains of the grades 0 to the query's highest grade. Binary judgments
    thus give the classic RBP. The default persistence p = 0.9 is trec_eval's (``rbp``; ``rbp.p=0.8`` is
    ``RBP(p=0.8)``). Documents absent from the judgments gain 0; the residual is :class:`~.rbp_resid.RBPResid`.
    Graded: there is no ``rel``. With a cutoff, only the first k documents count.

    Cite: Moffat and Zobel, "Rank-Biased Precision for Measurement of Retrieval Effectiveness", ACM TOIS 27(1),
    2008.
    """

    p: float = 0.9
    """Persistence: the probability of reading on, in (0, 1)."""
    gains: Any = ()
    """Gains by grade, as ``"1=3,2=9"``; other grades gain their own value."""
    NAME: ClassVar[str] = "RBP"

    def _validate(self) -> None:
        object.__setattr__(self, "p", check_persistence(self.NAME, self.p))
        object.__setattr__(self, "gains", parse_gains(self.NAME, self.gains))

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        n = ranked.n_queries
        top = np.full(n, -1, dtype=np.int64)
        nonneg = ranked.level_grade >= 0
        np.maximum.at(top, ranked.level_query[nonneg], ranked.level_grade[nonneg])
        low, high = _gain_range(top, self.gains)
        gain = gains_of(ranked.hit_grade, self.gains)
        q = ranked.hit_query
        scale = (low[q] < 0) | (high[q] > 1)
        spread = np.where(high[q] > low[q], high[q] - low[q], 1.0)
        gain = np.where(scale, (gain - low[q]) / spread, gain)
        gain[ranked.hit_grade < 0] = 0.0
        mask = gain != 0
        if self.cutoff is not None:
            mask &= ranked.hit_pos <= self.cutoff
        weights = gain[mask] * np.power(self.p, (ranked.hit_pos[mask] - 1).astype(np.float64))
        return (1.0 - self.p) * np.bincount(q[mask], weights=weights, minlength=n).astype(np.float64)


def _gain_range(top: NDArray[np.int64], gains: tuple[tuple[int, float], ...]) -> tuple[NDArray[np.float64], ...]:
    """Per query, the smallest and largest gain over grades 0..top (and the grades ``gains`` names)."""
    low = np.zeros(len(top), dtype=np.float64)
    high = np.maximum(top, 0).astype(np.float64)
    named = dict(gains)
    if not named:
        return low, high
    # The table holds every named grade at its gain, and grades 0..top at their own value unless named: of
    # those, only the smallest and the largest unnamed grade can set the range (found without going through
    # 0..top, which may be up to 2**63 grades).
    low = np.full(len(top), min(named.values()), dtype=np.float64)
    high = np.full(len(top), max(named.values()), dtype=np.float64)
    smallest = 0
    while smallest in named:
        smallest += 1
    present = top >= smallest
    low[present] = np.minimum(low[present], float(smallest))
    keys = sorted(named)
    run_start = list(keys)  # for each named grade, the first of the named grades running up to it
    for i in range(1, len(keys)):
        if keys[i] == keys[i - 1] + 1:
            run_start[i] = run_start[i - 1]
    at = np.minimum(np.searchsorted(keys, top), len(keys) - 1)
    is_named = np.asarray(keys, dtype=np.int64)[at] == top
    largest = np.where(is_named, np.asarray(run_start, dtype=np.int64)[at] - 1, top)
    found = largest >= 0
    high[found] = np.maximum(high[found], largest[found].astype(np.float64))
    return low, high


def check_persistence(name: str, p: Any) -> float:
    """Validate a persistence: a number strictly between 0 and 1."""
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p < 1:
        raise ConfigurationError(f"{name}: p (persistence) must be a number between 0 and 1, got {p!r}")
    return float(p)


RBP = RankBiasedPrecision()
"""Rank-biased precision; ``RBP``, ``RBP(p=0.8)``."""
