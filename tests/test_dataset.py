"""Dataset loaders and writers: records, JSONL, CSV, pandas; errors name the record and field."""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest

from ragrecall import Dataset, FileFormatError, InvalidSampleError, Sample

RECORDS = [
    {"id": "q1", "reference": "Paris is the capital.", "retrieved_context_ids": [1, "d2"], "relevance": {"1": 2}},
    {"id": 2, "retrieved_contexts": ["巴黎是法国的首都。"], "reference_contexts": ["巴黎是法国的首都。"]},
]


def test_from_records_validates_each() -> None:
    data = Dataset.from_records(RECORDS)
    assert len(data) == 2
    assert isinstance(data[0], Sample) and data[1].id == 2
    assert isinstance(data[0:1], Dataset) and len(data[0:1]) == 1


def test_from_records_error_names_index_id_and_field() -> None:
    with pytest.raises(InvalidSampleError) as info:
        Dataset.from_records([RECORDS[0], {"id": "q2", "retrieved_contexts": "one passage"}])
    assert str(info.value).startswith("record 1 (id='q2'): field 'retrieved_contexts': expected a list of strings")


def test_jsonl_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    Dataset.from_records(RECORDS).to_jsonl(path)
    text = path.read_text(encoding="utf-8")
    assert "巴黎" in text  # non-ASCII written as is
    assert Dataset.from_jsonl(path) == Dataset.from_records(RECORDS)
    assert Dataset.load(path) == Dataset.from_records(RECORDS)


def test_jsonl_gz_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl.gz"
    Dataset.from_records(RECORDS).to_jsonl(path)
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        assert len(handle.readlines()) == 2
    assert Dataset.load(path) == Dataset.from_records(RECORDS)


def test_jsonl_skips_blank_lines_and_reports_line_numbers() -> None:
    stream = io.StringIO('{"id": "a", "reference": "x"}\n\n{"id": "b", "referense": "y"}\n')
    with pytest.raises(InvalidSampleError) as info:
        Dataset.from_jsonl(stream)
    assert str(info.value).startswith("line 3 of <stream> (id='b'): field 'referense': unknown field")
    assert "did you mean 'reference'" in str(info.value)


def test_jsonl_malformed_json_gives_path_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "a"}\n{"id": "b",\n', encoding="utf-8")
    with pytest.raises(FileFormatError) as info:
        Dataset.from_jsonl(path)
    assert info.value.line == 2 and str(info.value).startswith(f"{path}:2: invalid JSON")


def test_jsonl_non_object_line() -> None:
    with pytest.raises(FileFormatError, match=r"<stream>:1: expected a JSON object per line, got list"):
        Dataset.from_jsonl(io.StringIO("[1, 2]\n"))


def test_csv_with_json_cells_and_empty_cells(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_text(
        "id,reference,retrieved_context_ids,reference_context_ids,relevance\n"
        'q1,"Multi\nline reference","[""d1"", 2]","[""d1""]","{""d1"": 3}"\n'
        "q2,,,[],\n",
        encoding="utf-8",
    )
    data = Dataset.load(path)
    assert data[0].reference == "Multi\nline reference"
    assert data[0].retrieved_context_ids == ["d1", 2]
    assert data[0].relevance == {"d1": 3}
    assert data[1].reference is None and data[1].reference_context_ids == []


def test_csv_error_names_the_starting_line(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_text(
        'id,reference,retrieved_contexts\nq1,"two\nlines","[""a""]"\nq2,x,not json\n',
        encoding="utf-8",
    )
    with pytest.raises(InvalidSampleError) as info:
        Dataset.from_csv(path)
    assert info.value.field == "retrieved_contexts"
    assert str(info.value).startswith(f"line 4 of {path}: field 'retrieved_contexts': expected a JSON value")


def test_csv_wrong_type_in_json_cell(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_text('id,retrieved_context_ids\nq1,"[true]"\n', encoding="utf-8")
    with pytest.raises(InvalidSampleError, match=r"line 2 of .*\(id='q1'\): field 'retrieved_context_ids': item \[0\]"):
        Dataset.from_csv(path)


def test_load_rejects_unknown_suffix(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match=r"unknown dataset format '\.xlsx'; expected \.jsonl, \.csv, \.parquet"):
        Dataset.load(tmp_path / "x.xlsx")


def test_pandas_round_trip() -> None:
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(
        [
            {"id": "q1", "reference": "x", "retrieved_contexts": ["a"]},
            {"id": "q2", "reference": None, "retrieved_contexts": ["b", "c"]},
        ]
    )
    data = Dataset.from_pandas(frame)
    assert data[1].reference is None and data[1].retrieved_contexts == ["b", "c"]
    back = data.to_pandas()
    assert list(back["id"]) == ["q1", "q2"]


def test_pandas_numpy_list_cells() -> None:
    pd = pytest.importorskip("pandas")
    np = pytest.importorskip("numpy")
    frame = pd.DataFrame({"retrieved_contexts": [np.array(["a", "b"])], "reference": [float("nan")]})
    sample = Dataset.from_pandas(frame)[0]
    assert sample.retrieved_contexts == ["a", "b"] and sample.reference is None


def test_to_records_leaves_absent_fields_out() -> None:
    assert Dataset.from_records([{"id": "a", "reference": "x"}]).to_records() == [{"id": "a", "reference": "x"}]
    assert json.dumps(Dataset.from_records(RECORDS).to_records(), ensure_ascii=False)


def test_byte_order_marks_are_dropped(tmp_path: Path) -> None:
    csv_path, jsonl_path = tmp_path / "excel.csv", tmp_path / "bom.jsonl"
    csv_path.write_bytes("\ufeffid,reference\nq1,Paris\n".encode())
    jsonl_path.write_bytes('\ufeff{"id": "q1", "reference": "Paris"}\n'.encode())
    assert Dataset.load(csv_path)[0].id == "q1"
    assert Dataset.load(jsonl_path)[0].reference == "Paris"
    assert Dataset.from_jsonl(io.StringIO('\ufeff{"id": "s"}\n'))[0].id == "s"


def test_bytes_that_are_not_utf8_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"id": "a"}\n{"id": "caf\xe9"}\n')
    with pytest.raises(FileFormatError, match=r"latin1\.jsonl:2: not UTF-8 text"):
        Dataset.load(path)
    with pytest.raises(FileFormatError, match=r"latin1\.jsonl:2: not UTF-8 text"), path.open(encoding="utf-8") as f:
        Dataset.from_jsonl(f)
    stream = io.TextIOWrapper(io.BytesIO(path.read_bytes()), encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"^<stream>: not UTF-8 text"):
        Dataset.from_jsonl(stream)


def nested(depth: int) -> str:
    """A JSON value of ``depth`` nested arrays."""
    return "[" * depth + "]" * depth


def gz_cut_short(path: Path, text: str) -> None:
    data = gzip.compress(text.encode("utf-8"))
    path.write_bytes(data[: len(data) // 2])


@pytest.mark.parametrize("name", ["data.jsonl.gz", "data.csv.gz"])
def test_truncated_gzip_is_a_file_format_error_naming_the_file(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    rows = [{"id": f"q{i}", "reference": f"reference number {i} " * 5} for i in range(2000)]
    if name.startswith("data.jsonl"):
        text = "".join(json.dumps(r) + "\n" for r in rows)
    else:
        text = "id,reference\n" + "".join(f"{r['id']},{r['reference']}\n" for r in rows)
    gz_cut_short(path, text)
    with pytest.raises(FileFormatError, match="truncated or corrupt gzip data") as info:
        Dataset.load(path)
    assert info.value.path == str(path) and info.value.line is not None and info.value.line > 1


def test_csv_cells_over_the_csv_modules_default_limit_load(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    long_reference = "word " * 60_000  # 300 KB: the csv module refuses cells over 128 KiB by default
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["id", "reference", "retrieved_contexts"])
        writer.writerow(["q1", long_reference, json.dumps([long_reference])])
    before = csv.field_size_limit()
    data = Dataset.from_csv(path)
    assert data[0].reference == long_reference and data[0].retrieved_contexts == [long_reference]
    assert csv.field_size_limit() == before  # the process-wide setting is put back


def test_a_csv_cell_over_the_documented_limit_names_file_and_line(tmp_path: Path, monkeypatch: Any) -> None:
    from ragrecall import _files

    monkeypatch.setattr(_files, "CSV_FIELD_LIMIT", 200_000)  # stands for 64 MiB, which is slow to build
    before = csv.field_size_limit()
    path = tmp_path / "data.csv"
    path.write_text("id,reference\nq1,short\nq2," + "x" * 300_000 + "\n", encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"data\.csv:3: a CSV cell is longer than 64 MiB"):
        Dataset.from_csv(path)
    assert csv.field_size_limit() == before


def test_json_nested_beyond_the_documented_depth_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    ok = {"id": "q1", "reference": "r", "metadata": {"deep": json.loads(nested(62))}}  # 64 levels in all
    path.write_text(json.dumps(ok) + "\n", encoding="utf-8")
    assert Dataset.from_jsonl(path)[0].id == "q1"
    for depth in (63, 100_000):  # one level too many; far more than Python's recursion limit
        path.write_text(
            json.dumps(ok) + "\n" + '{"id": "q2", "metadata": {"deep": ' + nested(depth) + "}}\n", encoding="utf-8"
        )
        with pytest.raises(FileFormatError, match=r"data\.jsonl:2: JSON nested deeper than 64 levels"):
            Dataset.from_jsonl(path)
    csv_path = tmp_path / "data.csv"
    csv_path.write_text('id,metadata\nq1,"{""a"": ' + nested(100_000) + '}"\n', encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"data\.csv:2: JSON nested deeper than 64 levels"):
        Dataset.from_csv(csv_path)


def test_a_quoted_csv_cell_keeps_its_line_breaks_and_an_unquoted_one_is_named(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_bytes(
        b'id,reference,retrieved_contexts\nq1,"Paris is\nin France.","[""a""]"\r\nq2,"Rome\r\nis old.",[]\n'
    )
    assert [s.reference for s in Dataset.load(path)] == ["Paris is\nin France.", "Rome\r\nis old."]
    path.write_text('id,reference,retrieved_contexts\nq1,Paris is\nin France.,"[""a""]"\n', encoding="utf-8")
    with pytest.raises(FileFormatError) as info:
        Dataset.load(path)
    assert str(info.value) == (
        f"{path}:2: 2 cells for 3 header columns; a line break in a cell ends the record unless the cell is quoted "
        '("...")'
    )
    path.write_text("id,reference\nq1,Paris,extra\n", encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"data.csv:2: more cells than header columns"):
        Dataset.load(path)
