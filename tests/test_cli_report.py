"""``ragrecall report RESULTS`` and ``ragrecall report BASE NEW``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragrecall.cli import main


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """Three samples with id recall 1/2, 1 and 0."""
    path = tmp_path / "data.jsonl"
    pairs = [(["a", "b"], ["a", "c"]), (["c"], ["c"]), ([], ["d"])]
    with path.open("w", encoding="utf-8") as out:
        for i, (retrieved, reference) in enumerate(pairs, start=1):
            row = {"id": f"q{i}", "retrieved_context_ids": retrieved, "reference_context_ids": reference}
            out.write(json.dumps(row) + "\n")
    return path


def results(data: Path, out: Path, metric: str = "id_based_context_recall") -> Path:
    assert main(["eval", str(data), "-m", metric, "--out", str(out), "--no-progress"]) == 0
    return out


def test_report_of_one_run(data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = results(data, tmp_path / "run.jsonl")
    html = tmp_path / "r.html"
    assert main(["report", str(run), "-o", str(html), "--title", "nightly"]) == 0
    assert capsys.readouterr().out.endswith(f"report written to {html}\n")
    page = html.read_text(encoding="utf-8")
    assert "<title>nightly</title>" in page and "<section id='comparison'>" not in page
    assert f"<dt>dataset</dt><dd>{data}</dd>" in page


def test_report_base_new_compares_the_runs(data: Path, tmp_path: Path) -> None:
    base = results(data, tmp_path / "base.jsonl")
    rows = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]
    rows[2]["retrieved_context_ids"] = ["d"]
    better = tmp_path / "better.jsonl"
    better.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    new = results(better, tmp_path / "new.jsonl")
    html = tmp_path / "r.html"
    assert main(["report", str(base), str(new), "-o", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    # The runs are named by their labels (file names without folders or suffixes), not by their paths.
    assert "<strong>new</strong> (this report) against <strong>base</strong>" in page
    comparison = page[page.index("<section id='comparison'>") : page.index("<section id='summary'>")]
    assert str(tmp_path) not in comparison and ".jsonl" not in comparison
    assert (
        "<td class='m' data-label='metric'>id_based_context_recall</td><td class='num a' data-label='base'>0.500</td>"
        "<td class='num b' data-label='new'>0.833</td><td class='num d' data-label='Δ'>+0.333</td>" in page
    )
    assert "id_based_context_recall: 1 better, 0 worse, 2 unchanged</h3>" in page


def test_report_refuses_to_overwrite_either_input_and_unpairable_runs(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = results(data, tmp_path / "base.jsonl")
    new = results(data, tmp_path / "new.jsonl")
    capsys.readouterr()
    assert main(["report", str(base), str(new), "-o", str(new)]) == 2
    assert (
        capsys.readouterr().err == f"ragrecall: error: -o {new} is the results file {new}; refusing to overwrite it\n"
    )
    rows = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines()]
    anonymous = tmp_path / "anonymous.jsonl"
    anonymous.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "id"}) + "\n" for r in rows[:2]))
    other = results(anonymous, tmp_path / "other.jsonl")
    capsys.readouterr()
    assert main(["report", str(base), str(other), "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert (
        err == "ragrecall: error: cannot pair the runs: samples lack unique ids and the runs differ in size (3 vs 2)\n"
    )
    assert not (tmp_path / "r.html").exists()
