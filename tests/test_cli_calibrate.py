"""``ragrecall calibrate`` run as the installed console script: table, JSON, HTML page and the input errors."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(sys.executable).with_name("ragrecall")

ROWS: list[dict[str, Any]] = [
    {
        "id": "tower",
        "reference_claims": ["The tower is 330 metres tall.", "The tower opened in 1889."],
        "claim_labels": [True, True],
        "human_score": 1.0,
        "retrieved_contexts": ["The tower is 330 metres tall. The tower opened in 1889."],
    },
    {
        "id": "river",
        "reference_claims": ["Lyon lies on the Rhône.", "Lyon has two rivers."],
        "claim_labels": [True, True],  # the second is stated in other words: a lexical judge misses it
        "human_score": 1.0,
        "retrieved_contexts": ["Lyon lies on the Rhône, where the Saône joins it."],
    },
    {
        "id": "coast",
        "reference_claims": ["Nice is on the coast.", "Nice has a metro."],
        "claim_labels": [True, False],
        "human_score": 0.5,
        "retrieved_contexts": ["Nice is on the coast of the Mediterranean."],
    },
]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_calibrate_prints_the_figures_json_and_an_html_page(tmp_path: Path) -> None:
    labels = write(tmp_path / "labels.jsonl", ROWS)
    done = run("calibrate", str(labels), "--llm", "offline", "--no-progress")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "compared: 6 labelled claims in 3 samples; 3 human scores; left out: 0 failed, 0 unscorable" in out
    assert "accuracy                0.833" in out and "Cohen's kappa" in out and "Spearman rho" in out
    assert "Landis & Koch (1977) convention" in out and "resamples of samples" in out
    assert "sample 1 (id='river'), claim 2: 'Lyon has two rivers.'" in out
    assert "label supported, judge unsupported" in out

    page = tmp_path / "calibration.html"
    done = run("calibrate", str(labels), "--llm", "offline", "--json", "--report", str(page), "--votes", "3")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["accuracy"] == pytest.approx(5 / 6) and data["labelled_claims"] == 6
    assert data["confusion"] == {"tp": 4, "fp": 0, "fn": 1, "tn": 1}
    assert data["kappa"] == pytest.approx(0.5714, abs=1e-4)  # p_o 5/6, p_e (4/6)(5/6) + (2/6)(1/6) = 22/36
    assert data["settings"]["votes"] == 3 and set(data["intervals"]) >= {"kappa", "mae"}
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!doctype html>") and "<section class='calibration'>" in html
    assert "Lyon has two rivers." in html and not re.search(r"<script[^>]*\bsrc", html)  # inline scripts only
    # The whole report of the judge's run, the calibration first after the failures: every verdict beside
    # the passages it is about, and the votes of each claim.
    order = [
        html.index(s) for s in ("<section id='failures'>", "<section class='calibration'>", "<section id='samples'>")
    ]
    assert order == sorted(order) and "name='viewport'" in html
    assert "<h4>Retrieved passages" in html and "votes " in html


def test_a_label_count_not_matching_its_claims_exits_2_naming_the_line(tmp_path: Path) -> None:
    rows = [ROWS[0], {**ROWS[1], "claim_labels": [True]}]
    done = run("calibrate", str(write(tmp_path / "labels.jsonl", rows)), "--llm", "offline")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("ragrecall: error: line 2 of ")
    assert "(id='river'): field 'claim_labels': 1 labels for 2 reference_claims" in done.stderr


def test_a_row_without_labels_exits_2_naming_the_line(tmp_path: Path) -> None:
    bare = {k: v for k, v in ROWS[2].items() if k not in ("claim_labels", "human_score")}
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps(ROWS[0]) + "\n\n" + json.dumps(bare) + "\n", encoding="utf-8")
    done = run("calibrate", str(labels), "--llm", "offline")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith(f"ragrecall: error: line 3 of {labels} (id='coast'): missing labels field")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], "calibrate needs a judge: give --llm MODEL"),
        (["--llm", "gpt-4o-mini", "--model", "gpt-4o"], "name two judges"),
        (["--llm", "offline", "--votes", "0"], "votes must be an integer >= 1"),
        (["--llm", "offline", "--report", "LABELS"], "--report"),
    ],
)
def test_bad_flags_exit_2_in_one_line(args: list[str], expected: str, tmp_path: Path) -> None:
    labels = write(tmp_path / "labels.jsonl", ROWS)
    args = [str(labels) if a == "LABELS" else a for a in args]
    done = run("calibrate", str(labels), *args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert expected in done.stderr
    assert labels.read_text(encoding="utf-8").count("\n") == 3  # the labels file is never overwritten


def test_calibrate_a_model_behind_an_openai_compatible_server(tmp_path: Path) -> None:
    import os

    from ragrecall.llm.fake_server import FakeOpenAIServer

    labels = write(tmp_path / "labels.jsonl", ROWS)
    env = {**os.environ, "MY_KEY": "sk-local"}
    cache = tmp_path / "cache.sqlite"
    with FakeOpenAIServer() as server:  # answers ragrecall's prompts as the offline judge does
        args = ["calibrate", str(labels), "--llm", "gpt-4o-mini", "--base-url", server.base_url, "--cache", str(cache)]
        done = subprocess.run(
            [str(SCRIPT), *args, "--api-key-env", "MY_KEY", "--json"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == 3  # one judging request per sample, no decomposition
    data = json.loads(done.stdout)
    assert data["model"] == "gpt-4o-mini" and data["accuracy"] == pytest.approx(5 / 6)
    assert data["usage"]["requests"] == 3
    # The command closed its cache: no journal is left beside it, so the file alone holds the three replies.
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("cache")) == ["cache.sqlite"]
    with contextlib.closing(sqlite3.connect(cache)) as db:
        assert db.execute("SELECT COUNT(*) FROM responses").fetchone() == (3,)


def test_samples_the_judge_failed_on_are_listed_and_fail_the_command(tmp_path: Path) -> None:
    from ragrecall.llm import ResponseCache

    empty = tmp_path / "cache.sqlite"
    ResponseCache(empty).counts()  # an existing cache with no reply in it: every request misses
    labels = write(tmp_path / "labels.jsonl", ROWS[:2])
    done = run("calibrate", str(labels), "--llm", "gpt-4o-mini", "--replay", str(empty), "--no-progress")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "left out: 2 failed, 0 unscorable" in done.stdout and "no figure: nothing was compared" in done.stdout
    assert "left out: sample 1 (id='river'): failed: CacheMissError" in done.stdout
    assert done.stderr.startswith(
        "ragrecall: error: the judge failed on 2 of 2 samples, left out of the figures; first: sample 0 "
        "(id='tower'): CacheMissError: replay-only cache"
    )
