"""EvaluationResult JSONL round trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragrecall import FileFormatError, IDBasedContextRecall, NonLLMContextRecall
from ragrecall.evaluation import EvaluationResult, evaluate


def test_jsonl_round_trip_keeps_values_evidence_and_failures(tmp_path: Path) -> None:
    samples: list[dict[str, object]] = [
        {
            "id": i,
            "retrieved_context_ids": ["a", "b"][: i % 3],
            "reference_context_ids": ["a"],
            "retrieved_contexts": ["x"],
            "reference_contexts": ["x y"],
        }
        for i in range(8)
    ]
    samples[5] = {"id": 5}
    result = evaluate(samples, [IDBasedContextRecall(), NonLLMContextRecall()], show_progress=False)
    path = tmp_path / "results.jsonl"
    result.to_jsonl(path)
    back = EvaluationResult.from_jsonl(path)
    assert back.metrics == result.metrics
    assert back.rows == tuple(
        row.model_copy(
            update={
                "results": {
                    n: r.model_copy(update={"failure": r.failure.model_copy(update={"traceback": None})})
                    if r.failure
                    else r
                    for n, r in row.results.items()
                }
            }
        )
        for row in result.rows
    )
    assert back.summary == result.summary


def test_from_jsonl_names_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"index": 0, "results": {}}\n{"index": "x"}\n', encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"r\.jsonl:2: not a result row"):
        EvaluationResult.from_jsonl(path)
