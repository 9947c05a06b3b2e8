"""The compact form every ranking measure is computed from.

After a run has been ordered (see :mod:`._order`) and joined with the judgments, only the retrieved documents
that are in the judgments ("hits") can change any measure this package defines: a document absent from the
judgments adds nothing to a count, a gain or a stopping probability, it only takes up a position. So a
:class:`Ranked` keeps, per query, the number of documents retrieved, and, per hit, its query, position and
grade (relevant, judged not relevant, or negative: in the pool but not judged, as trec_eval reads it); plus,
per query, the positively graded judged documents in ideal order and the number of judgments at each grade.
That is a few rows per query however long the run is, which is what keeps the kernels fast and small.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from numpy.typing import NDArray

__all__ = ["Ranked", "first_index_of_group", "safe_divide"]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Ranked:
    """A judged, ordered run in compact form. All arrays are int64; queries are indexed 0..n_queries-1.

    Invariants: hit rows are sorted by (query, position); judged rows by (query, grade descending), and
    ``judged_pos`` is each judged document's 1-based position in that ideal order. Hits hold every retrieved
    document found in the judgments, whatever its grade; measures select the relevant ones with
    :meth:`hit_mask`.
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
    level_query: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    level_grade: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    level_count: IntArray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    """Per (query, grade) judged, sorted by query then grade: how many judgments of that query have that grade
    (every grade, zero and negative ones too)."""

    @property
    def n_queries(self) -> int:
        """Number of evaluated queries."""
        return len(self.query_ids)

    def num_rel(self, rel: int) -> FloatArray:
        """Per query: the number of judged documents with grade >= ``rel`` (as float, for division)."""
        mask = self.judged_grade >= rel
        return np.bincount(self.judged_query[mask], minlength=self.n_queries).astype(np.float64)

    def num_judged(self, low: int, high: int | None = None) -> FloatArray:
        """Per query: the number of judgments with ``low <= grade`` (``< high`` when given), as float."""
        mask = self.level_grade >= low
        if high is not None:
            mask &= self.level_grade < high
        weights = self.level_count[mask].astype(np.float64)
        return np.bincount(self.level_query[mask], weights=weights, minlength=self.n_queries).astype(np.float64)

    def truncated(self, depth: int) -> Ranked:
        """The same run cut after ``depth`` documents per query (trec_eval's ``-M``)."""
        depth = min(depth, int(np.iinfo(np.int64).max))  # a larger depth cuts nothing, and numpy cannot hold it
        keep = self.hit_pos <= depth
        return replace(
            self,
            n_ret=np.minimum(self.n_ret, depth),
            hit_query=self.hit_query[keep],
            hit_pos=self.hit_pos[keep],
            hit_grade=self.hit_grade[keep],
            hit_expected=self.hit_expected[keep],
        )

    def judged_only(self) -> Ranked:
        """The run with every document not judged (absent from the judgments, or with a negative grade) taken
        out before anything is measured, the others moving up (trec_eval's ``-J``)."""
        keep = self.hit_grade >= 0
        query = self.hit_query[keep]
        nth = np.arange(len(query), dtype=np.int64) - first_index_of_group(query) + 1
        return replace(
            self,
            n_ret=np.bincount(query, minlength=self.n_queries).astype(np.int64),
            hit_query=query,
            hit_pos=nth,
            hit_grade=self.hit_grade[keep],
            hit_expected=self.hit_expected[keep],
        )

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


def run_starts(*columns: NDArray[np.generic]) -> IntArray:
    """The rows (of equally long, sorted columns) where a run of equal rows begins: row 0 and every row that
    differs from the one before in any column; empty for no rows. (np.unique would do for one column, but it
    imports numpy.ma, 15-20 ms.)"""
    first = columns[0]
    if not len(first):
        return np.zeros(0, dtype=np.int64)
    change = np.zeros(len(first) - 1, dtype=np.bool_)
    for column in columns:
        change |= column[1:] != column[:-1]
    return np.flatnonzero(np.concatenate(([True], change))).astype(np.int64)


def safe_divide(numerator: FloatArray, denominator: FloatArray) -> FloatArray:
    """Elementwise ``numerator / denominator``, 0 where the denominator is 0 (trec_eval's convention)."""
    out = np.zeros_like(numerator, dtype=np.float64)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out
