"""``ragrecall label`` given a samples file points to ``eval --out`` in one line, and after writing the page it
says the next step."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ragrecall import ContextRecall, OfflineJudge, demo_dataset, evaluate

SCRIPT = Path(sys.executable).with_name("ragrecall")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=300)


def test_a_samples_file_is_pointed_to_eval(tmp_path: Path) -> None:
    samples = tmp_path / "samples.jsonl"
    demo_dataset().to_jsonl(samples)
    done = cli("label", str(samples), "-n", "3", "-o", str(tmp_path / "l.html"))
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.strip().splitlines()
    assert line.startswith(f"ragrecall: error: {samples} holds samples, not results: label the claims of a judged run")
    assert f"'ragrecall eval {samples} -m context_recall --model MODEL --out results.jsonl'" in line
    assert not (tmp_path / "l.html").exists()


def test_after_the_page_the_next_step(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    evaluate(demo_dataset(), [ContextRecall(OfflineJudge())], show_progress=False).to_jsonl(results)
    done = cli("label", str(results), "-n", "3", "-o", str(tmp_path / "l.html"))
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith(f"next: open {tmp_path / 'l.html'} in a browser (a phone works), label, press 'Download")
    assert f"ragrecall calibrate labels.jsonl --llm MODEL --results {results}" in last
