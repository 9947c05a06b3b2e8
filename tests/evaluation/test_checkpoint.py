"""Checkpoints: resume does only what is missing, survives SIGKILL and torn lines, refuses other runs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ragrecall import CheckpointError, FileFormatError, IDBasedContextRecall, NonLLMContextRecall
from ragrecall.evaluation import evaluate

# A script that evaluates 200 samples with an async metric that logs each call it makes to CALLS.
SCRIPT = """
import asyncio
import hashlib
import sys
from dataclasses import dataclass
from typing import ClassVar
from ragrecall import Metric, MetricResult
from ragrecall.evaluation import evaluate

CALLS = sys.argv[2]

@dataclass(frozen=True)
class SlowHash(Metric):
    required_fields: ClassVar[tuple[str, ...]] = ("reference",)
    metric_name: ClassVar[str] = "slow_hash"

    async def _ascore_sample(self, sample):
        await asyncio.sleep(0.01)
        with open(CALLS, "a") as log:
            log.write(f"{sample.id}\\n")
        value = hashlib.sha256(sample.reference.encode()).digest()[0] / 255
        return MetricResult.scored(self.name, value, sample_id=sample.id)

samples = [{"id": f"q{i}", "reference": f"reference {i}"} for i in range(200)]
result = evaluate(samples, [SlowHash()], max_concurrency=4, show_progress=False, checkpoint=sys.argv[1])
result.to_jsonl(sys.argv[3])
"""


def run_script(tmp_path: Path, name: str, checkpoint: Path) -> subprocess.Popen[str]:
    script = tmp_path / "run_eval.py"
    script.write_text(SCRIPT, encoding="utf-8")
    calls, out = tmp_path / f"{name}.calls", tmp_path / f"{name}.out.jsonl"
    return subprocess.Popen(
        [sys.executable, str(script), str(checkpoint), str(calls), str(out)], text=True, stderr=subprocess.PIPE
    )


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.exists() else []


def test_sigkill_then_resume_equals_uninterrupted_run(tmp_path: Path) -> None:
    whole = run_script(tmp_path, "whole", tmp_path / "whole.ckpt")
    assert whole.wait(timeout=120) == 0, whole.stderr.read() if whole.stderr else ""

    checkpoint = tmp_path / "killed.ckpt"
    first = run_script(tmp_path, "first", checkpoint)
    deadline = time.monotonic() + 60
    while len(read_lines(checkpoint)) < 60 and time.monotonic() < deadline:
        time.sleep(0.01)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=30)
    assert first.returncode == -signal.SIGKILL
    finished_before = {json.loads(line)["index"] for line in read_lines(checkpoint)[1:] if line.endswith("}")}
    assert 0 < len(finished_before) < 200

    second = run_script(tmp_path, "second", checkpoint)
    assert second.wait(timeout=120) == 0, second.stderr.read() if second.stderr else ""

    resumed_calls = read_lines(tmp_path / "second.calls")
    assert len(resumed_calls) == len(set(resumed_calls)) == 200 - len(finished_before)
    assert not {f"q{i}" for i in finished_before} & set(resumed_calls)
    assert read_lines(tmp_path / "second.out.jsonl") == read_lines(tmp_path / "whole.out.jsonl")


def samples(n: int) -> list[dict[str, object]]:
    return [{"id": i, "retrieved_context_ids": [str(i % 3)], "reference_context_ids": ["1"]} for i in range(n)]


def test_rerun_does_nothing_when_complete_and_retries_failures(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    data = samples(10)
    data[4] = {"id": 4, "retrieved_context_ids": ["1"]}  # fails: no reference_context_ids
    first = evaluate(data, [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert len(first.failures) == 1 and len(read_lines(path)) == 11
    again = evaluate(data, [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert again.values("id_based_context_recall") == first.values("id_based_context_recall")
    assert len(read_lines(path)) == 12  # only the failed pair ran again


def test_torn_last_line_is_dropped_and_cut(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    data = samples(6)
    full = evaluate(data, [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    lines = read_lines(path)
    path.write_text("\n".join(lines[:4]) + "\n" + lines[4][: len(lines[4]) // 2], encoding="utf-8")
    resumed = evaluate(data, [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert resumed.values("id_based_context_recall") == full.values("id_based_context_recall")
    assert all(json.loads(line) for line in read_lines(path))
    assert len(read_lines(path)) == 7


def test_malformed_middle_line_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    lines = read_lines(path)
    lines[2] = "{oops"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"run\.ckpt:3: malformed checkpoint line"):
        evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)


def test_other_metric_settings_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    evaluate(samples(3), [NonLLMContextRecall(threshold=0.5)], show_progress=False, checkpoint=tmp_path / "s.ckpt")
    evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    with pytest.raises(CheckpointError, match="written for other metrics or settings"):
        evaluate(samples(3), [IDBasedContextRecall(k=2)], show_progress=False, checkpoint=path)
    with pytest.raises(CheckpointError, match="written for other metrics or settings"):
        evaluate(samples(3), [NonLLMContextRecall(threshold=0.6)], show_progress=False, checkpoint=tmp_path / "s.ckpt")


def test_changed_dataset_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    changed = samples(3)
    changed[1] = {"id": 1, "retrieved_context_ids": ["9"], "reference_context_ids": ["1"]}
    with pytest.raises(CheckpointError, match="sample 1 differs"):
        evaluate(changed, [IDBasedContextRecall()], show_progress=False, checkpoint=path)


def test_not_a_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "data.jsonl"
    path.write_text('{"id": 1}\n', encoding="utf-8")
    with pytest.raises(CheckpointError, match="is not a ragrecall checkpoint"):
        evaluate(samples(1), [IDBasedContextRecall()], show_progress=False, checkpoint=path)


def test_a_torn_header_starts_the_checkpoint_again(tmp_path: Path) -> None:
    path = tmp_path / "run.ckpt"
    path.write_text('{"format": "ragrecall-checkpoint/1", "metr', encoding="utf-8")
    first = evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    again = evaluate(samples(3), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert first.values("id_based_context_recall") == again.values("id_based_context_recall")
    assert len(read_lines(path)) == 4


def test_dicts_and_their_dataset_share_a_checkpoint(tmp_path: Path) -> None:
    from ragrecall import Dataset

    path = tmp_path / "run.ckpt"
    evaluate(samples(4), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    evaluate(Dataset.from_records(samples(4)), [IDBasedContextRecall()], show_progress=False, checkpoint=path)
    assert len(read_lines(path)) == 5  # nothing ran twice


def test_other_llm_settings_are_refused(tmp_path: Path) -> None:
    from ragrecall import ContextRecall, OfflineJudge

    path = tmp_path / "run.ckpt"
    data = [
        {"id": i, "reference": "Paris is in France.", "retrieved_contexts": ["Paris is in France."]} for i in range(2)
    ]
    evaluate(data, [ContextRecall(OfflineJudge(threshold=0.5))], show_progress=False, checkpoint=path)
    with pytest.raises(CheckpointError, match="written for other metrics or settings"):
        evaluate(data, [ContextRecall(OfflineJudge(threshold=1.0))], show_progress=False, checkpoint=path)
