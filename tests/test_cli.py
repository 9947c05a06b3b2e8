"""The installed ``ragrecall`` console script, run in a subprocess for every subcommand and error path."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(sys.executable).with_name("ragrecall")


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data.jsonl"
    rows = [
        {"id": "q1", "retrieved_context_ids": ["a", "b"], "reference_context_ids": ["a", "c"]},
        {"id": "q2", "retrieved_context_ids": ["c"], "reference_context_ids": ["c"]},
        {"id": "q3", "retrieved_context_ids": [], "reference_context_ids": ["d"]},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_demo_runs_offline_from_any_directory(tmp_path: Path) -> None:
    done = run("demo", "--out", "demo.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "en-router-01" in done.stdout and "zh-tea-01" in done.stdout
    assert "id_based_context_recall" in done.stdout and "95% CI" in done.stdout
    assert len((tmp_path / "demo.jsonl").read_text(encoding="utf-8").splitlines()) == 12


def test_eval_prints_summary_and_writes_results(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    done = run(
        "eval",
        str(data),
        "-m",
        "id_based_context_recall",
        "-m",
        "id_based_context_recall@1",
        "--out",
        str(out),
        "--no-progress",
    )
    assert done.returncode == 0, done.stderr
    assert "id_based_context_recall " in done.stdout and "0.5000" in done.stdout
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["results"]["id_based_context_recall"]["value"] for r in rows] == [0.5, 1.0, 0.0]


def test_fail_under_sets_exit_code(data: Path) -> None:
    passing = run("eval", str(data), "-m", "id_based_context_recall", "--fail-under", "id_based_context_recall=0.5")
    assert passing.returncode == 0, passing.stderr
    failing = run("eval", str(data), "-m", "id_based_context_recall", "--fail-under", "id_based_context_recall=0.6")
    assert failing.returncode == 1
    assert failing.stderr.strip().splitlines()[-1] == (
        "ragrecall: fail-under: id_based_context_recall mean 0.5000 is under 0.6"
    )


def test_compare_and_report(data: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert run("eval", str(data), "-m", "id_based_context_recall@1", "--out", str(a)).returncode == 0
    assert run("eval", str(data), "-m", "id_based_context_recall@1", "--out", str(b)).returncode == 0
    done = run("compare", str(a), str(b), "--metric", "id_based_context_recall@1")
    assert done.returncode == 0, done.stderr
    assert "B − A +0.0000" in done.stdout and "over 3 paired samples" in done.stdout
    html = tmp_path / "r.html"
    done = run("report", str(a), "-o", str(html))
    assert done.returncode == 0, done.stderr
    page = html.read_text(encoding="utf-8")
    assert "id_based_context_recall@1" in page and "<svg" in page and "missing: <code>c</code>" in page


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["eval", "missing.jsonl", "-m", "id_based_context_recall"],
            "ragrecall: error: no such dataset file: missing.jsonl",
        ),
        (["eval", "{data}", "-m", "nonsense"], "ragrecall: error: unknown metric 'nonsense'"),
        (
            [
                "eval",
                "{data}",
                "-m",
                "id_based_context_recall(",
            ],
            "ragrecall: error: cannot read metric",
        ),
        (["eval", "{data}", "-m", "id_based_context_recall@0"], "ragrecall: error: k must be a positive integer"),
        (["eval", "{data}", "-m", "id_based_context_recall", "--fail-under", "x"], "ragrecall: error: --fail-under"),
        (["eval", "{bad}", "-m", "id_based_context_recall"], "ragrecall: error: {bad}:2: invalid JSON"),
        (["report", "nowhere.jsonl"], "ragrecall: error: No such file or directory: nowhere.jsonl"),
        (["compare", "{data}", "{data}", "-m", "x"], "ragrecall: error: {data}:1: not a result row"),
    ],
)
def test_user_errors_end_with_one_line_and_exit_2(args: list[str], expected: str, data: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1}\n{"id": \n', encoding="utf-8")
    args = [a.format(data=data, bad=bad) for a in args]
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith(expected.format(data=data, bad=bad)), done.stderr
    assert "Traceback" not in done.stderr
