"""From a nuggetizer nuggets file to scores, a report and assignment files: ``ragrecall eval --nuggets`` with the
offline judge, then write_assignments, whose lines nugget_metrics turns back into each sample's scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragrecall import EvaluationResult, IDBasedContextRecall, NuggetRecall, OfflineJudge, evaluate
from ragrecall.cli import main
from ragrecall.errors import ConfigurationError, InputError
from ragrecall.metrics import NuggetRecallEvidence
from ragrecall.nuggets import (
    METRIC_KEYS,
    NuggetTopic,
    join_nuggets,
    nugget_metrics,
    read_assignments,
    write_assignments,
)

DATA = [
    {
        "id": "eiffel",
        "user_input": "How tall is the Eiffel Tower?",
        "retrieved_contexts": ["The Eiffel Tower is 330 metres tall.", "Work on the tower ended in 1889."],
        "retrieved_context_ids": ["d1", "d2"],
    },
    {
        "id": 7,
        "user_input": "Where is the Louvre?",
        "retrieved_contexts": ["The Louvre is a museum in Paris, on the Right Bank of the Seine."],
    },
    {"id": "lonely", "user_input": "no nuggets", "retrieved_contexts": ["text"], "reference": "Text is text."},
]
NUGGETS = [
    {
        "query": "How tall is the Eiffel Tower?",
        "qid": "eiffel",
        "nuggets": [
            {"text": "The Eiffel Tower is 330 metres tall", "importance": "vital"},
            {"text": "Work on the tower ended in 1889", "importance": "okay"},
            {"text": "The tower is painted yellow", "importance": "vital"},
        ],
    },
    {"query": "Where is the Louvre?", "qid": "7", "nuggets": [{"text": "The Louvre is in Paris"}]},
    {"query": "unused", "qid": "nobody", "nuggets": [{"text": "x"}]},
]


def write_lines(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_eval_with_a_nuggets_file_then_assignments_reproduce_each_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_lines(tmp_path / "data.jsonl", DATA)  # type: ignore[arg-type]
    nuggets = write_lines(tmp_path / "nuggets.jsonl", NUGGETS)  # type: ignore[arg-type]
    out, report = tmp_path / "results.jsonl", tmp_path / "report.html"
    flags = ["--offline", "--no-progress", "--out", str(out), "--report", str(report)]
    code = main(["eval", str(data), "--nuggets", str(nuggets), "-m", "nugget_recall(score=all)", *flags])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "2 of 3 topics joined" in captured.err and "nobody" in captured.err
    assert "nugget_recall(score=all)" in captured.out
    result = EvaluationResult.from_jsonl(out)
    rows = {row.sample_id: row.results["nugget_recall(score=all)"] for row in result.rows}
    assert isinstance(rows["eiffel"].evidence, NuggetRecallEvidence)
    assert [n.label for n in rows["eiffel"].evidence.nuggets] == ["support", "support", "not_support"]
    assert rows["eiffel"].value == pytest.approx(2 / 3)
    html = report.read_text(encoding="utf-8")
    assert "The tower is painted yellow" in html and "vital" in html and "What the nugget labels mean" in html

    answers = tmp_path / "answers.jsonl"
    assert write_assignments(answers, result, "answers") == 3  # "lonely" has nuggets from its reference
    lines = nugget_metrics(read_assignments(answers))
    for line in lines[:-1]:
        scores = rows[line["qid"]].evidence.scores  # type: ignore[union-attr]
        for key in METRIC_KEYS:
            mine = scores[key.removesuffix("_score")]
            assert line[key] == (mine if mine is not None else 0.0)
    first = read_assignments(answers)[0]
    assert first["nuggets"][0]["ragrecall"]["quotes"][0]["context"] == 0
    assert first["nuggets"][0]["assignment"] == "support" and first["run_id"] == "ragrecall"

    retrieval = tmp_path / "retrieval.jsonl"
    assert write_assignments(retrieval, result, "retrieval") == 2 + 1 + 1
    per_passage = read_assignments(retrieval)
    assert [(r["qid"], r["docid"]) for r in per_passage[:2]] == [("eiffel", "d1"), ("eiffel", "d2")]
    assert [n["assignment"] for n in per_passage[0]["nuggets"]] == ["support", "not_support", "not_support"]
    assert [n["assignment"] for n in per_passage[1]["nuggets"]] == ["not_support", "support", "not_support"]
    assert per_passage[2]["docid"] == "1"  # no ids: the 1-based rank
    assert main(["nuggets", "metrics", str(retrieval), "-o", str(tmp_path / "m.jsonl")]) == 0


def test_write_assignments_refuses_a_run_without_nugget_recall(tmp_path: Path) -> None:
    result = evaluate([{"retrieved_context_ids": ["a"], "reference_context_ids": ["a"]}], [IDBasedContextRecall()])
    with pytest.raises(ConfigurationError, match="no nugget recall results"):
        write_assignments(tmp_path / "a.jsonl", result)
    run = evaluate([{"retrieved_contexts": ["x y z"], "reference_nuggets": ["x y z"]}], [NuggetRecall(OfflineJudge())])
    with pytest.raises(ConfigurationError, match="kind must be"):
        write_assignments(tmp_path / "a.jsonl", run, "passages")  # type: ignore[arg-type]


def test_a_sample_with_its_own_nuggets_and_a_topic_is_an_error() -> None:
    from ragrecall import Sample

    topic = NuggetTopic(qid="q", nuggets=["a fact"])  # type: ignore[list-item]
    with pytest.raises(InputError, match=r"sample 0 \(id='q'\) has its own reference_nuggets"):
        join_nuggets([Sample(id="q", reference_nuggets=["mine"])], [topic])


def test_a_dry_run_counts_the_requests_of_the_joined_nuggets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = write_lines(tmp_path / "data.jsonl", DATA[:2])  # type: ignore[arg-type]
    nuggets = write_lines(tmp_path / "nuggets.jsonl", NUGGETS)  # type: ignore[arg-type]
    flags = ["--dry-run", "--model", "gpt-4o-mini", "--no-progress"]
    assert main(["eval", str(data), "--nuggets", str(nuggets), "-m", "nugget_recall", *flags]) == 0
    assert "LLM requests: 2" in capsys.readouterr().out  # one assignment per sample, no decomposition
