"""Judgments (qrels) and runs as columns: integer codes into string vocabularies, plus grades or scores."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..errors import InputError
from ._vocab import Vocab, encode, take, to_list

__all__ = ["Qrels", "Run", "where"]


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgments: one row per (query, document) with an integer grade.

    Build one with :func:`~ragrecall.ranking.read_qrels` or :meth:`from_dict`. Grades >= 1 are relevant by
    default; 0 is judged not relevant; negative grades are treated as not relevant and carry no gain.
    """

    query_codes: NDArray[np.int32]
    query_vocab: Vocab
    doc_codes: NDArray[np.int32]
    doc_vocab: Vocab
    grades: NDArray[np.int64]
    source: str | None = None
    """Where the judgments were read from (a path), for error messages."""

    def __len__(self) -> int:
        return len(self.grades)

    @classmethod
    def from_dict(cls, qrels: Mapping[Any, Mapping[Any, Any]], *, source: str | None = None) -> Qrels:
        """From ``{query_id: {doc_id: grade}}`` (pytrec_eval's and ranx's form). IDs may be str or int.

        Raises:
            InputError: a grade is not an integer, or an ID is neither str nor int.
        """
        queries, docs, grades = _flatten(qrels, "qrels", want_int=True)
        qcodes, qvocab = encode(queries)
        dcodes, dvocab = encode(docs)
        return cls(qcodes, qvocab, dcodes, dvocab, np.asarray(grades, dtype=np.int64), source)

    def to_dict(self) -> dict[str, dict[str, int]]:
        """As ``{query_id: {doc_id: grade}}``."""
        out: dict[str, dict[str, int]] = {}
        queries = take(self.query_vocab, self.query_codes)
        docs = take(self.doc_vocab, self.doc_codes)
        for q, d, g in zip(queries, docs, self.grades.tolist(), strict=True):
            out.setdefault(q, {})[d] = int(g)
        return out

    def query_ids(self) -> list[str]:
        """The judged queries, in first-appearance order."""
        return to_list(self.query_vocab)


@dataclass(frozen=True, eq=False)
class Run:
    """A run: one row per (query, document) with a score. Rank columns are never kept: order comes from scores.

    Build one with :func:`~ragrecall.ranking.read_run` or :meth:`from_dict`.
    """

    query_codes: NDArray[np.int32]
    query_vocab: Vocab
    doc_codes: NDArray[np.int32]
    doc_vocab: Vocab
    scores: NDArray[np.float64]
    source: str | None = None
    """Where the run was read from (a path), for error messages."""
    unique_pairs: bool = False
    """True when no (query, document) pair can repeat (built from a dict), so the check is skipped."""
    distinct_doc_codes: bool = True
    """True when ``doc_vocab`` holds each document once, so equal codes mean equal documents. False when it
    holds one entry per row (``doc_codes`` is then 0..n-1), as a run read with pyarrow has: encoding millions of
    document IDs costs more than the whole evaluation, which needs them only to find repeats (then compared by
    content) and to break ties."""

    def __len__(self) -> int:
        return len(self.scores)

    @classmethod
    def from_dict(cls, run: Mapping[Any, Mapping[Any, Any]], *, source: str | None = None) -> Run:
        """From ``{query_id: {doc_id: score}}`` (pytrec_eval's and ranx's form). IDs may be str or int.

        Raises:
            InputError: a score is not a real number, or an ID is neither str nor int.
        """
        queries, docs, scores = _flatten(run, "run", want_int=False)
        qcodes, qvocab = encode(queries)
        dcodes, dvocab = encode(docs)
        return cls(qcodes, qvocab, dcodes, dvocab, np.asarray(scores, dtype=np.float64), source, unique_pairs=True)

    def to_dict(self) -> dict[str, dict[str, float]]:
        """As ``{query_id: {doc_id: score}}``; a repeated (query, document) keeps its last score."""
        out: dict[str, dict[str, float]] = {}
        queries = take(self.query_vocab, self.query_codes)
        docs = take(self.doc_vocab, self.doc_codes)
        for q, d, s in zip(queries, docs, self.scores.tolist(), strict=True):
            out.setdefault(q, {})[d] = float(s)
        return out

    def query_ids(self) -> list[str]:
        """The queries of the run, in first-appearance order."""
        return to_list(self.query_vocab)


def _id(value: Any, what: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise InputError(f"{what}: expected a str or int ID, got {value!r} ({type(value).__name__})")


def _flatten(data: Mapping[Any, Mapping[Any, Any]], what: str, *, want_int: bool) -> tuple[list[str], list[str], Any]:
    if not isinstance(data, Mapping):
        raise InputError(f"{what}: expected a mapping of query ID to {{doc ID: value}}, got {type(data).__name__}")
    queries: list[str] = []
    lengths: list[int] = []
    for qid, docs in data.items():
        if not isinstance(docs, Mapping):
            raise InputError(f"{what}: query {qid!r}: expected a mapping of doc ID to value, got {type(docs).__name__}")
        queries.append(_id(qid, f"{what}: query ID"))
        lengths.append(len(docs))
    doc_ids = list(itertools.chain.from_iterable(data.values()))
    values = list(itertools.chain.from_iterable(d.values() for d in data.values()))
    if not all(isinstance(d, str) for d in doc_ids):
        doc_ids = [_id(d, f"{what}: document ID") for d in doc_ids]
    repeats = (itertools.repeat(q, n) for q, n in zip(queries, lengths, strict=True))
    query_per_row = list(itertools.chain.from_iterable(repeats))
    if want_int:
        for q, d, v in zip(query_per_row, doc_ids, values, strict=True):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise InputError(f"{what}: query {q!r}, document {d!r}: expected an integer grade, got {v!r}")
        return query_per_row, doc_ids, values
    try:
        scores = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        for q, d, v in zip(query_per_row, doc_ids, values, strict=True):
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise InputError(f"{what}: query {q!r}, document {d!r}: expected a number, got {v!r}") from None
        raise
    return query_per_row, doc_ids, scores


def where(source: str | None) -> str:
    """A message prefix naming the file an error comes from."""
    return f"{source}: " if source else ""
