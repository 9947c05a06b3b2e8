"""Resuming after a fix: a checkpoint with no LLM answer resumes against another endpoint; one with answers names
what differs and resumes only when asked, recording the change. Through the real SDK and the fake server."""

from __future__ import annotations

import json
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import openai
import pytest

from ragrecall import evaluate
from ragrecall.cli import main
from ragrecall.errors import CheckpointError, EndpointDownError
from ragrecall.evaluation import EvaluationResult, _score_part
from ragrecall.evaluation._progress import Progress
from ragrecall.evaluation._settings_change import setting_changes
from ragrecall.llm import OpenAILLM, RetryPolicy
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply, offline_responder
from ragrecall.metrics.context_recall import ContextRecall

REFERENCE = "Paris is the capital of France. The Eiffel Tower is 330 metres tall."
CONTEXTS = ["Paris is the capital and largest city of France.", "Berlin is in Germany."]
SAMPLES = [{"id": f"q{i}", "reference": REFERENCE, "retrieved_contexts": CONTEXTS} for i in range(6)]


def closed_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def metric(url: str, model: str = "gpt-4o-mini", **options: Any) -> ContextRecall:
    retry = RetryPolicy(max_attempts=2, initial_wait=0.0, jitter=0.0)
    llm = OpenAILLM(openai.AsyncOpenAI(api_key="sk-test", base_url=url), model, retry=retry)
    return ContextRecall(llm, **options)


def test_a_run_stopped_before_any_answer_resumes_against_the_fixed_url(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    wrong = closed_url()
    with pytest.raises(EndpointDownError):
        evaluate(SAMPLES, [metric(wrong)], show_progress=False, checkpoint=checkpoint)
    with FakeOpenAIServer() as server:
        result = evaluate(SAMPLES, [metric(server.base_url)], show_progress=False, checkpoint=checkpoint)
    assert not result.failures and result.values("context_recall") == [0.5] * 6
    assert result.run is not None
    assert result.run.endpoint_changes == [f"context_recall: base_url: {wrong}/ → {server.base_url}/"]
    header = json.loads(checkpoint.read_text(encoding="utf-8").splitlines()[0])
    assert header["metrics"]["context_recall"]["settings"]["llm"]["endpoint"] == f"{server.base_url}/"


def test_a_wrong_model_name_is_fixed_the_same_way(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    unknown = ServerReply("The model `gpt-nope` does not exist.", status=404)
    answer = offline_responder()

    def respond(body: Mapping[str, Any]) -> ServerReply:
        return unknown if body.get("model") == "gpt-nope" else answer(body)

    with FakeOpenAIServer(respond) as server:
        with pytest.raises(EndpointDownError, match="unknown model"):
            evaluate(SAMPLES, [metric(server.base_url, "gpt-nope")], show_progress=False, checkpoint=checkpoint)
        result = evaluate(SAMPLES, [metric(server.base_url)], show_progress=False, checkpoint=checkpoint)
    assert result.run is not None and result.run.endpoint_changes == ["context_recall: model: gpt-nope → gpt-4o-mini"]


def test_answers_from_the_first_endpoint_need_the_flag_and_the_change_is_recorded(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    with FakeOpenAIServer() as first:
        evaluate(SAMPLES, [metric(first.base_url)], show_progress=False, checkpoint=checkpoint)
        first_url = first.base_url
    lines = checkpoint.read_text(encoding="utf-8").splitlines()
    checkpoint.write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")  # three samples finished there
    with FakeOpenAIServer() as second:
        with pytest.raises(CheckpointError) as info:
            evaluate(SAMPLES, [metric(second.base_url)], show_progress=False, checkpoint=checkpoint)
        message = str(info.value)
        assert len(message.splitlines()) <= 3
        assert f"context_recall: base_url: {first_url}/ → {second.base_url}/" in message
        assert "--allow-endpoint-change" in message and "{" not in message
        assert checkpoint.read_text(encoding="utf-8").splitlines() == lines[:4]  # refused untouched

        result = evaluate(
            SAMPLES, [metric(second.base_url)], show_progress=False, checkpoint=checkpoint, allow_endpoint_change=True
        )
        assert len(second.requests) == 3 * 2  # only the three samples left
        again = evaluate(SAMPLES, [metric(second.base_url)], show_progress=False, checkpoint=checkpoint)
    change = f"context_recall: base_url: {first_url}/ → {second.base_url}/"
    assert result.run is not None and result.run.endpoint_changes == [change]
    assert again.run is not None and again.run.endpoint_changes == [change]  # kept for later resumes
    assert again.values("context_recall") == [0.5] * 6


def test_other_settings_are_named_and_refused_even_with_the_flag(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    with FakeOpenAIServer() as server:
        evaluate(SAMPLES, [metric(server.base_url)], show_progress=False, checkpoint=checkpoint)
        changed = metric(server.base_url, quote_threshold=0.8)
        named = r"context_recall: quote_threshold: 0\.9 → 0\.8\nUse another"
        with pytest.raises(CheckpointError, match=named):
            evaluate(SAMPLES, [changed], show_progress=False, checkpoint=checkpoint, allow_endpoint_change=True)


def test_changes_are_listed_setting_by_setting() -> None:
    before = {"m": {"settings": {"llm": {"endpoint": "A", "seed": 0}, "model": "x"}}, "gone": {"class": "C"}}
    after = {"m": {"settings": {"llm": {"endpoint": "B", "seed": 0}, "model": "y"}}}
    changes = setting_changes(before, after)
    assert [c.text() for c in changes] == [
        'gone: metric: {"class": "C"} → (none)',
        "m: base_url: A → B",
        "m: model: x → y",
    ]
    assert [c.endpoint for c in changes] == [False, True, True]


def test_the_command_line_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps(s) + "\n" for s in SAMPLES), encoding="utf-8")
    checkpoint = tmp_path / "run.ckpt"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    base = ["eval", str(data), "-m", "context_recall", "--model", "gpt-4o-mini", "--checkpoint", str(checkpoint)]
    with FakeOpenAIServer() as first:
        assert main([*base, "--base-url", first.base_url, "--no-progress"]) == 0
    with FakeOpenAIServer() as second:
        assert main([*base, "--base-url", second.base_url, "--no-progress"]) == 2
        out = tmp_path / "results.jsonl"
        flags = ["--base-url", second.base_url, "--no-progress", "--allow-endpoint-change", "--out", str(out)]
        assert main([*base, *flags]) == 0
    run = EvaluationResult.from_jsonl(out).run
    assert run is not None and run.endpoint_changes == [
        f"context_recall: base_url: {first.base_url}/ → {second.base_url}/"
    ]


def test_the_progress_tokens_after_a_resume_agree_with_the_summary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bars: list[Progress] = []

    class Recorded(Progress):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            bars.append(self)

    monkeypatch.setattr(_score_part, "Progress", Recorded)
    checkpoint = tmp_path / "run.ckpt"
    with FakeOpenAIServer() as server:
        evaluate(SAMPLES, [metric(server.base_url)], show_progress=False, checkpoint=checkpoint)
        lines = checkpoint.read_text(encoding="utf-8").splitlines()
        checkpoint.write_text("\n".join(lines[:3]) + "\n", encoding="utf-8")  # two samples kept
        resumed = evaluate(SAMPLES, [metric(server.base_url)], show_progress=False, checkpoint=checkpoint)
    assert resumed.usage.total_tokens > 0 and bars[-1].tokens == resumed.usage.total_tokens
