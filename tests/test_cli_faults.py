"""The command line against dead, hostile and absent endpoints: it stops early, names what failed, keeps
keys out of every file, and replays without a key."""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ragrecall.llm.fake_server import FakeOpenAIServer, offline_responder

SCRIPT = Path(sys.executable).with_name("ragrecall")
SECRET = "sk-test-Q7x2Lm9Rt4Wb8Np3Kc6Vz1"


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    return subprocess.run(
        [str(SCRIPT), *args], capture_output=True, text=True, env={**clean, **(env or {})}, timeout=120
    )


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "data.jsonl"
    rows = [
        {"id": f"s{i}", "reference": f"Fact {i} holds. Fact {i + 1} too.", "retrieved_contexts": [f"Fact {i} holds."]}
        for i in range(6)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _echoing_server() -> FakeOpenAIServer:
    answer = offline_responder()

    def respond(body: Any) -> Any:
        return dataclasses.replace(answer(body), echo_key="full")

    return FakeOpenAIServer(respond)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_an_echoed_key_stays_out_of_every_file_and_replay_needs_no_key(
    data: Path, tmp_path: Path, provider: str
) -> None:
    cache, out, checkpoint = tmp_path / "cache.sqlite", tmp_path / "live.jsonl", tmp_path / "run.ckpt"
    common = ["eval", str(data), "-m", "context_recall", "--model", "m-1", "--provider", provider, "--no-progress"]
    with _echoing_server() as server:
        url = server.base_url if provider == "openai" else server.base_url.removesuffix("/v1")
        live = cli(
            *common,
            "--base-url",
            url,
            "--api-key-env",
            "K",
            "--cache",
            str(cache),
            "--out",
            str(out),
            "--checkpoint",
            str(checkpoint),
            env={"K": SECRET},
        )
        assert live.returncode == 0, live.stderr
        assert len(server.requests) == 12
    replay_out = tmp_path / "replay.jsonl"
    # The server is gone and no key is set: the replay answers everything from the cache.
    replay = cli(*common, "--base-url", url, "--replay", str(cache), "--out", str(replay_out))
    assert replay.returncode == 0, replay.stderr
    assert "0 LLM requests (12 cached)" in replay.stdout
    values = [json.loads(line)["results"]["context_recall"]["value"] for line in out.open()]
    assert values == [json.loads(line)["results"]["context_recall"]["value"] for line in replay_out.open()]
    assert "[redacted key]" in out.read_text(encoding="utf-8")
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
            assert SECRET[:14].encode() not in path.read_bytes(), path
    assert SECRET not in live.stdout + live.stderr + replay.stdout + replay.stderr


def test_a_wrong_base_url_stops_early_naming_url_and_model(data: Path, tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    checkpoint = tmp_path / "run.ckpt"
    done = cli(
        "eval",
        str(data),
        "-m",
        "context_recall",
        "--model",
        "gpt-4o-mini",
        "--base-url",
        url,
        "--checkpoint",
        str(checkpoint),
        "--no-progress",
        env={"OPENAI_API_KEY": SECRET},
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert url.removesuffix("/v1") in lines[0] and "'gpt-4o-mini'" in lines[0] and "stopped early" in lines[0]
    assert f"finished samples are kept in {checkpoint}" in lines[0]
    assert len(checkpoint.read_text(encoding="utf-8").splitlines()) == 1  # no sample recorded as failed


def test_timeouts_and_retries_are_flags(data: Path, tmp_path: Path) -> None:
    from ragrecall.llm.fake_server import ServerReply

    with FakeOpenAIServer(replies=[ServerReply('{"claims": []}', delay=30)] * 6) as server:
        done = cli(
            "eval",
            str(data),
            "-m",
            "context_recall",
            "--model",
            "gpt-4o-mini",
            "--base-url",
            server.base_url,
            "--request-timeout",
            "0.3",
            "--max-attempts",
            "1",
            "--concurrency",
            "1",
            "--no-progress",
            env={"OPENAI_API_KEY": SECRET},
        )
        assert done.returncode == 2
        assert "stopped early" in done.stderr and "timeout" in done.stderr
        waited = time.monotonic() + 5  # the server may read the last request after the client gave up on it
        while len(server.requests) < 6 and time.monotonic() < waited:
            time.sleep(0.05)
        assert len(server.requests) == 6  # six deadlines (transient: twice the threshold) before any success
