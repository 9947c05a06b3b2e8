"""EvaluationResult JSONL round trip."""

from __future__ import annotations

import json
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
    first = back.rows[1].sample
    assert first is not None and first.retrieved_context_ids == ["a"] and first.reference_contexts == ["x y"]


def test_from_jsonl_names_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text('{"index": 0, "results": {}}\n{"index": "x"}\n', encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"r\.jsonl:2: not a result row"):
        EvaluationResult.from_jsonl(path)


def unwritable_result() -> EvaluationResult:
    """Three good rows, then one whose evidence cannot be serialised: writing fails part-way through."""
    from ragrecall import Evidence, MetricResult
    from ragrecall.evaluation import SampleRow

    good = evaluate(
        [{"id": i, "retrieved_context_ids": ["a"], "reference_context_ids": ["a"]} for i in range(3)],
        [IDBasedContextRecall()],
        show_progress=False,
    )
    bad = MetricResult.scored("id_based_context_recall", 1.0, Evidence(kind="custom", payload=object()))
    rows = [*good.rows, SampleRow(index=3, sample_id=3, results={"id_based_context_recall": bad})]
    return EvaluationResult(rows, good.metrics)


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text("the results of last night\n", encoding="utf-8")
    with pytest.raises(ValueError, match="serialize"):
        unwritable_result().to_jsonl(path)
    assert path.read_text(encoding="utf-8") == "the results of last night\n"
    assert [p.name for p in tmp_path.iterdir()] == ["results.jsonl"]  # no temporary file left behind


def test_results_written_to_a_gz_path_are_compressed(tmp_path: Path) -> None:
    result = evaluate(
        [{"id": 1, "retrieved_context_ids": ["a"], "reference_context_ids": ["a"]}],
        [IDBasedContextRecall()],
        show_progress=False,
    )
    result.to_jsonl(tmp_path / "r.jsonl.gz")
    assert (tmp_path / "r.jsonl.gz").read_bytes()[:2] == b"\x1f\x8b"
    assert EvaluationResult.from_jsonl(tmp_path / "r.jsonl.gz").values("id_based_context_recall") == [1.0]


def test_run_details_are_recorded_and_survive_the_file(tmp_path: Path) -> None:
    from datetime import datetime, timedelta, timezone

    from ragrecall import __version__

    data = tmp_path / "data.jsonl"
    data.write_text('{"id": "a", "retrieved_context_ids": ["x"], "reference_context_ids": ["x"]}\n', encoding="utf-8")
    before = datetime.now(timezone.utc)
    result = evaluate(data, [IDBasedContextRecall(k=3)], show_progress=False)
    run = result.run
    assert run is not None and before <= run.started_at <= datetime.now(timezone.utc)
    assert run.started_at.utcoffset() == timedelta(0) and run.wall_time_s == result.wall_time_s
    assert run.ragrecall_version == __version__ and run.dataset == str(data)
    assert run.metrics == {"id_based_context_recall@3": {"class": "IDBasedContextRecall", "settings": {"k": 3}}}
    path = tmp_path / "results.jsonl"
    result.to_jsonl(path)
    # Every line is one sample's row; the first also carries the run.
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 1 and lines[0]["results"]["id_based_context_recall@3"]["value"] == 1.0
    assert lines[0]["run"]["ragrecall_version"] == __version__
    back = EvaluationResult.from_jsonl(path)
    assert back.run == run and back.wall_time_s == result.wall_time_s and back.rows == result.rows


def test_files_without_run_details_read_with_none(tmp_path: Path) -> None:
    result = evaluate(
        [{"retrieved_context_ids": ["x"], "reference_context_ids": ["x"]}],
        [IDBasedContextRecall()],
        show_progress=False,
    )
    path = tmp_path / "old.jsonl"
    path.write_text("".join(row.model_dump_json() + "\n" for row in result.rows), encoding="utf-8")
    back = EvaluationResult.from_jsonl(path)
    assert back.run is None and back.values("id_based_context_recall") == [1.0]
    # Run details that are not valid are refused, naming the line.
    row = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**row, "run": {"started_at": "yesterday"}}) + "\n", encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"old\.jsonl:1: not a result row"):
        EvaluationResult.from_jsonl(path)


def test_settings_that_json_cannot_hold_are_recorded_as_text(tmp_path: Path) -> None:
    from dataclasses import dataclass
    from typing import Any

    @dataclass(frozen=True)
    class Odd(IDBasedContextRecall):
        def settings(self) -> dict[str, Any]:
            return {"ids": {1, 2}}

    result = evaluate([{"retrieved_context_ids": ["x"], "reference_context_ids": ["x"]}], [Odd()], show_progress=False)
    assert result.run is not None and result.run.metrics["id_based_context_recall"]["settings"] == {"ids": "{1, 2}"}
    result.to_jsonl(tmp_path / "r.jsonl")
    assert EvaluationResult.from_jsonl(tmp_path / "r.jsonl").run == result.run
