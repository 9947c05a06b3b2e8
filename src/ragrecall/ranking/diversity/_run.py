"""A run as ndeval reads it: each query's documents in the order of the rank column (ndeval's default) or of
the scores (ndeval's ``-traditional``: score descending, ties by document ID descending)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, Literal

from ...errors import FileFormatError, InputError
from .._arrow_read import RUN_FIELDS
from .._plain_read import parse_score, records, text_field
from .._source import open_input
from .._table import _id

__all__ = ["Order", "RankedRun", "read_ranked_run"]

Order = Literal["rank", "score"]


@dataclass(frozen=True)
class RankedRun:
    """Per query, ``(doc, rank, score)`` rows as given; :meth:`ranking` orders them."""

    rows: dict[str, list[tuple[str, int, float]]]
    run_id: str
    """The tag of the run's first line (ndeval's ``runid``)."""
    source: str | None = None

    @classmethod
    def from_dict(cls, run: Mapping[Any, Mapping[Any, float] | Sequence[Any]], *, run_id: str = "run") -> RankedRun:
        """From ``{query: {doc: score}}`` or ``{query: [doc, ...]}`` (a ranked list, best first; its ranks are
        the positions and its scores descend with them).

        Raises:
            InputError: a score is not a number, a document repeats in a list, or an ID is neither str nor int.
        """
        rows: dict[str, list[tuple[str, int, float]]] = {}
        for query, docs in run.items():
            q = _id(query, "run: ID")
            if isinstance(docs, Mapping):
                ordered = sorted(docs.items(), key=lambda item: -_number(item[1], q))
                rows[q] = [(_id(d, "run: ID"), i, float(s)) for i, (d, s) in enumerate(ordered, start=1)]
            else:
                ids = [_id(d, "run: ID") for d in docs]
                if len(set(ids)) != len(ids):
                    raise InputError(f"query {q!r}: a document is listed twice")
                rows[q] = [(d, i, float(len(ids) - i)) for i, d in enumerate(ids, start=1)]
        return cls(rows, run_id)

    def ranking(self, query: str, order: Order, depth: int | None = None) -> list[str]:
        """The documents of ``query`` in ``order``, the first ``depth`` only when given.

        Raises:
            InputError: with ``order="rank"``, two rows share a rank; in any order, a document is listed twice.
        """
        rows = self.rows.get(query, [])
        if order == "rank":
            ranks = [r for _, r, _ in rows]
            if len(set(ranks)) != len(ranks):
                rank = next(r for r in ranks if ranks.count(r) > 1)
                raise InputError(f"{self._where()}duplicate rank ({rank}) for query {query!r} (ndeval refuses it too)")
            ordered = [d for d, _, _ in sorted(rows, key=lambda row: row[1])]
        else:  # by score descending, ties by document ID descending: sort by ID descending, then stably by score
            by_doc = sorted(rows, key=lambda row: row[0].encode("utf-8"), reverse=True)
            ordered = [d for d, _, _ in sorted(by_doc, key=lambda row: -row[2])]
        if depth is not None:
            ordered = ordered[:depth]
        seen: set[str] = set()
        for doc in ordered:
            if doc in seen:
                raise InputError(f"{self._where()}run lists document {doc!r} twice for query {query!r}")
            seen.add(doc)
        return ordered

    def _where(self) -> str:
        return f"{self.source}: " if self.source else ""


def _number(value: Any, query: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise InputError(f"run: query {query!r}: expected a number as score, got {value!r}")
    return float(value)


def read_ranked_run(source: str | os.PathLike[str] | IO[Any]) -> RankedRun:
    """Read a TREC run keeping its rank column (lines and fields as for :func:`~ragrecall.ranking.read_run`).

    Raises:
        FileFormatError: a line has fewer than 6 fields, its rank is not a whole number, or its score is not a
            number.
    """
    given = open_input(source)
    name = given.name
    rows: dict[str, list[tuple[str, int, float]]] = {}
    run_id = ""
    for number, fields in records(given, RUN_FIELDS, more=True):
        query, doc = text_field(fields[0], name, number), text_field(fields[2], name, number)
        if not fields[3].isdigit():
            shown = fields[3].decode("utf-8", "replace")
            raise FileFormatError(f"rank {shown!r} is not a whole number >= 0", path=name, line=number)
        run_id = run_id or text_field(fields[5], name, number)
        rows.setdefault(query, []).append((doc, int(fields[3]), parse_score(fields[4], name, number)))
    return RankedRun(rows, run_id or "run", name)
