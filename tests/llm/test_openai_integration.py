"""The OpenAI adapter with a real ``AsyncOpenAI`` client against the local fake server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from ragrecall.errors import CacheMissError, ConfigurationError, LLMRequestError, TransportError
from ragrecall.llm import OpenAILLM, ResponseCache, RetryPolicy, llm_factory
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply
from ragrecall.metrics.context_recall import ClaimRecallEvidence, ContextRecall

REFERENCE = "Paris is the capital of France. The Eiffel Tower is 330 metres tall."
CONTEXTS = ["Paris is the capital and largest city of France.", "Berlin is in Germany."]
CLAIMS_JSON = json.dumps({"claims": ["Paris is the capital of France.", "The Eiffel Tower is 330 metres tall."]})
VERDICTS_JSON = json.dumps(
    {
        "verdicts": [
            {
                "claim": 1,
                "reason": "Stated.",
                "supported": True,
                "support": [{"context": 1, "quote": "Paris is the capital and largest city of France"}],
            },
            {"claim": 2, "reason": "Not mentioned.", "supported": False, "support": []},
        ]
    }
)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


class Sleeps:
    """Records the waits the retry policy asks for, without waiting."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def make_llm(server: FakeOpenAIServer, sleeps: Sleeps | None = None, **options: Any) -> OpenAILLM:
    client = openai.AsyncOpenAI(api_key="sk-test", base_url=server.base_url, max_retries=5)
    policy_args: dict[str, Any] = {"max_attempts": 3, "request_timeout": 5.0, "sleep": sleeps or Sleeps()}
    policy_args.update(options.pop("retry_args", {}))
    return OpenAILLM(client, "gpt-4o-mini", retry=RetryPolicy(**policy_args), **options)


def test_structured_output_path_sends_a_strict_schema_and_reads_usage(server: FakeOpenAIServer) -> None:
    server.enqueue(
        ServerReply(CLAIMS_JSON, prompt_tokens=111, completion_tokens=22),
        ServerReply(VERDICTS_JSON, prompt_tokens=333, completion_tokens=44),
    )
    result = ContextRecall(make_llm(server)).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert result.value == 0.5
    assert result.usage.requests == 2
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (444, 66)
    assert result.usage.cost_usd == pytest.approx((444 * 0.15 + 66 * 0.60) / 1e6)
    first = server.requests[0]
    assert first["model"] == "gpt-4o-mini" and first["temperature"] == 0 and first["seed"] == 0
    fmt = first["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    schema = fmt["json_schema"]["schema"]
    assert schema["additionalProperties"] is False and schema["required"] == ["claims"]
    judge_schema = server.requests[1]["response_format"]["json_schema"]["schema"]
    assert judge_schema["required"] == ["supported", "unsupported"]  # the earlier shape is read, never asked for
    quoted, unsupported = (judge_schema["properties"][k]["items"] for k in ("supported", "unsupported"))
    assert quoted["additionalProperties"] is False and quoted["required"] == ["claim", "context", "quote"]
    assert unsupported["additionalProperties"] is False and unsupported["required"] == ["claim", "reason"]
    # The compact schema: definitions inlined, no titles or descriptions (the prompt says what fields mean).
    assert "$defs" not in judge_schema and "title" not in json.dumps(judge_schema)
    assert first["messages"][0]["role"] == "system"


def test_json_mode_path(server: FakeOpenAIServer) -> None:
    server.enqueue(ServerReply("```json\n" + CLAIMS_JSON + "\n```"), ServerReply(VERDICTS_JSON))
    llm = make_llm(server, output_mode="json_object")
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert result.value == 0.5
    assert [r["response_format"] for r in server.requests] == [{"type": "json_object"}] * 2
    assert all("JSON" in r["messages"][0]["content"] for r in server.requests)


def test_rate_limit_with_retry_after_then_success(server: FakeOpenAIServer) -> None:
    sleeps = Sleeps()
    server.enqueue(ServerReply(status=429, headers={"Retry-After": "0.25"}), ServerReply(CLAIMS_JSON))
    server.enqueue(ServerReply(VERDICTS_JSON))
    result = ContextRecall(make_llm(server, sleeps)).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert result.value == 0.5
    assert sleeps.waits == [0.25]
    assert len(server.requests) == 3  # one 429 plus two answers: the SDK retried nothing itself
    assert result.usage.requests == 2


def test_retry_after_ms_is_preferred(server: FakeOpenAIServer) -> None:
    sleeps = Sleeps()
    server.enqueue(
        ServerReply(status=429, headers={"retry-after-ms": "40", "Retry-After": "9"}), ServerReply(CLAIMS_JSON)
    )
    server.enqueue(ServerReply(VERDICTS_JSON))
    ContextRecall(make_llm(server, sleeps)).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert sleeps.waits == [pytest.approx(0.04)]


def test_server_error_then_success_uses_backoff(server: FakeOpenAIServer) -> None:
    sleeps = Sleeps()
    server.enqueue(ServerReply(status=500), ServerReply(CLAIMS_JSON), ServerReply(VERDICTS_JSON))
    llm = make_llm(server, sleeps, retry_args={"initial_wait": 0.5, "jitter": 0.1})
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert result.value == 0.5
    assert len(server.requests) == 3
    assert len(sleeps.waits) == 1 and 0.5 <= sleeps.waits[0] <= 0.6


def test_hung_request_times_out_and_is_retried(server: FakeOpenAIServer) -> None:
    sleeps = Sleeps()
    server.enqueue(ServerReply(CLAIMS_JSON, delay=30), ServerReply(CLAIMS_JSON), ServerReply(VERDICTS_JSON))
    llm = make_llm(server, sleeps, retry_args={"request_timeout": 0.3})
    result = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert result.value == 0.5
    assert len(server.requests) == 3 and len(sleeps.waits) == 1


def test_retries_exhausted_raise_with_the_last_error(server: FakeOpenAIServer) -> None:
    sleeps = Sleeps()
    server.enqueue(*[ServerReply(status=503)] * 3)
    with pytest.raises(LLMRequestError, match="gave up after 3 attempts") as info:
        ContextRecall(make_llm(server, sleeps)).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    cause = info.value.__cause__
    assert isinstance(cause, TransportError) and cause.status == 503 and cause.retryable
    # The SDK's exception is not chained: it holds the request sent, the key in its headers.
    assert cause.__cause__ is None and cause.__context__ is None
    assert server.base_url in str(info.value)
    assert len(server.requests) == 3  # max_attempts, not multiplied by the client's max_retries=5
    assert len(sleeps.waits) == 2


def test_hung_requests_exhaust_retries(server: FakeOpenAIServer) -> None:
    server.enqueue(*[ServerReply(CLAIMS_JSON, delay=30)] * 2)
    llm = make_llm(server, retry_args={"request_timeout": 0.2, "max_attempts": 2})
    with pytest.raises(LLMRequestError) as info:
        ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    cause = info.value.__cause__
    assert isinstance(cause, TransportError) and cause.kind == "timeout"


def test_client_errors_are_not_retried(server: FakeOpenAIServer) -> None:
    server.enqueue(ServerReply(status=400))
    with pytest.raises(LLMRequestError, match="not retryable") as info:
        ContextRecall(make_llm(server)).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    cause = info.value.__cause__
    assert isinstance(cause, TransportError) and cause.status == 400 and not cause.retryable
    assert cause.__cause__ is None  # the SDK exception, with the request and its key, is not chained
    assert len(server.requests) == 1


def test_too_long_retry_after_stops_at_once(server: FakeOpenAIServer) -> None:
    sleeps = Sleeps()
    server.enqueue(ServerReply(status=429, headers={"Retry-After": "600"}))
    with pytest.raises(LLMRequestError):
        ContextRecall(make_llm(server, sleeps)).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert len(server.requests) == 1 and sleeps.waits == []


def test_total_time_budget_stops_retrying(server: FakeOpenAIServer) -> None:
    server.enqueue(ServerReply(status=429, headers={"Retry-After": "5"}), ServerReply(CLAIMS_JSON))
    llm = make_llm(server, retry_args={"total_timeout": 1.0, "max_attempts": 5})
    with pytest.raises(LLMRequestError):
        ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert len(server.requests) == 1


def test_invalid_reply_from_the_server_is_repaired(server: FakeOpenAIServer) -> None:
    server.enqueue(ServerReply("{not json"), ServerReply(CLAIMS_JSON), ServerReply(VERDICTS_JSON))
    result = ContextRecall(make_llm(server)).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert result.value == 0.5
    assert server.requests[1]["messages"][-2] == {"role": "assistant", "content": "{not json"}


def test_quotes_are_verified_and_an_invented_one_is_asked_about_through_the_real_client(
    server: FakeOpenAIServer,
) -> None:
    invented = {
        "verdicts": [
            {
                "claim": 1,
                "reason": "Stated.",
                "supported": True,
                "support": [{"context": 2, "quote": "PARIS IS THE CAPITAL"}],
            },
            {
                "claim": 2,
                "reason": "Stated.",
                "supported": True,
                "support": [{"context": 1, "quote": "The tower is 330 metres tall"}],
            },
        ]
    }
    again = {"verdicts": [{"claim": 2, "reason": "Not in any context.", "supported": False, "support": []}]}
    server.enqueue(
        ServerReply(CLAIMS_JSON, prompt_tokens=50, completion_tokens=10),
        ServerReply(json.dumps(invented), prompt_tokens=200, completion_tokens=40),
        ServerReply(json.dumps(again), prompt_tokens=260, completion_tokens=12),
    )
    result = ContextRecall(make_llm(server)).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)

    assert result.value == 0.5 and result.usage.requests == 3
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (510, 62)
    evidence = result.evidence
    assert isinstance(evidence, ClaimRecallEvidence)
    first, second = evidence.claims
    # Cited to context 2, found in context 1: corrected, with its span in the original text.
    assert first.verification == "corrected" and first.supporting_contexts == [0]
    quote = first.support[0]
    assert (quote.context, quote.cited) == (0, 1)
    assert quote.passage == CONTEXTS[0][quote.start : quote.end] == "Paris is the capital"
    assert second.verification == "none" and not second.supported and evidence.reasks == 1
    recheck = server.requests[2]
    assert recheck["messages"][-2]["role"] == "assistant" and json.loads(recheck["messages"][-2]["content"]) == invented
    assert '- <claim id="2">' in recheck["messages"][-1]["content"]
    assert recheck["response_format"]["json_schema"]["name"] == "JudgedClaims"


def test_the_offline_responder_answers_every_step_with_verified_quotes(server: FakeOpenAIServer) -> None:
    reference = "Paris is the capital of France. Berlin is in Germany. The Eiffel Tower is 330 metres tall."
    for mode in ("claims", "single"):
        result = ContextRecall(make_llm(server), mode=mode).score(reference=reference, retrieved_contexts=CONTEXTS)  # type: ignore[arg-type]
        evidence = result.evidence
        assert isinstance(evidence, ClaimRecallEvidence)
        assert result.value == pytest.approx(2 / 3)
        assert [c.verification for c in evidence.claims] == ["verified", "verified", "none"]
        assert evidence.claims[1].support[0].passage == "Berlin is in Germany."


def test_cut_off_reply_is_sent_back(server: FakeOpenAIServer) -> None:
    server.enqueue(ServerReply('{"claims": ["Par', finish_reason="length"), ServerReply(CLAIMS_JSON))
    server.enqueue(ServerReply(VERDICTS_JSON))
    ContextRecall(make_llm(server)).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert "token limit" in server.requests[1]["messages"][-1]["content"]


def test_cache_answers_an_identical_second_run_without_requests(server: FakeOpenAIServer, tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with ResponseCache(path) as cache:
        metric = ContextRecall(make_llm(server, cache=cache))
        first = metric.score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
        sent = len(server.requests)
        second = metric.score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert sent == 2 and len(server.requests) == 2
    assert second.value == first.value and second.evidence == first.evidence
    assert second.usage.requests == 0 and second.usage.cached_requests == 2
    assert first.usage.requests == 2 and first.usage.cached_requests == 0

    # A new process with a different key and base URL replays the same answers: neither is in the key.
    with FakeOpenAIServer() as other, ResponseCache(path, mode="replay-only") as replay:
        client = openai.AsyncOpenAI(api_key="sk-another", base_url=other.base_url)
        llm = OpenAILLM(client, "gpt-4o-mini", cache=replay)
        third = ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
        assert third.value == first.value and other.requests == []


def test_replay_only_cache_raises_on_a_miss(server: FakeOpenAIServer, tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with ResponseCache(path) as cache:
        ContextRecall(make_llm(server, cache=cache)).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    sent = len(server.requests)
    with ResponseCache(path, mode="replay-only") as replay:
        metric = ContextRecall(make_llm(server, cache=replay))
        with pytest.raises(CacheMissError, match="replay-only"):
            metric.score(reference="Something never asked.", retrieved_contexts=CONTEXTS)
        with pytest.raises(CacheMissError):  # another model is another key
            ContextRecall(make_llm(server, cache=replay, temperature=0.5)).score(
                reference=REFERENCE, retrieved_contexts=CONTEXTS
            )
    assert len(server.requests) == sent


def test_replay_only_needs_an_existing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match="does not exist"):
        ResponseCache(tmp_path / "missing.sqlite", mode="replay-only")


def test_same_client_across_many_sync_calls_in_a_script(server: FakeOpenAIServer) -> None:
    metric = ContextRecall(make_llm(server))
    values = [metric.score(reference=REFERENCE, retrieved_contexts=CONTEXTS).value for _ in range(5)]
    assert values == [0.5] * 5
    assert len(server.requests) == 10


async def test_same_client_across_sync_calls_inside_a_running_loop(server: FakeOpenAIServer) -> None:
    metric = ContextRecall(make_llm(server), mode="single")
    values = [metric.score(reference=REFERENCE, retrieved_contexts=CONTEXTS).value for _ in range(3)]
    assert values == [0.5] * 3
    batch = await asyncio.to_thread(
        metric.batch_score, [{"reference": REFERENCE, "retrieved_contexts": CONTEXTS}] * 4, max_concurrency=4
    )
    assert [r.value for r in batch] == [0.5] * 4
    result = await metric.ascore(reference=REFERENCE, retrieved_contexts=CONTEXTS)
    assert isinstance(result.evidence, ClaimRecallEvidence) and result.value == 0.5


def test_adapter_rejects_bad_clients_and_factory_builds_one(server: FakeOpenAIServer) -> None:
    with pytest.raises(ConfigurationError, match="AsyncOpenAI"):
        OpenAILLM(openai.OpenAI(api_key="x", base_url=server.base_url), "m")  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError):
        OpenAILLM(openai.AsyncOpenAI(api_key="x", base_url=server.base_url), "m", output_mode="xml")  # type: ignore[arg-type]
    llm = llm_factory("gpt-4o-mini", client=openai.AsyncOpenAI(api_key="x", base_url=server.base_url), seed=None)
    assert isinstance(llm, OpenAILLM)
    assert llm.model_name == "gpt-4o-mini" and "seed" not in llm.sampling_params()
    with pytest.raises(ConfigurationError, match="not built in"):
        llm_factory("m", provider="cohere")
    anthropic = pytest.importorskip("anthropic")
    claude = llm_factory("claude-test", anthropic.AsyncAnthropic(api_key="x"), provider="anthropic", max_tokens=64)
    assert claude.model_name == "claude-test" and claude.settings()["max_tokens"] == 64


def test_await_then_sync_score_inside_one_running_loop_does_not_deadlock(server: FakeOpenAIServer) -> None:
    # A notebook: `await metric.ascore(...)` in one cell binds nothing to the notebook's loop, so a later
    # `metric.score(...)` (which blocks that loop's thread while it waits) still gets its HTTP calls answered.
    metric = ContextRecall(make_llm(server), mode="single")
    values: list[float | None] = []

    async def cell() -> None:
        values.append((await metric.ascore(reference=REFERENCE, retrieved_contexts=CONTEXTS)).value)
        values.append(metric.score(reference=REFERENCE, retrieved_contexts=CONTEXTS).value)

    worker = threading.Thread(target=asyncio.run, args=(cell(),), daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive(), "score() after ascore() in one loop hung"
    assert values == [0.5, 0.5]


def _refuses_json_schema(inner: Any) -> Any:
    def respond(body: Any) -> ServerReply:
        if body.get("response_format", {}).get("type") == "json_schema":
            message = "response_format of type json_schema is not supported by this model"
            return ServerReply(status=400, body={"error": {"message": message, "type": "invalid_request_error"}})
        return inner(body)

    return respond


def test_auto_mode_falls_back_to_json_mode_when_structured_outputs_are_refused() -> None:
    from ragrecall.llm.fake_server import offline_responder

    with FakeOpenAIServer(_refuses_json_schema(offline_responder())) as server:
        llm = make_llm(server)  # output_mode="auto" is the default
        metric = ContextRecall(llm)
        first = metric.score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
        second = metric.score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
        formats = [body["response_format"]["type"] for body in server.requests]
    assert first.value == second.value == 0.5
    # One refused structured-output request, then JSON mode for good: no retries of the 400 itself.
    assert formats == ["json_schema", "json_object", "json_object", "json_object", "json_object"]


def test_explicit_json_schema_mode_does_not_fall_back() -> None:
    from ragrecall.llm.fake_server import offline_responder

    with FakeOpenAIServer(_refuses_json_schema(offline_responder())) as server:
        metric = ContextRecall(make_llm(server, output_mode="json_schema"))
        with pytest.raises(LLMRequestError, match="not retryable"):
            metric.score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
        assert len(server.requests) == 1


def test_auto_mode_keeps_structured_outputs_for_other_400s() -> None:
    def respond(body: Any) -> ServerReply:
        return ServerReply(
            status=400, body={"error": {"message": "model not allowed", "type": "invalid_request_error"}}
        )

    with FakeOpenAIServer(respond) as server:
        llm = make_llm(server)
        with pytest.raises(LLMRequestError, match="model not allowed"):
            ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)
        assert [b["response_format"]["type"] for b in server.requests] == ["json_schema"]
