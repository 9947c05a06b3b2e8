"""Every transport against the local fake server, through the real SDKs, with the same faults: slow-drip
bodies, HTML pages, echoed keys, dead endpoints, unknown models, and a replay that needs no network."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest

from ragrecall import evaluate
from ragrecall.errors import EndpointDownError, LLMRequestError, TransportError
from ragrecall.llm import AnthropicLLM, LLMStack, ModelPrice, OpenAILLM, ResponseCache, RetryPolicy
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply
from ragrecall.metrics.context_recall import ContextRecall

KEY = "sk-test-Zq8w2Rk5Lm3Nb7Vc1Xd9Fg"
REFERENCE = "Paris is the capital of France. The Eiffel Tower is 330 metres tall."
CONTEXTS = ["Paris is the capital and largest city of France.", "Berlin is in Germany."]
CLAIMS = json.dumps({"claims": ["Paris is the capital of France.", "The Eiffel Tower is 330 metres tall."]})


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


@pytest.fixture(params=["openai", "anthropic"])
def provider(request: pytest.FixtureRequest) -> str:
    return str(request.param)


async def _no_sleep(seconds: float) -> None:
    return None


def make(provider: str, base_url: str, *, key: str = KEY, **options: Any) -> LLMStack:
    retry_args: dict[str, Any] = {"max_attempts": 3, "request_timeout": 5.0, "sleep": _no_sleep}
    retry_args.update(options.pop("retry_args", {}))
    retry = RetryPolicy(**retry_args)
    if provider == "openai":
        return OpenAILLM(openai.AsyncOpenAI(api_key=key, base_url=base_url), "gpt-4o-mini", retry=retry, **options)
    root = base_url.removesuffix("/v1")
    return AnthropicLLM(anthropic.AsyncAnthropic(api_key=key, base_url=root), "claude-test", retry=retry, **options)


def score(llm: LLMStack) -> Any:
    return ContextRecall(llm).score(reference=REFERENCE, retrieved_contexts=CONTEXTS)


def test_the_offline_answers_come_back_through_each_sdk(server: FakeOpenAIServer, provider: str) -> None:
    result = score(make(provider, server.base_url))
    assert result.value == 0.5 and result.usage.requests == 2
    sent = server.requests[0]
    if provider == "anthropic":
        assert sent["tool_choice"]["type"] == "tool" and sent["tools"][0]["input_schema"]["type"] == "object"
        assert all(m["role"] != "system" for m in sent["messages"]) and sent["system"]


def test_prompt_cache_reads_are_recorded_and_priced_at_the_cached_rate(server: FakeOpenAIServer, provider: str) -> None:
    supported = {"claim": 1, "supported": True, "support": [{"context": 1, "quote": "Paris is the capital"}]}
    verdicts = {"verdicts": [supported, {"claim": 2, "supported": False, "support": [], "reason": "Not stated."}]}
    server.enqueue(
        ServerReply(CLAIMS, prompt_tokens=1500, completion_tokens=40, cached_tokens=0),
        ServerReply(json.dumps(verdicts), prompt_tokens=2000, completion_tokens=60, cached_tokens=1280),
    )
    prices = {"gpt-4o-mini": ModelPrice(1.0, 4.0, 0.5, 2.0, 0.25), "claude-test": ModelPrice(1.0, 4.0, 0.5, 2.0, 0.25)}
    result = score(make(provider, server.base_url, prices=prices))
    # Both SDKs' usage shapes give the same record: Anthropic counts cache reads apart from input_tokens.
    assert (result.usage.prompt_tokens, result.usage.cached_tokens, result.usage.completion_tokens) == (3500, 1280, 100)
    assert result.usage.cost_usd == pytest.approx(((3500 - 1280) * 1.0 + 1280 * 0.25 + 100 * 4.0) / 1e6)
    assert result.usage.prompt_cache_note() == " (1,280 from the provider's prompt cache)"


def test_a_slow_drip_body_is_cut_at_the_deadline(server: FakeOpenAIServer, provider: str) -> None:
    server.enqueue(ServerReply(CLAIMS + " " * 4000, drip=0.05))
    llm = make(provider, server.base_url, retry_args={"max_attempts": 1, "request_timeout": 0.5})
    with pytest.raises(LLMRequestError, match="deadline of one attempt") as info:
        score(llm)
    assert isinstance(info.value.__cause__, TransportError) and info.value.__cause__.kind == "timeout"


def test_an_html_page_is_a_retryable_error_naming_the_url(server: FakeOpenAIServer, provider: str) -> None:
    page = ServerReply(raw_body=b"<html><body>Please log in</body></html>", content_type="text/html")
    server.enqueue(page, page)
    with pytest.raises(LLMRequestError, match="not a reply") as info:
        score(make(provider, server.base_url, retry_args={"max_attempts": 2}))
    assert "127.0.0.1" in str(info.value) and "gave up after 2 attempts" in str(info.value)
    server.enqueue(page)
    assert score(make(provider, server.base_url)).value == 0.5  # retried, then answered
    # A URL that answers every request with a page is a wrong URL: a page is a transient fault, so the breaker
    # stops after twice its threshold of them, none answered.
    server.enqueue(*[page] * 10)
    with pytest.raises(EndpointDownError, match="malformed"):
        score(make(provider, server.base_url, retry_args={"max_attempts": 6}))
    assert len(server.requests) == 2 + 3 + 6


@pytest.mark.parametrize("echo", ["full", "masked"])
def test_an_echoed_key_is_scrubbed_from_errors(server: FakeOpenAIServer, provider: str, echo: str) -> None:
    server.enqueue(ServerReply(status=401, echo_key=echo))  # type: ignore[arg-type]
    with pytest.raises(LLMRequestError) as info:
        score(make(provider, server.base_url))
    chain = [info.value, info.value.__cause__, info.value.__cause__.__cause__ if info.value.__cause__ else None]
    text = " ".join(str(e) for e in chain if e is not None)
    assert "Incorrect API key provided" in text and "[redacted key]" in text
    assert KEY not in text and KEY[-4:] + "." not in text and KEY[:12] not in text


def test_an_echoed_key_in_a_reply_never_reaches_the_evidence(server: FakeOpenAIServer, provider: str) -> None:
    verdicts = {
        "verdicts": [
            {
                "claim": 1,
                "reason": "Stated.",
                "supported": True,
                "support": [{"context": 1, "quote": "Paris is the capital"}],
            },
            {"claim": 2, "reason": "Absent.", "supported": False, "support": []},
        ]
    }
    server.enqueue(ServerReply(CLAIMS), ServerReply(json.dumps(verdicts), echo_key="full"))
    result = score(make(provider, server.base_url))
    dumped = result.model_dump_json()
    assert result.value == 0.5 and "[redacted key]" in dumped and KEY not in dumped


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_dead_endpoint_stops_the_run_naming_url_and_model(provider: str, tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    metric = ContextRecall(make(provider, url, retry_args={"max_attempts": 6}))
    samples = [{"id": f"q{i}", "reference": REFERENCE, "retrieved_contexts": CONTEXTS} for i in range(40)]
    checkpoint = tmp_path / "run.ckpt"
    with pytest.raises(EndpointDownError) as info:
        evaluate(samples, [metric], show_progress=False, checkpoint=checkpoint)
    assert "127.0.0.1" in str(info.value) and ("gpt-4o-mini" in str(info.value) or "claude-test" in str(info.value))
    # Nothing was recorded as a failure: every sample is left for the resume.
    assert len(checkpoint.read_text(encoding="utf-8").splitlines()) == 1


def test_an_unknown_model_is_named(server: FakeOpenAIServer, provider: str) -> None:
    server.enqueue(ServerReply("The model `nope` does not exist or you do not have access to it.", status=404))
    with pytest.raises(LLMRequestError, match="is not known at") as info:
        score(make(provider, server.base_url))
    cause = info.value.__cause__
    assert isinstance(cause, TransportError) and cause.model_not_found


def test_a_401_for_every_request_stops_after_three(server: FakeOpenAIServer, provider: str) -> None:
    server.enqueue(*[ServerReply(status=401)] * 50)
    samples = [{"reference": REFERENCE, "retrieved_contexts": CONTEXTS} for _ in range(30)]
    with pytest.raises(EndpointDownError, match="HTTP 401"):
        evaluate(samples, [ContextRecall(make(provider, server.base_url))], show_progress=False, max_concurrency=1)
    assert len(server.requests) == 3


def test_an_always_500_endpoint_stops_after_a_few_requests(server: FakeOpenAIServer, provider: str) -> None:
    server.enqueue(*[ServerReply(status=500)] * 200)
    samples = [{"reference": REFERENCE, "retrieved_contexts": CONTEXTS} for _ in range(50)]
    llm = make(provider, server.base_url, retry_args={"max_attempts": 6})
    with pytest.raises(EndpointDownError, match="5xx"):
        evaluate(samples, [ContextRecall(llm)], show_progress=False, max_concurrency=4)
    assert len(server.requests) <= 6 + 4  # the breaker's count, plus what was already in flight


def test_a_repaired_run_replays_without_network_or_key(server: FakeOpenAIServer, provider: str, tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    server.enqueue(ServerReply("{not json"), ServerReply(CLAIMS, finish_reason="length"), ServerReply(CLAIMS))
    live = score(make(provider, server.base_url, cache=ResponseCache(path)))
    assert live.value == 0.5 and live.usage.requests == 4  # two repairs of the decomposition, one judgement
    counts = ResponseCache(path).counts()
    assert counts == {"rejected": 2, "valid": 2}
    dead = f"http://127.0.0.1:{_closed_port()}/v1"
    replayed = score(make(provider, dead, key="replay-only", cache=ResponseCache(path, mode="replay-only")))
    assert replayed.value == live.value and replayed.usage.requests == 0 and replayed.usage.cached_requests == 4
    assert replayed.evidence == live.evidence


def test_the_json_mode_fallback_replays(server: FakeOpenAIServer, tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    refusal = ServerReply("response_format json_schema is not supported by this model", status=400)
    server.enqueue(refusal)
    live = score(make("openai", server.base_url, cache=ResponseCache(path)))
    assert [r["response_format"]["type"] for r in server.requests] == ["json_schema", "json_object", "json_object"]
    dead = f"http://127.0.0.1:{_closed_port()}/v1"
    replayed = score(make("openai", dead, cache=ResponseCache(path, mode="replay-only")))
    assert replayed.value == live.value and replayed.usage.cached_requests == 2
    pinned = score(make("openai", dead, output_mode="json_object", cache=ResponseCache(path, mode="replay-only")))
    assert pinned.value == live.value


def test_a_resume_against_another_endpoint_is_refused(server: FakeOpenAIServer, tmp_path: Path) -> None:
    from ragrecall.errors import CheckpointError

    samples = [{"reference": REFERENCE, "retrieved_contexts": CONTEXTS}]
    checkpoint = tmp_path / "run.ckpt"
    evaluate(samples, [ContextRecall(make("openai", server.base_url))], show_progress=False, checkpoint=checkpoint)
    other = ContextRecall(make("openai", f"http://127.0.0.1:{_closed_port()}/v1"))
    with pytest.raises(CheckpointError, match="other metrics or settings"):
        evaluate(samples, [other], show_progress=False, checkpoint=checkpoint)


@pytest.mark.parametrize(
    "reply",
    [
        ServerReply(raw_body=b"<html>not json</html>"),  # labelled application/json
        ServerReply(raw_body=b'{"id": "x", "choices": '),  # cut off
        ServerReply(body={"error": {"message": "upstream overloaded", "type": "server_error"}}),
        ServerReply(body={"choices": "x", "content": 3}),
    ],
    ids=["html-as-json", "cut-off", "error-object", "other-shape"],
)
def test_a_200_that_is_not_a_reply_is_retried_never_a_crash(
    server: FakeOpenAIServer, provider: str, reply: ServerReply
) -> None:
    server.enqueue(reply)
    result = score(make(provider, server.base_url))
    assert result.value == 0.5 and len(server.requests) == 3  # the bad body, retried, then two answers
    server.enqueue(reply, reply)
    with pytest.raises(LLMRequestError, match=r"not a reply|a malformed reply") as info:
        score(make(provider, server.base_url, retry_args={"max_attempts": 2}))
    assert "127.0.0.1" in str(info.value)


def test_every_credential_is_scrubbed_and_a_placeholder_key_changes_no_reply(server: FakeOpenAIServer) -> None:
    token = "tok-Hq3Vz8Lw1Rn5Xc7Kb2Mp"
    client = anthropic.AsyncAnthropic(auth_token=token, base_url=server.base_url.removesuffix("/v1"))
    server.enqueue(ServerReply(status=401, content=f"bad token {token[:8]}****{token[-4:]} (Bearer {token})"))
    with pytest.raises(LLMRequestError) as info:
        score(AnthropicLLM(client, "claude-test", retry=RetryPolicy(max_attempts=1)))
    assert token not in str(info.value) and token[:8] not in str(info.value)
    # llama.cpp's documented placeholder key shares "required" with ordinary text: replies keep their words.
    reference = "A valid passport is required for entry."
    llm = make("openai", server.base_url, key="sk-no-key-required")
    result = ContextRecall(llm).score(reference=reference, retrieved_contexts=[reference])
    assert result.value == 1.0 and "[redacted key]" not in result.model_dump_json()
