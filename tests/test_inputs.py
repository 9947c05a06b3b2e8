"""Data in and out: DataFrames, Hugging Face datasets, CSV written by pandas, column maps, and what is refused."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from ragrecall import (
    ConfigurationError,
    Dataset,
    EvaluationDataset,
    IDBasedContextRecall,
    InvalidSampleError,
    NonLLMContextRecall,
    Sample,
    evaluate,
)

pd = pytest.importorskip("pandas")

ROWS: list[dict[str, Any]] = [
    {
        "id": "q1",
        "user_input": "Where is the tower?",
        "reference": "It is in Paris.",
        "retrieved_contexts": ["The tower is in Paris.", 'It\'s 330 m tall, "iron".'],
        "reference_contexts": ["The tower is in Paris."],
        "retrieved_context_ids": ["d1", "d2"],
        "reference_context_ids": ["d1", "d9"],
    },
    {
        "id": "q2",
        "user_input": "When did the wall fall?",
        "retrieved_contexts": [],
        "reference_contexts": ["It fell in 1989."],
        "retrieved_context_ids": [],
        "reference_context_ids": ["d4"],
    },
]
METRICS = [IDBasedContextRecall(), NonLLMContextRecall()]


def scores(data: Any, **kwargs: Any) -> dict[str, list[float]]:
    result = evaluate(data, METRICS, show_progress=False, **kwargs)
    assert not result.failures, result.failures
    return {m: result[m] for m in result.metrics}


EXPECTED = {"id_based_context_recall": [0.5, 0.0], "non_llm_context_recall": [1.0, 0.0]}


def test_evaluate_takes_a_dataframe_as_given() -> None:
    frame = pd.DataFrame(ROWS)  # q2 has no reference: a NaN cell, which means absent
    assert math.isnan(frame.loc[1, "reference"])
    assert scores(frame) == EXPECTED
    assert Dataset(frame) == Dataset(ROWS) == Dataset.from_pandas(frame)


def test_a_bad_row_of_a_frame_fails_alone_naming_the_sample() -> None:
    frame = pd.DataFrame([ROWS[0], {**ROWS[1], "retrieved_context_ids": "d4"}])
    result = evaluate(frame, [IDBasedContextRecall()], show_progress=False)
    assert result["id_based_context_recall"][0] == 0.5
    [failure] = result.failures
    assert failure.index == 1 and failure.sample_id == "q2" and "retrieved_context_ids" in failure.message


def test_pandas_string_columns_with_na_mean_absent() -> None:
    frame = pd.DataFrame(ROWS).astype({"reference": "string", "user_input": "string"})
    assert frame.loc[1, "reference"] is pd.NA
    assert Dataset(frame) == Dataset(ROWS)


def test_evaluate_takes_a_hugging_face_dataset() -> None:
    datasets = pytest.importorskip("datasets")
    hf = datasets.Dataset.from_list(ROWS)  # columns are unified: q2's reference is None
    assert hf[1]["reference"] is None
    assert scores(hf) == EXPECTED
    assert Dataset(hf) == Dataset(ROWS) == EvaluationDataset.from_hf_dataset(hf)
    with pytest.raises(TypeError, match=r"DatasetDict of splits \('train'\): pass one split, e\.g\. data\['train'\]"):
        evaluate(datasets.DatasetDict({"train": hf}), METRICS, show_progress=False)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (Sample(reference="x"), r"the dataset is one Sample, not a collection of them: wrap it in a list"),
        ({"reference": "x"}, r"the dataset is one mapping, not a collection of records: wrap it in a list"),
        ({"reference": ["x", "y"]}, r"the dataset is a mapping of columns: pass pandas\.DataFrame\(columns\)"),
        (42, r"the dataset is a int; pass a list of Samples or dicts, a Dataset, a pandas DataFrame"),
        (["what is x?"], r"item 0 of the dataset is a str \('what is x\?'\), not a Sample or a mapping of fields"),
        ([ROWS[0], ("id", "q2")], r"item 1 of the dataset is a tuple"),
    ],
)
def test_anything_else_is_a_type_error_naming_what_to_pass(data: Any, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        evaluate(data, METRICS, show_progress=False)
    with pytest.raises(TypeError, match=message.replace("dataset", "dataset")):
        Dataset(data)


def test_dataset_of_a_path_says_to_load_it() -> None:
    with pytest.raises(TypeError, match=r"the dataset is a str; .*Dataset\.load\(path\)"):
        Dataset("data.jsonl")


def test_a_frame_iterated_by_mistake_is_no_longer_all_failed() -> None:
    # The reported case: list(frame) is its column names; each was a failed sample, and the run "succeeded".
    with pytest.raises(TypeError, match=r"item 0 of the dataset is a str \('id'\)"):
        evaluate(list(pd.DataFrame(ROWS)), METRICS, show_progress=False)


def test_csv_written_by_pandas_loads(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    pd.DataFrame(ROWS).to_csv(path)  # index column with an empty header, lists as Python literals
    text = path.read_text(encoding="utf-8")
    assert text.startswith(",id,user_input,") and "['d1', 'd9']" in text
    assert Dataset.load(path) == Dataset(ROWS)
    assert scores(path) == EXPECTED


def test_dataset_to_csv_round_trips_and_never_half_writes(tmp_path: Path) -> None:
    data = Dataset(ROWS)
    path = tmp_path / "out.csv"
    data.to_csv(path)
    header = path.read_text(encoding="utf-8").splitlines()[0]
    assert (
        header
        == "id,user_input,retrieved_contexts,reference_contexts,retrieved_context_ids,reference_context_ids,reference"
    )
    assert Dataset.from_csv(path) == data
    assert json.loads(pd.read_csv(path).loc[0, "retrieved_contexts"]) == ROWS[0]["retrieved_contexts"]


def test_a_cell_that_is_neither_json_nor_a_literal_names_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("id,retrieved_contexts\nq1,\"['a', os.system('x')]\"\n", encoding="utf-8")
    with pytest.raises(InvalidSampleError, match=r"line 2 of .*: field 'retrieved_contexts': expected a JSON value"):
        Dataset.load(path)


RENAMED = [
    {
        "qid": r["id"],
        "question": r["user_input"],
        "docs": r["retrieved_context_ids"],
        "gold": r["reference_context_ids"],
    }
    for r in ROWS
]


@pytest.mark.parametrize(
    "column_map",
    [
        {"qid": "id", "question": "user_input", "docs": "retrieved_context_ids", "gold": "reference_context_ids"},
        # Ragas's direction, field -> column, reads the same.
        {"id": "qid", "user_input": "question", "retrieved_context_ids": "docs", "reference_context_ids": "gold"},
    ],
)
def test_column_map_renames_columns_either_way_round(column_map: dict[str, str], tmp_path: Path) -> None:
    result = evaluate(RENAMED, [IDBasedContextRecall()], column_map=column_map, show_progress=False)
    assert result["id_based_context_recall"] == [0.5, 0.0] and [r.sample_id for r in result] == ["q1", "q2"]
    assert Dataset(pd.DataFrame(RENAMED), column_map=column_map)[0].user_input == "Where is the tower?"
    path = tmp_path / "renamed.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in RENAMED), encoding="utf-8")
    assert evaluate(path, [IDBasedContextRecall()], column_map=column_map, show_progress=False)[
        "id_based_context_recall"
    ] == [0.5, 0.0]


def test_a_column_map_naming_no_field_is_refused() -> None:
    with pytest.raises(ConfigurationError, match=r"column_map 'question': 'query' names no Sample field"):
        Dataset(RENAMED, column_map={"question": "query"})
    with pytest.raises(ConfigurationError, match=r"maps two columns onto the field 'user_input'"):
        Dataset(RENAMED, column_map={"question": "user_input", "qid": "user_input"})


def test_parquet_and_hugging_face_folders_load(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    datasets = pytest.importorskip("datasets")
    pd.DataFrame(ROWS).to_parquet(tmp_path / "data.parquet")
    assert Dataset.load(tmp_path / "data.parquet") == Dataset(ROWS)
    datasets.Dataset.from_list(ROWS).save_to_disk(str(tmp_path / "hf"))
    assert Dataset.load(tmp_path / "hf") == Dataset(ROWS)


def test_a_damaged_parquet_file_is_a_file_format_error(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    from ragrecall import FileFormatError

    (tmp_path / "bad.parquet").write_text("not parquet", encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"bad\.parquet: not a readable Parquet file"):
        Dataset.load(tmp_path / "bad.parquet")
    with pytest.raises(FileNotFoundError):
        Dataset.load(tmp_path / "missing.parquet")


def test_result_to_pandas_puts_the_inputs_beside_the_scores() -> None:
    result = evaluate(ROWS, METRICS, show_progress=False)
    inputs = ["id", "user_input", "retrieved_contexts", "reference_contexts", "retrieved_context_ids"]
    inputs += ["reference_context_ids", "reference"]  # Ragas's field order
    assert list(result.to_pandas().columns) == [*inputs, "id_based_context_recall", "non_llm_context_recall"]
    frame = result.to_pandas(details=True)
    assert list(frame.columns) == ["index", "sample_id", *inputs] + [
        f"{m}{suffix}"
        for m in ("id_based_context_recall", "non_llm_context_recall")
        for suffix in ("", ":status", ":detail")
    ]
    assert pd.isna(frame.loc[1, "reference"]) and frame.loc[0, "retrieved_context_ids"] == ["d1", "d2"]
    assert "user_input" not in result.to_pandas(inputs=False).columns
    with pytest.raises(TypeError, match=r"index a result by metric name"):
        result[0]  # type: ignore[index]
