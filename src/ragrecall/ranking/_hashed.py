"""Repeats and judged documents in a run that keeps one document ID per row, found through hashes.

A run read with pyarrow holds its document IDs as one string per row: giving each a code would hash every
ID into a table, which costs more than the whole evaluation. Instead each row gets a 64-bit key, the hash of
its ID with the low bits replaced by the row's position within its query, and the keys are sorted query by
query. Equal high bits then mark a possible repeat, and each judged document is found by a binary search in
its query's keys. Every equality of hashes is confirmed on the IDs themselves, so a hash collision can cost
time, never a wrong answer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import InputError
from . import _vocab
from ._judged import Judged
from ._order import sort_within_groups
from ._table import where
from ._vocab import arrow_call, arrow_numbers, arrow_take

__all__ = ["hashed_hits", "same_ids"]

IntArray = NDArray[np.int64]
Keys = NDArray[np.uint64]


def hashed_hits(
    judged: Judged,
    names: Any,
    heads: IntArray,
    group_query: IntArray,
    *,
    check_repeats: bool,
    source: str | None,
) -> tuple[IntArray, IntArray]:
    """Rows whose document is judged (with any grade) for the row's query, and that grade.

    ``names`` holds one document ID per row (a pyarrow array); rows of a query are contiguous, starting at
    ``heads``, the query of each group being ``group_query`` (judged query indices, distinct).

    Raises:
        InputError: with ``check_repeats``, a document listed twice for one query.
    """
    n = len(names)
    empty = np.zeros(0, dtype=np.int64)
    if n == 0:
        return empty, empty
    lengths = np.diff(np.append(heads, n))
    keys, bits = _sorted_keys(names, heads, lengths)
    low = np.uint64((1 << bits) - 1)
    if check_repeats:
        _check_repeats(keys, bits, heads, names, judged, group_query, source)
    items, owner = judged.judgment_rows(group_query)
    if not len(items):
        return empty, empty
    target = judged.row_doc_keys[items] & ~low
    start = heads[owner]
    end = start + lengths[owner]
    at = _leftmost(keys & ~low, target, start.copy(), end.copy())
    found_rows, found_items = [empty], [empty]
    pending = np.arange(len(items), dtype=np.int64)
    while len(pending):  # more than one round only when two IDs of one query share their high hash bits
        ok = at[pending] < end[pending]
        pending = pending[ok]
        here = at[pending]
        ok = (keys[here] & ~low) == target[pending]
        pending, here = pending[ok], here[ok]
        found_rows.append(start[pending] + (keys[here] & low).astype(np.int64))
        found_items.append(pending)
        at[pending] += 1
    rows, which = np.concatenate(found_rows), np.concatenate(found_items)
    same = same_ids(arrow_take(names, rows), arrow_take(judged.arrow_doc_vocab, judged.row_doc[items[which]]))
    return rows[same], judged.row_grade[items[which[same]]]


def _sorted_keys(names: Any, heads: IntArray, lengths: IntArray) -> tuple[Keys, int]:
    """Per row, its ID's hash with the low bits set to its position in its query; sorted within each query."""
    n = len(names)
    bits = max((int(lengths.max()) - 1).bit_length(), 1)
    keys = _vocab.string_keys(names)
    keys &= ~np.uint64((1 << bits) - 1)
    within = np.arange(n, dtype=np.uint64)
    within -= np.repeat(heads.astype(np.uint64), lengths)
    keys |= within
    return sort_within_groups(keys, heads, lengths), bits


def _leftmost(values: Keys, target: Keys, lo: IntArray, hi: IntArray) -> IntArray:
    """Per target, the first index in ``[lo, hi)`` where ``values`` (sorted on that range) is >= it."""
    last = len(values) - 1
    while True:
        active = lo < hi
        if not active.any():
            return lo
        mid = np.minimum((lo + hi) >> 1, last)
        below = values[mid] < target
        lo = np.where(active & below, mid + 1, lo)
        hi = np.where(active & ~below, mid, hi)


def _check_repeats(
    keys: Keys,
    bits: int,
    heads: IntArray,
    names: Any,
    judged: Judged,
    group_query: IntArray,
    source: str | None,
) -> None:
    high = keys >> np.uint64(bits)
    same = high[1:] == high[:-1]
    del high
    same[heads[1:] - 1] = False  # neighbours across two queries
    if not same.any():
        return
    # Every key in a stretch of equal high bits is a suspect: two copies of one ID may sit apart in it.
    suspect = np.zeros(len(keys), dtype=np.bool_)
    suspect[:-1] |= same
    suspect[1:] |= same
    at = np.flatnonzero(suspect)
    group = np.searchsorted(heads, at, side="right") - 1
    rows = heads[group] + (keys[at] & np.uint64((1 << bits) - 1)).astype(np.int64)
    seen: set[tuple[int, str]] = set()
    for g, name in zip(group.tolist(), arrow_take(names, rows).to_pylist(), strict=True):
        if (g, name) in seen:
            raise InputError(
                where(source) + f"run lists document {name!r} twice for query "
                f"{judged.query_ids[int(group_query[g])]!r} (trec_eval refuses such runs too; keep one line "
                "per document)"
            )
        seen.add((g, name))


def same_ids(left: Any, right: Any) -> NDArray[np.bool_]:
    """Row by row, whether two pyarrow string arrays of one length hold equal IDs."""
    same = np.ones(len(left), dtype=np.bool_)
    if len(left):
        differ = arrow_numbers(arrow_call("indices_nonzero", arrow_call("not_equal", left, right)), np.uint64)
        same[differ.astype(np.int64)] = False
    return same
