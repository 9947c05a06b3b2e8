"""trec_eval's order of a run: per query, score descending, ties broken by document ID descending (byte-wise).

Scores are compared as 32-bit floats, as trec_eval 9 stores them, so two scores equal in float32 are a tie.
The fast path is the common file layout (rows grouped by query, scores already descending): then nothing is
sorted, only checked. Ties are resolved on the tied rows only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ._vocab import Vocab, arrow, arrow_call, arrow_numbers, arrow_options, arrow_take, take

__all__ = ["order", "order_parts", "permutation", "positions", "sort_within_groups"]


def _descending(scores: NDArray[np.float32]) -> NDArray[np.uint32]:
    """Unsigned keys ordering float32 scores descending (no NaN; -0.0 already turned into 0.0)."""
    bits = scores.view(np.uint32)
    negative = (bits >> np.uint32(31)).astype(np.bool_)
    return np.where(negative, bits, ~bits & np.uint32(0x7FFFFFFF))


def order(
    group: NDArray[Any], scores: NDArray[np.float32], doc: NDArray[np.int32], vocab: Vocab
) -> NDArray[np.int64] | None:
    """The permutation putting rows in trec_eval order, or None when they already are.

    Order: ``group`` ascending, then score descending, then document ID descending.
    """
    base, moved_at, moved_rows = order_parts(group, scores, doc, vocab)
    if base is None and not len(moved_at):
        return None
    return permutation(len(scores), base, moved_at, moved_rows)


def permutation(
    n: int, base: NDArray[np.int64] | None, moved_at: NDArray[np.int64], moved_rows: NDArray[np.int64]
) -> NDArray[np.int64] | None:
    """The full permutation described by :func:`order_parts`, or None for the identity."""
    if base is None and not len(moved_at):
        return None
    perm = np.arange(n, dtype=np.int64) if base is None else base.copy()
    perm[moved_at] = perm[moved_rows]
    return perm


def order_parts(
    group: NDArray[Any],
    scores: NDArray[np.float32],
    doc: NDArray[np.int32],
    vocab: Vocab,
    *,
    grouped: bool = False,
) -> tuple[NDArray[np.int64] | None, NDArray[np.int64], NDArray[np.int64]]:
    """trec_eval order as ``(base, moved_at, moved_rows)``: sort by ``base`` (None: rows are in order but for
    ties), then put at positions ``moved_at`` the positions ``moved_rows`` of that sequence (tie breaks).

    Order: ``group`` ascending, then score descending, then document ID descending. With ``grouped``, each run
    of equal adjacent ``group`` values is one group and groups stay where they are (rows of each query are
    contiguous). Rows are sorted only when out of order, on one 64-bit key (group, score); a run written by a
    retrieval system (scores descending per query) needs no sort at all.
    """
    empty = np.zeros(0, dtype=np.int64)
    base: NDArray[np.int64] | None = None
    same_group = group[1:] == group[:-1]
    in_order = grouped or bool((group[1:] >= group[:-1]).all())
    if in_order and not bool((same_group & (scores[1:] > scores[:-1])).any()):
        tie = same_group
        tie &= scores[1:] == scores[:-1]
    else:
        if grouped:
            ids = np.zeros(len(group), dtype=np.uint64)
            ids[1:] = ~same_group
            key = np.cumsum(ids, out=ids)
        else:
            key = group.astype(np.uint64)
        del same_group
        key <<= np.uint64(32)
        key |= _descending(scores)
        base = np.argsort(key).astype(np.int64, copy=False)
        key = key[base]
        tie = key[1:] == key[:-1]
        del key
    if not tie.any():
        return base, empty, empty
    # Rows in a tie group, as positions in the ordered sequence; groups are contiguous.
    in_group = np.zeros(len(scores), dtype=np.bool_)
    in_group[1:] |= tie
    in_group[:-1] |= tie
    at = np.flatnonzero(in_group)
    tie_group = np.cumsum(np.concatenate(([True], ~tie[at[1:] - 1] | (at[1:] - at[:-1] != 1))))
    rows = at if base is None else base[at]
    name_rank = _name_rank(vocab, doc[rows])
    return base, at.astype(np.int64), at[np.lexsort((-name_rank, tie_group))].astype(np.int64)


def _name_rank(vocab: Vocab, codes: NDArray[Any]) -> NDArray[np.int64]:
    """For each code, the rank of its ID among the distinct IDs of ``codes``, byte-wise (equal IDs: equal rank)."""
    pa = arrow()
    if pa is not None and not isinstance(vocab, list):
        names = arrow_take(vocab, codes)
        if hasattr(names, "combine_chunks"):  # pragma: no cover - arrow_take returns arrays
            names = names.combine_chunks()
        ranks = arrow_call("rank", names, options=arrow_options("RankOptions", "ascending", tiebreaker="dense"))
        return arrow_numbers(ranks, np.uint64).astype(np.int64)
    names = take(vocab, codes)
    ranked_names = {name: r for r, name in enumerate(sorted(set(names)))}
    return np.fromiter((ranked_names[n] for n in names), dtype=np.int64, count=len(names))


def positions(
    rows: NDArray[np.int64],
    base: NDArray[np.int64] | None,
    moved_at: NDArray[np.int64],
    moved_rows: NDArray[np.int64],
) -> NDArray[np.int64]:
    """Where each of ``rows`` ends up (0-based) in the order described by :func:`order_parts`."""
    at = rows.astype(np.int64)
    if base is not None:
        inverse = np.empty(len(base), dtype=np.int64)
        inverse[base] = np.arange(len(base), dtype=np.int64)
        at = inverse[at]
        del inverse
    if len(moved_at):
        # ``moved_rows`` holds the positions (in the base order) that the tie breaks put at ``moved_at``.
        by_row = np.argsort(moved_rows)
        where = np.minimum(np.searchsorted(moved_rows[by_row], at), len(moved_rows) - 1)
        moved = moved_rows[by_row][where] == at
        at[moved] = moved_at[by_row][where[moved]]
    return at


def sort_within_groups(values: NDArray[Any], heads: NDArray[np.int64], lengths: NDArray[np.int64]) -> NDArray[Any]:
    """``values`` (rows grouped, groups starting at ``heads``) sorted within each group, groups in place.

    Sorts the rows of a (group x position) matrix when that wastes little room, else one lexsort. The input
    may be sorted in place.
    """
    n = len(values)
    depth = int(lengths.max()) if len(lengths) else 0
    if len(heads) * depth == n:  # every group equally long
        values.reshape(len(heads), depth).sort(axis=1)
        return values
    group = np.repeat(np.arange(len(heads), dtype=np.int64), lengths)
    if len(heads) * depth <= 2 * n + 1024:
        # Padded with the type's largest value, which sorts last: the first ``lengths[g]`` of a row are its values.
        matrix = np.full((len(heads), depth), np.iinfo(values.dtype).max, dtype=values.dtype)
        matrix[group, np.arange(n, dtype=np.int64) - heads[group]] = values
        matrix.sort(axis=1)
        return matrix[np.arange(depth)[None, :] < lengths[:, None]]
    return values[np.lexsort((values, group))]
