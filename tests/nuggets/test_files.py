"""nuggetizer's nuggets files, read and written."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from ragrecall.errors import FileFormatError
from ragrecall.nuggets import Nugget, NuggetTopic, read_nuggets, write_nuggets

LINES = [
    {"query": "what is x", "qid": "2024-1", "nuggets": [{"text": "x is y", "importance": "vital"}, {"text": "x is z"}]},
    {"query": "什么是北京", "qid": 7, "nuggets": [{"text": "北京是首都", "importance": "okay"}]},
]


def test_read_then_write_gives_the_same_lines(tmp_path: Path) -> None:
    source = tmp_path / "nuggets.jsonl"
    source.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in LINES), encoding="utf-8")
    topics = read_nuggets(source)
    assert topics[0].nuggets == [Nugget(text="x is y"), Nugget(text="x is z", importance="vital")]
    assert topics[1].qid == 7 and topics[1].nuggets[0].importance == "okay"
    out = tmp_path / "out.jsonl.gz"
    write_nuggets(out, topics)
    with gzip.open(out, "rt", encoding="utf-8") as handle:
        written = [json.loads(line) for line in handle]
    assert written[1] == LINES[1]
    assert written[0]["nuggets"][1] == {"text": "x is z", "importance": "vital"}  # the default made explicit
    assert read_nuggets(out) == topics


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ('{"qid": "a", "nuggets": [{"text": "x", "importance": "big"}]}', "nugget 1 'importance'"),
        ('{"qid": "a", "nuggets": [{"importance": "vital"}]}', "nugget 1 'text'"),
        ('{"qid": "a"}', "nuggets: Field required"),
        ('["a"]', "expected an object"),
    ],
)
def test_bad_lines_name_the_line_and_nugget(tmp_path: Path, line: str, words: str) -> None:
    source = tmp_path / "nuggets.jsonl"
    source.write_text('{"qid": "ok", "nuggets": []}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(FileFormatError, match=words) as caught:
        read_nuggets(source)
    assert caught.value.line == 2


def test_a_qid_twice_is_an_error(tmp_path: Path) -> None:
    source = tmp_path / "nuggets.jsonl"
    source.write_text('{"qid": "a", "nuggets": []}\n{"qid": "a", "nuggets": []}\n', encoding="utf-8")
    with pytest.raises(FileFormatError, match="qid 'a' again"):
        read_nuggets(source)


def test_topics_build_from_plain_values() -> None:
    topic = NuggetTopic(qid="q", nuggets=["bare text is vital", {"text": "t", "importance": "okay"}])  # type: ignore[list-item]
    assert [n.importance for n in topic.nuggets] == ["vital", "okay"]
