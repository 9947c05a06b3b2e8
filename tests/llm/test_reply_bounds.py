"""Replies are bounded while read and decompressed, on the direct path and through a wrapped ``create``; odd
replies (too large, corrupt, nested too deep, lone surrogates, JSON of another shape) are retryable malformed
replies naming the URL and the field, and the requests they cost are counted; a wrapper set on the user's own
client object sees every request."""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from typing import Any

import openai
import pytest

from ragrecall.errors import LLMRequestError
from ragrecall.llm import OpenAILLM, RetryPolicy
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply
from ragrecall.metrics.context_recall import ClaimVerdict, ContextRecall
from ragrecall.metrics.context_recall._evidence import MAX_REASON

CLAIMS = json.dumps({"claims": ["Paris is the capital of France."]})
ATTEMPTS = 3


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


@pytest.fixture(params=["direct", "wrapped"])
def path(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _client(server: FakeOpenAIServer, path: str, seen: list[Any] | None = None) -> openai.AsyncOpenAI:
    client = openai.AsyncOpenAI(api_key="sk-test", base_url=server.base_url, max_retries=0)
    if path == "wrapped":  # an instance attribute on the user's own client: the SDK's create is called
        original = client.chat.completions.create
        calls = seen if seen is not None else []

        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls.append(kwargs)
            return await original(*args, **kwargs)

        client.chat.completions.create = wrapper  # type: ignore[method-assign]
    return client


def _score(client: openai.AsyncOpenAI) -> Any:
    retry = RetryPolicy(max_attempts=ATTEMPTS, request_timeout=10.0, sleep=_no_sleep)
    llm = OpenAILLM(client, "gpt-4o-mini", retry=retry)
    return ContextRecall(llm, coverage=False).score(
        reference="Paris is the capital of France.", retrieved_contexts=["Paris is the capital of France."]
    )


def _gzip(data: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    return packer.compress(data) + packer.flush()


def _completion(content: Any) -> dict[str, Any]:
    return {
        "id": "c",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 3},
    }


def _failure(server: FakeOpenAIServer, path: str, reply: ServerReply) -> LLMRequestError:
    server.enqueue(*[reply] * ATTEMPTS)
    with pytest.raises(LLMRequestError) as caught:
        _score(_client(server, path))
    assert len(server.requests) == ATTEMPTS, "retried as a malformed reply"
    return caught.value


def test_a_gzip_bomb_is_cut_at_the_limit(server: FakeOpenAIServer, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAGRECALL_MAX_REPLY", "1000000")
    bomb = _gzip(b" " * 20_000_000)
    error = _failure(server, path, ServerReply(raw_body=bomb, headers={"Content-Encoding": "gzip"}))
    assert f"{server.base_url}/chat/completions is larger than 1,000,000 bytes once decompressed" in str(error)
    assert "RAGRECALL_MAX_REPLY" in str(error)
    assert error.usage is not None and (error.usage.requests, error.usage.unknown_requests) == (ATTEMPTS, ATTEMPTS)


def test_a_plain_body_over_the_limit_is_cut(
    server: FakeOpenAIServer, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAGRECALL_MAX_REPLY", "100000")
    body = json.dumps(_completion("x" * 200_000)).encode()
    error = _failure(server, path, ServerReply(raw_body=body))
    assert "is larger than 100,000 bytes, the most ragrecall reads" in str(error)


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_a_compressed_reply_under_the_limit_is_read(server: FakeOpenAIServer, path: str, encoding: str) -> None:
    raw = json.dumps(_completion(CLAIMS)).encode()
    packed = _gzip(raw) if encoding == "gzip" else zlib.compress(raw)
    server.enqueue(ServerReply(raw_body=packed, headers={"Content-Encoding": encoding}))
    result = _score(_client(server, path))
    assert result.status == "scored" and result.usage.prompt_tokens == 5


def test_corrupt_gzip_is_a_malformed_reply(server: FakeOpenAIServer, path: str) -> None:
    error = _failure(
        server, path, ServerReply(raw_body=b"\x1f\x8b\x08\x00garbage" * 10, headers={"Content-Encoding": "gzip"})
    )
    assert "holds corrupt gzip data" in str(error) and server.base_url in str(error)


def test_a_reply_nested_too_deep_is_named(server: FakeOpenAIServer, path: str) -> None:
    deep = ("[" * 100_000 + "]" * 100_000).encode()
    error = _failure(server, path, ServerReply(raw_body=deep))
    assert "malformed reply: its JSON is nested too deep to read" in str(error) and server.base_url in str(error)
    assert "proxy" not in str(error)
    assert error.usage is not None and error.usage.requests == ATTEMPTS


def test_a_lone_surrogate_is_named(server: FakeOpenAIServer, path: str) -> None:
    body = json.dumps(_completion("x")).replace('"x"', '"\\ud800 claims"').encode()
    error = _failure(server, path, ServerReply(raw_body=body))
    assert "the field 'choices[0].message.content' holds a lone surrogate" in str(error)
    assert server.base_url in str(error) and "proxy" not in str(error)


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"id": "c", "object": "chat.completion", "choices": []}, "the field 'choices' is missing or empty"),
        ([1, 2, 3], "not a completion"),
    ],
)
def test_json_of_another_shape_is_a_malformed_reply_not_a_page(server: FakeOpenAIServer, body: Any, named: str) -> None:
    error = _failure(server, "direct", ServerReply(raw_body=json.dumps(body).encode()))
    assert "answered 200 with a malformed reply" in str(error) and named in str(error)
    assert "proxy" not in str(error)


def test_an_html_page_is_still_called_a_page(server: FakeOpenAIServer) -> None:
    error = _failure(server, "direct", ServerReply(raw_body=b"<html>login</html>", content_type="text/html"))
    assert "a proxy or login page?" in str(error)


def test_a_wrapper_on_the_users_client_object_sees_every_request(server: FakeOpenAIServer) -> None:
    seen: list[Any] = []
    client = _client(server, "wrapped", seen)
    for _ in range(2):
        assert _score(client).status == "scored"
    assert len(seen) == len(server.requests) == 2
    assert seen[0]["model"] == "gpt-4o-mini" and seen[0]["timeout"] == 10.0


def test_a_long_reason_is_cut_in_what_is_stored() -> None:
    verdict = ClaimVerdict(claim="c", supported=False, supporting_contexts=[], reason="why " * 10_000)
    assert len(verdict.reason) == MAX_REASON and verdict.reason.endswith("…")
    assert ClaimVerdict(claim="c", supported=False, supporting_contexts=[], reason="short").reason == "short"


def test_a_wrapper_on_the_users_anthropic_client_sees_every_request(server: FakeOpenAIServer) -> None:
    import anthropic

    from ragrecall.llm import AnthropicLLM

    client = anthropic.AsyncAnthropic(api_key="sk-test", base_url=server.base_url.removesuffix("/v1"), max_retries=0)
    seen: list[Any] = []
    original = client.messages.create

    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs)
        return await original(*args, **kwargs)

    client.messages.create = wrapper  # type: ignore[method-assign]
    llm = AnthropicLLM(client, "claude-test", retry=RetryPolicy(max_attempts=1, request_timeout=10.0))
    for _ in range(2):
        result = ContextRecall(llm, coverage=False).score(
            reference="Paris is the capital of France.", retrieved_contexts=["Paris is the capital of France."]
        )
        assert result.status == "scored"
    assert len(seen) == len(server.requests) == 2 and seen[0]["timeout"] == 10.0


def test_an_anthropic_gzip_bomb_is_cut(server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    import anthropic

    from ragrecall.llm import AnthropicLLM

    monkeypatch.setenv("RAGRECALL_MAX_REPLY", "1000000")
    server.enqueue(ServerReply(raw_body=_gzip(b" " * 20_000_000), headers={"Content-Encoding": "gzip"}))
    client = anthropic.AsyncAnthropic(api_key="sk-test", base_url=server.base_url.removesuffix("/v1"))
    llm = AnthropicLLM(client, "claude-test", retry=RetryPolicy(max_attempts=1, request_timeout=10.0))
    with pytest.raises(LLMRequestError, match="larger than 1,000,000 bytes once decompressed"):
        ContextRecall(llm, coverage=False).score(reference="Paris is in France.", retrieved_contexts=["Paris."])


def test_bombs_read_at_once_share_one_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from ragrecall import evaluate
    from ragrecall.llm._bounded import _BUDGET

    monkeypatch.setenv("RAGRECALL_MAX_REPLY", "1000000")
    reply = ServerReply(raw_body=_gzip(b" " * 5_000_000), headers={"Content-Encoding": "gzip"})
    samples = [{"id": f"s{n}", "reference": "Paris is in France.", "retrieved_contexts": ["Paris."]} for n in range(6)]
    with FakeOpenAIServer(lambda body: reply) as server:
        client = openai.AsyncOpenAI(api_key="sk-test", base_url=server.base_url, max_retries=0)
        retry = RetryPolicy(max_attempts=2, request_timeout=10.0, sleep=_no_sleep)
        llm = OpenAILLM(client, "gpt-4o-mini", retry=retry, breaker_threshold=None)
        result = evaluate(samples, [ContextRecall(llm, coverage=False)], max_concurrency=6, show_progress=False)
    failures = [row.results["context_recall"].failure for row in result.rows]
    assert all(f is not None for f in failures) and len(server.requests) == 12
    for failure in failures:
        assert failure is not None and server.base_url in failure.message
        assert "larger than 1,000,000 bytes" in failure.message or "read at once" in failure.message
    assert _BUDGET.held == 0, "every reply gave back what it held"
