"""Results files that are no run are refused in one line: a sample recorded twice (naming both lines), an empty
file; and two runs that share no sample are not compared."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragrecall import evaluate
from ragrecall.cli import main
from ragrecall.errors import FileFormatError, InputError
from ragrecall.evaluation import EvaluationResult, compare
from ragrecall.metrics import IDBasedContextRecall
from ragrecall.report import write_report_from_jsonl


def run_file(tmp_path: Path, name: str, ids: list[str]) -> Path:
    data = [{"id": i, "reference_context_ids": ["a"], "retrieved_context_ids": ["a"]} for i in ids]
    path = tmp_path / name
    evaluate(data, [IDBasedContextRecall()], show_progress=False).to_jsonl(path)
    return path


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith("ragrecall: error: "), err
    return err


def test_a_sample_recorded_twice_is_refused_naming_both_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = run_file(tmp_path, "run.jsonl", ["q0", "q1", "q2"])
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([*lines, lines[1]]) + "\n", encoding="utf-8")  # q1 appended again
    with pytest.raises(FileFormatError, match=r"run.jsonl:4: sample 1 \(id='q1'\) is recorded on line 2 and again"):
        EvaluationResult.from_jsonl(path)
    with pytest.raises(FileFormatError, match="on line 2 and again on line 4"):
        write_report_from_jsonl(path, tmp_path / "report.html")
    assert not (tmp_path / "report.html").exists()
    for command in (["report", str(path), "-o", str(tmp_path / "r.html")], ["label", str(path), "-n", "1"]):
        assert main(command) == 2
        assert "on line 2 and again on line 4" in one_error_line(capsys)


def test_rows_out_of_order_are_read_and_a_repeat_among_them_is_found(tmp_path: Path) -> None:
    path = run_file(tmp_path, "run.jsonl", ["q0", "q1", "q2"])
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0], lines[2], lines[1]]) + "\n", encoding="utf-8")
    assert [row.index for row in EvaluationResult.from_jsonl(path)] == [0, 2, 1]
    path.write_text("\n".join([lines[0], lines[2], lines[1], lines[2]]) + "\n", encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"sample 2 .* on line 2 and again on line 4"):
        EvaluationResult.from_jsonl(path)


@pytest.mark.parametrize("text", ["", "\n\n"])
def test_an_empty_results_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FileFormatError, match="holds no result row"):
        EvaluationResult.from_jsonl(path)
    assert main(["report", str(path), "-o", str(tmp_path / "r.html")]) == 2
    assert "empty.jsonl: the results file holds no result row" in one_error_line(capsys)
    assert not (tmp_path / "r.html").exists()


def test_runs_that_share_no_sample_are_not_compared(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = run_file(tmp_path, "a.jsonl", ["q0", "q1"])
    b = run_file(tmp_path, "b.jsonl", ["x0", "x1", "x2"])
    with pytest.raises(InputError, match="share no sample id"):
        compare(EvaluationResult.from_jsonl(a), EvaluationResult.from_jsonl(b), "id_based_context_recall")
    assert main(["compare", str(a), str(b)]) == 2
    err = one_error_line(capsys)
    assert "share no sample id (A has 2, e.g. 'q0'; B has 3, e.g. 'x0')" in err
    assert capsys.readouterr().out == ""  # no table of dashes
