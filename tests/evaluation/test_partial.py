"""A stopped run keeps what finished: EndpointDownError out of evaluate() carries the finished samples, marked
partial with the stop's cause; a cancelled aevaluate() and a Ctrl-C in evaluate() expose the same; the command
writes --out and --report with them."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from ragrecall import EvaluationResult, aevaluate, evaluate
from ragrecall.cli import main
from ragrecall.errors import EndpointDownError
from ragrecall.llm import LLMRequest, OfflineJudge
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply, offline_responder
from ragrecall.metrics import IDBasedContextRecall
from ragrecall.metrics.context_recall import ContextRecall


def samples(n: int, stuck: int = 1) -> list[dict[str, Any]]:
    """``n`` samples, the last ``stuck`` of which say that they hang."""
    return [
        {
            "id": f"s{i}",
            "reference": f"Paris is the capital of France. Sample {i} hangs." if i >= n - stuck else "Paris is here.",
            "retrieved_contexts": ["Paris is the capital of France."],
            "reference_context_ids": ["a"],
            "retrieved_context_ids": ["a"],
        }
        for i in range(n)
    ]


class Stopping(OfflineJudge):
    """The offline judge, except that a sample whose reference says it hangs meets ``fault``: a dead endpoint
    (EndpointDownError) or a reply that never comes."""

    def __init__(self, fault: str) -> None:
        super().__init__()
        self.fault = fault
        self.hanging = asyncio.Event()

    async def agenerate(self, request: LLMRequest[Any]) -> Any:
        if "hangs" in json.dumps(request.inputs):
            if self.fault == "down":
                raise EndpointDownError("stopped early: http://127.0.0.1:9/v1 (model 'offline') failed")
            self.hanging.set()
            await asyncio.sleep(3600)
        return await super().agenerate(request)


def check_partial(result: EvaluationResult, finished: int, total: int, cause: str) -> None:
    assert [row.index for row in result.rows] == list(range(finished))
    assert all(set(row.results) == {"context_recall", "id_based_context_recall"} for row in result.rows)
    assert result.partial is not None and result.partial.startswith(f"stopped after {finished} of {total} samples")
    assert cause in result.partial and f"partial run: {result.partial}" in result.summary_table()
    assert result.values("context_recall") == [1.0] * finished


def test_endpoint_down_error_carries_the_finished_samples() -> None:
    metrics = [ContextRecall(Stopping("down")), IDBasedContextRecall()]
    with pytest.raises(EndpointDownError) as info:
        evaluate(samples(5), metrics, show_progress=False, max_concurrency=1)
    check_partial(info.value.result, 4, 5, "EndpointDownError: stopped early: http://127.0.0.1:9/v1")


def test_a_cancelled_aevaluate_exposes_the_finished_samples() -> None:
    async def scenario() -> Any:
        llm = Stopping("hang")
        run = asyncio.ensure_future(
            aevaluate(samples(4), [ContextRecall(llm), IDBasedContextRecall()], show_progress=False)
        )
        await llm.hanging.wait()
        await asyncio.sleep(0.2)  # the other samples finish (the offline judge answers at once)
        run.cancel()
        try:
            await run
        except asyncio.CancelledError as exc:
            context = exc.__context__  # what aevaluate raised inside the task carries the result
            return getattr(exc, "result", None) or getattr(context, "result", None)
        return None

    check_partial(asyncio.run(scenario()), 3, 4, "CancelledError")


def test_ctrl_c_in_evaluate_carries_the_finished_samples() -> None:
    llm = Stopping("hang")

    def interrupt() -> None:
        deadline = time.monotonic() + 30
        while not llm.hanging.is_set() and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.3)
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)  # Ctrl-C

    thread = threading.Thread(target=interrupt)
    thread.start()
    with pytest.raises(KeyboardInterrupt) as info:
        evaluate(samples(4), [ContextRecall(llm), IDBasedContextRecall()], show_progress=False)
    thread.join()
    check_partial(info.value.result, 3, 4, "CancelledError")  # type: ignore[attr-defined]


def test_the_command_writes_the_finished_samples_on_a_stop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    data, out, report = tmp_path / "data.jsonl", tmp_path / "out.jsonl", tmp_path / "report.html"
    # s3 and s4 fail with a 401 (recorded), s5's 401 is the third in a row: the endpoint is down.
    data.write_text("".join(json.dumps(s) + "\n" for s in samples(6, stuck=3)), encoding="utf-8")
    base = offline_responder()

    def respond(body: Any) -> ServerReply:
        return ServerReply(status=401) if "hangs" in json.dumps(body) else base(body)

    with FakeOpenAIServer(respond) as server:
        code = main(
            [
                *["eval", str(data), "-m", "context_recall", "-m", "id_based_context_recall"],
                *["--model", "gpt-4o-mini", "--base-url", server.base_url, "--no-progress", "--concurrency", "1"],
                *["--out", str(out), "--report", str(report)],
            ]
        )
    err = capsys.readouterr().err
    assert code == 2
    assert f"wrote {out} and {report} with the 5 finished samples (marked partial)" in err
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["sample_id"] for r in rows] == ["s0", "s1", "s2", "s3", "s4"]
    assert [r["results"]["context_recall"]["status"] for r in rows] == ["scored"] * 3 + ["failed"] * 2
    assert rows[0]["run"]["partial"].startswith("stopped after 5 of 6 samples: EndpointDownError")
    assert "partial run: stopped after 5 of 6 samples" in report.read_text(encoding="utf-8")
    assert err.strip().splitlines()[-1].endswith("nothing was kept: add --checkpoint FILE to resume a run that stops")


def test_a_slow_metric_without_an_llm_does_not_cost_the_finished_samples_at_a_stop() -> None:
    """The endpoint dies while the thread scoring ID recall is still at its first sample: the stop waits for
    that thread (it needs no endpoint), so the four samples whose LLM pairs finished are handed back whole."""

    @dataclasses.dataclass(frozen=True)
    class SlowIDRecall(IDBasedContextRecall):
        def _score_sample(self, sample: Any) -> Any:
            time.sleep(0.2)
            return super()._score_sample(sample)

    metrics = [ContextRecall(Stopping("down")), SlowIDRecall(name="id_based_context_recall")]
    with pytest.raises(EndpointDownError) as info:
        evaluate(samples(5), metrics, show_progress=False, max_concurrency=1)
    check_partial(info.value.result, 4, 5, "EndpointDownError: stopped early: http://127.0.0.1:9/v1")
