"""Expected reciprocal rank: a cascade model of a user who stops at the first satisfying document."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from ...errors import ConfigurationError
from .._measure import Measure
from .._ranked import Ranked, first_index_of_group

__all__ = ["ERR", "ExpectedReciprocalRank"]


@dataclasses.dataclass(frozen=True, repr=False)
class ExpectedReciprocalRank(Measure):
    """ERR at k: ``ERR@k = Σ_{r ≤ k} (1/r) · R_r · Π_{i < r} (1 − R_i)`` with ``R_i = (2^g_i − 1) / 2^g_max``.

    ``R_i`` is the probability that the document at position i satisfies the user. Grades above ``g_max``
    count as ``g_max``; grades <= 0 and unjudged documents have ``R = 0``. ``g_max`` defaults to 4, the
    value of the TREC Web track's ``gdeval`` script. Not in [0, 1]-normalised form: the best possible value
    is below 1 unless ``g_max`` grades are present. Graded: there is no ``rel``.

    Cite: Chapelle, Metzler, Zhang and Grinspan, "Expected Reciprocal Rank for Graded Relevance", CIKM 2009.
    """

    g_max: int = 4
    NAME: ClassVar[str] = "ERR"

    def _validate(self) -> None:
        g = self.g_max
        if isinstance(g, bool) or not isinstance(g, int) or g < 1:
            raise ConfigurationError(f"ERR: g_max must be a positive integer (the highest grade), got {g!r}")

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        mask = ranked.hit_mask(1, self.cutoff)
        queries = ranked.hit_query[mask]
        positions = ranked.hit_pos[mask].astype(np.float64)
        grades = np.minimum(ranked.hit_grade[mask], self.g_max).astype(np.float64)
        stop = (np.exp2(grades) - 1.0) / 2.0**self.g_max
        out = np.zeros(ranked.n_queries, dtype=np.float64)
        if len(queries) == 0:
            return out
        # Walk the hits level by level (the n-th hit of every query at once): exact products, and a Python
        # loop over at most max-hits-per-query levels, never over queries.
        nth = np.arange(len(queries), dtype=np.int64) - first_index_of_group(queries)
        order = np.argsort(nth, kind="stable")
        bounds = np.searchsorted(nth[order], np.arange(int(nth.max()) + 2))
        not_stopped = np.ones(ranked.n_queries, dtype=np.float64)
        for level in range(len(bounds) - 1):
            rows = order[bounds[level] : bounds[level + 1]]
            q = queries[rows]
            out[q] += not_stopped[q] * stop[rows] / positions[rows]
            not_stopped[q] *= 1.0 - stop[rows]
        return out


ERR = ExpectedReciprocalRank()
"""Expected reciprocal rank; ``ERR@20``, ``ERR(g_max=3)@10``."""
