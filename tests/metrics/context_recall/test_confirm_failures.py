"""A confirming model's failure never costs the judge's paid work: the judge's outcome is kept before
confirmation (checkpoint, response cache); a confirmer that keeps failing fails the sample's confirm step with
its cause, and a dead one stops the run naming its own URL and model; either way a rerun with a working confirmer
sends no judge request."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openai
import pytest

from ragrecall import evaluate
from ragrecall.errors import CheckpointError, ConfirmationError, EndpointDownError
from ragrecall.llm import FakeLLM, LLMRequest, OpenAILLM, ResponseCache, RetryPolicy
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply
from ragrecall.metrics.context_recall import ContextRecall

from .test_confirm import CLAIMS, CONTEXTS, confirmer, judge

DATA = [{"id": f"q{i}", "reference_claims": CLAIMS, "retrieved_contexts": CONTEXTS} for i in range(3)]
REFERENCE = "The Eiffel Tower is 330 metres tall. The Eiffel Tower is made of iron."
TOWER = ["The Eiffel Tower, finished in 1889, is 330 metres tall, and made of iron."]


def garbage(request: LLMRequest[Any]) -> Any:
    """A confirming model whose replies never hold a verdict per claim."""
    return {"verdicts": []}


def test_a_confirmer_that_keeps_failing_fails_the_confirm_step_and_a_rerun_asks_only_it(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    first_judge, bad = FakeLLM(judge), FakeLLM(garbage, model_name="jury")
    out = evaluate(DATA, [ContextRecall(first_judge, confirm=bad)], show_progress=False, checkpoint=checkpoint)
    assert len(out.failures) == 3 and len(first_judge.requests) == 3
    failure = out.failures[0]
    assert failure.type == "ConfirmationError" and "\n" not in failure.message
    assert "confirming model 'jury'" in failure.message and "2 supported claim(s)" in failure.message
    assert "RepairsExhaustedError: no valid reply" in failure.message  # the cause
    # The failed result keeps what was paid: the judge's request and the confirmer's three attempts.
    assert out.results("context_recall")[0].usage.requests == 1 + 3
    kept = [json.loads(line) for line in checkpoint.read_text().splitlines()[1:]]
    assert sorted(r["index"] for r in kept if r.get("kind") == "step") == [0, 1, 2]

    again_judge = FakeLLM([])  # asked anything, it fails: the rerun must not ask
    good = FakeLLM(confirmer({CLAIMS[0]}), model_name="jury")
    again = evaluate(DATA, [ContextRecall(again_judge, confirm=good)], show_progress=False, checkpoint=checkpoint)
    assert again_judge.requests == [] and len(good.requests) == 3 and not again.failures
    straight = evaluate(
        DATA,
        [ContextRecall(FakeLLM(judge), confirm=FakeLLM(confirmer({CLAIMS[0]}), model_name="jury"))],
        show_progress=False,
    )
    evidence = [r.evidence for r in straight.results("context_recall")]
    assert [r.evidence for r in again.results("context_recall")] == evidence
    assert again.values("context_recall") == pytest.approx([1 / 3] * 3)
    # The judge's request is on the books once, as in a run that never failed.
    assert again.usage.requests == straight.usage.requests


def test_the_error_of_a_failing_confirmer_names_it_and_keeps_the_usage() -> None:
    metric = ContextRecall(FakeLLM(judge), confirm=FakeLLM(garbage, model_name="jury"), max_repairs=0)
    with pytest.raises(ConfirmationError) as info:
        metric.score(reference_claims=CLAIMS, retrieved_contexts=CONTEXTS)
    assert (info.value.model, info.value.endpoint, info.value.claims) == ("jury", None, 2)
    assert info.value.usage is not None and info.value.usage.requests == 2


def llm_for(url: str, model: str, cache: ResponseCache | None = None, **retry: Any) -> OpenAILLM:
    policy = RetryPolicy(**{"max_attempts": 4, "initial_wait": 0.05, "jitter": 0.05, "request_timeout": 10.0, **retry})
    return OpenAILLM(openai.AsyncOpenAI(api_key="sk-test", base_url=url), model, retry=policy, cache=cache)


def tower_samples(n: int) -> list[dict[str, Any]]:
    return [{"id": f"t{i}", "reference": f"{REFERENCE} Sample {i}.", "retrieved_contexts": TOWER} for i in range(n)]


FAULTS = {
    "down": None,
    "500": ServerReply(status=500),
    "garbage": ServerReply(content="not json at all"),
    "hang": ServerReply(delay=30.0),
}


@pytest.mark.parametrize("fault", list(FAULTS))
@pytest.mark.parametrize("keep", ["checkpoint", "cache"])
def test_a_dead_confirmer_stops_the_run_naming_it_and_a_rerun_sends_no_judge_request(
    tmp_path: Path, fault: str, keep: str
) -> None:
    """Through the real SDK: the judge on one fake server, the confirming model on another that is down,
    answers 500, answers garbage or hangs."""
    checkpoint = tmp_path / "run.ckpt" if keep == "checkpoint" else None
    cache_path = tmp_path / "cache.sqlite"
    data = tower_samples(6)
    with FakeOpenAIServer() as judge_server:
        reply = FAULTS[fault]
        broken = FakeOpenAIServer(responder=(lambda body: reply) if reply is not None else None).start()
        port = broken.port
        if reply is None:
            broken.stop()

        def metric(confirm_url: str, timeout: float = 10.0) -> ContextRecall:
            cache = ResponseCache(cache_path) if keep == "cache" else None
            judge_llm = llm_for(judge_server.base_url, "judge-model", cache)
            return ContextRecall(judge_llm, confirm=llm_for(confirm_url, "jury-model", request_timeout=timeout))

        try:
            with pytest.raises(EndpointDownError) as info:
                evaluate(data, [metric(broken.base_url, timeout=0.5)], show_progress=False, checkpoint=checkpoint)
        finally:
            broken.stop()
        message = str(info.value)
        assert "\n" not in message and message.startswith("confirming model stopped early")
        assert f"127.0.0.1:{port}" in message and "jury-model" in message and "judge-model" not in message
        partial = info.value.result
        assert partial is not None and partial.partial is not None and "EndpointDownError" in partial.partial
        paid = len(judge_server.requests)
        assert paid == 2 * len(data)  # each sample decomposed and judged before the confirmer was asked

        with FakeOpenAIServer(port=port) as fixed:
            result = evaluate(data, [metric(fixed.base_url)], show_progress=False, checkpoint=checkpoint)
            confirmations = len(fixed.requests)
        assert len(judge_server.requests) == paid  # not one judge request more
    assert confirmations == len(data) and not result.failures and len(result) == len(data)
    assert all(c.confirmed for r in result.results("context_recall") for c in r.evidence.claims if c.supported)


def test_a_confirmer_fixed_at_another_url_resumes_the_kept_judging(tmp_path: Path) -> None:
    """The kept steps hold the judge's answers only: moving the confirming model needs no
    --allow-endpoint-change, moving the judge does."""
    checkpoint, data = tmp_path / "run.ckpt", tower_samples(3)
    with FakeOpenAIServer() as judge_server:
        dead = FakeOpenAIServer().start()
        dead.stop()
        with pytest.raises(EndpointDownError):
            evaluate(
                data,
                [ContextRecall(llm_for(judge_server.base_url, "judge-model"), confirm=llm_for(dead.base_url, "jury"))],
                show_progress=False,
                checkpoint=checkpoint,
            )
        paid = len(judge_server.requests)
        with FakeOpenAIServer() as elsewhere, FakeOpenAIServer() as other_judge:
            moved_judge = ContextRecall(
                llm_for(other_judge.base_url, "judge-model"), confirm=llm_for(elsewhere.base_url, "jury")
            )
            with pytest.raises(CheckpointError, match="allow-endpoint-change"):
                evaluate(data, [moved_judge], show_progress=False, checkpoint=checkpoint)
            metric = ContextRecall(
                llm_for(judge_server.base_url, "judge-model"), confirm=llm_for(elsewhere.base_url, "jury")
            )
            result = evaluate(data, [metric], show_progress=False, checkpoint=checkpoint)
            assert len(elsewhere.requests) == 3 and not other_judge.requests
        assert len(judge_server.requests) == paid and not result.failures
    assert result.run is not None and any("confirm" in change for change in result.run.endpoint_changes)
