"""Join runs with judgments in trec_eval order, giving the compact :class:`Ranked`.

A run is ranked in parts (:func:`rank_part`), each holding whole queries, against judgments prepared once
(:func:`~._judged.prepare_judged`); :func:`finish` puts the parts together. :func:`build_ranked` does all three
for one run. Per query, rows are ordered as :mod:`._order` says. A document listed twice for one query is an
error, as in trec_eval (``duplicate docs``), for runs and judgments alike; runs built from dicts cannot repeat
one and skip the check.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from ..errors import InputError
from ._hashed import hashed_hits
from ._judged import Judged, prepare_judged
from ._order import order_parts, positions, sort_within_groups
from ._ranked import Ranked, run_starts
from ._table import Qrels, Run, where
from ._vocab import arrow_take, index_in, take, to_list

__all__ = ["Missing", "RunPart", "build_ranked", "finish", "rank_part", "rank_slices"]

Missing = Literal["skip", "zero"]
IntArray = NDArray[np.int64]

_SLICE_ROWS = 1 << 20
"""Rows per part when a large run held in memory is ranked in parts (temporaries stay this size)."""


@dataclass(frozen=True, eq=False)
class RunPart:
    """What a part of a run contributes: its queries, their depths, and its judged documents ("hits", with
    judged query indices)."""

    query_ids: list[str]
    """Every query of the part, judged or not."""
    depth_query: IntArray
    depth: IntArray
    """Per judged query of the part (``depth_query``), how many documents the run retrieved for it."""
    hit_query: IntArray
    hit_pos: IntArray
    """Per hit, its 1-based position in its query's ordered ranking."""
    hit_grade: IntArray
    hit_docs: list[str] | None
    """Per hit, its document ID, when asked for."""


def build_ranked(
    qrels: Qrels,
    run: Run,
    *,
    missing: Missing = "skip",
    expected_positions: Mapping[str, Mapping[str, int]] | None = None,
) -> Ranked:
    """Join and order ``run`` against ``qrels`` (see :func:`finish` for which queries are evaluated).

    Raises:
        InputError: a document repeats within a query, or a score is NaN.
    """
    judged = prepare_judged(qrels)
    part = rank_part(judged, run, hit_docs=bool(expected_positions))
    return finish(judged, [part], missing=missing, expected_positions=expected_positions)


def rank_part(judged: Judged, run: Run, *, hit_docs: bool = False) -> RunPart:
    """Order the rows of ``run`` query by query and find its judged, positively graded documents.

    Raises:
        InputError: a document repeats within a query, or a score is NaN.
    """
    run_ids = to_list(run.query_vocab)
    rmap = np.array([judged.index.get(q, -1) for q in run_ids], dtype=np.int64)
    query = rmap[run.query_codes] if len(run) else np.zeros(0, dtype=np.int64)
    doc, scores = run.doc_codes, run.scores
    every_row = bool((rmap >= 0).all())
    if not every_row:  # rows of unjudged queries are never evaluated
        rows = np.flatnonzero(query >= 0)
        query, doc, scores = query[rows], doc[rows], scores[rows]
    heads = run_starts(query)
    if not _together(query, heads):  # make each query's rows contiguous
        by_query = np.argsort(query, kind="stable")
        query, doc, scores = query[by_query], doc[by_query], scores[by_query]
        heads, every_row = run_starts(query), False
    n = len(query)
    group_query = query[heads]
    with np.errstate(over="ignore"):  # a score past float32's range becomes ±inf, as in trec_eval: no warning
        scores32 = scores.astype(np.float32)
    scores32 += np.float32(0.0)  # turns -0.0 into 0.0: they compare equal
    if np.isnan(scores32).any():
        bad = int(np.flatnonzero(np.isnan(scores32))[0])
        raise InputError(
            where(run.source) + f"run score is NaN for query {judged.query_ids[int(query[bad])]!r}, "
            f"document {take(run.doc_vocab, doc[bad : bad + 1])[0]!r}"
        )
    base, moved_at, moved_rows = order_parts(query, scores32, doc, run.doc_vocab, grouped=True)
    del scores32, scores
    if run.distinct_doc_codes:
        if not run.unique_pairs:
            _check_duplicates(doc, heads, group_query, run, judged)
        hits, grades = _join(query, doc, run, judged)
    else:
        names = run.doc_vocab if every_row else arrow_take(run.doc_vocab, doc)
        hits, grades = hashed_hits(
            judged, names, heads, group_query, check_repeats=not run.unique_pairs, source=run.source
        )
    group = np.searchsorted(heads, hits, side="right") - 1
    hit_pos = positions(hits, base, moved_at, moved_rows) - heads[group] + 1
    return RunPart(
        query_ids=run_ids,
        depth_query=group_query,
        depth=np.diff(np.append(heads, n)),
        hit_query=group_query[group],
        hit_pos=hit_pos,
        hit_grade=grades,
        hit_docs=take(run.doc_vocab, doc[hits]) if hit_docs else None,
    )


def rank_slices(judged: Judged, run: Run, *, hit_docs: bool = False) -> list[RunPart]:
    """:func:`rank_part` over slices of about :data:`_SLICE_ROWS` rows of whole queries, when each query's rows
    are together (else over the whole run): the same result, with temporaries the size of a slice."""
    n = len(run)
    heads = run_starts(run.query_codes.astype(np.int64, copy=False))
    if n <= _SLICE_ROWS or not _together(run.query_codes, heads):
        return [rank_part(judged, run, hit_docs=hit_docs)]
    cuts = np.unique(heads[np.searchsorted(heads, np.arange(0, n, _SLICE_ROWS), side="left").clip(max=len(heads) - 1)])
    bounds = [*cuts.tolist(), n]
    local = np.zeros(len(run.query_vocab), dtype=np.int32)
    parts = []
    for begin, end in itertools.pairwise(bounds):
        codes = run.query_codes[begin:end]
        firsts = codes[run_starts(codes.astype(np.int64, copy=False))]
        local[firsts] = np.arange(len(firsts), dtype=np.int32)
        if run.distinct_doc_codes:
            doc_codes, doc_vocab = run.doc_codes[begin:end], run.doc_vocab
        else:  # one ID per row: the slice's IDs, numbered from 0
            doc_codes, doc_vocab = np.arange(end - begin, dtype=np.int32), run.doc_vocab.slice(begin, end - begin)
        part = Run(
            local[codes],
            take(run.query_vocab, firsts),
            doc_codes,
            doc_vocab,
            run.scores[begin:end],
            run.source,
            unique_pairs=run.unique_pairs,
            distinct_doc_codes=run.distinct_doc_codes,
        )
        parts.append(rank_part(judged, part, hit_docs=hit_docs))
    return parts


def finish(
    judged: Judged,
    parts: Iterable[RunPart],
    *,
    missing: Missing = "skip",
    expected_positions: Mapping[str, Mapping[str, int]] | None = None,
) -> Ranked:
    """Put together the parts of one run, each query being in one part only.

    The evaluated queries are those both judged and run (``missing="skip"``), or every judged query
    (``missing="zero"``: a judged query absent from the run has an empty ranking and scores 0). Queries that
    are run but not judged are never evaluated. Output order: query IDs sorted.

    Raises:
        InputError: an evaluated query has a document judged twice, or an entry of ``expected_positions`` is
            not an integer >= 1.
    """
    parts = list(parts)
    if missing == "skip":
        seen = set().union(*(p.query_ids for p in parts))
        chosen = np.array([i for i, q in enumerate(judged.query_ids) if q in seen], dtype=np.int64)
    else:
        chosen = np.arange(len(judged.query_ids), dtype=np.int64)
    judged.check_repeats(chosen)
    remap = np.full(len(judged.query_ids), -1, dtype=np.int64)
    remap[chosen] = np.arange(len(chosen), dtype=np.int64)
    evaluated = [judged.query_ids[i] for i in chosen.tolist()]
    n_ret = np.zeros(len(chosen), dtype=np.int64)
    for p in parts:
        n_ret[remap[p.depth_query]] += p.depth
    hit_query = remap[_cat(p.hit_query for p in parts)]
    hit_pos, hit_grade = _cat(p.hit_pos for p in parts), _cat(p.hit_grade for p in parts)
    by_rank = np.lexsort((hit_pos, hit_query))
    hit_query, hit_pos, hit_grade = hit_query[by_rank], hit_pos[by_rank], hit_grade[by_rank]
    hit_expected = np.zeros(len(hit_query), dtype=np.int64)
    if expected_positions:
        docs = [d for p in parts for d in (p.hit_docs or [])]
        for i, (q, d) in enumerate(zip(hit_query.tolist(), [docs[j] for j in by_rank.tolist()], strict=True)):
            m = expected_positions.get(evaluated[q], {}).get(d)
            if m is not None:
                if isinstance(m, bool) or not isinstance(m, int) or m < 1:
                    raise InputError(f"expected_positions[{evaluated[q]!r}][{d!r}] must be an integer >= 1, got {m!r}")
                hit_expected[i] = m
    ideal = remap[judged.ideal_query]
    keep = ideal >= 0
    levels = remap[judged.level_query]
    in_levels = levels >= 0
    return Ranked(
        query_ids=tuple(evaluated),
        n_ret=n_ret,
        hit_query=hit_query,
        hit_pos=hit_pos,
        hit_grade=hit_grade,
        hit_expected=hit_expected,
        judged_query=ideal[keep],
        judged_grade=judged.ideal_grade[keep],
        judged_pos=judged.ideal_pos[keep],
        level_query=levels[in_levels],
        level_grade=judged.level_grade[in_levels],
        level_count=judged.level_count[in_levels],
    )


def _cat(arrays: Iterable[IntArray]) -> IntArray:
    return np.concatenate([np.zeros(0, dtype=np.int64), *(a.astype(np.int64, copy=False) for a in arrays)])


def _together(values: NDArray[np.integer], heads: IntArray) -> bool:
    """Whether each value's rows are contiguous, given where runs of equal adjacent values start."""
    firsts = np.sort(values[heads])  # (np.unique would do, but it imports numpy.ma, 15 ms)
    return not bool((firsts[1:] == firsts[:-1]).any())


def _join(query: IntArray, doc: NDArray[np.int32], run: Run, judged: Judged) -> tuple[IntArray, IntArray]:
    """Rows of the run whose (query, document) is judged (with any grade), and that grade."""
    dmap = index_in(run.doc_vocab, judged.qrels.doc_vocab)
    r_doc = dmap[doc] if len(doc) else np.zeros(0, dtype=np.int32)
    candidates = np.flatnonzero(r_doc >= 0)
    c_key = query[candidates] * judged.n_docs + r_doc[candidates]
    if not len(judged.key):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    at = np.minimum(np.searchsorted(judged.key, c_key), len(judged.key) - 1)
    grades = np.where(judged.key[at] == c_key, judged.grade[at], 0)
    found = judged.key[at] == c_key
    return candidates[found].astype(np.int64), grades[found].astype(np.int64)


def _check_duplicates(doc: NDArray[np.int32], heads: IntArray, group_query: IntArray, run: Run, judged: Judged) -> None:
    """Raise InputError naming the first document that a query of the run lists twice (distinct codes)."""
    n = len(doc)
    if n == 0:
        return
    ordered = sort_within_groups(doc.astype(np.int64), heads, np.diff(np.append(heads, n)))
    same = ordered[1:] == ordered[:-1]
    same[heads[1:] - 1] = False  # neighbours across two queries
    if not same.any():
        return
    at = int(np.flatnonzero(same)[0])
    bad_group = int(np.searchsorted(heads, at, side="right")) - 1
    name = take(run.doc_vocab, ordered[at : at + 1])[0]
    raise InputError(
        where(run.source) + f"run lists document {name!r} twice for query "
        f"{judged.query_ids[int(group_query[bad_group])]!r} (trec_eval refuses such runs too; keep one line per "
        "document)"
    )
