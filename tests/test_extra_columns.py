"""Columns that are not Sample fields are data: kept in metadata, carried to results, tables and files."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from ragrecall import (
    Dataset,
    EvaluationResult,
    IDBasedContextRecall,
    InvalidSampleError,
    NonLLMContextRecall,
    evaluate,
)
from ragrecall.cli import main

pd = pytest.importorskip("pandas")

ROWS: list[dict[str, Any]] = [
    {
        "user_input": f"question {i}?",
        "retrieved_contexts": [f"passage {i}", "other"],
        "reference_contexts": [f"passage {i}"],
        "retrieved_context_ids": [f"d{i}"],
        "reference_context_ids": [f"d{i}", "dx"] if i % 2 else [f"d{i}"],
        "category": "books" if i % 3 else "films",
        "difficulty": i % 4,
        "references": f"note {i}",  # one edit from a field: needs the map
    }
    for i in range(12)
]
METRICS = [IDBasedContextRecall(), NonLLMContextRecall()]


def test_a_frame_with_extra_columns_scores_every_sample_and_keeps_them() -> None:
    frame = pd.DataFrame(ROWS)
    with pytest.raises(InvalidSampleError, match=r"all 12 samples are invalid") as info:
        evaluate(frame, METRICS, show_progress=False)  # "references" looks like a typo of "reference"
    assert info.value.field == "references" and "did you mean 'reference'" in str(info.value)

    result = evaluate(frame, METRICS, column_map={"references": "metadata"}, show_progress=False)
    assert not result.failures and len(result) == 12
    assert result["id_based_context_recall"] == [0.5 if i % 2 else 1.0 for i in range(12)]
    assert result.rows[4].sample is not None
    assert result.rows[4].sample.metadata == {"references": "note 4", "category": "books", "difficulty": 0}
    out = result.to_pandas()
    assert list(out["category"]) == list(frame["category"]) and list(out["difficulty"]) == list(frame["difficulty"])
    assert list(out.columns[-2:]) == ["id_based_context_recall", "non_llm_context_recall"]
    # Grouping by a kept column works as on the user's own frame.
    means = out.groupby("category")["id_based_context_recall"].mean()
    assert means["films"] == pytest.approx(sum(0.5 if i % 2 else 1.0 for i in (0, 3, 6, 9)) / 4)


def test_metadata_travels_to_csv_jsonl_and_back() -> None:
    result = evaluate(ROWS, METRICS, column_map={"references": "metadata"}, show_progress=False)
    text = io.StringIO()
    result.to_csv(text)
    header, first = text.getvalue().splitlines()[:2]
    assert header.startswith("index,sample_id,references,category,difficulty,id_based_context_recall,")
    assert first.startswith("0,,note 0,films,0,1.0,scored")
    lines = io.StringIO()
    result.to_jsonl(lines)
    back = EvaluationResult.from_jsonl(io.StringIO(lines.getvalue()))
    assert [r.sample.metadata for r in back.rows if r.sample] == [r.sample.metadata for r in result.rows if r.sample]


def test_a_metadata_key_named_like_a_result_column_is_prefixed() -> None:
    rows = [{**ROWS[0], "references": "x", "index": 7, "sample_id": "s"}]
    result = evaluate(rows, METRICS, column_map={"references": "metadata"}, show_progress=False)
    assert result.metadata_columns == {
        "references": "references",
        "category": "category",
        "difficulty": "difficulty",
        "index": "metadata.index",
        "sample_id": "metadata.sample_id",
    }
    assert result.to_records()[0]["metadata.index"] == 7 and result.to_records()[0]["index"] == 0


def test_dataset_to_pandas_gives_the_extra_columns_back() -> None:
    frame = pd.DataFrame(ROWS)
    data = Dataset(frame, column_map={"references": "metadata"})
    back = data.to_pandas()
    assert sorted(back.columns) == sorted(frame.columns)
    assert Dataset(back, column_map={"references": "metadata"}) == data


def test_one_invalid_sample_among_valid_ones_is_that_samples_failure() -> None:
    rows = [dict(r) for r in ROWS[:3]]
    for r in rows:
        r.pop("references")
    rows[1]["reference_contexts"] = "not a list"
    result = evaluate(rows, METRICS, show_progress=False)
    # Only the metric that reads the field fails; ID recall never reads reference_contexts and scores sample 1.
    assert [(f.index, f.metric) for f in result.failures] == [(1, "non_llm_context_recall")]
    assert result.rows[1].results["id_based_context_recall"].status == "scored"
    assert "wrap a single passage in a list" in result.failures[0].message


def test_the_command_line_maps_a_column_to_metadata(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, out = tmp_path / "data.jsonl", tmp_path / "out.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    code = main(["eval", str(data), "-m", "id_based_context_recall", "--no-progress", "--out", str(out)])
    err = capsys.readouterr().err
    assert code != 0 and "field 'references': unknown field; did you mean 'reference'?" in err
    mapped = ["--map", "references=metadata", "--no-progress", "--out", str(out)]
    code = main(["eval", str(data), "-m", "id_based_context_recall", *mapped])
    assert code == 0, capsys.readouterr().err
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert first["sample"]["metadata"] == {"references": "note 0", "category": "films", "difficulty": 0}
