"""Subtopic judgments (``query subtopic doc grade``), as the TREC Web track's diversity task and ndeval use."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO, Any

from ...errors import FileFormatError, InputError
from .._plain_read import parse_grade, records, text_field
from .._source import open_input
from .._table import _id

__all__ = ["SUBTOPIC_FIELDS", "SubtopicQrels", "TopicJudgments", "natural_key", "read_subtopic_qrels"]

SUBTOPIC_FIELDS = ("query", "subtopic", "doc", "grade")


def natural_key(text: str) -> tuple[int, int, str]:
    """Order IDs as ndeval does where they are numbers (numerically), then the others byte-wise."""
    return (0, int(text), text) if text.isascii() and text.isdigit() else (1, 0, text)


@dataclass(frozen=True)
class TopicJudgments:
    """One query's judgments: for each judged document, the subtopics it is relevant to (grade >= 1; judgments
    are binary, as in ndeval)."""

    subtopics: tuple[str, ...]
    """Every subtopic judged for the query, numbers in numeric order first."""
    relevant: dict[str, frozenset[int]]
    """Judged document → indices (into ``subtopics``) of the subtopics it is relevant to (maybe none)."""
    per_subtopic: tuple[int, ...]
    """Per subtopic, how many documents are relevant to it."""

    @property
    def covered(self) -> int:
        """Subtopics with at least one relevant document: the denominator of every intent-aware measure (a
        subtopic nobody found relevant is ignored, as ndeval does)."""
        return sum(1 for n in self.per_subtopic if n)


@dataclass(frozen=True)
class SubtopicQrels:
    """Subtopic judgments of many queries. Build with :func:`read_subtopic_qrels` or :meth:`from_dict`."""

    topics: dict[str, TopicJudgments]
    source: str | None = None

    @classmethod
    def from_dict(
        cls, judgments: Mapping[Any, Mapping[Any, Mapping[Any, int]]], *, source: str | None = None
    ) -> SubtopicQrels:
        """From ``{query: {subtopic: {doc: grade}}}``; IDs may be str or int.

        Raises:
            InputError: a grade is not an integer, or an ID is neither str nor int.
        """
        rows: list[tuple[str, str, str, int]] = []
        for query, subtopics in judgments.items():
            for subtopic, docs in subtopics.items():
                for doc, grade in docs.items():
                    if isinstance(grade, bool) or not isinstance(grade, int):
                        raise InputError(
                            f"query {query!r}, subtopic {subtopic!r}, document {doc!r}: "
                            f"expected an integer grade, got {grade!r}"
                        )
                    rows.append(
                        (
                            _id(query, "subtopic qrels: ID"),
                            _id(subtopic, "subtopic qrels: ID"),
                            _id(doc, "subtopic qrels: ID"),
                            grade,
                        )
                    )
        return cls(_topics(rows), source)


def _topics(rows: list[tuple[str, str, str, int]]) -> dict[str, TopicJudgments]:
    grouped: dict[str, dict[str, dict[str, int]]] = {}
    for query, subtopic, doc, grade in rows:
        grouped.setdefault(query, {}).setdefault(subtopic, {})[doc] = grade
    topics = {}
    for query, by_subtopic in grouped.items():
        subtopics = tuple(sorted(by_subtopic, key=natural_key))
        relevant: dict[str, set[int]] = {}
        per_subtopic = []
        for index, subtopic in enumerate(subtopics):
            count = 0
            for doc, grade in by_subtopic[subtopic].items():
                found = relevant.setdefault(doc, set())
                if grade >= 1:
                    found.add(index)
                    count += 1
            per_subtopic.append(count)
        topics[query] = TopicJudgments(subtopics, {d: frozenset(s) for d, s in relevant.items()}, tuple(per_subtopic))
    return topics


def read_subtopic_qrels(source: str | os.PathLike[str] | IO[Any]) -> SubtopicQrels:
    """Read subtopic judgments: lines ``query subtopic doc grade`` (a path, ``.gz``, ``-``, a pipe or a file
    object; lines and fields as for :func:`~ragrecall.ranking.read_qrels`). A grade >= 1 is relevant to the
    subtopic (judgments are binary, as in ndeval).

    Raises:
        FileFormatError: a line does not have 4 fields, a grade is not a whole number, or a (query,
            subtopic, document) is judged twice.
    """
    given = open_input(source)
    name = given.name
    rows: list[tuple[str, str, str, int]] = []
    seen: set[tuple[str, str, str]] = set()
    for number, fields in records(given, SUBTOPIC_FIELDS):
        query, subtopic, doc = (text_field(fields[i], name, number) for i in (0, 1, 2))
        if (query, subtopic, doc) in seen:
            raise FileFormatError(
                f"document {doc!r} is judged twice for query {query!r}, subtopic {subtopic!r}", path=name, line=number
            )
        seen.add((query, subtopic, doc))
        rows.append((query, subtopic, doc, parse_grade(fields[3], name, number)))
    return SubtopicQrels(_topics(rows), name)
