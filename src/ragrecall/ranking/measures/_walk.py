"""Small vectorised steps the measures share: counts of earlier hits, per-query suffix maxima, gain tables.

Every function works on all queries at once (hits are sorted by query, then position); none loops over queries.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...errors import ConfigurationError
from .._ranked import Ranked, first_index_of_group, run_starts

__all__ = [
    "Gains",
    "count_before",
    "cumulative",
    "gains_of",
    "ideal_gains",
    "parse_gains",
    "per_row_pick",
    "pick",
    "running_at",
    "suffix_max",
]

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]
Gains = tuple[tuple[int, float], ...]
"""Gains by grade, as ``((grade, gain), ...)``; grades not listed gain their own value (trec_eval's
``rel_level=gain`` parameters)."""


def count_before(ranked: Ranked, mask: NDArray[np.bool_]) -> IntArray:
    """Per hit: how many earlier hits of its query satisfy ``mask``."""
    counts = np.cumsum(mask, dtype=np.int64)  # integers: one sum over all queries, less the earlier ones, is exact
    if not len(counts):
        return counts
    start = first_index_of_group(ranked.hit_query)
    return counts - mask - (counts[start] - mask[start])


def cumulative(query: IntArray, values: FloatArray, *, inclusive: bool = True) -> FloatArray:
    """Per row (rows sorted by query): the running sum of ``values`` within its query, added one row at a time
    from the query's first row, so each sum is bit for bit trec_eval's loop (one cumulative sum over all queries,
    less what came before a query, would carry the rounding of the earlier queries' sums). The one difference:
    a query's leading -0.0 stays -0.0, where the loop's 0.0 + -0.0 gives 0.0, the same number."""
    n = len(values)
    if not n:
        return np.zeros(0, dtype=np.float64)
    starts = run_starts(query)
    out = _accumulate_within(starts, values, np.add, 0.0)
    if inclusive:
        return out
    before = np.empty(n, dtype=np.float64)
    before[1:] = out[:-1]
    before[starts] = 0.0
    return before


def suffix_max(query: IntArray, values: FloatArray) -> FloatArray:
    """Per row (rows sorted by query): the largest value at or after it within its query (exactly one of them)."""
    if not len(values):
        return np.zeros(0, dtype=np.float64)
    return _accumulate_within(run_starts(query), values, np.maximum, -np.inf, backward=True)


def _accumulate_within(
    starts: IntArray, values: FloatArray, step: np.ufunc, fill: float, *, backward: bool = False
) -> FloatArray:
    """Per row (rows sorted by query, at least one; each query's rows begin at ``starts``): ``step`` accumulated
    over its query's rows from the first to it (from the last, ``backward``), one row at a time, each query on
    its own, so that no other query's values round it. Queries are grouped by length, within a factor of two
    (1, 2-3, 4-7, ...); each group's queries are the rows of one matrix, padded with ``fill`` (which must change
    no result) to the group's longest, and accumulated along its rows at once: at most about 2n cells, one pass
    per group."""
    n = len(values)
    lengths = np.diff(np.append(starts, n))
    size_class = np.frexp(lengths.astype(np.float64))[1]  # 1 for length 1, 2 for 2-3, 3 for 4-7, ...
    out = np.empty(n, dtype=np.float64)
    for c in np.flatnonzero(np.bincount(size_class)).tolist():  # (np.unique would import numpy.ma, 15-20 ms)
        chosen = size_class == c
        first, count = starts[chosen], lengths[chosen]
        row = np.repeat(np.arange(len(first)), count)
        col = np.arange(len(row)) - np.repeat(np.cumsum(count) - count, count)
        source = first[row] + col
        if backward:
            col = count[row] - 1 - col
        matrix = np.full((len(first), int(count.max())), fill, dtype=np.float64)
        matrix[row, col] = values[source]
        out[source] = step.accumulate(matrix, axis=1)[row, col]
    return out


def pick(query: IntArray, values: FloatArray, nth: IntArray, n_queries: int) -> FloatArray:
    """Per query q: the ``nth[q]``-th (1-based) of its rows' ``values``, 0 where it has fewer rows or nth < 1."""
    counts = np.bincount(query, minlength=n_queries)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    ok = (nth >= 1) & (nth <= counts)
    out = np.zeros(n_queries, dtype=np.float64)
    out[ok] = values[starts[ok] + nth[ok] - 1]
    return out


def per_row_pick(query: IntArray, values: FloatArray, row_query: IntArray, nth: IntArray, n_queries: int) -> FloatArray:
    """For each row asking (its query ``row_query``, 1-based ``nth``): that row of ``values`` (rows sorted by
    ``query``), 0 where nth < 1; ``nth`` must not exceed the query's number of rows."""
    counts = np.bincount(query, minlength=n_queries)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    out = np.zeros(len(row_query), dtype=np.float64)
    ok = nth >= 1
    out[ok] = values[starts[row_query[ok]] + nth[ok] - 1]
    return out


def running_at(
    query: IntArray, position: IntArray, running: FloatArray, ask_query: IntArray, ask_depth: IntArray
) -> FloatArray:
    """For each ask: the ``running`` value of the last row of ``ask_query`` at a position <= ``ask_depth`` (rows
    sorted by query then position), 0 when there is none."""
    if not len(query):
        return np.zeros(len(ask_query), dtype=np.float64)
    span = int(max(int(position.max()), int(ask_depth.max(initial=0)))) + 1
    keys = query * span + position
    at = np.searchsorted(keys, ask_query * span + ask_depth, side="right") - 1
    out = np.zeros(len(ask_query), dtype=np.float64)
    ok = at >= 0
    ok[ok] &= query[at[ok]] == ask_query[ok]
    out[ok] = running[at[ok]]
    return out


def gains_of(grades: IntArray, gains: Gains) -> FloatArray:
    """The gain of each grade: its own value, or the one ``gains`` gives it; negative grades gain 0."""
    out = np.maximum(grades, 0).astype(np.float64)
    for grade, gain in gains:
        out[grades == grade] = gain
    return out


def ideal_gains(ranked: Ranked, gains: Gains) -> tuple[IntArray, FloatArray, IntArray]:
    """The ideal ranking under ``gains``: per query, its judged documents with a positive gain, largest first.

    Returns ``(query, gain, position)`` rows sorted by query then position (1-based).
    """
    level_gain = gains_of(ranked.level_grade, gains)
    keep = level_gain > 0
    query = np.repeat(ranked.level_query[keep], ranked.level_count[keep])
    gain = np.repeat(level_gain[keep], ranked.level_count[keep])
    order = np.lexsort((-gain, query))
    query, gain = query[order], gain[order]
    position = np.arange(len(query), dtype=np.int64) - first_index_of_group(query) + 1
    return query, gain, position


def parse_gains(name: str, pairs: str | Sequence[Sequence[Any]]) -> Gains:
    """Gain pairs as a sorted tuple of ``(int grade, float gain)``, from pairs or a string ``"1=3,2=9"``.

    Raises:
        ConfigurationError: a grade is not an integer >= 0, or a gain not a finite number.
    """
    if isinstance(pairs, str):
        items: list[Sequence[Any]] = [p.split("=", 1) for p in pairs.split(",") if p.strip()]
    else:
        items = list(pairs)
    out: dict[int, float] = {}
    for item in items:
        try:
            grade_text, gain_text = item
            grade, gain = int(grade_text), float(gain_text)
        except (TypeError, ValueError):
            raise ConfigurationError(f"{name}: gains are grade=gain pairs such as '1=3,2=9', got {pairs!r}") from None
        if grade < 0 or not math.isfinite(gain):
            raise ConfigurationError(f"{name}: a gain needs a grade >= 0 and a finite value, got {item!r}")
        out[grade] = gain
    return tuple(sorted(out.items()))
