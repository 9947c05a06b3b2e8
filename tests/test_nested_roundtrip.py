"""Lists and graded relevance survive every table format users keep samples in: the same samples as JSONL.

Arrow stores a mapping as a struct (every row gets every key, None where it had none) or a map (a list of
key-value pairs); pandas gives numpy arrays for lists; ``pd.read_csv`` gives text. Each is undone on reading.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragrecall import Dataset, IDBasedContextRecall, NonLLMContextRecall, RankingMetric, demo_dataset, evaluate

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
datasets = pytest.importorskip("datasets")
datasets.disable_progress_bars()

# Text that pd.read_csv keeps as text: never empty, never a number or one of its NA spellings.
TEXT = st.from_regex(r"t[a-z ,'\"]{0,12}", fullmatch=True)
DOC = st.from_regex(r"d[0-9]{1,2}", fullmatch=True)


@st.composite
def samples(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(1, 4))
    out = []
    for i in range(count):
        record: dict[str, Any] = {"id": f"q{i}"}
        for field in ("user_input", "response", "reference"):
            if draw(st.booleans()):
                record[field] = draw(TEXT)
        for field in ("retrieved_contexts", "reference_contexts"):
            if draw(st.booleans()):
                record[field] = draw(st.lists(TEXT, max_size=3))
        for field in ("retrieved_context_ids", "reference_context_ids"):
            if draw(st.booleans()):
                record[field] = draw(st.lists(DOC, max_size=4))
        if draw(st.booleans()):
            record["relevance"] = draw(st.dictionaries(DOC, st.integers(0, 3), min_size=1, max_size=3))
        record["metadata"] = draw(st.dictionaries(st.sampled_from(["category", "source"]), TEXT, max_size=2))
        out.append(record)
    return out


def jsonl(data: Dataset, folder: Path) -> Dataset:
    data.to_jsonl(folder / "d.jsonl")
    return Dataset.load(folder / "d.jsonl")


def parquet_from_pandas(data: Dataset, folder: Path) -> Dataset:
    data.to_pandas().to_parquet(folder / "p.parquet")
    return Dataset.load(folder / "p.parquet")


def parquet_read_by_pandas(data: Dataset, folder: Path) -> Dataset:
    data.to_pandas().to_parquet(folder / "p.parquet")
    return Dataset(pd.read_parquet(folder / "p.parquet"))


def arrow_table(data: Dataset) -> Any:
    """The records as an Arrow table; a list column with no element anywhere is typed as strings, as its
    writer would (Parquet stores a list of Arrow's null type as nothing at all: ``[]`` would read back None)."""
    columns = data.columns()
    table = pa.Table.from_pylist([{c: r.get(c) for c in columns} for r in data.to_records()])
    for i, column in enumerate(table.columns):
        if pa.types.is_list(column.type) and pa.types.is_null(column.type.value_type):
            table = table.set_column(i, table.column_names[i], column.cast(pa.list_(pa.string())))
    return table


def arrow_structs(data: Dataset, folder: Path) -> Dataset:
    pq.write_table(arrow_table(data), folder / "s.parquet")
    return Dataset.load(folder / "s.parquet")


def arrow_maps(data: Dataset, folder: Path) -> Dataset:
    table = arrow_table(data)
    if "relevance" in table.column_names:
        grades = [None if r is None else list(r.items()) for r in table.column("relevance").to_pylist()]
        grades = [None if g is None else [(k, v) for k, v in g if v is not None] for g in grades]
        column = pa.array(grades, type=pa.map_(pa.string(), pa.int64()))
        table = table.set_column(table.column_names.index("relevance"), "relevance", column)
    pq.write_table(table, folder / "m.parquet")
    return Dataset.load(folder / "m.parquet")


def hf_dataset(data: Dataset, folder: Path) -> Dataset:
    return Dataset(data.to_hf_dataset())


def hf_save_to_disk(data: Dataset, folder: Path) -> Dataset:
    data.to_hf_dataset().save_to_disk(str(folder / "hf"))
    return Dataset.load(folder / "hf")


def hf_to_pandas(data: Dataset, folder: Path) -> Dataset:
    return Dataset(data.to_hf_dataset().to_pandas())


def pandas_read_csv(data: Dataset, folder: Path) -> Dataset:
    data.to_pandas().to_csv(folder / "f.csv", index=False)
    return Dataset(pd.read_csv(folder / "f.csv"))


def hf_from_pandas_read_csv(data: Dataset, folder: Path) -> Dataset:
    data.to_pandas().to_csv(folder / "f.csv", index=False)
    return Dataset(datasets.Dataset.from_pandas(pd.read_csv(folder / "f.csv")))


def csv_file(data: Dataset, folder: Path) -> Dataset:
    data.to_csv(folder / "c.csv")
    return Dataset.load(folder / "c.csv")


FORMATS: list[Callable[[Dataset, Path], Dataset]] = [
    jsonl,
    parquet_from_pandas,
    parquet_read_by_pandas,
    arrow_structs,
    arrow_maps,
    hf_dataset,
    hf_save_to_disk,
    hf_to_pandas,
    pandas_read_csv,
    hf_from_pandas_read_csv,
    csv_file,
]


@pytest.mark.parametrize("through", FORMATS, ids=lambda f: f.__name__)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(records=samples())
def test_every_format_gives_the_samples_back(
    through: Callable[[Dataset, Path], Dataset], records: list[dict[str, Any]], tmp_path_factory: Any
) -> None:
    data = Dataset(records)
    assert through(data, tmp_path_factory.mktemp(through.__name__)) == data


def test_a_struct_with_other_rows_keys_and_float_grades_reads_as_the_rows_grades() -> None:
    frame = pd.DataFrame({"relevance": [{"d1": 2.0, "d2": None}, {"d1": None, "d2": 0.0}]})
    assert [s.relevance for s in Dataset(frame)] == [{"d1": 2}, {"d2": 0}]
    with pytest.raises(ValueError, match="integer grade"):
        Dataset(pd.DataFrame({"relevance": [{"d1": 1.5}]}))  # not a grade: named, never rounded


@pytest.mark.parametrize("through", [parquet_from_pandas, hf_dataset, hf_save_to_disk, pandas_read_csv])
def test_the_demo_through_parquet_and_hugging_face_gives_the_jsonl_values(
    through: Callable[[Dataset, Path], Dataset], tmp_path: Path
) -> None:
    metrics = [IDBasedContextRecall(), NonLLMContextRecall(), RankingMetric("nDCG@10")]
    demo = demo_dataset()
    assert any(s.relevance for s in demo)
    expected = evaluate(jsonl(demo, tmp_path), metrics, show_progress=False)
    got = evaluate(through(demo, tmp_path), metrics, show_progress=False)
    assert not got.failures
    for name in expected.metrics:
        assert got.values(name) == expected.values(name), name
