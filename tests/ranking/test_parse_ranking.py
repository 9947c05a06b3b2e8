"""parse_ranking: the layouts rerankers write."""

from __future__ import annotations

import re
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragrecall.ranking import ParsedRanking, parse_ranking
from ragrecall.ranking._parse_ranking import _BRACKETED, _BRACKETS, _LEADING_BRACKETS, _fenced


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


# -- linear time on any text ----------------------------------------------------------------------------------

# The patterns the parser used before it was made linear: the reference for what it must still find.
_OLD_FENCE = re.compile(r"```[a-zA-Z]*\s*(.*?)```", re.DOTALL)
_OLD_BRACKETED = re.compile(r"^\[\s*([^\[\]]+?)\s*\]$")
_OLD_BRACKETS = re.compile(r"\[\s*([^\[\]]+?)\s*\]")
_OLD_LEADING = re.compile(r"^\[\s*([^\[\]]+?)\s*\]")
_ALPHABET = st.sampled_from(["```", "json", "\u00a0", *"`[] >,ab1\n\t.-"])


@given(st.lists(_ALPHABET, max_size=30).map("".join))
@settings(max_examples=400, deadline=None)
def test_the_linear_patterns_find_what_the_old_ones_found(text: str) -> None:
    old = _OLD_FENCE.search(text)
    assert _fenced(text) == (old.group(1) if old else None)
    for new_pattern, old_pattern in ((_BRACKETED, _OLD_BRACKETED), (_LEADING_BRACKETS, _OLD_LEADING)):
        new, before = new_pattern.match(text), old_pattern.match(text)
        assert (new is None) == (before is None)
        if new and before:
            assert new.group(1).strip() == before.group(1).strip()
    assert [m.strip() for m in _BRACKETS.findall(text)] == [m.strip() for m in _OLD_BRACKETS.findall(text)]


_MB = 1_000_000


@pytest.mark.parametrize(
    ("text", "candidates", "expected_ids", "fmt"),
    [
        # The old patterns backtracked over these for minutes (a 4,000-character run of spaces: 17 s; cubic).
        ("[" + " " * _MB + "a", None, [], "lines"),
        ("```" + "a" * _MB, None, ["a" * _MB], "lines"),
        # Unknown and repeated IDs were looked up in lists: quadratic in their number.
        ("\n".join(f"doc{i}" for i in range(_MB // 8)), ["x"], [], "lines"),
        ("\n".join("doc1" for _ in range(_MB // 5)), None, ["doc1"], "lines"),
        # Arrays nested 100,000 deep made json raise RecursionError: not JSON, read as a line.
        ("[" * 100_000 + "]" * 100_000, None, [], "lines"),
    ],
    ids=["bracket-then-spaces", "unclosed-fence", "many-unknown", "many-duplicates", "deep-json"],
)
def test_megabyte_replies_parse_promptly(
    text: str, candidates: list[str] | None, expected_ids: list[str], fmt: str
) -> None:
    outcome: list[ParsedRanking] = []
    worker = threading.Thread(target=lambda: outcome.append(parse_ranking(text, candidates)), daemon=True)
    worker.start()
    worker.join(timeout=60)  # milliseconds now; the old code took hours on these
    assert not worker.is_alive(), "parse_ranking did not finish: a pattern backtracks or a lookup is quadratic"
    [parsed] = outcome
    assert parsed.ids == expected_ids and parsed.format == fmt
