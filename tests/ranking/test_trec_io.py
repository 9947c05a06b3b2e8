"""TREC readers and writers: round trips, gzip, file objects, line-numbered errors, both engines."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from ragrecall import ConfigurationError, FileFormatError, InputError
from ragrecall.ranking import evaluate_run, read_qrels, read_run, write_qrels, write_run
from ragrecall.ranking._vocab import arrow

ENGINES = ["plain", pytest.param("arrow", marks=pytest.mark.skipif(arrow() is None, reason="needs pyarrow"))]

RUN_TEXT = "1 Q0 d1 1 2.5 t\n1 Q0 007 2 1.0 t\n\n2 Q0 NA 1 3 t\n"
QRELS_TEXT = "1 0 d1 1\n1 0 007 2\n2 0 NA 0\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_reads_ids_as_strings(tmp_path: Path, engine: str) -> None:
    (tmp_path / "run").write_text(RUN_TEXT)
    (tmp_path / "qrels").write_text(QRELS_TEXT)
    run = read_run(tmp_path / "run", engine=engine)  # type: ignore[arg-type]
    qrels = read_qrels(tmp_path / "qrels", engine=engine)  # type: ignore[arg-type]
    assert run.to_dict() == {"1": {"d1": 2.5, "007": 1.0}, "2": {"NA": 3.0}}  # "007" and "NA" stay strings
    assert qrels.to_dict() == {"1": {"d1": 1, "007": 2}, "2": {"NA": 0}}


@pytest.mark.parametrize("engine", ENGINES)
def test_gzip_and_file_objects(tmp_path: Path, engine: str) -> None:
    with gzip.open(tmp_path / "run.gz", "wt") as out:
        out.write(RUN_TEXT)
    assert read_run(tmp_path / "run.gz", engine=engine).to_dict()["2"] == {"NA": 3.0}  # type: ignore[arg-type]
    assert read_run(io.StringIO(RUN_TEXT)).to_dict()["1"]["007"] == 1.0
    assert read_run(io.BytesIO(RUN_TEXT.encode())).to_dict()["1"]["d1"] == 2.5


@pytest.mark.parametrize("engine", ["auto", "plain"])
@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("1 Q0 a 1 1.0 t\n1 Q0 b 2 x t\n", 2, "not a number"),
        ("1 Q0 a 1 1.0 t\n\n1 Q0 b 2 0.5\n", 3, "expected at least 6 fields"),
        ("1 Q0 a 1 nan t\n", 1, "NaN"),
    ],
)
def test_malformed_run_lines_report_path_and_line(
    tmp_path: Path, engine: str, text: str, line: int, fragment: str
) -> None:
    path = tmp_path / "bad.run"
    path.write_text(text)
    with pytest.raises(FileFormatError) as info:
        read_run(path, engine=engine)  # type: ignore[arg-type]
    assert info.value.line == line and info.value.path == str(path) and fragment in str(info.value)
    assert f"{path}:{line}" in str(info.value)


def test_malformed_qrels_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.qrels"
    path.write_text("1 0 a 1\n1 0 b high\n")
    with pytest.raises(FileFormatError) as info:
        read_qrels(path)
    assert info.value.line == 2 and "not an integer" in str(info.value)


def test_mixed_whitespace_is_read_by_the_fallback(tmp_path: Path) -> None:
    path = tmp_path / "run"
    path.write_text("1  Q0\td1 1 2.0 t\n1 Q0 d2 2 1.0 t \n")
    assert read_run(path).to_dict() == {"1": {"d1": 2.0, "d2": 1.0}}


def test_write_then_read_round_trip_in_trec_eval_order(tmp_path: Path) -> None:
    run = {"b": {"x": 1.0, "z": 2.0, "y": 2.0}, "a": {"w": 0.1}}
    write_run(run, tmp_path / "out.run.gz", tag="sys")
    with gzip.open(tmp_path / "out.run.gz", "rt") as handle:
        lines = handle.read().splitlines()
    assert lines == ["a Q0 w 1 0.1 sys", "b Q0 z 1 2.0 sys", "b Q0 y 2 2.0 sys", "b Q0 x 3 1.0 sys"]
    assert read_run(tmp_path / "out.run.gz").to_dict() == {"a": {"w": 0.1}, "b": {"z": 2.0, "y": 2.0, "x": 1.0}}
    qrels = {"q1": {"d": 2, "e": 0}}
    write_qrels(qrels, tmp_path / "q")
    assert read_qrels(tmp_path / "q").to_dict() == qrels


def test_rank_column_is_never_read(tmp_path: Path) -> None:
    path = tmp_path / "run"
    path.write_text("1 Q0 a 1 1.0 t\n1 Q0 b 2 3.0 t\n")  # ranks say a first; scores say b first
    result = evaluate_run({"1": {"b": 1}}, path, ["RR"])
    assert result["RR"] == 1.0


@pytest.mark.parametrize("engine", ENGINES)
def test_duplicate_document_in_a_run_file_is_an_error(tmp_path: Path, engine: str) -> None:
    path = tmp_path / "run"
    path.write_text("1 Q0 a 1 3.0 t\n1 Q0 b 2 2.0 t\n1 Q0 a 3 1.0 t\n")
    with pytest.raises(InputError, match="'a' twice for query '1'"):
        evaluate_run({"1": {"a": 1}}, read_run(path, engine=engine), ["AP"])  # type: ignore[arg-type]


def test_duplicate_judgment_is_an_error_for_an_evaluated_query_only(tmp_path: Path) -> None:
    path = tmp_path / "qrels"
    path.write_text("1 0 a 1\n1 0 a 2\n2 0 b 1\n9 0 z 1\n9 0 z 0\n")
    with pytest.raises(InputError, match="document 'a' twice for query '1'"):
        evaluate_run(path, {"1": {"a": 1.0}}, ["AP"])
    path.write_text("2 0 b 1\n9 0 z 1\n9 0 z 0\n")
    # Query 9 is not run: skipped, its repeat is never looked at (trec_eval checks the queries it
    # evaluates only) ...
    assert evaluate_run(path, {"2": {"b": 1.0}}, ["AP"])["AP"] == 1.0
    # ... unless absent queries are counted as zero.
    with pytest.raises(InputError, match="document 'z' twice for query '9'"):
        evaluate_run(path, {"2": {"b": 1.0}}, ["AP"], missing="zero")


def cut_gzip(path: Path, text: str) -> None:
    data = gzip.compress(text.encode("utf-8"))
    path.write_bytes(data[: len(data) // 2])


BIG_RUN = "".join(f"q{i // 100} Q0 d{i} {i % 100 + 1} {1.0 / (i + 1)!r} t\n" for i in range(20_000))
BIG_QRELS = "".join(f"q{i // 100} 0 d{i} {i % 3}\n" for i in range(20_000))


@pytest.mark.parametrize("engine", ["auto", *ENGINES])
def test_truncated_gzip_is_a_file_format_error_naming_the_file(tmp_path: Path, engine: str) -> None:
    run, qrels = tmp_path / "run.gz", tmp_path / "qrels.gz"
    cut_gzip(run, BIG_RUN)
    cut_gzip(qrels, BIG_QRELS)
    for reader, path in ((read_run, run), (read_qrels, qrels)):
        with pytest.raises(FileFormatError, match="truncated or corrupt gzip data") as info:
            reader(path, engine=engine)  # type: ignore[operator]
        assert info.value.path == str(path) and info.value.line is not None and info.value.line > 1
    tiny = tmp_path / "tiny.gz"
    tiny.write_bytes(gzip.compress(b"1 Q0 d1 1 2.5 t\n")[:12])  # cut inside the first line
    with pytest.raises(FileFormatError, match=r"tiny\.gz:1: truncated or corrupt gzip data"):
        read_run(tiny, engine=engine)  # type: ignore[arg-type]


def test_a_truncated_gzip_run_is_reported_by_evaluate_run(tmp_path: Path) -> None:
    run = tmp_path / "run.gz"
    cut_gzip(run, BIG_RUN)
    with pytest.raises(FileFormatError, match=r"run\.gz:\d+: truncated or corrupt gzip data"):
        evaluate_run({"q1": {"d100": 1}}, run, ["AP"])


def test_corrupt_gzip_is_a_file_format_error(tmp_path: Path) -> None:
    data = bytearray(gzip.compress(BIG_RUN.encode("utf-8")))
    data[-8] ^= 0xFF  # the CRC of the content: every byte reads, the check at the end fails
    path = tmp_path / "run.gz"
    path.write_bytes(bytes(data))
    with pytest.raises(FileFormatError, match=r"run\.gz:\d+: truncated or corrupt gzip data"):
        evaluate_run({"q1": {"d100": 1}}, path, ["AP"])


def test_writers_replace_the_file_whole(tmp_path: Path) -> None:
    path = tmp_path / "out.run"
    path.write_text("old\n")
    with pytest.raises(ConfigurationError):
        write_run({"a": {"w": 0.1}}, path, tag="two words")
    assert path.read_text() == "old\n"
    write_run({"a": {"w": 0.1}}, path, tag="sys")
    assert path.read_text() == "a Q0 w 1 0.1 sys\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.run"]
