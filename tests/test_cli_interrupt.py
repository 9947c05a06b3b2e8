"""Ctrl-C and a stopped run print the command that resumes them."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ragrecall.llm.fake_server import FakeOpenAIServer


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
