"""A chat-completions request leaves the client the same whether it is posted directly or through ``create``;
whatever wraps ``create`` still sees every request."""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Iterator
from typing import Any

import httpx2
import openai
import pytest
from openai.resources.chat.completions import AsyncCompletions

from ragrecall.llm import OpenAILLM, RetryPolicy
from ragrecall.llm._openai_post import create_completion, sdk_create_is_stock
from ragrecall.llm.fake_server import FakeOpenAIServer, ServerReply
from ragrecall.metrics.context_recall import ContextRecall
from ragrecall.schema import Sample

SCHEMA = {"type": "object", "properties": {"claims": {"type": "array", "items": {"type": "string"}}}}
FORMAT = {"type": "json_schema", "json_schema": {"name": "Claims", "schema": SCHEMA, "strict": True}}
MESSAGES = [{"role": "system", "content": "Split <data>it</data>."}, {"role": "user", "content": 'Ünïcode "q"'}]
REPLY = json.dumps({"claims": ["Paris is in France."]})


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


class Recorder:
    """An httpx2 request hook keeping what each request put on the wire."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, dict[str, str], Any]] = []

    async def __call__(self, request: httpx2.Request) -> None:
        headers = {k.lower(): v for k, v in request.headers.items()}
        self.sent.append((request.method, str(request.url), headers, json.loads(request.content)))


def client_for(base_url: str, recorder: Recorder, cls: type[openai.AsyncOpenAI] = openai.AsyncOpenAI) -> Any:
    http_client = openai.DefaultAsyncHttpxClient(event_hooks={"request": [recorder]})
    return cls(api_key="sk-test-key", base_url=base_url, http_client=http_client, max_retries=0)


def wrap_create(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Wrap ``AsyncCompletions.create`` on the class, as tracing libraries do; the calls it sees."""
    calls: list[dict[str, Any]] = []
    original = AsyncCompletions.create

    @functools.wraps(original)
    async def traced(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(AsyncCompletions, "create", traced)
    return calls


def send(client: Any, **extra: Any) -> Any:
    sampling = {"temperature": 0.0, "seed": 0}
    body = {"model": "gpt-4o-mini", "messages": MESSAGES, "response_format": FORMAT, **sampling, **extra}
    return asyncio.run(create_completion(client, body, sampling=sampling, extra_body=extra))


@pytest.mark.parametrize("extra", [{}, {"guided_decoding_backend": "xgrammar", "temperature": 0.5}])
def test_posting_directly_sends_what_create_sends(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch, extra: dict[str, Any]
) -> None:
    direct, through_create = Recorder(), Recorder()
    server.enqueue(ServerReply(content=REPLY), ServerReply(content=REPLY))
    client = client_for(server.base_url, direct)
    assert sdk_create_is_stock(client)
    posted = send(client, **extra)
    calls = wrap_create(monkeypatch)
    wrapped_client = client_for(server.base_url, through_create)
    assert not sdk_create_is_stock(wrapped_client)
    created = send(wrapped_client, **extra)

    assert len(calls) == 1 and len(direct.sent) == len(through_create.sent) == 1
    method, url, headers, body = direct.sent[0]
    method2, url2, headers2, body2 = through_create.sent[0]
    assert (method, url, body) == (method2, url2, body2)
    assert body["temperature"] == extra.get("temperature", 0.0)
    assert body.get("guided_decoding_backend") == extra.get("guided_decoding_backend")
    assert headers["authorization"] == "Bearer sk-test-key"
    assert headers == headers2
    assert isinstance(posted, dict), "a posted request gives the reply's JSON, read by ragrecall's checks"
    assert posted["choices"][0]["message"]["content"] == created.choices[0].message.content == REPLY


def test_azure_deployment_path_is_kept() -> None:
    sent: list[str] = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        sent.append(str(request.url))
        completion = {
            "id": "c1",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-4o-mini",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": REPLY}}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
        }
        return httpx2.Response(200, json=completion)

    client = openai.AsyncAzureOpenAI(
        api_key="k",
        api_version="2024-10-21",
        azure_endpoint="https://example.invalid",
        http_client=openai.DefaultAsyncHttpxClient(transport=httpx2.MockTransport(answer)),
    )
    assert sdk_create_is_stock(client)
    completion = send(client)
    assert completion["choices"][0]["message"]["content"] == REPLY
    assert sent == ["https://example.invalid/openai/deployments/gpt-4o-mini/chat/completions?api-version=2024-10-21"]


def test_anything_replacing_create_is_called(server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    class Own(AsyncCompletions):
        async def create(self, *args: Any, **kwargs: Any) -> Any:
            return await super().create(*args, **kwargs)

    client = client_for(server.base_url, Recorder())
    assert sdk_create_is_stock(client)
    client.chat.completions.__dict__["create"] = client.chat.completions.create
    assert not sdk_create_is_stock(client), "a create set on the object"
    other = client_for(server.base_url, Recorder())
    other.chat.__dict__["completions"] = Own(other)
    assert not sdk_create_is_stock(other), "a subclass's create"

    calls = wrap_create(monkeypatch)
    llm = OpenAILLM(
        client_for(server.base_url, Recorder()), "gpt-4o-mini", retry=RetryPolicy(max_attempts=1, request_timeout=5.0)
    )
    sample = Sample(reference="Paris is the capital of France.", retrieved_contexts=["Rome is in Italy."])
    result = ContextRecall(llm).score(sample)
    assert result.value is not None
    assert len(calls) == result.usage.requests >= 1, "a class-level wrapper sees every request"


def reply_body(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": "c1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": REPLY}}],
        "usage": {"prompt_tokens": 30, "completion_tokens": 5, "prompt_tokens_details": {"cached_tokens": 10}},
    }
    body.update(changes)
    return body


BODIES = {
    "valid": reply_body(),
    "no usage": reply_body(usage=None),
    "usage of another shape": reply_body(usage=[1, 2]),
    "more cached than prompt": reply_body(usage={"prompt_tokens": 3, "prompt_tokens_details": {"cached_tokens": 9}}),
    "tokens as text": reply_body(usage={"prompt_tokens": "30", "completion_tokens": 5}),
    "an error object": reply_body(error={"message": "overloaded", "code": 529}),
    "no choices": reply_body(choices=[]),
    "choices of another shape": reply_body(choices="none"),
    "no message": reply_body(choices=[{"index": 0, "finish_reason": "stop"}]),
    "content not text": reply_body(choices=[{"finish_reason": "stop", "message": {"content": ["a"]}}]),
    "refusal": reply_body(choices=[{"finish_reason": "stop", "message": {"content": None, "refusal": "No."}}]),
    "cut off": reply_body(choices=[{"finish_reason": "length", "message": {"content": "{"}}]),
    "finish reason of another type": reply_body(choices=[{"finish_reason": 3, "message": {"content": "x"}}]),
}


@pytest.mark.parametrize("name", sorted(BODIES))
def test_json_body_reads_as_the_sdk_object_does(name: str) -> None:
    """The reader of a posted reply's JSON and the reader of the SDK's object agree on every body."""
    from openai._models import construct_type
    from openai.types.chat import ChatCompletion

    from ragrecall.llm._openai_reply import read_completion, read_completion_json

    body = BODIES[name]
    assert read_completion_json(body) == read_completion(construct_type(type_=ChatCompletion, value=body))


def test_a_body_that_is_not_json_is_its_text() -> None:
    from ragrecall.llm._openai_post import json_body

    assert json_body(b"<html>Sign in</html>") == "<html>Sign in</html>"
    assert json_body(b"\xff\xfe") == "\ufffd\ufffd"
    assert json_body(b'{"a": 1}') == {"a": 1}


def test_a_wrapper_put_on_the_class_before_import_is_seen(
    server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain function put on the class before ragrecall was imported is no SDK function: create is called."""
    import importlib

    import ragrecall.llm._openai_post as post

    wrap_create(monkeypatch)
    try:
        importlib.reload(post)
        assert not post.sdk_create_is_stock(client_for(server.base_url, Recorder()))
    finally:
        monkeypatch.undo()
        importlib.reload(post)
    assert post.sdk_create_is_stock(client_for(server.base_url, Recorder()))
