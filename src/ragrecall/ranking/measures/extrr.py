"""Extended reciprocal rank: every known-relevant document is expected by some position."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from .._measure import RelMeasure
from .._ranked import Ranked, run_starts, safe_divide

__all__ = ["ExtRR", "ExtendedReciprocalRank", "grade_rule_positions"]


@dataclasses.dataclass(frozen=True, repr=False)
class ExtendedReciprocalRank(RelMeasure):
    """Extended reciprocal rank: the mean, over the known-relevant documents, of a per-document reward.

    Each relevant document d has a maximum expected position m(d). Found at position p, it earns
    1 if ``p <= m(d)`` and ``1 / (p − m(d) + 1)`` otherwise; not found (or beyond the cutoff), 0.
    ``ExtRR = Σ_d reward(d) / |relevant|``, 0 when there is no relevant document.

    Where m(d) comes from: an explicit mapping ``{query: {doc: m}}`` given to
    :func:`~ragrecall.ranking.evaluate_run` (``expected_positions=``); for a document without one, the grade
    rule: m(d) is the number of relevant documents of its query with a grade >= its grade, that is the last
    position d could hold in an ideal ranking. With binary judgments every relevant document is expected
    within the first R positions. Relevant means grade >= ``rel``.

    Cite: extends reciprocal rank (Voorhees, TREC-8 QA track report, 1999) to several relevant documents:
    with one relevant document and m = 1 it is RR. No reference implementation exists to cross-check; the
    tests pin the definition above on a worked example.
    """

    NAME: ClassVar[str] = "ExtRR"

    def compute(self, ranked: Ranked) -> NDArray[np.float64]:
        mask = ranked.hit_mask(self.rel, self.cutoff)
        positions = ranked.hit_pos[mask]
        expected = ranked.hit_expected[mask]
        by_grade = grade_rule_positions(ranked, self.rel, ranked.hit_query[mask], ranked.hit_grade[mask])
        m = np.where(expected > 0, expected, by_grade)
        reward = 1.0 / np.maximum(positions - m + 1.0, 1.0)  # 1 at or before m
        return safe_divide(ranked.per_query_sum(mask, reward), ranked.num_rel(self.rel))


def grade_rule_positions(
    ranked: Ranked, rel: int, queries: NDArray[np.int64], grades: NDArray[np.int64]
) -> NDArray[np.int64]:
    """For each (query, grade): how many relevant judged documents of that query have a grade >= it."""
    keep = ranked.judged_grade >= rel
    kept = ranked.judged_grade[keep]
    # Grades by their rank among the distinct relevant grades, so that a key of query and grade fits in int64
    # whatever the grades (they may lie up to 2**64 apart).
    levels = np.sort(kept)
    levels = levels[run_starts(levels)]
    top = len(levels) + 1
    # judged rows are sorted by (query, grade descending), so this key is ascending.
    keys = ranked.judged_query[keep] * top + (top - 1 - np.searchsorted(levels, kept))
    lowest = np.searchsorted(levels, grades, side="left")  # the rank from which grades are >= the one asked
    upper = np.searchsorted(keys, queries * top + (top - 1 - lowest), side="right")
    lower = np.searchsorted(keys, queries * top, side="left")
    return np.asarray(upper - lower, dtype=np.int64)


ExtRR = ExtendedReciprocalRank()
"""Extended reciprocal rank; ``ExtRR``, ``ExtRR@20``."""
