"""Every example runs, offline, and prints what it promises."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env or dict(os.environ), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_quickstart(tmp_path: Path) -> None:
    out = run(str(EXAMPLES / "quickstart.py"), cwd=tmp_path).stdout
    assert "LLM claim recall: 0.50" in out
    assert "string-similarity recall: 0.50" in out
    assert "ID recall: 0.25" in out
    assert "context_recall " in out and "nDCG@10 " in out and "12 samples in" in out


def test_batch_checkpoint(tmp_path: Path) -> None:
    out = run(str(EXAMPLES / "batch_checkpoint.py"), str(tmp_path), cwd=tmp_path).stdout
    assert "id_based_context_recall" in out and "paired samples" in out
    assert (tmp_path / "run.ckpt.jsonl").exists() and (tmp_path / "results.csv").exists()


def test_trec_files(tmp_path: Path) -> None:
    out = run(str(EXAMPLES / "trec_files.py"), str(tmp_path), cwd=tmp_path).stdout
    assert "P@2          0.7500" in out and "RR           0.7500" in out
    assert "reranked: ['d7', 'd1', 'd3']; not among the candidates: ['d42']" in out


def test_openai_endpoint_without_a_key_sends_nothing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    out = run(str(EXAMPLES / "openai_endpoint.py"), cwd=tmp_path, env=env).stdout
    assert out.startswith("skipped: set OPENAI_API_KEY")


def test_openai_endpoint_against_a_local_server(tmp_path: Path) -> None:
    from ragrecall.llm.fake_server import FakeOpenAIServer

    with FakeOpenAIServer() as server:
        env = {**os.environ, "OPENAI_API_KEY": "sk-local", "OPENAI_BASE_URL": server.base_url}
        out = run(str(EXAMPLES / "openai_endpoint.py"), cwd=tmp_path, env=env).stdout
        assert len(server.requests) == 25  # 12 samples x (decompose + judge), and one quote asked about again
    assert "context_recall" in out and "lowest sample:" in out
    assert (tmp_path / ".ragrecall-cache.sqlite").exists()


def test_pytest_offline_example(tmp_path: Path) -> None:
    out = run("-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLES / "pytest_offline"), cwd=tmp_path).stdout
    assert "6 passed" in out


def test_calibration_example_prints_the_offline_judges_figures(tmp_path: Path) -> None:
    out = run(str(EXAMPLES / "calibration" / "calibrate_offline.py"), cwd=tmp_path).stdout
    assert "compared: 60 labelled claims in 14 samples; 16 human scores; left out: 0 failed, 0 unscorable" in out
    assert "Cohen's kappa" in out and "(Landis & Koch)" in out and "Spearman rho" in out
    assert "claim disagreements:" in out and "disagreements by language:" in out


def test_the_example_labels_are_a_hand_labelled_set_in_two_languages() -> None:
    import json

    rows = [json.loads(line) for line in (EXAMPLES / "calibration" / "labels.jsonl").read_text("utf-8").splitlines()]
    labelled = [r for r in rows if "claim_labels" in r]
    assert sum(len(r["claim_labels"]) for r in labelled) >= 40
    assert {r["id"].split("-")[0] for r in rows} == {"en", "zh"}
    for r in labelled:  # the sample score of a claim-labelled row is the share of its claims labelled supported
        assert r["human_score"] == round(sum(r["claim_labels"]) / len(r["claim_labels"]), 4)
