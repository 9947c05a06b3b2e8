"""Order a run as trec_eval does and join it with the judgments, giving the compact :class:`Ranked`.

Ordering: per query, score descending, ties broken by document ID descending (byte-wise). Scores are
compared as 32-bit floats, as trec_eval 9 stores them, so two scores equal in float32 are a tie. The fast
path is the common file layout (rows grouped by query, scores already descending): then nothing is sorted,
only checked. Ties are resolved on the tied rows only.

A document listed twice for one query is an error, as in trec_eval (``duplicate docs``), for runs and
judgments alike; runs built from dicts cannot repeat one and skip the check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from ..errors import InputError
from ._ranked import Ranked, first_index_of_group
from ._table import Qrels, Run
from ._vocab import (
    Vocab,
    arrow,
    arrow_call,
    arrow_numbers,
    arrow_options,
    arrow_strings,
    arrow_take,
    encode,
    index_in,
    salted,
    string_keys,
    take,
    to_list,
    vocab_len,
)

__all__ = ["Missing", "build_ranked"]

Missing = Literal["skip", "zero"]


def build_ranked(
    qrels: Qrels,
    run: Run,
    *,
    missing: Missing = "skip",
    expected_positions: Mapping[str, Mapping[str, int]] | None = None,
) -> Ranked:
    """Join and order ``run`` against ``qrels``.

    The evaluated queries are those both judged and run (``missing="skip"``), or every judged query
    (``missing="zero"``: a judged query absent from the run has an empty ranking and scores 0). Queries that
    are run but not judged are never evaluated. Output order: query IDs sorted.

    Raises:
        InputError: a document repeats within a query, or a score is NaN.
    """
    judged_ids = to_list(qrels.query_vocab)
    run_ids = to_list(run.query_vocab)
    evaluated = sorted(set(judged_ids).intersection(run_ids)) if missing == "skip" else sorted(set(judged_ids))
    index = {q: i for i, q in enumerate(evaluated)}
    n_queries = len(evaluated)

    # Judgments: keep evaluated queries, refuse duplicates, sort by (query, doc) for the join.
    qmap = np.array([index.get(q, -1) for q in judged_ids], dtype=np.int64)
    j_query = qmap[qrels.query_codes] if len(qrels) else np.zeros(0, dtype=np.int64)
    keep = j_query >= 0
    j_query, j_doc, j_grade = j_query[keep], qrels.doc_codes[keep].astype(np.int64), qrels.grades[keep]
    n_docs = max(vocab_len(qrels.doc_vocab), 1)
    j_key = j_query * n_docs + j_doc
    order = np.argsort(j_key, kind="stable")
    j_key, j_query, j_doc, j_grade = j_key[order], j_query[order], j_doc[order], j_grade[order]
    dup = np.flatnonzero(j_key[1:] == j_key[:-1])
    if len(dup):
        i = int(dup[0]) + 1
        raise InputError(
            _where(qrels.source)
            + f"judgments list document {take(qrels.doc_vocab, j_doc[i : i + 1])[0]!r} twice for query "
            f"{evaluated[int(j_query[i])]!r}"
        )

    positive = j_grade > 0
    pq, pg = j_query[positive], j_grade[positive]
    ideal = np.lexsort((-pg, pq))
    pq, pg = pq[ideal], pg[ideal]
    ppos = np.arange(len(pq), dtype=np.int64) - first_index_of_group(pq) + 1

    # Run rows of evaluated queries, in trec_eval order.
    rmap = np.array([index.get(q, -1) for q in run_ids], dtype=np.int32)
    r_query = rmap[run.query_codes] if len(run) else np.zeros(0, dtype=np.int32)
    rows = None if bool((rmap >= 0).all()) else np.flatnonzero(r_query >= 0)
    query = r_query if rows is None else r_query[rows]
    del r_query
    doc = run.doc_codes if rows is None else run.doc_codes[rows]
    scores32 = (run.scores if rows is None else run.scores[rows]).astype(np.float32)
    scores32 += np.float32(0.0)  # turns -0.0 into 0.0: they compare equal
    if np.isnan(scores32).any():
        bad = int(np.flatnonzero(np.isnan(scores32))[0])
        raise InputError(
            _where(run.source) + f"run score is NaN for query {evaluated[int(query[bad])]!r}, "
            f"document {take(run.doc_vocab, doc[bad : bad + 1])[0]!r}"
        )
    counts = np.bincount(query, minlength=n_queries).astype(np.int64)
    # When each query's rows are already contiguous (in any query order), rows are ordered within these
    # segments, and only where they are out of order: no global sort.
    heads = np.flatnonzero(query[1:] != query[:-1]) + 1
    heads = np.concatenate(([0], heads)).astype(np.int64) if len(query) else np.zeros(0, dtype=np.int64)
    contiguous = len(heads) == int(np.count_nonzero(counts))
    group_start = heads if contiguous else np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    base, moved_at, moved_rows = _order_parts(query, scores32, doc, run.doc_vocab, grouped=contiguous)
    del scores32
    if run.distinct_doc_codes:
        if not run.unique_pairs:
            group = np.repeat(np.arange(len(heads)), np.diff(np.append(heads, len(query)))) if contiguous else query
            permutation = _permutation(len(query), base, moved_at, moved_rows)
            _check_duplicates(group, doc, permutation, group_start, run, evaluated, query)
        hits, hit_grade = _join(query, doc, run, qrels, j_key, j_grade, n_docs)
    else:
        # One document ID per row: compare hashes of (query, ID), confirming every equality on the IDs.
        pair = string_keys(run.doc_vocab if rows is None else arrow_take(run.doc_vocab, doc), salt=query)
        hits, hit_grade = _join_hashed(pair, query, doc, run, qrels, j_query, j_doc, j_grade)
        if not run.unique_pairs:
            _check_duplicates_hashed(pair, query, doc, run, evaluated, group_start, contiguous)
        del pair
    hit_query = query[hits].astype(np.int64)
    # Position of each hit in the ordered run: its row, moved by the sort and the tie breaks.
    rank_in_run = hits.astype(np.int64)
    if base is not None:
        inverse = np.empty(len(base), dtype=np.int64)
        inverse[base] = np.arange(len(base), dtype=np.int64)
        rank_in_run = inverse[hits]
        del inverse
    if len(moved_at):
        # ``moved_rows`` holds the rows (in the base order) that the tie breaks put at ``moved_at``.
        by_row = np.argsort(moved_rows)
        where = np.searchsorted(moved_rows[by_row], rank_in_run)
        where = np.minimum(where, len(moved_rows) - 1)
        moved = moved_rows[by_row][where] == rank_in_run
        rank_in_run[moved] = moved_at[by_row][where[moved]]
    segment_start = heads[np.searchsorted(heads, hits, side="right") - 1] if contiguous else group_start[hit_query]
    hit_pos = rank_in_run - segment_start + 1
    by_rank = np.lexsort((hit_pos, hit_query))
    hits, hit_query, hit_pos, hit_grade = hits[by_rank], hit_query[by_rank], hit_pos[by_rank], hit_grade[by_rank]

    hit_expected = np.zeros(len(hits), dtype=np.int64)
    if expected_positions:
        hit_docs = take(run.doc_vocab, doc[hits])
        for i, (q, d) in enumerate(zip(hit_query.tolist(), hit_docs, strict=True)):
            m = expected_positions.get(evaluated[q], {}).get(d)
            if m is not None:
                if isinstance(m, bool) or not isinstance(m, int) or m < 1:
                    raise InputError(f"expected_positions[{evaluated[q]!r}][{d!r}] must be an integer >= 1, got {m!r}")
                hit_expected[i] = m

    return Ranked(
        query_ids=tuple(evaluated),
        n_ret=counts,
        hit_query=hit_query,
        hit_pos=hit_pos,
        hit_grade=hit_grade,
        hit_expected=hit_expected,
        judged_query=pq.astype(np.int64),
        judged_grade=pg.astype(np.int64),
        judged_pos=ppos,
    )


def _where(source: str | None) -> str:
    return f"{source}: " if source else ""


def _join(
    query: NDArray[Any],
    doc: NDArray[np.int32],
    run: Run,
    qrels: Qrels,
    j_key: NDArray[np.int64],
    j_grade: NDArray[np.int64],
    n_docs: int,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Rows of the run whose (query, document) is judged with a positive grade, and that grade."""
    dmap = index_in(run.doc_vocab, qrels.doc_vocab)
    r_doc = dmap[doc] if len(doc) else np.zeros(0, dtype=np.int32)
    candidates = np.flatnonzero(r_doc >= 0)
    c_key = query[candidates].astype(np.int64) * n_docs + r_doc[candidates]
    at = np.searchsorted(j_key, c_key)
    at_clipped = np.minimum(at, max(len(j_key) - 1, 0))
    matched = (at < len(j_key)) & (j_key[at_clipped] == c_key) if len(j_key) else np.zeros(len(c_key), bool)
    grades = np.where(matched, j_grade[at_clipped] if len(j_key) else 0, 0)
    return candidates[grades > 0].astype(np.int64), grades[grades > 0].astype(np.int64)


def _same_ids(run: Run, run_rows: NDArray[Any], other: Vocab, other_codes: NDArray[Any]) -> NDArray[np.bool_]:
    """Whether the document of each run row equals the ID ``other[other_codes]``, row by row."""
    if arrow() is not None and not isinstance(run.doc_vocab, list) and len(run_rows):
        right_ids = arrow_strings(other) if isinstance(other, list) else other
        equal = arrow_call("equal", arrow_take(run.doc_vocab, run_rows), arrow_take(right_ids, other_codes))
        differ = arrow_numbers(arrow_call("indices_nonzero", arrow_call("invert", equal)), np.uint64)
        same = np.ones(len(run_rows), dtype=np.bool_)
        same[differ.astype(np.int64)] = False
        return same
    left = take(run.doc_vocab, run_rows)
    right = take(other, other_codes)
    return np.fromiter((a == b for a, b in zip(left, right, strict=True)), dtype=np.bool_, count=len(left))


def _join_hashed(
    pair: NDArray[np.uint64],
    query: NDArray[Any],
    doc: NDArray[np.int32],
    run: Run,
    qrels: Qrels,
    j_query: NDArray[np.int64],
    j_doc: NDArray[np.int64],
    j_grade: NDArray[np.int64],
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """:func:`_join` for a run holding one document ID per row, through a hash table of the judgments."""
    qrels_ids = qrels.doc_vocab
    if isinstance(qrels_ids, list):
        qrels_ids = arrow_strings(qrels_ids)
    j_pair = salted(string_keys(qrels_ids)[j_doc], j_query)
    j_sorted = np.sort(j_pair)
    if bool((j_sorted[1:] == j_sorted[:-1]).any()):  # two judgments share a hash: join on the IDs instead
        codes, vocab = encode(take(run.doc_vocab, doc))
        exact = Run(np.zeros(len(doc), dtype=np.int32), [], codes, vocab, np.zeros(len(doc)), unique_pairs=True)
        n_docs = max(vocab_len(qrels.doc_vocab), 1)
        order = np.argsort(j_query * n_docs + j_doc)
        return _join(query, codes, exact, qrels, (j_query * n_docs + j_doc)[order], j_grade[order], n_docs)
    rows, judged = _hash_lookup(j_pair, pair)
    ok = query[rows] == j_query[judged]
    rows, judged = rows[ok], judged[ok]
    ok = _same_ids(run, doc[rows], qrels.doc_vocab, j_doc[judged])
    rows, judged = rows[ok], judged[ok]
    grades = j_grade[judged]
    return rows[grades > 0].astype(np.int64), grades[grades > 0].astype(np.int64)


def _hash_lookup(keys: NDArray[np.uint64], probes: NDArray[np.uint64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The probes equal to one of ``keys`` (distinct): their indices, and the indices of the keys they equal.

    A table of one byte per bucket of high hash bits, about 16 buckets per key, rules out most probes in one
    gather; the few left are searched for in the sorted keys. Probes go in slices, so temporaries stay small.
    """
    none = np.zeros(0, dtype=np.int64)
    if len(keys) == 0 or len(probes) == 0:
        return none, none
    bits = min(max(10, (16 * len(keys)).bit_length()), 28)
    shift = np.uint64(64 - bits)
    table = np.zeros(1 << bits, dtype=np.bool_)
    table[keys >> shift] = True
    order = np.argsort(keys)
    ordered = keys[order]
    found_rows, found_keys = [none], [none]
    step = 1 << 16
    for begin in range(0, len(probes), step):
        chunk = probes[begin : begin + step]
        maybe = np.flatnonzero(table[chunk >> shift])
        at = np.minimum(np.searchsorted(ordered, chunk[maybe]), len(ordered) - 1)
        found = ordered[at] == chunk[maybe]
        found_rows.append(begin + maybe[found])
        found_keys.append(order[at[found]])
    return np.concatenate(found_rows).astype(np.int64), np.concatenate(found_keys).astype(np.int64)


def _check_duplicates_hashed(
    pair: NDArray[np.uint64],
    query: NDArray[Any],
    doc: NDArray[np.int32],
    run: Run,
    evaluated: list[str],
    group_start: NDArray[np.int64],
    contiguous: bool,
) -> None:
    """:func:`_check_duplicates` for a run holding one document ID per row: equal (query, ID) hashes, confirmed.

    When every query's rows are contiguous and equally many (a run cut at a fixed depth), the hashes are sorted
    query by query as the rows of a matrix, which is much cheaper than one sort of them all.
    """
    if len(pair) < 2:
        return
    depth = len(pair) // max(len(group_start), 1)
    if contiguous and depth * len(group_start) == len(pair) and bool((np.diff(group_start) == depth).all()):
        ordered = pair.reshape(len(group_start), depth)
        ordered.sort(axis=1)  # in place: the hashes are not needed afterwards
        same = ordered[:, 1:] == ordered[:, :-1]
        suspects = ordered[:, 1:][same] if same.any() else None
    else:
        pair.sort()
        same = pair[1:] == pair[:-1]
        suspects = pair[1:][same] if same.any() else None
    del same
    if suspects is None:
        return
    pair = string_keys(arrow_take(run.doc_vocab, doc) if len(doc) != len(run) else run.doc_vocab, salt=query)
    for key in dict.fromkeys(suspects.tolist()):
        at = np.flatnonzero(pair == key)
        seen: dict[tuple[int, str], int] = {}
        for row, name in zip(at.tolist(), take(run.doc_vocab, doc[at]), strict=True):
            if seen.setdefault((int(query[row]), name), row) != row:
                raise InputError(
                    _where(run.source) + f"run lists document {name!r} twice for query "
                    f"{evaluated[int(query[row])]!r} (trec_eval refuses such runs too; keep one line per document)"
                )


def _descending(scores: NDArray[np.float32]) -> NDArray[np.uint32]:
    """Unsigned keys ordering float32 scores descending (no NaN; -0.0 already turned into 0.0)."""
    bits = scores.view(np.uint32)
    negative = (bits >> np.uint32(31)).astype(np.bool_)
    return np.where(negative, bits, ~bits & np.uint32(0x7FFFFFFF))


def _order(
    group: NDArray[Any], scores: NDArray[np.float32], doc: NDArray[np.int32], vocab: Vocab
) -> NDArray[np.int64] | None:
    """The permutation putting rows in trec_eval order, or None when they already are.

    Order: ``group`` ascending, then score descending, then document ID descending.
    """
    base, moved_at, moved_rows = _order_parts(group, scores, doc, vocab)
    if base is None and not len(moved_at):
        return None
    return _permutation(len(scores), base, moved_at, moved_rows)


def _permutation(
    n: int, base: NDArray[np.int64] | None, moved_at: NDArray[np.int64], moved_rows: NDArray[np.int64]
) -> NDArray[np.int64] | None:
    """The full permutation described by :func:`_order_parts`, or None for the identity."""
    if base is None and not len(moved_at):
        return None
    permutation = np.arange(n, dtype=np.int64) if base is None else base.copy()
    permutation[moved_at] = permutation[moved_rows]
    return permutation


def _order_parts(
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


def _check_duplicates(
    group: NDArray[Any],
    doc: NDArray[np.int32],
    permutation: NDArray[np.int64] | None,
    group_start: NDArray[np.int64],
    run: Run,
    evaluated: list[str],
    query: NDArray[Any],
) -> None:
    """Raise InputError naming the first (query, document) that a run lists twice (distinct document codes)."""
    if len(doc) == 0:
        return
    order = np.arange(len(doc), dtype=np.int64) if permutation is None else permutation
    g = group[order]
    d = doc[order]
    lengths = np.diff(np.append(group_start, len(doc)))
    longest = int(lengths.max())
    if len(lengths) * longest <= 2 * len(doc) + 1024:
        # Groups are contiguous here: a (group x position) matrix sorted along rows finds repeats cheaply.
        matrix = np.full((len(lengths), longest), -1, dtype=np.int32)
        matrix[g, np.arange(len(doc), dtype=np.int64) - group_start[g]] = d
        matrix.sort(axis=1)
        repeat = (matrix[:, 1:] == matrix[:, :-1]) & (matrix[:, 1:] >= 0)
        if not repeat.any():
            return
        gi, col = np.argwhere(repeat)[0]
        bad_group, bad_doc = int(gi), int(matrix[gi, col])
    else:
        by = np.lexsort((d, g))
        same = np.flatnonzero((g[by][1:] == g[by][:-1]) & (d[by][1:] == d[by][:-1]))
        if not len(same):
            return
        bad_group, bad_doc = int(g[by][same[0]]), int(d[by][same[0]])
    bad_query = int(query[order[np.flatnonzero(g == bad_group)[0]]])
    name = take(run.doc_vocab, np.array([bad_doc]))[0]
    raise InputError(
        _where(run.source) + f"run lists document {name!r} twice for query {evaluated[bad_query]!r} "
        "(trec_eval refuses such runs too; keep one line per document)"
    )
