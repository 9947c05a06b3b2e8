"""A results folder (what the Ray integration writes): parts read back as the rows written, the latest run's row
of a sample kept, a folder for other metrics or samples refused, and ``ragrecall report DIR``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragrecall import IDBasedContextRecall, NonLLMContextRecall, demo_dataset, evaluate
from ragrecall.cli._main import main
from ragrecall.errors import CheckpointError
from ragrecall.evaluation import (
    EvaluationResult,
    FolderRun,
    metric_identity,
    part_table,
    read_result_folder,
    sample_fingerprint,
    write_part,
)

METRICS = [NonLLMContextRecall(), IDBasedContextRecall()]


def identities() -> dict[str, dict[str, object]]:
    return {m.name: metric_identity(m) for m in METRICS}


def written(folder: Path, result: EvaluationResult, parts: list[slice], run: int) -> None:
    for part in parts:
        rows = list(result.rows[part])
        write_part(folder, part_table(rows, [sample_fingerprint(r.sample) for r in rows], result.metrics, run))


def test_parts_read_back_as_the_rows_written_in_index_order(tmp_path: Path) -> None:
    result = evaluate(list(demo_dataset()), METRICS, show_progress=False)
    folder = FolderRun(tmp_path / "out", identities(), len(result))
    assert folder.open() == {} and folder.run == 1
    written(tmp_path / "out", result, [slice(7, None), slice(0, 7)], run=1)
    written(tmp_path / "out", result, [slice(0, 7)], run=1)  # a retried batch replaces its own part
    assert result.run is not None
    folder.finish(result.run)
    folder.close()
    assert len(list((tmp_path / "out").glob("part-*.parquet"))) == 2
    back = read_result_folder(tmp_path / "out")
    assert [r.model_dump() for r in back] == [r.model_dump() for r in result]
    assert back.summary == result.summary and back.run == result.run


def test_a_later_run_of_a_sample_wins_and_a_resume_counts_runs(tmp_path: Path) -> None:
    samples = list(demo_dataset())
    first = evaluate(
        [{**s.model_dump(), "reference_contexts": None} for s in samples[:1]] + samples[1:],
        METRICS,
        show_progress=False,
    )
    assert first.summary[METRICS[0].name].failed == 1
    folder = FolderRun(tmp_path, identities(), len(samples))
    folder.open()
    written(tmp_path, first, [slice(0, 12)], run=1)
    folder.close()
    again = FolderRun(tmp_path, identities(), len(samples))
    stored = again.open()
    assert again.run == 2 and set(stored) == set(range(12))
    assert stored[0].unfinished is not None and stored[1].unfinished is None  # only the failed row is kept whole
    fixed = evaluate(samples[:1], METRICS, show_progress=False)
    write_part(tmp_path, part_table(list(fixed.rows), [stored[0].fingerprint], fixed.metrics, again.run))
    again.close()
    back = read_result_folder(tmp_path)
    assert back.summary[METRICS[0].name].failed == 0 and len(back) == 12


def test_a_folder_for_other_metrics_or_samples_or_with_other_files_is_refused(tmp_path: Path) -> None:
    holder = FolderRun(tmp_path / "out", identities(), 12)
    holder.open()
    with pytest.raises(CheckpointError, match="in use by another run"):
        FolderRun(tmp_path / "out", identities(), 12).open()
    holder.close()
    with pytest.raises(CheckpointError, match="other metrics or settings"):
        FolderRun(tmp_path / "out", {METRICS[0].name: metric_identity(NonLLMContextRecall(threshold=0.9))}, 12).open()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(CheckpointError, match="not a results folder"):
        FolderRun(tmp_path / "other", identities(), 12).open()
    assert (tmp_path / "other" / "notes.txt").read_text() == "mine"


def test_a_folder_of_another_size_is_refused(tmp_path: Path) -> None:
    folder = FolderRun(tmp_path, identities(), 12)
    folder.open()
    folder.close()
    with pytest.raises(CheckpointError, match="written for 12 samples, this dataset has 13"):
        FolderRun(tmp_path, identities(), 13).open()
    assert json.loads((tmp_path / "ragrecall-results.json").read_text())["runs"] == 1


def test_report_takes_a_results_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = evaluate(list(demo_dataset()), METRICS, show_progress=False)
    folder = FolderRun(tmp_path / "out", identities(), len(result))
    folder.open()
    written(tmp_path / "out", result, [slice(0, 12)], run=1)
    assert result.run is not None
    folder.finish(result.run)
    folder.close()
    assert main(["report", str(tmp_path / "out"), "-o", str(tmp_path / "report.html")]) == 0
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "zh-tea-01" in page and "non_llm_context_recall" in page
