"""The compact form every ranking measure is computed from.

After a run has been ordered (see :mod:`._order`) and joined with the judgments, only the retrieved documents
with a positive grade ("hits") can change any measure this package defines: a non-relevant or unjudged document
adds nothing to a count, a gain or a stopping probability, it only takes up a position. So a :class:`Ranked`
keeps, per query, the number of documents retrieved, and, per hit, its query, position and grade; plus, per
query, the positively graded judged documents in ideal order. That is a few rows per query however long the
run is, which is what keeps the kernels fast and small.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["Ranked", "first_index_of_group", "safe_divide"]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Ranked:
    """A judged, ordered run in compact form. All arrays are int64; queries are indexed 0..n_queries-1.

    Invariants: hit rows are sorted by (query, position); judged rows by (query, grade descending), and
    ``judged_pos`` is each judged document's 1-based position in that ideal order.
    """

    query_ids: tuple[str, ...]
    """The evaluated queries, in output order."""
    n_ret: IntArray
    """Per query: how many documents the run retrieved for it."""
    hit_query: IntArray
    """Per hit: its query index."""
    hit_pos: IntArray
    """Per hit: its 1-based position in the ordered run."""
    hit_grade: IntArray
    """Per hit: its grade (always >= 1)."""
    hit_expected: IntArray
    """Per hit: its maximum expected position for ExtRR when one was given explicitly, else 0."""
    judged_query: IntArray
    """Per positively graded judgment: its query index."""
    judged_grade: IntArray
    """Per positively graded judgment: its grade (>= 1)."""
    judged_pos: IntArray
    """Per positively graded judgment: its 1-based position in the ideal ranking of its query."""

    @property
    def n_queries(self) -> int:
        """Number of evaluated queries."""
        return len(self.query_ids)

    def num_rel(self, rel: int) -> FloatArray:
        """Per query: the number of judged documents with grade >= ``rel`` (as float, for division)."""
        mask = self.judged_grade >= rel
        return np.bincount(self.judged_query[mask], minlength=self.n_queries).astype(np.float64)

    def hit_mask(self, rel: int, cutoff: int | None) -> NDArray[np.bool_]:
        """Hits with grade >= ``rel`` within the first ``cutoff`` positions (all positions when None)."""
        mask = self.hit_grade >= rel
        if cutoff is not None:
            mask &= self.hit_pos <= cutoff
        return mask

    def per_query_sum(self, mask: NDArray[np.bool_], weights: FloatArray | None = None) -> FloatArray:
        """Per query: the number (or the weighted sum) of hits selected by ``mask``."""
        w = None if weights is None else weights
        return np.bincount(self.hit_query[mask], weights=w, minlength=self.n_queries).astype(np.float64)


def first_index_of_group(sorted_keys: IntArray) -> IntArray:
    """For each element of a sorted array, the index of the first element equal to it."""
    return np.searchsorted(sorted_keys, sorted_keys, side="left").astype(np.int64)


def safe_divide(numerator: FloatArray, denominator: FloatArray) -> FloatArray:
    """Elementwise ``numerator / denominator``, 0 where the denominator is 0 (trec_eval's convention)."""
    out = np.zeros_like(numerator, dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out
