"""A hang is noticed in seconds: once an endpoint has answered, an attempt far slower than its recent valid
replies counts as a hang, and a few hangs stop the run naming the URL and the model; an endpoint that slows
down gradually is never stopped; the progress bar shows the requests overdue."""

from __future__ import annotations

from typing import Any

import openai
import pytest

from ragrecall import evaluate
from ragrecall.errors import ConfigurationError, EndpointDownError
from ragrecall.evaluation._progress import Progress, overdue_counter
from ragrecall.llm import Breaker, OfflineJudge, OpenAILLM, RetryPolicy
from ragrecall.llm.fake_server import FakeOpenAIServer, hanging_responder
from ragrecall.metrics.context_recall import ContextRecall


def _samples(n: int) -> list[dict[str, Any]]:
    return [
        {"id": f"s{i}", "reference": f"Paris has {i} bridges. It is in France.", "retrieved_contexts": ["Paris."]}
        for i in range(n)
    ]


def _llm(server: FakeOpenAIServer, floor: float) -> OpenAILLM:
    client = openai.AsyncOpenAI(api_key="sk-test", base_url=server.base_url)
    llm = OpenAILLM(client, "gpt-4o-mini", retry=RetryPolicy(initial_wait=0.05, jitter=0.0))
    assert llm.breaker is not None
    llm.breaker.hang_floor = floor  # the default is 10 s: a test does not wait that long
    return llm


def test_an_endpoint_that_stops_answering_mid_run_is_stopped_as_a_hang() -> None:
    with FakeOpenAIServer(hanging_responder(6)) as server:
        llm = _llm(server, 0.3)
        with pytest.raises(EndpointDownError) as caught:
            evaluate(_samples(12), [ContextRecall(llm)], max_concurrency=4, show_progress=False)
        sent = len(server.requests)
    message = str(caught.value)
    assert server.base_url in message and "'gpt-4o-mini'" in message
    assert "requests that hang" in message and "it seems to hang" in message
    assert sent < 6 + 4 * 6, "stopped after a few hangs, not after every retry of every sample"


def test_an_endpoint_that_slows_down_gradually_is_never_stopped() -> None:
    with FakeOpenAIServer(hanging_responder(0, slowing=0.01)) as server:
        llm = _llm(server, 0.2)
        result = evaluate(_samples(16), [ContextRecall(llm)], max_concurrency=4, show_progress=False)
    assert [row.results["context_recall"].status for row in result.rows] == ["scored"] * 16
    assert len(server.requests) == 32, "no request timed out and was sent again"


def test_the_hang_deadline_follows_the_slowest_recent_reply_of_its_kind() -> None:
    from collections import deque

    breaker = Breaker(OfflineJudge(), hang_factor=4.0, hang_floor=8.0)
    assert breaker.hang_deadline("judge") is None and breaker.overdue() == 0  # before any valid reply: none
    breaker._good_took.extend([0.5, 1.0])
    breaker._took_by_task["decompose"] = deque([0.5, 1.0])
    assert breaker.hang_deadline("decompose") == 8.0  # the floor
    assert breaker.hang_deadline("judge") == 8.0  # no judge reply yet: 2 x 4 x 1.0 s, the floor still
    breaker._good_took.append(3.0)
    breaker._took_by_task["decompose"].append(3.0)
    assert breaker.hang_deadline("decompose") == 12.0
    assert breaker.hang_deadline("judge") == 24.0, "a kind not answered yet gets twice the margin"
    breaker._took_by_task["judge"] = deque([10.0])
    assert breaker.hang_deadline("judge") == 40.0
    assert Breaker(OfflineJudge(), hang_factor=None).hang_deadline() is None
    with pytest.raises(ConfigurationError, match="hang_factor"):
        Breaker(OfflineJudge(), hang_factor=0.5)


def test_a_first_slower_kind_of_request_is_not_cut_as_a_hang() -> None:
    """Decompositions answered fast, then judgements three times slower than the slowest of them: over
    ``hang_factor`` (2) times it, under twice that, the margin of a kind of request not answered yet. A
    sequential run is not stopped, and no request is sent twice."""
    from dataclasses import replace

    from ragrecall.llm.fake_server import offline_responder

    answer = offline_responder()
    kinds: list[bool] = []

    def respond(body: Any) -> Any:
        judging = "<claim" in str(body.get("messages"))
        kinds.append(judging)
        return replace(answer(body), delay=0.15 if judging else 0.05)

    with FakeOpenAIServer(respond) as server:
        llm = _llm(server, 0.01)
        assert llm.breaker is not None
        llm.breaker.hang_factor = 2.0
        result = evaluate(_samples(3), [ContextRecall(llm)], max_concurrency=1, show_progress=False)
    assert [row.results["context_recall"].status for row in result.rows] == ["scored"] * 3
    assert kinds == [False, True] * 3, "decomposition then judging, each sent once"


def test_the_progress_bar_shows_requests_overdue(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGRECALL_PROGRESS", "1")
    counts = iter([3, 3, 0])
    progress = Progress(4, enabled=True, overdue=lambda: next(counts))
    try:
        progress.show_overdue()
        assert progress._bar.postfix is not None and "overdue=3" in progress._bar.postfix
        progress.show_overdue()
        progress.show_overdue()
        assert "overdue" not in (progress._bar.postfix or "")
    finally:
        progress.close()


def test_the_overdue_counter_finds_the_breakers_of_the_metrics_llms() -> None:
    client = openai.AsyncOpenAI(api_key="sk-test", base_url="http://127.0.0.1:9/v1")
    llm = OpenAILLM(client, "gpt-4o-mini")
    counter = overdue_counter([ContextRecall(llm), ContextRecall(OfflineJudge())])
    assert counter is not None and counter() == 0
    assert overdue_counter([ContextRecall(OfflineJudge())]) is None
