"""``ragrecall eval --backend batch`` and ``ragrecall batch export/import/cancel``, as a user runs them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ragrecall.llm.fake_server import FakeOpenAIServer, answer_batch_file

SCRIPT = Path(sys.executable).with_name("ragrecall")
ROWS = [
    {"id": f"s{i}", "reference": f"Fact {i} holds. Fact {i + 1} too.", "retrieved_contexts": [f"Fact {i} holds."]}
    for i in range(4)
]
ENV = {**os.environ, "OPENAI_API_KEY": "sk-test"}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, env=ENV, timeout=120)


def values(path: Path) -> list[float | None]:
    return [json.loads(line)["results"]["context_recall"]["value"] for line in path.read_text().splitlines()]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return path


def llm_args(server: FakeOpenAIServer) -> list[str]:
    return ["-m", "context_recall", "--model", "gpt-4o-mini", "--base-url", server.base_url, "--no-progress"]


def test_eval_backend_batch_matches_live(data: Path, tmp_path: Path) -> None:
    with FakeOpenAIServer() as server:
        live = cli("eval", str(data), *llm_args(server), "--out", str(tmp_path / "live.jsonl"))
        assert live.returncode == 0, live.stderr
        batch = cli(
            "eval", str(data), *llm_args(server), "--backend", "batch", "--poll-interval", "0",
            "--checkpoint", str(tmp_path / "run.ckpt"), "--out", str(tmp_path / "batch.jsonl"),
        )  # fmt: skip
        assert batch.returncode == 0, batch.stderr
        assert server.batch_creations == 2
        bounded = cli(
            "eval", str(data), *llm_args(server), "--backend", "batch", "--poll-interval", "0",
            "--max-samples-in-flight", "2", "--out", str(tmp_path / "bounded.jsonl"),
        )  # fmt: skip
        assert bounded.returncode == 0, bounded.stderr
        assert server.batch_creations == 2 + 4  # two samples at a time: two waves of two rounds
    assert values(tmp_path / "batch.jsonl") == values(tmp_path / "live.jsonl")
    assert values(tmp_path / "bounded.jsonl") == values(tmp_path / "live.jsonl")
    assert "backend batch" in batch.stdout
    wrong = cli("eval", str(data), "-m", "context_recall", "--offline", "--poll-interval", "5")
    assert wrong.returncode == 2 and wrong.stderr.startswith("ragrecall: error: --poll-interval applies to --backend")
    wrong = cli("eval", str(data), "-m", "context_recall", "--offline", "--max-samples-in-flight", "5")
    assert wrong.returncode == 2 and "--max-samples-in-flight applies to --backend batch" in wrong.stderr
    offline = cli("eval", str(data), "-m", "context_recall", "--offline", "--backend", "batch")
    assert offline.returncode == 2 and "OpenAI adapter" in offline.stderr and "Traceback" not in offline.stderr


def test_export_run_import_until_done_gives_the_live_result(data: Path, tmp_path: Path) -> None:
    state = tmp_path / "state.ckpt"
    with FakeOpenAIServer() as server:
        live = cli("eval", str(data), *llm_args(server), "--out", str(tmp_path / "live.jsonl"))
        assert live.returncode == 0, live.stderr
        common = [str(data), *llm_args(server), "--checkpoint", str(state)]
        env_free = {k: v for k, v in ENV.items() if k != "OPENAI_API_KEY"}
        exported = subprocess.run(
            [str(SCRIPT), "batch", "export", *common], capture_output=True, text=True, env=env_free, timeout=120
        )
        assert exported.returncode == 0, exported.stderr  # no key needed: nothing is sent
        first = Path(f"{state}.round-1.jsonl")
        assert f"round 1: 4 requests written to {first}" in exported.stdout
        assert "vllm.entrypoints.openai.run_batch" in exported.stdout
        again = cli("batch", "export", *common)
        assert again.returncode == 2 and "not imported yet" in again.stderr
        sent = len(server.requests)
        round_no, result = 1, None
        while result is None:
            output = tmp_path / f"out-{round_no}.jsonl"
            answer_batch_file(f"{state}.round-{round_no}.jsonl", output)
            step = cli("batch", "import", str(output), *common, "--out", str(tmp_path / "batch.jsonl"))
            assert step.returncode == 0, step.stderr
            round_no += 1
            if "written to" not in step.stdout:
                result = step
        assert len(server.requests) == sent  # the file runner answered; nothing went to the endpoint
    assert round_no == 3
    assert values(tmp_path / "batch.jsonl") == values(tmp_path / "live.jsonl")
    stray = cli("batch", "import", str(tmp_path / "out-1.jsonl"), *common)
    assert stray.returncode == 2 and "no exported round waiting" in stray.stderr


def test_ctrl_c_leaves_batches_running_then_cancel_and_resume(data: Path, tmp_path: Path) -> None:
    if not SCRIPT.exists():
        pytest.skip("the console script is not installed")
    state = tmp_path / "run.ckpt"
    with FakeOpenAIServer(batch_delay=120.0) as server:
        args = [str(SCRIPT), "eval", str(data), *llm_args(server), "--backend", "batch", "--checkpoint", str(state)]
        process = subprocess.Popen([*args, "--poll-interval", "0.05"], stderr=subprocess.PIPE, text=True, env=ENV)
        deadline = time.monotonic() + 30
        while "batch_start" not in (state.read_text() if state.exists() else "") and time.monotonic() < deadline:
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
        assert process.returncode == 130
        (batch_id,) = server.batches
        assert f"batches left running: {batch_id}" in err and "ragrecall batch cancel --checkpoint" in err
        assert server.batches[batch_id]["status"] in ("validating", "in_progress")

        status = cli("batch", "status", "--checkpoint", str(state))
        assert status.returncode == 0 and f"round 1: {batch_id}: in_progress, 0/4 done" in status.stdout
        cancelled = cli("batch", "cancel", "--checkpoint", str(state))
        assert cancelled.returncode == 0, cancelled.stderr
        assert f"{batch_id}: cancelled" in cancelled.stdout
        assert server.batches[batch_id]["status"] == "cancelled"

        server.batch_delay = 0.0  # resumed: the cancelled batch's requests go out again, once
        resumed = cli(*args[1:], "--poll-interval", "0", "--out", str(tmp_path / "out.jsonl"))
        assert resumed.returncode == 0, resumed.stderr
        assert server.batch_creations == 3
        assert values(tmp_path / "out.jsonl") == [0.5, 0.5, 0.5, 0.5]  # as live (the offline judge's values)
        nothing = cli("batch", "cancel", "--checkpoint", str(state))
        assert "is left running" in nothing.stdout
        status = cli("batch", "status", "--checkpoint", str(state))
        assert f"round 1: {batch_id}: cancelled, 4 requests" in status.stdout
        assert status.stdout.count(": completed,") == 2  # the retried round 1, then round 2
