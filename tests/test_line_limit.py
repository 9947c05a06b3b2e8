"""Every reader refuses a line longer than the limit ($RAGRECALL_MAX_LINE, 64 MiB by default) with a
FileFormatError naming the file and the line: datasets (JSONL, CSV, gzip), TREC judgments and runs (both
engines, a path, a pipe, standard input, a stream); batch result lines become faults of their request."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ragrecall import Dataset, FileFormatError
from ragrecall.batch._lines import read_result_text
from ragrecall.errors import InputError
from ragrecall.ranking import read_qrels, read_run

LIMIT = 4096
LONG = "x" * (3 * LIMIT)


@pytest.fixture(autouse=True)
def small_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGRECALL_MAX_LINE", str(LIMIT))


def jsonl(path: Path, long_at: int) -> Path:
    rows = [{"reference": f"Fact {i}.", "retrieved_contexts": ["c"]} for i in range(5)]
    rows[long_at - 1]["reference"] = LONG
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_long_jsonl_or_gzip_line_is_refused_naming_file_and_line(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "data.jsonl", 4)
    with pytest.raises(FileFormatError, match=r"data\.jsonl:4: a line longer than 4,096 bytes"):
        Dataset.from_jsonl(path)
    packed = tmp_path / "data.jsonl.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    with pytest.raises(FileFormatError, match=r"data\.jsonl\.gz:4: a line longer"):
        Dataset.from_jsonl(packed)
    short = jsonl(tmp_path / "ok.jsonl", 4)
    short.write_text(short.read_text().replace(LONG, "x" * (LIMIT - 100)))
    assert len(Dataset.from_jsonl(short)) == 5  # a line within the limit is read


def test_a_long_csv_line_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "data.csv"
    path.write_text(f'reference,retrieved_contexts\nA.,"[""c""]"\n{LONG},"[""c""]"\n', encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"data\.csv:3: a line longer"):
        Dataset.from_csv(path)


def trec_files(tmp_path: Path) -> tuple[Path, Path]:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{i} 0 d{i} 1\n" for i in range(300)) + f"q9 0 {LONG} 1\nq10 0 d1 1\n")
    run = tmp_path / "run.txt"
    run.write_text("".join(f"q{i} Q0 d{i} 1 1.0 r\n" for i in range(300)) + f"q9 Q0 {LONG} 2 0.5 r\n")
    return qrels, run


@pytest.mark.parametrize("engine", ["arrow", "plain"])
def test_long_trec_lines_are_refused_by_both_engines(tmp_path: Path, engine: str) -> None:
    qrels, run = trec_files(tmp_path)
    with pytest.raises(FileFormatError, match=r"qrels\.txt:301: a line longer"):
        read_qrels(qrels, engine=engine)  # type: ignore[arg-type]
    with pytest.raises(FileFormatError, match=r"run\.txt:301: a line longer"):
        read_run(run, engine=engine)  # type: ignore[arg-type]


def test_a_long_trec_line_in_a_stream_is_refused(tmp_path: Path) -> None:
    qrels, run = trec_files(tmp_path)
    with pytest.raises(FileFormatError, match=r"<stream>:301: a line longer"):
        read_qrels(io.BytesIO(qrels.read_bytes()))
    with pytest.raises(FileFormatError, match=r":301: a line longer"):
        read_run(io.StringIO(run.read_text()))


def test_a_long_line_on_standard_input_stops_the_command_naming_it(tmp_path: Path) -> None:
    qrels, run = trec_files(tmp_path)
    env = {**os.environ, "RAGRECALL_MAX_LINE": str(LIMIT)}
    done = subprocess.run(
        [sys.executable, "-m", "ragrecall.cli", "trec", "-", str(run)],
        input=qrels.read_bytes(),
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.decode().strip() == (
        "ragrecall: error: <stdin>:301: a line longer than 4,096 bytes, the most ragrecall reads "
        "(set RAGRECALL_MAX_LINE to change it)"
    )


def test_a_long_batch_result_line_is_a_fault_of_its_request() -> None:
    answer = {"custom_id": "a", "response": {"status_code": 200, "body": {"choices": []}}}
    long = {"custom_id": "b", "response": {"status_code": 200, "body": {"pad": LONG}}}
    lines = read_result_text(f"{json.dumps(answer)}\n{json.dumps(long)}\n", source="out.jsonl")
    assert lines.outcomes["a"].body is not None
    error = lines.outcomes["b"].error
    assert error is not None and error.startswith("out.jsonl:2: ") and "longer than 4,096 bytes" in error


def test_the_limit_must_be_a_whole_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGRECALL_MAX_LINE", "lots")
    with pytest.raises(InputError, match="RAGRECALL_MAX_LINE must be a whole number"):
        Dataset.from_jsonl(jsonl(tmp_path / "data.jsonl", 1))
