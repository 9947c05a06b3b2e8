"""parse_ranking: the layouts rerankers write."""

from __future__ import annotations

import pytest

from ragrecall.ranking import ParsedRanking, parse_ranking


@pytest.mark.parametrize(
    ("text", "ids", "fmt"),
    [
        ("[3] > [1] > [2]", ["3", "1", "2"], "arrows"),
        ("3 > 1 > 2", ["3", "1", "2"], "arrows"),
        ('["d2", "d1", 7]', ["d2", "d1", "7"], "json"),
        ('Here you go:\n```json\n["b", "a"]\n```', ["b", "a"], "json"),
        ('{"ranking": [{"id": "x"}, {"doc_id": "y"}]}', ["x", "y"], "json"),
        ("1. doc7\n2) doc2 - very relevant\n3. [doc9]", ["doc7", "doc2", "doc9"], "lines"),
        ("- a\n* b\n• c", ["a", "b", "c"], "lines"),
        ("a\nb\n\nc", ["a", "b", "c"], "lines"),
        ("b, a, c", ["b", "a", "c"], "commas"),
        ("", [], "empty"),
    ],
)
def test_layouts(text: str, ids: list[str], fmt: str) -> None:
    parsed = parse_ranking(text)
    assert parsed.ids == ids and parsed.format == fmt


def test_first_occurrence_wins_and_candidates_filter() -> None:
    parsed = parse_ranking("[2] > [9] > [1] > [2]", candidates=[1, 2, 3])
    assert isinstance(parsed, ParsedRanking)
    assert parsed.ids == ["2", "1"]
    assert parsed.unknown == ["9"] and parsed.duplicates == ["2"] and parsed.missing == ["3"]


def test_a_whole_line_candidate_with_spaces_is_kept() -> None:
    parsed = parse_ranking("1. New York\n2. Paris", candidates=["Paris", "New York"])
    assert parsed.ids == ["New York", "Paris"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Most relevant first: [d7] > [d1] > [d3]", ["d7", "d1", "d3"]),
        ("Ranking: 3 > 1 > 2 (best first)", ["3", "1", "2"]),
        ("The order is [2] > [3] > [1].", ["2", "3", "1"]),
    ],
)
def test_arrow_chains_wrapped_in_prose(text: str, expected: list[str]) -> None:
    assert parse_ranking(text).ids == expected
