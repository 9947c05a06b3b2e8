"""Judgments made ready for joining with runs: prepared once, joined with any number of run parts."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import InputError
from . import _vocab
from ._ranked import first_index_of_group, run_starts
from ._table import Qrels, where
from ._vocab import arrow_strings, take, to_list, vocab_len

__all__ = ["Judged", "prepare_judged"]

IntArray = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Judged:
    """Judgments indexed by judged query (0..n-1, query IDs sorted).

    ``key``/``grade`` cover every judgment, sorted by ``query * n_docs + doc code`` (for joining runs whose
    document codes share the judgments' vocabulary); ``row_*`` hold the same rows as columns (query, document
    code, grade). ``ideal_*`` cover the positively graded judgments in ideal order (query, grade descending);
    ``level_*`` count each query's judgments at each grade (negative grades included).
    """

    qrels: Qrels
    query_ids: list[str]
    index: dict[str, int]
    n_docs: int
    key: IntArray
    grade: IntArray
    row_query: IntArray
    row_doc: IntArray
    row_grade: IntArray
    ideal_query: IntArray
    ideal_grade: IntArray
    ideal_pos: IntArray
    level_query: IntArray
    level_grade: IntArray
    level_count: IntArray
    repeated: dict[int, str]
    """Judged query index → a document its judgments list twice (an error once that query is evaluated)."""

    def check_repeats(self, queries: IntArray) -> None:
        """Raise InputError when one of ``queries`` (judged query indices) has a document judged twice."""
        for q in queries.tolist() if self.repeated else []:
            if q in self.repeated:
                raise InputError(
                    where(self.qrels.source) + f"judgments list document {self.repeated[q]!r} twice for query "
                    f"{self.query_ids[q]!r}"
                )

    def judgment_rows(self, queries: IntArray) -> tuple[IntArray, IntArray]:
        """The judgments of ``queries`` (judged query indices): their indices into ``row_*``, and for each, the
        index into ``queries`` of its query."""
        lo = np.searchsorted(self.row_query, queries, side="left")
        n = np.searchsorted(self.row_query, queries, side="right") - lo
        total = int(n.sum())
        owner = np.repeat(np.arange(len(queries), dtype=np.int64), n)
        if total == 0:
            return np.zeros(0, dtype=np.int64), owner
        ends = np.cumsum(n)
        return np.arange(total, dtype=np.int64) - np.repeat(ends - n - lo, n), owner

    @functools.cached_property
    def row_doc_keys(self) -> NDArray[np.uint64]:
        """Per judgment (``row_*``), the hash of its document ID (see :func:`~._vocab.string_keys`)."""
        return _vocab.string_keys(self.arrow_doc_vocab)[self.row_doc]

    @functools.cached_property
    def arrow_doc_vocab(self) -> Any:
        """The judgments' document IDs as a pyarrow array (needs pyarrow)."""
        vocab = self.qrels.doc_vocab
        return arrow_strings(vocab) if isinstance(vocab, list) else vocab


def prepare_judged(qrels: Qrels) -> Judged:
    """Index ``qrels`` by sorted query ID and sort it for joining.

    A document judged twice for one query is noted in :attr:`Judged.repeated`, not refused here: trec_eval
    refuses it only for a query it evaluates (see :meth:`Judged.check_repeats`).
    """
    judged_ids = to_list(qrels.query_vocab)
    query_ids = sorted(set(judged_ids))
    index = {q: i for i, q in enumerate(query_ids)}
    qmap = np.array([index[q] for q in judged_ids], dtype=np.int64)
    j_query = qmap[qrels.query_codes] if len(qrels) else np.zeros(0, dtype=np.int64)
    j_doc = qrels.doc_codes.astype(np.int64)
    n_docs = max(vocab_len(qrels.doc_vocab), 1)
    key = j_query * n_docs + j_doc
    order = np.argsort(key, kind="stable")
    key, j_query, j_doc, grade = key[order], j_query[order], j_doc[order], qrels.grades[order].astype(np.int64)
    repeated: dict[int, str] = {}
    at = np.flatnonzero(key[1:] == key[:-1]) + 1
    if len(at):  # refused by finish() if the query is evaluated, as trec_eval does
        for q, doc in zip(j_query[at].tolist(), take(qrels.doc_vocab, j_doc[at]), strict=True):
            repeated.setdefault(q, doc)
    positive = grade > 0
    pos_query, pos_grade = j_query[positive], grade[positive]
    ideal = np.lexsort((-pos_grade, pos_query))
    ideal_query, ideal_grade = pos_query[ideal], pos_grade[ideal]
    level_query, level_grade, level_count = _levels(j_query, grade)
    ideal_pos = np.arange(len(ideal_query), dtype=np.int64) - first_index_of_group(ideal_query) + 1
    return Judged(
        qrels,
        query_ids,
        index,
        n_docs,
        key,
        grade,
        j_query,
        j_doc,
        grade,
        ideal_query,
        ideal_grade,
        ideal_pos,
        level_query,
        level_grade,
        level_count,
        repeated,
    )


def _levels(query: IntArray, grade: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """Per (query, grade) present, sorted by query then grade: the query, the grade and how many judgments."""
    if not len(query):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    # Sorted by the pair, not by one key made of both: grades may lie up to 2**64 apart, past what int64 holds.
    order = np.lexsort((grade, query))
    query, grade = query[order], grade[order]
    first = run_starts(query, grade)
    return query[first], grade[first], np.diff(np.append(first, len(query))).astype(np.int64)
