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
from ._vocab import Vocab, index_in, take, to_list, vocab_len

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
    rows = None if bool((r_query >= 0).all()) else np.flatnonzero(r_query >= 0)
    query = r_query if rows is None else r_query[rows]
    doc = run.doc_codes if rows is None else run.doc_codes[rows]
    scores = run.scores if rows is None else run.scores[rows]
    scores32 = scores.astype(np.float32) + np.float32(0.0)  # + 0 turns -0.0 into 0.0: they compare equal
    if np.isnan(scores32).any():
        bad = int(np.flatnonzero(np.isnan(scores32))[0])
        raise InputError(
            _where(run.source) + f"run score is NaN for query {evaluated[int(query[bad])]!r}, "
            f"document {take(run.doc_vocab, doc[bad : bad + 1])[0]!r}"
        )
    counts = np.bincount(query, minlength=n_queries).astype(np.int64)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
    permutation = _order(query, scores32, doc, run.doc_vocab)
    if not run.unique_pairs:
        _check_duplicates(query, doc, permutation, counts, starts, run, evaluated)

    # Join: grade of each run row whose document appears somewhere in the judgments.
    dmap = index_in(run.doc_vocab, qrels.doc_vocab).astype(np.int32)
    r_doc = dmap[doc] if len(doc) else np.zeros(0, dtype=np.int32)
    candidates = np.flatnonzero(r_doc >= 0)
    c_key = query[candidates].astype(np.int64) * n_docs + r_doc[candidates]
    at = np.searchsorted(j_key, c_key)
    at_clipped = np.minimum(at, max(len(j_key) - 1, 0))
    matched = (at < len(j_key)) & (j_key[at_clipped] == c_key) if len(j_key) else np.zeros(len(c_key), bool)
    grades = np.where(matched, j_grade[at_clipped] if len(j_key) else 0, 0)
    hits = candidates[grades > 0]
    hit_grade = grades[grades > 0].astype(np.int64)
    hit_query = query[hits].astype(np.int64)
    if permutation is None:
        rank_in_run = hits.astype(np.int64)
    else:
        inverse = np.empty(len(permutation), dtype=np.int64)
        inverse[permutation] = np.arange(len(permutation), dtype=np.int64)
        rank_in_run = inverse[hits]
    hit_pos = rank_in_run - starts[hit_query] + 1
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


def _order(
    query: NDArray[Any], scores: NDArray[np.float32], doc: NDArray[np.int32], vocab: Vocab
) -> NDArray[np.int64] | None:
    """The permutation putting rows in trec_eval order, or None when they already are."""
    permutation: NDArray[np.int64] | None = None
    same_query = query[1:] == query[:-1]
    grouped = bool((query[1:] >= query[:-1]).all())
    if not grouped or bool((same_query & (scores[1:] > scores[:-1])).any()):
        permutation = np.lexsort((-scores, query)).astype(np.int64)
        q_sorted, s_sorted = query[permutation], scores[permutation]
        same_query = q_sorted[1:] == q_sorted[:-1]
    else:
        s_sorted = scores
    tie = same_query & (s_sorted[1:] == s_sorted[:-1])
    if not tie.any():
        return permutation
    # Rows in a tie group, as positions in the ordered sequence; groups are contiguous.
    in_group = np.zeros(len(scores), dtype=np.bool_)
    in_group[1:] |= tie
    in_group[:-1] |= tie
    at = np.flatnonzero(in_group)
    group = np.cumsum(np.concatenate(([True], ~tie[at[1:] - 1] | (at[1:] - at[:-1] != 1))))
    if permutation is None:
        permutation = np.arange(len(scores), dtype=np.int64)
    rows = permutation[at]
    names = take(vocab, doc[rows])
    ranked_names = {name: r for r, name in enumerate(sorted(set(names)))}
    name_rank = np.fromiter((ranked_names[n] for n in names), dtype=np.int64, count=len(names))
    permutation[at] = rows[np.lexsort((-name_rank, group))]
    return permutation


def _check_duplicates(
    query: NDArray[Any],
    doc: NDArray[np.int32],
    permutation: NDArray[np.int64] | None,
    counts: NDArray[np.int64],
    starts: NDArray[np.int64],
    run: Run,
    evaluated: list[str],
) -> None:
    """Raise InputError naming the first (query, document) that a run lists twice."""
    if len(doc) == 0:
        return
    q = query if permutation is None else query[permutation]
    d = doc if permutation is None else doc[permutation]
    longest = int(counts.max())
    if len(counts) * longest <= 2 * len(d) + 1024:
        # Rows are grouped by query here: a (query x position) matrix sorted along rows finds repeats cheaply.
        matrix = np.full((len(counts), longest), -1, dtype=np.int32)
        column = np.arange(len(d), dtype=np.int64) - starts[q]
        matrix[q, column] = d
        matrix.sort(axis=1)
        repeat = (matrix[:, 1:] == matrix[:, :-1]) & (matrix[:, 1:] >= 0)
        if not repeat.any():
            return
        qi, col = np.argwhere(repeat)[0]
        bad_query, bad_doc = int(qi), int(matrix[qi, col])
    else:
        key = np.sort(q.astype(np.int64) * (int(d.max()) + 1) + d)
        same = np.flatnonzero(key[1:] == key[:-1])
        if not len(same):
            return
        bad_query, bad_doc = divmod(int(key[same[0]]), int(d.max()) + 1)
    name = take(run.doc_vocab, np.array([bad_doc]))[0]
    raise InputError(
        _where(run.source) + f"run lists document {name!r} twice for query {evaluated[bad_query]!r} "
        "(trec_eval refuses such runs too; keep one line per document)"
    )
