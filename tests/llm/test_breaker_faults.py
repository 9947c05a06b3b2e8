"""The breaker through the real OpenAI SDK against the local fake server: an endpoint killed mid-run stops the
run in seconds and a resume finishes it; a flaky one is never stopped; a dropped connection is transient."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import openai
import pytest

from ragrecall import evaluate
from ragrecall.errors import EndpointDownError, TransportError
from ragrecall.llm import OpenAILLM, RetryPolicy
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply, flaky_responder
from ragrecall.metrics.context_recall import ContextRecall

KEY = "sk-test-Br3aker0Key9Xw7Vq5Lm"
REFERENCE = "Paris is the capital of France. The Eiffel Tower is 330 metres tall."
CONTEXTS = ["Paris is the capital and largest city of France.", "Berlin is in Germany."]
PAGE = ServerReply(raw_body=b"<html><body>502 Bad Gateway</body></html>", content_type="text/html")


def samples(n: int) -> list[dict[str, Any]]:
    return [{"id": f"q{i}", "reference": REFERENCE, "retrieved_contexts": CONTEXTS} for i in range(n)]


def llm_for(url: str, **retry: Any) -> OpenAILLM:
    policy = RetryPolicy(**{"max_attempts": 6, "initial_wait": 0.2, "jitter": 0.2, "request_timeout": 10.0, **retry})
    return OpenAILLM(openai.AsyncOpenAI(api_key=KEY, base_url=url), "gpt-4o-mini", retry=policy)


def test_an_endpoint_killed_mid_run_stops_it_in_seconds_and_a_resume_finishes(tmp_path: Path) -> None:
    checkpoint = tmp_path / "run.ckpt"
    server = FakeOpenAIServer(latency=0.02).start()
    port = server.port
    killed_at: list[float] = []

    def kill_after_some_requests() -> None:
        while len(server.requests) < 40:
            time.sleep(0.005)
        server.stop()
        killed_at.append(time.monotonic())

    killer = threading.Thread(target=kill_after_some_requests)
    killer.start()
    llm = llm_for(server.base_url)
    with pytest.raises(EndpointDownError) as info:
        evaluate(samples(300), [ContextRecall(llm)], show_progress=False, max_concurrency=8, checkpoint=checkpoint)
    stopped_at = time.monotonic()
    killer.join()
    message = str(info.value)
    assert "\n" not in message and f"127.0.0.1:{port}" in message and "gpt-4o-mini" in message
    assert "no connection" in message
    assert stopped_at - killed_at[0] < 30
    assert llm.breaker is not None and llm.breaker.attempts > 0

    with FakeOpenAIServer(port=port) as revived:
        result = evaluate(
            samples(300), [ContextRecall(llm_for(revived.base_url))], show_progress=False, checkpoint=checkpoint
        )
    assert not result.failures and len(result) == 300
    # Only what the first run left was asked: two requests per sample still to do.
    finished_before = 300 - len(revived.requests) // 2
    assert 0 < finished_before < 300


def test_attempts_after_the_death_stay_within_three_times_the_concurrency(tmp_path: Path) -> None:
    server = FakeOpenAIServer(latency=0.02).start()
    llm = llm_for(server.base_url)
    marks: list[int] = []

    def kill() -> None:
        while len(server.requests) < 30:
            time.sleep(0.005)
        assert llm.breaker is not None
        marks.append(llm.breaker.attempts)
        server.stop()

    killer = threading.Thread(target=kill)
    killer.start()
    with pytest.raises(EndpointDownError):
        evaluate(samples(200), [ContextRecall(llm)], show_progress=False, max_concurrency=4)
    killer.join()
    assert llm.breaker is not None
    assert llm.breaker.attempts - marks[0] <= 3 * 4


@pytest.mark.parametrize(
    ("share", "failure"),
    [(0.5, PAGE), (0.3, ServerReply(drop=True)), (0.3, ServerReply(status=503))],
    ids=["50% pages", "30% resets", "30% 503"],
)
def test_a_flaky_endpoint_with_successes_between_is_never_stopped(share: float, failure: ServerReply) -> None:
    # Failures come at once, good replies after 50 ms: the first replies to arrive are the failures.
    with FakeOpenAIServer(flaky_responder(share, failure, good_delay=0.05, seed=7)) as server:
        llm = llm_for(server.base_url, initial_wait=0.01, jitter=0.01)
        result = evaluate(samples(60), [ContextRecall(llm)], show_progress=False, max_concurrency=16)
    assert len(result) == 60
    assert llm.breaker is not None and not llm.breaker.is_open
    for failure_record in result.failures:  # a sample unlucky on every attempt is a failure with its cause
        assert "127.0.0.1" in failure_record.message


def test_a_dropped_connection_is_transient_and_a_refused_one_is_not() -> None:
    with FakeOpenAIServer(replies=[ServerReply(drop=True)]) as server:
        llm = llm_for(server.base_url, max_attempts=1)
        with pytest.raises(Exception) as info:
            ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
        port = server.port
    cause = info.value.__cause__
    assert isinstance(cause, TransportError) and cause.kind == "dropped" and cause.retryable
    llm = llm_for(f"http://127.0.0.1:{port}/v1", max_attempts=1)
    with pytest.raises(Exception) as info:
        ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    cause = info.value.__cause__
    assert isinstance(cause, TransportError) and cause.kind == "connection"


def test_an_endpoint_that_never_parses_is_stopped_after_a_few_requests() -> None:
    never = ServerReply("this is not JSON")
    with FakeOpenAIServer(lambda body: never) as server:
        llm = llm_for(server.base_url)
        with pytest.raises(EndpointDownError, match="do not parse") as info:
            evaluate(samples(200), [ContextRecall(llm)], show_progress=False, max_concurrency=4)
        assert len(server.requests) <= 6 + 4
    assert f"127.0.0.1:{server.port}" in str(info.value) and "gpt-4o-mini" in str(info.value)
