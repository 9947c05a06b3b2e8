"""Ctrl-C and a stopped run print the command that resumes them, and write what finished to --out."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply, offline_responder


def test_ctrl_c_prints_the_command_that_resumes(tmp_path: Path) -> None:
    data = tmp_path / "data.jsonl"
    rows = [{"id": f"s{i}", "reference": "Paris is in France.", "retrieved_contexts": ["Paris."]} for i in range(4)]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    checkpoint = tmp_path / "run.ckpt"
    with FakeOpenAIServer(latency=30) as server:
        args = ["eval", str(data), "-m", "context_recall", "--model", "gpt-4o-mini", "--base-url", server.base_url]
        args += ["--checkpoint", str(checkpoint), "--no-progress"]
        env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "ragrecall.cli", *args], stderr=subprocess.PIPE, text=True, env=env
        )
        deadline = time.monotonic() + 60
        while not server.requests and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    line = err.strip().splitlines()[-1]
    assert line.startswith(f"ragrecall: interrupted; finished samples are kept in {checkpoint}; resume with: ")
    assert line.endswith("ragrecall " + " ".join(args))


def test_ctrl_c_writes_the_finished_samples_to_out_marked_partial(tmp_path: Path) -> None:
    data, out, checkpoint = tmp_path / "data.jsonl", tmp_path / "out.jsonl", tmp_path / "run.ckpt"
    rows = [{"id": f"s{i}", "reference": "Paris is in France.", "retrieved_contexts": ["Paris."]} for i in range(3)]
    rows.append({"id": "s3", "reference": "Rome hangs in Italy.", "retrieved_contexts": ["Rome."]})
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    base = offline_responder()

    def respond(body: Any) -> ServerReply:
        return ServerReply(delay=30) if "hangs" in json.dumps(body) else base(body)

    with FakeOpenAIServer(respond) as server:
        args = ["eval", str(data), "-m", "context_recall", "--model", "gpt-4o-mini", "--base-url", server.base_url]
        args += ["--checkpoint", str(checkpoint), "--out", str(out), "--no-progress"]
        env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "ragrecall.cli", *args], stderr=subprocess.PIPE, text=True, env=env
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
            not checkpoint.exists() or len(checkpoint.read_text(encoding="utf-8").splitlines()) < 4
        ):
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert f"ragrecall: wrote {out} with the 3 finished samples (marked partial)" in err
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["sample_id"] for r in written] == ["s0", "s1", "s2"]
    assert written[0]["run"]["partial"].startswith("stopped after 3 of 4 samples")
    assert err.strip().splitlines()[-1].startswith(f"ragrecall: interrupted; finished samples are kept in {checkpoint}")
